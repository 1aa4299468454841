#pragma once
// The desktop's own file dialog (zenity), used instead of the built-in browser when the
// settings ask for it ("fileDialog": "desktop") and zenity is on PATH. It runs as a child
// process (posix_spawn with an argument vector, no shell) whose answer the frame loop polls,
// so the app keeps drawing while the dialog is open.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "files/file_browser.hpp"

namespace orca::app::files {

/// `program` in the folders of `pathEnv` (a PATH value, ':'-separated; an empty entry is the
/// current folder, as the shell takes it): the first executable regular file. Nullopt when
/// none; `program` with a '/' is checked as given.
[[nodiscard]] std::optional<std::filesystem::path> findProgram(const std::string& program,
                                                               const std::string& pathEnv);

/// zenity's arguments (argv[0] = "zenity") for a dialog of `kind` titled `title`, starting at
/// `preset` (a folder ending in '/' or a file): --file-selection, --save --confirm-overwrite
/// for save-like kinds, --filename, a filter of the kind's extensions and one of all files.
[[nodiscard]] std::vector<std::string> zenityArguments(FileKind kind, const std::string& title,
                                                       const std::string& preset);

/// A desktop dialog running as a child process.
class DesktopDialog {
  public:
    enum class State {
        Idle,      ///< none started (or its answer was taken)
        Running,   ///< the child runs
        Chosen,    ///< the user picked path()
        Cancelled, ///< the user closed the dialog (exit status 1)
        Failed     ///< it did not start or ended otherwise: error()
    };

    DesktopDialog() = default;
    DesktopDialog(const DesktopDialog&) = delete;
    DesktopDialog& operator=(const DesktopDialog&) = delete;
    ~DesktopDialog(); ///< ends a running child

    /// Starts `program` with `args` (args[0] is the name it sees). False (Failed, error()) when
    /// the pipe or the spawn fails.
    bool start(const std::filesystem::path& program, const std::vector<std::string>& args);
    /// Reads what the child wrote so far and checks whether it ended (never blocks).
    State poll();
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    [[nodiscard]] const std::string& error() const { return m_error; }
    /// Ends a running child (SIGTERM) and waits for it; back to Idle.
    void cancel();
    /// Takes the answer: back to Idle.
    void reset();

  private:
    void drain();
    pid_t m_pid = -1;
    int m_fd = -1;
    std::string m_out;
    State m_state = State::Idle;
    std::filesystem::path m_path;
    std::string m_error;
};

} // namespace orca::app::files
