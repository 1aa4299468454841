// RVO::RVOSimulator::startRecording / stopRecording (core/rvo2): an RVO2 program's run as a
// recording that holds exactly what the program saw — every position and velocity its getters
// returned, the preferred velocities it set for each step — with new scene records when it
// added agents, and the states it edited between steps.
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

#include "orca/scene/recording.hpp"

namespace {

namespace fs = std::filesystem;
using RVO::RVOSimulator;
using RVO::Vector2;

orca::Vec2 seen(const Vector2& v) {
    return {v.x(), v.y()};
}

TEST(Rvo2Recording, HoldsWhatTheProgramSawAndSet) {
    const fs::path path = fs::temp_directory_path() / "orca_rvo2_recording.orcarec";
    fs::remove(path);
    std::vector<std::vector<orca::Vec2>> positions;
    std::vector<std::vector<orca::Vec2>> prefs;
    {
        RVOSimulator sim(0.25F, 15.0F, 10, 5.0F, 5.0F, 1.0F, 2.0F);
        for (int i = 0; i < 4; ++i)
            sim.addAgent(Vector2(6.0F * static_cast<float>(i), 0.0F));
        auto steer = [&](int s) {
            std::vector<orca::Vec2> set;
            for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
                const Vector2 v(std::cos(0.3F * static_cast<float>(s + i)), 0.5F);
                sim.setAgentPrefVelocity(i, v);
                set.push_back(seen(v));
            }
            return set;
        };
        auto look = [&] {
            std::vector<orca::Vec2> p;
            for (std::size_t i = 0; i < sim.getNumAgents(); ++i)
                p.push_back(seen(sim.getAgentPosition(i)));
            return p;
        };
        prefs.push_back(steer(0));
        sim.startRecording(path.string());
        positions.push_back(look());
        for (int s = 1; s <= 12; ++s) {
            if (s == 5) sim.addAgent(Vector2(0.0F, 9.0F));              // a new scene record
            if (s == 9) sim.setAgentPosition(0, Vector2(-3.0F, -3.0F)); // an edited state
            prefs.push_back(steer(s));
            if (s == 5 || s == 9) positions.push_back(look()); // (its frame before the step)
            sim.doStep();
            positions.push_back(look());
        }
        EXPECT_FALSE(fs::exists(path)) << "nothing in place while recording";
        sim.stopRecording();
        sim.doStep(); // not recorded
    }
    ASSERT_TRUE(fs::exists(path));
    const orca::scene::Recording rec = orca::scene::loadRecording(path);
    EXPECT_EQ(rec.encoding, orca::scene::RecordingEncoding::Float32);
    EXPECT_FALSE(rec.truncated);
    ASSERT_EQ(rec.scenes.size(), 2u);
    EXPECT_EQ(rec.scenes[0].agents.size(), 4u);
    EXPECT_EQ(rec.scenes[1].agents.size(), 5u);
    // The start, 12 steps, and the states before steps 5 (new agent) and 9 (edited).
    ASSERT_EQ(rec.frames.size(), 15u);
    ASSERT_EQ(positions.size(), 15u);
    std::vector<std::uint64_t> steps;
    for (const orca::scene::RecordingFrame& f : rec.frames)
        steps.push_back(f.step);
    EXPECT_EQ(steps, (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12}));
    for (std::size_t k = 0; k < rec.frames.size(); ++k)
        EXPECT_EQ(rec.frames[k].position, positions[k]) << "frame " << k;
    EXPECT_EQ(rec.frames[5].scene, 1u);
    EXPECT_EQ(rec.frames[10].position[0], orca::Vec2(-3.0, -3.0));
    // Each step's frame carries the preferred velocities the program set before it.
    EXPECT_EQ(rec.frames[0].prefVelocity, prefs[0]);
    EXPECT_EQ(rec.frames[1].prefVelocity, prefs[1]);
    EXPECT_EQ(rec.frames[6].prefVelocity, prefs[5]);
    EXPECT_EQ(rec.frames[14].prefVelocity, prefs[12]);
}

TEST(Rvo2Recording, AnUnwritablePathIsASceneError) {
    RVOSimulator sim(0.25F, 15.0F, 10, 5.0F, 5.0F, 1.0F, 2.0F);
    sim.addAgent(Vector2(0.0F, 0.0F));
    EXPECT_THROW(sim.startRecording("/no/such/dir/x.orcarec"), orca::scene::SceneError);
    sim.doStep();        // still fine, not recording
    sim.stopRecording(); // nothing to stop
}

} // namespace
