#include "orca/scene/history.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace orca::scene {

namespace {

// Exact comparisons: bit patterns, so that 0 and -0 (which serialise differently) differ and
// an undo restores every byte.
bool same(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same(int a, int b) {
    return a == b;
}
bool same(Vec2 a, Vec2 b) {
    return same(a.x, b.x) && same(a.y, b.y);
}
template <class T> bool same(const std::optional<T>& a, const std::optional<T>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || same(*a, *b);
}

bool same(const SceneAgent& a, const SceneAgent& b) {
    if (!(a.id == b.id) || !same(a.position, b.position) || !same(a.velocity, b.velocity) ||
        !same(a.goal, b.goal) || !same(a.prefVelocity, b.prefVelocity) ||
        a.isStatic != b.isStatic || a.detourMode != b.detourMode ||
        !same(a.stillSeconds, b.stillSeconds) || a.routeProgress != b.routeProgress ||
        !same(a.stallSeconds, b.stallSeconds) || a.waypoints.size() != b.waypoints.size())
        return false;
    for (std::size_t k = 0; k < a.waypoints.size(); ++k)
        if (!same(a.waypoints[k], b.waypoints[k])) return false;
    // The one list of parameter keys, walked over both override sets in step.
    bool equal = true;
    forEachAgentParam(a.overrides, b.overrides,
                      [&](std::string_view, const auto& va, const auto& vb) {
                          if (!same(va, vb)) equal = false;
                      });
    return equal;
}

bool same(const SceneObstacle& a, const SceneObstacle& b) {
    return a.id == b.id && std::equal(a.vertices.begin(), a.vertices.end(), b.vertices.begin(),
                                      b.vertices.end(), [](Vec2 p, Vec2 q) { return same(p, q); });
}

// The splices that turn `before` into `after`.
template <class T>
std::vector<Splice<T>> diffList(const std::vector<T>& before, const std::vector<T>& after) {
    std::vector<Splice<T>> out;
    if (before.size() == after.size()) {
        std::size_t i = 0;
        while (i < before.size()) {
            if (same(before[i], after[i])) {
                ++i;
                continue;
            }
            Splice<T> s;
            s.index = i;
            while (i < before.size() && !same(before[i], after[i])) {
                s.removed.push_back(before[i]);
                s.inserted.push_back(after[i]);
                ++i;
            }
            out.push_back(std::move(s));
        }
        return out;
    }
    std::size_t prefix = 0;
    const std::size_t shorter = std::min(before.size(), after.size());
    while (prefix < shorter && same(before[prefix], after[prefix]))
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < shorter - prefix &&
           same(before[before.size() - 1 - suffix], after[after.size() - 1 - suffix]))
        ++suffix;
    Splice<T> s;
    s.index = prefix;
    s.removed.assign(before.begin() + static_cast<std::ptrdiff_t>(prefix),
                     before.end() - static_cast<std::ptrdiff_t>(suffix));
    s.inserted.assign(after.begin() + static_cast<std::ptrdiff_t>(prefix),
                      after.end() - static_cast<std::ptrdiff_t>(suffix));
    out.push_back(std::move(s));
    return out;
}

// Checks that `list` holds `expected` at `index`.
template <class T>
bool holds(const std::vector<T>& list, std::size_t index, const std::vector<T>& expected) {
    if (index > list.size() || list.size() - index < expected.size()) return false;
    for (std::size_t k = 0; k < expected.size(); ++k)
        if (!same(list[index + k], expected[k])) return false;
    return true;
}

template <class T> void splice(std::vector<T>& list, const Splice<T>& s, bool forward) {
    const std::vector<T>& out = forward ? s.removed : s.inserted;
    const std::vector<T>& in = forward ? s.inserted : s.removed;
    const auto at = list.begin() + static_cast<std::ptrdiff_t>(s.index);
    if (out.size() == in.size()) {
        std::copy(in.begin(), in.end(), at);
        return;
    }
    list.erase(at, at + static_cast<std::ptrdiff_t>(out.size()));
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(s.index), in.begin(), in.end());
}

