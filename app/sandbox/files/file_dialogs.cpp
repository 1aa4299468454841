// The modal dialogs. A file dialog is the built-in browser (places at the left, the folder's
// folders and files of the dialog's kind at the right, the name field below) with two inline
// steps: a new folder's name, and the overwrite prompt of the save-like dialogs. With
// "fileDialog": "desktop" in the settings it first asks zenity, polled each frame.

#include "files/file_dialogs.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "orca/ui/long_text.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

const ImVec4 kWarning{0.95f, 0.75f, 0.30f, 1.0f};
const ImVec4 kError{1.0f, 0.45f, 0.40f, 1.0f};

const char* popupId(Dialog d) {
    switch (d) {
    case Dialog::Open:
        return "Open scene###dialog";
    case Dialog::OpenTrajectory:
        return "Open trajectory###dialog";
    case Dialog::SaveAs:
        return "Save scene as###dialog";
    case Dialog::Screenshot:
        return "Save screenshot###dialog";
    case Dialog::ExportSvg:
        return "Export SVG###dialog";
    case Dialog::Record:
        return "Record###dialog";
    case Dialog::Unsaved:
        return "Unsaved changes###dialog";
    case Dialog::Recover:
        return "Restore unsaved work?###dialog";
    case Dialog::None:
        break;
    }
    return nullptr;
}

bool keyPressed(ImGuiKey key, bool repeat = true) {
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat);
}

bool enterPressed(bool repeat = true) {
    return keyPressed(ImGuiKey_Enter, repeat) || keyPressed(ImGuiKey_KeyPadEnter, repeat);
}

fs::path homeFolder() {
    const fs::path home = UserDirsEnv::current().home;
    return home.empty() ? defaultSaveDir({}) : home;
}

void closeDialog(SandboxContext& ctx) {
    ctx.windows.dialog = Dialog::None;
    ctx.files.desktop.reset();
    ctx.files.step = FileDialogState::Step::Browse;
    ImGui::CloseCurrentPopup();
}

// The text above the browser: what the dialog writes or reads.
void drawDescription(const SandboxContext& ctx, Dialog d) {
    switch (d) {
    case Dialog::Open:
        ImGui::TextUnformatted("Scene file (.json) or recording (.orcarec):");
        break;
    case Dialog::OpenTrajectory: {
        const PlaybackState& p = ctx.playback;
        const fs::path& sceneFile =
            p.active ? (p.trajectory ? p.sceneFile : p.file) : ctx.doc.sceneFile;
        ImGui::Text("Trajectory CSV (step,agent,x,y,vx,vy[,pvx,pvy]) to play against %s:",
                    sceneFile.empty() ? "the open scene"
                                      : ui::shownLine(sceneFile.filename().string()).c_str());
        ImGui::TextDisabled("Each step is checked against ORCA as orca conform does; the "
                            "deviations become events.");
        break;
    }
    case Dialog::SaveAs:
        ImGui::TextUnformatted("Scene file (.json). Saves the scene as loaded with your edits, "
                               "not the running state:");
        break;
    case Dialog::Screenshot:
        ImGui::TextUnformatted("PNG file (the window as it is, without this dialog):");
        break;
    case Dialog::ExportSvg:
        ImGui::TextUnformatted(
            "SVG file (the world view and the velocity panel as vector paths and text):");
        break;
    case Dialog::Record:
        ImGui::TextUnformatted(
            "Animated GIF (.gif), or numbered PNG frames (.png: NAME_0000.png, ...).\n"
            "A frame is taken each time the simulation advances; Ctrl+R again stops.");
        break;
    default:
        break;
    }
}

const char* nameHint(Dialog d) {
    switch (d) {
    case Dialog::OpenTrajectory:
        return "run.csv or /path/to/run.csv";
    case Dialog::Screenshot:
        return "shot.png or /path/to/shot.png";
    case Dialog::ExportSvg:
        return "picture.svg or /path/to/picture.svg";
    case Dialog::Record:
        return "run.gif or /path/to/run.gif";
    default:
        return "scene.json or /path/to/scene.json";
    }
}

