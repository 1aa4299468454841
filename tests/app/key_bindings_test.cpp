#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "shell/key_bindings.hpp"

using namespace orca::app;

TEST(KeyBindings, NoKeyIsBoundTwiceInTheSameMode) {
    // A key may mean two things only in exclusive modes (viewing, construction, editing).
    for (const KeyContext mode :
         {KeyContext{false, false}, KeyContext{true, false}, KeyContext{false, true},
          KeyContext{true, true}, KeyContext{false, false, true}, KeyContext{false, true, true}}) {
        std::set<std::pair<SDL_Keycode, std::uint8_t>> seen;
        for (const KeyBinding& b : kKeyBindings) {
            bool live = false;
            switch (b.scope) {
            case KeyScope::Always:
                live = true;
                break;
            case KeyScope::Construction:
                live = mode.construction && !mode.editing;
                break;
            case KeyScope::Viewing:
                live = !mode.construction && !mode.solve && !mode.editing;
                break;
            case KeyScope::Solve:
                live = mode.solve && !mode.construction && !mode.editing;
                break;
            case KeyScope::Editing:
                live = mode.editing;
                break;
            }
            if (live) {
                EXPECT_TRUE(seen.insert({b.key, b.mods}).second) << b.name;
            }
        }
    }
}

TEST(KeyBindings, ArrowsStepConstructionOrNudgeByMode) {
    auto action = [](SDL_Keycode k, bool construction, bool editing = false,
                     std::uint16_t mods = KMOD_NONE) {
        const KeyBinding* b = findBinding(k, mods, KeyContext{construction, editing});
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
    EXPECT_EQ(action(SDLK_o, true), Action::Step); // O steps in every mode
    EXPECT_EQ(action(SDLK_o, false, true), Action::Step);
    EXPECT_EQ(action(SDLK_c, false), Action::ToggleConstruction);
    EXPECT_EQ(action(SDLK_c, true), Action::ToggleConstruction);
    EXPECT_EQ(action(SDLK_ESCAPE, false), Action::ClearSelection);
    // With an edit tool the arrows nudge (also when construction was left on).
    EXPECT_EQ(action(SDLK_RIGHT, false, true), Action::NudgeRight);
    EXPECT_EQ(action(SDLK_LEFT, true, true), Action::NudgeLeft);
    EXPECT_EQ(action(SDLK_UP, false, true, KMOD_LSHIFT), Action::NudgeUp);
    EXPECT_EQ(action(SDLK_DOWN, false, true), Action::NudgeDown);
    EXPECT_EQ(action(SDLK_DELETE, false, true), Action::DeleteSelection);
    EXPECT_EQ(action(SDLK_DELETE, false, false), std::nullopt);
    EXPECT_EQ(action(SDLK_RETURN, false, true), Action::ClosePolygon);
}

TEST(KeyBindings, ArrowsStepTheLpTraceInSolveMode) {
    const KeyContext solve{false, false, true};
    EXPECT_EQ(findBinding(SDLK_RIGHT, KMOD_NONE, solve)->action, Action::SolveNextStep);
    EXPECT_EQ(findBinding(SDLK_LEFT, KMOD_NONE, solve)->action, Action::SolvePrevStep);
    EXPECT_EQ(findBinding(SDLK_v, KMOD_NONE, solve)->action, Action::ToggleSolve);
    EXPECT_EQ(findBinding(SDLK_v, KMOD_NONE, {})->action, Action::ToggleSolve);
    // With an edit tool the arrows still nudge.
    EXPECT_EQ(findBinding(SDLK_RIGHT, KMOD_NONE, {false, true, true})->action, Action::NudgeRight);
}

TEST(KeyBindings, AuthoringKeysDispatch) {
    auto action = [](SDL_Keycode k, std::uint16_t mods) {
        const KeyBinding* b = findBinding(k, mods, KeyContext{false, true});
        return b ? std::optional<Action>(b->action) : std::nullopt;
    };
    EXPECT_EQ(action(SDLK_z, KMOD_LCTRL), Action::Undo);
    EXPECT_EQ(action(SDLK_z, KMOD_LCTRL | KMOD_LSHIFT), Action::Redo);
    EXPECT_EQ(action(SDLK_y, KMOD_RCTRL), Action::Redo);
    EXPECT_EQ(action(SDLK_d, KMOD_LCTRL), Action::Duplicate);
    EXPECT_EQ(action(SDLK_c, KMOD_LCTRL), Action::Copy);
    EXPECT_EQ(action(SDLK_v, KMOD_LCTRL), Action::Paste);
    EXPECT_EQ(action(SDLK_x, KMOD_LCTRL), Action::Cut);
    EXPECT_EQ(action(SDLK_a, KMOD_LCTRL), Action::SelectAll);
    EXPECT_EQ(action(SDLK_1, KMOD_NONE), Action::ToolInspect);
    EXPECT_EQ(action(SDLK_2, KMOD_NONE), Action::ToolSelect);
    EXPECT_EQ(action(SDLK_3, KMOD_NONE), Action::ToolAddAgent);
    EXPECT_EQ(action(SDLK_4, KMOD_NONE), Action::ToolGoal);
    EXPECT_EQ(action(SDLK_5, KMOD_NONE), Action::ToolObstacle);
    EXPECT_EQ(action(SDLK_w, KMOD_NONE), Action::ReverseWinding);
    EXPECT_EQ(action(SDLK_l, KMOD_NONE), Action::ToggleLinter);
    EXPECT_EQ(action(SDLK_g, KMOD_NONE), Action::ToggleGenerators);
    EXPECT_EQ(action(SDLK_n, KMOD_LCTRL), Action::NewScene);
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
            EXPECT_NE(r.input.find("Right (inspect tool, not in construction or solve mode)"),
                      std::string::npos);
        }
}

TEST(KeyBindings, MarkdownListsEveryRow) {
    const std::string md = helpMarkdown();
    for (const auto& r : keyHelpRows())
        EXPECT_NE(md.find(r.action), std::string::npos) << r.action;
    for (const auto& r : mouseHelpRows())
        EXPECT_NE(md.find(r.action), std::string::npos) << r.action;
}
