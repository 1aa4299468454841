// What both importers share: reading XML with positions for messages, strict numbers, the
// seeded generator, obstacle orientation, the choice of importer and the report.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <system_error>

#include "import_support.hpp"
#include "orca/geometry.hpp"
#include "orca/obstacles.hpp"
#include "orca/scene/import.hpp"

namespace orca::scene {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// What pugixml expected, in words, for each parse status.
std::string expectation(pugi::xml_parse_status status) {
    switch (status) {
    case pugi::status_no_document_element:
        return "expected a root element (the file has no XML element)";
    case pugi::status_unrecognized_tag:
        return "expected an element name, '!--', '![CDATA[' or '?' after '<'";
    case pugi::status_bad_pi:
        return "expected a processing instruction or declaration closed by '?>'";
    case pugi::status_bad_comment:
        return "expected a comment closed by '-->'";
    case pugi::status_bad_cdata:
        return "expected a CDATA section closed by ']]>'";
    case pugi::status_bad_doctype:
        return "expected a document type declaration closed by '>'";
    case pugi::status_bad_pcdata:
        return "expected text content";
    case pugi::status_bad_start_element:
        return "expected '>' or '/>' to end the start tag, or an attribute name=\"value\"";
    case pugi::status_bad_attribute:
        return "expected an attribute written name=\"value\" (the value in quotes)";
    case pugi::status_bad_end_element:
        return "expected an end tag '</NAME>'";
    case pugi::status_end_element_mismatch:
        return "expected the end tag of the element that is open here (tags must nest)";
    case pugi::status_append_invalid_root:
        return "expected a single root element";
    default:
        return "expected well-formed XML";
    }
}

} // namespace

// ---- ImportRng -----------------------------------------------------------------------------

double ImportRng::unit() {
    const std::uint64_t a = m_gen() >> 5; // 27 bits
    const std::uint64_t b = m_gen() >> 6; // 26 bits
    return static_cast<double>((a << 26) | b) * 0x1.0p-53;
}

std::size_t ImportRng::index(std::size_t n) {
    const auto i = static_cast<std::size_t>(unit() * static_cast<double>(n));
    return std::min(i, n - 1);
}

double ImportRng::normal(double mean, double stddev) {
    // 1 - unit() lies in (0, 1], so the logarithm is finite.
    const double u1 = 1.0 - unit();
    const double u2 = unit();
    return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// ---- detection -----------------------------------------------------------------------------

ImportDocument detectImportDocument(std::string_view text) {
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    // Skip whitespace, declarations, processing instructions, comments and a DOCTYPE.
    for (int guard = 0; guard < 10000; ++guard) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        if (i >= text.size() || text[i] != '<') return ImportDocument::None;
        if (text.compare(i, 4, "<!--") == 0) {
            const std::size_t end = text.find("-->", i + 4);
            if (end == std::string_view::npos) return ImportDocument::None;
            i = end + 3;
        } else if (text.compare(i, 2, "<?") == 0 || text.compare(i, 2, "<!") == 0) {
            const std::size_t end = text.find('>', i + 2);
            if (end == std::string_view::npos) return ImportDocument::None;
            i = end + 1;
        } else {
            break;
        }
    }
    if (i >= text.size() || text[i] != '<') return ImportDocument::None;
    std::size_t end = i + 1;
    while (end < text.size() && !isSpace(text[end]) && text[end] != '>' && text[end] != '/')
        ++end;
    std::string_view name = text.substr(i + 1, end - i - 1);
    if (const std::size_t colon = name.rfind(':'); colon != std::string_view::npos)
        name.remove_prefix(colon + 1);
    if (name == "SteerBenchTestCase") return ImportDocument::SteerSuiteCase;
    if (name == "Project") return ImportDocument::MengeProject;
    if (name == "Experiment") return ImportDocument::MengeScene;
    if (name == "BFSM") return ImportDocument::MengeBehaviour;
    return ImportDocument::None;
}

std::string_view toString(ImportFormat format) {
    return format == ImportFormat::SteerSuite ? "steersuite" : "menge";
}

// ---- XML helpers ---------------------------------------------------------------------------

namespace detail {

std::pair<int, int> lineColumn(std::string_view text, std::ptrdiff_t offset) {
    const auto end = static_cast<std::size_t>(
        std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size())));
    int line = 1;
    int column = 1;
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) { // count characters, not UTF-8 continuation bytes
            ++column;
        }
    }
    return {line, column};
}

