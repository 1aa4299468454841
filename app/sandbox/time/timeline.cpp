#include "time/timeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <span>
#include <utility>

#include "orca/ui/why_panel.hpp"

#include "sandbox.hpp"

namespace orca::app {

namespace {

// What a seek invalidates: everything derived from the simulator's state.
void stateJumped(SandboxContext& ctx) {
    ++ctx.session.stateVersion;
    ctx.explain.recordsStamp.invalidate();
    ctx.explain.hoverRecordStamp.invalidate();
    ctx.session.metricsNow.invalidate();
    ctx.session.metricsHistory.clear(); // its samples are of the other timeline position
    ctx.view.renderer.clearTrails();
    ctx.session.clock.reset();
    ctx.session.pendingSingleSteps = 0;
}

const std::vector<std::uint64_t>& keyframes(SandboxContext& ctx) {
    TimelineState& t = ctx.timeline;
    if (t.keyframesCount != t.history.keyframeCount() || t.keyframesGeneration != t.generation ||
        t.keyframesLast != t.history.lastStep()) {
        t.keyframes = t.history.keyframeSteps();
        t.keyframesCount = t.history.keyframeCount();
        t.keyframesGeneration = t.generation;
        t.keyframesLast = t.history.lastStep();
    }
    return t.keyframes;
}

ui::AgentHistorySample sampleOf(const Simulator& sim, std::size_t i) {
    ui::AgentHistorySample s;
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    if (i >= positions.size()) return s;
    const Vec2 v = sim.velocities()[i];
    s.speed = static_cast<float>(std::hypot(v.x, v.y));
    // Clearance to the nearest agent: one pass (the spatial index is the simulator's own).
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < positions.size(); ++j) {
        if (j == i) continue;
        const Vec2 d = positions[j] - positions[i];
        best = std::min(best, std::hypot(d.x, d.y) - params[i].radius - params[j].radius);
    }
    s.clearance = static_cast<float>(best);
    const auto lp3 = sim.lastStepLp3();
    s.lp3 = i < lp3.size() && lp3[i] != 0;
    s.detour = sim.detourModeAt(i) == DetourMode::Detouring;
    s.valid = true;
    return s;
}

void storeSample(AgentTrace& t, std::uint64_t step, const ui::AgentHistorySample& s) {
    if (step < t.first) return;
    const auto k = static_cast<std::size_t>(step - t.first);
    if (k >= t.samples.size()) t.samples.resize(k + 1);
    if (!t.samples[k].valid) ++t.collected;
    t.samples[k] = s;
}

// Files a cut recording; the oldest goes beyond 8 (each keeps its recording's keyframes alive,
// up to the memory budget each).
void pushCut(TimelineState& t, CutRecording c) {
    constexpr std::size_t kMaxKept = 8;
    t.cut.push_back(std::move(c));
    if (t.cut.size() > kMaxKept) t.cut.erase(t.cut.begin());
}

// The timeline's events and position: the run's, or a recording's (positions are its frames).
std::span<const Event> timelineEvents(const SandboxContext& ctx) {
    if (ctx.playback.active) return ctx.playback.analysis.events();
    return ctx.timeline.history.events();
}

std::uint64_t timelinePosition(const SandboxContext& ctx) {
    return ctx.playback.active ? ctx.playback.frame : ctx.session.sim.stepCount();
}

std::optional<std::uint32_t> filterAgent(const SandboxContext& ctx) {
    return ctx.timeline.eventsPanel.filter.agent(
        ctx.explain.selection.primaryIndex(ctx.session.sim));
}

} // namespace

namespace {

// A new recording at the simulator's state: the previous one's branch, what-if preview and cut
// recordings mean nothing now.
void restartRecording(SandboxContext& ctx) {
    TimelineState& t = ctx.timeline;
    t.history.start(ctx.session.sim);
    stopBranch(ctx); // the branch was of the previous run
    ctx.whatIf = {}; // a preview of the previous run means nothing now
    ++t.generation;
    t.cut.clear();
    t.lastEditKey.clear();
}

} // namespace

void startRecording(SandboxContext& ctx) {
    ctx.timeline.summarised = {};
    restartRecording(ctx);
}

