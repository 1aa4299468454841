#pragma once
/// \file path_text.hpp
/// File names as text. On Linux a path is any sequence of bytes but NUL; JSON strings (and
/// nlohmann's dump) must be UTF-8, and a message should stay one readable line. Two forms:
///  - the *display* form, for messages and JSON reports: valid UTF-8 is kept as it is; every
///    byte that is not part of a valid UTF-8 sequence, and every control character (bytes
///    0x00-0x1F and 0x7F: a newline or an escape sequence in a name would break the line or
///    the terminal), is written as `\xNN` (two upper-case hex digits). It is always valid
///    UTF-8 but not reversible (a name that contains the text `\xFF` reads the same);
///  - the *lossless JSON* form, for paths that are stored and read back (the app's recent
///    files): a JSON string when the bytes are valid UTF-8 (RFC 3629: no overlong forms, no
///    surrogates, nothing above U+10FFFF — what JSON parsers accept), otherwise an object
///    `{"bytes": "<hex>", "display": "<display form>"}`, `bytes` being every byte as two
///    lower-case hex digits; "display" is for a human reading the file and is ignored when read.
///
/// Target `orca_scene`.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace orca::scene {

/// True when `bytes` is valid UTF-8 (RFC 3629, as JSON requires it).
[[nodiscard]] bool isValidUtf8(std::string_view bytes);

/// The display form of a path (or of any text that came from outside): valid UTF-8 kept,
/// invalid bytes and control characters as `\xNN`. "a\xff.json" -> `a\xFF.json`.
[[nodiscard]] std::string displayPath(std::string_view bytes);
[[nodiscard]] std::string displayPath(const std::filesystem::path& path);
[[nodiscard]] inline std::string displayPath(const std::string& bytes) {
    return displayPath(std::string_view(bytes));
}
[[nodiscard]] inline std::string displayPath(const char* bytes) {
    return displayPath(std::string_view(bytes));
}

/// Every byte as two lower-case hex digits: "a\xff" -> "61ff".
[[nodiscard]] std::string bytesToHex(std::string_view bytes);
/// The reverse of bytesToHex (either case); nullopt for an odd length or a non-hex digit.
[[nodiscard]] std::optional<std::string> bytesFromHex(std::string_view hex);

/// The lossless JSON form of a path (see the file comment), as `J` (nlohmann::json or
/// nlohmann::ordered_json).
template <class J = nlohmann::ordered_json> [[nodiscard]] J pathToJson(std::string_view bytes) {
    if (isValidUtf8(bytes)) return J(std::string(bytes));
    J j = J::object();
    j["bytes"] = bytesToHex(bytes);
    j["display"] = displayPath(bytes);
    return j;
}
template <class J = nlohmann::ordered_json>
[[nodiscard]] J pathToJson(const std::filesystem::path& path) {
    return pathToJson<J>(std::string_view(path.native()));
}

/// The path's bytes from its lossless JSON form: a string as it is, an object by its "bytes";
/// nullopt for anything else (a number, an object without valid hex "bytes").
template <class J> [[nodiscard]] std::optional<std::string> pathFromJson(const J& j) {
    if (j.is_string()) return j.template get<std::string>();
    if (!j.is_object()) return std::nullopt;
    const auto it = j.find("bytes");
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return bytesFromHex(it->template get_ref<const std::string&>());
}

} // namespace orca::scene
