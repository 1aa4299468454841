// The importers (orca/scene/import.hpp, docs/import.md): SteerSuite test cases and Menge
// projects from fixtures written for these tests (tests/scene/import/), every drop reason,
// seeds, orientation, and the errors for malformed XML and wrong values.
#include <algorithm>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "orca/geometry.hpp"
#include "orca/scene/import.hpp"
#include "orca/scene/scene.hpp"

namespace {

using namespace orca;
using namespace orca::scene;

const std::filesystem::path kDir = std::filesystem::path(ORCA_SOURCE_DIR) / "tests/scene/import";

bool hasDrop(const ImportResult& r, const std::string& what, const std::string& why) {
    return std::any_of(r.dropped.begin(), r.dropped.end(), [&](const ImportDrop& d) {
        return d.what.find(what) != std::string::npos && d.why.find(why) != std::string::npos;
    });
}

bool hasNote(const ImportResult& r, const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

// Every imported scene saves and loads again, and its polygons are counter-clockwise.
void expectLoadable(const ImportResult& r) {
    const std::string text = serializeScene(r.scene);
    const LoadResult back = parseScene(text, "imported.json");
    EXPECT_TRUE(back.warnings.empty());
    EXPECT_EQ(back.scene.agents.size(), r.scene.agents.size());
    for (const SceneObstacle& o : r.scene.obstacles)
        if (o.vertices.size() > 2) {
            EXPECT_GT(signedArea(o.vertices), 0.0);
        }
    EXPECT_NO_THROW((void)buildSimulator(r.scene));
}

std::string steerCase(const std::string& body, const std::string& header = "") {
    return "<?xml version=\"1.0\"?>\n<SteerBenchTestCase>\n<header><name>t</name>" + header +
           "</header>\n" + body + "\n</SteerBenchTestCase>\n";
}

std::string agentXml(const std::string& goals, const std::string& radius = "0.5",
                     const std::string& position = "<x>0</x><y>0</y><z>0</z>") {
    return "<agent><name>a</name><initialConditions><radius>" + radius + "</radius><position>" +
           position +
           "</position><direction><x>1</x><y>0</y><z>0</z></direction><speed>0</speed>"
           "</initialConditions><goalSequence>" +
           goals + "</goalSequence></agent>";
}

std::string seek(double x, double z) {
    return "<seekStaticTarget><targetLocation><x>" + std::to_string(x) + "</x><y>0</y><z>" +
           std::to_string(z) +
           "</z></targetLocation><desiredSpeed>1.33</desiredSpeed>"
           "</seekStaticTarget>";
}

const std::string kWorld = "<worldBounds><xmin>-10</xmin><xmax>10</xmax><ymin>0</ymin>"
                           "<ymax>0</ymax><zmin>-10</zmin><zmax>10</zmax></worldBounds>";

TEST(ImportDetect, ByRootElementNotByName) {
    EXPECT_EQ(detectImportDocument("<?xml version=\"1.0\"?><!-- c --><SteerBenchTestCase/>"),
              ImportDocument::SteerSuiteCase);
    EXPECT_EQ(detectImportDocument("\xEF\xBB\xBF<Project scene=\"s.xml\"/>"),
              ImportDocument::MengeProject);
    EXPECT_EQ(detectImportDocument("  <Experiment version=\"2.0\">"), ImportDocument::MengeScene);
    EXPECT_EQ(detectImportDocument("<ss:BFSM xmlns:ss=\"x\">"), ImportDocument::MengeBehaviour);
    EXPECT_EQ(detectImportDocument("{\"format\": \"orca-scene\"}"), ImportDocument::None);
    EXPECT_EQ(detectImportDocument("<Other/>"), ImportDocument::None);
    EXPECT_EQ(detectImportDocument(""), ImportDocument::None);
}

TEST(ImportRngTest, MapsTwoMersenneOutputsTo53Bits) {
    ImportRng rng(7);
    std::mt19937 gen(7);
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t a = gen() >> 5;
        const std::uint64_t b = gen() >> 6;
        const double expected = static_cast<double>((a << 26) | b) / 9007199254740992.0;
        const double u = rng.unit();
        EXPECT_EQ(u, expected);
        EXPECT_GE(u, 0.0);
        EXPECT_LT(u, 1.0);
    }
}

TEST(ImportSteerSuite, FixtureAgentsGoalsAndParameters) {
    const ImportResult r = importFiles({kDir / "steersuite_basic.xml"});
    EXPECT_EQ(r.format, ImportFormat::SteerSuite);
    EXPECT_EQ(r.scene.name, "import-basic");
    ASSERT_EQ(r.scene.agents.size(), 7u);
    // our (x, y) = SteerSuite's (x, -z).
    const SceneAgent& a = r.scene.agents[0];
    EXPECT_EQ(a.id, nlohmann::json("A"));
    EXPECT_EQ(a.position, Vec2(-5, -1));
    ASSERT_TRUE(a.velocity);
    EXPECT_EQ(*a.velocity, Vec2(1, 0));
    // Three targets (the idle between them dropped): two waypoints and the goal; the box
    // region's targetLocation is its point.
    ASSERT_EQ(a.waypoints.size(), 2u);
    EXPECT_EQ(a.waypoints[0], Vec2(0, -5));
    EXPECT_EQ(a.waypoints[1], Vec2(5, -5));
    ASSERT_TRUE(a.goal);
    EXPECT_EQ(*a.goal, Vec2(5, 5));
    EXPECT_EQ(a.overrides.prefSpeed, 1.2);
    EXPECT_FALSE(a.overrides.radius); // 0.5 = the default
    const SceneAgent& b = r.scene.agents[1];
    EXPECT_EQ(b.overrides.radius, 0.4);
    EXPECT_EQ(b.overrides.prefSpeed, 1.5);
    EXPECT_EQ(b.overrides.maxSpeed, 1.5);    // raised to the preferred speed
    EXPECT_EQ(b.overrides.timeHorizon, 4.0); // rvo_time_horizon of its goal's Behaviour
    ASSERT_TRUE(b.goal);
    EXPECT_EQ(*b.goal, Vec2(-5, 1));
    // The region's agents lie in the region (x in [-18, -12], y = -z in [-18, -12]).
    for (std::size_t i = 2; i < 7; ++i) {
        const Vec2 p = r.scene.agents[i].position;
        EXPECT_GE(p.x, -17.5);
        EXPECT_LE(p.x, -12.5);
        EXPECT_GE(p.y, -17.5);
        EXPECT_LE(p.y, -12.5);
        EXPECT_TRUE(r.scene.agents[i].goal);
    }
    EXPECT_EQ(r.scene.agentDefaults.neighborDist, 10.0);
    EXPECT_EQ(r.scene.agentDefaults.timeHorizon, 2.0);
    EXPECT_EQ(r.scene.simulation.params.timeStep, 0.05);
    EXPECT_TRUE(hasDrop(r, "fleeStaticTarget", "fleeing"));
    EXPECT_TRUE(hasDrop(r, "agentEmitter \"E\"", "emitter"));
    EXPECT_TRUE(hasDrop(r, "agent[1]/goalSequence/idle", "waiting"));
    EXPECT_TRUE(hasDrop(r, "\"ped_max_speed\"", "no ORCA counterpart"));
    EXPECT_TRUE(hasNote(r, "unknown element <sparkles> at 115:3"));
    expectLoadable(r);
}

TEST(ImportSteerSuite, ObstaclesAreCounterClockwiseInOurPlane) {
    const ImportResult r = importFiles({kDir / "steersuite_basic.xml"});
    ASSERT_EQ(r.scene.obstacles.size(), 7u);
    // The box x in [-1, 1], z in [2, 3] -> y in [-3, -2], counter-clockwise.
    const std::vector<Vec2> box = {{-1, -3}, {1, -3}, {1, -2}, {-1, -2}};
    EXPECT_EQ(r.scene.obstacles[0].vertices, box);
    // thetaY 90 turns the 4 x 1 box counter-clockwise: 1 wide, 4 tall, centred at (10, 0).
    const auto& turned = r.scene.obstacles[1].vertices;
    ASSERT_EQ(turned.size(), 4u);
    for (const Vec2& v : turned) {
        EXPECT_NEAR(std::fabs(v.x - 10.0), 0.5, 1e-12);
        EXPECT_NEAR(std::fabs(v.y), 2.0, 1e-12);
    }
    EXPECT_EQ(r.scene.obstacles[2].vertices.size(), 16u); // the circle's 16-gon
    // The open polygon: two thin walls.
    EXPECT_EQ(r.scene.obstacles[3].vertices, (std::vector<Vec2>{{0, 10}, {4, 10}}));
    EXPECT_EQ(r.scene.obstacles[4].vertices, (std::vector<Vec2>{{4, 10}, {4, 14}}));
    for (const SceneObstacle& o : r.scene.obstacles)
        if (o.vertices.size() > 2) {
            EXPECT_GT(signedArea(o.vertices), 0.0);
        }
}

TEST(ImportSteerSuite, SeedMakesRandomPlacementReproducible) {
    ImportOptions one;
    one.seed = 5;
    const std::string a = serializeScene(importFiles({kDir / "steersuite_basic.xml"}, one).scene);
    const std::string b = serializeScene(importFiles({kDir / "steersuite_basic.xml"}, one).scene);
    EXPECT_EQ(a, b);
    ImportOptions other;
    other.seed = 6;
    const ImportResult c = importFiles({kDir / "steersuite_basic.xml"}, other);
    EXPECT_NE(a, serializeScene(c.scene));
    EXPECT_EQ(c.seed, 6u);
    // Fixed agents do not depend on the seed.
    EXPECT_EQ(c.scene.agents[0].position, Vec2(-5, -1));
}

TEST(ImportSteerSuite, EveryDropReason) {
    const std::string body =
        agentXml(seek(1, 1) +
                 "<seekDynamicTarget><targetName>b</targetName><desiredSpeed>1</desiredSpeed>"
                 "</seekDynamicTarget><flowDynamicDirection><desiredSpeed>1</desiredSpeed>"
                 "</flowDynamicDirection><groupTarget/><teleport/>"
                 "<flowStaticDirection><targetDirection><x>1</x><y>0</y><z>0</z>"
                 "</targetDirection><desiredSpeed>1</desiredSpeed></flowStaticDirection>") +
        "<orientedWallObstacle><thetaY>0</thetaY><size><x>4</x><y>1</y><z>1</z></size>"
        "<position><x>0</x><y>0</y><z>5</z></position><doorway><random>true</random>"
        "</doorway></orientedWallObstacle>"
        "<orientedBoxObstacle><thetaY>0</thetaY><size><random>true</random></size>"
        "<position><x>0</x><y>0</y><z>5</z></position></orientedBoxObstacle>"
        "<obstacle><xmin>1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0</zmin>"
        "<zmax>1</zmax></obstacle>"
        "<polygonObstacle><vertex><x>0</x><y>0</y><z>0</z></vertex><vertex><x>2</x><y>0</y>"
        "<z>2</z></vertex><vertex><x>2</x><y>0</y><z>0</z></vertex><vertex><x>0</x><y>0</y>"
        "<z>2</z></vertex></polygonObstacle>" +
        agentXml(seek(1, 1), "0.5", "<random>true</random>");
    const ImportResult r = importTexts({{"drops.xml", steerCase(body)}});
    EXPECT_TRUE(hasDrop(r, "seekDynamicTarget", "the target moves"));
    EXPECT_TRUE(hasDrop(r, "flowDynamicDirection", "changes while running"));
    EXPECT_TRUE(hasDrop(r, "groupTarget", "group targets"));
    EXPECT_TRUE(hasDrop(r, "teleport", "unknown goal type"));
    EXPECT_TRUE(hasDrop(r, "flowStaticDirection", "only as an agent's only goal"));
    EXPECT_TRUE(hasDrop(r, "orientedWallObstacle", "a doorway at a random place"));
    EXPECT_TRUE(hasDrop(r, "orientedBoxObstacle", "random obstacle size"));
    EXPECT_TRUE(hasDrop(r, "obstacle", "empty box"));
    EXPECT_TRUE(hasDrop(r, "polygonObstacle", "invalid polygon"));
    EXPECT_TRUE(hasDrop(r, "agent[2]", "needs the header's <worldBounds>"));
    // Every agent is imported or dropped: 1 imported, 1 dropped.
    EXPECT_EQ(r.scene.agents.size(), 1u);
    expectLoadable(r);
}

TEST(ImportSteerSuite, WallWithADoorwayIsTwoBoxes) {
    // A wall 10 long (x) and 1 thick (z) at z = 5, its door centred 1 right of the wall's
    // centre, 2 wide: boxes x in [-5, 0] and [2, 5], y = -z in [-5.5, -4.5].
    auto wall = [](const std::string& door) {
        return steerCase("<orientedWallObstacle><thetaY>0</thetaY><size><x>10</x><y>1</y>"
                         "<z>1</z></size><position><x>0</x><y>0</y><z>5</z></position>"
                         "<doorway>" +
                         door + "</doorway></orientedWallObstacle>");
    };
    ImportResult r =
        importTexts({{"door.xml", wall("<value>1</value><doorRadius>1</doorRadius>")}});
    ASSERT_EQ(r.scene.obstacles.size(), 2u);
    auto xRange = [](const SceneObstacle& o) {
        double lo = 1e9, hi = -1e9;
        for (const Vec2& v : o.vertices) {
            lo = std::min(lo, v.x);
            hi = std::max(hi, v.x);
            EXPECT_TRUE(v.y == -5.5 || v.y == -4.5) << v.y;
        }
        return std::pair(lo, hi);
    };
    EXPECT_EQ(xRange(r.scene.obstacles[0]), std::pair(-5.0, 0.0));
    EXPECT_EQ(xRange(r.scene.obstacles[1]), std::pair(2.0, 5.0));
    EXPECT_TRUE(r.dropped.empty());
    EXPECT_TRUE(hasNote(r, "walls with a doorway: two boxes"));
    expectLoadable(r);
    // A door reaching past the wall's end leaves one piece.
    r = importTexts({{"door.xml", wall("<value>4.5</value><doorRadius>1</doorRadius>")}});
    ASSERT_EQ(r.scene.obstacles.size(), 1u);
    EXPECT_EQ(xRange(r.scene.obstacles[0]), std::pair(-5.0, 3.5));
    // A door needs its place.
    EXPECT_THROW((void)importTexts({{"door.xml", wall("<doorRadius>1</doorRadius>")}}), SceneError);
}

TEST(ImportSteerSuite, FlowAsOnlyGoalIsAConstantPreferredVelocity) {
    const ImportResult r = importTexts(
        {{"flow.xml",
          steerCase(agentXml("<flowStaticDirection><targetDirection><x>0</x><y>0</y><z>2</z>"
                             "</targetDirection><desiredSpeed>1</desiredSpeed>"
                             "</flowStaticDirection>"))}});
    ASSERT_EQ(r.scene.agents.size(), 1u);
    ASSERT_TRUE(r.scene.agents[0].prefVelocity);
    EXPECT_EQ(*r.scene.agents[0].prefVelocity, Vec2(0, -1)); // +z is our -y
    EXPECT_FALSE(r.scene.agents[0].goal);
}

TEST(ImportSteerSuite, WrongValuesNameTheElement) {
    try {
        (void)importTexts({{"bad.xml", steerCase(agentXml(seek(1, 1), "-1"))}});
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "SteerBenchTestCase/agent/initialConditions/radius");
        EXPECT_EQ(e.line(), 4);
        EXPECT_NE(e.message().find("expected a number > 0, got -1"), std::string::npos);
    }
    try {
        (void)importTexts({{"bad.xml", steerCase(agentXml(seek(1, 1), "abc"))}});
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_NE(e.message().find("expected a number, got \"abc\""), std::string::npos);
    }
    for (const std::string v : {"nan", "inf", "1e999"}) {
        try {
            (void)importTexts(
                {{"bad.xml",
                  steerCase(agentXml(seek(1, 1), "0.5", "<x>" + v + "</x><y>0</y><z>0</z>"))}});
            FAIL() << v;
        } catch (const SceneError& e) {
            EXPECT_NE(e.message().find("not finite"), std::string::npos) << e.what();
            EXPECT_EQ(e.jsonPath(), "SteerBenchTestCase/agent/initialConditions/position/x");
        }
    }
}

