#pragma once
// The file dialogs' browser, without a window: a folder listed (folders first, then the files
// of the dialog's kind), places to jump to, the name field, keyboard selection, a new folder,
// the overwrite decision of the save-like dialogs and errors kept for showing in place. The
// ImGui side is files/file_dialogs.cpp; the desktop's own dialog is files/desktop_dialog.hpp.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace orca::app::files {

/// What a dialog picks: which files it lists and whether it writes (save-like: a name that
/// need not exist, an overwrite prompt) or reads (the file must exist).
enum class FileKind {
    Scene,      ///< Open: .json scenes and .orcarec recordings
    Trajectory, ///< Open trajectory: .csv
    SceneSave,  ///< Save as: .json
    Screenshot, ///< .png
    Svg,        ///< .svg
    Recording   ///< Record: .gif, or .png frames
};

/// The extensions (lower case, with the dot) a kind lists.
[[nodiscard]] const std::vector<std::string>& kindExtensions(FileKind kind);
/// A short name of the kind's files ("Scenes and recordings", "PNG pictures", ...).
[[nodiscard]] const char* kindLabel(FileKind kind);
/// Whether the kind writes a file (Save as, screenshot, SVG, record).
[[nodiscard]] bool isSaveKind(FileKind kind);
/// Whether `name`'s extension (any case) is one of the kind's.
[[nodiscard]] bool matchesKind(std::string_view name, FileKind kind);

/// One row of the listing. `name` is the entry's bytes (shown through ui::shownLine).
struct Entry {
    std::string name;
    bool folder = false;
};

/// A place to jump to: a folder, or (recent files) a file whose folder opens with it selected.
struct Place {
    std::string label;
    std::filesystem::path path;
    bool file = false;
};

/// What the places are made of (empty paths are left out).
struct PlaceSources {
    std::filesystem::path home;
    std::filesystem::path sceneFile; ///< the open scene: its folder
    std::filesystem::path scenesDir; ///< bundled scenes
    std::filesystem::path lessonsDir;
    std::vector<std::string> recentFiles;
};

/// Home, the scene's folder, the bundled scenes and lessons, then the recent files (those that
/// match `kind`, or all with `showAll`), in that order.
[[nodiscard]] std::vector<Place> makePlaces(const PlaceSources& sources, FileKind kind,
                                            bool showAll);

/// The largest listing kept; a folder with more entries shows the first ones sorted, and says so.
inline constexpr std::size_t kMaxListedEntries = 20000;

/// Sorts entries: folders first, then by name case-insensitively (ASCII), ties bytewise, so the
/// order is the same on every machine.
void sortEntries(std::vector<Entry>& entries);

class FileBrowser {
  public:
    /// What activate() did.
    enum class Outcome {
        None,          ///< nothing to do (an empty name)
        EnteredFolder, ///< the selection or the name was a folder: it is listed now
        Confirm,       ///< target() is the file to open or write
        Overwrite,     ///< a save-like dialog's target exists: ask before replacing it
        Error          ///< error() says why (shown in place)
    };

    /// Starts a dialog of `kind` at `preset`: a folder (ending in '/' or an existing folder)
    /// or a file, whose folder is listed and whose name fills the name field. A preset whose
    /// folder cannot be listed falls back to `fallback` (home, also "~" in the name field),
    /// with the error kept.
    void open(FileKind kind, const std::string& preset, const std::filesystem::path& fallback);

    [[nodiscard]] FileKind kind() const { return m_kind; }
    [[nodiscard]] const std::filesystem::path& folder() const { return m_folder; }
    [[nodiscard]] const std::vector<Entry>& entries() const { return m_entries; }
    [[nodiscard]] bool truncated() const { return m_truncated; }
    /// The last error ("" when none): unreadable folder, no such file, a new folder refused.
    [[nodiscard]] const std::string& error() const { return m_error; }
    void clearError() { m_error.clear(); }

    /// The name field: a file name, or a path (absolute, "~/...", or relative to folder()).
    std::string name;
    /// Lists every file, not only the kind's (and names starting with '.').
    [[nodiscard]] bool showAll() const { return m_showAll; }
    void setShowAll(bool on);

    /// Lists `folder` (made absolute). False, with error() set and the old listing kept, when
    /// it does not exist, is no folder or cannot be read.
    bool goTo(const std::filesystem::path& folder);
    /// Goes to the parent folder (false at the root).
    bool goParent();
    /// Re-reads the folder.
    void refresh();
    /// Jumps to a place: a folder is listed; a file's folder is listed with the file selected
    /// and its name in the name field.
    bool goToPlace(const Place& place);

    /// The selected row (-1: none).
    [[nodiscard]] int selected() const { return m_selected; }
    /// Selects row `i` (clamped; -1 clears). A file's name goes into the name field.
    void select(int i);
    /// Up/Down: moves the selection by `delta` rows (from none: the first or last row).
    void moveSelection(int delta);
    /// The user typed in the name field: Enter acts on the name, not on the selected row.
    void nameEdited() { m_selectionActive = false; }

    /// Enter, a double click, or the dialog's confirm button. A selected folder (chosen since
    /// the name was last typed) is entered; otherwise the name is resolved: a folder is
    /// entered, a file confirms (Overwrite when a save-like dialog's file exists), a missing
    /// file of an Open dialog or a missing folder is an Error.
    Outcome activate();
    /// The file the name field names (resolved against folder()); empty when the name is. In a
    /// save-like dialog a name without an extension that is no folder gets the kind's first
    /// extension (kindExtensions).
    [[nodiscard]] std::filesystem::path target() const;

    /// Makes folder `newName` inside folder() and lists it. False with `error` (also error())
    /// for an empty name, one with '/', "." or "..", an existing entry, a read-only folder, or
    /// a refusal.
    bool makeFolder(const std::string& newName, std::string& error);

    /// Folders that nothing is written into (the bundled scenes and lessons: the program's own
    /// files, the source tree in a build or /usr/share when installed). A save-like target and
    /// a new folder inside one are Errors that name it; they can still be browsed and opened.
    /// Kept across open().
    void setReadOnlyFolders(std::vector<std::filesystem::path> folders);

  private:
    /// Sets error() and says true when `path` lies inside a read-only folder.
    bool refuseReadOnly(const std::filesystem::path& path);

    FileKind m_kind = FileKind::Scene;
    std::filesystem::path m_folder;
    std::filesystem::path m_home; ///< for "~" in the name field
    std::vector<Entry> m_entries;
    bool m_truncated = false;
    bool m_showAll = false;
    int m_selected = -1;
    bool m_selectionActive = false;
    std::string m_error;
    std::vector<std::filesystem::path> m_readOnly;
};

/// `~` and `~/...` with `home`; anything else as given.
[[nodiscard]] std::filesystem::path expandHome(const std::string& text,
                                               const std::filesystem::path& home);

} // namespace orca::app::files
