// Finite always, through the `orca` binary: the NaN reproducers (agents 1e-200 apart, denormal
// positions, a static such neighbour) run with finite numbers in every output, and a time step
// below the floor is refused with the range named.
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::json;

class FiniteCli : public orca::testing::CliFixture {
  protected:
    /// A scene of agents at `positions` (JSON array of [x, y]) walking to mirrored goals.
    std::string sceneWith(const std::string& agents, const std::string& simulation = "{}") {
        return R"({"format": "orca-scene", "version": 1, "simulation": )" + simulation +
               R"(, "agents": )" + agents + "}";
    }
};

/// Every number in `j` (recursively) is finite and no array holds a null: the explain JSON
/// writes a NaN or infinite coordinate as null, which is how `[null, null]` velocities showed.
/// (A member that is null says "none", e.g. lp2FailIndex when LP2 did not fail.)
void expectNoNull(const Json& j, const std::string& path) {
    if (j.is_number_float()) {
        EXPECT_TRUE(std::isfinite(j.get<double>())) << path;
    } else if (j.is_array()) {
        for (std::size_t k = 0; k < j.size(); ++k) {
            EXPECT_FALSE(j[k].is_null()) << path << "[" << k << "]";
            expectNoNull(j[k], path + "[" + std::to_string(k) + "]");
        }
    } else if (j.is_object()) {
        for (const auto& [key, value] : j.items())
            expectNoNull(value, path + "." + key);
    }
}

TEST_F(FiniteCli, NearlyCoincidentAgentsRunFinite) {
    struct Case {
        const char* name;
        const char* agents;
    };
    const Case cases[] = {
        {"1e-200 apart on a diagonal",
         R"([{"position": [0, 0], "goal": [10, 10]},
             {"position": [1e-200, 1e-200], "goal": [-10, -10]}])"},
        {"denormal positions",
         R"([{"position": [5e-324, 0], "goal": [10, 0]},
             {"position": [0, 1e-310], "goal": [-10, 0]},
             {"position": [1e-310, 1e-310], "goal": [0, 10]}])"},
        {"a static such neighbour",
         R"([{"position": [0, 0], "static": true},
             {"position": [1e-200, -1e-200], "goal": [10, 0]}])"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const auto file = write("near.json", sceneWith(c.agents));
        const auto state = m_dir / "state.json";
        const auto csv = m_dir / "trajectory.csv";
        const orca::testing::Result run =
            orca("run " + file.string() + " --steps 10 --save-state " + state.string() +
                 " --trajectory " + csv.string());
        ASSERT_EQ(run.code, 0) << run.err;
        const Json summary = Json::parse(run.out);
        EXPECT_FALSE(summary["minClearance"].is_null());
        // The saved state loads (a NaN would not) and every trajectory number is finite.
        ASSERT_EQ(orca("validate " + state.string()).code, 0);
        std::istringstream rows(orca::test::readFile(csv));
        std::string row;
        std::getline(rows, row); // header
        int lines = 0;
        while (std::getline(rows, row)) {
            std::istringstream fields(row);
            std::string field;
            for (int k = 0; std::getline(fields, field, ','); ++k) {
                if (k >= 2) { // strtod, not stod: denormals are fine numbers here
                    EXPECT_TRUE(std::isfinite(std::strtod(field.c_str(), nullptr))) << row;
                }
            }
            ++lines;
        }
        EXPECT_GT(lines, 10);
        for (int agent = 0; agent < 2; ++agent) {
            const orca::testing::Result ex =
                orca("explain " + file.string() + " --agent " + std::to_string(agent));
            ASSERT_EQ(ex.code, 0) << ex.err;
            expectNoNull(Json::parse(ex.out), "record");
        }
    }
}

TEST_F(FiniteCli, TimeStepBelowTheFloorIsRefused) {
    const auto file =
        write("dt.json", sceneWith(R"([{"position": [0, 0]}])", R"({"timeStep": 1e-161})"));
    const orca::testing::Result r = orca("run " + file.string() + " --steps 1");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("timeStep"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[1e-6, 1e7]"), std::string::npos) << r.err; // the file range
    EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
}

} // namespace