TEST(ImportSteerSuite, MalformedXmlHasLineAndColumn) {
    const std::string text = "<SteerBenchTestCase>\n  <agent>\n    <name>a</nam>\n"
                             "</SteerBenchTestCase>\n";
    try {
        (void)importTexts({{"broken.xml", text}});
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.file(), "broken.xml");
        EXPECT_EQ(e.line(), 3);
        EXPECT_GT(e.column(), 1);
        EXPECT_NE(e.message().find("malformed XML"), std::string::npos);
        EXPECT_NE(e.message().find("expected"), std::string::npos);
        EXPECT_EQ(std::string(e.what()).rfind("broken.xml:3:", 0), 0u) << e.what();
    }
    try {
        (void)importTexts({{"attr.xml", "<Experiment>\n<Common time_step=0.1/>\n</Experiment>"}});
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.line(), 2);
        EXPECT_NE(e.message().find("name=\"value\""), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)importTexts({{"empty.xml", "  \n"}}), SceneError);
    EXPECT_THROW((void)importTexts({{"nul.xml", std::string("<a>\0</a>", 8)}}), SceneError);
}

TEST(ImportSteerSuite, RoomOutlineAroundAgentsBecomesWalls) {
    // Clockwise in our plane = counter-clockwise in (x, z): a square around the agent.
    const std::string room = "<polygonObstacle><vertex><x>-5</x><y>0</y><z>-5</z></vertex>"
                             "<vertex><x>5</x><y>0</y><z>-5</z></vertex><vertex><x>5</x><y>0</y>"
                             "<z>5</z></vertex><vertex><x>-5</x><y>0</y><z>5</z></vertex>"
                             "</polygonObstacle>";
    const ImportResult inside = importTexts({{"room.xml", steerCase(room + agentXml(seek(1, 1)))}});
    EXPECT_EQ(inside.scene.obstacles.size(), 4u); // four thin walls
    const ImportResult outside = importTexts(
        {{"block.xml", steerCase(room + agentXml(seek(8, 8), "0.5", "<x>8</x><y>0</y><z>0</z>"))}});
    ASSERT_EQ(outside.scene.obstacles.size(), 1u); // reversed: a solid block
    EXPECT_GT(signedArea(outside.scene.obstacles[0].vertices), 0.0);
    expectLoadable(inside);
    expectLoadable(outside);
}

