#pragma once
/// \file workloads.hpp
/// The benchmark workloads as scenes, shared by the benchmark, the `orca generate` command, the
/// tests and the app (so any benchmark can be watched). Agent parameters are the RVO2 Circle
/// defaults (radius 1.5, maxSpeed 2, prefSpeed 1, neighborDist 15, maxNeighbors 10, τ = τo = 10,
/// Δt = 0.25); coordinates are computed as the RVO2 reference harness does (float), so both
/// implementations run exactly the same start.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {

/// `agents` agents evenly on a ring at the density of RVO2's Circle (250 agents on radius 200,
/// so the radius is 200·agents/250), each heading to the antipode. With 250 agents this is
/// exactly RVO2's Circle example.
[[nodiscard]] Scene circleWorkload(std::size_t agents);

/// A uniform crowd: a jittered square grid (spacing 10, side ceil(sqrt(agents)), each agent
/// displaced uniformly within ±2.5) with goals uniform in the grid's bounding square. Random
/// numbers: std::mt19937(seed) raw outputs / 2^32, four per agent (dx, dy, gx, gy).
[[nodiscard]] Scene uniformWorkload(std::size_t agents, std::uint32_t seed = 42);

} // namespace orca::scene

namespace orca::scene {

/// The real-scene benchmark set (docs/performance.md, "Real scenes"): scenes shaped like the
/// classic test-case collections' (SteerSuite's, Menge's), with their agent parameters: radius
/// 0.5, maxSpeed 2, prefSpeed 1.33, neighborDist 10, maxNeighbors 10, τ = τo = 2, Δt 0.05.
/// Deterministic (std::mt19937 seeded per scene, raw outputs / 2^32, coordinates rounded to
/// float so that a float implementation starts at the same points). The names, in order:
///   - "hallway50": 50 agents, two flows passing in a hallway between two long walls;
///   - "concentric250": 250 agents on five concentric rings meeting in the middle;
///   - "office400": 400 agents walking between 20 desks (rectangles) to random goals;
///   - "forest500": 500 agents crossing a forest of 700 small square obstacles;
///   - "bottleneck1000": 1,000 agents, two groups swapping sides through a gap in a wall (2
///     obstacles);
///   - "gathering2000": 2,000 agents converging on a small square (a dense gathering: within
///     neighborDist of an agent there are hundreds of others);
///   - "space5000": 5,000 agents crossing a 5,000-box space inside four boundary walls (5,004
///     obstacles).
[[nodiscard]] std::vector<std::string> realSceneNames();
/// The real scene called `name`; throws std::invalid_argument for another name.
[[nodiscard]] Scene realSceneWorkload(const std::string& name);

} // namespace orca::scene
