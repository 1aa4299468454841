// Selection rules, picking, --select parsing and the construction-mode walk.
#include <gtest/gtest.h>

#include <vector>

#include "orca/simulator.hpp"

#include "explain/selection.hpp"

using namespace orca;
using namespace orca::app;

namespace {

Simulator threeAgents() {
    Simulator sim;
    for (int i = 0; i < 3; ++i) {
        AgentDef d;
        d.position = {static_cast<double>(i) * 10.0, 0.0};
        d.params.radius = 1.0;
        sim.addAgent(d);
    }
    return sim;
}

} // namespace

TEST(Selection, PlainClickReplacesShiftClickToggles) {
    const Simulator sim = threeAgents();
    const AgentId a = sim.agentIdAt(0);
    const AgentId b = sim.agentIdAt(1);
    const AgentId c = sim.agentIdAt(2);
    Selection s;
    s.click(a, false);
    EXPECT_EQ(s.size(), 1u);
    EXPECT_EQ(s.primary(), a);
    s.click(b, true); // Shift adds and makes it primary
    s.click(c, true);
    EXPECT_EQ(s.size(), 3u);
    EXPECT_EQ(s.primary(), c);
    s.click(c, true); // Shift on a selected agent removes it; the primary falls back
    EXPECT_FALSE(s.contains(c));
    EXPECT_EQ(s.primary(), b);
    s.click(a, true); // removing a non-primary keeps the primary
    EXPECT_EQ(s.primary(), b);
    EXPECT_EQ(s.size(), 1u);
    s.click(c, false); // plain click: only c
    EXPECT_EQ(s.size(), 1u);
    EXPECT_EQ(s.primary(), c);
    s.clickEmpty(true); // Shift on empty space keeps the selection
    EXPECT_EQ(s.size(), 1u);
    s.clickEmpty(false); // plain click on empty space clears
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(s.primary().isNull());
}

TEST(Selection, RemapKeepsIndicesAcrossRestart) {
    const Simulator before = threeAgents();
    Selection s;
    s.click(before.agentIdAt(2), false);
    s.click(before.agentIdAt(0), true); // primary = index 0
    // A restart builds a new simulator: the same agents in the same order. Make its ids
    // differ from the old ones (a removed agent bumps the slot's generation).
    Simulator after;
    after.removeAgent(after.addAgent(AgentDef{}));
    for (std::size_t i = 0; i < 3; ++i)
        after.addAgent(before.agent(before.agentIdAt(i)));
    ASSERT_NE(after.agentIdAt(0), before.agentIdAt(0));
    s.remap(before, after);
    EXPECT_EQ(s.indices(after), (std::vector<std::size_t>{2, 0}));
    EXPECT_EQ(s.primaryIndex(after), 0u);
    EXPECT_EQ(s.primary(), after.agentIdAt(0));
}

TEST(Selection, RemapDropsIndicesPastTheEndAndPruneDropsRemovedAgents) {
    const Simulator before = threeAgents();
    Selection s;
    s.set({before.agentIdAt(0), before.agentIdAt(2)});
    Simulator smaller;
    smaller.addAgent(AgentDef{});
    s.remap(before, smaller);
    EXPECT_EQ(s.indices(smaller), (std::vector<std::size_t>{0}));
    EXPECT_EQ(s.primary(), smaller.agentIdAt(0)); // index 2 is gone: last remaining

    Simulator sim = threeAgents();
    s.set({sim.agentIdAt(1), sim.agentIdAt(2)});
    sim.removeAgent(sim.agentIdAt(2));
    s.prune(sim);
    EXPECT_EQ(s.size(), 1u);
    EXPECT_EQ(s.primaryIndex(sim), 1u);
}

