#include "orca/ui/explain_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "orca/ui/explain_text.hpp"

namespace orca::ui {

namespace {

constexpr double kPi = std::numbers::pi;

double wrapTwoPi(double a) {
    a = std::fmod(a, 2.0 * kPi);
    return a < 0.0 ? a + 2.0 * kPi : a;
}
double angleOf(Vec2 v) {
    return std::atan2(v.y, v.x);
}

void appendArc(std::vector<Vec2>& out, Vec2 c, double r, double a0, double sweep, int arcPoints) {
    const int n = std::max(2, static_cast<int>(std::ceil(arcPoints * sweep / kPi)) + 1);
    for (int i = 0; i < n; ++i) {
        const double a = a0 + sweep * i / (n - 1);
        out.push_back(c + Vec2(std::cos(a), std::sin(a)) * r);
    }
}

// Counter-clockwise sweep from a0 to a1; a slightly negative one (rounding, or foreign legs
// pointing past the segment's normal) counts as none.
double ccwSweep(double a0, double a1) {
    const double s = wrapTwoPi(a1 - a0);
    return s > 1.5 * kPi ? 0.0 : s;
}

} // namespace

// ---- Transform ----------------------------------------------------------------------------------

Rect VelocityTransform::toVelocity(const Rect& screen) const {
    const Vec2 a = toVelocity(screen.min);
    const Vec2 b = toVelocity(screen.max);
    return {{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
}

VelocityTransform VelocityTransform::forWorld(const Camera& camera, Vec2 position, double seconds) {
    return {camera.worldToScreen(position), camera.scale() * seconds};
}

// ---- Half-planes and lines in a view -----------------------------------------------------------

SmallPolygon clipRectToHalfPlane(const Rect& rect, const Line& line, bool permittedSide) {
    const std::array<Vec2, 4> corners{Vec2{rect.min.x, rect.min.y}, Vec2{rect.max.x, rect.min.y},
                                      Vec2{rect.max.x, rect.max.y}, Vec2{rect.min.x, rect.max.y}};
    const double sign = permittedSide ? 1.0 : -1.0;
    auto side = [&](Vec2 p) { return sign * det(line.direction, p - line.point); };
    SmallPolygon out;
    for (std::size_t i = 0; i < corners.size(); ++i) {
        const Vec2 a = corners[i];
        const Vec2 b = corners[(i + 1) % corners.size()];
        const double fa = side(a);
        const double fb = side(b);
        if (fa >= 0.0) out.points[static_cast<std::size_t>(out.count++)] = a;
        if ((fa >= 0.0) != (fb >= 0.0))
            out.points[static_cast<std::size_t>(out.count++)] = a + (b - a) * (fa / (fa - fb));
    }
    if (out.count < 3) out.count = 0;
    return out;
}

std::optional<std::array<Vec2, 2>> clipLineToRect(const Line& line, const Rect& rect) {
    double t0 = -std::numeric_limits<double>::infinity();
    double t1 = std::numeric_limits<double>::infinity();
    const double q[2] = {line.point.x, line.point.y};
    const double d[2] = {line.direction.x, line.direction.y};
    const double lo[2] = {rect.min.x, rect.min.y};
    const double hi[2] = {rect.max.x, rect.max.y};
    for (int k = 0; k < 2; ++k) {
        if (d[k] == 0.0) {
            if (q[k] < lo[k] || q[k] > hi[k]) return std::nullopt;
            continue;
        }
        double a = (lo[k] - q[k]) / d[k];
        double b = (hi[k] - q[k]) / d[k];
        if (a > b) std::swap(a, b);
        t0 = std::max(t0, a);
        t1 = std::min(t1, b);
    }
    if (!(t0 <= t1) || std::isinf(t0) || std::isinf(t1)) return std::nullopt;
    return std::array<Vec2, 2>{line.point + line.direction * t0, line.point + line.direction * t1};
}

Vec2 forbiddenNormalScreen(const Line& line) {
    // Velocity-space right normal (d.y, -d.x); the y flip turns it into (d.y, d.x).
    return {line.direction.y, line.direction.x};
}

std::optional<Vec2> lineLabelAt(const Line& line, const Rect& clipVel) {
    if (clipVel.contains(line.point)) return line.point;
    const auto seg = clipLineToRect(line, clipVel);
    if (!seg) return std::nullopt;
    return ((*seg)[0] + (*seg)[1]) * 0.5;
}

LabelSide labelSideToward(Vec2 dir) {
    // Eight sectors of 45 degrees around the screen direction (y down).
    const double a = std::atan2(-dir.y, dir.x); // counter-clockwise from +x, y up
    const int sector = static_cast<int>(std::floor(a / (kPi / 4.0) + 0.5)) & 7;
    constexpr LabelSide kBySector[] = {
        LabelSide::Right, LabelSide::AboveRight, LabelSide::Above, LabelSide::AboveLeft,
        LabelSide::Left,  LabelSide::BelowLeft,  LabelSide::Below, LabelSide::BelowRight};
    return kBySector[sector];
}

double rayLengthOut(Vec2 start, const Rect& r) {
    return length(start - r.center()) + 0.5 * length(r.size()) + 1.0;
}

Vec2 uArrowTip(const ExplainRecord& rec, const ExplainLine& l) {
    return isObstacleCase(l.lineCase) ? rec.velocity + l.u : l.line.point;
}

// ---- Velocity obstacles ------------------------------------------------------------------------

void voOutline(const VelocityObstacle& vo, int arcPoints, VoOutline& out) {
    out.valid = false;
    out.disk = false;
    out.nearBoundary.clear();
    if (!hasVo(vo)) return;
    out.valid = true;
    const double r = vo.cutoffRadius;
    if (vo.colliding) {
        out.disk = true;
        appendArc(out.nearBoundary, vo.cutoffCenter, r, 0.0, 2.0 * kPi, 2 * arcPoints);
        out.leftTangent = out.rightTangent = out.nearBoundary.front();
        return;
    }
    const Vec2 cl = vo.cutoffCenter;
    const Vec2 cr = vo.cutoffCenter2;
    const Vec2 nl = perp(vo.leftLeg);
    const Vec2 nr = -perp(vo.rightLeg);
    out.leftTangent = cl + nl * r;
    out.rightTangent = cr + nr * r;
    const Vec2 seg = cr - cl;
    if (absSq(seg) <= 1e-24) {
        appendArc(out.nearBoundary, cl, r, angleOf(nl), ccwSweep(angleOf(nl), angleOf(nr)),
                  arcPoints);
        return;
    }
    // Capsule: around the left centre to the segment's side facing the apex (its right
    // normal), along the cut-off line, around the right centre.
    const double an = angleOf(-perp(seg));
    appendArc(out.nearBoundary, cl, r, angleOf(nl), ccwSweep(angleOf(nl), an), arcPoints);
    appendArc(out.nearBoundary, cr, r, an, ccwSweep(an, angleOf(nr)), arcPoints);
}

VoOutline voOutline(const VelocityObstacle& vo, int arcPoints) {
    VoOutline out;
    voOutline(vo, arcPoints, out);
    return out;
}

int voArcPoints(const VelocityObstacle& vo, double pixelsPerUnit) {
    // About one point per 4 px of a half circle, so arcs stay round at any zoom.
    return static_cast<int>(std::clamp(kPi * vo.cutoffRadius * pixelsPerUnit / 4.0, 6.0, 128.0));
}

bool voContains(const VelocityObstacle& vo, Vec2 x) {
    if (!hasVo(vo)) return false;
    const double r = vo.cutoffRadius;
    const double rSq = r * r;
    if (vo.colliding) return absSq(x - vo.cutoffCenter) <= rSq;
    if (distSqPointSegment(vo.cutoffCenter, vo.cutoffCenter2, x) <= rSq) return true;
    const Vec2 tl = vo.cutoffCenter + perp(vo.leftLeg) * r;
    const Vec2 tr = vo.cutoffCenter2 - perp(vo.rightLeg) * r;
    // Between the legs and beyond the chord joining their tangent points (the part between
    // the chord and the near boundary lies inside the capsule, tested above).
    return det(vo.leftLeg, x - tl) <= 0.0 && det(vo.rightLeg, x - tr) >= 0.0 &&
           det(tr - tl, x - tl) >= 0.0;
}

// ---- Hover ------------------------------------------------------------------------------------

OverlayHover hitTest(const ExplainRecord& rec, const VelocityTransform& t, const Rect& clip,
                     const OverlayLayers& layers, Vec2 mouse, double hoverPixels) {
    if (!clip.contains(mouse) || rec.isStatic) return {};
    const Vec2 x = t.toVelocity(mouse);
    int best = -1;
    if (layers.halfPlanes) {
        double bestPx = hoverPixels;
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const Line& l = rec.lines[i].line;
            const double px = std::abs(det(l.direction, x - l.point)) * t.pixelsPerUnit;
            if (px <= bestPx) {
                bestPx = px;
                best = static_cast<int>(i);
            }
        }
    }
    if (best < 0 && layers.voCones) {
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const VelocityObstacle& vo = rec.lines[i].vo;
            if (voContains(vo, x - vo.offset)) {
                best = static_cast<int>(i);
                break;
            }
        }
    }
    return {best};
}

// ---- LP3, Focus, the neighbours in the world ----------------------------------------------------

Lp3Marker lp3Marker(const ExplainRecord& rec) {
    Lp3Marker m;
    if (!rec.lp2Failed() || rec.isStatic) return m;
    m.valid = true;
    m.velocity = rec.newVelocity;
    m.foot = rec.newVelocity;
    double worst = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < rec.lines.size(); ++i) {
        if (rec.lines[i].violation > worst) {
            worst = rec.lines[i].violation;
            m.line = static_cast<int>(i);
        }
    }
    if (m.line >= 0 && worst > 0.0) {
        m.depth = worst;
        m.foot = rec.newVelocity +
                 perp(rec.lines[static_cast<std::size_t>(m.line)].line.direction) * worst;
    }
    return m;
}

