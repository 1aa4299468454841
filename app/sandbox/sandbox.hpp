#pragma once
// The sandbox's state (one context struct) and the per-frame logic that does not depend on the
// window system: loading, saving, stepping, selection, edits, the ImGui frame, key actions and
// deferred requests.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/metrics_panel.hpp"
#include "orca/ui/panels.hpp"
#include "orca/ui/params_panel.hpp"
#include "orca/ui/solve_view.hpp"
#include "orca/ui/world_renderer.hpp"

#include "authoring/editor.hpp"
#include "document/document.hpp"
#include "document/recovery.hpp"
#include "document/scene_edit.hpp"
#include "explain/explain_view.hpp"
#include "explain/selection.hpp"
#include "files/file_dialog_state.hpp"
#include "layers.hpp"
#include "lessons/lessons.hpp"
#include "paths.hpp"
#include "pictures/pictures.hpp"
#include "playback/playback.hpp"
#include "routes/routes.hpp"
#include "session.hpp"
#include "shell/key_bindings.hpp"
#include "shell/settings.hpp"
#include "shell/windows.hpp"
#include "sim_clock.hpp"
#include "time/compare.hpp"
#include "time/timeline.hpp"
#include "time/what_if.hpp"
#include "view_state.hpp"

namespace orca::app {

/// Requests from UI code, applied after the frame by applyRequests() (and the main loop).
struct Requests {
    std::optional<std::filesystem::path> load;
    std::optional<std::filesystem::path> trajectory; ///< a CSV to play against the open scene
    bool newScene = false;
    bool restart = false;
    bool quit = false;
    bool dump = false;
    std::optional<std::filesystem::path> screenshot; ///< captured after the next frame
    bool titleChanged = true; ///< the window title should show a new scene name
};

/// The sandbox's state: its parts (document, session, explain view, view, windows) and what
/// belongs to one feature (editor, timeline, compare, what-if, pictures). Functions take the
/// narrowest part they need where that is simple (e.g. setNote(Windows&)).
struct SandboxContext {
    AppPaths paths;
    bool interactive = true; ///< false in --screenshot mode (no dialogs, fixed panel layout)
    Settings settings;       ///< layers/panels are copied in and out of it at start and exit

    Document doc;        ///< the scene, its file, undo history, autosave (document.hpp)
    Session session;     ///< the simulation, its clock, stateVersion (session.hpp)
    ExplainView explain; ///< selection, explain records, hover, construction, solve
    ViewState view;      ///< camera, fit, layers, renderer, labels, pointer (view_state.hpp)
    Windows windows;     ///< panels, Help, messages, dialogs, note (shell/windows.hpp)
    Requests requests;

    // The file dialogs: the browser, its steps, the desktop's dialog (files/).
    FileDialogState files;

    // Teaching: the open lesson, its window and task (lessons/lessons.hpp).
    LessonState lesson;

    // Scene authoring: tools, selection of obstacles, clipboard, generators, lint (editor.hpp).
    EditorState editor;
    // Time travel: the recording of the run, the timeline bar, the events panel (timeline.hpp).
    TimelineState timeline;
    // Compare: a branch with changed parameters beside the run (compare.hpp).
    CompareState compare;
    // Live what-if: a dragged velocity, v_pref or position previewed in the simulator.
    WhatIfState whatIf;
    PicturesState pictures; ///< SVG export and recording requests, recording state (REC)
    // Routes: the drawn routes (selected agents, Routes layer), the goal tool's waypoint.
    RoutesState routes;
    // Recordings (.orcarec): the recording on screen, its frame and events (playback.hpp).
    PlaybackState playback;

