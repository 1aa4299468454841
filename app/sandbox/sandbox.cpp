#include "sandbox.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "orca/ui/style.hpp"

#include "document/import_open.hpp"
#include "shell/panel_table.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

std::string idText(const std::optional<nlohmann::json>& id) {
    if (!id) return {};
    return id->is_string() ? id->get<std::string>() : id->dump();
}

// Camera and layers from a scene's "view" block, when present and well formed.
void restoreView(SandboxContext& ctx) {
    const auto it = ctx.doc.scene.extra.find("view");
    if (it == ctx.doc.scene.extra.end() || !it->is_object()) return;
    const nlohmann::ordered_json& view = *it;
    const auto centre = view.find("center");
    const auto zoom = view.find("zoom");
    if (centre != view.end() && centre->is_array() && centre->size() == 2 &&
        (*centre)[0].is_number() && (*centre)[1].is_number() && zoom != view.end() &&
        zoom->is_number() && zoom->get<double>() > 0.0) {
        ctx.view.camera.setCenter({(*centre)[0].get<double>(), (*centre)[1].get<double>()});
        ctx.view.camera.setScale(zoom->get<double>());
        ctx.view.fitRequested = false;
    }
    if (const auto layers = view.find("layers"); layers != view.end())
        layersFromJson(nlohmann::json::parse(layers->dump()), ctx.view.layers);
    // "select": agents (file order) selected on opening, the last one primary.
    if (const auto select = view.find("select"); select != view.end() && select->is_array()) {
        std::vector<std::size_t> indices;
        for (const auto& i : *select)
            if (i.is_number_unsigned() && i.get<std::uint64_t>() < ctx.session.sim.agentCount())
                indices.push_back(i.get<std::size_t>());
        std::string ignored;
        if (!indices.empty()) selectByIndex(ctx.explain, ctx.session.sim, indices, ignored);
    }
    // "timeScale": the real-time speed to play the scene at (the welcome scene is slow enough to
    // follow the velocity panel).
    if (const auto scale = view.find("timeScale"); scale != view.end() && scale->is_number()) {
        const double v = scale->get<double>();
        if (v >= 0.25 && v <= 64.0) {
            ctx.session.clockSettings.mode = RunMode::RealTime;
            ctx.session.clockSettings.timeScale = v;
        }
    }
    // "hint": one line shown over the view until dismissed (the welcome scene's what-to-click).
    if (const auto hint = view.find("hint"); hint != view.end() && hint->is_string())
        ctx.windows.sceneHint = hint->get<std::string>();
}

void resetSceneCaches(SandboxContext& ctx) {
    ++ctx.session.stateVersion;
    ctx.explain.recordsStamp.invalidate();
    ctx.explain.records.clear();
    ctx.explain.overlayHover = {};
    ctx.explain.hoverRecordStamp.invalidate();
    ctx.session.metricsHistory.clear();
    ctx.session.metricsNow.invalidate();
    ctx.view.renderer.clearTrails();
    ctx.session.running = false;
    ctx.session.clock.reset();
    ctx.session.pendingSingleSteps = 0;
    startRecording(ctx); // a new simulation: a new recording
}

void installScene(SandboxContext& ctx, scene::Scene scene, Simulator sim, fs::path file) {
    ctx.playback = PlaybackState{}; // another scene: no recording on screen
    ctx.doc.scene = std::move(scene);
    ctx.session.sim = std::move(sim);
    ctx.session.sim.setThreadCount(ctx.session.threads);
    ctx.doc.sceneFile = std::move(file);
    ctx.doc.suggestedFile.clear();
    ctx.doc.importedFrom.clear();
    ctx.doc.agentNames.clear();
    for (const scene::SceneAgent& a : ctx.doc.scene.agents)
        ctx.doc.agentNames.push_back(idText(a.id));
    ctx.doc.unsaved.reset(ctx.doc.scene);
    ctx.explain.selection.clear();
    ctx.doc.history.clear();
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    ctx.editor.drawing.clear();
    ctx.editor.drag = {};
    ctx.editor.skippedObstacles.clear();
    ctx.editor.skippedReasons.clear();
    holdGeneratorPreview(ctx.editor.generator, "another scene was opened");
    ++ctx.doc.editVersion;
    ctx.explain.construction.neighbor = 0;
    ctx.explain.construction.phase = 0;
    ctx.windows.paramsError.clear();
    ctx.windows.sceneHint.clear();
    resetSceneCaches(ctx);
    ctx.view.fitRequested = true;
    ctx.requests.titleChanged = true;
    restoreView(ctx);
}

