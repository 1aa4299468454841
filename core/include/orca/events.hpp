#pragma once
/// \file events.hpp
/// Events: the moments of a run that matter (overlaps, obstacle penetrations, LP3 spells,
/// stalls, oscillations, arrivals, detours), detected as the simulation runs.
///
/// Step numbering is `orca run --trajectory`'s: step 0 is the initial state, step s the state
/// after s steps. An event's `step` is the first step after which its condition holds (for an
/// `-end` event: the first step after which it no longer holds).

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "orca/simulator.hpp"

namespace orca {

enum class EventKind : std::uint8_t {
    OverlapBegin,        ///< two agents' disks overlap (agents = the pair, lower index first)
    OverlapEnd,          ///< they no longer do (value = the deepest depth of the overlap)
    ObstaclePenetration, ///< an agent's disk crosses into an obstacle (value = depth)
    Lp3Begin,            ///< LP2 was infeasible: LP3 chose the agent's velocity
    Lp3End,              ///< LP2 feasible again (value = steps spent in LP3)
    Stalled,             ///< goal agent, not at it, slower than a fraction of prefSpeed for a while
    Oscillation,         ///< velocity direction flipped by > 90° several times within a window
    Arrived,             ///< goal agent reached its goal
    DetourEnter,         ///< started following the detour field
    DetourExit,          ///< stopped following it
};
inline constexpr std::size_t kEventKindCount = 10;

/// "overlap-begin", "overlap-end", "obstacle-penetration", "lp3-begin", "lp3-end", "stalled",
/// "oscillation", "arrived", "detour-enter", "detour-exit".
[[nodiscard]] std::string_view toString(EventKind kind);
/// The kind named `name` (as toString prints it), or nullopt.
[[nodiscard]] std::optional<EventKind> eventKindFromString(std::string_view name);

/// One event. Within one step, events are ordered by kind (enum order), then agents, then
/// obstacle.
struct Event {
    /// The first step after which the condition holds (0 = the initial state).
    std::uint64_t step = 0;
    /// What happened.
    EventKind kind = EventKind::OverlapBegin;
    /// Agent indices in agent order (= file order for a scene built by buildSimulator): one
    /// agent, or the pair (lower index first) for overlaps.
    std::vector<std::uint32_t> agents;
    /// Obstacle index (obstacle order) for obstacle-penetration, else nullopt.
    std::optional<std::uint32_t> obstacle;
    /// The magnitude, per kind (documented in docs/events.md): depth in world units for
    /// overlaps and penetrations, seconds for stalled, steps for lp3-end, flips for
    /// oscillation, 0 where there is none.
    double value = 0.0;

    friend bool operator==(const Event&, const Event&) = default;
};

/// Thresholds of the detectors (times in simulated seconds).
struct EventParams {
    /// stalled: speed below this fraction of prefSpeed ...
    double stallSpeedRatio = 0.05;
    /// ... for at least this long (s).
    double stallSeconds = 2.0;
    /// oscillation: this many direction flips (>= 1; 0 or less turns the detector off) ...
    int oscillationFlips = 3;
    /// ... where a flip is a turn of the velocity by more than this angle (degrees, [0, 180])
    /// from one step to the next ...
    double oscillationDegrees = 90.0;
    /// ... within this window (s).
    double oscillationSeconds = 2.0;
};

/// Watches a simulator step by step and appends events. A plain value type: copying it copies
/// its whole tracking state, so a recording can keep a copy beside each keyframe and resume
/// detection from there.
///
/// Agents are followed by AgentId: agents added since the last observation start fresh (the
/// conditions that hold for them are reported, as by reset()), removed agents are forgotten
/// (without -end events), survivors keep their state under their new index. Obstacles are
/// followed by ObstacleId likewise. Cost per observation: O(agents) — overlaps test a
/// candidate list (pairs within reach plus a skin) rebuilt by a sorted-cell sweep only when an
/// agent has moved half the skin; obstacles are found through a grid of their bounding boxes
/// (nothing to do in obstacle-free scenes). The exact conditions are in docs/events.md.
class EventDetector {
public:
    explicit EventDetector(const EventParams& params = {});

    /// Starts over on the simulator's current state (reported as step sim.stepCount()):
    /// appends the conditions that already hold (e.g. overlaps at step 0).
    void reset(const Simulator& sim, std::vector<Event>& out);
    /// Call after each sim.step(): appends the events of the state the step produced.
    /// Calling it again for the same step (after an edit of that state) reports the
    /// transitions the edit caused; timers do not advance then (no simulated time elapsed).
    /// When steps were skipped, the timers advance by all of them. Before any reset(), acts
    /// as reset().
    void observe(const Simulator& sim, std::vector<Event>& out);

