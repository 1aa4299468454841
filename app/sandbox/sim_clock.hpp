#pragma once
// The one simulation clock: how many fixed steps to take in a frame.

#include <algorithm>
#include <cmath>

namespace orca::app {

enum class RunMode {
    RealTime,      ///< simulated time follows wall-clock time x timeScale
    StepsPerFrame, ///< a fixed number of steps every frame, as fast as frames come
};

struct ClockSettings {
    RunMode mode = RunMode::RealTime;
    double timeScale = 8.0;  ///< simulated seconds per real second (RealTime)
    int stepsPerFrame = 1;   ///< StepsPerFrame
    int maxCatchUpSteps = 4; ///< RealTime: never more steps than this in one frame
};

class SimClock {
  public:
    /// Longest frame time counted (s): a stall (window drag, breakpoint) is not caught up.
    static constexpr double kMaxFrameSeconds = 0.25;

    /// Steps to run this frame. `timeStep` is the simulator's Δt (> 0).
    int stepsFor(double frameSeconds, double timeStep, const ClockSettings& s) {
        if (s.mode == RunMode::StepsPerFrame) {
            m_accumulator = 0.0;
            return std::max(s.stepsPerFrame, 0);
        }
        if (!(timeStep > 0.0)) return 0;
        m_accumulator += std::clamp(frameSeconds, 0.0, kMaxFrameSeconds) * s.timeScale;
        const double due = std::floor(m_accumulator / timeStep);
        const int cap = std::max(s.maxCatchUpSteps, 1);
        if (due > cap) {
            // Behind: run the cap and drop the backlog except the partial step, so that a slow
            // simulation does not spiral (each frame taking longer and owing more steps).
            m_accumulator = std::fmod(m_accumulator, timeStep);
            return cap;
        }
        m_accumulator -= due * timeStep;
        return static_cast<int>(due);
    }

    /// Forget owed time (on pause, load, restart).
    void reset() { m_accumulator = 0.0; }
    [[nodiscard]] double owedSeconds() const { return m_accumulator; }

  private:
    double m_accumulator = 0.0; ///< simulated seconds owed
};

} // namespace orca::app
