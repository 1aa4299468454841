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
    OverlapBegin, ///< two agents' disks overlap (agents = the pair, lower index first)
    OverlapEnd,   ///< they no longer do (value = the deepest depth of the overlap)
    /// More pairs overlap than EventParams::maxOverlapPairs: from this step on, new pairs get
    /// no overlap-begin (agents = [], value = the number of overlapping pairs)
    OverlapFloodBegin,
    /// At most maxOverlapPairs pairs overlap again: per-pair events resume (agents = [],
    /// value = steps spent flooded)
    OverlapFloodEnd,
    ObstaclePenetration, ///< an agent's disk crosses into an obstacle (value = depth)
    Lp3Begin,            ///< LP2 was infeasible: LP3 chose the agent's velocity
    Lp3End,              ///< LP2 feasible again (value = steps spent in LP3)
    Stalled,             ///< goal agent, not at it, slower than a fraction of prefSpeed for a while
    Oscillation,         ///< velocity direction flipped by > 90° several times within a window
    Arrived,             ///< goal agent reached its goal
    DetourEnter,         ///< started following the detour field
    DetourExit,          ///< stopped following it
    WaypointReached,     ///< reached a waypoint of its route (value = the waypoint's index)
};
inline constexpr std::size_t kEventKindCount = 13;

/// "overlap-begin", "overlap-end", "overlap-flood-begin", "overlap-flood-end",
/// "obstacle-penetration", "lp3-begin", "lp3-end", "stalled", "oscillation", "arrived",
/// "detour-enter", "detour-exit", "waypoint-reached".
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
    /// agent, the pair (lower index first) for overlaps, none for overlap floods.
    std::vector<std::uint32_t> agents;
    /// Obstacle index (obstacle order) for obstacle-penetration, else nullopt.
    std::optional<std::uint32_t> obstacle;
    /// The magnitude, per kind (documented in docs/events.md): depth in world units for
    /// overlaps and penetrations, seconds for stalled, steps for lp3-end, flips for
    /// oscillation, pairs for overlap-flood-begin, steps for lp3-end and overlap-flood-end, 0
    /// where there is none.
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
    /// The most overlapping pairs followed one by one (>= 0). A state with more is *flooded*:
    /// an overlap-flood-begin is reported, pairs that begin to overlap get no overlap-begin
    /// and the spells already open are still followed to their overlap-end; once at most
    /// this many pairs overlap, an overlap-flood-end, then an overlap-begin for every pair
    /// overlapping then that was not followed (docs/events.md, "Overlap floods"). This bounds
    /// the detector's memory and time on piled-up crowds (n agents at one point overlap in
    /// n(n-1)/2 pairs). Each followed pair costs about 230 bytes at the step its overlaps
    /// begin (16 of tracking, 32 of scratch, its overlap-begin event in the detector's list
    /// and the caller's), so the default bounds that at ~25 MB and the tracking state, which
    /// the app copies beside every keyframe, at 1.6 MB; a crowd that is only jammed overlaps
    /// in a few pairs per agent and stays far below it.
    std::size_t maxOverlapPairs = 100'000;
};