void keepWithinBudget(SandboxContext& ctx) {
    TimelineState& t = ctx.timeline;
    History& h = t.history;
    if (!h.started()) return;
    const std::size_t budget = std::max(t.memoryBudget, kMinHistoryBudget);
    std::size_t rest = h.bytes() - h.keyframeBytes(); // events, the detector
    // (Not a recording that has just started: the events of one state alone are all it has.)
    if (rest > budget / 2 && ctx.session.sim.stepCount() == h.lastStep() &&
        h.lastStep() > h.firstStep()) {
        // The events of the oldest part become counts; the recording starts again here.
        EventSummary& s = t.summarised;
        if (s.restarts == 0) s.fromStep = h.firstStep();
        s.toStep = h.lastStep();
        s.events += h.events().size();
        for (const Event& e : h.events())
            ++s.byKind[std::string(toString(e.kind))];
        ++s.restarts;
        restartRecording(ctx);
        setNote(ctx.windows, "events summarised up to step " + std::to_string(s.toStep) +
                                 " to keep the recording within its budget");
        std::fprintf(stderr,
                     "orca-sandbox: the recording's events passed half its %zu MiB budget: "
                     "steps %llu-%llu summarised (%zu events so far), recording again from step "
                     "%llu\n",
                     budget >> 20, static_cast<unsigned long long>(s.fromStep),
                     static_cast<unsigned long long>(s.toStep), s.events,
                     static_cast<unsigned long long>(s.toStep));
        rest = h.bytes() - h.keyframeBytes();
    }
    const std::size_t forKeyframes = budget - std::min(rest, budget / 2);
    if (h.params().memoryBudget != forKeyframes) h.setMemoryBudget(forKeyframes);
}

void recordStep(SandboxContext& ctx) {
    History& h = ctx.timeline.history;
    const std::uint64_t step = ctx.session.sim.stepCount();
    if (!h.started()) return;
    AgentTrace& trace = ctx.timeline.trace;
    if (!trace.agent.isNull() && trace.generation == ctx.timeline.generation) {
        if (const auto i = ctx.session.sim.indexOf(trace.agent))
            storeSample(trace, step, sampleOf(ctx.session.sim, *i));
    }
    if (step == h.lastStep() + 1) {
        h.record(ctx.session.sim);
        keepWithinBudget(ctx);
    } else if (step > h.lastStep() + 1) {
        // Cannot happen through the app's paths; never leave a gap in the recording.
        startRecording(ctx);
    }
    // step <= lastStep(): the step replayed the recording (bit-exact), nothing to record.
}

std::uint64_t seekTo(SandboxContext& ctx, std::uint64_t step) {
    if (ctx.playback.active) return playbackSeek(ctx, static_cast<std::size_t>(step));
    History& h = ctx.timeline.history;
    ctx.session.running = false;
    if (!h.started()) return ctx.session.sim.stepCount();
    whatIfSettle(ctx); // a preview is kept before leaving its step
    const std::uint64_t reached = h.seek(ctx.session.sim, step);
    stateJumped(ctx);
    followBranch(ctx);
    return reached;
}

void focusAgents(SandboxContext& ctx, std::uint64_t step,
                 const std::vector<std::uint32_t>& agents) {
    seekTo(ctx, step);
    std::vector<std::size_t> indices(agents.begin(), agents.end());
    std::erase_if(indices, [&](std::size_t i) { return i >= ctx.session.sim.agentCount(); });
    if (indices.empty()) return;
    selectAgents(ctx, indices);
    // Frame them: their disks with room around (a few radii) for the neighbours.
    ui::Rect r = ui::Rect::empty();
    double radius = 0.0;
    const auto positions = ctx.session.sim.positions();
    const auto params = ctx.session.sim.agentParams();
    for (const std::size_t i : indices) {
        const double rad = params[i].radius;
        radius = std::max(radius, rad);
        r.include(positions[i] - Vec2(rad));
        r.include(positions[i] + Vec2(rad));
    }
    ctx.view.camera.fit(r.expanded(std::max(2.0, 5.0 * radius)));
    ctx.view.fitRequested = false;
}

void focusEvent(SandboxContext& ctx, std::size_t eventIndex) {
    const std::span<const Event> events = timelineEvents(ctx);
    if (eventIndex >= events.size()) return;
    const Event e = events[eventIndex]; // the seek does not change the events, but copy anyway
    focusAgents(ctx, e.step, e.agents);
}

