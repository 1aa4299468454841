// Texts the app shows cut (orca/scene/text_limits.hpp, issue 25): the cut itself, the linter's
// text-too-long rule and the lesson loader's warnings, which say where the app would cut.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "orca/scene/lesson.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/text_limits.hpp"

namespace orca::scene {
namespace {

TEST(TextLimits, CutsOnACharacterBoundaryWithAnEllipsis) {
    EXPECT_EQ(cutText("abc", 3), "abc");
    EXPECT_EQ(cutText("abcd", 3), "abc\xE2\x80\xA6");
    // "é" is two bytes: a cut inside it keeps the whole character out.
    EXPECT_EQ(utf8Prefix("a\xC3\xA9z", 2), 1u);
    EXPECT_EQ(cutText("a\xC3\xA9z", 2), "a\xE2\x80\xA6");
    EXPECT_EQ(utf8Prefix("a\xC3\xA9z", 3), 3u);
    EXPECT_EQ(utf8Prefix("", 0), 0u);
    EXPECT_FALSE(textIsCut(std::string(kMaxTitleBytes, 'x'), kMaxTitleBytes));
    EXPECT_TRUE(textIsCut(std::string(kMaxTitleBytes + 1, 'x'), kMaxTitleBytes));
    EXPECT_EQ(textCutWarning(300, 200),
              "300 bytes long: the app shows only its first 200 bytes (a longer text is cut "
              "with \"\xE2\x80\xA6\")");
}

std::vector<LintIssue> textIssues(const Scene& s) {
    std::vector<LintIssue> out;
    for (LintIssue& i : lintScene(s))
        if (i.rule == "text-too-long") out.push_back(std::move(i));
    return out;
}

TEST(LintText, NamesIdsAndHintsLongerThanTheAppShows) {
    Scene s = parseScene(R"({"format": "orca-scene", "version": 1, "name": "Fine",
        "view": {"hint": "Click an agent"},
        "agents": [{"id": "A", "position": [0, 0]}, {"id": 7, "position": [3, 0]},
                   {"position": [6, 0]}]})",
                         "s.json")
                  .scene;
    EXPECT_TRUE(textIssues(s).empty());

    s.name = std::string(kMaxTitleBytes + 1, 'n');
    s.extra["view"]["hint"] = std::string(5'000'000, 'h');
    s.agents[0].id = std::string(300, 'a');
    s.agents[2].id = std::string(400, 'b');
    const std::vector<LintIssue> issues = textIssues(s);
    ASSERT_EQ(issues.size(), 3u);
    for (const LintIssue& i : issues)
        EXPECT_EQ(i.severity, LintSeverity::Warning);
    std::vector<std::string> paths;
    for (const LintIssue& i : issues)
        paths.push_back(i.jsonPath);
    EXPECT_EQ(paths, (std::vector<std::string>{"name", "view.hint", "agents[0].id"}));
    EXPECT_EQ(issues[0].message, "the scene's name is 201 bytes long: the app shows only its "
                                 "first 200 bytes (a longer text is cut with \"\xE2\x80\xA6\")");
    EXPECT_NE(issues[1].message.find("5000000 bytes long"), std::string::npos);
    // One finding for every agent whose id is cut, at the first; the longest is named.
    EXPECT_EQ(issues[2].elements.size(), 2u);
    EXPECT_EQ(issues[2].message.rfind("the ids of agents[0] and agents[2] are up to 400 bytes "
                                      "long",
                                      0),
              0u)
        << issues[2].message;
    EXPECT_TRUE(issues[2].fixLabel.empty());
}

TEST(LessonText, TheLoaderWarnsWhereTheAppCuts) {
    const std::string page(kMaxPageTextBytes + 1, 'p');
    const std::string task(kMaxParagraphBytes + 5, 't');
    const std::string text = R"({"format": "orca-lesson", "version": 1, "title": ")" +
                             std::string(kMaxTitleBytes + 2, 'T') +
                             R"(", "scene": {"agents": [{"position": [0, 0], "goal": [5, 0]}]},
        "select": [0], "pages": [
          {"title": "Fine", "text": "Short."},
          {"title": "Long", "text": ")" +
                             page + R"(", "task": {"kind": "agent-reaches-goal", "text": ")" +
                             task + R"(", "success": "Done"}}]})";
    const lesson::LessonLoad l = lesson::parseLesson(text, "l.json");
    std::vector<std::string> paths;
    for (const SceneWarning& w : l.warnings)
        paths.push_back(w.jsonPath);
    EXPECT_EQ(paths, (std::vector<std::string>{"title", "pages[1].text", "pages[1].task.text"}));
    ASSERT_EQ(l.warnings.size(), 3u);
    EXPECT_EQ(l.warnings[1].message, "the page's text is 20001 bytes long: the app shows only its "
                                     "first 20000 bytes (a longer text is cut with "
                                     "\"\xE2\x80\xA6\")");
    EXPECT_NE(l.warnings[2].message.find("1005 bytes long"), std::string::npos);
}

} // namespace
} // namespace orca::scene
