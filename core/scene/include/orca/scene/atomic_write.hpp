#pragma once
/// \file atomic_write.hpp
/// Replacing a file so that a reader (or a crash) sees the old contents or the new ones, never
/// a mix: the one atomic write of the project, used by saveScene and by the app's settings,
/// recovery, state-dump and picture files.

#include <filesystem>
#include <string>
#include <string_view>

namespace orca::scene {

/// The temporary files of writeFileAtomic for `path` are named ".NAME.tmp-PID-XXXXXX" (NAME =
/// path's file name, XXXXXX from mkstemp), beside it; this is their name up to the PID.
[[nodiscard]] std::string atomicTemporaryPrefix(const std::filesystem::path& path);

/// Writes `text` to `path` atomically:
///  1. creates a unique temporary file in `path`'s directory (mkstemp, see
///     atomicTemporaryPrefix) with the mode of the file it replaces (a new file gets 0666
///     minus the umask, as open() would give it);
///  2. writes `text`, fsyncs and closes it;
///  3. renames it over `path`;
///  4. fsyncs the directory, so the rename itself is durable (best effort: some file systems
///     refuse to sync a directory, and the data is already safe in the file).
/// Returns false on failure with `error` set to what failed and the system's reason, e.g.
/// `cannot write "/d/.a.json.tmp-12-Xy3AbC": No space left on device`; the temporary file is
/// then removed and `path` untouched. A process killed mid-write leaves `path` intact but its
/// temporary file behind (removeAtomicTemporaries clears them).
bool writeFileAtomic(const std::filesystem::path& path, std::string_view text, std::string& error);

/// Removes the temporary files that writeFileAtomic calls for `path` left behind when their
/// process died mid-write (those of any process id). Errors are ignored.
void removeAtomicTemporaries(const std::filesystem::path& path);

} // namespace orca::scene
