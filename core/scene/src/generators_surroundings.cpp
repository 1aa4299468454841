// Keeping generated agents clear of the surroundings (the agents and obstacles already in the
// scene): the clearance test and its spatial index (BoxIndex, Clearance), the checks of the
// surroundings, keepClear (the structured generators' filter), surroundingsOf and isClear.
#include "orca/scene/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "orca/geometry.hpp"

#include "generators_support.hpp"

namespace orca::scene {

namespace {

using namespace gen;

// ---- Surroundings -----------------------------------------------------------------------------

bool boxesOverlap(const Box& a, const Box& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// The box of some points (at least one).
Box boundsOf(const std::vector<SceneAgent>& agents) {
    Box b{agents.front().position, agents.front().position};
    for (const SceneAgent& a : agents) {
        b.min = {std::min(b.min.x, a.position.x), std::min(b.min.y, a.position.y)};
        b.max = {std::max(b.max.x, a.position.x), std::max(b.max.y, a.position.y)};
    }
    return b;
}

/// Centre distance a generated agent of radius `radius` must keep from `disk` (the rule of the
/// header): max(minSpacing, r + r_q).
double reachOf(const OccupiedDisk& disk, double radius, double minSpacing) {
    return std::max(minSpacing, radius + disk.radius);
}

/// Agent case: the disks overlap (or the centres are closer than minSpacing). Strict, so
/// touching disks are clear, as with SpacingGrid.
bool diskBlocks(Vec2 centre, double reach, Vec2 p) {
    return absSq(p - centre) < reach * reach;
}

/// Obstacle case: the disk of `radius` at `p` lies inside the polygon (even-odd, 3+ vertices)
/// or overlaps one of its edges (closing edge included; 2 vertices = one segment, 1 = a point).
bool obstacleBlocks(const std::vector<Vec2>& polygon, double radius, Vec2 p) {
    const std::size_t n = polygon.size();
    if (n == 0) return false;
    if (n >= 3 && pointInPolygon(polygon, p)) return true;
    const double radiusSq = radius * radius;
    const std::size_t edges = n <= 2 ? 1 : n; // a point, a segment or a closed polygon
    for (std::size_t i = 0; i < edges; ++i) {
        if (distSqPointSegment(polygon[i], polygon[(i + 1) % n], p) < radiusSq) return true;
    }
    return false;
}

} // namespace

namespace gen {

BoxIndex::BoxIndex(const Box& area, const std::vector<Box>& boxes) : m_area(area) {
    if (boxes.empty()) return;
    const double width = area.max.x - area.min.x;
    const double height = area.max.y - area.min.y;
    std::vector<double> sizes;
    sizes.reserve(boxes.size());
    for (const Box& b : boxes)
        sizes.push_back(std::max(b.max.x - b.min.x, b.max.y - b.min.y));
    const auto middle = sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2);
    std::nth_element(sizes.begin(), middle, sizes.end());
    m_cell =
        std::max({*middle, std::sqrt(width * height / (2.0 * static_cast<double>(boxes.size()))),
                  std::max(width, height) / kMaxCellsPerAxis});
    if (!(m_cell > 0.0) || !std::isfinite(m_cell)) m_cell = 1.0; // all sizes 0: one cell
    m_cellsX = static_cast<std::ptrdiff_t>(std::floor(width / m_cell)) + 1;
    m_cellsY = static_cast<std::ptrdiff_t>(std::floor(height / m_cell)) + 1;

    // Counting pass, then fill (compressed rows: m_start[cell] .. m_start[cell + 1]).
    const auto cells = static_cast<std::size_t>(m_cellsX * m_cellsY);
    m_start.assign(cells + 1, 0);
    std::vector<char> large(boxes.size(), 0);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const auto [x0, y0] = cellOf(boxes[i].min);
        const auto [x1, y1] = cellOf(boxes[i].max);
        if ((x1 - x0 + 1) * (y1 - y0 + 1) > kMaxCellsPerItem) {
            large[i] = 1;
            m_large.push_back(static_cast<std::uint32_t>(i));
            continue;
        }
        for (std::ptrdiff_t y = y0; y <= y1; ++y)
            for (std::ptrdiff_t x = x0; x <= x1; ++x)
                ++m_start[index(x, y) + 1];
    }
    for (std::size_t c = 0; c < cells; ++c)
        m_start[c + 1] += m_start[c];
    m_items.resize(m_start[cells]);
    std::vector<std::uint32_t> fill(m_start.begin(), m_start.end() - 1);
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (large[i]) continue;
        const auto [x0, y0] = cellOf(boxes[i].min);
        const auto [x1, y1] = cellOf(boxes[i].max);
        for (std::ptrdiff_t y = y0; y <= y1; ++y)
            for (std::ptrdiff_t x = x0; x <= x1; ++x)
                m_items[fill[index(x, y)]++] = static_cast<std::uint32_t>(i);
    }
}

