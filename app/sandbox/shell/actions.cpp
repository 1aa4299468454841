// Key and menu actions: the mode keys are dispatched in, and what each bound action does
// (key_bindings.hpp lists them with their keys).

#include <algorithm>
#include <string>
#include <utility>

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"
#include "shell/panel_table.hpp"

namespace orca::app {

KeyContext keyContext(const SandboxContext& ctx) {
    return KeyContext{ctx.explain.construction.active, editing(ctx), ctx.explain.solve.active};
}

void applyAction(SandboxContext& ctx, Action action) {
    const Vec2 viewCentre = ctx.view.camera.viewport().center();
    auto openDialog = [&](Dialog d, std::string path) {
        if (!ctx.interactive || ctx.windows.dialog != Dialog::None) return;
        ctx.windows.dialog = d;
        ctx.windows.dialogFocusFrames = 3;
        ctx.windows.dialogPath = std::move(path);
    };
    const std::string sceneDir =
        ctx.doc.sceneFile.empty()
            ? (ctx.playback.active ? ctx.playback.file.parent_path() : defaultSaveDir({}))
                      .string() +
                  "/"
            : ctx.doc.sceneFile.parent_path().string() + "/";
    switch (action) {
    case Action::TogglePause:
        ctx.session.running = !ctx.session.running;
        ctx.session.clock.reset();
        break;
    case Action::Step:
        ctx.session.running = false;
        ++ctx.session.pendingSingleSteps;
        break;
    case Action::Restart:
        ctx.requests.restart = true;
        break;
    case Action::ClearSelection:
        if (whatIfRevert(ctx)) break; // Esc first drops a what-if preview
        cancelOrClear(ctx);
        break;
    case Action::ToggleConstruction:
        ctx.explain.construction.active = !ctx.explain.construction.active;
        if (ctx.explain.construction.active)
            setTool(ctx, Tool::Inspect); // construction is for viewing
        if (ctx.explain.construction.active) ctx.explain.solve.active = false;
        clampConstruction(ctx.explain.construction, primaryRecord(ctx.explain));
        break;
    case Action::ToggleSolve:
        ctx.explain.solve.active = !ctx.explain.solve.active;
        if (ctx.explain.solve.active) {
            setTool(ctx, Tool::Inspect);
            ctx.explain.construction.active = false;
        }
        break;
    case Action::SolvePrevStep:
        ctx.explain.solve.step = std::max(ctx.explain.solve.step - 1, 0);
        break;
    case Action::SolveNextStep:
        if (const ExplainRecord* r = primaryRecord(ctx.explain))
            ctx.explain.solve.step =
                std::min(ctx.explain.solve.step + 1, std::max(ui::solveStepCount(*r) - 1, 0));
        break;
    case Action::ConstructionPrevNeighbor:
        stepConstruction(ctx.explain.construction, primaryRecord(ctx.explain), -1, 0);
        break;
    case Action::ConstructionNextNeighbor:
        stepConstruction(ctx.explain.construction, primaryRecord(ctx.explain), +1, 0);
        break;
    case Action::ConstructionPrevPhase:
        stepConstruction(ctx.explain.construction, primaryRecord(ctx.explain), 0, -1);
        break;
    case Action::ConstructionNextPhase:
        stepConstruction(ctx.explain.construction, primaryRecord(ctx.explain), 0, +1);
        break;
    case Action::ToggleDetour: {
        SimulationParams p = ctx.session.sim.params();
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
    case Action::KeepWhatIf:
        whatIfKeep(ctx);
        break;
    case Action::ToggleParameters:
    case Action::ToggleInspector:
    case Action::ToggleMetrics:
    case Action::ToggleEvents:
    case Action::ToggleWhy:
    case Action::ToggleCompare:
    case Action::ToggleGenerators:
    case Action::ToggleLinter:
    case Action::ToggleAgentDefaults:
        if (const PanelInfo* p = panelForAction(action)) p->open(ctx) = !p->open(ctx);
        break;
    case Action::FitView:
        ctx.view.fitRequested = true;
        break;
    case Action::ZoomIn:
        ctx.view.camera.zoomAbout(viewCentre, 1.25);
        break;
    case Action::ZoomOut:
        ctx.view.camera.zoomAbout(viewCentre, 1.0 / 1.25);
        break;
    case Action::FocusDecision:
        ctx.explain.velocityPanel.focusRequested = true;
        break;
    case Action::UiScaleUp:
    case Action::UiScaleDown:
        setUiScale(ctx.settings,
                   ctx.settings.uiScalePercent + (action == Action::UiScaleUp ? 25 : -25));
        break;
    case Action::Open:
        openDialog(Dialog::Open, sceneDir);
        break;
    case Action::Save:
        if (ctx.doc.sceneFile.empty() || isBundledFile(ctx.paths, ctx.doc.sceneFile)) {
            // A bundled scene or lesson is a template: Save asks for a new path.
            if (!ctx.doc.sceneFile.empty())
                setNote(ctx.windows, ctx.doc.sceneFile.filename().string() +
                                         " is a bundled scene: save your copy under a new path");
            openDialog(Dialog::SaveAs, saveTarget(ctx).string());
        } else {
            saveSceneAs(ctx, ctx.doc.sceneFile);
        }
        break;
    case Action::SaveAs:
        openDialog(Dialog::SaveAs, saveTarget(ctx).string()); // a bundled one: the user's folder
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
            ctx.windows.messages.push(
                "No state file", "Start orca-sandbox with --dump-state FILE to write the state "
                                 "on F12 and on exit.");
        else
            ctx.requests.dump = true;
        break;
    case Action::ToggleHelp:
        ctx.windows.showHelp = !ctx.windows.showHelp;
        ctx.windows.helpFirstLaunch = false; // asked for: the key tables open
        break;
    case Action::Quit:
        requestQuit(ctx);
        break;
    case Action::NewScene:
        requestNewScene(ctx);
        break;
    case Action::ToolInspect:
    case Action::ToolSelect:
    case Action::ToolAddAgent:
    case Action::ToolGoal:
    case Action::ToolObstacle:
        if (const ToolInfo* t = toolForAction(action)) setTool(ctx, t->tool); // the tool table
        break;
    case Action::ToggleSnap:
        ctx.editor.snap = !ctx.editor.snap;
        setNote(ctx.windows, ctx.editor.snap ? "Snap to grid on" : "Snap to grid off");
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
        if (ctx.view.mouse && !ctx.view.mouseCaptured &&
            ctx.view.camera.viewport().contains(*ctx.view.mouse))
            at = ctx.view.camera.screenToWorld(*ctx.view.mouse);
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

} // namespace orca::app
