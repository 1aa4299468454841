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
    Restart,
    ClearSelection,
    ToggleConstruction,
    ConstructionPrevNeighbor,
    ConstructionNextNeighbor,
    ConstructionPrevPhase,
    ConstructionNextPhase,
    ToggleParameters,
    ToggleInspector,
    ToggleMetrics,
    ToggleDetour,
    FitView,
    ZoomIn,
    ZoomOut,
    Open,
    Save,
    SaveAs,
    Screenshot,
    DumpState,
    ToggleHelp,
    Quit,
};

enum KeyMod : std::uint8_t {
    kModNone = 0,
    kModCtrl = 1 << 0,
    kModShift = 1 << 1,
    kModAlt = 1 << 2,
};

/// When a binding is live. Two bindings may share a key only if their scopes never overlap.
enum class KeyScope : std::uint8_t {
    Always,
    Construction,   ///< only while construction mode is on
    NoConstruction, ///< only while construction mode is off
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
    "Pause and advance exactly one time step (the same dt as running); hold to repeat";

inline constexpr std::array kKeyBindings{
    KeyBinding{SDLK_p, kModNone, Action::TogglePause, "Play / pause", "Run or pause the simulation",
               false},
    KeyBinding{SDLK_SPACE, kModNone, Action::TogglePause, "Play / pause",
               "Run or pause the simulation", false},
    KeyBinding{SDLK_o, kModNone, Action::Step, "Single step", kStepHelp, true},
    KeyBinding{SDLK_RIGHT, kModNone, Action::Step, "Single step", kStepHelp, true,
               KeyScope::NoConstruction},
    KeyBinding{SDLK_r, kModNone, Action::Restart, "Restart",
               "Rebuild the simulation from the loaded scene, with your parameter edits (paused; "
               "the selection is kept)",
               false},
    KeyBinding{SDLK_ESCAPE, kModNone, Action::ClearSelection, "Clear selection",
               "Deselect every agent", false},
    KeyBinding{SDLK_c, kModNone, Action::ToggleConstruction, "Construction mode",
               "Build the selected agent's half-planes one neighbour at a time (velocity panel)",
               false},
    KeyBinding{SDLK_UP, kModNone, Action::ConstructionPrevNeighbor, "Previous neighbour",
               "Construction mode: the previous (nearer) neighbour", true, KeyScope::Construction},
    KeyBinding{SDLK_DOWN, kModNone, Action::ConstructionNextNeighbor, "Next neighbour",
               "Construction mode: the next (farther) neighbour", true, KeyScope::Construction},
    KeyBinding{SDLK_LEFT, kModNone, Action::ConstructionPrevPhase, "Previous phase",
               "Construction mode: one phase back (VO, + u, half-plane)", true,
               KeyScope::Construction},
    KeyBinding{SDLK_RIGHT, kModNone, Action::ConstructionNextPhase, "Next phase",
               "Construction mode: one phase on (after the half-plane: the next neighbour)", true,
               KeyScope::Construction},
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
    KeyBinding{SDLK_o, kModCtrl, Action::Open, "Open...", "Open a scene file (path or recent file)",
               false},
    KeyBinding{SDLK_s, kModCtrl, Action::Save, "Save",
               "Save the scene (as loaded, with your parameter edits and the view)", false},
    KeyBinding{SDLK_s, kModCtrl | kModShift, Action::SaveAs, "Save as...",
               "Save the scene to another file", false},
    KeyBinding{SDLK_p, kModCtrl, Action::Screenshot, "Save screenshot...",
               "Save the window as a PNG file", false},
    KeyBinding{SDLK_F12, kModNone, Action::DumpState, "Dump state",
               "Write the state file given with --dump-state (for tests)", false},
    KeyBinding{SDLK_F1, kModNone, Action::ToggleHelp, "Help", "Show or hide this window", false},
    KeyBinding{SDLK_q, kModCtrl, Action::Quit, "Quit",
               "Close the sandbox (asks first when the scene has unsaved changes)", false},
};

/// The binding for a key press (SDL keycode and SDL_Keymod bits), if any, given whether
/// construction mode is on.
[[nodiscard]] const KeyBinding* findBinding(SDL_Keycode key, std::uint16_t sdlMods,
                                            bool construction = false);

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
