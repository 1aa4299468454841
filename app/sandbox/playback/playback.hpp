#pragma once
// Recordings in the sandbox (docs/sandbox.md, "Recordings"): a .orcarec file written by a
// program (RVO2's C++ face, the Python face, `orca run --recording`), or a trajectory CSV
// against the open scene, opens like a scene and the timeline plays its frames: position k is
// frame k, shown with its recorded step. The simulator holds the decision state of the frame
// as the conformance check has it (recording_analysis.hpp: the recorded state, the preferred
// velocities of the next recorded step), so the explain view, the overlays, the velocity panel
// and Solve show the decision made from the frame on screen — `orca conform`'s "orca" velocity
// — with the velocity the recording holds for that step beside it. A background pass checks
// every step and files the deviations as events.
//
// The states come from the file, never from simulating: stepping past the last frame refuses
// ("end of recording"). Editing, or Simulation > Continue live, turns the frame on screen into
// an ordinary unsaved scene (Save asks for a .json file; the .orcarec is never written).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/recording.hpp"

#include "playback/recording_analysis.hpp"
#include "playback/recording_frames.hpp"

struct ImDrawList;

namespace orca::ui {
struct TimelineInput;
} // namespace orca::ui

namespace orca::app {

struct SandboxContext;
enum class Action;

struct PlaybackState {
    bool active = false;
    std::filesystem::path file;
    std::shared_ptr<const scene::Recording> recording;
    std::uint64_t fileBytes = 0;
    std::vector<std::uint64_t> steps;       ///< recorded step of each frame
    std::size_t frame = 0;                  ///< the frame on screen (the timeline's position)
    std::size_t simScene = ~std::size_t{0}; ///< the configuration the simulator was built for
    /// The background pass: events, the conformance check, the shadow's snapshots.
    RecordingAnalysis analysis;
    DecisionState decision; ///< the decision state of the frame on screen
    /// A trajectory CSV played against a scene (its only configuration), and that scene's file.
    bool trajectory = false;
    std::filesystem::path sceneFile;
    bool atEndNoted = false; ///< "end of recording" was said for this arrival at the end
};

/// Opens a recording: the first frame is shown, paused, with the view fitted; a file cut short
/// opens what was read with a message. False (with the loader's message: file, byte, what was
/// expected) when the file is broken; then the current scene is kept.
bool openRecordingFile(SandboxContext& ctx, const std::filesystem::path& file, std::string& error);
/// Opens a trajectory CSV (scene::loadTrajectoryCsv: `orca run --trajectory`, `orca recording
/// --csv`, a program's own) against the open scene — the document's, or the configuration of the
/// trajectory or recording being played — and plays it as a recording whose only configuration
/// is that scene. False (with a message naming both files) when the CSV is broken or does not
/// fit the scene (its agent count); then nothing changes.
bool openTrajectoryFile(SandboxContext& ctx, const std::filesystem::path& csv, std::string& error);
/// Whether `file` is opened as a recording: its signature, or the .orcarec extension (so that a
/// broken one gets the recording loader's message). Regular files only.
[[nodiscard]] bool isRecordingFile(const std::filesystem::path& file);

/// Plays `steps` frames forward (a single step or the clock's steps while playing); at the
/// last frame playback stops and says "end of recording".
void playbackStep(SandboxContext& ctx, int steps);
/// Goes to frame `frame` (clamped), paused. Returns the frame reached.
std::size_t playbackSeek(SandboxContext& ctx, std::size_t frame);
/// The transport (step back, previous / next event, start, end) on the recording.
void playbackTimelineAction(SandboxContext& ctx, Action action);

/// Turns the frame on screen into an ordinary unsaved scene (no file: Save asks for one) and
/// simulates from it; the view, selection and a what-if preview stay. `why` goes into the note.
/// False when no recording is open.
bool leavePlayback(SandboxContext& ctx, std::string_view why);

/// The timeline bar's input while a recording is open (positions are frames).
void fillPlaybackTimeline(const SandboxContext& ctx, ui::TimelineInput& in);
/// Per frame: finds more of the recording's events (a few milliseconds; all at once in
/// screenshot mode) and gives the velocity panel the recorded velocity of the primary agent.
void playbackFrame(SandboxContext& ctx);
/// The recorded velocity of the decision on screen in the world view (a cross at the tip).
void drawPlaybackWorld(SandboxContext& ctx, ImDrawList& dl);
/// The status bar's mode text ("recording: frame 3 of 51", "end of recording"); "" without one.
[[nodiscard]] std::string playbackStatus(const SandboxContext& ctx, bool& warning);
/// "run.orcarec (recording, step 12)" for the window title.
[[nodiscard]] std::string playbackTitle(const SandboxContext& ctx);

/// The recorded velocity the decision from the frame on screen produced for agent `index`, and
/// that step's number; nullopt when no recorded step follows.
struct RecordedDecision {
    std::size_t frame = 0;
    std::uint64_t step = 0;
    Vec2 velocity{0.0, 0.0};
};
[[nodiscard]] std::optional<RecordedDecision> recordedDecision(const SandboxContext& ctx,
                                                               std::size_t index);

/// The conformance check's line for the status bar and the recording's info: "checking
/// conformance: frame 120 of 900", "conforms: 0 deviations, max |dv| 3e-08 (tolerance 1e-09)",
/// "12 deviations, first at step 57 agent #13 (tolerance 1e-09)"; `deviates` when any.
[[nodiscard]] std::string conformanceSummary(const PlaybackState& p, bool& deviates);

/// The state dump's "recording" block (null without a recording).
[[nodiscard]] nlohmann::ordered_json recordingJson(const SandboxContext& ctx);

} // namespace orca::app
