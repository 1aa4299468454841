#pragma once
// Helpers shared by the `orca` commands: loading a scene with its messages on `err`, and the
// JSON spellings of numbers and hashes.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "orca/scene.hpp"

namespace orca::cli {

using Json = nlohmann::ordered_json;

/// Loads a scene, printing its warnings ("FILE: warning: at PATH: ...") and, on failure, the
/// loader's error on `err`. nullopt on failure.
std::optional<scene::LoadResult> loadForCli(const std::string& file, std::ostream& err,
                                            const scene::LoadOptions& options = {});
/// A number, or null when it is not finite (JSON has no infinity).
[[nodiscard]] Json finiteOrNull(double v);
/// 16 lower-case hex digits (how stateHash is printed everywhere).
[[nodiscard]] std::string hex(std::uint64_t v);
/// "--agent K is out of range: the scene has N agents (indices 0..N-1)" check; prints the
/// message naming the scene on `err` and returns false when `agent` is out of range.
bool checkAgentIndex(const std::string& file, std::int64_t agent, std::size_t agentCount,
                     std::ostream& err, const char* option = "--agent");

} // namespace orca::cli
