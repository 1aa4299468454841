// The scene generators of generators.hpp: circle formation, grid block, random fill and
// crossing flows, with the argument checks and messages they share, and rectangleRegion /
// polygonArea. Keeping clear of the surroundings is in generators_surroundings.cpp.
#include "orca/scene/generators.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <random>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "orca/geometry.hpp"

#include "generators_support.hpp"

namespace orca::scene {

namespace gen {

// ---- Messages ---------------------------------------------------------------------------------

/// Shortest text that reads back as `v`, whole numbers in full ("3", "0.1", "100000",
/// "2.5e-07", "nan").
std::string number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == std::floor(v) && std::fabs(v) < 1e15) {
        return std::to_string(static_cast<long long>(v));
    }
    std::array<char, 32> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    return {buf.data(), static_cast<std::size_t>(res.ptr - buf.data())};
}

std::string number(Vec2 v) {
    // Appended piece by piece: `"(" + std::string` trips GCC 12's -Wrestrict false positive.
    std::string out = "(";
    out += number(v.x);
    out += ", ";
    out += number(v.y);
    out += ')';
    return out;
}

[[noreturn]] void invalid(std::string_view generator, const std::string& message) {
    throw std::invalid_argument(std::string(generator) + ": " + message);
}

void requireFinite(std::string_view generator, std::string_view name, double v) {
    if (!std::isfinite(v)) {
        invalid(generator, std::string(name) + " must be a finite number (got " + number(v) + ")");
    }
}

void requireFinite(std::string_view generator, std::string_view name, Vec2 v) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) {
        invalid(generator, std::string(name) + " must be finite (got " + number(v) + ")");
    }
}

void requirePositive(std::string_view generator, std::string_view name, double v) {
    requireFinite(generator, name, v);
    if (!(v > 0.0)) invalid(generator, std::string(name) + " must be > 0 (got " + number(v) + ")");
}

void requireNonNegative(std::string_view generator, std::string_view name, double v) {
    requireFinite(generator, name, v);
    if (v < 0.0) invalid(generator, std::string(name) + " must be >= 0 (got " + number(v) + ")");
}

void requireCount(std::string_view generator, std::string_view name, std::int64_t v,
                  std::int64_t max) {
    if (v < 1)
        invalid(generator,
                std::string(name) + " must be at least 1 (got " + std::to_string(v) + ")");
    if (v > max) {
        invalid(generator, std::string(name) + " must be at most " + std::to_string(max) +
                               " (got " + std::to_string(v) + ")");
    }
}

/// Throws when a generated position or goal lies beyond the scene format's limit (the scene
/// could not be saved, and the solver's absolute epsilons would stop meaning anything).
void requireWithinSceneLimits(std::string_view generator, const std::vector<SceneAgent>& agents) {
    for (const SceneAgent& a : agents) {
        if (!withinSceneLimits(a.position) || (a.goal && !withinSceneLimits(*a.goal))) {
            invalid(generator, "the agents' positions or goals would lie beyond ±" +
                                   number(kMaxMagnitude) +
                                   " (the scene format's limit); make the layout smaller");
        }
    }
}

void appendNote(std::string& note, const std::string& more) {
    if (more.empty()) return;
    if (!note.empty()) note += "; ";
    note += more;
}

} // namespace gen

namespace {

using namespace gen;

constexpr double kPi = 3.14159265358979323846;
/// Candidates tried per requested agent before a random fill gives up. At 200 a fill stops
/// well into the slow tail of random sequential packing (where almost every candidate lands
/// too close to a placed agent) while 10,000 agents still take only milliseconds.
constexpr std::int64_t kAttemptsPerAgent = 200;

// ---- Geometry ---------------------------------------------------------------------------------

/// Unit vector at `deg` degrees counter-clockwise from +x. Multiples of 90° give exact axis
/// vectors (cos 90° in floating point is 6e-17, which would put "x = 1" agents at
/// 1.0000000000000007); other angles use std::cos/std::sin of the reduced angle.
Vec2 directionDeg(double deg) {
    double reduced = std::fmod(deg, 360.0); // exact
    if (reduced < 0.0) reduced += 360.0;
    if (reduced == 0.0 || reduced == 360.0) return {1.0, 0.0};
    if (reduced == 90.0) return {0.0, 1.0};
    if (reduced == 180.0) return {-1.0, 0.0};
    if (reduced == 270.0) return {0.0, -1.0};
    const double radians = reduced * (kPi / 180.0);
    return {std::cos(radians), std::sin(radians)};
}

/// Area centroid of a polygon with non-zero signed area `area`.
Vec2 polygonCentroid(const std::vector<Vec2>& polygon, double area) {
    Vec2 sum{0.0, 0.0};
    for (std::size_t i = 0, n = polygon.size(); i < n; ++i) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[(i + 1) % n];
        sum += (a + b) * det(a, b);
    }
    return sum / (6.0 * area);
}

