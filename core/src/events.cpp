// Event kinds' names, and EventDetector: following agents and obstacles between observations,
// obstacle penetrations and the per-agent events (LP3 spells, stalls, oscillations, arrivals,
// detours). The overlap detection is in events_overlaps.cpp.
#include "orca/events.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <utility>

#include "step_watch.hpp"

namespace orca {

namespace {

constexpr std::array<std::string_view, kEventKindCount> kKindNames{"overlap-begin",
                                                                   "overlap-end",
                                                                   "overlap-flood-begin",
                                                                   "overlap-flood-end",
                                                                   "obstacle-penetration",
                                                                   "lp3-begin",
                                                                   "lp3-end",
                                                                   "stalled",
                                                                   "oscillation",
                                                                   "arrived",
                                                                   "detour-enter",
                                                                   "detour-exit",
                                                                   "waypoint-reached"};

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

/// FNV-1a over the bits of a double.
void hashMix(std::uint64_t& h, double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    for (int b = 0; b < 8; ++b) {
        h ^= (bits >> (8 * b)) & 0xffu;
        h *= 0x100000001b3ull;
    }
}

/// Obstacle bounding boxes are widened by this relative (and absolute) margin on top of the
/// agent radius, so that rounding in `box - radius` can never drop a disk that touches the
/// polygon by less than an ulp; the exact test decides.
double widen(double radius) {
    return radius * (1.0 + 1e-9) + 1e-9;
}

/// Depth of the disk (p, r) in polygon `v` (counter-clockwise; 2 vertices = a segment), or a
/// negative number when they do not intersect. dist = sqrt(min over edges of
/// distSqPointSegment(a, b, p)); inside (pointInPolygon, the crossing-number test of
/// Simulator::clearance()) => r + dist; else dist < r => r - dist.
double penetrationDepth(std::span<const Vec2> v, Vec2 p, double r) {
    const std::size_t k = v.size();
    double d2 = std::numeric_limits<double>::infinity();
    bool inside = false;
    if (k == 2) {
        d2 = distSqPointSegment(v[0], v[1], p);
    } else {
        for (std::size_t a = 0, b = k - 1; a < k; b = a++)
            d2 = std::min(d2, distSqPointSegment(v[b], v[a], p));
        // The same IEEE operations as Simulator::clearance()'s crossing-number test.
        inside = pointInPolygon(v, p);
    }
    const double dist = std::sqrt(d2);
    if (inside) return r + dist;
    if (dist < r) return r - dist;
    return -1.0;
}

/// Steps of stillness that make `seconds` (at least; 0 for seconds <= 0). The 1e-9 absorbs
/// the rounding of Δt: 0.9 s at Δt = 0.3 is 3 steps although 3 * 0.3 < 0.9 in doubles.
std::uint64_t stepsFor(double seconds, double dt) {
    if (!(seconds > 0.0)) return 0;
    const double steps = std::ceil(seconds / dt - 1e-9);
    return steps >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max()
                           : static_cast<std::uint64_t>(std::max(steps, 0.0));
}

/// Largest step distance that still lies "within" `seconds` (floor, same 1e-9 as stepsFor).
std::uint64_t windowSteps(double seconds, double dt) {
    if (!(seconds > 0.0)) return 0;
    const double steps = std::floor(seconds / dt + 1e-9);
    return steps >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max()
                           : static_cast<std::uint64_t>(std::max(steps, 0.0));
}

Event makeEvent(std::uint64_t step, EventKind kind, std::uint32_t agent, double value = 0.0) {
    Event e;
    e.step = step;
    e.kind = kind;
    e.agents = {agent};
    e.value = value;
    return e;
}

} // namespace

std::string_view toString(EventKind kind) {
    return kKindNames[static_cast<std::size_t>(kind)];
}

std::optional<EventKind> eventKindFromString(std::string_view name) {
    for (std::size_t k = 0; k < kEventKindCount; ++k)
        if (kKindNames[k] == name) return static_cast<EventKind>(k);
    return std::nullopt;
}

EventDetector::EventDetector(const EventParams& params) : m_params(params) {}

void EventDetector::reset(const Simulator& sim, std::vector<Event>& out) {
    m_observed = false;
    m_step = 0;
    m_agentIds.clear();
    m_agents.clear();
    m_kept.clear();
    m_flipSteps.clear();
    m_overlaps.clear();
    m_flooded = false;
    m_floodSince = 0;
    m_obstacleIds.clear();
    m_contacts.clear();
    process(sim, out, true);
}

void EventDetector::observe(const Simulator& sim, std::vector<Event>& out) {
    process(sim, out, !m_observed);
}

std::size_t EventDetector::bytes() const {
    return sizeof(*this) + m_agentIds.capacity() * sizeof(AgentId) +
           m_agents.capacity() * sizeof(AgentTrack) + m_kept.capacity() +
           m_flipSteps.capacity() * sizeof(std::uint64_t) +
           m_overlaps.capacity() * sizeof(OpenOverlap) +
           m_obstacleIds.capacity() * sizeof(ObstacleId) + m_contacts.capacity() * sizeof(Contact);
}

StepWatch EventDetector::watch() const {
    StepWatch w;
    w.slowSpeedRatio = m_params.stallSpeedRatio;
    // cos of the flip angle; cos(90°) rounds to 6e-17, snapped to 0 so that an exact right
    // angle is not "more than 90°". No flips counted: no flip flags.
    double cosFlip = std::cos(m_params.oscillationDegrees * std::numbers::pi / 180.0);
    if (std::abs(cosFlip) < 1e-15) cosFlip = 0.0;
    w.cosFlip = m_params.oscillationFlips > 0 ? cosFlip : -2.0;
    return w;
}

EventDetector::AgentRules EventDetector::rulesFor(double dt) const {
    AgentRules r;
    r.dt = dt;
    r.stallSteps = stepsFor(m_params.stallSeconds, dt);
    r.window = windowSteps(m_params.oscillationSeconds, dt);
    r.flips = static_cast<std::size_t>(std::max(m_params.oscillationFlips, 0));
    return r;
}

void EventDetector::process(const Simulator& sim, std::vector<Event>& out, bool first) {
    const std::uint64_t step = sim.stepCount();
    // Same step again (an edit) or a clock moved backwards: no simulated time elapsed.
    const std::uint64_t elapsed = first || step <= m_step ? 0 : step - m_step;
    Scratch& s = m_scratch;
    // One step from the state observed last, nothing else changed, and the step noted its
    // flags with this detector's watch: read the flags instead of every agent (the same
    // events; docs/events.md, "Cost").
    const StepWatch watch = this->watch();
    const auto flags = sim.lastStepFlags();
    const StepWatch& last = sim.lastStepWatch();
    const bool fast = !first && s.factsValid && elapsed == 1 && !flags.empty() &&
                      flags.size() == m_agents.size() &&
                      sim.revisionBeforeLastStep() == s.revision &&
                      last.slowSpeedRatio == watch.slowSpeedRatio && last.cosFlip == watch.cosFlip;
    std::vector<Event>& events = s.events;
    events.clear();
    double maxRadius = s.maxRadius;
    double stepBound = -1.0;
    if (fast) {
        detectFlagged(sim, flags, step);
        s.radiusChanged = false;
        if (!s.obstaclesValid) syncObstacles(sim, maxRadius);
        stepBound = sim.lastStepStats().maxMove; // (how far any agent moved in the step)
    } else {
        syncAgents(sim);
        // The per-agent events first: their pass over the agents also finds the largest radius
        // and whether a radius changed since the overlap candidates' build, which the overlaps
        // and obstacles need (one read of the agents' parameters instead of two). The order
        // of detection does not matter: the step's events are sorted below.
        maxRadius = detectPerAgent(sim, step, elapsed);
        s.maxRadius = maxRadius;
        s.factsValid = true;
        syncObstacles(sim, maxRadius);
    }
    detectOverlaps(sim, maxRadius, step, stepBound);
    detectPenetrations(sim, step);
    // For the next step: the flags, and the pairs that may overlap after it (closer than
    // r_i + r_j + twice the farthest move before it; the margins cover the rounding of the
    // move, Simulator::lastStepContactsComplete checks them).
    StepWatch next = watch;
    next.contactRadius = maxRadius;
    next.contactReach = 2.0 * s.maxSpeed * sim.params().timeStep * (1.0 + 1e-6) + 1e-9 * maxRadius;
    sim.watchSteps(next);
    // One step's events: by kind, then agents, then obstacle (all carry the same step).
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        if (a.kind != b.kind) return a.kind < b.kind;
        if (a.agents != b.agents) return a.agents < b.agents;
        if (a.obstacle != b.obstacle) return a.obstacle < b.obstacle;
        return a.value < b.value; // waypoint-reached: several in one step, by index
    });
    out.insert(out.end(), events.begin(), events.end());
    m_step = step;
    m_observed = true;
    s.revision = sim.revision();
}

