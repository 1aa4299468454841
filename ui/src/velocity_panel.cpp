#include "orca/ui/velocity_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/grid_style.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/solve_view.hpp"
#include "orca/ui/style.hpp"
#include "orca/ui/why_panel.hpp"

namespace orca::ui {

namespace {

constexpr double kMinUnitsPerPixel = 1e-6;
constexpr double kMaxUnitsPerPixel = 1e6;

Vec2 fromIm(ImVec2 v) {
    return {static_cast<double>(v.x), static_cast<double>(v.y)};
}

// SameLine() when an item `width` wide still fits on the line, else a new line: a large UI
// scale in a narrow panel wraps a row of controls instead of cutting it off.
void sameLineIfFits(float width) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right)
        ImGui::SameLine();
}

float buttonWidth(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

float checkboxWidth(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
           ImGui::CalcTextSize(label, nullptr, true).x;
}

// A marked velocity (VelocityPanel::mark): a cross in the highlight colour, labelled below
// the velocity labels' priorities.
void drawMark(ImDrawList& dl, const VelocityTransform& t, const VelocityPanel::Mark& mark,
              LabelLayout& labels) {
    if (!mark.velocity) return;
    const Vec2 p = t.toScreen(*mark.velocity);
    const float r = stroke(5.0f);
    const ImU32 c = col(palette().kHighlight);
    const auto x = static_cast<float>(p.x);
    const auto y = static_cast<float>(p.y);
    dl.AddLine({x - r, y - r}, {x + r, y + r}, c, stroke(2.0f));
    dl.AddLine({x - r, y + r}, {x + r, y - r}, c, stroke(2.0f));
    if (!mark.label.empty())
        labels.add(labelRequest(p, mark.label.c_str(), c, 80, LabelSide::BelowLeft));
}

void drawGrid(ImDrawList& dl, const VelocityTransform& t, const Rect& canvas, LabelLayout& labels) {
    const GridSteps steps = panelGridSteps(t.pixelsPerUnit);
    const double minor = steps.minor;
    const Rect v = t.toVelocity(canvas);
    auto lineCol = [&](double w) { return col(gridColour(gridLineAt(w, steps), GridView::Panel)); };
    const auto x0 = static_cast<float>(canvas.min.x);
    const auto x1 = static_cast<float>(canvas.max.x);
    const auto y0 = static_cast<float>(canvas.min.y);
    const auto y1 = static_cast<float>(canvas.max.y);
    for (double x = std::floor(v.min.x / minor) * minor; x <= v.max.x; x += minor) {
        const float sx = std::floor(static_cast<float>(t.toScreen({x, 0.0}).x)) + 0.5f;
        dl.AddLine({sx, y0}, {sx, y1}, lineCol(x));
    }
    for (double y = std::floor(v.min.y / minor) * minor; y <= v.max.y; y += minor) {
        const float sy = std::floor(static_cast<float>(t.toScreen({0.0, y}).y)) + 0.5f;
        dl.AddLine({x0, sy}, {x1, sy}, lineCol(y));
    }
    // Values of the major lines along the axes (kept inside the canvas when an axis is not),
    // as labels at fixed places: the lowest priority, dropped where another label is.
    const ImU32 textCol = col(axisLabelColour());
    auto axisValue = [&](Vec2 at, double value) {
        const std::string text = axisLabelText(value);
        LabelRequest r = labelRequest(at, text.c_str(), textCol, 5, LabelSide::Right);
        r.fixed = true;
        r.fixedAt = at;
        labels.add(std::move(r));
    };
    const Vec2 o = t.toScreen({0.0, 0.0});
    const float ax = static_cast<float>(std::clamp(o.x, canvas.min.x + 2.0, canvas.max.x - 40.0));
    const float ay = static_cast<float>(std::clamp(o.y, canvas.min.y + 2.0, canvas.max.y - 16.0));
    for (const double x : axisLabelValues(v.min.x, v.max.x, steps, t.pixelsPerUnit))
        axisValue({t.toScreen({x, 0.0}).x + 2.0, ay + 1.0}, x);
    for (const double y : axisLabelValues(v.min.y, v.max.y, steps, t.pixelsPerUnit))
        axisValue({ax + 3.0, t.toScreen({0.0, y}).y + 1.0}, y);
}

// Swatch, LegendItem, swatchDash: label_style.hpp (the SVG export's too).

void drawSwatch(ImDrawList& dl, ImVec2 p, float w, float h, const LegendItem& it) {
    const ImU32 c = col(it.colour);
    const float my = p.y + h * 0.5f;
    // A line at mid-height from x0 to x1, dashed as swatchDash says.
    auto dashes = [&](float x0, float x1) {
        const Dash d = swatchDash(it.swatch);
        if (d.on <= 0.0f) {
            dl.AddLine({x0, my}, {x1, my}, c, stroke(2.0f));
            return;
        }
        for (float x = x0; x < x1; x += d.on + d.off)
            dl.AddLine({x, my}, {std::min(x + d.on, x1), my}, c, stroke(2.0f));
    };
    switch (it.swatch) {
    case Swatch::Arrow:
    case Swatch::DashedArrow:
        dashes(p.x, p.x + w - 6.0f);
        dl.AddTriangleFilled({p.x + w, my}, {p.x + w - 7.0f, my - 4.0f},
                             {p.x + w - 7.0f, my + 4.0f}, c);
        break;
    case Swatch::Line:
    case Swatch::DashedLine:
    case Swatch::DottedLine:
        dashes(p.x, p.x + w);
        break;
    case Swatch::Fill:
        dl.AddRectFilled({p.x, p.y + 2.0f}, {p.x + w, p.y + h - 2.0f}, c);
        break;
    case Swatch::Strip:
        dl.AddLine({p.x, p.y + 3.0f}, {p.x + w, p.y + 3.0f}, col(it.colour, std::uint8_t{255}),
                   stroke(1.5f));
        dl.AddRectFilledMultiColor(
            {p.x, p.y + 3.0f}, {p.x + w, p.y + h - 1.0f}, col(it.colour, kSwatchStripAlpha),
            col(it.colour, kSwatchStripAlpha), col(it.colour, std::uint8_t{0}),
            col(it.colour, std::uint8_t{0}));
        break;
    case Swatch::Diamond: {
        const float cx = p.x + w * 0.5f;
        const float r = h * 0.35f;
        dl.AddQuadFilled({cx, my - r}, {cx + r, my}, {cx, my + r}, {cx - r, my}, c);
        break;
    }
    case Swatch::Ring:
        dl.AddCircle({p.x + w * 0.5f, my}, h * 0.4f, c, 16, stroke(1.5f));
        break;
    }
}

// A box in the canvas's bottom-left corner; two columns when long, so it covers little.
// Returns the box.
Rect drawLegend(ImDrawList& dl, const Rect& canvas, std::span<const LegendItem> items) {
    const float lineH = ImGui::GetTextLineHeight() + 1.0f;
    const float sw = stroke(24.0f);
    const float pad = stroke(5.0f);
    const std::size_t columns = items.size() > 6 ? 2 : 1;
    const std::size_t rows = (items.size() + columns - 1) / columns;
    float colW[2] = {0.0f, 0.0f};
    for (std::size_t k = 0; k < items.size(); ++k)
        colW[k / rows] = std::max(colW[k / rows], ImGui::CalcTextSize(items[k].text.c_str()).x);
    float w = pad;
    for (std::size_t c = 0; c < columns; ++c)
        w += sw + pad + colW[c] + pad * 2.0f;
    const float h = pad * 2.0f + lineH * static_cast<float>(rows);
    const ImVec2 p0{static_cast<float>(canvas.min.x) + 6.0f,
                    static_cast<float>(canvas.max.y) - 6.0f - h};
    dl.AddRectFilled(p0, {p0.x + w, p0.y + h}, col(palette().kLegendBackground), 4.0f);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const std::size_t c = k / rows;
        const float x = p0.x + pad + (c == 0 ? 0.0f : sw + pad + colW[0] + pad * 2.0f);
        const float y = p0.y + pad + lineH * static_cast<float>(k % rows);
        drawSwatch(dl, {x, y}, sw, lineH, items[k]);
        dl.AddText({x + sw + pad, y}, col(palette().kText), items[k].text.c_str());
    }
    return {{p0.x, p0.y}, {p0.x + w, p0.y + h}};
}

} // namespace