/// Points closer than a spacing to one another, found through a uniform grid whose cells are
/// at least `spacing` wide, so that a conflicting point is always in one of the 3×3 cells
/// around the query. Cells are also wide enough that there are about 4 per expected point and
/// at most kMaxCellsPerAxis along an axis, which bounds the memory for huge or thin regions.
/// Points outside the box given at construction are clamped to its border cells, which keeps
/// the 3×3 rule valid.
class SpacingGrid {
  public:
    SpacingGrid(Vec2 min, Vec2 max, double spacing, std::size_t expectedPoints)
        : m_min(min), m_spacingSq(spacing * spacing) {
        const double width = max.x - min.x;
        const double height = max.y - min.y;
        const double targetCells =
            4.0 * static_cast<double>(std::max<std::size_t>(expectedPoints, 16));
        m_cell = std::max({spacing, std::sqrt(width * height / targetCells),
                           std::max(width, height) / kMaxCellsPerAxis});
        m_cellsX = static_cast<std::ptrdiff_t>(std::floor(width / m_cell)) + 1;
        m_cellsY = static_cast<std::ptrdiff_t>(std::floor(height / m_cell)) + 1;
        m_head.assign(static_cast<std::size_t>(m_cellsX * m_cellsY), -1);
        m_points.reserve(expectedPoints);
        m_next.reserve(expectedPoints);
    }

    /// Whether no stored point is closer than the spacing to `p` (distance == spacing is fine).
    [[nodiscard]] bool isClear(Vec2 p) const {
        const auto [cx, cy] = cellOf(p);
        for (std::ptrdiff_t y = std::max<std::ptrdiff_t>(cy - 1, 0);
             y <= std::min(cy + 1, m_cellsY - 1); ++y) {
            for (std::ptrdiff_t x = std::max<std::ptrdiff_t>(cx - 1, 0);
                 x <= std::min(cx + 1, m_cellsX - 1); ++x) {
                for (int i = m_head[index(x, y)]; i >= 0; i = m_next[static_cast<std::size_t>(i)]) {
                    if (absSq(m_points[static_cast<std::size_t>(i)] - p) < m_spacingSq)
                        return false;
                }
            }
        }
        return true;
    }

    void insert(Vec2 p) {
        const auto [cx, cy] = cellOf(p);
        const std::size_t cell = index(cx, cy);
        m_next.push_back(m_head[cell]);
        m_head[cell] = static_cast<int>(m_points.size());
        m_points.push_back(p);
    }

  private:
    static constexpr double kMaxCellsPerAxis = 4096.0;

    [[nodiscard]] std::pair<std::ptrdiff_t, std::ptrdiff_t> cellOf(Vec2 p) const {
        const auto clampCell = [](double t, std::ptrdiff_t cells) {
            if (!(t > 0.0)) return std::ptrdiff_t{0};
            if (t >= static_cast<double>(cells - 1)) return cells - 1;
            return static_cast<std::ptrdiff_t>(t);
        };
        return {clampCell((p.x - m_min.x) / m_cell, m_cellsX),
                clampCell((p.y - m_min.y) / m_cell, m_cellsY)};
    }
    [[nodiscard]] std::size_t index(std::ptrdiff_t x, std::ptrdiff_t y) const {
        return static_cast<std::size_t>(y * m_cellsX + x);
    }

    Vec2 m_min;
    double m_spacingSq;
    double m_cell = 1.0;
    std::ptrdiff_t m_cellsX = 1;
    std::ptrdiff_t m_cellsY = 1;
    std::vector<int> m_head; ///< Per cell: index of its last inserted point, or -1.
    std::vector<int> m_next; ///< Per point: the previous point of the same cell, or -1.
    std::vector<Vec2> m_points;
};

// ---- Agents -----------------------------------------------------------------------------------

/// Fills the prototype-copy rules of the header.
class AgentMaker {
  public:
    explicit AgentMaker(const SceneAgent& prototype) : m_prototype(prototype) {
        m_prototype.id.reset();
        m_prototype.goal.reset();
        m_prototype.detourMode = DetourMode::Normal;
        m_prototype.stillSeconds = 0.0;
        if (m_prototype.isStatic) m_prototype.prefVelocity.reset();
    }

