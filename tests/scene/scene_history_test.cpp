// Undo/redo of scene edits: splices, byte-identical undo, merging, limits.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/history.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

const std::string kScene = R"({"format": "orca-scene", "version": 1, "name": "history",
  "simulation": {"timeStep": 0.25},
  "agents": [
    {"id": "a", "position": [-10, 0], "goal": [10, 0]},
    {"position": [10, 0.25], "goal": [-10, 0], "radius": 0.75},
    {"position": [0, 6], "static": true},
    {"position": [0, -6], "prefVelocity": [0.5, 0.25]}],
  "obstacles": [
    {"vertices": [[-2, 10], [2, 10], [2, 12], [-2, 12]]},
    {"vertices": [[-3, -10], [3, -10]]}]})";

Scene base() {
    return parseScene(kScene, "history.json").scene;
}

TEST(SceneHistory, DiffOfEqualScenesIsEmpty) {
    const Scene s = base();
    EXPECT_TRUE(SceneEdit::diff(s, s, "nothing").empty());
}

TEST(SceneHistory, MovingOneAgentIsOneSpliceOfOne) {
    const Scene before = base();
    Scene after = before;
    after.agents[2].position = {1.5, 6.0};
    const SceneEdit e = SceneEdit::diff(before, after, "Move agent");
    ASSERT_EQ(e.agents.size(), 1u);
    EXPECT_EQ(e.agents[0].index, 2u);
    ASSERT_EQ(e.agents[0].removed.size(), 1u);
    ASSERT_EQ(e.agents[0].inserted.size(), 1u);
    EXPECT_EQ(e.agents[0].inserted[0].position, Vec2(1.5, 6.0));
    EXPECT_TRUE(e.obstacles.empty());
    EXPECT_FALSE(e.headerAfter);
    EXPECT_TRUE(e.lengthPreserving());
    EXPECT_EQ(e.storedElements(), 2u);
}

TEST(SceneHistory, ScatteredChangesAreSeparateRuns) {
    const Scene before = base();
    Scene after = before;
    after.agents[0].position.x = 1;
    after.agents[1].position.x = 2;
    after.agents[3].position.x = 3;
    const SceneEdit e = SceneEdit::diff(before, after, "Move");
    ASSERT_EQ(e.agents.size(), 2u);
    EXPECT_EQ(e.agents[0].index, 0u);
    EXPECT_EQ(e.agents[0].removed.size(), 2u);
    EXPECT_EQ(e.agents[1].index, 3u);
    EXPECT_EQ(e.agents[1].removed.size(), 1u);
}

TEST(SceneHistory, InsertAndDeleteSpliceBetweenPrefixAndSuffix) {
    const Scene before = base();
    Scene after = before;
    after.agents.erase(after.agents.begin() + 1);
    SceneEdit e = SceneEdit::diff(before, after, "Delete");
    ASSERT_EQ(e.agents.size(), 1u);
    EXPECT_EQ(e.agents[0].index, 1u);
    EXPECT_EQ(e.agents[0].removed.size(), 1u);
    EXPECT_TRUE(e.agents[0].inserted.empty());
    EXPECT_FALSE(e.lengthPreserving());

    Scene s = after;
    e.revert(s);
    EXPECT_EQ(serializeScene(s), serializeScene(before));
    e.apply(s);
    EXPECT_EQ(serializeScene(s), serializeScene(after));
}

TEST(SceneHistory, NegativeZeroCountsAsAChange) {
    Scene before = base();
    before.agents[0].position = {0.0, 1.0};
    Scene after = before;
    after.agents[0].position = {-0.0, 1.0};
    const SceneEdit e = SceneEdit::diff(before, after, "Sign");
    ASSERT_EQ(e.agents.size(), 1u);
    Scene s = after;
    e.revert(s);
    EXPECT_EQ(serializeScene(s), serializeScene(before));
}

TEST(SceneHistory, HeaderChangesAreRecorded) {
    const Scene before = base();
    Scene after = before;
    after.simulation.params.timeStep = 0.1;
    after.agentDefaults.radius = 2.0;
    after.name = "renamed";
    const SceneEdit e = SceneEdit::diff(before, after, "Params");
    ASSERT_TRUE(e.headerAfter);
    ASSERT_TRUE(e.headerBefore);
    EXPECT_TRUE(e.agents.empty());
    Scene s = after;
    e.revert(s);
    EXPECT_EQ(s.simulation.params.timeStep, 0.25);
    EXPECT_EQ(serializeScene(s), serializeScene(before));
}

TEST(SceneHistory, ApplyingToTheWrongSceneThrowsAndChangesNothing) {
    const Scene before = base();
    Scene after = before;
    after.agents[1].position = {5, 5};
    const SceneEdit e = SceneEdit::diff(before, after, "Move");
    Scene other = before;
    other.agents[1].position = {7, 7}; // not what the edit removed
    const std::string text = serializeScene(other);
    EXPECT_THROW(e.apply(other), std::logic_error);
    EXPECT_EQ(serializeScene(other), text);
    Scene shorter = before;
    shorter.agents.resize(1);
    EXPECT_THROW(e.apply(shorter), std::logic_error);
    EXPECT_EQ(shorter.agents.size(), 1u);
}

