// The simulator's obstacles: adding, replacing and removing polygons, the vertex list the
// solver reads and the grid that finds each agent's obstacle edges.
#include <algorithm>
#include <string>
#include <vector>

#include "orca/simulator.hpp"

namespace orca {

// ---- Obstacles -----------------------------------------------------------------------------

namespace {

void requireUsablePolygon(std::span<const Vec2> vertices) {
    const PolygonCheck check = checkPolygon(vertices);
    if (!check.valid) throw InvalidArgument("invalid obstacle: " + check.error);
    if (check.clockwise)
        throw InvalidArgument("invalid obstacle: vertices are clockwise; obstacles must be "
                              "counter-clockwise (reverse the vertex list)");
}

} // namespace

ObstacleId Simulator::addObstacle(std::span<const Vec2> vertices) {
    return addObstacles(std::span<const std::vector<Vec2>>(
                            std::vector<std::vector<Vec2>>{{vertices.begin(), vertices.end()}}))
        .front();
}

std::vector<ObstacleId> Simulator::addObstacles(std::span<const std::vector<Vec2>> polygons) {
    for (const std::vector<Vec2>& polygon : polygons)
        requireUsablePolygon(polygon);
    std::vector<ObstacleId> ids;
    ids.reserve(polygons.size());
    for (const std::vector<Vec2>& polygon : polygons) {
        const SlotTable::Handle h =
            m_obstacleSlots.acquire(static_cast<std::uint32_t>(m_obstacles.size()));
        ids.push_back({h.slot, h.generation});
        m_obstacles.push_back(polygon);
        m_obstacleIds.push_back(ids.back());
    }
    rebuildObstacles(); // once for the whole batch
    return ids;
}

bool Simulator::contains(ObstacleId id) const {
    return m_obstacleSlots.find(id.slot, id.generation).has_value();
}

bool Simulator::removeObstacle(ObstacleId id) {
    const auto index = m_obstacleSlots.find(id.slot, id.generation);
    if (!index) return false;
    const std::size_t i = *index;
    m_obstacles.erase(m_obstacles.begin() + static_cast<std::ptrdiff_t>(i));
    m_obstacleIds.erase(m_obstacleIds.begin() + static_cast<std::ptrdiff_t>(i));
    for (std::size_t k = i; k < m_obstacleIds.size(); ++k)
        m_obstacleSlots.relocate(m_obstacleIds[k].slot, static_cast<std::uint32_t>(k));
    m_obstacleSlots.release(id.slot);
    rebuildObstacles();
    return true;
}

void Simulator::setObstacle(ObstacleId id, std::span<const Vec2> vertices) {
    const auto index = m_obstacleSlots.find(id.slot, id.generation);
    if (!index) throw InvalidArgument("invalid or removed obstacle id");
    requireUsablePolygon(vertices);
    m_obstacles[*index].assign(vertices.begin(), vertices.end());
    rebuildObstacles();
}

std::span<const Vec2> Simulator::obstacleVertices(ObstacleId id) const {
    const auto index = m_obstacleSlots.find(id.slot, id.generation);
    if (!index) throw InvalidArgument("invalid or removed obstacle id");
    return m_obstacles[*index];
}

void Simulator::rebuildObstacles() {
    touchConfig();
    m_roadmapValid = false;
    buildObstacleVertices(m_obstacles, m_vertices);
    // Cells about one obstacle query range (τo·maxSpeed + r): the agents' mean once a step has
    // measured it, else a default agent's. The cell size changes the speed of a query, never
    // its result (every segment in range is found, then filtered and sorted exactly).
    const AgentParams d;
    m_obstacleGrid.build(m_vertices, m_obstacleGridRange > 0.0
                                         ? m_obstacleGridRange
                                         : d.timeHorizonObst * d.maxSpeed + d.radius);
}

void Simulator::fitObstacleGrid() {
    if (m_obstacles.empty()) return;
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < m_pos.size(); ++i) {
        if (m_static[i]) continue;
        const AgentParams& p = m_agentParams[i];
        sum += p.timeHorizonObst * p.maxSpeed + p.radius;
        ++count;
    }
    if (count == 0) return;
    const double range = std::max(sum / static_cast<double>(count), 1e-3);
    // Rebuilt only when the mean range moved by more than a factor of 2 (a rebuild costs about
    // a step's worth of obstacle queries).
    const double built = m_obstacleGridRange > 0.0 ? m_obstacleGridRange : -1.0;
    if (built > 0.0 && range < 2.0 * built && range > 0.5 * built) return;
    m_obstacleGridRange = range;
    m_obstacleGrid.build(m_vertices, range);
}

} // namespace orca