    [[nodiscard]] const EventParams& params() const { return m_params; }
    /// Bytes of tracking state held (for the history's memory budget).
    [[nodiscard]] std::size_t bytes() const;

private:
    /// What is remembered about one agent between observations.
    struct AgentTrack {
        Vec2 lastVelocity{0.0, 0.0};  ///< velocity at the last observation (oscillation)
        std::uint64_t lp3Since = 0;    ///< step of the current LP3 spell's lp3-begin
        std::uint64_t stillSteps = 0;  ///< steps in a row below the stall speed
        std::uint32_t flipCount = 0;   ///< flips in the oscillation window (see m_flipSteps)
        bool known = false;            ///< observed at least once (else no velocity to compare)
        bool atGoal = false;
        bool lp3 = false;
        bool detouring = false;
        bool stallReported = false;    ///< stalled was emitted for the current stall
    };
    /// An overlap in progress: agents i < j and the deepest depth so far.
    struct OpenOverlap {
        std::uint32_t i = 0;
        std::uint32_t j = 0;
        double deepest = 0.0;
    };
    /// An (agent, obstacle) pair whose disk and polygon currently intersect.
    struct Contact {
        std::uint32_t agent = 0;
        std::uint32_t obstacle = 0;
        friend auto operator<=>(const Contact&, const Contact&) = default;
    };
    /// Scratch of one observation (spatial grids, candidate lists). Not tracking state: a copy
    /// of the detector starts with an empty scratch (rebuilt on its next observe), so copies
    /// stay cheap and bytes() does not count it.
    struct Scratch {
        Scratch() = default;
        Scratch(const Scratch&) {}
        Scratch& operator=(const Scratch&) { return *this; }
        Scratch(Scratch&&) noexcept = default;
        Scratch& operator=(Scratch&&) noexcept = default;
        ~Scratch() = default;

        // Overlap candidates (a Verlet list): pairs closer than r_i + r_j + skin when built.
        bool candidatesValid = false;
        bool radiusChanged = false;      ///< a radius differs from builtRadius (this observe)
        double skinLimitSq = 0.0;        ///< rebuild once an agent moved this far (squared)
        std::vector<Vec2> builtPos;      ///< positions at the build
        std::vector<double> builtRadius; ///< radii at the build
        std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates; ///< sorted, i < j
        std::vector<std::pair<std::uint32_t, std::uint32_t>> candidatesUnsorted; ///< as found
        std::vector<std::uint32_t> candidateStart; ///< counting sort by i
        // The build's grid: agents sorted by cell (row-major), with their positions.
        std::vector<std::uint64_t> sortKeys, sortKeysTmp;
        std::vector<std::uint32_t> sortItems, sortItemsTmp;
        std::vector<Vec2> sortPos;
        std::vector<OpenOverlap> pairs; ///< this observation's overlaps (deepest = depth)
        // Obstacle index: obstacles' bounding boxes registered in a coarse uniform grid.
        bool obstaclesValid = false;
        std::uint64_t obstacleHash = 0;
        double builtMaxRadius = 0.0;
        std::vector<std::uint32_t> polyStart; ///< obstacle o's vertices: [polyStart[o], [o+1])
        std::vector<Vec2> polyVertices;
        std::vector<Vec2> boxMin, boxMax;
        Vec2 gridOrigin{0.0, 0.0};
        double gridCell = 1.0;
        int gridCols = 0;
        int gridRows = 0;
        std::vector<std::uint32_t> gridStart, gridItems;
        std::vector<Contact> contacts; ///< this observation's penetrations
        std::vector<double> contactDepth;
        std::vector<Event> events;     ///< this observation's events, before sorting
    };

    /// The common body of reset() and observe(); `first` = no previous observation.
    void process(const Simulator& sim, std::vector<Event>& out, bool first);
    /// Follows agents added, removed or reordered since the last observation (by AgentId).
    void syncAgents(const Simulator& sim);
    /// Follows obstacles added or removed (by ObstacleId); rebuilds the obstacle index.
    void syncObstacles(const Simulator& sim, double maxRadius);
    void buildOverlapCandidates(const Simulator& sim, double maxRadius);
    void detectOverlaps(const Simulator& sim, double maxRadius, std::uint64_t step);
    void detectPenetrations(const Simulator& sim, std::uint64_t step);
    void detectPerAgent(const Simulator& sim, std::uint64_t step, std::uint64_t elapsed);

    EventParams m_params;
    bool m_observed = false;          ///< reset() or observe() has run
    std::uint64_t m_step = 0;         ///< step of the last observation
    std::vector<AgentId> m_agentIds;  ///< agent order at the last observation
    std::vector<AgentTrack> m_agents; ///< per agent, agent order
    /// Oscillation windows: agent i's flips (step numbers, oldest first) are
    /// m_flipSteps[i * oscillationFlips ...][0, flipCount).
    std::vector<std::uint64_t> m_flipSteps;
    std::vector<OpenOverlap> m_overlaps;     ///< sorted by (i, j)
    std::vector<ObstacleId> m_obstacleIds;   ///< obstacle order at the last observation
    std::vector<Contact> m_contacts;         ///< sorted by (agent, obstacle)
    Scratch m_scratch;
};

} // namespace orca
