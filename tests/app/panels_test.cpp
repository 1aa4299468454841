// Unit tests of the small panels' text handling: a status note too long for the bar is cut
// with "..." at a character boundary (the whole note is in the tooltip).

#include <gtest/gtest.h>

#include <string>

#include <imgui.h>

#include "orca/ui/panels.hpp"

#include "imgui_test_context.hpp"

namespace {

using orca::testing::ImGuiContextScope;
using orca::ui::fitText;

TEST(FitText, ShortTextIsKept) {
    ImGuiContextScope scope;
    ImGui::NewFrame();
    EXPECT_EQ(fitText("saved", 1000.0f), "saved");
    EXPECT_EQ(fitText("", 0.0f), "");
    ImGui::EndFrame();
}

TEST(FitText, LongTextIsCutToTheWidthWithAnEllipsis) {
    ImGuiContextScope scope;
    ImGui::NewFrame();
    const std::string note =
        "saved to /home/someone/a/very/long/folder/name/that/goes/on/and/on/scene.json";
    const float full = ImGui::CalcTextSize(note.c_str()).x;
    for (const float width : {full * 0.25f, full * 0.5f, full - 1.0f}) {
        const std::string cut = fitText(note, width);
        ASSERT_GE(cut.size(), 3u);
        EXPECT_EQ(cut.substr(cut.size() - 3), "...");
        EXPECT_LE(ImGui::CalcTextSize(cut.c_str()).x, width);
        EXPECT_EQ(note.rfind(cut.substr(0, cut.size() - 3), 0), 0u) << "not a prefix: " << cut;
        // The longest prefix: one more character would not fit.
        const std::string longer = note.substr(0, cut.size() - 3 + 1) + "...";
        EXPECT_GT(ImGui::CalcTextSize(longer.c_str()).x, width);
    }
    EXPECT_EQ(fitText(note, 0.0f), "...");
    ImGui::EndFrame();
}

TEST(FitText, CutsAtAUtf8CharacterBoundary) {
    ImGuiContextScope scope;
    ImGui::NewFrame();
    const std::string note = "déjà vu: ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u, ½u";
    const float full = ImGui::CalcTextSize(note.c_str()).x;
    for (int k = 1; k < 40; ++k) {
        const std::string cut = fitText(note, full * static_cast<float>(k) / 40.0f);
        const std::string body = cut.substr(0, cut.size() - 3);
        // No continuation byte right after the cut: the prefix ends on a whole character.
        ASSERT_LT(body.size(), note.size());
        EXPECT_NE(static_cast<unsigned char>(note[body.size()]) & 0xC0u, 0x80u) << cut;
    }
    ImGui::EndFrame();
}

} // namespace

namespace {

// Lesson 6 at step 0: the status bar said "LP3 0" (Simulator::lastStepStats() before any step)
// while the velocity panel showed LP3 running in the decision about to be made.
TEST(StatusBar, Lp3CountIsTheLastStepsAndThereIsNoneAtStepZero) {
    orca::ui::StatusInfo s;
    s.step = 0;
    s.lp3Agents = 0;
    EXPECT_EQ(orca::ui::lp3StatusText(s), "LP3 (no step yet)");
    s.step = 5;
    s.lp3Agents = 1;
    EXPECT_EQ(orca::ui::lp3StatusText(s), "LP3 1");
    s.lp3Agents = 0;
    EXPECT_EQ(orca::ui::lp3StatusText(s), "LP3 0");
}

} // namespace
