#include "orca/ui/world_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "orca/simulator.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/grid_style.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/style.hpp"
#include "orca/ui/triangulate.hpp"

namespace orca::ui {

namespace {

// Winding arrows and outward normals at the middle of each edge long enough on screen. The
// polygon is counter-clockwise in the world (y up), so the outside is on the right of each
// edge; on screen (y down) that is (-dy, dx) of the screen direction. A 2-vertex obstacle
// blocks on both sides: both normals.
void drawEdgeMarks(ImDrawList& dl, const std::vector<ImVec2>& screen, bool winding, bool normals) {
    constexpr float kMinEdgePx = 28.0f;
    const ImU32 arrowCol = col(palette().kObstacleWinding);
    const ImU32 normalCol = col(palette().kObstacleNormal);
    const std::size_t n = screen.size();
    const std::size_t edges = n >= 3 ? n : (n == 2 ? 1 : 0);
    for (std::size_t k = 0; k < edges; ++k) {
        const ImVec2 a = screen[k];
        const ImVec2 b = screen[(k + 1) % n];
        const ImVec2 d{b.x - a.x, b.y - a.y};
        const float len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len < kMinEdgePx) continue;
        const ImVec2 u{d.x / len, d.y / len};
        const ImVec2 m{(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f};
        const ImVec2 out{-u.y, u.x};
        if (winding) {
            const float h = 6.0f;
            const ImVec2 tip{m.x + u.x * h, m.y + u.y * h};
            dl.AddTriangleFilled(
                tip, {m.x - u.x * h + out.x * h * 0.6f, m.y - u.y * h + out.y * h * 0.6f},
                {m.x - u.x * h - out.x * h * 0.6f, m.y - u.y * h - out.y * h * 0.6f}, arrowCol);
        }
        if (normals) {
            const float l = std::min(14.0f, 0.3f * len);
            const float off = winding ? 8.0f : 0.0f; // beside the winding arrow
            const ImVec2 base{m.x + u.x * off, m.y + u.y * off};
            dl.AddLine(base, {base.x + out.x * l, base.y + out.y * l}, normalCol, stroke(1.5f));
            if (n == 2)
                dl.AddLine(base, {base.x - out.x * l, base.y - out.y * l}, normalCol, stroke(1.5f));
        }
    }
}

} // namespace

Rgba agentFill(AgentState state) {
    switch (state) {
    case AgentState::Active:
        return palette().kAgentActive;
    case AgentState::AtGoal:
        return palette().kAgentAtGoal;
    case AgentState::Static:
        return palette().kAgentStatic;
    case AgentState::Lp3:
        return palette().kAgentLp3;
    case AgentState::Detouring:
        return palette().kAgentDetouring;
    }
    return palette().kAgentActive;
}

AgentState agentStateAt(const Simulator& sim, std::size_t i,
                        std::span<const std::uint8_t> lp3Flags) {
    if (sim.isStaticAt(i)) return AgentState::Static;
    if (lp3Flags.size() == sim.positions().size() && lp3Flags[i] != 0) return AgentState::Lp3;
    if (sim.detourModeAt(i) == DetourMode::Detouring) return AgentState::Detouring;
    if (sim.atGoalAt(i)) return AgentState::AtGoal;
    return AgentState::Active;
}

void WorldRenderer::drawDetourField(ImDrawList& dl, const Camera& camera,
                                    const Simulator& sim) const {
    const DetourField& field = sim.detourField();
    const Rect world = camera.visibleWorld();
    const double cell = field.cellSize();
    const double cellPx = cell * camera.scale();
    // Thin out when zoomed out: draw every `stride`-th cell so that drawn cells stay at least
    // ~3 px apart (a big field stays readable and cheap).
    const int stride = std::max(1, static_cast<int>(std::ceil(3.0 / std::max(cellPx, 1e-9))));
    if (stride > 64) return; // the whole field is a few pixels: nothing useful to draw
    const std::int32_t x0 = field.coord(world.min.x), x1 = field.coord(world.max.x);
    const std::int32_t y0 = field.coord(world.min.y), y1 = field.coord(world.max.y);
    const bool arrows = cellPx * stride >= 9.0;
    const ImU32 arrowCol = col(palette().kDetourArrow);
    const double drawn = cell * stride;
    field.forEachCellIn(x0, y0, x1, y1, [&](const DetourField::Cell& c) {
        if (stride > 1 && ((c.cx % stride) != 0 || (c.cy % stride) != 0)) return;
        const double magnitude = length(c.vector);
        if (magnitude <= 1e-12) return;
        const Rgba shade = detourCellColour(magnitude); // tinted by magnitude
        const Vec2 lo{c.cx * cell, c.cy * cell};
        const ImVec2 a = toIm(camera.worldToScreen(lo));
        const ImVec2 b = toIm(camera.worldToScreen(lo + Vec2(drawn, drawn)));
        dl.AddRectFilled({std::min(a.x, b.x), std::min(a.y, b.y)},
                         {std::max(a.x, b.x), std::max(a.y, b.y)}, col(shade));
        if (!arrows) return;
        const Vec2 centre = lo + Vec2(0.5 * drawn, 0.5 * drawn);
        const Vec2 dir = c.vector / magnitude;
        const ImVec2 from = toIm(camera.worldToScreen(centre - dir * (0.35 * drawn)));
        const ImVec2 to = toIm(camera.worldToScreen(centre + dir * (0.35 * drawn)));
        dl.AddLine(from, to, arrowCol, stroke(1.0f));
        const ImVec2 d{to.x - from.x, to.y - from.y};
        const float len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len < 4.0f) return;
        const ImVec2 u{d.x / len, d.y / len};
        const float h = std::min(4.0f, 0.35f * len);
        dl.AddTriangleFilled(to, {to.x - u.x * h - u.y * h * 0.6f, to.y - u.y * h + u.x * h * 0.6f},
                             {to.x - u.x * h + u.y * h * 0.6f, to.y - u.y * h - u.x * h * 0.6f},
                             arrowCol);
    });
}

