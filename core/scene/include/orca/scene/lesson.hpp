#pragma once
/// \file lesson.hpp
/// Lessons (format "orca-lesson", JSON): a scene, how to show it (camera, selection, layers,
/// steps) and pages of text, each page setting the overlays, the construction or solve phase,
/// and optionally a "try this" task the app checks live. See docs/lessons.md.
///
/// Target `orca_scene`. The loader reports errors exactly like the scene loader (it throws
/// scene::SceneError: "FILE: error: at PATH: MESSAGE", syntax errors with line and column), and
/// validates the lesson's scene (inline, or a file named relative to the lesson) with the scene
/// loader. The task checks are pure functions of the simulator and an explain record, so they
/// are unit-tested without a window.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"
#include "orca/orca_lines.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca::lesson {

/// The value of the "format" key of a lesson file.
inline constexpr std::string_view kFormatName = "orca-lesson";

/// Errors are the scene loader's (same message layout and parts).
using LessonError = scene::SceneError;

/// View layer names a lesson may use in "layers" (the app's --layers names; the app checks in
/// a test that its layer table has exactly these).
[[nodiscard]] std::span<const std::string_view> layerNames();
/// Window names a page may open in "panels" (the app's --panels names).
[[nodiscard]] std::span<const std::string_view> panelNames();

/// Where the view looks: either a centre and a zoom, or a world rectangle to fit.
struct LessonCamera {
    std::optional<Vec2> center;
    /// Screen units per world unit (> 0); with `center`.
    double zoom = 0.0;
    /// The world rectangle [min, max] to fit into the view (instead of center/zoom).
    std::optional<std::pair<Vec2, Vec2>> fit;
    friend bool operator==(const LessonCamera&, const LessonCamera&) = default;
};

/// Construction mode (the velocity panel builds one neighbour's half-plane in three phases).
struct LessonConstruction {
    /// The neighbour, as a scene agent index (the app finds its rank among the neighbours)...
    std::optional<std::size_t> agent;
    /// ...or as a rank among the agent neighbours (0 = nearest). Neither: the nearest.
    std::optional<std::size_t> neighbor;
    /// 0 = "vo" (the VO in relative velocity space), 1 = "u", 2 = "half-plane".
    int phase = 0;
    friend bool operator==(const LessonConstruction&, const LessonConstruction&) = default;
};

/// The kinds of "try this" tasks, each checkable from the simulator and an explain record.
enum class TaskKind : std::uint8_t {
    HalfPlaneFlips,   ///< A's half-plane from B now avoids to the other side (u·u₀ < 0).
    LineCase,         ///< A's half-plane from B is built by the given geometric case.
    OutsideVo,        ///< v_A − v_B lies outside B's VO: A's velocity already satisfies the line.
    SeesNeighbor,     ///< B is among A's agent neighbours.
    Lp3Stops,         ///< A's 2-D program is feasible (LP3 not needed).
    Lp3Runs,          ///< A's 2-D program is infeasible (LP3 chooses v_new).
    AgentReachesGoal, ///< A is at its goal.
    AllReachGoal,     ///< every agent with a goal is at it (and there is at least one).
    ParamBelow,       ///< a parameter (A's, or the simulation's) is below a value.
    ParamAbove,       ///< a parameter is above a value.
    DetourEnabled,    ///< the detour flow field is switched on.
};

/// Stable kebab-case name of a kind ("half-plane-flips"), as written in lesson files.
[[nodiscard]] std::string_view toString(TaskKind kind);
/// The kind with that name, or nullopt.
[[nodiscard]] std::optional<TaskKind> taskKindFromName(std::string_view name);
/// Parameter names param-below / param-above accept: the agent parameters of the scene format
/// ("neighborDist", "maxNeighbors", "timeHorizon", ...) and the simulation's ("timeStep",
/// "responsibility", "staticResponsibility", "lp3BisectorWeight").
[[nodiscard]] std::span<const std::string_view> taskParamNames();

/// A "try this" task.
struct LessonTask {
    TaskKind kind = TaskKind::AgentReachesGoal;
    std::string text;    ///< what to do, shown in the lesson window
    std::string success; ///< shown once the task is done ("" = a generic "Done")
    /// Agent A (scene index); absent = the primary selected agent of the page.
    std::optional<std::size_t> agent;
    /// Agent B (scene index) for half-plane-flips, line-case, sees-neighbor.
    std::optional<std::size_t> other;
    LineCase lineCase = LineCase::AgentCutoffCircle; ///< line-case
    std::string param;                               ///< param-below / param-above
    double value = 0.0;                              ///< param-below / param-above
};

