// AgentGrid's dense cells (agent_grid.hpp, "Dense cells"): building their kd-trees once the
// items are scattered, telling whether item ranges touch one, and the nearest-neighbour search
// that walks a tree instead of scanning its cell.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <utility>

#include "agent_grid.hpp"

namespace orca::detail {

void AgentGrid::buildDenseCells() {
    m_denseCells.clear();
    m_nodes.clear();
    // m_agentCell is free once the items are scattered: it holds the tree order.
    std::uint32_t* order = m_agentCell.data();
    for (const std::uint32_t big : m_bigCells) {
        const CellView& cell = m_occupied[big];
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
            const std::uint32_t agent = m_itemAgent[k];
            std::uint32_t j = k;
            for (;;) {
                const std::uint32_t from = order[j];
                order[j] = j;
                if (from == k) {
                    m_itemPos[j] = pos;
                    m_itemAgent[j] = agent;
                    break;
                }
                m_itemPos[j] = m_itemPos[from];
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

bool AgentGrid::touchesDenseCell(std::span<const ItemRange> ranges) const {
    if (m_denseCells.empty()) return false;
    for (const ItemRange& r : ranges) {
        auto it = std::lower_bound(m_denseCells.begin(), m_denseCells.end(), r.begin,
                                   [](const DenseCell& c, std::uint32_t b) { return c.begin < b; });
        if (it != m_denseCells.end() && it->begin < r.end) return true;
    }
    return false;
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
