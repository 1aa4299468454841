#pragma once
// Time travel in the sandbox: the recording (orca::History) kept beside the simulator, seeking,
// the transport keys, the timeline bar and the events panel, and the recordings that parameter
// edits at a past step cut, kept with their undo steps so that undo brings them back.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/diagnosis.hpp"
#include "orca/history.hpp"
#include "orca/ui/agent_history.hpp"
#include "orca/ui/events_panel.hpp"
#include "orca/ui/timeline_bar.hpp"
#include "orca/ui/why_panel.hpp"

#include "cache_stamp.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;
enum class Action;

/// A recording as it was before an edit at a past step cut its future, kept so that Ctrl+Z
/// puts it back. One stack (TimelineState::cut, newest last) keyed by the editor's undo
/// position serves both kinds of edit:
/// - a parameter edit (Parameters panel, detour switch, a kept what-if v_pref) is an undo step
///   of its own: kept with the undo count right after it and its undo label;
/// - a run edit (a kept what-if position or velocity at a later step) is not: it is undoable
///   while the editor is still at the undo count it was kept at and the scene was not edited
///   since (`editVersion`).
struct CutRecording {
    enum class Edit { Parameter, Run };
    Edit edit = Edit::Parameter;
    std::size_t undoCount = 0;     ///< EditHistory::undoCount() (see above)
    std::uint64_t editVersion = 0; ///< Run: Document::editVersion when it was kept
    std::string label;             ///< the undo label (Parameter) or the note's (Run)
    History before;                ///< the recording before the edit (keyframes are shared)
    std::uint64_t step = 0;        ///< the step the edit was made at
};

/// "Why?": the diagnosis of the primary agent at the current step (orca::diagnoseAt on the
/// recording), refreshed when the state or the agent changes while the window is open.
struct WhyState {
    bool open = false;
    std::optional<Diagnosis> diagnosis;
    std::string status; ///< why there is none, or that it is stale
    AgentId agent;      ///< diagnosed agent
    CacheStamp stamp;   ///< the state version it was made for
    double ms = 0.0;    ///< what the last one cost
};

/// The primary agent's history for the Inspector's plots: one sample per recorded step,
/// collected while stepping (recording or replaying) and, for steps the live simulator did not
/// pass since the agent was selected, by replaying the recording on a scratch simulator a few
/// milliseconds per frame (only around the current step).
struct AgentTrace {
    AgentId agent;
    std::uint64_t generation = ~std::uint64_t{0}; ///< the recording it was collected from
    std::uint64_t first = 0;                      ///< step of samples[0] (the recording's first)
    std::vector<ui::AgentHistorySample> samples;
    std::size_t collected = 0;
    std::optional<Simulator> scratch; ///< the replay that fills gaps, at scratchStep
    std::uint64_t scratchStep = 0;
};

/// Events of the oldest part of a run, summarised to keep the recording within its budget:
/// the counts per kind of the steps [fromStep, toStep], which are no longer recorded.
struct EventSummary {
    std::uint64_t fromStep = 0;
    std::uint64_t toStep = 0;
    std::size_t events = 0;
    std::map<std::string, std::size_t> byKind; ///< by kind name (orca::toString(EventKind))
    std::size_t restarts = 0; ///< how often the recording restarted (0: nothing summarised)
};

/// Default of TimelineState::memoryBudget (and --history-budget): 256 MiB.
inline constexpr std::size_t kDefaultHistoryBudget = std::size_t(256) << 20;
/// The smallest budget: History keeps at least 1 MiB of keyframes, and the events may take half.
inline constexpr std::size_t kMinHistoryBudget = std::size_t(2) << 20;

struct TimelineState {
    History history;
    /// Bytes everything the recording keeps may hold — keyframes, events and the event
    /// detector (History::bytes()). The keyframes get what the rest leaves (the recording thins
    /// them, History::setMemoryBudget); when the events and the detector alone pass half of it,
    /// their counts go into `summarised` and the recording restarts at the current step.
    std::size_t memoryBudget = kDefaultHistoryBudget;
    /// The run's events that were summarised (empty until the first restart; a new run clears it).
    EventSummary summarised;
    /// Bumped whenever the events change other than by appending (a new recording, an edit
    /// that cut the future, an undo that brought a recording back).
    std::uint64_t generation = 0;
    ui::TimelineBar bar;
    ui::EventsPanel eventsPanel;
    std::vector<std::uint64_t> keyframes; ///< history.keyframeSteps(), refreshed when it changes
    std::size_t keyframesCount = ~std::size_t{0};
    std::uint64_t keyframesGeneration = ~std::uint64_t{0};
    std::uint64_t keyframesLast = ~std::uint64_t{0};
    /// Edits that can put a cut recording back (oldest first, at most 8: each keeps its
    /// recording's keyframes alive). Cleared when a new recording starts (load, restart, a
    /// scene edit: those rebuild the simulation anyway).
    std::vector<CutRecording> cut;
    // The last parameter edit, to tell whether the next one merges into its undo step (a slider
    // drag is one step: its first edit keeps the recording, the others need no copy).
    std::string lastEditKey;
    std::size_t lastEditUndoCount = 0;
    WhyState why;
    AgentTrace trace;
};

