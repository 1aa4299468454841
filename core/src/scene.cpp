#include "orca/scene.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "orca/obstacles.hpp"

namespace orca::scene {

namespace {

using OJson = nlohmann::ordered_json;

constexpr std::string_view kFormatName = "orca-scene";
constexpr int kFormatVersion = 1;
/// Deepest JSON nesting accepted. Scenes need 4 levels; the limit keeps the recursive writer
/// and the comparisons safe on hostile input.
constexpr std::size_t kMaxDepth = 256;

// ---- Number formatting -----------------------------------------------------------------------

/// Shortest text that reads back as exactly `v`, laid out like Python's repr(float) (fixed
/// notation for exponents -4..15, otherwise d.ddde+XX). Integral values below 1e16 are written
/// as integers ("200") unless `keepFloatMark` asks for "200.0". -0.0 keeps its sign ("-0.0").
/// Non-finite values become null (saveScene then refuses the scene).
std::string formatNumber(double v, bool keepFloatMark) {
    if (!std::isfinite(v)) return "null";
    const bool negativeZero = v == 0.0 && std::signbit(v);
    if (v == std::floor(v) && std::fabs(v) < 1e16 && !negativeZero) {
        std::string s = std::to_string(static_cast<long long>(v));
        if (keepFloatMark) s += ".0";
        return s;
    }
    std::array<char, 64> buf{};
    const auto res =
        std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
    const std::string_view sci(buf.data(), static_cast<std::size_t>(res.ptr - buf.data()));
    // sci = [-]d[.ddd]e(+|-)XX
    const std::size_t ePos = sci.find('e');
    std::string_view mantissa = sci.substr(0, ePos);
    int exponent = 0;
    const std::string_view expText = sci.substr(ePos + 1);
    std::from_chars(expText.data() + (expText[0] == '+' ? 1 : 0), expText.data() + expText.size(),
                    exponent);
    std::string out;
    if (!mantissa.empty() && mantissa[0] == '-') {
        out += '-';
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (char c : mantissa) {
        if (c != '.') digits += c;
    }
    if (exponent >= -4 && exponent < 16) {
        if (exponent >= 0) {
            const auto intDigits = static_cast<std::size_t>(exponent) + 1;
            if (digits.size() <= intDigits) {
                out += digits;
                out.append(intDigits - digits.size(), '0');
                out += ".0";
            } else {
                out += digits.substr(0, intDigits);
                out += '.';
                out += digits.substr(intDigits);
            }
        } else {
            out += "0.";
            out.append(static_cast<std::size_t>(-exponent - 1), '0');
            out += digits;
        }
        return out;
    }
    out += digits[0];
    if (digits.size() > 1) {
        out += '.';
        out += digits.substr(1);
    }
    out += 'e';
    out += exponent < 0 ? '-' : '+';
    const int absExp = exponent < 0 ? -exponent : exponent;
    if (absExp < 10) out += '0';
    out += std::to_string(absExp);
    return out;
}

/// A JSON string literal (escaped; invalid UTF-8 replaced rather than thrown on).
std::string quote(const std::string& s) {
    return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename Json> std::string formatScalar(const Json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::number_float:
        return formatNumber(j.template get<double>(), true);
    case nlohmann::json::value_t::string:
        return quote(j.template get<std::string>());
    default:
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

/// One-line JSON: `{ "a": 1, "b": [1, 2] }`.
template <typename Json> void writeCompact(std::string& out, const Json& j) {
    if (j.is_object()) {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += "{ ";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ", ";
            first = false;
            out += quote(it.key());
            out += ": ";
            writeCompact(out, it.value());
        }
        out += " }";
    } else if (j.is_array()) {
        out += '[';
        bool first = true;
        for (const auto& e : j) {
            if (!first) out += ", ";
            first = false;
            writeCompact(out, e);
        }
        out += ']';
    } else {
        out += formatScalar(j);
    }
}

/// Indented JSON for extra top-level blocks: objects one key per line, arrays of scalars on
/// one line, other arrays one element per line.
void writePretty(std::string& out, const OJson& j, std::size_t indent) {
    const std::string pad(indent, ' ');
    if (j.is_object() && !j.empty()) {
        out += "{\n";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ",\n";
            first = false;
            out += pad + "  " + quote(it.key()) + ": ";
            writePretty(out, it.value(), indent + 2);
        }
        out += '\n' + pad + '}';
    } else if (j.is_array() && !j.empty() &&
               std::any_of(j.begin(), j.end(), [](const OJson& e) { return e.is_structured(); })) {
        out += "[\n";
        bool first = true;
        for (const auto& e : j) {
            if (!first) out += ",\n";
            first = false;
            out += pad + "  ";
            writePretty(out, e, indent + 2);
        }
        out += '\n' + pad + ']';
    } else {
        writeCompact(out, j);
    }
}

std::string formatVec(Vec2 v) {
    return '[' + formatNumber(v.x, false) + ", " + formatNumber(v.y, false) + ']';
}

// ---- Messages ---------------------------------------------------------------------------------

std::string composeWhat(const std::string& file, const std::string& path, int line, int column,
                        const std::string& message) {
    if (line > 0) {
        return file + ':' + std::to_string(line) + ':' + std::to_string(column) +
               ": error: " + message;
    }
    if (!path.empty()) return file + ": error: at " + path + ": " + message;
    return file + ": error: " + message;
}

/// "string \"abc\"", "number 3", "boolean true", "null", "an array", "an object".
std::string describe(const OJson& j) {
    switch (j.type()) {
    case OJson::value_t::null:
        return "null";
    case OJson::value_t::boolean:
        return std::string("boolean ") + (j.get<bool>() ? "true" : "false");
    case OJson::value_t::string: {
        std::string s = quote(j.get<std::string>());
        if (s.size() > 40) s = s.substr(0, 36) + "...\"";
        return "string " + s;
    }
    case OJson::value_t::array:
        return "an array";
    case OJson::value_t::object:
        return "an object";
    case OJson::value_t::number_float:
        return "number " + formatNumber(j.get<double>(), false);
    case OJson::value_t::number_integer:
    case OJson::value_t::number_unsigned:
        return "number " + j.dump();
    default:
        return "an unsupported value";
    }
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
}

/// Edit distance (optimal string alignment: insert, delete, substitute, swap two neighbours),
/// ignoring ASCII case.
std::size_t editDistance(std::string_view aIn, std::string_view bIn) {
    const std::string a = lower(aIn);
    const std::string b = lower(bIn);
    const std::size_t n = a.size();
    const std::size_t m = b.size();
    std::vector<std::size_t> d((n + 1) * (m + 1));
    auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
    for (std::size_t i = 0; i <= n; ++i)
        at(i, 0) = i;
    for (std::size_t j = 0; j <= m; ++j)
        at(0, j) = j;
    for (std::size_t i = 1; i <= n; ++i) {
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            std::size_t best =
                std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                best = std::min(best, at(i - 2, j - 2) + 1);
            }
            at(i, j) = best;
        }
    }
    return at(n, m);
}

struct Suggestion {
    std::string_view key;
    std::size_t distance = std::numeric_limits<std::size_t>::max();
};

Suggestion closestKey(std::string_view key, std::span<const std::string_view> valid) {
    Suggestion best;
    for (std::string_view v : valid) {
        const std::size_t dist = editDistance(key, v);
        if (dist < best.distance) best = {v, dist};
    }
    return best;
}

std::string joinKeys(std::span<const std::string_view> keys) {
    std::string out;
    for (std::string_view k : keys) {
        if (!out.empty()) out += ", ";
        out += k;
    }
    return out;
}

// ---- Key sets ---------------------------------------------------------------------------------

constexpr std::array<std::string_view, 9> kTopKeys = {
    "format", "version", "name", "description", "simulation", "agentDefaults", "detour",
    "agents", "obstacles"};
constexpr std::array<std::string_view, 11> kDetourKeys = {
    "enabled",         "cellSize",          "influenceRadius", "enterSpeedRatio",
    "enterGoalDistance", "sampleDistance",  "exitAlignedDegrees", "exitGoalDistance",
    "neighborFallback", "stillSpeed",       "stillSeconds"};
constexpr std::array<std::string_view, 2> kStateKeys = {"detour", "stillSeconds"};
constexpr std::array<std::string_view, 6> kSimulationKeys = {
    "timeStep", "responsibility", "staticResponsibility", "lp3BisectorWeight", "time", "step"};
constexpr std::array<std::string_view, 8> kParamKeys = {
    "radius",       "maxSpeed",    "prefSpeed",       "neighborDist",
    "maxNeighbors", "timeHorizon", "timeHorizonObst", "goalRadius"};
constexpr std::array<std::string_view, 15> kAgentKeys = {
    "id",           "position",    "velocity",        "goal",       "prefVelocity",
    "static",       "radius",      "maxSpeed",        "prefSpeed",  "neighborDist",
    "maxNeighbors", "timeHorizon", "timeHorizonObst", "goalRadius", "state"};
constexpr std::array<std::string_view, 2> kObstacleKeys = {"id", "vertices"};

std::string childPath(const std::string& parent, std::string_view key) {
    return parent.empty() ? std::string(key) : parent + '.' + std::string(key);
}

std::string indexPath(const std::string& parent, std::size_t index) {
    return parent + '[' + std::to_string(index) + ']';
}

// ---- JSON text -> ordered_json, with duplicate-key detection ------------------------------------

/// Thrown by the SAX builder for a repeated key or excessive nesting; parseScene converts it
/// to SceneError.
struct StructureError {
    std::string path;
    std::string message;
};

/// Thrown by the SAX builder when nlohmann's parser reports an error (syntax error, or a
/// number that overflows a double).
struct ParseFailure {
    int id;           ///< nlohmann exception id: 1xx parse_error, 406 number overflow
    std::string what; ///< nlohmann's message (with "at line L, column C" for syntax errors)
    std::size_t byte; ///< byte offset where the parser stopped
};

/// Builds the ordered_json document from nlohmann's SAX events (much faster than the parser
/// callback interface), keeping track of where the parser is for messages and rejecting
/// repeated keys, which nlohmann::json would otherwise resolve silently (last one wins).
class SaxBuilder {
  public:
    using number_integer_t = OJson::number_integer_t;
    using number_unsigned_t = OJson::number_unsigned_t;
    using number_float_t = OJson::number_float_t;
    using string_t = OJson::string_t;
    using binary_t = OJson::binary_t;

