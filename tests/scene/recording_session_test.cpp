// RecordingSession (orca/scene/recording_session.hpp): the rule of what a program's changes
// between steps write before the next frame — a scene record and the state the step starts
// from for a configuration change, that state alone for an edited position or velocity,
// nothing for preferred velocities.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orca/scene/recording.hpp"
#include "orca/scene/recording_session.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;

fs::path tempPath(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "orca_recording_session_test";
    fs::create_directories(dir);
    return dir / name;
}

/// Two agents walking at each other with constant preferred velocities.
Scene headOn() {
    Scene scene;
    scene.name = "head-on";
    for (const double x : {-4.0, 4.0}) {
        SceneAgent a;
        a.position = {x, 0.1 * x};
        a.prefVelocity = Vec2(x < 0 ? 1.0 : -1.0, 0.0);
        scene.agents.push_back(a);
    }
    return scene;
}

std::vector<Vec2> prefsOf(const Simulator& sim) {
    std::vector<Vec2> v(sim.agentCount());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = sim.prefVelocityAt(i);
    return v;
}

TEST(RecordingSession, WritesWhatEachChangeNeedsBeforeTheNextStep) {
    const fs::path path = tempPath("session.orcarec");
    fs::remove(path);
    Scene scene = headOn();
    Simulator sim = buildSimulator(scene);
    std::vector<std::vector<Vec2>> positions; // every frame's, as expected
    std::vector<std::vector<Vec2>> prefs;
    auto expect = [&](const std::vector<Vec2>& pref) {
        positions.emplace_back(sim.positions().begin(), sim.positions().end());
        prefs.push_back(pref);
    };
    int scenesAsked = 0;
    auto currentScene = [&] {
        ++scenesAsked;
        return captureState(scene, sim);
    };
    {
        RecordingSession rec(path, RecordingEncoding::Float64, scene, sim, prefsOf(sim));
        expect(prefsOf(sim));
        EXPECT_FALSE(rec.pending());
        for (int s = 1; s <= 8; ++s) {
            bool frameBefore = false;
            if (s == 3) { // a preferred velocity alone: nothing before the step
                sim.setPrefVelocity(sim.agentIdAt(0), {0.5, 0.5});
            } else if (s == 4) { // an edited state: its frame
                sim.setPosition(sim.agentIdAt(1), {3.0, -1.0});
                rec.stateChanged();
                frameBefore = true;
            } else if (s == 6) { // a new agent: a scene record and the state
                SceneAgent a;
                a.position = {0.0, 5.0};
                scene.agents.push_back(a); // (captureState's scene has the simulator's agents)
                AgentDef def;
                def.position = a.position;
                sim.addAgent(def);
                rec.configurationChanged();
                frameBefore = true;
            }
            EXPECT_EQ(rec.pending(), frameBefore);
            const std::vector<Vec2> pref = prefsOf(sim);
            rec.beforeStep(sim, pref, currentScene);
            EXPECT_FALSE(rec.pending());
            if (frameBefore) expect(pref);
            sim.step();
            rec.afterStep(sim, pref);
            expect(pref);
        }
        EXPECT_EQ(rec.writer().framesWritten(), positions.size());
        EXPECT_FALSE(fs::exists(path)) << "nothing in place before finish()";
        rec.finish();
    }
    EXPECT_EQ(scenesAsked, 1) << "the scene is built only when a record is due";
    const Recording rec = loadRecording(path);
    ASSERT_EQ(rec.scenes.size(), 2u);
    EXPECT_EQ(rec.scenes[0].agents.size(), 2u);
    EXPECT_EQ(rec.scenes[1].agents.size(), 3u);
    EXPECT_EQ(rec.scenes[1].simulation.step, 5u) << "the configuration the sixth step starts from";
    ASSERT_EQ(rec.frames.size(), positions.size());
    std::vector<std::uint64_t> steps;
    std::vector<std::size_t> sceneOf;
    for (std::size_t k = 0; k < rec.frames.size(); ++k) {
        steps.push_back(rec.frames[k].step);
        sceneOf.push_back(rec.frames[k].scene);
        EXPECT_EQ(rec.frames[k].position, positions[k]) << "frame " << k;
        EXPECT_EQ(rec.frames[k].prefVelocity, prefs[k]) << "frame " << k;
    }
    EXPECT_EQ(steps, (std::vector<std::uint64_t>{0, 1, 2, 3, 3, 4, 5, 5, 6, 7, 8}));
    EXPECT_EQ(sceneOf, (std::vector<std::size_t>{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(rec.frames[4].position[1], Vec2(3.0, -1.0));
    EXPECT_EQ(rec.frames[3].prefVelocity[0], Vec2(0.5, 0.5)) << "step 3 used the new one";
}

TEST(RecordingSession, NotFinishedLeavesTheTargetAsItWas) {
    const fs::path path = tempPath("abandoned.orcarec");
    fs::remove(path);
    const Scene scene = headOn();
    Simulator sim = buildSimulator(scene);
    {
        RecordingSession rec(path, RecordingEncoding::Float32, scene, sim, prefsOf(sim));
        sim.step();
        rec.afterStep(sim, prefsOf(sim));
    }
    EXPECT_FALSE(fs::exists(path));
    EXPECT_THROW(RecordingSession(tempPath("no/such/dir.orcarec"), RecordingEncoding::Float64,
                                  scene, sim, prefsOf(sim)),
                 SceneError);
}

} // namespace
} // namespace orca::scene
