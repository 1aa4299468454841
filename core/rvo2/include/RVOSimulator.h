#ifndef ORCA_RVO2_RVOSIMULATOR_H
#define ORCA_RVO2_RVOSIMULATOR_H
/// \file RVOSimulator.h
/// RVO2's simulator class (RVO::RVOSimulator) as a thin face over the ORCA Sandbox core
/// (orca::Simulator): the same public API, so RVO2 programs compile unchanged, while every
/// decision is the core's. Part of the compatibility layer `orca::rvo2`; docs/rvo2.md says what
/// "same results" means and lists the differences.
///
/// Like RVO2, the face keeps positions and velocities in float: the core computes each step
/// in double and the face rounds the new state to float (docs/rvo2.md, "Same results").
///
/// Numbering follows RVO2: agents are numbered 0, 1, 2... in the order they were added (agents
/// are never removed); obstacle vertices are numbered consecutively over all polygons in the
/// order they were added, each polygon's vertices in the order given.
///
/// Where RVO2 leaves behaviour undefined, this class throws instead (never a crash):
/// - std::out_of_range for an agent, neighbour, ORCA-line or vertex number that does not exist;
/// - std::invalid_argument for a value the core cannot simulate: NaN or infinite coordinates
///   or parameters, a radius <= 0, a negative speed or neighbour distance, a time horizon
///   <= 0, a time step below 1e-6 s, a polygon the core rejects (repeated or all collinear
///   vertices, self-intersecting, or clockwise), a negative visibility radius;
/// - std::logic_error from doStep() when no time step was ever set;
/// - orca::NonFiniteState (a std::runtime_error) from doStep() if the core ever produced a
///   non-finite state (valid input does not);
/// - orca::scene::SceneError (a std::runtime_error) from saveScene() when the file cannot be
///   written.
/// A call that throws changes nothing. The two failures RVO2 documents keep RVO2's answer:
/// addAgent(position) before any agent defaults and addObstacle() with fewer than two vertices
/// return RVO_ERROR.
///
/// Threads: like RVO2's examples under OpenMP, several threads may call the getters and
/// setAgentPrefVelocity() at once for different agents; every other call needs the simulator
/// to itself.

#include <cstddef>
#include <string>
#include <vector>

#include "Line.h"
#include "Vector2.h"

namespace RVO {

/// The error value (the largest std::size_t) returned by addAgent(position) before any agent
/// defaults were set and by addObstacle() for fewer than two vertices.
const std::size_t RVO_ERROR = static_cast<std::size_t>(-1); // a constant even in C++98

/// An ORCA simulation with RVO2's interface. Units: world units, seconds, world units per
/// second. Not copyable.
class RVOSimulator {
  public:
    /// A simulator without agent defaults (addAgent(position) returns RVO_ERROR until
    /// setAgentDefaults) and without a time step (set one with setTimeStep before doStep).
    RVOSimulator();
    /// A simulator with time step `timeStep` (s, >= 1e-6) and the agent defaults of
    /// setAgentDefaults (initial velocity zero). Throws std::invalid_argument for an invalid
    /// value.
    RVOSimulator(float timeStep, float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                 float timeHorizonObst, float radius, float maxSpeed);
    /// The same with a default initial velocity `velocity` (units/s, finite).
    RVOSimulator(float timeStep, float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                 float timeHorizonObst, float radius, float maxSpeed, const Vector2& velocity);
    ~RVOSimulator();

    /// Adds an agent at `position` with the agent defaults. Returns its number, or RVO_ERROR
    /// when no defaults have been set. Throws std::invalid_argument for a non-finite position.
    std::size_t addAgent(const Vector2& position);
    /// Adds an agent with its own parameters (see setAgentDefaults for their meaning and
    /// ranges) and velocity zero. Returns its number. Throws std::invalid_argument for an
    /// invalid value.
    std::size_t addAgent(const Vector2& position, float neighborDist, std::size_t maxNeighbors,
                         float timeHorizon, float timeHorizonObst, float radius, float maxSpeed);
    /// The same with initial velocity `velocity` (units/s, finite).
    std::size_t addAgent(const Vector2& position, float neighborDist, std::size_t maxNeighbors,
                         float timeHorizon, float timeHorizonObst, float radius, float maxSpeed,
                         const Vector2& velocity);

