#include "orca/point_grid.hpp"

#include "agent_grid.hpp"

namespace orca {

PointGrid::PointGrid()
    : m_grid(std::make_unique<detail::AgentGrid>()),
      m_ranges(std::make_unique<std::vector<detail::ItemRange>>()) {}

PointGrid::~PointGrid() = default;
PointGrid::PointGrid(PointGrid&&) noexcept = default;
PointGrid& PointGrid::operator=(PointGrid&&) noexcept = default;

void PointGrid::build(std::span<const Vec2> positions, double cellSize) {
    m_grid->build(positions, cellSize);
}

void PointGrid::candidatesNear(Vec2 p, double range, std::vector<std::uint32_t>& out) const {
    out.clear();
    m_grid->rangesNear(p, range, *m_ranges);
    for (const detail::ItemRange& r : *m_ranges) {
        for (std::uint32_t item = r.begin; item < r.end; ++item)
            out.push_back(m_grid->itemAgent(item));
    }
}

} // namespace orca
