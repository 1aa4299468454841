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
};

/// State an agent is coloured by (first match wins: static, LP3, at goal, active).
enum class AgentState : std::uint8_t { Active, AtGoal, Static, Lp3 };

[[nodiscard]] Rgba agentFill(AgentState state);

/// Counters of the last draw() (for the status bar and performance checks).
struct WorldDrawStats {
    std::size_t agentsDrawn = 0;
    std::size_t agentsDetailed = 0; ///< Drawn as circles with outline (the rest are dots).
    std::size_t obstaclesDrawn = 0;
};

class WorldRenderer {
  public:
    /// Draws the world clipped to the camera's viewport. `lp3Flags`, when not empty, holds one
    /// flag per agent (agent order) marking agents whose LP2 was infeasible in the last step.
    void draw(ImDrawList& drawList, const Camera& camera, const Simulator& sim,
              const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags = {});

    [[nodiscard]] const WorldDrawStats& stats() const { return m_stats; }

  private:
    struct CachedObstacle {
        ObstacleId id;
        std::vector<Vec2> vertices;
        std::vector<std::uint32_t> triangles;
        Rect bounds;
    };

    void syncObstacles(const Simulator& sim);
    void drawGrid(ImDrawList& dl, const Camera& camera) const;
    void drawObstacles(ImDrawList& dl, const Camera& camera);
    void drawGoals(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                   const WorldViewOptions& options) const;
    void drawAgents(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                    const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags);

    std::vector<CachedObstacle> m_obstacles;
    std::vector<std::uint32_t> m_detailed; ///< agents drawn with outline (get arrows)
    WorldDrawStats m_stats;
    float m_pixelsPerPoint = 1.0f;
};

} // namespace orca::ui
