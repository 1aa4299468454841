#include "time/what_if.hpp"

#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

constexpr ui::Rgba kHandle{255, 255, 255, 230};
constexpr ui::Rgba kHandleHot{255, 214, 90, 255};
constexpr ui::Rgba kWhatIf{120, 220, 255, 255};
constexpr double kHandlePixels = 7.0;

const char* targetNameOf(WhatIfTarget t) {
    switch (t) {
    case WhatIfTarget::Position:
        return "position";
    case WhatIfTarget::Velocity:
        return "velocity";
    case WhatIfTarget::PrefVelocity:
        return "v_pref";
    }
    return "?";
}

/// Seconds per unit of velocity of the world's arrows for this target.
double arrowSeconds(const SandboxContext& ctx, WhatIfTarget t) {
    return t == WhatIfTarget::PrefVelocity
               ? ctx.view.overlayStyle.worldSeconds
               : std::max(ctx.view.layers.world.velocityArrowSeconds, 1e-3);
}

Vec2 currentValue(const Simulator& sim, WhatIfTarget t, std::size_t i) {
    const AgentId id = sim.agentIdAt(i);
    switch (t) {
    case WhatIfTarget::Position:
        return sim.position(id);
    case WhatIfTarget::Velocity:
        return sim.velocity(id);
    case WhatIfTarget::PrefVelocity:
        return sim.prefVelocity(id);
    }
    return {};
}

/// Where the handle of `t` for agent i is drawn (world).
Vec2 handlePoint(const SandboxContext& ctx, WhatIfTarget t, std::size_t i) {
    const Vec2 p = ctx.session.sim.positions()[i];
    if (t == WhatIfTarget::Position) return p;
    return p + currentValue(ctx.session.sim, t, i) * arrowSeconds(ctx, t);
}

std::string describe(const WhatIfState& w, std::size_t index) {
    char buf[160];
    std::snprintf(
        buf, sizeof buf, "what if agent #%zu's %s were (%.2f, %.2f) instead of (%.2f, %.2f)", index,
        targetNameOf(w.target), w.value.x, w.value.y, w.originalValue.x, w.originalValue.y);
    return buf;
}

/// Commits a position or velocity as a scene edit (at the recording's step 0).
bool keepAsSceneEdit(SandboxContext& ctx, std::size_t i) {
    WhatIfState& w = ctx.whatIf;
    scene::Scene after = ctx.doc.scene;
    if (i >= after.agents.size()) return false;
    if (w.target == WhatIfTarget::Position)
        after.agents[i].position = w.value;
    else
        after.agents[i].velocity = w.value;
    // Back to the unedited state first: the edit rebuilds the simulation from the scene.
    ctx.session.sim.restore(*w.original);
    const std::string label = std::string("Set ") + targetNameOf(w.target) + " of agent #" +
                              std::to_string(i) + " (what-if)";
    const bool ok = commitScene(ctx, std::move(after), label, "whatif");
    sealEdits(ctx);
    return ok;
}

/// Commits a position or velocity at a later step: an edit of the run from this step on.
void keepAsRunEdit(SandboxContext& ctx, std::size_t i) {
    const WhatIfState& w = ctx.whatIf;
    const std::uint64_t step = ctx.session.sim.stepCount();
    recordRunEditKeepingCut(ctx, "Set " + std::string(targetNameOf(w.target)) + " of agent #" +
                                     std::to_string(i) + " at step " + std::to_string(step));
}

void finish(SandboxContext& ctx) {
    WhatIfState& w = ctx.whatIf;
    w.active = false;
    w.dragging = false;
    w.original.reset();
}

void changed(SandboxContext& ctx) {
    ++ctx.session.stateVersion; // the dry-run records and every overlay follow
    ctx.explain.recordsStamp.invalidate();
    ctx.explain.hoverRecordStamp.invalidate();
}

} // namespace

const char* whatIfTargetName(WhatIfTarget t) {
    return targetNameOf(t);
}

std::vector<WhatIfHandle> whatIfHandles(const SandboxContext& ctx) {
    std::vector<WhatIfHandle> out;
    const ExplainRecord* rec = primaryRecord(ctx.explain);
    if (!rec || ctx.session.running || editing(ctx)) return out;
    auto add = [&](WhatIfTarget t, std::size_t i) {
        if (!ctx.session.sim.isStaticAt(i)) out.push_back({t, i, handlePoint(ctx, t, i)});
    };
    if (const auto p = ctx.session.sim.indexOf(rec->agent)) {
        add(WhatIfTarget::PrefVelocity, *p);
        add(WhatIfTarget::Velocity, *p);
    }
    for (const ExplainAgentNeighbor& nb : rec->agentNeighbors)
        if (const auto i = ctx.session.sim.indexOf(nb.id)) add(WhatIfTarget::Velocity, *i);
    return out;
}