/// One page of a lesson. Absent settings fall back to the lesson's (see docs/lessons.md).
struct LessonPage {
    std::string title;
    /// Plain text: paragraphs separated by blank lines; lines starting with "- " are bullets.
    std::string text;
    std::optional<std::string> layers; ///< --layers syntax; replaces the lesson's layers
    std::optional<std::vector<std::size_t>> select; ///< agent indices; the last is primary
    std::optional<LessonCamera> camera;
    /// Run to this step when the page opens (absent: the previous page's, or the lesson's).
    std::optional<std::uint64_t> steps;
    bool run = false; ///< start playing when the page opens (interactive only)
    std::optional<LessonConstruction> construction; ///< absent: construction mode off
    /// Solve mode: the LP trace step the velocity panel shows (0 = start; --solve K).
    std::optional<std::int64_t> solveStep;
    std::vector<std::string> panels; ///< windows to open (--panels names; interactive app only)
    std::optional<LessonTask> task;
};

/// A whole lesson.
struct Lesson {
    std::string title;
    std::string summary;
    scene::Scene scene;
    /// The scene's file when the lesson names one (resolved against the lesson's folder);
    /// empty when the scene is inline.
    std::filesystem::path sceneFile;
    std::optional<LessonCamera> camera;
    std::vector<std::size_t> select;
    std::optional<std::string> layers;
    std::uint64_t steps = 0; ///< run after loading (before page 1)
    std::vector<LessonPage> pages;

    /// The step page `index` runs to: its own "steps", else the nearest earlier page's, else
    /// the lesson's.
    [[nodiscard]] std::uint64_t pageSteps(std::size_t index) const;
    /// The selection in effect on page `index` (the page's, else the lesson's).
    [[nodiscard]] const std::vector<std::size_t>& pageSelect(std::size_t index) const;
    [[nodiscard]] std::size_t taskCount() const;
};

struct LessonLoad {
    Lesson lesson;
    /// Warnings of the scene loader (e.g. a clockwise obstacle reversed), paths prefixed
    /// with "scene." for an inline scene.
    std::vector<scene::SceneWarning> warnings;
};

/// Parses lesson text. `fileName` is used in messages and to resolve a linked scene (relative
/// to its folder). Throws LessonError; never returns a partly loaded lesson.
[[nodiscard]] LessonLoad parseLesson(const std::string& text,
                                     const std::filesystem::path& fileName);
/// Reads and parses a lesson file. Throws LessonError (also for a file scene::readTextFile
/// refuses: not a regular file, or larger than the limit).
[[nodiscard]] LessonLoad loadLesson(const std::filesystem::path& path);
/// The same with the scene loader's options: maxFileSize (and maxFileSizeSetting) limit the
/// lesson file and a linked scene file; the scene, inline or linked, is loaded with `options`.
[[nodiscard]] LessonLoad loadLesson(const std::filesystem::path& path,
                                    const scene::LoadOptions& options);
/// True when the text is a JSON object whose "format" is "orca-lesson" (cheap test used to
/// tell lessons from scenes; false for anything unreadable).
[[nodiscard]] bool isLessonText(const std::string& text);
/// isLessonText of the file's text; false when scene::readTextFile refuses the file (not a
/// regular file, more than `maxBytes` bytes) or cannot read it.
[[nodiscard]] bool isLessonFile(const std::filesystem::path& path,
                                std::uint64_t maxBytes = scene::kDefaultMaxFileSize);

// ---- Task checks ---------------------------------------------------------------------------

/// What a task compares against, captured when its page opens (beginTask).
struct TaskContext {
    /// Agent A and B as indices in agent order (= scene order); nullopt when unresolved.
    std::optional<std::size_t> agent;
    std::optional<std::size_t> other;
    bool hasBaseline = false; ///< A had a half-plane from B when the page opened
    Vec2 baselineU{0.0, 0.0}; ///< its u then
    LineCase baselineCase = LineCase::AgentCutoffCircle;
};

/// The result of one check.
struct TaskStatus {
    bool done = false;
    /// A short live reading for the user, e.g. "A's line from B: left leg (was: right leg)".
    std::string progress;
};

/// Captures the task's baseline from the state the page opened with. `primary`: the index of
/// the page's primary selected agent (used when the task names no agent).
[[nodiscard]] TaskContext beginTask(const LessonTask& task, const Simulator& sim,
                                    std::optional<std::size_t> primary);
/// Checks the task against the current state. `record`: agent A's explain record when the
/// caller has it (a dry run is made otherwise). Pure: changes nothing.
[[nodiscard]] TaskStatus checkTask(const LessonTask& task, const Simulator& sim,
                                   const ExplainRecord* record, const TaskContext& context);

/// Human-readable name of a line case for lesson texts ("left leg", "cut-off circle"...).
[[nodiscard]] std::string_view caseLabel(LineCase c);

} // namespace orca::lesson
