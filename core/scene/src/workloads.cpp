#include "orca/scene/workloads.hpp"

#include <cmath>
#include <random>
#include <string>

namespace orca::scene {

namespace {

Scene baseScene(std::string name, std::string description) {
    Scene s;
    s.name = std::move(name);
    s.description = std::move(description);
    return s; // built-in defaults are RVO2 Circle's parameters
}

} // namespace

Scene circleWorkload(std::size_t agents) {
    Scene s = baseScene("Circle " + std::to_string(agents),
                        std::to_string(agents) +
                            " agents on a ring (RVO2 Circle density) cross to the antipode");
    const float twoPi = 6.28318530717958647692F;
    const auto n = static_cast<float>(agents);
    const auto radius = static_cast<float>(200.0 * static_cast<double>(agents) / 250.0);
    s.agents.reserve(agents);
    for (std::size_t i = 0; i < agents; ++i) {
        const float angle = static_cast<float>(i) * twoPi / n;
        const float x = radius * std::cos(angle);
        const float y = radius * std::sin(angle);
        SceneAgent a;
        a.position = {x, y};
        a.goal = Vec2(-static_cast<double>(x), -static_cast<double>(y));
        s.agents.push_back(std::move(a));
    }
    return s;
}

Scene uniformWorkload(std::size_t agents, std::uint32_t seed) {
    Scene s = baseScene("Uniform " + std::to_string(agents),
                        std::to_string(agents) +
                            " agents on a jittered grid (spacing 10) walking to random goals");
    std::mt19937 rng(seed);
    auto unit = [&rng] { return static_cast<double>(rng()) / 4294967296.0; };
    const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(agents))));
    const double extent = 10.0 * static_cast<double>(side > 0 ? side - 1 : 0);
    s.agents.reserve(agents);
    for (std::size_t k = 0; k < agents; ++k) {
        const double dx = -2.5 + 5.0 * unit();
        const double dy = -2.5 + 5.0 * unit();
        const double gx = extent * unit();
        const double gy = extent * unit();
        SceneAgent a;
        // Rounded to float like the reference harness, so both start identically.
        a.position = {static_cast<float>(10.0 * static_cast<double>(k % side) + dx),
                      static_cast<float>(10.0 * static_cast<double>(k / side) + dy)};
        a.goal = Vec2(static_cast<float>(gx), static_cast<float>(gy));
        s.agents.push_back(std::move(a));
    }
    return s;
}

} // namespace orca::scene
