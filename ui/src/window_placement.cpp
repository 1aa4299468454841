#include "orca/ui/window_placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

// FindWindowByName and the window list: ImGui 1.86's public API can neither tell whether a
// window exists before its Begin() nor list the other windows' rectangles (GetWindowPos and
// GetWindowSize read only the current window), and both are needed to open a window beside
// the others, before it exists.
#include <imgui_internal.h>

#include "orca/ui/style.hpp"

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

Rect chooseWindowRect(const Rect& area, Vec2 size, Vec2 minSize, const CrowdDensity& crowd,
                      std::span<const Rect> taken, double margin) {
    const Vec2 room = area.size() - Vec2(2.0 * margin);
    if (!(room.x >= 1.0) || !(room.y >= 1.0)) return {area.min, area.min + size};
    size = {std::clamp(size.x, 1.0, room.x), std::clamp(size.y, 1.0, room.y)};
    minSize = {std::clamp(minSize.x, 1.0, size.x), std::clamp(minSize.y, 1.0, size.y)};
    const double left = area.min.x + margin;
    const double top = area.min.y + margin;
    const double right = area.max.x - margin;
    const double bottom = area.max.y - margin;
    std::vector<Rect> blocked; // the other windows, with half a margin around them
    blocked.reserve(taken.size());
    for (const Rect& t : taken)
        blocked.push_back(t.expanded(margin * 0.5));
    auto isFree = [&](const Rect& r) {
        return std::none_of(blocked.begin(), blocked.end(),
                            [&](const Rect& b) { return overlapArea(r, b) > 0.0; });
    };

    // Top-left corners: down the left and the right edge, beside and below the other windows,
    // along the bottom, and the corners the other windows leave free.
    std::vector<Vec2> anchors;
    const int steps = 6;
    for (const double x : {left, right - size.x})
        for (int k = 0; k <= steps; ++k)
            anchors.push_back({x, top + (bottom - size.y - top) * k / steps});
    for (const Rect& t : taken) {
        anchors.push_back({t.min.x, t.max.y + margin});          // below it
        anchors.push_back({t.max.x + margin, t.min.y});          // right of it
        anchors.push_back({t.min.x - margin - size.x, t.min.y}); // left of it
        anchors.push_back({t.max.x + margin, top});              // right of it, at the top
        anchors.push_back({left, t.max.y + margin});             // below it, at the left
    }
    for (int k = 1; k < steps; ++k)
        anchors.push_back({left + (right - size.x - left) * k / steps, bottom - size.y});

    // 1. The whole window beside the others, over the fewest agents.
    std::optional<Rect> best;
    double bestScore = std::numeric_limits<double>::infinity();
    for (Vec2 c : anchors) {
        c = {std::clamp(c.x, left, right - size.x), std::clamp(c.y, top, bottom - size.y)};
        const Rect r{c, c + size};
        if (!isFree(r)) continue;
        const double score = crowd.covered(r);
        if (score < bestScore - 1e-9) {
            bestScore = score;
            best = r;
        }
    }
    if (best) return *best;

    // 2. Smaller, into the largest free place: from each corner the window grows right and
    // down until it meets another window (cut at whichever side keeps more of it).
    double bestArea = 0.0;
    for (Vec2 c : anchors) {
        c = {std::clamp(c.x, left, right - minSize.x), std::clamp(c.y, top, bottom - minSize.y)};
        Rect r{c, {std::min(c.x + size.x, right), std::min(c.y + size.y, bottom)}};
        bool ok = true;
        for (std::size_t pass = 0; ok && pass <= blocked.size(); ++pass) {
            bool cut = false;
            for (const Rect& b : blocked) {
                if (overlapArea(r, b) <= 0.0) continue;
                const double w = b.min.x - c.x; // width left of it
                const double h = b.min.y - c.y; // height above it
                const bool cutW = w >= minSize.x;
                const bool cutH = h >= minSize.y;
                if (!cutW && !cutH) {
                    ok = false;
                    break;
                }
                const double areaW = cutW ? w * r.size().y : -1.0;
                const double areaH = cutH ? r.size().x * h : -1.0;
                if (areaW >= areaH)
                    r.max.x = c.x + w;
                else
                    r.max.y = c.y + h;
                cut = true;
            }
            if (!cut) break;
        }
        if (!ok || !isFree(r)) continue;
        const double a = r.size().x * r.size().y;
        if (a > bestArea + 1e-9 ||
            (a > bestArea - 1e-9 && best && crowd.covered(r) < crowd.covered(*best) - 1e-9)) {
            bestArea = a;
            best = r;
        }
    }
    if (best) return *best;

    // 3. No room: the least bad place.
    const Vec2 p = chooseWindowPos(area, size, crowd, taken, margin);
    return {p, p + size};
}

float uiScaleFactor() {
    return uiScale();
}