// Applies the splices forward (in order) or backward (inverses in reverse order) to a copy of
// the list, verifying each; the list changes only when all of them fit.
template <class T>
void applyList(std::vector<T>& list, const std::vector<Splice<T>>& splices, bool forward,
               const char* what) {
    if (splices.empty()) return;
    std::vector<T> work = list;
    auto one = [&](const Splice<T>& s) {
        if (!holds(work, s.index, forward ? s.removed : s.inserted))
            throw std::logic_error(std::string("scene edit does not match the scene's ") + what);
        splice(work, s, forward);
    };
    if (forward)
        std::for_each(splices.begin(), splices.end(), one);
    else
        std::for_each(splices.rbegin(), splices.rend(), one);
    list = std::move(work);
}

template <class T> bool lengthPreservingList(const std::vector<Splice<T>>& splices) {
    return std::all_of(splices.begin(), splices.end(),
                       [](const Splice<T>& s) { return s.removed.size() == s.inserted.size(); });
}

template <class T> std::size_t storedList(const std::vector<Splice<T>>& splices) {
    std::size_t n = 0;
    for (const Splice<T>& s : splices)
        n += s.removed.size() + s.inserted.size();
    return n;
}

// Merges `next` into `prev` (both length-preserving): element by element, the first before and
// the last after, then back into runs.
template <class T>
std::vector<Splice<T>> composeReplacements(const std::vector<Splice<T>>& prev,
                                           const std::vector<Splice<T>>& next) {
    std::vector<std::size_t> order;
    std::unordered_map<std::size_t, std::pair<T, T>> changes;
    auto add = [&](const std::vector<Splice<T>>& splices) {
        for (const Splice<T>& s : splices) {
            for (std::size_t k = 0; k < s.removed.size(); ++k) {
                const std::size_t i = s.index + k;
                auto it = changes.find(i);
                if (it == changes.end()) {
                    changes.emplace(i, std::pair<T, T>{s.removed[k], s.inserted[k]});
                    order.push_back(i);
                } else {
                    it->second.second = s.inserted[k];
                }
            }
        }
    };
    add(prev);
    add(next);
    std::sort(order.begin(), order.end());
    std::vector<Splice<T>> out;
    for (const std::size_t i : order) {
        auto& [before, after] = changes.at(i);
        if (same(before, after)) continue; // changed and changed back
        if (out.empty() || out.back().index + out.back().removed.size() != i) {
            out.emplace_back();
            out.back().index = i;
        }
        out.back().removed.push_back(std::move(before));
        out.back().inserted.push_back(std::move(after));
    }
    return out;
}

const std::string kNoLabel;

} // namespace

SceneHeader SceneHeader::of(const Scene& scene) {
    SceneHeader h;
    h.name = scene.name;
    h.description = scene.description;
    h.simulation = scene.simulation;
    h.agentDefaults = scene.agentDefaults;
    h.extra = scene.extra;
    return h;
}

void SceneHeader::applyTo(Scene& scene) const {
    scene.name = name;
    scene.description = description;
    scene.simulation = simulation;
    scene.agentDefaults = agentDefaults;
    scene.extra = extra;
}

bool operator==(const SceneHeader& a, const SceneHeader& b) {
    return a.name == b.name && a.description == b.description &&
           a.simulation.params == b.simulation.params &&
           same(a.simulation.time, b.simulation.time) && a.simulation.step == b.simulation.step &&
           a.agentDefaults == b.agentDefaults && a.extra == b.extra;
}

