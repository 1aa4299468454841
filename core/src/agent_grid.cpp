#include "agent_grid.hpp"

#include <array>
#include <bit>
#include <limits>

#include "thread_pool.hpp"

namespace orca::detail {

void AgentGrid::build(std::span<const Vec2> pos, std::span<const Vec2> vel,
                      std::span<const double> radius, double cellSize, ThreadPool* pool) {
    const std::size_t n = pos.size();
    m_cellSize = cellSize;
    m_invCellSize = 1.0 / cellSize;
    m_occupied.clear();
    m_agentCell.resize(n);

    // Cell coordinates of every agent (in parallel when possible).
    m_agentCx.resize(n);
    m_agentCy.resize(n);
    auto coords = [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t i = begin; i < end; ++i) {
            m_agentCx[i] = cellCoord(pos[i].x);
            m_agentCy[i] = cellCoord(pos[i].y);
        }
    };
    if (pool) {
        pool->parallelFor(n, 4096, coords);
    } else {
        coords(0, n, 0);
    }

    // Bounding box in cells decides the mode.
    std::int32_t x0 = 0, x1 = -1, y0 = 0, y1 = -1;
    if (n > 0) {
        x0 = x1 = m_agentCx[0];
        y0 = y1 = m_agentCy[0];
        for (std::size_t i = 0; i < n; ++i) {
            x0 = std::min(x0, m_agentCx[i]);
            x1 = std::max(x1, m_agentCx[i]);
            y0 = std::min(y0, m_agentCy[i]);
            y1 = std::max(y1, m_agentCy[i]);
        }
    }
    const double boxCells = (double(x1) - x0 + 1.0) * (double(y1) - y0 + 1.0);
    m_dense = boxCells <= 4.0 * static_cast<double>(n) + 1024.0;

    if (m_dense) {
        m_groups.clear();
        m_x0 = x0;
        m_y0 = y0;
        m_cols = std::max(x1 - x0 + 1, 0);
        m_rows = std::max(y1 - y0 + 1, 0);
        const std::size_t cells =
            static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
        m_cellStart.assign(cells + 1, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto c =
                static_cast<std::uint32_t>((m_agentCy[i] - m_y0) * m_cols + (m_agentCx[i] - m_x0));
            m_agentCell[i] = c;
            ++m_cellStart[c + 1];
        }
        // Prefix sums; occupied cells in row-major order.
        for (std::size_t c = 0; c < cells; ++c) {
            const std::uint32_t count = m_cellStart[c + 1];
            m_cellStart[c + 1] = m_cellStart[c] + count;
            if (count > 0) {
                m_occupied.push_back({m_x0 + static_cast<std::int32_t>(c % std::size_t(m_cols)),
                                      m_y0 + static_cast<std::int32_t>(c / std::size_t(m_cols)),
                                      m_cellStart[c], count});
            }
        }
    } else {
        m_cellStart.clear();
        // Open-addressing table of groups at most half full, sized from the previous step's
        // group count (it changes little between steps); rebuilt larger if the crowd spread.
        std::size_t expected = std::max<std::size_t>(m_lastGroupCount + m_lastGroupCount / 4, 32);
        for (;;) {
            const std::size_t capacity = std::bit_ceil(2 * std::min(expected, n + 1));
            if (insertAll(n, capacity)) break;
            expected *= 2;
        }
        m_lastGroupCount = m_groupOrder.size();
    }
    scatter(pos, vel, radius);
    buildDenseCells();
}

