// Paths as text (path_text.hpp): the display form for messages and reports, the lossless JSON
// form for stored paths, and the scene library's messages naming a file that is not UTF-8.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/files.hpp"

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/path_text.hpp"
#include "orca/scene/scene.hpp"

namespace {

namespace fs = std::filesystem;
using namespace orca::scene;

TEST(PathText, Utf8Validity) {
    EXPECT_TRUE(isValidUtf8(""));
    EXPECT_TRUE(isValidUtf8("plain/ascii.json"));
    EXPECT_TRUE(isValidUtf8("sc\xC3\xA8ne \xE2\x82\xAC \xF0\x9F\x98\x80")); // è € 😀
    EXPECT_FALSE(isValidUtf8("a\xFF\xFE"));
    EXPECT_FALSE(isValidUtf8("\xC0\xAF"));         // overlong '/'
    EXPECT_FALSE(isValidUtf8("\xE0\x80\xAF"));     // overlong, 3 bytes
    EXPECT_FALSE(isValidUtf8("\xED\xA0\x80"));     // a surrogate (U+D800)
    EXPECT_FALSE(isValidUtf8("\xF4\x90\x80\x80")); // above U+10FFFF
    EXPECT_FALSE(isValidUtf8("\xE2\x82"));         // cut short
    EXPECT_FALSE(isValidUtf8("\x80"));             // a lone continuation byte
}

TEST(PathText, DisplayFormEscapesInvalidBytesAndControlCharacters) {
    EXPECT_EQ(displayPath(std::string_view("scenes/a.json")), "scenes/a.json");
    EXPECT_EQ(displayPath(std::string_view("a\xFF\xFE.json")), "a\\xFF\\xFE.json");
    EXPECT_EQ(displayPath(std::string_view("sc\xC3\xA8ne")), "sc\xC3\xA8ne"); // valid: kept
    EXPECT_EQ(displayPath(std::string_view("\xE2\x82"
                                           "x")),
              "\\xE2\\x82x");
    EXPECT_EQ(displayPath(std::string_view("two\nlines\x1B[31m\x7F")),
              "two\\x0Alines\\x1B[31m\\x7F");
    EXPECT_TRUE(isValidUtf8(displayPath(std::string_view("\xC0\xAF\xF4\x90\x80\x80\xFF"))));
    EXPECT_EQ(displayPath(fs::path("d/\xFF")), "d/\\xFF");
    // Whatever the bytes, the display form goes into JSON.
    EXPECT_NO_THROW((void)nlohmann::json(displayPath(std::string_view("\xFF\xFE"))).dump());
}

TEST(PathText, LosslessJsonFormRoundTrips) {
    EXPECT_EQ(bytesToHex("a\xFF"), "61ff");
    EXPECT_EQ(bytesFromHex("61FF"), std::string("a\xFF"));
    EXPECT_FALSE(bytesFromHex("6"));
    EXPECT_FALSE(bytesFromHex("zz"));

    const nlohmann::ordered_json plain = pathToJson(std::string_view("/home/u/sc\xC3\xA8ne.json"));
    ASSERT_TRUE(plain.is_string()); // valid UTF-8 stays a plain string
    EXPECT_EQ(plain.get<std::string>(), "/home/u/sc\xC3\xA8ne.json");

    const std::string bytes = "/tmp/a\xFF\xFE\n.json";
    const nlohmann::json j = pathToJson<nlohmann::json>(std::string_view(bytes));
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["bytes"], bytesToHex(bytes));
    EXPECT_EQ(j["display"], "/tmp/a\\xFF\\xFE\\x0A.json");
    // Through text and back: the same bytes.
    const nlohmann::json reread = nlohmann::json::parse(j.dump());
    EXPECT_EQ(pathFromJson(reread), bytes);
    EXPECT_EQ(pathFromJson(nlohmann::json::parse(plain.dump())),
              std::string("/home/u/sc\xC3\xA8ne.json"));
    EXPECT_FALSE(pathFromJson(nlohmann::json(3)));
    EXPECT_FALSE(pathFromJson(nlohmann::json{{"bytes", "xyz"}}));
    EXPECT_FALSE(pathFromJson(nlohmann::json{{"display", "a"}}));
}

// The scene library names a file that is not UTF-8 in its display form: its messages can be
// printed and put into JSON.
TEST(PathText, SceneErrorsNameTheFileInItsDisplayForm) {
    orca::test::TempDir dir;
    const fs::path file = dir.path() / "bad\xFF\xFE.json";
    std::ofstream(file) << "{";
    try {
        (void)loadScene(file);
        FAIL() << "expected a SceneError";
    } catch (const SceneError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("bad\\xFF\\xFE.json:"), std::string::npos) << what;
        EXPECT_TRUE(isValidUtf8(what)) << what;
        EXPECT_EQ(e.file(), file.string()); // the bytes, for a caller that opens it
    }
    // An atomic write's errors too.
    const fs::path missing = dir.path() / "no\xFF" / "x.json";
    std::string error;
    EXPECT_FALSE(writeFileAtomic(missing, "x", error));
    EXPECT_NE(error.find("no\\xFF"), std::string::npos) << error;
    EXPECT_TRUE(isValidUtf8(error)) << error;
}

} // namespace
