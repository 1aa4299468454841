#include "editor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include <imgui.h>

#include "orca/geometry.hpp"
#include "orca/obstacles.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "sandbox.hpp"

namespace orca::app {

namespace {

using ui::palette;

constexpr double kVertexPickPixels = 7.0;
constexpr double kGoalPickPixels = 6.0;
constexpr double kEdgePickPixels = 5.0;
constexpr double kClosePickPixels = 8.0;
constexpr double kDragThresholdPixels = 3.0;

using ui::col;
using ui::toIm;

bool contains(const std::vector<std::size_t>& sorted, std::size_t i) {
    return std::binary_search(sorted.begin(), sorted.end(), i);
}

void toggleSorted(std::vector<std::size_t>& sorted, std::size_t i) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), i);
    if (it != sorted.end() && *it == i)
        sorted.erase(it);
    else
        sorted.insert(it, i);
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "3 agents, 1 obstacle" (parts that are zero left out).
std::string countText(std::size_t agents, std::size_t obstacles) {
    std::string s;
    if (agents) s = plural(agents, "agent", "agents");
    if (obstacles) s += (s.empty() ? "" : ", ") + plural(obstacles, "obstacle", "obstacles");
    return s.empty() ? "nothing" : s;
}

// Centre of the bounding box of a scene's agents and obstacle vertices.
std::optional<Vec2> contentCentre(const scene::Scene& s) {
    bool any = false;
    Vec2 lo{0, 0};
    Vec2 hi{0, 0};
    auto include = [&](Vec2 p) {
        if (!any) {
            lo = hi = p;
            any = true;
        }
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    };
    for (const scene::SceneAgent& a : s.agents)
        include(a.position);
    for (const scene::SceneObstacle& o : s.obstacles)
        for (const Vec2 v : o.vertices)
            include(v);
    if (!any) return std::nullopt;
    return (lo + hi) * 0.5;
}

void translateAgent(scene::SceneAgent& a, Vec2 d, bool withGoal) {
    a.position = a.position + d;
    if (withGoal && a.goal) a.goal = *a.goal + d;
}

// Builds the clipboard scene from the selection.
scene::Scene selectionAsScene(const SandboxContext& ctx) {
    scene::Scene clip;
    clip.name = "clipboard";
    clip.agentDefaults = ctx.scene.agentDefaults;
    clip.simulation = ctx.scene.simulation;
    clip.extra = nlohmann::ordered_json::object();
    for (const std::size_t i : selectedAgents(ctx))
        clip.agents.push_back(ctx.scene.agents[i]);
    for (const std::size_t i : ctx.editor.obstacles)
        if (i < ctx.scene.obstacles.size()) clip.obstacles.push_back(ctx.scene.obstacles[i]);
    return clip;
}

// Appends `content` to the scene moved by `offset`, selects what was added.
void insertContent(SandboxContext& ctx, const scene::Scene& content, Vec2 offset,
                   const std::string& label) {
    scene::Scene after = ctx.scene;
    const std::size_t firstAgent = after.agents.size();
    const std::size_t firstObstacle = after.obstacles.size();
    for (scene::SceneAgent a : content.agents) {
        rebaseOverrides(a, content.agentDefaults, after.agentDefaults);
        translateAgent(a, offset, true);
        a.id.reset(); // ids name one agent; a copy is another
        after.agents.push_back(std::move(a));
    }
    for (scene::SceneObstacle o : content.obstacles) {
        for (Vec2& v : o.vertices)
            v = v + offset;
        o.id.reset();
        after.obstacles.push_back(std::move(o));
    }
    const std::size_t agents = after.agents.size() - firstAgent;
    const std::size_t obstacles = after.obstacles.size() - firstObstacle;
    if (!commitScene(ctx, std::move(after), label + " " + countText(agents, obstacles))) return;
    std::vector<std::size_t> sel;
    for (std::size_t i = firstAgent; i < ctx.scene.agents.size(); ++i)
        sel.push_back(i);
    selectAgents(ctx, sel);
    ctx.editor.obstacles.clear();
    for (std::size_t i = firstObstacle; i < ctx.scene.obstacles.size(); ++i)
        ctx.editor.obstacles.push_back(i);
    ctx.editor.vertex.reset();
}

// The scene with the selection moved by `d` (agents keep their goals).
scene::Scene movedSelection(const SandboxContext& ctx, const scene::Scene& base, Vec2 d,
                            const EditHit* grabbed) {
    scene::Scene after = base;
    if (grabbed && grabbed->kind == EditHit::Kind::Goal) {
        scene::SceneAgent& a = after.agents[grabbed->index];
        if (a.goal) a.goal = *base.agents[grabbed->index].goal + d;
        return after;
    }
    if (grabbed && grabbed->kind == EditHit::Kind::Vertex) {
        after.obstacles[grabbed->index].vertices[grabbed->sub] =
            base.obstacles[grabbed->index].vertices[grabbed->sub] + d;
        return after;
    }
    for (const std::size_t i : selectedAgents(ctx))
        if (i < after.agents.size()) after.agents[i].position = base.agents[i].position + d;
    for (const std::size_t i : ctx.editor.obstacles)
        if (i < after.obstacles.size())
            for (Vec2& v : after.obstacles[i].vertices)
                v = v + d;
    if (ctx.editor.vertex && !grabbed) {
        const VertexRef r = *ctx.editor.vertex;
        if (r.obstacle < after.obstacles.size() &&
            r.vertex < after.obstacles[r.obstacle].vertices.size() &&
            !contains(ctx.editor.obstacles, r.obstacle))
            after.obstacles[r.obstacle].vertices[r.vertex] =
                base.obstacles[r.obstacle].vertices[r.vertex] + d;
    }
    return after;
}

bool hasSelection(const SandboxContext& ctx) {
    return !ctx.selection.empty() || !ctx.editor.obstacles.empty() || ctx.editor.vertex;
}

