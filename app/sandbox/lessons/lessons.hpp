#pragma once
// Lessons in the sandbox: the Lessons menu, the lesson window, --lesson NAME [--lesson-page K].
// A lesson (orca/scene/lesson.hpp, docs/lessons.md) loads its scene the normal way, then each page
// sets the layers, selection, camera, step, construction phase and a "try this" task that is
// checked live.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/lesson.hpp"
#include "orca/ui/camera.hpp"

#include "paths.hpp"

namespace orca::app {

struct SandboxContext;

/// A lesson file in the lessons folder (Lessons menu).
struct LessonListEntry {
    std::filesystem::path file;
    std::string name;  ///< file stem, the --lesson name
    std::string title; ///< the lesson's title ("" when the file does not load)
};

struct LessonState {
    std::vector<LessonListEntry> available; ///< rescanned when the Lessons menu opens
    std::optional<lesson::Lesson> lesson;   ///< the open lesson
    std::filesystem::path file;
    std::string name;     ///< its stem
    std::size_t page = 0; ///< 0-based
    bool windowOpen = false;
    lesson::TaskContext task;
    bool taskDone = false; ///< sticky for the page visit
    std::string taskProgress;
    std::optional<std::int64_t> solveStep; ///< the page's solve step (for apps with solve mode)
    std::optional<ui::Rect> windowRect;    ///< the window's last screen rectangle
    std::optional<ui::Rect> controlsRect;  ///< its task and page buttons (screen)
    std::vector<std::string> pagePanels;   ///< windows the pages opened (closed by later ones)
    /// --lesson-walk: where each page's state dump goes (empty: no walk), and the frames
    /// the current page has been shown.
    std::filesystem::path walkDir;
    int walkFrames = 0;
    // Requests from the window, applied after the frame.
    std::optional<std::size_t> pageRequest;
    bool resetRequest = false;
};

/// The lesson named on the command line: an existing path as given, else NAME(.json) in the
/// lessons folder, else the one lesson whose name starts with NAME ("03"). Empty when none.
[[nodiscard]] std::filesystem::path resolveLessonArgument(const std::string& arg,
                                                          const AppPaths& paths);
/// The lessons in `dir` (sorted by name) with their titles.
[[nodiscard]] std::vector<LessonListEntry> listLessons(const std::filesystem::path& dir);

/// Loads a lesson file, installs its scene (paused), runs its steps and opens page `page`
/// (0-based, clamped). On failure nothing changes and `error` holds the loader's message.
/// Opening the first lesson keeps the user's layers and windows in ctx.settings: the lesson's
/// view is never saved as the user's.
bool openLesson(SandboxContext& ctx, const std::filesystem::path& file, std::size_t page,
                std::string& error);
/// --lesson NAME --lesson-page K (1-based): resolves NAME and opens that page. Returns the
/// exit code the command line deserves: 0 opened; 2 (a usage error, like --select past the
/// end) when no lesson has that name or the page is past the end, with a message naming what
/// was looked for or the page range; 1 when the lesson file does not load (the loader's
/// message).
[[nodiscard]] int openLessonArgument(SandboxContext& ctx, const std::string& name, std::size_t page,
                                     std::string& error);
/// Applies page `page` of the open lesson: step, layers, selection, camera, construction,
/// panels, task.
void applyLessonPage(SandboxContext& ctx, std::size_t page);
/// Closes the lesson (the scene stays); the layers and windows are the user's again, as they
/// were when the lesson opened (ctx.settings keeps them meanwhile).
void closeLesson(SandboxContext& ctx);
/// Asks to open a lesson (through the unsaved-changes prompt, like a scene).
void requestLesson(SandboxContext& ctx, const std::filesystem::path& file);
/// After the frame (from applyRequests): a pending load of a lesson file opens the lesson;
/// another pending load or a new scene closes it; page and reset requests are applied.
void applyLessonRequests(SandboxContext& ctx);

/// --lesson-walk, after each frame: once a page has been shown for a few frames (new windows
/// have had their hidden first frame and settled), writes a screenshot and the state dump to
/// walkDir/NAME_page_K.png and .json and asks for the next page; after a lesson's last page opens
/// the next lesson of the lessons folder, and after the last one asks to quit.
void lessonWalkTick(SandboxContext& ctx);

/// The Lessons menu of the main menu bar.
void drawLessonsMenu(SandboxContext& ctx);
/// The lesson window (and the live task check). `top`/`bottom`: the world view's vertical
/// extent (screen units).
void drawLessonWindow(SandboxContext& ctx, float top, float bottom);
/// In --screenshot mode the lesson window is docked at the left: the width it takes from the
/// world view (0 without a lesson, and in the interactive app where it floats).
[[nodiscard]] float lessonDockWidth(const SandboxContext& ctx);
/// What the floating lesson window leaves of `area` for fitting the view (interactive app).
[[nodiscard]] ui::Rect lessonUncoveredArea(const SandboxContext& ctx, const ui::Rect& area);
/// The first lesson's title, or "" when there is none ("Start here" in the Help window).
[[nodiscard]] std::string firstLessonTitle(SandboxContext& ctx);
/// Opens the first lesson ("Start here").
void startFirstLesson(SandboxContext& ctx);

/// The state dump's "lesson" block: {name, file, page (1-based), pages, title, taskDone, ...}
/// or null.
[[nodiscard]] nlohmann::ordered_json lessonJson(const SandboxContext& ctx);

} // namespace orca::app
