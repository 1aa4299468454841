#include "authoring/editor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include <imgui.h>

#include "orca/geometry.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

constexpr double kVertexPickPixels = 7.0;
constexpr double kGoalPickPixels = 6.0;
constexpr double kEdgePickPixels = 5.0;

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
    clip.agentDefaults = ctx.doc.scene.agentDefaults;
    clip.simulation = ctx.doc.scene.simulation;
    clip.extra = nlohmann::ordered_json::object();
    for (const std::size_t i : selectedAgents(ctx))
        clip.agents.push_back(ctx.doc.scene.agents[i]);
    for (const std::size_t i : ctx.editor.obstacles)
        if (i < ctx.doc.scene.obstacles.size())
            clip.obstacles.push_back(ctx.doc.scene.obstacles[i]);
    return clip;
}

// Appends `content` to the scene moved by `offset`, selects what was added.
void insertContent(SandboxContext& ctx, const scene::Scene& content, Vec2 offset,
                   const std::string& label) {
    scene::Scene after = ctx.doc.scene;
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
    for (std::size_t i = firstAgent; i < ctx.doc.scene.agents.size(); ++i)
        sel.push_back(i);
    selectAgents(ctx, sel);
    ctx.editor.obstacles.clear();
    for (std::size_t i = firstObstacle; i < ctx.doc.scene.obstacles.size(); ++i)
        ctx.editor.obstacles.push_back(i);
    ctx.editor.vertex.reset();
}

} // namespace

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
            !sortedContains(ctx.editor.obstacles, r.obstacle))
            after.obstacles[r.obstacle].vertices[r.vertex] =
                base.obstacles[r.obstacle].vertices[r.vertex] + d;
    }
    return after;
}

