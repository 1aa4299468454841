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

#include "editor.hpp"
#include "key_bindings.hpp"
#include "layers.hpp"
#include "lessons.hpp"
#include "paths.hpp"
#include "pictures.hpp"
#include "recovery.hpp"
#include "scene_edit.hpp"
#include "selection.hpp"
#include "settings.hpp"
#include "sim_clock.hpp"
#include "compare.hpp"
#include "what_if.hpp"
#include "timeline.hpp"

namespace orca::app {

/// Exponential moving average plus totals (for --frames reports).
struct TimingStat {
    double average = 0.0; ///< ms, smoothed
    double total = 0.0;   ///< ms
    std::uint64_t count = 0;
    void add(double ms) {
        average = average == 0.0 ? ms : average + 0.05 * (ms - average);
        total += ms;
        ++count;
    }
    [[nodiscard]] double mean() const { return count ? total / static_cast<double>(count) : 0.0; }
};

/// Something that would lose unsaved changes, waiting for the user's answer.
struct GuardedRequest {
    enum class Kind { Load, Quit, New } kind = Kind::Load;
    std::filesystem::path file; ///< Load
};

/// The small modal dialogs (one at a time).
enum class Dialog { None, Open, SaveAs, Screenshot, ExportSvg, Record, Unsaved, Recover };

struct SandboxContext {
    AppPaths paths;
    bool interactive = true; ///< false in --screenshot mode (no dialogs, fixed panel layout)

    // The loaded scene with the user's parameter edits (restart rebuilds from it, Save writes
    // it) and the running simulation.
    scene::Scene scene;
    std::filesystem::path sceneFile;     ///< empty for the empty scene
    std::vector<std::string> agentNames; ///< user ids from the file ("" when none), agent order
    UnsavedTracker unsaved;
    Simulator sim;
    int threads = 1;
    /// Bumped whenever the simulator's state changes (step, edit, load, restart): caches
    /// (explain records, hover tooltip, metrics) compare against it.
    std::uint64_t stateVersion = 0;

    // Simulation control. One clock; single steps use the same Δt.
    bool running = false;
    ClockSettings clockSettings;
    SimClock clock;
    int pendingSingleSteps = 0;

    // Time travel: the recording of the run, the timeline bar, the events panel (timeline.hpp).
    TimelineState timeline;
    // Compare: a branch with changed parameters beside the run (compare.hpp).
    CompareState compare;
    // Live what-if: a dragged velocity, v_pref or position previewed in the simulator.
    WhatIfState whatIf;

    // Scene authoring: tools, undo history, clipboard (see editor.hpp).
    EditorState editor;
    // Autosave of unsaved edits to the recovery file ("" = none), and a recovery file found at
    // start, waiting for the user's answer (Dialog::Recover).
    std::filesystem::path recoveryFile;
    AutosaveTimer autosave;
    std::optional<Recovered> pendingRecovery;

    // Selection and what the solver will decide for it (dry-run explain records, selection
    // order), refreshed when stateVersion or the selection changes.
    Selection selection;
    std::vector<ExplainRecord> records;
    std::uint64_t recordsVersion = ~std::uint64_t{0};
    ui::ConstructionState construction;
    /// Solve mode: the primary record then carries its LP trace (refreshRecords asks for it).
    ui::SolveState solve;
    ui::OverlayHover overlayHover; ///< last frame's hover (world or panel), highlighted
    ui::OverlayStyle overlayStyle;
    ui::LabelLayout worldLabels; ///< the world view's overlay labels, laid out together
    ui::VelocityPanel velocityPanel;
    std::optional<std::size_t> hoveredAgent; ///< index, this frame
    bool mouseCaptured = false;              ///< ImGui wanted the mouse this frame
    std::optional<Vec2> mouse;               ///< pointer position this frame, if known
    ExplainRecord hoverRecord;               ///< for the hover tooltip (neighbour count)
    AgentId hoverRecordAgent;
    std::uint64_t hoverRecordVersion = ~std::uint64_t{0};

    // View.
    ui::Camera camera;
    bool fitRequested = true;
    std::optional<ui::Rect> fitTarget; ///< what a fit request fits (default: the scene)
    ViewLayers layers;
    ui::WorldRenderer renderer;
    Settings settings; ///< layers/panels are copied in and out of it at start and exit

    // Panels.
    PanelVisibility panels;
    std::string paramsError;
    ui::MetricsHistory metricsHistory;
    ui::MetricsSample metricsCurrent;
    std::uint64_t metricsVersion = ~std::uint64_t{0};

    /// Scene and lesson files larger than this are refused (--max-file-size); devices, FIFOs
    /// and folders always are (scene::readTextFile).
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize;

