#pragma once
// The one table of key bindings: it drives dispatch, the menus' shortcut labels and the Help
// window, so they cannot drift apart.

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
    FitView,
    ZoomIn,
    ZoomOut,
    ToggleHelp,
    Quit,
};

enum KeyMod : std::uint8_t {
    kModNone = 0,
    kModCtrl = 1 << 0,
    kModShift = 1 << 1,
    kModAlt = 1 << 2,
};

struct KeyBinding {
    SDL_Keycode key;
    std::uint8_t mods; ///< KeyMod bits; must match exactly (left/right keys alike)
    Action action;
    const char* name;        ///< short, also the menu label
    const char* description; ///< for the Help window
    bool repeats;            ///< act on auto-repeat while held
};

inline constexpr std::array kKeyBindings{
    KeyBinding{SDLK_p, kModNone, Action::TogglePause, "Play / pause", "Run or pause the simulation",
               false},
    KeyBinding{SDLK_SPACE, kModNone, Action::TogglePause, "Play / pause",
               "Run or pause the simulation", false},
    KeyBinding{SDLK_o, kModNone, Action::Step, "Single step",
               "Pause and advance exactly one time step (the same dt as running); hold to repeat",
               true},
    KeyBinding{SDLK_RIGHT, kModNone, Action::Step, "Single step",
               "Pause and advance exactly one time step (the same dt as running); hold to repeat",
               true},
    KeyBinding{SDLK_r, kModNone, Action::Restart, "Restart",
               "Rebuild the simulation from the loaded scene (paused)", false},
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
    KeyBinding{SDLK_F1, kModNone, Action::ToggleHelp, "Help", "Show or hide this window", false},
    KeyBinding{SDLK_q, kModCtrl, Action::Quit, "Quit", "Close the sandbox", false},
};

/// The binding for a key press (SDL keycode and SDL_Keymod bits), if any.
[[nodiscard]] const KeyBinding* findBinding(SDL_Keycode key, std::uint16_t sdlMods);

/// "Ctrl+Q"-style label of the first binding of `action` (empty when unbound).
[[nodiscard]] std::string shortcutLabel(Action action);

/// One Help row per action, listing all of its keys ("P / Space").
[[nodiscard]] std::vector<ui::HelpRow> keyHelpRows();
/// Mouse and drag-and-drop inputs for the Help window.
[[nodiscard]] std::vector<ui::HelpRow> mouseHelpRows();

} // namespace orca::app