void timelineAction(SandboxContext& ctx, Action action) {
    History& h = ctx.timeline.history;
    const bool events = action == Action::PreviousEvent || action == Action::NextEvent;
    if (ctx.playback.active && !events) {
        playbackTimelineAction(ctx, action);
        return;
    }
    if (!ctx.playback.active && !h.started()) return;
    const std::uint64_t now = timelinePosition(ctx);
    switch (action) {
    case Action::StepBack:
        if (now > h.firstStep())
            seekTo(ctx, now - 1);
        else
            ctx.session.running = false;
        break;
    case Action::PreviousEvent:
    case Action::NextEvent: {
        const bool forward = action == Action::NextEvent;
        const auto i = ui::adjacentEvent(timelineEvents(ctx), now, forward,
                                         ctx.timeline.eventsPanel.filter.kinds, filterAgent(ctx));
        if (i)
            focusEvent(ctx, *i);
        else
            setNote(ctx.windows, forward ? "No later event in the recording"
                                         : "No earlier event in the recording");
        break;
    }
    case Action::RecordingStart:
        seekTo(ctx, h.firstStep());
        break;
    case Action::RecordingEnd:
        seekTo(ctx, h.lastStep());
        break;
    default:
        break;
    }
}

ParameterEditRecording prepareParameterEdit(SandboxContext& ctx, const std::string& mergeKey) {
    TimelineState& t = ctx.timeline;
    ParameterEditRecording r;
    r.key = mergeKey;
    r.undoCountBefore = ctx.doc.history.undoCount();
    // The edit merges into the previous undo step (same field, nothing else recorded since):
    // that step already keeps the recording from before the first edit of the run.
    const bool merges = !mergeKey.empty() && mergeKey == t.lastEditKey &&
                        r.undoCountBefore == t.lastEditUndoCount && !ctx.doc.history.canRedo();
    if (!merges && t.history.started()) r.before = t.history;
    return r;
}

void recordRunEdit(SandboxContext& ctx) {
    TimelineState& t = ctx.timeline;
    t.history.edit(ctx.session.sim);
    stopBranch(ctx); // the original changed under it
    ++t.generation;
}

void recordRunEditKeepingCut(SandboxContext& ctx, std::string label) {
    TimelineState& t = ctx.timeline;
    CutRecording c;
    c.edit = CutRecording::Edit::Run;
    c.undoCount = ctx.doc.history.undoCount();
    c.editVersion = ctx.doc.editVersion;
    c.label = std::move(label);
    c.before = t.history;
    c.step = ctx.session.sim.stepCount();
    recordRunEdit(ctx); // cuts the recorded future
    pushCut(t, std::move(c));
}

void putRecordingBack(SandboxContext& ctx, History before, std::uint64_t step) {
    TimelineState& t = ctx.timeline;
    ctx.session.running = false;
    t.history = std::move(before);
    ++t.generation;
    t.history.seek(ctx.session.sim, step);
    stateJumped(ctx);
}

void commitParameterEdit(SandboxContext& ctx, ParameterEditRecording edit) {
    TimelineState& t = ctx.timeline;
    if (!t.history.started()) return;
    const std::uint64_t step = ctx.session.sim.stepCount();
    const bool cuts = step < t.history.lastStep();
    recordRunEdit(ctx);
    const scene::EditHistory& eh = ctx.doc.history;
    const std::size_t count = eh.undoCount();
    if (count > edit.undoCountBefore) {
        // A new undo step: it keeps the recording from before the edit.
        if (edit.before) {
            CutRecording c;
            c.edit = CutRecording::Edit::Parameter;
            c.undoCount = count;
            c.label = eh.undoLabel();
            c.before = std::move(*edit.before);
            c.step = step;
            pushCut(t, std::move(c));
        }
    } else if (count == edit.undoCountBefore) {
        // Merged into the previous step (whose entry, if any, stays), or nothing was recorded;
        // or the full history dropped its oldest step for this one: then the counts no longer
        // name our entries, so keep none rather than a wrong one.
        if (count >= scene::EditHistory::Limits{}.maxEdits)
            std::erase_if(t.cut, [](const CutRecording& c) {
                return c.edit == CutRecording::Edit::Parameter;
            });
    } else {
        // The merged step came back to where it started and went away.
        while (!t.cut.empty() && t.cut.back().undoCount > count)
            t.cut.pop_back();
    }
    t.lastEditKey = edit.key;
    t.lastEditUndoCount = count;
    if (cuts)
        setNote(ctx.windows, "Edited at step " + std::to_string(step) +
                                 ": the recorded future was cut (undo brings it back)");
}