void AgentGrid::buildDenseCells() {
    m_denseCells.clear();
    m_nodes.clear();
    // m_agentCell is free once the items are scattered: it holds the tree order.
    std::uint32_t* order = m_agentCell.data();
    for (const CellView& cell : m_occupied) {
        if (cell.count <= kDenseCellItems) continue;
        const std::uint32_t b = cell.start;
        const std::uint32_t e = cell.start + cell.count;
        // The splits compare coordinates: a non-finite one would break their ordering (such a
        // cell keeps the plain scan, which handles anything).
        bool finite = true;
        for (std::uint32_t k = b; k < e; ++k)
            finite = finite && std::isfinite(m_itemPos[k].x) && std::isfinite(m_itemPos[k].y);
        if (!finite) continue;
        for (std::uint32_t k = b; k < e; ++k)
            order[k] = k;
        const std::uint32_t root = buildNode(order, b, e);
        m_denseCells.push_back({b, e, root});
        // Reorder the cell's items into tree order: the item now at k is the one at order[k].
        // In place, cycle by cycle (order[k] = k marks a position done).
        for (std::uint32_t k = b; k < e; ++k) {
            if (order[k] == k) continue;
            const Vec2 pos = m_itemPos[k];
            const Vec2 vel = m_itemVel[k];
            const double radius = m_itemRadius[k];
            const std::uint32_t agent = m_itemAgent[k];
            std::uint32_t j = k;
            for (;;) {
                const std::uint32_t from = order[j];
                order[j] = j;
                if (from == k) {
                    m_itemPos[j] = pos;
                    m_itemVel[j] = vel;
                    m_itemRadius[j] = radius;
                    m_itemAgent[j] = agent;
                    break;
                }
                m_itemPos[j] = m_itemPos[from];
                m_itemVel[j] = m_itemVel[from];
                m_itemRadius[j] = m_itemRadius[from];
                m_itemAgent[j] = m_itemAgent[from];
                j = from;
            }
        }
    }
}

std::uint32_t AgentGrid::buildNode(std::uint32_t* order, std::uint32_t b, std::uint32_t e) {
    const auto index = static_cast<std::uint32_t>(m_nodes.size());
    TreeNode node{m_itemPos[order[b]], m_itemPos[order[b]], b, e, m_itemAgent[order[b]], 0};
    for (std::uint32_t k = b + 1; k < e; ++k) {
        const Vec2 q = m_itemPos[order[k]];
        node.lo = {std::min(node.lo.x, q.x), std::min(node.lo.y, q.y)};
        node.hi = {std::max(node.hi.x, q.x), std::max(node.hi.y, q.y)};
        node.minAgent = std::min(node.minAgent, m_itemAgent[order[k]]);
    }
    m_nodes.push_back(node);
    if (e - b <= kLeafItems) return index;
    // Median split along the wider side, ordered by (that coordinate, the other, agent
    // index): a total order, so coincident points split by index and every split halves the
    // node (depth log2(count / leaf), build O(count log count)).
    const double width = node.hi.x - node.lo.x;
    const double height = node.hi.y - node.lo.y;
    const std::uint32_t mid = b + (e - b) / 2;
    const Vec2* pos = m_itemPos.data();
    const std::uint32_t* agent = m_itemAgent.data();
    if (width == 0.0 && height == 0.0) {
        std::nth_element(order + b, order + mid, order + e,
                         [agent](std::uint32_t u, std::uint32_t v) { return agent[u] < agent[v]; });
    } else if (width >= height) {
        std::nth_element(order + b, order + mid, order + e,
                         [pos, agent](std::uint32_t u, std::uint32_t v) {
                             if (pos[u].x != pos[v].x) return pos[u].x < pos[v].x;
                             if (pos[u].y != pos[v].y) return pos[u].y < pos[v].y;
                             return agent[u] < agent[v];
                         });
    } else {
        std::nth_element(order + b, order + mid, order + e,
                         [pos, agent](std::uint32_t u, std::uint32_t v) {
                             if (pos[u].y != pos[v].y) return pos[u].y < pos[v].y;
                             if (pos[u].x != pos[v].x) return pos[u].x < pos[v].x;
                             return agent[u] < agent[v];
                         });
    }
    buildNode(order, b, mid); // = index + 1
    const std::uint32_t right = buildNode(order, mid, e);
    m_nodes[index].right = right;
    return index;
}

