// Degenerate crowds — many agents at one point, or packed far closer than their neighbour
// range — give the same trajectories and clearance figures as the plain per-cell scan did
// before the grid learnt to index dense cells (docs/core.md, "Dense cells"). The golden values
// were recorded with that plain scan; they must not change, for any thread count. The bundled
// scenes are checked through the `orca` CLI (when it is built) against hashes recorded the
// same way.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"

namespace orca {
namespace {

/// Deterministic on every platform (std::uniform_real_distribution is not specified exactly).
struct Rng {
    std::uint64_t state;
    double unit() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) * 0x1.0p-53;
    }
};

enum class Layout { Coincident, Square, Clusters };

Simulator makeCrowd(Layout layout, int agents) {
    Simulator sim;
    Rng rng{12345};
    for (int a = 0; a < agents; ++a) {
        AgentDef d;
        switch (layout) {
        case Layout::Coincident:
            d.position = {3.0, 4.0};
            break;
        case Layout::Square: // neighborDist 15: every agent sees every other
            d.position = {rng.unit(), rng.unit()};
            break;
        case Layout::Clusters: {
            // Five coincident clusters, a dense square, and sparse agents around them; a few
            // static agents sit inside the clusters.
            const int kind = a % 8;
            if (kind < 5) {
                d.position = {40.0 * kind, kind % 2 == 0 ? 0.0 : 0.25};
                d.isStatic = a % 97 == 0;
            } else if (kind == 5) {
                d.position = {-30.0 + 0.5 * rng.unit(), -30.0 + 0.5 * rng.unit()};
            } else {
                d.position = {300.0 * rng.unit() - 150.0, 300.0 * rng.unit() - 150.0};
            }
            d.params.maxNeighbors = 1 + a % 13;
            d.params.neighborDist = 5.0 + 20.0 * rng.unit();
            break;
        }
        }
        d.hasGoal = true;
        d.goal = {200.0 * rng.unit() - 100.0, 200.0 * rng.unit() - 100.0};
        sim.addAgent(d);
    }
    return sim;
}

std::uint64_t bits(double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

struct Golden {
    const char* name;
    Layout layout;
    int agents;
    std::uint64_t hash;           ///< stateHash after 20 steps
    std::size_t overlapsAtStart;  ///< clearance().overlappingPairs before any step
    std::uint64_t clearanceAtEnd; ///< bits of clearance().minAgentClearance after 20 steps
    std::size_t overlapsAtEnd;
};

TEST(DenseCrowd, TrajectoriesAndClearanceMatchThePlainScan) {
    const std::array<Golden, 3> goldens{{
        {"2000 coincident", Layout::Coincident, 2000, 0xd3368e0acd8d6427ull, 1999000,
         0xc008000000000000ull /* -3 */, 1947373},
        {"2000 in a unit square", Layout::Square, 2000, 0xd1bda8a12d449892ull, 1999000,
         0xc007ec85081ce223ull, 797848},
        {"clusters and sparse", Layout::Clusters, 2400, 0x1cfe0e22b36946b5ull, 269737,
         0xc008000000000000ull, 190996},
    }};
    for (const Golden& g : goldens) {
        SCOPED_TRACE(g.name);
        for (int threads : {1, 2}) {
            SCOPED_TRACE(threads);
            Simulator sim = makeCrowd(g.layout, g.agents);
            sim.setThreadCount(threads);
            const std::size_t overlapsAtStart = sim.clearance().overlappingPairs;
            for (int s = 0; s < 20; ++s)
                sim.step();
            const ClearanceStats end = sim.clearance();
            EXPECT_EQ(sim.stateHash(), g.hash);
            EXPECT_EQ(overlapsAtStart, g.overlapsAtStart);
            EXPECT_EQ(bits(end.minAgentClearance), g.clearanceAtEnd);
            EXPECT_EQ(end.overlappingPairs, g.overlapsAtEnd);
        }
    }
}

/// stateHash printed by `orca run scene --steps 20 --no-metrics --threads N`, or "" when the
/// CLI is not built.
std::string cliHash(const std::string& scene, int threads) {
    const std::string exe = std::string(ORCA_BIN_DIR) + "/orca";
    if (!std::filesystem::exists(exe)) return "";
    const std::string cmd = exe + " run " + std::string(ORCA_SOURCE_DIR) + "/scenes/" + scene +
                            " --steps 20 --no-metrics --threads " + std::to_string(threads);
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return "";
    std::string output;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe))
        output += buffer.data();
    pclose(pipe);
    const std::string key = "\"stateHash\": \"";
    const std::size_t at = output.find(key);
    return at == std::string::npos ? "?" : output.substr(at + key.size(), 16);
}

TEST(DenseCrowd, BundledScenesMatchThePlainScan) {
    struct SceneHash {
        const char* file;
        const char* hash;
    };
    const std::vector<SceneHash> scenes{
        {"blocks.json", "7431ee48a3d3cd85"},
        {"circle.json", "a7aa0ed95b031b1f"},
        {"concave_obstacle.json", "d2152c4adda537ab"},
        {"crossing.json", "6f33275defe29f4d"},
        {"dense_convergence.json", "82aec0b7bde47284"},
        {"detour_corridor.json", "060418cf6fbfea00"},
        {"detour_field.json", "3553dceee1d2f4a9"},
        {"detour_wall.json", "bd2b17786d5dee98"},
        {"diag_crowd_pressure.json", "dbb77c99db5183f5"},
        {"diag_goal_circling.json", "1f0790c8738c53ad"},
        {"diag_neighbor_truncation.json", "13ce86646db74e2d"},
        {"diag_none.json", "d3fcb29c19eb94b4"},
        {"diag_obstacle_trap.json", "273abd4b0ea542c9"},
        {"diag_short_horizon.json", "a444ea2826b4a868"},
        {"diag_static_wall.json", "bd2b17786d5dee98"},
        {"diag_symmetric_deadlock.json", "e045c54cca6fd501"},
        {"head_on.json", "2f5e74e87e24cda1"},
    };
    if (cliHash("circle.json", 1).empty()) GTEST_SKIP() << "the orca CLI is not built";
    for (const SceneHash& s : scenes) {
        SCOPED_TRACE(s.file);
        for (int threads : {1, 2})
            EXPECT_EQ(cliHash(s.file, threads), s.hash);
    }
}

} // namespace
} // namespace orca
