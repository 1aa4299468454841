#include "sandbox.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <utility>

#include <nlohmann/json.hpp>

#include "orca/ui/style.hpp"

#include "atomic_file.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string idText(const std::optional<nlohmann::json>& id) {
    if (!id) return {};
    return id->is_string() ? id->get<std::string>() : id->dump();
}

// Camera and layers from a scene's "view" block, when present and well formed.
void restoreView(SandboxContext& ctx) {
    const auto it = ctx.scene.extra.find("view");
    if (it == ctx.scene.extra.end() || !it->is_object()) return;
    const nlohmann::ordered_json& view = *it;
    const auto centre = view.find("center");
    const auto zoom = view.find("zoom");
    if (centre != view.end() && centre->is_array() && centre->size() == 2 &&
        (*centre)[0].is_number() && (*centre)[1].is_number() && zoom != view.end() &&
        zoom->is_number() && zoom->get<double>() > 0.0) {
        ctx.camera.setCenter({(*centre)[0].get<double>(), (*centre)[1].get<double>()});
        ctx.camera.setScale(zoom->get<double>());
        ctx.fitRequested = false;
    }
    if (const auto layers = view.find("layers"); layers != view.end())
        layersFromJson(nlohmann::json::parse(layers->dump()), ctx.layers);
    // "select": agents (file order) selected on opening, the last one primary.
    if (const auto select = view.find("select"); select != view.end() && select->is_array()) {
        std::vector<std::size_t> indices;
        for (const auto& i : *select)
            if (i.is_number_unsigned() && i.get<std::uint64_t>() < ctx.sim.agentCount())
                indices.push_back(i.get<std::size_t>());
        std::string ignored;
        if (!indices.empty()) selectByIndex(ctx, indices, ignored);
    }
    // "timeScale": the real-time speed to play the scene at (the welcome scene is slow enough to
    // follow the velocity panel).
    if (const auto scale = view.find("timeScale"); scale != view.end() && scale->is_number()) {
        const double v = scale->get<double>();
        if (v >= 0.25 && v <= 64.0) {
            ctx.clockSettings.mode = RunMode::RealTime;
            ctx.clockSettings.timeScale = v;
        }
    }
    // "hint": one line shown over the view until dismissed (the welcome scene's what-to-click).
    if (const auto hint = view.find("hint"); hint != view.end() && hint->is_string())
        ctx.sceneHint = hint->get<std::string>();
}

void resetSceneCaches(SandboxContext& ctx) {
    ++ctx.stateVersion;
    ctx.recordsVersion = ~std::uint64_t{0};
    ctx.records.clear();
    ctx.overlayHover = {};
    ctx.hoverRecordVersion = ~std::uint64_t{0};
    ctx.metricsHistory.clear();
    ctx.metricsVersion = ~std::uint64_t{0};
    ctx.renderer.clearTrails();
    ctx.running = false;
    ctx.clock.reset();
    ctx.pendingSingleSteps = 0;
    startRecording(ctx); // a new simulation: a new recording
}

void installScene(SandboxContext& ctx, scene::Scene scene, Simulator sim, fs::path file) {
    ctx.scene = std::move(scene);
    ctx.sim = std::move(sim);
    ctx.sim.setThreadCount(ctx.threads);
    ctx.sceneFile = std::move(file);
    ctx.agentNames.clear();
    for (const scene::SceneAgent& a : ctx.scene.agents)
        ctx.agentNames.push_back(idText(a.id));
    ctx.unsaved.reset(ctx.scene);
    ctx.selection.clear();
    ctx.editor.history.clear();
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    ctx.editor.drawing.clear();
    ctx.editor.drag = {};
    ctx.editor.skippedObstacles.clear();
    ctx.editor.skippedReasons.clear();
    holdGeneratorPreview(ctx.editor.generator, "another scene was opened");
    ++ctx.editor.editVersion;
    ctx.construction.neighbor = 0;
    ctx.construction.phase = 0;
    ctx.paramsError.clear();
    ctx.sceneHint.clear();
    resetSceneCaches(ctx);
    ctx.fitRequested = true;
    ctx.titleChanged = true;
    restoreView(ctx);
}