void parseXml(XmlInput& in) {
    const std::string file = in.file.empty() ? std::string("<import>") : in.file;
    if (const std::size_t nul = in.text.find('\0'); nul != std::string::npos) {
        const auto [line, column] = lineColumn(in.text, static_cast<std::ptrdiff_t>(nul));
        throw SceneError(file, "", line, column,
                         "the file contains a NUL byte (at byte " + std::to_string(nul) +
                             "): it is binary data, not XML text");
    }
    if (trim(in.text).empty())
        throw SceneError(file, "", 1, 1, "the file is empty (expected an XML document)");
    const pugi::xml_parse_result parsed = in.doc.load_buffer(
        in.text.data(), in.text.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed) {
        const auto [line, column] = lineColumn(in.text, parsed.offset);
        throw SceneError(file, "", line, column,
                         std::string("malformed XML: ") + parsed.description() + "; " +
                             expectation(parsed.status));
    }
}

std::string_view localName(const pugi::xml_node& node) {
    std::string_view name = node.name();
    if (const std::size_t colon = name.rfind(':'); colon != std::string_view::npos)
        name.remove_prefix(colon + 1);
    return name;
}

std::string elementPath(const pugi::xml_node& node) {
    std::vector<std::string> parts;
    for (pugi::xml_node n = node; n && n.type() == pugi::node_element; n = n.parent()) {
        std::string part(localName(n));
        const pugi::xml_node parent = n.parent();
        if (parent && parent.type() == pugi::node_element) {
            int index = 0;
            int same = 0;
            for (pugi::xml_node s = parent.first_child(); s; s = s.next_sibling()) {
                if (s.type() != pugi::node_element || localName(s) != localName(n)) continue;
                ++same;
                if (s == n) index = same;
            }
            if (same > 1) part += "[" + std::to_string(index) + "]";
        }
        parts.push_back(std::move(part));
    }
    std::string path;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!path.empty()) path += '/';
        path += *it;
    }
    return path;
}

namespace {
std::pair<int, int> nodePosition(const XmlInput& in, const pugi::xml_node& node) {
    std::ptrdiff_t offset = node.offset_debug();
    if (offset < 0) return {0, 0};
    // offset_debug points at the element's name; report the '<' that opens it.
    if (node.type() == pugi::node_element && offset > 0 &&
        in.text[static_cast<std::size_t>(offset - 1)] == '<')
        --offset;
    return lineColumn(in.text, offset);
}
} // namespace

std::string positionText(const XmlInput& in, const pugi::xml_node& node) {
    const auto [line, column] = nodePosition(in, node);
    return std::to_string(line) + ":" + std::to_string(column);
}

pugi::xml_node child(const pugi::xml_node& node, std::string_view name) {
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_element && localName(c) == name) return c;
    return {};
}

std::string textOf(const pugi::xml_node& node) {
    std::string text;
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) text += c.value();
    return std::string(trim(text));
}