TEST(Selection, PickAgentFindsTheDiskUnderTheCursor) {
    const Simulator sim = threeAgents();
    ui::Camera cam;
    cam.setViewport({{0.0, 0.0}, {400.0, 200.0}});
    cam.setCenter({10.0, 0.0});
    cam.setScale(10.0); // agent 1 at the viewport centre (200, 100), radius 10 px
    EXPECT_EQ(pickAgent(sim, cam, {200.0, 100.0}), 1u);
    EXPECT_EQ(pickAgent(sim, cam, {208.0, 104.0}), 1u);
    EXPECT_EQ(pickAgent(sim, cam, {215.0, 100.0}), std::nullopt);
    EXPECT_EQ(pickAgent(sim, cam, {100.0, 100.0}), 0u);
    // Zoomed far out, tiny agents stay clickable within minPixels.
    cam.setScale(0.05); // radius 0.05 px, agents 0.5 px apart: the nearest within 4 px wins
    EXPECT_EQ(pickAgent(sim, cam, {200.1, 103.0}, 4.0), 1u);
    EXPECT_EQ(pickAgent(sim, cam, {200.4, 100.0}, 4.0), 2u);
    EXPECT_EQ(pickAgent(sim, cam, {206.0, 100.0}, 4.0), std::nullopt);
}

TEST(Selection, ParseIndexList) {
    std::vector<std::size_t> v;
    EXPECT_EQ(parseIndexList("0", v), "");
    EXPECT_EQ(v, (std::vector<std::size_t>{0}));
    EXPECT_EQ(parseIndexList("3,1,7", v), "");
    EXPECT_EQ(v, (std::vector<std::size_t>{3, 1, 7}));
    for (const char* bad : {"", ",", "1,", "a", "-1", "1,,2", "1.5"}) {
        v = {42};
        EXPECT_NE(parseIndexList(bad, v), "") << bad;
        EXPECT_EQ(v, (std::vector<std::size_t>{42})) << bad;
    }
}

TEST(Construction, ArrowsWalkNeighboursAndPhases) {
    ExplainRecord rec;
    rec.agentNeighbors.resize(3);
    rec.lines.resize(3); // one line per agent neighbour
    ui::ConstructionState c;
    c.active = true;
    stepConstruction(c, &rec, 0, +1);
    EXPECT_EQ(c.phase, 1);
    stepConstruction(c, &rec, 0, +1);
    stepConstruction(c, &rec, 0, +1); // past the last phase: next neighbour, phase 0
    EXPECT_EQ(c.neighbor, 1);
    EXPECT_EQ(c.phase, 0);
    stepConstruction(c, &rec, 0, -1); // back over the boundary
    EXPECT_EQ(c.neighbor, 0);
    EXPECT_EQ(c.phase, kConstructionPhases - 1);
    stepConstruction(c, &rec, +1, 0);
    stepConstruction(c, &rec, +1, 0);
    stepConstruction(c, &rec, +1, 0); // clamped at the last neighbour
    EXPECT_EQ(c.neighbor, 2);
    stepConstruction(c, &rec, -5, 0);
    EXPECT_EQ(c.neighbor, 0);
    // Fewer neighbours after a step: clamped into range; none at all: 0.
    c.neighbor = 2;
    rec.agentNeighbors.resize(1);
    clampConstruction(c, &rec);
    EXPECT_EQ(c.neighbor, 0);
    // Obstacle lines come first in the walk: two of them and one agent neighbour, 3 steps.
    rec.numObstacleLines = 2;
    c.phase = kConstructionPhases - 1;
    stepConstruction(c, &rec, 0, +1); // obstacle line 0 -> obstacle line 1
    EXPECT_EQ(c.neighbor, 1);
    EXPECT_EQ(c.phase, 0);
    stepConstruction(c, &rec, +1, 0); // -> the agent neighbour
    stepConstruction(c, &rec, +1, 0); // clamped
    EXPECT_EQ(c.neighbor, 2);
    clampConstruction(c, nullptr);
    EXPECT_EQ(c.neighbor, 0);
}