    /// Adds a polygon, vertices counter-clockwise (agents stay outside); two vertices make a
    /// thin wall that blocks from both sides. It takes effect at the next processObstacles().
    /// Returns the number of its first vertex, or RVO_ERROR for fewer than two vertices.
    /// Throws std::invalid_argument for a polygon the core rejects: a non-finite or huge
    /// (beyond 1e100) coordinate, a repeated vertex, all vertices collinear, edges that cross,
    /// or clockwise order. (RVO2 takes a clockwise polygon as an inside-out "bounding"
    /// obstacle; the core has no such obstacle: docs/rvo2.md.)
    std::size_t addObstacle(const std::vector<Vector2>& vertices);

    /// One simulation step: every agent chooses its new velocity from the state before the
    /// step (its neighbours, their ORCA half-planes, the linear programs), then all move by
    /// velocity * timeStep and the global time advances by the time step. Throws
    /// std::logic_error when no time step was set.
    void doStep();

    /// The number of the `neighborNo`-th agent neighbour (nearest first) of agent `agentNo`
    /// in the last doStep(). Throws std::out_of_range for either number.
    std::size_t getAgentAgentNeighbor(std::size_t agentNo, std::size_t neighborNo) const;
    /// The agent's maximum neighbour count (values above 2^31 - 1 read back as 2^31 - 1).
    std::size_t getAgentMaxNeighbors(std::size_t agentNo) const;
    /// The agent's maximum speed (units/s).
    float getAgentMaxSpeed(std::size_t agentNo) const;
    /// The agent's neighbour distance (world units, centre to centre).
    float getAgentNeighborDist(std::size_t agentNo) const;
    /// How many agent neighbours the agent considered in the last doStep() (0 before the first
    /// step and for agents added since).
    std::size_t getAgentNumAgentNeighbors(std::size_t agentNo) const;
    /// How many obstacle edges the agent considered in the last doStep().
    std::size_t getAgentNumObstacleNeighbors(std::size_t agentNo) const;
    /// How many ORCA half-planes constrained the agent in the last doStep(): obstacle lines
    /// first, then one per agent neighbour.
    std::size_t getAgentNumORCALines(std::size_t agentNo) const;
    /// The number of the first vertex of the `neighborNo`-th obstacle edge (nearest first) the
    /// agent considered in the last doStep(). Throws std::out_of_range for either number.
    std::size_t getAgentObstacleNeighbor(std::size_t agentNo, std::size_t neighborNo) const;
    /// The `lineNo`-th ORCA half-plane of the agent in the last doStep() (permitted velocities
    /// on its left). The reference stays valid until the next doStep(). Throws
    /// std::out_of_range for either number.
    const Line& getAgentORCALine(std::size_t agentNo, std::size_t lineNo) const;
    /// The agent's position (world units). The reference stays valid for the simulator's
    /// lifetime and follows the agent.
    const Vector2& getAgentPosition(std::size_t agentNo) const;
    /// The agent's preferred velocity (units/s) as last set (zero until set).
    const Vector2& getAgentPrefVelocity(std::size_t agentNo) const;
    /// The agent's radius (world units).
    float getAgentRadius(std::size_t agentNo) const;
    /// The agent's time horizon toward other agents (s).
    float getAgentTimeHorizon(std::size_t agentNo) const;
    /// The agent's time horizon toward obstacles (s).
    float getAgentTimeHorizonObst(std::size_t agentNo) const;
    /// The agent's velocity (units/s).
    const Vector2& getAgentVelocity(std::size_t agentNo) const;
    /// Simulated time (s): the float sum of the time steps of every doStep() so far.
    float getGlobalTime() const;
    /// The number of agents.
    std::size_t getNumAgents() const;
    /// The number of obstacle vertices added (processed or not).
    std::size_t getNumObstacleVertices() const;
    /// The position of obstacle vertex `vertexNo` (world units). Throws std::out_of_range.
    const Vector2& getObstacleVertex(std::size_t vertexNo) const;
    /// The number of the vertex after `vertexNo` in its polygon (cyclically). Throws
    /// std::out_of_range.
    std::size_t getNextObstacleVertexNo(std::size_t vertexNo) const;
    /// The number of the vertex before `vertexNo` in its polygon (cyclically). Throws
    /// std::out_of_range.
    std::size_t getPrevObstacleVertexNo(std::size_t vertexNo) const;
    /// The time step (s); 0 until one is set.
    float getTimeStep() const;

    /// Puts every obstacle added so far into the simulation (obstacles added later wait for
    /// the next call), and into the visibility queries.
    void processObstacles();

