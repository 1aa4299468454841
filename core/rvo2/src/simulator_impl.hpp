#pragma once
// The state behind RVO::RVOSimulator: the core simulator, float mirrors of what RVO2's getters
// return by reference, the obstacle vertex numbering, and what the last doStep() decided (for
// the neighbour and ORCA-line queries). Private to the compatibility layer (core/rvo2/src).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "Line.h"
#include "RVOSimulator.h"
#include "Vector2.h"
#include "orca/roadmap.hpp"
#include "orca/scene/recording_session.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace RVO {

/// What RVO2 keeps per agent that its getters return by reference. A deque keeps references
/// valid while agents are added, as RVO2's heap-allocated agents do.
struct AgentMirror {
    Vector2 position;     ///< the core's position rounded to float (refreshed after each step)
    Vector2 velocity;     ///< the core's velocity rounded to float
    Vector2 prefVelocity; ///< as the program set it (exact in the core too)
    /// setAgentPrefVelocity stored a value the core has not seen yet (handed over by the next
    /// doStep(), so that the setter writes nothing shared and threads may set different agents).
    std::uint8_t prefPending = 0;
};

/// One obstacle vertex as RVO2 numbers it.
struct VertexMirror {
    Vector2 point;
    std::size_t next = 0;
    std::size_t prev = 0;
};

/// The agent defaults of setAgentDefaults (RVO2's "default agent").
struct AgentDefaults {
    orca::AgentParams params;
    Vector2 velocity;
};

/// The input of the last doStep(), enough to replay its decisions on demand: positions,
/// velocities and preferred velocities as the step read them, plus a snapshot of everything
/// else taken only if the program changed it after the step (a parameter, an agent, the
/// obstacles, the time step) before asking.
struct StepInput {
    bool valid = false;
    std::vector<orca::Vec2> position;
    std::vector<orca::Vec2> velocity;
    std::vector<orca::Vec2> prefVelocity;
    std::optional<orca::SimulatorState> configuration;
};

/// The last step's decisions in RVO2's terms, flat: agent i's entries are
/// [offset[i], offset[i + 1]) of each list.
struct StepRecords {
    std::vector<std::size_t> agentOffset;    ///< size agents + 1
    std::vector<std::size_t> agentNeighbors; ///< agent numbers, nearest first
    std::vector<std::size_t> obstacleOffset;
    std::vector<std::size_t> obstacleNeighbors; ///< first-vertex numbers, nearest first
    std::vector<std::size_t> lineOffset;
    std::vector<Line> lines; ///< obstacle lines, then agent lines
    [[nodiscard]] std::size_t agents() const {
        return agentOffset.empty() ? 0 : agentOffset.size() - 1;
    }
};

struct RVOSimulator::Impl {
    orca::Simulator sim;
    float timeStep = 0.0F;   ///< 0 = not set yet (RVO2's default constructor)
    float globalTime = 0.0F; ///< float sum of the time steps, as RVO2 keeps it
    std::optional<AgentDefaults> defaults;

    std::vector<orca::AgentId> ids; ///< agent number -> core id
    std::deque<AgentMirror> agents;

    std::deque<VertexMirror> vertices;
    std::vector<std::vector<orca::Vec2>> polygons; ///< every polygon added, in order
    std::vector<std::size_t> polygonFirstVertex;   ///< its first vertex number
    std::size_t processedPolygons = 0;             ///< polygons handed to the core
    std::vector<std::size_t> firstVertexBySlot;    ///< core ObstacleId slot -> first vertex
    orca::Roadmap visibility{visibilityLimits()};  ///< the processed obstacles' segment index

    StepInput lastStep;
    /// startRecording's recording (null when not recording).
    std::unique_ptr<orca::scene::RecordingSession> recording;
    // Filled on the first query after a step (under the mutex; `recordsReady` publishes them).
    mutable std::mutex recordsMutex;
    mutable std::atomic<bool> recordsReady{false};
    mutable StepRecords records;

    /// Roadmap limits for an index that only answers visibility queries: no vertex limit, the
    /// cheapest graph (the graph is never read).
    static orca::Roadmap::Limits visibilityLimits();

    /// Agent `agentNo`'s index, or std::out_of_range naming `function`.
    std::size_t agent(std::size_t agentNo, const char* function) const;
    /// Obstacle vertex `vertexNo`, or std::out_of_range naming `function`.
    const VertexMirror& vertex(std::size_t vertexNo, const char* function) const;
    /// Adds an agent to the core and the mirrors; returns its number.
    std::size_t addAgent(const Vector2& position, const orca::AgentParams& params,
                         const Vector2& velocity, const char* function);
    /// Replaces one parameter of an agent through `edit(params)`, validating the result.
    template <class Edit> void editParams(std::size_t agentNo, const char* function, Edit edit);
    /// The current state as one of our scenes (saveScene, the recordings' scene records).
    [[nodiscard]] orca::scene::Scene currentScene() const;
    /// The preferred velocities as the program set them.
    [[nodiscard]] std::vector<orca::Vec2> mirrorPrefVelocities() const;
    /// Hands the pending preferred velocities to the core.
    void flushPrefVelocities();
    /// Before a change to anything but positions, velocities and preferred velocities: keeps
    /// the last step's configuration so that its decisions can still be replayed.
    void keepStepConfiguration();
    /// The last step's decisions (computed on first use after each step).
    const StepRecords& stepRecords() const;
    /// Replays the last step on a copy of its input and converts its explain records.
    void computeRecords() const;
};

/// "RVO::RVOSimulator::NAME: " + message.
[[nodiscard]] std::string message(const char* function, const std::string& what);
/// Throws std::invalid_argument unless both coordinates are finite.
void requireFinite(const Vector2& v, const char* function, const char* what);
/// Throws std::invalid_argument unless `value` is finite.
void requireFinite(float value, const char* function, const char* what);
/// The core's agent parameters for RVO2's six, checked (std::invalid_argument naming
/// `function`). maxNeighbors beyond INT_MAX becomes INT_MAX (the same as "all").
[[nodiscard]] orca::AgentParams agentParams(float neighborDist, std::size_t maxNeighbors,
                                            float timeHorizon, float timeHorizonObst, float radius,
                                            float maxSpeed, const char* function);
/// Throws std::invalid_argument unless the core accepts these agent parameters.
void checkParams(const orca::AgentParams& params, const char* function);
/// The float an RVO2 program sees for a core double.
[[nodiscard]] inline Vector2 toFloat(orca::Vec2 v) {
    return Vector2(static_cast<float>(v.x), static_cast<float>(v.y));
}
/// The core's double for an RVO2 float vector (exact).
[[nodiscard]] inline orca::Vec2 toDouble(const Vector2& v) {
    return {static_cast<double>(v.x()), static_cast<double>(v.y())};
}

} // namespace RVO
