// ConformanceChecker: ORCA's decision recomputed from each recorded state and compared with the
// recorded velocity (conformance.hpp, docs/conformance.md).
#include "orca/conformance.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace orca {

namespace {

/// The allowed difference for an agent: tolerance x max(1 m/s, its max speed).
double allowed(double tolerance, const AgentParams& p) {
    return tolerance * std::max(1.0, p.maxSpeed);
}

} // namespace

void applyRecordedPrefVelocities(Simulator& sim, std::span<const Vec2> prefVelocity) {
    if (prefVelocity.size() != sim.agentCount())
        throw std::invalid_argument("conformance: " + std::to_string(prefVelocity.size()) +
                                    " preferred velocities for " +
                                    std::to_string(sim.agentCount()) + " agents");
    for (std::size_t i = 0; i < prefVelocity.size(); ++i)
        if (!sim.isStaticAt(i) && !sim.hasGoalAt(i))
            sim.setPrefVelocity(sim.agentIdAt(i), prefVelocity[i]);
}

const Simulator& ConformanceChecker::shadow() const {
    if (!m_shadow) throw std::logic_error("ConformanceChecker::shadow before begin");
    return *m_shadow;
}

ConformanceChecker::ConformanceChecker(ConformanceOptions options) : m_options(options) {
    if (!std::isfinite(options.tolerance) || options.tolerance < 0.0)
        throw std::invalid_argument("conformance tolerance must be finite and >= 0 (got " +
                                    std::to_string(options.tolerance) + ")");
}

void ConformanceChecker::begin(Simulator shadow) {
    m_baseStep = shadow.stepCount();
    m_shadow.emplace(std::move(shadow));
}

void ConformanceChecker::takeState(std::uint64_t step, std::span<const Vec2> position,
                                   std::span<const Vec2> velocity) {
    Simulator& sim = *m_shadow;
    for (std::size_t i = 0; i < position.size(); ++i) {
        const AgentId id = sim.agentIdAt(i);
        sim.setPosition(id, position[i]);
        sim.setVelocity(id, velocity[i]); // (a static agent keeps its zero)
    }
    sim.setClock(sim.time(), step);
    m_baseStep = step;
}

std::size_t ConformanceChecker::frame(std::uint64_t step, std::span<const Vec2> position,
                                      std::span<const Vec2> velocity,
                                      std::span<const Vec2> prefVelocity) {
    if (!m_shadow) throw std::logic_error("ConformanceChecker::frame before begin");
    Simulator& sim = *m_shadow;
    const std::size_t n = sim.agentCount();
    if (position.size() != n || velocity.size() != n ||
        (!prefVelocity.empty() && prefVelocity.size() != n))
        throw std::invalid_argument("conformance: a frame of " + std::to_string(position.size()) +
                                    " agents for a configuration of " + std::to_string(n));
    if (step != m_baseStep + 1 || m_baseStep == UINT64_MAX) {
        ++m_report.uncheckedFrames;
        takeState(step, position, velocity);
        return 0;
    }

    // The preferred velocities the program gave: agents without a goal take them; goal agents
    // steer by their goal or route (their recorded value is compared, not used).
    const auto params = sim.agentParams();
    if (!prefVelocity.empty()) {
        applyRecordedPrefVelocities(sim, prefVelocity);
        for (std::size_t i = 0; i < n; ++i) {
            if (sim.isStaticAt(i) || !sim.hasGoalAt(i)) continue;
            const Vec2 fromGoal = sim.prefVelocityAt(i);
            if (length(prefVelocity[i] - fromGoal) > allowed(m_options.tolerance, params[i])) {
                ++m_report.prefMismatchAgentSteps;
                if (!m_report.firstPrefMismatch)
                    m_report.firstPrefMismatch =
                        PrefVelocityMismatch{step, i, prefVelocity[i], fromGoal};
            }
        }
    }

    m_before = sim.snapshot(&m_before); // (shares the configuration with the last one)
    sim.step();

    const auto orcaVelocity = sim.velocities();
    std::size_t deviating = 0;
    std::optional<ConformanceDeviation> first;
    for (std::size_t i = 0; i < n; ++i) {
        if (sim.isStaticAt(i)) continue;
        ++m_report.checkedAgentSteps;
        const double difference = length(velocity[i] - orcaVelocity[i]);
        // (Not std::max: a NaN difference must show.)
        if (!(difference <= m_report.maxDifference)) m_report.maxDifference = difference;
        if (!(difference <= allowed(m_options.tolerance, params[i]))) {
            ++deviating;
            const ConformanceDeviation d{step, i, velocity[i], orcaVelocity[i], difference};
            if (!first) first = d;
            if (m_options.keepAll) m_report.deviations.push_back(d);
        }
    }
    m_report.deviatingAgentSteps += deviating;
    m_report.agents = std::max(m_report.agents, n);
    ++m_report.steps;
    if (deviating > 0) {
        // Back to the state before the step: the first deviation's hook sees the state its
        // decision came from; then the step again, with the recorded velocities, so that what
        // the recording does not hold (detour, deadlock-breaking and route states) moves as
        // it did in the recorded run and the departure does not echo in later steps.
        sim.restore(m_before);
        if (first && !m_report.firstDeviation) {
            m_report.firstDeviation = first;
            if (m_hook) m_hook(*first, sim);
        }
        sim.stepWithVelocities(velocity);
    }
    takeState(step, position, velocity);
    return deviating;
}

} // namespace orca