TEST(ImportMenge, ProjectNamesSceneAndBehaviour) {
    const ImportResult r = importFiles({kDir / "menge_project.xml"});
    EXPECT_EQ(r.format, ImportFormat::Menge);
    ASSERT_EQ(r.files.size(), 3u);
    ASSERT_EQ(r.scene.agents.size(), 7u);
    EXPECT_EQ(r.scene.simulation.params.timeStep, 0.05);
    // Walk -> goal_reached -> Walk2 -> Stop: a waypoint (point goal) and a goal (AABB centre).
    const SceneAgent& a = r.scene.agents[0];
    ASSERT_EQ(a.waypoints.size(), 1u);
    EXPECT_EQ(a.waypoints[0], Vec2(4, 0));
    EXPECT_EQ(*a.goal, Vec2(5, 5));
    EXPECT_EQ(a.overrides.radius, 0.25);
    EXPECT_EQ(a.overrides.maxNeighbors, 8);
    EXPECT_EQ(a.overrides.timeHorizon, 3.0);
    EXPECT_EQ(a.overrides.timeHorizonObst, 0.5);
    // rect_grid 2 x 2 from (4, -2), profile "big" inherits "base"; mirror goal.
    const SceneAgent& g = r.scene.agents[3];
    EXPECT_EQ(g.position, Vec2(5, -2));
    EXPECT_EQ(*g.goal, Vec2(-5, 2));
    EXPECT_EQ(g.overrides.radius, 0.4);
    EXPECT_EQ(g.overrides.neighborDist, 6.0);
    // Identity + zero: stands.
    EXPECT_FALSE(r.scene.agents[6].goal);
    EXPECT_TRUE(hasDrop(r, "ObstacleSet[2] (type \"nav_mesh\")", "obstacle set type"));
    EXPECT_TRUE(hasDrop(r, "\"Mirror\" transition to \"Walk\" (condition \"timer\") (for 4 agents)",
                        "need a state machine"));
    EXPECT_TRUE(hasDrop(r, "Generator (type \"poisson_disk\")", "not supported"));
    ASSERT_EQ(r.scene.obstacles.size(), 3u);
    expectLoadable(r);
}