Rect focusBox(const ExplainRecord& rec) {
    Rect box = Rect::empty();
    box.include(rec.velocity);
    box.include(rec.prefVelocity);
    box.include(rec.newVelocity);
    const double maxSpeed = std::max(rec.params.maxSpeed, 1e-6);
    // "Near the decision": the arrows and region vertices within this distance of v. It grows
    // with the decision (v far from v_new) but stays a fraction of the max-speed disk, so that
    // the u arrows of far-away constraints do not zoom the view back out.
    const double reach = std::max(2.0 * length(box.size()), 0.15 * maxSpeed);
    auto near = [&](Vec2 p) { return length(p - rec.velocity) <= reach; };
    for (const ExplainLine& l : rec.lines) {
        const Vec2 tip = uArrowTip(rec, l);
        if (!near(tip)) continue;
        box.include(tip);
        if (!isObstacleCase(l.lineCase) && near(rec.velocity + l.u))
            box.include(rec.velocity + l.u);
    }
    for (const Vec2& p : rec.feasibleRegion)
        if (near(p)) box.include(p);
    const double minSide = 0.02 * maxSpeed;
    const Vec2 c = box.center();
    const Vec2 half{std::max(0.5 * box.size().x, 0.5 * minSide),
                    std::max(0.5 * box.size().y, 0.5 * minSide)};
    box.include(Rect{c - half, c + half}); // include: centre ± half may round inwards
    return box;
}

