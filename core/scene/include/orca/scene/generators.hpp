#pragma once
/// \file generators.hpp
/// Scene generators: pure functions that lay out many explicit agents at once (a ring, a grid
/// block, a random crowd in a polygon, two crossing flows). The app previews their result and
/// inserts it into a scene; nothing here touches a Scene or a Simulator.
///
/// Every generated agent is a copy of a *prototype* agent (its parameter overrides, static flag
/// and initial velocity) with the position and the goal set by the generator:
///   - `id` is cleared (the scene owner assigns ids if it wants them);
///   - the run-time detour state is reset (DetourMode::Normal, stillSeconds 0);
///   - when the generator sets a goal, `prefVelocity` is cleared (a scene agent cannot have
///     both); without a goal the prototype's `prefVelocity` is kept;
///   - a static prototype gets no goal (static agents never move); the result's `note` says so
///     when the generator would have set goals.
///
/// Invalid parameters throw std::invalid_argument whose what() is a sentence fit to show to a
/// user, e.g. "circle formation: radius must be > 0 (got -2)". Generated coordinates must stay
/// within ±kMaxMagnitude (the scene format's limit), else the generator throws too.
///
/// Angles are in degrees, counter-clockwise from +x. Sine and cosine of multiples of 90° are
/// exact (0, ±1), so axis-aligned layouts have exact coordinates.
///
/// Keeping clear of what is already there: every generator has an overload taking
/// `Surroundings` (the agents and obstacles already in the scene; surroundingsOf(scene) builds
/// it). A generated agent of radius r (the prototype's radius override, else
/// Surroundings::defaultRadius) at position p is *clear* when
///   - for every existing agent (centre q, radius r_q): |p − q| >= max(minSpacing, r + r_q),
///     i.e. the disks do not overlap (touching is fine) and, when minSpacing is larger, the
///     centres are at least minSpacing apart; and
///   - for every obstacle: p is not inside the polygon (even-odd rule, 3+ vertices) and every
///     edge (a 2-vertex obstacle is one segment) is at least r from p, i.e. the disk neither
///     overlaps the obstacle nor lies inside it (touching an edge is fine).
/// The structured generators (circle, grid, crossing flows) lay out their agents as without
/// surroundings and leave out those that are not clear; the others keep their order. The
/// random fill rejects candidates that are not clear, so it still places the full count where
/// there is room. Generated agents are not checked against each other beyond each generator's
/// own spacing, nor goals against anything. Surroundings with no agents and no obstacles give
/// exactly the result of the overload without them. Neighbour queries go through uniform grids
/// over the generated agents' bounding box, so a call costs about O(existing + generated), not
/// their product; obstacles with very many vertices are checked edge by edge.
///
/// Target `orca_scene`.

#include <cstdint>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"
#include "orca/types.hpp"