std::size_t agentUnder(const SandboxContext& ctx, Vec2 screen, bool* found) {
    const ui::Camera& cam = ctx.camera;
    double best = 0.0;
    std::size_t bestIndex = 0;
    *found = false;
    for (std::size_t i = 0; i < ctx.scene.agents.size(); ++i) {
        const scene::SceneAgent& a = ctx.scene.agents[i];
        const double r = std::max(ctx.scene.resolvedParams(a).radius * cam.scale(), 4.0);
        const double d = length(cam.worldToScreen(a.position) - screen);
        if (d <= r && (!*found || d < best)) {
            best = d;
            bestIndex = i;
            *found = true;
        }
    }
    return bestIndex;
}

} // namespace

const char* toolName(Tool tool) {
    switch (tool) {
    case Tool::Inspect:
        return "Inspect";
    case Tool::Select:
        return "Select / move";
    case Tool::AddAgent:
        return "Add agent";
    case Tool::Goal:
        return "Goal";
    case Tool::Obstacle:
        return "Obstacle";
    }
    return "?";
}

bool editing(const SandboxContext& ctx) {
    return ctx.editor.tool != Tool::Inspect;
}

void setTool(SandboxContext& ctx, Tool tool) {
    EditorState& e = ctx.editor;
    if (e.tool == tool) return;
    whatIfSettle(ctx);
    e.tool = tool;
    e.drawing.clear();
    e.drawingRegion = false;
    e.drag = {};
    if (tool != Tool::Inspect) ctx.construction.active = false;
}

void beginEditing(SandboxContext& ctx) {
    ctx.running = false;
    if (ctx.sim.stepCount() != 0) {
        restartScene(ctx);
        setNote(ctx, "Editing the scene: the simulation went back to its start");
    }
}

bool commitScene(SandboxContext& ctx, scene::Scene after, std::string label,
                 const std::string& mergeKey) {
    scene::SceneEdit edit = scene::SceneEdit::diff(ctx.scene, after, std::move(label));
    if (edit.empty()) return false;
    beginEditing(ctx);
    std::string error;
    if (!replaceScene(ctx, std::move(after), error)) {
        ctx.messages.push("Edit refused", edit.label + ": " + error +
                                              "\n\nThe scene is unchanged (check the "
                                              "new-agent defaults, N).");
        ctx.editor.drag = {};
        return false;
    }
    ctx.editor.history.record(std::move(edit), mergeKey);
    return true;
}

void sealEdits(SandboxContext& ctx) {
    ctx.editor.history.seal();
    sealParameterEdits(ctx);
}

namespace {

// Undo (or redo) one step of the history on the scene, then rebuild the simulation from it.
void walkHistory(SandboxContext& ctx, bool redo) {
    // A parameter edit made at a past step: its undo puts back the recording it cut.
    if (!redo && whatIfRevert(ctx)) return; // a preview is undone by dropping it
    if (!redo && undoKeptRunEdit(ctx)) return;
    if (!redo && undoCutRecording(ctx)) return;
    sealParameterEdits(ctx);
    beginEditing(ctx);
    scene::EditHistory& h = ctx.editor.history;
    const std::string label = redo ? h.redoLabel() : h.undoLabel();
    const char* what = redo ? "Redo" : "Undo";
    try {
        if (!(redo ? h.redo(ctx.scene) : h.undo(ctx.scene))) {
            setNote(ctx, std::string("Nothing to ") + (redo ? "redo" : "undo"));
            return;
        }
    } catch (const std::exception& e) {
        // The history no longer matches the scene (a bug): keep the scene, drop the history.
        ctx.messages.push(std::string(what) + " failed", e.what());
        h.clear();
        return;
    }
    ctx.editor.vertex.reset();
    ctx.editor.obstacles.clear();
    ctx.editor.drawing.clear();
    sceneEdited(ctx);
    setNote(ctx, std::string(what) + ": " + label);
}

} // namespace

void undoEdit(SandboxContext& ctx) {
    walkHistory(ctx, false);
}

void redoEdit(SandboxContext& ctx) {
    walkHistory(ctx, true);
}

std::vector<std::size_t> selectedAgents(const SandboxContext& ctx) {
    std::vector<std::size_t> out = ctx.selection.indices(ctx.sim);
    std::sort(out.begin(), out.end());
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](std::size_t i) { return i >= ctx.scene.agents.size(); }),
              out.end());
    return out;
}

