#pragma once
/// \file long_text.hpp
/// Texts from files (titles, ids, lesson pages, messages) drawn within bounded vertices and
/// time, whatever their length. ImGui's own TextWrapped lays out a whole text and reserves four
/// vertices per byte of it in one go, and a window's draw list holds at most 65,536 vertices
/// (16-bit indices): a 40,000-character paragraph aborted the app (issue 25). So one-line texts
/// are cut (shownLine), and long texts are cut at scene::kMaxPageTextBytes and wrapped here once
/// per frame into lines, of which only those inside the window's visible part are submitted
/// (drawTextBlocks). The limits are the scene library's (orca/scene/text_limits.hpp), which the
/// linter and the lesson loader warn about.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "orca/scene/text_limits.hpp"

namespace orca::ui {

/// A one-line text as shown: cut to `maxBytes` (scene::cutText, with "…"), line breaks, tabs
/// and other control characters as spaces.
[[nodiscard]] std::string shownLine(std::string_view text,
                                    std::size_t maxBytes = scene::kMaxTitleBytes);

/// A wrapped line: bytes [begin, end) of the text, and its width (screen units).
struct WrappedLine {
    std::size_t begin = 0;
    std::size_t end = 0;
    float width = 0.0f;
};

/// Lines of at most this many bytes: a line of characters that take no room would otherwise
/// never wrap.
inline constexpr std::size_t kMaxWrappedLineBytes = 1024;

/// `text` broken into lines as ImGui's TextWrapped breaks it at `wrapWidth` (screen units) in
/// the current font and size: at newlines, at blanks when a word does not fit (the blanks after
/// such a break are skipped), inside a word longer than the width; and after
/// kMaxWrappedLineBytes bytes (at a UTF-8 character boundary).
[[nodiscard]] std::vector<WrappedLine> wrapLines(std::string_view text, float wrapWidth);

/// A block of a long text: a paragraph or a bullet item, laid out like ImGui::TextWrapped (or
/// Bullet + TextWrapped) with ItemSpacing after it.
struct TextBlock {
    std::string_view text;
    bool bullet = false;
    bool spaceBefore = false; ///< ImGui::Spacing() before the block
};

/// The size `blocks` take at `width` (screen units): the widest line (bullets' indent
/// included) and the height, the last block's ItemSpacing excluded.
[[nodiscard]] ImVec2 textBlocksSize(std::span<const TextBlock> blocks, float width);

/// Draws `blocks` at the cursor, wrapped at the content region's width, submitting only the
/// lines inside the window's clip rectangle: vertices for what is on screen only. The cursor
/// ends below them, as after the same ImGui calls.
void drawTextBlocks(std::span<const TextBlock> blocks);

/// One paragraph (drawTextBlocks of one block).
void drawLongText(std::string_view text);

} // namespace orca::ui