void sealParameterEdits(SandboxContext& ctx) {
    ctx.timeline.lastEditKey.clear();
}

bool undoCutRecording(SandboxContext& ctx) {
    TimelineState& t = ctx.timeline;
    scene::EditHistory& eh = ctx.doc.history;
    if (!t.cut.empty() && t.cut.back().edit == CutRecording::Edit::Run) {
        // A run edit: only while no scene edit came after it (else Ctrl+Z is that edit's, and
        // the run edits' recordings are of a run that no longer exists).
        CutRecording& c = t.cut.back();
        if (c.undoCount == eh.undoCount() && c.editVersion == ctx.doc.editVersion) {
            const std::string label = c.label;
            putRecordingBack(ctx, std::move(c.before), c.step);
            t.cut.pop_back();
            setNote(ctx.windows, "Undo: " + label + " (the recording is back)");
            return true;
        }
        std::erase_if(t.cut,
                      [](const CutRecording& r) { return r.edit == CutRecording::Edit::Run; });
    }
    sealParameterEdits(ctx);
    // Entries for steps that are no longer on the undo stack go.
    while (!t.cut.empty() && t.cut.back().undoCount > eh.undoCount())
        t.cut.pop_back();
    if (t.cut.empty() || t.cut.back().undoCount != eh.undoCount() ||
        t.cut.back().label != eh.undoLabel())
        return false;
    CutRecording c = std::move(t.cut.back());
    t.cut.pop_back();
    const std::string label = eh.undoLabel();
    try {
        if (!eh.undo(ctx.doc.scene)) return false;
    } catch (const std::exception& e) {
        ctx.windows.messages.push("Undo failed", e.what());
        eh.clear();
        return true;
    }
    putRecordingBack(ctx, std::move(c.before), c.step);
    ctx.explain.selection.prune(ctx.session.sim);
    ctx.windows.paramsError.clear();
    ctx.doc.unsaved.update(ctx.doc.scene);
    ++ctx.doc.editVersion;
    setNote(ctx.windows,
            "Undo: " + label + " (the recording is back; at step " + std::to_string(c.step) + ")");
    return true;
}

void drawTimelineBar(SandboxContext& ctx, float y) {
    TimelineState& t = ctx.timeline;
    const History& h = t.history;
    ui::TimelineInput in;
    in.first = h.firstStep();
    in.last = std::max(h.lastStep(), in.first);
    in.current = ctx.session.sim.stepCount();
    in.timeStep = ctx.session.sim.params().timeStep;
    in.running = ctx.session.running;
    in.events = h.events();
    in.generation = t.generation;
    in.keyframes = keyframes(ctx);
    in.keyframeInterval = h.keyframeInterval();
    in.bytes = h.bytes();
    in.budget = std::max(t.memoryBudget, kMinHistoryBudget);
    if (const EventSummary& s = t.summarised; s.restarts > 0) {
        in.earlierNote = "+" + std::to_string(s.events) + " earlier, summarised";
        in.earlierTip = "Steps " + std::to_string(s.fromStep) + "-" + std::to_string(s.toStep) +
                        " are no longer recorded: their events passed half of the recording's " +
                        std::to_string(in.budget >> 20) +
                        " MiB budget, so they were counted and the recording started again at "
                        "step " +
                        std::to_string(s.toStep) + ".\n" + std::to_string(s.events) + " events:";
        for (const auto& [kind, n] : s.byKind)
            in.earlierTip += "\n  " + kind + ": " + std::to_string(n);
    }
    static constexpr Action kActions[] = {
        Action::RecordingStart, Action::PreviousEvent, Action::StepBack,    Action::TogglePause,
        Action::Step,           Action::NextEvent,     Action::RecordingEnd};
    for (std::size_t i = 0; i < std::size(kActions); ++i)
        in.shortcuts[i + 1] = shortcutLabel(kActions[i]);
    fillPlaybackTimeline(ctx, in); // a recording: its frames instead
    const ui::TimelineOutput out = t.bar.draw(in, y);
    if (out.focus) {
        focusAgents(ctx, out.focus->step, out.focus->agents);
    } else if (out.seek) {
        seekTo(ctx, *out.seek);
    }
    switch (out.command) {
    case ui::TimelineCommand::None:
        break;
    case ui::TimelineCommand::Start:
        applyAction(ctx, Action::RecordingStart);
        break;
    case ui::TimelineCommand::PreviousEvent:
        applyAction(ctx, Action::PreviousEvent);
        break;
    case ui::TimelineCommand::StepBack:
        applyAction(ctx, Action::StepBack);
        break;
    case ui::TimelineCommand::TogglePlay:
        applyAction(ctx, Action::TogglePause);
        break;
    case ui::TimelineCommand::StepForward:
        applyAction(ctx, Action::Step);
        break;
    case ui::TimelineCommand::NextEvent:
        applyAction(ctx, Action::NextEvent);
        break;
    case ui::TimelineCommand::End:
        applyAction(ctx, Action::RecordingEnd);
        break;
    }
}

