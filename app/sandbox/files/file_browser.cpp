#include "files/file_browser.hpp"

#include "paths.hpp"

#include <algorithm>
#include <system_error>

namespace fs = std::filesystem;

namespace orca::app::files {

namespace {

char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool lessNoCase(const std::string& a, const std::string& b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(lowerAscii(a[i]));
        const auto y = static_cast<unsigned char>(lowerAscii(b[i]));
        if (x != y) return x < y;
    }
    if (a.size() != b.size()) return a.size() < b.size();
    return a < b; // same letters, other case: bytewise, so the order is total
}

std::string errorText(const fs::path& p, const std::error_code& ec) {
    return p.string() + ": " + ec.message();
}

} // namespace

const std::vector<std::string>& kindExtensions(FileKind kind) {
    static const std::vector<std::string> scene{".json", ".orcarec"};
    static const std::vector<std::string> csv{".csv"};
    static const std::vector<std::string> json{".json"};
    static const std::vector<std::string> png{".png"};
    static const std::vector<std::string> svg{".svg"};
    static const std::vector<std::string> record{".gif", ".png"};
    switch (kind) {
    case FileKind::Scene:
        return scene;
    case FileKind::Trajectory:
        return csv;
    case FileKind::SceneSave:
        return json;
    case FileKind::Screenshot:
        return png;
    case FileKind::Svg:
        return svg;
    case FileKind::Recording:
        return record;
    }
    return json;
}

const char* kindLabel(FileKind kind) {
    switch (kind) {
    case FileKind::Scene:
        return "Scenes and recordings (.json, .orcarec)";
    case FileKind::Trajectory:
        return "Trajectories (.csv)";
    case FileKind::SceneSave:
        return "Scenes (.json)";
    case FileKind::Screenshot:
        return "PNG pictures (.png)";
    case FileKind::Svg:
        return "SVG pictures (.svg)";
    case FileKind::Recording:
        return "Animated GIF (.gif), PNG frames (.png)";
    }
    return "";
}

bool isSaveKind(FileKind kind) {
    return kind != FileKind::Scene && kind != FileKind::Trajectory;
}

bool matchesKind(std::string_view name, FileKind kind) {
    for (const std::string& ext : kindExtensions(kind)) {
        if (name.size() <= ext.size()) continue;
        const std::string_view tail = name.substr(name.size() - ext.size());
        bool same = true;
        for (std::size_t i = 0; i < ext.size() && same; ++i)
            same = lowerAscii(tail[i]) == ext[i];
        if (same) return true;
    }
    return false;
}

void sortEntries(std::vector<Entry>& entries) {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        if (a.folder != b.folder) return a.folder;
        return lessNoCase(a.name, b.name);
    });
}

std::vector<Place> makePlaces(const PlaceSources& s, FileKind kind, bool showAll) {
    std::vector<Place> places;
    auto add = [&](const char* label, const fs::path& p) {
        if (!p.empty()) places.push_back({label, p, false});
    };
    add("Home", s.home);
    if (!s.sceneFile.empty() && s.sceneFile.has_parent_path())
        add("Scene folder", s.sceneFile.parent_path());
    add("Bundled scenes", s.scenesDir);
    add("Bundled lessons", s.lessonsDir);
    for (const std::string& f : s.recentFiles) {
        const fs::path p(f);
        if (!showAll && !matchesKind(p.filename().string(), kind)) continue;
        places.push_back({p.filename().string(), p, true});
    }
    return places;
}

fs::path expandHome(const std::string& text, const fs::path& home) {
    if (!home.empty() && (text == "~" || text.starts_with("~/")))
        return text.size() <= 2 ? home : home / text.substr(2);
    return fs::path(text);
}

void FileBrowser::open(FileKind kind, const std::string& preset, const fs::path& fallback) {
    m_kind = kind;
    m_home = fallback;
    m_showAll = false;
    m_error.clear();
    name.clear();
    fs::path folder;
    std::error_code ec;
    const fs::path p = expandHome(preset, m_home);
    if (preset.empty()) {
        folder = fallback;
    } else if (preset.back() == '/' || fs::is_directory(p, ec)) {
        folder = p;
    } else {
        folder = p.parent_path();
        name = p.filename().string();
    }
    if (folder.empty()) folder = fallback;
    m_folder.clear();
    m_entries.clear();
    if (!goTo(folder)) {
        const std::string why = m_error;
        if (!fallback.empty() && goTo(fallback)) m_error = why;
    }
}

void FileBrowser::setShowAll(bool on) {
    if (on == m_showAll) return;
    m_showAll = on;
    refresh();
}

bool FileBrowser::goTo(const fs::path& folderIn) {
    std::error_code ec;
    fs::path folder = fs::absolute(folderIn, ec);
    if (ec) folder = folderIn;
    folder = folder.lexically_normal();
    if (folder.has_filename() == false && folder != folder.root_path())
        folder = folder.parent_path(); // "a/b/" -> "a/b"
    const fs::file_status st = fs::status(folder, ec);
    if (ec || !fs::exists(st)) {
        m_error = folder.string() + ": no such folder";
        return false;
    }
    if (!fs::is_directory(st)) {
        m_error = folder.string() + ": not a folder";
        return false;
    }
    std::vector<Entry> entries;
    bool truncated = false;
    fs::directory_iterator it(folder, fs::directory_options::none, ec);
    if (ec) {
        m_error = errorText(folder, ec);
        return false;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) break;
        Entry e;
        e.name = it->path().filename().string();
        std::error_code ec2;
        e.folder = it->is_directory(ec2); // a link to a folder is a folder; a broken one a file
        if (!m_showAll && !e.name.empty() && e.name[0] == '.') continue;
        if (!e.folder && !m_showAll && !matchesKind(e.name, m_kind)) continue;
        if (entries.size() >= kMaxListedEntries) {
            truncated = true;
            break;
        }
        entries.push_back(std::move(e));
    }
    if (ec) {
        m_error = errorText(folder, ec);
        return false;
    }
    sortEntries(entries);
    const bool same = folder == m_folder;
    m_folder = std::move(folder);
    m_entries = std::move(entries);
    m_truncated = truncated;
    m_error.clear();
    if (!same || m_selected >= static_cast<int>(m_entries.size())) {
        m_selected = -1;
        m_selectionActive = false;
    }
    return true;
}