    [[nodiscard]] SceneAgent operator()(Vec2 position, std::optional<Vec2> goal) {
        SceneAgent a = m_prototype;
        a.position = position;
        if (goal) {
            if (a.isStatic) {
                m_droppedGoals = true;
            } else {
                a.goal = goal;
                a.prefVelocity.reset();
            }
        }
        return a;
    }

    /// The note to add: non-empty when goals were dropped for a static prototype.
    [[nodiscard]] std::string note() const {
        return m_droppedGoals ? "static agents get no goals (they never move)" : "";
    }

  private:
    SceneAgent m_prototype;
    bool m_droppedGoals = false;
};

/// Uniform random numbers in [0, 1): a raw std::mt19937 output / 2^32. Unlike
/// std::uniform_real_distribution (whose algorithm is implementation-defined) this gives the
/// same numbers with every standard library.
class UnitRandom {
  public:
    explicit UnitRandom(std::uint32_t seed) : m_rng(seed) {}
    double operator()() { return static_cast<double>(m_rng()) / 4294967296.0; }

  private:
    std::mt19937 m_rng;
};

} // namespace

// ---- Public helpers ---------------------------------------------------------------------------

std::vector<Vec2> rectangleRegion(Vec2 min, Vec2 max) {
    const Vec2 lo{std::min(min.x, max.x), std::min(min.y, max.y)};
    const Vec2 hi{std::max(min.x, max.x), std::max(min.y, max.y)};
    return {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
}

double polygonArea(const std::vector<Vec2>& polygon) {
    return std::fabs(orca::signedArea(polygon));
}

// ---- Generators -------------------------------------------------------------------------------

GeneratorResult generate(const CircleFormation& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const CircleFormation& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "circle formation";
    requireFinite(kName, "center", params.center);
    requirePositive(kName, "radius", params.radius);
    requireCount(kName, "count", params.count, kMaxGeneratedAgents);
    requireFinite(kName, "startAngleDeg", params.startAngleDeg);
    const double radius = checkSurroundings(kName, surroundings, prototype);

    AgentMaker make(prototype);
    GeneratorResult result;
    result.agents.reserve(static_cast<std::size_t>(params.count));
    for (int i = 0; i < params.count; ++i) {
        const double angle = params.startAngleDeg +
                             360.0 * static_cast<double>(i) / static_cast<double>(params.count);
        const Vec2 offset = params.radius * directionDeg(angle);
        result.agents.push_back(make(params.center + offset, params.center - offset));
    }
    requireWithinSceneLimits(kName, result.agents);
    keepClear(result, surroundings, radius);
    appendNote(result.note, make.note());
    return result;
}

GeneratorResult generate(const GridBlock& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const GridBlock& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "grid block";
    requireFinite(kName, "center", params.center);
    requireCount(kName, "rows", params.rows, kMaxGeneratedAgents);
    requireCount(kName, "columns", params.columns, kMaxGeneratedAgents);
    requireCount(kName, "rows × columns", std::int64_t{params.rows} * params.columns,
                 kMaxGeneratedAgents);
    requirePositive(kName, "spacing", params.spacing);
    requireFinite(kName, "goalOffset", params.goalOffset);
    const double radius = checkSurroundings(kName, surroundings, prototype);

    AgentMaker make(prototype);
    GeneratorResult result;
    result.agents.reserve(static_cast<std::size_t>(params.rows) *
                          static_cast<std::size_t>(params.columns));
    // Offsets from the centre in units of spacing are exact half-integers: c - (columns-1)/2.
    const double midColumn = 0.5 * static_cast<double>(params.columns - 1);
    const double midRow = 0.5 * static_cast<double>(params.rows - 1);
    for (int r = 0; r < params.rows; ++r) {
        for (int c = 0; c < params.columns; ++c) {
            const Vec2 position =
                params.center + Vec2((static_cast<double>(c) - midColumn) * params.spacing,
                                     (static_cast<double>(r) - midRow) * params.spacing);
            std::optional<Vec2> goal;
            if (params.withGoals) goal = position + params.goalOffset;
            result.agents.push_back(make(position, goal));
        }
    }
    requireWithinSceneLimits(kName, result.agents);
    keepClear(result, surroundings, radius);
    appendNote(result.note, make.note());
    return result;
}

GeneratorResult generate(const RandomFill& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const RandomFill& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "random fill";
    const std::vector<Vec2>& region = params.region;
    if (region.size() < 3) {
        invalid(kName,
                "the region needs at least 3 vertices (got " + std::to_string(region.size()) + ")");
    }
    for (std::size_t i = 0; i < region.size(); ++i) {
        const std::string name = "region vertex " + std::to_string(i);
        requireFinite(kName, name, region[i]);
        if (!withinSceneLimits(region[i])) {
            invalid(kName, name + " " + number(region[i]) + " lies beyond ±" +
                               number(kMaxMagnitude) + " (the scene format's limit)");
        }
    }
    const double signedArea = orca::signedArea(region);
    const double area = std::fabs(signedArea);
    if (!(area > 0.0)) {
        invalid(kName, "the region has zero area (are all its vertices on one line?)");
    }
    requireNonNegative(kName, "density", params.density);
    requirePositive(kName, "minSpacing", params.minSpacing);
    const double radius = checkSurroundings(kName, surroundings, prototype);

    GeneratorResult result;
    int count = params.count;
    if (params.density > 0.0) {
        const double wanted = std::round(params.density * area);
        const std::string howMany = "density " + number(params.density) + " × area " +
                                    number(area) + " = " + number(params.density * area);
        if (wanted > static_cast<double>(kMaxGeneratedAgents)) {
            invalid(kName, howMany + " agents, more than the limit of " +
                               std::to_string(kMaxGeneratedAgents));
        }
        count = static_cast<int>(wanted);
        result.requested = count;
        if (count == 0) {
            result.note = howMany + " rounds to 0 agents";
            return result;
        }
    } else {
        requireCount(kName, "count", params.count, kMaxGeneratedAgents);
        result.requested = count;
    }

    Vec2 lo = region.front();
    Vec2 hi = region.front();
    for (const Vec2 v : region) {
        lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
        hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
    }
    const Vec2 extent = hi - lo;

    // Positions: rejection sampling in the bounding box (inside the polygon, clear of the
    // surroundings and of the agents placed so far), one shared budget of candidates. Every
    // attempt draws x and y whatever is rejected, so the surroundings change which candidates
    // are kept, never the candidates themselves.
    const auto wantedAgents = static_cast<std::size_t>(count);
    std::vector<Vec2> positions;
    positions.reserve(wantedAgents);
    SpacingGrid grid(lo, hi, params.minSpacing, wantedAgents);
    const Clearance clearance(surroundings, radius, Box{lo, hi});
    const bool useClearance = clearance.any();
    std::int64_t triesOnAgents = 0;
    std::int64_t triesOnObstacles = 0;
    UnitRandom unit(params.seed);
    const std::int64_t budget = kAttemptsPerAgent * count;
    for (std::int64_t attempt = 0; attempt < budget && positions.size() < wantedAgents; ++attempt) {
        const double ux = unit(); // two statements: x is always drawn before y
        const double uy = unit();
        const Vec2 candidate{lo.x + ux * extent.x, lo.y + uy * extent.y};
        if (!pointInPolygon(region, candidate)) continue;
        if (useClearance) {
            const bool onAgent = clearance.hitsAgent(candidate);
            const bool onObstacle = clearance.hitsObstacle(candidate);
            triesOnAgents += onAgent ? 1 : 0;
            triesOnObstacles += onObstacle ? 1 : 0;
            if (onAgent || onObstacle) continue;
        }
        if (!grid.isClear(candidate)) continue;
        grid.insert(candidate);
        positions.push_back(candidate);
    }
    result.unplaced = count - static_cast<int>(positions.size());
    if (positions.size() < wantedAgents) {
        std::string blocked;
        if (triesOnAgents > 0)
            blocked = std::to_string(triesOnAgents) + " tries overlapped existing agents";
        if (triesOnObstacles > 0) {
            blocked += blocked.empty()
                           ? std::to_string(triesOnObstacles) + " tries overlapped obstacles"
                           : ", " + std::to_string(triesOnObstacles) + " obstacles";
        }
        appendNote(result.note, "placed " + std::to_string(positions.size()) + " of " +
                                    std::to_string(count) + ": no room at minSpacing " +
                                    number(params.minSpacing) + " after " + std::to_string(budget) +
                                    " tries" + (blocked.empty() ? "" : " (" + blocked + ")"));
        const double coverage = area / (extent.x * extent.y);
        if (coverage < 0.05) {
            appendNote(result.note, "the region covers only " +
                                        number(std::round(coverage * 1000.0) / 10.0) +
                                        "% of its bounding box, so most tries miss it");
        }
    }

    // Goals.
    std::vector<std::optional<Vec2>> goals(positions.size());
    if (params.goals == RandomFill::Goals::MirrorThroughCenter) {
        const Vec2 centroid = polygonCentroid(region, signedArea);
        for (std::size_t i = 0; i < positions.size(); ++i)
            goals[i] = 2.0 * centroid - positions[i];
    } else if (params.goals == RandomFill::Goals::RandomInRegion) {
        // A stream of its own (seed mixed with a constant), so the goal mode never changes the
        // positions.
        UnitRandom goalUnit(params.seed ^ 0x9E3779B9U);
        const std::int64_t goalBudget =
            kAttemptsPerAgent * static_cast<std::int64_t>(positions.size());
        std::size_t missing = 0;
        std::int64_t attempt = 0;
        for (std::optional<Vec2>& goal : goals) {
            while (!goal && attempt < goalBudget) {
                ++attempt;
                const double ux = goalUnit();
                const double uy = goalUnit();
                const Vec2 candidate{lo.x + ux * extent.x, lo.y + uy * extent.y};
                if (pointInPolygon(region, candidate)) goal = candidate;
            }
            if (!goal) ++missing;
        }
        if (missing > 0) {
            appendNote(result.note, std::to_string(missing) +
                                        " agents got no goal: random points kept missing the "
                                        "region");
        }
    }

    AgentMaker make(prototype);
    result.agents.reserve(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        result.agents.push_back(make(positions[i], goals[i]));
    }
    requireWithinSceneLimits(kName, result.agents);
    appendNote(result.note, make.note());
    return result;
}

GeneratorResult generate(const CrossingFlows& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const CrossingFlows& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "crossing flows";
    requireFinite(kName, "center", params.center);
    requireCount(kName, "perFlow", params.perFlow, kMaxGeneratedAgents / 2);
    requireNonNegative(kName, "laneWidth", params.laneWidth);
    requireNonNegative(kName, "length", params.length);
    requirePositive(kName, "spacing", params.spacing);
    requireFinite(kName, "angleDeg", params.angleDeg);
    const double radius = checkSurroundings(kName, surroundings, prototype);

    const double s = params.spacing;
    // Lanes across a flow: as many as fit, centre to centre, within laneWidth (computed in
    // double first: laneWidth / spacing may exceed any int).
    const double fitting = std::floor(params.laneWidth / s) + 1.0;
    const int lanes = static_cast<int>(std::min(fitting, static_cast<double>(params.perFlow)));
    const int rows = (params.perFlow + lanes - 1) / lanes;
    const std::array<Vec2, 2> directions{Vec2{1.0, 0.0}, directionDeg(params.angleDeg)};

    AgentMaker make(prototype);
    GeneratorResult result;
    result.agents.reserve(2 * static_cast<std::size_t>(params.perFlow));
    for (const Vec2 d : directions) {
        const Vec2 across = perp(d);
        for (int j = 0; j < params.perFlow; ++j) {
            const int row = j / lanes;
            const int lane = j % lanes;
            const int inRow =
                std::min(lanes, params.perFlow - row * lanes); // last row may be short
            const double lateral =
                (static_cast<double>(lane) - 0.5 * static_cast<double>(inRow - 1)) * s;
            // Along the flow: the start block is behind the centre, the goal block mirrors it.
            const double startAlong = -(params.length + static_cast<double>(row) * s);
            const double goalAlong = params.length + static_cast<double>(rows - 1 - row) * s;
            const Vec2 position = params.center + (d * startAlong + across * lateral);
            const Vec2 goal = params.center + (d * goalAlong + across * lateral);
            result.agents.push_back(make(position, goal));
        }
    }
    requireWithinSceneLimits(kName, result.agents);

    // The two start blocks must keep `spacing` between them.
    const auto perFlow = static_cast<std::size_t>(params.perFlow);
    Vec2 lo = result.agents.front().position;
    Vec2 hi = lo;
    for (const SceneAgent& a : result.agents) {
        lo = {std::min(lo.x, a.position.x), std::min(lo.y, a.position.y)};
        hi = {std::max(hi.x, a.position.x), std::max(hi.y, a.position.y)};
    }
    SpacingGrid grid(lo, hi, s, perFlow);
    for (std::size_t i = 0; i < perFlow; ++i)
        grid.insert(result.agents[i].position);
    for (std::size_t i = perFlow; i < 2 * perFlow; ++i) {
        if (!grid.isClear(result.agents[i].position)) {
            invalid(kName, "the two flows overlap at the start (agents closer than spacing " +
                               number(s) + "); increase length or the angle between the flows");
        }
    }
    keepClear(result, surroundings, radius);
    appendNote(result.note, make.note());
    return result;
}

} // namespace orca::scene
