#pragma once
/// \file svg_parts.hpp
/// The parts of the SVG picture (svg_export.hpp), each written by its own file with the
/// writer of svg_writer.hpp: the world view (svg_world.cpp), the explain overlays in velocity
/// space, shared by the world view and the panel (svg_velocity_space.cpp), the velocity
/// panel (svg_panel.cpp), construction mode (svg_construction.cpp) and Solve mode
/// (svg_solve.cpp). renderSvg (svg_export.cpp) puts them into one document. Internal to
/// ui/src.

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/route_view.hpp"
#include "orca/ui/solve_view.hpp"
#include "orca/ui/svg_export.hpp"

#include "svg_writer.hpp"

namespace orca::ui::svg {

/// The world view: grid, goals, obstacles, the detour field, agents, their velocity arrows,
/// ids and selection rings, and the primary agent's explain record around it.
void drawWorld(Writer& w, const SvgPicture& p);

/// The roadmap's edges and nodes in the view (route_view.hpp's drawRoadmap in SVG).
void drawRoadmap(Writer& w, const Camera& camera, const Roadmap& roadmap);
/// Routes as route_view.hpp's drawRoutes draws them (`emphasised`: the selected agents').
void drawRoutes(Writer& w, const Camera& camera, const RouteSet& routes, bool emphasised);

/// The record's overlays in A's absolute velocity space through `t`, clipped to `clip`
/// (screen): VO cones, forbidden sides, the feasible region, max speed, half-planes, u arrows,
/// the line indices (panel, with `labels`) and v / v_pref / v_new / LP3 (labelled with
/// `labels`). `panel`: the panel's styling (whole forbidden sides, skipped obstacle VOs).
void drawVelocitySpace(Writer& w, const VelocityTransform& t, const Rect& clip,
                       const ExplainRecord& rec, const OverlayLayers& layers,
                       const OverlayStyle& style, bool panel, bool labels);

/// A VO (relative space, apex at the origin) drawn shifted by `offset` (its own offset:
/// A's absolute space), as explain_overlay.cpp draws it; `apexLegs`: construction mode's faint
/// untruncated legs and whole cut-off circle.
void drawVo(Writer& w, const VelocityTransform& t, const Rect& clipVel, const VelocityObstacle& vo,
            Vec2 offset, const VoLook& look, const std::string& attrs, bool apexLegs = false);

/// Construction mode's step `g` in the panel's canvas, as explain_overlay.cpp's
/// drawConstruction draws it (relative space in phases 0-1, absolute in phase 2); its labels
/// too with `labels`.
void drawConstruction(Writer& w, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, const ConstructionGeometry& g,
                      const OverlayStyle& style, bool labels);
/// Construction mode's step `g` around the agent in the world view (drawExplainInWorld).
void drawConstructionInWorld(Writer& w, const VelocityTransform& t, const Rect& clip,
                             const ExplainRecord& rec, const ConstructionGeometry& g,
                             const OverlayStyle& style);

/// Solve mode's step `f` in the panel's canvas, as solve_view.cpp's drawSolve draws it.
void drawSolve(Writer& w, const VelocityTransform& t, const Rect& clip, const ExplainRecord& rec,
               const SolveFrame& f);

/// The velocity panel's canvas as it was on screen: grid, overlays (or construction / Solve
/// mode's step), captions, legend and the placed labels.
void drawPanel(Writer& w, const SvgPicture& p, const SvgPanel& panel, const ExplainRecord& rec);

} // namespace orca::ui::svg
