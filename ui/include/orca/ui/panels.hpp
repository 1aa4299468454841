#pragma once
/// \file panels.hpp
/// Small ImGui panels of the sandbox: status bar, help window, message modal.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>

namespace orca::ui {

/// What the status bar shows.
struct StatusInfo {
    std::string sceneName;
    bool unsaved = false;      ///< The scene has edits not saved yet (shown as "*").
    std::size_t selected = 0;  ///< Selected agents.
    bool construction = false; ///< Construction mode is on.
    std::string editTool;      ///< The active edit tool ("" for the inspect tool).
    std::uint64_t step = 0;
    double time = 0.0; ///< Simulated time (s).
    bool running = false;
    std::size_t agents = 0;
    std::size_t goalAgents = 0; ///< Agents with a goal...
    std::size_t atGoal = 0;     ///< ...and how many of them are at it.
    std::size_t lp3Agents = 0;  ///< Agents that needed LP3 in the last step (none at step 0).
    double msPerStep = 0.0;     ///< CPU time of one Simulator::step() (ms).
    double msPerFrame = 0.0;    ///< CPU time to build one frame (ms).
    int threads = 1;
    /// What is shown besides a simulation, e.g. "recording: frame 12 of 51" ("" for none):
    /// after running / paused, in the warning colour when `modeWarning`.
    std::string mode;
    bool modeWarning = false;
    std::string note; ///< A short transient message (e.g. "saved to ..."), shown last.
};

/// `text` when it fits in `width` (screen units, current font), else its longest prefix that
/// fits with "..." appended (cut at a UTF-8 character boundary; just "..." when nothing fits).
[[nodiscard]] std::string fitText(const std::string& text, float width);
/// Height of the status bar (screen units) for the current font and style. A note too long for
/// the bar is cut with "..." and shown in full in a tooltip on hover.
[[nodiscard]] float statusBarHeight();
/// The status bar's LP3 item: "LP3 N", the agents whose velocity LP3 chose in the last step
/// (drawn orange); "LP3 (no step yet)" at step 0, where no step has run and
/// Simulator::lastStepStats() holds nothing measured (it said "LP3 0" while the velocity panel
/// showed LP3 running in the decision about to be made).
[[nodiscard]] std::string lp3StatusText(const StatusInfo& info);
/// A bar across the bottom of the display.
void drawStatusBar(const StatusInfo& info);

/// One line of the help window: an input and what it does.
struct HelpRow {
    std::string input;       ///< e.g. "P / Space"
    std::string action;      ///< short name, e.g. "Play / pause"
    std::string description; ///< one sentence
};

/// Messages shown one at a time in a modal popup (errors, warnings), oldest first.
class MessageQueue {
  public:
    void push(std::string title, std::string text);
    [[nodiscard]] bool empty() const { return m_queue.empty(); }
    [[nodiscard]] std::size_t size() const { return m_queue.size(); }
    /// Title of the message shown now ("" when none).
    [[nodiscard]] std::string frontTitle() const {
        return m_queue.empty() ? std::string() : m_queue.front().title;
    }
    /// Call once per frame.
    void draw();

  private:
    struct Message {
        std::string title;
        std::string text;
    };
    std::deque<Message> m_queue;
};

} // namespace orca::ui
