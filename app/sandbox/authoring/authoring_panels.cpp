// The scene-authoring windows: new-agent defaults, generators (with a preview in the world
// view) and the linter (issues highlighted in the world view, one-click fixes). Every change
// to the scene goes through commitScene(), so all of it can be undone.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/palette.hpp"

#include "sandbox.hpp"

namespace orca::app {

namespace {

constexpr const char* kGeneratorKinds[] = {"Circle formation", "Grid block",
                                           "Random fill",      "Crossing flows",
                                           "Doorway (walls)",  "Corridor (walls)"};

using ui::palette;

using ui::col;
using ui::toIm;
bool inputDouble(const char* label, double& v, double lo, double hi) {
    double x = v;
    if (!ImGui::InputDouble(label, &x, 0.0, 0.0, "%g")) return false;
    if (!std::isfinite(x)) return false;
    v = std::clamp(x, lo, hi);
    return true;
}

bool inputInt(const char* label, int& v, int lo, int hi) {
    int x = v;
    if (!ImGui::InputInt(label, &x)) return false;
    v = std::clamp(x, lo, hi);
    return true;
}

bool inputVec(const char* label, Vec2& v) {
    double xy[2] = {v.x, v.y};
    if (!ImGui::InputScalarN(label, ImGuiDataType_Double, xy, 2, nullptr, nullptr, "%g"))
        return false;
    if (!std::isfinite(xy[0]) || !std::isfinite(xy[1])) return false;
    v = {xy[0], xy[1]};
    return true;
}

// Runs the chosen generator around what the scene already holds: generated agents never
// overlap its agents or obstacles (a random fill keeps its own minimum spacing from them too).
// Throws std::invalid_argument with a user-facing message.
scene::GeneratorResult runGenerator(const GeneratorState& g, const scene::SceneAgent& prototype,
                                    const scene::Scene& around) {
    switch (g.kind) {
    case GeneratorKind::Circle:
        return scene::generate(g.circle, prototype, scene::surroundingsOf(around));
    case GeneratorKind::Grid:
        return scene::generate(g.grid, prototype, scene::surroundingsOf(around));
    case GeneratorKind::RandomFill:
        return scene::generate(g.fill, prototype, scene::surroundingsOf(around, g.fill.minSpacing));
    case GeneratorKind::Crossing:
        return scene::generate(g.crossing, prototype, scene::surroundingsOf(around));
    case GeneratorKind::Doorway:
        return scene::generate(g.doorway, prototype, scene::surroundingsOf(around));
    case GeneratorKind::Corridor:
        return scene::generate(g.corridor, prototype, scene::surroundingsOf(around));
    }
    return {};
}

} // namespace

void holdGeneratorPreview(GeneratorState& g, std::string reason) {
    g.held = true;
    g.heldReason = std::move(reason);
    g.dirty = true;
    g.preview = {};
}

void refreshGeneratorPreview(SandboxContext& ctx) {
    GeneratorState& g = ctx.editor.generator;
    // Held: nothing is shown, so nothing is generated (holding marks the preview dirty, so it is
    // made anew once shown again).
    if (g.held || (!g.dirty && !g.previewStamp.stale(ctx.doc.editVersion))) return;
    g.dirty = false;
    g.previewStamp.refresh(ctx.doc.editVersion);
    g.error.clear();
    g.preview = {};
    const auto t0 = std::chrono::steady_clock::now();
    try {
        g.preview = runGenerator(g, agentFromTemplate(ctx.editor, {0.0, 0.0}), ctx.doc.scene);
    } catch (const std::exception& e) {
        g.error = e.what();
    }
    g.previewMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool insertGeneratorPreview(SandboxContext& ctx) {
    GeneratorState& g = ctx.editor.generator;
    refreshGeneratorPreview(ctx);
    if (g.held || !g.error.empty() || g.preview.agents.empty()) return false;
    scene::Scene after = ctx.doc.scene;
    const std::size_t first = after.agents.size();
    after.agents.insert(after.agents.end(), g.preview.agents.begin(), g.preview.agents.end());
    // The bottleneck generators bring their walls: inserted with the agents, in one edit.
    after.obstacles.insert(after.obstacles.end(), g.preview.obstacles.begin(),
                           g.preview.obstacles.end());
    const std::string walls = g.preview.obstacles.empty()
                                  ? std::string()
                                  : ", " + std::to_string(g.preview.obstacles.size()) + " walls";
    const std::string label = std::string("Insert ") + kGeneratorKinds[static_cast<int>(g.kind)] +
                              " (" + std::to_string(g.preview.agents.size()) + " agents" + walls +
                              ")";
    if (!commitScene(ctx, std::move(after), label)) return false;
    std::vector<std::size_t> sel;
    for (std::size_t i = first; i < ctx.doc.scene.agents.size(); ++i)
        sel.push_back(i);
    clearEditSelection(ctx);
    selectAgents(ctx, sel);
    setNote(ctx.windows, g.preview.note.empty() ? label : label + ": " + g.preview.note);
    holdGeneratorPreview(g, "inserted");
    return true;
}

namespace {

ui::Rgba severityColour(scene::LintSeverity s) {
    switch (s) {
    case scene::LintSeverity::Error:
        return palette().kLintError;
    case scene::LintSeverity::Warning:
        return palette().kLintWarning;
    case scene::LintSeverity::Info:
        return palette().kLintInfo;
    }
    return palette().kLintInfo;
}

// Selects the issue's agents and obstacles and centres the view on it.
void focusIssue(SandboxContext& ctx, const scene::LintIssue& issue) {
    std::vector<std::size_t> agents;
    clearEditSelection(ctx);
    for (const scene::LintElement& el : issue.elements) {
        using K = scene::LintElement::Kind;
        if ((el.kind == K::Agent || el.kind == K::Goal) && el.index < ctx.doc.scene.agents.size())
            agents.push_back(el.index);
        if ((el.kind == K::Obstacle || el.kind == K::Edge) &&
            el.index < ctx.doc.scene.obstacles.size())
            selectObstacle(ctx.editor, el.index);
        if (el.kind == K::Vertex && el.index < ctx.doc.scene.obstacles.size())
            ctx.editor.vertex = VertexRef{el.index, el.sub};
    }
    selectAgents(ctx, agents);
    if (std::isfinite(issue.where.x) && std::isfinite(issue.where.y))
        ctx.view.camera.setCenter(issue.where);
}

// Where a window first appears (always there in --screenshot mode, which has no window
// layout file).
void placeWindow(const SandboxContext& ctx, ImVec2 pos, ImVec2 size) {
    const ImGuiCond cond = ctx.interactive ? ImGuiCond_FirstUseEver : ImGuiCond_Always;
    ImGui::SetNextWindowPos(pos, cond);
    ImGui::SetNextWindowSize(size, cond);
}

// Which of an issue's elements are drawn: all obstacles, edges and vertices, and the agent and
// goal rings nearest its focus point (ties: element order), at most kMaxLintRingsPerIssue.
void chooseShownElements(const scene::Scene& scene, const scene::LintIssue& issue,
                         std::vector<std::uint32_t>& shown, std::size_t& hidden) {
    using K = scene::LintElement::Kind;
    shown.clear();
    std::vector<std::pair<double, std::uint32_t>> rings; // (distance², element)
    for (std::size_t k = 0; k < issue.elements.size(); ++k) {
        const scene::LintElement& el = issue.elements[k];
        const auto e = static_cast<std::uint32_t>(k);
        if (el.kind != K::Agent && el.kind != K::Goal) {
            shown.push_back(e);
            continue;
        }
        if (el.index >= scene.agents.size()) continue;
        const scene::SceneAgent& a = scene.agents[el.index];
        const Vec2 p = el.kind == K::Goal && a.goal ? *a.goal : a.position;
        const double d = std::isfinite(issue.where.x) && std::isfinite(issue.where.y)
                             ? absSq(p - issue.where)
                             : 0.0;
        rings.emplace_back(d, e);
    }
    const std::size_t keep = std::min(rings.size(), kMaxLintRingsPerIssue);
    const auto kept = rings.begin() + static_cast<std::ptrdiff_t>(keep);
    std::partial_sort(rings.begin(), kept, rings.end());
    hidden = rings.size() - keep;
    for (std::size_t k = 0; k < keep; ++k)
        shown.push_back(rings[k].second);
    std::sort(shown.begin(), shown.end());
}

} // namespace

void refreshLint(SandboxContext& ctx) {
    LintState& l = ctx.editor.lint;
    if (!l.stamp.stale(ctx.doc.editVersion)) return;
    const auto t0 = std::chrono::steady_clock::now();
    l.issues = scene::lintScene(ctx.doc.scene);
    l.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    l.stamp.refresh(ctx.doc.editVersion);
    l.errors = l.warnings = l.infos = 0;
    for (const scene::LintIssue& i : l.issues) {
        switch (i.severity) {
        case scene::LintSeverity::Error:
            ++l.errors;
            break;
        case scene::LintSeverity::Warning:
            ++l.warnings;
            break;
        case scene::LintSeverity::Info:
            ++l.infos;
            break;
        }
    }
    l.shown.resize(l.issues.size());
    l.hiddenRings.assign(l.issues.size(), 0);
    for (std::size_t i = 0; i < l.issues.size(); ++i)
        chooseShownElements(ctx.doc.scene, l.issues[i], l.shown[i], l.hiddenRings[i]);
    if (l.selected >= static_cast<int>(l.issues.size())) l.selected = -1;
}

bool fixLintIssue(SandboxContext& ctx, std::size_t index) {
    refreshLint(ctx);
    LintState& l = ctx.editor.lint;
    if (index >= l.issues.size()) return false;
    const scene::LintIssue issue = l.issues[index];
    scene::Scene after = ctx.doc.scene;
    std::string error;
    if (!scene::applyLintFix(after, issue, &error)) {
        setNote(ctx.windows, "Could not fix: " + error);
        return false;
    }
    return commitScene(ctx, std::move(after), "Fix: " + issue.fixLabel);
}

void drawAgentDefaultsPanel(SandboxContext& ctx) {
    if (!ctx.windows.panels.agentDefaults) return;
    placeWindow(ctx, {10.0f, 450.0f}, {340.0f, 0.0f});
    if (!ImGui::Begin("New-agent defaults", &ctx.windows.panels.agentDefaults)) {
        ImGui::End();
        return;
    }
    ImGui::TextWrapped("Agents placed with the Add agent tool and made by the generators get "
                       "these parameters. Unticked: the scene's default (shown greyed).");
    scene::SceneAgent& t = ctx.editor.newAgent;
    AgentParams defaults = ctx.doc.scene.agentDefaults;
    ImGui::PushItemWidth(140.0f);
    scene::forEachAgentParam(
        t.overrides, defaults, [&](std::string_view key, auto& value, auto& sceneDefault) {
            const std::string name(key);
            ImGui::PushID(name.c_str());
            bool set = value.has_value();
            if (ImGui::Checkbox("##set", &set)) {
                if (set)
                    value = sceneDefault;
                else
                    value.reset();
            }
            ImGui::SameLine();
            if (!set) ImGui::BeginDisabled();
            auto shown = value.value_or(sceneDefault);
            using T = std::decay_t<decltype(shown)>;
            bool changed = false;
            if constexpr (std::is_same_v<T, int>)
                changed = ImGui::InputInt(name.c_str(), &shown);
            else
                changed = ImGui::InputDouble(name.c_str(), &shown, 0.0, 0.0, "%g");
            if (changed && set) value = shown;
            if (!set) ImGui::EndDisabled();
            ImGui::PopID();
        });
    ImGui::PopItemWidth();
    ImGui::Checkbox("static (immovable)", &t.isStatic);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("goalRadius -1 = the agent's radius. Values are checked when an agent "
                        "is placed: an invalid one refuses the edit with a message.");
    ImGui::PopTextWrapPos();
    ImGui::End();
}

void drawGeneratorsPanel(SandboxContext& ctx) {
    GeneratorState& g = ctx.editor.generator;
    if (!ctx.windows.panels.generators) return;
    placeWindow(ctx, {10.0f, 40.0f}, {360.0f, 0.0f});
    if (!ImGui::Begin("Generators", &ctx.windows.panels.generators)) {
        ImGui::End();
        return;
    }
    int kind = static_cast<int>(g.kind);
    ImGui::SetNextItemWidth(200.0f);
    bool edited = false; // a parameter changed this frame: a new preview, shown again
    if (ImGui::Combo("Generator", &kind, kGeneratorKinds, IM_ARRAYSIZE(kGeneratorKinds))) {
        g.kind = static_cast<GeneratorKind>(kind);
        edited = true;
    }
    const Vec2 viewCentre = ctx.view.camera.center();
    bool& d = edited;
    ImGui::PushItemWidth(160.0f);
    switch (g.kind) {
    case GeneratorKind::Circle:
        d |= inputVec("centre", g.circle.center);
        d |= inputDouble("radius", g.circle.radius, 1e-6, 1e6);
        d |= inputInt("agents", g.circle.count, 1, scene::kMaxGeneratedAgents);
        d |= inputDouble("start angle (deg)", g.circle.startAngleDeg, -360.0, 360.0);
        ImGui::TextDisabled("Goals: the antipodes (every agent crosses the centre).");
        if (ImGui::Button("Centre on the view")) {
            g.circle.center = snapPoint(ctx.editor, viewCentre);
            d = true;
        }
        break;
    case GeneratorKind::Grid:
        d |= inputVec("centre", g.grid.center);
        d |= inputInt("rows", g.grid.rows, 1, 1000);
        d |= inputInt("columns", g.grid.columns, 1, 1000);
        d |= inputDouble("spacing", g.grid.spacing, 1e-6, 1e6);
        d |= ImGui::Checkbox("with goals", &g.grid.withGoals);
        if (g.grid.withGoals) d |= inputVec("goal offset", g.grid.goalOffset);
        if (ImGui::Button("Centre on the view")) {
            g.grid.center = snapPoint(ctx.editor, viewCentre);
            d = true;
        }
        break;
    case GeneratorKind::RandomFill: {
        int mode = g.fill.density > 0.0 ? 1 : 0;
        if (ImGui::RadioButton("count", mode == 0)) {
            g.fill.density = 0.0;
            d = true;
        }
        ImGui::SameLine();
        if (ImGui::RadioButton("density", mode == 1) && mode == 0) {
            g.fill.density = 0.05;
            d = true;
        }
        if (g.fill.density > 0.0)
            d |= inputDouble("agents per unit²", g.fill.density, 1e-9, 100.0);
        else
            d |= inputInt("agents", g.fill.count, 1, scene::kMaxGeneratedAgents);
        d |= inputDouble("min spacing", g.fill.minSpacing, 1e-6, 1e6);
        int seed = static_cast<int>(g.fill.seed);
        if (inputInt("seed", seed, 0, 1 << 30)) {
            g.fill.seed = static_cast<std::uint32_t>(seed);
            d = true;
        }
        static constexpr const char* kGoals[] = {"no goals", "mirrored through the centre",
                                                 "random in the region"};
        int goals = static_cast<int>(g.fill.goals);
        if (ImGui::Combo("goals", &goals, kGoals, IM_ARRAYSIZE(kGoals))) {
            g.fill.goals = static_cast<scene::RandomFill::Goals>(goals);
            d = true;
        }
        ImGui::Text("Region: %s, %zu vertices", g.regionIsRectangle ? "rectangle" : "polygon",
                    g.fill.region.size());
        if (g.regionIsRectangle) {
            d |= inputVec("min corner", g.rectMin);
            d |= inputVec("max corner", g.rectMax);
            if (d) g.fill.region = scene::rectangleRegion(g.rectMin, g.rectMax);
        }
        if (ImGui::Button("Visible area")) {
            const ui::Rect r = ctx.view.camera.visibleWorld();
            const Vec2 margin = r.size() * 0.1;
            g.rectMin = snapPoint(ctx.editor, r.min + margin);
            g.rectMax = snapPoint(ctx.editor, r.max - margin);
            g.regionIsRectangle = true;
            g.fill.region = scene::rectangleRegion(g.rectMin, g.rectMax);
            d = true;
        }
        ImGui::SameLine();
        if (ImGui::Button("Draw a polygon...")) {
            setTool(ctx, Tool::Obstacle);
            ctx.editor.drawingRegion = true;
            setNote(ctx.windows,
                    "Click the region's vertices; click the first one or press Enter to "
                    "close");
        }
        if (g.fill.region.empty()) {
            g.fill.region = scene::rectangleRegion(g.rectMin, g.rectMax);
            d = true;
        }
        break;
    }
    case GeneratorKind::Crossing:
        d |= inputVec("centre", g.crossing.center);
        d |= inputInt("agents per flow", g.crossing.perFlow, 1, scene::kMaxGeneratedAgents / 2);
        d |= inputDouble("lane width", g.crossing.laneWidth, 0.0, 1e6);
        d |= inputDouble("distance to centre", g.crossing.length, 0.0, 1e6);
        d |= inputDouble("spacing", g.crossing.spacing, 1e-6, 1e6);
        d |= inputDouble("angle (deg)", g.crossing.angleDeg, -360.0, 360.0);
        if (ImGui::Button("Centre on the view")) {
            g.crossing.center = snapPoint(ctx.editor, viewCentre);
            d = true;
        }
        break;
    case GeneratorKind::Doorway:
        d |= inputVec("gap centre", g.doorway.center);
        d |= inputInt("agents per side", g.doorway.perSide, 1, scene::kMaxGeneratedAgents / 2);
        d |= inputDouble("gap width (-1: 2.4 r)", g.doorway.gapWidth, -1.0, 1e6);
        d |= inputDouble("wall length", g.doorway.wallLength, 1e-6, 1e6);
        d |= inputDouble("wall thickness", g.doorway.wallThickness, 1e-6, 1e6);
        d |= inputDouble("spacing (-1: 3 r)", g.doorway.spacing, -1.0, 1e6);
        d |= inputDouble("distance to the wall", g.doorway.distance, 0.0, 1e6);
        d |= ImGui::Checkbox("routes through the gap (waypoints)", &g.doorway.routes);
        ImGui::TextDisabled("Two groups swap sides through the gap; walls are inserted too.");
        if (ImGui::Button("Centre on the view")) {
            g.doorway.center = snapPoint(ctx.editor, viewCentre);
            d = true;
        }
        break;
    case GeneratorKind::Corridor:
        d |= inputVec("centre", g.corridor.center);
        d |= inputInt("agents per flow", g.corridor.perFlow, 1, scene::kMaxGeneratedAgents / 2);
        d |= inputDouble("length", g.corridor.length, 1e-6, 1e6);
        d |= inputDouble("width", g.corridor.width, 1e-6, 1e6);
        d |= inputDouble("wall thickness", g.corridor.wallThickness, 1e-6, 1e6);
        d |= inputDouble("spacing (-1: 3 r)", g.corridor.spacing, -1.0, 1e6);
        d |= inputDouble("distance to the ends", g.corridor.distance, 0.0, 1e6);
        d |= ImGui::Checkbox("keep right (waypoints)", &g.corridor.keepRight);
        ImGui::TextDisabled("Two flows pass in a corridor; walls are inserted too.");
        if (ImGui::Button("Centre on the view")) {
            g.corridor.center = snapPoint(ctx.editor, viewCentre);
            d = true;
        }
        break;
    }
    ImGui::PopItemWidth();
    if (ImGui::IsWindowAppearing()) edited = true;
    if (edited) {
        g.dirty = true;
        g.held = false;
    }
    refreshGeneratorPreview(ctx);

    ImGui::Separator();
    ImGui::Checkbox("Preview in the view", &g.showPreview);
    if (!g.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ui::opaque4(palette().kLintError));
        ImGui::TextWrapped("%s", g.error.c_str());
        ImGui::PopStyleColor();
    } else {
        if (g.preview.obstacles.empty())
            ImGui::Text("%zu agents (%.1f ms)", g.preview.agents.size(), g.previewMs);
        else
            ImGui::Text("%zu agents, %zu walls (%.1f ms)", g.preview.agents.size(),
                        g.preview.obstacles.size(), g.previewMs);
        // E.g. "placed 7 of 9: 2 would overlap existing agents": said loudly, it is a choice.
        const bool leftOut = g.preview.unplaced > 0;
        if (leftOut) ImGui::PushStyleColor(ImGuiCol_Text, ui::opaque4(palette().kLintWarning));
        if (!g.preview.note.empty()) ImGui::TextWrapped("%s", g.preview.note.c_str());
        if (leftOut) ImGui::PopStyleColor();
    }
    ImGui::TextDisabled("Agents take the new-agent defaults (N).");
    if (g.held) {
        // Inserted, or another scene opened: the old preview is not shown (nor inserted again).
        ImGui::TextWrapped("No preview: %s. Change a parameter or click Preview.",
                           g.heldReason.c_str());
        if (ImGui::Button("Preview", {120.0f, 0.0f})) {
            g.held = false;
            g.dirty = true;
        }
        ImGui::End();
        return;
    }
    const bool can = g.error.empty() && !g.preview.agents.empty();
    if (!can) ImGui::BeginDisabled();
    if (ImGui::Button("Insert", {120.0f, 0.0f})) insertGeneratorPreview(ctx);
    if (!can) ImGui::EndDisabled();
    ImGui::End();
}

void drawLinterPanel(SandboxContext& ctx) {
    if (!ctx.windows.panels.linter) return;
    refreshLint(ctx);
    LintState& l = ctx.editor.lint;
    const ImGuiIO& io = ImGui::GetIO();
    placeWindow(ctx, {io.DisplaySize.x - 430.0f, 40.0f},
                {420.0f, std::min(560.0f, io.DisplaySize.y - 80.0f)});
    if (!ImGui::Begin("Linter", &ctx.windows.panels.linter)) {
        ImGui::End();
        return;
    }
    ImGui::TextColored(ui::opaque4(palette().kLintError), "%zu errors", l.errors);
    ImGui::SameLine();
    ImGui::TextColored(ui::opaque4(palette().kLintWarning), "%zu warnings", l.warnings);
    ImGui::SameLine();
    ImGui::TextColored(ui::opaque4(palette().kLintInfo), "%zu notes", l.infos);
    ImGui::SameLine();
    ImGui::TextDisabled("(%.1f ms)", l.ms);
    if (l.issues.empty()) ImGui::TextUnformatted("No ORCA hazards found in this scene.");
    std::optional<std::size_t> fix;
    if (ImGui::BeginTable("issues", 3,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                              ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("severity", ImGuiTableColumnFlags_WidthFixed, 56.0f);
        ImGui::TableSetupColumn("issue", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("fix", ImGuiTableColumnFlags_WidthFixed, 110.0f);
        for (std::size_t i = 0; i < l.issues.size(); ++i) {
            const scene::LintIssue& is = l.issues[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextColored(ui::opaque4(severityColour(is.severity)), "%s",
                               scene::severityName(is.severity));
            ImGui::TableNextColumn();
            const std::string text = is.jsonPath + ": " + is.message;
            if (ImGui::Selectable(("##row" + std::to_string(i)).c_str(),
                                  l.selected == static_cast<int>(i),
                                  ImGuiSelectableFlags_AllowItemOverlap)) {
                l.selected = static_cast<int>(i);
                focusIssue(ctx, is);
            }
            if (ImGui::IsItemHovered()) l.hovered = static_cast<int>(i);
            ImGui::SameLine(0.0f, 0.0f);
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(text.c_str());
            ImGui::PopTextWrapPos();
            ImGui::TextDisabled("[%s]", is.rule.c_str());
            ImGui::TableNextColumn();
            if (!is.fixLabel.empty() && ImGui::SmallButton(is.fixLabel.c_str())) fix = i;
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::End();
    if (fix) fixLintIssue(ctx, *fix);
}

void drawAuthoringOverlay(SandboxContext& ctx, ImDrawList& dl) {
    const ui::Camera& cam = ctx.view.camera;
    // Generator preview: ghost agents with their goals.
    const GeneratorState& g = ctx.editor.generator;
    if (ctx.windows.panels.generators && g.showPreview && !g.held && g.error.empty()) {
        const ui::Rect view = cam.visibleWorld();
        if (g.kind == GeneratorKind::RandomFill && g.fill.region.size() >= 3) {
            std::vector<ImVec2> pts;
            for (const Vec2 p : g.fill.region)
                pts.push_back(toIm(cam.worldToScreen(p)));
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()),
                           col(palette().kEditPreview, 200), ImDrawFlags_Closed, 1.5f);
        }
        for (const scene::SceneObstacle& o : g.preview.obstacles) {
            std::vector<ImVec2> pts;
            for (const Vec2 p : o.vertices)
                pts.push_back(toIm(cam.worldToScreen(p)));
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()),
                           col(palette().kEditPreview, 200), ImDrawFlags_Closed, 1.5f);
        }
        for (const scene::SceneAgent& a : g.preview.agents) {
            if (!view.expanded(5.0).contains(a.position)) continue;
            const double r = ctx.doc.scene.resolvedParams(a).radius * cam.scale();
            const Vec2 s = cam.worldToScreen(a.position);
            dl.AddCircle(toIm(s), static_cast<float>(std::max(r, 2.0)),
                         col(palette().kEditPreview, 200), 20, 1.5f);
            if (a.goal) {
                const Vec2 gs = cam.worldToScreen(*a.goal);
                dl.AddLine(toIm(s), toIm(gs), col(palette().kEditPreview, 40), 1.0f);
                dl.AddCircle(toIm(gs), 2.5f, col(palette().kEditPreview, 160));
            }
        }
    }
    // Linter: every issue's elements ringed in its severity's colour (agents and goals capped
    // per issue), the selected or hovered issue stronger.
    if (!ctx.windows.panels.linter) return;
    refreshLint(ctx);
    LintState& l = ctx.editor.lint;
    l.ringsDrawn = 0;
    const ui::Rect viewport = cam.viewport().expanded(40.0);
    for (std::size_t i = 0; i < l.issues.size(); ++i) {
        const scene::LintIssue& is = l.issues[i];
        const bool strong = static_cast<int>(i) == l.selected || static_cast<int>(i) == l.hovered;
        const ImU32 c = col(severityColour(is.severity), 255);
        const float w = strong ? 3.5f : 2.0f;
        // The rule's name beside the issue (the first hundred issues; more would be noise), laid
        // out with the view's other labels; it counts the agents not ringed.
        if (i < 100 && std::isfinite(is.where.x) && std::isfinite(is.where.y) &&
            cam.visibleWorld().contains(is.where)) {
            std::string text = is.rule;
            if (l.hiddenRings[i] > 0)
                text += " (+" + std::to_string(l.hiddenRings[i]) + " more agents)";
            ctx.view.worldLabels.add(ui::labelRequest(cam.worldToScreen(is.where), text.c_str(), c,
                                                      strong ? 0 : -1, ui::LabelSide::BelowRight,
                                                      is.rule.c_str()));
        }
        for (const std::uint32_t e : l.shown[i]) {
            const scene::LintElement& el = is.elements[e];
            using K = scene::LintElement::Kind;
            switch (el.kind) {
            case K::Agent:
                if (el.index < ctx.doc.scene.agents.size()) {
                    // Culled to the view; agents only a few pixels wide get a cheap square
                    // (a grouped issue may list every agent of a 10,000-agent scene).
                    const scene::SceneAgent& a = ctx.doc.scene.agents[el.index];
                    const Vec2 p = cam.worldToScreen(a.position);
                    if (!viewport.contains(p)) break;
                    const double r = ctx.doc.scene.resolvedParams(a).radius * cam.scale();
                    ++l.ringsDrawn;
                    if (r < 3.0)
                        dl.AddRect(toIm(p - Vec2(4.0)), toIm(p + Vec2(4.0)), c);
                    else
                        dl.AddCircle(toIm(p), static_cast<float>(r + 4.0), c, r < 12.0 ? 12 : 24,
                                     w);
                }
                break;
            case K::Goal:
                if (el.index < ctx.doc.scene.agents.size() && ctx.doc.scene.agents[el.index].goal) {
                    ++l.ringsDrawn;
                    dl.AddCircle(toIm(cam.worldToScreen(*ctx.doc.scene.agents[el.index].goal)),
                                 8.0f, c, 12, w);
                }
                break;
            case K::Obstacle:
            case K::Edge:
            case K::Vertex:
                if (el.index < ctx.doc.scene.obstacles.size()) {
                    const std::vector<Vec2>& v = ctx.doc.scene.obstacles[el.index].vertices;
                    if (el.kind == K::Vertex && el.sub < v.size()) {
                        dl.AddCircle(toIm(cam.worldToScreen(v[el.sub])), 9.0f, c, 12, w);
                    } else if (el.kind == K::Edge && el.sub < v.size() && v.size() >= 2) {
                        dl.AddLine(toIm(cam.worldToScreen(v[el.sub])),
                                   toIm(cam.worldToScreen(v[(el.sub + 1) % v.size()])), c,
                                   w + 2.0f);
                    } else {
                        std::vector<ImVec2> pts;
                        for (const Vec2 p : v)
                            pts.push_back(toIm(cam.worldToScreen(p)));
                        dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), c,
                                       v.size() > 2 ? ImDrawFlags_Closed : 0, w + 1.0f);
                    }
                }
                break;
            case K::Simulation:
                break;
            }
        }
    }
    l.hovered = -1;
}

} // namespace orca::app