// Makes `sim` the running simulation of the current scene (paused, caches reset, selection
// kept by index).
// The scene may hold obstacles the simulator rejects (clockwise, or not a valid polygon) while
// it is being edited: they are left out (scene::buildSimulator with a BuildReport) and listed
// for the editor to show.
void adoptSimulation(SandboxContext& ctx, Simulator sim, scene::BuildReport report) {
    sim.setThreadCount(ctx.session.threads);
    ctx.explain.selection.remap(ctx.session.sim, sim);
    ctx.session.sim = std::move(sim);
    ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
    ctx.editor.skippedReasons = std::move(report.reasons);
    resetSceneCaches(ctx); // keeps the view, the selection and the unsaved state
}

// After the scene changed: selections that no longer exist go, the unsaved flag follows.
void afterSceneChange(SandboxContext& ctx) {
    ctx.editor.hover.reset(); // picked from the scene as it was
    ctx.explain.selection.prune(ctx.session.sim);
    std::erase_if(ctx.editor.obstacles,
                  [&](std::size_t i) { return i >= ctx.doc.scene.obstacles.size(); });
    if (ctx.editor.vertex &&
        (ctx.editor.vertex->obstacle >= ctx.doc.scene.obstacles.size() ||
         ctx.editor.vertex->vertex >=
             ctx.doc.scene.obstacles[ctx.editor.vertex->obstacle].vertices.size()))
        ctx.editor.vertex.reset();
    ctx.doc.unsaved.update(ctx.doc.scene);
    ++ctx.doc.editVersion;
}

} // namespace

scene::LoadOptions appLoadOptions(const Document& doc) {
    scene::LoadOptions options;
    options.maxFileSize = doc.maxFileSize;
    options.maxFileSizeSetting = "--max-file-size";
    return options;
}

bool loadSceneFile(SandboxContext& ctx, const fs::path& file, std::string& error) {
    if (isRecordingFile(file)) return openRecordingFile(ctx, file, error);
    if (isImportFile(file)) return openImportedFile(ctx, file, error); // SteerSuite, Menge
    try {
        // The file as written, as `orca validate --lint` reads it: a clockwise obstacle is not
        // repaired silently but kept, left out of the simulation (outlined in red) and listed
        // by the Linter with its fix.
        scene::LoadOptions options = appLoadOptions(ctx.doc);
        options.repairWinding = false;
        scene::LoadResult loaded = scene::loadScene(file, options);
        scene::BuildReport report;
        Simulator sim = scene::buildSimulator(loaded.scene, report);
        if (!loaded.warnings.empty()) {
            std::string text;
            for (const scene::SceneWarning& w : loaded.warnings) {
                const std::string line = file.string() + ": warning: " +
                                         (w.jsonPath.empty() ? "" : "at " + w.jsonPath + ": ") +
                                         w.message;
                std::fprintf(stderr, "%s\n", line.c_str());
                text += line + "\n";
            }
            ctx.windows.messages.push("Scene loaded with warnings", text);
        }
        installScene(ctx, std::move(loaded.scene), std::move(sim), file);
        ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
        ctx.editor.skippedReasons = std::move(report.reasons);
        ctx.settings.addRecentFile(file);
        return true;
    } catch (const scene::SceneError& e) {
        error = e.what();
    } catch (const std::exception& e) {
        error = file.string() + ": error: " + e.what();
    }
    return false;
}

bool loadSceneObject(SandboxContext& ctx, scene::Scene scene, const fs::path& file,
                     std::string& error) {
    try {
        Simulator sim = scene::buildSimulator(scene);
        installScene(ctx, std::move(scene), std::move(sim), file);
        return true;
    } catch (const std::exception& e) {
        error = (file.empty() ? std::string("scene") : file.string()) + ": error: " + e.what();
    }
    return false;
}