TEST(ImportMenge, SceneAndBehaviourInAnyOrderOrSceneAlone) {
    auto read = [](const char* name) {
        return ImportText{(kDir / name).string(), readTextFile(kDir / name)};
    };
    const ImportResult ab = importTexts({read("menge_scene.xml"), read("menge_behaviour.xml")});
    const ImportResult ba = importTexts({read("menge_behaviour.xml"), read("menge_scene.xml")});
    EXPECT_EQ(serializeScene(ab.scene), serializeScene(ba.scene));
    const ImportResult alone = importTexts({read("menge_scene.xml")});
    EXPECT_TRUE(hasNote(alone, "no behaviour file"));
    for (const SceneAgent& a : alone.scene.agents)
        EXPECT_FALSE(a.goal);
    EXPECT_THROW((void)importTexts({read("menge_behaviour.xml")}), std::invalid_argument);
    EXPECT_THROW((void)importTexts({read("menge_project.xml"), read("menge_scene.xml")}),
                 std::invalid_argument);
    EXPECT_THROW((void)importTexts({read("steersuite_basic.xml"), read("steersuite_basic.xml")}),
                 std::invalid_argument);
    // A project without a reader cannot reach its files.
    EXPECT_THROW((void)importTexts({read("menge_project.xml")}), SceneError);
}

