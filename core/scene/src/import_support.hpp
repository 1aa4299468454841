#pragma once
// Shared by the importers (import_common.cpp, import_steersuite.cpp, import_menge*.cpp): XML
// parsing with positions, strict numbers, the report's drops and notes, obstacle finishing.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <pugixml.hpp>

#include "orca/scene/import.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene::detail {

/// At most this many agents (or obstacles) an import creates: regions and generators that
/// ask for more are refused (a typo such as numAgents 1e9 would otherwise exhaust memory).
inline constexpr std::size_t kMaxImportedItems = 100000;

/// One parsed XML file; nodes keep their byte offsets for messages.
struct XmlInput {
    std::string file;
    std::string text;
    pugi::xml_document doc;
};

/// Parses `in.text` into `in.doc`; malformed XML throws SceneError with the 1-based line and
/// column of pugixml's error offset and what was expected.
void parseXml(XmlInput& in);

/// 1-based line and column of byte `offset` of `text`.
std::pair<int, int> lineColumn(std::string_view text, std::ptrdiff_t offset);

/// The element's name without a namespace prefix.
[[nodiscard]] std::string_view localName(const pugi::xml_node& node);
/// `Root/child[2]/leaf` (1-based index among same-named siblings, only when there are several).
[[nodiscard]] std::string elementPath(const pugi::xml_node& node);
/// `LINE:COLUMN` of a node of `in`.
[[nodiscard]] std::string positionText(const XmlInput& in, const pugi::xml_node& node);
/// The first child element named `name` (local name), or an empty node.
[[nodiscard]] pugi::xml_node child(const pugi::xml_node& node, std::string_view name);
/// Trimmed text content of an element (its PCDATA and CDATA children).
[[nodiscard]] std::string textOf(const pugi::xml_node& node);
/// Collapses runs of whitespace to one space and trims.
[[nodiscard]] std::string collapseSpace(std::string_view text);

/// Throws SceneError at the node (its line and column, its path), naming `attribute` when set.
[[noreturn]] void failAt(const XmlInput& in, const pugi::xml_node& node, const std::string& message,
                         std::string_view attribute = {});

/// Value bounds checked by the number readers.
enum class Bound { Any, Positive, NonNegative };

/// A finite number within ±1e7 from `text` (surrounding whitespace allowed), else SceneError
/// at `node` naming the value.
double parseNumber(const XmlInput& in, const pugi::xml_node& node, std::string_view text,
                   Bound bound = Bound::Any, std::string_view attribute = {});
/// The element's text as a number.
double elementNumber(const XmlInput& in, const pugi::xml_node& node, Bound bound = Bound::Any);
/// The attribute as a number; absent = `fallback`, or an error naming it when none.
double attributeNumber(const XmlInput& in, const pugi::xml_node& node, const char* name,
                       std::optional<double> fallback, Bound bound = Bound::Any);
/// A non-negative integer attribute (up to kMaxImportedItems when `count`).
std::size_t attributeCount(const XmlInput& in, const pugi::xml_node& node, const char* name,
                           std::optional<std::size_t> fallback);
/// A non-negative integer from an element's text, at most kMaxImportedItems.
std::size_t elementCount(const XmlInput& in, const pugi::xml_node& node);
/// "true"/"false" (also 1/0), else SceneError.
bool elementBool(const XmlInput& in, const pugi::xml_node& node);

/// An obstacle outline before orientation is settled (needs the agents' positions).
struct RawObstacle {
    std::string what; ///< for messages: `obstacle[3]`, `ObstacleSet[1]/Obstacle[2]`
    std::vector<Vec2> vertices;
    bool closed = true;
};

/// Overlap checks for random placement through a uniform grid of 4-unit cells: obstacles by
/// their bounding boxes (indexed on the first query, so all must be known by then), agents by
/// their positions (indexed as the scene gains them). Outlines whose box spans more than 4096
/// cells are checked on every query. Each segment or agent looked at costs 1 of `budget`.
class PlacementIndex {
  public:
    /// Whether a disk at `p` of `radius` is clear of the obstacles and of the scene's agents.
    bool isFree(Vec2 p, double radius, const std::vector<RawObstacle>& obstacles,
                const Scene& scene, std::int64_t& budget);

  private:
    void index(const std::vector<RawObstacle>& obstacles, const Scene& scene);
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> m_obstacleCells, m_agentCells;
    std::vector<std::size_t> m_bigObstacles;
    bool m_built = false;
    std::size_t m_indexedAgents = 0;
    double m_maxAgentRadius = 0.0;
};

/// Adds the raw obstacles to `result.scene`: closed polygons valid per checkPolygon, turned
/// counter-clockwise; a clockwise polygon with an agent inside becomes its edges as thin
/// walls (it encloses the agents, as a room's outline does in RVO2); open outlines become
/// one thin wall per edge; invalid outlines are dropped with checkPolygon's reason.
void finishObstacles(ImportResult& result, std::vector<RawObstacle> raw);

/// Keeps the scene within the file format's limits (every coordinate within ±1e7): agents
/// placed beyond them, and obstacles with a vertex beyond them, are dropped with the reason;
/// goals and waypoints beyond them are dropped from their agent. Call last.
void finishScene(ImportResult& result);

/// Whether `p` lies inside the closed polygon (even-odd rule).
[[nodiscard]] bool pointInPolygon(Vec2 p, std::span<const Vec2> polygon);
/// Distance from `p` to the outline (closed or open) of `vertices`.
[[nodiscard]] double distanceToOutline(Vec2 p, std::span<const Vec2> vertices, bool closed);
/// `v` rotated counter-clockwise by `degrees`.
[[nodiscard]] Vec2 rotateDegrees(Vec2 v, double degrees);

/// Drops that repeat for many agents (a region's or a group's), gathered: each (what, why)
/// once, in first-seen order, with " (for N agents)" when it applies to several.
class DropGatherer {
  public:
    void add(const std::string& what, const std::string& why) {
        for (auto& e : m_entries)
            if (e.what == what && e.why == why) {
                ++e.count;
                return;
            }
        m_entries.push_back({what, why, 1});
    }
    void flushInto(ImportResult& result) {
        for (const auto& e : m_entries)
            result.dropped.push_back(
                {e.what + (e.count > 1 ? " (for " + std::to_string(e.count) + " agents)"
                                       : std::string()),
                 e.why});
        m_entries.clear();
    }

  private:
    struct Entry {
        std::string what, why;
        std::size_t count;
    };
    std::vector<Entry> m_entries;
};

/// A quoted name for messages: ` "A"` or empty.
[[nodiscard]] std::string quotedName(std::string_view name);

} // namespace orca::scene::detail
