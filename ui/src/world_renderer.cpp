#include "orca/ui/world_renderer.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "orca/simulator.hpp"
#include "orca/ui/triangulate.hpp"

namespace orca::ui {

namespace {

ImU32 col(Rgba c) {
    return IM_COL32(c.r, c.g, c.b, c.a);
}

ImVec2 toIm(Vec2 v) {
    return {static_cast<float>(v.x), static_cast<float>(v.y)};
}

// Smallest "nice" step (1, 2 or 5 times a power of ten) that is at least `minStep`.
double niceStep(double minStep) {
    const double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= minStep) return m * decade;
    return 10.0 * decade;
}

// Agents below this screen radius (framebuffer pixels) are drawn as plain dots: no outline,
// no arrow (they would be invisible and cost most of the vertices).
constexpr float kDetailRadiusPx = 2.0f;

// The outline: the fill blended halfway to white, so small agents keep their colour.
Rgba outlineOf(Rgba fill) {
    auto mix = [](std::uint8_t c) { return static_cast<std::uint8_t>((c + 255) / 2); };
    return {mix(fill.r), mix(fill.g), mix(fill.b), 255};
}

} // namespace

Rgba agentFill(AgentState state) {
    switch (state) {
    case AgentState::Active:
        return palette::kAgentActive;
    case AgentState::AtGoal:
        return palette::kAgentAtGoal;
    case AgentState::Static:
        return palette::kAgentStatic;
    case AgentState::Lp3:
        return palette::kAgentLp3;
    }
    return palette::kAgentActive;
}

void WorldRenderer::draw(ImDrawList& drawList, const Camera& camera, const Simulator& sim,
                         const WorldViewOptions& options, std::span<const std::uint8_t> lp3Flags) {
    m_stats = {};
    m_pixelsPerPoint = std::max(ImGui::GetIO().DisplayFramebufferScale.x, 1e-3f);
    const Rect& vp = camera.viewport();
    drawList.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    if (options.grid) drawGrid(drawList, camera);
    // Goal lines under obstacles and agents: they cross obstacles by design.
    if (options.goals || options.goalLines) drawGoals(drawList, camera, sim, options);
    if (options.obstacles) {
        syncObstacles(sim);
        drawObstacles(drawList, camera);
    }
    drawAgents(drawList, camera, sim, options, lp3Flags);
    drawList.PopClipRect();
}