TEST(ImportMenge, EveryDropReason) {
    const std::string scene =
        "<Experiment><Elevation type=\"height_field\"/><Gizmo/>"
        "<AgentProfile name=\"p\"><Common r=\"0.3\"><Property name=\"pref_speed\" dist=\"u\" "
        "min=\"1\" max=\"1.5\"/></Common></AgentProfile>"
        "<AgentGroup><ProfileSelector type=\"const\" name=\"p\"/>"
        "<StateSelector type=\"const\" name=\"A\"/><Generator type=\"explicit\">"
        "<Agent p_x=\"0\" p_y=\"0\"/></Generator></AgentGroup>"
        "<AgentGroup><ProfileSelector type=\"const\" name=\"p\"/>"
        "<StateSelector type=\"const\" name=\"C\"/><Generator type=\"explicit\">"
        "<Agent p_x=\"5\" p_y=\"0\"/></Generator></AgentGroup>"
        "<AgentGroup><ProfileSelector type=\"const\" name=\"p\"/>"
        "<StateSelector type=\"const\" name=\"S\"/><Generator type=\"explicit\">"
        "<Agent p_x=\"9\" p_y=\"0\"/></Generator></AgentGroup>"
        "<ObstacleSet type=\"explicit\"><Obstacle closed=\"1\"><Vertex p_x=\"0\" p_y=\"3\"/>"
        "<Vertex p_x=\"2\" p_y=\"5\"/><Vertex p_x=\"2\" p_y=\"3\"/><Vertex p_x=\"0\" p_y=\"5\"/>"
        "</Obstacle></ObstacleSet></Experiment>";
    const std::string behaviour =
        "<BFSM><GoalSet id=\"0\"><Goal type=\"point\" id=\"0\" x=\"1\" y=\"1\"/>"
        "<Goal type=\"path\" id=\"1\"/><Goal type=\"OBB\" id=\"2\" x=\"0\" y=\"0\" width=\"2\" "
        "height=\"2\" angle=\"90\"/></GoalSet>"
        "<State name=\"A\"><GoalSelector type=\"explicit\" goal_set=\"0\" goal=\"0\"/>"
        "<VelComponent type=\"road_map\" file_name=\"m.txt\"/><Action type=\"set_property\"/>"
        "</State>"
        "<State name=\"B\"><GoalSelector type=\"explicit\" goal_set=\"0\" goal=\"2\"/>"
        "<VelComponent type=\"nav_mesh\"/></State>"
        "<State name=\"C\"><GoalSelector type=\"shared\" goal_set=\"0\"/>"
        "<VelComponent type=\"goal\"/></State>"
        "<State name=\"S\"><GoalSelector type=\"nearest\" goal_set=\"0\"/>"
        "<VelComponent type=\"goal\"/></State>"
        "<Transition from=\"A\" to=\"B\"><Condition type=\"goal_reached\"/></Transition>"
        "<Transition from=\"B\" to=\"A\"><Condition type=\"goal_reached\"/></Transition>"
        "<Transition from=\"S\"><Condition type=\"auto\"/><Target type=\"prob\"/></Transition>"
        "<EventSystem/></BFSM>";
    const std::string project = "<Project scene=\"s.xml\" behavior=\"b.xml\" model=\"pedvo\"/>";
    const ImportResult r =
        importTexts({{"p.xml", project}}, {}, [&](const std::filesystem::path& p) {
            return ImportText{p.string(), p.filename() == "s.xml" ? scene : behaviour};
        });
    EXPECT_TRUE(hasDrop(r, "pedestrian model \"pedvo\"", "only ORCA"));
    EXPECT_TRUE(hasDrop(r, "Elevation", "flat"));
    EXPECT_TRUE(hasDrop(r, "Goal[2] (type \"path\")", "goal type not imported"));
    EXPECT_TRUE(hasDrop(r, "Action (type \"set_property\")", "state machine"));
    EXPECT_TRUE(hasDrop(r, "EventSystem", "events"));
    EXPECT_TRUE(hasDrop(r, "velocity component \"nav_mesh\"", "walks straight"));
    EXPECT_TRUE(hasDrop(r, "transition to \"A\"", "cycle"));
    EXPECT_TRUE(hasDrop(r, "goal selector \"shared\"", "naming a state that does not exist"));
    EXPECT_TRUE(hasDrop(r, "\"S\" transition (condition \"auto (several target states)\"",
                        "state machine"));
    EXPECT_TRUE(hasDrop(r, "Obstacle", "invalid polygon"));
    EXPECT_TRUE(hasNote(r, "unknown element <Gizmo>"));
    EXPECT_TRUE(hasNote(r, "roadmap routing"));
    EXPECT_EQ(r.scene.simulation.params.routing, Routing::Roadmap);
    ASSERT_EQ(r.scene.agents.size(), 3u);
    // A: the point, then B: the OBB's centre (corner (0, 0) turned 90°: centre (-1, 1)).
    ASSERT_EQ(r.scene.agents[0].waypoints.size(), 1u);
    EXPECT_NEAR(r.scene.agents[0].goal->x, -1.0, 1e-12);
    EXPECT_NEAR(r.scene.agents[0].goal->y, 1.0, 1e-12);
    EXPECT_FALSE(r.scene.agents[1].goal);           // shared selector: no goal
    EXPECT_EQ(*r.scene.agents[2].goal, Vec2(1, 1)); // nearest of the set from (9, 0)... the OBB
    // centre (-1, 1) is farther than (1, 1).
    const double pref = *r.scene.agents[0].overrides.prefSpeed;
    EXPECT_GE(pref, 1.0);
    EXPECT_LT(pref, 1.5);
    expectLoadable(r);
}

