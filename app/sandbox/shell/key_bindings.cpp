#include "shell/key_bindings.hpp"

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

bool live(KeyScope scope, KeyContext c) {
    switch (scope) {
    case KeyScope::Always:
        return true;
    case KeyScope::Construction:
        return c.construction && !c.editing;
    case KeyScope::Solve:
        return c.solve && !c.construction && !c.editing;
    case KeyScope::Viewing:
        return !c.construction && !c.solve && !c.editing;
    case KeyScope::Editing:
        return c.editing;
    }
    return false;
}

std::string helpLabel(const KeyBinding& b) {
    // Construction-only actions say so in their description; a key that means something else
    // in another mode says in which mode it means this.
    switch (b.scope) {
    case KeyScope::Viewing:
        return label(b) + " (inspect tool, not in construction or solve mode)";
    case KeyScope::Editing:
        return label(b) + " (edit tools)";
    default:
        return label(b);
    }
}

std::string escapeMarkdown(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c == '|' || c == '*' || c == '_') out += '\\';
        out += c;
    }
    return out;
}

} // namespace

const KeyBinding* findBinding(SDL_Keycode key, std::uint16_t sdlMods, KeyContext context) {
    const std::uint8_t mods = normalizeMods(sdlMods);
    for (const KeyBinding& b : kKeyBindings)
        if (b.key == key && b.mods == mods && live(b.scope, context)) return &b;
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
                rows[i].input += " / " + helpLabel(b);
                found = true;
            }
        }
        if (found) continue;
        seen.push_back(b.action);
        rows.push_back({helpLabel(b), b.name, b.description});
    }
    return rows;
}

std::vector<ui::HelpRow> mouseHelpRows() {
    return {
        {"Left click", "Select", "Select the agent under the cursor (empty space: deselect)"},
        {"Shift + left click", "Add / remove", "Add the agent to the selection, or remove it"},
        {"Hover", "Tooltip",
         "An agent: its id, position, speed, neighbours and state; a half-plane: what built it"},
        {"Right / middle drag", "Pan", "Move the view"},
        {"Wheel", "Zoom", "Zoom about the cursor"},
        {"Drop a .json or .orcarec file", "Open",
         "Open a scene or a recording dropped on the window"},
        {"Select tool: click / drag", "Select, move",
         "Click an agent, goal, obstacle or vertex to select it; drag it (and the rest of the "
         "selection) to move; Shift+click adds or removes"},
        {"Select tool: drag on empty space", "Box select",
         "Select the agents and whole obstacles inside the box (Shift: add to the selection)"},
        {"Select tool: double-click an edge", "Insert vertex",
         "Add a vertex to the obstacle where you clicked (then drag it)"},
        {"Add agent tool: click / drag", "Add agent",
         "Place an agent with the new-agent defaults; dragging also sets its goal"},
        {"Goal tool: drag from an agent", "Set goal",
         "Release where the goal goes (every selected agent keeps its offset); Alt+drag: a "
         "constant preferred velocity (the arrow as drawn)"},
        {"Goal tool: Shift+click", "Add waypoint",
         "Append a waypoint to the selected agent's route, just before its goal (drag before "
         "releasing to place it)"},
        {"Goal tool: click a route's leg", "Insert waypoint",
         "Insert a waypoint there, between the two stops the leg joins (drag to place it)"},
        {"Goal tool: drag a waypoint", "Move waypoint",
         "Move a waypoint of a selected agent (a click selects it: Delete removes it)"},
        {"Goal tool: right-click a waypoint", "Delete waypoint",
         "Remove the waypoint from the agent's route"},
        {"Obstacle tool: click", "Add vertex",
         "Add a vertex; click the first vertex to close (Enter: close, Backspace: remove the last, "
         "Esc: drop)"},
    };
}

std::string helpMarkdown() {
    std::string md = "| Key | Action | What it does |\n| --- | --- | --- |\n";
    for (const ui::HelpRow& r : keyHelpRows())
        md += "| " + escapeMarkdown(r.input) + " | " + escapeMarkdown(r.action) + " | " +
              escapeMarkdown(r.description) + " |\n";
    md += "\n| Mouse | Action | What it does |\n| --- | --- | --- |\n";
    for (const ui::HelpRow& r : mouseHelpRows())
        md += "| " + escapeMarkdown(r.input) + " | " + escapeMarkdown(r.action) + " | " +
              escapeMarkdown(r.description) + " |\n";
    return md;
}

} // namespace orca::app