Clearance::Clearance(const Surroundings& s, double radius, Box area) : m_radius(radius) {
    // A little slack, so that a point a rounding error outside the area still sees every
    // item that can reach it (the indices clamp such points to their border cells).
    const double scale = std::max({1.0, std::fabs(area.min.x), std::fabs(area.min.y),
                                   std::fabs(area.max.x), std::fabs(area.max.y)});
    const double slack = 1e-9 * scale;
    area.min -= Vec2(slack, slack);
    area.max += Vec2(slack, slack);

    std::vector<Box> boxes;
    for (const OccupiedDisk& d : s.agents) {
        const double reach = reachOf(d, radius, s.minSpacing);
        const Box box{d.position - Vec2(reach, reach), d.position + Vec2(reach, reach)};
        if (!(reach > 0.0) || !boxesOverlap(box, area)) continue;
        m_centres.push_back(d.position);
        m_reaches.push_back(reach);
        boxes.push_back(box);
    }
    m_agentIndex = BoxIndex(area, boxes);

    boxes.clear();
    for (const std::vector<Vec2>& polygon : s.obstacles) {
        if (polygon.empty()) continue;
        Box box{polygon.front(), polygon.front()};
        for (const Vec2 v : polygon) {
            box.min = {std::min(box.min.x, v.x), std::min(box.min.y, v.y)};
            box.max = {std::max(box.max.x, v.x), std::max(box.max.y, v.y)};
        }
        box.min -= Vec2(radius, radius);
        box.max += Vec2(radius, radius);
        if (!boxesOverlap(box, area)) continue;
        m_obstacles.push_back(&polygon);
        boxes.push_back(box);
    }
    m_obstacleIndex = BoxIndex(area, boxes);
}

bool Clearance::hitsAgent(Vec2 p) const {
    return m_agentIndex.any(
        p, [&](std::uint32_t i) { return diskBlocks(m_centres[i], m_reaches[i], p); });
}

bool Clearance::hitsObstacle(Vec2 p) const {
    return m_obstacleIndex.any(
        p, [&](std::uint32_t i) { return obstacleBlocks(*m_obstacles[i], m_radius, p); });
}

/// Throws for surroundings or a prototype radius the rule cannot use; returns the generated
/// agents' radius.
double checkSurroundings(std::string_view generator, const Surroundings& s,
                         const SceneAgent& prototype) {
    const auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    requireNonNegative(generator, "surroundings.minSpacing", s.minSpacing);
    requireNonNegative(generator, "surroundings.defaultRadius", s.defaultRadius);
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const OccupiedDisk& d = s.agents[i];
        if (!finite(d.position) || !std::isfinite(d.radius) || d.radius < 0.0) {
            const std::string name = "surroundings.agents[" + std::to_string(i) + "]";
            requireFinite(generator, name + ".position", d.position);
            requireNonNegative(generator, name + ".radius", d.radius);
        }
    }
    for (std::size_t i = 0; i < s.obstacles.size(); ++i) {
        for (std::size_t j = 0; j < s.obstacles[i].size(); ++j) {
            if (!finite(s.obstacles[i][j])) {
                requireFinite(generator,
                              "surroundings.obstacles[" + std::to_string(i) + "][" +
                                  std::to_string(j) + "]",
                              s.obstacles[i][j]);
            }
        }
    }
    if (prototype.overrides.radius) {
        requireNonNegative(generator, "the prototype's radius", *prototype.overrides.radius);
        return *prototype.overrides.radius;
    }
    return s.defaultRadius;
}

/// Structured generators: leaves out the agents that are not clear of the surroundings (the
/// others keep their order) and sets requested, unplaced and the note.
void keepClear(GeneratorResult& result, const Surroundings& s, double radius) {
    result.requested = static_cast<int>(result.agents.size());
    if (result.agents.empty() || (s.agents.empty() && s.obstacles.empty())) return;
    const Clearance clearance(s, radius, boundsOf(result.agents));
    if (!clearance.any()) return;
    int onAgentOnly = 0;
    int onObstacleOnly = 0;
    int onBoth = 0;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < result.agents.size(); ++i) {
        const Vec2 p = result.agents[i].position;
        const bool onAgent = clearance.hitsAgent(p);
        const bool onObstacle = clearance.hitsObstacle(p);
        if (onAgent && onObstacle) {
            ++onBoth;
        } else if (onAgent) {
            ++onAgentOnly;
        } else if (onObstacle) {
            ++onObstacleOnly;
        } else {
            if (kept != i) result.agents[kept] = std::move(result.agents[i]);
            ++kept;
        }
    }
    result.agents.resize(kept);
    result.unplaced = result.requested - static_cast<int>(kept);
    if (result.unplaced == 0) return;
    std::string what;
    if (onObstacleOnly == 0 && onBoth == 0) {
        what = "existing agents";
    } else if (onAgentOnly == 0 && onBoth == 0) {
        what = "obstacles";
    } else {
        what = "existing agents or obstacles (" + std::to_string(onAgentOnly) + " an agent, " +
               std::to_string(onObstacleOnly) + " an obstacle, " + std::to_string(onBoth) +
               " both)";
    }
    appendNote(result.note, "placed " + std::to_string(kept) + " of " +
                                std::to_string(result.requested) + ": " +
                                std::to_string(result.unplaced) + " would overlap " + what);
}

} // namespace gen

// ---- Public helpers ---------------------------------------------------------------------------

Surroundings surroundingsOf(const Scene& scene, double minSpacing) {
    Surroundings s;
    s.agents.reserve(scene.agents.size());
    for (const SceneAgent& a : scene.agents)
        s.agents.push_back({a.position, scene.resolvedParams(a).radius});
    s.obstacles.reserve(scene.obstacles.size());
    for (const SceneObstacle& o : scene.obstacles)
        s.obstacles.push_back(o.vertices);
    s.minSpacing = minSpacing;
    s.defaultRadius = scene.agentDefaults.radius;
    return s;
}

bool isClear(const Surroundings& surroundings, Vec2 position, double radius) {
    for (const OccupiedDisk& d : surroundings.agents) {
        if (diskBlocks(d.position, reachOf(d, radius, surroundings.minSpacing), position))
            return false;
    }
    for (const std::vector<Vec2>& polygon : surroundings.obstacles) {
        if (obstacleBlocks(polygon, radius, position)) return false;
    }
    return true;
}

} // namespace orca::scene