void drawEventsPanel(SandboxContext& ctx) {
    if (!ctx.windows.panels.events) return;
    TimelineState& t = ctx.timeline;
    ui::EventsPanelInput in;
    in.events = timelineEvents(ctx);
    in.generation = t.generation;
    in.current = timelinePosition(ctx);
    if (ctx.playback.active) in.recordedSteps = ctx.playback.steps;
    in.selectedAgent = ctx.explain.selection.primaryIndex(ctx.session.sim);
    in.agentCount = ctx.session.sim.agentCount();
    in.timeStep = ctx.session.sim.params().timeStep;
    const ui::EventsPanelOutput out = t.eventsPanel.draw(in, &ctx.windows.panels.events);
    if (out.focus) focusEvent(ctx, *out.focus);
}

void refreshWhy(SandboxContext& ctx) {
    WhyState& w = ctx.timeline.why;
    if (!w.open) return;
    if (ctx.playback.active) {
        // The diagnosis re-runs the simulation around the step; a recording's states come
        // from another program, so there is none to re-run.
        w.diagnosis.reset();
        w.status = "No diagnosis in a recording: Why? re-simulates the steps around this one, "
                   "and a recording's states come from its program. Simulation > Continue "
                   "live makes this frame a scene to diagnose.";
        w.agent = {};
        return;
    }
    const AgentId primary = ctx.explain.selection.primary();
    const auto index = ctx.explain.selection.primaryIndex(ctx.session.sim);
    if (primary.isNull() || !index) {
        w.diagnosis.reset();
        w.status = "Select an agent, then ask why (Y).";
        w.agent = {};
        return;
    }
    if (w.agent == primary && !w.stamp.stale(ctx.session.stateVersion)) return;
    if (ctx.session.running && w.agent == primary && w.ms > 8.0) {
        w.status = "(from step " + std::to_string(w.diagnosis ? w.diagnosis->step : 0) +
                   "; refreshed when paused)";
        return;
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
        w.diagnosis = diagnoseAt(ctx.timeline.history, ctx.session.sim.stepCount(), *index);
        w.status.clear();
    } catch (const std::exception& e) {
        w.diagnosis.reset();
        w.status = std::string("No diagnosis: ") + e.what();
    }
    w.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    w.agent = primary;
    w.stamp.refresh(ctx.session.stateVersion);
}

const Diagnosis* currentDiagnosis(const SandboxContext& ctx) {
    const WhyState& w = ctx.timeline.why;
    if (!w.open || !w.diagnosis) return nullptr;
    const auto index = ctx.explain.selection.primaryIndex(ctx.session.sim);
    if (!index || w.diagnosis->agent != *index || w.diagnosis->step != ctx.session.sim.stepCount())
        return nullptr;
    return &*w.diagnosis;
}

void drawWhyWorld(SandboxContext& ctx, ImDrawList& dl, const ExplainRecord* rec) {
    ctx.explain.velocityPanel.bindingLines.clear();
    const Diagnosis* d = currentDiagnosis(ctx);
    if (!d || !rec) return;
    for (const BindingConstraint& b : d->binding)
        ctx.explain.velocityPanel.bindingLines.push_back(b.lineIndex);
    std::vector<ui::WhyAgentRing> rings;
    const auto positions = ctx.session.sim.positions();
    const auto params = ctx.session.sim.agentParams();
    for (const std::uint32_t a : d->responsibleAgents)
        if (a < positions.size()) rings.push_back({positions[a], params[a].radius, a});
    if (ctx.view.layers.overlay.inWorld)
        ui::drawWhyInWorld(dl, ctx.view.camera, *rec, ctx.explain.velocityPanel.bindingLines, rings,
                           ctx.view.overlayStyle);
}

