#pragma once
/// \file text_limits.hpp
/// How much of a text read from a file the app shows: one limit per kind of text, shared by
/// the app (which shows a longer text cut, with "…") and by the checks that warn where it would
/// cut — the linter's text-too-long rule (docs/lint.md) and the lesson loader's warnings
/// (docs/lessons.md). The limits keep every text the app draws within a window's 16-bit vertex
/// indices (ImGui: 65,536 vertices, four per glyph) and its layout cheap each frame.
///
/// Target `orca_scene`; no UI code. Lengths are in bytes of UTF-8 (characters, for ASCII).

#include <cstddef>
#include <string>
#include <string_view>

namespace orca::scene {

/// One-line texts: scene, lesson and page titles, agent ids, a scene's hint, file names.
inline constexpr std::size_t kMaxTitleBytes = 200;
/// Short paragraphs: a lesson task's text and its success message, the status bar's note.
inline constexpr std::size_t kMaxParagraphBytes = 1000;
/// Long texts: a lesson page's text; the app's messages (errors, import reports). The app draws
/// only the lines in view, so this bounds the layout's cost, not the vertices.
inline constexpr std::size_t kMaxPageTextBytes = 20000;

/// The length of the longest prefix of `text` of at most `maxBytes` bytes that ends on a UTF-8
/// character boundary (never inside a multi-byte sequence).
[[nodiscard]] std::size_t utf8Prefix(std::string_view text, std::size_t maxBytes);
/// Whether the app shows `text` cut (it has more than `maxBytes` bytes).
[[nodiscard]] inline bool textIsCut(std::string_view text, std::size_t maxBytes) {
    return text.size() > maxBytes;
}
/// `text` as the app shows it: whole when it has at most `maxBytes` bytes, else its first
/// utf8Prefix(text, maxBytes) bytes and "…".
[[nodiscard]] std::string cutText(std::string_view text, std::size_t maxBytes);
/// The warning for a text the app cuts: "40000 bytes long: the app shows only its first 20000
/// bytes (a longer text is cut with "…")".
[[nodiscard]] std::string textCutWarning(std::size_t bytes, std::size_t maxBytes);

} // namespace orca::scene
