// The ImGui side of the sandbox: menus, world-view interaction (selection, hover), overlays,
// panels and the status bar (the dialogs are files/file_dialogs.cpp's). Everything that
// changes the scene goes through the functions of sandbox.hpp; loads and restarts are only
// requested here.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>
#include <utility>

#include <imgui.h>

#include "orca/ui/camera_input.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/help_window.hpp"
#include "orca/ui/inspector.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/style.hpp"
#include "orca/ui/window_placement.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "files/file_dialogs.hpp"
#include "sandbox.hpp"
#include "shell/panel_table.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

constexpr float kPanelWidthFraction = 1.0f / 3.0f;

void menuItemAction(SandboxContext& ctx, const char* label, Action a, bool selected = false,
                    bool enabled = true) {
    if (ImGui::MenuItem(label, shortcutLabel(a).c_str(), selected, enabled)) applyAction(ctx, a);
}

void drawSceneMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Scene")) return;
    if (ImGui::IsWindowAppearing()) ctx.windows.sceneFiles = listSceneFiles(ctx.paths.scenesDir);
    menuItemAction(ctx, "New", Action::NewScene);
    menuItemAction(ctx, "Open...", Action::Open);
    if (ImGui::MenuItem("Open trajectory...") && ctx.windows.dialog == Dialog::None) {
        ctx.windows.dialog = Dialog::OpenTrajectory;
        ctx.windows.dialogFocusFrames = 3;
        const fs::path& near = ctx.playback.active ? ctx.playback.file : ctx.doc.sceneFile;
        ctx.windows.dialogPath = near.empty() ? std::string() : near.parent_path().string() + "/";
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Play a trajectory CSV (orca run --trajectory) against the open scene, "
                          "checking every step against ORCA (orca conform)");
    if (ImGui::BeginMenu("Open recent", !ctx.settings.recentFiles.empty())) {
        for (const std::string& f : ctx.settings.recentFiles)
            if (ImGui::MenuItem(ui::shownLine(f).c_str())) requestLoad(ctx, f);
        ImGui::EndMenu();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Bundled scenes");
    if (ctx.paths.scenesDir.empty())
        ImGui::TextDisabled("scenes/ folder not found");
    else if (ctx.windows.sceneFiles.empty())
        ImGui::TextDisabled("no .json files in %s", ctx.paths.scenesDir.c_str());
    for (const fs::path& f : ctx.windows.sceneFiles) {
        const std::string name = f.filename().string();
        if (ImGui::MenuItem(name.c_str(), nullptr, f == ctx.doc.sceneFile)) requestLoad(ctx, f);
    }
    ImGui::TextDisabled("(or drop a .json scene or a .orcarec recording on the window)");
    ImGui::Separator();
    menuItemAction(ctx, ctx.doc.unsaved.unsaved() ? "Save *" : "Save", Action::Save);
    menuItemAction(ctx, "Save as...", Action::SaveAs);
    menuItemAction(ctx, "Save screenshot...", Action::Screenshot);
    menuItemAction(ctx, "Export SVG...", Action::ExportSvg);
    menuItemAction(ctx, ctx.pictures.recording ? "Stop recording" : "Record...",
                   Action::ToggleRecording, ctx.pictures.recording);
    ImGui::Separator();
    menuItemAction(ctx, "Restart", Action::Restart);
    ImGui::Separator();
    menuItemAction(ctx, "Quit", Action::Quit);
    ImGui::EndMenu();
}

void drawEditMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Edit")) return;
    const scene::EditHistory& h = ctx.doc.history;
    const std::string undo = h.canUndo() ? "Undo " + h.undoLabel() : std::string("Undo");
    const std::string redo = h.canRedo() ? "Redo " + h.redoLabel() : std::string("Redo");
    menuItemAction(ctx, undo.c_str(), Action::Undo, false, h.canUndo());
    menuItemAction(ctx, redo.c_str(), Action::Redo, false, h.canRedo());
    ImGui::Separator();
    menuItemAction(ctx, "Cut", Action::Cut);
    menuItemAction(ctx, "Copy", Action::Copy);
    menuItemAction(ctx, "Paste", Action::Paste);
    menuItemAction(ctx, "Duplicate", Action::Duplicate);
    if (ImGui::MenuItem("Delete", "Delete")) deleteSelection(ctx);
    menuItemAction(ctx, "Select all", Action::SelectAll);
    ImGui::Separator();
    menuItemAction(ctx, "Reverse winding", Action::ReverseWinding, false,
                   !ctx.editor.obstacles.empty() || ctx.editor.vertex.has_value());
    menuItemAction(ctx, "Snap to grid", Action::ToggleSnap, ctx.editor.snap);
    ImGui::SetNextItemWidth(120.0f);
    double step = ctx.editor.snapStep;
    if (ImGui::InputDouble("Grid step", &step, 0.0, 0.0, "%g") && step > 0.0 && std::isfinite(step))
        ctx.editor.snapStep = step;
    ImGui::Separator();
    ImGui::TextDisabled("Tools");
    for (const ToolInfo& t : toolTable())
        menuItemAction(ctx, t.label, t.action, ctx.editor.tool == t.tool);
    ImGui::Separator();
    menuItemAction(ctx, "Generators", Action::ToggleGenerators, ctx.windows.panels.generators);
    menuItemAction(ctx, "New-agent defaults", Action::ToggleAgentDefaults,
                   ctx.windows.panels.agentDefaults);
    menuItemAction(ctx, "Linter", Action::ToggleLinter, ctx.windows.panels.linter);
    ImGui::EndMenu();
}

// The tool strip in the menu bar: one click (or the digit keys) picks a tool.
void drawToolStrip(SandboxContext& ctx) {
    ImGui::Separator();
    for (const ToolInfo& t : toolTable()) {
        const bool on = ctx.editor.tool == t.tool;
        const ImVec2 size = ImGui::CalcTextSize(t.stripText);
        if (ImGui::Selectable(t.stripText, on, ImGuiSelectableFlags_None, size))
            applyAction(ctx, t.action);
        if (ImGui::IsItemHovered()) {
            for (const KeyBinding& b : kKeyBindings)
                if (b.action == t.action)
                    ImGui::SetTooltip("%s (%s): %s", b.name, shortcutLabel(t.action).c_str(),
                                      b.description);
        }
        ImGui::SameLine();
    }
    ImGui::Separator();
    if (ImGui::Selectable("Snap", ctx.editor.snap, ImGuiSelectableFlags_None,
                          ImGui::CalcTextSize("Snap")))
        applyAction(ctx, Action::ToggleSnap);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Snap to a %g grid (S; step in the Edit menu)", ctx.editor.snapStep);
}

void drawSimulationMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("Simulation")) return;
    menuItemAction(ctx, ctx.session.running ? "Pause" : "Play", Action::TogglePause);
    menuItemAction(ctx, "Single step", Action::Step);
    menuItemAction(ctx, "Detour flow field", Action::ToggleDetour,
                   ctx.session.sim.params().detour.enabled);
    SimulationParams sp = ctx.session.sim.params();
    if (ImGui::MenuItem("Roadmap routing", nullptr, sp.routing == Routing::Roadmap)) {
        sp.routing = sp.routing == Routing::Roadmap ? Routing::Straight : Routing::Roadmap;
        editSimulation(ctx, sp);
    } else if (ImGui::MenuItem("Deadlock breaking", nullptr, sp.deadlockBreaking)) {
        sp.deadlockBreaking = !sp.deadlockBreaking;
        editSimulation(ctx, sp);
    }
    ImGui::Separator();
    if (ctx.playback.active) {
        ImGui::TextDisabled("Recording %s: frames 0-%zu", ctx.playback.file.filename().c_str(),
                            ctx.playback.steps.size() - 1);
        if (ImGui::MenuItem("Continue live from this frame")) leavePlayback(ctx, "continued live");
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Make the frame on screen an unsaved scene and simulate on from it "
                              "with this core (editing does the same)");
    } else {
        ImGui::TextDisabled("Time travel (steps %llu-%llu recorded)",
                            static_cast<unsigned long long>(ctx.timeline.history.firstStep()),
                            static_cast<unsigned long long>(ctx.timeline.history.lastStep()));
    }
    menuItemAction(ctx, "Step back", Action::StepBack);
    menuItemAction(ctx, "Previous event", Action::PreviousEvent);
    menuItemAction(ctx, "Next event", Action::NextEvent);
    menuItemAction(ctx, "Start of recording", Action::RecordingStart);
    menuItemAction(ctx, "End of recording", Action::RecordingEnd);
    menuItemAction(ctx, "Why? (selected agent)", Action::ToggleWhy, ctx.timeline.why.open);
    menuItemAction(ctx, "Compare (branch with other parameters)", Action::ToggleCompare,
                   ctx.windows.panels.compare);
    ImGui::Separator();
    ClockSettings& c = ctx.session.clockSettings;
    if (ImGui::RadioButton("Real time", c.mode == RunMode::RealTime)) c.mode = RunMode::RealTime;
    ImGui::SameLine();
    if (ImGui::RadioButton("Steps per frame", c.mode == RunMode::StepsPerFrame))
        c.mode = RunMode::StepsPerFrame;
    ImGui::PushItemWidth(200.0f);
    if (c.mode == RunMode::RealTime) {
        float scale = static_cast<float>(c.timeScale);
        if (ImGui::SliderFloat("Speed (x real time)", &scale, 0.25f, 64.0f, "%.2f",
                               ImGuiSliderFlags_Logarithmic))
            c.timeScale = static_cast<double>(scale);
        ImGui::SliderInt("Max steps per frame", &c.maxCatchUpSteps, 1, 64);
    } else {
        ImGui::SliderInt("Steps per frame", &c.stepsPerFrame, 1, 64);
    }
    const int maxThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (ImGui::SliderInt("Threads", &ctx.session.threads, 1, maxThreads)) {
        ctx.session.threads = std::clamp(ctx.session.threads, 1, maxThreads);
        ctx.session.sim.setThreadCount(ctx.session.threads);
    }
    ImGui::PopItemWidth();
    ImGui::TextDisabled("dt = %g s (Parameters panel to change)",
                        ctx.session.sim.params().timeStep);
    ImGui::Separator();
    menuItemAction(ctx, "Clear selection", Action::ClearSelection, false,
                   !ctx.explain.selection.empty());
    menuItemAction(ctx, "Construction mode", Action::ToggleConstruction,
                   ctx.explain.construction.active);
    menuItemAction(ctx, "Solve mode", Action::ToggleSolve, ctx.explain.solve.active);
    ImGui::EndMenu();
}

void swatch(ui::Rgba c, const char* text) {
    ImGui::ColorButton(text, ui::opaque4(c), ImGuiColorEditFlags_NoTooltip, {12.0f, 12.0f});
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
}

// UI scale and theme (projectors): applied by the app before the next frame, persisted.
void drawAppearanceMenu(SandboxContext& ctx) {
    if (ImGui::BeginMenu("UI scale")) {
        for (int pct = ui::kMinUiScalePercent; pct <= ui::kMaxUiScalePercent; pct += 25) {
            const std::string label = std::to_string(pct) + " %";
            if (ImGui::MenuItem(label.c_str(), nullptr, ctx.settings.uiScalePercent == pct))
                setUiScale(ctx.settings, pct);
        }
        ImGui::Separator();
        menuItemAction(ctx, "Larger", Action::UiScaleUp);
        menuItemAction(ctx, "Smaller", Action::UiScaleDown);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Theme")) {
        if (ImGui::MenuItem("Dark", nullptr, ctx.settings.theme == ui::Theme::Dark))
            ctx.settings.theme = ui::Theme::Dark;
        if (ImGui::MenuItem("Light (high contrast)", nullptr,
                            ctx.settings.theme == ui::Theme::Light))
            ctx.settings.theme = ui::Theme::Light;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("File dialogs")) {
        if (ImGui::MenuItem("Built-in browser", nullptr, !ctx.settings.desktopFileDialog))
            ctx.settings.desktopFileDialog = false;
        if (ImGui::MenuItem("The desktop's (zenity)", nullptr, ctx.settings.desktopFileDialog))
            ctx.settings.desktopFileDialog = true;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Open, Save as, Export and Record use zenity's file dialog where "
                              "zenity is installed, else the built-in browser");
        ImGui::EndMenu();
    }
}