bool FileBrowser::goParent() {
    if (!m_folder.has_relative_path()) return false; // the root
    return goTo(m_folder.parent_path());
}

void FileBrowser::refresh() {
    if (!m_folder.empty()) goTo(m_folder);
}

bool FileBrowser::goToPlace(const Place& place) {
    if (!place.file) return goTo(place.path);
    const bool wasShowAll = m_showAll;
    if (!goTo(place.path.parent_path())) return false;
    const std::string file = place.path.filename().string();
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (!m_entries[i].folder && m_entries[i].name == file) select(static_cast<int>(i));
    if (m_selected < 0) {
        name = file;
        if (!wasShowAll && !fs::exists(place.path)) m_error = place.path.string() + ": not found";
    }
    return true;
}

void FileBrowser::select(int i) {
    const int n = static_cast<int>(m_entries.size());
    m_selected = n == 0 || i < 0 ? -1 : std::min(i, n - 1);
    m_selectionActive = m_selected >= 0;
    if (m_selected >= 0 && !m_entries[static_cast<std::size_t>(m_selected)].folder)
        name = m_entries[static_cast<std::size_t>(m_selected)].name;
}

void FileBrowser::moveSelection(int delta) {
    if (m_entries.empty()) return;
    if (m_selected < 0)
        select(delta > 0 ? 0 : static_cast<int>(m_entries.size()) - 1);
    else
        select(std::max(0, m_selected + delta));
}

fs::path FileBrowser::target() const {
    if (name.empty()) return {};
    const fs::path p = expandHome(name, m_home);
    fs::path t = (p.is_absolute() ? p : m_folder / p).lexically_normal();
    // A save-like dialog's name without an extension gets the kind's first one ("crowd" saves
    // crowd.json, which Open lists); a folder's name stays a folder.
    std::error_code ec;
    if (isSaveKind(m_kind) && name.back() != '/' && !t.has_extension() && !fs::is_directory(t, ec))
        t += kindExtensions(m_kind).front();
    return t;
}

FileBrowser::Outcome FileBrowser::activate() {
    if (m_selectionActive && m_selected >= 0) {
        const Entry& e = m_entries[static_cast<std::size_t>(m_selected)];
        if (e.folder) {
            const fs::path to = m_folder / e.name;
            if (!goTo(to)) return Outcome::Error;
            if (!isSaveKind(m_kind)) name.clear();
            return Outcome::EnteredFolder;
        }
    }
    const fs::path t = target();
    if (t.empty()) return Outcome::None;
    std::error_code ec;
    const fs::file_status st = fs::status(t, ec);
    if (fs::is_directory(st)) {
        if (!goTo(t)) return Outcome::Error;
        name.clear();
        return Outcome::EnteredFolder;
    }
    if (!isSaveKind(m_kind)) {
        if (!fs::exists(st)) {
            m_error = t.string() + ": no such file";
            return Outcome::Error;
        }
        return Outcome::Confirm;
    }
    // Save-like: the folder must exist; an existing file asks first.
    if (name.back() == '/') {
        m_error = t.string() + ": no such folder";
        return Outcome::Error;
    }
    const fs::path parent = t.parent_path();
    if (!fs::is_directory(parent, ec)) {
        m_error = parent.string() + ": no such folder";
        return Outcome::Error;
    }
    if (refuseReadOnly(t)) return Outcome::Error;
    if (fs::exists(st)) return Outcome::Overwrite;
    return Outcome::Confirm;
}

void FileBrowser::setReadOnlyFolders(std::vector<fs::path> folders) {
    m_readOnly = std::move(folders);
}

bool FileBrowser::refuseReadOnly(const fs::path& path) {
    for (const fs::path& dir : m_readOnly) {
        if (!isInsideFolder(path, dir)) continue;
        m_error = path.string() + ": " + dir.string() +
                  " holds the program's bundled files, which are never written: choose another "
                  "folder";
        return true;
    }
    return false;
}

bool FileBrowser::makeFolder(const std::string& newName, std::string& error) {
    if (newName.empty())
        error = "Type a name for the new folder.";
    else if (newName.find('/') != std::string::npos)
        error = "A folder name cannot contain '/'.";
    else if (newName == "." || newName == "..")
        error = "\"" + newName + "\" is no folder name.";
    if (!error.empty()) {
        m_error = error;
        return false;
    }
    const fs::path p = m_folder / newName;
    std::error_code ec;
    if (refuseReadOnly(p)) {
        error = m_error;
    } else if (fs::exists(fs::symlink_status(p, ec))) {
        error = p.string() + ": exists already";
    } else if (!fs::create_directory(p, ec) || ec) {
        error = errorText(p, ec ? ec : std::make_error_code(std::errc::io_error));
    } else if (!goTo(p)) {
        error = m_error;
    }
    if (!error.empty()) {
        m_error = error;
        return false;
    }
    return true;
}

} // namespace orca::app::files