std::optional<NeighborInWorld> neighborInWorld(const ExplainRecord& rec, const ExplainLine& l) {
    const double c = length(l.vo.cutoffCenter);
    if (c <= 0.0) return std::nullopt;
    const double k = l.distance / c;
    return NeighborInWorld{rec.position + l.vo.cutoffCenter * k,
                           std::max(l.vo.cutoffRadius * k - rec.params.radius, 0.0)};
}

std::optional<std::array<Vec2, 2>> obstacleSegmentInWorld(const ExplainRecord& rec,
                                                          const ExplainLine& l) {
    if (!hasVo(l.vo)) return std::nullopt;
    const double tau = rec.params.timeHorizonObst;
    return std::array<Vec2, 2>{rec.position + l.vo.cutoffCenter * tau,
                               rec.position + l.vo.cutoffCenter2 * tau};
}

// ---- Construction mode
// ---------------------------------------------------------------------------

int constructionCount(const ExplainRecord& rec) {
    const std::size_t obstacles = std::min(rec.numObstacleLines, rec.lines.size());
    const std::size_t agents = std::min(rec.agentNeighbors.size(), rec.lines.size() - obstacles);
    return static_cast<int>(obstacles + agents);
}

int constructionLine(const ExplainRecord& rec, const ConstructionState& c) {
    const int count = constructionCount(rec);
    if (count == 0) return -1;
    // The walk follows rec.lines: obstacle lines first, then the agent neighbours.
    return std::clamp(c.neighbor, 0, count - 1);
}

std::optional<ConstructionGeometry> constructionGeometry(const ExplainRecord& rec,
                                                         const ConstructionState& c) {
    const int line = constructionLine(rec, c);
    if (line < 0) return std::nullopt;
    const ExplainLine& l = rec.lines[static_cast<std::size_t>(line)];
    ConstructionGeometry g;
    g.line = line;
    g.neighbor = line;
    g.phase = std::clamp(c.phase, 0, ConstructionState::kPhases - 1);
    g.obstacle = static_cast<std::size_t>(line) < rec.numObstacleLines;
    g.relativeSpace = g.phase < 2;
    g.vo = l.vo;
    g.relativeVelocity = l.relativeVelocity;
    g.uEnd = l.relativeVelocity + l.u;
    g.velocity = rec.velocity;
    g.share = l.share;
    g.halfPlane = l.line;
    // Obstacles: the same line, through its nearest point to v_A (v_A + u): the whole u.
    if (g.obstacle) g.halfPlane.point = rec.velocity + l.u;
    g.caption = constructionCaption(rec, line, g.phase);
    return g;
}

OverlayHover hitTestConstruction(const ConstructionGeometry& g, const VelocityTransform& t,
                                 const Rect& clip, Vec2 mouse, double hoverPixels) {
    if (!clip.contains(mouse) || g.line < 0) return {};
    const Vec2 x = t.toVelocity(mouse);
    if (g.relativeSpace) return {voContains(g.vo, x) ? g.line : -1};
    const Line& l = g.halfPlane;
    const double px = std::abs(det(l.direction, x - l.point)) * t.pixelsPerUnit;
    return {px <= hoverPixels ? g.line : -1};
}

} // namespace orca::ui