scene::Scene newScene() {
    scene::Scene s;
    // The format's defaults are RVO2's (neighborDist 15 < maxSpeed 2 x timeHorizon 10), which
    // the linter rightly flags: a new scene starts with agents that see far enough ahead.
    AgentParams& d = s.agentDefaults;
    d.neighborDist = std::max(d.neighborDist, d.maxSpeed * d.timeHorizon);
    return s;
}

void setEmptyScene(SandboxContext& ctx) {
    installScene(ctx, newScene(), Simulator{}, {});
}

bool adoptUnsavedScene(SandboxContext& ctx, scene::Scene scene, const fs::path& suggestedFile,
                       std::string& error) {
    scene::BuildReport report;
    Simulator sim;
    try {
        sim = scene::buildSimulator(scene, report);
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
    ctx.doc.scene = std::move(scene);
    ctx.doc.sceneFile.clear();
    ctx.doc.suggestedFile = suggestedFile;
    ctx.doc.importedFrom.clear();
    ctx.doc.agentNames.clear();
    for (const scene::SceneAgent& a : ctx.doc.scene.agents)
        ctx.doc.agentNames.push_back(idText(a.id));
    ctx.doc.history.clear();
    ctx.doc.unsaved.reset(scene::Scene{}); // never saved: unsaved work
    ctx.doc.unsaved.update(ctx.doc.scene);
    ++ctx.doc.editVersion;
    adoptSimulation(ctx, std::move(sim), std::move(report));
    ctx.requests.titleChanged = true;
    return true;
}

void restartScene(SandboxContext& ctx) {
    if (ctx.playback.active) { // the recording's start
        playbackSeek(ctx, 0);
        return;
    }
    try {
        scene::BuildReport report;
        Simulator sim = scene::buildSimulator(ctx.doc.scene, report);
        adoptSimulation(ctx, std::move(sim), std::move(report));
    } catch (const std::exception& e) {
        ctx.windows.messages.push("Restart failed", e.what());
    }
}

void sceneEdited(SandboxContext& ctx) {
    restartScene(ctx);
    afterSceneChange(ctx);
}

bool replaceScene(SandboxContext& ctx, scene::Scene after, std::string& error) {
    try {
        scene::BuildReport report;
        Simulator sim = scene::buildSimulator(after, report);
        ctx.doc.scene = std::move(after);
        adoptSimulation(ctx, std::move(sim), std::move(report));
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
    afterSceneChange(ctx);
    return true;
}

std::string sceneNameFromFile(const fs::path& file) {
    std::string name = file.stem().string();
    std::replace(name.begin(), name.end(), '_', ' ');
    const auto first = name.find_first_not_of(' ');
    if (first == std::string::npos) return "Untitled";
    name.erase(0, first);
    name.erase(name.find_last_not_of(' ') + 1);
    if (name[0] >= 'a' && name[0] <= 'z') name[0] = static_cast<char>(name[0] - 'a' + 'A');
    return name;
}

bool saveSceneAs(SandboxContext& ctx, const fs::path& file) {
    scene::Scene out = ctx.doc.scene;
    // A scene without a name (a new one) is named after its file, and keeps that name.
    if (out.name.empty()) out.name = sceneNameFromFile(file);
    // The view block is updated, not replaced: keys the app does not write (a "hint") stay.
    nlohmann::ordered_json view = nlohmann::ordered_json::object();
    if (const auto it = out.extra.find("view"); it != out.extra.end() && it->is_object())
        view = *it;
    view["center"] = {ctx.view.camera.center().x, ctx.view.camera.center().y};
    view["zoom"] = ctx.view.camera.scale();
    view["layers"] = nlohmann::ordered_json::parse(layersToJson(ctx.view.layers).dump());
    view.erase("select");
    nlohmann::ordered_json select = nlohmann::ordered_json::array();
    const std::optional<std::size_t> primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    for (const std::size_t i : ctx.explain.selection.indices(ctx.session.sim))
        if (i != primary) select.push_back(i);
    if (primary) select.push_back(*primary); // the last one is the primary again on opening
    if (!select.empty()) view["select"] = std::move(select);
    out.extra["view"] = std::move(view);
    try {
        scene::saveScene(out, file);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        reportFailure(ctx.windows, "Could not save the scene",
                      std::string(e.what()) + "\n\nNothing was written; the scene is kept.");
        return false;
    }
    ctx.settings.addRecentFile(file);
    if (ctx.playback.active) {
        // The frame on screen as a scene; the recording stays open (and is never written).
        setNote(ctx.windows, "saved frame " + std::to_string(ctx.playback.frame) + " as " +
                                 file.string() + " (the recording stays open)");
        return true;
    }
    ctx.doc.scene = std::move(out);
    ctx.doc.unsaved.reset(ctx.doc.scene);
    if (ctx.doc.sceneFile != file) {
        ctx.doc.sceneFile = file;
        ctx.requests.titleChanged = true;
    }
    forgetRecovery(ctx); // the work is in the file now
    setNote(ctx.windows, "saved " + file.string());
    return true;
}

void refreshRecords(ExplainView& explain, const Session& session) {
    // Solve mode needs the primary record's LP trace (recorded only while it is on).
    const ExplainRecord* primary = primaryRecord(explain);
    const bool traceMissing =
        explain.solve.active && primary && !primary->isStatic && !primary->lpTrace;
    if (!explain.recordsStamp.stale(session.stateVersion) && !traceMissing) return;
    explain.selection.prune(session.sim);
    ExplainOptions what;
    what.lpTrace = explain.solve.active;
    if (explain.selection.empty())
        explain.records.clear();
    else
        explain.records = session.sim.explain(explain.selection.ids(), what);
    explain.recordsStamp.refresh(session.stateVersion);
    clampConstruction(explain.construction, primaryRecord(explain));
}

const ExplainRecord* primaryRecord(const ExplainView& explain) {
    const AgentId p = explain.selection.primary();
    if (p.isNull()) return nullptr;
    for (const ExplainRecord& r : explain.records)
        if (r.agent == p) return &r;
    return nullptr;
}

bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit) {
    return editAgents(ctx, edit, ctx.explain.selection.ids());
}

bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit, std::span<const AgentId> ids) {
    if (ctx.playback.active) {
        // An edit turns the recording's frame into a scene first; the agents keep their indices.
        std::vector<std::size_t> indices;
        for (const AgentId id : ids)
            if (const auto i = ctx.session.sim.indexOf(id)) indices.push_back(*i);
        if (!leavePlayback(ctx, "edited")) return false;
        std::vector<AgentId> now;
        for (const std::size_t i : indices)
            if (i < ctx.session.sim.agentCount()) now.push_back(ctx.session.sim.agentIdAt(i));
        return editAgents(ctx, edit, now);
    }
    whatIfSettle(ctx);
    scene::Scene before = ctx.doc.scene;
    const std::string mergeKey = std::string("param:") + ui::fieldName(edit.field);
    ParameterEditRecording recording = prepareParameterEdit(ctx, mergeKey);
    const bool ok =
        applyAgentEdit(ctx.doc.scene, ctx.session.sim, ids, edit, ctx.windows.paramsError);
    if (ok) {
        const std::size_t n = ids.size();
        ctx.doc.history.record(sceneEditBetween(before, ctx.doc.scene,
                                                std::string("Set ") + ui::fieldName(edit.field) +
                                                    " of " + std::to_string(n) +
                                                    (n == 1 ? " agent" : " agents")),
                               mergeKey);
        commitParameterEdit(ctx, std::move(recording)); // cuts the recorded future
        ++ctx.doc.editVersion;
        ctx.doc.unsaved.update(ctx.doc.scene);
        ++ctx.session.stateVersion;
        refreshRecords(ctx.explain,
                       ctx.session); // paused or not, the overlays show the edit at once
    }
    return ok;
}