    // Windows.
    bool showHelp = false;
    bool helpFirstLaunch = false; ///< Help opened by the first launch: key tables folded
    float helpRect[4] = {0.0f, 0.0f, 0.0f, 0.0f}; ///< the Help window last frame (dump)
    std::string sceneHint; ///< the scene's "view" hint line, "" when none or dismissed
    LessonState lesson; ///< the open lesson (lessons.hpp), its window and task
    ui::MessageQueue messages;
    std::vector<std::filesystem::path> sceneFiles; ///< Scene menu, rescanned when it opens
    std::vector<ui::HelpRow> keyHelp = keyHelpRows();
    std::vector<ui::HelpRow> mouseHelp = mouseHelpRows();
    Dialog dialog = Dialog::None;
    int dialogFocusFrames = 0; ///< frames left to put the keyboard focus into the path field
    std::string dialogPath;    ///< the path field of Open / Save As / Save screenshot
    std::optional<GuardedRequest> guarded; ///< waiting for Save / Discard / Cancel
    bool continueAfterSaveAs = false;      ///< Save As was opened by the unsaved prompt

    // Requests from UI code, applied after the frame by applyRequests().
    std::optional<std::filesystem::path> loadRequest;
    bool newSceneRequest = false;
    bool restartRequest = false;
    bool quitRequest = false;
    bool dumpRequest = false;
    std::optional<std::filesystem::path> screenshotRequest; ///< captured after the next frame
    PicturesState pictures; ///< SVG export and recording requests, recording state (REC)
    bool titleChanged = true; ///< the window title should show a new scene name
    std::string note;         ///< transient status-bar note ("saved ...")
    double noteUntil = 0.0;   ///< ImGui time when the note disappears

    // State dump (--dump-state).
    std::filesystem::path dumpFile;
    std::uint64_t dumpCount = 0;
    int windowWidth = 0; ///< window size in screen units (as ImGui's DisplaySize)
    int windowHeight = 0;

    TimingStat stepTiming;  ///< CPU time of Simulator::step()
    TimingStat frameTiming; ///< CPU time to build a frame (ImGui NewFrame .. Render)
};

/// How the app reads scene and lesson files (the --max-file-size limit).
[[nodiscard]] scene::LoadOptions appLoadOptions(const SandboxContext& ctx);
/// Loads a scene file and makes it current (paused, selection cleared, view refitted or taken
/// from the file's "view" block). On failure the current scene is kept and `error` holds the
/// loader's message. Warnings go to stderr and `messages`.
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
/// Rebuilds the simulator from the current scene (with edits), paused; the selection is
/// mapped by agent index.
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
/// A scene name from a file name: the stem, underscores as spaces, trimmed, first letter in
/// capitals ("my_crowd.json" -> "My crowd"); "Untitled" when nothing is left.
[[nodiscard]] std::string sceneNameFromFile(const std::filesystem::path& file);
/// Runs `steps` steps now, timing each.
void stepSimulation(SandboxContext& ctx, int steps);
/// Runs the steps owed this frame: the clock's while running, plus requested single steps.
void advanceSimulation(SandboxContext& ctx, double frameSeconds);

/// Makes `records` match the selection and the current state (dry run, changes nothing).
void refreshRecords(SandboxContext& ctx);
/// The primary selected agent's record, or nullptr.
[[nodiscard]] const ExplainRecord* primaryRecord(const SandboxContext& ctx);
/// Applies an edit from the parameters panel to the simulator and the scene (see
/// scene_edit.hpp), marks the scene unsaved and refreshes the records.
bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit);
/// The same edit of the agents `ids` instead of the selection.
bool editAgents(SandboxContext& ctx, const ui::AgentEdit& edit, std::span<const AgentId> ids);
bool editSimulation(SandboxContext& ctx, const SimulationParams& params);
/// Selects agents by index (command line --select); false when one is out of range.
bool selectByIndex(SandboxContext& ctx, const std::vector<std::size_t>& indices,
                   std::string& error);

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
/// A clean exit (nothing unsaved, or the user discarded it): the recovery file goes.
void forgetRecovery(SandboxContext& ctx);

/// Opens the panel named `name` (a kPanelNames entry: --panels, lesson pages); others are ignored.
void openPanel(SandboxContext& ctx, std::string_view name);

/// Writes the state dump (if --dump-state was given). `reason`: "key", "exit", ...
bool writeStateDump(SandboxContext& ctx, const char* reason);

/// Shows `text` in the status bar for a few seconds (and prints it).
void setNote(SandboxContext& ctx, std::string text);

/// Sets the UI scale (percent, clamped to 100..250; applied before the next frame, kept in the
/// settings).
void setUiScale(SandboxContext& ctx, int percent);

/// "Name (file.json)" for titles.
[[nodiscard]] std::string sceneTitle(const SandboxContext& ctx);

} // namespace orca::app
