#include "key_bindings.hpp"

#include <SDL_keyboard.h>

namespace orca::app {

namespace {

std::uint8_t normalizeMods(std::uint16_t sdlMods) {
    std::uint8_t m = kModNone;
    if (sdlMods & KMOD_CTRL) m |= kModCtrl;
    if (sdlMods & KMOD_SHIFT) m |= kModShift;
    if (sdlMods & KMOD_ALT) m |= kModAlt;
    return m;
}

std::string label(const KeyBinding& b) {
    std::string s;
    if (b.mods & kModCtrl) s += "Ctrl+";
    if (b.mods & kModShift) s += "Shift+";
    if (b.mods & kModAlt) s += "Alt+";
    s += SDL_GetKeyName(b.key);
    return s;
}

} // namespace

const KeyBinding* findBinding(SDL_Keycode key, std::uint16_t sdlMods) {
    const std::uint8_t mods = normalizeMods(sdlMods);
    for (const KeyBinding& b : kKeyBindings)
        if (b.key == key && b.mods == mods) return &b;
    return nullptr;
}

std::string shortcutLabel(Action action) {
    for (const KeyBinding& b : kKeyBindings)
        if (b.action == action) return label(b);
    return {};
}

std::vector<ui::HelpRow> keyHelpRows() {
    std::vector<ui::HelpRow> rows;
    std::vector<Action> seen;
    for (const KeyBinding& b : kKeyBindings) {
        bool found = false;
        for (std::size_t i = 0; i < seen.size(); ++i) {
            if (seen[i] == b.action) {
                rows[i].input += " / " + label(b);
                found = true;
            }
        }
        if (found) continue;
        seen.push_back(b.action);
        rows.push_back({label(b), b.name, b.description});
    }
    return rows;
}

std::vector<ui::HelpRow> mouseHelpRows() {
    return {
        {"Right / middle drag", "Pan", "Move the view"},
        {"Wheel", "Zoom", "Zoom about the cursor"},
        {"Drop a .json file", "Open", "Open a scene file dropped on the window"},
    };
}

} // namespace orca::app
