#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "key_bindings.hpp"

using namespace orca::app;

TEST(KeyBindings, NoKeyIsBoundTwice) {
    std::set<std::pair<SDL_Keycode, std::uint8_t>> seen;
    for (const KeyBinding& b : kKeyBindings)
        EXPECT_TRUE(seen.insert({b.key, b.mods}).second) << b.name;
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
    EXPECT_EQ(action(SDLK_q, KMOD_RCTRL), Action::Quit);
    // Lock keys do not count as modifiers; other modifiers must match exactly.
    EXPECT_EQ(action(SDLK_p, KMOD_NUM | KMOD_CAPS), Action::TogglePause);
    EXPECT_EQ(action(SDLK_p, KMOD_LCTRL), std::nullopt);
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
}