std::vector<Rect> visibleWindowRects(const char* except) {
    std::vector<Rect> out;
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return out;
    const ImGuiWindow* skip = except ? ImGui::FindWindowByName(except) : nullptr;
    for (const ImGuiWindow* w : g->Windows) {
        // (A window in its first frame is hidden while ImGui sizes it, but it is placed.)
        if (w == skip || !(w->Active || w->WasActive) || w->IsFallbackWindow ||
            (w->Flags & ImGuiWindowFlags_ChildWindow) || (w->Flags & ImGuiWindowFlags_Tooltip) ||
            (w->Flags & ImGuiWindowFlags_Popup))
            continue;
        out.push_back({{w->Pos.x, w->Pos.y}, {w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}});
    }
    return out;
}

std::vector<WindowInfo> listWindows() {
    std::vector<WindowInfo> out;
    ImGuiContext* g = ImGui::GetCurrentContext();
    if (!g) return out;
    for (const ImGuiWindow* w : g->Windows) {
        if (w->IsFallbackWindow || (w->Flags & ImGuiWindowFlags_ChildWindow) ||
            (w->Flags & ImGuiWindowFlags_Tooltip) ||
            ((w->Flags & ImGuiWindowFlags_Popup) && !(w->Flags & ImGuiWindowFlags_Modal)))
            continue;
        std::string name = w->Name;
        const auto id = name.find("###");
        if (id != std::string::npos && id > 0) name.resize(id);
        out.push_back({std::move(name),
                       w->Active && !w->Hidden,
                       {{w->Pos.x, w->Pos.y}, {w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}}});
    }
    return out;
}

Rect largestPartBeside(const Rect& view, const Rect& window) {
    if (window.isEmpty() || overlapArea(view, window) <= 0.0) return view;
    const Rect parts[] = {
        {view.min, {window.min.x, view.max.y}}, // left of it
        {{window.max.x, view.min.y}, view.max}, // right of it
        {view.min, {view.max.x, window.min.y}}, // above it
        {{view.min.x, window.max.y}, view.max}, // below it
    };
    Rect best = Rect::empty();
    double bestArea = -1.0;
    for (const Rect& p : parts) {
        const Vec2 s = p.size();
        const double a = s.x > 0.0 && s.y > 0.0 ? s.x * s.y : 0.0;
        if (a > bestArea) {
            bestArea = a;
            best = p;
        }
    }
    return bestArea > 0.0 ? best : view;
}

std::optional<Rect> shownWindowRect(const char* name) {
    if (!ImGui::GetCurrentContext()) return std::nullopt;
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    if (!w || !(w->Active || w->WasActive) || w->Hidden) return std::nullopt;
    return Rect{{w->Pos.x, w->Pos.y}, {w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}};
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
    if (!ImGui::GetCurrentContext()) return;
    const PlacementView& v = placementView();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const Rect area = v.set ? v.area : Rect{{0.0, 0.0}, {display.x, display.y}};
    constexpr double kMargin = 10.0;
    // No window larger than the view (a 4K layout opened on a projector, a small window).
    const auto maxW = static_cast<float>(std::max(area.size().x - 2.0 * kMargin, 120.0));
    const auto maxH = static_cast<float>(std::max(area.size().y - 2.0 * kMargin, 120.0));
    ImGui::SetNextWindowSizeConstraints({std::min(120.0f, maxW), std::min(80.0f, maxH)},
                                        {maxW, maxH});
    if (ImGui::FindWindowByName(name)) return;
    const float scale = uiScaleFactor();
    const bool autoHeight = size.y <= 0.0f;
    const Vec2 want{size.x * scale, (autoHeight ? 300.0f : size.y) * scale};
    if (!v.set) {
        ImGui::SetNextWindowPos(fallback, ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize({std::min(static_cast<float>(want.x), maxW),
                                  autoHeight ? 0.0f : std::min(static_cast<float>(want.y), maxH)},
                                 ImGuiCond_FirstUseEver);
        return;
    }
    const std::vector<Rect> taken = visibleWindowRects(name);
    const CrowdDensity crowd = v.crowd ? v.crowd() : CrowdDensity{};
    // Smaller than 200 x 150 (at 100 %) it is of no use.
    const Vec2 minSize{std::min(want.x, 200.0 * scale), std::min(want.y, 150.0 * scale)};
    const Rect r = chooseWindowRect(area, want, minSize, crowd, taken, kMargin);
    ImGui::SetNextWindowPos({static_cast<float>(r.min.x), static_cast<float>(r.min.y)},
                            ImGuiCond_FirstUseEver);
    // An auto-sized window keeps its height automatic unless it had to shrink.
    const bool shrunk = r.size().y < want.y - 0.5;
    ImGui::SetNextWindowSize({static_cast<float>(r.size().x),
                              autoHeight && !shrunk ? 0.0f : static_cast<float>(r.size().y)},
                             ImGuiCond_FirstUseEver);
}

} // namespace orca::ui
