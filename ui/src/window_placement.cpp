#include "orca/ui/window_placement.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

// FindWindowByName and the window list: ImGui 1.86's public API can neither tell whether a
// window exists before its Begin() nor list the other windows' rectangles (GetWindowPos and
// GetWindowSize read only the current window), and both are needed to open a window beside
// the others, before it exists.
#include <imgui_internal.h>

namespace orca::ui {

namespace {

double overlapArea(const Rect& a, const Rect& b) {
    const double w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
    const double h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
    return w > 0.0 && h > 0.0 ? w * h : 0.0;
}

struct PlacementView {
    bool set = false;
    Rect area;
    std::function<CrowdDensity()> crowd;
};
PlacementView& placementView() {
    static PlacementView v;
    return v;
}

} // namespace

CrowdDensity CrowdDensity::build(const Rect& area, std::span<const Vec2> screenPoints, int cols,
                                 int rows) {
    CrowdDensity d;
    d.area = area;
    d.cols = std::max(cols, 1);
    d.rows = std::max(rows, 1);
    d.counts.assign(static_cast<std::size_t>(d.cols) * static_cast<std::size_t>(d.rows), 0);
    const Vec2 size = area.size();
    if (!(size.x > 0.0) || !(size.y > 0.0)) return d;
    for (const Vec2& p : screenPoints) {
        if (!area.contains(p)) continue;
        const int cx = std::min(static_cast<int>((p.x - area.min.x) / size.x * d.cols), d.cols - 1);
        const int cy = std::min(static_cast<int>((p.y - area.min.y) / size.y * d.rows), d.rows - 1);
        ++d.counts[static_cast<std::size_t>(cy) * static_cast<std::size_t>(d.cols) +
                   static_cast<std::size_t>(cx)];
    }
    return d;
}

double CrowdDensity::covered(const Rect& r) const {
    const Vec2 size = area.size();
    if (counts.empty() || !(size.x > 0.0) || !(size.y > 0.0)) return 0.0;
    const double cw = size.x / cols;
    const double ch = size.y / rows;
    const int x0 =
        std::clamp(static_cast<int>(std::floor((r.min.x - area.min.x) / cw)), 0, cols - 1);
    const int x1 =
        std::clamp(static_cast<int>(std::floor((r.max.x - area.min.x) / cw)), 0, cols - 1);
    const int y0 =
        std::clamp(static_cast<int>(std::floor((r.min.y - area.min.y) / ch)), 0, rows - 1);
    const int y1 =
        std::clamp(static_cast<int>(std::floor((r.max.y - area.min.y) / ch)), 0, rows - 1);
    double sum = 0.0;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            const std::uint32_t n =
                counts[static_cast<std::size_t>(y) * static_cast<std::size_t>(cols) +
                       static_cast<std::size_t>(x)];
            if (n == 0) continue;
            const Rect cell{{area.min.x + x * cw, area.min.y + y * ch},
                            {area.min.x + (x + 1) * cw, area.min.y + (y + 1) * ch}};
            sum += n * overlapArea(cell, r) / (cw * ch);
        }
    }
    return sum;
}

Vec2 chooseWindowPos(const Rect& area, Vec2 size, const CrowdDensity& crowd,
                     std::span<const Rect> taken, double margin) {
    const double left = area.min.x + margin;
    const double right = area.max.x - margin - size.x;
    const double top = area.min.y + margin;
    const double bottom = area.max.y - margin - size.y;
    if (right < left || bottom < top) return area.min;

    std::vector<Vec2> cands;
    const int steps = 6;
    for (const double x : {left, right})
        for (int k = 0; k <= steps; ++k)
            cands.push_back({x, top + (bottom - top) * k / steps});
    for (const Rect& t : taken) {
        cands.push_back({t.min.x, t.max.y + margin});          // below it
        cands.push_back({t.max.x + margin, t.min.y});          // right of it
        cands.push_back({t.min.x - margin - size.x, t.min.y}); // left of it
    }
    for (int k = 1; k < steps; ++k)
        cands.push_back({left + (right - left) * k / steps, bottom});

    // One agent covered outweighs any overlap with other windows (they can be moved; the
    // crowd is what the user is looking at).
    constexpr double kWindowWeight = 0.5;
    Vec2 best = {left, top};
    double bestScore = std::numeric_limits<double>::infinity();
    for (const Vec2& c : cands) {
        if (c.x < left - 1e-9 || c.x > right + 1e-9 || c.y < top - 1e-9 || c.y > bottom + 1e-9)
            continue;
        const Rect r{c, c + size};
        double windows = 0.0;
        for (const Rect& t : taken)
            windows += overlapArea(r, t.expanded(margin * 0.5));
        const double score = crowd.covered(r) + kWindowWeight * windows / (size.x * size.y);
        if (score < bestScore - 1e-9) {
            bestScore = score;
            best = c;
        }
    }
    return best;
}

Rect uncoveredArea(const Rect& view, const Rect& panel) {
    if (panel.isEmpty() || !panel.intersects(view)) return view;
    const double overlapH = std::min(view.max.y, panel.max.y) - std::max(view.min.y, panel.min.y);
    if (overlapH < 0.5 * view.size().y) return view;
    const double leftW = panel.min.x - view.min.x;  // room left of the panel
    const double rightW = view.max.x - panel.max.x; // room right of it
    constexpr double kEdge = 8.0;                   // "reaches the edge": within a few pixels
    const bool atRight = rightW <= kEdge;
    const bool atLeft = leftW <= kEdge;
    if (atRight && leftW > rightW && leftW > 0.0) return {view.min, {panel.min.x, view.max.y}};
    if (atLeft && rightW > leftW && rightW > 0.0) return {{panel.max.x, view.min.y}, view.max};
    return view;
}

void setWindowPlacementView(const Rect& area, std::function<CrowdDensity()> crowd) {
    PlacementView& v = placementView();
    v.set = true;
    v.area = area;
    v.crowd = std::move(crowd);
}

void placeNewWindow(const char* name, ImVec2 size, ImVec2 fallback) {
    const PlacementView& v = placementView();
    if (!v.set || ImGui::FindWindowByName(name) || !ImGui::GetCurrentContext()) {
        ImGui::SetNextWindowPos(fallback, ImGuiCond_FirstUseEver);
        return;
    }
    if (size.y <= 0.0f) size.y = 300.0f;
    std::vector<Rect> taken;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
        if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow) ||
            (w->Flags & ImGuiWindowFlags_Tooltip) || (w->Flags & ImGuiWindowFlags_Popup))
            continue;
        taken.push_back({{w->Pos.x, w->Pos.y}, {w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}});
    }
    const CrowdDensity crowd = v.crowd ? v.crowd() : CrowdDensity{};
    const Vec2 p = chooseWindowPos(v.area, {size.x, size.y}, crowd, taken);
    ImGui::SetNextWindowPos({static_cast<float>(p.x), static_cast<float>(p.y)},
                            ImGuiCond_FirstUseEver);
}

} // namespace orca::ui
