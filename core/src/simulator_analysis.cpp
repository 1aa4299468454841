// Simulator::stateHash and Simulator::clearance (measurements of the current state).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "agent_grid.hpp"
#include "orca/geometry.hpp"
#include "orca/simulator.hpp"

namespace orca {

// ---- Analysis ------------------------------------------------------------------------------

std::uint64_t Simulator::stateHash() const {
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        for (int b = 0; b < 8; ++b) {
            h ^= (bits >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    };
    for (std::size_t i = 0; i < m_pos.size(); ++i) {
        mix(m_pos[i].x);
        mix(m_pos[i].y);
        mix(m_vel[i].x);
        mix(m_vel[i].y);
    }
    return h;
}

namespace {

/// Simulator::clearance() over a grid with dense cells, where scanning every pair of a cell
/// would be quadratic. The minimum clearance walks a cell's tree pruning the nodes that cannot
/// hold a pair below the best so far (exact: bounds use the same rounded operations as the
/// pair's own formula, see detail::boxDistSqLower). The overlap count takes whole nodes at
/// once when every pair in them surely overlaps, which cannot be done for "j > i" alone (the
/// indices in a node are mixed), so it counts ordered pairs, each from both sides, and halves
/// the total. That needs a test that is symmetric in i and j: a pair is *clearly in* when
/// |d|² < (r_i + r_j)² (1 - 1e-9) and *clearly out* when |d|² >= (r_i + r_j)² (1 + 1e-9)
/// (both symmetric bit for bit, and far from the rounding of c = |d| - r_i - r_j, so clearly in
/// means c < 0 and clearly out c > 0); only the pairs in between are decided by c itself, from
/// the lower index's side, and count twice.
struct DenseClearance {
    const detail::AgentGrid& grid;
    const std::vector<Vec2>& pos;
    const std::vector<double>& radius;
    const std::vector<std::uint8_t>& isStatic;
    const std::vector<std::uint32_t>& itemOf; ///< agent -> item
    /// Per tree node: radius bounds, largest agent index, number of static agents.
    std::vector<double> minRadius{}, maxRadius{};
    std::vector<std::uint32_t> maxAgent{}, statics{};
    double minClearance = std::numeric_limits<double>::infinity();
    std::uint64_t halfOverlaps = 0; ///< ordered overlapping pairs (each pair twice)

    static constexpr double kIn = 1.0 - 1e-9;
    static constexpr double kOut = 1.0 + 1e-9;

    void prepare() {
        const std::span<const detail::TreeNode> nodes = grid.treeNodes();
        minRadius.resize(nodes.size());
        maxRadius.resize(nodes.size());
        maxAgent.resize(nodes.size());
        statics.resize(nodes.size());
        // Children follow their parent: going backwards, a node's children are done first.
        for (std::size_t x = nodes.size(); x-- > 0;) {
            const detail::TreeNode& node = nodes[x];
            if (node.right == 0) {
                minRadius[x] = std::numeric_limits<double>::infinity();
                maxRadius[x] = 0.0;
                maxAgent[x] = 0;
                statics[x] = 0;
                for (std::uint32_t k = node.begin; k < node.end; ++k) {
                    const std::uint32_t j = grid.itemAgent(k);
                    minRadius[x] = std::min(minRadius[x], radius[j]);
                    maxRadius[x] = std::max(maxRadius[x], radius[j]);
                    maxAgent[x] = std::max(maxAgent[x], j);
                    statics[x] += isStatic[j] ? 1u : 0u;
                }
            } else {
                const std::size_t l = x + 1;
                const std::size_t r = node.right;
                minRadius[x] = std::min(minRadius[l], minRadius[r]);
                maxRadius[x] = std::max(maxRadius[l], maxRadius[r]);
                maxAgent[x] = std::max(maxAgent[l], maxAgent[r]);
                statics[x] = statics[l] + statics[r];
            }
        }
    }

    void visitPair(std::size_t i, std::uint32_t item) {
        const std::uint32_t j = grid.itemAgent(item);
        if (j == i || (isStatic[i] && isStatic[j])) return;
        const Vec2 d = pos[j] - pos[i];
        const double reach = radius[i] + radius[j];
        const double dSq = absSq(d);
        if (dSq < reach * reach * kIn) {
            ++halfOverlaps;
        } else if (!(dSq >= reach * reach * kOut) && j > i) {
            if (length(d) - radius[i] - radius[j] < 0.0) halfOverlaps += 2;
        }
        if (j > i) minClearance = std::min(minClearance, length(d) - radius[i] - radius[j]);
    }

    void walk(std::size_t i, const detail::DenseCell& cell) {
        const std::span<const detail::TreeNode> nodes = grid.treeNodes();
        const Vec2 p = pos[i];
        const double ri = radius[i];
        const bool si = isStatic[i] != 0;
        std::array<std::uint32_t, 64> stack; // depth <= 29, one pending sibling per level
        std::size_t top = 0;
        stack[top++] = cell.root;
        while (top > 0) {
            const std::uint32_t x = stack[--top];
            const detail::TreeNode& node = nodes[x];
            const std::uint32_t count = node.end - node.begin;
            // Partners j != i in the node (not both static).
            const std::uint32_t self = itemOf[i] >= node.begin && itemOf[i] < node.end ? 1 : 0;
            const std::uint32_t partners = si ? count - statics[x] : count - self;
            if (partners == 0) continue;
            const double lowSq = detail::boxDistSqLower(node.lo, node.hi, p);
            // May it lower the minimum? (Needs a partner j > i; c >= the bound below.)
            const bool forMin =
                maxAgent[x] > i && std::sqrt(lowSq) - ri - maxRadius[x] < minClearance;
            if (!forMin) {
                const double far = ri + maxRadius[x];
                if (lowSq >= far * far * kOut) continue; // every pair clearly out
                const double near = ri + minRadius[x];
                if (detail::boxDistSqUpper(node.lo, node.hi, p) < near * near * kIn) {
                    halfOverlaps += partners; // every pair clearly in
                    continue;
                }
            }
            if (node.right == 0) {
                for (std::uint32_t k = node.begin; k < node.end; ++k)
                    visitPair(i, k);
                continue;
            }
            stack[top++] = node.right;
            stack[top++] = x + 1;
        }
    }
};

} // namespace

ClearanceStats Simulator::clearance(double range) const {
    ClearanceStats out;
    const std::size_t n = m_pos.size();
    if (n == 0) return out;
    const std::vector<double>& radius = m_radius;
    const double maxRadius = *std::max_element(radius.begin(), radius.end());
    // Agent pairs: every pair closer than r_i + r_j + range is examined once (j > i).
    detail::AgentGrid grid;
    grid.build(m_pos, 2.0 * maxRadius + range);
    std::vector<detail::ItemRange> ranges;
    // Pair (i, j), i < j: c = |p_j - p_i| - r_i - r_j, exactly as written here (bit for bit the
    // EventDetector's test).
    auto plainPairs = [&](std::size_t i, std::uint32_t begin, std::uint32_t end) {
        const Vec2 p = m_pos[i];
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t j = grid.itemAgent(k);
            // Each pair once; pairs of static agents are fixed scenery (static clusters
            // may overlap on purpose), not something the simulation did.
            if (j <= i || (m_static[i] && m_static[j])) continue;
            const double c = length(m_pos[j] - p) - radius[i] - radius[j];
            out.minAgentClearance = std::min(out.minAgentClearance, c);
            if (c < 0.0) ++out.overlappingPairs;
        }
    };
    const std::span<const detail::DenseCell> dense = grid.denseCells();
    if (dense.empty()) {
        for (std::size_t i = 0; i < n; ++i) {
            grid.rangesNear(m_pos[i], radius[i] + maxRadius + range, ranges);
            for (const detail::ItemRange& r : ranges)
                plainPairs(i, r.begin, r.end);
        }
    } else {
        // Dense cells: their trees (see denseClearance()). Every pair goes through its scheme
        // then, plain cells included, so that each pair is counted consistently.
        std::vector<std::uint32_t> itemOf(n);
        for (std::uint32_t k = 0; k < n; ++k)
            itemOf[grid.itemAgent(k)] = k;
        DenseClearance dc{grid, m_pos, radius, m_static, itemOf};
        dc.prepare();
        for (std::size_t i = 0; i < n; ++i) {
            grid.rangesNear(m_pos[i], radius[i] + maxRadius + range, ranges);
            for (const detail::ItemRange& r : ranges) {
                grid.splitRange(
                    r,
                    [&](std::uint32_t b, std::uint32_t e) {
                        for (std::uint32_t k = b; k < e; ++k)
                            dc.visitPair(i, k);
                    },
                    [&](const detail::DenseCell& cell) { dc.walk(i, cell); });
            }
        }
        out.minAgentClearance = dc.minClearance;
        out.overlappingPairs = static_cast<std::size_t>(dc.halfOverlaps / 2);
    }
    // Agents against obstacle segments (either side); a centre inside a polygon counts as
    // negative clearance.
    if (!m_vertices.empty()) {
        std::vector<std::uint32_t> segments;
        std::vector<double> distSq;
        for (std::size_t i = 0; i < n; ++i) {
            const Vec2 p = m_pos[i];
            m_obstacleGrid.query(p, radius[i] + range, segments, distSq, false);
            if (segments.empty()) continue;
            const double dist = std::sqrt(distSq.front());
            const ObstacleVertex& nearest = m_vertices[segments.front()];
            const std::vector<Vec2>& poly = m_obstacles[nearest.obstacle];
            // A segment (2 vertices) has no inside. pointInPolygon does the same IEEE
            // operations as the crossing-number loop that was here (commuted), bit for bit.
            const bool inside = poly.size() >= 3 && pointInPolygon(poly, p);
            const double c = inside ? -(dist + radius[i]) : dist - radius[i];
            out.minObstacleClearance = std::min(out.minObstacleClearance, c);
        }
    }
    return out;
}

} // namespace orca
