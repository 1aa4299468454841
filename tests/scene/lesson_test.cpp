// Lessons (orca/scene/lesson.hpp): loading with precise errors, page fallbacks, the bundled
// lessons, and the "try this" task checks on hand-built simulators.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "orca/scene/lesson.hpp"

namespace orca::lesson {
namespace {

namespace fs = std::filesystem;

// A small valid lesson; `pages` and `extra` (more top-level keys) are spliced in.
std::string lessonText(const std::string& pages, const std::string& extra = "") {
    return R"({"format": "orca-lesson", "version": 1, "title": "T", )" + extra +
           R"("scene": {"agents": [{"position": [0, 0], "velocity": [1, 0], "goal": [9, 0]},
                                   {"position": [5, 0.6], "velocity": [-1, 0], "goal": [-5, 0.6]}],
                        "agentDefaults": {"radius": 0.5, "timeHorizon": 4}},
              "select": [0], "pages": )" +
           pages + "}";
}

const std::string kOnePage = R"([{"title": "P", "text": "Hello"}])";

// The error a lesson text gives: (path, message), failing the test when it loads.
std::pair<std::string, std::string> errorOf(const std::string& text) {
    try {
        (void)parseLesson(text, "lesson.json");
    } catch (const LessonError& e) {
        EXPECT_EQ(e.file(), "lesson.json");
        return {e.jsonPath(), e.message()};
    }
    ADD_FAILURE() << "loaded: " << text;
    return {};
}

TEST(LessonLoad, MinimalLessonWithInlineScene) {
    const LessonLoad l = parseLesson(lessonText(kOnePage), "lesson.json");
    EXPECT_EQ(l.lesson.title, "T");
    ASSERT_EQ(l.lesson.scene.agents.size(), 2u);
    EXPECT_DOUBLE_EQ(l.lesson.scene.agentDefaults.radius, 0.5);
    EXPECT_TRUE(l.lesson.sceneFile.empty());
    ASSERT_EQ(l.lesson.pages.size(), 1u);
    EXPECT_EQ(l.lesson.pages[0].text, "Hello");
    EXPECT_EQ(l.lesson.select, std::vector<std::size_t>{0});
    EXPECT_TRUE(l.warnings.empty());
}

TEST(LessonLoad, TextArraysAreParagraphsAndPagesFallBack) {
    const LessonLoad l = parseLesson(
        lessonText(R"([{"title": "1", "text": ["a", "b"], "steps": 5, "layers": "all,-grid"},
                       {"title": "2", "text": "c", "select": [1],
                        "construction": {"agent": 0, "phase": "u"}},
                       {"title": "3", "text": "d", "steps": 0, "solve": {"step": 2},
                        "camera": {"fit": [[-1, -2], [3, 4]]}}])",
                   R"("steps": 2, "camera": {"center": [1, 2], "zoom": 30}, )"),
        "lesson.json");
    const Lesson& les = l.lesson;
    EXPECT_EQ(les.pages[0].text, "a\n\nb");
    EXPECT_EQ(les.pages[0].layers, "all,-grid");
    EXPECT_EQ(les.pageSteps(0), 5u);
    EXPECT_EQ(les.pageSteps(1), 5u); // the previous page's
    EXPECT_EQ(les.pageSteps(2), 0u);
    EXPECT_EQ(les.pageSelect(0), std::vector<std::size_t>{0});
    EXPECT_EQ(les.pageSelect(1), std::vector<std::size_t>{1});
    ASSERT_TRUE(les.pages[1].construction);
    EXPECT_EQ(les.pages[1].construction->agent, 0u);
    EXPECT_EQ(les.pages[1].construction->phase, 1);
    EXPECT_EQ(les.pages[2].solveStep, 2);
    ASSERT_TRUE(les.camera && les.camera->center);
    EXPECT_DOUBLE_EQ(les.camera->zoom, 30.0);
    ASSERT_TRUE(les.pages[2].camera && les.pages[2].camera->fit);
    EXPECT_DOUBLE_EQ(les.pages[2].camera->fit->second.y, 4.0);
}