// Acts on activate()'s outcome. True when the dialog closed.
bool afterActivate(SandboxContext& ctx, files::FileBrowser::Outcome o) {
    FileDialogState& fd = ctx.files;
    using Outcome = files::FileBrowser::Outcome;
    switch (o) {
    case Outcome::EnteredFolder:
        ctx.windows.dialogFocusFrames = 2;
        fd.listScrollTo = 0;
        break;
    case Outcome::Confirm: {
        const fs::path target = fd.browser.target();
        ImGui::CloseCurrentPopup();
        finishFileDialog(ctx, target);
        return true;
    }
    case Outcome::Overwrite:
        fd.step = FileDialogState::Step::Overwrite;
        fd.overwriteTarget = fd.browser.target();
        break;
    case Outcome::Error:
    case Outcome::None:
        break;
    }
    return false;
}

void drawPlaces(SandboxContext& ctx, float width, float height) {
    FileDialogState& fd = ctx.files;
    files::PlaceSources src;
    src.home = homeFolder();
    src.sceneFile = ctx.doc.sceneFile;
    src.scenesDir = ctx.paths.scenesDir;
    src.lessonsDir = ctx.paths.lessonsDir;
    src.recentFiles = ctx.settings.recentFiles;
    const std::vector<files::Place> places =
        files::makePlaces(src, fd.browser.kind(), fd.browser.showAll());
    ImGui::BeginChild("##places", {width, height}, true);
    bool recentShown = false;
    for (std::size_t i = 0; i < places.size(); ++i) {
        const files::Place& p = places[i];
        if (p.file && !recentShown) {
            ImGui::Separator();
            ImGui::TextDisabled("Recent");
            recentShown = true;
        }
        ImGui::PushID(static_cast<int>(i));
        const bool here = !p.file && p.path.lexically_normal() == fd.browser.folder();
        if (ImGui::Selectable(ui::shownLine(p.label).c_str(), here)) {
            fd.browser.goToPlace(p);
            fd.listScrollTo = std::max(fd.browser.selected(), 0);
            ctx.windows.dialogFocusFrames = 2;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ui::shownLine(p.path.string()).c_str());
        ImGui::PopID();
    }
    ImGui::EndChild();
}

// The folder's rows. Returns true when a double click activated one.
bool drawListing(FileDialogState& fd, float width, float height) {
    files::FileBrowser& b = fd.browser;
    bool activated = false;
    ImGui::BeginChild("##listing", {width, height}, true);
    const float row = ImGui::GetTextLineHeightWithSpacing();
    if (fd.listScrollTo >= 0) {
        const float y = static_cast<float>(fd.listScrollTo) * row;
        const float view = ImGui::GetWindowHeight() - 2.0f * ImGui::GetStyle().WindowPadding.y;
        if (y < ImGui::GetScrollY())
            ImGui::SetScrollY(y);
        else if (y + row > ImGui::GetScrollY() + view)
            ImGui::SetScrollY(y + row - view);
        fd.listScrollTo = -1;
    }
    if (b.entries().empty() && b.showAll())
        ImGui::TextDisabled("(empty folder)");
    else if (b.entries().empty())
        ImGui::TextDisabled("(no folders or %s here)", files::kindLabel(b.kind()));
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(b.entries().size()));
    while (clipper.Step()) {
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const files::Entry& e = b.entries()[static_cast<std::size_t>(i)];
            std::string label = ui::shownLine(e.name);
            if (e.folder) label += "/";
            ImGui::PushID(i);
            if (ImGui::Selectable(label.c_str(), i == b.selected(),
                                  ImGuiSelectableFlags_AllowDoubleClick)) {
                b.select(i);
                if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) activated = true;
            }
            ImGui::PopID();
        }
    }
    if (b.truncated())
        ImGui::TextDisabled("(only the first %zu entries are listed)", files::kMaxListedEntries);
    ImGui::EndChild();
    return activated;
}

