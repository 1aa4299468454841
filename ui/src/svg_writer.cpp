// The SVG document writer (svg_writer.hpp): number, colour and attribute formatting and the
// primitives of the SVG export.
#include "svg_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace orca::ui::svg {

namespace {

// The UI scale of the picture being written (renderSvg sets it; the UI thread is the only
// caller): stroke widths, dash lengths and marker sizes are given at 100 %.
double g_stroke = 1.0;

} // namespace

void setStrokeScale(double scale) {
    g_stroke = scale;
}

double sc(double px) {
    return px * g_stroke;
}

// ---- Formatting ------------------------------------------------------------------------------

std::string num(double v) {
    if (!std::isfinite(v)) v = 0.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

std::string hex(Rgba c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

std::string opacity(std::uint8_t a) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.3g", a / 255.0);
    return buf;
}

std::string fillAttr(Rgba c) {
    std::string s = " fill=\"" + hex(c) + "\"";
    if (c.a != 255) s += " fill-opacity=\"" + opacity(c.a) + "\"";
    return s;
}

std::string strokeAttr(Rgba c, double width, Dash dash) {
    std::string s =
        " fill=\"none\" stroke=\"" + hex(c) + "\" stroke-width=\"" + num(sc(width)) + "\"";
    if (c.a != 255) s += " stroke-opacity=\"" + opacity(c.a) + "\"";
    if (dash.on > 0.0)
        s += " stroke-dasharray=\"" + num(sc(dash.on)) + " " + num(sc(dash.off)) + "\"";
    return s;
}

std::string escapeXml(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t') out += ch;
        }
    }
    return out;
}

double textWidth(std::string_view s, double fontSize) {
    std::size_t glyphs = 0;
    for (const char ch : s)
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++glyphs;
    return static_cast<double>(glyphs) * 0.53 * fontSize;
}

void gridSegment(std::string& d, char dir, double at, double from, double to) {
    char buf[96];
    if (dir == 'V')
        std::snprintf(buf, sizeof buf, "M%.1f %.1f V%.1f ", at, from, to);
    else
        std::snprintf(buf, sizeof buf, "M%.1f %.1f H%.1f ", from, at, to);
    d += buf;
}

// ---- The writer ------------------------------------------------------------------------------

std::string Writer::points(std::span<const Vec2> pts, bool close) const {
    std::string d;
    for (std::size_t i = 0; i < pts.size(); ++i)
        d += (i == 0 ? "M" : " L") + num(pts[i].x) + " " + num(pts[i].y);
    if (close && pts.size() >= 3) d += " Z";
    return d;
}

void Writer::path(const std::string& d, const std::string& attrs) {
    if (d.empty()) return;
    m_out += "<path d=\"" + d + "\"" + attrs + "/>\n";
}

void Writer::polyline(std::span<const Vec2> pts, const std::string& attrs, bool close) {
    if (pts.size() < 2) return;
    path(points(pts, close), attrs);
}

void Writer::line(Vec2 a, Vec2 b, const std::string& attrs) {
    const Vec2 pts[] = {a, b};
    polyline(pts, attrs);
}

void Writer::polygon(std::span<const Vec2> pts, const std::string& attrs) {
    if (pts.size() < 3) return;
    path(points(pts, true), attrs);
}

void Writer::circle(Vec2 c, double r, const std::string& attrs) {
    m_out += "<circle cx=\"" + num(c.x) + "\" cy=\"" + num(c.y) + "\" r=\"" + num(r) + "\"" +
             attrs + "/>\n";
}

void Writer::rect(const Rect& r, const std::string& attrs, double rounding) {
    m_out += "<rect x=\"" + num(r.min.x) + "\" y=\"" + num(r.min.y) + "\" width=\"" +
             num(r.size().x) + "\" height=\"" + num(r.size().y) + "\"";
    if (rounding > 0.0) m_out += " rx=\"" + num(rounding) + "\"";
    m_out += attrs + "/>\n";
}

void Writer::text(Vec2 topLeft, Rgba c, std::string_view s, const std::string& attrs) {
    m_out += "<text x=\"" + num(topLeft.x) + "\" y=\"" + num(topLeft.y + 0.93 * m_fontSize) + "\"" +
             fillAttr(c) + attrs + ">" + escapeXml(s) + "</text>\n";
}

void Writer::label(Vec2 topLeft, Rgba c, std::string_view s) {
    text(topLeft + Vec2(1.0, 1.0), palette().kTextShadow, s);
    text(topLeft, c, s);
}

void Writer::arrow(Vec2 from, Vec2 to, Rgba c, double width, Dash dash, const std::string& cls) {
    const Vec2 d = to - from;
    const double len = length(d);
    if (len < 1.0) return;
    const Vec2 u = d / len;
    const double head = std::min(sc(9.0), 0.45 * len);
    const Vec2 base = to - u * head;
    const Vec2 side = perp(u) * (head * 0.45);
    m_out += "<g" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">\n";
    line(from, base, strokeAttr(c, width, dash));
    const Vec2 tri[] = {to, base + side, base - side};
    polygon(tri, fillAttr(c));
    m_out += "</g>\n";
}

} // namespace orca::ui::svg