void EventDetector::syncAgents(const Simulator& sim) {
    const std::size_t n = sim.agentCount();
    bool same = n == m_agentIds.size();
    for (std::size_t i = 0; same && i < n; ++i)
        same = sim.agentIdAt(i) == m_agentIds[i];
    if (same) return;

    // Survivors keep their tracking under their new index; new agents start fresh.
    const std::size_t flips = static_cast<std::size_t>(std::max(m_params.oscillationFlips, 0));
    std::vector<std::pair<AgentId, std::uint32_t>> old(m_agentIds.size());
    for (std::size_t o = 0; o < m_agentIds.size(); ++o)
        old[o] = {m_agentIds[o], static_cast<std::uint32_t>(o)};
    std::sort(old.begin(), old.end());
    std::vector<std::uint32_t> oldToNew(m_agentIds.size(), kNone);
    std::vector<AgentId> ids(n);
    std::vector<AgentTrack> agents(n);
    std::vector<std::uint64_t> flipSteps(n * flips, 0);
    for (std::size_t i = 0; i < n; ++i) {
        ids[i] = sim.agentIdAt(i);
        const auto it = std::lower_bound(old.begin(), old.end(), std::make_pair(ids[i], 0u));
        if (it == old.end() || it->first != ids[i]) continue;
        const std::size_t o = it->second;
        oldToNew[o] = static_cast<std::uint32_t>(i);
        agents[i] = m_agents[o];
        std::copy_n(m_flipSteps.begin() + static_cast<std::ptrdiff_t>(o * flips), flips,
                    flipSteps.begin() + static_cast<std::ptrdiff_t>(i * flips));
    }
    std::vector<OpenOverlap> overlaps;
    for (const OpenOverlap& ov : m_overlaps) {
        const std::uint32_t a = oldToNew[ov.i];
        const std::uint32_t b = oldToNew[ov.j];
        if (a != kNone && b != kNone)
            overlaps.push_back({std::min(a, b), std::max(a, b), ov.deepest});
    }
    std::sort(overlaps.begin(), overlaps.end(), [](const OpenOverlap& x, const OpenOverlap& y) {
        return std::pair(x.i, x.j) < std::pair(y.i, y.j);
    });
    std::vector<Contact> contacts;
    for (const Contact& c : m_contacts)
        if (oldToNew[c.agent] != kNone) contacts.push_back({oldToNew[c.agent], c.obstacle});
    std::sort(contacts.begin(), contacts.end());

    m_scratch.candidatesValid = false; // indices changed
    m_agentIds = std::move(ids);
    m_agents = std::move(agents);
    m_kept.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_kept[i] = m_agents[i].kept() ? 1 : 0;
    m_flipSteps = std::move(flipSteps);
    m_overlaps = std::move(overlaps);
    m_contacts = std::move(contacts);
}

