// The world view of the SVG export (svg_parts.hpp), as world_renderer.cpp and
// drawExplainInWorld draw it on screen, with the same colours and labels (element_colours.hpp,
// grid_style.hpp, label_style.hpp): grid, goals, obstacles, the detour field, agents with their
// arrows, ids and selection rings, and the primary agent's explain record around it.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "orca/simulator.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/grid_style.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/world_renderer.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

// data-state of an agent's element.
const char* stateName(AgentState state) {
    switch (state) {
    case AgentState::Active:
        return "active";
    case AgentState::AtGoal:
        return "at-goal";
    case AgentState::Static:
        return "static";
    case AgentState::Lp3:
        return "lp3";
    case AgentState::Detouring:
        return "detouring";
    }
    return "active";
}

void drawGrid(Writer& w, const Camera& camera) {
    const GridSteps steps = worldGridSteps(camera.scale());
    const double minor = steps.minor;
    const Rect world = camera.visibleWorld();
    const Rect& vp = camera.viewport();
    std::string d[3]; // by GridLine: minor, major, axis
    auto kind = [&](double v) { return static_cast<int>(gridLineAt(v, steps)); };
    for (double x = std::floor(world.min.x / minor) * minor; x <= world.max.x; x += minor) {
        const double sx = std::floor(camera.worldToScreen({x, 0.0}).x) + 0.5;
        gridSegment(d[kind(x)], 'V', sx, vp.min.y, vp.max.y);
    }
    for (double y = std::floor(world.min.y / minor) * minor; y <= world.max.y; y += minor) {
        const double sy = std::floor(camera.worldToScreen({0.0, y}).y) + 0.5;
        gridSegment(d[kind(y)], 'H', sy, vp.min.x, vp.max.x);
    }
    w.raw("<g class=\"grid\">\n");
    for (int k = 0; k < 3; ++k)
        w.path(d[k], strokeAttr(gridColour(static_cast<GridLine>(k), GridView::World), 1.0));
    w.raw("</g>\n");
}

void drawEdgeMarks(Writer& w, const std::vector<Vec2>& screen, bool winding, bool normals) {
    const std::size_t n = screen.size();
    const std::size_t edges = n >= 3 ? n : (n == 2 ? 1 : 0);
    for (std::size_t k = 0; k < edges; ++k) {
        const Vec2 a = screen[k];
        const Vec2 b = screen[(k + 1) % n];
        const double len = length(b - a);
        if (len < 28.0) continue;
        const Vec2 u = (b - a) / len;
        const Vec2 m = (a + b) * 0.5;
        const Vec2 out{-u.y, u.x};
        if (winding) {
            const double h = 6.0;
            const Vec2 tri[] = {m + u * h, m - u * h + out * (h * 0.6),
                                m - u * h - out * (h * 0.6)};
            w.polygon(tri, fillAttr(palette().kObstacleWinding));
        }
        if (normals) {
            const double l = std::min(14.0, 0.3 * len);
            const Vec2 base = m + u * (winding ? 8.0 : 0.0);
            w.line(base, base + out * l, strokeAttr(palette().kObstacleNormal, 1.5));
            if (n == 2) w.line(base, base - out * l, strokeAttr(palette().kObstacleNormal, 1.5));
        }
    }
}

} // namespace

