#pragma once
// Menge's behaviour files (BFSM) as the importer reads them (import_menge_bfsm.cpp), used by
// the scene part (import_menge.cpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "import_support.hpp"

namespace orca::scene::detail {

/// A goal of a goal set, reduced to the point an agent walks to.
struct MengeGoal {
    Vec2 point{0.0, 0.0};
    double weight = 1.0;
    std::string kind; ///< point, circle, AABB, OBB
    /// Within this distance of `point` an agent is inside the region (a circle's radius, a
    /// box's smaller half side; 0 for a point): goal_reached distances add to it.
    double inradius = 0.0;
};

/// A state: how it picks a goal and how the agent moves.
struct MengeState {
    std::string name;
    bool final = false;
    std::string selector; ///< explicit, identity, nearest, farthest, random, ...
    /// A `shared` selector's state_name; readMengeBehaviour replaces the selector by that
    /// state's (selector stays "shared" when the state is missing or the names form a cycle).
    std::string sharedState;
    std::optional<int> goalSet; ///< goal_set of the selector
    std::optional<int> goal;    ///< goal of an explicit selector
    bool mirrorX = false, mirrorY = false;
    std::string velocity = "goal"; ///< the VelComponent's type
    Vec2 direction{1.0, 0.0};      ///< const_dir's direction
    std::string what;              ///< path for messages
};

/// A transition out of a state.
struct MengeTransition {
    std::string to;        ///< empty when it has several (probabilistic) targets
    std::string condition; ///< goal_reached, timer, auto, AABB, ...
    double distance = 0.0; ///< goal_reached's distance (Menge's default 0)
    std::string what;
};

/// A parsed behaviour file.
struct MengeBehaviour {
    std::map<int, std::map<int, MengeGoal>> goalSets;
    std::map<std::string, MengeState> states;
    std::map<std::string, std::vector<MengeTransition>> transitions; ///< by source state
};

/// Reads a BFSM document; unsupported parts go into `result` (drops and notes).
MengeBehaviour readMengeBehaviour(const XmlInput& in, ImportResult& result);

} // namespace orca::scene::detail
