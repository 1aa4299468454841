// The window's SDL events as the sandbox reads them (shell/sdl_events.hpp), headless: events
// are plain structs, no SDL_Init needed.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <SDL.h>

#include "imgui_test_context.hpp"
#include "sandbox.hpp"
#include "shell/sdl_events.hpp"

using namespace orca;
using namespace orca::app;

namespace {

SDL_Event dropped(const char* file) {
    SDL_Event e;
    std::memset(&e, 0, sizeof e);
    e.type = SDL_DROPFILE;
    e.drop.file = SDL_strdup(file); // freed by handleEvent, as SDL's own
    return e;
}

} // namespace

TEST(SdlEvents, ACloseAsksFirstWhenUnsavedAndAnotherWindowsCloseIsIgnored) {
    SandboxContext ctx;
    setEmptyScene(ctx);
    SDL_Event e;
    std::memset(&e, 0, sizeof e);
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_CLOSE;
    e.window.windowID = 7;
    handleEvent(ctx, e, 8);
    EXPECT_FALSE(ctx.requests.quit);
    handleEvent(ctx, e, 7);
    EXPECT_TRUE(ctx.requests.quit); // nothing unsaved

    SandboxContext edited;
    setEmptyScene(edited);
    scene::Scene s = edited.doc.scene;
    s.name = "changed";
    ASSERT_TRUE(commitScene(edited, s, "Rename"));
    e.type = SDL_QUIT;
    handleEvent(edited, e, 7);
    EXPECT_FALSE(edited.requests.quit);
    EXPECT_EQ(edited.windows.dialog, Dialog::Unsaved);
}

TEST(SdlEvents, ADroppedSceneOpensAndAnythingElseSaysWhatCanBeDropped) {
    SandboxContext ctx;
    setEmptyScene(ctx);
    handleEvent(ctx, dropped("/tmp/crowd.json"), 1);
    ASSERT_TRUE(ctx.requests.load);
    EXPECT_EQ(*ctx.requests.load, "/tmp/crowd.json");
    EXPECT_TRUE(ctx.windows.messages.empty());
    ctx.requests.load.reset();
    handleEvent(ctx, dropped("/tmp/notes.txt"), 1);
    EXPECT_FALSE(ctx.requests.load);
    EXPECT_EQ(ctx.windows.messages.frontTitle(), "Not a scene file or a recording");
}

TEST(SdlEvents, KeysGoToTheKeyTableAndADialogAlsoGetsItsOwn) {
    orca::testing::ImGuiContextScope imgui;
    SandboxContext ctx;
    setEmptyScene(ctx);
    SDL_Event e;
    std::memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = SDLK_q;
    e.key.keysym.mod = KMOD_LCTRL;
    handleEvent(ctx, e, 1); // Ctrl+Q on an unchanged scene: quits
    EXPECT_TRUE(ctx.requests.quit);
    ctx.windows.dialog = Dialog::SaveAs;
    e.key.keysym.sym = SDLK_RETURN;
    e.key.keysym.mod = KMOD_NONE;
    handleEvent(ctx, e, 1);
    EXPECT_TRUE(ctx.windows.dialogKeys.enter);
    EXPECT_FALSE(ctx.windows.dialogKeys.escape);
}