/// Starts a new recording at the simulator's current state (load, restart, rebuild); a new run,
/// so nothing is summarised yet.
void startRecording(SandboxContext& ctx);
/// Keeps the recording within TimelineState::memoryBudget (recordStep does it after each
/// recorded step): the keyframes' share is what the events leave; when the events pass half
/// the budget they are summarised and the recording restarts at the current step (paused runs
/// and replays record nothing, so this only happens at the head).
void keepWithinBudget(SandboxContext& ctx);
/// After each Simulator::step() (time/step.cpp): records it when the simulator is at the head
/// (before the head the step replayed the recording and nothing is recorded), and adds the
/// step to the inspector's trace.
void recordStep(SandboxContext& ctx);
/// Goes to recorded step `step` (clamped to the recording), paused; every cache (explain
/// records, overlays, inspector, metrics, trails) follows. Returns the step reached.
std::uint64_t seekTo(SandboxContext& ctx, std::uint64_t step);
/// Seeks to `step`, selects `agents` (indices) and frames them in the view.
void focusAgents(SandboxContext& ctx, std::uint64_t step, const std::vector<std::uint32_t>& agents);
/// focusAgents for one event of the recording.
void focusEvent(SandboxContext& ctx, std::size_t eventIndex);
/// The transport: StepBack, PreviousEvent, NextEvent, RecordingStart, RecordingEnd.
void timelineAction(SandboxContext& ctx, Action action);

/// A parameter edit (Parameters panel, detour switch) in three parts: prepare() before the
/// edit keeps the recording when the edit will start a new undo step; commit() after it was
/// applied and recorded in the editor's history cuts the recorded future (History::edit) and
/// files the kept recording with the new undo step.
struct ParameterEditRecording {
    std::optional<History> before;
    std::size_t undoCountBefore = 0;
    std::string key;
};
[[nodiscard]] ParameterEditRecording prepareParameterEdit(SandboxContext& ctx,
                                                          const std::string& mergeKey);
void commitParameterEdit(SandboxContext& ctx, ParameterEditRecording edit);
/// Records an edit of the simulator at its current step (History::edit: the recorded future is
/// cut); a Compare branch of the old run ends.
void recordRunEdit(SandboxContext& ctx);
/// recordRunEdit for an edit that is no undo step of the editor (a kept what-if position or
/// velocity): the recording before it goes on the cut stack as a run edit named `label`.
void recordRunEditKeepingCut(SandboxContext& ctx, std::string label);
/// Makes `before` the recording again and goes to `step` in it, paused (undo of an edit that
/// cut the future).
void putRecordingBack(SandboxContext& ctx, History before, std::uint64_t step);
/// Ends merging of parameter edits (mouse released, undo, redo).
void sealParameterEdits(SandboxContext& ctx);
/// Ctrl+Z when the newest cut recording belongs to the undo position: a run edit's recording
/// comes back; a parameter edit's undo step is undone (the scene reverts) and its recording
/// comes back. Either goes to the step of the edit, paused. False (nothing done) otherwise:
/// then Ctrl+Z is the editor's ordinary undo.
bool undoCutRecording(SandboxContext& ctx);

/// The timeline bar with its top at `y` (wired to seeking and the transport).
void drawTimelineBar(SandboxContext& ctx, float y);
/// The Events window (when open).
void drawEventsPanel(SandboxContext& ctx);

/// Brings the "Why?" diagnosis up to date (when its window is open). While running, a
/// diagnosis that took long is refreshed only when paused (it re-steps a window of the run).
void refreshWhy(SandboxContext& ctx);
/// The diagnosis when it is of the primary agent at the current step, else nullptr.
[[nodiscard]] const Diagnosis* currentDiagnosis(const SandboxContext& ctx);
/// The "Why?" window and the binding half-planes / responsible agents in the world view
/// (call after the world overlays; sets the velocity panel's binding lines for its draw).
void drawWhyWorld(SandboxContext& ctx, ImDrawList& dl, const ExplainRecord* rec);
void drawWhyWindow(SandboxContext& ctx);
/// The Why? window's fixes part for diagnosis `d`: the chosen fix, and Try fix's verdict when
/// it was of `d`'s agent (time/fix_trial.hpp).
[[nodiscard]] ui::WhyFixView whyFixView(const SandboxContext& ctx, const Diagnosis* d);

/// Brings the primary agent's history up to date (Inspector open) and returns the plots' view
/// (a window of steps around the current one), or nullopt without a primary agent.
[[nodiscard]] std::optional<ui::AgentHistoryView> updateAgentTrace(SandboxContext& ctx);

/// The state dump's "timeline" block.
[[nodiscard]] nlohmann::ordered_json timelineJson(const SandboxContext& ctx);
/// The state dump's "diagnosis" block: the primary agent's diagnosis at the current step
/// (null when no agent is selected).
[[nodiscard]] nlohmann::ordered_json diagnosisJson(const SandboxContext& ctx);

} // namespace orca::app
