#pragma once
/// \file grid_style.hpp
/// The grids of the world view and of the velocity panel: how far apart their lines are,
/// which lines are minor, major or an axis and in which colour, and which values along the
/// panel's axes are labelled and how — one rule for the screen (world_renderer.cpp,
/// velocity_panel.cpp) and the SVG export (svg_world.cpp, svg_panel.cpp).

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "orca/ui/element_colours.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

/// Spacing of the minor and major grid lines (world or velocity units).
struct GridSteps {
    double minor = 1.0;
    double major = 10.0;
};

/// Smallest "nice" step (1, 2 or 5 times a power of ten) that is at least `minStep`, and the
/// next coarser step that is a multiple of it (times 5, or 2 after a 5).
[[nodiscard]] inline GridSteps niceSteps(double minStep) {
    const double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= minStep) return {m * decade, m * decade * (m == 5.0 ? 2.0 : 5.0)};
    return {10.0 * decade, 50.0 * decade};
}

/// The world view at `scale` screen units per metre: minor lines at least 24 screen units
/// apart, major lines on the next power of ten.
[[nodiscard]] inline GridSteps worldGridSteps(double scale) {
    const double minor = niceSteps(24.0 / scale).minor;
    return {minor, std::pow(10.0, std::ceil(std::log10(minor * 1.0001)))};
}

/// The velocity panel at `pixelsPerUnit` screen units per m/s: minor lines at least 16 screen
/// units apart, major lines the next coarser nice step.
[[nodiscard]] inline GridSteps panelGridSteps(double pixelsPerUnit) {
    const double upp = 1.0 / pixelsPerUnit;
    return niceSteps(16.0 * upp);
}

enum class GridLine { Minor, Major, Axis };

/// The kind of the grid line at `v` (a multiple of `s.minor`).
[[nodiscard]] inline GridLine gridLineAt(double v, const GridSteps& s) {
    if (std::abs(v) < 0.5 * s.minor) return GridLine::Axis;
    return std::abs(std::remainder(v, s.major)) < 0.5 * s.minor ? GridLine::Major : GridLine::Minor;
}

enum class GridView { World, Panel };

/// A grid line's colour: the palette's; the panel's axes at alpha 110.
[[nodiscard]] inline Rgba gridColour(GridLine line, GridView view) {
    switch (line) {
    case GridLine::Minor:
        return palette().kGridMinor;
    case GridLine::Major:
        return palette().kGridMajor;
    case GridLine::Axis:
        return view == GridView::Panel ? withAlpha(palette().kGridAxis, 110) : palette().kGridAxis;
    }
    return palette().kGridMinor;
}

// ---- The panel's axis values -------------------------------------------------------------------

/// The values labelled along one axis of the panel, from `from` to `to` (velocity units): the
/// multiples of the major step, doubled until labels are at least 60 screen units apart, except
/// at the origin.
[[nodiscard]] inline std::vector<double> axisLabelValues(double from, double to, const GridSteps& s,
                                                         double pixelsPerUnit) {
    double step = s.major;
    while (step * pixelsPerUnit < 60.0)
        step *= 2.0;
    std::vector<double> values;
    for (double v = std::ceil(from / step) * step; v <= to; v += step) {
        if (std::abs(v) < 0.5 * s.minor) continue;
        values.push_back(v);
    }
    return values;
}

/// An axis value as written ("%g": 0.5, 2, 1e+03).
[[nodiscard]] inline std::string axisLabelText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

[[nodiscard]] inline Rgba axisLabelColour() {
    return withAlpha(palette().kText, 140);
}

} // namespace orca::ui
