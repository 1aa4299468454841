#pragma once
// SIGTERM, SIGINT and SIGHUP while the window is open: the system or the terminal asks the app
// to end (a logout or a shutdown, Ctrl+C, a closed terminal). SDL's own handlers would turn
// them into a window close, whose unsaved-changes prompt nobody may be there to answer (and a
// session manager then kills the app, losing the edits since the last autosave). Caught here
// instead, and taken once per frame: the app keeps the unsaved scene in the recovery file and
// quits (endOnSignal, sandbox.hpp). The window's own close button still asks.

namespace orca::app {

/// Catches the three signals for as long as it lives (the previous handlers come back on
/// destruction; a second one made meanwhile catches nothing). SDL must not install its own:
/// SDL_HINT_NO_SIGNAL_HANDLERS before SDL_Init.
class EndSignals {
  public:
    EndSignals();
    ~EndSignals();
    EndSignals(const EndSignals&) = delete;
    EndSignals& operator=(const EndSignals&) = delete;

    /// The signal caught since the last call (the first of several), or 0.
    [[nodiscard]] int take();

  private:
    bool m_owner = false; ///< false for a second one made while the first lives: it does nothing
};

} // namespace orca::app
