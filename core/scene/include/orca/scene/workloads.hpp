#pragma once
/// \file workloads.hpp
/// The benchmark workloads as scenes, shared by the benchmark, the `orca generate` command, the
/// tests and the app (so any benchmark can be watched). Agent parameters are the RVO2 Circle
/// defaults (radius 1.5, maxSpeed 2, prefSpeed 1, neighborDist 15, maxNeighbors 10, τ = τo = 10,
/// Δt = 0.25); coordinates are computed as the RVO2 reference harness does (float), so both
/// implementations run exactly the same start.

#include <cstddef>
#include <cstdint>

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