void EventDetector::syncObstacles(const Simulator& sim, double maxRadius) {
    const std::size_t m = sim.obstacleCount();
    bool same = m == m_obstacleIds.size();
    for (std::size_t o = 0; same && o < m; ++o)
        same = sim.obstacleIdAt(o) == m_obstacleIds[o];
    if (!same) {
        std::vector<std::pair<ObstacleId, std::uint32_t>> now(m);
        for (std::size_t o = 0; o < m; ++o)
            now[o] = {sim.obstacleIdAt(o), static_cast<std::uint32_t>(o)};
        std::sort(now.begin(), now.end());
        std::vector<Contact> contacts;
        for (const Contact& c : m_contacts) {
            const ObstacleId id = m_obstacleIds[c.obstacle];
            const auto it = std::lower_bound(now.begin(), now.end(), std::make_pair(id, 0u));
            if (it != now.end() && it->first == id) contacts.push_back({c.agent, it->second});
        }
        std::sort(contacts.begin(), contacts.end());
        m_contacts = std::move(contacts);
        m_obstacleIds.resize(m);
        for (std::size_t o = 0; o < m; ++o)
            m_obstacleIds[o] = sim.obstacleIdAt(o);
    }

    // The index is scratch: rebuilt when the polygons differ from the ones it was built for
    // (a hash of every vertex, O(vertices)), when an agent grew beyond the radius it was
    // widened by, or after a copy.
    Scratch& s = m_scratch;
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t o = 0; o < m; ++o) {
        const auto verts = sim.obstacleVertices(m_obstacleIds[o]);
        hashMix(h, static_cast<double>(verts.size()));
        for (const Vec2& v : verts) {
            hashMix(h, v.x);
            hashMix(h, v.y);
        }
    }
    if (s.obstaclesValid && s.obstacleHash == h && maxRadius <= s.builtMaxRadius) return;
    s.obstaclesValid = true;
    s.obstacleHash = h;
    s.builtMaxRadius = maxRadius;
    s.polyStart.assign(1, 0);
    s.polyVertices.clear();
    s.boxMin.assign(m, Vec2(0.0));
    s.boxMax.assign(m, Vec2(0.0));
    s.gridStart.clear();
    s.gridItems.clear();
    s.gridCols = s.gridRows = 0;
    if (m == 0) return;
    Vec2 lo(std::numeric_limits<double>::infinity());
    Vec2 hi(-std::numeric_limits<double>::infinity());
    for (std::size_t o = 0; o < m; ++o) {
        const auto verts = sim.obstacleVertices(m_obstacleIds[o]);
        s.polyVertices.insert(s.polyVertices.end(), verts.begin(), verts.end());
        s.polyStart.push_back(static_cast<std::uint32_t>(s.polyVertices.size()));
        Vec2 bmin = verts[0];
        Vec2 bmax = verts[0];
        for (const Vec2& v : verts) {
            bmin = Vec2(std::min(bmin.x, v.x), std::min(bmin.y, v.y));
            bmax = Vec2(std::max(bmax.x, v.x), std::max(bmax.y, v.y));
        }
        s.boxMin[o] = bmin;
        s.boxMax[o] = bmax;
        lo = Vec2(std::min(lo.x, bmin.x), std::min(lo.y, bmin.y));
        hi = Vec2(std::max(hi.x, bmax.x), std::max(hi.y, bmax.y));
    }
    // A coarse grid over the widened union of the boxes, about 4 cells per obstacle (at most
    // 4096 per side): each obstacle is listed in every cell its widened box covers, so an
    // agent looks at one cell.
    const double grow = widen(maxRadius);
    lo -= Vec2(grow);
    hi += Vec2(grow);
    const double w = hi.x - lo.x;
    const double hgt = hi.y - lo.y;
    double cell = std::sqrt(w * hgt / static_cast<double>(4 * m + 16));
    cell = std::max({cell, w / 4096.0, hgt / 4096.0});
    if (!(cell > 0.0) || !std::isfinite(cell)) cell = 1.0;
    s.gridOrigin = lo;
    s.gridCell = cell;
    s.gridCols = static_cast<int>(std::clamp(std::ceil(w / cell), 1.0, 4096.0));
    s.gridRows = static_cast<int>(std::clamp(std::ceil(hgt / cell), 1.0, 4096.0));
    const auto cols = static_cast<std::size_t>(s.gridCols);
    const auto rows = static_cast<std::size_t>(s.gridRows);
    auto cellRange = [&](std::size_t o, std::size_t& x0, std::size_t& x1, std::size_t& y0,
                         std::size_t& y1) {
        auto idx = [&](double v, double origin, std::size_t count) {
            const double c = std::floor((v - origin) / cell);
            return static_cast<std::size_t>(std::clamp(c, 0.0, static_cast<double>(count - 1)));
        };
        x0 = idx(s.boxMin[o].x - grow, lo.x, cols);
        x1 = idx(s.boxMax[o].x + grow, lo.x, cols);
        y0 = idx(s.boxMin[o].y - grow, lo.y, rows);
        y1 = idx(s.boxMax[o].y + grow, lo.y, rows);
    };
    s.gridStart.assign(cols * rows + 1, 0);
    std::size_t x0, x1, y0, y1;
    for (std::size_t o = 0; o < m; ++o) {
        cellRange(o, x0, x1, y0, y1);
        for (std::size_t y = y0; y <= y1; ++y)
            for (std::size_t x = x0; x <= x1; ++x)
                ++s.gridStart[y * cols + x + 1];
    }
    for (std::size_t c = 0; c < cols * rows; ++c)
        s.gridStart[c + 1] += s.gridStart[c];
    s.gridItems.resize(s.gridStart.back());
    std::vector<std::uint32_t> cursor(s.gridStart.begin(), s.gridStart.end() - 1);
    for (std::size_t o = 0; o < m; ++o) { // obstacle order: each cell's list is ascending
        cellRange(o, x0, x1, y0, y1);
        for (std::size_t y = y0; y <= y1; ++y)
            for (std::size_t x = x0; x <= x1; ++x)
                s.gridItems[cursor[y * cols + x]++] = static_cast<std::uint32_t>(o);
    }
}

