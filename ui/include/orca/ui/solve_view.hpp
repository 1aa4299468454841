#pragma once
/// \file solve_view.hpp
/// Solve mode of the velocity panel: the LP trace (orca/lp_trace.hpp) of the selected agent
/// replayed one step at a time — the start (v_pref on the disk), each line LP2 tests (the
/// optimum before it, the line and its allowed side, the LP1 interval on it with the earlier
/// lines that clipped it, the move to the new optimum), LP2's failure, LP3's phases (the
/// projected lines with the bisector, the push, the distance reached) and the result with its
/// binding lines. The step → text/geometry part is pure (unit-tested); drawSolve draws it.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "orca/explain.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

/// Solve mode: on/off and the trace step shown (←/→, the slider).
struct SolveState {
    bool active = false;
    int step = 0;
};

enum class SolveStepKind {
    Start,   ///< v_opt = v_pref (clamped to the disk)
    Lp2Line, ///< LP2 tests one line (held, or moved onto it by LP1)
    Lp2Fail, ///< LP1 on the line found nothing: LP2 fails, LP3 takes over
    Lp3Line, ///< LP3 tests one agent line (rebuilt its program, or skipped)
    Result,  ///< v_new and the binding lines
};

/// Everything one step shows, in A's absolute velocity space.
struct SolveFrame {
    SolveStepKind kind = SolveStepKind::Start;
    int index = 0;          ///< this step (clamped)
    int count = 0;          ///< number of steps (0: the record has no trace)
    std::string title;      ///< "LP2 · line 4 of 10", "LP3 · line 9", "start", "result"
    std::string narration;  ///< the one-line story of this step
    int line = -1;          ///< line under test (record's lines), -1 for start/result
    bool held = false;      ///< LP2: the optimum already satisfied it; LP3: skipped
    double violation = 0.0; ///< of `before` by the line under test
    Vec2 before{0.0, 0.0};  ///< optimum before the step
    Vec2 after{0.0, 0.0};   ///< optimum after it
    /// Lines already in the program (LP2: lines before `line`; result: all).
    int inserted = 0;
    /// LP1 on the line: the disk chord [diskA, diskB] and the interval [from, to] left after
    /// the clips (crossed when `empty`).
    bool hasLp1 = false;
    bool missesDisk = false;
    Vec2 diskA{0.0, 0.0}, diskB{0.0, 0.0};
    Vec2 from{0.0, 0.0}, to{0.0, 0.0};
    bool empty = false;
    std::vector<int> clipLines;   ///< record lines that narrowed the interval
    std::vector<Vec2> clipPoints; ///< where each crosses the line under test
    /// LP3: the inner program's lines (obstacle lines copied, then the bisectors), the
    /// direction it pushes along (perp(d_i)), the distance reached and its foot on line i.
    std::vector<Line> projected;
    std::vector<int> projectedFrom;
    std::vector<bool> projectedObstacle;
    Vec2 push{0.0, 0.0};
    double distance = 0.0;
    std::vector<std::size_t> binding; ///< result step: the lines v_new lies on
};

/// Number of solve steps of the record (0 without an LP trace): start, one per LP2 line
/// considered, one per LP3 line, result.
[[nodiscard]] int solveStepCount(const ExplainRecord& rec);

/// Step `step` (clamped) of the record's trace; agents are named "#slot" (formatAgentId).
[[nodiscard]] SolveFrame solveFrame(const ExplainRecord& rec, int step);

/// The region a frame fills, alike on screen and in the SVG: LP2 — the disk ∩ the lines
/// already inserted; LP3 — the disk ∩ the phase's own program; result — the final region
/// (empty when LP3 ran). None behind a skipped LP3 line.
[[nodiscard]] std::optional<std::vector<Vec2>> solveRegion(const ExplainRecord& rec,
                                                           const SolveFrame& f);

/// How a frame draws the record's line k beneath its highlights, alike on screen and in the
/// SVG: not at all (the line under test, and the clipping and binding lines, are drawn on top
/// apart), else faint behind an LP3 step, in its colour once inserted, fainter and dashed
/// while still to come.
struct SolveBackgroundLine {
    bool drawn = false;
    std::uint8_t alpha = 0;
    double width = 1.0;
    double dash = 0.0; ///< 0: solid
};
[[nodiscard]] SolveBackgroundLine solveBackgroundLine(const SolveFrame& f, std::size_t k, bool lp3);

/// Short human name of a line case ("cut-off circle", "left leg", "obstacle right leg"…).
[[nodiscard]] std::string_view caseName(LineCase c);

/// The panel's solve-mode controls (◀ ▶, a step slider, the step's title and its narration,
/// wrapped); clamps state.step. Returns the frame to draw (count 0 without a trace).
SolveFrame solveControls(const ExplainRecord& rec, SolveState& state);

/// The colour Solve mode draws a line of case `c` in: colliding, obstacle or agent.
[[nodiscard]] Rgba solveLineColour(LineCase c);

/// Draws one solve step in the panel's velocity space.
void drawSolve(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
               const ExplainRecord& rec, const SolveFrame& f);

} // namespace orca::ui
