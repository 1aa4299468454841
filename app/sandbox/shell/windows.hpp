#pragma once
// The windows part of the sandbox's context: which panels are open, Help, the scene hint, the
// message boxes, the modal dialogs and the status-bar note.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orca/ui/panels.hpp"

#include "shell/key_bindings.hpp"
#include "shell/settings.hpp"

namespace orca::app {

/// Something that would lose unsaved changes, waiting for the user's answer.
struct GuardedRequest {
    enum class Kind { Load, Quit, New } kind = Kind::Load;
    std::filesystem::path file; ///< Load
};

/// The small modal dialogs (one at a time).
enum class Dialog {
    None,
    Open,
    OpenTrajectory,
    SaveAs,
    Screenshot,
    ExportSvg,
    Record,
    Unsaved,
    Recover
};

struct Windows {
    PanelVisibility panels;
    std::string paramsError; ///< the Parameters panel's last refusal

    bool showHelp = false;
    bool helpFirstLaunch = false; ///< Help opened by the first launch: key tables folded
    float helpRect[4] = {0.0f, 0.0f, 0.0f, 0.0f}; ///< the Help window last frame (dump)
    std::vector<ui::HelpRow> keyHelp = keyHelpRows();
    std::vector<ui::HelpRow> mouseHelp = mouseHelpRows();
    std::string sceneHint; ///< the scene's "view" hint line, "" when none or dismissed
    ui::MessageQueue messages;
    std::vector<std::filesystem::path> sceneFiles; ///< Scene menu, rescanned when it opens

    Dialog dialog = Dialog::None;
    int dialogFocusFrames = 0; ///< frames left to put the keyboard focus into the path field
    std::string dialogPath;    ///< the preset path of a file dialog (its folder and name)
    std::optional<GuardedRequest> guarded; ///< waiting for Save / Discard / Cancel
    /// Keys pressed while a dialog is open, from SDL's events (shell/main.cpp): ImGui 1.86 reads
    /// key state once a frame and misses a key pressed and released between two frames (a
    /// quick Enter on a slow frame did nothing). Cleared once the dialogs are drawn.
    struct DialogKeys {
        bool enter = false;
        bool escape = false;
        bool up = false;
        bool down = false;
        bool backspace = false;
    } dialogKeys;
    bool continueAfterSaveAs = false; ///< Save As was opened by the unsaved prompt

    std::string note;       ///< transient status-bar note ("saved ...")
    double noteUntil = 0.0; ///< ImGui time when the note disappears
};

/// Shows `text` in the status bar for a few seconds (and prints it).
void setNote(Windows& windows, std::string text);
/// A failure the user must see: a message box titled `title` with `detail`, and the title
/// with the detail's first line in the status bar.
void reportFailure(Windows& windows, const std::string& title, const std::string& detail);

} // namespace orca::app
