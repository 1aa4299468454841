#pragma once
/// \file lint.hpp
/// The scene linter: ORCA-specific hazards in a Scene (clockwise or broken obstacles, agents
/// that overlap or start inside obstacles, goals ORCA cannot reach, parameters that make agents
/// blind to each other, exactly symmetric head-on pairs that deadlock, absurd values), each
/// with a JSON path, the scene elements to highlight and, where one exists, a one-click fix.
/// Every rule is described in docs/lint.md.
///
/// Target `orca_scene`; no UI code. Fast enough to re-run after every edit: pairwise agent
/// checks use a uniform grid (10,000 agents lint in about 10 ms; docs/lint.md).

#include <cstddef>
#include <string>
#include <vector>

#include "orca/geometry.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

/// How serious an issue is. Error: the scene is broken or the simulator rejects it (agents
/// start overlapping, an obstacle is inside out...). Warning: it runs, but ORCA will probably
/// not do what the author meant. Info: worth knowing, often intended.
enum class LintSeverity { Error, Warning, Info };

/// "error", "warning" or "info".
[[nodiscard]] const char* severityName(LintSeverity severity);

/// A scene element an issue is about (what to highlight in a view).
struct LintElement {
    /// Agent/Goal: `index` is the agent's index in Scene::agents (Goal = its goal point).
    /// Obstacle/Vertex/Edge: `index` is the obstacle's index in Scene::obstacles, `sub` the
    /// vertex index, or the edge index (edge i runs from vertex i to vertex i + 1, wrapping).
    /// Simulation: the simulation block (index and sub unused).
    enum class Kind { Agent, Goal, Obstacle, Vertex, Edge, Simulation } kind = Kind::Agent;
    std::size_t index = 0; ///< Agent or obstacle index in Scene.
    std::size_t sub = 0;   ///< Vertex / edge index within the obstacle.

    friend bool operator==(const LintElement&, const LintElement&) = default;
};

/// One finding.
struct LintIssue {
    /// Stable kebab-case rule id, e.g. "obstacle-clockwise" (the list is in docs/lint.md).
    std::string rule;
    LintSeverity severity = LintSeverity::Warning;
    /// JSON path of the value to edit: "obstacles[2]", "agents[5].goal",
    /// "agentDefaults.neighborDist", "simulation.timeStep".
    std::string jsonPath;
    /// One sentence: what is wrong and why it matters for ORCA.
    std::string message;
    /// The elements involved, the main one first (issues sort by it); a grouped issue lists
    /// every agent it covers, in index order.
    std::vector<LintElement> elements;
    /// A world point to centre the view on (world units).
    Vec2 where{0, 0};
    /// Button text of the automatic fix, e.g. "Reverse winding"; empty = no automatic fix.
    std::string fixLabel;
};

/// Thresholds of the rules that have no single right answer. Fixes do not depend on them.
struct LintOptions {
    /// coordinate-huge: positions, goals and obstacle vertices farther than this from the
    /// origin on either axis (world units, > 0). Beyond ~1e6 the solver's absolute epsilons
    /// (1e-5) approach the spacing of doubles.
    double maxCoordinate = 1e6;
    /// radius-huge: agent radii above this (world units, > 0) are taken for a unit mistake.
    double maxRadius = 1e4;
    /// head-on-symmetric: two travel lines count as the same line when the sine of the angle
    /// between them, and the offset between them relative to the agents' distance, are at most
    /// this. Any larger asymmetry is amplified by ORCA and breaks the tie (measured: an offset
    /// of 1e-12 of the distance already lets scenes/head_on.json resolve).
    double headOnTolerance = 1e-9;
    /// goal-crowded: packing density assumed for agents crowding round a shared goal
    /// (0 < density <= 1; hexagonal packing of equal disks is 0.9069).
    double goalPackingDensity = 0.9069;
};

/// Every issue in `scene`, sorted by severity (errors first), then by the first element
/// (simulation, agents by index, obstacles by index), then by rule id. Deterministic; never
/// throws for any scene content (NaN, empty polygons, huge values).
[[nodiscard]] std::vector<LintIssue> lintScene(const Scene& scene, const LintOptions& options = {});

/// Applies `issue`'s fix to `scene`. Returns false (scene untouched, `error` set when given)
/// when the issue has no fix or no longer applies (re-lint first: an issue refers to elements
/// by index, and each fix re-checks its own condition before changing anything).
/// Deterministic (no randomness); the fixes are documented per rule in docs/lint.md.
bool applyLintFix(Scene& scene, const LintIssue& issue, std::string* error = nullptr);

} // namespace orca::scene