    bool null() { return add(OJson(nullptr)) != nullptr; }
    bool boolean(bool v) { return add(OJson(v)) != nullptr; }
    bool number_integer(number_integer_t v) { return add(OJson(v)) != nullptr; }
    bool number_unsigned(number_unsigned_t v) { return add(OJson(v)) != nullptr; }
    bool number_float(number_float_t v, const string_t& /*text*/) {
        return add(OJson(v)) != nullptr;
    }
    bool string(string_t& v) { return add(OJson(std::move(v))) != nullptr; }
    bool binary(binary_t& v) { return add(OJson::binary(std::move(v))) != nullptr; }

    bool start_object(std::size_t /*size*/) { return open(OJson::object(), true); }
    bool start_array(std::size_t /*size*/) { return open(OJson::array(), false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(string_t& key) {
        Frame& top = m_frames.back();
        if (!top.keys.insert(key).second) {
            throw StructureError{framePath(m_frames.size()),
                                 "duplicate key " + quote(key) +
                                     " (each key may appear only once in an object; JSON "
                                     "readers silently keep just one of the values)"};
        }
        top.key = key;
        return true;
    }

    bool parse_error(std::size_t position, const std::string& /*lastToken*/,
                     const nlohmann::detail::exception& ex) {
        throw ParseFailure{ex.id, ex.what(), position};
    }

    [[nodiscard]] OJson& root() { return m_root; }

    /// Path of the value being parsed now (used when the parser rejects a number).
    [[nodiscard]] std::string currentPath() const { return framePath(m_frames.size() + 1); }

  private:
    struct Frame {
        OJson* value;
        bool isObject;
        std::unordered_set<std::string> keys;
        std::string key;
        std::size_t index;
    };

    /// Stores a finished value in the open container (or as the root); returns where it went.
    OJson* add(OJson&& v) {
        if (m_frames.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        Frame& top = m_frames.back();
        if (top.isObject) {
            // The key is known to be new, so append without ordered_map's linear search.
            auto& items =
                static_cast<OJson::object_t::Container&>(top.value->get_ref<OJson::object_t&>());
            items.emplace_back(top.key, std::move(v));
            return &items.back().second;
        }
        ++top.index;
        auto& items = top.value->get_ref<OJson::array_t&>();
        items.push_back(std::move(v));
        return &items.back();
    }

    bool open(OJson&& container, bool isObject) {
        if (m_frames.size() >= kMaxDepth) {
            throw StructureError{currentPath(),
                                 "nesting is deeper than " + std::to_string(kMaxDepth) + " levels"};
        }
        // Index of this container in a parent array, for paths while it is open.
        const bool inArray = !m_frames.empty() && !m_frames.back().isObject;
        OJson* where = add(std::move(container));
        if (inArray) --m_frames.back().index;
        m_frames.push_back(Frame{where, isObject, {}, {}, 0});
        return true;
    }

    bool close() {
        m_frames.pop_back();
        if (!m_frames.empty() && !m_frames.back().isObject) ++m_frames.back().index;
        return true;
    }

    /// Path of the value opened by frame `count - 1` (the root is ""): the keys and indices of
    /// the first `count - 1` frames.
    [[nodiscard]] std::string framePath(std::size_t count) const {
        std::string path;
        for (std::size_t i = 0; i + 1 < count && i < m_frames.size(); ++i) {
            const Frame& f = m_frames[i];
            path = f.isObject ? childPath(path, f.key) : indexPath(path, f.index);
        }
        return path;
    }

    OJson m_root;
    std::vector<Frame> m_frames;
};

/// Rewords nlohmann's parse_error text ("[json.exception.parse_error.101] parse error at line
/// 3, column 5: syntax error while parsing value - invalid literal; last read: '1, tru'") as
/// "malformed JSON in a value: invalid literal; last read: '1, tru'" plus a hint for the usual
/// hand-editing mistakes (trailing comma, comments, single quotes, NaN, truncated file).
std::string syntaxMessage(const std::string& what, int& line, int& column) {
    line = 0;
    column = 0;
    std::string detail = what;
    if (const std::size_t at = what.find(" at line "); at != std::string::npos) {
        std::sscanf(what.c_str() + at, " at line %d, column %d", &line, &column);
        const std::size_t colon = what.find(": ", at);
        if (colon != std::string::npos) detail = what.substr(colon + 2);
    } else if (const std::size_t bracket = what.find("] "); bracket != std::string::npos) {
        detail = what.substr(bracket + 2);
    }
    std::string where;
    const std::string prefix = "syntax error while parsing ";
    if (detail.rfind(prefix, 0) == 0) {
        detail = detail.substr(prefix.size());
        if (const std::size_t dash = detail.find(" - "); dash != std::string::npos) {
            const std::string context = detail.substr(0, dash);
            detail = detail.substr(dash + 3);
            const bool vowel = !context.empty() &&
                               std::string_view("aeiou").find(context[0]) != std::string_view::npos;
            where = std::string(" in ") + (vowel ? "an " : "a ") + context;
        }
    }

    // The text just before the error ("last read"), and its trailing word.
    std::string lastRead;
    if (const std::size_t p = detail.find("last read: '"); p != std::string::npos) {
        const std::size_t start = p + 12;
        const std::size_t end = detail.find("'", start);
        lastRead = detail.substr(start, end == std::string::npos ? std::string::npos : end - start);
        // nlohmann quotes the text verbatim; a quote inside it ends the search early.
        if (end != std::string::npos && end + 1 < detail.size() && detail[end + 1] == '\'') {
            lastRead += '\'';
        }
    }
    std::size_t wordStart = lastRead.size();
    while (wordStart > 0 && (std::isalpha(static_cast<unsigned char>(lastRead[wordStart - 1])) ||
                             lastRead[wordStart - 1] == '-')) {
        --wordStart;
    }
    const std::string word = lastRead.substr(wordStart);

    std::string hint;
    if (!lastRead.empty() && lastRead.back() == '/') {
        hint = " (JSON does not allow comments)";
    } else if (!lastRead.empty() && lastRead.back() == '\'') {
        hint = " (JSON strings and keys use double quotes)";
    } else if (!word.empty() && (word[0] == 'N' || word[0] == 'I' || word.rfind("-I", 0) == 0)) {
        hint = " (JSON has no NaN or Infinity; every number must be finite)";
    } else if (detail.find("unexpected end of input") != std::string::npos) {
        hint = " (the file ends early: a missing '}' or ']'?)";
    } else if (detail.find("; expected end of input") != std::string::npos) {
        hint = " (there is more text after the end of the top-level object)";
    } else if ((detail.find("unexpected '}'") != std::string::npos ||
                detail.find("unexpected ']'") != std::string::npos) &&
               (where == " in an object key" || where == " in a value")) {
        hint = " (a trailing comma before '}' or ']' is not allowed in JSON)";
    }
    return "malformed JSON" + where + ": " + detail + hint;
}

// ---- Validation ---------------------------------------------------------------------------------

enum class Bound {
    Positive,    ///< > 0
    NonNegative, ///< >= 0
    Any,         ///< any finite value
};

class Loader {
  public:
    Loader(std::string file, const LoadOptions& options)
        : m_file(std::move(file)), m_options(options) {}

    LoadResult load(const OJson& root) {
        if (!root.is_object())
            fail("", "expected a JSON object at the top level, got " + describe(root));
        checkHeader(root);
        checkTopLevelKeys(root);

        LoadResult result;
        Scene& scene = result.scene;
        if (const auto* v = find(root, "name")) scene.name = string(*v, "name");
        if (const auto* v = find(root, "description")) {
            scene.description = string(*v, "description");
        }
        if (const auto* v = find(root, "simulation")) scene.simulation = simulation(*v);
        if (const auto* v = find(root, "agentDefaults")) scene.agentDefaults = defaults(*v);
        if (const auto* v = find(root, "detour")) scene.simulation.params.detour = detour(*v);
        const OJson* agents = find(root, "agents");
        if (agents == nullptr) {
            fail("", "missing required key \"agents\" (an array of agents; it may be empty)");
        }
        if (!agents->is_array()) fail("agents", "expected an array, got " + describe(*agents));
        scene.agents.reserve(agents->size());
        for (std::size_t i = 0; i < agents->size(); ++i) {
            scene.agents.push_back(agent((*agents)[i], indexPath("agents", i)));
        }
        if (const auto* obstacles = find(root, "obstacles")) {
            if (!obstacles->is_array()) {
                fail("obstacles", "expected an array, got " + describe(*obstacles));
            }
            scene.obstacles.reserve(obstacles->size());
            for (std::size_t i = 0; i < obstacles->size(); ++i) {
                scene.obstacles.push_back(
                    obstacle((*obstacles)[i], indexPath("obstacles", i), result.warnings));
            }
        }
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (std::find(kTopKeys.begin(), kTopKeys.end(), it.key()) == kTopKeys.end()) {
                scene.extra[it.key()] = it.value();
            }
        }
        return result;
    }

  private:
    [[noreturn]] void fail(const std::string& path, const std::string& message) const {
        throw SceneError(m_file, path, 0, 0, message);
    }

    static const OJson* find(const OJson& obj, std::string_view key) {
        const auto it = obj.find(std::string(key));
        return it == obj.end() ? nullptr : &*it;
    }

    void checkHeader(const OJson& root) const {
        const OJson* format = find(root, "format");
        if (format == nullptr) {
            fail("", "missing required key \"format\" (a scene file starts with "
                     "\"format\": \"orca-scene\", \"version\": 1)");
        }
        if (!format->is_string() || format->get<std::string>() != kFormatName) {
            fail("format", "expected \"orca-scene\", got " + describe(*format) +
                               " (this is not an ORCA Sandbox scene file)");
        }
        const OJson* version = find(root, "version");
        if (version == nullptr) fail("", "missing required key \"version\" (expected 1)");
        const std::optional<std::int64_t> v = integerValue(*version);
        if (!v) fail("version", "expected the integer 1, got " + describe(*version));
        if (*v > kFormatVersion) {
            fail("version", "the file was written by a newer version of ORCA Sandbox (scene "
                            "format version " +
                                std::to_string(*v) + "); this build reads version 1 only");
        }
        if (*v != kFormatVersion) {
            fail("version",
                 "unsupported scene format version " + std::to_string(*v) + " (expected 1)");
        }
    }

    void checkTopLevelKeys(const OJson& root) const {
        for (auto it = root.begin(); it != root.end(); ++it) {
            const std::string& key = it.key();
            if (std::find(kTopKeys.begin(), kTopKeys.end(), key) != kTopKeys.end()) continue;
            const Suggestion s = closestKey(key, kTopKeys);
            // Short keys get a tighter threshold so that e.g. "note" is not taken for "name".
            const std::size_t limit = key.size() <= 4 ? 1 : 2;
            if (s.distance <= limit) {
                fail("", "unknown top-level key " + quote(key) + " (did you mean " +
                             quote(std::string(s.key)) +
                             "?); unknown top-level blocks are kept as they are, but this one "
                             "looks like a misspelling and its contents would be ignored");
            }
        }
    }

    void checkKeys(const OJson& obj, const std::string& path,
                   std::span<const std::string_view> valid) const {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const std::string& key = it.key();
            if (std::find(valid.begin(), valid.end(), key) != valid.end()) continue;
            fail(path, unknownKeyMessage(key, valid));
        }
    }

    void requireObject(const OJson& j, const std::string& path) const {
        if (!j.is_object()) fail(path, "expected an object, got " + describe(j));
    }

    std::string string(const OJson& j, const std::string& path) const {
        if (!j.is_string()) fail(path, "expected a string, got " + describe(j));
        return j.get<std::string>();
    }

    static std::optional<std::int64_t> integerValue(const OJson& j) {
        if (j.is_number_unsigned()) {
            const auto u = j.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                return std::numeric_limits<std::int64_t>::max();
            }
            return static_cast<std::int64_t>(u);
        }
        if (j.is_number_integer()) return j.get<std::int64_t>();
        if (j.is_number_float()) {
            const double d = j.get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) {
                return static_cast<std::int64_t>(d);
            }
        }
        return std::nullopt;
    }