TEST(ImportMenge, SharedSelectorsAndGoalReachedDistances) {
    // A: point (4, 0), left at distance 0.5 -> B: shared with S (nearest of two circles of
    // radius 1), left at distance 0.25 -> C: point (20, 0), final. X and Y share each other.
    const std::string scene =
        "<Experiment><AgentGroup><ProfileSelector type=\"const\" name=\"p\"/>"
        "<StateSelector type=\"const\" name=\"A\"/><Generator type=\"explicit\">"
        "<Agent p_x=\"0\" p_y=\"0\"/></Generator></AgentGroup>"
        "<AgentGroup><ProfileSelector type=\"const\" name=\"p\"/>"
        "<StateSelector type=\"const\" name=\"X\"/><Generator type=\"explicit\">"
        "<Agent p_x=\"0\" p_y=\"5\"/></Generator></AgentGroup>"
        "<AgentProfile name=\"p\"><Common r=\"0.3\"/></AgentProfile></Experiment>";
    const std::string behaviour =
        "<BFSM><GoalSet id=\"0\"><Goal type=\"point\" id=\"0\" x=\"4\" y=\"0\"/>"
        "<Goal type=\"point\" id=\"1\" x=\"20\" y=\"0\"/></GoalSet>"
        "<GoalSet id=\"1\"><Goal type=\"circle\" id=\"0\" x=\"10\" y=\"0\" radius=\"1\"/>"
        "<Goal type=\"circle\" id=\"1\" x=\"-10\" y=\"0\" radius=\"1\"/></GoalSet>"
        "<State name=\"A\"><GoalSelector type=\"explicit\" goal_set=\"0\" goal=\"0\"/></State>"
        "<State name=\"B\"><GoalSelector type=\"shared\" state_name=\"S\"/></State>"
        "<State name=\"S\"><GoalSelector type=\"nearest\" goal_set=\"1\"/></State>"
        "<State name=\"C\" final=\"1\"><GoalSelector type=\"explicit\" goal_set=\"0\" "
        "goal=\"1\"/></State>"
        "<State name=\"X\"><GoalSelector type=\"shared\" state_name=\"Y\"/></State>"
        "<State name=\"Y\"><GoalSelector type=\"shared\" state_name=\"X\"/></State>"
        "<Transition from=\"A\" to=\"B\"><Condition type=\"goal_reached\" "
        "distance=\"0.5\"/></Transition>"
        "<Transition from=\"B\" to=\"C\"><Condition type=\"goal_reached\" "
        "distance=\"0.25\"/></Transition></BFSM>";
    const ImportResult r = importTexts({{"s.xml", scene}, {"b.xml", behaviour}});
    ASSERT_EQ(r.scene.agents.size(), 2u);
    const SceneAgent& a = r.scene.agents[0];
    ASSERT_EQ(a.waypoints.size(), 2u);
    EXPECT_EQ(a.waypoints[0], Vec2(4, 0));
    EXPECT_EQ(a.waypoints[1], Vec2(10, 0)); // shared -> S's nearest, from (4, 0)
    EXPECT_EQ(*a.goal, Vec2(20, 0));
    // Reaches 0.5 (point) and 0.25 + 1 (circle): the smaller.
    EXPECT_EQ(a.overrides.waypointRadius, 0.5);
    EXPECT_TRUE(hasNote(r, "shared goal selectors use the selector of the state they name"));
    EXPECT_TRUE(hasNote(r, "waypointRadius is the smallest"));
    // X and Y name each other: dropped with the reason, the agent stands.
    EXPECT_FALSE(r.scene.agents[1].goal);
    EXPECT_TRUE(hasDrop(r, "State \"X\" goal selector \"shared\"", "cycle"));
    expectLoadable(r);
}