TEST(SceneHistory, UndoRedoWalkTheStacks) {
    Scene s = base();
    EditHistory h;
    EXPECT_FALSE(h.canUndo());
    EXPECT_EQ(h.undo(s), nullptr);
    const Scene s0 = s;
    s.agents[0].position = {1, 1};
    h.record(SceneEdit::diff(s0, s, "Move agent"));
    const Scene s1 = s;
    s.obstacles.pop_back();
    h.record(SceneEdit::diff(s1, s, "Delete obstacle"));
    EXPECT_EQ(h.undoLabel(), "Delete obstacle");
    EXPECT_EQ(h.undoCount(), 2u);

    ASSERT_NE(h.undo(s), nullptr);
    EXPECT_EQ(s.obstacles.size(), 2u);
    EXPECT_EQ(h.redoLabel(), "Delete obstacle");
    ASSERT_NE(h.undo(s), nullptr);
    EXPECT_EQ(serializeScene(s), serializeScene(s0));
    EXPECT_FALSE(h.canUndo());
    ASSERT_NE(h.redo(s), nullptr);
    EXPECT_EQ(serializeScene(s), serializeScene(s1));

    // A new edit drops what was undone.
    const Scene s2 = s;
    s.name = "new";
    h.record(SceneEdit::diff(s2, s, "Rename"));
    EXPECT_FALSE(h.canRedo());
    EXPECT_EQ(h.undoCount(), 2u);
}

TEST(SceneHistory, EmptyEditsAreNotRecorded) {
    EditHistory h;
    const Scene s = base();
    h.record(SceneEdit::diff(s, s, "nothing"));
    EXPECT_FALSE(h.canUndo());
}

TEST(SceneHistory, SameKeyMergesADragIntoOneStep) {
    Scene s = base();
    const Scene start = s;
    EditHistory h;
    for (int k = 1; k <= 20; ++k) {
        const Scene prev = s;
        s.agents[1].position.x += 0.5;
        s.agents[3].position.y -= 0.25;
        h.record(SceneEdit::diff(prev, s, "Move 2 agents"), "drag");
    }
    EXPECT_EQ(h.undoCount(), 1u);
    EXPECT_EQ(h.storedElements(), 4u); // two agents, before and after
    ASSERT_NE(h.undo(s), nullptr);
    EXPECT_EQ(serializeScene(s), serializeScene(start));
    ASSERT_NE(h.redo(s), nullptr);
    EXPECT_EQ(s.agents[1].position.x, 20.0);
}

TEST(SceneHistory, SealOrAnotherKeyStartsANewStep) {
    Scene s = base();
    EditHistory h;
    auto move = [&](const char* key) {
        const Scene prev = s;
        s.agents[0].position.x += 1.0;
        h.record(SceneEdit::diff(prev, s, "Move"), key);
    };
    move("a");
    move("a");
    EXPECT_EQ(h.undoCount(), 1u);
    h.seal();
    move("a");
    EXPECT_EQ(h.undoCount(), 2u);
    move("b");
    EXPECT_EQ(h.undoCount(), 3u);
    move("");
    move("");
    EXPECT_EQ(h.undoCount(), 5u); // no key: never merges
}

TEST(SceneHistory, DraggingBackToTheStartLeavesNoStep) {
    Scene s = base();
    EditHistory h;
    const Scene start = s;
    s.agents[0].position.x += 1.0;
    h.record(SceneEdit::diff(start, s, "Move"), "drag");
    const Scene mid = s;
    s.agents[0].position.x -= 1.0;
    h.record(SceneEdit::diff(mid, s, "Move"), "drag");
    EXPECT_FALSE(h.canUndo());
}

TEST(SceneHistory, LengthChangesNeverMerge) {
    Scene s = base();
    EditHistory h;
    const Scene s0 = s;
    s.agents.push_back(s.agents[0]);
    h.record(SceneEdit::diff(s0, s, "Add"), "k");
    const Scene s1 = s;
    s.agents.push_back(s.agents[0]);
    h.record(SceneEdit::diff(s1, s, "Add"), "k");
    EXPECT_EQ(h.undoCount(), 2u);
}

TEST(SceneHistory, LimitsDropTheOldestSteps) {
    Scene s = base();
    EditHistory h(EditHistory::Limits{3, 1000});
    for (int k = 0; k < 10; ++k) {
        const Scene prev = s;
        s.agents[0].position.x = k;
        h.record(SceneEdit::diff(prev, s, "Move"));
    }
    EXPECT_EQ(h.undoCount(), 3u);
    while (h.undo(s) != nullptr) {
    }
    EXPECT_EQ(s.agents[0].position.x, 6.0); // the state before the oldest kept step

    EditHistory small(EditHistory::Limits{100, 9});
    Scene t = base();
    const Scene t0 = t;
    for (int k = 0; k < 8; ++k)
        t.agents.push_back(t.agents[0]);
    small.record(SceneEdit::diff(t0, t, "Add 8")); // larger than the budget: still kept
    EXPECT_EQ(small.undoCount(), 1u);
    const Scene t1 = t;
    t.agents[0].position.x = 99;
    small.record(SceneEdit::diff(t1, t, "Move")); // now the big one goes
    EXPECT_EQ(small.undoCount(), 1u);
    EXPECT_EQ(small.storedElements(), 2u);
}

