#ifndef ORCA_RVO2_RVO_H
#define ORCA_RVO2_RVO_H
/// \file RVO.h
/// The one header RVO2 programs include: RVO2's C++ API (namespace RVO) on the ORCA Sandbox
/// core. Link the CMake target `orca::rvo2` (`find_package(orca CONFIG REQUIRED)`); see
/// docs/rvo2.md for what matches RVO2 and where this layer differs (exceptions instead of
/// undefined behaviour, double precision inside).

#include "Line.h"
#include "RVOSimulator.h"
#include "Vector2.h"

#endif // ORCA_RVO2_RVO_H