TEST(LessonLoad, ErrorsNameThePathAndWhatWasExpected) {
    using P = std::pair<std::string, std::string>;
    EXPECT_EQ(errorOf(R"({"format": "orca-scene", "version": 1})").first, "format");
    EXPECT_EQ(errorOf(R"({"format": "orca-lesson", "version": 2})"),
              P("version", "the file was written by a newer version of ORCA Sandbox (lesson "
                           "format version 2); this build reads version 1 only"));
    EXPECT_EQ(errorOf(lessonText("[]")), P("pages", "a lesson needs at least one page"));
    EXPECT_EQ(errorOf(lessonText(kOnePage, R"("titel": "x", )")).second,
              "unknown key \"titel\" (did you mean \"title\"?)");
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P"}])")),
              P("pages[0]", "missing required key \"text\" (a string or an array of paragraphs)"));
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "layers": "grid,bogus"}])")).first,
              "pages[0].layers");
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "select": [2]}])")),
              P("pages[0].select[0]", "agent index 2 is out of range (the scene has 2 agents)"));
    EXPECT_EQ(
        errorOf(lessonText(R"([{"title": "P", "text": "t", "construction": {"phase": "cone"}}])")),
        P("pages[0].construction.phase", "unknown phase \"cone\" (phases: vo, u, half-plane)"));
    EXPECT_EQ(
        errorOf(lessonText(R"([{"title": "P", "text": "t", "construction": {"agent": 0}}])")).first,
        "pages[0].construction.agent"); // the selected agent itself
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "construction": {},
                                      "solve": {"step": 1}}])"))
                  .first,
              "pages[0]");
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "panels": ["nope"]}])")).first,
              "pages[0].panels[0]");
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "steps": 1e9}])")).first,
              "pages[0].steps");
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t",
                                      "camera": {"center": [0, 0]}}])"))
                  .first,
              "pages[0].camera");
}

TEST(LessonLoad, PanelNamesAndTheirOlderAliases) {
    const LessonLoad l = parseLesson(
        lessonText(R"([{"title": "P", "text": "t", "panels": ["agentDefaults", "defaults"]}])"),
        "lesson.json");
    ASSERT_EQ(l.lesson.pages.size(), 1u);
    // "defaults", the window's older name, reads as its name now.
    EXPECT_EQ(l.lesson.pages[0].panels,
              (std::vector<std::string>{"agentDefaults", "agentDefaults"}));
    EXPECT_EQ(errorOf(lessonText(R"([{"title": "P", "text": "t", "panels": ["nope"]}])")).second,
              "unknown window \"nope\" (windows: parameters, inspector, metrics, linter, "
              "generators, agentDefaults, events, why, compare)");
}

TEST(LessonLoad, TaskErrors) {
    auto task = [](const std::string& t) {
        return errorOf(lessonText(R"([{"title": "P", "text": "t", "task": )" + t + "}]"));
    };
    EXPECT_EQ(task(R"({"kind": "fly", "text": "x"})").first, "pages[0].task.kind");
    EXPECT_EQ(task(R"({"kind": "half-plane-flips", "text": "x"})"),
              std::make_pair(std::string("pages[0].task"),
                             std::string("a \"half-plane-flips\" task needs \"other\" (the index "
                                         "of agent B)")));
    EXPECT_EQ(task(R"({"kind": "line-case", "text": "x", "other": 1, "case": "obstacle-left-leg"})")
                  .first,
              "pages[0].task.case");
    EXPECT_EQ(task(R"({"kind": "param-above", "text": "x", "param": "speed", "value": 1})").first,
              "pages[0].task.param");
    EXPECT_EQ(task(R"({"kind": "lp3-runs", "text": "x", "value": 1})").second,
              "\"value\" does not apply to a \"lp3-runs\" task");
    EXPECT_EQ(task(R"({"kind": "outside-vo", "text": "x", "other": 0})").first,
              "pages[0].task.other"); // B would be the selected agent A
    EXPECT_EQ(task(R"({"kind": "lp3-runs"})").second, "missing required key \"text\" (a string)");
}

