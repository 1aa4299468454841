#include "orca/ui/lesson_panel.hpp"

#include <algorithm>
#include <deque>
#include <string_view>

#include <imgui.h>

#include "orca/scene/text_limits.hpp"
#include "orca/ui/long_text.hpp"

namespace orca::ui {

namespace {

// A tick drawn with the draw list (the UI font has no dingbats), in the check-mark colour.
void checkMark(bool done) {
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList& dl = *ImGui::GetWindowDrawList();
    const ImU32 col = ImGui::GetColorU32(done ? ImGuiCol_CheckMark : ImGuiCol_TextDisabled);
    if (done) {
        const float t = std::max(2.0f, h * 0.14f);
        dl.AddLine({p.x + h * 0.15f, p.y + h * 0.55f}, {p.x + h * 0.4f, p.y + h * 0.8f}, col, t);
        dl.AddLine({p.x + h * 0.4f, p.y + h * 0.8f}, {p.x + h * 0.9f, p.y + h * 0.2f}, col, t);
    } else {
        dl.AddCircle({p.x + h * 0.5f, p.y + h * 0.5f}, h * 0.35f, col, 16,
                     std::max(1.0f, h * 0.08f));
    }
    ImGui::Dummy({h, h});
}

// The blocks of a page's paragraphs: lines starting with "- " are bullets; the other lines of
// a paragraph join into one block (their text kept in `joined`, which must outlive the blocks).
std::vector<TextBlock> pageBlocks(const std::vector<std::string>& paras,
                                  std::deque<std::string>& joined) {
    std::vector<TextBlock> blocks;
    for (std::size_t i = 0; i < paras.size(); ++i) {
        const std::string& block = paras[i];
        bool first = true;
        std::string text;
        auto flush = [&] {
            if (text.empty()) return;
            joined.push_back(std::move(text));
            blocks.push_back({joined.back(), false, first && i > 0});
            first = false;
            text.clear();
        };
        std::size_t start = 0;
        while (start <= block.size()) {
            std::size_t end = block.find('\n', start);
            if (end == std::string::npos) end = block.size();
            const std::string_view line(block.data() + start, end - start);
            if (line.rfind("- ", 0) == 0) {
                flush();
                blocks.push_back({line.substr(2), true, first && i > 0});
                first = false;
            } else if (!line.empty()) {
                if (!text.empty()) text += ' ';
                text.append(line);
            }
            start = end + 1;
        }
        flush();
    }
    return blocks;
}

} // namespace

std::vector<std::string> splitParagraphs(std::string_view text) {
    std::vector<std::string> out;
    std::string current;
    std::size_t start = 0;
    auto push = [&] {
        const auto first = current.find_first_not_of(" \t\r\n");
        if (first != std::string::npos) {
            const auto last = current.find_last_not_of(" \t\r\n");
            out.push_back(current.substr(first, last - first + 1));
        }
        current.clear();
    };
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line(text.substr(start, end - start));
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            push();
        else
            current += (current.empty() ? "" : "\n") + line;
        start = end + 1;
    }
    push();
    return out;
}