void drawWorld(Writer& w, const SvgPicture& p) {
    const Simulator& sim = *p.sim;
    const Camera& camera = p.camera;
    const WorldViewOptions& opt = p.world;
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    constexpr double kDetailRadius = kAgentDetailRadiusPx; // at one pixel per point
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const auto params = sim.agentParams();

    if (opt.grid) drawGrid(w, camera);

    if (opt.goals || opt.goalLines) {
        w.raw("<g class=\"goals\">\n");
        for (std::size_t i = 0; i < positions.size(); ++i) {
            if (!sim.hasGoalAt(i) || sim.isStaticAt(i) || params[i].radius * scale < kDetailRadius)
                continue;
            const Vec2 g = sim.goalAt(i);
            if (opt.goalLines && !sim.atGoalAt(i)) {
                Rect seg = Rect::empty();
                seg.include(g);
                seg.include(positions[i]);
                if (seg.intersects(world))
                    w.line(camera.worldToScreen(positions[i]), camera.worldToScreen(g),
                           strokeAttr(palette().kGoalLine, 1.0));
            }
            if (opt.goals && world.expanded(4.0 / scale).contains(g)) {
                const Vec2 s = camera.worldToScreen(g);
                // Appended (not "M" + string): GCC 12's -Wrestrict false positive.
                std::string cross(1, 'M');
                cross += num(s.x - 4) + " " + num(s.y - 4) + " L" + num(s.x + 4) + " " +
                         num(s.y + 4) + " M" + num(s.x - 4) + " " + num(s.y + 4) + " L" +
                         num(s.x + 4) + " " + num(s.y - 4);
                w.path(cross, " class=\"goal\" data-agent=\"" + std::to_string(i) + "\"" +
                                  strokeAttr(palette().kGoal, 1.5));
            }
        }
        w.raw("</g>\n");
    }

    if (opt.obstacles) {
        w.raw("<g class=\"obstacles\">\n");
        for (std::size_t i = 0; i < sim.obstacleCount(); ++i) {
            const auto verts = sim.obstacleVertices(sim.obstacleIdAt(i));
            std::vector<Vec2> screen;
            Rect bounds = Rect::empty();
            for (const Vec2& v : verts) {
                screen.push_back(camera.worldToScreen(v));
                bounds.include(v);
            }
            if (!bounds.intersects(world)) continue;
            const std::string attrs =
                " class=\"obstacle\" data-obstacle=\"" + std::to_string(i) + "\"";
            if (screen.size() >= 3)
                w.polygon(screen, attrs + fillAttr(palette().kObstacleFill) + " stroke=\"" +
                                      hex(palette().kObstacleOutline) +
                                      "\" stroke-width=\"1.5\" stroke-linejoin=\"round\"");
            else
                w.polyline(screen, attrs + strokeAttr(palette().kObstacleOutline, 1.5));
            if (opt.obstacleWinding || opt.obstacleNormals)
                drawEdgeMarks(w, screen, opt.obstacleWinding, opt.obstacleNormals);
        }
        w.raw("</g>\n");
    }

    if (opt.detourField && !sim.detourField().empty()) {
        const DetourField& field = sim.detourField();
        const double cell = field.cellSize();
        const double cellPx = cell * scale;
        const int stride = std::max(1, static_cast<int>(std::ceil(3.0 / std::max(cellPx, 1e-9))));
        if (stride <= 64) {
            w.raw("<g class=\"detour-field\">\n");
            const bool arrows = cellPx * stride >= 9.0;
            const double drawn = cell * stride;
            field.forEachCellIn(
                field.coord(world.min.x), field.coord(world.min.y), field.coord(world.max.x),
                field.coord(world.max.y), [&](const DetourField::Cell& c) {
                    if (stride > 1 && ((c.cx % stride) != 0 || (c.cy % stride) != 0)) return;
                    const double magnitude = length(c.vector);
                    if (magnitude <= 1e-12) return;
                    const Rgba shade = detourCellColour(magnitude);
                    const Vec2 lo{c.cx * cell, c.cy * cell};
                    const Vec2 a = camera.worldToScreen(lo);
                    const Vec2 b = camera.worldToScreen(lo + Vec2(drawn, drawn));
                    w.rect({{std::min(a.x, b.x), std::min(a.y, b.y)},
                            {std::max(a.x, b.x), std::max(a.y, b.y)}},
                           fillAttr(shade));
                    if (!arrows) return;
                    const Vec2 centre = lo + Vec2(0.5 * drawn, 0.5 * drawn);
                    const Vec2 dir = c.vector / magnitude;
                    w.line(camera.worldToScreen(centre - dir * (0.35 * drawn)),
                           camera.worldToScreen(centre + dir * (0.35 * drawn)),
                           strokeAttr(palette().kDetourArrow, 1.0));
                });
            w.raw("</g>\n");
        }
    }

    if (opt.roadmap && sim.params().routing == Routing::Roadmap)
        drawRoadmap(w, camera, sim.roadmap());
    if (opt.routes && p.routes.all) drawRoutes(w, camera, *p.routes.all, false);

    // Agents, then their velocity arrows on top.
    std::vector<std::size_t> detailed;
    w.raw("<g class=\"agents\">\n");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double radius = params[i].radius;
        const Vec2 pos = positions[i];
        if (pos.x + radius < world.min.x || pos.x - radius > world.max.x ||
            pos.y + radius < world.min.y || pos.y - radius > world.max.y)
            continue;
        const AgentState state = agentStateAt(sim, i, p.lp3Flags);
        const Rgba fill = agentFill(state);
        const Vec2 c = camera.worldToScreen(pos);
        const double r = radius * scale;
        const std::string attrs = " class=\"agent\" data-agent=\"" + std::to_string(i) +
                                  "\" data-state=\"" + stateName(state) + "\"";
        if (r < kDetailRadius) {
            const double h = std::max(r, 1.0);
            w.rect({c - Vec2(h), c + Vec2(h)}, attrs + fillAttr(fill));
            continue;
        }
        w.circle(c, r,
                 attrs + fillAttr(fill) + " stroke=\"" + hex(agentOutline(fill)) +
                     "\" stroke-width=\"1\"");
        detailed.push_back(i);
    }
    w.raw("</g>\n");
    if (opt.velocities) {
        w.raw("<g class=\"velocity-arrows\">\n");
        for (const std::size_t i : detailed) {
            const Vec2 c = camera.worldToScreen(positions[i]);
            const Vec2 tip =
                camera.worldToScreen(positions[i] + velocities[i] * opt.velocityArrowSeconds);
            const double len = length(tip - c);
            if (len < 2.0) continue;
            const Vec2 u = (tip - c) / len;
            const double head = std::min(6.0, 0.4 * len);
            const Vec2 base = tip - u * head;
            const Vec2 side{-u.y * head * 0.5, u.x * head * 0.5};
            w.line(c, base, strokeAttr(palette().kVelocity, 1.5));
            const Vec2 tri[] = {tip, base + side, base - side};
            w.polygon(tri, fillAttr(palette().kVelocity));
        }
        w.raw("</g>\n");
    }
    if (p.routes.selected) drawRoutes(w, camera, *p.routes.selected, true);
    if (opt.agentIds) {
        w.raw("<g class=\"agent-ids\">\n");
        for (const std::size_t i : detailed) {
            const double r = params[i].radius * scale;
            if (r < kAgentIdMinRadius) continue;
            const Vec2 c = camera.worldToScreen(positions[i]);
            const Vec2 at{c.x + r * 0.72, c.y - r * 0.72 - w.fontSize() * 0.8};
            const std::string id = agentIdLabel(i);
            w.text(at + Vec2(1.0, 1.0), agentIdShadowSvg(), id);
            w.text(at, palette().kAgentLabel, id);
        }
        w.raw("</g>\n");
    }
    if (opt.selectionRings && !p.selected.empty()) {
        w.raw("<g class=\"selection\">\n");
        for (const std::size_t i : p.selected) {
            if (i >= positions.size()) continue;
            const double r = std::max(params[i].radius * scale, 5.0) + 3.0;
            const Vec2 c = camera.worldToScreen(positions[i]);
            w.circle(c, r, strokeAttr(palette().kSelectionShadow, 4.0));
            w.circle(c, r, strokeAttr(palette().kSelection, 2.0));
        }
        w.raw("</g>\n");
    }

    // The primary agent's explain record around it.
    if (p.record && p.layers.inWorld) {
        const ExplainRecord& rec = *p.record;
        const Vec2 centre = camera.worldToScreen(rec.position);
        w.raw("<g class=\"explain\" data-agent-slot=\"" + std::to_string(rec.agent.slot) +
              "\" data-step=\"" + std::to_string(rec.step) + "\">\n");
        if (p.layers.neighborCircle)
            w.circle(centre, rec.params.neighborDist * scale,
                     " class=\"neighbor-circle\"" + strokeAttr(palette().kNeighborCircle, 1.0));
        // In construction mode the current line's neighbour (or segment) is the one marked.
        const ConstructionGeometry* construction =
            p.construction && p.construction->line >= 0 &&
                    static_cast<std::size_t>(p.construction->line) < rec.lines.size()
                ? &*p.construction
                : nullptr;
        const int hl = construction ? construction->line : -1;
        if (p.layers.neighborLinks && !rec.isStatic) {
            for (std::size_t i = rec.numObstacleLines; i < rec.lines.size(); ++i) {
                // Where the neighbour is, recovered from its VO (neighborInWorld).
                const auto nb = neighborInWorld(rec, rec.lines[i]);
                if (!nb) continue;
                const Vec2 other = camera.worldToScreen(nb->position);
                if (static_cast<int>(i) != hl) {
                    w.line(centre, other,
                           " class=\"neighbor-link\"" + strokeAttr(palette().kNeighborLink, 1.0));
                    continue;
                }
                w.line(centre, other,
                       " class=\"neighbor-link\"" + strokeAttr(palette().kHighlight, 2.0));
                w.circle(other, nb->radius * scale + 3.0, strokeAttr(palette().kHighlight, 2.0));
            }
        }
        if (hl >= 0 && static_cast<std::size_t>(hl) < rec.numObstacleLines)
            if (const auto seg =
                    obstacleSegmentInWorld(rec, rec.lines[static_cast<std::size_t>(hl)]))
                w.line(camera.worldToScreen((*seg)[0]), camera.worldToScreen((*seg)[1]),
                       strokeAttr(palette().kHighlight, 4.0));
        if (p.layers.detour && rec.detour.enabled && rec.detour.sampleRadius > 0.0) {
            const Vec2 sp = camera.worldToScreen(rec.detour.samplePoint);
            w.circle(sp, rec.detour.sampleRadius * scale, strokeAttr(palette().kDetourSample, 1.5));
            w.marker(sp, palette().kDetourSample, 3.0);
            if (absSq(rec.detour.sampledDirection) > 0.0) {
                const double len = 2.0 * rec.params.radius + rec.detour.sampleRadius;
                w.arrow(centre,
                        camera.worldToScreen(rec.position + rec.detour.sampledDirection * len),
                        palette().kDetourSample, 2.0);
            }
            const OverlayLabel sl = detourSampleLabel(rec.detour.mode);
            w.label(sp + Vec2(6.0, 6.0), sl.colour, sl.text);
        }
        const VelocityTransform t =
            VelocityTransform::forWorld(camera, rec.position, p.style.worldSeconds);
        if (construction && !rec.isStatic) {
            // Construction mode: everything else faint and unlabelled, the current line on top.
            w.raw("<g class=\"faded\" opacity=\"0.25\">\n");
            drawVelocitySpace(w, t, camera.viewport(), rec, p.layers, p.style, false, false);
            w.raw("</g>\n");
            drawConstructionInWorld(w, t, camera.viewport(), rec, *construction, p.style);
        } else {
            drawVelocitySpace(w, t, camera.viewport(), rec, p.layers, p.style, false, true);
        }
        w.raw("</g>\n");
    }
}

} // namespace orca::ui::svg
