#pragma once
/// \file label_layout.hpp
/// Places text labels so that none overlaps another: each label goes to the first candidate
/// position around its anchor (right, left, above, below, the diagonals, then the same farther
/// out with a leader line back to the anchor) whose rectangle is inside the bounds and overlaps
/// no label placed before it nor a reserved rectangle. Labels are placed by priority (higher
/// first, then in the order they were added); one that fits nowhere is abbreviated (its short
/// text, when it has one) or dropped. Deterministic; knows nothing of ImGui (text sizes are
/// given), so it is unit-tested without a window. drawLabels() (explain_overlay.hpp side)
/// draws a laid-out set into an ImDrawList.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "orca/ui/camera.hpp"

namespace orca::ui {

/// Which side of the anchor a label prefers (its first candidate).
enum class LabelSide : std::uint8_t {
    Right,
    Left,
    Above,
    Below,
    AboveRight,
    AboveLeft,
    BelowRight,
    BelowLeft,
};

/// One label to place. Sizes and positions are screen units (y down).
struct LabelRequest {
    Vec2 anchor{0.0, 0.0}; ///< the point the label names (arrow tip, marker, line point)
    std::string text;      ///< what is drawn
    Vec2 size{0.0, 0.0};   ///< the text's size (ImGui::CalcTextSize)
    std::string shortText; ///< abbreviation tried when `text` fits nowhere ("" = none)
    Vec2 shortSize{0.0, 0.0};
    int priority = 0;                  ///< higher is placed first and kept over lower ones
    LabelSide side = LabelSide::Right; ///< tried first; the other sides follow in fixed order
    /// Only at the preferred spot (`fixedAt` = its top-left corner): axis values, titles. It
    /// is dropped when that spot is taken.
    bool fixed = false;
    Vec2 fixedAt{0.0, 0.0};
    std::uint32_t colour = 0xffffffffu; ///< ImU32, for the drawing; the layout ignores it
};

/// Where a label went.
struct PlacedLabel {
    std::size_t request = 0;  ///< index of the request (order of add())
    Rect rect;                ///< the text's rectangle (top-left = where the text is drawn)
    bool abbreviated = false; ///< the short text was used
    bool leader = false;      ///< placed away from the anchor: draw a line to it
};

/// Collects requests, places them (place()), keeps the result for drawing and for tests.
class LabelLayout {
  public:
    /// Gap (screen units) between an anchor and the near edge of a label's first ring; the
    /// second and third rings are farther out by multiples of the text height.
    double gap = 6.0;
    /// Labels keep this much space between each other (and from reserved rectangles).
    double padding = 1.0;

    void clear();
    /// Adds a label request; returns its index.
    std::size_t add(LabelRequest r);
    /// A rectangle no label may overlap (a legend box, a title).
    void reserve(const Rect& r);
    /// Places every request inside `bounds` (replacing an earlier placement).
    void place(const Rect& bounds);

    [[nodiscard]] std::span<const LabelRequest> requests() const { return m_requests; }
    [[nodiscard]] std::span<const Rect> reserved() const { return m_reserved; }
    /// The placed labels, in placement order (highest priority first).
    [[nodiscard]] std::span<const PlacedLabel> placed() const { return m_placed; }
    /// Requests that fit nowhere.
    [[nodiscard]] std::size_t dropped() const { return m_requests.size() - m_placed.size(); }
    /// The text a placed label shows (its short text when abbreviated).
    [[nodiscard]] const std::string& textOf(const PlacedLabel& p) const;

  private:
    std::vector<LabelRequest> m_requests;
    std::vector<Rect> m_reserved;
    std::vector<PlacedLabel> m_placed;
};

/// True when the two rectangles share interior points (touching edges do not count).
[[nodiscard]] bool rectsOverlap(const Rect& a, const Rect& b);

/// The candidate rectangles for a label of `size` at `anchor`, in the order they are tried
/// (preferred side first); `leaderFrom` is the index of the first one drawn with a leader line.
[[nodiscard]] std::vector<Rect> labelCandidates(Vec2 anchor, Vec2 size, LabelSide preferred,
                                                double gap, std::size_t* leaderFrom = nullptr);

} // namespace orca::ui
