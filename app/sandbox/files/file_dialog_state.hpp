#pragma once
// The file dialogs' state besides the dialog and its preset (shell/windows.hpp): the browser,
// its inline steps, the desktop's dialog.

#include <filesystem>
#include <string>

#include "files/desktop_dialog.hpp"
#include "files/file_browser.hpp"

namespace orca::app {

/// What a file dialog shows and waits for (drawn by files/file_dialogs.cpp).
struct FileDialogState {
    /// What the dialog shows below its toolbar.
    enum class Step { Browse, NewFolder, Overwrite };
    files::FileBrowser browser;
    Step step = Step::Browse;
    std::string newFolderName;
    std::filesystem::path overwriteTarget; ///< the existing file the Overwrite step asks about
    files::DesktopDialog desktop;
    int listScrollTo = -1;                             ///< the row to scroll into view next frame
    float newFolderRect[4] = {0.0f, 0.0f, 0.0f, 0.0f}; ///< the New folder button (dump)
};

} // namespace orca::app
