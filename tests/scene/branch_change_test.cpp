// BranchChange::set holds values set on a command line (`orca compare --set`, `orca-sandbox
// --branch`) to the ranges a scene file accepts (the parameter table's file ranges), so that
// radius=1e308 or maxNeighbors=-1 are refused with the range instead of running a branch that
// overflows (issue 25, item 6).
#include <string>

#include <gtest/gtest.h>

#include "orca/parameters.hpp"
#include "orca/scene/compare.hpp"

namespace orca {
namespace {

TEST(BranchChangeRanges, ValuesOutsideTheFileRangeAreRefused) {
    const SimulationParams base;
    struct Case {
        const char* assignment;
        const char* message;
    };
    for (const Case& c : {
             Case{"radius=1e308",
                  "radius: 1e308 is out of range: radius must be in (0, 1e7] units"},
             Case{"radius=0", "radius must be in (0, 1e7]"},
             Case{"timeStep=1e308", "timeStep must be in [1e-6, 1e7] s"},
             Case{"timeStep=1e-9", "timeStep must be in [1e-6, 1e7] s"},
             Case{"maxNeighbors=-1", "maxNeighbors must be in [0, 2147483647]"},
             Case{"maxNeighbors=3e9", "maxNeighbors must be in [0, 2147483647]"},
             Case{"tau=-2", "timeHorizon must be in (0, 1e7] s"},
             Case{"goalRadius=-1", "goalRadius must be in [0, 1e7]"},
             Case{"responsibility=1.5", "responsibility must be in (0, 1]"},
         }) {
        BranchChange change;
        std::string error;
        EXPECT_FALSE(change.set(c.assignment, base, error)) << c.assignment;
        EXPECT_NE(error.find(c.message), std::string::npos) << c.assignment << ": " << error;
        EXPECT_TRUE(change.empty()) << c.assignment; // nothing was changed
    }
    // The ends of the ranges are accepted.
    BranchChange change;
    std::string error;
    for (const char* ok : {"radius=1e7", "timeStep=1e-6", "maxNeighbors=2147483647",
                           "maxNeighbors=0", "goalRadius=0", "responsibility=1"})
        EXPECT_TRUE(change.set(ok, base, error)) << ok << ": " << error;
}

TEST(BranchChangeRanges, EveryBranchRowIsHeldToItsFileRange) {
    const SimulationParams base;
    for (const ParamRow& row : parameterTable()) {
        if (row.scope == ParamScope::Detour || !row.fileRange.hasMax()) continue;
        BranchChange change;
        std::string error;
        const std::string over = std::string(row.name) + "=" + formatValue(2 * row.fileRange.max);
        EXPECT_FALSE(change.set(over, base, error)) << over;
        EXPECT_NE(error.find("out of range"), std::string::npos) << over << ": " << error;
    }
}

} // namespace
} // namespace orca
