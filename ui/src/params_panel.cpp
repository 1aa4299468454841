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

bool dragDouble(const char* label, double& v, double lo, double hi, const char* fmt = "%.3f") {
    return ImGui::DragScalar(label, ImGuiDataType_Double, &v, dragSpeed(v), &lo, &hi, fmt, kClamp);
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
    AgentParams& p = def.params;
    switch (e.field) {
    case AgentField::Radius:
        p.radius = e.number;
        break;
    case AgentField::MaxSpeed:
        p.maxSpeed = e.number;
        break;
    case AgentField::PrefSpeed:
        p.prefSpeed = e.number;
        break;
    case AgentField::NeighborDist:
        p.neighborDist = e.number;
        break;
    case AgentField::MaxNeighbors:
        p.maxNeighbors = static_cast<int>(std::lround(e.number));
        break;
    case AgentField::TimeHorizon:
        p.timeHorizon = e.number;
        break;
    case AgentField::TimeHorizonObst:
        p.timeHorizonObst = e.number;
        break;
    case AgentField::GoalRadius:
        p.goalRadius = e.number;
        break;
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
        }
        break;
    case AgentField::Goal:
        def.hasGoal = true;
        def.goal = e.vec;
        break;
    case AgentField::PrefVelocity:
        def.hasGoal = false;
        def.prefVelocity = e.vec;
        break;
    case AgentField::Count:
        break;
    }
}

bool sameField(const AgentDef& a, const AgentDef& b, AgentField f) {
    const AgentParams& p = a.params;
    const AgentParams& q = b.params;
    switch (f) {
    case AgentField::Radius:
        return p.radius == q.radius;
    case AgentField::MaxSpeed:
        return p.maxSpeed == q.maxSpeed;
    case AgentField::PrefSpeed:
        return p.prefSpeed == q.prefSpeed;
    case AgentField::NeighborDist:
        return p.neighborDist == q.neighborDist;
    case AgentField::MaxNeighbors:
        return p.maxNeighbors == q.maxNeighbors;
    case AgentField::TimeHorizon:
        return p.timeHorizon == q.timeHorizon;
    case AgentField::TimeHorizonObst:
        return p.timeHorizonObst == q.timeHorizonObst;
    case AgentField::GoalRadius:
        return p.goalRadius == q.goalRadius;
    case AgentField::Static:
        return a.isStatic == b.isStatic;
    case AgentField::HasGoal:
        return a.hasGoal == b.hasGoal;
    case AgentField::Goal:
        return a.hasGoal == b.hasGoal && (!a.hasGoal || a.goal == b.goal);
    case AgentField::PrefVelocity:
        return a.hasGoal == b.hasGoal && (a.hasGoal || a.prefVelocity == b.prefVelocity);
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
    ImGui::SetNextWindowSize(
        {340.0f, std::min(480.0f, std::max(io.DisplaySize.y - 330.0f, 200.0f))},
        ImGuiCond_FirstUseEver);
    if (!ImGui::Begin("Parameters", open)) {
        ImGui::End();
        return out;
    }
    ImGui::PushItemWidth(-150.0f);

    ImGui::TextDisabled("Simulation");
    SimulationParams s = in.simulation;
    if (dragDouble("time step (s)", s.timeStep, 0.001, 10.0, "%.4f")) out.simulation = s;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("dt of every step, running or single-stepped");
    if (dragDouble("responsibility", s.responsibility, 0.01, 1.0)) out.simulation = s;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Share of u each agent takes (0.5 = reciprocal, as RVO2)");
    if (dragDouble("static responsibility", s.staticResponsibility, 0.01, 1.0))
        out.simulation = s;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Share of u taken toward static agents, which never reciprocate\n"
                          "(0.5 = RVO2; 1 = avoid them fully)");
    if (dragDouble("LP3 bisector weight", s.lp3BisectorWeight, 0.01, 100.0)) out.simulation = s;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("1 = RVO2's bisector");
    if (ImGui::CollapsingHeader("Detour flow field")) {
        DetourParams& d = s.detour;
        if (ImGui::Checkbox("enabled (D)", &d.enabled)) out.simulation = s;
        auto detourValue = [&](const char* label, double& v, double hi, const char* tip) {
            if (dragDouble(label, v, 0.0, hi)) out.simulation = s;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        };
        detourValue("cell size", d.cellSize, 100.0, "Field cell size; 0 = 0.4 x median static radius");
        detourValue("influence radius", d.influenceRadius, 1000.0,
                    "Cells a static agent writes; 0 = its radius + 2 x median radius");
        detourValue("enter speed ratio", d.enterSpeedRatio, 1.0,
                    "Enter when ORCA's speed < this x preferred speed");
        detourValue("enter goal distance", d.enterGoalDistance, 1000.0,
                    "...and the goal is farther than this; 0 = 4 radii");
        detourValue("sample distance", d.sampleDistance, 100.0,
                    "Sample point this far toward the goal, averaging this radius; 0 = radius");
        detourValue("exit aligned (deg)", d.exitAlignedDegrees, 90.0,
                    "Leave when the detour direction is this close to the goal direction");
        detourValue("exit goal distance", d.exitGoalDistance, 1000.0,
                    "Leave when the goal is closer; 0 = 2 radii");
        if (ImGui::Checkbox("neighbour fallback", &d.neighborFallback)) out.simulation = s;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Estimate a direction from static neighbours when the field is empty");
        detourValue("still speed", d.stillSpeed, 100.0,
                    "Goal-less agents slower than this...");
        detourValue("still seconds", d.stillSeconds, 1000.0,
                    "...for this long feed the field like static agents");
    }
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
        AgentParams p = d.params;
        auto number = [&](AgentField f, const char* label, double& v, double lo, double hi,
                          const char* tip) {
            if (dragDouble(label, v, lo, hi)) out.agent = AgentEdit{f, v, {}, false};
            if (tip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
            mixedMark(in, f);
        };
        number(AgentField::Radius, "radius", p.radius, 0.001, 1e4, "world units, > 0");
        number(AgentField::MaxSpeed, "max speed", p.maxSpeed, 0.0, 1e4, "|v_new| <= max speed");
        number(AgentField::PrefSpeed, "pref speed", p.prefSpeed, 0.0, 1e4, "speed toward the goal");
        number(AgentField::NeighborDist, "neighbour dist", p.neighborDist, 0.0, 1e5,
               "centre distance within which agents are neighbours");
        int maxNeighbors = p.maxNeighbors;
        if (ImGui::DragInt("max neighbours", &maxNeighbors, 0.2f, 0, 10000, "%d", kClamp))
            out.agent =
                AgentEdit{AgentField::MaxNeighbors, static_cast<double>(maxNeighbors), {}, false};
        mixedMark(in, AgentField::MaxNeighbors);
        number(AgentField::TimeHorizon, "time horizon (s)", p.timeHorizon, 0.001, 1e4,
               "tau: collisions with agents are avoided this far ahead");
        number(AgentField::TimeHorizonObst, "obst. horizon (s)", p.timeHorizonObst, 0.001, 1e4,
               "tau_o: the same for obstacles");
        number(AgentField::GoalRadius, "goal radius", p.goalRadius, -1.0, 1e4,
               "at goal within this distance; negative = the agent's radius");
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