void WorldRenderer::drawGrid(ImDrawList& dl, const Camera& camera) const {
    constexpr double kMinSpacingPoints = 24.0;
    const double minor = niceStep(kMinSpacingPoints / camera.scale());
    // Major lines on the next power of ten.
    const double major = std::pow(10.0, std::ceil(std::log10(minor * 1.0001)));
    const Rect world = camera.visibleWorld();
    const Rect& vp = camera.viewport();

    auto lineColour = [&](double w) {
        if (std::abs(w) < 0.5 * minor) return col(palette::kGridAxis);
        const double r = std::remainder(w, major);
        return std::abs(r) < 0.5 * minor ? col(palette::kGridMajor) : col(palette::kGridMinor);
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
        const ObstacleId id = sim.obstacleAt(i);
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

void WorldRenderer::drawObstacles(ImDrawList& dl, const Camera& camera) {
    const Rect world = camera.visibleWorld();
    const ImU32 fill = col(palette::kObstacleFill);
    const ImU32 outline = col(palette::kObstacleOutline);
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    std::vector<ImVec2> screen;
    for (const CachedObstacle& o : m_obstacles) {
        if (!o.bounds.intersects(world)) continue;
        ++m_stats.obstaclesDrawn;
        screen.resize(o.vertices.size());
        for (std::size_t k = 0; k < o.vertices.size(); ++k)
            screen[k] = toIm(camera.worldToScreen(o.vertices[k]));

        // Fill as one indexed mesh without anti-aliasing fringes, so shared triangle edges of
        // a concave polygon leave no seams; the anti-aliased outline covers the border.
        if (!o.triangles.empty()) {
            dl.PrimReserve(static_cast<int>(o.triangles.size()), static_cast<int>(screen.size()));
            const auto base = static_cast<ImDrawIdx>(dl._VtxCurrentIdx);
            for (const ImVec2& p : screen)
                dl.PrimWriteVtx(p, uv, fill);
            for (const std::uint32_t t : o.triangles)
                dl.PrimWriteIdx(static_cast<ImDrawIdx>(base + t));
        }
        const ImDrawFlags closed = screen.size() >= 3 ? ImDrawFlags_Closed : ImDrawFlags_None;
        dl.AddPolyline(screen.data(), static_cast<int>(screen.size()), outline, closed, 1.5f);
    }
}

void WorldRenderer::drawGoals(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                              const WorldViewOptions& options) const {
    const auto positions = sim.positions();
    const auto params = sim.agentParamsAll();
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    const double detailRadius = static_cast<double>(kDetailRadiusPx / m_pixelsPerPoint);
    const ImU32 lineCol = col(palette::kGoalLine);
    const ImU32 goalCol = col(palette::kGoal);
    const float arm = 4.0f;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        // Same level of detail as outlines: dots get no goal marks (thousands of lines to
        // goals would only paint the screen grey).
        if (!sim.hasGoalAt(i) || sim.isStaticAt(i) || params[i].radius * scale < detailRadius)
            continue;
        const Vec2 g = sim.goalAt(i);
        if (options.goalLines && !sim.atGoalIndex(i)) {
            Rect seg = Rect::empty();
            seg.include(g);
            seg.include(positions[i]);
            if (seg.intersects(world))
                dl.AddLine(toIm(camera.worldToScreen(positions[i])), toIm(camera.worldToScreen(g)),
                           lineCol);
        }
        if (options.goals && world.expanded(arm / scale).contains(g)) {
            const ImVec2 s = toIm(camera.worldToScreen(g));
            dl.AddLine({s.x - arm, s.y - arm}, {s.x + arm, s.y + arm}, goalCol, 1.5f);
            dl.AddLine({s.x - arm, s.y + arm}, {s.x + arm, s.y - arm}, goalCol, 1.5f);
        }
    }
}

void WorldRenderer::drawAgents(ImDrawList& dl, const Camera& camera, const Simulator& sim,
                               const WorldViewOptions& options,
                               std::span<const std::uint8_t> lp3Flags) {
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const auto params = sim.agentParamsAll();
    const std::size_t n = positions.size();
    const bool haveLp3 = lp3Flags.size() == n;
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    const float detailRadius = kDetailRadiusPx / m_pixelsPerPoint;
    const float dotHalf = 1.0f / m_pixelsPerPoint; // 2 px wide dots at any DPI

    m_detailed.clear();
    for (std::size_t i = 0; i < n; ++i) {
        const double radius = params[i].radius;
        const Vec2 p = positions[i];
        if (p.x + radius < world.min.x || p.x - radius > world.max.x ||
            p.y + radius < world.min.y || p.y - radius > world.max.y)
            continue;
        AgentState state = AgentState::Active;
        if (sim.isStaticAt(i))
            state = AgentState::Static;
        else if (haveLp3 && lp3Flags[i] != 0)
            state = AgentState::Lp3;
        else if (sim.atGoalIndex(i))
            state = AgentState::AtGoal;
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
        dl.AddCircle(c, r, col(outlineOf(agentFill(state))), 0, 1.0f);
        m_detailed.push_back(static_cast<std::uint32_t>(i));
    }
    m_stats.agentsDetailed = m_detailed.size();

    // Velocity arrows on top of every agent.
    if (!options.velocities) return;
    const ImU32 arrowCol = col(palette::kVelocity);
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
        dl.AddLine(c, base, arrowCol, 1.5f);
        dl.AddTriangleFilled(t, {base.x + side.x, base.y + side.y},
                             {base.x - side.x, base.y - side.y}, arrowCol);
    }
}

} // namespace orca::ui