bool editSimulation(SandboxContext& ctx, const SimulationParams& params) {
    if (!leavePlayback(ctx, "edited")) return false; // (the frame becomes a scene first)
    const scene::SceneHeader before = scene::SceneHeader::of(ctx.doc.scene);
    ParameterEditRecording recording = prepareParameterEdit(ctx, "simulation");
    const bool ok =
        applySimulationEdit(ctx.doc.scene, ctx.session.sim, params, ctx.windows.paramsError);
    if (ok) {
        scene::SceneEdit e;
        e.label = "Set simulation parameters";
        e.headerBefore = before;
        e.headerAfter = scene::SceneHeader::of(ctx.doc.scene);
        if (!(*e.headerBefore == *e.headerAfter)) {
            ctx.doc.history.record(std::move(e), "simulation");
            ++ctx.doc.editVersion;
        }
        commitParameterEdit(ctx, std::move(recording)); // cuts the recorded future
        ctx.doc.unsaved.update(ctx.doc.scene);
        ++ctx.session.stateVersion;
        refreshRecords(ctx.explain, ctx.session);
    }
    return ok;
}

bool selectByIndex(ExplainView& explain, const Simulator& sim,
                   const std::vector<std::size_t>& indices, std::string& error) {
    std::vector<AgentId> ids;
    for (const std::size_t i : indices) {
        if (i >= sim.agentCount()) {
            error = "agent index " + std::to_string(i) + " is out of range (the scene has " +
                    std::to_string(sim.agentCount()) + " agents)";
            return false;
        }
        ids.push_back(sim.agentIdAt(i));
    }
    explain.selection.set(std::move(ids));
    explain.recordsStamp.invalidate();
    return true;
}

