#pragma once
// What the window's SDL events ask of the sandbox: a close (the unsaved-changes prompt first),
// a dropped file (opened, or a message saying what can be dropped), a key (the dialogs' own
// keys, then the key table's action unless an ImGui text field or dialog keeps the keyboard).
// Signals are not events here: shell/end_signals.hpp.

#include <SDL.h>

namespace orca::app {

struct SandboxContext;

/// Acts on one event of the window `windowId` (after ImGui's backend has seen it).
void handleEvent(SandboxContext& ctx, const SDL_Event& e, Uint32 windowId);

} // namespace orca::app