bool AgentGrid::insertAll(std::size_t n, std::size_t capacity) {
    m_shift = 64 - std::countr_zero(capacity);
    m_mask = capacity - 1;
    Group empty{};
    empty.key = kEmpty;
    m_groups.assign(capacity, empty);
    m_groupOrder.clear();
    const std::size_t maxGroups = capacity / 2 + capacity / 4; // give up beyond 75% load
    std::uint64_t lastKey = kEmpty;
    std::size_t s = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t cx = m_agentCx[i];
        const std::int32_t cy = m_agentCy[i];
        const std::uint64_t key = makeKey(cx >> kGroupShift, cy >> kGroupShift);
        if (key != lastKey) { // neighbouring agents often share a group
            s = slotOf(key);
            while (m_groups[s].key != key && m_groups[s].key != kEmpty)
                s = (s + 1) & m_mask;
            if (m_groups[s].key == kEmpty) {
                if (m_groupOrder.size() >= maxGroups) {
                    m_groupOrder.clear(); // the caller reallocates the table
                    m_groups.clear();
                    return false;
                }
                m_groups[s].key = key;
                m_groupOrder.push_back(static_cast<std::uint32_t>(s));
            }
            lastKey = key;
        }
        Group& g = m_groups[s];
        const int local = localIndex(cx, cy);
        ++g.start[local + 1]; // counts for now
        m_agentCell[i] =
            static_cast<std::uint32_t>(s * kGroupCells + static_cast<std::size_t>(local));
    }
    // Item ranges group by group in order of first occupation (spatially coherent with the
    // agent order), cells row-major within a group.
    std::uint32_t start = 0;
    for (std::uint32_t slot : m_groupOrder) {
        Group& g = m_groups[slot];
        const auto gx = static_cast<std::int32_t>(std::uint32_t(g.key >> 32) ^ 0x80000000u);
        const auto gy = static_cast<std::int32_t>(std::uint32_t(g.key) ^ 0x80000000u);
        g.start[0] = start;
        for (int local = 0; local < kGroupCells; ++local) {
            const std::uint32_t count = g.start[local + 1];
            g.start[local + 1] = start + count;
            if (count == 0) continue;
            m_occupied.push_back({(gx << kGroupShift) | (local & ((1 << kGroupShift) - 1)),
                                  (gy << kGroupShift) | (local >> kGroupShift), start, count});
            start += count;
        }
    }
    return true;
}

void AgentGrid::scatter(std::span<const Vec2> pos, std::span<const Vec2> vel,
                        std::span<const double> radius) {
    // Agents in ascending index within each cell, with the data queries read.
    const std::size_t n = pos.size();
    m_itemPos.resize(n);
    m_itemVel.resize(n);
    m_itemRadius.resize(n);
    m_itemAgent.resize(n);
    std::vector<std::uint32_t>& fill = m_agentCell; // reused below as the write cursor source
    if (m_dense) {
        std::vector<std::uint32_t>& cursor = m_cursor;
        cursor.assign(m_cellStart.begin(), m_cellStart.end() - 1);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t k = cursor[fill[i]]++;
            m_itemPos[k] = pos[i];
            m_itemVel[k] = vel[i];
            m_itemRadius[k] = radius[i];
            m_itemAgent[k] = static_cast<std::uint32_t>(i);
        }
    } else {
        // fill[i] is group slot * 16 + local cell. The group's start[] serves as the write
        // cursor; afterwards start[c] has advanced to the old start[c + 1], which restores it
        // by shifting (start[0] is recovered from the first cell's count).
        for (std::size_t i = 0; i < n; ++i) {
            Group& g = m_groups[fill[i] / kGroupCells];
            const std::uint32_t k = g.start[fill[i] % kGroupCells]++;
            m_itemPos[k] = pos[i];
            m_itemVel[k] = vel[i];
            m_itemRadius[k] = radius[i];
            m_itemAgent[k] = static_cast<std::uint32_t>(i);
        }
        std::uint32_t groupBegin = 0;
        for (std::uint32_t slot : m_groupOrder) {
            Group& g = m_groups[slot];
            for (int local = kGroupCells - 1; local > 0; --local)
                g.start[local] = g.start[local - 1];
            g.start[0] = groupBegin;
            groupBegin = g.start[kGroupCells];
        }
    }
}

namespace {

/// Appends items [b, e) to the ranges ending at `w`, merged into the last range when it ends
/// where this one begins (cells adjacent in item order); returns the new end. `first` is the
/// start of the output.
inline ItemRange* appendRange(ItemRange* first, ItemRange* w, std::uint32_t b, std::uint32_t e) {
    if (b == e) return w;
    if (w != first && w[-1].end == b) {
        w[-1].end = e;
        return w;
    }
    *w = {b, e};
    return w + 1;
}

} // namespace

