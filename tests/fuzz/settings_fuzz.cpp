// libFuzzer target for the sandbox's settings reader (docs/fuzzing.md): bytes ->
// settingsFromText -> checks of the settings, save (settingsToText) and read again. Every broken
// invariant aborts, so that libFuzzer (or the replay driver, replay_main.cpp) reports the input.
//
// Invariants checked:
// - settingsFromText never throws (a corrupt file is reported through its `error`) and never
//   crashes or hits UB; on failure `error` says something and `out` is left untouched;
// - accepted settings are in range: UI scale 100..250 %, at most Settings::kMaxRecentFiles
//   recent files, a velocity arrow length in (0, 1e6) s;
// - saving never throws, and the saved text reads back to settings that save to the same text
//   (the settings file is a fixed point after one save);
// - addRecentFile puts a file name first, once, keeps the list capped, and the result still
//   saves and reads back. The name: an input that starts with '/' is a file name (its first
//   line, any bytes, as Linux file names are) followed by the settings text; for any other
//   input the name is "/fuzz/scene.json" and the whole input is the settings text.
//
// settings.cpp is compiled into this target with layers.cpp and settings_panels.cpp (a copy
// of the panel table's settings columns; the real table draws the panels and needs the whole
// app). tests/fuzz/check_panel_table.py (test fuzz.settings_panel_table) checks the copy.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "shell/settings.hpp"

#include "orca/ui/style.hpp"

namespace {

using namespace orca;
using namespace orca::app;

[[noreturn]] void violated(const char* what, const std::string& detail = {}) {
    std::fprintf(stderr, "settings_fuzz: invariant violated: %s\n%s\n", what, detail.c_str());
    std::fflush(stderr);
    __builtin_trap();
}

std::string save(const Settings& s, const char* stage) {
    try {
        return settingsToText(s);
    } catch (const std::exception& e) {
        violated(stage, e.what());
    }
}

bool read(const std::string& text, Settings& out, std::string& error, const char* stage) {
    try {
        return settingsFromText(text, out, error);
    } catch (const std::exception& e) {
        violated(stage, e.what());
    }
}

void checkRange(const Settings& s) {
    if (s.uiScalePercent < ui::kMinUiScalePercent || s.uiScalePercent > ui::kMaxUiScalePercent)
        violated("UI scale out of range", std::to_string(s.uiScalePercent));
    if (s.recentFiles.size() > Settings::kMaxRecentFiles) violated("too many recent files");
    const double arrow = s.layers.world.velocityArrowSeconds;
    if (!(arrow > 0.0 && arrow < 1e6)) violated("velocity arrow length out of range");
}

/// Saved text reads back to settings that save to the same text.
void checkRoundTrip(const Settings& s, const char* stage) {
    const std::string text = save(s, stage);
    Settings again;
    std::string error;
    if (!read(text, again, error, stage)) violated(stage, "saved settings do not read: " + error);
    checkRange(again);
    const std::string text2 = save(again, stage);
    if (text2 != text)
        violated(stage, "round trip changed the settings:\n" + text + "---\n" + text2);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string name = "/fuzz/scene.json";
    std::string text = input;
    if (!input.empty() && input.front() == '/') {
        const std::size_t eol = input.find('\n');
        name = input.substr(0, eol);
        text = eol == std::string::npos ? std::string() : input.substr(eol + 1);
    }
    // `out` keeps a recognisable value when the text is refused.
    Settings out;
    out.uiScalePercent = 175;
    out.recentFiles = {"/untouched"};
    const std::string before = save(out, "saving the sentinel settings threw");
    std::string error;
    if (!read(text, out, error, "settingsFromText threw")) {
        if (error.empty()) violated("settingsFromText failed without an error");
        if (save(out, "saving untouched settings threw") != before)
            violated("settingsFromText changed its output on failure");
        return 0;
    }
    checkRange(out);
    checkRoundTrip(out, "round trip");

    if (name.find('\0') != std::string::npos) return 0; // not a file name
    try {
        out.addRecentFile(name);
    } catch (const std::exception& e) {
        violated("addRecentFile threw", e.what());
    }
    if (out.recentFiles.empty() || out.recentFiles.size() > Settings::kMaxRecentFiles)
        violated("recent files not capped");
    for (std::size_t i = 1; i < out.recentFiles.size(); ++i)
        if (out.recentFiles[i] == out.recentFiles.front()) violated("duplicate recent file");
    checkRoundTrip(out, "round trip after addRecentFile");
    return 0;
}