void EventDetector::detectPenetrations(const Simulator& sim, std::uint64_t step) {
    Scratch& s = m_scratch;
    s.contacts.clear();
    s.contactDepth.clear();
    if (!m_obstacleIds.empty() && s.gridCols > 0) {
        const auto pos = sim.positions();
        const auto params = sim.agentParams();
        const auto cols = static_cast<std::size_t>(s.gridCols);
        const double invCell = 1.0 / s.gridCell;
        const Vec2 hi = s.gridOrigin + s.gridCell * Vec2(s.gridCols, s.gridRows);
        for (std::size_t i = 0; i < pos.size(); ++i) {
            const Vec2 p = pos[i];
            // Outside the widened union of the boxes (or not finite): no obstacle is in reach.
            if (!(p.x >= s.gridOrigin.x && p.y >= s.gridOrigin.y && p.x <= hi.x && p.y <= hi.y))
                continue;
            const double r = params[i].radius;
            const double grow = widen(r);
            const auto cx =
                std::min(static_cast<std::size_t>((p.x - s.gridOrigin.x) * invCell), cols - 1);
            const auto cy = std::min(static_cast<std::size_t>((p.y - s.gridOrigin.y) * invCell),
                                     static_cast<std::size_t>(s.gridRows) - 1);
            const std::size_t c = cy * cols + cx;
            for (std::uint32_t k = s.gridStart[c]; k < s.gridStart[c + 1]; ++k) {
                const std::uint32_t o = s.gridItems[k];
                if (p.x < s.boxMin[o].x - grow || p.x > s.boxMax[o].x + grow ||
                    p.y < s.boxMin[o].y - grow || p.y > s.boxMax[o].y + grow)
                    continue;
                const std::span<const Vec2> poly(s.polyVertices.data() + s.polyStart[o],
                                                 s.polyStart[o + 1] - s.polyStart[o]);
                const double depth = penetrationDepth(poly, p, r);
                if (depth >= 0.0) {
                    s.contacts.push_back({static_cast<std::uint32_t>(i), o});
                    s.contactDepth.push_back(depth);
                }
            }
        }
    }
    // Report the pairs that were not in contact at the last observation (both lists sorted).
    std::size_t a = 0;
    for (std::size_t b = 0; b < s.contacts.size(); ++b) {
        while (a < m_contacts.size() && m_contacts[a] < s.contacts[b])
            ++a;
        if (a < m_contacts.size() && m_contacts[a] == s.contacts[b]) continue;
        Event e =
            makeEvent(step, EventKind::ObstaclePenetration, s.contacts[b].agent, s.contactDepth[b]);
        e.obstacle = s.contacts[b].obstacle;
        s.events.push_back(std::move(e));
    }
    m_contacts.assign(s.contacts.begin(), s.contacts.end());
}

