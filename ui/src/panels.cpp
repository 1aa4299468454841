#include "orca/ui/panels.hpp"

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include <imgui.h>

#include "orca/scene/text_limits.hpp"
#include "orca/ui/long_text.hpp"

namespace orca::ui {

namespace {

constexpr float kStatusPadY = 4.0f;

void separator() {
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
}

// A message longer than `maxBytes` keeps its beginning and its end (what happened, and what
// the app does about it), "…" between them.
std::string cutMiddle(const std::string& text, std::size_t maxBytes) {
    if (!scene::textIsCut(text, maxBytes)) return text;
    const std::string_view all(text);
    const std::size_t head = scene::utf8Prefix(all, maxBytes - maxBytes / 8);
    std::size_t tail = text.size() - maxBytes / 8;
    while (tail < text.size() && (static_cast<unsigned char>(text[tail]) & 0xC0u) == 0x80u)
        ++tail;
    return text.substr(0, head) + "\n\xE2\x80\xA6\n" + text.substr(tail);
}

} // namespace

std::string fitText(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    static constexpr const char* kEllipsis = "...";
    const float room = width - ImGui::CalcTextSize(kEllipsis).x;
    // The longest prefix that fits, cut at a UTF-8 character boundary.
    std::size_t lo = 0;
    std::size_t hi = text.size();
    while (lo < hi) {
        const std::size_t mid = (lo + hi + 1) / 2;
        if (ImGui::CalcTextSize(text.data(), text.data() + mid).x <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    while (lo > 0 && (static_cast<unsigned char>(text[lo]) & 0xC0u) == 0x80u)
        --lo;
    return text.substr(0, lo) + kEllipsis;
}

float statusBarHeight() {
    return ImGui::GetTextLineHeight() + 2.0f * kStatusPadY;
}

std::string lp3StatusText(const StatusInfo& info) {
    if (info.step == 0) return "LP3 (no step yet)";
    return "LP3 " + std::to_string(info.lp3Agents);
}

void drawStatusBar(const StatusInfo& s) {
    const ImGuiIO& io = ImGui::GetIO();
    const float h = statusBarHeight();
    ImGui::SetNextWindowPos({0.0f, io.DisplaySize.y - h});
    ImGui::SetNextWindowSize({io.DisplaySize.x, h});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {8.0f, kStatusPadY});
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
    // (The style's minimum window size grows with the UI scale: above the bar's height at
    // 175 %, which would push the bar off the bottom of the screen.)
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, {1.0f, 1.0f});
    constexpr ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
        ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
        ImGuiWindowFlags_NoBringToFrontOnFocus;
    if (ImGui::Begin("##status", nullptr, flags)) {
        // One line: the scene's name takes at most a quarter of it, and an item that no longer
        // fits (a large UI scale on a small screen) is left out with those after it, never cut.
        const std::string name =
            fitText(s.sceneName.empty() ? "(no scene)" : shownLine(s.sceneName),
                    std::max(io.DisplaySize.x * 0.25f, 60.0f));
        ImGui::TextUnformatted(name.c_str());
        if (s.unsaved) {
            ImGui::SameLine(0.0f, 2.0f);
            ImGui::TextColored({0.95f, 0.75f, 0.30f, 1.0f}, "*");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("unsaved changes");
        }
        bool full = false;
        const ImVec4 plain = ImGui::GetStyleColorVec4(ImGuiCol_Text);
        auto item = [&](const ImVec4& colour, const std::string& text) {
            if (full) return;
            const float sep = ImGui::CalcTextSize("|").x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
            ImGui::SameLine();
            if (sep + ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) {
                full = true;
                ImGui::NewLine();
                return;
            }
            ImGui::TextDisabled("|");
            ImGui::SameLine();
            ImGui::TextColored(colour, "%s", text.c_str());
        };
        char buf[96];
        std::snprintf(buf, sizeof buf, "step %llu", static_cast<unsigned long long>(s.step));
        item(plain, buf);
        std::snprintf(buf, sizeof buf, "t = %.2f s", s.time);
        item(plain, buf);
        if (s.running)
            item({0.45f, 0.85f, 0.45f, 1.0f}, "running");
        else
            item({0.95f, 0.75f, 0.30f, 1.0f}, "paused");
        if (!s.mode.empty())
            item(s.modeWarning ? ImVec4{0.95f, 0.75f, 0.30f, 1.0f} : ImVec4{0.6f, 0.8f, 1.0f, 1.0f},
                 s.mode);
        std::snprintf(buf, sizeof buf, "%zu agents", s.agents);
        item(plain, buf);
        if (s.selected > 0) {
            std::snprintf(buf, sizeof buf, "%zu selected", s.selected);
            item(plain, buf);
        }
        if (s.construction) item({0.6f, 0.8f, 1.0f, 1.0f}, "construction");
        if (!s.editTool.empty()) item({0.35f, 0.86f, 1.0f, 1.0f}, "editing: " + s.editTool);
        if (s.goalAgents > 0) {
            std::snprintf(buf, sizeof buf, "%zu/%zu at goal", s.atGoal, s.goalAgents);
            item(plain, buf);
        }
        item(plain, lp3StatusText(s));
        if (!full && ImGui::IsItemHovered())
            ImGui::SetTooltip("Agents whose velocity LP3 chose in the last step (drawn orange).\n"
                              "The velocity panel shows the decision of the next step.");
        std::snprintf(buf, sizeof buf, "%.2f ms/step (%d thr)", s.msPerStep, s.threads);
        item(plain, buf);
        std::snprintf(buf, sizeof buf, "%.2f ms/frame", s.msPerFrame);
        item(plain, buf);
        if (!s.note.empty() && !full) {
            separator();
            // A note may quote a file's text (a name, a path): cut before it is measured.
            const std::string note = scene::cutText(s.note, scene::kMaxParagraphBytes);
            const std::string shown = fitText(note, ImGui::GetContentRegionAvail().x);
            ImGui::TextColored({0.6f, 0.8f, 1.0f, 1.0f}, "%s", shown.c_str());
            if (shown.size() != note.size() && ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
                ImGui::TextUnformatted(note.c_str());
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
            }
        }
    }
    ImGui::End();
    ImGui::PopStyleVar(4);
}

void MessageQueue::push(std::string title, std::string text) {
    m_queue.push_back({std::move(title), std::move(text)});
}

void MessageQueue::draw() {
    if (m_queue.empty()) return;
    // A fixed id ("###message") so a new title does not make ImGui treat it as a new popup.
    const Message& m = m_queue.front();
    const std::string label = shownLine(m.title) + "###message";
    if (!ImGui::IsPopupOpen("###message")) ImGui::OpenPopup("###message");
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos({io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f}, ImGuiCond_Appearing,
                            {0.5f, 0.5f});
    ImGui::SetNextWindowSizeConstraints({320.0f, 0.0f}, {io.DisplaySize.x * 0.8f, FLT_MAX});
    if (ImGui::BeginPopupModal(label.c_str(), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        // A message may quote a file (an import report lists every element it dropped, an
        // error its bad key): cut at kMaxPageTextBytes, in a scrolling region of at most 60 %
        // of the window's height that draws only the lines in view.
        const std::string text = cutMiddle(m.text, scene::kMaxPageTextBytes);
        const TextBlock block{text, false, false};
        const float wrap = io.DisplaySize.x * 0.75f - ImGui::GetCursorPosX();
        const ImVec2 size = textBlocksSize({&block, 1}, wrap);
        const float maxHeight = std::max(io.DisplaySize.y * 0.6f, ImGui::GetFontSize() * 3.0f);
        const bool scrolls = size.y > maxHeight;
        const float width = size.x + (scrolls ? ImGui::GetStyle().ScrollbarSize : 0.0f) + 1.0f;
        ImGui::BeginChild("##messageText", {width, std::min(size.y, maxHeight) + 1.0f}, false);
        drawTextBlocks({&block, 1});
        ImGui::EndChild();
        ImGui::Spacing();
        if (m_queue.size() > 1) ImGui::TextDisabled("%zu more message(s)", m_queue.size() - 1);
        if (ImGui::Button("OK", {120.0f, 0.0f}) ||
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
            ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
            ImGui::CloseCurrentPopup();
            m_queue.pop_front();
        }
        ImGui::EndPopup();
    }
}

} // namespace orca::ui