// Makes `sim` the running simulation of the current scene (paused, caches reset, selection
// kept by index).
// The scene may hold obstacles the simulator rejects (clockwise, or not a valid polygon) while
// it is being edited: they are left out (scene::buildSimulator with a BuildReport) and listed
// for the editor to show.
void adoptSimulation(SandboxContext& ctx, Simulator sim, scene::BuildReport report) {
    sim.setThreadCount(ctx.threads);
    ctx.selection.remap(ctx.sim, sim);
    ctx.sim = std::move(sim);
    ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
    ctx.editor.skippedReasons = std::move(report.reasons);
    resetSceneCaches(ctx); // keeps the view, the selection and the unsaved state
}

// After the scene changed: selections that no longer exist go, the unsaved flag follows.
void afterSceneChange(SandboxContext& ctx) {
    ctx.editor.hover.reset(); // picked from the scene as it was
    ctx.selection.prune(ctx.sim);
    std::erase_if(ctx.editor.obstacles,
                  [&](std::size_t i) { return i >= ctx.scene.obstacles.size(); });
    if (ctx.editor.vertex && (ctx.editor.vertex->obstacle >= ctx.scene.obstacles.size() ||
                              ctx.editor.vertex->vertex >=
                                  ctx.scene.obstacles[ctx.editor.vertex->obstacle].vertices.size()))
        ctx.editor.vertex.reset();
    ctx.unsaved.update(ctx.scene);
    ++ctx.editor.editVersion;
}

} // namespace

scene::LoadOptions appLoadOptions(const SandboxContext& ctx) {
    scene::LoadOptions options;
    options.maxFileSize = ctx.maxFileSize;
    options.maxFileSizeSetting = "--max-file-size";
    return options;
}