SceneEdit SceneEdit::diff(const Scene& before, const Scene& after, std::string label) {
    SceneEdit e;
    e.label = std::move(label);
    e.agents = diffList(before.agents, after.agents);
    e.obstacles = diffList(before.obstacles, after.obstacles);
    SceneHeader hb = SceneHeader::of(before);
    SceneHeader ha = SceneHeader::of(after);
    if (!(hb == ha)) {
        e.headerBefore = std::move(hb);
        e.headerAfter = std::move(ha);
    }
    return e;
}

bool SceneEdit::lengthPreserving() const {
    return lengthPreservingList(agents) && lengthPreservingList(obstacles);
}

std::size_t SceneEdit::storedElements() const {
    return storedList(agents) + storedList(obstacles) + (headerAfter ? 2 : 0);
}

void SceneEdit::apply(Scene& scene) const {
    std::vector<SceneAgent> a = scene.agents;
    applyList(a, agents, true, "agents");
    std::vector<SceneObstacle> o = scene.obstacles;
    applyList(o, obstacles, true, "obstacles");
    scene.agents = std::move(a);
    scene.obstacles = std::move(o);
    if (headerAfter) headerAfter->applyTo(scene);
}

void SceneEdit::revert(Scene& scene) const {
    std::vector<SceneAgent> a = scene.agents;
    applyList(a, agents, false, "agents");
    std::vector<SceneObstacle> o = scene.obstacles;
    applyList(o, obstacles, false, "obstacles");
    scene.agents = std::move(a);
    scene.obstacles = std::move(o);
    if (headerBefore) headerBefore->applyTo(scene);
}

void EditHistory::record(SceneEdit edit, const std::string& mergeKey) {
    if (edit.empty()) return;
    for (const SceneEdit& e : m_undone)
        m_stored -= e.storedElements();
    m_undone.clear();
    if (!mergeKey.empty() && mergeKey == m_mergeKey && !m_done.empty() &&
        m_done.back().lengthPreserving() && edit.lengthPreserving()) {
        SceneEdit& top = m_done.back();
        m_stored -= top.storedElements();
        top.agents = composeReplacements(top.agents, edit.agents);
        top.obstacles = composeReplacements(top.obstacles, edit.obstacles);
        if (edit.headerAfter) {
            if (!top.headerBefore) top.headerBefore = std::move(edit.headerBefore);
            top.headerAfter = std::move(edit.headerAfter);
            if (*top.headerBefore == *top.headerAfter) {
                top.headerBefore.reset();
                top.headerAfter.reset();
            }
        }
        m_stored += top.storedElements();
        if (top.empty()) {
            m_done.pop_back(); // dragged back to where it started
            m_mergeKey.clear();
        }
        return;
    }
    m_stored += edit.storedElements();
    m_done.push_back(std::move(edit));
    m_mergeKey = mergeKey;
    trim();
}

void EditHistory::trim() {
    while (m_done.size() > 1 &&
           (m_done.size() > m_limits.maxEdits || m_stored > m_limits.maxStoredElements)) {
        m_stored -= m_done.front().storedElements();
        m_done.erase(m_done.begin());
    }
}

const std::string& EditHistory::undoLabel() const {
    return m_done.empty() ? kNoLabel : m_done.back().label;
}

const std::string& EditHistory::redoLabel() const {
    return m_undone.empty() ? kNoLabel : m_undone.back().label;
}

const SceneEdit* EditHistory::undo(Scene& scene) {
    if (m_done.empty()) return nullptr;
    m_done.back().revert(scene);
    m_undone.push_back(std::move(m_done.back()));
    m_done.pop_back();
    m_mergeKey.clear();
    return &m_undone.back();
}

const SceneEdit* EditHistory::redo(Scene& scene) {
    if (m_undone.empty()) return nullptr;
    m_undone.back().apply(scene);
    m_done.push_back(std::move(m_undone.back()));
    m_undone.pop_back();
    m_mergeKey.clear();
    return &m_done.back();
}

void EditHistory::clear() {
    m_done.clear();
    m_undone.clear();
    m_mergeKey.clear();
    m_stored = 0;
}

} // namespace orca::scene