void EventDetector::updateAgent(std::size_t i, std::uint8_t facts, bool lp3Known, bool flip,
                                std::uint32_t progress, std::uint64_t step, std::uint64_t elapsed,
                                const AgentRules& rules, std::vector<Event>& events) {
    AgentTrack& t = m_agents[i];
    const auto agent = static_cast<std::uint32_t>(i);

    // LP3 spells: the flags say which agents the step that produced this state solved with LP3.
    if (lp3Known) {
        const bool now = (facts & step_flag::kLp3) != 0;
        if (now && !t.lp3) {
            events.push_back(makeEvent(step, EventKind::Lp3Begin, agent));
            t.lp3Since = step;
        } else if (!now && t.lp3) {
            events.push_back(
                makeEvent(step, EventKind::Lp3End, agent, static_cast<double>(step - t.lp3Since)));
        }
        t.lp3 = now;
    }

    // Stalled: every observed step below the stall speed counts (the velocity of a state is
    // the one held during the step that produced it).
    if ((facts & step_flag::kSlow) != 0) {
        t.stillSteps += elapsed;
        if (!t.stallReported && t.stillSteps >= rules.stallSteps) {
            events.push_back(makeEvent(step, EventKind::Stalled, agent,
                                       static_cast<double>(t.stillSteps) * rules.dt));
            t.stallReported = true;
        }
    } else {
        t.stillSteps = 0; // moving again, arrived, or no longer a goal agent: re-armed
        t.stallReported = false;
    }

    // Oscillation: the flips within the window.
    if (flip) {
        std::uint64_t* w = m_flipSteps.data() + i * rules.flips;
        std::uint32_t drop = 0;
        while (drop < t.flipCount && step - w[drop] > rules.window)
            ++drop;
        std::copy(w + drop, w + t.flipCount, w);
        t.flipCount -= drop;
        w[t.flipCount++] = step;
        if (t.flipCount >= rules.flips) {
            events.push_back(
                makeEvent(step, EventKind::Oscillation, agent, static_cast<double>(t.flipCount)));
            t.flipCount = 0; // re-armed: the next oscillation needs fresh flips
        }
    }

    // Arrived: becoming at-goal (leaving the goal re-arms silently).
    const bool atGoal = (facts & step_flag::kAtGoal) != 0;
    if (atGoal && !t.atGoal) events.push_back(makeEvent(step, EventKind::Arrived, agent));
    t.atGoal = atGoal;

    // Detour: the mode the simulator holds after this step (the one for the next step).
    const bool detouring = (facts & step_flag::kDetouring) != 0;
    if (detouring != t.detouring)
        events.push_back(
            makeEvent(step, detouring ? EventKind::DetourEnter : EventKind::DetourExit, agent));
    t.detouring = detouring;

    // Waypoints: each one the agent reached since the last observation (an edit or a restore
    // that moves the progress back re-arms silently).
    if (t.known) {
        for (std::uint32_t k = t.routeProgress; k < progress; ++k)
            events.push_back(
                makeEvent(step, EventKind::WaypointReached, agent, static_cast<double>(k)));
    }
    t.routeProgress = progress;
    t.known = true;
    m_kept[i] = t.kept() ? 1 : 0;
}

