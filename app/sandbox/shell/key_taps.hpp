#pragma once
// Key taps that ImGui 1.86 would miss. Its SDL backend turns key events into key *state*
// (io.KeysDown), read once per frame: a key pressed and released between two frames — a quick
// tap on a slow frame, `xdotool key Return` — is down in no frame, so no widget sees it (Enter
// in a Parameters field left the field holding the keyboard; Enter in Save as did nothing).
// KeyTaps holds such a release back one frame: the key is down in the frame after the press,
// up in the next. The app's own key bindings act on the press and are not delayed.

#include <algorithm>
#include <utility>
#include <vector>

#include <SDL.h>

namespace orca::app {

class KeyTaps {
  public:
    /// Called once per frame before the frame's events: the releases held back from the last
    /// frame's events, to be processed now (before any new event).
    [[nodiscard]] std::vector<SDL_Event> releasesDue() {
        m_pressed.clear();
        return std::exchange(m_held, {});
    }
    /// Called for each event of the frame, in order: false when it is a release of a key
    /// pressed earlier in this frame's events (held back for the next frame).
    bool passNow(const SDL_Event& e) {
        if (e.type == SDL_KEYDOWN) {
            m_pressed.push_back(e.key.keysym.scancode);
        } else if (e.type == SDL_KEYUP && std::find(m_pressed.begin(), m_pressed.end(),
                                                    e.key.keysym.scancode) != m_pressed.end()) {
            m_held.push_back(e);
            return false;
        }
        return true;
    }

  private:
    std::vector<SDL_Scancode> m_pressed; ///< keys pressed in this frame's events
    std::vector<SDL_Event> m_held;       ///< their releases, for the next frame
};

} // namespace orca::app