void requestLoad(SandboxContext& ctx, const fs::path& file) {
    if (ctx.doc.unsaved.unsaved() && ctx.interactive) {
        ctx.windows.guarded = GuardedRequest{GuardedRequest::Kind::Load, file};
        ctx.windows.dialog = Dialog::Unsaved;
        ctx.windows.dialogFocusFrames = 3;
        return;
    }
    ctx.requests.load = file;
}

void requestQuit(SandboxContext& ctx) {
    if (ctx.doc.unsaved.unsaved() && ctx.interactive) {
        ctx.windows.guarded = GuardedRequest{GuardedRequest::Kind::Quit, {}};
        ctx.windows.dialog = Dialog::Unsaved;
        ctx.windows.dialogFocusFrames = 3;
        return;
    }
    ctx.requests.quit = true;
}

void proceedGuarded(SandboxContext& ctx, const GuardedRequest& r) {
    switch (r.kind) {
    case GuardedRequest::Kind::Load:
        ctx.requests.load = r.file;
        break;
    case GuardedRequest::Kind::Quit:
        ctx.requests.quit = true;
        break;
    case GuardedRequest::Kind::New:
        ctx.requests.newScene = true;
        break;
    }
}

void requestNewScene(SandboxContext& ctx) {
    if (ctx.doc.unsaved.unsaved() && ctx.interactive) {
        ctx.windows.guarded = GuardedRequest{GuardedRequest::Kind::New, {}};
        ctx.windows.dialog = Dialog::Unsaved;
        ctx.windows.dialogFocusFrames = 3;
        return;
    }
    ctx.requests.newScene = true;
}

void answerUnsaved(SandboxContext& ctx, PromptAnswer answer) {
    if (!ctx.windows.guarded) {
        ctx.windows.dialog = Dialog::None;
        return;
    }
    const GuardedRequest r = *ctx.windows.guarded;
    switch (answer) {
    case PromptAnswer::Cancel:
        ctx.windows.guarded.reset();
        ctx.windows.dialog = Dialog::None;
        return;
    case PromptAnswer::Discard:
        forgetRecovery(ctx); // the user chose to lose these changes
        ctx.windows.guarded.reset();
        ctx.windows.dialog = Dialog::None;
        proceedGuarded(ctx, r);
        return;
    case PromptAnswer::Save:
        if (ctx.doc.sceneFile.empty() || isBundledFile(ctx.paths, ctx.doc.sceneFile)) {
            // Ask for a file first (a bundled scene is a template, never rewritten); the
            // request goes on once that save succeeds.
            ctx.windows.dialog = Dialog::SaveAs;
            ctx.windows.dialogFocusFrames = 3;
            ctx.windows.continueAfterSaveAs = true;
            ctx.windows.dialogPath = saveTarget(ctx).string();
            return;
        }
        ctx.windows.dialog = Dialog::None;
        ctx.windows.guarded.reset();
        if (saveSceneAs(ctx, ctx.doc.sceneFile)) proceedGuarded(ctx, r);
        return;
    }
}

