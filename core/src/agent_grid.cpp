#include "agent_grid.hpp"

#include <bit>

namespace orca::detail {

void AgentGrid::build(std::span<const Vec2> pos, std::span<const Vec2> vel,
                      std::span<const double> radius, double cellSize) {
    const std::size_t n = pos.size();
    m_cellSize = cellSize;
    m_invCellSize = 1.0 / cellSize;

    // Open-addressing table at most half full.
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * n));
    m_shift = 64 - std::countr_zero(capacity);
    m_mask = capacity - 1;
    m_table.assign(capacity, Cell{kEmpty, 0, 0});
    m_occupied.clear();
    m_agentSlot.resize(n);

    // Pass 1: find or create each agent's cell and count its agents.
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = makeKey(cellCoord(pos[i].x), cellCoord(pos[i].y));
        std::size_t s = slotOf(key);
        while (m_table[s].key != key && m_table[s].key != kEmpty) s = (s + 1) & m_mask;
        if (m_table[s].key == kEmpty) {
            m_table[s].key = key;
            m_occupied.push_back(static_cast<std::uint32_t>(s));
        }
        ++m_table[s].count;
        m_agentSlot[i] = static_cast<std::uint32_t>(s);
    }
    // Pass 2: cell ranges in order of first occupation (spatially coherent with agent order).
    std::uint32_t start = 0;
    for (std::uint32_t s : m_occupied) {
        m_table[s].start = start;
        start += m_table[s].count;
        m_table[s].count = 0;
    }
    // Pass 3: scatter agents (ascending index within each cell) with their data.
    m_itemPos.resize(n);
    m_itemVel.resize(n);
    m_itemRadius.resize(n);
    m_itemAgent.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        Cell& c = m_table[m_agentSlot[i]];
        const std::uint32_t k = c.start + c.count++;
        m_itemPos[k] = pos[i];
        m_itemVel[k] = vel[i];
        m_itemRadius[k] = radius[i];
        m_itemAgent[k] = static_cast<std::uint32_t>(i);
    }
}

void AgentGrid::nearest(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                        std::vector<Neighbor>& out) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    const double range = std::sqrt(rangeSq);
    double limitSq = rangeSq; // shrinks to the farthest kept once the list is full
    forEachNear(p, range, [&](std::uint32_t agent, std::uint32_t item) {
        if (agent == self) return;
        const double d = absSq(m_itemPos[item] - p);
        if (d > limitSq) return;
        const bool full = out.size() == maxNeighbors;
        if (full) {
            const Neighbor& last = out.back();
            if (d > last.distSq || (d == last.distSq && agent > last.agent)) return;
            out.pop_back();
        } else if (d >= rangeSq) {
            return; // strictly inside neighborDist
        }
        // Insertion sort by (distSq, agent index).
        std::size_t j = out.size();
        out.push_back({d, agent, item});
        while (j > 0 && (d < out[j - 1].distSq ||
                         (d == out[j - 1].distSq && agent < out[j - 1].agent))) {
            out[j] = out[j - 1];
            --j;
        }
        out[j] = {d, agent, item};
        if (out.size() == maxNeighbors) limitSq = out.back().distSq;
    });
}

std::size_t AgentGrid::memoryBytes() const {
    return m_table.capacity() * sizeof(Cell) + m_occupied.capacity() * sizeof(std::uint32_t) +
           m_agentSlot.capacity() * sizeof(std::uint32_t) + m_itemPos.capacity() * sizeof(Vec2) +
           m_itemVel.capacity() * sizeof(Vec2) + m_itemRadius.capacity() * sizeof(double) +
           m_itemAgent.capacity() * sizeof(std::uint32_t);
}

} // namespace orca::detail
