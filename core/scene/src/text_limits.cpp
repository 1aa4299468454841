#include "orca/scene/text_limits.hpp"

namespace orca::scene {

std::size_t utf8Prefix(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes) return text.size();
    std::size_t n = maxBytes;
    // Back to the start of the character that byte n belongs to (continuation bytes 10xxxxxx).
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0u) == 0x80u)
        --n;
    return n;
}

std::string cutText(std::string_view text, std::size_t maxBytes) {
    if (!textIsCut(text, maxBytes)) return std::string(text);
    std::string out(text.substr(0, utf8Prefix(text, maxBytes)));
    out += "\xE2\x80\xA6"; // …
    return out;
}

std::string textCutWarning(std::size_t bytes, std::size_t maxBytes) {
    return std::to_string(bytes) + " bytes long: the app shows only its first " +
           std::to_string(maxBytes) + " bytes (a longer text is cut with \"\xE2\x80\xA6\")";
}

} // namespace orca::scene
