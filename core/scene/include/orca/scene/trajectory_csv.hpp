#pragma once
/// \file trajectory_csv.hpp
/// Trajectory CSV files: the rows `orca run --trajectory` and `orca recording --csv` write —
/// a header `step,agent,x,y,vx,vy` with optional `pvx,pvy` (the preferred velocity the step was
/// given), then one row per agent per recorded state, agents 0..n−1 in order within a step,
/// steps in increasing order. Read into the recording's frames (recording.hpp) so that the
/// conformance check and playback treat both alike (docs/conformance.md).
#include <cstdint>
#include <filesystem>

#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

/// Reads a trajectory CSV into frames (Recording::scenes stays empty: the scene comes from
/// its own file; every frame's `scene` is 0 and its time is step × timeStep of no one: 0).
/// Without the pvx,pvy columns the frames' prefVelocity are empty. `encoding` says Float32 when
/// every number of the file is a float's — written with at most 9 significant digits (which
/// name one float exactly: the numbers are read as those floats) or a float's exact value —
/// as a program that holds its state in float writes them; else Float64 (our own simulator's
/// files write each double's shortest exact text). Throws SceneError naming
/// the file, the line and column, and what was expected (a header, a number, the next agent
/// of a step, a finite value...). Files larger than `maxBytes` are refused (readTextFile).
[[nodiscard]] Recording loadTrajectoryCsv(const std::filesystem::path& path,
                                          std::uint64_t maxBytes = kDefaultMaxFileSize,
                                          const std::string& maxBytesSetting = {});
/// Parses the text of a trajectory CSV (`fileName` for messages only).
[[nodiscard]] Recording parseTrajectoryCsv(std::string_view text, const std::string& fileName);

} // namespace orca::scene
