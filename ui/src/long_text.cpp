#include "orca/ui/long_text.hpp"

#include <algorithm>
#include <cfloat>
#include <cstring>

namespace orca::ui {

namespace {

// Bullet() + SameLine(0, FramePadding.x * 2) as ImGui 1.86 lays them out: the bullet takes the
// font size, the text starts two frame paddings after it.
float bulletIndent() {
    return ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.x * 2.0f;
}

const char* nextChar(const char* s, const char* end) {
    ++s;
    while (s < end && (static_cast<unsigned char>(*s) & 0xC0u) == 0x80u)
        ++s;
    return s;
}

} // namespace

std::string shownLine(std::string_view text, std::size_t maxBytes) {
    std::string s = scene::cutText(text, maxBytes);
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20u || c == '\x7F') c = ' ';
    return s;
}

std::vector<WrappedLine> wrapLines(std::string_view text, float wrapWidth) {
    std::vector<WrappedLine> out;
    const ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const float scale = size / font->FontSize;
    const char* base = text.data();
    const char* end = base + text.size();
    auto push = [&](const char* b, const char* e) {
        out.push_back({static_cast<std::size_t>(b - base), static_cast<std::size_t>(e - base),
                       font->CalcTextSizeA(size, FLT_MAX, 0.0f, b, e).x});
    };
    if (text.empty()) {
        push(base, base); // an empty text is one empty line, as in ImGui
        return out;
    }
    const char* s = base;
    while (s < end) {
        const void* found = std::memchr(s, '\n', static_cast<std::size_t>(end - s));
        const char* nl = found ? static_cast<const char*>(found) : end;
        const char* ls = s;
        do {
            const char* eol = ls < nl ? font->CalcWordWrapPositionA(scale, ls, nl, wrapWidth) : nl;
            if (eol <= ls && ls < nl) eol = nextChar(ls, nl); // nothing fits: one character
            if (static_cast<std::size_t>(eol - ls) > kMaxWrappedLineBytes) {
                const std::string_view line(ls, static_cast<std::size_t>(eol - ls));
                eol = ls + std::max<std::size_t>(scene::utf8Prefix(line, kMaxWrappedLineBytes), 1);
            }
            push(ls, eol);
            ls = eol;
            while (ls < nl && (*ls == ' ' || *ls == '\t')) // a wrap skips the blanks after it
                ++ls;
        } while (ls < nl);
        s = nl + 1;
    }
    return out;
}

ImVec2 textBlocksSize(std::span<const TextBlock> blocks, float width) {
    const float lineH = ImGui::GetFontSize();
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    ImVec2 size{0.0f, 0.0f};
    for (const TextBlock& b : blocks) {
        const float indent = b.bullet ? bulletIndent() : 0.0f;
        if (b.spaceBefore) size.y += spacing;
        const std::vector<WrappedLine> lines = wrapLines(b.text, std::max(width - indent, 1.0f));
        for (const WrappedLine& l : lines)
            size.x = std::max(size.x, indent + l.width);
        size.y += static_cast<float>(lines.size()) * lineH + spacing;
    }
    if (!blocks.empty()) size.y -= spacing;
    return size;
}

void drawTextBlocks(std::span<const TextBlock> blocks) {
    if (blocks.empty()) return;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float lineH = ImGui::GetFontSize();
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    ImDrawList& dl = *ImGui::GetWindowDrawList();
    float y = origin.y;
    float widest = 0.0f;
    for (const TextBlock& b : blocks) {
        const float indent = b.bullet ? bulletIndent() : 0.0f;
        if (b.spaceBefore) y += spacing;
        const std::vector<WrappedLine> lines = wrapLines(b.text, std::max(width - indent, 1.0f));
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const float ly = y + static_cast<float>(k) * lineH;
            widest = std::max(widest, indent + lines[k].width);
            if (!ImGui::IsRectVisible({origin.x, ly}, {origin.x + width, ly + lineH})) continue;
            if (b.bullet && k == 0)
                dl.AddCircleFilled(
                    {origin.x + ImGui::GetStyle().FramePadding.x + lineH * 0.5f, ly + lineH * 0.5f},
                    lineH * 0.20f, ImGui::GetColorU32(ImGuiCol_Text), 8);
            ImGui::SetCursorScreenPos({origin.x + indent, ly});
            ImGui::TextUnformatted(b.text.data() + lines[k].begin, b.text.data() + lines[k].end);
        }
        y += static_cast<float>(lines.size()) * lineH + spacing;
    }
    // Below the last line, as the same ImGui calls leave the cursor; the content's extent for
    // the scroll bar and auto-resize.
    ImGui::SetCursorScreenPos({origin.x, y - spacing});
    ImGui::Dummy({widest, 0.0f});
}

void drawLongText(std::string_view text) {
    const TextBlock block{text, false, false};
    drawTextBlocks({&block, 1});
}

} // namespace orca::ui
