// Exact rewind on every bundled scene: a snapshot restored (into the same or a fresh simulator,
// with 1 or 2 threads) steps to the same bits as the straight run, and seeking a recording to
// random steps gives the straight run's stateHash at those steps.
#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "orca/history.hpp"
#include "orca/scene/scene.hpp"

namespace orca {
namespace {

std::vector<std::filesystem::path> bundledScenes() {
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(ORCA_SOURCE_DIR) + "/scenes"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

constexpr int kSteps = 240;

TEST(HistoryScenario, SnapshotRestoreIsBitIdenticalOnEveryBundledScene) {
    const auto files = bundledScenes();
    ASSERT_GE(files.size(), 9u);
    for (const auto& file : files) {
        const scene::Scene sc = scene::loadScene(file).scene;
        for (int threads : {1, 2}) {
            SCOPED_TRACE(file.filename().string() + ", " + std::to_string(threads) + " threads");
            Simulator sim = scene::buildSimulator(sc);
            sim.setThreadCount(threads);
            for (int s = 0; s < kSteps / 2; ++s)
                sim.step();
            const SimulatorState snap = sim.snapshot();
            for (int s = kSteps / 2; s < kSteps; ++s)
                sim.step();
            const std::uint64_t straight = sim.stateHash();

            sim.restore(snap);
            for (int s = kSteps / 2; s < kSteps; ++s)
                sim.step();
            EXPECT_EQ(sim.stateHash(), straight);

            Simulator fresh;
            fresh.setThreadCount(3 - threads);
            fresh.restore(snap);
            for (int s = kSteps / 2; s < kSteps; ++s)
                fresh.step();
            EXPECT_EQ(fresh.stateHash(), straight);
        }
    }
}

TEST(HistoryScenario, SeekToRandomStepsEqualsAStraightRun) {
    std::mt19937 rng(2026);
    for (const auto& file : bundledScenes()) {
        SCOPED_TRACE(file.filename().string());
        const scene::Scene sc = scene::loadScene(file).scene;
        // The straight run, as `orca run --steps S` does it.
        std::vector<std::uint64_t> hashes;
        {
            Simulator straight = scene::buildSimulator(sc);
            hashes.push_back(straight.stateHash());
            for (int s = 0; s < kSteps; ++s) {
                straight.step();
                hashes.push_back(straight.stateHash());
            }
        }
        // A recording made with 2 threads, seeked with 1 and 2.
        Simulator sim = scene::buildSimulator(sc);
        sim.setThreadCount(2);
        History h;
        h.start(sim);
        for (int s = 0; s < kSteps; ++s) {
            sim.step();
            h.record(sim);
        }
        for (int k = 0; k < 12; ++k) {
            const std::uint64_t s = rng() % (kSteps + 1);
            sim.setThreadCount(1 + k % 2);
            h.seek(sim, s);
            EXPECT_EQ(sim.stateHash(), hashes[s]) << "step " << s;
        }
    }
}

} // namespace
} // namespace orca