void AgentGrid::boxRanges(std::int32_t x0, std::int32_t x1, std::int32_t y0, std::int32_t y1,
                          std::vector<ItemRange>& out) const {
    // Ranges are written through a pointer into `out`, sized for the most ranges the box can
    // give, then trimmed; contiguous ranges are merged (fewer, longer ranges to scan).
    if (m_dense) {
        x0 = std::max(x0, m_x0);
        x1 = std::min(x1, m_x0 + m_cols - 1);
        y0 = std::max(y0, m_y0);
        y1 = std::min(y1, m_y0 + m_rows - 1);
        if (x0 > x1 || y0 > y1) {
            out.clear();
            return;
        }
        out.resize(static_cast<std::size_t>(y1 - y0 + 1));
        ItemRange* const first = out.data();
        ItemRange* w = first;
        const std::uint32_t* start = m_cellStart.data();
        for (std::int32_t y = y0; y <= y1; ++y) {
            // The cells of a row are contiguous: one range per row.
            const std::size_t row = static_cast<std::size_t>(y - m_y0) * std::size_t(m_cols);
            w = appendRange(first, w, start[row + std::size_t(x0 - m_x0)],
                            start[row + std::size_t(x1 - m_x0) + 1]);
        }
        out.resize(static_cast<std::size_t>(w - first));
        return;
    }
    out.clear();
    if (m_groups.empty()) return;
    const double boxCells = (double(x1) - x0 + 1.0) * (double(y1) - y0 + 1.0);
    if (boxCells > double(m_occupied.size())) {
        // A huge box: cheaper to walk the occupied cells than the box (at most one range per
        // occupied cell).
        out.resize(m_occupied.size());
        ItemRange* const first = out.data();
        ItemRange* w = first;
        for (const CellView& c : m_occupied) {
            if (c.cx >= x0 && c.cx <= x1 && c.cy >= y0 && c.cy <= y1)
                w = appendRange(first, w, c.start, c.start + c.count);
        }
        out.resize(static_cast<std::size_t>(w - first));
        return;
    }
    // Group by group (each looked up once): the box's rows within a group, one range per row,
    // or one for all of them when the box spans the group's whole width (its rows are then
    // contiguous).
    constexpr std::int32_t mask = (1 << kGroupShift) - 1;
    const std::int32_t gx0 = x0 >> kGroupShift, gx1 = x1 >> kGroupShift;
    const std::int32_t gy0 = y0 >> kGroupShift, gy1 = y1 >> kGroupShift;
    out.resize(static_cast<std::size_t>(y1 - y0 + 1) * static_cast<std::size_t>(gx1 - gx0 + 1));
    ItemRange* const first = out.data();
    ItemRange* w = first;
    for (std::int32_t gy = gy0; gy <= gy1; ++gy) {
        const int ly0 = gy == gy0 ? (y0 & mask) : 0;
        const int ly1 = gy == gy1 ? (y1 & mask) : mask;
        for (std::int32_t gx = gx0; gx <= gx1; ++gx) {
            const Group* g = findGroup(gx << kGroupShift, gy << kGroupShift);
            if (!g) continue;
            const int lx0 = gx == gx0 ? (x0 & mask) : 0;
            const int lx1 = gx == gx1 ? (x1 & mask) : mask;
            const std::uint32_t* start = g->start;
            if (lx0 == 0 && lx1 == mask) {
                w = appendRange(first, w, start[ly0 << kGroupShift],
                                start[(ly1 + 1) << kGroupShift]);
                continue;
            }
            for (int ly = ly0; ly <= ly1; ++ly) {
                w = appendRange(first, w, start[(ly << kGroupShift) + lx0],
                                start[(ly << kGroupShift) + lx1 + 1]);
            }
        }
    }
    out.resize(static_cast<std::size_t>(w - first));
}

void AgentGrid::rangesNear(Vec2 p, double range, std::vector<ItemRange>& out) const {
    boxRanges(cellCoord(p.x - range), cellCoord(p.x + range), cellCoord(p.y - range),
              cellCoord(p.y + range), out);
}

void AgentGrid::blockRanges(std::int32_t cx, std::int32_t cy, int r,
                            std::vector<ItemRange>& out) const {
    boxRanges(cx - r, cx + r, cy - r, cy + r, out);
}

void AgentGrid::nearest(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                        std::vector<Neighbor>& out, std::vector<ItemRange>& ranges) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    rangesNear(p, std::sqrt(rangeSq), ranges);
    nearestIn(p, self, rangeSq, maxNeighbors, ranges, out);
}