double EventDetector::detectPerAgent(const Simulator& sim, std::uint64_t step,
                                     std::uint64_t elapsed) {
    Scratch& s = m_scratch;
    const std::size_t n = m_agents.size();
    const bool sizeChanged = s.builtRadius.size() != n;
    const double* builtRadius = s.builtRadius.data();
    const auto vel = sim.velocities();
    const auto params = sim.agentParams();
    const auto lp3 = sim.lastStepLp3(); // empty = unknown (before a step, after add/remove)
    const AgentRules rules = rulesFor(sim.params().timeStep);
    const StepWatch watch = this->watch();
    // Flips: between the velocities before and after the last step, when it was the last
    // change (docs/events.md, "Oscillation").
    const auto before = sim.previousVelocities();
    const bool flips = rules.flips > 0 && elapsed > 0 && before.size() == n;
    s.facts.resize(n);

    // In chunks on the simulator's threads: each agent's tracking is its own, each worker
    // keeps its events apart (process() sorts the step's events, so their order does not
    // depend on who found them).
    s.workers.resize(static_cast<std::size_t>(sim.threadCount()));
    for (Scratch::Worker& w : s.workers) {
        w.events.clear();
        w.maxRadius = 0.0;
        w.maxSpeed = 0.0;
        w.radiusChanged = false;
    }
    sim.parallelChunks(n, kAgentGrain, [&](std::size_t begin, std::size_t end, int worker) {
        Scratch::Worker& wk = s.workers[static_cast<std::size_t>(worker)];
        double maxRadius = wk.maxRadius;
        double maxSpeed = wk.maxSpeed;
        bool radiusChanged = sizeChanged || wk.radiusChanged;
        for (std::size_t i = begin; i < end; ++i) {
            const bool isStatic = sim.isStaticAt(i);
            const AgentParams& p = params[i];
            maxRadius = std::max(maxRadius, p.radius);
            maxSpeed = std::max(maxSpeed, p.maxSpeed);
            radiusChanged = radiusChanged || p.radius != builtRadius[i];
            const bool atGoal = sim.atGoalAt(i);
            // What holds now, as a step's flags would say it (step_watch.hpp's tests).
            std::uint8_t facts = 0;
            if (lp3.empty() ? m_agents[i].lp3 : lp3[i] != 0) facts |= step_flag::kLp3;
            if (atGoal) facts |= step_flag::kAtGoal;
            if (sim.detourModeAt(i) == DetourMode::Detouring) facts |= step_flag::kDetouring;
            if (!isStatic && detail::slowForWatch(sim.hasGoalAt(i), atGoal, p.prefSpeed,
                                                  absSq(vel[i]), watch.slowSpeedRatio))
                facts |= step_flag::kSlow;
            const bool flip = flips && !isStatic &&
                              detail::flipForWatch(before[i], vel[i], p.maxSpeed, watch.cosFlip);
            updateAgent(i, facts, !lp3.empty(), flip, sim.routeProgressAt(i), step, elapsed, rules,
                        wk.events);
            s.facts[i] = facts;
        }
        wk.maxRadius = maxRadius;
        wk.maxSpeed = maxSpeed;
        wk.radiusChanged = radiusChanged;
    });
    double maxRadius = 0.0;
    bool radiusChanged = sizeChanged;
    s.maxSpeed = 0.0;
    for (Scratch::Worker& w : s.workers) {
        maxRadius = std::max(maxRadius, w.maxRadius);
        s.maxSpeed = std::max(s.maxSpeed, w.maxSpeed);
        radiusChanged = radiusChanged || w.radiusChanged;
        s.events.insert(s.events.end(), w.events.begin(), w.events.end());
    }
    s.radiusChanged = radiusChanged;
    return maxRadius;
}

