#include "orca/detour.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace orca {

std::string_view toString(DetourMode m) {
    switch (m) {
    case DetourMode::Normal:
        return "normal";
    case DetourMode::Detouring:
        return "detouring";
    }
    return "unknown";
}

std::string_view toString(DetourReason r) {
    switch (r) {
    case DetourReason::None:
        return "none";
    case DetourReason::Stalled:
        return "stalled";
    case DetourReason::Clockwise:
        return "clockwise";
    case DetourReason::Aligned:
        return "aligned";
    case DetourReason::GoalNear:
        return "goal-near";
    case DetourReason::EmptySample:
        return "empty-sample";
    case DetourReason::Disabled:
        return "disabled";
    }
    return "unknown";
}

namespace {

std::size_t hashTile(std::int32_t tx, std::int32_t ty) {
    const std::uint64_t key = (std::uint64_t(std::uint32_t(tx)) << 32) | std::uint32_t(ty);
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32);
}

} // namespace

std::int32_t DetourField::coord(double v) const {
    const double f = std::floor(v / m_cellSize);
    const double c = f > -1.0e9 ? std::min(f, 1.0e9) : -1.0e9; // NaN -> -1e9, no UB cast
    return static_cast<std::int32_t>(c);
}

void DetourField::clear() {
    m_tiles.clear();
    std::fill(m_table.begin(), m_table.end(), 0u);
    m_cellCount = 0;
}

void DetourField::rehash(std::size_t capacity) {
    m_table.assign(capacity, 0u);
    m_mask = capacity - 1;
    for (std::size_t k = 0; k < m_tiles.size(); ++k) {
        std::size_t s = hashTile(m_tiles[k].tx, m_tiles[k].ty) & m_mask;
        while (m_table[s] != 0)
            s = (s + 1) & m_mask;
        m_table[s] = static_cast<std::uint32_t>(k + 1);
    }
}

const DetourField::Tile* DetourField::findTile(std::int32_t tx, std::int32_t ty) const {
    if (m_table.empty()) return nullptr;
    std::size_t s = hashTile(tx, ty) & m_mask;
    for (;;) {
        const std::uint32_t k = m_table[s];
        if (k == 0) return nullptr;
        const Tile& t = m_tiles[k - 1];
        if (t.tx == tx && t.ty == ty) return &t;
        s = (s + 1) & m_mask;
    }
}

DetourField::Tile& DetourField::tile(std::int32_t tx, std::int32_t ty) {
    if (2 * (m_tiles.size() + 1) > m_table.size())
        rehash(std::bit_ceil(std::max<std::size_t>(64, 4 * (m_tiles.size() + 1))));
    std::size_t s = hashTile(tx, ty) & m_mask;
    for (;;) {
        const std::uint32_t k = m_table[s];
        if (k == 0) break;
        Tile& t = m_tiles[k - 1];
        if (t.tx == tx && t.ty == ty) return t;
        s = (s + 1) & m_mask;
    }
    Tile& t = m_tiles.emplace_back();
    t.tx = tx;
    t.ty = ty;
    std::fill(std::begin(t.vector), std::end(t.vector), Vec2(0.0));
    m_table[s] = static_cast<std::uint32_t>(m_tiles.size());
    return t;
}

void DetourField::build(std::span<const Vec2> centers, std::span<const double> influence,
                        double cellSize) {
    m_cellSize = cellSize > 0.0 ? cellSize : 1.0;
    clear();
    for (std::size_t i = 0; i < centers.size(); ++i) {
        const Vec2 c = centers[i];
        const double r = influence[i];
        const double rSq = r * r;
        const std::int32_t y0 = coord(c.y - r), y1 = coord(c.y + r);
        const std::int32_t x0 = coord(c.x - r), x1 = coord(c.x + r);
        for (std::int32_t cy = y0; cy <= y1; ++cy) {
            Tile* t = nullptr;
            std::int32_t tileX = 0;
            for (std::int32_t cx = x0; cx <= x1; ++cx) {
                const Vec2 toAgent = c - cellCenter(cx, cy);
                const double dSq = absSq(toAgent);
                if (dSq > rSq || dSq == 0.0) continue;
                if (!t || (cx >> kTileShift) != tileX) {
                    tileX = cx >> kTileShift;
                    t = &tile(tileX, cy >> kTileShift); // may move tiles: refetched per row
                }
                const std::size_t k = local(cx, cy);
                const std::uint64_t bit = std::uint64_t{1} << (k & 63);
                if (!(t->written[k >> 6] & bit)) {
                    t->written[k >> 6] |= bit;
                    ++m_cellCount;
                }
                // Clockwise circulation around the agent: the direction from the cell centre
                // to the agent, rotated 90° counter-clockwise.
                t->vector[k] += perp(toAgent) / std::sqrt(dSq);
            }
        }
    }
}

Vec2 DetourField::at(Vec2 point) const {
    const std::int32_t cx = coord(point.x), cy = coord(point.y);
    const Tile* t = findTile(cx >> kTileShift, cy >> kTileShift);
    if (!t) return Vec2(0.0);
    return t->vector[local(cx, cy)];
}

Vec2 DetourField::sample(Vec2 point, double radius) const {
    if (m_cellCount == 0) return Vec2(0.0);
    const double rSq = radius * radius;
    Vec2 sum(0.0);
    std::size_t count = 0;
    forEachCellIn(coord(point.x - radius), coord(point.y - radius), coord(point.x + radius),
                  coord(point.y + radius), [&](const Cell& c) {
                      if (absSq(cellCenter(c.cx, c.cy) - point) > rSq) return;
                      sum += c.vector;
                      ++count;
                  });
    return count ? sum / static_cast<double>(count) : Vec2(0.0);
}

} // namespace orca