namespace orca::scene {

/// Most agents one generator call may produce (a guard against a mistyped count).
inline constexpr int kMaxGeneratedAgents = 1'000'000;

/// `count` agents evenly spaced on a circle, each heading to the antipode.
/// Agent i stands at center + radius·(cos θi, sin θi) with θi = startAngleDeg + 360°·i/count,
/// and its goal is center − radius·(cos θi, sin θi).
struct CircleFormation {
    Vec2 center{0.0, 0.0};      ///< Centre of the ring (world units, finite).
    double radius = 20.0;       ///< Ring radius (world units, > 0).
    int count = 16;             ///< Number of agents (1..kMaxGeneratedAgents).
    double startAngleDeg = 0.0; ///< Angle of agent 0 (degrees, finite).
};

/// A rectangular block of `rows` × `columns` agents centred on `center`, axis-aligned, with
/// `spacing` between neighbouring centres. Row r, column c stands at
/// center + ((c − (columns−1)/2)·spacing, (r − (rows−1)/2)·spacing); agents are listed row by
/// row, row 0 (lowest y) first, each row by increasing x. Goal = position + goalOffset, so the
/// block walks as a whole.
struct GridBlock {
    Vec2 center{0.0, 0.0};      ///< Centre of the block (world units, finite).
    int rows = 4;               ///< Rows along y (>= 1; rows × columns <= kMaxGeneratedAgents).
    int columns = 4;            ///< Columns along x (>= 1).
    double spacing = 3.0;       ///< Centre-to-centre distance of neighbours (world units, > 0).
    Vec2 goalOffset{20.0, 0.0}; ///< Goal relative to each agent's position (world units, finite).
    bool withGoals = true;      ///< False: the agents get no goal.
};

/// Agents at random positions inside a polygon, no two centres closer than `minSpacing`.
///
/// Positions come from rejection sampling: a candidate is uniform in the polygon's bounding box
/// (two std::mt19937(seed) raw outputs / 2^32, x then y) and is kept when it lies inside the
/// polygon (even-odd rule, so any winding works) and at least `minSpacing` from every agent
/// kept so far. After 200 × count candidates the generator stops and returns the agents placed
/// so far, saying so in the note. The result is therefore identical on every platform and
/// compiler, and the agents of a smaller count are a prefix of those of a larger one (as long
/// as the smaller one was placed in full). Only agent *centres* are inside the polygon; disks
/// may overhang its edges by up to their radius.
struct RandomFill {
    /// Goals of the placed agents.
    enum class Goals {
        None,                ///< No goal.
        MirrorThroughCenter, ///< 2·c − position, c = the polygon's centroid (may fall outside
                             ///< a concave polygon).
        RandomInRegion,      ///< Uniform in the polygon (own random stream seeded from `seed`,
                             ///< so changing the goal mode never moves the agents); goals are
                             ///< not spaced.
    };
    /// The region: a simple polygon with >= 3 vertices and non-zero area, any winding (see
    /// rectangleRegion for a rectangle). World units, finite.
    std::vector<Vec2> region;
    /// Number of agents (1..kMaxGeneratedAgents). Ignored when density > 0.
    int count = 50;
    /// Agents per unit area (>= 0, finite). When > 0, count = round(density × area); a density
    /// so small that this rounds to 0 gives no agents and a note.
    double density = 0.0;
    /// Smallest centre-to-centre distance between two agents (world units, > 0). Use at least
    /// twice the agents' radius to avoid starting overlaps.
    double minSpacing = 3.0;
    std::uint32_t seed = 1; ///< Seed of the random positions (and goals).
    Goals goals = Goals::None;
};

/// Two flows of `perFlow` agents crossing at `center`. Flow 0 walks along +x, flow 1 along the
/// direction at `angleDeg` (90 = perpendicular, 180 = head-on). Each flow starts as a block
/// on the near side: lanes across the flow, `spacing` apart, as many as fit in `laneWidth`
/// (floor(laneWidth/spacing) + 1, centred on the flow's axis through `center`), and rows
/// behind each other, `spacing` apart, the front row `length` before the centre; a last,
/// partial row is centred too. Every agent of a flow has the same displacement to its goal,
/// 2·length + (rows−1)·spacing along the flow: the goal block is the start block reflected
/// across the line through the centre perpendicular to the flow. Flow 0's agents come first,
/// front row first. Throws when an agent of one flow would start closer than `spacing` to one
/// of the other (e.g. a small angle or a short length).
struct CrossingFlows {
    Vec2 center{0.0, 0.0};   ///< Where the flows' axes cross (world units, finite).
    int perFlow = 20;        ///< Agents per flow (1..kMaxGeneratedAgents/2).
    double laneWidth = 10.0; ///< Width of each flow, centre to centre of its outer lanes at most
                             ///< (world units, >= 0; below `spacing` = single file).
    double length = 40.0;    ///< Distance from the centre to each flow's front row (world
                             ///< units, >= 0).
    double spacing = 3.0;    ///< Centre-to-centre distance of neighbours (world units, > 0).
    double angleDeg = 90.0;  ///< Direction of flow 1 relative to flow 0 (degrees, finite).
};

/// One agent already in the scene, as the generators see it: a disk.
struct OccupiedDisk {
    Vec2 position{0.0, 0.0}; ///< Centre (world units, finite).
    double radius = 0.0;     ///< Radius (world units, finite, >= 0).
};

/// What is already in the scene; generated agents keep clear of it (rule in the file comment).
struct Surroundings {
    /// Existing agents (any order; static ones included).
    std::vector<OccupiedDisk> agents;
    /// Existing obstacles: polygons of finite vertices, any winding; 2 vertices = a segment,
    /// 1 = a point, 0 = ignored.
    std::vector<std::vector<Vec2>> obstacles;
    /// Smallest centre-to-centre distance between a generated agent and an existing one (world
    /// units, finite, >= 0). 0: the disks may touch but not overlap. Pass a random fill's own
    /// minSpacing to space the new crowd from the old one as it is spaced within itself.
    double minSpacing = 0.0;
    /// Radius of a generated agent whose prototype has no radius override (world units,
    /// finite, >= 0): the scene's agentDefaults.radius.
    double defaultRadius = AgentParams{}.radius;
};

/// The surroundings `scene` makes: every agent's position with its resolved radius
/// (Scene::resolvedParams: override, else agentDefaults), every obstacle's vertices, the given
/// `minSpacing` (world units, >= 0) and agentDefaults.radius as defaultRadius.
[[nodiscard]] Surroundings surroundingsOf(const Scene& scene, double minSpacing = 0.0);

/// Whether a disk of `radius` (world units, >= 0) centred at `position` is clear of
/// `surroundings` by the rule of the file comment (the generators' test, without their
/// spatial index: O(agents + obstacle vertices), for one-off checks such as a preview).
[[nodiscard]] bool isClear(const Surroundings& surroundings, Vec2 position, double radius);

/// The generated agents and a remark for the user ("" when there is nothing to say), e.g.
/// "placed 180 of 200: no room at minSpacing 3".
///
/// With surroundings, agents left out by a structured generator are counted in `unplaced` and
/// the note starts with "placed N of M: K would overlap existing agents" (or "obstacles", or
/// "existing agents or obstacles (A an agent, B an obstacle, C both)" when both kinds blocked
/// some); a random fill that runs out of room adds to its "placed N of M: no room ..." note
/// "(T tries overlapped existing agents, U obstacles)", naming only the kinds that rejected
/// tries.
struct GeneratorResult {
    std::vector<SceneAgent> agents; ///< In the order each generator documents; no ids.
    std::string note;               ///< "" or one or more remarks joined by "; ".
    /// Agents the parameters asked for: count (circle, random fill; round(density × area) in
    /// density mode), rows × columns (grid), 2 × perFlow (crossing flows).
    int requested = 0;
    /// requested − agents.size(): agents left out because they would overlap the surroundings,
    /// or (random fill) because no room was found.
    int unplaced = 0;
    /// Obstacles the generator lays out with its agents (the doorway's and the corridor's walls:
    /// counter-clockwise polygons, no ids); empty for the other generators. They are not checked
    /// against the surroundings.
    std::vector<SceneObstacle> obstacles;
};

/// The ring of agents described by `params`, copies of `prototype` (see the file comment).
/// Throws std::invalid_argument on invalid parameters.
[[nodiscard]] GeneratorResult generate(const CircleFormation& params, const SceneAgent& prototype);
/// The grid block described by `params`. Throws std::invalid_argument on invalid parameters.
[[nodiscard]] GeneratorResult generate(const GridBlock& params, const SceneAgent& prototype);
/// The random fill described by `params`: possibly fewer agents than asked, with a note saying
/// so. Throws std::invalid_argument on invalid parameters.
[[nodiscard]] GeneratorResult generate(const RandomFill& params, const SceneAgent& prototype);
/// The two crossing flows described by `params`. Throws std::invalid_argument on invalid
/// parameters or when the flows would overlap at the start.
[[nodiscard]] GeneratorResult generate(const CrossingFlows& params, const SceneAgent& prototype);

/// The same generators keeping clear of `surroundings` (rule in the file comment). They also
/// throw std::invalid_argument for invalid surroundings (non-finite values, negative radii or
/// minSpacing) or a prototype radius override that is negative or not finite.
[[nodiscard]] GeneratorResult generate(const CircleFormation& params, const SceneAgent& prototype,
                                       const Surroundings& surroundings);
[[nodiscard]] GeneratorResult generate(const GridBlock& params, const SceneAgent& prototype,
                                       const Surroundings& surroundings);
[[nodiscard]] GeneratorResult generate(const RandomFill& params, const SceneAgent& prototype,
                                       const Surroundings& surroundings);
[[nodiscard]] GeneratorResult generate(const CrossingFlows& params, const SceneAgent& prototype,
                                       const Surroundings& surroundings);

/// The axis-aligned rectangle with corners `min` and `max` as a counter-clockwise polygon:
/// {min, (max.x, min.y), max, (min.x, max.y)}. Corners given in the wrong order are swapped.
[[nodiscard]] std::vector<Vec2> rectangleRegion(Vec2 min, Vec2 max);

/// Area of a polygon (absolute value of the shoelace sum, so any winding; world units²).
[[nodiscard]] double polygonArea(const std::vector<Vec2>& polygon);

// ---- Bottlenecks: generators with walls and routes (generators_routes.cpp) ---------------------

/// The classic door bottleneck: a straight wall along y through `center` with a gap in its
/// middle, and two groups that swap sides through the gap. r below is the generated agents'
/// radius (the prototype's radius override, else Surroundings::defaultRadius).
///
/// Walls: two rectangles (obstacles[0] below the gap, obstacles[1] above), x within
/// center.x ± wallThickness/2, y from center.y ± wallLength/2 to center.y ± gapWidth/2.
/// Groups: side 0 (x < center.x, walking +x) first, then side 1 (walking −x). Each side is a
/// block of ceil(sqrt(perSide)) lanes across (along y, centred on center.y, `spacing` apart)
/// and as many rows as needed behind each other; agents are listed row by row, front first,
/// each row by increasing y, and a last, partial row is centred. The agent of row k (0 = the
/// front row), lane j of side s stands `distance` + k·spacing + (2j + s)·spacing/(2·lanes)
/// from the wall's face: the lanes' fronts are staggered so that no two agents are the same
/// distance from the wall. (ORCA is deterministic: two mirror-image agents reaching a
/// one-agent gap at the same moment stall there for good; measured, a 2 × 4 doorway without
/// the stagger gets no agent home.) Goal = the position mirrored across the wall's axis
/// (x ↦ 2·center.x − x), on the other side between the other side's starts.
/// Routes (`routes`): two waypoints on the gap's axis (y = center.y), one in front of the gap on
/// the agent's side and one beyond it, each 2·r from the wall's face: the agents line up for the
/// door instead of pressing against the wall beside it. A gap narrower than 2·r lets nobody
/// through; the result's note says so.
struct Doorway {
    Vec2 center{0.0, 0.0};      ///< Centre of the gap (world units, finite).
    double wallLength = 20.0;   ///< Length of the wall, gap included (world units, > gapWidth).
    double wallThickness = 1.0; ///< Thickness of the wall along x (world units, > 0).
    /// Width of the gap (world units, > 0); negative (the default): 2.4·r, one agent wide.
    double gapWidth = -1.0;
    int perSide = 8; ///< Agents on each side (1..kMaxGeneratedAgents/2).
    /// Centre-to-centre distance of neighbours in a group (world units, >= 2·r); negative (the
    /// default): 3·r.
    double spacing = -1.0;
    /// From the wall's face to the front row's centres, before the stagger (world units, >= r).
    double distance = 3.0;
    bool routes = true; ///< Give every agent the two waypoints through the gap.
};

/// Counterflow in a corridor: two long walls along x and two groups walking through it in
/// opposite directions. r as for Doorway.
///
/// Walls: two rectangles of `length` along x centred on center.x, obstacles[0] below
/// (y from center.y − width/2 − wallThickness to center.y − width/2) and obstacles[1] above
/// (y from center.y + width/2 to center.y + width/2 + wallThickness), so `width` is the free
/// width between their faces. Groups: flow 0 (walking +x, starting beyond the left end) first,
/// then flow 1 (walking −x, beyond the right end). Each flow is a block of as many lanes as fit
/// the corridor (floor((width − 2·r)/spacing) + 1, at most perFlow; centred on center.y,
/// `spacing` apart) and rows behind each other; row k (0 = the front row) stands `distance` +
/// k·spacing before the corridor's end; listed as Doorway's blocks. Goal = the position
/// mirrored across x = center.x, so each flow heads for the other's start block.
/// Keep right (`keepRight`): two waypoints on the flow's right lane, the middle of the right
/// half (flow 0: y = center.y − width/4; flow 1: y = center.y + width/4), one at each end of
/// the corridor (x = center.x ∓ length/2, entrance first): the flows pass each other instead of
/// meeting head on.
struct CorridorCounterflow {
    Vec2 center{0.0, 0.0};      ///< Centre of the corridor (world units, finite).
    double length = 30.0;       ///< Length of the corridor (world units, > 0).
    double width = 6.0;         ///< Free width between the walls (world units, > 2·r; >= 4·r
                                ///< with keepRight, so that the right lane is clear of the wall).
    double wallThickness = 1.0; ///< Thickness of each wall (world units, > 0).
    int perFlow = 8;            ///< Agents per flow (1..kMaxGeneratedAgents/2).
    /// Centre-to-centre distance of neighbours in a flow (world units, >= 2·r); negative (the
    /// default): 3·r.
    double spacing = -1.0;
    /// From the corridor's end to the centres of the front row (world units, >= 0).
    double distance = 3.0;
    bool keepRight = false; ///< Give every agent the two waypoints of its right lane.
};

/// The doorway described by `params`: 2 × perSide agents (requested = that) and the two walls.
/// A static prototype gets neither goals nor waypoints. Throws std::invalid_argument on invalid
/// parameters, e.g. "doorway: gapWidth must be > 0 (got 0)".
[[nodiscard]] GeneratorResult generate(const Doorway& params, const SceneAgent& prototype);
/// The corridor described by `params`: 2 × perFlow agents and the two walls. Throws
/// std::invalid_argument on invalid parameters, e.g. "corridor: width must be more than 2 × the
/// radius 0.5 (got 1)".
[[nodiscard]] GeneratorResult generate(const CorridorCounterflow& params,
                                       const SceneAgent& prototype);
/// The same keeping the agents clear of `surroundings` (the walls are not checked).
[[nodiscard]] GeneratorResult generate(const Doorway& params, const SceneAgent& prototype,
                                       const Surroundings& surroundings);
[[nodiscard]] GeneratorResult generate(const CorridorCounterflow& params,
                                       const SceneAgent& prototype,
                                       const Surroundings& surroundings);

/// Agent defaults suited to the bottleneck scenes (people-sized agents in metres and seconds):
/// radius 0.5, maxSpeed 1.5, prefSpeed 1.2, neighborDist 10, maxNeighbors 10, timeHorizon 3,
/// timeHorizonObst 2 (goalRadius and waypointRadius: the radius rules).
[[nodiscard]] AgentParams bottleneckAgentDefaults();
/// A whole scene of a generator's result: `name`, `description`, timeStep 0.1 (other
/// simulation values at their defaults, straight routing), agentDefaults =
/// bottleneckAgentDefaults(), the result's agents and obstacles. Generate with
/// Surroundings::defaultRadius 0.5 (or a prototype radius) so that the layout fits the defaults.
[[nodiscard]] Scene bottleneckScene(const GeneratorResult& result, std::string name,
                                    std::string description);

} // namespace orca::scene
