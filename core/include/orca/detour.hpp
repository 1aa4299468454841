#pragma once
/// \file detour.hpp
/// Detour flow field for static agents (orca-spec section 8, seed 003).
///
/// ORCA is local: an agent facing a cluster of static agents whose circles overlap slows down
/// and stalls. The detour field circulates clockwise around every static agent; an agent that
/// stalls far from its goal samples it and, while "detouring", hands ORCA the sampled
/// direction (at its preferred speed) instead of the straight line to its goal. A
/// single-direction rule (only directions counter-clockwise of v_pref, i.e. on its left) keeps
/// an agent from flipping sides.

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

/// Parameters of the detour behaviour (the scene's "detour" block). Off by default, so plain
/// scenes behave exactly like RVO2. Lengths in world units, times in seconds, speeds in
/// units/s. Zero for the sizes means "derive from the agents" (see each field).
struct DetourParams {
    /// Master switch.
    bool enabled = false;
    /// Field cell size (> 0); 0 = 0.4 × the median radius of the field's source agents.
    double cellSize = 0.0;
    /// Each source agent writes the cells whose centre is within this distance of it (> 0);
    /// 0 = its radius + 2 × the median agent radius (the band a moving agent's centre can reach
    /// while touching it, and one radius more).
    double influenceRadius = 0.0;
    /// Enter when the speed ORCA chose is below this fraction of the preferred speed ([0, 1]).
    double enterSpeedRatio = 0.25;
    /// ... and the goal is farther than this (>= 0; 0 = 4 × the agent's radius).
    double enterGoalDistance = 0.0;
    /// Sampling: the sample point lies this far from the agent toward its goal, and the cells
    /// within the same distance of it are averaged (>= 0; 0 = 2 × the agent's radius). One
    /// parameter drives both, as the seed suggests.
    double sampleDistance = 0.0;
    /// Leave when the detour direction is within this angle of v_pref (degrees, [0, 90]).
    double exitAlignedDegrees = 10.0;
    /// Leave when the goal is closer than this (>= 0; 0 = 2 × the agent's radius).
    double exitGoalDistance = 0.0;
    /// When the field sample is empty, estimate a direction from nearby static agents with the
    /// same rotation rule (the seed reports that agents then wander: off by default).
    bool neighborFallback = false;
    /// Agents that are not marked static also feed the field when they have no goal (or are at
    /// it) and have moved slower than `stillSpeed` for at least `stillSeconds`. Agents still
    /// heading for a goal never do: a stalled agent is the one that needs to detour.
    double stillSpeed = 0.05;
    double stillSeconds = 1.0;

    friend bool operator==(const DetourParams&, const DetourParams&) = default;
};

/// An agent's detour state.
enum class DetourMode : std::uint8_t {
    Normal,    ///< v_pref toward the goal
    Detouring, ///< v_pref = detour direction × |v_pref|
};

/// Why an agent last entered or left detour.
enum class DetourReason : std::uint8_t {
    None,
    Stalled,     ///< entered: ORCA's speed fell below the threshold far from the goal
    Clockwise,   ///< left: the detour direction lies clockwise of v_pref
    Aligned,     ///< left: the detour direction is nearly aligned with v_pref
    GoalNear,    ///< left: the goal is near
    EmptySample, ///< left: the field (and the fallback, if on) gave no direction
    Disabled,    ///< left: detour switched off
};
[[nodiscard]] std::string_view toString(DetourMode m);
[[nodiscard]] std::string_view toString(DetourReason r);

/// The flow field: a sparse grid of summed clockwise-circulation vectors. Cells are stored in
/// tiles of 16 × 16 cells, created only where a source's influence reaches, so memory and build
/// time follow the static agents, never the world's empty area.
class DetourField {
  public:
    /// Rebuilds from scratch: every source adds normalize(perp(center − cellCenter)) to each
    /// cell whose centre lies within `influence[i]` of `centers[i]` (not to a cell centred
    /// exactly on it, which has no direction). Sources are added in the order given, so the
    /// sums are deterministic.
    void build(std::span<const Vec2> centers, std::span<const double> influence, double cellSize);
    void clear();

    /// Sum of the vectors of the cells whose centre lies within `radius` of `point`, divided
    /// by the number of those cells (zero when none, or when they cancel out).
    [[nodiscard]] Vec2 sample(Vec2 point, double radius) const;

