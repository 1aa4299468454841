// The file dialogs without a window: the browser model (listing, kinds, places, parent, the
// name field, keyboard selection, new folder, overwrite decision, errors, hostile names), the
// desktop's dialog (argv, PATH look-up, the child process, the fallback), and the dialogs
// drawn headless: Enter in Save as saves and says so, a second save asks before replacing.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "orca/ui/long_text.hpp"

#include "files/desktop_dialog.hpp"
#include "files/file_browser.hpp"
#include "files/file_dialogs.hpp"
#include "imgui_test_context.hpp"
#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;
using files::FileBrowser;
using files::FileKind;
using Outcome = files::FileBrowser::Outcome;

namespace {

struct TempDir {
    fs::path root;
    TempDir() {
        static int n = 0;
        root = fs::temp_directory_path() /
               ("orca-files-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    void touch(const std::string& name, const std::string& text = "x") const {
        std::ofstream(root / name) << text;
    }
};

std::vector<std::string> names(const FileBrowser& b) {
    std::vector<std::string> out;
    for (const files::Entry& e : b.entries())
        out.push_back(e.folder ? e.name + "/" : e.name);
    return out;
}

// A folder of every kind's files, two folders and a hidden file.
void fillMixed(const TempDir& t) {
    fs::create_directory(t.root / "b_dir");
    fs::create_directory(t.root / "A_dir");
    for (const char* f : {"x.json", "Y.JSON", "r.orcarec", "t.csv", "p.png", "m.gif", "v.svg",
                          ".hidden.json", "notes.txt"})
        t.touch(f);
}

void writeScript(const fs::path& file, const std::string& body) {
    std::ofstream(file) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(file, fs::perms::owner_all);
}

} // namespace

TEST(FileBrowser, ListsFoldersFirstThenTheKindsFilesSortedCaseInsensitively) {
    TempDir t;
    fillMixed(t);
    FileBrowser b;
    b.open(FileKind::Scene, t.root.string() + "/", t.root);
    EXPECT_EQ(b.folder(), t.root);
    EXPECT_EQ(names(b),
              (std::vector<std::string>{"A_dir/", "b_dir/", "r.orcarec", "x.json", "Y.JSON"}));
    b.open(FileKind::Trajectory, t.root.string(), t.root);
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", "t.csv"}));
    b.open(FileKind::SceneSave, (t.root / "new.json").string(), t.root);
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", "x.json", "Y.JSON"}));
    EXPECT_EQ(b.name, "new.json"); // the preset's name fills the name field
    b.open(FileKind::Screenshot, t.root.string(), t.root);
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", "p.png"}));
    b.open(FileKind::Svg, t.root.string(), t.root);
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", "v.svg"}));
    b.open(FileKind::Recording, t.root.string(), t.root);
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", "m.gif", "p.png"}));
    b.setShowAll(true); // every file, hidden ones too
    EXPECT_EQ(names(b), (std::vector<std::string>{"A_dir/", "b_dir/", ".hidden.json", "m.gif",
                                                  "notes.txt", "p.png", "r.orcarec", "t.csv",
                                                  "v.svg", "x.json", "Y.JSON"}));
}

TEST(FileBrowser, SortingIsTotalAndDeterministic) {
    std::vector<files::Entry> a{{"b", false}, {"B", false}, {"a", true},
                                {"A", false}, {"Z", true},  {"a", false}};
    std::vector<files::Entry> c(a.rbegin(), a.rend());
    files::sortEntries(a);
    files::sortEntries(c);
    std::vector<std::string> na;
    std::vector<std::string> nc;
    for (const auto& e : a)
        na.push_back(e.name + (e.folder ? "/" : ""));
    for (const auto& e : c)
        nc.push_back(e.name + (e.folder ? "/" : ""));
    EXPECT_EQ(na, (std::vector<std::string>{"a/", "Z/", "A", "a", "B", "b"}));
    EXPECT_EQ(na, nc);
}

TEST(FileBrowser, ParentAndErrorsInPlaceKeepTheListing) {
    TempDir t;
    fillMixed(t);
    FileBrowser b;
    b.open(FileKind::Scene, (t.root / "A_dir").string() + "/", t.root);
    EXPECT_EQ(b.folder(), t.root / "A_dir");
    EXPECT_TRUE(b.entries().empty());
    EXPECT_TRUE(b.goParent());
    EXPECT_EQ(b.folder(), t.root);
    EXPECT_EQ(b.entries().size(), 5u);

    EXPECT_FALSE(b.goTo(t.root / "missing"));
    EXPECT_NE(b.error().find("no such folder"), std::string::npos) << b.error();
    EXPECT_EQ(b.folder(), t.root); // kept
    EXPECT_EQ(b.entries().size(), 5u);
    EXPECT_FALSE(b.goTo(t.root / "x.json"));
    EXPECT_NE(b.error().find("not a folder"), std::string::npos) << b.error();

    FileBrowser root;
    root.open(FileKind::Scene, "/", t.root);
    EXPECT_EQ(root.folder(), fs::path("/"));
    EXPECT_FALSE(root.goParent());

    // A preset in a folder that is gone: the fallback is listed, the error kept.
    FileBrowser gone;
    gone.open(FileKind::SceneSave, (t.root / "nope" / "s.json").string(), t.root / "b_dir");
    EXPECT_EQ(gone.folder(), t.root / "b_dir");
    EXPECT_NE(gone.error().find("nope"), std::string::npos) << gone.error();
}

TEST(FileBrowser, KeyboardSelectionEntersFoldersAndConfirmsFiles) {
    TempDir t;
    fillMixed(t);
    t.touch("b_dir/inner.json");
    FileBrowser b;
    b.open(FileKind::Scene, t.root.string() + "/", t.root);
    EXPECT_EQ(b.activate(), Outcome::None); // nothing chosen
    b.moveSelection(+1);                    // from none: the first row
    EXPECT_EQ(b.selected(), 0);
    b.moveSelection(+1);
    EXPECT_EQ(b.selected(), 1); // b_dir/
    b.moveSelection(+10);
    EXPECT_EQ(b.selected(), 4);  // clamped at the last row
    EXPECT_EQ(b.name, "Y.JSON"); // a file's name goes into the field
    b.moveSelection(-3);
    EXPECT_EQ(b.selected(), 1);
    EXPECT_EQ(b.activate(), Outcome::EnteredFolder);
    EXPECT_EQ(b.folder(), t.root / "b_dir");
    EXPECT_TRUE(b.name.empty());
    b.moveSelection(+1);
    EXPECT_EQ(b.name, "inner.json");
    EXPECT_EQ(b.activate(), Outcome::Confirm);
    EXPECT_EQ(b.target(), t.root / "b_dir" / "inner.json");

    // Typing wins over the selection: a name that does not exist is an error in place.
    b.name = "missing.json";
    b.nameEdited();
    EXPECT_EQ(b.activate(), Outcome::Error);
    EXPECT_NE(b.error().find("no such file"), std::string::npos);
    // A typed folder path (absolute, or "..") is entered; a full file path confirms.
    b.name = "..";
    b.nameEdited();
    EXPECT_EQ(b.activate(), Outcome::EnteredFolder);
    EXPECT_EQ(b.folder(), t.root);
    b.name = (t.root / "b_dir" / "inner.json").string();
    b.nameEdited();
    EXPECT_EQ(b.activate(), Outcome::Confirm);
    EXPECT_EQ(b.target(), t.root / "b_dir" / "inner.json");
    EXPECT_EQ(files::expandHome("~/a.json", "/home/u"), fs::path("/home/u/a.json"));
    EXPECT_EQ(files::expandHome("~", "/home/u"), fs::path("/home/u"));
    EXPECT_EQ(files::expandHome("a~", "/home/u"), fs::path("a~"));
}

TEST(FileBrowser, SaveLikeKindsAskBeforeReplacingAndNeedAnExistingFolder) {
    TempDir t;
    fillMixed(t);
    FileBrowser b;
    b.open(FileKind::SceneSave, (t.root / "x.json").string(), t.root);
    EXPECT_EQ(b.activate(), Outcome::Overwrite);
    b.name = "fresh.json";
    b.nameEdited();
    EXPECT_EQ(b.activate(), Outcome::Confirm);
    EXPECT_EQ(b.target(), t.root / "fresh.json");
    b.name = "no_dir/fresh.json";
    EXPECT_EQ(b.activate(), Outcome::Error);
    EXPECT_NE(b.error().find("no such folder"), std::string::npos) << b.error();
    // A selected folder is entered, the name kept for saving there.
    b.name = "keep.json";
    b.select(0);
    EXPECT_EQ(b.activate(), Outcome::EnteredFolder);
    EXPECT_EQ(b.folder(), t.root / "A_dir");
    EXPECT_EQ(b.name, "keep.json");
    EXPECT_EQ(b.activate(), Outcome::Confirm);
    EXPECT_EQ(b.target(), t.root / "A_dir" / "keep.json");
    // A bare name gets the kind's extension (so that Open lists the file), and asks before
    // replacing that file; a folder's name is entered; another extension stays as typed.
    b.goParent();
    for (const auto& [kind, bare] :
         {std::pair{FileKind::SceneSave, "x.json"}, std::pair{FileKind::Screenshot, "p.png"},
          std::pair{FileKind::Svg, "v.svg"}, std::pair{FileKind::Recording, "m.gif"}}) {
        b.open(kind, (t.root / "fresh").string(), t.root);
        EXPECT_EQ(b.activate(), Outcome::Confirm);
        EXPECT_EQ(b.target().filename(),
                  fs::path(std::string("fresh") + fs::path(bare).extension().string()));
        b.name = fs::path(bare).stem().string();
        b.nameEdited();
        EXPECT_EQ(b.activate(), Outcome::Overwrite) << bare;
        EXPECT_EQ(b.target(), t.root / bare);
    }
    b.open(FileKind::SceneSave, t.root.string() + "/", t.root);
    b.name = "notes.txt";
    EXPECT_EQ(b.target(), t.root / "notes.txt");
    b.name = "A_dir";
    EXPECT_EQ(b.activate(), Outcome::EnteredFolder);
    EXPECT_EQ(b.folder(), t.root / "A_dir");
    b.open(FileKind::Scene, (t.root / "x").string(), t.root); // Open reads what is typed
    EXPECT_EQ(b.target(), t.root / "x");
}

TEST(FileBrowser, NewFolderIsMadeAndEnteredAndRefusalsAreErrors) {
    TempDir t;
    fillMixed(t);
    FileBrowser b;
    b.open(FileKind::SceneSave, (t.root / "s.json").string(), t.root);
    std::string error;
    EXPECT_TRUE(b.makeFolder("made", error)) << error;
    EXPECT_TRUE(fs::is_directory(t.root / "made"));
    EXPECT_EQ(b.folder(), t.root / "made");
    EXPECT_EQ(b.name, "s.json");
    b.goParent();
    for (const std::string bad : {"", "a/b", ".", "..", "made", "x.json"}) {
        error.clear();
        EXPECT_FALSE(b.makeFolder(bad, error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
        EXPECT_EQ(b.error(), error);
        EXPECT_EQ(b.folder(), t.root);
    }
    // The folder vanished under the dialog: the system's refusal is shown.
    fs::create_directory(t.root / "vanish");
    ASSERT_TRUE(b.goTo(t.root / "vanish"));
    fs::remove(t.root / "vanish");
    error.clear();
    EXPECT_FALSE(b.makeFolder("child", error));
    EXPECT_NE(error.find("child"), std::string::npos) << error;
}

TEST(FileBrowser, ReadOnlyFoldersAreBrowsedButNeverWritten) {
    // The bundled scenes and lessons: a name typed there, a path that climbs into one, a link
    // to one, and a new folder in one are refused in place; nothing appears on disk.
    TempDir t;
    fs::create_directories(t.root / "bundled" / "sub");
    t.touch("bundled/a.json");
    fs::create_directory(t.root / "mine");
    fs::create_directory_symlink(t.root / "bundled", t.root / "mine" / "link");
    FileBrowser b;
    b.setReadOnlyFolders({t.root / "bundled", {}});
    const auto refused = [&](const std::string& name) {
        b.name = name;
        b.nameEdited();
        const Outcome o = b.activate();
        EXPECT_EQ(o, Outcome::Error) << name;
        EXPECT_NE(b.error().find("never written"), std::string::npos) << name << b.error();
        EXPECT_NE(b.error().find((t.root / "bundled").string()), std::string::npos) << b.error();
    };
    b.open(FileKind::SceneSave, (t.root / "bundled" / "a.json").string(), t.root);
    EXPECT_EQ(b.folder(), t.root / "bundled"); // browsed
    refused("a.json");                         // not an overwrite prompt
    refused("new.json");
    refused("sub/deeper.json");
    for (FileKind k : {FileKind::Screenshot, FileKind::Svg, FileKind::Recording}) {
        b.open(k, (t.root / "mine").string() + "/", t.root);
        refused("../bundled/x.png");
        refused("link/x.png");
        refused((t.root / "bundled" / "x").string());
        b.name = "fine.png";
        b.nameEdited();
        EXPECT_EQ(b.activate(), Outcome::Confirm);
    }
    b.open(FileKind::SceneSave, (t.root / "bundled").string() + "/", t.root);
    std::string error;
    EXPECT_FALSE(b.makeFolder("made", error));
    EXPECT_NE(error.find("never written"), std::string::npos) << error;
    EXPECT_EQ(b.folder(), t.root / "bundled");
    // Opening reads: allowed.
    b.open(FileKind::Scene, (t.root / "bundled" / "a.json").string(), t.root);
    EXPECT_EQ(b.activate(), Outcome::Confirm);
    std::vector<std::string> inside;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(t.root / "bundled"))
        inside.push_back(e.path().lexically_relative(t.root / "bundled").string());
    std::sort(inside.begin(), inside.end());
    EXPECT_EQ(inside, (std::vector<std::string>{"a.json", "sub"}));
}

TEST(FileBrowser, HostileNamesAreListedAndShownOnOneBoundedLine) {
    TempDir t;
    const std::string newline = "two\nlines.json";
    const std::string invalid = std::string("bad\xff\xfe") + ".json";
    const std::string longName = std::string(250, 'L') + ".json";
    for (const std::string& n : {newline, invalid, longName})
        t.touch(n);
    fs::create_directory(t.root / "tab\tfolder");
    FileBrowser b;
    b.open(FileKind::Scene, t.root.string(), t.root);
    ASSERT_EQ(b.entries().size(), 4u);
    EXPECT_TRUE(b.entries()[0].folder);
    for (const files::Entry& e : b.entries()) {
        const std::string shown = ui::shownLine(e.name);
        EXPECT_EQ(shown.find('\n'), std::string::npos);
        EXPECT_EQ(shown.find('\t'), std::string::npos);
        EXPECT_LE(shown.size(), scene::kMaxTitleBytes + 4);
    }
    b.select(3);
    EXPECT_EQ(b.activate(), Outcome::Confirm); // any bytes make a path
    EXPECT_TRUE(fs::exists(b.target()));
    b.select(0);
    EXPECT_EQ(b.activate(), Outcome::EnteredFolder);
}

TEST(FileBrowser, PlacesAreHomeSceneBundledThenRecentFilesOfTheKind) {
    files::PlaceSources s;
    s.home = "/home/u";
    s.sceneFile = "/work/scenes_mine/a.json";
    s.scenesDir = "/opt/orca/scenes";
    s.lessonsDir = "";
    s.recentFiles = {"/r/one.json", "/r/run.csv", "/r/two.orcarec"};
    auto labels = [](const std::vector<files::Place>& ps) {
        std::vector<std::string> out;
        for (const files::Place& p : ps)
            out.push_back(p.label + (p.file ? "*" : ""));
        return out;
    };
    EXPECT_EQ(labels(files::makePlaces(s, FileKind::Scene, false)),
              (std::vector<std::string>{"Home", "Scene folder", "Bundled scenes", "one.json*",
                                        "two.orcarec*"}));
    EXPECT_EQ(labels(files::makePlaces(s, FileKind::Trajectory, false)),
              (std::vector<std::string>{"Home", "Scene folder", "Bundled scenes", "run.csv*"}));
    EXPECT_EQ(files::makePlaces(s, FileKind::Trajectory, true).size(), 6u);
    EXPECT_EQ(files::makePlaces(s, FileKind::Scene, false)[1].path, fs::path("/work/scenes_mine"));

    // A recent file opens its folder with it selected.
    TempDir t;
    fillMixed(t);
    FileBrowser b;
    b.open(FileKind::Scene, "/", t.root);
    ASSERT_TRUE(b.goToPlace({"x.json", t.root / "x.json", true}));
    EXPECT_EQ(b.folder(), t.root);
    EXPECT_EQ(b.name, "x.json");
    ASSERT_GE(b.selected(), 0);
    EXPECT_EQ(b.entries()[static_cast<std::size_t>(b.selected())].name, "x.json");
}

TEST(DesktopDialog, ZenityArgumentsPerKind) {
    const auto open = files::zenityArguments(FileKind::Scene, "Open scene", "/s/");
    EXPECT_EQ(open, (std::vector<std::string>{
                        "zenity", "--file-selection", "--title=Open scene", "--filename=/s/",
                        "--file-filter=Scenes and recordings (.json, .orcarec) | *.json *.orcarec",
                        "--file-filter=All files | *"}));
    const auto save = files::zenityArguments(FileKind::SceneSave, "Save", "/s/a b.json");
    EXPECT_NE(std::find(save.begin(), save.end(), "--save"), save.end());
    EXPECT_NE(std::find(save.begin(), save.end(), "--confirm-overwrite"), save.end());
    EXPECT_NE(std::find(save.begin(), save.end(), "--filename=/s/a b.json"), save.end()); // one arg
    const auto rec = files::zenityArguments(FileKind::Recording, "Record", "");
    EXPECT_NE(std::find(rec.begin(), rec.end(),
                        "--file-filter=Animated GIF (.gif), PNG frames (.png) | *.gif *.png"),
              rec.end());
    EXPECT_EQ(std::count_if(rec.begin(), rec.end(),
                            [](const std::string& a) { return a.starts_with("--filename"); }),
              0);
}

TEST(DesktopDialog, FindsOnlyExecutableFilesOnPath) {
    TempDir t;
    fs::create_directory(t.root / "bin");
    fs::create_directory(t.root / "plain");
    fs::create_directory(t.root / "bin" / "folder_zenity");
    writeScript(t.root / "bin" / "zenity", "exit 0");
    std::ofstream(t.root / "plain" / "zenity") << "not executable";
    fs::permissions(t.root / "plain" / "zenity", fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_FALSE(files::findProgram("zenity", ""));
    EXPECT_FALSE(files::findProgram("zenity", (t.root / "plain").string()));
    EXPECT_FALSE(files::findProgram("folder_zenity", (t.root / "bin").string()));
    const auto found =
        files::findProgram("zenity", (t.root / "plain").string() + ":" + (t.root / "bin").string());
    ASSERT_TRUE(found);
    EXPECT_EQ(*found, t.root / "bin" / "zenity");
}

TEST(DesktopDialog, RunsAChildAndReadsItsAnswerWithoutBlocking) {
    TempDir t;
    using State = files::DesktopDialog::State;
    auto run = [&](const std::string& body, const std::vector<std::string>& args) {
        writeScript(t.root / "fake", body);
        auto d = std::make_unique<files::DesktopDialog>();
        EXPECT_TRUE(d->start(t.root / "fake", args));
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (d->poll() == State::Running && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return d;
    };
    // The arguments arrive one by one, spaces and all (no shell in between).
    auto chosen = run("printf '%s\\n' \"$2\"", {"zenity", "--a", "/x/my scene.json"});
    EXPECT_EQ(chosen->state(), State::Chosen);
    EXPECT_EQ(chosen->path(), fs::path("/x/my scene.json"));
    EXPECT_EQ(run("exit 1", {"zenity"})->state(), State::Cancelled);
    auto failed = run("exit 3", {"zenity"});
    EXPECT_EQ(failed->state(), State::Failed);
    EXPECT_NE(failed->error().find("3"), std::string::npos);
    EXPECT_EQ(run("exit 0", {"zenity"})->state(), State::Failed); // no answer
    // A child still running is polled, not waited for, and ended on cancel.
    writeScript(t.root / "slow", "sleep 30");
    files::DesktopDialog slow;
    ASSERT_TRUE(slow.start(t.root / "slow", {"slow"}));
    const auto before = std::chrono::steady_clock::now();
    EXPECT_EQ(slow.poll(), State::Running);
    slow.cancel();
    EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
    EXPECT_EQ(slow.state(), State::Idle);
    files::DesktopDialog missing;
    EXPECT_FALSE(missing.start(t.root / "no-such-program", {"x"}));
    EXPECT_EQ(missing.state(), State::Failed);
}

TEST(DesktopDialog, FallsBackToTheBuiltInBrowserWithANoteOrUsesZenity) {
    TempDir t;
    SandboxContext ctx;
    ctx.windows.dialog = Dialog::SaveAs;
    ctx.windows.dialogPath = (t.root / "s.json").string();
    std::string note;
    EXPECT_FALSE(startDesktopDialog(ctx, "", note)); // the setting is off
    EXPECT_TRUE(note.empty());
    ctx.settings.desktopFileDialog = true;
    EXPECT_FALSE(startDesktopDialog(ctx, (t.root).string(), note)); // no zenity there
    EXPECT_NE(note.find("built-in browser"), std::string::npos) << note;

    // A "zenity" that answers with the preset: the dialog runs it and gets the file.
    writeScript(t.root / "zenity", "for a; do case $a in --filename=*) echo \"${a#--filename=}\";; "
                                   "esac; done");
    ASSERT_TRUE(startDesktopDialog(ctx, t.root.string(), note)) << note;
    auto& d = ctx.files.desktop;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (d.poll() == files::DesktopDialog::State::Running &&
           std::chrono::steady_clock::now() < end)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(d.state(), files::DesktopDialog::State::Chosen);
    EXPECT_EQ(d.path(), t.root / "s.json");
}

TEST(DesktopDialog, SettingRoundTrips) {
    Settings s;
    EXPECT_FALSE(s.desktopFileDialog);
    s.desktopFileDialog = true;
    Settings back;
    std::string error;
    ASSERT_TRUE(settingsFromText(settingsToText(s), back, error)) << error;
    EXPECT_TRUE(back.desktopFileDialog);
    EXPECT_NE(settingsToText(s).find("\"fileDialog\": \"desktop\""), std::string::npos);
    ASSERT_TRUE(settingsFromText(R"({"fileDialog": 3})", back, error));
    EXPECT_FALSE(back.desktopFileDialog);
}

TEST(SaveFeedback, EverySaveAndEveryFailedSaveSaysSoInTheStatusBar) {
    TempDir t;
    SandboxContext ctx;
    setEmptyScene(ctx);
    ctx.windows.dialog = Dialog::SaveAs;
    finishFileDialog(ctx, t.root / "ok.json");
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    EXPECT_TRUE(fs::exists(t.root / "ok.json"));
    EXPECT_EQ(ctx.windows.note, "saved " + (t.root / "ok.json").string());
    ctx.windows.note.clear();
    applyAction(ctx, Action::Save); // Ctrl+S on a scene with a file
    EXPECT_EQ(ctx.windows.note, "saved " + (t.root / "ok.json").string());

    ctx.windows.dialog = Dialog::SaveAs;
    finishFileDialog(ctx, t.root / "no_dir" / "bad.json");
    EXPECT_EQ(ctx.windows.note.rfind("Could not save the scene: ", 0), 0u) << ctx.windows.note;
    EXPECT_EQ(ctx.windows.messages.frontTitle(), "Could not save the scene");
    EXPECT_EQ(ctx.doc.sceneFile, t.root / "ok.json"); // kept
}

TEST(SaveFeedback, NothingIsWrittenIntoTheBundledFiles) {
    // Save as on a bundled scene proposes the user's folder; a bundled path chosen anyway (the
    // desktop's dialog, which does not know them) writes nothing and says so.
    TempDir t;
    fs::create_directories(t.root / "scenes");
    t.touch("scenes/tmpl.json", "{}");
    SandboxContext ctx;
    setEmptyScene(ctx);
    ctx.paths.scenesDir = t.root / "scenes";
    ctx.doc.sceneFile = t.root / "scenes" / "tmpl.json";
    applyAction(ctx, Action::SaveAs);
    EXPECT_EQ(ctx.windows.dialog, Dialog::SaveAs);
    EXPECT_EQ(ctx.windows.dialogPath, saveTarget(ctx).string());
    EXPECT_FALSE(isBundledFile(ctx.paths, ctx.windows.dialogPath)) << ctx.windows.dialogPath;
    for (Dialog d : {Dialog::SaveAs, Dialog::Screenshot, Dialog::ExportSvg, Dialog::Record}) {
        ctx.windows.dialog = d;
        ctx.windows.note.clear();
        finishFileDialog(ctx, t.root / "scenes" / "out.json");
        EXPECT_EQ(ctx.windows.dialog, Dialog::None);
        EXPECT_NE(ctx.windows.note.find("never written"), std::string::npos) << ctx.windows.note;
        EXPECT_FALSE(ctx.requests.screenshot);
        EXPECT_FALSE(ctx.pictures.svgRequest);
        EXPECT_FALSE(ctx.pictures.recordStart);
    }
    finishFileDialog(ctx, t.root / "scenes" / "tmpl.json");
    EXPECT_EQ(ctx.doc.sceneFile, t.root / "scenes" / "tmpl.json");
    EXPECT_EQ(std::distance(fs::directory_iterator(t.root / "scenes"), fs::directory_iterator()),
              1);
    std::ifstream in(t.root / "scenes" / "tmpl.json");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "{}");
}

namespace {

// Frames of the dialogs, headless, with Enter held for `enterFrames` of them.
struct DialogFrames {
    orca::testing::ImGuiContextScope imgui;
    DialogFrames() {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Enter] = 1;
        io.KeyMap[ImGuiKey_Escape] = 2;
        io.KeyMap[ImGuiKey_DownArrow] = 3;
        io.KeyMap[ImGuiKey_Backspace] = 4;
    }
    void frame(SandboxContext& ctx, int key = 0) {
        ImGuiIO& io = ImGui::GetIO();
        for (bool& k : io.KeysDown)
            k = false;
        if (key) io.KeysDown[key] = true;
        ImGui::NewFrame();
        drawDialogs(ctx);
        ImGui::Render();
    }
    void press(SandboxContext& ctx, int key) {
        frame(ctx, key);
        frame(ctx);
    }
    /// Opens Save As (on `path` when given, else on the dialog's last path) and draws the
    /// frames that settle its focus.
    void openSaveAs(SandboxContext& ctx, const fs::path& path = {}) {
        ctx.windows.dialog = Dialog::SaveAs;
        ctx.windows.dialogFocusFrames = 3;
        if (!path.empty()) ctx.windows.dialogPath = path.string();
        for (int i = 0; i < 4; ++i)
            frame(ctx);
    }
};

} // namespace

TEST(SaveFeedback, EnterInSaveAsSavesThenAsksBeforeReplacing) {
    TempDir t;
    SandboxContext ctx;
    setEmptyScene(ctx);
    DialogFrames f;
    f.openSaveAs(ctx, t.root / "first.json");
    EXPECT_EQ(ctx.files.browser.folder(), t.root);
    EXPECT_EQ(ctx.files.browser.name, "first.json");
    f.press(ctx, 1); // Enter
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    ASSERT_TRUE(fs::exists(t.root / "first.json"));
    EXPECT_EQ(ctx.windows.note, "saved " + (t.root / "first.json").string());

    // Again: the file exists, Enter asks, a second Enter replaces.
    for (int i = 0; i < 3; ++i)
        f.frame(ctx); // the popup closes
    fs::resize_file(t.root / "first.json", 0);
    ctx.windows.note.clear();
    f.openSaveAs(ctx);
    f.press(ctx, 1);
    EXPECT_EQ(ctx.windows.dialog, Dialog::SaveAs);
    EXPECT_EQ(ctx.files.step, FileDialogState::Step::Overwrite);
    EXPECT_EQ(fs::file_size(t.root / "first.json"), 0u); // not yet
    f.press(ctx, 1);
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    EXPECT_GT(fs::file_size(t.root / "first.json"), 0u);
    EXPECT_EQ(ctx.windows.note, "saved " + (t.root / "first.json").string());
}

TEST(SaveFeedback, EscapeInTheOverwritePromptGoesBackAndWritesNothing) {
    TempDir t;
    t.touch("exists.json", "");
    SandboxContext ctx;
    setEmptyScene(ctx);
    DialogFrames f;
    f.openSaveAs(ctx, t.root / "exists.json");
    f.press(ctx, 1);
    ASSERT_EQ(ctx.files.step, FileDialogState::Step::Overwrite);
    f.press(ctx, 2); // Escape
    EXPECT_EQ(ctx.windows.dialog, Dialog::SaveAs);
    EXPECT_EQ(ctx.files.step, FileDialogState::Step::Browse);
    EXPECT_EQ(fs::file_size(t.root / "exists.json"), 0u);
}

TEST(SaveFeedback, AnEnterTapBetweenTwoFramesStillSaves) {
    // xdotool's `key Return` (and a quick tap on a slow frame) presses and releases Enter
    // between two frames: ImGui never sees it down; the SDL event does (shell/main.cpp).
    TempDir t;
    SandboxContext ctx;
    setEmptyScene(ctx);
    DialogFrames f;
    f.openSaveAs(ctx, t.root / "tap.json");
    ctx.windows.dialogKeys.down = true; // no rows: nothing to choose
    f.frame(ctx);
    EXPECT_EQ(ctx.windows.dialog, Dialog::SaveAs);
    ctx.windows.dialogKeys.enter = true;
    f.frame(ctx);
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    EXPECT_TRUE(fs::exists(t.root / "tap.json"));
    EXPECT_EQ(ctx.windows.note, "saved " + (t.root / "tap.json").string());
    EXPECT_FALSE(ctx.windows.dialogKeys.enter); // used once
}
