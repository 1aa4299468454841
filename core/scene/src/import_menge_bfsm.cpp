// Menge behaviour files (BFSM): goal sets, states and transitions, read into the plain
// structures of import_menge_support.hpp (docs/import.md, "Menge").
#include <algorithm>
#include <cmath>
#include <string>

#include "import_menge_support.hpp"

namespace orca::scene::detail {

namespace {

int intAttribute(const XmlInput& in, const pugi::xml_node& n, const char* name,
                 std::optional<int> fallback) {
    const double v =
        attributeNumber(in, n, name, fallback ? std::optional<double>(*fallback) : std::nullopt);
    if (v != std::floor(v)) failAt(in, n, "expected a whole number", name);
    return static_cast<int>(v);
}

void note(ImportResult& r, const XmlInput& in, const pugi::xml_node& n) {
    r.notes.push_back("unknown element <" + std::string(localName(n)) + "> at " +
                      positionText(in, n) + " (" + elementPath(n) + ") ignored");
}

MengeGoal readGoal(const XmlInput& in, const pugi::xml_node& g, ImportResult& r, bool& ok) {
    MengeGoal goal;
    goal.kind = g.attribute("type").value();
    goal.weight = attributeNumber(in, g, "weight", 1.0, Bound::NonNegative);
    ok = true;
    if (goal.kind == "point") {
        goal.point = {attributeNumber(in, g, "x", std::nullopt),
                      attributeNumber(in, g, "y", std::nullopt)};
    } else if (goal.kind == "circle") {
        goal.point = {attributeNumber(in, g, "x", std::nullopt),
                      attributeNumber(in, g, "y", std::nullopt)};
        goal.inradius = attributeNumber(in, g, "radius", std::nullopt, Bound::NonNegative);
    } else if (goal.kind == "AABB") {
        const double x0 = attributeNumber(in, g, "min_x", std::nullopt);
        const double y0 = attributeNumber(in, g, "min_y", std::nullopt);
        const double x1 = attributeNumber(in, g, "max_x", std::nullopt);
        const double y1 = attributeNumber(in, g, "max_y", std::nullopt);
        goal.point = {(x0 + x1) / 2.0, (y0 + y1) / 2.0};
        goal.inradius = std::max(0.0, std::min(x1 - x0, y1 - y0) / 2.0);
    } else if (goal.kind == "OBB") {
        // (x, y) is a corner; width along the box's x axis, height along its y axis, the
        // box turned counter-clockwise by angle degrees about that corner.
        const Vec2 corner{attributeNumber(in, g, "x", std::nullopt),
                          attributeNumber(in, g, "y", std::nullopt)};
        const double w = attributeNumber(in, g, "width", std::nullopt, Bound::NonNegative);
        const double h = attributeNumber(in, g, "height", std::nullopt, Bound::NonNegative);
        const double angle = attributeNumber(in, g, "angle", 0.0);
        goal.point = corner + rotateDegrees(Vec2{w / 2.0, h / 2.0}, angle);
        goal.inradius = std::min(w, h) / 2.0;
    } else {
        r.dropped.push_back({elementPath(g) + " (type \"" + goal.kind + "\")",
                             "goal type not imported (only point, circle, AABB and OBB goals "
                             "have a point to walk to)"});
        ok = false;
    }
    return goal;
}

/// A `shared` goal selector uses the selector of the state it names (Menge's bookkeeping
/// stub): each is replaced by that state's selector, following chains of shared ones. One left
/// "shared" (a missing state, a cycle) is dropped for its agents by the scene part.
void resolveSharedSelectors(MengeBehaviour& b, ImportResult& r) {
    bool any = false;
    for (auto& [name, s] : b.states) {
        if (s.selector != "shared") continue;
        const MengeState* target = &s;
        for (std::size_t hops = 0; target && target->selector == "shared"; ++hops) {
            const auto it = b.states.find(target->sharedState);
            target = hops <= b.states.size() && it != b.states.end() ? &it->second : nullptr;
        }
        if (!target) continue;
        s.selector = target->selector;
        s.goalSet = target->goalSet;
        s.goal = target->goal;
        s.mirrorX = target->mirrorX;
        s.mirrorY = target->mirrorY;
        any = true;
    }
    if (any)
        r.notes.push_back("shared goal selectors use the selector of the state they name (each "
                          "agent's own draw; goal capacities are not mapped)");
}

} // namespace

MengeBehaviour readMengeBehaviour(const XmlInput& in, ImportResult& r) {
    MengeBehaviour b;
    const pugi::xml_node root = in.doc.document_element();
    if (localName(root) != "BFSM")
        failAt(in, root, "expected the root element <BFSM> (a Menge behaviour file)");
    bool regions = false;
    for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
        if (n.type() != pugi::node_element) continue;
        const std::string_view name = localName(n);
        if (name == "GoalSet") {
            const int id = intAttribute(in, n, "id", std::nullopt);
            auto& set = b.goalSets[id];
            for (pugi::xml_node g = n.first_child(); g; g = g.next_sibling()) {
                if (g.type() != pugi::node_element) continue;
                if (localName(g) != "Goal") {
                    note(r, in, g);
                    continue;
                }
                bool ok = false;
                MengeGoal goal = readGoal(in, g, r, ok);
                if (!ok) continue;
                if (goal.kind != "point") regions = true;
                set[intAttribute(in, g, "id", std::nullopt)] = goal;
            }
        } else if (name == "State") {
            MengeState s;
            s.name = n.attribute("name").value();
            s.what = "State \"" + s.name + "\"";
            if (s.name.empty()) failAt(in, n, "a state needs a name", "name");
            s.final = attributeNumber(in, n, "final", 0.0) != 0.0;
            for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
                if (c.type() != pugi::node_element) continue;
                const std::string_view cn = localName(c);
                if (cn == "GoalSelector") {
                    s.selector = c.attribute("type").value();
                    if (c.attribute("goal_set"))
                        s.goalSet = intAttribute(in, c, "goal_set", std::nullopt);
                    if (c.attribute("goal")) s.goal = intAttribute(in, c, "goal", std::nullopt);
                    s.mirrorX = attributeNumber(in, c, "mirror_x", 0.0) != 0.0;
                    s.mirrorY = attributeNumber(in, c, "mirror_y", 0.0) != 0.0;
                    if (s.selector == "shared") s.sharedState = c.attribute("state_name").value();
                } else if (cn == "VelComponent") {
                    s.velocity = c.attribute("type").value();
                    if (s.velocity == "const_dir") {
                        s.direction = {attributeNumber(in, c, "x", 1.0),
                                       attributeNumber(in, c, "y", 0.0)};
                    }
                } else if (cn == "Action" || cn == "VelModifier") {
                    r.dropped.push_back({elementPath(c) + " (type \"" +
                                             std::string(c.attribute("type").value()) + "\")",
                                         std::string(cn == "Action" ? "actions"
                                                                    : "velocity "
                                                                      "modifiers") +
                                             " change agents while the simulation runs; a "
                                             "scene has no state machine"});
                } else {
                    note(r, in, c);
                }
            }
            if (b.states.count(s.name))
                failAt(in, n, "a second state named \"" + s.name + "\"", "name");
            b.states[s.name] = s;
        } else if (name == "Transition") {
            const std::string from = n.attribute("from").value();
            if (from.empty()) failAt(in, n, "a transition needs from=\"STATE\"", "from");
            MengeTransition t;
            t.to = n.attribute("to").value();
            t.what = elementPath(n);
            const pugi::xml_node cond = child(n, "Condition");
            t.condition = cond ? cond.attribute("type").value() : "";
            if (t.condition == "goal_reached")
                t.distance = attributeNumber(in, cond, "distance", 0.0, Bound::NonNegative);
            if (t.to.empty()) t.condition += " (several target states)";
            // from may list several states, separated by commas.
            std::size_t start = 0;
            while (start <= from.size()) {
                std::size_t comma = from.find(',', start);
                if (comma == std::string::npos) comma = from.size();
                std::string one = collapseSpace(from.substr(start, comma - start));
                if (!one.empty()) b.transitions[one].push_back(t);
                start = comma + 1;
            }
        } else if (name == "EventSystem") {
            r.dropped.push_back({elementPath(n), "events change the simulation while it runs; "
                                                 "a scene has no events"});
        } else if (name == "Tasks" || name == "Task") {
            r.dropped.push_back({elementPath(n), "tasks run code while the simulation runs"});
        } else if (name == "VelModifier") {
            r.dropped.push_back({elementPath(n), "velocity modifiers change preferred "
                                                 "velocities while running"});
        } else {
            note(r, in, n);
        }
    }
    if (regions)
        r.notes.push_back("goal regions imported as one point each: a circle's centre, an "
                          "AABB's centre, an OBB's centre");
    resolveSharedSelectors(b, r);
    return b;
}

} // namespace orca::scene::detail
