#pragma once
/// \file atomic_write.hpp
/// Replacing a file so that a reader (or a crash, or a full disk) sees the old contents or the
/// new ones, never a mix: the one way the project writes files — scenes, settings, recovery,
/// state dumps, trajectories, screenshots, recordings and exports.

#include <filesystem>
#include <string>
#include <string_view>

namespace orca::scene {

/// The temporary files of AtomicFile for `path` are named ".NAME.tmp-PID-XXXXXX" (NAME = the
/// target's file name, XXXXXX from mkstemp), beside the target; this is their name up to the
/// PID.
[[nodiscard]] std::string atomicTemporaryPrefix(const std::filesystem::path& path);

/// A file written in pieces and then put in place at once:
///  1. open() resolves `path`: through a symbolic link (or a chain of them) to the file it
///     names, which is the one replaced (the links stay links); a target that exists must be a
///     regular file that is writable — one without any write permission bit is refused, even
///     for root, rather than replaced. It removes the temporary files of the same target that
///     a process killed mid-write left (see removeAtomicTemporaries: only names of exactly
///     that pattern, only when their process is gone; the folder is listed at most every 2 s
///     by a process, so a writer of many files in one folder lists it rarely). It creates a
///     unique temporary file beside the target (mkstemp, see atomicTemporaryPrefix) with the
///     target's mode (a new file gets 0666 minus the umask, as open() would give it);
///  2. write() appends to the temporary file;
///  3. commit() fsyncs and closes it, renames it over the target and fsyncs the directory (best
///     effort: some file systems refuse to sync a directory; the data is already safe).
/// Until commit() succeeds the target is untouched. Every failure returns false with the error
/// naming the file (in its display form, path_text.hpp) and the system's reason, e.g. `cannot
/// write "/d/.a.csv.tmp-12-Xy3AbC": No space left on device`, and removes the temporary file;
/// so does destroying an AtomicFile that was not committed. A process killed mid-write leaves
/// its temporary file behind, until the next open() for that target removes it.
class AtomicFile {
  public:
    AtomicFile() = default;
    ~AtomicFile() { abandon(); }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    bool open(const std::filesystem::path& path, std::string& error);
    /// Appends `bytes`. After a failure every later write fails too (error() says why).
    bool write(std::string_view bytes);
    bool commit(std::string& error);
    /// Removes the temporary file (nothing else changes).
    void abandon();

    [[nodiscard]] bool isOpen() const { return m_fd >= 0; }
    /// The first write error, "" if none.
    [[nodiscard]] const std::string& error() const { return m_error; }
    /// The file commit() replaces (the path given to open, symbolic links resolved).
    [[nodiscard]] const std::filesystem::path& target() const { return m_target; }
    [[nodiscard]] const std::filesystem::path& temporaryPath() const { return m_tmp; }

  private:
    int m_fd = -1;
    std::filesystem::path m_target;
    std::filesystem::path m_tmp;
    std::string m_error;
};

/// Writes `text` to `path` with an AtomicFile (open, write, commit). Returns false on failure
/// with `error` set; `path` is then untouched.
bool writeFileAtomic(const std::filesystem::path& path, std::string_view text, std::string& error);

/// Removes the temporary files that AtomicFile left beside `path` when their process died
/// mid-write: the files named exactly atomicTemporaryPrefix(path) + PID + "-XXXXXX" (six
/// characters of [A-Za-z0-9]) whose process PID is gone (kill(PID, 0) fails with ESRCH). A
/// live process's temporary (ours included, or one we may not signal) is never removed; a
/// temporary whose PID was since reused by another process stays until that one ends. Errors
/// are ignored. AtomicFile::open does the same for its target.
void removeAtomicTemporaries(const std::filesystem::path& path);

} // namespace orca::scene