    double number(const OJson& j, const std::string& path, Bound bound,
                  double maxMagnitude = kMaxMagnitude) const {
        if (!j.is_number()) fail(path, "expected a number, got " + describe(j));
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail(path, "expected a finite number, got " + describe(j));
        switch (bound) {
        case Bound::Positive:
            if (!(v > 0.0)) fail(path, "expected a number > 0, got " + formatNumber(v, false));
            break;
        case Bound::NonNegative:
            if (!(v >= 0.0)) {
                fail(path, "expected a number >= 0 (not negative), got " + formatNumber(v, false));
            }
            break;
        case Bound::Any:
            break;
        }
        if (std::fabs(v) > maxMagnitude) {
            fail(path, "the value " + formatNumber(v, false) +
                           " is out of range (values must lie within -1e7..1e7)");
        }
        return v;
    }

    std::int64_t count(const OJson& j, const std::string& path, std::int64_t max) const {
        const std::optional<std::int64_t> v = integerValue(j);
        if (!j.is_number() || !v || *v < 0) {
            fail(path, "expected a non-negative integer, got " + describe(j));
        }
        if (*v > max) {
            fail(path,
                 "the value " + j.dump() + " is too large (at most " + std::to_string(max) + ")");
        }
        return *v;
    }

    Vec2 vec2(const OJson& j, const std::string& path) const {
        if (!j.is_array() || j.size() != 2) {
            std::string got = describe(j);
            if (j.is_array()) got = "an array of " + std::to_string(j.size()) + " elements";
            fail(path, "expected [x, y] (an array of 2 numbers), got " + got);
        }
        return {number(j[0], indexPath(path, 0), Bound::Any),
                number(j[1], indexPath(path, 1), Bound::Any)};
    }

