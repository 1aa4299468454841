// The state dump (--dump-state): everything an end-to-end test checks about the app, written
// as JSON on F12 and on exit (docs/sandbox.md lists the keys).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/explain_json.hpp"
#include "orca/scene/path_text.hpp"
#include "orca/ui/window_placement.hpp"
#include "sandbox.hpp"
#include "shell/panel_table.hpp"

namespace orca::app {

namespace {

nlohmann::ordered_json vec(Vec2 v) {
    return nlohmann::ordered_json::array({v.x, v.y});
}

} // namespace

bool writeStateDump(SandboxContext& ctx, const char* reason) {
    if (ctx.dumpFile.empty()) return false;
    using json = nlohmann::ordered_json;
    json j = json::object();
    j["format"] = "orca-sandbox-state";
    j["version"] = 1;
    j["sequence"] = ++ctx.dumpCount;
    j["reason"] = reason;
    j["sceneFile"] = scene::displayPath(ctx.doc.sceneFile);
    j["sceneName"] = ctx.doc.scene.name;
    j["unsaved"] = ctx.doc.unsaved.unsaved();
    j["title"] = sceneTitle(ctx.doc);
    j["suggestedFile"] = scene::displayPath(ctx.doc.suggestedFile);
    j["importedFrom"] = scene::displayPath(ctx.doc.importedFrom);
    j["step"] = ctx.session.sim.stepCount();
    j["time"] = ctx.session.sim.time();
    j["timeStep"] = ctx.session.sim.params().timeStep;
    j["running"] = ctx.session.running;
    j["stateHash"] = formatStateHash(ctx.session.sim.stateHash());
    j["timeline"] = timelineJson(ctx);
    j["diagnosis"] = diagnosisJson(ctx);
    j["compare"] = compareJson(ctx);
    j["lesson"] = lessonJson(ctx);
    j["recording"] = recordingJson(ctx);
    // The primary agent's explain record as `orca explain` prints it (null without one): the
    // decision the next step makes from the state on screen.
    const ExplainRecord* explained = primaryRecord(ctx.explain);
    j["explain"] = explained ? orca::toJson(*explained, ctx.session.sim) : json(nullptr);
    json handles = json::array();
    for (const WhatIfHandle& h : whatIfHandles(ctx)) {
        handles.push_back({{"agent", h.agent},
                           {"target", whatIfTargetName(h.target)},
                           {"screen", vec(ctx.view.camera.worldToScreen(h.point))}});
    }
    j["whatIfHandles"] = std::move(handles);
    if (ctx.whatIf.active) {
        const WhatIfState& w = ctx.whatIf;
        const auto index = ctx.session.sim.indexOf(w.agent);
        j["whatIf"] = {{"agent", index ? static_cast<std::int64_t>(*index) : -1},
                       {"target", whatIfTargetName(w.target)},
                       {"value", {w.value.x, w.value.y}},
                       {"original", {w.originalValue.x, w.originalValue.y}}};
    } else {
        j["whatIf"] = nullptr;
    }
    j["selected"] = ctx.explain.selection.indices(ctx.session.sim);
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    j["primary"] = primary ? json(*primary) : json(nullptr);
    j["hovered"] = ctx.explain.hoveredAgent ? json(*ctx.explain.hoveredAgent) : json(nullptr);
    j["mouse"] = ctx.view.mouse ? vec(*ctx.view.mouse) : json(nullptr);
    j["mouseCaptured"] = ctx.view.mouseCaptured;
    j["construction"] = {{"active", ctx.explain.construction.active},
                         {"neighbor", ctx.explain.construction.neighbor},
                         {"phase", ctx.explain.construction.phase}};
    {
        const ExplainRecord* r = primaryRecord(ctx.explain);
        const ui::SolveFrame f = r ? ui::solveFrame(*r, ctx.explain.solve.step) : ui::SolveFrame{};
        j["solve"] = {{"active", ctx.explain.solve.active},
                      {"step", f.count ? f.index : ctx.explain.solve.step},
                      {"steps", f.count},
                      {"narration", f.narration}};
    }
    static constexpr const char* kDialogNames[] = {"none",   "open",       "openTrajectory",
                                                   "saveAs", "screenshot", "exportSvg",
                                                   "record", "unsaved",    "recover"};
    j["dialog"] = kDialogNames[static_cast<int>(ctx.windows.dialog)];
    {
        // The file dialogs' browser (files/file_browser.hpp): meaningful while one is open.
        const FileDialogState& fd = ctx.files;
        const files::FileBrowser& b = fd.browser;
        json entries = json::array();
        for (std::size_t i = 0; i < b.entries().size() && i < 200; ++i)
            entries.push_back(scene::pathToJson<json>(std::string_view(b.entries()[i].name)));
        static constexpr const char* kSteps[] = {"browse", "newFolder", "overwrite"};
        j["fileDialog"] = {
            {"folder", scene::pathToJson<json>(b.folder())},
            {"name", scene::pathToJson<json>(std::string_view(b.name))},
            {"entries", std::move(entries)},
            {"selected", b.selected()},
            {"showAll", b.showAll()},
            {"step", kSteps[static_cast<int>(fd.step)]},
            {"error", scene::displayPath(b.error())},
            {"newFolderButton", fd.newFolderRect},
            {"desktopRunning", fd.desktop.state() == files::DesktopDialog::State::Running}};
    }
    const ui::WorldDrawStats& drawn = ctx.view.renderer.stats();
    j["worldDraw"] = {{"agentsDrawn", drawn.agentsDrawn},
                      {"agentsDetailed", drawn.agentsDetailed},
                      {"trailSegments", drawn.trailSegments},
                      {"trailSamples", ctx.view.renderer.trailSamples()}};
    refreshLint(ctx); // the scene's findings whether or not the Linter window is open
    std::size_t hiddenRings = 0;
    for (const std::size_t h : ctx.editor.lint.hiddenRings)
        hiddenRings += h;
    j["lint"] = {{"issues", ctx.editor.lint.issues.size()},
                 {"ringsDrawn", ctx.editor.lint.ringsDrawn},
                 {"hiddenRings", hiddenRings}};
    j["help"] = {{"open", ctx.windows.showHelp},
                 {"firstLaunch", ctx.windows.helpFirstLaunch},
                 {"rect", ctx.windows.helpRect}};
    j["sceneHint"] = ctx.windows.sceneHint;
    j["timeScale"] = ctx.session.clockSettings.timeScale;
    j["message"] = ctx.windows.messages.frontTitle(); // a message box shown on top ("" when none)
    j["layers"] = json::parse(layersToJson(ctx.view.layers).dump());
    json panels = json::object();
    for (const PanelInfo& p : panelTable())
        if (p.inDump) panels[p.name] = p.open(ctx);
    panels["help"] = ctx.windows.showHelp;
    j["panels"] = std::move(panels);
    const ui::Rect& vp = ctx.view.camera.viewport();
    j["camera"] = {{"center", vec(ctx.view.camera.center())},
                   {"zoom", ctx.view.camera.scale()},
                   {"viewport", {vp.min.x, vp.min.y, vp.max.x, vp.max.y}}};
    j["window"] = {{"width", ctx.view.windowWidth}, {"height", ctx.view.windowHeight}};
    j["appearance"] = {{"uiScale", ctx.settings.uiScalePercent},
                       {"theme", ctx.settings.theme == ui::Theme::Light ? "light" : "dark"}};
    // The labels as last drawn: rectangles [x0, y0, x1, y1] (none may overlap another, nor a
    // reserved one: the panel's titles and legend), and how many fitted nowhere.
    auto labelsJson = [&](const ui::LabelLayout& l) {
        json placed = json::array();
        for (const ui::PlacedLabel& p : l.placed())
            placed.push_back({{"text", l.textOf(p)},
                              {"rect", {p.rect.min.x, p.rect.min.y, p.rect.max.x, p.rect.max.y}},
                              {"leader", p.leader}});
        json reserved = json::array();
        for (const ui::Rect& r : l.reserved())
            reserved.push_back({r.min.x, r.min.y, r.max.x, r.max.y});
        return json{{"placed", std::move(placed)},
                    {"reserved", std::move(reserved)},
                    {"dropped", l.dropped()}};
    };
    const ui::Rect& canvas = ctx.explain.velocityPanel.canvas();
    const ui::Rect& plot = ctx.explain.velocityPanel.plotRect();
    const std::string& plotReason = ctx.explain.velocityPanel.plotReason();
    j["velocityPanel"] = {{"canvas", {canvas.min.x, canvas.min.y, canvas.max.x, canvas.max.y}},
                          {"unitsPerPixel", ctx.explain.velocityPanel.unitsPerPixel()},
                          {"center", vec(ctx.explain.velocityPanel.center())},
                          {"plotRect", plot.isEmpty()
                                           ? json(nullptr)
                                           : json{plot.min.x, plot.min.y, plot.max.x, plot.max.y}},
                          {"plotReason", plotReason.empty() ? json(nullptr) : json(plotReason)},
                          {"caption", ctx.explain.velocityPanel.caption()}};
    // Every top-level window: drawn in the last frame or not, and where (layout tests check
    // that the open ones stay on the screen and off each other).
    json windows = json::object();
    for (const ui::WindowInfo& w : ui::listWindows())
        windows[w.name] = {{"open", w.open},
                           {"rect", {w.rect.min.x, w.rect.min.y, w.rect.max.x, w.rect.max.y}}};
    j["windows"] = std::move(windows);
    j["labels"] = {{"world", labelsJson(ctx.view.worldLabels)},
                   {"panel", labelsJson(ctx.explain.velocityPanel.labels())}};
    json agents = json::array();
    const auto positions = ctx.session.sim.positions();
    const auto params = ctx.session.sim.agentParams();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Vec2 s = ctx.view.camera.worldToScreen(positions[i]);
        agents.push_back({{"index", i},
                          {"screen", vec(s)},
                          {"radiusPx", params[i].radius * ctx.view.camera.scale()},
                          {"position", vec(positions[i])}});
    }
    j["agents"] = std::move(agents);
    const EditorState& ed = ctx.editor;
    json skipped = json::array();
    for (const std::size_t o : ed.skippedObstacles)
        skipped.push_back(o);
    json obstacles = json::array();
    for (const std::size_t o : ed.obstacles)
        obstacles.push_back(o);
    j["editor"] = {{"tool", toolName(ed.tool)},
                   {"snap", ed.snap},
                   {"snapStep", ed.snapStep},
                   {"undo", ctx.doc.history.undoCount()},
                   {"redo", ctx.doc.history.redoCount()},
                   {"undoLabel", ctx.doc.history.undoLabel()},
                   {"sceneAgents", ctx.doc.scene.agents.size()},
                   {"sceneObstacles", ctx.doc.scene.obstacles.size()},
                   {"selectedObstacles", std::move(obstacles)},
                   {"drawing", ed.drawing.size()},
                   {"skippedObstacles", std::move(skipped)},
                   {"recoveryFile", ctx.doc.recoveryFile.string()},
                   {"recoveryPending", ctx.doc.pendingRecovery.has_value()}};
    std::string error;
    if (!scene::writeFileAtomic(
            ctx.dumpFile, j.dump(1, ' ', false, json::error_handler_t::replace) + "\n", error)) {
        std::fprintf(stderr, "orca-sandbox: %s\n", error.c_str());
        return false;
    }
    return true;
}

} // namespace orca::app
