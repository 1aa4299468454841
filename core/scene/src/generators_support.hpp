#pragma once
// The generators' insides shared by their two files (private to orca_scene):
//  - the argument checks with their messages, and appendNote (generators.cpp);
//  - the clearance test against the surroundings: Box, BoxIndex and Clearance, checkSurroundings
//    and keepClear (generators_surroundings.cpp).
// The functions are documented where they are defined.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "orca/scene/generators.hpp"

namespace orca::scene::gen {

// ---- Messages (generators.cpp) ----------------------------------------------------------------

[[nodiscard]] std::string number(double v);
[[nodiscard]] std::string number(Vec2 v);
[[noreturn]] void invalid(std::string_view generator, const std::string& message);
void requireFinite(std::string_view generator, std::string_view name, double v);
void requireFinite(std::string_view generator, std::string_view name, Vec2 v);
void requirePositive(std::string_view generator, std::string_view name, double v);
void requireNonNegative(std::string_view generator, std::string_view name, double v);
void requireCount(std::string_view generator, std::string_view name, std::int64_t v,
                  std::int64_t max);
void requireWithinSceneLimits(std::string_view generator, const std::vector<SceneAgent>& agents);
/// Appends `more` to `note`, after "; " when the note already says something.
void appendNote(std::string& note, const std::string& more);

// ---- Surroundings (generators_surroundings.cpp) -----------------------------------------------

/// An axis-aligned box, min <= max.
struct Box {
    Vec2 min;
    Vec2 max;
};

/// Items (given by their bounding boxes) found by point: a uniform grid over the box that holds
/// every query point, each item listed in every cell its box overlaps, so a point needs to look
/// at one cell only. Cells are as wide as the median item (an item no larger spans at most
/// 2×2 cells), but wide enough that there are at most about two cells per item and at most
/// kMaxCellsPerAxis along an axis, which bounds the memory for sparse, huge or thin areas.
/// Items spanning more than kMaxCellsPerItem cells (several times the median) go to a list
/// checked for every point instead, so a few huge ones cannot blow up the cell lists.
class BoxIndex {
  public:
    BoxIndex() = default;
    BoxIndex(const Box& area, const std::vector<Box>& boxes);

    /// Whether `blocks(i)` holds for an item i whose box may contain `p` (a point inside the
    /// area given at construction; points outside are clamped to its border cells).
    template <class F> [[nodiscard]] bool any(Vec2 p, F&& blocks) const {
        for (const std::uint32_t i : m_large)
            if (blocks(i)) return true;
        if (m_start.empty()) return false;
        const auto [x, y] = cellOf(p);
        const std::size_t c = index(x, y);
        for (std::uint32_t k = m_start[c]; k < m_start[c + 1]; ++k)
            if (blocks(m_items[k])) return true;
        return false;
    }

  private:
    static constexpr double kMaxCellsPerAxis = 1024.0;
    static constexpr std::ptrdiff_t kMaxCellsPerItem = 64;

    /// The cell of `p`, clamped to the grid. Monotonic in each coordinate, so a point inside an
    /// item's box falls in one of the cells between those of the box's corners.
    [[nodiscard]] std::pair<std::ptrdiff_t, std::ptrdiff_t> cellOf(Vec2 p) const {
        const auto clampCell = [](double t, std::ptrdiff_t cells) {
            if (!(t > 0.0)) return std::ptrdiff_t{0};
            if (t >= static_cast<double>(cells - 1)) return cells - 1;
            return static_cast<std::ptrdiff_t>(t);
        };
        return {clampCell((p.x - m_area.min.x) / m_cell, m_cellsX),
                clampCell((p.y - m_area.min.y) / m_cell, m_cellsY)};
    }
    [[nodiscard]] std::size_t index(std::ptrdiff_t x, std::ptrdiff_t y) const {
        return static_cast<std::size_t>(y * m_cellsX + x);
    }

    Box m_area{};
    double m_cell = 1.0;
    std::ptrdiff_t m_cellsX = 1;
    std::ptrdiff_t m_cellsY = 1;
    std::vector<std::uint32_t> m_start; ///< Per cell: first entry in m_items; empty = no items.
    std::vector<std::uint32_t> m_items; ///< Item indices, cell by cell.
    std::vector<std::uint32_t> m_large; ///< Items checked for every point.
};

/// The clearance test of the header for generated agents of one radius whose centres all lie
/// in `area`: only the existing agents and obstacles that can reach into the area are kept,
/// each in a BoxIndex.
class Clearance {
  public:
    Clearance(const Surroundings& s, double radius, Box area);

    /// False when nothing existing can reach the area (every point is clear).
    [[nodiscard]] bool any() const { return !m_centres.empty() || !m_obstacles.empty(); }

    [[nodiscard]] bool hitsAgent(Vec2 p) const;
    [[nodiscard]] bool hitsObstacle(Vec2 p) const;

  private:
    double m_radius;
    std::vector<Vec2> m_centres;
    std::vector<double> m_reaches;
    std::vector<const std::vector<Vec2>*> m_obstacles;
    BoxIndex m_agentIndex;
    BoxIndex m_obstacleIndex;
};

[[nodiscard]] double checkSurroundings(std::string_view generator, const Surroundings& s,
                                       const SceneAgent& prototype);
void keepClear(GeneratorResult& result, const Surroundings& s, double radius);

} // namespace orca::scene::gen
