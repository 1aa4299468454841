// Roadmap queries: distance fields and their cache, steer, path (roadmap.hpp). The graph is
// built in roadmap.cpp.
#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "orca/roadmap.hpp"
#include "roadmap_graph.hpp"

namespace orca {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

} // namespace

std::size_t Roadmap::Field::bytes() const {
    return sizeof(Field) + dist.capacity() * sizeof(double) +
           links.capacity() * sizeof(std::uint32_t);
}

std::size_t Roadmap::KeyHash::operator()(const Key& k) const {
    // splitmix64-style mixing of both words.
    std::uint64_t h = k.first * 0x9e3779b97f4a7c15ull ^ (k.second + 0x632be59bd9b4e019ull);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return static_cast<std::size_t>(h);
}

Roadmap::Key Roadmap::keyOf(Vec2 target) {
    // + 0.0 turns -0.0 into +0.0, so equal targets have equal keys.
    return {std::bit_cast<std::uint64_t>(target.x + 0.0),
            std::bit_cast<std::uint64_t>(target.y + 0.0)};
}

Roadmap::Field Roadmap::computeField(Vec2 target) const {
    const detail::RoadmapGraph& g = *m_graph;
    Field f;
    f.dist.assign(g.nodes.size(), kInf);
    g.targetLinks(target, f.links);
    // Dijkstra from the target; the heap orders by (distance, node), so the run, and every
    // rounding in it, is the same whatever happened before.
    using Item = std::pair<double, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    for (std::uint32_t n : f.links) {
        const double d = length(g.nodes[n] - target);
        if (d < f.dist[n]) {
            f.dist[n] = d;
            heap.emplace(d, n);
        }
    }
    while (!heap.empty()) {
        const auto [d, n] = heap.top();
        heap.pop();
        if (d > f.dist[n]) continue;
        for (std::uint32_t k = g.adjStart[n]; k < g.adjStart[n + 1]; ++k) {
            const std::uint32_t m = g.adjNode[k];
            const double nd = d + g.adjWeight[k];
            if (nd < f.dist[m]) {
                f.dist[m] = nd;
                heap.emplace(nd, m);
            }
        }
    }
    return f;
}

const Roadmap::Field* Roadmap::cachedField(Vec2 target) const {
    const auto it = m_cache.find(keyOf(target));
    return it == m_cache.end() ? nullptr : it->second.field.get();
}

void Roadmap::prepare(std::span<const Vec2> targets) {
    if (!m_graph) return;
    ++m_stamp;
    Key last{~0ull, ~0ull};
    for (Vec2 t : targets) {
        if (!finite(t)) continue;
        const Key key = keyOf(t);
        if (key == last) continue; // agents sharing a target often come in a row
        last = key;
        const auto it = m_cache.find(key);
        if (it != m_cache.end()) {
            it->second.stamp = m_stamp;
            continue;
        }
        auto field = std::make_shared<const Field>(computeField(t));
        const std::size_t size = field->bytes();
        if (m_cacheBytes + size > m_limits.maxCacheBytes) {
            // Evict the fields not named by this call, least recently prepared first (ties by
            // key, so the choice is deterministic, though no result depends on it).
            std::vector<std::pair<std::uint64_t, Key>> old;
            for (const auto& [k, e] : m_cache)
                if (e.stamp != m_stamp) old.emplace_back(e.stamp, k);
            std::sort(old.begin(), old.end());
            for (const auto& [stamp, k] : old) {
                if (m_cacheBytes + size <= m_limits.maxCacheBytes) break;
                const auto victim = m_cache.find(k);
                m_cacheBytes -= victim->second.field->bytes();
                m_cache.erase(victim);
            }
        }
        // A field that still does not fit is not kept: steer() computes it when asked.
        if (m_cacheBytes + size > m_limits.maxCacheBytes) continue;
        m_cacheBytes += size;
        m_cache.emplace(key, Entry{std::move(field), m_stamp});
    }
}