// The primary agent's overlays in the world (its max-speed disk at the overlay's time scale,
// its neighbours), empty without them.
ui::Rect overlayBounds(const SandboxContext& ctx) {
    ui::Rect box = ui::Rect::empty();
    const ExplainRecord* rec = primaryRecord(ctx.explain);
    if (!rec || !ctx.view.layers.overlay.inWorld) return box;
    const double reach =
        rec->params.radius + rec->params.maxSpeed * ctx.view.overlayStyle.worldSeconds;
    box.include(ui::Rect{rec->position - Vec2(reach), rec->position + Vec2(reach)});
    for (const ExplainLine& l : rec->lines)
        if (const auto nb = ui::neighborInWorld(*rec, l)) box.include(nb->position);
    return box;
}

// Home: the scene (and the selected agent's overlays) fitted to the part of the view that the
// docked velocity panel, the lesson window, the hint bar and Help leave.
void fitScene(SandboxContext& ctx, bool panelShown, const ui::Rect& dockedPanel) {
    const ui::Rect& vp = ctx.view.camera.viewport();
    ui::Rect area = vp;
    if (ctx.interactive && panelShown) {
        const ui::Rect& panel = ctx.explain.velocityPanel.windowRect();
        area = ui::uncoveredArea(vp, panel.isEmpty() ? dockedPanel : panel);
    }
    area = lessonUncoveredArea(ctx, area);
    if (ctx.interactive)
        for (const char* name : {"##scene-hint", "Help"})
            if (const auto r = ui::shownWindowRect(name)) area = ui::largestPartBeside(area, *r);
    ui::Rect target = ctx.view.fitTarget ? *ctx.view.fitTarget : ui::sceneBounds(ctx.session.sim);
    if (const ui::Rect overlays = overlayBounds(ctx);
        !ctx.view.fitTarget && ctx.interactive && !overlays.isEmpty())
        target.include(overlays);
    ctx.view.camera.fitInto(target, area);
    ctx.view.fittedCenter = ctx.view.camera.center();
    ctx.view.fittedScale = ctx.view.camera.scale();
}

// Agents per cell of the view, for placing new windows over empty parts (placeNewWindow).
ui::CrowdDensity crowdDensity(const ui::Camera& camera, const Simulator& sim) {
    const ui::Rect& vp = camera.viewport();
    std::vector<Vec2> screen;
    screen.reserve(sim.agentCount());
    for (const Vec2& p : sim.positions())
        screen.push_back(camera.worldToScreen(p));
    return ui::CrowdDensity::build(vp, screen);
}

void drawViewMenu(SandboxContext& ctx) {
    if (!ImGui::BeginMenu("View")) return;
    menuItemAction(ctx, "Fit to scene", Action::FitView);
    menuItemAction(ctx, "Focus the decision (velocity panel)", Action::FocusDecision);
    drawAppearanceMenu(ctx);
    ImGui::Separator();
    for (const PanelInfo& p : panelTable()) {
        if (!p.menuLabel) continue;
        if (p.toggle)
            menuItemAction(ctx, p.menuLabel, *p.toggle, p.open(ctx));
        else
            ImGui::MenuItem(p.menuLabel, nullptr, &p.open(ctx));
    }
    ImGui::Separator();
    ImGui::TextDisabled("World");
    for (const LayerInfo& l : layerTable())
        if (!l.overlay) ImGui::MenuItem(l.label, nullptr, &l.get(ctx.view.layers));
    float arrow = static_cast<float>(ctx.view.layers.world.velocityArrowSeconds);
    ImGui::PushItemWidth(160.0f);
    if (ImGui::SliderFloat("Arrow length (s)", &arrow, 0.25f, 20.0f, "%.2f",
                           ImGuiSliderFlags_Logarithmic))
        ctx.view.layers.world.velocityArrowSeconds = static_cast<double>(std::max(arrow, 0.01f));
    ImGui::PopItemWidth();
    ImGui::Separator();
    ImGui::TextDisabled("Explain overlays (selected agent)");
    for (const LayerInfo& l : layerTable())
        if (l.overlay) ImGui::MenuItem(l.label, nullptr, &l.get(ctx.view.layers));
    ImGui::Separator();
    ImGui::TextDisabled("Agents:");
    swatch(ui::agentFill(ui::AgentState::Active), "on the way");
    swatch(ui::agentFill(ui::AgentState::AtGoal), "at goal");
    swatch(ui::agentFill(ui::AgentState::Static), "static");
    swatch(ui::agentFill(ui::AgentState::Lp3), "LP3 chose its velocity last step");
    ImGui::EndMenu();
}

