// libFuzzer target for the lesson reader (docs/fuzzing.md): bytes -> parseLesson -> checks of
// the lesson, two simulation steps of its scene, its tasks' beginTask / checkTask. Every broken
// invariant aborts, so that libFuzzer (or the replay driver, replay_main.cpp) reports the input.
//
// Invariants checked:
// - parseLesson throws LessonError (= scene::SceneError) or nothing: no other exception, no
//   crash, no UB; the error names the file, has a message, and a 1-based position or none;
// - isLessonText never throws, and is true for every text parseLesson accepts;
// - parsing the same text twice gives the same lesson (pages, tasks, selection, steps);
// - what the reader promises holds: at least one page, agent indices (selection, construction
//   neighbour, task agents) inside the scene, steps at most 100,000, task kinds that name
//   themselves back, a page's steps as pageSteps reports them;
// - a small lesson scene builds a Simulator without throwing and stays finite for two steps;
//   beginTask and checkTask (with and without agent A's explain record) never throw, before
//   and after the steps.
// A lesson's "scene" may name a scene file relative to the lesson: the target reads lessons
// as if they were in lessons/ (so "../scenes/NAME.json" loads a bundled scene) and skips any
// other file name, so that no input makes it read arbitrary files.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/lesson.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

#ifndef ORCA_FUZZ_LESSON_DIR
#error "ORCA_FUZZ_LESSON_DIR (the bundled lessons' folder) must be defined"
#endif

namespace {

using namespace orca;
using namespace orca::lesson;

/// Larger scenes are only parsed: stepping them would make each input slow.
constexpr std::size_t kMaxSimAgents = 200;
constexpr std::size_t kMaxSimVertices = 2000;
/// Tasks checked per input (each may make a dry-run explain).
constexpr std::size_t kMaxTasks = 16;
/// The reader's limit on "steps" (lesson.cpp).
constexpr std::uint64_t kMaxSteps = 100000;

[[noreturn]] void violated(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "lesson_fuzz: invariant violated: %s\n%s\n", what, detail.c_str());
    std::fflush(stderr);
    __builtin_trap();
}

const std::filesystem::path& lessonFile() {
    static const std::filesystem::path file =
        std::filesystem::path(ORCA_FUZZ_LESSON_DIR) / "fuzz.json";
    return file;
}