VelocityTransform VelocityPanel::transform() const {
    const Vec2 cc = m_canvas.center();
    const double ppu = 1.0 / m_unitsPerPixel;
    return {{cc.x - m_center.x * ppu, cc.y + m_center.y * ppu}, ppu};
}

void VelocityPanel::pan(Vec2 screenDelta) {
    m_center -= Vec2(screenDelta.x, -screenDelta.y) * m_unitsPerPixel;
}

void VelocityPanel::zoomAbout(Vec2 screenPoint, double factor) {
    if (!(factor > 0.0)) return;
    const Vec2 v = transform().toVelocity(screenPoint);
    m_unitsPerPixel = std::clamp(m_unitsPerPixel / factor, kMinUnitsPerPixel, kMaxUnitsPerPixel);
    const Vec2 cc = m_canvas.center();
    m_center = v - Vec2(screenPoint.x - cc.x, -(screenPoint.y - cc.y)) * m_unitsPerPixel;
}

void VelocityPanel::fit(Vec2 center, double radius) {
    const Vec2 size = m_canvas.size();
    const double px = std::max(std::min(size.x, size.y) - 24.0, 16.0);
    m_center = center;
    m_unitsPerPixel =
        std::clamp(2.0 * std::max(radius, 1e-3) / px, kMinUnitsPerPixel, kMaxUnitsPerPixel);
}