ui::WhyFixView whyFixView(const SandboxContext& ctx, const Diagnosis* d) {
    ui::WhyFixView v;
    const FixTrialState& t = ctx.compare.trial;
    v.chosen = t.chosen;
    if (!d || d->fixes.empty()) return v;
    v.chosen = std::min(t.chosen, d->fixes.size() - 1);
    if (t.agent != d->agent || t.label.empty()) return v;
    v.running = t.pending.valid();
    const std::string head =
        "Fix " + std::to_string(t.fixIndex + 1) + " from step " + std::to_string(t.step) + ". ";
    if (!t.error.empty()) {
        v.verdict = head + t.error;
    } else if (t.verification) {
        v.verdict = head + fixVerdictLine(*t.verification, t.timeStep);
        v.improved = t.verification->improved;
    }
    if (!v.verdict.empty() && !v.improved && t.fixIndex + 1 < d->fixes.size())
        v.next = t.fixIndex + 1;
    return v;
}

void drawWhyWindow(SandboxContext& ctx) {
    WhyState& w = ctx.timeline.why;
    if (!w.open) return;
    const Diagnosis* d = w.diagnosis ? &*w.diagnosis : nullptr;
    pollFixTrial(ctx);
    const ui::WhyFixView fixes = whyFixView(ctx, d);
    const ui::WhyWindowOutput out = ui::drawWhyWindow(d, w.status, &w.open, &fixes);
    if (out.selectAgent) selectAgents(ctx, {*out.selectAgent});
    if (out.choose) ctx.compare.trial.chosen = *out.choose;
    if (out.tryFix) tryDiagnosisFix(ctx, *out.tryFix);
    if (out.applyFix) applyDiagnosisFix(ctx, *out.applyFix);
}

nlohmann::ordered_json diagnosisJson(const SandboxContext& ctx) {
    using json = nlohmann::ordered_json;
    const auto index = ctx.explain.selection.primaryIndex(ctx.session.sim);
    if (!index || !ctx.timeline.history.started() || ctx.playback.active) return nullptr;
    Diagnosis d;
    if (const Diagnosis* c = currentDiagnosis(ctx)) {
        d = *c;
    } else {
        try {
            d = diagnoseAt(ctx.timeline.history, ctx.session.sim.stepCount(), *index);
        } catch (const std::exception& e) {
            return {{"error", e.what()}};
        }
    }
    json binding = json::array();
    for (const BindingConstraint& b : d.binding)
        binding.push_back(b.lineIndex);
    json fixes = json::array();
    for (const DiagnosisFix& f : d.fixes)
        fixes.push_back(f.label);
    const FixTrialState& t = ctx.compare.trial;
    json trial = nullptr;
    if (!t.label.empty())
        trial = {{"fix", t.fixIndex},
                 {"label", t.label},
                 {"agent", t.agent},
                 {"step", t.step},
                 {"running", t.pending.valid()},
                 {"error", t.error},
                 {"verification", t.verification ? scene::toJson(*t.verification) : json()}};
    return {{"agent", d.agent},
            {"step", d.step},
            {"class", std::string(toString(d.cls))},
            {"sentence", d.sentence},
            {"suggestion", d.suggestion},
            {"binding", std::move(binding)},
            {"responsibleAgents", d.responsibleAgents},
            {"fixes", std::move(fixes)},
            {"trial", std::move(trial)},
            {"windowOpen", ctx.timeline.why.open}};
}