void selectAgents(SandboxContext& ctx, const std::vector<std::size_t>& indices, bool add) {
    std::vector<AgentId> ids;
    if (add)
        for (const AgentId id : ctx.selection.ids())
            ids.push_back(id);
    for (const std::size_t i : indices)
        if (i < ctx.sim.agentCount()) {
            const AgentId id = ctx.sim.agentIdAt(i);
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    ctx.selection.set(std::move(ids));
    ctx.recordsVersion = ~std::uint64_t{0};
}

void selectObstacle(EditorState& editor, std::size_t obstacle) {
    std::vector<std::size_t>& sel = editor.obstacles;
    const auto it = std::lower_bound(sel.begin(), sel.end(), obstacle);
    if (it == sel.end() || *it != obstacle) sel.insert(it, obstacle);
}

void clearEditSelection(SandboxContext& ctx) {
    ctx.selection.clear();
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    ctx.recordsVersion = ~std::uint64_t{0};
}

void deleteSelection(SandboxContext& ctx) {
    EditorState& e = ctx.editor;
    if (!e.drawing.empty()) {
        e.drawing.pop_back();
        return;
    }
    scene::Scene after = ctx.scene;
    if (e.vertex && e.vertex->obstacle < after.obstacles.size()) {
        const VertexRef r = *e.vertex;
        std::vector<Vec2>& v = after.obstacles[r.obstacle].vertices;
        if (r.vertex >= v.size()) return;
        std::string label = "Delete vertex";
        if (v.size() <= 2) {
            after.obstacles.erase(after.obstacles.begin() +
                                  static_cast<std::ptrdiff_t>(r.obstacle));
            label = "Delete obstacle (its last edge)";
        } else {
            v.erase(v.begin() + static_cast<std::ptrdiff_t>(r.vertex));
        }
        e.vertex.reset();
        e.obstacles.clear();
        commitScene(ctx, std::move(after), label);
        return;
    }
    const std::vector<std::size_t> agents = selectedAgents(ctx);
    const std::vector<std::size_t> obstacles = e.obstacles;
    if (agents.empty() && obstacles.empty()) {
        setNote(ctx, "Nothing selected to delete");
        return;
    }
    for (auto it = agents.rbegin(); it != agents.rend(); ++it)
        after.agents.erase(after.agents.begin() + static_cast<std::ptrdiff_t>(*it));
    for (auto it = obstacles.rbegin(); it != obstacles.rend(); ++it)
        if (*it < after.obstacles.size())
            after.obstacles.erase(after.obstacles.begin() + static_cast<std::ptrdiff_t>(*it));
    clearEditSelection(ctx);
    commitScene(ctx, std::move(after), "Delete " + countText(agents.size(), obstacles.size()));
}

void duplicateSelection(SandboxContext& ctx) {
    const scene::Scene clip = selectionAsScene(ctx);
    if (clip.agents.empty() && clip.obstacles.empty()) {
        setNote(ctx, "Nothing selected to duplicate");
        return;
    }
    // Beside the original: one agent diameter (or grid step) to the right, on the grid.
    double radius = 0.0;
    for (const scene::SceneAgent& a : clip.agents)
        radius = std::max(radius, clip.resolvedParams(a).radius);
    double dx = std::max(2.0 * radius + 0.5, 1.0);
    if (ctx.editor.snap) dx = std::ceil(dx / ctx.editor.snapStep) * ctx.editor.snapStep;
    insertContent(ctx, clip, {dx, 0.0}, "Duplicate");
}

void copySelection(SandboxContext& ctx) {
    scene::Scene clip = selectionAsScene(ctx);
    if (clip.agents.empty() && clip.obstacles.empty()) {
        setNote(ctx, "Nothing selected to copy");
        return;
    }
    const std::string text = scene::serializeScene(clip);
    if (ImGui::GetCurrentContext()) ImGui::SetClipboardText(text.c_str());
    setNote(ctx, "Copied " + countText(clip.agents.size(), clip.obstacles.size()));
    ctx.editor.clipboard.content = std::move(clip);
}

void cutSelection(SandboxContext& ctx) {
    copySelection(ctx);
    deleteSelection(ctx);
}

void paste(SandboxContext& ctx, std::optional<Vec2> at) {
    scene::Scene content = ctx.editor.clipboard.content;
    // The system clipboard wins when it holds a scene (copied in another sandbox, or a scene
    // file's text copied from an editor).
    if (ImGui::GetCurrentContext()) {
        const char* text = ImGui::GetClipboardText();
        if (text && *text == '{') {
            try {
                content = scene::parseScene(text, "clipboard").scene;
            } catch (const std::exception&) {
                // Not a scene: keep the internal clipboard.
            }
        }
    }
    if (content.agents.empty() && content.obstacles.empty()) {
        setNote(ctx, "The clipboard is empty");
        return;
    }
    const Vec2 centre = contentCentre(content).value_or(Vec2{0.0, 0.0});
    Vec2 offset{1.0, -1.0};
    if (at) offset = snapPoint(ctx.editor, *at) - snapPoint(ctx.editor, centre);
    insertContent(ctx, content, offset, "Paste");
}

void selectAll(SandboxContext& ctx) {
    std::vector<std::size_t> all(ctx.scene.agents.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    selectAgents(ctx, all);
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    if (editing(ctx))
        for (std::size_t i = 0; i < ctx.scene.obstacles.size(); ++i)
            ctx.editor.obstacles.push_back(i);
}

void nudgeSelection(SandboxContext& ctx, Vec2 direction) {
    if (!hasSelection(ctx)) return;
    const double step =
        (ctx.editor.snap ? ctx.editor.snapStep : 0.1) * (ctx.editor.nudgeBig ? 10.0 : 1.0);
    scene::Scene after = movedSelection(ctx, ctx.scene, direction * step, nullptr);
    commitScene(ctx, std::move(after), "Nudge", "nudge");
}

void reverseSelectedWinding(SandboxContext& ctx) {
    std::vector<std::size_t> targets = ctx.editor.obstacles;
    if (ctx.editor.vertex && !contains(targets, ctx.editor.vertex->obstacle))
        targets.push_back(ctx.editor.vertex->obstacle);
    if (targets.empty()) {
        setNote(ctx, "Select an obstacle to reverse its winding");
        return;
    }
    scene::Scene after = ctx.scene;
    for (const std::size_t i : targets)
        if (i < after.obstacles.size())
            std::reverse(after.obstacles[i].vertices.begin(), after.obstacles[i].vertices.end());
    ctx.editor.vertex.reset();
    commitScene(ctx, std::move(after),
                "Reverse winding of " + plural(targets.size(), "obstacle", "obstacles"));
}

bool closeDrawing(SandboxContext& ctx) {
    EditorState& e = ctx.editor;
    if (e.tool != Tool::Obstacle || e.drawing.empty()) return false;
    if (e.drawing.size() < 2) {
        setNote(ctx, "An obstacle needs at least 2 vertices (2 = a wall segment)");
        return false;
    }
    const PolygonCheck check = checkPolygon(e.drawing);
    if (!check.valid) {
        setNote(ctx, "Cannot close this polygon: " + check.error);
        return false;
    }
    if (e.drawingRegion) {
        // The random fill's region, not an obstacle.
        if (e.drawing.size() < 3) {
            setNote(ctx, "A region needs at least 3 vertices");
            return false;
        }
        e.generator.fill.region = e.drawing;
        e.generator.regionIsRectangle = false;
        e.generator.kind = GeneratorKind::RandomFill;
        e.generator.dirty = true;
        e.generator.held = false;
        e.drawing.clear();
        e.drawingRegion = false;
        setTool(ctx, Tool::Select);
        setNote(ctx, "Random fill region set (" +
                         plural(e.generator.fill.region.size(), "vertex", "vertices") + ")");
        return true;
    }
    scene::Scene after = ctx.scene;
    scene::SceneObstacle o;
    o.vertices = e.drawing;
    // ORCA only sees counter-clockwise polygons: clicks made clockwise are reversed (same
    // vertices, same first vertex). W still reverses on purpose (e.g. a loaded file's).
    const bool reversed = check.clockwise && o.vertices.size() >= 3;
    if (reversed) std::reverse(o.vertices.begin() + 1, o.vertices.end());
    after.obstacles.push_back(std::move(o));
    e.drawing.clear();
    if (!commitScene(ctx, std::move(after),
                     "Draw obstacle (" +
                         plural(after.obstacles.back().vertices.size(), "vertex", "vertices") +
                         ")"))
        return false;
    ctx.selection.clear();
    e.obstacles = {ctx.scene.obstacles.size() - 1};
    e.vertex.reset();
    if (reversed)
        setNote(ctx, "Obstacle closed: drawn clockwise, reversed to counter-clockwise so agents "
                     "avoid it (W reverses it again)");
    return true;
}

void cancelOrClear(SandboxContext& ctx) {
    if (!ctx.editor.drawing.empty() || ctx.editor.drawingRegion) {
        ctx.editor.drawing.clear();
        ctx.editor.drawingRegion = false;
        return;
    }
    if (ctx.editor.drag.kind != EditDrag::Kind::None) {
        // Esc during a drag: put things back.
        if (ctx.editor.drag.kind == EditDrag::Kind::Move)
            commitScene(ctx, ctx.editor.drag.before, "Move", "move");
        ctx.editor.drag = {};
        sealEdits(ctx);
        return;
    }
    clearEditSelection(ctx);
}

Vec2 snapPoint(const EditorState& editor, Vec2 world) {
    if (!editor.snap || !(editor.snapStep > 0.0)) return world;
    const double s = editor.snapStep;
    // Adding 0.0 turns -0 into 0 (it would serialise as "-0").
    return {std::round(world.x / s) * s + 0.0, std::round(world.y / s) * s + 0.0};
}

EditHit pickForEdit(const SandboxContext& ctx, Vec2 screen) {
    const ui::Camera& cam = ctx.camera;
    EditHit hit;
    // Vertices.
    double best = kVertexPickPixels;
    for (std::size_t o = 0; o < ctx.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.scene.obstacles[o].vertices;
        for (std::size_t k = 0; k < v.size(); ++k) {
            const double d = length(cam.worldToScreen(v[k]) - screen);
            if (d <= best) {
                best = d;
                hit = {EditHit::Kind::Vertex, o, k, v[k]};
            }
        }
    }
    if (hit.kind != EditHit::Kind::None) return hit;
    // Agents.
    bool found = false;
    const std::size_t agent = agentUnder(ctx, screen, &found);
    if (found) return {EditHit::Kind::Agent, agent, 0, ctx.scene.agents[agent].position};
    // Goals.
    if (ctx.layers.world.goals) {
        best = kGoalPickPixels;
        for (std::size_t i = 0; i < ctx.scene.agents.size(); ++i) {
            const auto& g = ctx.scene.agents[i].goal;
            if (!g) continue;
            const double d = length(cam.worldToScreen(*g) - screen);
            if (d <= best) {
                best = d;
                hit = {EditHit::Kind::Goal, i, 0, *g};
            }
        }
        if (hit.kind != EditHit::Kind::None) return hit;
    }
    // Edges, then insides.
    const Vec2 world = cam.screenToWorld(screen);
    best = kEdgePickPixels;
    for (std::size_t o = 0; o < ctx.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.scene.obstacles[o].vertices;
        const std::size_t edges = v.size() == 2 ? 1 : v.size();
        for (std::size_t k = 0; k < edges; ++k) {
            const Vec2 q = closestPointOnSegment(v[k], v[(k + 1) % v.size()], world);
            const double d = length(world - q) * cam.scale();
            if (d <= best) {
                best = d;
                hit = {EditHit::Kind::Edge, o, k, q};
            }
        }
    }
    if (hit.kind != EditHit::Kind::None) return hit;
    for (std::size_t o = ctx.scene.obstacles.size(); o-- > 0;)
        if (ctx.scene.obstacles[o].vertices.size() >= 3 &&
            scene::pointInPolygon(ctx.scene.obstacles[o].vertices, world))
            return {EditHit::Kind::Obstacle, o, 0, world};
    return hit;
}

scene::SceneAgent agentFromTemplate(const EditorState& editor, Vec2 position) {
    scene::SceneAgent a = editor.newAgent;
    a.id.reset();
    a.position = position;
    a.velocity.reset();
    a.goal.reset();
    a.prefVelocity.reset();
    return a;
}

void rebaseOverrides(scene::SceneAgent& agent, const AgentParams& from, const AgentParams& to) {
    // Every parameter explicit, then drop those the target's defaults already give.
    AgentParams resolved = agent.overrides.appliedTo(from);
    AgentParams target = to;
    scene::AgentOverrides o;
    scene::forEachAgentParam(o, resolved,
                             [](std::string_view, auto& value, auto& param) { value = param; });
    scene::forEachAgentParam(o, target, [](std::string_view, auto& value, auto& param) {
        if (value && *value == param) value.reset();
    });
    agent.overrides = o;
}

// ---- Mouse -----------------------------------------------------------------------------------

namespace {

void pressSelect(SandboxContext& ctx, EditDrag& d) {
    EditorState& e = ctx.editor;
    const EditHit& h = d.hit;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && h.kind == EditHit::Kind::Edge) {
        scene::Scene after = ctx.scene;
        std::vector<Vec2>& v = after.obstacles[h.index].vertices;
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(h.sub + 1), snapPoint(e, h.point));
        if (commitScene(ctx, std::move(after), "Insert vertex")) {
            ctx.selection.clear();
            e.obstacles.clear();
            e.vertex = VertexRef{h.index, h.sub + 1};
        }
        d = {};
        return;
    }
    switch (h.kind) {
    case EditHit::Kind::Vertex:
        if (!d.additive) {
            ctx.selection.clear();
            e.obstacles.clear();
        }
        e.vertex = VertexRef{h.index, h.sub};
        d.anchor = h.point;
        break;
    case EditHit::Kind::Agent: {
        const AgentId id = ctx.sim.agentIdAt(h.index);
        if (d.additive && ctx.selection.contains(id)) {
            d.deselectOnRelease = true; // unless it is dragged with the rest
        } else if (d.additive) {
            ctx.selection.click(id, true);
        } else if (!ctx.selection.contains(id)) {
            clearEditSelection(ctx);
            ctx.selection.click(id, false);
        }
        d.anchor = ctx.scene.agents[h.index].position;
        ctx.recordsVersion = ~std::uint64_t{0};
        break;
    }
    case EditHit::Kind::Goal:
        d.anchor = h.point;
        break;
    case EditHit::Kind::Edge:
    case EditHit::Kind::Obstacle:
        if (d.additive && contains(e.obstacles, h.index)) {
            d.deselectOnRelease = true;
        } else if (d.additive) {
            toggleSorted(e.obstacles, h.index);
        } else if (!contains(e.obstacles, h.index)) {
            clearEditSelection(ctx);
            e.obstacles = {h.index};
        }
        e.vertex.reset();
        d.anchor = ctx.scene.obstacles[h.index].vertices.front();
        break;
    case EditHit::Kind::None:
        break;
    }
}

void releaseSelect(SandboxContext& ctx, EditDrag& d) {
    EditorState& e = ctx.editor;
    // Shift+click on something selected: it leaves the selection (Shift+drag moved it instead).
    if (d.kind == EditDrag::Kind::Pending && d.deselectOnRelease) {
        if (d.hit.kind == EditHit::Kind::Agent && d.hit.index < ctx.sim.agentCount())
            ctx.selection.click(ctx.sim.agentIdAt(d.hit.index), true);
        else if (d.hit.kind == EditHit::Kind::Edge || d.hit.kind == EditHit::Kind::Obstacle)
            toggleSorted(e.obstacles, d.hit.index);
        ctx.recordsVersion = ~std::uint64_t{0};
    }
    if (d.kind == EditDrag::Kind::Pending && d.hit.kind == EditHit::Kind::None && !d.additive)
        clearEditSelection(ctx);
    if (d.kind == EditDrag::Kind::Box) {
        const Vec2 a = d.pressWorld;
        const Vec2 b = d.currentWorld;
        const ui::Rect box{{std::min(a.x, b.x), std::min(a.y, b.y)},
                           {std::max(a.x, b.x), std::max(a.y, b.y)}};
        std::vector<std::size_t> agents;
        for (std::size_t i = 0; i < ctx.scene.agents.size(); ++i)
            if (box.contains(ctx.scene.agents[i].position)) agents.push_back(i);
        if (!d.additive) clearEditSelection(ctx);
        selectAgents(ctx, agents, d.additive);
        for (std::size_t o = 0; o < ctx.scene.obstacles.size(); ++o) {
            const std::vector<Vec2>& v = ctx.scene.obstacles[o].vertices;
            if (std::all_of(v.begin(), v.end(), [&](Vec2 p) { return box.contains(p); }))
                selectObstacle(e, o);
        }
    }
}

void releaseGoal(SandboxContext& ctx, const EditDrag& d, bool prefVelocity) {
    const std::size_t pressed = d.hit.index;
    if (pressed >= ctx.scene.agents.size()) return;
    std::vector<std::size_t> targets = selectedAgents(ctx);
    if (!std::binary_search(targets.begin(), targets.end(), pressed)) targets = {pressed};
    scene::Scene after = ctx.scene;
    const Vec2 from = ctx.scene.agents[pressed].position;
    const Vec2 to = snapPoint(ctx.editor, d.currentWorld);
    std::size_t skipped = 0;
    for (const std::size_t i : targets) {
        scene::SceneAgent& a = after.agents[i];
        if (a.isStatic) {
            ++skipped;
            continue;
        }
        if (prefVelocity) {
            const double seconds = std::max(ctx.layers.world.velocityArrowSeconds, 1e-3);
            a.goal.reset();
            a.prefVelocity = (to - from) * (1.0 / seconds);
        } else {
            a.prefVelocity.reset();
            a.goal = a.position + (to - from);
        }
    }
    const std::string what = prefVelocity ? "Set preferred velocity of " : "Set goal of ";
    commitScene(ctx, std::move(after), what + plural(targets.size() - skipped, "agent", "agents"));
    if (skipped)
        setNote(ctx, plural(skipped, "static agent", "static agents") + " left as they are");
}

void clickObstacleTool(SandboxContext& ctx, Vec2 mouse) {
    EditorState& e = ctx.editor;
    if (e.drawing.size() >= 3 &&
        length(ctx.camera.worldToScreen(e.drawing.front()) - mouse) <= kClosePickPixels) {
        closeDrawing(ctx);
        return;
    }
    const Vec2 p = snapPoint(e, ctx.camera.screenToWorld(mouse));
    if (!e.drawing.empty() && e.drawing.back().x == p.x && e.drawing.back().y == p.y) return;
    e.drawing.push_back(p);
}

} // namespace

