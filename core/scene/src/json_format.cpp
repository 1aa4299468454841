#include "json_format.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <unordered_set>
#include <utility>
#include <vector>

#include "orca/scene/path_text.hpp"

namespace orca::scene {

namespace detail {

namespace {

/// Deepest JSON nesting accepted. Scenes need 4 levels; the limit keeps the recursive writer
/// and the comparisons safe on hostile input.
constexpr std::size_t kMaxDepth = 256;

} // namespace

// ---- Number formatting -----------------------------------------------------------------------

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

// ---- Messages ---------------------------------------------------------------------------------

std::string composeWhat(const std::string& fileBytes, const std::string& path, int line, int column,
                        const std::string& message) {
    // The file name as bytes may be anything a Linux name holds: shown in its display form.
    const std::string file = displayPath(fileBytes);
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

namespace {

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

} // namespace

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

std::string childPath(const std::string& parent, std::string_view key) {
    return parent.empty() ? std::string(key) : parent + '.' + std::string(key);
}

std::string indexPath(const std::string& parent, std::size_t index) {
    return parent + '[' + std::to_string(index) + ']';
}

std::string shortRepeats(const std::vector<std::string>& steps) {
    // Deep nesting repeats one step hundreds of times ("[0][0][0]..."): a run of more than
    // kShownRepeats is written as its first two, "…(×N)…" with the run's length, and its last.
    constexpr std::size_t kShownRepeats = 4;
    std::string path;
    for (std::size_t i = 0; i < steps.size();) {
        std::size_t run = 1;
        while (i + run < steps.size() && steps[i + run] == steps[i])
            ++run;
        if (run > kShownRepeats) {
            path += steps[i] + steps[i] + "\xE2\x80\xA6(\xC3\x97" + std::to_string(run) +
                    ")\xE2\x80\xA6" + steps[i];
        } else {
            for (std::size_t k = 0; k < run; ++k)
                path += steps[i];
        }
        i += run;
    }
    return path;
}

std::string osError(int err) {
    return std::error_code(err, std::generic_category()).message();
}

// ---- Typed reads with JSON-path errors ---------------------------------------------------------

void JsonReader::fail(const std::string& path, const std::string& message) const {
    throw SceneError(m_file, path, 0, 0, message);
}

const OJson* JsonReader::find(const OJson& obj, std::string_view key) {
    const auto it = obj.find(std::string(key));
    return it == obj.end() ? nullptr : &*it;
}

void JsonReader::checkKeys(const OJson& obj, const std::string& path,
                           std::span<const std::string_view> valid) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string& key = it.key();
        if (std::find(valid.begin(), valid.end(), key) != valid.end()) continue;
        fail(path, unknownKeyMessage(key, valid));
    }
}

void JsonReader::requireObject(const OJson& j, const std::string& path) const {
    if (!j.is_object()) fail(path, "expected an object, got " + describe(j));
}

std::string JsonReader::string(const OJson& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string, got " + describe(j));
    return j.get<std::string>();
}

std::optional<std::int64_t> JsonReader::integerValue(const OJson& j) {
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

double JsonReader::number(const OJson& j, const std::string& path, Bound bound,
                          double maxMagnitude) const {
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

std::int64_t JsonReader::count(const OJson& j, const std::string& path, std::int64_t max) const {
    // integerValue() clamps what does not fit 64 signed bits: name it instead of accepting the
    // clamped value.
    const bool huge =
        (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) ||
        (j.is_number_float() && std::isfinite(j.get<double>()) && j.get<double>() >= 9.0e18 &&
         j.get<double>() == std::floor(j.get<double>()));
    if (huge) {
        fail(path, "the value " + j.dump() + " is too large (at most " + std::to_string(max) + ")");
    }
    const std::optional<std::int64_t> v = integerValue(j);
    if (!j.is_number() || !v || *v < 0) {
        fail(path, "expected a non-negative integer, got " + describe(j));
    }
    if (*v > max) {
        fail(path, "the value " + j.dump() + " is too large (at most " + std::to_string(max) + ")");
    }
    return *v;
}

Vec2 JsonReader::vec2(const OJson& j, const std::string& path) const {
    if (!j.is_array() || j.size() != 2) {
        std::string got = describe(j);
        if (j.is_array()) got = "an array of " + std::to_string(j.size()) + " elements";
        fail(path, "expected [x, y] (an array of 2 numbers), got " + got);
    }
    return {number(j[0], indexPath(path, 0), Bound::Any),
            number(j[1], indexPath(path, 1), Bound::Any)};
}

bool JsonReader::boolean(const OJson& j, const std::string& path) const {
    if (!j.is_boolean()) fail(path, "expected true or false, got " + describe(j));
    return j.get<bool>();
}

namespace {

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
    /// the first `count - 1` frames, a run of one step repeated shortened (shortRepeats).
    [[nodiscard]] std::string framePath(std::size_t count) const {
        std::vector<std::string> steps;
        for (std::size_t i = 0; i + 1 < count && i < m_frames.size(); ++i) {
            const Frame& f = m_frames[i];
            steps.push_back(f.isObject ? (steps.empty() ? f.key : "." + f.key)
                                       : indexPath("", f.index));
        }
        return shortRepeats(steps);
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

} // namespace

} // namespace detail

using namespace detail;

// ---- SceneError
// -----------------------------------------------------------------------------------

SceneError::SceneError(std::string file, std::string jsonPath, int line, int column,
                       std::string message)
    : std::runtime_error(composeWhat(file, jsonPath, line, column, message)),
      m_file(std::move(file)), m_jsonPath(std::move(jsonPath)), m_line(line), m_column(column),
      m_message(std::move(message)) {}

OJson parseJsonText(const std::string& text, const std::string& fileName) {
    const std::string file = fileName.empty() ? std::string("<scene>") : fileName;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw SceneError(file, "", 1, 1, "the file is empty (expected a JSON object)");
    }
    // A NUL byte is never JSON (not even inside a string): binary data, which the parser would
    // misreport (a file of NULs "ends early").
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
        int line = 1;
        int column = 1;
        for (std::size_t i = 0; i < nul; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw SceneError(file, "", line, column,
                         "the file contains a NUL byte (at byte " + std::to_string(nul) +
                             "): it is binary data, not JSON text");
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

} // namespace orca::scene
