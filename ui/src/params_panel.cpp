#include "orca/ui/params_panel.hpp"
#include "orca/ui/window_placement.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

namespace orca::ui {

namespace {

constexpr ImGuiSliderFlags kClamp = ImGuiSliderFlags_AlwaysClamp;

float dragSpeed(double v) {
    return static_cast<float>(std::max(std::abs(v) * 0.005, 0.001));
}

/// A table row's drag (or checkbox) with its tooltip; true when the user changed `v`.
bool paramControl(const ParamRow& row, double& v) {
    const ParamWidget w = paramWidget(row, v);
    bool changed = false;
    if (row.kind == ParamKind::Boolean) {
        bool b = v != 0.0;
        changed = ImGui::Checkbox(w.label.c_str(), &b);
        if (changed) v = b ? 1.0 : 0.0;
    } else if (row.kind == ParamKind::Integer) {
        int i = static_cast<int>(v);
        changed = ImGui::DragInt(w.label.c_str(), &i, w.speed, static_cast<int>(w.min),
                                 static_cast<int>(w.max), w.format.c_str(), kClamp);
        if (changed) v = static_cast<double>(i);
    } else {
        changed = ImGui::DragScalar(w.label.c_str(), ImGuiDataType_Double, &v, w.speed, &w.min,
                                    &w.max, w.format.c_str(), kClamp);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", w.tooltip.c_str());
    return changed;
}

/// The Simulation or Detour rows of the table as controls editing `s`.
void simulationControls(ParamScope scope, SimulationParams& s, ParamsPanelOutput& out) {
    for (const ParamRow& row : parameterTable(scope)) {
        double v = row.getSimulation(s);
        if (!paramControl(row, v)) continue;
        row.setSimulation(s, v);
        out.simulation = s;
    }
}

/// The Agent row named like `field`, or null (static, goal, ... are not parameters).
const ParamRow* agentRow(AgentField field) {
    for (const ParamRow& row : parameterTable(ParamScope::Agent)) {
        if (row.name == fieldName(field)) return &row;
    }
    return nullptr;
}

bool dragVec(const char* label, Vec2& v, double lo, double hi) {
    double xy[2] = {v.x, v.y};
    const float speed = dragSpeed(std::max(std::abs(v.x), std::abs(v.y)) + 1.0);
    if (!ImGui::DragScalarN(label, ImGuiDataType_Double, xy, 2, speed, &lo, &hi, "%.3f", kClamp))
        return false;
    v = {xy[0], xy[1]};
    return true;
}

void mixedMark(const ParamsPanelInput& in, AgentField f) {
    if ((in.mixedMask & (1u << static_cast<unsigned>(f))) == 0) return;
    ImGui::SameLine();
    ImGui::TextDisabled("(mixed)");
}

} // namespace

ParamWidget paramWidget(const ParamRow& row, double value) {
    ParamWidget w;
    w.label = std::string(row.ui.label);
    w.min = row.ui.min;
    w.max = row.ui.max;
    w.speed = row.ui.speed > 0.0 ? static_cast<float>(row.ui.speed) : dragSpeed(value);
    w.format = row.kind == ParamKind::Integer ? "%d" : "%." + std::to_string(row.ui.decimals) + "f";
    // A negative goal or waypoint radius stands for a multiple of the agent's radius: say
    // which rather than show the stand-in as a length ("-1.000").
    if (value < 0.0 && row.scope == ParamScope::Agent) {
        if (row.name == "goalRadius") w.format = "auto: radius (%.3g)";
        if (row.name == "waypointRadius") w.format = "auto: 2 x radius (%.3g)";
    }
    w.tooltip = std::string(row.doc) + '\n';
    if (row.kind == ParamKind::Boolean) {
        w.tooltip += std::string("default: ") + (row.defaultValue != 0.0 ? "on" : "off");
        return w;
    }
    if (!row.unit.empty()) w.tooltip += "unit: " + std::string(row.unit) + "; ";
    w.tooltip += "valid: " + formatRange(row.range) + "; default: " + formatValue(row.defaultValue);
    return w;
}

AgentField agentFieldOf(const ParamRow& row) {
    if (row.scope != ParamScope::Agent) return AgentField::Count;
    for (unsigned f = 0; f < static_cast<unsigned>(AgentField::Count); ++f) {
        if (row.name == fieldName(static_cast<AgentField>(f))) return static_cast<AgentField>(f);
    }
    return AgentField::Count;
}

const char* fieldName(AgentField f) {
    switch (f) {
    case AgentField::Radius:
        return "radius";
    case AgentField::MaxSpeed:
        return "maxSpeed";
    case AgentField::PrefSpeed:
        return "prefSpeed";
    case AgentField::NeighborDist:
        return "neighborDist";
    case AgentField::MaxNeighbors:
        return "maxNeighbors";
    case AgentField::TimeHorizon:
        return "timeHorizon";
    case AgentField::TimeHorizonObst:
        return "timeHorizonObst";
    case AgentField::GoalRadius:
        return "goalRadius";
    case AgentField::WaypointRadius:
        return "waypointRadius";
    case AgentField::AvoidanceWeight:
        return "avoidanceWeight";
    case AgentField::Static:
        return "static";
    case AgentField::HasGoal:
        return "hasGoal";
    case AgentField::Goal:
        return "goal";
    case AgentField::PrefVelocity:
        return "prefVelocity";
    case AgentField::Count:
        break;
    }
    return "?";
}

void applyAgentEdit(AgentDef& def, const AgentEdit& e, Vec2 currentPrefVelocity) {
    if (const ParamRow* row = agentRow(e.field)) {
        row->setAgent(def.params, e.number); // an integer is rounded
        return;
    }
    switch (e.field) {
    case AgentField::Static:
        def.isStatic = e.flag;
        break;
    case AgentField::HasGoal:
        if (e.flag && !def.hasGoal) {
            def.hasGoal = true;
            def.goal = def.position;
        } else if (!e.flag && def.hasGoal) {
            def.hasGoal = false;
            def.prefVelocity = currentPrefVelocity;
            def.waypoints.clear(); // a route needs a goal
            def.routeProgress = 0;
        }
        break;
    case AgentField::Goal:
        def.hasGoal = true;
        def.goal = e.vec;
        break;
    case AgentField::PrefVelocity:
        def.hasGoal = false;
        def.prefVelocity = e.vec;
        def.waypoints.clear();
        def.routeProgress = 0;
        break;
    case AgentField::Radius: // the table's rows, handled above
    case AgentField::MaxSpeed:
    case AgentField::PrefSpeed:
    case AgentField::NeighborDist:
    case AgentField::MaxNeighbors:
    case AgentField::TimeHorizon:
    case AgentField::TimeHorizonObst:
    case AgentField::GoalRadius:
    case AgentField::WaypointRadius:
    case AgentField::AvoidanceWeight:
    case AgentField::Count:
        break;
    }
}

bool sameField(const AgentDef& a, const AgentDef& b, AgentField f) {
    if (const ParamRow* row = agentRow(f))
        return row->getAgent(a.params) == row->getAgent(b.params);
    switch (f) {
    case AgentField::Static:
        return a.isStatic == b.isStatic;
    case AgentField::HasGoal:
        return a.hasGoal == b.hasGoal;
    case AgentField::Goal:
        return a.hasGoal == b.hasGoal && (!a.hasGoal || a.goal == b.goal);
    case AgentField::PrefVelocity:
        return a.hasGoal == b.hasGoal && (a.hasGoal || a.prefVelocity == b.prefVelocity);
    case AgentField::Radius: // the table's rows, handled above
    case AgentField::MaxSpeed:
    case AgentField::PrefSpeed:
    case AgentField::NeighborDist:
    case AgentField::MaxNeighbors:
    case AgentField::TimeHorizon:
    case AgentField::TimeHorizonObst:
    case AgentField::GoalRadius:
    case AgentField::WaypointRadius:
    case AgentField::AvoidanceWeight:
    case AgentField::Count:
        break;
    }
    return true;
}

ParamsPanelOutput drawParamsPanel(const ParamsPanelInput& in, bool* open) {
    ParamsPanelOutput out;
    const ImGuiIO& io = ImGui::GetIO();
    // Default place: top left (the metrics panel goes under it).
    placeNewWindow("Parameters",
                   {340.0f, std::min(480.0f, std::max(io.DisplaySize.y - 330.0f, 200.0f))},
                   {10.0f, 30.0f});
    if (!ImGui::Begin("Parameters", open)) {
        ImGui::End();
        return out;
    }
    ImGui::PushItemWidth(-150.0f);

    ImGui::TextDisabled("Simulation");
    SimulationParams s = in.simulation;
    simulationControls(ParamScope::Simulation, s, out);
    if (ImGui::CollapsingHeader("Detour flow field"))
        simulationControls(ParamScope::Detour, s, out);
    int threads = in.threads;
    if (ImGui::SliderInt("threads", &threads, 1, std::max(in.maxThreads, 1)))
        out.threads = std::clamp(threads, 1, std::max(in.maxThreads, 1));

    ImGui::Separator();
    if (in.selectedCount == 0) {
        ImGui::TextDisabled("Agents: click one in the world view");
        ImGui::TextDisabled("(Shift+click adds more)");
    } else {
        if (in.selectedCount == 1)
            ImGui::Text("Agent #%zu%s%s", in.primaryIndex, in.primaryName.empty() ? "" : "  ",
                        in.primaryName.c_str());
        else
            ImGui::Text("%zu agents (shown: #%zu); edits set all", in.selectedCount,
                        in.primaryIndex);
        const AgentDef& d = in.primary;
        for (const ParamRow& row : parameterTable(ParamScope::Agent)) {
            const AgentField f = agentFieldOf(row);
            double v = row.getAgent(d.params);
            if (paramControl(row, v)) out.agent = AgentEdit{f, v, {}, false};
            mixedMark(in, f);
        }
        bool isStatic = d.isStatic;
        if (ImGui::Checkbox("static", &isStatic))
            out.agent = AgentEdit{AgentField::Static, 0.0, {}, isStatic};
        mixedMark(in, AgentField::Static);

        int mode = d.hasGoal ? 0 : 1;
        bool modeChanged = ImGui::RadioButton("goal", &mode, 0);
        ImGui::SameLine();
        modeChanged |= ImGui::RadioButton("constant v_pref", &mode, 1);
        mixedMark(in, AgentField::HasGoal);
        if (modeChanged) out.agent = AgentEdit{AgentField::HasGoal, 0.0, {}, mode == 0};
        if (d.hasGoal) {
            Vec2 g = d.goal;
            if (dragVec("goal (x, y)", g, -1e7, 1e7))
                out.agent = AgentEdit{AgentField::Goal, 0.0, g, true};
            mixedMark(in, AgentField::Goal);
        } else {
            Vec2 v = d.prefVelocity;
            if (dragVec("v_pref (x, y)", v, -1e4, 1e4))
                out.agent = AgentEdit{AgentField::PrefVelocity, 0.0, v, false};
            mixedMark(in, AgentField::PrefVelocity);
        }
    }
    if (!in.error.empty()) {
        ImGui::Separator();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "Rejected: %s", in.error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::TextDisabled("Edits go into the scene: Restart and Save keep them.");
    ImGui::PopItemWidth();
    ImGui::End();
    return out;
}

} // namespace orca::ui
