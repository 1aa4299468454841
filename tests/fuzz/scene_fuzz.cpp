// libFuzzer target for the scene loader (docs/fuzzing.md): bytes -> parseScene -> lint, fixes,
// serialise, re-parse, simulate. Every broken invariant aborts, so that libFuzzer (or the replay
// driver, replay_main.cpp) reports the input.
//
// Invariants checked:
// - parseScene throws SceneError or nothing (no other exception, no crash, no UB);
// - with and without winding repair, the same inputs load (repair only reverses polygons);
// - a loaded scene serialises to text that loads again to an equal scene, and serialising that
//   scene gives the same text (the saved layout is stable), without warnings;
// - lintScene never throws, is deterministic and sorts errors first; each issue names a rule
//   and a message; applying a fix never throws and leaves a scene that still serialises to
//   loadable text;
// - a small loaded scene builds a Simulator without throwing and stays finite for two steps.
// Inputs that start with '<' go to the importers (orca/scene/import.hpp, docs/import.md)
// instead, split at the first line "---" into up to two files (a Menge scene and behaviour):
// - importTexts throws SceneError (naming the file, 1-based position or none) or
//   std::invalid_argument, nothing else;
// - an import is deterministic, its scene serialises to text that loads again without
//   warnings (counter-clockwise polygons, values in range), and a small one simulates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/import.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace {

using namespace orca;
using namespace orca::scene;

/// Larger scenes are only parsed, linted and round-tripped: stepping them would make each
/// input slow without exercising other loader code.
constexpr std::size_t kMaxSimAgents = 200;
constexpr std::size_t kMaxSimVertices = 2000;
/// Fixes applied per input (each re-serialises the scene).
constexpr std::size_t kMaxFixes = 16;

[[noreturn]] void violated(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "scene_fuzz: invariant violated: %s\n%s\n", what, detail.c_str());
    std::fflush(stderr);
    __builtin_trap();
}

const char* const kFile = "fuzz.json";

/// parseScene that turns anything but SceneError into a violation; nullopt-like via `ok`.
bool tryParse(const std::string& text, const LoadOptions& options, LoadResult& out,
              std::string* error = nullptr) {
    try {
        out = parseScene(text, kFile, options);
        return true;
    } catch (const SceneError& e) {
        const std::string what = e.what();
        // Every message names the file and says something.
        if (what.rfind(kFile, 0) != 0 || e.message().empty()) violated("bad SceneError", what);
        // A syntax error has a position (1-based), any other error none.
        if (e.line() < 0 || e.column() < 0 || (e.line() == 0) != (e.column() == 0))
            violated("bad SceneError position", what);
        if (error != nullptr) *error = what;
        return false;
    } catch (const std::exception& e) {
        violated("parseScene threw something other than SceneError", e.what());
    }
}

/// serialise -> parse -> equal -> serialise again gives the same text.
void checkRoundTrip(const Scene& scene, bool repairWinding, const char* stage) {
    const std::string text = serializeScene(scene);
    LoadResult again;
    std::string error;
    if (!tryParse(text, LoadOptions{.repairWinding = repairWinding}, again, &error))
        violated(stage, "serialised scene does not load: " + error + "\n" + text);
    if (!(again.scene == scene)) violated(stage, "round trip changed the scene:\n" + text);
    if (!again.warnings.empty())
        violated(stage, "serialised scene loads with warnings: " + again.warnings[0].message);
    const std::string text2 = serializeScene(again.scene);
    if (text2 != text) violated(stage, "serialisation is not stable:\n" + text + "\n---\n" + text2);
}

void checkLint(const Scene& scene) {
    std::vector<LintIssue> issues;
    try {
        issues = lintScene(scene);
    } catch (const std::exception& e) {
        violated("lintScene threw", e.what());
    }
    // Sorted by severity (errors first) and deterministic.
    for (std::size_t i = 1; i < issues.size(); ++i) {
        if (issues[i - 1].severity > issues[i].severity) violated("lint issues out of order");
    }
    const std::vector<LintIssue> again = lintScene(scene);
    if (again.size() != issues.size()) violated("lintScene is not deterministic");
    for (std::size_t i = 0; i < issues.size(); ++i) {
        if (again[i].rule != issues[i].rule || again[i].jsonPath != issues[i].jsonPath ||
            again[i].message != issues[i].message)
            violated("lintScene is not deterministic", issues[i].rule);
    }
    std::size_t fixes = 0;
    for (const LintIssue& issue : issues) {
        if (issue.rule.empty() || issue.message.empty())
            violated("lint issue without rule/message");
        if (!std::isfinite(issue.where.x) || !std::isfinite(issue.where.y))
            violated("lint issue with a non-finite location", issue.rule);
        if (issue.fixLabel.empty() || fixes >= kMaxFixes) continue;
        ++fixes;
        Scene fixed = scene;
        bool applied = false;
        try {
            applied = applyLintFix(fixed, issue);
        } catch (const std::exception& e) {
            violated("applyLintFix threw", issue.rule + ": " + e.what());
        }
        if (!applied) continue;
        // A fixed scene must still be one that saves and loads (as written: no repair).
        LoadResult reloaded;
        std::string error;
        const std::string text = serializeScene(fixed);
        if (!tryParse(text, LoadOptions{.repairWinding = false}, reloaded, &error))
            violated("fix leaves a scene that does not load", issue.rule + ": " + error);
    }
}