void drawNewFolderStep(SandboxContext& ctx, bool escape) {
    FileDialogState& fd = ctx.files;
    ImGui::TextUnformatted("New folder name:");
    ImGui::SameLine();
    if (ctx.windows.dialogFocusFrames > 0) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 20.0f);
    bool create =
        ImGui::InputText("##newfolder", &fd.newFolderName, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemActive()) ctx.windows.dialogFocusFrames = 0;
    ImGui::SameLine();
    create |= ImGui::Button("Create") || ctx.windows.dialogKeys.enter;
    ImGui::SameLine();
    if (ImGui::Button("Cancel##newfolder") || escape) {
        fd.step = FileDialogState::Step::Browse;
        fd.browser.clearError();
        ctx.windows.dialogFocusFrames = 2;
    } else if (create) {
        std::string error;
        if (fd.browser.makeFolder(fd.newFolderName, error)) {
            fd.step = FileDialogState::Step::Browse;
            ctx.windows.dialogFocusFrames = 2;
        } else {
            ctx.windows.dialogFocusFrames = 2; // keep typing
        }
    }
    if (fd.step == FileDialogState::Step::NewFolder && !fd.browser.error().empty())
        ImGui::TextColored(kError, "%s", ui::shownLine(fd.browser.error(), 1000).c_str());
}