TEST(ImportMenge, WrongValuesAndReferences) {
    auto fails = [](const std::string& scene, const std::string& text) {
        try {
            (void)importTexts({{"s.xml", scene}});
            ADD_FAILURE() << "no error for " << scene;
        } catch (const SceneError& e) {
            EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
        }
    };
    fails("<Experiment><Common time_step=\"-1\"/></Experiment>", "expected a number > 0");
    fails("<Experiment><AgentProfile name=\"p\"><Common r=\"x\"/></AgentProfile></Experiment>",
          "at Experiment/AgentProfile/Common@r: expected a number, got \"x\"");
    fails("<Experiment><AgentGroup><ProfileSelector type=\"const\" name=\"nope\"/>"
          "<Generator type=\"explicit\"><Agent p_x=\"0\" p_y=\"0\"/></Generator></AgentGroup>"
          "</Experiment>",
          "no AgentProfile named \"nope\"");
    fails("<Experiment><AgentProfile name=\"p\"/><AgentGroup><ProfileSelector type=\"const\" "
          "name=\"p\"/><Generator type=\"rect_grid\" anchor_x=\"0\" anchor_y=\"0\" "
          "offset_x=\"1\" offset_y=\"1\" count_x=\"200000\" count_y=\"1\"/></AgentGroup>"
          "</Experiment>",
          "more than an import creates");
}

} // namespace