TEST(LessonLoad, InlineSceneErrorsArePrefixedAndSyntaxErrorsHaveLineAndColumn) {
    const std::string bad = R"({"format": "orca-lesson", "version": 1, "title": "T",
        "scene": {"agents": [{"position": [0, 0], "raduis": 1}]},
        "pages": [{"title": "P", "text": "t"}]})";
    EXPECT_EQ(errorOf(bad), std::make_pair(std::string("scene.agents[0]"),
                                           std::string("unknown key \"raduis\" (did you mean "
                                                       "\"radius\"?)")));
    try {
        (void)parseLesson("{\n  \"format\": \"orca-lesson\",\n}", "lesson.json");
        FAIL();
    } catch (const LessonError& e) {
        EXPECT_EQ(e.line(), 3);
        EXPECT_NE(std::string(e.what()).find("lesson.json:3:1: error: malformed JSON"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LessonLoad, LinkedSceneIsResolvedNextToTheLesson) {
    const fs::path dir =
        fs::temp_directory_path() / ("orca_lesson_test_" + std::to_string(::getpid()));
    fs::create_directories(dir / "lessons");
    fs::create_directories(dir / "scenes");
    std::ofstream(dir / "scenes" / "s.json")
        << R"({"format": "orca-scene", "version": 1, "agents": [{"position": [1, 2]}]})";
    const std::string text = R"({"format": "orca-lesson", "version": 1, "title": "T",
        "scene": "../scenes/s.json", "pages": [{"title": "P", "text": "t"}]})";
    std::ofstream(dir / "lessons" / "l.json") << text;
    const LessonLoad l = loadLesson(dir / "lessons" / "l.json");
    EXPECT_EQ(l.lesson.sceneFile, (dir / "scenes" / "s.json").lexically_normal());
    ASSERT_EQ(l.lesson.scene.agents.size(), 1u);
    EXPECT_TRUE(isLessonFile(dir / "lessons" / "l.json"));
    EXPECT_FALSE(isLessonFile(dir / "scenes" / "s.json"));

    std::ofstream(dir / "lessons" / "m.json") << R"({"format": "orca-lesson", "version": 1,
        "title": "T", "scene": "missing.json", "pages": [{"title": "P", "text": "t"}]})";
    try {
        (void)loadLesson(dir / "lessons" / "m.json");
        FAIL();
    } catch (const LessonError& e) {
        EXPECT_EQ(e.jsonPath(), "scene");
        EXPECT_NE(e.message().find("cannot open the file"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}

TEST(LessonLoad, EveryBundledLessonLoads) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(ORCA_SOURCE_DIR) / "lessons"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    ASSERT_GE(files.size(), 10u);
    std::size_t tasks = 0;
    for (const fs::path& f : files) {
        SCOPED_TRACE(f.string());
        const LessonLoad l = loadLesson(f);
        EXPECT_TRUE(l.warnings.empty());
        EXPECT_GE(l.lesson.pages.size(), 3u);
        EXPECT_LE(l.lesson.pages.size(), 6u);
        EXPECT_FALSE(l.lesson.summary.empty());
        if (l.lesson.taskCount() > 0) ++tasks;
        // The scene builds, and every selection exists in it.
        const Simulator sim = scene::buildSimulator(l.lesson.scene);
        for (std::size_t p = 0; p < l.lesson.pages.size(); ++p)
            for (const std::size_t i : l.lesson.pageSelect(p))
                EXPECT_LT(i, sim.agentCount());
    }
    EXPECT_GE(tasks, 4u); // lessons with a "try this" task
}

// ---- Task checks ----------------------------------------------------------------------------

AgentParams params(double tau = 4.0) {
    AgentParams p;
    p.radius = 0.5;
    p.timeHorizon = tau;
    p.neighborDist = 10.0;
    return p;
}

// A walks right at 1; B comes the other way `dy` above A's path.
Simulator pair(double dy, double tau = 4.0) {
    Simulator sim;
    AgentDef a;
    a.velocity = {1.0, 0.0};
    a.params = params(tau);
    a.goal = {9.0, 0.0};
    a.hasGoal = true;
    sim.addAgent(a);
    AgentDef b = a;
    b.position = {5.0, dy};
    b.velocity = {-1.0, 0.0};
    b.goal = {-5.0, dy};
    sim.addAgent(b);
    return sim;
}

LessonTask taskOf(TaskKind kind) {
    LessonTask t;
    t.kind = kind;
    t.text = "x";
    t.agent = 0;
    t.other = 1;
    return t;
}

TEST(LessonTasks, HalfPlaneFlipsWhenBMovesToTheOtherSide) {
    const LessonTask t = taskOf(TaskKind::HalfPlaneFlips);
    const Simulator above = pair(0.6);
    const TaskContext c = beginTask(t, above, std::nullopt);
    ASSERT_TRUE(c.hasBaseline);
    EXPECT_LT(c.baselineU.y, 0.0); // B above: A dodges down
    EXPECT_EQ(c.baselineCase, LineCase::AgentRightLeg);
    EXPECT_FALSE(checkTask(t, above, nullptr, c).done);
    const Simulator below = pair(-0.6);
    const TaskStatus s = checkTask(t, below, nullptr, c);
    EXPECT_TRUE(s.done) << s.progress;
    EXPECT_NE(s.progress.find("left leg"), std::string::npos) << s.progress;
}

TEST(LessonTasks, OutsideVoAndLineCaseFollowTheHorizon) {
    LessonTask t = taskOf(TaskKind::OutsideVo);
    const Simulator inside = pair(0.6, 4.0); // touch after about 2.1 s < τ
    const TaskContext c = beginTask(t, inside, std::nullopt);
    EXPECT_FALSE(checkTask(t, inside, nullptr, c).done);
    const Simulator outside = pair(0.6, 1.5); // beyond τ
    EXPECT_TRUE(checkTask(t, outside, nullptr, c).done);
    const Simulator clear = pair(3.0, 4.0); // passes far above
    EXPECT_TRUE(checkTask(t, clear, nullptr, c).done);

    t.kind = TaskKind::LineCase;
    t.lineCase = LineCase::AgentRightLeg;
    EXPECT_TRUE(checkTask(t, inside, nullptr, c).done);
    t.lineCase = LineCase::AgentCutoffCircle;
    EXPECT_FALSE(checkTask(t, inside, nullptr, c).done);
    EXPECT_TRUE(checkTask(t, outside, nullptr, c).done);
}

TEST(LessonTasks, UsesTheGivenRecordOrADryRun) {
    const LessonTask t = taskOf(TaskKind::OutsideVo);
    const Simulator inside = pair(0.6);
    const Simulator outside = pair(0.6, 1.5);
    const TaskContext c = beginTask(t, inside, std::nullopt);
    // A record of A from another state is used as given.
    const ExplainRecord fromOutside = outside.explain(outside.agentIdAt(0));
    EXPECT_TRUE(checkTask(t, inside, &fromOutside, c).done);
}

TEST(LessonTasks, NeighboursLp3GoalsParametersDetour) {
    Simulator sim = pair(0.6);
    LessonTask t = taskOf(TaskKind::SeesNeighbor);
    TaskContext c = beginTask(t, sim, std::nullopt);
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);
    AgentDef a = sim.agent(sim.agentIdAt(0));
    a.params.neighborDist = 2.0;
    sim.setAgent(sim.agentIdAt(0), a);
    EXPECT_FALSE(checkTask(t, sim, nullptr, c).done);

    t = taskOf(TaskKind::Lp3Stops);
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);
    t.kind = TaskKind::Lp3Runs;
    EXPECT_FALSE(checkTask(t, sim, nullptr, c).done);

    t.kind = TaskKind::ParamBelow;
    t.param = "neighborDist";
    t.value = 3.0;
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);
    EXPECT_EQ(checkTask(t, sim, nullptr, c).progress, "neighborDist = 2 (needs < 3)");
    t.kind = TaskKind::ParamAbove;
    t.param = "timeStep";
    t.value = 0.2;
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done); // default Δt 0.25

    t.kind = TaskKind::DetourEnabled;
    EXPECT_FALSE(checkTask(t, sim, nullptr, c).done);
    SimulationParams sp = sim.params();
    sp.detour.enabled = true;
    sim.setParams(sp);
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);

    t.kind = TaskKind::AgentReachesGoal;
    EXPECT_FALSE(checkTask(t, sim, nullptr, c).done);
    t.kind = TaskKind::AllReachGoal;
    EXPECT_FALSE(checkTask(t, sim, nullptr, c).done);
    for (int i = 0; i < 200 && !sim.allAtGoal(); ++i)
        sim.step();
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);
    t.kind = TaskKind::AgentReachesGoal;
    EXPECT_TRUE(checkTask(t, sim, nullptr, c).done);
}

