#include "orca/ui/why_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "orca/orca_lines.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/style.hpp"
#include "orca/ui/window_placement.hpp"

namespace orca::ui {

namespace {

void outlinedText(ImDrawList& dl, Vec2 at, ImU32 c, const char* text) {
    const ImVec2 p = toIm(at);
    for (const ImVec2 d : {ImVec2{1, 0}, ImVec2{-1, 0}, ImVec2{0, 1}, ImVec2{0, -1}})
        dl.AddText({p.x + d.x, p.y + d.y}, col(palette().kTextShadow), text);
    dl.AddText(p, c, text);
}

} // namespace

void drawBindingLines(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, std::span<const std::size_t> lines, bool labels,
                      LabelLayout* layout, const Rgba* colour, const char* prefix) {
    const Rgba c = colour ? *colour : palette().kWhy;
    LabelLayout local;
    LabelLayout& out = layout ? *layout : local;
    const Rect clipVel = t.toVelocity(clip);
    dl.PushClipRect(toIm(clip.min), toIm(clip.max), true);
    for (const std::size_t i : lines) {
        if (i >= rec.lines.size()) continue;
        const Line& l = rec.lines[i].line;
        const auto seg = clipLineToRect(l, clipVel);
        if (!seg) continue;
        const Vec2 a = t.toScreen((*seg)[0]);
        const Vec2 b = t.toScreen((*seg)[1]);
        dl.AddLine(toIm(a), toIm(b), col(palette().kTextShadow), stroke(7.0f));
        dl.AddLine(toIm(a), toIm(b), col(c), stroke(3.5f));
        if (!labels) continue;
        // The label at the line's point when visible, else mid-segment; on the permitted side.
        const Vec2 at = clipVel.contains(l.point) ? l.point : ((*seg)[0] + (*seg)[1]) * 0.5;
        const Vec2 n{-l.direction.y, -l.direction.x}; // screen y is flipped: left of d
        char text[32];
        std::snprintf(text, sizeof text, "%s%zu", prefix, i);
        out.add(labelRequest(t.toScreen(at), text, col(c), 65, labelSideToward(n)));
    }
    if (!layout) placeAndDrawLabels(dl, local, clip);
    dl.PopClipRect();
}

void drawWhyInWorld(ImDrawList& dl, const Camera& camera, const ExplainRecord& rec,
                    std::span<const std::size_t> lines, std::span<const WhyAgentRing> agents,
                    const OverlayStyle& style) {
    const Rect& vp = camera.viewport();
    dl.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    const double scale = camera.scale();
    for (const WhyAgentRing& a : agents) {
        const Vec2 c = camera.worldToScreen(a.position);
        const auto r = static_cast<float>(a.radius * scale) + 5.0f;
        dl.AddCircle(toIm(c), r + 1.5f, col(palette().kTextShadow), 0, stroke(5.0f));
        dl.AddCircle(toIm(c), r, col(palette().kWhy), 0, stroke(2.5f));
        char text[24];
        std::snprintf(text, sizeof text, "#%u", a.index);
        const Vec2 anchor = c + Vec2(0.7, -0.7) * static_cast<double>(r);
        if (style.labels)
            style.labels->add(
                labelRequest(anchor, text, col(palette().kWhy), 45, LabelSide::AboveRight));
        else
            outlinedText(dl, anchor + Vec2(2.0, -ImGui::GetFontSize()), col(palette().kWhy), text);
    }
    dl.PopClipRect();
    const VelocityTransform t =
        VelocityTransform::forWorld(camera, rec.position, style.worldSeconds);
    drawBindingLines(dl, t, vp, rec, lines, false); // the panel labels them
}

namespace {

// The fixes: a list to choose from (when more than one), Try fix and Apply, the verdict.
void drawFixes(const Diagnosis& d, const WhyFixView& view, WhyWindowOutput& out) {
    if (d.fixes.empty()) return;
    const std::size_t chosen = std::min(view.chosen, d.fixes.size() - 1);
    ImGui::Spacing();
    if (d.fixes.size() > 1) {
        ImGui::TextDisabled("Fixes (best first):");
        for (std::size_t k = 0; k < d.fixes.size(); ++k) {
            char label[32];
            std::snprintf(label, sizeof label, "##fix%zu", k);
            if (ImGui::RadioButton(label, k == chosen)) out.choose = k;
            ImGui::SameLine();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::Text("%zu. %s", k + 1, d.fixes[k].label.c_str());
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::BeginDisabled(view.running);
    if (ImGui::Button(view.running ? "Trying..." : "Try fix")) out.tryFix = chosen;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Run \"%s\" as a Compare branch from this step (ghosts in the world "
                          "view) and compare both runs some seconds ahead",
                          d.fixes[chosen].label.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Apply")) out.applyFix = chosen;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Edit the scene with \"%s\" (one undoable edit; the run restarts "
                          "from step 0)",
                          d.fixes[chosen].label.c_str());
    if (d.fixes.size() == 1) {
        ImGui::SameLine();
        ImGui::TextUnformatted(d.fixes[0].label.c_str());
    }
    if (view.verdict.empty()) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(opaque4(view.improved ? palette().kArrowNew : palette().kLintWarning), "%s",
                       view.verdict.c_str());
    ImGui::PopTextWrapPos();
    if (!view.improved && view.next && *view.next < d.fixes.size()) {
        char label[64];
        std::snprintf(label, sizeof label, "Try the next: fix %zu", *view.next + 1);
        if (ImGui::Button(label)) out.tryFix = *view.next;
        ImGui::SameLine();
        ImGui::TextDisabled("%s", d.fixes[*view.next].label.c_str());
    }
}

} // namespace

WhyWindowOutput drawWhyWindow(const Diagnosis* d, const std::string& status, bool* open,
                              const WhyFixView* fixes) {
    WhyWindowOutput out;
    placeNewWindow("Why?", {440.0f, 0.0f}, {10.0f, 440.0f});
    if (!ImGui::Begin("Why?", open)) {
        ImGui::End();
        return out;
    }
    if (!d) {
        ImGui::TextDisabled("%s", status.c_str());
        ImGui::End();
        return out;
    }
    const std::string_view cls = toString(d->cls);
    ImGui::Text("Agent #%zu at step %llu:", d->agent, static_cast<unsigned long long>(d->step));
    ImGui::SameLine();
    ImGui::TextColored(
        opaque4(d->cls == DiagnosisClass::None ? palette().kAgentAtGoal : palette().kWhy), "%.*s",
        static_cast<int>(cls.size()), cls.data());
    if (!status.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", status.c_str());
    }
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(d->sentence.c_str());
    ImGui::Spacing();
    ImGui::TextColored(opaque4(palette().kArrowNew), "Fix:");
    ImGui::SameLine();
    ImGui::TextUnformatted(d->suggestion.c_str());
    ImGui::PopTextWrapPos();
    if (fixes) drawFixes(*d, *fixes, out);
    ImGui::Spacing();
    ImGui::TextDisabled("progress %.0f%% of preferred, |v_new| %.3g, %s", 100.0 * d->progress,
                        d->speed, d->lp3 ? "LP3" : "LP2 feasible");
    if (!d->binding.empty() &&
        ImGui::BeginTable("##binding", 4, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        ImGui::TableSetupColumn("line");
        ImGui::TableSetupColumn("from");
        ImGui::TableSetupColumn("case");
        ImGui::TableSetupColumn("slack");
        ImGui::TableHeadersRow();
        for (const BindingConstraint& b : d->binding) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(opaque4(palette().kWhy), "%zu", b.lineIndex);
            ImGui::TableNextColumn();
            if (b.agent) {
                char text[48];
                std::snprintf(text, sizeof text, "agent #%u%s##b%zu", *b.agent,
                              b.agentStatic ? " (static)" : "", b.lineIndex);
                if (ImGui::SmallButton(text)) out.selectAgent = *b.agent;
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("select agent #%u", *b.agent);
            } else if (b.obstacle) {
                ImGui::Text("obstacle #%u seg %u", *b.obstacle, b.segment);
            }
            ImGui::TableNextColumn();
            const std::string_view c = toString(b.lineCase);
            ImGui::TextUnformatted(c.data(), c.data() + c.size());
            ImGui::TableNextColumn();
            ImGui::Text("%.3g", b.slack);
        }
        ImGui::EndTable();
    }
    if (d->speedLimitBinding) ImGui::TextDisabled("the speed limit binds too (|v_new| = maxSpeed)");
    if (!d->responsibleAgents.empty()) {
        ImGui::TextUnformatted("Agents behind it (ringed):");
        for (const std::uint32_t a : d->responsibleAgents) {
            ImGui::SameLine();
            char text[24];
            std::snprintf(text, sizeof text, "#%u##r", a);
            if (ImGui::SmallButton(text)) out.selectAgent = a;
        }
    }
    if (!d->responsibleObstacles.empty()) {
        std::string obs;
        for (const std::uint32_t o : d->responsibleObstacles)
            obs += (obs.empty() ? "#" : ", #") + std::to_string(o);
        ImGui::Text("Obstacles behind it: %s", obs.c_str());
    }
    ImGui::TextColored(opaque4(palette().kWhy), "binding half-planes: this colour, b<line> in the "
                                                "velocity panel");
    ImGui::End();
    return out;
}

} // namespace orca::ui
