// Texts from files of any length (ui/long_text.hpp, issue 25): lines wrapped as ImGui wraps
// them, and a 40,000-character paragraph or 20,000 characters without a space drawn with the
// vertices of the lines in view only (ImGui's TextWrapped aborted the app: a window's draw list
// holds 65,536 vertices).
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include <imgui.h>

#include "app/imgui_test_context.hpp"
#include "orca/scene/text_limits.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/panels.hpp"

using namespace orca;

namespace {

// Draws `draw` in a 400 x 300 window for one frame; returns the window's vertex count.
template <class F> int verticesOf(F&& draw) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0.0f, 0.0f});
    ImGui::SetNextWindowSize({400.0f, 300.0f});
    ImGui::Begin("text");
    draw();
    const int n = ImGui::GetWindowDrawList()->VtxBuffer.Size;
    ImGui::End();
    ImGui::Render();
    return n;
}

} // namespace

TEST(LongText, OneLineTextsAreCutAndFlattened) {
    EXPECT_EQ(ui::shownLine("a\nb\tc"), "a b c");
    const std::string shown = ui::shownLine(std::string(5'000'000, 'x'));
    EXPECT_EQ(shown, std::string(scene::kMaxTitleBytes, 'x') + "\xE2\x80\xA6");
}

TEST(LongText, WrapsLikeImGui) {
    orca::testing::ImGuiContextScope imgui;
    ImGui::NewFrame();
    const float w = ImGui::CalcTextSize("aaaa bbbb").x + 1.0f;
    auto lines = ui::wrapLines("aaaa bbbb cccc\n\ndd", w);
    ASSERT_EQ(lines.size(), 4u);
    const std::string text = "aaaa bbbb cccc\n\ndd";
    auto line = [&](std::size_t k) {
        return text.substr(lines[k].begin, lines[k].end - lines[k].begin);
    };
    EXPECT_EQ(line(0), "aaaa bbbb");
    EXPECT_EQ(line(1), "cccc"); // the blank after the wrap is skipped
    EXPECT_EQ(line(2), "");
    EXPECT_EQ(line(3), "dd");
    // A word longer than the width is cut anywhere; ImGui's own measure agrees on the height.
    const std::string word(100, 'm');
    lines = ui::wrapLines(word, 50.0f);
    EXPECT_GT(lines.size(), 5u);
    for (const auto& l : lines)
        EXPECT_LE(l.width, 50.0f);
    EXPECT_EQ(static_cast<float>(lines.size()) * ImGui::GetFontSize(),
              ImGui::CalcTextSize(word.c_str(), nullptr, false, 50.0f).y);
    // A line never holds more than kMaxWrappedLineBytes, however wide the wrap.
    lines = ui::wrapLines(std::string(5000, 'i'), 1e9f);
    EXPECT_EQ(lines.size(), 5u);
    ImGui::EndFrame();
}

TEST(LongText, AParagraphOfAnyLengthCostsOnlyWhatIsInView) {
    orca::testing::ImGuiContextScope imgui;
    std::string prose;
    while (prose.size() < 40'000)
        prose += "Agents choose velocities outside every half-plane. ";
    const std::string noSpace(20'000, 'x');
    const std::string shown = scene::cutText(prose, scene::kMaxPageTextBytes);
    const int small = verticesOf([] { ui::drawLongText("Short."); });
    for (const std::string* text :
         std::initializer_list<const std::string*>{&prose, &noSpace, &shown}) {
        const int n = verticesOf([&] { ui::drawLongText(*text); });
        // 300 px of a 13 px font: ~23 lines of ~60 glyphs, four vertices each.
        EXPECT_LT(n, 8000) << text->size();
        EXPECT_GT(n, small);
    }
    // The content height is the whole text's (so the window scrolls through it).
    ImGui::NewFrame();
    ImGui::SetNextWindowSize({400.0f, 300.0f});
    ImGui::Begin("height");
    const float y0 = ImGui::GetCursorPosY();
    ui::drawLongText(noSpace);
    const float height = ImGui::GetCursorPosY() - y0 - ImGui::GetStyle().ItemSpacing.y;
    const float wrap = ImGui::GetContentRegionAvail().x;
    EXPECT_FLOAT_EQ(height, ImGui::CalcTextSize(noSpace.c_str(), nullptr, false, wrap).y);
    ImGui::End();
    ImGui::Render();
}

// A message quoting a file (a 5 MB key in an error) is drawn in a scrolling region: a few
// thousand vertices a frame, whatever its length, with its end (what the app did) kept.
TEST(LongText, MessagesOfAnyLengthStayWithinAWindowsVertices) {
    orca::testing::ImGuiContextScope imgui;
    ui::MessageQueue messages;
    messages.push(std::string(5'000'000, 't'), "scene.json: error: unknown key \"k" +
                                                   std::string(5'000'000, '0') +
                                                   "\"\n\nStarting with an empty scene.");
    for (int frame = 0; frame < 3; ++frame) { // a popup settles its size in its first frames
        ImGui::NewFrame();
        messages.draw();
        ImGui::Render();
        int vertices = 0;
        for (int k = 0; k < ImGui::GetDrawData()->CmdListsCount; ++k)
            vertices += ImGui::GetDrawData()->CmdLists[k]->VtxBuffer.Size;
        EXPECT_LT(vertices, 30000) << "frame " << frame;
    }
    EXPECT_EQ(messages.size(), 1u);
}