std::optional<ui::AgentHistoryView> updateAgentTrace(SandboxContext& ctx) {
    AgentTrace& t = ctx.timeline.trace;
    const History& h = ctx.timeline.history;
    const AgentId primary = ctx.explain.selection.primary();
    const auto index = ctx.explain.selection.primaryIndex(ctx.session.sim);
    // (A recording's plots would need every frame's state decided again: not drawn.)
    if (primary.isNull() || !index || !h.started() || ctx.playback.active) {
        t.agent = {};
        return std::nullopt;
    }
    if (t.agent != primary || t.generation != ctx.timeline.generation || t.first != h.firstStep()) {
        t = AgentTrace{};
        t.agent = primary;
        t.generation = ctx.timeline.generation;
        t.first = h.firstStep();
    }
    const std::uint64_t now = ctx.session.sim.stepCount();
    t.samples.resize(static_cast<std::size_t>(h.lastStep() - t.first + 1));
    if (!t.samples[static_cast<std::size_t>(now - t.first)].valid)
        storeSample(t, now, sampleOf(ctx.session.sim, *index));
    // The plotted window: up to 400 steps before the current one and 100 after.
    constexpr std::uint64_t kBefore = 400;
    constexpr std::uint64_t kAfter = 100;
    const std::uint64_t lo = now > t.first + kBefore ? now - kBefore : t.first;
    const std::uint64_t hi = std::min(h.lastStep(), now + kAfter);
    // Fill gaps by replaying the recording on the scratch simulator, a few ms per frame.
    const auto t0 = std::chrono::steady_clock::now();
    // Screenshots fill the whole window at once (reproducible pictures).
    const double kBudgetMs = ctx.interactive ? 4.0 : 1e9;
    auto spent = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
            .count();
    };
    std::uint64_t gap = lo;
    while (gap <= hi && t.samples[static_cast<std::size_t>(gap - t.first)].valid)
        ++gap;
    while (gap <= hi && spent() < kBudgetMs) {
        if (!t.scratch || t.scratchStep + 1 != gap) {
            if (!t.scratch) {
                t.scratch.emplace();
                t.scratch->setThreadCount(ctx.session.threads);
            }
            t.scratchStep = h.seek(*t.scratch, gap);
        } else {
            t.scratch->step();
            ++t.scratchStep;
        }
        storeSample(t, t.scratchStep, sampleOf(*t.scratch, *index));
        while (gap <= hi && t.samples[static_cast<std::size_t>(gap - t.first)].valid)
            ++gap;
    }
    ui::AgentHistoryView v;
    v.first = lo;
    v.samples = std::span<const ui::AgentHistorySample>(t.samples).subspan(
        static_cast<std::size_t>(lo - t.first), static_cast<std::size_t>(hi - lo + 1));
    v.current = now;
    v.maxSpeed = static_cast<float>(ctx.session.sim.agentParams()[*index].maxSpeed);
    v.collected = t.collected;
    return v;
}

nlohmann::ordered_json timelineJson(const SandboxContext& ctx) {
    using json = nlohmann::ordered_json;
    const TimelineState& t = ctx.timeline;
    const History& h = t.history;
    json j = json::object();
    const PlaybackState& p = ctx.playback;
    // A recording's positions are its frames (the "recording" block has their steps).
    j["first"] = p.active ? 0 : h.firstStep();
    j["last"] = p.active ? p.steps.size() - 1 : h.lastStep();
    j["current"] = timelinePosition(ctx);
    j["keyframes"] = p.active ? 0 : h.keyframeCount();
    j["keyframeInterval"] = h.keyframeInterval();
    j["bytes"] = p.active ? p.fileBytes : h.bytes();
    j["budget"] = std::max(t.memoryBudget, kMinHistoryBudget);
    j["keyframeBytes"] = p.active ? 0 : h.keyframeBytes();
    j["events"] = timelineEvents(ctx).size();
    // Events of the oldest part of the run, summarised to stay within the budget (null: none).
    const EventSummary& s = t.summarised;
    if (p.active || s.restarts == 0) {
        j["summarised"] = nullptr;
    } else {
        json byKind = json::object();
        for (const auto& [kind, n] : s.byKind)
            byKind[kind] = n;
        j["summarised"] = {{"fromStep", s.fromStep},
                           {"toStep", s.toStep},
                           {"events", s.events},
                           {"byKind", std::move(byKind)},
                           {"restarts", s.restarts}};
    }
    j["generation"] = t.generation;
    j["cutRecordings"] = t.cut.size();
    // The markers of the last frame, where they are on the screen (for end-to-end tests).
    json markers = json::array();
    const auto& ms = t.bar.markers();
    for (std::size_t i = 0; i < ms.size() && i < 200; ++i) {
        const ui::TimelineMarker& m = ms[i];
        const Vec2 c = t.bar.markerCenter(i);
        const ui::MarkerFocus f = ui::markerFocus(timelineEvents(ctx), m);
        markers.push_back({{"lane", ui::laneName(m.lane)},
                           {"kind", std::string(ui::eventKindName(m.dominantKind()))},
                           {"step", m.firstStep},
                           {"lastStep", m.lastStep},
                           {"count", m.count},
                           {"screen", json::array({c.x, c.y})},
                           {"agents", f.agents}});
    }
    j["markers"] = std::move(markers);
    return j;
}

} // namespace orca::app
