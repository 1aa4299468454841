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
    int listScrollTo = -1; ///< the row to scroll into view next frame
    // ImGui's active text field shows its own copy of the text: when the browser changes the
    // name (a row chosen, a folder entered), the field is made anew under another id.
    std::string nameShown; ///< the name as the field last showed it
    int nameFieldId = 0;
    float newFolderRect[4] = {0.0f, 0.0f, 0.0f, 0.0f}; ///< the New folder button (dump)
};

} // namespace orca::app
