#pragma once
// The scene library's JSON layer, shared by the loader (load.cpp) and the saver (save.cpp):
// numbers written so that they read back exactly, how messages describe values and paths, and
// JsonReader, the typed reads with JSON-path errors. Private to orca_scene.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "orca/scene/scene.hpp"

namespace orca::scene::detail {

using OJson = nlohmann::ordered_json;

inline constexpr std::string_view kFormatName = "orca-scene";
inline constexpr int kFormatVersion = 1;

/// Shortest text that reads back as exactly `v`, laid out like Python's repr(float) (fixed
/// notation for exponents -4..15, otherwise d.ddde+XX). Integral values below 1e16 are written
/// as integers ("200") unless `keepFloatMark` asks for "200.0". -0.0 keeps its sign ("-0.0").
/// Non-finite values become null (saveScene then refuses the scene).
[[nodiscard]] std::string formatNumber(double v, bool keepFloatMark);
/// A JSON string literal (escaped; invalid UTF-8 replaced rather than thrown on).
[[nodiscard]] std::string quote(const std::string& s);
/// "string \"abc\"", "number 3", "boolean true", "null", "an array", "an object".
[[nodiscard]] std::string describe(const OJson& j);

struct Suggestion {
    std::string_view key;
    std::size_t distance = std::numeric_limits<std::size_t>::max();
};
/// The valid key nearest to `key` (edit distance, ignoring ASCII case).
[[nodiscard]] Suggestion closestKey(std::string_view key, std::span<const std::string_view> valid);

[[nodiscard]] std::string childPath(const std::string& parent, std::string_view key);
[[nodiscard]] std::string indexPath(const std::string& parent, std::size_t index);
/// A path from its steps ("pages", "[0]", ".text"), a run of one step repeated more than four
/// times shortened to its first two, "…(×N)…" (N: the run's length) and its last:
/// "[0][0]…(×255)…[0]".
[[nodiscard]] std::string shortRepeats(const std::vector<std::string>& steps);

/// The text of an errno value ("No such file or directory").
[[nodiscard]] std::string osError(int err);

enum class Bound {
    Positive,    ///< > 0
    NonNegative, ///< >= 0
    Any,         ///< any finite value
};

/// Typed reads of JSON values; every failure throws SceneError naming the file and JSON path.
class JsonReader {
  public:
    explicit JsonReader(std::string file) : m_file(std::move(file)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& message) const;
    static const OJson* find(const OJson& obj, std::string_view key);
    void checkKeys(const OJson& obj, const std::string& path,
                   std::span<const std::string_view> valid) const;
    void requireObject(const OJson& j, const std::string& path) const;
    std::string string(const OJson& j, const std::string& path) const;
    static std::optional<std::int64_t> integerValue(const OJson& j);
    double number(const OJson& j, const std::string& path, Bound bound,
                  double maxMagnitude = kMaxMagnitude) const;
    std::int64_t count(const OJson& j, const std::string& path, std::int64_t max) const;
    Vec2 vec2(const OJson& j, const std::string& path) const;
    bool boolean(const OJson& j, const std::string& path) const;

  private:
    std::string m_file;
};

} // namespace orca::scene::detail