    SimulationBlock simulation(const OJson& j) const {
        const std::string path = "simulation";
        requireObject(j, path);
        checkKeys(j, path, kSimulationKeys);
        SimulationBlock block;
        if (const auto* v = find(j, "timeStep")) {
            block.params.timeStep = number(*v, childPath(path, "timeStep"), Bound::Positive);
        }
        if (const auto* v = find(j, "responsibility")) {
            const std::string p = childPath(path, "responsibility");
            const double r = number(*v, p, Bound::Positive);
            if (r > 1.0) fail(p, "expected a number in (0, 1], got " + formatNumber(r, false));
            block.params.responsibility = r;
        }
        if (const auto* v = find(j, "staticResponsibility")) {
            const std::string p = childPath(path, "staticResponsibility");
            const double r = number(*v, p, Bound::Positive);
            if (r > 1.0) fail(p, "expected a number in (0, 1], got " + formatNumber(r, false));
            block.params.staticResponsibility = r;
        }
        if (const auto* v = find(j, "lp3BisectorWeight")) {
            block.params.lp3BisectorWeight =
                number(*v, childPath(path, "lp3BisectorWeight"), Bound::Positive);
        }
        if (const auto* v = find(j, "time")) {
            block.time = number(*v, childPath(path, "time"), Bound::NonNegative,
                                std::numeric_limits<double>::max());
        }
        if (const auto* v = find(j, "step")) {
            block.step = static_cast<std::uint64_t>(
                count(*v, childPath(path, "step"), std::numeric_limits<std::int64_t>::max()));
        }
        return block;
    }

    bool boolean(const OJson& j, const std::string& path) const {
        if (!j.is_boolean()) fail(path, "expected true or false, got " + describe(j));
        return j.get<bool>();
    }

    DetourParams detour(const OJson& j) const {
        const std::string path = "detour";
        requireObject(j, path);
        checkKeys(j, path, kDetourKeys);
        DetourParams d;
        if (const auto* v = find(j, "enabled")) d.enabled = boolean(*v, childPath(path, "enabled"));
        if (const auto* v = find(j, "neighborFallback"))
            d.neighborFallback = boolean(*v, childPath(path, "neighborFallback"));
        auto real = [&](const char* key, double& out) {
            if (const auto* v = find(j, key)) out = number(*v, childPath(path, key), Bound::NonNegative);
        };
        real("cellSize", d.cellSize);
        real("influenceRadius", d.influenceRadius);
        real("enterSpeedRatio", d.enterSpeedRatio);
        real("enterGoalDistance", d.enterGoalDistance);
        real("sampleDistance", d.sampleDistance);
        real("exitAlignedDegrees", d.exitAlignedDegrees);
        real("exitGoalDistance", d.exitGoalDistance);
        real("stillSpeed", d.stillSpeed);
        real("stillSeconds", d.stillSeconds);
        if (d.enterSpeedRatio > 1.0)
            fail(childPath(path, "enterSpeedRatio"),
                 "expected a number in [0, 1], got " + formatNumber(d.enterSpeedRatio, false));
        if (d.exitAlignedDegrees > 90.0)
            fail(childPath(path, "exitAlignedDegrees"),
                 "expected a number of degrees in [0, 90], got " +
                     formatNumber(d.exitAlignedDegrees, false));
        return d;
    }

