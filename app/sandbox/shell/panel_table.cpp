// The panel table (panel_table.hpp) and the panels drawn here: parameters, inspector, metrics.

#include "shell/panel_table.hpp"

#include <algorithm>
#include <thread>

#include "orca/ui/inspector.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/metrics_panel.hpp"
#include "orca/ui/params_panel.hpp"

#include "sandbox.hpp"

namespace orca::app {

namespace {

ui::ParamsPanelInput paramsInput(const SandboxContext& ctx) {
    const Simulator& sim = ctx.session.sim;
    const Selection& selection = ctx.explain.selection;
    ui::ParamsPanelInput in;
    in.simulation = sim.params();
    in.threads = ctx.session.threads;
    in.maxThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    in.error = ctx.windows.paramsError;
    const auto primary = selection.primaryIndex(sim);
    if (!primary) return in;
    in.primaryIndex = *primary;
    if (*primary < ctx.doc.agentNames.size())
        in.primaryName = ui::shownLine(ctx.doc.agentNames[*primary]);
    in.primary = sim.agent(selection.primary());
    for (const AgentId id : selection.ids()) {
        if (!sim.contains(id)) continue;
        ++in.selectedCount;
        if (id == selection.primary()) continue;
        const AgentDef d = sim.agent(id);
        for (unsigned f = 0; f < static_cast<unsigned>(ui::AgentField::Count); ++f)
            if (!ui::sameField(in.primary, d, static_cast<ui::AgentField>(f)))
                in.mixedMask |= 1u << f;
    }
    return in;
}

void drawParametersPanel(SandboxContext& ctx) {
    const ui::ParamsPanelOutput out =
        ui::drawParamsPanel(paramsInput(ctx), &ctx.windows.panels.parameters);
    if (out.threads) {
        ctx.session.threads = *out.threads;
        ctx.session.sim.setThreadCount(ctx.session.threads);
    }
    if (out.simulation) editSimulation(ctx, *out.simulation);
    if (out.agent) editAgents(ctx, *out.agent);
}

void drawInspectorPanel(SandboxContext& ctx) {
    const std::optional<ui::AgentHistoryView> history = updateAgentTrace(ctx);
    if (const auto step = ui::drawInspector(
            ctx.session.sim, ctx.explain.records, ctx.explain.selection.primary(),
            ctx.doc.agentNames, &ctx.windows.panels.inspector, history ? &*history : nullptr))
        seekTo(ctx, *step);
}

void drawMetricsPanel(SandboxContext& ctx) {
    Session& session = ctx.session;
    const ui::MetricsSample& now = session.metricsNow.get(session.stateVersion, [&] {
        const Simulator& sim = session.sim;
        ui::MetricsSample s;
        const ClearanceStats c = sim.clearance();
        s.step = sim.stepCount();
        s.hasClearance = true;
        s.minClearance = c.minAgentClearance;
        s.overlappingPairs = c.overlappingPairs;
        s.goalAgents = sim.goalAgentCount();
        s.agentsAtGoal = sim.atGoalCount();
        s.lp3Agents = sim.lastStepStats().lp3Agents;
        return s;
    });
    ui::drawMetricsPanel(now, session.metricsHistory, &ctx.windows.panels.metrics);
}

template <bool PanelVisibility::*Member> bool& shown(SandboxContext& ctx) {
    return ctx.windows.panels.*Member;
}

bool& whyOpen(SandboxContext& ctx) {
    return ctx.timeline.why.open;
}

using P = PanelVisibility;

// One row per panel, in drawing order (which places new windows; also the View menu order).
const PanelInfo kPanelTable[] = {
    // name, alias, View menu label, toggle action, default open, settings member, visibility,
    // by name (--panels, lessons), in the dump, draw
    {"parameters", nullptr, "Parameters", Action::ToggleParameters, false, &P::parameters,
     shown<&P::parameters>, true, true, drawParametersPanel},
    {"inspector", nullptr, "Inspector", Action::ToggleInspector, false, &P::inspector,
     shown<&P::inspector>, true, true, drawInspectorPanel},
    {"metrics", nullptr, "Metrics", Action::ToggleMetrics, false, &P::metrics, shown<&P::metrics>,
     true, true, drawMetricsPanel},
    {"events", nullptr, "Events", Action::ToggleEvents, false, &P::events, shown<&P::events>, true,
     true, drawEventsPanel},
    {"why", nullptr, nullptr, Action::ToggleWhy, false, nullptr, whyOpen, true, false,
     drawWhyWindow},
    {"compare", nullptr, "Compare", Action::ToggleCompare, false, &P::compare, shown<&P::compare>,
     true, true, drawCompareWindow},
    {"timeline", nullptr, "Timeline bar", std::nullopt, true, &P::timeline, shown<&P::timeline>,
     false, true, nullptr},
    {"agentDefaults", "defaults", "New-agent defaults", Action::ToggleAgentDefaults, false,
     &P::agentDefaults, shown<&P::agentDefaults>, true, false, drawAgentDefaultsPanel},
    {"generators", nullptr, "Generators", Action::ToggleGenerators, false, &P::generators,
     shown<&P::generators>, true, false, drawGeneratorsPanel},
    {"linter", nullptr, "Linter", Action::ToggleLinter, false, &P::linter, shown<&P::linter>, true,
     false, drawLinterPanel},
};

} // namespace

PanelVisibility::PanelVisibility() {
    for (const PanelInfo& p : kPanelTable)
        if (p.setting) this->*p.setting = p.defaultOpen;
}

std::span<const PanelInfo> panelTable() {
    return kPanelTable;
}

const PanelInfo* findPanel(std::string_view name) {
    for (const PanelInfo& p : kPanelTable)
        if (p.byName && (name == p.name || (p.alias && name == p.alias))) return &p;
    return nullptr;
}

const PanelInfo* panelForAction(Action action) {
    for (const PanelInfo& p : kPanelTable)
        if (p.toggle == action) return &p;
    return nullptr;
}

std::string panelNameList() {
    std::string list;
    for (const PanelInfo& p : kPanelTable)
        if (p.byName) list += std::string(list.empty() ? "" : ", ") + p.name;
    return list;
}

void drawPanels(SandboxContext& ctx) {
    for (const PanelInfo& p : kPanelTable)
        if (p.draw && p.open(ctx)) p.draw(ctx);
}

} // namespace orca::app