float drawMainMenuBar(SandboxContext& ctx) {
    float height = 0.0f;
    if (ImGui::BeginMainMenuBar()) {
        drawSceneMenu(ctx);
        drawEditMenu(ctx);
        drawSimulationMenu(ctx);
        drawViewMenu(ctx);
        drawLessonsMenu(ctx);
        if (ImGui::BeginMenu("Help")) {
            menuItemAction(ctx, "Keys and mouse", Action::ToggleHelp, ctx.windows.showHelp);
            ImGui::EndMenu();
        }
        drawToolStrip(ctx);
        height = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
    }
    return height;
}

// The agent tooltip: who it is and what it is doing. The neighbour count comes from a dry-run
// explain of that agent, cached until the agent or the state changes.
void agentTooltip(SandboxContext& ctx, std::size_t index) {
    const AgentId id = ctx.session.sim.agentIdAt(index);
    ExplainView& ex = ctx.explain;
    if (ex.hoverRecordAgent != id || ex.hoverRecordStamp.stale(ctx.session.stateVersion)) {
        ex.hoverRecord = ctx.session.sim.explain(id);
        ex.hoverRecordAgent = id;
        ex.hoverRecordStamp.refresh(ctx.session.stateVersion);
    }
    const Vec2 p = ctx.session.sim.positions()[index];
    const Vec2 v = ctx.session.sim.velocities()[index];
    const auto lp3 = ctx.session.sim.lastStepLp3();
    ImGui::BeginTooltip();
    if (index < ctx.doc.agentNames.size() && !ctx.doc.agentNames[index].empty())
        ImGui::Text("Agent #%zu  \"%s\"  (id %u:%u)", index,
                    ui::shownLine(ctx.doc.agentNames[index]).c_str(), id.slot, id.generation);
    else
        ImGui::Text("Agent #%zu  (id %u:%u)", index, id.slot, id.generation);
    ImGui::Text("position (%.3f, %.3f)", p.x, p.y);
    ImGui::Text("speed %.3f  (max %.3f)", std::hypot(v.x, v.y),
                ctx.session.sim.agentParams()[index].maxSpeed);
    ImGui::Text("neighbours %zu agents, %zu obstacle segments",
                ctx.explain.hoverRecord.agentNeighbors.size(),
                ctx.explain.hoverRecord.obstacleNeighbors.size());
    std::string state;
    if (ctx.session.sim.isStaticAt(index)) state += "static  ";
    if (ctx.session.sim.atGoalAt(index)) state += "at goal  ";
    if (index < lp3.size() && lp3[index]) state += "LP3 last step  ";
    if (ctx.explain.hoverRecord.lp2Failed()) state += "LP3 next step  ";
    if (!state.empty()) ImGui::TextUnformatted(state.c_str());
    if (ctx.explain.selection.contains(id)) ImGui::TextDisabled("selected");
    if (!ctx.explain.selection.contains(id) || editing(ctx))
        ImGui::TextDisabled("%s", toolAgentHint(ctx));
    ImGui::EndTooltip();
}