    void state(const OJson& j, const std::string& path, SceneAgent& a) const {
        requireObject(j, path);
        checkKeys(j, path, kStateKeys);
        if (const auto* v = find(j, "detour")) {
            const std::string p = childPath(path, "detour");
            if (!v->is_string()) fail(p, "expected \"normal\" or \"detouring\", got " + describe(*v));
            const std::string mode = v->get<std::string>();
            if (mode == "detouring") {
                a.detourMode = DetourMode::Detouring;
            } else if (mode != "normal") {
                fail(p, "expected \"normal\" or \"detouring\", got \"" + mode + "\"");
            }
        }
        if (const auto* v = find(j, "stillSeconds")) {
            a.stillSeconds = number(*v, childPath(path, "stillSeconds"), Bound::NonNegative,
                                    std::numeric_limits<double>::max());
        }
    }

    /// Reads the parameter keys present in `j` into `out` (only those present).
    void params(const OJson& j, const std::string& path, AgentOverrides& out) const {
        AgentParams unused;
        forEachAgentParam(out, unused, [&](std::string_view key, auto& value, auto&) {
            const auto* v = find(j, std::string(key));
            if (v == nullptr) return;
            const std::string valuePath = childPath(path, key);
            using T = typename std::decay_t<decltype(value)>::value_type;
            if constexpr (std::is_same_v<T, int>) {
                value = static_cast<int>(count(*v, valuePath, INT_MAX));
            } else {
                value = number(*v, valuePath, boundOf(key));
            }
        });
    }

    /// Valid range of each real-valued agent parameter.
    static Bound boundOf(std::string_view key) {
        return key == "radius" || key == "timeHorizon" || key == "timeHorizonObst"
                   ? Bound::Positive
                   : Bound::NonNegative;
    }

    AgentParams defaults(const OJson& j) const {
        const std::string path = "agentDefaults";
        requireObject(j, path);
        checkKeys(j, path, kParamKeys);
        AgentOverrides o;
        params(j, path, o);
        return o.appliedTo(AgentParams{});
    }

    std::optional<nlohmann::json> id(const OJson& obj, const std::string& path) const {
        const OJson* v = find(obj, "id");
        if (v == nullptr) return std::nullopt;
        if (v->is_string()) return nlohmann::json(v->get<std::string>());
        if (v->is_number_unsigned()) return nlohmann::json(v->get<std::uint64_t>());
        if (v->is_number_integer()) return nlohmann::json(v->get<std::int64_t>());
        fail(childPath(path, "id"), "expected a string or an integer, got " + describe(*v));
    }

    SceneAgent agent(const OJson& j, const std::string& path) const {
        requireObject(j, path);
        checkKeys(j, path, kAgentKeys);
        SceneAgent a;
        a.id = id(j, path);
        const OJson* position = find(j, "position");
        if (position == nullptr) fail(path, "missing required key \"position\" ([x, y])");
        a.position = vec2(*position, childPath(path, "position"));
        if (const auto* v = find(j, "velocity")) a.velocity = vec2(*v, childPath(path, "velocity"));
        if (const auto* v = find(j, "goal")) a.goal = vec2(*v, childPath(path, "goal"));
        if (const auto* v = find(j, "prefVelocity")) {
            a.prefVelocity = vec2(*v, childPath(path, "prefVelocity"));
        }
        if (const auto* v = find(j, "static")) {
            if (!v->is_boolean()) {
                fail(childPath(path, "static"), "expected true or false, got " + describe(*v));
            }
            a.isStatic = v->get<bool>();
        }
        params(j, path, a.overrides);
        if (const auto* v = find(j, "state")) state(*v, childPath(path, "state"), a);

        if (a.goal && a.prefVelocity) {
            fail(path, "an agent has a goal or a constant prefVelocity, not both (the goal "
                       "would override prefVelocity every step); remove one of them");
        }
        if (a.isStatic && a.goal) {
            fail(childPath(path, "goal"),
                 "a static agent cannot have a goal (static agents never move); remove "
                 "\"goal\" or \"static\"");
        }
        if (a.isStatic && a.prefVelocity) {
            fail(childPath(path, "prefVelocity"),
                 "a static agent cannot have a prefVelocity (static agents never move); remove "
                 "\"prefVelocity\" or \"static\"");
        }
        if (a.isStatic && a.velocity && (a.velocity->x != 0.0 || a.velocity->y != 0.0)) {
            fail(childPath(path, "velocity"),
                 "a static agent's velocity must be [0, 0] or absent (static agents never move)");
        }
        return a;
    }

    SceneObstacle obstacle(const OJson& j, const std::string& path,
                           std::vector<SceneWarning>& warnings) const {
        requireObject(j, path);
        checkKeys(j, path, kObstacleKeys);
        SceneObstacle o;
        o.id = id(j, path);
        const OJson* vertices = find(j, "vertices");
        if (vertices == nullptr) {
            fail(path, "missing required key \"vertices\" (an array of [x, y], "
                       "counter-clockwise)");
        }
        const std::string vpath = childPath(path, "vertices");
        if (!vertices->is_array()) {
            fail(vpath, "expected an array of [x, y] vertices, got " + describe(*vertices));
        }
        if (vertices->size() < 2) {
            fail(vpath, "an obstacle needs at least 2 vertices (2 = a thin wall segment), got " +
                            std::to_string(vertices->size()));
        }
        o.vertices.reserve(vertices->size());
        for (std::size_t i = 0; i < vertices->size(); ++i) {
            o.vertices.push_back(vec2((*vertices)[i], indexPath(vpath, i)));
        }
        const PolygonCheck check = checkPolygon(o.vertices);
        if (!check.valid) fail(vpath, check.error);
        if (check.clockwise && o.vertices.size() >= 3 && m_options.repairWinding) {
            std::reverse(o.vertices.begin(), o.vertices.end());
            std::string name = "obstacle " + path;
            if (o.id) name += " (id " + o.id->dump() + ")";
            warnings.push_back({path, name + " is clockwise; reversed to counter-clockwise "
                                             "(agents would otherwise walk through it)"});
        }
        return o;
    }

    std::string m_file;
    LoadOptions m_options;
};