void WorldRenderer::draw(ImDrawList& drawList, const Camera& camera, const Simulator& sim,
                         const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags,
                         std::span<const std::size_t> selected, const WorldRoutes& routes) {
    m_stats = {};
    m_pixelsPerPoint = std::max(ImGui::GetIO().DisplayFramebufferScale.x, 1e-3f);
    const Rect& vp = camera.viewport();
    drawList.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    if (options.grid) drawGrid(drawList, camera);
    // Goal lines under obstacles and agents: they cross obstacles by design.
    if (options.goals || options.goalLines) drawGoals(drawList, camera, sim, options);
    if (options.obstacles) {
        syncObstacles(sim);
        drawObstacles(drawList, camera, options);
    }
    if (options.detourField && !sim.detourField().empty()) drawDetourField(drawList, camera, sim);
    if (options.roadmap && sim.params().routing == Routing::Roadmap)
        drawRoadmap(drawList, camera, sim.roadmap());
    if (options.routes && routes.all) drawRoutes(drawList, camera, *routes.all, false);
    if (options.trails) {
        updateTrails(sim);
        drawTrails(drawList, camera, sim);
    } else if (m_trailCount != 0) {
        clearTrails();
    }
    drawAgents(drawList, camera, sim, options, lp3Flags);
    if (routes.selected) drawRoutes(drawList, camera, *routes.selected, true);
    if (options.agentIds) drawLabels(drawList, camera, sim);
    if (options.selectionRings && !selected.empty()) drawSelection(drawList, camera, sim, selected);
    drawList.PopClipRect();
}