    /// Whether the segment from `point1` to `point2` crosses or touches no processed obstacle
    /// edge (true before processObstacles). Throws std::invalid_argument for a non-finite point.
    bool queryVisibility(const Vector2& point1, const Vector2& point2) const;
    /// Whether the segment from `point1` to `point2` stays at least `radius` (world units,
    /// >= 0) from every processed obstacle edge, measured exactly (RVO2's test is an
    /// approximation of it: docs/rvo2.md). Throws std::invalid_argument for a non-finite point
    /// or a negative or non-finite radius.
    bool queryVisibility(const Vector2& point1, const Vector2& point2, float radius) const;

    /// Sets the parameters of agents added later with addAgent(position), velocity zero:
    /// `neighborDist` (world units, >= 0: agents closer than this, centre to centre, may be
    /// neighbours), `maxNeighbors` (how many of the nearest are considered; 0 = ignore other
    /// agents), `timeHorizon` (s, > 0: collisions with agents are avoided this far ahead),
    /// `timeHorizonObst` (s, > 0: the same for obstacles), `radius` (world units, > 0; RVO2
    /// also allows 0, the core does not) and `maxSpeed` (units/s, >= 0). Throws
    /// std::invalid_argument for a value out of range or not finite.
    void setAgentDefaults(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                          float timeHorizonObst, float radius, float maxSpeed);
    /// The same with default initial velocity `velocity` (units/s, finite).
    void setAgentDefaults(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                          float timeHorizonObst, float radius, float maxSpeed,
                          const Vector2& velocity);

    /// Sets the agent's maximum neighbour count (values above 2^31 - 1 count as 2^31 - 1,
    /// which is the same as "all").
    void setAgentMaxNeighbors(std::size_t agentNo, std::size_t maxNeighbors);
    /// Sets the agent's maximum speed (units/s, >= 0).
    void setAgentMaxSpeed(std::size_t agentNo, float maxSpeed);
    /// Sets the agent's neighbour distance (world units, >= 0).
    void setAgentNeighborDist(std::size_t agentNo, float neighborDist);
    /// Sets the agent's position (world units, finite).
    void setAgentPosition(std::size_t agentNo, const Vector2& position);
    /// Sets the agent's preferred velocity (units/s, finite), used from the next doStep() on.
    void setAgentPrefVelocity(std::size_t agentNo, const Vector2& prefVelocity);
    /// Sets the agent's radius (world units, > 0).
    void setAgentRadius(std::size_t agentNo, float radius);
    /// Sets the agent's time horizon toward agents (s, > 0).
    void setAgentTimeHorizon(std::size_t agentNo, float timeHorizon);
    /// Sets the agent's time horizon toward obstacles (s, > 0).
    void setAgentTimeHorizonObst(std::size_t agentNo, float timeHorizonObst);
    /// Sets the agent's velocity (units/s, finite).
    void setAgentVelocity(std::size_t agentNo, const Vector2& velocity);
    /// Sets the time step (s, at least 1e-6 and finite; RVO2 says "positive", the core needs
    /// 1e-6 because the collision response divides by it).
    void setTimeStep(float timeStep);

    /// Extra (not in RVO2): writes the current state as an ORCA Sandbox scene (JSON, format
    /// v1, written atomically) that `orca validate` accepts and `orca run` or the sandbox app
    /// continue: the processed obstacles, every agent with its position, velocity, parameters
    /// and current preferred velocity (kept constant: the goals live in the program), the
    /// time step and the clock. Throws orca::scene::SceneError when the file cannot be
    /// written or a value lies beyond the scene format's limits (coordinates within ±1e7).
    void saveScene(const std::string& path) const;
    /// Extra (not in RVO2): records the run from now on into `path` (an ORCA Sandbox recording,
    /// docs/recording-format.md, float32: exact for RVO2's float state): the scene, then after
    /// every doStep() each agent's position, velocity and the preferred velocity the step was
    /// given; a new scene record whenever agents, obstacles or parameters changed, and a frame
    /// of the state before a step whose positions or velocities the program set. The file
    /// appears, whole, at stopRecording() (or when the simulator is destroyed); starting again
    /// stops the current recording first. Throws orca::scene::SceneError when the file cannot be
    /// written (doStep() too, if writing fails while recording).
    void startRecording(const std::string& path);
    /// Finishes the recording and puts the file in place (nothing when not recording). Throws
    /// orca::scene::SceneError when that fails.
    void stopRecording();

  private:
    struct Impl; // the state behind the face (core/rvo2/src/simulator_impl.hpp)

    RVOSimulator(const RVOSimulator&);            // not copyable
    RVOSimulator& operator=(const RVOSimulator&); // not copyable

    Impl* impl_;
};

} // namespace RVO

#endif // ORCA_RVO2_RVOSIMULATOR_H