namespace {

bool hasSelection(const SandboxContext& ctx) {
    return !ctx.explain.selection.empty() || !ctx.editor.obstacles.empty() || ctx.editor.vertex;
}

std::size_t agentUnder(const SandboxContext& ctx, Vec2 screen, bool* found) {
    const ui::Camera& cam = ctx.view.camera;
    double best = 0.0;
    std::size_t bestIndex = 0;
    *found = false;
    for (std::size_t i = 0; i < ctx.doc.scene.agents.size(); ++i) {
        const scene::SceneAgent& a = ctx.doc.scene.agents[i];
        const double r = std::max(ctx.doc.scene.resolvedParams(a).radius * cam.scale(), 4.0);
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

void setTool(SandboxContext& ctx, Tool tool) {
    EditorState& e = ctx.editor;
    if (e.tool == tool) return;
    // The edit tools edit a scene: a recording's frame becomes one first.
    if (tool != Tool::Inspect && !leavePlayback(ctx, "editing")) return;
    whatIfSettle(ctx);
    e.tool = tool;
    e.drawing.clear();
    e.drawingRegion = false;
    e.drag = {};
    if (tool != Tool::Inspect) ctx.explain.construction.active = false;
}

void beginEditing(SandboxContext& ctx) {
    leavePlayback(ctx, "editing"); // a recording's frame becomes the scene edited
    ctx.session.running = false;
    // (A scene saved mid-run, such as a recording's frame, starts at its own step.)
    if (ctx.session.sim.stepCount() != ctx.doc.scene.simulation.step) {
        restartScene(ctx);
        setNote(ctx.windows, "Editing the scene: the simulation went back to its start");
    }
}

bool commitScene(SandboxContext& ctx, scene::Scene after, std::string label,
                 const std::string& mergeKey) {
    scene::SceneEdit edit = sceneEditBetween(ctx.doc.scene, after, std::move(label));
    if (edit.empty()) return false;
    beginEditing(ctx);
    std::string error;
    if (!replaceScene(ctx, std::move(after), error)) {
        ctx.windows.messages.push("Edit refused", edit.label + ": " + error +
                                                      "\n\nThe scene is unchanged (check the "
                                                      "new-agent defaults, N).");
        ctx.editor.drag = {};
        return false;
    }
    ctx.doc.history.record(std::move(edit), mergeKey);
    return true;
}

void sealEdits(SandboxContext& ctx) {
    ctx.doc.history.seal();
    sealParameterEdits(ctx);
}

namespace {

// Undo (or redo) one step of the history on the scene, then rebuild the simulation from it.
void walkHistory(SandboxContext& ctx, bool redo) {
    // An edit made at a past step (a parameter or a kept what-if): its undo puts back the
    // recording it cut (the cut stack, time/timeline.hpp).
    if (!redo && whatIfRevert(ctx)) return; // a preview is undone by dropping it
    if (ctx.playback.active) {              // nothing edited yet: a recording is only watched
        setNote(ctx.windows, std::string("Nothing to ") + (redo ? "redo" : "undo") +
                                 " (a recording is open; editing makes its frame a scene)");
        return;
    }
    if (!redo && undoCutRecording(ctx)) return;
    sealParameterEdits(ctx);
    beginEditing(ctx);
    scene::EditHistory& h = ctx.doc.history;
    const std::string label = redo ? h.redoLabel() : h.undoLabel();
    const char* what = redo ? "Redo" : "Undo";
    try {
        if (!(redo ? h.redo(ctx.doc.scene) : h.undo(ctx.doc.scene))) {
            setNote(ctx.windows, std::string("Nothing to ") + (redo ? "redo" : "undo"));
            return;
        }
    } catch (const std::exception& e) {
        // The history no longer matches the scene (a bug): keep the scene, drop the history.
        ctx.windows.messages.push(std::string(what) + " failed", e.what());
        h.clear();
        return;
    }
    ctx.editor.vertex.reset();
    ctx.editor.obstacles.clear();
    ctx.editor.drawing.clear();
    ctx.routes.waypoint.reset();
    sceneEdited(ctx);
    setNote(ctx.windows, std::string(what) + ": " + label);
}

} // namespace

void undoEdit(SandboxContext& ctx) {
    walkHistory(ctx, false);
}

void redoEdit(SandboxContext& ctx) {
    walkHistory(ctx, true);
}

std::vector<std::size_t> selectedAgents(const SandboxContext& ctx) {
    std::vector<std::size_t> out = ctx.explain.selection.indices(ctx.session.sim);
    std::sort(out.begin(), out.end());
    out.erase(std::remove_if(out.begin(), out.end(),
                             [&](std::size_t i) { return i >= ctx.doc.scene.agents.size(); }),
              out.end());
    return out;
}

void selectAgents(SandboxContext& ctx, const std::vector<std::size_t>& indices, bool add) {
    std::vector<AgentId> ids;
    if (add)
        for (const AgentId id : ctx.explain.selection.ids())
            ids.push_back(id);
    for (const std::size_t i : indices)
        if (i < ctx.session.sim.agentCount()) {
            const AgentId id = ctx.session.sim.agentIdAt(i);
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    ctx.explain.selection.set(std::move(ids));
    ctx.explain.recordsStamp.invalidate();
}

void selectObstacle(EditorState& editor, std::size_t obstacle) {
    std::vector<std::size_t>& sel = editor.obstacles;
    const auto it = std::lower_bound(sel.begin(), sel.end(), obstacle);
    if (it == sel.end() || *it != obstacle) sel.insert(it, obstacle);
}

void clearEditSelection(SandboxContext& ctx) {
    ctx.explain.selection.clear();
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    ctx.explain.recordsStamp.invalidate();
}

void deleteSelection(SandboxContext& ctx) {
    EditorState& e = ctx.editor;
    // The goal tool's clicked waypoint (of a selected agent) goes first.
    if (const std::optional<WaypointRef> w = ctx.routes.waypoint;
        w && e.tool == Tool::Goal && sortedContains(selectedAgents(ctx), w->agent) &&
        removeWaypointEdit(ctx, *w))
        return;
    if (!e.drawing.empty()) {
        e.drawing.pop_back();
        return;
    }
    scene::Scene after = ctx.doc.scene;
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
        setNote(ctx.windows, "Nothing selected to delete");
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
        setNote(ctx.windows, "Nothing selected to duplicate");
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
        setNote(ctx.windows, "Nothing selected to copy");
        return;
    }
    const std::string text = scene::serializeScene(clip);
    if (ImGui::GetCurrentContext()) ImGui::SetClipboardText(text.c_str());
    setNote(ctx.windows, "Copied " + countText(clip.agents.size(), clip.obstacles.size()));
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
        setNote(ctx.windows, "The clipboard is empty");
        return;
    }
    const Vec2 centre = contentCentre(content).value_or(Vec2{0.0, 0.0});
    Vec2 offset{1.0, -1.0};
    if (at) offset = snapPoint(ctx.editor, *at) - snapPoint(ctx.editor, centre);
    insertContent(ctx, content, offset, "Paste");
}

void selectAll(SandboxContext& ctx) {
    std::vector<std::size_t> all(ctx.doc.scene.agents.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    selectAgents(ctx, all);
    ctx.editor.obstacles.clear();
    ctx.editor.vertex.reset();
    if (editing(ctx))
        for (std::size_t i = 0; i < ctx.doc.scene.obstacles.size(); ++i)
            ctx.editor.obstacles.push_back(i);
}

void nudgeSelection(SandboxContext& ctx, Vec2 direction) {
    if (!hasSelection(ctx)) return;
    const double step =
        (ctx.editor.snap ? ctx.editor.snapStep : 0.1) * (ctx.editor.nudgeBig ? 10.0 : 1.0);
    scene::Scene after = movedSelection(ctx, ctx.doc.scene, direction * step, nullptr);
    commitScene(ctx, std::move(after), "Nudge", "nudge");
}

void reverseSelectedWinding(SandboxContext& ctx) {
    std::vector<std::size_t> targets = ctx.editor.obstacles;
    if (ctx.editor.vertex && !sortedContains(targets, ctx.editor.vertex->obstacle))
        targets.push_back(ctx.editor.vertex->obstacle);
    if (targets.empty()) {
        setNote(ctx.windows, "Select an obstacle to reverse its winding");
        return;
    }
    scene::Scene after = ctx.doc.scene;
    for (const std::size_t i : targets)
        if (i < after.obstacles.size())
            std::reverse(after.obstacles[i].vertices.begin(), after.obstacles[i].vertices.end());
    ctx.editor.vertex.reset();
    commitScene(ctx, std::move(after),
                "Reverse winding of " + plural(targets.size(), "obstacle", "obstacles"));
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
    const ui::Camera& cam = ctx.view.camera;
    EditHit hit;
    // Vertices.
    double best = kVertexPickPixels;
    for (std::size_t o = 0; o < ctx.doc.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.doc.scene.obstacles[o].vertices;
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
    if (found) return {EditHit::Kind::Agent, agent, 0, ctx.doc.scene.agents[agent].position};
    // Goals.
    if (ctx.view.layers.world.goals) {
        best = kGoalPickPixels;
        for (std::size_t i = 0; i < ctx.doc.scene.agents.size(); ++i) {
            const auto& g = ctx.doc.scene.agents[i].goal;
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
    for (std::size_t o = 0; o < ctx.doc.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.doc.scene.obstacles[o].vertices;
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
    for (std::size_t o = ctx.doc.scene.obstacles.size(); o-- > 0;)
        if (ctx.doc.scene.obstacles[o].vertices.size() >= 3 &&
            pointInPolygon(ctx.doc.scene.obstacles[o].vertices, world))
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

} // namespace orca::app
