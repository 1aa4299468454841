// Paths as text: the display form and the lossless JSON form (path_text.hpp).
#include "orca/scene/path_text.hpp"

#include <cstdint>

namespace orca::scene {

namespace {

/// The length of the valid UTF-8 sequence that starts at `s[i]`, or 0 when the byte there does
/// not start one (RFC 3629, Table 3-7 of the Unicode standard: no overlong forms, no
/// surrogates D800-DFFF, nothing above U+10FFFF).
std::size_t utf8SequenceAt(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
    const std::uint8_t b0 = byte(i);
    if (b0 < 0x80) return 1;
    std::size_t n = 0;
    std::uint8_t lo = 0x80; // the range of the second byte
    std::uint8_t hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        n = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        n = 3;
        if (b0 == 0xE0) lo = 0xA0; // overlong below U+0800
        if (b0 == 0xED) hi = 0x9F; // surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        n = 4;
        if (b0 == 0xF0) lo = 0x90; // overlong below U+10000
        if (b0 == 0xF4) hi = 0x8F; // above U+10FFFF
    } else {
        return 0; // a continuation byte, C0, C1 or F5-FF
    }
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

constexpr char kUpperHex[] = "0123456789ABCDEF";
constexpr char kLowerHex[] = "0123456789abcdef";

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

} // namespace

bool isValidUtf8(std::string_view bytes) {
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = utf8SequenceAt(bytes, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string displayPath(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const auto b = static_cast<std::uint8_t>(bytes[i]);
        const std::size_t n = utf8SequenceAt(bytes, i);
        if (n == 0 || b < 0x20 || b == 0x7F) {
            out += "\\x";
            out += kUpperHex[b >> 4];
            out += kUpperHex[b & 0xF];
            ++i;
            continue;
        }
        out.append(bytes.substr(i, n));
        i += n;
    }
    return out;
}

std::string displayPath(const std::filesystem::path& path) {
    return displayPath(std::string_view(path.native()));
}

std::string bytesToHex(std::string_view bytes) {
    std::string out;
    out.reserve(2 * bytes.size());
    for (char c : bytes) {
        const auto b = static_cast<std::uint8_t>(c);
        out += kLowerHex[b >> 4];
        out += kLowerHex[b & 0xF];
    }
    return out;
}

std::optional<std::string> bytesFromHex(std::string_view hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    std::string out;
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int hi = hexValue(hex[i]);
        const int lo = hexValue(hex[i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
    }
    return out;
}

} // namespace orca::scene