    // State dump (--dump-state).
    std::filesystem::path dumpFile;
    std::uint64_t dumpCount = 0;
};

/// Loads a scene file (or a recording: playback/playback.hpp) and makes it current (paused,
/// selection cleared, view refitted or taken from the file's "view" block). On failure the current
/// scene is kept and `error` holds the loader's message. Warnings go to stderr and `messages`.
/// The scene is the file as written (no winding repair): a clockwise obstacle is left out of
/// the simulation (EditorState::skippedObstacles) and reported by the linter.
bool loadSceneFile(SandboxContext& ctx, const std::filesystem::path& file, std::string& error);
/// Makes a scene object current as loadSceneFile does; `file` may be empty (then Save asks for
/// one). Lessons use it for their inline scenes. False (with `error`) when the simulator
/// rejects the scene; then nothing changes.
bool loadSceneObject(SandboxContext& ctx, scene::Scene scene, const std::filesystem::path& file,
                     std::string& error);
/// An empty scene whose agent defaults pass the linter (RVO2's defaults with neighborDist
/// raised to maxSpeed x timeHorizon).
[[nodiscard]] scene::Scene newScene();
/// Replaces the current scene with an empty one (newScene()).
void setEmptyScene(SandboxContext& ctx);
/// Makes `scene` the document as new, unsaved work (no file: Save proposes `suggestedFile`)
/// and rebuilds the simulation from it, paused, keeping the view and the selection (by index):
/// how a recording's frame becomes an ordinary scene (playback/playback.hpp). False (with
/// `error`, nothing changed) when the simulator rejects the scene.
bool adoptUnsavedScene(SandboxContext& ctx, scene::Scene scene,
                       const std::filesystem::path& suggestedFile, std::string& error);
/// Rebuilds the simulator from the current scene (with edits), paused; the selection is
/// mapped by agent index. With a recording open: back to its first frame.
void restartScene(SandboxContext& ctx);
/// After the scene changed in place (undo, redo): rebuilds the simulation from it (paused; the
/// selection kept by index), marks the scene unsaved when it differs from the saved one.
void sceneEdited(SandboxContext& ctx);
/// Makes `after` the scene, as sceneEdited() does, unless the simulator rejects it (an invalid
/// agent parameter): then returns false with `error` and nothing changes. Obstacles the
/// simulator rejects are left out of the simulation and listed (EditorState::skippedObstacles).
bool replaceScene(SandboxContext& ctx, scene::Scene after, std::string& error);
/// Writes the current scene (as loaded plus edits, not the running state) with a "view" block
/// (camera, layers, selection) atomically to `file`, which becomes the scene's file. A scene
/// without a name gets sceneNameFromFile(file), kept in the scene and written. Messages the
/// user on failure.
bool saveSceneAs(SandboxContext& ctx, const std::filesystem::path& file);
/// Where Save proposes to write: the scene's file; for a bundled scene (isBundledFile) a copy
/// of the same name in the user's save folder; for a new scene newSceneFile.
[[nodiscard]] std::filesystem::path saveTarget(const SandboxContext& ctx);
/// A scene name from a file name: the stem, underscores as spaces, trimmed, first letter in
/// capitals ("my_crowd.json" -> "My crowd"); "Untitled" when nothing is left.
[[nodiscard]] std::string sceneNameFromFile(const std::filesystem::path& file);
/// Runs `steps` steps now (time/step.cpp): a pending what-if preview is kept first, then each
/// step is timed, recorded (timeline, Compare's branch) and followed by trails and metrics.
void stepSimulation(SandboxContext& ctx, int steps);
/// Runs the steps owed this frame: the clock's while running, plus requested single steps.
void advanceSimulation(SandboxContext& ctx, double frameSeconds);
/// What follows the state on screen after a step or a played frame (time/step.cpp): trails,
/// and the metrics' sample `s` with its step and, while the metrics panel is open, the
/// clearances.
void sampleShownState(SandboxContext& ctx, ui::MetricsSample s);

/// Applies an edit from the parameters panel to the simulator and the scene (see
/// scene_edit.hpp), marks the scene unsaved and refreshes the records.
bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit);
/// The same edit of the agents `ids` instead of the selection.
bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit, std::span<const AgentId> ids);
bool editSimulation(SandboxContext& ctx, const SimulationParams& params);
/// Selects agents by index (command line --select); false when one is out of range.
bool selectByIndex(ExplainView& explain, const Simulator& sim,
                   const std::vector<std::size_t>& indices, std::string& error);

/// Asks to open `file` / to quit / to start an empty scene: directly, or after the
/// unsaved-changes prompt.
void requestLoad(SandboxContext& ctx, const std::filesystem::path& file);
void requestQuit(SandboxContext& ctx);
void requestNewScene(SandboxContext& ctx);
/// Carries out a request once the unsaved changes were saved or discarded.
void proceedGuarded(SandboxContext& ctx, const GuardedRequest& r);
/// The unsaved-changes prompt's answers. Save without a file opens Save As first.
enum class PromptAnswer { Save, Discard, Cancel };
void answerUnsaved(SandboxContext& ctx, PromptAnswer answer);

/// Builds the ImGui frame: menus, world view, panels, status bar, windows. Between NewFrame
/// and Render.
void buildFrame(SandboxContext& ctx);
/// The mode key presses are dispatched in.
[[nodiscard]] KeyContext keyContext(const SandboxContext& ctx);
/// Performs a bound action (from a key or a menu).
void applyAction(SandboxContext& ctx, Action action);
/// Applies load/restart/dump requests made during the frame. Returns false when quitting.
bool applyRequests(SandboxContext& ctx);

/// Autosaves the scene to the recovery file when it is due (`nowSeconds`: any monotonic clock).
void autosaveTick(SandboxContext& ctx, double nowSeconds);
/// The recovery prompt's answers: restore the autosaved scene (unsaved, with its file name), or
/// delete the recovery file.
void answerRecovery(SandboxContext& ctx, bool restore);
/// "Not now" on the recovery found at start: it stays as it is for a later start, and this
/// session autosaves to a recovery file of its own (claimFreshRecoveryFile), so its edits are
/// kept too. Without a free slot, nothing is autosaved over the old one, as before.
void putOffRecovery(SandboxContext& ctx);
/// A clean exit (nothing unsaved, or the user discarded it): the recovery file goes.
void forgetRecovery(SandboxContext& ctx);
/// The system or the terminal asked the app to end (`signal`: SIGTERM, SIGINT or SIGHUP;
/// shell/end_signals.hpp): quits without a prompt, the unsaved scene written to the recovery
/// file first (offered on the next start) unless the recovery found at start is still
/// unanswered (its dialog open), which is kept. Says on stderr what was kept. False when unsaved
/// changes could not be kept.
bool endOnSignal(SandboxContext& ctx, int signal);

/// Opens the panel named `name` (panel_table.hpp: --panels, lesson pages); others are ignored.
void openPanel(SandboxContext& ctx, std::string_view name);
/// Shows or hides the panel `name` (as openPanel names it); returns whether it was open
/// before (false for an unknown name).
bool setPanelOpen(SandboxContext& ctx, std::string_view name, bool open);

/// Writes the state dump (if --dump-state was given). `reason`: "key", "exit", ...
bool writeStateDump(SandboxContext& ctx, const char* reason);

/// Sets the UI scale (percent, clamped to 100..250; applied before the next frame, kept in the
/// settings).
void setUiScale(Settings& settings, int percent);

} // namespace orca::app