LessonPanelOutput drawLessonPanel(const LessonPanelInput& in, bool* open) {
    LessonPanelOutput out;
    if (!*open) return out;
    const ImGuiCond cond = in.docked ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(in.pos, cond);
    ImGui::SetNextWindowSize(in.size, cond);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse;
    if (in.docked) flags |= ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize;
    if (!ImGui::Begin("Lesson###lesson", open, flags)) {
        ImGui::End();
        return out;
    }
    out.windowPos = ImGui::GetWindowPos();
    out.windowSize = ImGui::GetWindowSize();
    ImGui::TextDisabled("%s", shownLine(in.lessonTitle).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
    ImGui::TextWrapped("%s", shownLine(in.pageTitle).c_str());
    ImGui::PopStyleColor();
    // The task's texts as shown: cut at kMaxParagraphBytes (a few thousand vertices at most).
    const std::string taskText = scene::cutText(in.taskText, scene::kMaxParagraphBytes);
    const std::string status = in.taskDone && !in.taskSuccess.empty()
                                   ? scene::cutText(in.taskSuccess, scene::kMaxParagraphBytes)
                                   : in.taskProgress;
    ImGui::Separator();

    // The text scrolls; the task and the page buttons stay at the bottom. The buttons take
    // two rows when one is too narrow for them; a task too long for the room left scrolls too.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float lineH = ImGui::GetFrameHeightWithSpacing();
    const std::string label =
        "page " + std::to_string(in.page + 1) + "/" + std::to_string(in.pages);
    auto buttonWidth = [&](const char* text) {
        return ImGui::CalcTextSize(text).x + 2.0f * style.FramePadding.x;
    };
    const float comboWidth = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetFrameHeight() * 1.6f;
    const float rowWidth = buttonWidth("< Prev") + comboWidth + buttonWidth("Next >") +
                           buttonWidth("Reset page") + 3.0f * style.ItemSpacing.x;
    const bool twoRows = rowWidth > ImGui::GetContentRegionAvail().x;
    const float buttons = lineH * (twoRows ? 2.6f : 1.6f);
    const float room = ImGui::GetContentRegionAvail().y - buttons;
    float taskHeight = 0.0f;
    bool taskScrolls = false;
    if (in.hasTask) {
        const float w = ImGui::GetContentRegionAvail().x - ImGui::GetTextLineHeight() * 2.0f -
                        style.ScrollbarSize;
        auto textHeight = [&](const std::string& s) {
            return s.empty() ? 0.0f : ImGui::CalcTextSize(s.c_str(), nullptr, false, w).y;
        };
        taskHeight =
            lineH * 1.2f + textHeight(taskText) + textHeight(status) + style.ItemSpacing.y * 4.0f;
        // At least three lines of the page text stay.
        const float most = std::max(room - 3.0f * lineH, 2.0f * lineH);
        if (taskHeight > most) {
            taskHeight = most;
            taskScrolls = true;
        }
    }
    ImGui::BeginChild("##text", {0.0f, std::max(room - taskHeight, lineH)}, false);
    // The page text, cut at kMaxPageTextBytes, drawn line by line: only what is in view.
    const std::string shown = scene::cutText(in.text, scene::kMaxPageTextBytes);
    const std::vector<std::string> paras = splitParagraphs(shown);
    std::deque<std::string> joined;
    drawTextBlocks(pageBlocks(paras, joined));
    if (!in.note.empty()) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", in.note.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::EndChild();

    const float controlsTop = ImGui::GetCursorScreenPos().y;
    if (in.hasTask) {
        ImGui::Separator();
        if (taskScrolls)
            ImGui::BeginChild("##task", {0.0f, taskHeight - style.ItemSpacing.y * 2.0f}, false);
        checkMark(in.taskDone);
        ImGui::SameLine();
        ImGui::TextUnformatted(in.taskDone ? "Done!" : "Try this:");
        ImGui::Indent(ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x);
        ImGui::TextWrapped("%s", taskText.c_str());
        if (!status.empty()) {
            ImGui::PushStyleColor(
                ImGuiCol_Text,
                ImGui::GetStyleColorVec4(in.taskDone ? ImGuiCol_CheckMark : ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", status.c_str());
            ImGui::PopStyleColor();
        }
        ImGui::Unindent(ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x);
        if (taskScrolls) ImGui::EndChild();
    }

    ImGui::Separator();
    ImGui::BeginDisabled(in.page == 0);
    if (ImGui::Button("< Prev")) out.goToPage = in.page - 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(comboWidth);
    if (ImGui::BeginCombo("##page", label.c_str())) {
        // Only the items in the list's view are laid out (a lesson may have any number).
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(in.pages));
        while (clipper.Step()) {
            for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
                const auto i = static_cast<std::size_t>(k);
                const std::string item =
                    std::to_string(i + 1) + ". " +
                    (in.pageTitleAt ? shownLine(in.pageTitleAt(i)) : std::string());
                if (ImGui::Selectable(item.c_str(), i == in.page)) out.goToPage = i;
            }
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(in.page + 1 >= in.pages);
    if (ImGui::Button("Next >")) out.goToPage = in.page + 1;
    ImGui::EndDisabled();
    if (!twoRows) ImGui::SameLine();
    if (ImGui::Button("Reset page")) out.reset = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Reload the lesson's scene (dropping your edits) and set this page up "
                          "again");
    out.controlsMin = {out.windowPos.x, controlsTop};
    out.controlsMax = {out.windowPos.x + out.windowSize.x, ImGui::GetItemRectMax().y};
    ImGui::End();
    return out;
}

} // namespace orca::ui
