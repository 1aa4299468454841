#pragma once
// The one table of key bindings: it drives dispatch, the menus' shortcut labels, the Help
// window and the README's key table (orca-sandbox --print-keys), so they cannot drift apart.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <SDL_keycode.h>

#include "orca/ui/panels.hpp"

namespace orca::app {

enum class Action {
    TogglePause,
    Step,
    // Time travel.
    StepBack,
    PreviousEvent,
    NextEvent,
    RecordingStart,
    RecordingEnd,
    ToggleEvents,
    ToggleWhy,
    ToggleCompare,
    KeepWhatIf,
    Restart,
    ClearSelection,
    ToggleConstruction,
    ConstructionPrevNeighbor,
    ConstructionNextNeighbor,
    ConstructionPrevPhase,
    ConstructionNextPhase,
    ToggleSolve,
    SolvePrevStep,
    SolveNextStep,
    ToggleParameters,
    ToggleInspector,
    ToggleMetrics,
    ToggleDetour,
    FitView,
    ZoomIn,
    ZoomOut,
    FocusDecision,
    UiScaleUp,
    UiScaleDown,
    Open,
    Save,
    SaveAs,
    Screenshot,
    ExportSvg,
    ToggleRecording,
    DumpState,
    ToggleHelp,
    Quit,
    // Scene authoring.
    ToolInspect,
    ToolSelect,
    ToolAddAgent,
    ToolGoal,
    ToolObstacle,
    ToggleGenerators,
    ToggleLinter,
    ToggleAgentDefaults,
    ToggleSnap,
    Undo,
    Redo,
    DeleteSelection,
    Duplicate,
    Copy,
    Cut,
    Paste,
    SelectAll,
    NudgeLeft,
    NudgeRight,
    NudgeUp,
    NudgeDown,
    ClosePolygon,
    ReverseWinding,
    NewScene,
};

enum KeyMod : std::uint8_t {
    kModNone = 0,
    kModCtrl = 1 << 0,
    kModShift = 1 << 1,
    kModAlt = 1 << 2,
};

/// When a binding is live. Two bindings may share a key only if their scopes never overlap.
/// The modes: editing (an edit tool is active; construction mode is then off), construction
/// mode, or plain viewing (the inspect tool without construction mode).
enum class KeyScope : std::uint8_t {
    Always,
    Construction, ///< only while construction mode is on
    Viewing,      ///< only with the inspect tool and construction and solve mode off
    Solve,        ///< only while solve mode is on (it excludes construction mode)
    Editing,      ///< only while an edit tool is active
};

/// The mode a key press happens in.
struct KeyContext {
    bool construction = false;
    bool editing = false;
    bool solve = false;
};

struct KeyBinding {
    SDL_Keycode key;
    std::uint8_t mods; ///< KeyMod bits; must match exactly (left/right keys alike)
    Action action;
    const char* name;        ///< short, also the menu label
    const char* description; ///< for the Help window
    bool repeats;            ///< act on auto-repeat while held
    KeyScope scope = KeyScope::Always;
};

inline constexpr const char* kStepHelp =
    "Pause and advance exactly one time step (the same dt as running; before the recording's "
    "head it replays the recording); hold to repeat";

inline constexpr std::array kKeyBindings{
    KeyBinding{SDLK_p, kModNone, Action::TogglePause, "Play / pause", "Run or pause the simulation",
               false},
    KeyBinding{SDLK_SPACE, kModNone, Action::TogglePause, "Play / pause",
               "Run or pause the simulation", false},
    KeyBinding{SDLK_o, kModNone, Action::Step, "Single step", kStepHelp, true},
    KeyBinding{SDLK_RIGHT, kModNone, Action::Step, "Single step", kStepHelp, true,
               KeyScope::Viewing},
    KeyBinding{SDLK_PERIOD, kModNone, Action::Step, "Single step", kStepHelp, true},
    KeyBinding{SDLK_COMMA, kModNone, Action::StepBack, "Step back",
               "Pause and go back one recorded step (exact: the state the run had then); hold to "
               "repeat",
               true},
    KeyBinding{SDLK_COMMA, kModShift, Action::PreviousEvent, "Previous event",
               "The previous event (by step) of the Events panel's filter: go to its step, select "
               "and frame its agents",
               true},
    KeyBinding{SDLK_PERIOD, kModShift, Action::NextEvent, "Next event",
               "The next event (by step) of the Events panel's filter: go to its step, select "
               "and frame its agents",
               true},
    KeyBinding{SDLK_COMMA, kModCtrl, Action::RecordingStart, "Start of recording",
               "Go to the first recorded step", false},
    KeyBinding{SDLK_PERIOD, kModCtrl, Action::RecordingEnd, "End of recording",
               "Go to the last recorded step (the head: stepping and playing record again)", false},
    KeyBinding{SDLK_t, kModNone, Action::ToggleEvents, "Events",
               "Show or hide the events panel (filter by kind and agent, counts, the list)", false},
    KeyBinding{SDLK_y, kModNone, Action::ToggleWhy, "Why?",
               "Diagnose the selected agent: why it moves as it does and what to change; its "
               "binding half-planes and the agents behind it are highlighted",
               false},
    KeyBinding{SDLK_b, kModNone, Action::ToggleCompare, "Compare",
               "Branch from this step with changed parameters (e.g. timeHorizon=5) and run both "
               "in lockstep: the branch as ghost outlines, both runs' metrics side by side",
               false},
    KeyBinding{SDLK_r, kModNone, Action::Restart, "Restart",
               "Rebuild the simulation from the scene with your edits (paused; the selection is "
               "kept)",
               false},
    KeyBinding{SDLK_ESCAPE, kModNone, Action::ClearSelection, "Clear selection / cancel",
               "Deselect everything; while drawing an obstacle: drop it", false},
    KeyBinding{SDLK_c, kModNone, Action::ToggleConstruction, "Construction mode",
               "Build the selected agent's half-planes one neighbour at a time (velocity panel)",
               false},
    KeyBinding{SDLK_UP, kModNone, Action::ConstructionPrevNeighbor, "Previous neighbour",
               "Construction mode: the previous half-plane (obstacle segments first, then "
               "neighbours, nearest first)",
               true, KeyScope::Construction},
    KeyBinding{SDLK_DOWN, kModNone, Action::ConstructionNextNeighbor, "Next neighbour",
               "Construction mode: the next half-plane (obstacle segments first, then neighbours, "
               "nearest first)",
               true, KeyScope::Construction},
    KeyBinding{SDLK_LEFT, kModNone, Action::ConstructionPrevPhase, "Previous phase",
               "Construction mode: one phase back (VO, + u, half-plane)", true,
               KeyScope::Construction},
    KeyBinding{SDLK_RIGHT, kModNone, Action::ConstructionNextPhase, "Next phase",
               "Construction mode: one phase on (after the half-plane: the next neighbour)", true,
               KeyScope::Construction},
    KeyBinding{SDLK_v, kModNone, Action::ToggleSolve, "Solve mode",
               "Step through the selected agent's linear programs as they ran: LP2 line by line "
               "(LP1 interval, clipping lines), LP3's bisector lines, the result (velocity panel)",
               false},
    KeyBinding{SDLK_LEFT, kModNone, Action::SolvePrevStep, "Previous solve step",
               "Solve mode: one step of the LP trace back", true, KeyScope::Solve},
    KeyBinding{SDLK_RIGHT, kModNone, Action::SolveNextStep, "Next solve step",
               "Solve mode: one step of the LP trace on", true, KeyScope::Solve},
    KeyBinding{SDLK_e, kModNone, Action::ToggleParameters, "Parameters",
               "Show or hide the parameters panel", false},
    KeyBinding{SDLK_i, kModNone, Action::ToggleInspector, "Inspector",
               "Show or hide the inspector (selected agents)", false},
    KeyBinding{SDLK_m, kModNone, Action::ToggleMetrics, "Metrics", "Show or hide the metrics panel",
               false},
    KeyBinding{SDLK_d, kModNone, Action::ToggleDetour, "Detour field",
               "Switch the detour flow field on or off (live, an edit of the scene)", false},
    KeyBinding{SDLK_HOME, kModNone, Action::FitView, "Fit view",
               "Zoom and centre the view on the whole scene", false},
    KeyBinding{SDLK_EQUALS, kModNone, Action::ZoomIn, "Zoom in", "Zoom in about the view centre",
               true},
    KeyBinding{SDLK_KP_PLUS, kModNone, Action::ZoomIn, "Zoom in", "Zoom in about the view centre",
               true},
    KeyBinding{SDLK_MINUS, kModNone, Action::ZoomOut, "Zoom out", "Zoom out about the view centre",
               true},
    KeyBinding{SDLK_KP_MINUS, kModNone, Action::ZoomOut, "Zoom out",
               "Zoom out about the view centre", true},
    KeyBinding{SDLK_f, kModNone, Action::FocusDecision, "Focus decision",
               "Velocity panel: zoom to the decision (v, v_pref, v_new, the u arrows and the "
               "feasible region near them)",
               false},
    KeyBinding{SDLK_EQUALS, kModCtrl, Action::UiScaleUp, "Larger UI",
               "UI scale +25 % (text, widgets and strokes; up to 250 %, kept in the settings)",
               false},
    KeyBinding{SDLK_MINUS, kModCtrl, Action::UiScaleDown, "Smaller UI",
               "UI scale -25 % (down to 100 %)", false},
    KeyBinding{SDLK_o, kModCtrl, Action::Open, "Open...", "Open a scene file (file browser)",
               false},
    KeyBinding{SDLK_s, kModCtrl, Action::Save, "Save",
               "Save the scene (as loaded, with your edits and the view)", false},
    KeyBinding{SDLK_s, kModCtrl | kModShift, Action::SaveAs, "Save as...",
               "Save the scene to another file", false},
    KeyBinding{SDLK_p, kModCtrl, Action::Screenshot, "Save screenshot...",
               "Save the window as a PNG file", false},
    KeyBinding{SDLK_e, kModCtrl, Action::ExportSvg, "Export SVG...",
               "Save the world view and the velocity panel as an SVG file (vector paths, real "
               "text, the screen's colours)",
               false},
    KeyBinding{SDLK_r, kModCtrl, Action::ToggleRecording, "Record / stop",
               "Record the view as an animated GIF (or numbered PNGs) while the simulation "
               "advances; again: stop and write the file",
               false},
    KeyBinding{
        SDLK_F12, kModNone, Action::DumpState, "Dump state",
        "Write the state file given with --dump-state (for tests; also while a dialog is open)",
        false},
    KeyBinding{SDLK_F1, kModNone, Action::ToggleHelp, "Help", "Show or hide this window", false},
    KeyBinding{SDLK_q, kModCtrl, Action::Quit, "Quit",
               "Close the sandbox (asks first when the scene has unsaved changes)", false},
    KeyBinding{SDLK_n, kModCtrl, Action::NewScene, "New scene",
               "Start an empty scene (asks first when the scene has unsaved changes)", false},
    // Scene authoring.
    KeyBinding{SDLK_1, kModNone, Action::ToolInspect, "Inspect tool",
               "Click agents to see ORCA decide (no editing; arrows step / construction)", false},
    KeyBinding{SDLK_2, kModNone, Action::ToolSelect, "Select / move tool",
               "Click or box-select agents, goals, obstacles and vertices; drag to move them",
               false},
    KeyBinding{SDLK_3, kModNone, Action::ToolAddAgent, "Add agent tool",
               "Click to place an agent with the new-agent defaults (drag: also its goal)", false},
    KeyBinding{SDLK_4, kModNone, Action::ToolGoal, "Goal tool",
               "Drag from an agent to set its goal; Alt+drag sets a constant preferred velocity; "
               "edit the selected agent's waypoints (see Mouse)",
               false},
    KeyBinding{SDLK_5, kModNone, Action::ToolObstacle, "Obstacle tool",
               "Click vertices; click the first vertex or press Enter to close (made "
               "counter-clockwise)",
               false},
    KeyBinding{SDLK_g, kModNone, Action::ToggleGenerators, "Generators",
               "Insert formations: circle, grid block, random fill, crossing flows, doorway, "
               "corridor (preview first)",
               false},
    KeyBinding{SDLK_l, kModNone, Action::ToggleLinter, "Linter",
               "Show or hide the scene linter (ORCA hazards, with one-click fixes)", false},
    KeyBinding{SDLK_n, kModNone, Action::ToggleAgentDefaults, "New-agent defaults",
               "Show or hide the parameters new agents get", false},
    KeyBinding{SDLK_s, kModNone, Action::ToggleSnap, "Snap to grid",
               "Snap placed and moved points to the grid (step in the tool bar)", false},
    KeyBinding{SDLK_z, kModCtrl, Action::Undo, "Undo", "Undo the last edit of the scene", true},
    KeyBinding{SDLK_z, kModCtrl | kModShift, Action::Redo, "Redo", "Redo the last undone edit",
               true},
    KeyBinding{SDLK_y, kModCtrl, Action::Redo, "Redo", "Redo the last undone edit", true},
    KeyBinding{SDLK_DELETE, kModNone, Action::DeleteSelection, "Delete",
               "Delete the selected agents, obstacles or vertex (goal tool: the clicked waypoint); "
               "while drawing: the last vertex",
               true, KeyScope::Editing},
    KeyBinding{SDLK_BACKSPACE, kModNone, Action::DeleteSelection, "Delete",
               "Delete the selected agents, obstacles or vertex (goal tool: the clicked waypoint); "
               "while drawing: the last vertex",
               true, KeyScope::Editing},
    KeyBinding{SDLK_d, kModCtrl, Action::Duplicate, "Duplicate",
               "Copy the selected agents and obstacles beside themselves", false},
    KeyBinding{SDLK_c, kModCtrl, Action::Copy, "Copy",
               "Copy the selected agents and obstacles (also as JSON to the clipboard)", false},
    KeyBinding{SDLK_x, kModCtrl, Action::Cut, "Cut", "Copy, then delete the selection", false},
    KeyBinding{SDLK_v, kModCtrl, Action::Paste, "Paste",
               "Paste at the mouse (works across scenes and from another sandbox)", false},
    KeyBinding{SDLK_a, kModCtrl, Action::SelectAll, "Select all",
               "Select every agent (and, with an edit tool, every obstacle)", false},
    KeyBinding{SDLK_LEFT, kModNone, Action::NudgeLeft, "Nudge left",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_RIGHT, kModNone, Action::NudgeRight, "Nudge right",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_UP, kModNone, Action::NudgeUp, "Nudge up",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_DOWN, kModNone, Action::NudgeDown, "Nudge down",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_LEFT, kModShift, Action::NudgeLeft, "Nudge left",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_RIGHT, kModShift, Action::NudgeRight, "Nudge right",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_UP, kModShift, Action::NudgeUp, "Nudge up",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_DOWN, kModShift, Action::NudgeDown, "Nudge down",
               "Move the selection by one grid step (Shift: ten)", true, KeyScope::Editing},
    KeyBinding{SDLK_RETURN, kModNone, Action::KeepWhatIf, "Keep what-if",
               "Keep the previewed what-if (a dragged velocity, v_pref or position) as an "
               "undoable edit; Esc reverts it",
               false, KeyScope::Viewing},
    KeyBinding{SDLK_RETURN, kModNone, Action::ClosePolygon, "Close obstacle",
               "Obstacle tool: finish the obstacle being drawn (2 vertices = a wall segment)",
               false, KeyScope::Editing},
    KeyBinding{SDLK_KP_ENTER, kModNone, Action::ClosePolygon, "Close obstacle",
               "Obstacle tool: finish the obstacle being drawn (2 vertices = a wall segment)",
               false, KeyScope::Editing},
    KeyBinding{SDLK_w, kModNone, Action::ReverseWinding, "Reverse winding",
               "Reverse the vertex order of the selected obstacles (clockwise ones are ignored by "
               "the simulation)",
               false},
};

/// The binding for a key press (SDL keycode and SDL_Keymod bits), if any, in the given mode.
[[nodiscard]] const KeyBinding* findBinding(SDL_Keycode key, std::uint16_t sdlMods,
                                            KeyContext context = {});

/// "Ctrl+Q"-style label of the first binding of `action` (empty when unbound).
[[nodiscard]] std::string shortcutLabel(Action action);

/// One Help row per action, listing all of its keys ("P / Space"); keys live only in or out
/// of construction mode say so.
[[nodiscard]] std::vector<ui::HelpRow> keyHelpRows();
/// Mouse and drag-and-drop inputs for the Help window.
[[nodiscard]] std::vector<ui::HelpRow> mouseHelpRows();
/// Both tables as Markdown (for the README).
[[nodiscard]] std::string helpMarkdown();

} // namespace orca::app