void WorldRenderer::drawGrid(ImDrawList& dl, const Camera& camera) const {
    const GridSteps steps = worldGridSteps(camera.scale());
    const double minor = steps.minor;
    const Rect world = camera.visibleWorld();
    const Rect& vp = camera.viewport();

    auto lineColour = [&](double w) {
        return col(gridColour(gridLineAt(w, steps), GridView::World));
    };
    for (double x = std::floor(world.min.x / minor) * minor; x <= world.max.x; x += minor) {
        const float sx = std::floor(static_cast<float>(camera.worldToScreen({x, 0.0}).x)) + 0.5f;
        dl.AddLine({sx, static_cast<float>(vp.min.y)}, {sx, static_cast<float>(vp.max.y)},
                   lineColour(x));
    }
    for (double y = std::floor(world.min.y / minor) * minor; y <= world.max.y; y += minor) {
        const float sy = std::floor(static_cast<float>(camera.worldToScreen({0.0, y}).y)) + 0.5f;
        dl.AddLine({static_cast<float>(vp.min.x), sy}, {static_cast<float>(vp.max.x), sy},
                   lineColour(y));
    }
}

void WorldRenderer::syncObstacles(const Simulator& sim) {
    // Obstacles rarely change; re-triangulate only those whose id or vertices differ from the
    // cache (comparing vertices is far cheaper than triangulating).
    const std::size_t n = sim.obstacleCount();
    m_obstacles.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const ObstacleId id = sim.obstacleIdAt(i);
        const std::span<const Vec2> verts = sim.obstacleVertices(id);
        CachedObstacle& c = m_obstacles[i];
        if (c.id == id &&
            std::equal(verts.begin(), verts.end(), c.vertices.begin(), c.vertices.end()))
            continue;
        c.id = id;
        c.vertices.assign(verts.begin(), verts.end());
        c.triangles = triangulatePolygon(c.vertices);
        c.bounds = Rect::empty();
        for (const Vec2& v : c.vertices)
            c.bounds.include(v);
    }
}

void WorldRenderer::drawObstacles(ImDrawList& dl, const Camera& camera,
                                  const WorldViewOptions& options) {
    const Rect world = camera.visibleWorld();
    const ImU32 fill = col(palette().kObstacleFill);
    const ImU32 outline = col(palette().kObstacleOutline);
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    std::vector<ImVec2> screen;
    for (const CachedObstacle& o : m_obstacles) {
        if (!o.bounds.intersects(world)) continue;
        ++m_stats.obstaclesDrawn;
        screen.resize(o.vertices.size());
        for (std::size_t k = 0; k < o.vertices.size(); ++k)
            screen[k] = toIm(camera.worldToScreen(o.vertices[k]));

        // Fill without anti-aliasing fringes, so shared triangle edges of a concave polygon
        // leave no seams; the anti-aliased outline covers the border. ImDrawIdx is 16 bits: one
        // reservation must stay under 65,536 vertices, so an outline with more is filled in
        // batches of unshared triangles.
        constexpr std::size_t kMaxVertices = 60000;
        if (!o.triangles.empty() && screen.size() <= kMaxVertices) {
            dl.PrimReserve(static_cast<int>(o.triangles.size()), static_cast<int>(screen.size()));
            const auto base = static_cast<ImDrawIdx>(dl._VtxCurrentIdx);
            for (const ImVec2& p : screen)
                dl.PrimWriteVtx(p, uv, fill);
            for (const std::uint32_t t : o.triangles)
                dl.PrimWriteIdx(static_cast<ImDrawIdx>(base + t));
        } else {
            for (std::size_t first = 0; first < o.triangles.size(); first += kMaxVertices) {
                const std::size_t count = std::min(kMaxVertices, o.triangles.size() - first);
                dl.PrimReserve(static_cast<int>(count), static_cast<int>(count));
                const auto base = static_cast<ImDrawIdx>(dl._VtxCurrentIdx);
                for (std::size_t k = 0; k < count; ++k) {
                    dl.PrimWriteVtx(screen[o.triangles[first + k]], uv, fill);
                    dl.PrimWriteIdx(static_cast<ImDrawIdx>(base + k));
                }
            }
        }
        // The outline likewise in pieces of at most kMaxPolylinePoints points (a thick
        // anti-aliased line takes 4 vertices a point), each sharing its last point with the next.
        constexpr std::size_t kMaxPolylinePoints = 10000;
        const bool closedLoop = screen.size() >= 3;
        if (screen.size() <= kMaxPolylinePoints) {
            dl.AddPolyline(screen.data(), static_cast<int>(screen.size()), outline,
                           closedLoop ? ImDrawFlags_Closed : ImDrawFlags_None, stroke(1.5f));
        } else {
            if (closedLoop) screen.push_back(screen.front());
            for (std::size_t first = 0; first + 1 < screen.size();
                 first += kMaxPolylinePoints - 1) {
                const std::size_t count = std::min(kMaxPolylinePoints, screen.size() - first);
                dl.AddPolyline(screen.data() + first, static_cast<int>(count), outline,
                               ImDrawFlags_None, stroke(1.5f));
            }
            if (closedLoop) screen.pop_back();
        }
        if (options.obstacleWinding || options.obstacleNormals)
            drawEdgeMarks(dl, screen, options.obstacleWinding, options.obstacleNormals);
    }
}