void editorWorldInput(SandboxContext& ctx, Vec2 mouse, bool mouseInWorld) {
    EditorState& e = ctx.editor;
    const ImGuiIO& io = ImGui::GetIO();
    const Vec2 world = ctx.camera.screenToWorld(mouse);
    e.hover.reset();
    if (mouseInWorld && e.drag.kind == EditDrag::Kind::None &&
        (e.tool == Tool::Select || e.tool == Tool::Goal))
        e.hover = pickForEdit(ctx, mouse);

    EditDrag& d = e.drag;
    if (mouseInWorld && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        beginEditing(ctx);
        if (e.tool == Tool::Obstacle) {
            clickObstacleTool(ctx, mouse);
            return;
        }
        d = {};
        d.kind = EditDrag::Kind::Pending;
        d.hit = pickForEdit(ctx, mouse);
        d.pressScreen = mouse;
        d.pressWorld = world;
        d.currentWorld = world;
        d.additive = io.KeyShift;
        if (e.tool == Tool::Select) {
            pressSelect(ctx, d);
        } else if (e.tool == Tool::AddAgent) {
            d.kind = EditDrag::Kind::NewAgent;
            d.anchor = snapPoint(e, world);
        } else if (e.tool == Tool::Goal) {
            if (d.hit.kind != EditHit::Kind::Agent) {
                d = {};
                setNote(ctx, "Goal tool: press on an agent and drag to where it should go");
            } else {
                const AgentId id = ctx.sim.agentIdAt(d.hit.index);
                if (!ctx.selection.contains(id)) {
                    clearEditSelection(ctx);
                    ctx.selection.click(id, false);
                }
                d.kind = io.KeyAlt ? EditDrag::Kind::PrefVelocity : EditDrag::Kind::Goal;
            }
        }
    }
    if (d.kind == EditDrag::Kind::None) return;
    d.currentWorld = world;

    if (d.kind == EditDrag::Kind::Pending && length(mouse - d.pressScreen) > kDragThresholdPixels) {
        if (d.hit.kind == EditHit::Kind::None) {
            d.kind = EditDrag::Kind::Box;
        } else {
            d.kind = EditDrag::Kind::Move;
            d.before = ctx.scene;
        }
    }
    if (d.kind == EditDrag::Kind::Move && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        const Vec2 delta = snapPoint(e, d.anchor + (world - d.pressWorld)) - d.anchor;
        const bool single =
            d.hit.kind == EditHit::Kind::Goal || d.hit.kind == EditHit::Kind::Vertex;
        scene::Scene after = movedSelection(ctx, d.before, delta, single ? &d.hit : nullptr);
        const char* what = d.hit.kind == EditHit::Kind::Goal     ? "Move goal"
                           : d.hit.kind == EditHit::Kind::Vertex ? "Move vertex"
                                                                 : "Move selection";
        commitScene(ctx, std::move(after), what, "move");
    }
    if (!ImGui::IsMouseReleased(ImGuiMouseButton_Left) && ImGui::IsMouseDown(ImGuiMouseButton_Left))
        return;

    // Released (or the button is up without a release event: focus lost).
    switch (d.kind) {
    case EditDrag::Kind::Pending:
    case EditDrag::Kind::Box:
        releaseSelect(ctx, d);
        break;
    case EditDrag::Kind::Goal:
    case EditDrag::Kind::PrefVelocity:
        if (length(mouse - d.pressScreen) > kDragThresholdPixels)
            releaseGoal(ctx, d, d.kind == EditDrag::Kind::PrefVelocity);
        break;
    case EditDrag::Kind::NewAgent: {
        scene::Scene after = ctx.scene;
        scene::SceneAgent a = agentFromTemplate(e, d.anchor);
        const bool withGoal = length(mouse - d.pressScreen) > kDragThresholdPixels;
        if (withGoal && !a.isStatic) a.goal = snapPoint(e, world);
        after.agents.push_back(std::move(a));
        if (commitScene(ctx, std::move(after), withGoal ? "Add agent with goal" : "Add agent")) {
            clearEditSelection(ctx);
            selectAgents(ctx, {ctx.scene.agents.size() - 1});
        }
        break;
    }
    case EditDrag::Kind::Move:
    case EditDrag::Kind::None:
        break;
    }
    d = {};
    sealEdits(ctx);
}