// Property: any sequence of edits undoes to byte-identical scenes, and redoes to them.
TEST(SceneHistory, RandomEditSequencesUndoAndRedoByteIdentically) {
    std::mt19937 rng(7);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    auto coord = [&] { return static_cast<double>(static_cast<int>(rng() % 81) - 40) * 0.5; };
    for (int round = 0; round < 20; ++round) {
        Scene s = base();
        EditHistory h;
        std::vector<std::string> states{serializeScene(s)};
        for (int k = 0; k < 60; ++k) {
            const Scene prev = s;
            switch (rng() % 9) {
            case 0: // move some agents
                for (std::size_t n = 1 + pick(3); n > 0 && !s.agents.empty(); --n)
                    s.agents[pick(s.agents.size())].position = {coord(), coord()};
                break;
            case 1: { // add agents at a random place
                SceneAgent a;
                a.position = {coord(), coord()};
                if (rng() % 2) a.goal = Vec2{coord(), coord()};
                if (rng() % 2) a.overrides.radius = 0.25 + 0.25 * static_cast<double>(pick(4));
                s.agents.insert(s.agents.begin() +
                                    static_cast<std::ptrdiff_t>(pick(s.agents.size() + 1)),
                                1 + pick(3), a);
                break;
            }
            case 2: // delete a range
                if (!s.agents.empty()) {
                    const std::size_t i = pick(s.agents.size());
                    const std::size_t n = 1 + pick(std::min<std::size_t>(3, s.agents.size() - i));
                    s.agents.erase(s.agents.begin() + static_cast<std::ptrdiff_t>(i),
                                   s.agents.begin() + static_cast<std::ptrdiff_t>(i + n));
                }
                break;
            case 3: // parameters of one agent
                if (!s.agents.empty()) {
                    SceneAgent& a = s.agents[pick(s.agents.size())];
                    a.overrides.maxNeighbors = static_cast<int>(pick(20));
                    a.isStatic = !a.isStatic;
                    if (a.isStatic) a.goal.reset();
                }
                break;
            case 4: // header
                s.simulation.params.timeStep = 0.05 * static_cast<double>(1 + pick(10));
                s.agentDefaults.timeHorizon = static_cast<double>(1 + pick(10));
                break;
            case 5: // move an obstacle vertex
                if (!s.obstacles.empty()) {
                    SceneObstacle& o = s.obstacles[pick(s.obstacles.size())];
                    o.vertices[pick(o.vertices.size())] = {coord(), coord()};
                }
                break;
            case 6: { // add an obstacle
                SceneObstacle o;
                const double x = coord();
                const double y = coord();
                o.vertices = {{x, y}, {x + 1, y}, {x + 1, y + 1}};
                s.obstacles.push_back(o);
                break;
            }
            case 7: // delete an obstacle or reverse its winding
                if (!s.obstacles.empty()) {
                    const std::size_t i = pick(s.obstacles.size());
                    if (rng() % 2)
                        s.obstacles.erase(s.obstacles.begin() + static_cast<std::ptrdiff_t>(i));
                    else
                        std::reverse(s.obstacles[i].vertices.begin(),
                                     s.obstacles[i].vertices.end());
                }
                break;
            case 8: // signed zeros
                if (!s.agents.empty()) {
                    Vec2& p = s.agents[pick(s.agents.size())].position;
                    p.x = (rng() % 2) ? 0.0 : -0.0;
                }
                break;
            }
            // Half the edits merge with the previous one when they can.
            h.record(SceneEdit::diff(prev, s, "edit"), (rng() % 2) ? "k" : "");
            const std::string text = serializeScene(s);
            const std::size_t n = h.undoCount();
            if (states.size() > n + 1) states.resize(n + 1); // merged back to nothing
            if (states.size() == n)
                states.push_back(text); // a new step
            else
                states.back() = text; // merged into the previous step (or no change)
            ASSERT_EQ(states.size(), h.undoCount() + 1) << "round " << round << " edit " << k;
        }
        // Undo everything, checking each state, then redo everything.
        for (std::size_t i = states.size() - 1; i > 0; --i) {
            ASSERT_NE(h.undo(s), nullptr);
            ASSERT_EQ(serializeScene(s), states[i - 1])
                << "round " << round << " undo to " << i - 1;
        }
        EXPECT_FALSE(h.canUndo());
        for (std::size_t i = 1; i < states.size(); ++i) {
            ASSERT_NE(h.redo(s), nullptr);
            ASSERT_EQ(serializeScene(s), states[i]) << "round " << round << " redo to " << i;
        }
    }
}

} // namespace
} // namespace orca::scene