std::string collapseSpace(std::string_view text) {
    std::string out;
    bool space = false;
    for (const char c : trim(text)) {
        if (isSpace(c)) {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

void failAt(const XmlInput& in, const pugi::xml_node& node, const std::string& message,
            std::string_view attribute) {
    const auto [line, column] = nodePosition(in, node);
    std::string path = elementPath(node);
    if (!attribute.empty()) path += "@" + std::string(attribute);
    // SceneError's what() shows a path only without a line, so the message carries it too:
    // FILE:LINE:COLUMN: error: at PATH: MESSAGE.
    throw SceneError(in.file.empty() ? std::string("<import>") : in.file, path, line, column,
                     "at " + path + ": " + message);
}

namespace {
std::string describeText(std::string_view text) {
    std::string shown(text.substr(0, 40));
    if (text.size() > 40) shown += "...";
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return text.empty() ? std::string("nothing") : "\"" + shown + "\"";
}
} // namespace

double parseNumber(const XmlInput& in, const pugi::xml_node& node, std::string_view text,
                   Bound bound, std::string_view attribute) {
    const std::string_view t = trim(text);
    double value = 0.0;
    const char* first = t.data();
    const char* last = t.data() + t.size();
    if (!t.empty() && *first == '+') ++first; // "+1" is a number in XML Schema's decimal
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (t.empty() || ec == std::errc::invalid_argument || ptr != last) {
        failAt(in, node, "expected a number, got " + describeText(t), attribute);
    }
    if (ec == std::errc::result_out_of_range || !std::isfinite(value)) {
        failAt(in, node,
               "the number " + std::string(t) +
                   " is not finite (NaN, infinity or too large); every number must be finite",
               attribute);
    }
    if (std::fabs(value) > kMaxMagnitude) {
        failAt(in, node,
               "the value " + std::string(t) +
                   " is out of range (values must lie within -1e7..1e7)",
               attribute);
    }
    if (bound == Bound::Positive && !(value > 0.0))
        failAt(in, node, "expected a number > 0, got " + std::string(t), attribute);
    if (bound == Bound::NonNegative && value < 0.0)
        failAt(in, node, "expected a number >= 0 (not negative), got " + std::string(t), attribute);
    return value == 0.0 ? 0.0 : value; // no -0
}

double elementNumber(const XmlInput& in, const pugi::xml_node& node, Bound bound) {
    return parseNumber(in, node, textOf(node), bound);
}

namespace {
[[noreturn]] void missingAttribute(const XmlInput& in, const pugi::xml_node& node,
                                   const char* name) {
    failAt(in, node,
           "missing attribute " + std::string(name) + " on <" + std::string(localName(node)) + ">");
}
} // namespace

double attributeNumber(const XmlInput& in, const pugi::xml_node& node, const char* name,
                       std::optional<double> fallback, Bound bound) {
    const pugi::xml_attribute a = node.attribute(name);
    if (!a) {
        if (fallback) return *fallback;
        missingAttribute(in, node, name);
    }
    return parseNumber(in, node, a.value(), bound, name);
}

namespace {
std::size_t toCount(const XmlInput& in, const pugi::xml_node& node, std::string_view text,
                    std::string_view attribute) {
    const double v = parseNumber(in, node, text, Bound::NonNegative, attribute);
    if (v != std::floor(v))
        failAt(in, node, "expected a whole number, got " + std::string(trim(text)), attribute);
    if (v > static_cast<double>(kMaxImportedItems))
        failAt(in, node,
               "the count " + std::string(trim(text)) +
                   " is more than an import creates (at most " + std::to_string(kMaxImportedItems) +
                   ")",
               attribute);
    return static_cast<std::size_t>(v);
}
} // namespace

std::size_t attributeCount(const XmlInput& in, const pugi::xml_node& node, const char* name,
                           std::optional<std::size_t> fallback) {
    const pugi::xml_attribute a = node.attribute(name);
    if (!a) {
        if (fallback) return *fallback;
        missingAttribute(in, node, name);
    }
    return toCount(in, node, a.value(), name);
}

std::size_t elementCount(const XmlInput& in, const pugi::xml_node& node) {
    return toCount(in, node, textOf(node), {});
}

bool elementBool(const XmlInput& in, const pugi::xml_node& node) {
    const std::string t = textOf(node);
    if (t == "true" || t == "1") return true;
    if (t == "false" || t == "0") return false;
    failAt(in, node, "expected true or false, got " + describeText(t));
}

bool pointInPolygon(Vec2 p, std::span<const Vec2> polygon) {
    bool inside = false;
    const std::size_t n = polygon.size();
    for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
    }
    return inside;
}

double distanceToOutline(Vec2 p, std::span<const Vec2> vertices, bool closed) {
    double best = std::numeric_limits<double>::infinity();
    const std::size_t n = vertices.size();
    const std::size_t edges = closed ? n : n - 1;
    for (std::size_t i = 0; i < edges; ++i) {
        const Vec2 a = vertices[i];
        const Vec2 b = vertices[(i + 1) % n];
        const Vec2 ab = b - a;
        const double len2 = dot(ab, ab);
        const double t = len2 > 0.0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
        best = std::min(best, length(p - (a + t * ab)));
    }
    return best;
}

Vec2 rotateDegrees(Vec2 v, double degrees) {
    const double r = degrees * std::numbers::pi / 180.0;
    const double c = std::cos(r);
    const double s = std::sin(r);
    return Vec2{v.x * c - v.y * s, v.x * s + v.y * c};
}

std::string quotedName(std::string_view name) {
    return name.empty() ? std::string() : " \"" + collapseSpace(name) + "\"";
}

void finishObstacles(ImportResult& result, std::vector<RawObstacle> raw) {
    std::size_t enclosing = 0;
    std::size_t reversed = 0;
    auto addSegments = [&](const RawObstacle& o, bool closed) {
        const std::size_t n = o.vertices.size();
        const std::size_t edges = closed ? n : n - 1;
        for (std::size_t i = 0; i < edges; ++i) {
            const Vec2 a = o.vertices[i];
            const Vec2 b = o.vertices[(i + 1) % n];
            if (a == b) continue; // a repeated point adds no wall
            result.scene.obstacles.push_back(SceneObstacle{std::nullopt, {a, b}});
        }
    };
    for (RawObstacle& o : raw) {
        if (o.vertices.size() < 2) {
            result.dropped.push_back({o.what, "fewer than 2 vertices: not an obstacle"});
            continue;
        }
        if (!o.closed || o.vertices.size() == 2) {
            // An open outline: one thin wall per edge (a scene obstacle is a closed polygon
            // or a single 2-vertex segment).
            if (o.vertices.size() > 2)
                result.notes.push_back(o.what + ": open outline of " +
                                       std::to_string(o.vertices.size() - 1) +
                                       " edges imported as that many 2-vertex walls");
            const std::size_t before = result.scene.obstacles.size();
            addSegments(o, false);
            if (result.scene.obstacles.size() == before)
                result.dropped.push_back({o.what, "all its vertices are the same point"});
            continue;
        }
        const PolygonCheck check = checkPolygon(o.vertices);
        if (!check.valid) {
            result.dropped.push_back({o.what, "invalid polygon: " + check.error});
            continue;
        }
        if (check.clockwise) {
            const bool enclosesAgent = std::any_of(
                result.scene.agents.begin(), result.scene.agents.end(),
                [&](const SceneAgent& a) { return pointInPolygon(a.position, o.vertices); });
            if (enclosesAgent) {
                addSegments(o, true);
                ++enclosing;
                continue;
            }
            std::reverse(o.vertices.begin(), o.vertices.end());
            ++reversed;
        }
        result.scene.obstacles.push_back(SceneObstacle{std::nullopt, std::move(o.vertices)});
    }
    if (enclosing > 0)
        result.notes.push_back(std::to_string(enclosing) +
                               " clockwise polygon(s) with agents inside (room outlines) "
                               "imported as their edges, thin walls that block from both sides");
    if (reversed > 0)
        result.notes.push_back(std::to_string(reversed) +
                               " clockwise polygon(s) without agents inside reversed to "
                               "counter-clockwise (solid obstacles)");
}

void finishScene(ImportResult& result) {
    const std::string why = "beyond the scene format's limit of ±1e7 (coordinates computed from "
                            "the file's values)";
    std::vector<SceneAgent> kept;
    kept.reserve(result.scene.agents.size());
    for (std::size_t i = 0; i < result.scene.agents.size(); ++i) {
        SceneAgent& a = result.scene.agents[i];
        const bool velocityOk = !a.velocity || withinSceneLimits(*a.velocity);
        const bool prefOk = !a.prefVelocity || withinSceneLimits(*a.prefVelocity);
        if (!withinSceneLimits(a.position) || !velocityOk || !prefOk) {
            result.dropped.push_back({"agent " + std::to_string(i) + " (in imported order)",
                                      "its position or velocity is " + why});
            continue;
        }
        const std::size_t before = a.waypoints.size();
        std::erase_if(a.waypoints, [](Vec2 w) { return !withinSceneLimits(w); });
        if (a.goal && !withinSceneLimits(*a.goal)) {
            a.goal.reset();
            if (!a.waypoints.empty()) {
                a.goal = a.waypoints.back();
                a.waypoints.pop_back();
            }
            result.dropped.push_back({"the goal of agent " + std::to_string(i), "it is " + why});
        }
        if (a.waypoints.size() != before)
            result.dropped.push_back(
                {"waypoints of agent " + std::to_string(i), "they are " + why});
        kept.push_back(std::move(a));
    }
    result.scene.agents = std::move(kept);
    std::erase_if(result.scene.obstacles, [&](const SceneObstacle& o) {
        const bool out = std::any_of(o.vertices.begin(), o.vertices.end(),
                                     [](Vec2 v) { return !withinSceneLimits(v); });
        if (out)
            result.dropped.push_back({"an obstacle near (" + std::to_string(o.vertices[0].x) +
                                          ", " + std::to_string(o.vertices[0].y) + ")",
                                      "a vertex is " + why});
        return out;
    });
}

} // namespace detail

// ---- choosing the importer -----------------------------------------------------------------

namespace {

ImportText readForImport(const std::filesystem::path& path, std::uint64_t maxFileSize) {
    return ImportText{path.string(), readTextFile(path, maxFileSize)};
}

[[noreturn]] void notAScenario(const ImportText& input) {
    detail::XmlInput in{input.fileName, input.text, {}};
    detail::parseXml(in); // a syntax error has a line and a column
    const pugi::xml_node root = in.doc.document_element();
    detail::failAt(in, root,
                   "the root element <" + std::string(detail::localName(root)) +
                       "> is not one this importer reads (expected <SteerBenchTestCase> for "
                       "SteerSuite, <Project>, <Experiment> or <BFSM> for Menge)");
}

} // namespace

ImportResult importTexts(const std::vector<ImportText>& inputs, const ImportOptions& options,
                         const ImportFileReader& reader) {
    if (inputs.empty()) throw std::invalid_argument("no file to import");
    std::vector<ImportDocument> kinds;
    for (const ImportText& input : inputs) {
        kinds.push_back(detectImportDocument(input.text));
        if (kinds.back() == ImportDocument::None) notAScenario(input);
    }
    auto count = [&](ImportDocument k) { return std::count(kinds.begin(), kinds.end(), k); };
    if (count(ImportDocument::SteerSuiteCase) > 0) {
        if (inputs.size() != 1)
            throw std::invalid_argument("a SteerSuite test case is imported alone (one file "
                                        "per scene); got " +
                                        std::to_string(inputs.size()) + " files");
        return importSteerSuite(inputs[0], options);
    }
    if (count(ImportDocument::MengeProject) > 0) {
        if (inputs.size() != 1)
            throw std::invalid_argument("a Menge project file names its scene and behaviour "
                                        "files: give it alone, or give the scene and "
                                        "behaviour files without it");
        const ImportText& project = inputs[0];
        detail::XmlInput in{project.fileName, project.text, {}};
        detail::parseXml(in);
        const pugi::xml_node root = in.doc.document_element();
        const std::filesystem::path folder = std::filesystem::path(project.fileName).parent_path();
        auto named = [&](const char* a, const char* b) -> std::optional<std::filesystem::path> {
            pugi::xml_attribute attr = root.attribute(a);
            if (!attr && b) attr = root.attribute(b);
            if (!attr) return std::nullopt;
            if (std::string_view(attr.value()).empty())
                detail::failAt(in, root, std::string("empty file name"), attr.name());
            return folder / attr.value();
        };
        const auto scenePath = named("scene", nullptr);
        if (!scenePath)
            detail::failAt(in, root,
                           "the project names no scene file (attribute scene=\"FILE.xml\")");
        if (!reader)
            throw SceneError(project.fileName, "Project@scene", 0, 0,
                             "the project's files cannot be read here (give the scene and "
                             "behaviour files themselves)");
        const ImportText scene = reader(*scenePath);
        std::optional<ImportText> behaviour;
        if (const auto b = named("behavior", "behaviour")) behaviour = reader(*b);
        if (detectImportDocument(scene.text) != ImportDocument::MengeScene) {
            detail::XmlInput s{scene.fileName, scene.text, {}};
            detail::parseXml(s);
            detail::failAt(s, s.doc.document_element(),
                           "the project's scene file must have the root element <Experiment>");
        }
        if (behaviour && detectImportDocument(behaviour->text) != ImportDocument::MengeBehaviour) {
            detail::XmlInput s{behaviour->fileName, behaviour->text, {}};
            detail::parseXml(s);
            detail::failAt(s, s.doc.document_element(),
                           "the project's behaviour file must have the root element <BFSM>");
        }
        return importMenge(scene, behaviour, project, options);
    }
    if (count(ImportDocument::MengeScene) != 1 || count(ImportDocument::MengeBehaviour) > 1 ||
        inputs.size() > 2)
        throw std::invalid_argument(
            "a Menge import takes a project file alone, or one scene file (<Experiment>) "
            "with at most one behaviour file (<BFSM>)");
    std::optional<ImportText> behaviour;
    const ImportText* scene = nullptr;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (kinds[i] == ImportDocument::MengeScene)
            scene = &inputs[i];
        else
            behaviour = inputs[i];
    }
    return importMenge(*scene, behaviour, std::nullopt, options);
}

ImportResult importFiles(const std::vector<std::filesystem::path>& files,
                         const ImportOptions& options) {
    std::vector<ImportText> inputs;
    for (const auto& f : files)
        inputs.push_back(readForImport(f, options.maxFileSize));
    return importTexts(inputs, options, [&](const std::filesystem::path& p) {
        return readForImport(p, options.maxFileSize);
    });
}

nlohmann::ordered_json importReportJson(const ImportResult& result) {
    nlohmann::ordered_json j;
    j["format"] = std::string(toString(result.format));
    j["files"] = result.files;
    j["seed"] = result.seed;
    j["agents"] = result.scene.agents.size();
    j["obstacles"] = result.scene.obstacles.size();
    nlohmann::ordered_json dropped = nlohmann::ordered_json::array();
    for (const ImportDrop& d : result.dropped)
        dropped.push_back({{"what", d.what}, {"why", d.why}});
    j["dropped"] = std::move(dropped);
    j["notes"] = result.notes;
    return j;
}

} // namespace orca::scene