/// False when the lesson names a scene file other than "../scenes/NAME.json" (NAME: letters,
/// digits, '_', '-'): such an input would read a file outside the fuzzer's control.
bool sceneFileAllowed(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return true;
    const auto it = j.find("scene");
    if (it == j.end() || !it->is_string()) return true;
    const std::string& name = it->get_ref<const std::string&>();
    const std::string prefix = "../scenes/";
    const std::string suffix = ".json";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return false;
    for (std::size_t i = prefix.size(); i < name.size() - suffix.size(); ++i) {
        const char c = name[i];
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

bool tryParse(const std::string& text, LessonLoad& out) {
    try {
        out = parseLesson(text, lessonFile());
        return true;
    } catch (const LessonError& e) {
        const std::string what = e.what();
        if (what.rfind(lessonFile().string(), 0) != 0 || e.message().empty())
            violated("bad LessonError", what);
        if (e.line() < 0 || e.column() < 0 || (e.line() == 0) != (e.column() == 0))
            violated("bad LessonError position", what);
        return false;
    } catch (const std::exception& e) {
        violated("parseLesson threw something other than LessonError", e.what());
    }
}

bool sameTask(const std::optional<LessonTask>& a, const std::optional<LessonTask>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    return a->kind == b->kind && a->text == b->text && a->success == b->success &&
           a->agent == b->agent && a->other == b->other && a->lineCase == b->lineCase &&
           a->param == b->param && (a->value == b->value);
}

bool samePage(const LessonPage& a, const LessonPage& b) {
    return a.title == b.title && a.text == b.text && a.layers == b.layers && a.select == b.select &&
           a.camera == b.camera && a.steps == b.steps && a.run == b.run &&
           a.construction == b.construction && a.solveStep == b.solveStep && a.panels == b.panels &&
           sameTask(a.task, b.task);
}

void checkDeterministic(const LessonLoad& first, const std::string& text) {
    LessonLoad again;
    if (!tryParse(text, again)) violated("a lesson loaded once and failed the second time");
    const Lesson& a = first.lesson;
    const Lesson& b = again.lesson;
    if (a.title != b.title || a.summary != b.summary || !(a.scene == b.scene) ||
        a.sceneFile != b.sceneFile || a.camera != b.camera || a.select != b.select ||
        a.layers != b.layers || a.steps != b.steps || a.pages.size() != b.pages.size())
        violated("parseLesson is not deterministic (lesson)");
    for (std::size_t i = 0; i < a.pages.size(); ++i)
        if (!samePage(a.pages[i], b.pages[i]))
            violated("parseLesson is not deterministic (page)", std::to_string(i));
    if (first.warnings.size() != again.warnings.size())
        violated("parseLesson's warnings are not deterministic");
}

void checkIndex(std::size_t index, std::size_t agents, const char* what) {
    if (index >= agents) violated(what, std::to_string(index) + " of " + std::to_string(agents));
}

/// What the reader promises about an accepted lesson.
void checkLesson(const Lesson& l) {
    const std::size_t agents = l.scene.agents.size();
    if (l.pages.empty()) violated("a lesson without pages loaded");
    if (l.title.empty()) violated("a lesson without a title loaded");
    if (l.steps > kMaxSteps) violated("lesson steps beyond the limit");
    for (const std::size_t i : l.select)
        checkIndex(i, agents, "lesson selection out of range");
    std::size_t tasks = 0;
    for (std::size_t p = 0; p < l.pages.size(); ++p) {
        const LessonPage& page = l.pages[p];
        if (page.title.empty() || page.text.empty()) violated("a page without title or text");
        if (page.steps && *page.steps > kMaxSteps) violated("page steps beyond the limit");
        if (page.steps && l.pageSteps(p) != *page.steps) violated("pageSteps ignores the page");
        if (l.pageSteps(p) > kMaxSteps) violated("pageSteps beyond the limit");
        const std::vector<std::size_t>& sel = l.pageSelect(p);
        for (const std::size_t i : sel)
            checkIndex(i, agents, "page selection out of range");
        if (page.construction) {
            if (sel.empty()) violated("construction mode without a selected agent");
            const LessonConstruction& c = *page.construction;
            if (c.agent) checkIndex(*c.agent, agents, "construction neighbour out of range");
            if (c.phase < 0 || c.phase > 2) violated("construction phase out of range");
        }
        if (page.construction && page.solveStep) violated("construction and solve on one page");
        for (const std::string& name : page.panels) {
            bool known = false;
            for (const std::string_view n : panelNames())
                known = known || n == name;
            if (!known) violated("a page opens an unknown window", name);
        }
        if (!page.task) continue;
        ++tasks;
        const LessonTask& t = *page.task;
        if (t.text.empty()) violated("a task without text");
        if (taskKindFromName(toString(t.kind)) != t.kind) violated("task kind name round trip");
        if (t.agent) checkIndex(*t.agent, agents, "task agent out of range");
        if (t.other) checkIndex(*t.other, agents, "task other agent out of range");
        if (!std::isfinite(t.value)) violated("a task with a non-finite value");
    }
    if (tasks != l.taskCount()) violated("taskCount disagrees with the pages");
}

bool finite(const Simulator& sim) {
    for (std::size_t a = 0; a < sim.agentCount(); ++a) {
        const Vec2 p = sim.positions()[a];
        const Vec2 v = sim.velocities()[a];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(v.x) ||
            !std::isfinite(v.y))
            return false;
    }
    return true;
}

/// beginTask at the start, checkTask now (with and without agent A's record).
void checkTasks(const Lesson& l, const Simulator& sim, std::vector<TaskContext>& contexts,
                bool begin) {
    std::size_t checked = 0;
    for (std::size_t p = 0; p < l.pages.size() && checked < kMaxTasks; ++p) {
        if (!l.pages[p].task) continue;
        const LessonTask& task = *l.pages[p].task;
        const std::vector<std::size_t>& sel = l.pageSelect(p);
        const std::optional<std::size_t> primary =
            sel.empty() ? std::nullopt : std::optional<std::size_t>(sel.back());
        if (begin) contexts.push_back(beginTask(task, sim, primary));
        const TaskContext& context = contexts[checked++];
        const TaskStatus plain = checkTask(task, sim, nullptr, context);
        if (plain.progress.empty()) violated("checkTask without a progress text");
        if (context.agent && *context.agent < sim.agentCount()) {
            const ExplainRecord rec = sim.explain(sim.agentIdAt(*context.agent));
            const TaskStatus withRecord = checkTask(task, sim, &rec, context);
            if (withRecord.done != plain.done || withRecord.progress != plain.progress)
                violated("checkTask with A's record disagrees with its dry run",
                         std::string(toString(task.kind)));
        }
    }
}

void checkSimulation(const Lesson& l) {
    const scene::Scene& scene = l.scene;
    if (scene.agents.size() > kMaxSimAgents) return;
    std::size_t vertices = 0;
    for (const scene::SceneObstacle& o : scene.obstacles)
        vertices += o.vertices.size();
    if (vertices > kMaxSimVertices) return;
    try {
        Simulator sim = scene::buildSimulator(scene);
        std::vector<TaskContext> contexts;
        checkTasks(l, sim, contexts, true);
        for (int i = 0; i < 2; ++i) {
            sim.step();
            if (!finite(sim)) violated("non-finite agent state after a step");
        }
        checkTasks(l, sim, contexts, false);
    } catch (const std::exception& e) {
        violated("a loaded lesson's scene does not simulate, or a task check threw", e.what());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    bool looksLikeLesson = false;
    try {
        looksLikeLesson = isLessonText(text);
    } catch (const std::exception& e) {
        violated("isLessonText threw", e.what());
    }
    if (!sceneFileAllowed(text)) return 0;
    LessonLoad load;
    if (!tryParse(text, load)) return 0;
    if (!looksLikeLesson) violated("parseLesson accepted a text isLessonText refuses");
    checkDeterministic(load, text);
    checkLesson(load.lesson);
    checkSimulation(load.lesson);
    return 0;
}