// ---- Drawing ---------------------------------------------------------------------------------

namespace {

void drawArrow(ImDrawList& dl, Vec2 a, Vec2 b, ImU32 c, float thickness = 1.5f) {
    dl.AddLine(toIm(a), toIm(b), c, thickness);
    const Vec2 d = b - a;
    const double len = length(d);
    if (len < 4.0) return;
    const Vec2 u = d * (1.0 / len);
    const Vec2 n{-u.y, u.x};
    const double h = std::min(8.0, len * 0.4);
    dl.AddTriangleFilled(toIm(b), toIm(b - u * h + n * (h * 0.45)),
                         toIm(b - u * h - n * (h * 0.45)), c);
}

// Winding arrows along the edges and outward normals at their middles (screen space). The
// outward side of a counter-clockwise polygon is the right of each edge.
void drawWindingAndNormals(ImDrawList& dl, const ui::Camera& cam, const std::vector<Vec2>& v,
                           ImU32 edgeColour, ImU32 normalColour) {
    if (v.size() < 2) return;
    const std::size_t edges = v.size() == 2 ? 1 : v.size();
    for (std::size_t k = 0; k < edges; ++k) {
        const Vec2 a = cam.worldToScreen(v[k]);
        const Vec2 b = cam.worldToScreen(v[(k + 1) % v.size()]);
        const Vec2 d = b - a;
        const double len = length(d);
        if (len < 12.0) continue;
        const Vec2 u = d * (1.0 / len);
        const Vec2 mid = (a + b) * 0.5;
        drawArrow(dl, mid - u * std::min(14.0, len * 0.25), mid + u * std::min(14.0, len * 0.25),
                  edgeColour, 2.0f);
        // The outward normal is the edge's right-hand side in world space (y up).
        const Vec2 wd = v[(k + 1) % v.size()] - v[k];
        const Vec2 wn = normalize(Vec2{wd.y, -wd.x});
        const Vec2 wm = (v[k] + v[(k + 1) % v.size()]) * 0.5;
        const Vec2 sm = cam.worldToScreen(wm);
        const Vec2 sn = cam.worldToScreen(wm + wn) - sm;
        const double snl = length(sn);
        if (snl > 0.0) drawArrow(dl, sm, sm + sn * (16.0 / snl), normalColour, 1.5f);
    }
}

bool selfIntersectsOpenPath(const std::vector<Vec2>& v, Vec2 next) {
    // Would the edge from the last point to `next` touch an earlier, non-adjacent edge?
    for (std::size_t k = 0; k + 2 < v.size(); ++k)
        if (segmentsTouch(v.back(), next, v[k], v[k + 1])) return true;
    return false;
}

} // namespace

