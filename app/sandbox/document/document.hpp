#pragma once
// The document part of the sandbox's context: the scene being edited, its file, whether it is
// saved, its undo history and the autosave that protects it.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/history.hpp"
#include "orca/scene/scene.hpp"

#include "document/recovery.hpp"
#include "document/scene_edit.hpp"

namespace orca::app {

struct Document {
    /// The loaded scene with the user's edits (restart rebuilds the simulation from it, Save
    /// writes it).
    scene::Scene scene;
    std::filesystem::path sceneFile; ///< empty for the empty scene
    /// Where Save proposes to write a scene without a file ("" = the pictures folder's
    /// scene.json): beside the recording a frame came from.
    std::filesystem::path suggestedFile;
    /// The SteerSuite or Menge file this unsaved scene was imported from ("" = none;
    /// document/import_open.hpp): the title says so until it is saved.
    std::filesystem::path importedFrom;
    std::vector<std::string> agentNames; ///< user ids from the file ("" when none), agent order
    UnsavedTracker unsaved;
    /// Undo and redo of scene edits (tools, parameters, generators, lint fixes).
    scene::EditHistory history;
    std::uint64_t editVersion = 0; ///< bumped by every change of the scene
    /// Autosave of unsaved edits to the recovery file ("" = none).
    std::filesystem::path recoveryFile;
    AutosaveTimer autosave;
    /// A recovery file found at start, waiting for the user's answer (Dialog::Recover).
    std::optional<Recovered> pendingRecovery;
    /// The recovery file this session autosaves to after the user put off the one found at
    /// start ("Not now", putOffRecovery): held until the app ends (recoveryFile names it then).
    RecoveryLock sessionRecovery;
    /// Scene and lesson files larger than this are refused (--max-file-size); devices, FIFOs
    /// and folders always are (scene::readTextFile).
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize;
};

/// How the app reads scene and lesson files (the --max-file-size limit).
[[nodiscard]] scene::LoadOptions appLoadOptions(const Document& doc);
/// Where Save proposes to write a scene that has no file: its suggestedFile, else scene.json
/// in the pictures folder (defaultSaveDir).
[[nodiscard]] std::filesystem::path newSceneFile(const Document& doc);
/// "Name (file.json)" for titles.
[[nodiscard]] std::string sceneTitle(const Document& doc);

} // namespace orca::app