std::int64_t Roadmap::chooseNode(Vec2 p, double radius, const Field& field) const {
    const detail::RoadmapGraph& g = *m_graph;
    if (g.nodes.empty()) return -1;
    const double r = std::min(radius, g.edgeRadius);
    const double allSq = g.nodeGrid.farthestSq(p);
    thread_local std::vector<std::pair<double, std::uint32_t>> order;
    // Disks of radius R, 4 R, 16 R, ...: each round looks at the nodes new to its disk (the
    // inner ones had no visible node with a finite distance), best key first.
    double inner = -1.0;
    for (double R = g.searchRadius;; R *= 4.0) {
        const double innerSq = inner < 0.0 ? -1.0 : inner * inner;
        const double outerSq = R * R;
        order.clear();
        g.nodeGrid.forEachIn(g.nodeGrid.cx(p.x - R), g.nodeGrid.cy(p.y - R), g.nodeGrid.cx(p.x + R),
                             g.nodeGrid.cy(p.y + R), [&](std::uint32_t n) {
                                 const double dn = field.dist[n];
                                 if (dn == kInf) return;
                                 const double dSq = absSq(g.nodes[n] - p);
                                 if (dSq <= innerSq || dSq > outerSq) return;
                                 order.emplace_back(std::sqrt(dSq) + dn, n);
                             });
        // Best key first (ties by index): usually only one or two are tested, so a scan for
        // the minimum of the remaining ones beats sorting them all.
        for (std::size_t left = order.size(); left > 0; --left) {
            std::size_t best = 0;
            for (std::size_t i = 1; i < left; ++i)
                if (order[i].first < order[best].first ||
                    (order[i].first == order[best].first && order[i].second < order[best].second))
                    best = i;
            const std::uint32_t n = order[best].second;
            if (!g.blocked(p, g.nodes[n], r, true, false)) return n;
            order[best] = order[left - 1];
        }
        if (outerSq >= allSq) return -1; // the disk held every node
        inner = R;
    }
}

Roadmap::Steer Roadmap::steer(Vec2 p, double radius, Vec2 target) const {
    Steer s;
    s.point = target;
    if (!finite(p) || !finite(target)) {
        s.routed = false;
        return s;
    }
    if (!m_graph) {
        s.direct = true;
        return s;
    }
    const double r = radius > 0.0 ? radius : 0.0; // also NaN -> 0
    if (!m_graph->blocked(p, target, r, true, true)) {
        s.direct = true;
        return s;
    }
    const Field* field = cachedField(target);
    Field local;
    if (field == nullptr) {
        local = computeField(target);
        field = &local;
    }
    const std::int64_t node = chooseNode(p, r, *field);
    if (node < 0) {
        s.routed = false;
        return s;
    }
    s.node = node;
    s.point = m_graph->nodes[static_cast<std::size_t>(node)];
    return s;
}

std::vector<Vec2> Roadmap::path(Vec2 p, double radius, Vec2 target) const {
    const Steer s = steer(p, radius, target);
    if (!s.routed) return {};
    if (s.direct) return {p, target};
    const detail::RoadmapGraph& g = *m_graph;
    const Field* field = cachedField(target);
    Field local;
    if (field == nullptr) {
        local = computeField(target);
        field = &local;
    }
    std::vector<Vec2> out{p};
    auto n = static_cast<std::uint32_t>(s.node);
    // Follow the field down: from n, the target when n is linked to it and that is shortest,
    // else the neighbour m minimising w(n, m) + dist(m) (ties: the target, then the lowest
    // index). Dijkstra made dist(n) exactly that minimum, so each hop keeps to a shortest path.
    for (std::size_t hop = 0; hop <= g.nodes.size(); ++hop) {
        out.push_back(g.nodes[n]);
        double best = kInf;
        std::int64_t next = -1;
        if (std::binary_search(field->links.begin(), field->links.end(), n)) {
            best = length(g.nodes[n] - target);
            next = -2; // the target
        }
        for (std::uint32_t k = g.adjStart[n]; k < g.adjStart[n + 1]; ++k) {
            const double v = g.adjWeight[k] + field->dist[g.adjNode[k]];
            if (v < best) {
                best = v;
                next = g.adjNode[k];
            }
        }
        if (next == -2) break;
        if (next < 0) return {}; // cannot happen for a node with a finite distance
        n = static_cast<std::uint32_t>(next);
    }
    out.push_back(target);
    return out;
}

bool Roadmap::reachable(Vec2 p, double radius, Vec2 target) const {
    return steer(p, radius, target).routed;
}

std::size_t Roadmap::bytes() const {
    std::size_t total = sizeof(*this) + (m_graph ? m_graph->bytes() : 0) + m_cacheBytes;
    total +=
        m_cache.bucket_count() * sizeof(void*) + m_cache.size() * (sizeof(Key) + sizeof(Entry));
    return total;
}

} // namespace orca