void WorldRenderer::drawGoals(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                              const WorldViewOptions& options) const {
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    const double detailRadius = static_cast<double>(kAgentDetailRadiusPx / m_pixelsPerPoint);
    const ImU32 lineCol = col(palette().kGoalLine);
    const ImU32 goalCol = col(palette().kGoal);
    const float arm = 4.0f;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        // Same level of detail as outlines: dots get no goal marks (thousands of lines to
        // goals would only paint the screen grey).
        if (!sim.hasGoalAt(i) || sim.isStaticAt(i) || params[i].radius * scale < detailRadius)
            continue;
        const Vec2 g = sim.goalAt(i);
        if (options.goalLines && !sim.atGoalAt(i)) {
            Rect seg = Rect::empty();
            seg.include(g);
            seg.include(positions[i]);
            if (seg.intersects(world))
                dl.AddLine(toIm(camera.worldToScreen(positions[i])), toIm(camera.worldToScreen(g)),
                           lineCol);
        }
        if (options.goals && world.expanded(arm / scale).contains(g)) {
            const ImVec2 s = toIm(camera.worldToScreen(g));
            dl.AddLine({s.x - arm, s.y - arm}, {s.x + arm, s.y + arm}, goalCol, stroke(1.5f));
            dl.AddLine({s.x - arm, s.y + arm}, {s.x + arm, s.y - arm}, goalCol, stroke(1.5f));
        }
    }
}

void WorldRenderer::drawAgents(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                               const WorldViewOptions& options,
                               std::span<const std::uint8_t> lp3Flags) {
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const auto params = sim.agentParams();
    const std::size_t n = positions.size();
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    const float detailRadius = kAgentDetailRadiusPx / m_pixelsPerPoint;
    const float dotHalf = 1.0f / m_pixelsPerPoint; // 2 px wide dots at any DPI

    m_detailed.clear();
    for (std::size_t i = 0; i < n; ++i) {
        const double radius = params[i].radius;
        const Vec2 p = positions[i];
        if (p.x + radius < world.min.x || p.x - radius > world.max.x ||
            p.y + radius < world.min.y || p.y - radius > world.max.y)
            continue;
        const AgentState state = agentStateAt(sim, i, lp3Flags);
        const ImU32 fill = col(agentFill(state));
        const ImVec2 c = toIm(camera.worldToScreen(p));
        const auto r = static_cast<float>(radius * scale);
        ++m_stats.agentsDrawn;

        if (r < detailRadius) {
            const float h = std::max(r, dotHalf);
            dl.AddRectFilled({c.x - h, c.y - h}, {c.x + h, c.y + h}, fill);
            continue;
        }
        dl.AddCircleFilled(c, r, fill);
        dl.AddCircle(c, r, col(agentOutline(agentFill(state))), 0, stroke(1.0f));
        m_detailed.push_back(static_cast<std::uint32_t>(i));
    }
    m_stats.agentsDetailed = m_detailed.size();

    // Velocity arrows on top of every agent.
    if (!options.velocities) return;
    const ImU32 arrowCol = col(palette().kVelocity);
    for (const std::uint32_t i : m_detailed) {
        const Vec2 p = positions[i];
        const ImVec2 c = toIm(camera.worldToScreen(p));
        const ImVec2 t =
            toIm(camera.worldToScreen(p + velocities[i] * options.velocityArrowSeconds));
        const ImVec2 d{t.x - c.x, t.y - c.y};
        const float len = std::sqrt(d.x * d.x + d.y * d.y);
        if (len < 2.0f) continue;
        const ImVec2 u{d.x / len, d.y / len};
        const float head = std::min(6.0f, 0.4f * len);
        const ImVec2 base{t.x - u.x * head, t.y - u.y * head};
        const ImVec2 side{-u.y * head * 0.5f, u.x * head * 0.5f};
        dl.AddLine(c, base, arrowCol, stroke(1.5f));
        dl.AddTriangleFilled(t, {base.x + side.x, base.y + side.y},
                             {base.x - side.x, base.y - side.y}, arrowCol);
    }
}

