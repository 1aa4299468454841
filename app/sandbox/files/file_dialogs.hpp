#pragma once
// The modal dialogs: the file dialogs (Open scene, Open trajectory, Save as, Save screenshot,
// Export SVG, Record) with the built-in browser (file_browser.hpp) or the desktop's dialog
// (desktop_dialog.hpp), and the Unsaved changes and Restore prompts.

#include <filesystem>
#include <string>

#include "files/file_browser.hpp"

namespace orca::app {

struct SandboxContext;
enum class Dialog; // shell/windows.hpp

/// The file kind a file dialog lists (Dialog::Unsaved and Recover: none, Scene returned).
[[nodiscard]] files::FileKind fileKindOf(Dialog dialog);
/// Whether `dialog` picks a file.
[[nodiscard]] bool isFileDialog(Dialog dialog);

/// Draws the dialog in ctx.windows.dialog (one modal at a time, after the message boxes).
void drawDialogs(SandboxContext& ctx);

/// What a file dialog does with the file chosen (Enter, the confirm button, the overwrite
/// prompt's Replace, the desktop's dialog): opens, saves or requests it, and closes the dialog
/// (ctx.windows.dialog becomes None; inside the popup the caller closes it).
void finishFileDialog(SandboxContext& ctx, const std::filesystem::path& file);

/// Starts the desktop's dialog for the open file dialog when the settings ask for it and
/// zenity is found in `pathEnv` (a PATH value). False when the built-in browser is to be used;
/// `note` then says why when the desktop's dialog was asked for ("" otherwise).
bool startDesktopDialog(SandboxContext& ctx, const std::string& pathEnv, std::string& note);

} // namespace orca::app