bool AgentGrid::touchesDenseCell(std::span<const ItemRange> ranges) const {
    if (m_denseCells.empty()) return false;
    for (const ItemRange& r : ranges) {
        auto it = std::lower_bound(m_denseCells.begin(), m_denseCells.end(), r.begin,
                                   [](const DenseCell& c, std::uint32_t b) { return c.begin < b; });
        if (it != m_denseCells.end() && it->begin < r.end) return true;
    }
    return false;
}

void AgentGrid::nearestIn(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                          std::span<const ItemRange> ranges, std::vector<Neighbor>& out) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    double limitSq = rangeSq; // shrinks to the farthest kept once the list is full
    if (m_denseCells.empty()) {
        for (const ItemRange& r : ranges)
            scanItems(r.begin, r.end, p, self, rangeSq, maxNeighbors, out, limitSq);
        return;
    }
    for (const ItemRange& r : ranges) {
        splitRange(
            r,
            [&](std::uint32_t b, std::uint32_t e) {
                scanItems(b, e, p, self, rangeSq, maxNeighbors, out, limitSq);
            },
            [&](const DenseCell& cell) {
                searchTree(cell, p, self, rangeSq, maxNeighbors, out, limitSq);
            });
    }
}

void AgentGrid::scanItems(std::uint32_t b, std::uint32_t e, Vec2 p, std::uint32_t self,
                          double rangeSq, std::size_t maxNeighbors, std::vector<Neighbor>& out,
                          double& limitSq) const {
    for (std::uint32_t item = b; item < e; ++item) {
        const std::uint32_t agent = m_itemAgent[item];
        if (agent == self) continue;
        const double d = absSq(m_itemPos[item] - p);
        if (d > limitSq) continue;
        if (out.size() == maxNeighbors) {
            const Neighbor& last = out.back();
            if (d > last.distSq || (d == last.distSq && agent > last.agent)) continue;
            out.pop_back();
        } else if (d >= rangeSq) {
            continue; // strictly inside neighborDist
        }
        // Insertion sort by (distSq, agent index).
        std::size_t j = out.size();
        out.push_back({d, agent, item});
        while (j > 0 &&
               (d < out[j - 1].distSq || (d == out[j - 1].distSq && agent < out[j - 1].agent))) {
            out[j] = out[j - 1];
            --j;
        }
        out[j] = {d, agent, item};
        if (out.size() == maxNeighbors) limitSq = out.back().distSq;
    }
}

void AgentGrid::searchTree(const DenseCell& cell, Vec2 p, std::uint32_t self, double rangeSq,
                           std::size_t maxNeighbors, std::vector<Neighbor>& out,
                           double& limitSq) const {
    // A node can hold no better neighbour than the list's last when its lower bound is beyond
    // it, or equal to it with every agent index above the last's (ties go to the lower index);
    // while the list is not full, when the bound is out of range. Exact: the bound never
    // exceeds a computed distance (boxDistSqLower).
    auto hopeless = [&](double bound, std::uint32_t minAgent) {
        if (out.size() < maxNeighbors) return bound >= rangeSq;
        const Neighbor& last = out.back();
        return bound > last.distSq || (bound == last.distSq && minAgent > last.agent);
    };
    // Depth first, nearer child first (ties: lower indices first, so coincident agents fill
    // the list in index order and prune the rest at once). The depth is at most
    // log2(2^32 / kLeafItems) + 1, and each level leaves one node on the stack.
    struct Pending {
        std::uint32_t node;
        double bound;
    };
    std::array<Pending, 64> stack;
    std::size_t top = 0;
    const TreeNode* nodes = m_nodes.data();
    stack[top++] = {cell.root, boxDistSqLower(nodes[cell.root].lo, nodes[cell.root].hi, p)};
    while (top > 0) {
        const Pending at = stack[--top];
        const TreeNode& node = nodes[at.node];
        if (hopeless(at.bound, node.minAgent)) continue;
        if (node.right == 0) {
            scanItems(node.begin, node.end, p, self, rangeSq, maxNeighbors, out, limitSq);
            continue;
        }
        Pending near{at.node + 1, boxDistSqLower(nodes[at.node + 1].lo, nodes[at.node + 1].hi, p)};
        Pending far{node.right, boxDistSqLower(nodes[node.right].lo, nodes[node.right].hi, p)};
        if (far.bound < near.bound ||
            (far.bound == near.bound && nodes[far.node].minAgent < nodes[near.node].minAgent))
            std::swap(near, far);
        stack[top++] = far;
        stack[top++] = near;
    }
}

} // namespace orca::detail
