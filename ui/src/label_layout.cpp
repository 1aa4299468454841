#include "orca/ui/label_layout.hpp"

#include <algorithm>
#include <numeric>

namespace orca::ui {

namespace {

constexpr LabelSide kSideOrder[] = {
    LabelSide::Right,      LabelSide::Left,      LabelSide::Above,      LabelSide::Below,
    LabelSide::AboveRight, LabelSide::AboveLeft, LabelSide::BelowRight, LabelSide::BelowLeft,
};

Rect at(Vec2 anchor, Vec2 size, LabelSide side, double d) {
    const double w = size.x;
    const double h = size.y;
    const double dd = d * 0.7; // diagonals: about the same distance from the anchor
    Vec2 m;
    switch (side) {
    case LabelSide::Right:
        m = {anchor.x + d, anchor.y - 0.5 * h};
        break;
    case LabelSide::Left:
        m = {anchor.x - d - w, anchor.y - 0.5 * h};
        break;
    case LabelSide::Above:
        m = {anchor.x - 0.5 * w, anchor.y - d - h};
        break;
    case LabelSide::Below:
        m = {anchor.x - 0.5 * w, anchor.y + d};
        break;
    case LabelSide::AboveRight:
        m = {anchor.x + dd, anchor.y - dd - h};
        break;
    case LabelSide::AboveLeft:
        m = {anchor.x - dd - w, anchor.y - dd - h};
        break;
    case LabelSide::BelowRight:
        m = {anchor.x + dd, anchor.y + dd};
        break;
    case LabelSide::BelowLeft:
        m = {anchor.x - dd - w, anchor.y + dd};
        break;
    }
    return {m, m + size};
}

bool inside(const Rect& r, const Rect& bounds) {
    return r.min.x >= bounds.min.x && r.min.y >= bounds.min.y && r.max.x <= bounds.max.x &&
           r.max.y <= bounds.max.y;
}

bool strictlyContains(const Rect& r, Vec2 p) {
    return p.x > r.min.x && p.x < r.max.x && p.y > r.min.y && p.y < r.max.y;
}

} // namespace

bool rectsOverlap(const Rect& a, const Rect& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

std::vector<Rect> labelCandidates(Vec2 anchor, Vec2 size, LabelSide preferred, double gap,
                                  std::size_t* leaderFrom) {
    // Three rings: beside the anchor, then one and two and a half text heights farther (those
    // get a leader line, so the label still points at its anchor).
    const double h = std::max(size.y, 1.0);
    const double rings[] = {gap, gap + 1.2 * h, gap + 2.6 * h};
    std::vector<Rect> out;
    out.reserve(3 * std::size(kSideOrder));
    for (std::size_t ring = 0; ring < std::size(rings); ++ring) {
        if (ring == 1 && leaderFrom) *leaderFrom = out.size();
        out.push_back(at(anchor, size, preferred, rings[ring]));
        for (const LabelSide s : kSideOrder)
            if (s != preferred) out.push_back(at(anchor, size, s, rings[ring]));
    }
    return out;
}

void LabelLayout::clear() {
    m_requests.clear();
    m_reserved.clear();
    m_placed.clear();
}

std::size_t LabelLayout::add(LabelRequest r) {
    m_requests.push_back(std::move(r));
    return m_requests.size() - 1;
}

void LabelLayout::reserve(const Rect& r) {
    m_reserved.push_back(r);
}

const std::string& LabelLayout::textOf(const PlacedLabel& p) const {
    const LabelRequest& r = m_requests[p.request];
    return p.abbreviated ? r.shortText : r.text;
}

void LabelLayout::place(const Rect& bounds) {
    m_placed.clear();
    std::vector<std::size_t> order(m_requests.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return m_requests[a].priority > m_requests[b].priority;
    });

    auto free = [&](const Rect& r) {
        if (!inside(r, bounds)) return false;
        const Rect padded = r.expanded(padding);
        for (const Rect& q : m_reserved)
            if (rectsOverlap(padded, q)) return false;
        for (const PlacedLabel& p : m_placed)
            if (rectsOverlap(padded, p.rect)) return false;
        return true;
    };
    // A label should not hide another label's anchor (an arrow tip): preferred, not required.
    auto coversAnchor = [&](const Rect& r, std::size_t self) {
        for (std::size_t k = 0; k < m_requests.size(); ++k)
            if (k != self && !m_requests[k].fixed && strictlyContains(r, m_requests[k].anchor))
                return true;
        return false;
    };

    for (const std::size_t i : order) {
        const LabelRequest& req = m_requests[i];
        if (req.fixed) {
            const Rect r{req.fixedAt, req.fixedAt + req.size};
            if (free(r)) m_placed.push_back({i, r, false, false});
            continue;
        }
        bool done = false;
        for (const bool abbreviated : {false, true}) {
            if (abbreviated && req.shortText.empty()) break;
            const Vec2 size = abbreviated ? req.shortSize : req.size;
            std::size_t leaderFrom = 0;
            const std::vector<Rect> cands =
                labelCandidates(req.anchor, size, req.side, gap, &leaderFrom);
            for (const bool strict : {true, false}) {
                for (std::size_t c = 0; c < cands.size(); ++c) {
                    if (!free(cands[c]) || (strict && coversAnchor(cands[c], i))) continue;
                    m_placed.push_back({i, cands[c], abbreviated, c >= leaderFrom});
                    done = true;
                    break;
                }
                if (done) break;
            }
            if (done) break;
        }
    }
}

} // namespace orca::ui
