// A watched step's flags finished one agent at a time (step_watch.hpp).
#include "step_watch.hpp"

namespace orca::detail {

void addWatchFlagsScalar(std::size_t begin, std::size_t end, const WatchFlagArrays& a) {
    for (std::size_t i = begin; i < end; ++i) {
        a.flags[i] = finishedFlags(a, i);
        a.lastLp3[i] = a.flags[i] & step_flag::kLp3;
    }
}

} // namespace orca::detail
