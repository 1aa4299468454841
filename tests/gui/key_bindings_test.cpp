#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "key_bindings.hpp"

using namespace orca::app;

TEST(KeyBindings, NoKeyIsBoundTwiceInTheSameMode) {
    // A key may mean two things only in exclusive scopes (construction mode on / off).
    for (const bool construction : {false, true}) {
        std::set<std::pair<SDL_Keycode, std::uint8_t>> seen;
        for (const KeyBinding& b : kKeyBindings) {
            const bool live =
                b.scope == KeyScope::Always || (b.scope == KeyScope::Construction) == construction;
            if (live) {
                EXPECT_TRUE(seen.insert({b.key, b.mods}).second) << b.name;
            }
        }
    }
}

TEST(KeyBindings, ArrowsStepConstructionOnlyInConstructionMode) {
    auto action = [](SDL_Keycode k, bool construction) {
        const KeyBinding* b = findBinding(k, KMOD_NONE, construction);
        return b ? std::optional<Action>(b->action) : std::nullopt;
    };
    EXPECT_EQ(action(SDLK_RIGHT, false), Action::Step);
    EXPECT_EQ(action(SDLK_RIGHT, true), Action::ConstructionNextPhase);
    EXPECT_EQ(action(SDLK_LEFT, true), Action::ConstructionPrevPhase);
    EXPECT_EQ(action(SDLK_UP, true), Action::ConstructionPrevNeighbor);
    EXPECT_EQ(action(SDLK_DOWN, true), Action::ConstructionNextNeighbor);
    EXPECT_EQ(action(SDLK_LEFT, false), std::nullopt);
    EXPECT_EQ(action(SDLK_UP, false), std::nullopt);
    EXPECT_EQ(action(SDLK_DOWN, false), std::nullopt);
    EXPECT_EQ(action(SDLK_o, true), Action::Step); // O steps in both modes
    EXPECT_EQ(action(SDLK_c, false), Action::ToggleConstruction);
    EXPECT_EQ(action(SDLK_c, true), Action::ToggleConstruction);
    EXPECT_EQ(action(SDLK_ESCAPE, false), Action::ClearSelection);
}

TEST(KeyBindings, BriefedKeysDispatch) {
    auto action = [](SDL_Keycode k, std::uint16_t mods) {
        const KeyBinding* b = findBinding(k, mods);
        return b ? std::optional<Action>(b->action) : std::nullopt;
    };
    EXPECT_EQ(action(SDLK_p, KMOD_NONE), Action::TogglePause);
    EXPECT_EQ(action(SDLK_SPACE, KMOD_NONE), Action::TogglePause);
    EXPECT_EQ(action(SDLK_o, KMOD_NONE), Action::Step);
    EXPECT_EQ(action(SDLK_RIGHT, KMOD_NONE), Action::Step);
    EXPECT_EQ(action(SDLK_r, KMOD_NONE), Action::Restart);
    EXPECT_EQ(action(SDLK_HOME, KMOD_NONE), Action::FitView);
    EXPECT_EQ(action(SDLK_F1, KMOD_NONE), Action::ToggleHelp);
    EXPECT_EQ(action(SDLK_q, KMOD_LCTRL), Action::Quit);
    EXPECT_EQ(action(SDLK_s, KMOD_LCTRL), Action::Save);
    EXPECT_EQ(action(SDLK_s, KMOD_LCTRL | KMOD_LSHIFT), Action::SaveAs);
    EXPECT_EQ(action(SDLK_o, KMOD_RCTRL), Action::Open);
    EXPECT_EQ(action(SDLK_F12, KMOD_NONE), Action::DumpState);
    EXPECT_EQ(action(SDLK_q, KMOD_RCTRL), Action::Quit);
    // Lock keys do not count as modifiers; other modifiers must match exactly.
    EXPECT_EQ(action(SDLK_p, KMOD_NUM | KMOD_CAPS), Action::TogglePause);
    EXPECT_EQ(action(SDLK_p, KMOD_LALT), std::nullopt);
    EXPECT_EQ(action(SDLK_p, KMOD_LCTRL), Action::Screenshot);
    EXPECT_EQ(action(SDLK_q, KMOD_NONE), std::nullopt);
}

TEST(KeyBindings, HelpListsEveryActionOnceWithAllItsKeys) {
    const auto rows = keyHelpRows();
    std::set<std::string> names;
    for (const auto& r : rows)
        EXPECT_TRUE(names.insert(r.action).second) << r.action;
    bool found = false;
    for (const auto& r : rows) {
        if (r.action == "Play / pause") {
            EXPECT_EQ(r.input, "P / Space");
            found = true;
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(shortcutLabel(Action::Quit), "Ctrl+Q");
    EXPECT_EQ(shortcutLabel(Action::Step), "O");
    EXPECT_EQ(shortcutLabel(Action::SaveAs), "Ctrl+Shift+S");
    // The step row says that Right only steps outside construction mode.
    for (const auto& r : rows)
        if (r.action == "Single step") {
            EXPECT_NE(r.input.find("Right (not in construction mode)"), std::string::npos);
        }
}

TEST(KeyBindings, MarkdownListsEveryRow) {
    const std::string md = helpMarkdown();
    for (const auto& r : keyHelpRows())
        EXPECT_NE(md.find(r.action), std::string::npos) << r.action;
    for (const auto& r : mouseHelpRows())
        EXPECT_NE(md.find(r.action), std::string::npos) << r.action;
}
