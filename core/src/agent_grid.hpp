#pragma once
// Spatial hash grid over agents, rebuilt every step. Only occupied cells cost memory, so the
// index does not grow with the world's empty area. Items are stored cell by cell with a copy
// of what neighbour queries read (position, velocity, radius), so a query scans contiguous
// memory.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "orca/geometry.hpp"

namespace orca::detail {

/// One neighbour candidate: squared distance and agent index (ties broken by index).
struct Neighbor {
    double distSq;
    std::uint32_t agent; ///< dense agent index
    std::uint32_t item;  ///< index into AgentGrid's item arrays
};

class AgentGrid {
public:
    /// Rebuilds the grid from dense agent arrays. `cellSize` > 0 (world units).
    void build(std::span<const Vec2> pos, std::span<const Vec2> vel,
               std::span<const double> radius, double cellSize);

    /// The (up to) `maxNeighbors` agents nearest to `p` with squared distance < `rangeSq`,
    /// excluding agent `self`, sorted by (distSq, agent index). Replaces `out`'s contents.
    void nearest(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                 std::vector<Neighbor>& out) const;

    /// Calls f(agentIndex, item) for every agent whose cell overlaps the square of half-size
    /// `range` around p (a superset of the agents within `range`).
    template <class F> void forEachNear(Vec2 p, double range, F&& f) const;

    [[nodiscard]] Vec2 itemPosition(std::uint32_t item) const { return m_itemPos[item]; }
    [[nodiscard]] Vec2 itemVelocity(std::uint32_t item) const { return m_itemVel[item]; }
    [[nodiscard]] double itemRadius(std::uint32_t item) const { return m_itemRadius[item]; }
    [[nodiscard]] std::uint32_t itemAgent(std::uint32_t item) const { return m_itemAgent[item]; }
    [[nodiscard]] std::size_t memoryBytes() const;

private:
    struct Cell {
        std::uint64_t key;
        std::uint32_t start;
        std::uint32_t count;
    };
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

    // Cell coordinates are biased by 2^31 so that no cell (|c| <= 1e9) maps to kEmpty.
    [[nodiscard]] static std::uint64_t makeKey(std::int32_t cx, std::int32_t cy) {
        return (std::uint64_t(std::uint32_t(cx) ^ 0x80000000u) << 32) |
               (std::uint32_t(cy) ^ 0x80000000u);
    }
    [[nodiscard]] std::size_t slotOf(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> m_shift);
    }
    [[nodiscard]] const Cell* find(std::int32_t cx, std::int32_t cy) const;
    [[nodiscard]] std::int32_t cellCoord(double v) const;

    double m_cellSize = 1.0;
    double m_invCellSize = 1.0;
    int m_shift = 60;
    std::size_t m_mask = 0;
    std::vector<Cell> m_table;
    std::vector<std::uint32_t> m_occupied; ///< table slots in use
    std::vector<std::uint32_t> m_agentSlot; ///< per agent: its cell's table slot
    std::vector<Vec2> m_itemPos;
    std::vector<Vec2> m_itemVel;
    std::vector<double> m_itemRadius;
    std::vector<std::uint32_t> m_itemAgent;
};

inline std::int32_t AgentGrid::cellCoord(double v) const {
    // Coordinates are bounded by validation (|x| <= 1e7 in scenes), but clamp so that no
    // input can overflow the conversion.
    const double c = std::floor(v * m_invCellSize);
    return static_cast<std::int32_t>(std::clamp(c, -1.0e9, 1.0e9));
}

inline const AgentGrid::Cell* AgentGrid::find(std::int32_t cx, std::int32_t cy) const {
    const std::uint64_t key = makeKey(cx, cy);
    std::size_t s = slotOf(key);
    for (;;) {
        const Cell& c = m_table[s];
        if (c.key == key) return &c;
        if (c.key == kEmpty) return nullptr;
        s = (s + 1) & m_mask;
    }
}

template <class F> void AgentGrid::forEachNear(Vec2 p, double range, F&& f) const {
    if (m_table.empty()) return;
    const std::int32_t x0 = cellCoord(p.x - range), x1 = cellCoord(p.x + range);
    const std::int32_t y0 = cellCoord(p.y - range), y1 = cellCoord(p.y + range);
    const double boxCells = (double(x1) - x0 + 1.0) * (double(y1) - y0 + 1.0);
    if (boxCells > double(m_occupied.size())) {
        // A huge range: cheaper to walk the occupied cells than the box.
        for (std::uint32_t slot : m_occupied) {
            const Cell& c = m_table[slot];
            const auto cx = static_cast<std::int32_t>(std::uint32_t(c.key >> 32) ^ 0x80000000u);
            const auto cy = static_cast<std::int32_t>(std::uint32_t(c.key) ^ 0x80000000u);
            if (cx < x0 || cx > x1 || cy < y0 || cy > y1) continue;
            for (std::uint32_t k = c.start; k < c.start + c.count; ++k) f(m_itemAgent[k], k);
        }
        return;
    }
    for (std::int32_t cy = y0; cy <= y1; ++cy) {
        for (std::int32_t cx = x0; cx <= x1; ++cx) {
            const Cell* c = find(cx, cy);
            if (!c) continue;
            for (std::uint32_t k = c->start; k < c->start + c->count; ++k) f(m_itemAgent[k], k);
        }
    }
}

} // namespace orca::detail