bool applyRequests(SandboxContext& ctx) {
    applyLessonRequests(ctx); // a lesson file to open, a page to apply
    if (ctx.requests.load) {
        const fs::path file = *std::exchange(ctx.requests.load, std::nullopt);
        std::string error;
        if (!loadSceneFile(ctx, file, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            ctx.windows.messages.push("Could not open scene",
                                      error + "\n\nThe current scene was kept.");
        }
        ctx.requests.restart = false;
    }
    if (ctx.requests.trajectory) {
        const fs::path file = *std::exchange(ctx.requests.trajectory, std::nullopt);
        std::string error;
        if (!openTrajectoryFile(ctx, file, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            ctx.windows.messages.push("Could not open the trajectory",
                                      error + "\n\nThe current scene was kept.");
        }
    }
    if (std::exchange(ctx.requests.newScene, false)) {
        setEmptyScene(ctx);
        ctx.requests.restart = false;
    }
    if (std::exchange(ctx.requests.restart, false)) restartScene(ctx);
    if (std::exchange(ctx.requests.dump, false)) writeStateDump(ctx, "key");
    return !ctx.requests.quit;
}

void openPanel(SandboxContext& ctx, std::string_view name) {
    if (const PanelInfo* p = findPanel(name)) p->open(ctx) = true;
}

bool setPanelOpen(SandboxContext& ctx, std::string_view name, bool open) {
    const PanelInfo* p = findPanel(name);
    if (!p) return false;
    return std::exchange(p->open(ctx), open);
}

void autosaveTick(SandboxContext& ctx, double nowSeconds) {
    if (ctx.doc.recoveryFile.empty() || ctx.doc.pendingRecovery)
        return; // never overwrite unanswered
    if (!ctx.doc.autosave.due(nowSeconds, ctx.doc.unsaved.unsaved(), ctx.doc.editVersion)) return;
    std::string error;
    if (writeRecovery(ctx.doc.recoveryFile, ctx.doc.scene, ctx.doc.sceneFile, error)) {
        setNote(ctx.windows, "autosaved to " + ctx.doc.recoveryFile.string());
    } else {
        std::fprintf(stderr, "orca-sandbox: autosave failed: %s\n", error.c_str());
        setNote(ctx.windows, "autosave failed: " + error);
    }
    // Either way, try again only after the next period (a failing disk must not spin).
    ctx.doc.autosave.saved(nowSeconds, ctx.doc.editVersion);
}

void answerRecovery(SandboxContext& ctx, bool restore) {
    ctx.windows.dialog = Dialog::None;
    if (!ctx.doc.pendingRecovery) return;
    Recovered r = std::move(*ctx.doc.pendingRecovery);
    ctx.doc.pendingRecovery.reset();
    if (!restore) {
        removeRecovery(ctx.doc.recoveryFile);
        setNote(ctx.windows, "discarded the autosaved scene");
        return;
    }
    // The file as saved (if it still loads) is what "unsaved" compares against.
    scene::Scene saved;
    if (!r.info.sceneFile.empty()) {
        try {
            saved = scene::loadScene(r.info.sceneFile).scene;
        } catch (const std::exception&) {
            saved = scene::Scene{}; // gone or broken: everything restored counts as unsaved
        }
    }
    Simulator sim;
    scene::BuildReport report;
    try {
        sim = scene::buildSimulator(r.scene, report);
    } catch (const std::exception& e) {
        ctx.windows.messages.push("Could not restore the autosaved scene",
                                  std::string(e.what()) + "\n\nThe recovery file is kept: " +
                                      ctx.doc.recoveryFile.string());
        return;
    }
    installScene(ctx, std::move(r.scene), std::move(sim), r.info.sceneFile);
    // The obstacles the simulation leaves out, if any (installScene cleared the list).
    ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
    ctx.editor.skippedReasons = std::move(report.reasons);
    ctx.doc.unsaved.reset(saved);
    ctx.doc.unsaved.update(ctx.doc.scene);
    ++ctx.doc.editVersion;
    setNote(ctx.windows, "restored the scene autosaved at " + r.info.savedAt);
}

void putOffRecovery(SandboxContext& ctx) {
    ctx.windows.dialog = Dialog::None;
    if (!ctx.doc.pendingRecovery || ctx.doc.recoveryFile.empty()) return;
    std::string error;
    RecoveryLock own = claimFreshRecoveryFile(ctx.doc.recoveryFile.parent_path(), error);
    if (own.file().empty()) {
        setNote(ctx.windows, "kept the autosaved scene for the next start; this session is not "
                             "autosaved (" +
                                 error + ")");
        return;
    }
    // The adopted file stays locked by this process until it ends (nobody else adopts it
    // meanwhile) and is never written again by it.
    ctx.doc.sessionRecovery = std::move(own);
    ctx.doc.recoveryFile = ctx.doc.sessionRecovery.file();
    ctx.doc.pendingRecovery.reset();
    setNote(ctx.windows, "kept the autosaved scene for the next start; this session autosaves to " +
                             ctx.doc.recoveryFile.string());
}

bool endOnSignal(SandboxContext& ctx, int signal) {
    ctx.requests.quit = true;
    const std::string why = std::string("orca-sandbox: ended by ") +
                            (signal == SIGTERM  ? "SIGTERM"
                             : signal == SIGINT ? "SIGINT"
                             : signal == SIGHUP ? "SIGHUP"
                                                : "signal " + std::to_string(signal));
    if (!ctx.doc.unsaved.unsaved()) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return true;
    }
    std::string error = "no recovery file (no settings folder)";
    if (ctx.doc.pendingRecovery)
        error = "the older autosave in " + ctx.doc.recoveryFile.string() + " is still unanswered";
    else if (!ctx.doc.recoveryFile.empty() &&
             writeRecovery(ctx.doc.recoveryFile, ctx.doc.scene, ctx.doc.sceneFile, error)) {
        std::fprintf(stderr,
                     "%s: the unsaved scene is kept in %s; the next start offers to restore it\n",
                     why.c_str(), ctx.doc.recoveryFile.string().c_str());
        return true;
    }
    std::fprintf(stderr, "%s: the unsaved changes could not be kept: %s\n", why.c_str(),
                 error.c_str());
    return false;
}

void forgetRecovery(SandboxContext& ctx) {
    if (ctx.doc.pendingRecovery) return; // not answered yet: keep it for the next start
    removeRecovery(ctx.doc.recoveryFile);
}

void setUiScale(Settings& settings, int percent) {
    settings.uiScalePercent = std::clamp(percent, ui::kMinUiScalePercent, ui::kMaxUiScalePercent);
}

void setNote(Windows& windows, std::string text) {
    std::printf("%s\n", text.c_str());
    std::fflush(stdout);
    windows.note = std::move(text);
    windows.noteUntil = -1.0; // the frame sets the deadline (ImGui's clock)
}

void reportFailure(Windows& windows, const std::string& title, const std::string& detail) {
    windows.messages.push(title, detail);
    setNote(windows, title + ": " + detail.substr(0, detail.find('\n')));
}

fs::path newSceneFile(const Document& doc) {
    return doc.suggestedFile.empty() ? defaultSaveDir({}) / "scene.json" : doc.suggestedFile;
}

fs::path saveTarget(const SandboxContext& ctx) {
    const fs::path& file = ctx.doc.sceneFile;
    if (!file.empty() && isBundledFile(ctx.paths, file))
        return defaultSaveDir({}) / file.filename(); // a copy of the template, in the user's folder
    return file.empty() ? newSceneFile(ctx.doc) : file;
}

std::string sceneTitle(const Document& doc) {
    if (doc.sceneFile.empty() && !doc.importedFrom.empty())
        return doc.scene.name + " (imported from " + doc.importedFrom.filename().string() + ")";
    if (doc.sceneFile.empty()) return doc.scene.name.empty() ? "(new scene)" : doc.scene.name;
    const std::string file = doc.sceneFile.filename().string();
    return doc.scene.name.empty() ? file : doc.scene.name + " (" + file + ")";
}

} // namespace orca::app