bool whatIfAvailable(const SandboxContext& ctx) {
    return ctx.interactive && !ctx.session.running && !editing(ctx) &&
           ctx.windows.dialog == Dialog::None && primaryRecord(ctx.explain) != nullptr;
}

std::optional<WhatIfHandle> whatIfHandleAt(const SandboxContext& ctx, Vec2 mouse, bool ctrl) {
    if (!primaryRecord(ctx.explain)) return std::nullopt;
    std::optional<WhatIfHandle> best;
    double bestDist = kHandlePixels;
    for (const WhatIfHandle& h : whatIfHandles(ctx)) {
        const double d = length(ctx.view.camera.worldToScreen(h.point) - mouse);
        if (d <= bestDist) {
            bestDist = d;
            best = h;
        }
    }
    if (!best && ctrl) {
        if (const auto i = pickAgent(ctx.session.sim, ctx.view.camera, mouse))
            best = WhatIfHandle{WhatIfTarget::Position, *i, ctx.session.sim.positions()[*i]};
    }
    return best;
}

void whatIfSet(SandboxContext& ctx, WhatIfTarget target, std::size_t i, Vec2 value) {
    WhatIfState& w = ctx.whatIf;
    if (i >= ctx.session.sim.agentCount() || !std::isfinite(value.x) || !std::isfinite(value.y))
        return;
    const AgentId id = ctx.session.sim.agentIdAt(i);
    if (!w.active || w.agent != id || w.target != target) {
        if (w.active) whatIfKeep(ctx); // one change previewed at a time
        w.original = ctx.session.sim.snapshot();
        w.active = true;
        w.agent = id;
        w.target = target;
        w.originalValue = currentValue(ctx.session.sim, target, i);
    }
    w.value = value;
    switch (target) {
    case WhatIfTarget::Position:
        ctx.session.sim.setPosition(id, value);
        break;
    case WhatIfTarget::Velocity:
        ctx.session.sim.setVelocity(id, value);
        break;
    case WhatIfTarget::PrefVelocity: {
        AgentDef def = ctx.session.sim.agent(id);
        def.hasGoal = false; // held constant while previewed
        def.prefVelocity = value;
        ctx.session.sim.setAgent(id, def);
        break;
    }
    }
    changed(ctx);
}

bool whatIfWorldInput(SandboxContext& ctx, Vec2 mouse, bool mouseInWorld) {
    WhatIfState& w = ctx.whatIf;
    const ImGuiIO& io = ImGui::GetIO();
    if (w.dragging) {
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
            w.dragging = false;
            return true;
        }
        const auto i = ctx.session.sim.indexOf(w.agent);
        if (!i) {
            w.dragging = false;
            return true;
        }
        const Vec2 world = ctx.view.camera.screenToWorld(mouse) + w.grabOffset;
        const Vec2 value =
            w.target == WhatIfTarget::Position
                ? world
                : (world - ctx.session.sim.positions()[*i]) / arrowSeconds(ctx, w.target);
        if (value != w.value) whatIfSet(ctx, w.target, *i, value);
        return true;
    }
    if (!mouseInWorld || !whatIfAvailable(ctx) || !ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        return false;
    const auto handle = whatIfHandleAt(ctx, mouse, io.KeyCtrl);
    if (!handle) return false;
    if (w.active &&
        (w.agent != ctx.session.sim.agentIdAt(handle->agent) || w.target != handle->target))
        whatIfKeep(ctx);
    w.dragging = true;
    w.grabOffset = handle->point - ctx.view.camera.screenToWorld(mouse);
    if (!w.active) {
        // Start the preview at the current value (nothing changes until the mouse moves).
        whatIfSet(ctx, handle->target, handle->agent,
                  currentValue(ctx.session.sim, handle->target, handle->agent));
    }
    return true;
}