void WorldRenderer::clearTrails() {
    m_trail.clear();
    m_trail.shrink_to_fit();
    m_trailCap = 0;
    m_trailHead = 0;
    m_trailCount = 0;
    m_trailAgents = 0;
    m_trailStep = 0;
}

void WorldRenderer::updateTrails(const Simulator& sim) {
    const auto positions = sim.positions();
    const std::size_t n = positions.size();
    const std::uint64_t step = sim.stepCount();
    if (n != m_trailAgents || step < m_trailStep || m_trailCap == 0) {
        clearTrails();
        if (n == 0) return;
        m_trailAgents = n;
        m_trailCap = std::clamp(kMaxTrailSamples / n, std::size_t{2}, kTrailLength);
        m_trail.resize(n * m_trailCap);
        m_trailStep = step;
    } else if (step == m_trailStep && m_trailCount > 0) {
        return; // nothing new (paused)
    }
    m_trailHead = m_trailCount == 0 ? 0 : (m_trailHead + 1) % m_trailCap;
    for (std::size_t i = 0; i < n; ++i)
        m_trail[i * m_trailCap + m_trailHead] = {static_cast<float>(positions[i].x),
                                                 static_cast<float>(positions[i].y)};
    m_trailCount = std::min(m_trailCount + 1, m_trailCap);
    m_trailStep = step;
}