bool sameVec(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

bool sameVec(const std::optional<Vec2>& a, const std::optional<Vec2>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || sameVec(*a, *b);
}

bool sameAgent(const SceneAgent& a, const SceneAgent& b) {
    return a.id == b.id && sameVec(a.position, b.position) && sameVec(a.velocity, b.velocity) &&
           sameVec(a.goal, b.goal) && sameVec(a.prefVelocity, b.prefVelocity) &&
           a.isStatic == b.isStatic && a.overrides == b.overrides &&
           a.detourMode == b.detourMode && a.stillSeconds == b.stillSeconds;
}

bool sameObstacle(const SceneObstacle& a, const SceneObstacle& b) {
    return a.id == b.id &&
           std::equal(a.vertices.begin(), a.vertices.end(), b.vertices.begin(), b.vertices.end(),
                      [](Vec2 p, Vec2 q) { return sameVec(p, q); });
}

// ---- Writing helpers ---------------------------------------------------------------------------

void appendField(std::string& out, bool& first, std::string_view key, const std::string& value) {
    out += first ? "{ " : ", ";
    first = false;
    out += '"';
    out += key;
    out += "\": ";
    out += value;
}

std::string formatParam(double v) { return formatNumber(v, false); }
std::string formatParam(int v) { return std::to_string(v); }

std::string formatId(const nlohmann::json& id) {
    std::string out;
    writeCompact(out, id);
    return out;
}

std::string agentLine(const SceneAgent& a) {
    std::string out;
    bool first = true;
    if (a.id) appendField(out, first, "id", formatId(*a.id));
    appendField(out, first, "position", formatVec(a.position));
    if (a.velocity) appendField(out, first, "velocity", formatVec(*a.velocity));
    if (a.goal) appendField(out, first, "goal", formatVec(*a.goal));
    if (a.prefVelocity) appendField(out, first, "prefVelocity", formatVec(*a.prefVelocity));
    if (a.isStatic) appendField(out, first, "static", "true");
    const AgentParams unused;
    forEachAgentParam(a.overrides, unused, [&](std::string_view key, const auto& value, auto&) {
        if (value) appendField(out, first, key, formatParam(*value));
    });
    if (a.detourMode != DetourMode::Normal || a.stillSeconds != 0.0) {
        std::string state = "{";
        if (a.detourMode != DetourMode::Normal)
            state += " \"detour\": \"" + std::string(toString(a.detourMode)) + "\"";
        if (a.stillSeconds != 0.0) {
            if (state.size() > 1) state += ',';
            state += " \"stillSeconds\": " + formatNumber(a.stillSeconds, false);
        }
        state += " }";
        appendField(out, first, "state", state);
    }
    out += " }";
    return out;
}

std::string obstacleLine(const SceneObstacle& o) {
    std::string out;
    bool first = true;
    if (o.id) appendField(out, first, "id", formatId(*o.id));
    std::string vertices = "[";
    for (std::size_t i = 0; i < o.vertices.size(); ++i) {
        if (i > 0) vertices += ", ";
        vertices += formatVec(o.vertices[i]);
    }
    vertices += ']';
    appendField(out, first, "vertices", vertices);
    out += " }";
    return out;
}

/// Writes `"key": {` + one `"k": v` line per entry + `}` at block indentation.
void appendBlock(std::string& out, std::string_view key,
                 const std::vector<std::pair<std::string_view, std::string>>& entries) {
    out += "  \"";
    out += key;
    out += "\": {\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        out += "    \"";
        out += entries[i].first;
        out += "\": ";
        out += entries[i].second;
        out += i + 1 < entries.size() ? ",\n" : "\n";
    }
    out += "  }";
}

std::string osError(int err) {
    return std::error_code(err, std::generic_category()).message();
}

} // namespace

// ---- SceneError
// -----------------------------------------------------------------------------------

SceneError::SceneError(std::string file, std::string jsonPath, int line, int column,
                       std::string message)
    : std::runtime_error(composeWhat(file, jsonPath, line, column, message)),
      m_file(std::move(file)), m_jsonPath(std::move(jsonPath)), m_line(line), m_column(column),
      m_message(std::move(message)) {}

// ---- Scene
// ------------------------------------------------------------------------------------------

AgentParams AgentOverrides::appliedTo(AgentParams base) const {
    forEachAgentParam(*this, base, [](std::string_view, const auto& value, auto& param) {
        if (value) param = *value;
    });
    return base;
}

AgentParams Scene::resolvedParams(const SceneAgent& agent) const {
    return agent.overrides.appliedTo(agentDefaults);
}

AgentDef Scene::agentDef(const SceneAgent& agent) const {
    AgentDef def;
    def.position = agent.position;
    def.velocity = agent.isStatic ? Vec2{0.0, 0.0} : agent.velocity.value_or(Vec2{0.0, 0.0});
    def.params = resolvedParams(agent);
    def.hasGoal = agent.goal.has_value();
    def.goal = agent.goal.value_or(Vec2{0.0, 0.0});
    def.prefVelocity = agent.prefVelocity.value_or(Vec2{0.0, 0.0});
    def.isStatic = agent.isStatic;
    return def;
}

bool operator==(const Scene& a, const Scene& b) {
    return a.name == b.name && a.description == b.description &&
           a.simulation.params == b.simulation.params && a.simulation.time == b.simulation.time && a.simulation.step == b.simulation.step &&
           a.agentDefaults == b.agentDefaults &&
           std::equal(a.agents.begin(), a.agents.end(), b.agents.begin(), b.agents.end(),
                      sameAgent) &&
           std::equal(a.obstacles.begin(), a.obstacles.end(), b.obstacles.begin(),
                      b.obstacles.end(), sameObstacle) &&
           a.extra == b.extra;
}

// ---- Loading
// ----------------------------------------------------------------------------------------

LoadResult parseScene(const std::string& text, const std::string& fileName) {
    return parseScene(text, fileName, LoadOptions{});
}

OJson parseJsonText(const std::string& text, const std::string& fileName) {
    const std::string file = fileName.empty() ? std::string("<scene>") : fileName;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw SceneError(file, "", 1, 1, "the file is empty (expected a JSON object)");
    }
    SaxBuilder builder;
    try {
        OJson::sax_parse(text, &builder, OJson::input_format_t::json, /*strict=*/true,
                         /*ignore_comments=*/false);
    } catch (const StructureError& e) {
        throw SceneError(file, e.path, 0, 0, e.message);
    } catch (const ParseFailure& e) {
        if (e.id == 406) {
            // The parser rejects numbers that overflow a double (1e999 would be infinity).
            std::string number = e.what;
            const std::size_t open = number.find('\'');
            const std::size_t close = number.rfind('\'');
            number = open != std::string::npos && close > open
                         ? number.substr(open + 1, close - open - 1)
                         : std::string("here");
            throw SceneError(file, builder.currentPath(), 0, 0,
                             "the number " + number +
                                 " is too large (it would be infinite; every number must be "
                                 "finite)");
        }
        int line = 0;
        int column = 0;
        const std::string message = syntaxMessage(e.what, line, column);
        if (line <= 0 || column <= 0) {
            // No position in the message, or column 0: nlohmann counts the newline it has just
            // read as the start of the next line ("line 3, column 0" for a raw line break in a
            // string at the end of line 2). Count lines up to the byte offset instead: that
            // points at the last character read, the line break itself.
            const std::size_t end = std::min<std::size_t>(e.byte, text.size());
            line = 1;
            column = 1;
            for (std::size_t i = 0; i + 1 < end; ++i) {
                if (text[i] == '\n') {
                    ++line;
                    column = 1;
                } else {
                    ++column;
                }
            }
        }
        throw SceneError(file, "", line, column, message);
    }
    return std::move(builder.root());
}