std::string velocitySpaceCaption(bool relativeSpace, bool obstacle, const std::string& agent) {
    if (agent.empty()) {
        if (!relativeSpace) return kAbsoluteSpaceCaption;
        return obstacle ? "velocity of A (obstacles are static: relative = absolute)"
                        : "relative velocity v_A - v_B";
    }
    if (!relativeSpace) return "absolute velocity of " + agent;
    return obstacle ? "velocity of " + agent + " (obstacles are static: relative = absolute)"
                    : "relative velocity v_A - v_B, A = " + agent;
}

std::string captionAgentLabel(std::optional<std::size_t> index,
                              std::span<const std::string> names) {
    if (!index) return {};
    std::string number(1, '#');
    number += std::to_string(*index);
    if (*index >= names.size() || names[*index].empty()) return number;
    std::string label = shownLine(names[*index], 40);
    label += " (";
    label += number;
    label += ')';
    return label;
}

OverlayHover VelocityPanel::draw(const ExplainRecord* rec, const OverlayLayers& layers,
                                 const OverlayHover& highlight, ConstructionState& construction,
                                 bool* open) {
    OverlayHover hover;
    m_labels.clear();
    m_plotRect = Rect::empty();
    m_plotReason.clear();
    m_caption.clear();
    if (!ImGui::Begin(kVelocityPanelTitle, open)) {
        ImGui::End();
        return hover;
    }
    // A default size unless the app set one: a SetNextWindowSize before draw() that took
    // effect used up the window's first-use condition, so this call then does nothing (as it
    // does for a window with saved settings). Otherwise the size applies from the next frame
    // on; the first one (which ImGui hides while it sizes a new window) had the auto-fit size,
    // so the view is fitted again then.
    const Vec2 windowSize = fromIm(ImGui::GetWindowSize());
    const Vec2 defaultSize{kDefaultWidth, kDefaultHeight};
    const bool appearing = ImGui::IsWindowAppearing(); // its first frame, or shown again
    if (appearing) {
        ImGui::SetWindowSize({kDefaultWidth, kDefaultHeight}, ImGuiCond_FirstUseEver);
        if (!m_appearedSize) m_appearedSize = windowSize;
    }
    if (m_appearedSize && windowSize != *m_appearedSize) {
        // It took the default: fit again, on this frame and the next (this one may still be
        // laid out with a scrollbar left from the auto-fit frame).
        if (windowSize == defaultSize) m_refitFrames = 2;
        m_appearedSize.reset();
    } else if (!appearing) {
        m_appearedSize.reset();
    }
    if (m_refitFrames > 0) {
        --m_refitFrames;
        m_fittedFor.reset();
    }
    m_windowRect = {fromIm(ImGui::GetWindowPos()),
                    fromIm(ImGui::GetWindowPos()) + fromIm(ImGui::GetWindowSize())};
    if (!rec) {
        ImGui::TextWrapped("Select an agent (click) to see its velocity space.");
        m_fittedFor.reset();
        ImGui::End();
        return hover;
    }
    // The text and the controls scroll in a region of their own above the canvas, so that the
    // canvas keeps at least kMinPlotSide (its height is last frame's, as ImGui sizes a child
    // before its content).
    const float minPlot = kMinPlotSide;
    const float availY = ImGui::GetContentRegionAvail().y;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float textRoom = std::max(availY - minPlot - spacing, ImGui::GetFrameHeightWithSpacing());
    const float textHeight = m_textHeight > 0.0f ? std::min(m_textHeight, textRoom) : textRoom;
    ImGui::BeginChild("##text", {0.0f, textHeight}, false);
    ImGui::PushTextWrapPos(0.0f); // a narrow panel at a large UI scale wraps them
    for (const std::string& s : summaryLines(*rec)) {
        if (isInfeasibleSummary(s))
            ImGui::TextColored(opaque4(palette().kLp3), "%s", s.c_str());
        else
            ImGui::TextUnformatted(s.c_str());
    }
    ImGui::PopTextWrapPos();
    if (mark && !mark->caption.empty()) {
        if (mark->deviates) ImGui::PushStyleColor(ImGuiCol_Text, opaque4(palette().kLintError));
        ImGui::TextWrapped("%s", mark->caption.c_str());
        if (mark->deviates) ImGui::PopStyleColor();
    }

    // Construction mode controls.
    const int neighbors = constructionCount(*rec); // obstacle lines, then agent neighbours
    if (ImGui::Checkbox("Construction", &construction.active) && solve) solve->active = false;
    sameLineIfFits(checkboxWidth("Legend"));
    ImGui::Checkbox("Legend", &m_showLegend);
    sameLineIfFits(buttonWidth("Fit"));
    const bool fitClicked = ImGui::Button("Fit");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show the whole max-speed disk");
    sameLineIfFits(buttonWidth("Focus"));
    const bool focusClicked = ImGui::Button("Focus") || std::exchange(focusRequested, false);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Zoom to the decision: v, v_pref, v_new, the u arrows and the feasible "
                          "region near them (F)");
    sameLineIfFits(buttonWidth("Why?"));
    if (ImGui::Button("Why?")) whyRequested = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Diagnose this agent: why it moves as it does, and what to change");
    if (solve) {
        sameLineIfFits(checkboxWidth("Solve"));
        if (ImGui::Checkbox("Solve", &solve->active) && solve->active) construction.active = false;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Step through the linear programs as they ran (V; arrows step)");
    }
    if (construction.active) {
        construction.neighbor = std::clamp(construction.neighbor, 0, std::max(neighbors - 1, 0));
        construction.phase = std::clamp(construction.phase, 0, ConstructionState::kPhases - 1);
        if (ImGui::ArrowButton("##prevNeighbor", ImGuiDir_Up))
            construction.neighbor = std::max(construction.neighbor - 1, 0);
        ImGui::SameLine();
        if (ImGui::ArrowButton("##nextNeighbor", ImGuiDir_Down))
            construction.neighbor = std::min(construction.neighbor + 1, std::max(neighbors - 1, 0));
        ImGui::SameLine();
        ImGui::Text("neighbour %d/%d", neighbors ? construction.neighbor + 1 : 0, neighbors);
        sameLineIfFits(checkboxWidth("1 VO"));
        ImGui::RadioButton("1 VO", &construction.phase, 0);
        sameLineIfFits(checkboxWidth("2 u"));
        ImGui::RadioButton("2 u", &construction.phase, 1);
        sameLineIfFits(checkboxWidth("3 half-plane"));
        ImGui::RadioButton("3 half-plane", &construction.phase, 2);
    }
    std::optional<ConstructionGeometry> geom;
    if (construction.active) {
        geom = constructionGeometry(*rec, construction);
        ImGui::PushTextWrapPos(0.0f);
        if (geom)
            ImGui::TextUnformatted(geom->caption.c_str());
        else
            ImGui::TextUnformatted(
                "This agent has no neighbours (agents or obstacle segments) to construct.");
        ImGui::PopTextWrapPos();
    }

    std::optional<SolveFrame> solveStep;
    if (solve && solve->active && !construction.active) solveStep = solveControls(*rec, *solve);
    m_textHeight = std::max(ImGui::GetCursorPosY() - spacing, 1.0f);
    ImGui::EndChild();

    // The canvas, or why there is none.
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::GetContentRegionAvail();
    if (size.x < minPlot || size.y < minPlot) {
        char reason[160];
        std::snprintf(reason, sizeof reason,
                      "No room for the plot here (%.0f x %.0f px, it needs %.0f x %.0f): make "
                      "this window larger.",
                      static_cast<double>(std::max(size.x, 0.0f)),
                      static_cast<double>(std::max(size.y, 0.0f)), static_cast<double>(minPlot),
                      static_cast<double>(minPlot));
        m_plotReason = reason;
        ImGui::PushStyleColor(ImGuiCol_Text, opaque4(palette().kLintError));
        ImGui::TextWrapped("%s", reason);
        ImGui::PopStyleColor();
        ImGui::End();
        return hover;
    }
    ImGui::InvisibleButton("##velocityCanvas", size,
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                               ImGuiButtonFlags_MouseButtonMiddle);
    const bool hovered = ImGui::IsItemHovered();
    const bool active = ImGui::IsItemActive();
    m_canvas = {fromIm(p0), fromIm({p0.x + size.x, p0.y + size.y})};
    m_plotRect = m_canvas;

    // Fit when the agent or the construction's space (or its neighbour, in relative space)
    // changes; otherwise keep the user's pan and zoom.
    const int space = geom ? (geom->relativeSpace ? 0 : 1) : -1;
    const int fitNeighbor = geom && geom->relativeSpace ? geom->neighbor : -1;
    if ((focusClicked || (focusOnSelect && m_fittedFor != rec->agent)) && !geom) {
        Rect box = focusBox(*rec);
        // (A marked velocity, e.g. a recorded one, too: with room for the legend below it.)
        if (mark && mark->velocity) box.include(*mark->velocity);
        const double margin = mark && mark->velocity ? 1.6 : 1.2;
        // Half the diagonal, and a margin so that the labels at the edge still fit.
        fit(box.center(), 0.5 * length(box.size()) * margin);
        m_fittedFor = rec->agent;
        m_fittedSpace = space;
        m_fittedNeighbor = fitNeighbor;
    } else if (fitClicked || m_fittedFor != rec->agent || space != m_fittedSpace ||
               fitNeighbor != m_fittedNeighbor) {
        if (geom && geom->relativeSpace) {
            Rect box = Rect::empty();
            box.include(Vec2(0.0, 0.0));
            box.include(geom->relativeVelocity);
            box.include(geom->uEnd);
            const Vec2 r(geom->vo.cutoffRadius);
            box.include(Rect{geom->vo.cutoffCenter - r, geom->vo.cutoffCenter + r});
            box.include(Rect{geom->vo.cutoffCenter2 - r, geom->vo.cutoffCenter2 + r});
            fit(box.center(), 0.65 * length(box.size()));
        } else {
            const double r = std::max({rec->params.maxSpeed, length(rec->velocity),
                                       length(rec->prefVelocity), length(rec->newVelocity)});
            fit({0.0, 0.0}, 1.1 * r);
        }
        m_fittedFor = rec->agent;
        m_fittedSpace = space;
        m_fittedNeighbor = fitNeighbor;
    }

    const ImGuiIO& io = ImGui::GetIO();
    if (active && (ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0.0f) ||
                   ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f)))
        pan(fromIm(io.MouseDelta));
    if (hovered && io.MouseWheel != 0.0f)
        zoomAbout(fromIm(io.MousePos), std::pow(1.2, static_cast<double>(io.MouseWheel)));

    ImDrawList& dl = *ImGui::GetWindowDrawList();
    dl.PushClipRect(p0, {p0.x + size.x, p0.y + size.y}, true);
    dl.AddRectFilled(p0, {p0.x + size.x, p0.y + size.y}, col(palette().kPanelBackground));
    const VelocityTransform t = transform();
    // Every label of the canvas (axis values, overlay labels, binding lines) is laid out
    // together once all are known; the fixed texts and the legend are kept clear.
    drawGrid(dl, t, m_canvas, m_labels);
    OverlayStyle style;
    style.labels = &m_labels;
    if (solveStep) {
        drawSolve(dl, t, m_canvas, *rec, *solveStep);
    } else if (geom) {
        drawConstruction(dl, t, m_canvas, *rec, *geom, style);
        if (hovered) hover = hitTestConstruction(*geom, t, m_canvas, fromIm(io.MousePos));
    } else if (!construction.active) {
        drawVelocitySpace(dl, t, m_canvas, *rec, layers, style, highlight, OverlayView::Panel);
        if (!bindingLines.empty())
            drawBindingLines(dl, t, m_canvas, *rec, bindingLines, true, &m_labels);
        if (mark) {
            if (!mark->violatedLines.empty())
                drawBindingLines(dl, t, m_canvas, *rec, mark->violatedLines, true, &m_labels,
                                 &palette().kLintError, "x");
            if (mark->deviates && mark->velocity) {
                const Vec2 a = t.toScreen(rec->newVelocity);
                const Vec2 b = t.toScreen(*mark->velocity);
                dl.AddLine(toIm(a), toIm(b), col(palette().kLintError), stroke(1.5f));
            }
            drawMark(dl, t, *mark, m_labels);
        }
        if (hovered) hover = hitTest(*rec, t, m_canvas, layers, fromIm(io.MousePos));
    }
    const ImU32 dim = col(panelCaptionColour());
    auto fixedText = [&](ImVec2 at, ImU32 c, const char* text) {
        dl.AddText(at, c, text);
        const ImVec2 ts = ImGui::CalcTextSize(text);
        m_labels.reserve({fromIm(at), fromIm({at.x + ts.x, at.y + ts.y})});
    };
    m_caption =
        velocitySpaceCaption(geom && geom->relativeSpace, geom && geom->obstacle, agentLabel);
    fixedText({p0.x + 6.0f, p0.y + 4.0f}, dim, m_caption.c_str());
    if (rec->lp2Failed() && !construction.active && !solveStep) {
        fixedText({p0.x + 6.0f, p0.y + 6.0f + ImGui::GetTextLineHeight()}, col(palette().kLp3),
                  lp2FailedCaption(rec->lp2Fail).c_str());
    }
    if (hovered) {
        const char* hint = "right/middle drag: pan, wheel: zoom";
        const ImVec2 ts = ImGui::CalcTextSize(hint);
        fixedText({p0.x + size.x - ts.x - 6.0f, p0.y + 4.0f}, dim, hint);
    }

    // The legend only where it leaves most of the plot to see (a small plot at a large scale).
    if (m_showLegend && size.y >= 12.0f * ImGui::GetTextLineHeightWithSpacing()) {
        // Only what this record shows (legends shared with the SVG export, label_style.hpp).
        const std::vector<LegendItem> legend = solveStep ? solveLegend()
                                               : geom    ? constructionLegend(*geom)
                                                         : overlayLegend(*rec, layers);
        m_labels.reserve(drawLegend(dl, m_canvas, legend));
    }
    placeAndDrawLabels(dl, m_labels, m_canvas);
    dl.PopClipRect();
    ImGui::End();
    return hover;
}

} // namespace orca::ui