void WorldRenderer::drawTrails(ImDrawList& dl, const Camera& camera, const Simulator& sim) {
    if (m_trailCount < 2) return;
    // Bounded work: trails are drawn for agents big enough to get outlines, and at most this
    // many segments per frame (dense crowds zoomed in would otherwise cost more than agents).
    constexpr std::size_t kMaxSegments = 60000;
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    const double detailRadius = static_cast<double>(kAgentDetailRadiusPx / m_pixelsPerPoint);
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    const Rgba c = palette().kTrail;
    const float halfWidth = 0.9f;
    const std::size_t segs = m_trailCount - 1;
    const auto vc = camera.viewport().center();
    const Vec2 centre = camera.center();
    for (std::size_t i = 0; i < positions.size() && i < m_trailAgents; ++i) {
        if (m_stats.trailSegments + segs > kMaxSegments) break;
        if (params[i].radius * scale < detailRadius) continue;
        // Cull by the newest sample: trails are short compared to the view.
        const Vec2 p = positions[i];
        const double reach = params[i].radius + 0.5 * (world.max.x - world.min.x);
        if (p.x < world.min.x - reach || p.x > world.max.x + reach || p.y < world.min.y - reach ||
            p.y > world.max.y + reach)
            continue;
        const TrailPoint* ring = &m_trail[i * m_trailCap];
        dl.PrimReserve(static_cast<int>(segs * 6), static_cast<int>(segs * 4));
        auto toScreen = [&](const TrailPoint& tp) {
            return ImVec2{static_cast<float>(vc.x + (tp.x - centre.x) * scale),
                          static_cast<float>(vc.y - (tp.y - centre.y) * scale)};
        };
        // Oldest to newest, alpha rising linearly to the trail colour's.
        std::size_t k = (m_trailHead + m_trailCap - segs) % m_trailCap;
        ImVec2 a = toScreen(ring[k]);
        for (std::size_t s = 0; s < segs; ++s) {
            k = (k + 1) % m_trailCap;
            const ImVec2 b = toScreen(ring[k]);
            float dx = b.x - a.x;
            float dy = b.y - a.y;
            const float len = std::sqrt(dx * dx + dy * dy);
            if (len > 1e-4f) {
                dx /= len;
                dy /= len;
            } else {
                dx = 1.0f;
                dy = 0.0f;
            }
            const ImVec2 nrm{-dy * halfWidth, dx * halfWidth};
            const auto a0 = static_cast<int>(c.a * s / segs);
            const auto a1 = static_cast<int>(c.a * (s + 1) / segs);
            const ImU32 ca = IM_COL32(c.r, c.g, c.b, a0);
            const ImU32 cb = IM_COL32(c.r, c.g, c.b, a1);
            const auto base = static_cast<ImDrawIdx>(dl._VtxCurrentIdx);
            dl.PrimWriteVtx({a.x + nrm.x, a.y + nrm.y}, uv, ca);
            dl.PrimWriteVtx({b.x + nrm.x, b.y + nrm.y}, uv, cb);
            dl.PrimWriteVtx({b.x - nrm.x, b.y - nrm.y}, uv, cb);
            dl.PrimWriteVtx({a.x - nrm.x, a.y - nrm.y}, uv, ca);
            for (const int q : {0, 1, 2, 0, 2, 3})
                dl.PrimWriteIdx(static_cast<ImDrawIdx>(base + q));
            a = b;
        }
        m_stats.trailSegments += segs;
    }
}

void WorldRenderer::drawLabels(ImDrawList& dl, const Camera& camera, const Simulator& sim) {
    // Only where legible, and bounded (a screen full of 7-px agents is a few thousand).
    constexpr std::size_t kMaxLabels = 3000;
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    const double scale = camera.scale();
    const ImU32 textCol = col(palette().kAgentLabel);
    const ImU32 shadow = col(agentIdShadow());
    for (const std::uint32_t i : m_detailed) {
        if (m_stats.labelsDrawn >= kMaxLabels) break;
        const auto r = static_cast<float>(params[i].radius * scale);
        if (r < kAgentIdMinRadius) continue;
        const std::string id = agentIdLabel(i);
        const ImVec2 c = toIm(camera.worldToScreen(positions[i]));
        const ImVec2 at{c.x + r * 0.72f, c.y - r * 0.72f - ImGui::GetFontSize() * 0.8f};
        dl.AddText({at.x + 1.0f, at.y + 1.0f}, shadow, id.c_str());
        dl.AddText(at, textCol, id.c_str());
        ++m_stats.labelsDrawn;
    }
}

void WorldRenderer::drawSelection(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                                  std::span<const std::size_t> selected) const {
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    for (const std::size_t i : selected) {
        if (i >= positions.size()) continue;
        // At least 5 px, so selected dots in a zoomed-out crowd are still found.
        const float r = std::max(static_cast<float>(params[i].radius * scale), 5.0f) + 3.0f;
        const Vec2 p = positions[i];
        const double rw = static_cast<double>(r) / scale;
        if (p.x + rw < world.min.x || p.x - rw > world.max.x || p.y + rw < world.min.y ||
            p.y - rw > world.max.y)
            continue;
        const ImVec2 c = toIm(camera.worldToScreen(p));
        dl.AddCircle(c, r, col(palette().kSelectionShadow), 0, stroke(4.0f));
        dl.AddCircle(c, r, col(palette().kSelection), 0, stroke(2.0f));
    }
}

} // namespace orca::ui