LoadResult parseScene(const std::string& text, const std::string& fileName,
                      const LoadOptions& options) {
    const std::string file = fileName.empty() ? std::string("<scene>") : fileName;
    const OJson root = parseJsonText(text, file);
    Loader loader(file, options);
    return loader.load(root);
}

LoadResult loadScene(const std::filesystem::path& path) {
    return loadScene(path, LoadOptions{});
}

std::string formatByteSize(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t unit = 0;
    std::uint64_t scale = 1024;
    while (unit + 1 < kUnits.size() && bytes / scale >= 1024) {
        scale *= 1024;
        ++unit;
    }
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%.1f",
                  static_cast<double>(bytes) / static_cast<double>(scale));
    std::string number = buf.data();
    if (number.size() > 2 && number.compare(number.size() - 2, 2, ".0") == 0) {
        number.resize(number.size() - 2); // "64 MiB", not "64.0 MiB"
    }
    return number + ' ' + kUnits[unit];
}

namespace {

/// "directory", "character device"... for a file that is not a regular file.
std::string fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "directory";
    if (S_ISCHR(mode)) return "character device";
    if (S_ISBLK(mode)) return "block device";
    if (S_ISFIFO(mode)) return "FIFO";
    if (S_ISSOCK(mode)) return "socket";
    return "unknown file type";
}

/// "1.5 GiB is larger than the 1 GiB limit (--max-file-size)"; exact byte counts when the
/// rounded sizes read the same ("1 GiB is larger than the 1 GiB limit" would puzzle).
std::string tooLargeMessage(std::uint64_t size, std::uint64_t limit, const std::string& setting) {
    std::string sizeText = formatByteSize(size);
    std::string limitText = formatByteSize(limit);
    if (sizeText == limitText) {
        sizeText = std::to_string(size) + " bytes";
        limitText = std::to_string(limit) + " bytes";
    }
    std::string message = sizeText + " is larger than the " + limitText + " limit";
    if (!setting.empty()) message += " (" + setting + ")";
    return message;
}

/// The refusal when a file grew past the limit after its size was checked.
std::string grewMessage(std::uint64_t limit, const std::string& setting) {
    std::string message =
        "the file grew past the " + formatByteSize(limit) + " limit while being read";
    if (!setting.empty()) message += " (" + setting + ")";
    return message;
}

} // namespace

std::string readTextFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                         const std::string& setting) {
    const std::string file = path.string();
    // Look before opening: opening a device can have side effects (a tape rewinds, a terminal
    // becomes the controlling one) and opening a FIFO for reading blocks until a writer comes.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        throw SceneError(file, "", 0, 0, "cannot open the file: " + osError(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        throw SceneError(file, "", 0, 0, "not a regular file (" + fileKind(st.st_mode) + ")");
    }
    const auto statSize = static_cast<std::uint64_t>(st.st_size);
    if (statSize > maxBytes) {
        throw SceneError(file, "", 0, 0, tooLargeMessage(statSize, maxBytes, setting));
    }
    // The path may have been replaced since: O_NONBLOCK keeps a FIFO from blocking open(),
    // O_NOCTTY keeps a terminal from becoming ours, and fstat checks what was really opened.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) throw SceneError(file, "", 0, 0, "cannot open the file: " + osError(errno));
    auto fail = [&](const std::string& message) {
        ::close(fd);
        throw SceneError(file, "", 0, 0, message);
    };
    if (::fstat(fd, &st) != 0) fail("cannot read the file: " + osError(errno));
    if (!S_ISREG(st.st_mode)) fail("not a regular file (" + fileKind(st.st_mode) + ")");
    // And the file may grow while it is read: never read more than maxBytes + 1 bytes.
    const std::uint64_t cap =
        maxBytes == std::numeric_limits<std::uint64_t>::max() ? maxBytes : maxBytes + 1;
    std::string text;
    text.reserve(static_cast<std::size_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(st.st_size), maxBytes)));
    std::array<char, 1 << 16> buffer{};
    while (text.size() < cap) {
        const std::size_t want =
            static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), cap - text.size()));
        const ssize_t n = ::read(fd, buffer.data(), want);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot read the file: " + osError(errno));
        }
        if (n == 0) break;
        text.append(buffer.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (text.size() > maxBytes) {
        throw SceneError(file, "", 0, 0, grewMessage(maxBytes, setting));
    }
    return text;
}

LoadResult loadScene(const std::filesystem::path& path, const LoadOptions& options) {
    return parseScene(readTextFile(path, options.maxFileSize, options.maxFileSizeSetting),
                      path.string(), options);
}

std::string describeJsonValue(const OJson& value) {
    return describe(value);
}

std::string unknownKeyMessage(std::string_view key, std::span<const std::string_view> valid) {
    const std::string k(key);
    const Suggestion s = closestKey(key, valid);
    if (s.distance <= 3 && s.distance < key.size())
        return "unknown key " + quote(k) + " (did you mean " + quote(std::string(s.key)) + "?)";
    return "unknown key " + quote(k) + " (valid keys: " + joinKeys(valid) + ")";
}

// ---- Saving
// -----------------------------------------------------------------------------------------