bool loadSceneFile(SandboxContext& ctx, const fs::path& file, std::string& error) {
    try {
        scene::LoadResult loaded = scene::loadScene(file, appLoadOptions(ctx));
        Simulator sim = scene::buildSimulator(loaded.scene);
        if (!loaded.warnings.empty()) {
            std::string text;
            for (const scene::SceneWarning& w : loaded.warnings) {
                const std::string line = file.string() + ": warning: " +
                                         (w.jsonPath.empty() ? "" : "at " + w.jsonPath + ": ") +
                                         w.message;
                std::fprintf(stderr, "%s\n", line.c_str());
                text += line + "\n";
            }
            ctx.messages.push("Scene loaded with warnings", text);
        }
        installScene(ctx, std::move(loaded.scene), std::move(sim), file);
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

void restartScene(SandboxContext& ctx) {
    try {
        scene::BuildReport report;
        Simulator sim = scene::buildSimulator(ctx.scene, report);
        adoptSimulation(ctx, std::move(sim), std::move(report));
    } catch (const std::exception& e) {
        ctx.messages.push("Restart failed", e.what());
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
        ctx.scene = std::move(after);
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
    scene::Scene out = ctx.scene;
    // A scene without a name (a new one) is named after its file, and keeps that name.
    if (out.name.empty()) out.name = sceneNameFromFile(file);
    // The view block is updated, not replaced: keys the app does not write (a "hint") stay.
    nlohmann::ordered_json view = nlohmann::ordered_json::object();
    if (const auto it = out.extra.find("view"); it != out.extra.end() && it->is_object())
        view = *it;
    view["center"] = {ctx.camera.center().x, ctx.camera.center().y};
    view["zoom"] = ctx.camera.scale();
    view["layers"] = nlohmann::ordered_json::parse(layersToJson(ctx.layers).dump());
    view.erase("select");
    nlohmann::ordered_json select = nlohmann::ordered_json::array();
    const std::optional<std::size_t> primary = ctx.selection.primaryIndex(ctx.sim);
    for (const std::size_t i : ctx.selection.indices(ctx.sim))
        if (i != primary) select.push_back(i);
    if (primary) select.push_back(*primary); // the last one is the primary again on opening
    if (!select.empty()) view["select"] = std::move(select);
    out.extra["view"] = std::move(view);
    try {
        scene::saveScene(out, file);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        ctx.messages.push("Could not save the scene",
                          std::string(e.what()) + "\n\nNothing was written; the scene is kept.");
        return false;
    }
    ctx.scene = std::move(out);
    ctx.unsaved.reset(ctx.scene);
    if (ctx.sceneFile != file) {
        ctx.sceneFile = file;
        ctx.titleChanged = true;
    }
    ctx.settings.addRecentFile(file);
    forgetRecovery(ctx); // the work is in the file now
    setNote(ctx, "saved " + file.string());
    return true;
}

void stepSimulation(SandboxContext& ctx, int steps) {
    if (steps > 0) whatIfSettle(ctx); // stepping runs the previewed change
    for (int i = 0; i < steps; ++i) {
        const auto t0 = Clock::now();
        ctx.sim.step();
        ctx.stepTiming.add(msSince(t0));
        if (ctx.layers.world.trails) ctx.renderer.sampleTrails(ctx.sim);
        recordStep(ctx);
        const StepStats& st = ctx.sim.lastStepStats();
        ui::MetricsSample s;
        s.step = ctx.sim.stepCount();
        s.agentsAtGoal = st.agentsAtGoal;
        s.goalAgents = st.goalAgents;
        s.lp3Agents = st.lp3Agents;
        if (ctx.panels.metrics) {
            // A pass over all agents: only while somebody looks at it.
            const ClearanceStats c = ctx.sim.clearance();
            s.hasClearance = true;
            s.minClearance = c.minAgentClearance;
            s.overlappingPairs = c.overlappingPairs;
        }
        ctx.metricsHistory.push(s);
    }
    if (steps > 0) ++ctx.stateVersion;
}

void advanceSimulation(SandboxContext& ctx, double frameSeconds) {
    int steps = 0;
    if (ctx.running)
        steps = ctx.clock.stepsFor(frameSeconds, ctx.sim.params().timeStep, ctx.clockSettings);
    else
        ctx.clock.reset();
    steps += std::exchange(ctx.pendingSingleSteps, 0);
    stepSimulation(ctx, steps);
}

void refreshRecords(SandboxContext& ctx) {
    // Solve mode needs the primary record's LP trace (recorded only while it is on).
    const ExplainRecord* primary = primaryRecord(ctx);
    const bool traceMissing =
        ctx.solve.active && primary && !primary->isStatic && !primary->lpTrace;
    if (ctx.recordsVersion == ctx.stateVersion && !traceMissing) return;
    ctx.selection.prune(ctx.sim);
    ExplainOptions what;
    what.lpTrace = ctx.solve.active;
    if (ctx.selection.empty())
        ctx.records.clear();
    else
        ctx.records = ctx.sim.explain(ctx.selection.ids(), what);
    ctx.recordsVersion = ctx.stateVersion;
    clampConstruction(ctx.construction, primaryRecord(ctx));
}

const ExplainRecord* primaryRecord(const SandboxContext& ctx) {
    const AgentId p = ctx.selection.primary();
    if (p.isNull()) return nullptr;
    for (const ExplainRecord& r : ctx.records)
        if (r.agent == p) return &r;
    return nullptr;
}

bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit) {
    return editAgents(ctx, edit, ctx.selection.ids());
}

bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit, std::span<const AgentId> ids) {
    whatIfSettle(ctx);
    scene::Scene before = ctx.scene;
    const std::string mergeKey = std::string("param:") + ui::fieldName(edit.field);
    ParameterEditRecording recording = prepareParameterEdit(ctx, mergeKey);
    const bool ok = applyAgentEdit(ctx.scene, ctx.sim, ids, edit, ctx.paramsError);
    if (ok) {
        const std::size_t n = ids.size();
        ctx.editor.history.record(
            scene::SceneEdit::diff(before, ctx.scene,
                                   std::string("Set ") + ui::fieldName(edit.field) + " of " +
                                       std::to_string(n) + (n == 1 ? " agent" : " agents")),
            mergeKey);
        commitParameterEdit(ctx, std::move(recording)); // cuts the recorded future
        ++ctx.editor.editVersion;
        ctx.unsaved.update(ctx.scene);
        ++ctx.stateVersion;
        refreshRecords(ctx); // paused or not, the overlays show the edit at once
    }
    return ok;
}

bool editSimulation(SandboxContext& ctx, const SimulationParams& params) {
    const scene::SceneHeader before = scene::SceneHeader::of(ctx.scene);
    ParameterEditRecording recording = prepareParameterEdit(ctx, "simulation");
    const bool ok = applySimulationEdit(ctx.scene, ctx.sim, params, ctx.paramsError);
    if (ok) {
        scene::SceneEdit e;
        e.label = "Set simulation parameters";
        e.headerBefore = before;
        e.headerAfter = scene::SceneHeader::of(ctx.scene);
        if (!(*e.headerBefore == *e.headerAfter)) {
            ctx.editor.history.record(std::move(e), "simulation");
            ++ctx.editor.editVersion;
        }
        commitParameterEdit(ctx, std::move(recording)); // cuts the recorded future
        ctx.unsaved.update(ctx.scene);
        ++ctx.stateVersion;
        refreshRecords(ctx);
    }
    return ok;
}

bool selectByIndex(SandboxContext& ctx, const std::vector<std::size_t>& indices,
                   std::string& error) {
    std::vector<AgentId> ids;
    for (const std::size_t i : indices) {
        if (i >= ctx.sim.agentCount()) {
            error = "agent index " + std::to_string(i) + " is out of range (the scene has " +
                    std::to_string(ctx.sim.agentCount()) + " agents)";
            return false;
        }
        ids.push_back(ctx.sim.agentIdAt(i));
    }
    ctx.selection.set(std::move(ids));
    ctx.recordsVersion = ~std::uint64_t{0};
    return true;
}

void requestLoad(SandboxContext& ctx, const fs::path& file) {
    if (ctx.unsaved.unsaved() && ctx.interactive) {
        ctx.guarded = GuardedRequest{GuardedRequest::Kind::Load, file};
        ctx.dialog = Dialog::Unsaved;
        ctx.dialogFocusFrames = 3;
        return;
    }
    ctx.loadRequest = file;
}

void requestQuit(SandboxContext& ctx) {
    if (ctx.unsaved.unsaved() && ctx.interactive) {
        ctx.guarded = GuardedRequest{GuardedRequest::Kind::Quit, {}};
        ctx.dialog = Dialog::Unsaved;
        ctx.dialogFocusFrames = 3;
        return;
    }
    ctx.quitRequest = true;
}

void proceedGuarded(SandboxContext& ctx, const GuardedRequest& r) {
    switch (r.kind) {
    case GuardedRequest::Kind::Load:
        ctx.loadRequest = r.file;
        break;
    case GuardedRequest::Kind::Quit:
        ctx.quitRequest = true;
        break;
    case GuardedRequest::Kind::New:
        ctx.newSceneRequest = true;
        break;
    }
}

void requestNewScene(SandboxContext& ctx) {
    if (ctx.unsaved.unsaved() && ctx.interactive) {
        ctx.guarded = GuardedRequest{GuardedRequest::Kind::New, {}};
        ctx.dialog = Dialog::Unsaved;
        ctx.dialogFocusFrames = 3;
        return;
    }
    ctx.newSceneRequest = true;
}

KeyContext keyContext(const SandboxContext& ctx) {
    return KeyContext{ctx.construction.active, editing(ctx), ctx.solve.active};
}

void answerUnsaved(SandboxContext& ctx, PromptAnswer answer) {
    if (!ctx.guarded) {
        ctx.dialog = Dialog::None;
        return;
    }
    const GuardedRequest r = *ctx.guarded;
    switch (answer) {
    case PromptAnswer::Cancel:
        ctx.guarded.reset();
        ctx.dialog = Dialog::None;
        return;
    case PromptAnswer::Discard:
        forgetRecovery(ctx); // the user chose to lose these changes
        ctx.guarded.reset();
        ctx.dialog = Dialog::None;
        proceedGuarded(ctx, r);
        return;
    case PromptAnswer::Save:
        if (ctx.sceneFile.empty()) {
            // Ask for a file first; the request goes on once that save succeeds.
            ctx.dialog = Dialog::SaveAs;
            ctx.dialogFocusFrames = 3;
            ctx.continueAfterSaveAs = true;
            ctx.dialogPath = (defaultSaveDir(ctx.sceneFile) / "scene.json").string();
            return;
        }
        ctx.dialog = Dialog::None;
        ctx.guarded.reset();
        if (saveSceneAs(ctx, ctx.sceneFile)) proceedGuarded(ctx, r);
        return;
    }
}

void applyAction(SandboxContext& ctx, Action action) {
    const Vec2 viewCentre = ctx.camera.viewport().center();
    auto openDialog = [&](Dialog d, std::string path) {
        if (!ctx.interactive || ctx.dialog != Dialog::None) return;
        ctx.dialog = d;
        ctx.dialogFocusFrames = 3;
        ctx.dialogPath = std::move(path);
    };
    const std::string sceneDir = ctx.sceneFile.empty() ? defaultSaveDir({}).string() + "/"
                                                       : ctx.sceneFile.parent_path().string() + "/";
    switch (action) {
    case Action::TogglePause:
        ctx.running = !ctx.running;
        ctx.clock.reset();
        break;
    case Action::Step:
        ctx.running = false;
        ++ctx.pendingSingleSteps;
        break;
    case Action::Restart:
        ctx.restartRequest = true;
        break;
    case Action::ClearSelection:
        if (whatIfRevert(ctx)) break; // Esc first drops a what-if preview
        cancelOrClear(ctx);
        break;
    case Action::ToggleConstruction:
        ctx.construction.active = !ctx.construction.active;
        if (ctx.construction.active) setTool(ctx, Tool::Inspect); // construction is for viewing
        if (ctx.construction.active) ctx.solve.active = false;
        clampConstruction(ctx.construction, primaryRecord(ctx));
        break;
    case Action::ToggleSolve:
        ctx.solve.active = !ctx.solve.active;
        if (ctx.solve.active) {
            setTool(ctx, Tool::Inspect);
            ctx.construction.active = false;
        }
        break;
    case Action::SolvePrevStep:
        ctx.solve.step = std::max(ctx.solve.step - 1, 0);
        break;
    case Action::SolveNextStep:
        if (const ExplainRecord* r = primaryRecord(ctx))
            ctx.solve.step =
                std::min(ctx.solve.step + 1, std::max(ui::solveStepCount(*r) - 1, 0));
        break;
    case Action::ConstructionPrevNeighbor:
        stepConstruction(ctx.construction, primaryRecord(ctx), -1, 0);
        break;
    case Action::ConstructionNextNeighbor:
        stepConstruction(ctx.construction, primaryRecord(ctx), +1, 0);
        break;
    case Action::ConstructionPrevPhase:
        stepConstruction(ctx.construction, primaryRecord(ctx), 0, -1);
        break;
    case Action::ConstructionNextPhase:
        stepConstruction(ctx.construction, primaryRecord(ctx), 0, +1);
        break;
    case Action::ToggleParameters:
        ctx.panels.parameters = !ctx.panels.parameters;
        break;
    case Action::ToggleInspector:
        ctx.panels.inspector = !ctx.panels.inspector;
        break;
    case Action::ToggleMetrics:
        ctx.panels.metrics = !ctx.panels.metrics;
        break;
    case Action::ToggleDetour: {
        SimulationParams p = ctx.sim.params();
        p.detour.enabled = !p.detour.enabled;
        editSimulation(ctx, p);
        break;
    }
    case Action::StepBack:
    case Action::PreviousEvent:
    case Action::NextEvent:
    case Action::RecordingStart:
    case Action::RecordingEnd:
        timelineAction(ctx, action);
        break;
    case Action::ToggleEvents:
        ctx.panels.events = !ctx.panels.events;
        break;
    case Action::KeepWhatIf:
        whatIfKeep(ctx);
        break;
    case Action::ToggleCompare:
        ctx.panels.compare = !ctx.panels.compare;
        break;
    case Action::ToggleWhy:
        ctx.timeline.why.open = !ctx.timeline.why.open;
        break;
    case Action::FitView:
        ctx.fitRequested = true;
        break;
    case Action::ZoomIn:
        ctx.camera.zoomAbout(viewCentre, 1.25);
        break;
    case Action::ZoomOut:
        ctx.camera.zoomAbout(viewCentre, 1.0 / 1.25);
        break;
    case Action::FocusDecision:
        ctx.velocityPanel.focusRequested = true;
        break;
    case Action::UiScaleUp:
    case Action::UiScaleDown:
        setUiScale(ctx, ctx.settings.uiScalePercent + (action == Action::UiScaleUp ? 25 : -25));
        break;
    case Action::Open:
        openDialog(Dialog::Open, sceneDir);
        break;
    case Action::Save:
        if (ctx.sceneFile.empty())
            openDialog(Dialog::SaveAs, (defaultSaveDir({}) / "scene.json").string());
        else
            saveSceneAs(ctx, ctx.sceneFile);
        break;
    case Action::SaveAs:
        openDialog(Dialog::SaveAs, ctx.sceneFile.empty()
                                       ? (defaultSaveDir({}) / "scene.json").string()
                                       : ctx.sceneFile.string());
        break;
    case Action::Screenshot:
        openDialog(Dialog::Screenshot, defaultPicturePath(ctx, ".png").string());
        break;
    case Action::ExportSvg:
        openDialog(Dialog::ExportSvg, defaultPicturePath(ctx, ".svg").string());
        break;
    case Action::ToggleRecording:
        if (ctx.pictures.recording || ctx.pictures.recordStart)
            ctx.pictures.recordStop = true;
        else
            openDialog(Dialog::Record, defaultPicturePath(ctx, ".gif").string());
        break;
    case Action::DumpState:
        if (ctx.dumpFile.empty())
            ctx.messages.push("No state file",
                              "Start orca-sandbox with --dump-state FILE to write the state "
                              "on F12 and on exit.");
        else
            ctx.dumpRequest = true;
        break;
    case Action::ToggleHelp:
        ctx.showHelp = !ctx.showHelp;
        ctx.helpFirstLaunch = false; // asked for: the key tables open
        break;
    case Action::Quit:
        requestQuit(ctx);
        break;
    case Action::NewScene:
        requestNewScene(ctx);
        break;
    case Action::ToolInspect:
        setTool(ctx, Tool::Inspect);
        break;
    case Action::ToolSelect:
        setTool(ctx, Tool::Select);
        break;
    case Action::ToolAddAgent:
        setTool(ctx, Tool::AddAgent);
        break;
    case Action::ToolGoal:
        setTool(ctx, Tool::Goal);
        break;
    case Action::ToolObstacle:
        setTool(ctx, Tool::Obstacle);
        break;
    case Action::ToggleGenerators:
        ctx.panels.generators = !ctx.panels.generators;
        break;
    case Action::ToggleLinter:
        ctx.panels.linter = !ctx.panels.linter;
        break;
    case Action::ToggleAgentDefaults:
        ctx.panels.agentDefaults = !ctx.panels.agentDefaults;
        break;
    case Action::ToggleSnap:
        ctx.editor.snap = !ctx.editor.snap;
        setNote(ctx, ctx.editor.snap ? "Snap to grid on" : "Snap to grid off");
        break;
    case Action::Undo:
        undoEdit(ctx);
        break;
    case Action::Redo:
        redoEdit(ctx);
        break;
    case Action::DeleteSelection:
        deleteSelection(ctx);
        break;
    case Action::Duplicate:
        duplicateSelection(ctx);
        break;
    case Action::Copy:
        copySelection(ctx);
        break;
    case Action::Cut:
        cutSelection(ctx);
        break;
    case Action::Paste: {
        std::optional<Vec2> at;
        if (ctx.mouse && !ctx.mouseCaptured && ctx.camera.viewport().contains(*ctx.mouse))
            at = ctx.camera.screenToWorld(*ctx.mouse);
        paste(ctx, at);
        break;
    }
    case Action::SelectAll:
        selectAll(ctx);
        break;
    case Action::NudgeLeft:
        nudgeSelection(ctx, {-1.0, 0.0});
        break;
    case Action::NudgeRight:
        nudgeSelection(ctx, {1.0, 0.0});
        break;
    case Action::NudgeUp:
        nudgeSelection(ctx, {0.0, 1.0});
        break;
    case Action::NudgeDown:
        nudgeSelection(ctx, {0.0, -1.0});
        break;
    case Action::ClosePolygon:
        closeDrawing(ctx);
        break;
    case Action::ReverseWinding:
        reverseSelectedWinding(ctx);
        break;
    }
}

bool applyRequests(SandboxContext& ctx) {
    applyLessonRequests(ctx); // a lesson file to open, a page to apply
    if (ctx.loadRequest) {
        const fs::path file = *std::exchange(ctx.loadRequest, std::nullopt);
        std::string error;
        if (!loadSceneFile(ctx, file, error)) {
            std::fprintf(stderr, "%s\n", error.c_str());
            ctx.messages.push("Could not open scene", error + "\n\nThe current scene was kept.");
        }
        ctx.restartRequest = false;
    }
    if (std::exchange(ctx.newSceneRequest, false)) {
        setEmptyScene(ctx);
        ctx.restartRequest = false;
    }
    if (std::exchange(ctx.restartRequest, false)) restartScene(ctx);
    if (std::exchange(ctx.dumpRequest, false)) writeStateDump(ctx, "key");
    return !ctx.quitRequest;
}

void openPanel(SandboxContext& ctx, std::string_view p) {
    if (p == "parameters") ctx.panels.parameters = true;
    if (p == "inspector") ctx.panels.inspector = true;
    if (p == "metrics") ctx.panels.metrics = true;
    if (p == "linter") ctx.panels.linter = true;
    if (p == "generators") ctx.panels.generators = true;
    if (p == "defaults") ctx.panels.agentDefaults = true;
    if (p == "events") ctx.panels.events = true;
    if (p == "why") ctx.timeline.why.open = true;
    if (p == "compare") ctx.panels.compare = true;
}

void autosaveTick(SandboxContext& ctx, double nowSeconds) {
    if (ctx.recoveryFile.empty() || ctx.pendingRecovery) return; // never overwrite unanswered
    if (!ctx.autosave.due(nowSeconds, ctx.unsaved.unsaved(), ctx.editor.editVersion)) return;
    std::string error;
    if (writeRecovery(ctx.recoveryFile, ctx.scene, ctx.sceneFile, error)) {
        setNote(ctx, "autosaved to " + ctx.recoveryFile.string());
    } else {
        std::fprintf(stderr, "orca-sandbox: autosave failed: %s\n", error.c_str());
        setNote(ctx, "autosave failed: " + error);
    }
    // Either way, try again only after the next period (a failing disk must not spin).
    ctx.autosave.saved(nowSeconds, ctx.editor.editVersion);
}

void answerRecovery(SandboxContext& ctx, bool restore) {
    ctx.dialog = Dialog::None;
    if (!ctx.pendingRecovery) return;
    Recovered r = std::move(*ctx.pendingRecovery);
    ctx.pendingRecovery.reset();
    if (!restore) {
        removeRecovery(ctx.recoveryFile);
        setNote(ctx, "discarded the autosaved scene");
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
        ctx.messages.push("Could not restore the autosaved scene",
                          std::string(e.what()) +
                              "\n\nThe recovery file is kept: " + ctx.recoveryFile.string());
        return;
    }
    installScene(ctx, std::move(r.scene), std::move(sim), r.info.sceneFile);
    // The obstacles the simulation leaves out, if any (installScene cleared the list).
    ctx.editor.skippedObstacles = std::move(report.skippedObstacles);
    ctx.editor.skippedReasons = std::move(report.reasons);
    ctx.unsaved.reset(saved);
    ctx.unsaved.update(ctx.scene);
    ++ctx.editor.editVersion;
    setNote(ctx, "restored the scene autosaved at " + r.info.savedAt);
}

void forgetRecovery(SandboxContext& ctx) {
    if (ctx.pendingRecovery) return; // not answered yet: keep it for the next start
    removeRecovery(ctx.recoveryFile);
}

void setUiScale(SandboxContext& ctx, int percent) {
    ctx.settings.uiScalePercent =
        std::clamp(percent, ui::kMinUiScalePercent, ui::kMaxUiScalePercent);
}

void setNote(SandboxContext& ctx, std::string text) {
    std::printf("%s\n", text.c_str());
    std::fflush(stdout);
    ctx.note = std::move(text);
    ctx.noteUntil = -1.0; // the frame sets the deadline (ImGui's clock)
}

std::string sceneTitle(const SandboxContext& ctx) {
    if (ctx.sceneFile.empty()) return ctx.scene.name.empty() ? "(new scene)" : ctx.scene.name;
    const std::string file = ctx.sceneFile.filename().string();
    return ctx.scene.name.empty() ? file : ctx.scene.name + " (" + file + ")";
}

} // namespace orca::app