void drawWhatIf(SandboxContext& ctx, ImDrawList& dl, Vec2 mouse, bool mouseInWorld) {
    WhatIfState& w = ctx.whatIf;
    if (whatIfAvailable(ctx) || w.active) {
        const auto hot =
            mouseInWorld ? whatIfHandleAt(ctx, mouse, ImGui::GetIO().KeyCtrl) : std::nullopt;
        for (const WhatIfHandle& h : whatIfHandles(ctx)) {
            const bool isHot = hot && hot->agent == h.agent && hot->target == h.target;
            dl.AddCircle(ui::toIm(ctx.view.camera.worldToScreen(h.point)), isHot ? 6.0f : 4.0f,
                         ui::col(isHot ? kHandleHot : kHandle), 12, isHot ? 2.5f : 1.5f);
        }
        if (hot && !w.dragging) {
            ImGui::SetTooltip("Drag: what if agent #%zu's %s were different? (Esc reverts, "
                              "Enter keeps)",
                              hot->agent, targetNameOf(hot->target));
        }
    }
    if (!w.active) return;
    const auto i = ctx.session.sim.indexOf(w.agent);
    if (!i) {
        finish(ctx);
        return;
    }
    // The previewed value: the original as a ghost, the new one bright.
    const Vec2 p = ctx.session.sim.positions()[*i];
    if (w.target == WhatIfTarget::Position) {
        dl.AddLine(ui::toIm(ctx.view.camera.worldToScreen(w.originalValue)),
                   ui::toIm(ctx.view.camera.worldToScreen(p)), ui::col(kWhatIf, 160), 1.5f);
    } else {
        const double s = arrowSeconds(ctx, w.target);
        dl.AddLine(ui::toIm(ctx.view.camera.worldToScreen(p)),
                   ui::toIm(ctx.view.camera.worldToScreen(p + w.originalValue * s)),
                   ui::col(kWhatIf, 90), 2.0f);
        dl.AddLine(ui::toIm(ctx.view.camera.worldToScreen(p)),
                   ui::toIm(ctx.view.camera.worldToScreen(p + w.value * s)), ui::col(kWhatIf),
                   2.5f);
    }
    // The what-if bar.
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + 8.0f),
                            ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.9f);
    if (ImGui::Begin("##whatif", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                         ImGuiWindowFlags_NoNav)) {
        ImGui::TextColored(ImVec4(0.47f, 0.86f, 1.0f, 1.0f), "%s", describe(w, *i).c_str());
        if (ImGui::Button("Keep (Enter)")) whatIfKeep(ctx);
        ImGui::SameLine();
        if (ImGui::Button("Revert (Esc)")) whatIfRevert(ctx);
        ImGui::SameLine();
        ImGui::TextDisabled(w.target == WhatIfTarget::PrefVelocity ||
                                    ctx.session.sim.stepCount() == 0
                                ? "keeping it is an undoable edit of the scene"
                                : "keeping it edits the run from this step (undoable)");
    }
    ImGui::End();
}

bool whatIfRevert(SandboxContext& ctx) {
    WhatIfState& w = ctx.whatIf;
    if (!w.active) return false;
    ctx.session.sim.restore(*w.original);
    finish(ctx);
    changed(ctx);
    setNote(ctx.windows, "what-if reverted");
    return true;
}

bool whatIfKeep(SandboxContext& ctx) {
    WhatIfState& w = ctx.whatIf;
    if (!w.active) return false;
    // Keeping a change edits: a recording's frame becomes a scene (the preview moves with it).
    if (ctx.playback.active && w.value != w.originalValue &&
        (!leavePlayback(ctx, "kept a what-if") || !w.active))
        return false;
    const auto i = ctx.session.sim.indexOf(w.agent);
    if (!i) {
        finish(ctx);
        return false;
    }
    if (w.value == w.originalValue) { // nothing changed: nothing to keep
        ctx.session.sim.restore(*w.original);
        finish(ctx);
        changed(ctx);
        return true;
    }
    const WhatIfState snapshot = w; // finish() clears what the commits read
    const std::size_t index = *i;
    const std::string label = describe(w, index);
    bool ok = true;
    if (w.target == WhatIfTarget::PrefVelocity) {
        // The parameter path: back to the unedited state, then an undoable edit of the agent's
        // constant v_pref (simulation and scene; at a later step it cuts the recorded future).
        ctx.session.sim.restore(*w.original);
        finish(ctx);
        ui::AgentEdit edit;
        edit.field = ui::AgentField::PrefVelocity;
        edit.vec = snapshot.value;
        ok = editAgents(ctx, edit, std::span<const AgentId>(&snapshot.agent, 1));
    } else if (const std::uint64_t start = ctx.doc.scene.simulation.step;
               ctx.session.sim.stepCount() == start && ctx.timeline.history.firstStep() == start) {
        ok = keepAsSceneEdit(ctx, index);
        finish(ctx);
    } else {
        keepAsRunEdit(ctx, index);
        finish(ctx);
    }
    changed(ctx);
    if (ok) setNote(ctx.windows, "kept: " + label.substr(8)); // drop "what if "
    return ok;
}

void whatIfSettle(SandboxContext& ctx) {
    if (ctx.whatIf.active) whatIfKeep(ctx);
}

} // namespace orca::app
