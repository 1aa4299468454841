// Random placement's overlap checks (import_support.hpp, PlacementIndex).
#include <algorithm>
#include <cmath>

#include "import_support.hpp"

namespace orca::scene::detail {

namespace {

constexpr double kCell = 4.0;
constexpr std::int64_t kMaxCellsPerObstacle = 4096;

std::int64_t cellOf(double v) {
    return static_cast<std::int64_t>(std::floor(std::clamp(v, -2e7, 2e7) / kCell));
}

std::uint64_t cellKey(std::int64_t i, std::int64_t j) {
    return (static_cast<std::uint64_t>(i) << 32) ^ (static_cast<std::uint64_t>(j) & 0xffffffffu);
}

bool obstacleClear(const RawObstacle& o, Vec2 p, double radius) {
    if (o.closed && o.vertices.size() > 2 && pointInPolygon(p, o.vertices)) return false;
    return o.vertices.size() < 2 || distanceToOutline(p, o.vertices, o.closed) >= radius;
}

} // namespace

void PlacementIndex::index(const std::vector<RawObstacle>& obstacles, const Scene& scene) {
    if (!m_built) {
        m_built = true;
        for (std::size_t k = 0; k < obstacles.size(); ++k) {
            const auto& v = obstacles[k].vertices;
            if (v.empty()) continue;
            Vec2 lo = v[0];
            Vec2 hi = v[0];
            for (const Vec2& p : v) {
                lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
                hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
            }
            const std::int64_t i0 = cellOf(lo.x), i1 = cellOf(hi.x);
            const std::int64_t j0 = cellOf(lo.y), j1 = cellOf(hi.y);
            if ((i1 - i0 + 1) * (j1 - j0 + 1) > kMaxCellsPerObstacle) {
                m_bigObstacles.push_back(k);
                continue;
            }
            for (std::int64_t i = i0; i <= i1; ++i)
                for (std::int64_t j = j0; j <= j1; ++j)
                    m_obstacleCells[cellKey(i, j)].push_back(k);
        }
    }
    for (; m_indexedAgents < scene.agents.size(); ++m_indexedAgents) {
        const SceneAgent& a = scene.agents[m_indexedAgents];
        m_maxAgentRadius = std::max(m_maxAgentRadius, scene.resolvedParams(a).radius);
        m_agentCells[cellKey(cellOf(a.position.x), cellOf(a.position.y))].push_back(
            m_indexedAgents);
    }
}

bool PlacementIndex::isFree(Vec2 p, double radius, const std::vector<RawObstacle>& obstacles,
                            const Scene& scene, std::int64_t& budget) {
    index(obstacles, scene);
    for (const std::size_t k : m_bigObstacles) {
        budget -= static_cast<std::int64_t>(obstacles[k].vertices.size());
        if (!obstacleClear(obstacles[k], p, radius)) return false;
    }
    // The cells within radius + the largest agent radius of p: agents there may overlap,
    // obstacles touching them may too.
    const double reach = radius + m_maxAgentRadius;
    std::vector<std::size_t> seen;
    for (std::int64_t i = cellOf(p.x - reach); i <= cellOf(p.x + reach); ++i) {
        for (std::int64_t j = cellOf(p.y - reach); j <= cellOf(p.y + reach); ++j) {
            if (const auto it = m_agentCells.find(cellKey(i, j)); it != m_agentCells.end()) {
                for (const std::size_t a : it->second) {
                    --budget;
                    const double other = scene.resolvedParams(scene.agents[a]).radius;
                    if (length(scene.agents[a].position - p) < radius + other) return false;
                }
            }
            if (const auto it = m_obstacleCells.find(cellKey(i, j)); it != m_obstacleCells.end()) {
                for (const std::size_t k : it->second) {
                    if (std::find(seen.begin(), seen.end(), k) != seen.end()) continue;
                    seen.push_back(k);
                    budget -= static_cast<std::int64_t>(obstacles[k].vertices.size());
                    if (!obstacleClear(obstacles[k], p, radius)) return false;
                }
            }
        }
    }
    return true;
}

} // namespace orca::scene::detail
