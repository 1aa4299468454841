// The settings file keeps paths as bytes (issue 25, item 3): a recent file whose name is not
// UTF-8 is written in its lossless JSON form and read back byte for byte, and writing the
// settings (as the app does on exit) no longer throws.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/files.hpp"
#include "shell/settings.hpp"

namespace fs = std::filesystem;
using namespace orca::app;

TEST(SettingsPaths, RecentFilesThatAreNotUtf8RoundTrip) {
    Settings s;
    const std::string odd = "/scenes/a\xFF\xFE.json";
    const std::string plain = "/scenes/sc\xC3\xA8ne.json";
    s.recentFiles = {odd, plain};
    std::string text;
    ASSERT_NO_THROW(text = settingsToText(s)); // threw type_error.316 before
    const nlohmann::json j = nlohmann::json::parse(text);
    ASSERT_TRUE(j["recentFiles"][0].is_object()) << text;
    EXPECT_EQ(j["recentFiles"][0]["bytes"], "2f7363656e65732f61fffe2e6a736f6e");
    EXPECT_EQ(j["recentFiles"][0]["display"], "/scenes/a\\xFF\\xFE.json");
    EXPECT_EQ(j["recentFiles"][1], plain); // valid UTF-8 stays a plain string

    Settings back;
    std::string err;
    ASSERT_TRUE(settingsFromText(text, back, err)) << err;
    EXPECT_EQ(back.recentFiles, (std::vector<std::string>{odd, plain}));

    // Written to disk as on exit, and read again.
    orca::test::TempDir dir("settings-paths");
    const fs::path file = dir.path() / "settings.json";
    ASSERT_TRUE(saveSettings(s, file, err)) << err;
    const SettingsLoad loaded = loadSettings(file);
    EXPECT_TRUE(loaded.error.empty()) << loaded.error;
    EXPECT_EQ(loaded.settings.recentFiles, s.recentFiles);
}

TEST(SettingsPaths, UnreadableRecentFileEntriesAreSkipped) {
    Settings s;
    std::string err;
    ASSERT_TRUE(settingsFromText(R"({"recentFiles": ["/a.json", {"bytes": "zz"}, {"display": "x"},
                                     {"bytes": "2f622e6a736f6e"}, 7]})",
                                 s, err))
        << err;
    EXPECT_EQ(s.recentFiles, (std::vector<std::string>{"/a.json", "/b.json"}));
}