    /// The vector of the cell containing `point` (zero when no source reaches it).
    [[nodiscard]] Vec2 at(Vec2 point) const;

    [[nodiscard]] double cellSize() const { return m_cellSize; }
    /// Number of cells a source wrote.
    [[nodiscard]] std::size_t cellCount() const { return m_cellCount; }
    [[nodiscard]] bool empty() const { return m_cellCount == 0; }

    /// One written cell: its integer coordinates and vector.
    struct Cell {
        std::int32_t cx;
        std::int32_t cy;
        Vec2 vector;
    };
    /// Calls f(const Cell&) for every written cell (tile by tile).
    template <class F> void forEachCell(F&& f) const;
    /// Calls f(const Cell&) for every written cell whose coordinates lie in [x0,x1]×[y0,y1].
    template <class F>
    void forEachCellIn(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1,
                       F&& f) const;
    /// Centre of cell (cx, cy) in world units.
    [[nodiscard]] Vec2 cellCenter(std::int32_t cx, std::int32_t cy) const {
        return {(cx + 0.5) * m_cellSize, (cy + 0.5) * m_cellSize};
    }
    /// The cell containing a world coordinate.
    [[nodiscard]] std::int32_t coord(double v) const;

  private:
    static constexpr int kTileShift = 4; ///< 16 × 16 cells per tile
    static constexpr std::int32_t kTileSide = 1 << kTileShift;
    static constexpr std::size_t kTileCells = std::size_t(kTileSide) * kTileSide;
    struct Tile {
        std::int32_t tx = 0;
        std::int32_t ty = 0;
        std::uint64_t written[kTileCells / 64] = {}; ///< which cells a source wrote
        Vec2 vector[kTileCells];
    };
    [[nodiscard]] const Tile* findTile(std::int32_t tx, std::int32_t ty) const;
    Tile& tile(std::int32_t tx, std::int32_t ty);
    void rehash(std::size_t capacity);
    static std::size_t local(std::int32_t cx, std::int32_t cy) {
        return std::size_t(cx & (kTileSide - 1)) |
               (std::size_t(cy & (kTileSide - 1)) << kTileShift);
    }

    double m_cellSize = 1.0;
    std::size_t m_cellCount = 0;
    std::vector<Tile> m_tiles;          ///< in order of creation
    std::vector<std::uint32_t> m_table; ///< open addressing: tile index + 1, 0 = empty
    std::size_t m_mask = 0;
};

template <class F> void DetourField::forEachCell(F&& f) const {
    for (const Tile& t : m_tiles) {
        for (std::size_t k = 0; k < kTileCells; ++k) {
            if (!((t.written[k >> 6] >> (k & 63)) & 1u)) continue;
            const Cell c{(t.tx << kTileShift) | std::int32_t(k & (kTileSide - 1)),
                         (t.ty << kTileShift) | std::int32_t(k >> kTileShift), t.vector[k]};
            f(c);
        }
    }
}

template <class F>
void DetourField::forEachCellIn(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1,
                                F&& f) const {
    for (std::int32_t ty = y0 >> kTileShift; ty <= (y1 >> kTileShift); ++ty) {
        for (std::int32_t tx = x0 >> kTileShift; tx <= (x1 >> kTileShift); ++tx) {
            const Tile* t = findTile(tx, ty);
            if (!t) continue;
            const std::int32_t cx0 = std::max(x0, tx << kTileShift);
            const std::int32_t cx1 = std::min(x1, (tx << kTileShift) + kTileSide - 1);
            const std::int32_t cy0 = std::max(y0, ty << kTileShift);
            const std::int32_t cy1 = std::min(y1, (ty << kTileShift) + kTileSide - 1);
            for (std::int32_t cy = cy0; cy <= cy1; ++cy) {
                for (std::int32_t cx = cx0; cx <= cx1; ++cx) {
                    const std::size_t k = local(cx, cy);
                    if ((t->written[k >> 6] >> (k & 63)) & 1u) f(Cell{cx, cy, t->vector[k]});
                }
            }
        }
    }
}

/// The single-direction rule: true when `dir` lies in the half-plane counter-clockwise of
/// `prefVelocity` (strictly left of it).
[[nodiscard]] inline bool isCounterClockwiseOf(Vec2 prefVelocity, Vec2 dir) {
    return det(prefVelocity, dir) > 0.0;
}

} // namespace orca
