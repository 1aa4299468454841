#ifndef ORCA_RVO2_LINE_H
#define ORCA_RVO2_LINE_H
/// \file Line.h
/// RVO2's directed line (RVO::Line): how RVOSimulator::getAgentORCALine reports an ORCA
/// constraint. Part of the compatibility layer `orca::rvo2` (docs/rvo2.md).

#include "Vector2.h"

namespace RVO {

/// A directed line in the agent's (absolute) velocity space: the velocities on its left are
/// permitted, i.e. x is allowed iff det(direction, x - point) >= 0.
class Line {
  public:
    /// A line through the origin with zero direction (fill in both members).
    Line() {}

    /// Unit direction of the line.
    Vector2 direction;
    /// A point on the line (units/s).
    Vector2 point;
};

} // namespace RVO

#endif // ORCA_RVO2_LINE_H
