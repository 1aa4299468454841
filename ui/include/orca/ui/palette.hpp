#pragma once
/// \file palette.hpp
/// The sandbox's colours, as plain RGBA so that tools without ImGui (the screenshot checker in
/// tests/gui) can look for them in rendered images.

#include <cstdint>

namespace orca::ui {

struct Rgba {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
    std::uint8_t a = 255;
};

namespace palette {

inline constexpr Rgba kBackground{24, 26, 31, 255};
inline constexpr Rgba kGridMinor{255, 255, 255, 12};
inline constexpr Rgba kGridMajor{255, 255, 255, 28};
inline constexpr Rgba kGridAxis{255, 255, 255, 60};

// Agent fills are opaque so their exact colour appears in screenshots.
inline constexpr Rgba kAgentActive{64, 140, 236, 255};  ///< Has somewhere to go, not at its goal.
inline constexpr Rgba kAgentAtGoal{72, 186, 96, 255};   ///< Within its goal radius.
inline constexpr Rgba kAgentStatic{138, 138, 146, 255}; ///< Immovable.
inline constexpr Rgba kAgentLp3{244, 128, 24, 255};     ///< LP2 was infeasible this step.

inline constexpr Rgba kVelocity{255, 214, 90, 230};
inline constexpr Rgba kGoal{230, 230, 235, 190};
inline constexpr Rgba kGoalLine{230, 230, 235, 24};

inline constexpr Rgba kObstacleFill{92, 80, 68, 255};
inline constexpr Rgba kObstacleOutline{214, 186, 142, 255};

} // namespace palette
} // namespace orca::ui
