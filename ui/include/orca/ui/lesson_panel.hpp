#pragma once
/// \file lesson_panel.hpp
/// The lesson window: the lesson and page titles, the page text (paragraphs, "- " bullets)
/// wrapped to the window, page k/n with Prev / Next, and the page's "try this" task with a live
/// check mark. It only draws and reports clicks; the app applies them
/// (app/sandbox/lessons/lessons.cpp).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

namespace orca::ui {

/// The texts are the lesson file's, as long as they are: the panel shows them cut at the limits
/// of orca/scene/text_limits.hpp (titles kMaxTitleBytes, the page text kMaxPageTextBytes, the
/// task's texts kMaxParagraphBytes) and draws only the lines of the page text in view.
struct LessonPanelInput {
    std::string_view lessonTitle;
    std::string_view pageTitle;
    std::string_view text; ///< paragraphs separated by blank lines; "- " lines are bullets
    std::size_t page = 0;  ///< 0-based
    std::size_t pages = 1;
    /// Page k's title, for the page picker (which asks only for the pages in its view).
    std::function<std::string_view(std::size_t)> pageTitleAt;
    bool hasTask = false;
    std::string_view taskText;
    std::string taskProgress;     ///< live reading ("u = (0.31, -0.12), left leg ...")
    std::string_view taskSuccess; ///< shown once done
    bool taskDone = false;
    std::string note; ///< one dim line under the text (e.g. what the page set up)
    /// Fixed position and size (screenshots); otherwise placed there on first use only.
    bool docked = false;
    ImVec2 pos{0.0f, 0.0f};
    ImVec2 size{420.0f, 520.0f};
};

struct LessonPanelOutput {
    std::optional<std::size_t> goToPage; ///< Prev / Next / the picker
    bool reset = false;                  ///< "Reset page": reload the scene, apply the page
    ImVec2 windowPos{0.0f, 0.0f};        ///< where the window is (screen units)
    ImVec2 windowSize{0.0f, 0.0f};       ///< (0, 0) when it was not drawn
    /// The task and the page buttons (screen units; they never scroll out of the window): no
    /// other window may cover them.
    ImVec2 controlsMin{0.0f, 0.0f};
    ImVec2 controlsMax{0.0f, 0.0f};
};

/// The paragraphs of a page text: blocks separated by blank lines. Exposed for tests.
[[nodiscard]] std::vector<std::string> splitParagraphs(std::string_view text);

/// Draws the "Lesson" window (nothing when `*open` is false; closing clears it).
LessonPanelOutput drawLessonPanel(const LessonPanelInput& in, bool* open);

} // namespace orca::ui
