#pragma once
// Opening SteerSuite and Menge files in the app (docs/import.md, "In the app"): they are
// recognised by their root element and imported as a new, unsaved scene.
#include <filesystem>
#include <string>

namespace orca::app {

struct SandboxContext;

/// Whether `file` is XML whose root element is one the importers read (SteerBenchTestCase,
/// Project, Experiment, BFSM), whatever its extension. Reads at most the first 64 KiB.
[[nodiscard]] bool isImportFile(const std::filesystem::path& file);

/// Imports `file` (a Menge project brings its scene and behaviour) and makes the result the
/// current scene as unsaved work: the title says "imported from FILE", Save proposes FILE.json
/// beside it, and the import report's drops and notes go to the messages window (and stderr).
/// False with `error` (nothing changed) when the import fails.
bool openImportedFile(SandboxContext& ctx, const std::filesystem::path& file, std::string& error);

} // namespace orca::app