// The toolbar and the browser, then the name field and the buttons (or the overwrite prompt).
void drawFileDialog(SandboxContext& ctx, bool escape) {
    Windows& w = ctx.windows;
    FileDialogState& fd = ctx.files;
    files::FileBrowser& b = fd.browser;
    const Dialog d = w.dialog;
    const float em = ImGui::GetFontSize();
    using Step = FileDialogState::Step;

    drawDescription(ctx, d);
    const bool browsing = fd.step == Step::Browse;

    // Toolbar.
    ImGui::BeginDisabled(!browsing);
    if (ImGui::Button("Up")) {
        b.goParent();
        w.dialogFocusFrames = 2;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The parent folder (Backspace in an empty name)");
    ImGui::SameLine();
    // ImGui 1.86 names only A, C, V, X, Y, Z; SDL's scancodes of the letters are in order.
    const bool newFolderKey = browsing && ImGui::GetIO().KeyCtrl && ImGui::GetIO().KeyShift &&
                              ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_A) + ('N' - 'A'));
    if (ImGui::Button("New folder") || newFolderKey) {
        fd.step = Step::NewFolder;
        fd.newFolderName.clear();
        b.clearError();
        w.dialogFocusFrames = 3;
    }
    const ImVec2 lo = ImGui::GetItemRectMin();
    const ImVec2 hi = ImGui::GetItemRectMax();
    fd.newFolderRect[0] = lo.x;
    fd.newFolderRect[1] = lo.y;
    fd.newFolderRect[2] = hi.x;
    fd.newFolderRect[3] = hi.y;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Make a folder here (Ctrl+Shift+N)");
    ImGui::SameLine();
    bool all = b.showAll();
    if (ImGui::Checkbox("Show all files", &all)) b.setShowAll(all);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", ui::shownLine(b.folder().string()).c_str());

    if (fd.step == Step::NewFolder) drawNewFolderStep(ctx, escape);

    // Places and listing: as tall as the window leaves room for (the rest takes ~14 lines).
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float width = std::clamp(display.x - 4.0f * em, 30.0f * em, 46.0f * em);
    const float height = std::clamp(display.y - 17.0f * em, 5.0f * em, 22.0f * em);
    drawPlaces(ctx, 12.0f * em, height);
    ImGui::SameLine();
    bool activate = drawListing(fd, width - 12.0f * em - ImGui::GetStyle().ItemSpacing.x, height);
    if (fd.step == Step::NewFolder) return; // its own field has the keyboard

    if (fd.step == Step::Overwrite) {
        ImGui::TextColored(kWarning, "%s exists already.",
                           ui::shownLine(fd.overwriteTarget.string()).c_str());
        ImGui::TextUnformatted("Replace it? (Enter replaces, Escape goes back)");
        const bool replace = ImGui::Button("Replace", {8.0f * em, 0.0f}) || enterPressed(false) ||
                             w.dialogKeys.enter;
        ImGui::SameLine();
        if (ImGui::Button("Back", {8.0f * em, 0.0f}) || escape) {
            fd.step = Step::Browse;
            w.dialogFocusFrames = 2;
        } else if (replace) {
            const fs::path target = fd.overwriteTarget;
            ImGui::CloseCurrentPopup();
            finishFileDialog(ctx, target);
        }
        return;
    }

    // The name field: a name in this folder, or a path.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(files::isSaveKind(b.kind()) ? "Name" : "File");
    ImGui::SameLine();
    const std::string before = b.name;
    if (b.name != fd.nameShown) {
        ++fd.nameFieldId;
        if (browsing) w.dialogFocusFrames = std::max(w.dialogFocusFrames, 2);
    }
    if (browsing && w.dialogFocusFrames > 0) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(
        std::max(10.0f * em, width + ImGui::GetStyle().WindowPadding.x - ImGui::GetCursorPosX()));
    ImGui::PushID(fd.nameFieldId);
    const bool enterInField = ImGui::InputTextWithHint("##path", nameHint(d), &b.name,
                                                       ImGuiInputTextFlags_EnterReturnsTrue);
    const bool fieldActive = ImGui::IsItemActive();
    ImGui::PopID();
    fd.nameShown = b.name;
    if (fieldActive) w.dialogFocusFrames = 0;
    if (b.name != before) {
        b.nameEdited();
        b.clearError();
    }
    if (!b.error().empty())
        ImGui::TextColored(kError, "%s", ui::shownLine(b.error(), 1000).c_str());
    if (d == Dialog::Screenshot || d == Dialog::ExportSvg)
        pictureViewChoice(ctx.pictures, d == Dialog::Screenshot); // pictures/pictures.hpp

    const bool blocked =
        d == Dialog::OpenTrajectory && ctx.doc.unsaved.unsaved() && !ctx.playback.active;
    if (blocked)
        ImGui::TextColored(kWarning, "The scene has unsaved changes: save it first (the "
                                     "trajectory replaces it on screen).");
    ImGui::BeginDisabled(blocked);
    activate |= ImGui::Button(d == Dialog::Record                ? "Record"
                              : files::isSaveKind(fileKindOf(d)) ? "Save"
                                                                 : "Open",
                              {8.0f * em, 0.0f});
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel", {8.0f * em, 0.0f}) || escape;
    ImGui::SameLine();
    ImGui::TextDisabled("Up/Down: choose  Enter: open/confirm  Backspace: parent");

    if (!browsing) return;
    if (cancel) {
        if (d == Dialog::SaveAs && w.continueAfterSaveAs) w.guarded.reset();
        w.continueAfterSaveAs = false;
        closeDialog(ctx);
        return;
    }
    if (keyPressed(ImGuiKey_UpArrow) || w.dialogKeys.up) {
        b.moveSelection(-1);
        fd.listScrollTo = b.selected();
    } else if (keyPressed(ImGuiKey_DownArrow) || w.dialogKeys.down) {
        b.moveSelection(+1);
        fd.listScrollTo = b.selected();
    } else if (before.empty() &&
               (keyPressed(ImGuiKey_Backspace, false) || w.dialogKeys.backspace)) {
        b.goParent();
    }
    if (enterInField || (!fieldActive && enterPressed()) || w.dialogKeys.enter) activate = true;
    if (activate && !blocked) afterActivate(ctx, b.activate());
}

// The desktop's dialog is open: wait for its answer while the app keeps drawing. True while
// it runs (or when it answered and the dialog closed).
bool drawDesktopWait(SandboxContext& ctx, bool escape) {
    FileDialogState& fd = ctx.files;
    using State = files::DesktopDialog::State;
    switch (fd.desktop.poll()) {
    case State::Idle:
        return false;
    case State::Running:
        ImGui::TextUnformatted("Waiting for the desktop's file dialog (zenity)...");
        if (ImGui::Button("Use the built-in browser")) {
            fd.desktop.cancel();
            ctx.windows.dialogFocusFrames = 3;
        } else if (escape) {
            closeDialog(ctx);
        }
        return true;
    case State::Chosen: {
        const fs::path file = fd.desktop.path(); // zenity asked before overwriting
        fd.desktop.reset();
        ImGui::CloseCurrentPopup();
        finishFileDialog(ctx, file);
        return true;
    }
    case State::Cancelled:
        closeDialog(ctx);
        return true;
    case State::Failed:
        setNote(ctx.windows, "The desktop's file dialog failed (" + fd.desktop.error() +
                                 "): using the built-in browser");
        fd.desktop.reset();
        ctx.windows.dialogFocusFrames = 3;
        return false;
    }
    return false;
}