TEST(LessonTasks, Lp3RunsInACrowdAndTheAgentDefaultsToThePrimary) {
    // Four agents converge on A from all sides at A's maximum speed: no velocity satisfies all.
    Simulator sim;
    AgentDef a;
    a.params = params(3.0);
    a.params.maxSpeed = 1.0;
    a.velocity = {0.0, 1.0};
    sim.addAgent(a);
    const Vec2 at[] = {{0.0, 1.6}, {1.6, 0.0}, {-1.6, 0.0}, {0.0, -1.6}};
    for (const Vec2 p : at) {
        AgentDef b = a;
        b.position = p;
        b.velocity = -p / 1.6;
        sim.addAgent(b);
    }
    LessonTask t = taskOf(TaskKind::Lp3Runs);
    t.agent.reset();
    const TaskContext c = beginTask(t, sim, std::size_t{0});
    EXPECT_EQ(c.agent, 0u);
    const TaskStatus s = checkTask(t, sim, nullptr, c);
    EXPECT_TRUE(s.done) << s.progress;
    EXPECT_NE(s.progress.find("LP3 runs"), std::string::npos);
}

TEST(LessonTasks, KindNamesRoundTrip) {
    for (int k = 0; k <= static_cast<int>(TaskKind::DetourEnabled); ++k) {
        const auto kind = static_cast<TaskKind>(k);
        EXPECT_EQ(taskKindFromName(toString(kind)), kind);
    }
    EXPECT_FALSE(taskKindFromName("nope"));
}

} // namespace
} // namespace orca::lesson
