#pragma once
/// \file svg_writer.hpp
/// The SVG document writer of the SVG export (svg_export.hpp): numbers, colours and attributes
/// as the file writes them, and the primitives (paths, circles, rectangles, texts and labels,
/// arrows, markers) appended to the document in the order they are drawn. Knows nothing of
/// what is drawn (svg_parts.hpp). Internal to ui/src.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "orca/types.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui::svg {

/// Sets the UI scale of the picture being written (renderSvg does, per picture; the UI thread
/// is the only caller): stroke widths, dash lengths and marker sizes are given at 100 %.
void setStrokeScale(double scale);
/// A stroke width, dash length or marker size given at 100 %, at the picture's UI scale.
[[nodiscard]] double sc(double px);

/// A number with at most two decimals, trailing zeros dropped ("12.5", "-3", "0").
[[nodiscard]] std::string num(double v);
/// "#rrggbb".
[[nodiscard]] std::string hex(Rgba c);
/// An alpha as an opacity ("%.3g" of a / 255).
[[nodiscard]] std::string opacity(std::uint8_t a);
/// ` fill="#rrggbb"`, with fill-opacity unless opaque.
[[nodiscard]] std::string fillAttr(Rgba c);
/// An unfilled stroke of `width` (at 100 %), with stroke-opacity unless opaque and
/// stroke-dasharray when dashed.
[[nodiscard]] std::string strokeAttr(Rgba c, double width, Dash dash = {});
/// `text` with &, <, > and " escaped and control characters (but \n and \t) left out.
[[nodiscard]] std::string escapeXml(std::string_view text);
/// Rough advance width of a text in DejaVu Sans (the app's font): for layout of the legend only.
[[nodiscard]] double textWidth(std::string_view s, double fontSize);

/// A vertical ('V': at x = `at` from y = `from` to `to`) or horizontal ('H') grid line,
/// appended to the path data `d`.
void gridSegment(std::string& d, char dir, double at, double from, double to);

/// The document being written; every primitive appends one element (or a group of them).
class Writer {
  public:
    explicit Writer(double fontSize) : m_fontSize(fontSize) {}

    std::string& out() { return m_out; }

    void raw(std::string_view s) { m_out += s; }

    [[nodiscard]] std::string points(std::span<const Vec2> pts, bool close) const;

    void path(const std::string& d, const std::string& attrs);
    void polyline(std::span<const Vec2> pts, const std::string& attrs, bool close = false);
    void line(Vec2 a, Vec2 b, const std::string& attrs);
    void polygon(std::span<const Vec2> pts, const std::string& attrs);
    void circle(Vec2 c, double r, const std::string& attrs);
    void rect(const Rect& r, const std::string& attrs, double rounding = 0.0);
    /// ImGui's AddText: `topLeft` is the top-left corner of the text's line box.
    void text(Vec2 topLeft, Rgba c, std::string_view s, const std::string& attrs = {});
    /// A label with the overlays' dark shadow.
    void label(Vec2 topLeft, Rgba c, std::string_view s);
    void arrow(Vec2 from, Vec2 to, Rgba c, double width, Dash dash = {},
               const std::string& cls = {});
    void marker(Vec2 s, Rgba c, double r) { circle(s, sc(r), fillAttr(c)); }

    std::string newId(const char* prefix) { return prefix + std::to_string(m_ids++); }

    [[nodiscard]] double fontSize() const { return m_fontSize; }

  private:
    std::string m_out;
    double m_fontSize;
    int m_ids = 0;
};

} // namespace orca::ui::svg