std::string serializeScene(const Scene& scene) {
    std::string out = "{\n";
    out += "  \"format\": \"orca-scene\",\n";
    out += "  \"version\": " + std::to_string(kFormatVersion);
    if (!scene.name.empty()) out += ",\n  \"name\": " + quote(scene.name);
    if (!scene.description.empty()) out += ",\n  \"description\": " + quote(scene.description);

    // Simulation: the time step always; the rest only when it differs from the default.
    const SimulationParams defaultsSim;
    const SimulationBlock& sim = scene.simulation;
    std::vector<std::pair<std::string_view, std::string>> entries;
    entries.emplace_back("timeStep", formatNumber(sim.params.timeStep, false));
    if (sim.params.responsibility != defaultsSim.responsibility) {
        entries.emplace_back("responsibility", formatNumber(sim.params.responsibility, false));
    }
    if (sim.params.staticResponsibility != defaultsSim.staticResponsibility) {
        entries.emplace_back("staticResponsibility",
                             formatNumber(sim.params.staticResponsibility, false));
    }
    if (sim.params.lp3BisectorWeight != defaultsSim.lp3BisectorWeight) {
        entries.emplace_back("lp3BisectorWeight",
                             formatNumber(sim.params.lp3BisectorWeight, false));
    }
    if (sim.time != 0.0) entries.emplace_back("time", formatNumber(sim.time, false));
    if (sim.step != 0) entries.emplace_back("step", std::to_string(sim.step));
    out += ",\n";
    appendBlock(out, "simulation", entries);

    // Agent defaults: every parameter, so the file documents itself; goalRadius only when set
    // (negative = "the agent's radius", which is what an absent key means).
    entries.clear();
    const AgentOverrides none;
    forEachAgentParam(none, scene.agentDefaults, [&](std::string_view key, auto&, const auto& value) {
        if (key == "goalRadius" && value < 0.0 && std::isfinite(value)) return;
        entries.emplace_back(key, formatParam(value));
    });
    out += ",\n";
    appendBlock(out, "agentDefaults", entries);

    // Detour: the whole block whenever it differs from the defaults (self-documenting).
    const DetourParams& d = scene.simulation.params.detour;
    if (!(d == DetourParams{})) {
        entries.clear();
        entries.emplace_back("enabled", d.enabled ? "true" : "false");
        entries.emplace_back("cellSize", formatNumber(d.cellSize, false));
        entries.emplace_back("influenceRadius", formatNumber(d.influenceRadius, false));
        entries.emplace_back("enterSpeedRatio", formatNumber(d.enterSpeedRatio, false));
        entries.emplace_back("enterGoalDistance", formatNumber(d.enterGoalDistance, false));
        entries.emplace_back("sampleDistance", formatNumber(d.sampleDistance, false));
        entries.emplace_back("exitAlignedDegrees", formatNumber(d.exitAlignedDegrees, false));
        entries.emplace_back("exitGoalDistance", formatNumber(d.exitGoalDistance, false));
        entries.emplace_back("neighborFallback", d.neighborFallback ? "true" : "false");
        entries.emplace_back("stillSpeed", formatNumber(d.stillSpeed, false));
        entries.emplace_back("stillSeconds", formatNumber(d.stillSeconds, false));
        out += ",\n";
        appendBlock(out, "detour", entries);
    }

    out += ",\n  \"agents\": [";
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        out += agentLine(scene.agents[i]);
    }
    out += scene.agents.empty() ? "]" : "\n  ]";

    if (!scene.obstacles.empty()) {
        out += ",\n  \"obstacles\": [";
        for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
            out += i == 0 ? "\n    " : ",\n    ";
            out += obstacleLine(scene.obstacles[i]);
        }
        out += "\n  ]";
    }

    if (scene.extra.is_object()) {
        for (auto it = scene.extra.begin(); it != scene.extra.end(); ++it) {
            out += ",\n  " + quote(it.key()) + ": ";
            writePretty(out, it.value(), 2);
        }
    }
    out += "\n}\n";
    return out;
}

void saveScene(const Scene& scene, const std::filesystem::path& path) {
    const std::string file = path.string();
    const std::string text = serializeScene(scene);
    // Refuse to write a file that would not load again (e.g. a radius edited to 0 or NaN).
    try {
        (void)parseScene(text, file);
    } catch (const SceneError& e) {
        throw SceneError(file, e.jsonPath(), 0, 0,
                         "the scene was not saved because it is invalid: " + e.message());
    }

    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    static std::atomic<unsigned> counter{0};
    std::filesystem::path tmp;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
        std::string name(1, '.');
        name += path.filename().string();
        name += ".tmp-";
        name += std::to_string(::getpid());
        name += '-';
        name += std::to_string(counter.fetch_add(1));
        name += '-';
        name += std::to_string(static_cast<unsigned long long>(ticks) % 1000000007ULL);
        tmp = dir / name;
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            throw SceneError(file, "", 0, 0,
                             "cannot save: cannot create a temporary file in \"" + dir.string() +
                                 "\": " + osError(errno));
        }
    }
    if (fd < 0) {
        throw SceneError(file, "", 0, 0,
                         "cannot save: no unique temporary file name in \"" + dir.string() + "\"");
    }
    auto abandon = [&](const std::string& what, int err) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmp.c_str());
        throw SceneError(file, "", 0, 0, "cannot save: " + what + ": " + osError(err));
    };

    // Keep the permissions of the file being replaced.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        (void)::fchmod(fd, st.st_mode & 07777);
    }
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            abandon("cannot write \"" + tmp.string() + "\"", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) abandon("cannot flush \"" + tmp.string() + "\" to disk", errno);
    const int closeResult = ::close(fd);
    fd = -1;
    if (closeResult != 0) abandon("cannot close \"" + tmp.string() + "\"", errno);

    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) abandon("cannot replace the file with \"" + tmp.string() + "\"", ec.value());

    // Make the rename itself durable (best effort: some file systems refuse to sync a
    // directory, and the data is already safe in the file).
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
}

// ---- Simulator conversion -----------------------------------------------------------------------

namespace {

/// buildSimulator's body; with a report, obstacles the simulator would reject are skipped.
Simulator build(const Scene& scene, BuildReport* report) {
    Simulator sim(scene.simulation.params);
    sim.reserveAgents(scene.agents.size());
    for (const SceneAgent& agent : scene.agents)
        sim.addAgent(scene.agentDef(agent));
    std::vector<std::vector<Vec2>> polygons;
    polygons.reserve(scene.obstacles.size());
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
        const std::vector<Vec2>& vertices = scene.obstacles[i].vertices;
        if (report != nullptr) {
            // The same tests as Simulator::addObstacles, which would throw.
            const PolygonCheck check = checkPolygon(vertices);
            const std::string name = indexPath("obstacles", i);
            if (!check.valid || check.clockwise) {
                report->skippedObstacles.push_back(i);
                report->reasons.push_back(
                    check.valid ? name + " is clockwise; the simulator takes counter-clockwise "
                                         "polygons only (reverse its vertices)"
                                : name + " is invalid: " + check.error);
                continue;
            }
        }
        polygons.push_back(vertices);
    }
    sim.addObstacles(polygons);
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        const SceneAgent& a = scene.agents[i];
        if (a.detourMode != DetourMode::Normal || a.stillSeconds != 0.0)
            sim.setDetourState(sim.agentIdAt(i), a.detourMode, a.stillSeconds);
    }
    sim.setClock(scene.simulation.time, scene.simulation.step);
    return sim;
}

} // namespace

Simulator buildSimulator(const Scene& scene) {
    return build(scene, nullptr);
}

Simulator buildSimulator(const Scene& scene, BuildReport& report) {
    report = BuildReport{};
    return build(scene, &report);
}

Scene captureState(const Scene& scene, const Simulator& sim) {
    if (sim.agentCount() != scene.agents.size()) {
        throw std::invalid_argument(
            "captureState: the simulator holds " + std::to_string(sim.agentCount()) +
            " agents but the scene has " + std::to_string(scene.agents.size()));
    }
    Scene out = scene;
    const std::span<const Vec2> positions = sim.positions();
    const std::span<const Vec2> velocities = sim.velocities();
    for (std::size_t i = 0; i < out.agents.size(); ++i) {
        SceneAgent& a = out.agents[i];
        a.position = positions[i];
        const Vec2 v = velocities[i];
        // Bitwise non-zero (so that -0.0 survives too): the saved state must continue
        // bit-identically.
        const bool nonZero = v.x != 0.0 || v.y != 0.0 || std::signbit(v.x) || std::signbit(v.y);
        if (nonZero || a.velocity) a.velocity = v;
        a.detourMode = sim.detourModeAt(i);
        a.stillSeconds = sim.stillSeconds(sim.agentIdAt(i));
    }
    out.simulation.time = sim.time();
    out.simulation.step = sim.stepCount();
    return out;
}

} // namespace orca::scene