void drawUnsaved(SandboxContext& ctx, bool escape) {
    const float em = ImGui::GetFontSize();
    const GuardedRequest::Kind kind =
        ctx.windows.guarded ? ctx.windows.guarded->kind : GuardedRequest::Kind::Load;
    const char* what = kind == GuardedRequest::Kind::Quit  ? "Quit"
                       : kind == GuardedRequest::Kind::New ? "Start a new scene"
                                                           : "Open another scene";
    ImGui::Text("The scene \"%s\" has unsaved changes.",
                ui::shownLine(sceneTitle(ctx.doc)).c_str());
    ImGui::Text("%s anyway?", what);
    ImGui::Spacing();
    if (ImGui::Button("Save", {9.0f * em, 0.0f})) {
        ImGui::CloseCurrentPopup();
        answerUnsaved(ctx, PromptAnswer::Save);
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard", {9.0f * em, 0.0f})) {
        ImGui::CloseCurrentPopup();
        answerUnsaved(ctx, PromptAnswer::Discard);
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel", {9.0f * em, 0.0f}) || escape) {
        ImGui::CloseCurrentPopup();
        answerUnsaved(ctx, PromptAnswer::Cancel);
    }
}

void drawRecover(SandboxContext& ctx, bool escape) {
    const float em = ImGui::GetFontSize();
    if (!ctx.doc.pendingRecovery) {
        closeDialog(ctx);
        return;
    }
    const RecoveryInfo& info = ctx.doc.pendingRecovery->info;
    const scene::Scene& sc = ctx.doc.pendingRecovery->scene;
    ImGui::TextUnformatted("The sandbox was closed with unsaved changes. They were autosaved:");
    ImGui::BulletText("scene: %s", info.sceneFile.empty()
                                       ? "(new scene, never saved)"
                                       : ui::shownLine(info.sceneFile.string()).c_str());
    ImGui::BulletText("autosaved at %s (UTC): %zu agents, %zu obstacles",
                      ui::shownLine(info.savedAt).c_str(), sc.agents.size(), sc.obstacles.size());
    ImGui::BulletText("recovery file: %s", ui::shownLine(ctx.doc.recoveryFile.string()).c_str());
    ImGui::Spacing();
    if (ImGui::Button("Restore", {9.0f * em, 0.0f})) {
        ImGui::CloseCurrentPopup();
        answerRecovery(ctx, true);
    }
    ImGui::SameLine();
    if (ImGui::Button("Discard", {9.0f * em, 0.0f})) {
        ImGui::CloseCurrentPopup();
        answerRecovery(ctx, false);
    }
    ImGui::SameLine();
    if (ImGui::Button("Not now", {9.0f * em, 0.0f}) || escape) {
        // Kept for a later start; this session autosaves elsewhere.
        ImGui::CloseCurrentPopup();
        putOffRecovery(ctx);
    }
}

} // namespace

files::FileKind fileKindOf(Dialog dialog) {
    switch (dialog) {
    case Dialog::OpenTrajectory:
        return files::FileKind::Trajectory;
    case Dialog::SaveAs:
        return files::FileKind::SceneSave;
    case Dialog::Screenshot:
        return files::FileKind::Screenshot;
    case Dialog::ExportSvg:
        return files::FileKind::Svg;
    case Dialog::Record:
        return files::FileKind::Recording;
    default:
        return files::FileKind::Scene;
    }
}

bool isFileDialog(Dialog dialog) {
    return dialog != Dialog::None && dialog != Dialog::Unsaved && dialog != Dialog::Recover;
}

