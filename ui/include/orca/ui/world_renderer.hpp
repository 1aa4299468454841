#pragma once
/// \file world_renderer.hpp
/// Draws the simulator's world (grid, obstacles, goals, agents, velocities) into an ImGui draw
/// list, normally ImGui::GetBackgroundDrawList(). Culls to the camera's view and drops detail
/// for agents smaller than a couple of pixels, so 10,000 agents stay cheap.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "orca/types.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/route_view.hpp"

struct ImDrawList;

namespace orca {
class Simulator;
}

namespace orca::ui {

/// What to draw. Toggled from the View menu.
struct WorldViewOptions {
    bool grid = true;
    bool obstacles = true;
    bool velocities = true;
    bool goals = true;
    bool goalLines = true;
    /// Velocity arrows show the displacement over this many seconds (s, > 0).
    double velocityArrowSeconds = 2.0;
    /// Agent indices ("#i", agent order) next to agents drawn at least 7 px in radius.
    bool agentIds = false;
    /// Arrows along obstacle edges showing the (counter-clockwise) vertex order.
    bool obstacleWinding = false;
    /// Short outward normals at the middle of obstacle edges (the side agents live on).
    bool obstacleNormals = false;
    /// Fading trails of recent positions (one sample per step: the app samples after every step
    /// with sampleTrails(), and draw() adds one when the step advanced since; up to
    /// WorldRenderer::kTrailLength; drawn for agents with outline detail only).
    bool trails = false;
    /// Rings around the agents passed as `selected` to WorldRenderer::draw.
    bool selectionRings = true;
    /// The detour flow field: cells tinted by the magnitude of their vector, with arrows when
    /// the cells are large enough on screen (culled to the view, thinned when zoomed out).
    bool detourField = true;
    /// Every goal agent's planned route (route_view.hpp; the selected agents' routes are drawn
    /// whatever this says).
    bool routes = false;
    /// The roadmap's nodes and edges (only with roadmap routing: the simulator has none else).
    bool roadmap = false;
};

/// State an agent is coloured by (first match wins: static, LP3, detouring, at goal, active).
enum class AgentState : std::uint8_t { Active, AtGoal, Static, Lp3, Detouring };

[[nodiscard]] Rgba agentFill(AgentState state);

/// Agent `i`'s state in `sim`; `lp3Flags` as for WorldRenderer::draw (ignored unless it has one
/// flag per agent). The screen and the SVG export colour agents by it.
[[nodiscard]] AgentState agentStateAt(const Simulator& sim, std::size_t i,
                                      std::span<const std::uint8_t> lp3Flags);

/// Agents below this screen radius (framebuffer pixels) are drawn as plain dots: no outline,
/// no arrow, no goal mark, trail or id (they would be invisible and cost most of the
/// vertices). The SVG export applies it at one pixel per screen unit.
inline constexpr float kAgentDetailRadiusPx = 2.0f;

/// Counters of the last draw() (for the status bar and performance checks).
struct WorldDrawStats {
    std::size_t agentsDrawn = 0;
    std::size_t agentsDetailed = 0; ///< Drawn as circles with outline (the rest are dots).
    std::size_t obstaclesDrawn = 0;
    std::size_t labelsDrawn = 0;
    std::size_t trailSegments = 0;
};

class WorldRenderer {
  public:
    /// Samples kept per agent for trails (fewer when there are more agents than
    /// kMaxTrailSamples / kTrailLength, at least 2).
    static constexpr std::size_t kTrailLength = 32;
    /// Cap on trail samples over all agents (8 bytes each).
    static constexpr std::size_t kMaxTrailSamples = std::size_t{1} << 19;

    /// Draws the world clipped to the camera's viewport. `lp3Flags`, when not empty, holds one
    /// flag per agent (agent order) marking agents whose LP2 was infeasible in the last step.
    /// `selected` holds agent indices (agent order) to ring; out-of-range ones are ignored.
    /// `routes`: the routes to draw (computed by the caller, who caches them per state), the
    /// Routes layer's under the agents, the selected agents' over them.
    void draw(ImDrawList& drawList, const Camera& camera, const Simulator& sim,
              const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags = {},
              std::span<const std::size_t> selected = {}, const WorldRoutes& routes = {});

    [[nodiscard]] const WorldDrawStats& stats() const { return m_stats; }

    /// Forgets the trails (e.g. when another scene is loaded). They also restart by
    /// themselves when the agent count changes or the step count goes backwards.
    void clearTrails();
    /// Adds the simulator's current positions to the trails (nothing when this step is already
    /// sampled). The app calls it after every step while the trails layer is on, so steps run
    /// between two frames (or before the only frame of a screenshot) leave their trail.
    void sampleTrails(const Simulator& sim) { updateTrails(sim); }
    /// Samples currently held per agent (0 when trails are off or cleared).
    [[nodiscard]] std::size_t trailSamples() const { return m_trailCount; }

  private:
    struct CachedObstacle {
        ObstacleId id;
        std::vector<Vec2> vertices;
        std::vector<std::uint32_t> triangles;
        Rect bounds;
    };

    void syncObstacles(const Simulator& sim);
    void drawGrid(ImDrawList& dl, const Camera& camera) const;
    void drawObstacles(ImDrawList& dl, const Camera& camera, const WorldViewOptions& options);
    void updateTrails(const Simulator& sim);
    void drawTrails(ImDrawList& dl, const Camera& camera, const Simulator& sim);
    void drawLabels(ImDrawList& dl, const Camera& camera, const Simulator& sim);
    void drawSelection(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                       std::span<const std::size_t> selected) const;
    void drawGoals(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                   const WorldViewOptions& options) const;
    void drawDetourField(ImDrawList& dl, const Camera& camera, const Simulator& sim) const;
    void drawAgents(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                    const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags);

    std::vector<CachedObstacle> m_obstacles;
    std::vector<std::uint32_t> m_detailed; ///< agents drawn with outline (get arrows)
    WorldDrawStats m_stats;
    float m_pixelsPerPoint = 1.0f;

    // Trails: one ring of m_trailCap samples per agent, all agents sampled together, so one
    // head and count serve all (sample k of agent i at m_trail[i * m_trailCap + k]).
    struct TrailPoint {
        float x = 0.0f;
        float y = 0.0f;
    };
    std::vector<TrailPoint> m_trail;
    std::size_t m_trailCap = 0;
    std::size_t m_trailHead = 0;  ///< slot of the newest sample
    std::size_t m_trailCount = 0; ///< valid samples per agent
    std::size_t m_trailAgents = 0;
    std::uint64_t m_trailStep = 0;
};

} // namespace orca::ui