void checkSimulation(const Scene& scene) {
    if (scene.agents.size() > kMaxSimAgents) return;
    std::size_t vertices = 0;
    for (const SceneObstacle& o : scene.obstacles)
        vertices += o.vertices.size();
    if (vertices > kMaxSimVertices) return;
    try {
        Simulator sim = buildSimulator(scene);
        for (int i = 0; i < 2; ++i) {
            sim.step();
            for (std::size_t a = 0; a < sim.agentCount(); ++a) {
                const Vec2 p = sim.positions()[a];
                const Vec2 v = sim.velocities()[a];
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(v.x) ||
                    !std::isfinite(v.y))
                    violated("non-finite agent state after a step", std::to_string(a));
            }
        }
        if (sim.agentCount() > 0) (void)sim.explain(sim.agentIdAt(0));
        (void)captureState(scene, sim);
    } catch (const std::exception& e) {
        violated("a loaded scene does not simulate", e.what());
    }
}

/// The importers on one input (see the invariants above).
void checkImport(const std::string& text) {
    std::vector<ImportText> inputs;
    const std::size_t split = text.find("\n---\n");
    if (split == std::string::npos) {
        inputs.push_back({"fuzz1.xml", text});
    } else {
        inputs.push_back({"fuzz1.xml", text.substr(0, split)});
        inputs.push_back({"fuzz2.xml", text.substr(split + 5)});
    }
    // A project's files cannot be read while fuzzing: its reader refuses them.
    const ImportFileReader reader = [](const std::filesystem::path& path) -> ImportText {
        throw SceneError(path.string(), "", 0, 0, "not read while fuzzing");
    };
    auto run = [&](ImportResult& out) {
        try {
            out = importTexts(inputs, ImportOptions{}, reader);
            return true;
        } catch (const SceneError& e) {
            const std::string what = e.what();
            if (e.file().empty() || e.message().empty()) violated("bad import SceneError", what);
            if (e.line() < 0 || e.column() < 0 || (e.line() == 0) != (e.column() == 0))
                violated("bad import SceneError position", what);
            return false;
        } catch (const std::invalid_argument&) {
            return false;
        } catch (const std::exception& e) {
            violated("importTexts threw something other than SceneError", e.what());
        }
    };
    ImportResult first;
    if (!run(first)) return;
    ImportResult second;
    if (!run(second)) violated("an import succeeded once and failed the second time");
    const std::string saved = serializeScene(first.scene);
    if (saved != serializeScene(second.scene)) violated("an import is not deterministic");
    if (first.dropped != second.dropped || first.notes != second.notes)
        violated("an import's report is not deterministic");
    (void)importReportJson(first).dump();
    LoadResult back;
    std::string error;
    if (!tryParse(saved, LoadOptions{}, back, &error))
        violated("an imported scene does not load again", error);
    if (!back.warnings.empty())
        violated("an imported scene loads with warnings", back.warnings.front().message);
    checkSimulation(back.scene);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
        first != std::string::npos && text[first] == '<') {
        checkImport(text);
        return 0;
    }

    LoadResult repaired;
    LoadResult asWritten;
    const bool okRepaired = tryParse(text, LoadOptions{}, repaired);
    const bool okAsWritten = tryParse(text, LoadOptions{.repairWinding = false}, asWritten);
    if (okRepaired != okAsWritten) violated("winding repair changes whether the scene loads");
    if (!okRepaired) return 0;
    if (repaired.scene.agents.size() != asWritten.scene.agents.size() ||
        repaired.scene.obstacles.size() != asWritten.scene.obstacles.size())
        violated("winding repair changes the scene's size");

    checkRoundTrip(repaired.scene, true, "round trip (repaired)");
    checkRoundTrip(asWritten.scene, false, "round trip (as written)");
    checkLint(asWritten.scene);
    checkSimulation(repaired.scene);
    return 0;
}