void EventDetector::detectFlagged(const Simulator& sim, std::span<const std::uint8_t> flags,
                                  std::uint64_t step) {
    Scratch& s = m_scratch;
    const AgentRules rules = rulesFor(sim.params().timeStep);
    // An agent needs a look when a state bit changed (LP3, at goal, detouring), when it is
    // slow now or was (its stall timer counts or re-arms), or when it flipped or reached a
    // waypoint. Eight agents' flags at a time: most crowds have few such agents per step.
    constexpr std::uint8_t kChange = step_flag::kLp3 | step_flag::kAtGoal | step_flag::kDetouring;
    const std::uint8_t kNow =
        static_cast<std::uint8_t>(step_flag::kWaypoint | (rules.flips > 0 ? step_flag::kFlip : 0));
    // The rule on one agent's flags (`each` = 1) or on eight at once (`each` repeats the masks
    // in every byte): non-zero when one of them needs a look.
    auto needsLook = [&](std::uint64_t now, std::uint64_t last, std::uint64_t each) {
        return ((now ^ last) & (each * kChange)) | ((now | last) & (each * step_flag::kSlow)) |
               (now & (each * kNow));
    };
    const std::uint8_t* f = flags.data();
    const std::uint8_t* l = s.facts.data();
    auto visit = [&](std::size_t i) {
        const std::uint8_t now = f[i];
        if (needsLook(now, l[i], 1) == 0) return;
        const std::uint32_t progress =
            (now & step_flag::kWaypoint) != 0 ? sim.routeProgressAt(i) : m_agents[i].routeProgress;
        updateAgent(i, now, true, (now & step_flag::kFlip) != 0 && rules.flips > 0, progress, step,
                    1, rules, s.events);
    };
    const std::size_t n = flags.size();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t fw;
        std::uint64_t lw;
        std::memcpy(&fw, f + i, 8);
        std::memcpy(&lw, l + i, 8);
        if (needsLook(fw, lw, 0x0101010101010101ull) == 0) continue;
        for (std::size_t k = i; k < i + 8; ++k)
            visit(k);
    }
    for (; i < n; ++i)
        visit(i);
    std::memcpy(s.facts.data(), f, n);
}

} // namespace orca