/// Watches a simulator step by step and appends events. A plain value type: copying it copies
/// its whole tracking state, so detection can resume from a copy; a recording keeps the
/// smaller compact() beside each keyframe and expand()s it on the keyframe's state.
///
/// Agents are followed by AgentId: agents added since the last observation start fresh (the
/// conditions that hold for them are reported, as by reset()), removed agents are forgotten
/// (without -end events), survivors keep their state under their new index. Obstacles are
/// followed by ObstacleId likewise. Cost per observation: O(agents) — overlaps test a
/// candidate list (pairs within reach plus a skin) rebuilt by a sorted-cell sweep only when an
/// agent has moved half the skin; obstacles are found through a grid of their bounding boxes
/// (nothing to do in obstacle-free scenes). Memory is O(agents + maxOverlapPairs) whatever the
/// crowd: the candidate list holds at most kCandidatesPerAgent per agent plus
/// maxOverlapPairs (beyond that the overlaps are found by a sweep of the cells each step that
/// stops once the pairs exceed the cap), and at most maxOverlapPairs overlaps are followed.
/// The exact conditions are in docs/events.md.
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

    /// The candidate list (see above) may hold this many pairs per agent, plus
    /// EventParams::maxOverlapPairs; 16 bytes each. The circle and uniform workloads need 2-3
    /// per agent, a crowd hex-packed at contact distance with the widest skin (8 radii) about
    /// 45; beyond it the overlaps are swept instead (same events, more time per step).
    static constexpr std::size_t kCandidatesPerAgent = 48;
    /// Agents (or overlap candidates) per chunk when the detector runs on the simulator's
    /// threads (Simulator::parallelChunks); fewer than this run on the caller alone.
    static constexpr std::size_t kAgentGrain = 2048;
    /// The step's contacts per chunk of their exact test (about 25 instructions each): a
    /// 1,000-agent crowd's few hundred are worth two threads.
    static constexpr std::size_t kContactGrain = 256;

    [[nodiscard]] const EventParams& params() const { return m_params; }
    /// True while the last observed state was flooded (more than maxOverlapPairs overlapping
    /// pairs; between an overlap-flood-begin and its overlap-flood-end).
    [[nodiscard]] bool flooded() const { return m_flooded; }
    /// Overlap spells followed now (at most maxOverlapPairs).
    [[nodiscard]] std::size_t trackedOverlaps() const { return m_overlaps.size(); }
    /// Capacity of the overlap candidate list, in pairs (scratch; for tests of the memory
    /// bound): at most the budget for the list plus the budget for each of the simulator's
    /// threads (their parts while the list is built, and their sweep buffers).
    [[nodiscard]] std::size_t candidateCapacity() const {
        std::size_t pairs = m_scratch.candidates.capacity();
        for (const Scratch::Worker& w : m_scratch.workers)
            pairs += w.candidates.capacity() + w.near.capacity();
        return pairs;
    }
    /// Bytes of tracking state held (for the history's memory budget).
    [[nodiscard]] std::size_t bytes() const;

  private:
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

  public:
    /// The tracking state without what the state it last observed holds itself — each agent's
    /// id, velocity, route progress, at-goal and detour flags, the obstacles' ids: what a
    /// recording keeps beside a keyframe (a few bytes per agent in a spell, a stall or an
    /// oscillation window instead of about 80 per agent). Only EventDetector reads it.
    class Compact {
      public:
        /// Bytes held (for the history's memory budget).
        [[nodiscard]] std::size_t bytes() const;

      private:
        friend class EventDetector;
        /// An agent whose tracking the state does not give: in an LP3 spell, below the stall
        /// speed, stalled, or with flips in its oscillation window (others have none of it).
        struct Track {
            std::uint32_t agent = 0;
            std::uint32_t flipCount = 0;
            std::uint64_t lp3Since = 0;
            std::uint64_t stillSteps = 0;
            bool lp3 = false;
            bool stallReported = false;
        };
        EventParams params;
        bool observed = false;
        std::uint64_t step = 0;
        std::size_t agents = 0;
        std::vector<Track> tracks;            ///< by agent index
        std::vector<std::uint64_t> flipSteps; ///< the tracks' flips, flipCount each, in order
        std::vector<OpenOverlap> overlaps;
        bool flooded = false;
        std::uint64_t floodSince = 0;
        std::vector<Contact> contacts;
    };
    /// This detector's Compact form (call it right after an observation, before the simulator
    /// moves on: what it leaves out is read back from the state then).
    [[nodiscard]] Compact compact() const;
    /// The detector `compact` was made from, given the simulator in the state that detector
    /// had last observed (e.g. restored from the keyframe the Compact was kept with): the same
    /// tracking, so the same events from there on. Throws std::invalid_argument when the agent
    /// count differs.
    [[nodiscard]] static EventDetector expand(const Compact& compact, const Simulator& sim);

  private:
    /// What is remembered about one agent between observations.
    struct AgentTrack {
        /// Not at rest: compact() keeps it (m_kept).
        [[nodiscard]] bool kept() const {
            return lp3 || stillSteps != 0 || stallReported || flipCount != 0;
        }
        std::uint64_t lp3Since = 0;      ///< step of the current LP3 spell's lp3-begin
        std::uint64_t stillSteps = 0;    ///< steps in a row below the stall speed
        std::uint32_t flipCount = 0;     ///< flips in the oscillation window (see m_flipSteps)
        std::uint32_t routeProgress = 0; ///< waypoints reached at the last observation
        bool known = false;              ///< observed at least once (else no progress to compare)
        bool atGoal = false;
        bool lp3 = false;
        bool detouring = false;
        bool stallReported = false; ///< stalled was emitted for the current stall
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

        // What the last observation saw, for the next one to take a step's flags instead of
        // reading every agent (Simulator::lastStepFlags): valid while revision is the
        // simulator's revision before its last step.
        bool factsValid = false;
        std::uint64_t revision = 0;
        double maxRadius = 0.0;
        double maxSpeed = 0.0; ///< the largest maxSpeed (with maxRadius: the contact watch)
        std::vector<std::uint8_t> facts; ///< per agent: step_flag kLp3, kAtGoal, kDetouring, kSlow

        // Overlap candidates (a Verlet list): pairs closer than r_i + r_j + skin when built.
        bool candidatesValid = false;
        /// A bound on how far any agent moved since the build (grows by each step's bound).
        double moved = 0.0;
        /// Per candidate: `moved` may reach this before the pair can overlap (half its
        /// clearance when last tested, past `moved` then).
        std::vector<double> candidateNext;
        /// Observations left before the next try at a list whose last build overflowed (the
        /// overlaps are swept directly until then).
        std::uint32_t buildBackoff = 0;
        bool radiusChanged = false;      ///< a radius differs from builtRadius (this observe)
        double skinLimitSq = 0.0;        ///< rebuild once an agent moved this far (squared)
        std::vector<Vec2> builtPos;      ///< positions at the build
        std::vector<double> builtRadius; ///< radii at the build
        std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates; ///< i < j
        // The build's grid: agents sorted by cell (row-major), with their positions.
        std::vector<std::uint64_t> sortKeys, sortKeysTmp;
        std::vector<std::uint32_t> sortItems, sortItemsTmp;
        std::vector<std::uint32_t> cellCount; ///< the counting sort's (at most ~4 per agent)
        std::vector<Vec2> sortPos;
        std::vector<double> sortRadius; ///< the build's radii in sorted order
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
        std::vector<Event> events; ///< this observation's events, before sorting
        /// Per worker of the simulator's threads (Simulator::parallelChunks): the per-agent
        /// events and overlaps found in its chunks, and its share of the reductions. (A cache
        /// line of its own: its vectors' headers change as it appends.)
        struct alignas(64) Worker {
            std::vector<Event> events;
            std::vector<OpenOverlap> pairs;
            double maxRadius = 0.0;
            double maxSpeed = 0.0;
            bool radiusChanged = false;
            double farthestSq = 0.0; ///< the largest squared distance moved since the build
            /// Overlap candidates found by this worker's chunks of the build's sweep.
            std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;
            std::vector<double> next;       ///< their waits (Scratch::candidateNext)
            std::vector<std::uint32_t> due; ///< candidates to test in a chunk
            /// A chunk's pairs within reach in the build's sweep (sorted positions).
            std::vector<std::pair<std::uint32_t, std::uint32_t>> near;
            bool overBudget = false; ///< its list would pass the build's budget
        };
        std::vector<Worker> workers;
    };

    /// The common body of reset() and observe(); `first` = no previous observation.
    void process(const Simulator& sim, std::vector<Event>& out, bool first);
    /// Follows agents added, removed or reordered since the last observation (by AgentId).
    void syncAgents(const Simulator& sim);
    /// Follows obstacles added or removed (by ObstacleId); rebuilds the obstacle index.
    void syncObstacles(const Simulator& sim, double maxRadius);
    /// Radix-sorts the agents with finite positions by grid cell (cell = 1 / invCell,
    /// row-major) into the scratch; returns the row width in cells.
    std::uint64_t sortByCell(std::span<const Vec2> pos, double invCell);
    /// The last step's contacts (Simulator::lastStepContacts, complete) tested: every
    /// overlapping pair into scratch.pairs, sorted; false when more than maxOverlapPairs.
    bool testContacts(const Simulator& sim);
    /// Builds the candidate list; false (list invalid) when it would exceed its budget.
    bool buildOverlapCandidates(const Simulator& sim, double maxRadius);
    /// Every overlapping pair into scratch.pairs, sorted, by a sweep of the cells; false as
    /// soon as there are more than maxOverlapPairs (scratch.pairs then incomplete).
    bool sweepOverlaps(const Simulator& sim, double maxRadius);
    /// `stepBound` >= 0: one step from the last observed state, no agent moved farther
    /// (-1 when unknown: the state may have been edited).
    void detectOverlaps(const Simulator& sim, double maxRadius, std::uint64_t step,
                        double stepBound);
    void detectPenetrations(const Simulator& sim, std::uint64_t step);
    /// Also returns the largest radius and sets scratch.radiusChanged and scratch.facts.
    double detectPerAgent(const Simulator& sim, std::uint64_t step, std::uint64_t elapsed);
    /// detectPerAgent after one step whose flags (Simulator::lastStepFlags) were taken with
    /// this detector's watch from the state it last observed: only the agents whose flags
    /// changed or say so are looked at (the same events).
    void detectFlagged(const Simulator& sim, std::span<const std::uint8_t> flags,
                       std::uint64_t step);
    /// The per-agent detectors' thresholds in steps, for one Δt.
    struct AgentRules {
        double dt = 0.0;
        std::uint64_t stallSteps = 0; ///< stalled after this many slow steps
        std::uint64_t window = 0;     ///< oscillation window (steps)
        std::size_t flips = 0;        ///< flips that make an oscillation (0 = off)
    };
    [[nodiscard]] AgentRules rulesFor(double dt) const;
    /// One agent's per-agent events, given what holds for it now (step_flag bits `facts`,
    /// `lp3Known` = the step's LP3 flags are known, `flip` = its velocity flipped).
    void updateAgent(std::size_t i, std::uint8_t facts, bool lp3Known, bool flip,
                     std::uint32_t progress, std::uint64_t step, std::uint64_t elapsed,
                     const AgentRules& rules, std::vector<Event>& events);
    /// The watch this detector asks the simulator to keep (Simulator::watchSteps).
    [[nodiscard]] StepWatch watch() const;

    EventParams m_params;
    bool m_observed = false;          ///< reset() or observe() has run
    std::uint64_t m_step = 0;         ///< step of the last observation
    std::vector<AgentId> m_agentIds;  ///< agent order at the last observation
    std::vector<AgentTrack> m_agents; ///< per agent, agent order
    /// Per agent: its track is not at rest (in an LP3 spell, still, stall reported or flips
    /// counted), the ones compact() keeps; kept beside the tracks so that a keyframe reads a
    /// byte per agent instead of 32.
    std::vector<std::uint8_t> m_kept;
    /// Oscillation windows: agent i's flips (step numbers, oldest first) are
    /// m_flipSteps[i * oscillationFlips ...][0, flipCount).
    std::vector<std::uint64_t> m_flipSteps;
    std::vector<OpenOverlap> m_overlaps;   ///< sorted by (i, j); at most maxOverlapPairs
    bool m_flooded = false;                ///< the last observation was flooded
    std::uint64_t m_floodSince = 0;        ///< step of the current flood's begin
    std::vector<ObstacleId> m_obstacleIds; ///< obstacle order at the last observation
    std::vector<Contact> m_contacts;       ///< sorted by (agent, obstacle)
    Scratch m_scratch;
};

} // namespace orca