void drawEditorOverlay(SandboxContext& ctx, ImDrawList& dl, Vec2 mouse, bool mouseInWorld) {
    const EditorState& e = ctx.editor;
    const ui::Camera& cam = ctx.camera;
    const ui::Rect view = cam.visibleWorld();

    // Obstacles the simulation leaves out: red dashed outline and why.
    for (std::size_t k = 0; k < e.skippedObstacles.size(); ++k) {
        const std::size_t o = e.skippedObstacles[k];
        if (o >= ctx.scene.obstacles.size()) continue;
        const std::vector<Vec2>& v = ctx.scene.obstacles[o].vertices;
        std::vector<ImVec2> pts;
        for (const Vec2 p : v)
            pts.push_back(toIm(cam.worldToScreen(p)));
        dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), col(palette().kEditInvalid),
                       v.size() > 2 ? ImDrawFlags_Closed : 0, 2.0f);
        if (!v.empty()) {
            // The reason in full, wrapped (the linter panel has it too, with the fix).
            const std::string text = "left out of the simulation: " + e.skippedReasons[k];
            dl.AddText(nullptr, 0.0f, toIm(cam.worldToScreen(v.front()) + Vec2{6.0, 4.0}),
                       col(palette().kEditInvalid), text.c_str(), nullptr, 260.0f);
        }
    }
    if (!editing(ctx)) return;

    // Obstacles: vertex handles, winding and normals (always visible while editing).
    const bool handles = e.tool == Tool::Select || e.tool == Tool::Obstacle;
    for (std::size_t o = 0; o < ctx.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.scene.obstacles[o].vertices;
        ui::Rect bounds = ui::Rect::empty();
        for (const Vec2 p : v)
            bounds.include(p);
        if (!bounds.intersects(view)) continue;
        const bool selected = contains(e.obstacles, o);
        if (selected) {
            std::vector<ImVec2> pts;
            for (const Vec2 p : v)
                pts.push_back(toIm(cam.worldToScreen(p)));
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), col(palette().kEditSelected),
                           v.size() > 2 ? ImDrawFlags_Closed : 0, 3.0f);
        }
        drawWindingAndNormals(dl, cam, v, col(palette().kObstacleWinding, selected ? 255 : 170),
                              col(palette().kObstacleNormal, selected ? 255 : 150));
        if (!handles) continue;
        for (std::size_t k = 0; k < v.size(); ++k) {
            const Vec2 s = cam.worldToScreen(v[k]);
            const bool isSel = e.vertex && e.vertex->obstacle == o && e.vertex->vertex == k;
            const bool hovered = e.hover && e.hover->kind == EditHit::Kind::Vertex &&
                                 e.hover->index == o && e.hover->sub == k;
            const float r = isSel || hovered ? 5.0f : 3.5f;
            dl.AddRectFilled(toIm(s - Vec2(r)), toIm(s + Vec2(r)),
                             col(isSel ? palette().kEditSelected : palette().kEditHandle));
            if (k == 0)
                dl.AddRect(toIm(s - Vec2(r + 2.5)), toIm(s + Vec2(r + 2.5)),
                           col(palette().kEditHandle), 0.0f, 0, 1.0f); // first vertex
        }
    }
    // Hovered edge (double-click inserts a vertex there).
    if (e.hover && e.hover->kind == EditHit::Kind::Edge && e.tool == Tool::Select &&
        e.hover->index < ctx.scene.obstacles.size() &&
        e.hover->sub < ctx.scene.obstacles[e.hover->index].vertices.size()) {
        const std::vector<Vec2>& v = ctx.scene.obstacles[e.hover->index].vertices;
        const Vec2 a = cam.worldToScreen(v[e.hover->sub]);
        const Vec2 b = cam.worldToScreen(v[(e.hover->sub + 1) % v.size()]);
        dl.AddLine(toIm(a), toIm(b), col(palette().kEditSelected, 200), 3.0f);
        dl.AddCircle(toIm(cam.worldToScreen(e.hover->point)), 4.0f, col(palette().kEditSelected));
    }
    // Goal handles of the selected agents; a hovered goal.
    for (const std::size_t i : selectedAgents(ctx)) {
        const auto& g = ctx.scene.agents[i].goal;
        if (!g) continue;
        const Vec2 s = cam.worldToScreen(*g);
        dl.AddLine(toIm(cam.worldToScreen(ctx.scene.agents[i].position)), toIm(s),
                   col(palette().kEditSelected, 90), 1.0f);
        dl.AddCircle(toIm(s), 5.0f, col(palette().kEditSelected), 12, 1.5f);
    }
    if (e.hover && e.hover->kind == EditHit::Kind::Goal)
        dl.AddCircle(toIm(cam.worldToScreen(e.hover->point)), 6.0f, col(palette().kEditSelected), 12,
                     2.0f);

    // The obstacle being drawn.
    if (e.tool == Tool::Obstacle && !e.drawing.empty()) {
        const Vec2 next = snapPoint(e, cam.screenToWorld(mouse));
        std::vector<Vec2> poly = e.drawing;
        const bool closing =
            poly.size() >= 3 && length(cam.worldToScreen(poly.front()) - mouse) <= kClosePickPixels;
        if (mouseInWorld && !closing) poly.push_back(next);
        const bool crossing = mouseInWorld && !closing && selfIntersectsOpenPath(e.drawing, next);
        const PolygonCheck check = poly.size() >= 3 ? checkPolygon(poly) : PolygonCheck{};
        const ImU32 c =
            col(crossing || !check.valid ? palette().kEditInvalid : palette().kEditPreview);
        std::vector<ImVec2> pts;
        for (const Vec2 p : poly)
            pts.push_back(toIm(cam.worldToScreen(p)));
        dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), c, 0, 2.0f);
        if (poly.size() >= 3)
            dl.AddLine(pts.back(), pts.front(), col(palette().kEditPreview, 80), 1.0f);
        drawWindingAndNormals(dl, cam, poly, col(palette().kObstacleWinding),
                              col(palette().kObstacleNormal));
        for (std::size_t k = 0; k < e.drawing.size(); ++k) {
            const Vec2 s = cam.worldToScreen(e.drawing[k]);
            const float r = k == 0 && closing ? 7.0f : 4.0f;
            dl.AddRectFilled(toIm(s - Vec2(r)), toIm(s + Vec2(r)), col(palette().kEditPreview));
        }
        if (poly.size() >= 3) {
            const double area = signedArea(poly);
            const char* text = !check.valid ? "self-intersecting: cannot close"
                               : area > 0.0 ? "counter-clockwise (agents stay outside)"
                                            : "clockwise: agents will ignore it (W reverses)";
            dl.AddText(toIm(mouse + Vec2{14.0, 10.0}), c, text);
        }
    }

    // Drags: box, goal / preferred velocity line, agent being placed.
    const EditDrag& d = e.drag;
    if (d.kind == EditDrag::Kind::Box) {
        const Vec2 a = cam.worldToScreen(d.pressWorld);
        const Vec2 b = cam.worldToScreen(d.currentWorld);
        const Vec2 lo{std::min(a.x, b.x), std::min(a.y, b.y)};
        const Vec2 hi{std::max(a.x, b.x), std::max(a.y, b.y)};
        dl.AddRectFilled(toIm(lo), toIm(hi), col(palette().kEditSelected, 30));
        dl.AddRect(toIm(lo), toIm(hi), col(palette().kEditSelected), 0.0f, 0, 1.0f);
    } else if ((d.kind == EditDrag::Kind::Goal || d.kind == EditDrag::Kind::PrefVelocity) &&
               d.hit.index < ctx.scene.agents.size()) {
        const Vec2 from = ctx.scene.agents[d.hit.index].position;
        const Vec2 to = snapPoint(e, d.currentWorld);
        const bool pref = d.kind == EditDrag::Kind::PrefVelocity;
        for (const std::size_t i : selectedAgents(ctx)) {
            const Vec2 p = ctx.scene.agents[i].position;
            drawArrow(dl, cam.worldToScreen(p), cam.worldToScreen(p + (to - from)),
                      col(pref ? palette().kArrowPref : palette().kEditPreview), 2.0f);
            if (!pref)
                dl.AddCircle(toIm(cam.worldToScreen(p + (to - from))), 5.0f,
                             col(palette().kEditPreview), 12, 2.0f);
        }
        if (pref) {
            const double seconds = std::max(ctx.layers.world.velocityArrowSeconds, 1e-3);
            char text[96];
            std::snprintf(text, sizeof text, "v_pref %.2f m/s (arrow = %.2g s)",
                          length(to - from) / seconds, seconds);
            dl.AddText(toIm(mouse + Vec2{14.0, 10.0}), col(palette().kText), text);
        }
    } else if (d.kind == EditDrag::Kind::NewAgent) {
        const scene::SceneAgent a = agentFromTemplate(e, d.anchor);
        const double r = ctx.scene.resolvedParams(a).radius * cam.scale();
        const Vec2 s = cam.worldToScreen(d.anchor);
        dl.AddCircle(toIm(s), static_cast<float>(std::max(r, 3.0)), col(palette().kEditPreview), 32,
                     2.0f);
        if (length(mouse - d.pressScreen) > kDragThresholdPixels && !a.isStatic) {
            const Vec2 g = cam.worldToScreen(snapPoint(e, d.currentWorld));
            drawArrow(dl, s, g, col(palette().kEditPreview), 1.5f);
            dl.AddCircle(toIm(g), 5.0f, col(palette().kEditPreview), 12, 2.0f);
        }
    }
    // Where a click would place a point (snapping).
    if (mouseInWorld && e.snap && (e.tool == Tool::AddAgent || e.tool == Tool::Obstacle) &&
        d.kind == EditDrag::Kind::None) {
        const Vec2 s = cam.worldToScreen(snapPoint(e, cam.screenToWorld(mouse)));
        dl.AddLine(toIm(s - Vec2{6.0, 0.0}), toIm(s + Vec2{6.0, 0.0}), col(palette().kEditPreview),
                   1.0f);
        dl.AddLine(toIm(s - Vec2{0.0, 6.0}), toIm(s + Vec2{0.0, 6.0}), col(palette().kEditPreview),
                   1.0f);
    }
}

} // namespace orca::app