void finishFileDialog(SandboxContext& ctx, const fs::path& file) {
    Windows& w = ctx.windows;
    const Dialog d = std::exchange(w.dialog, Dialog::None);
    ctx.files.step = FileDialogState::Step::Browse;
    if (files::isSaveKind(fileKindOf(d)) && isBundledFile(ctx.paths, file)) {
        // The built-in browser refuses these in place; the desktop's dialog does not know them.
        reportFailure(w, "Nothing written",
                      file.string() + " lies in the program's bundled files, which are never "
                                      "written: choose another folder");
        if (d == Dialog::SaveAs && std::exchange(w.continueAfterSaveAs, false)) w.guarded.reset();
        return;
    }
    switch (d) {
    case Dialog::Open:
        requestLoad(ctx, file);
        break;
    case Dialog::OpenTrajectory:
        ctx.requests.trajectory = file;
        break;
    case Dialog::Screenshot:
        ctx.requests.screenshot = file;
        break;
    case Dialog::ExportSvg:
        ctx.pictures.svgRequest = file;
        break;
    case Dialog::Record:
        ctx.pictures.recordStart = file;
        break;
    case Dialog::SaveAs: {
        const bool saved = saveSceneAs(ctx, file); // says so in the status bar either way
        if (std::exchange(w.continueAfterSaveAs, false) && w.guarded) {
            const GuardedRequest r = *std::exchange(w.guarded, std::nullopt);
            if (saved) proceedGuarded(ctx, r);
        }
        break;
    }
    default:
        break;
    }
}

bool startDesktopDialog(SandboxContext& ctx, const std::string& pathEnv, std::string& note) {
    note.clear();
    Windows& w = ctx.windows;
    if (!ctx.settings.desktopFileDialog || !isFileDialog(w.dialog)) return false;
    const std::optional<fs::path> zenity = files::findProgram("zenity", pathEnv);
    if (!zenity) {
        note = "No desktop file dialog (zenity is not on PATH): using the built-in browser";
        return false;
    }
    std::string title = popupId(w.dialog);
    title.erase(title.find("###"));
    if (!ctx.files.desktop.start(
            *zenity, files::zenityArguments(fileKindOf(w.dialog), title, w.dialogPath))) {
        note = "The desktop's file dialog did not start (" + ctx.files.desktop.error() +
               "): using the built-in browser";
        ctx.files.desktop.reset();
        return false;
    }
    return true;
}

void drawDialogs(SandboxContext& ctx) {
    // One modal at a time: messages first (two root-level modals would replace each other).
    Windows& w = ctx.windows;
    const Windows::DialogKeys keys = std::exchange(w.dialogKeys, {});
    if (w.dialog == Dialog::None || !w.messages.empty()) return;
    const char* id = popupId(w.dialog);
    if (!id) return;
    w.dialogKeys = keys; // for this frame's dialog; cleared again below
    if (!ImGui::IsPopupOpen("###dialog")) {
        ImGui::OpenPopup(id);
        if (isFileDialog(w.dialog)) {
            ctx.files.step = FileDialogState::Step::Browse;
            ctx.files.browser.setReadOnlyFolders({ctx.paths.scenesDir, ctx.paths.lessonsDir});
            ctx.files.browser.open(fileKindOf(w.dialog), w.dialogPath, homeFolder());
            ctx.files.listScrollTo = std::max(ctx.files.browser.selected(), 0);
            std::string note;
            const char* path = std::getenv("PATH");
            if (!startDesktopDialog(ctx, path ? path : "", note) && !note.empty()) setNote(w, note);
        }
    }
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.45f},
                            ImGuiCond_Appearing, {0.5f, 0.5f});
    if (!ImGui::BeginPopupModal(id, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        w.dialogKeys = {};
        return;
    }
    const bool escape = keyPressed(ImGuiKey_Escape) || keys.escape;

    switch (w.dialog) {
    case Dialog::Unsaved:
        drawUnsaved(ctx, escape);
        break;
    case Dialog::Recover:
        drawRecover(ctx, escape);
        break;
    case Dialog::None:
        break;
    default:
        if (!drawDesktopWait(ctx, escape)) drawFileDialog(ctx, escape);
        break;
    }
    if (w.dialogFocusFrames > 0) --w.dialogFocusFrames;
    w.dialogKeys = {};
    ImGui::EndPopup();
}

} // namespace orca::app
