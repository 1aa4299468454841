#pragma once
// What the lesson library's two files share (private to orca_scene): how numbers are written
// in the loader's messages (lesson.cpp) and in the task checks' progress texts
// (lesson_tasks.cpp).

#include <cstdio>
#include <string>

namespace orca::lesson::detail {

inline std::string formatNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace orca::lesson::detail
