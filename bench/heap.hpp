#pragma once
// Heap bytes in use (glibc's mallinfo2), for the benchmarks' bytes-per-agent counters.
#include <malloc.h>

#include <cstddef>

namespace orca::bench {

inline std::size_t heapInUse() {
    const struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

} // namespace orca::bench
