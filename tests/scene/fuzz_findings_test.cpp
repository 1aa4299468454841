// What the scene fuzzer found (tests/fuzz/, docs/fuzzing.md), each pinned with hand-checked
// numbers. The crashing inputs themselves are replayed by the ctest test fuzz.scene_replay.
#include <gtest/gtest.h>

#include <string>

#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

/// The SceneError parseScene throws for `text` (fails the test when it loads).
SceneError parseError(const std::string& text) {
    try {
        (void)parseScene(text, "f.json");
    } catch (const SceneError& e) {
        return e;
    }
    ADD_FAILURE() << "loaded: " << text;
    return SceneError("", "", 0, 0, "");
}

// crashes/scene/syntax_error_column_0_after_line_break.json: a raw line break inside a string
// was reported at "f.json:3:0" (nlohmann had already counted the break as the start of line 3;
// columns are 1-based). It is at line 2, column 8: `  "-If}` is 7 characters, then the break.
TEST(FuzzFindings, LineBreakInAStringIsReportedWhereItIs) {
    const SceneError e = parseError("{\n  \"-If}\n");
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 8);
    EXPECT_EQ(std::string(e.what()).rfind("f.json:2:8: error: malformed JSON", 0), 0u) << e.what();
}

// Positions that nlohmann reports with a non-zero column are kept as they were.
TEST(FuzzFindings, OtherSyntaxErrorsKeepTheirPositions) {
    const SceneError e = parseError("{\n  \"format\": tru\n}");
    EXPECT_EQ(e.line(), 2);
    EXPECT_GT(e.column(), 0);
}

} // namespace
} // namespace orca::scene