// The scene file's id of the agent that built a line (empty for obstacles or unnamed agents).
std::string lineSourceName(const Simulator& sim, const std::vector<std::string>& agentNames,
                           const ExplainRecord& rec, int line) {
    if (line < 0 || static_cast<std::size_t>(line) >= rec.lines.size()) return {};
    const ExplainLine& l = rec.lines[static_cast<std::size_t>(line)];
    if (isObstacleCase(l.lineCase)) return {};
    const auto i = sim.indexOf(l.otherAgent);
    if (!i || *i >= agentNames.size() || agentNames[*i].empty()) return {};
    std::string name(1, '#'); // appending avoids a GCC 12 -Wrestrict false positive
    name += std::to_string(*i);
    name += " \"";
    name += ui::shownLine(agentNames[*i]);
    name += '"';
    return name;
}

} // namespace

void buildFrame(SandboxContext& ctx) {
    const ImGuiIO& io = ImGui::GetIO();
    ctx.view.windowWidth = static_cast<int>(io.DisplaySize.x);
    ctx.view.windowHeight = static_cast<int>(io.DisplaySize.y);
    refreshRecords(ctx.explain, ctx.session);
    refreshWhy(ctx);
    const ExplainRecord* rec = primaryRecord(ctx.explain);

    const float top = drawMainMenuBar(ctx);
    // A menu action (Simulation > Detour: an edit of the simulation) may have rebuilt the
    // records `rec` pointed into (heap-use-after-free found by the monkey test, seed 4242).
    rec = primaryRecord(ctx.explain);
    const float timelineHeight = ctx.windows.panels.timeline ? ui::TimelineBar::height() : 0.0f;
    const float bottom =
        std::max(io.DisplaySize.y - ui::statusBarHeight() - timelineHeight, top + 1.0f);
    // Screenshots dock the velocity panel to the right third and keep the world beside it.
    const bool panelShown = ctx.view.layers.overlay.velocityPanel && rec != nullptr;
    const float panelX = std::floor(io.DisplaySize.x * (1.0f - kPanelWidthFraction));
    const float worldRight = !ctx.interactive && panelShown ? panelX : io.DisplaySize.x;
    const double worldLeft = lessonDockWidth(ctx); // screenshots dock a lesson at the left
    ctx.view.camera.setViewport({{worldLeft, static_cast<double>(top)},
                                 {static_cast<double>(worldRight), static_cast<double>(bottom)}});
    const bool settling = ctx.view.fitSettle > 0 &&
                          ctx.view.camera.center() == ctx.view.fittedCenter &&
                          ctx.view.camera.scale() == ctx.view.fittedScale;
    if (ctx.view.fitRequested || settling) {
        const ui::Rect docked{{static_cast<double>(panelX), static_cast<double>(top)},
                              {static_cast<double>(io.DisplaySize.x), static_cast<double>(bottom)}};
        fitScene(ctx, panelShown, docked);
        ctx.view.fitSettle = std::exchange(ctx.view.fitRequested, false) && ctx.interactive
                                 ? 4
                                 : std::max(ctx.view.fitSettle - 1, 0);
        if (ctx.view.fitSettle == 0) ctx.view.fitTarget.reset();
    } else {
        ctx.view.fitSettle = 0;
        ctx.view.fitTarget.reset();
    }
    ui::setWindowPlacementView(ctx.view.camera.viewport(),
                               [&ctx] { return crowdDensity(ctx.view.camera, ctx.session.sim); });
    ui::handleCameraInput(ctx.view.camera, io);

    // The tool's early input (the inspect tool's what-if drags) before anything is drawn, so
    // this frame shows it.
    const Vec2 mouse{static_cast<double>(io.MousePos.x), static_cast<double>(io.MousePos.y)};
    const bool mouseInWorld = ctx.interactive && !io.WantCaptureMouse && ImGui::IsMousePosValid() &&
                              ctx.view.camera.viewport().contains(mouse);
    ToolPointer pointer{mouse, ctx.view.camera.screenToWorld(mouse), mouseInWorld};
    pointer.tookEarly = toolEarlyInput(ctx, pointer);
    if (pointer.tookEarly) {
        refreshRecords(ctx.explain, ctx.session);
        rec = primaryRecord(ctx.explain);
    }

    // World: agents, then the primary agent's overlays on top.
    ImDrawList& dl = *ImGui::GetBackgroundDrawList();
    const std::vector<std::size_t> selected = ctx.explain.selection.indices(ctx.session.sim);
    ctx.view.renderer.draw(dl, ctx.view.camera, ctx.session.sim, ctx.view.layers.world,
                           ctx.session.sim.lastStepLp3(), selected, refreshRoutes(ctx));
    drawRoadmapNote(ctx, dl);
    ctx.view.mouseCaptured = io.WantCaptureMouse;
    ctx.view.mouse = ImGui::IsMousePosValid() ? std::optional<Vec2>(mouse) : std::nullopt;
    ui::OverlayHover worldHover;
    ctx.view.worldLabels.clear(); // the overlay's and Why?'s labels, laid out together below
    ctx.view.overlayStyle.labels = &ctx.view.worldLabels;
    if (rec && ctx.view.layers.overlay.inWorld) {
        // Construction mode dims the other overlays around the agent (the current line stays).
        const std::optional<ui::ConstructionGeometry> construction =
            ctx.explain.construction.active
                ? ui::constructionGeometry(*rec, ctx.explain.construction)
                : std::nullopt;
        worldHover = ui::drawExplainInWorld(dl, ctx.view.camera, *rec, ctx.view.layers.overlay,
                                            ctx.view.overlayStyle, ctx.explain.overlayHover, mouse,
                                            mouseInWorld, construction ? &*construction : nullptr);
    }
    drawWhyWorld(ctx, dl, rec); // the binding half-planes and the agents behind them
    drawBranchWorld(ctx, dl);   // Compare: the branch's agents as ghosts
    drawPlaybackWorld(ctx, dl); // a recording: the recorded velocity of the decision

    // The tool: its overlay, then its mouse handling (which may change the scene or the
    // selection; tools/edit_tool.hpp).
    drawToolOverlay(ctx, dl, pointer);
    drawAuthoringOverlay(ctx, dl); // lint labels join the layout
    ui::placeAndDrawLabels(dl, ctx.view.worldLabels, ctx.view.camera.viewport());
    pointer.overOverlay = worldHover.valid();
    toolWorldInput(ctx, pointer);
    refreshRecords(ctx.explain, ctx.session); // (cached: only an edit or a click costs)
    rec = primaryRecord(ctx.explain);
    ctx.explain.hoveredAgent =
        mouseInWorld ? pickAgent(ctx.session.sim, ctx.view.camera, mouse) : std::nullopt;

    playbackFrame(ctx); // a recording: its events, the recorded velocity for the panel

    // The velocity-space panel.
    ui::OverlayHover panelHover;
    if (ctx.view.layers.overlay.velocityPanel && rec) {
        const ImVec2 pos{panelX, top};
        const ImVec2 size{io.DisplaySize.x - panelX, bottom - top};
        ImGui::SetNextWindowPos(pos, ctx.interactive ? ImGuiCond_FirstUseEver : ImGuiCond_Always);
        ImGui::SetNextWindowSize(size, ctx.interactive ? ImGuiCond_FirstUseEver : ImGuiCond_Always);
        ctx.explain.velocityPanel.solve = &ctx.explain.solve;
        ctx.explain.velocityPanel.agentLabel =
            ui::captionAgentLabel(ctx.session.sim.indexOf(rec->agent), ctx.doc.agentNames);
        panelHover = ctx.explain.velocityPanel.draw(
            rec, ctx.view.layers.overlay, ctx.explain.overlayHover, ctx.explain.construction,
            &ctx.view.layers.overlay.velocityPanel);
    }
    if (std::exchange(ctx.explain.velocityPanel.whyRequested, false)) ctx.timeline.why.open = true;
    // The panel is on top of the world: its hover wins.
    ctx.explain.overlayHover = panelHover.valid() ? panelHover : worldHover;

    // Tooltips: an agent first, else a hovered half-plane.
    if (ctx.explain.hoveredAgent)
        agentTooltip(ctx, *ctx.explain.hoveredAgent);
    else if (rec && ctx.explain.overlayHover.valid())
        ui::showHoverTooltip(*rec, ctx.explain.overlayHover,
                             lineSourceName(ctx.session.sim, ctx.doc.agentNames, *rec,
                                            ctx.explain.overlayHover.line));

    // The scene's hint over the world, beside the docked velocity panel.
    ui::drawSceneHint(ctx.windows.sceneHint, static_cast<float>(worldLeft),
                      panelShown ? panelX : io.DisplaySize.x, top);
    // The lesson window before the panels: a window its page opens is placed beside it.
    drawLessonWindow(ctx, top, bottom);
    drawPanels(ctx); // all closed in --screenshot mode unless --panels opened them

    ui::StatusInfo s;
    s.sceneName =
        ctx.doc.scene.name.empty() ? ctx.doc.sceneFile.filename().string() : ctx.doc.scene.name;
    s.unsaved = ctx.doc.unsaved.unsaved();
    if (ctx.playback.active) s.sceneName = ctx.playback.file.filename().string();
    s.mode = playbackStatus(ctx, s.modeWarning);
    s.selected = ctx.explain.selection.size();
    s.construction = ctx.explain.construction.active;
    s.editTool = toolStatusText(ctx);
    s.step = ctx.session.sim.stepCount();
    s.time = ctx.session.sim.time();
    s.running = ctx.session.running;
    s.agents = ctx.session.sim.agentCount();
    s.goalAgents = ctx.session.sim.goalAgentCount();
    s.atGoal = ctx.session.sim.atGoalCount();
    s.lp3Agents = ctx.session.sim.lastStepStats().lp3Agents;
    s.msPerStep = ctx.session.stepTiming.average;
    s.msPerFrame = ctx.session.frameTiming.average;
    s.threads = ctx.session.threads;
    if (!ctx.windows.note.empty()) {
        if (ctx.windows.noteUntil < 0.0) ctx.windows.noteUntil = ImGui::GetTime() + 4.0;
        if (ImGui::GetTime() > ctx.windows.noteUntil)
            ctx.windows.note.clear();
        else
            s.note = ctx.windows.note;
    }
    ui::drawStatusBar(s);
    if (ctx.pictures.recording) {
        // "REC" at the right end of the status bar (over it: the bar's own items are on the left).
        char recText[48];
        std::snprintf(recText, sizeof recText, "REC  %zu frames", ctx.pictures.recordFrames);
        const float h = ui::statusBarHeight();
        const ImVec2 ts = ImGui::CalcTextSize(recText);
        const float r = ImGui::GetFontSize() * 0.3f;
        const ImVec2 at{io.DisplaySize.x - ts.x - 12.0f, io.DisplaySize.y - 0.5f * (h + ts.y)};
        ImDrawList& fg = *ImGui::GetForegroundDrawList();
        const bool blink = std::fmod(ImGui::GetTime(), 1.0) < 0.6;
        if (blink)
            fg.AddCircleFilled({at.x - r - 5.0f, at.y + 0.5f * ts.y}, r,
                               IM_COL32(230, 30, 30, 255));
        fg.AddText(at, IM_COL32(235, 40, 40, 255), recText);
    }
    if (ctx.windows.panels.timeline) drawTimelineBar(ctx, bottom);
    if (ctx.interactive) {
        ui::HelpContent help{ctx.windows.keyHelp, ctx.windows.mouseHelp,
                             ctx.windows.showHelp ? firstLessonTitle(ctx) : std::string(),
                             !ctx.windows.helpFirstLaunch};
        const ui::HelpResult shown = ui::drawHelpWindow(&ctx.windows.showHelp, help, top, bottom);
        std::copy(std::begin(shown.rect), std::end(shown.rect), ctx.windows.helpRect);
        if (shown.startHere) startFirstLesson(ctx);
        ctx.windows.messages.draw();
        drawDialogs(ctx);
    }
}

} // namespace orca::app
