// RVO::RVOSimulator: construction, agents, their parameters and the step (RVOSimulator.h).
// Every call translates RVO2's numbers and floats to the core's ids and doubles; the core
// decides everything.
#include <climits>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "orca/parameters.hpp"
#include "simulator_impl.hpp"

namespace RVO {

// ---- Helpers (simulator_impl.hpp) ----------------------------------------------------------

std::string message(const char* function, const std::string& what) {
    return std::string("RVO::RVOSimulator::") + function + ": " + what;
}

void requireFinite(const Vector2& v, const char* function, const char* what) {
    if (!std::isfinite(v.x()) || !std::isfinite(v.y()))
        throw std::invalid_argument(message(function, std::string(what) + " is not finite"));
}

void requireFinite(float value, const char* function, const char* what) {
    if (!std::isfinite(value))
        throw std::invalid_argument(message(function, std::string(what) + " is not finite"));
}

void checkParams(const orca::AgentParams& params, const char* function) {
    if (std::string error = orca::checkAgentParams(params); !error.empty())
        throw std::invalid_argument(message(function, error));
}

orca::AgentParams agentParams(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                              float timeHorizonObst, float radius, float maxSpeed,
                              const char* function) {
    orca::AgentParams p;
    p.neighborDist = neighborDist;
    // More neighbours than INT_MAX is "all of them" (no program has 2^31 agents).
    p.maxNeighbors =
        maxNeighbors > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(maxNeighbors);
    p.timeHorizon = timeHorizon;
    p.timeHorizonObst = timeHorizonObst;
    p.radius = radius;
    p.maxSpeed = maxSpeed;
    checkParams(p, function);
    return p;
}

// ---- Impl -------------------------------------------------------------------------------------

std::size_t RVOSimulator::Impl::agent(std::size_t agentNo, const char* function) const {
    if (agentNo >= ids.size())
        throw std::out_of_range(message(function, "no agent number " + std::to_string(agentNo) +
                                                      " (there are " + std::to_string(ids.size()) +
                                                      " agents)"));
    return agentNo;
}

std::size_t RVOSimulator::Impl::addAgent(const Vector2& position, const orca::AgentParams& params,
                                         const Vector2& velocity, const char* function) {
    requireFinite(position, function, "the position");
    requireFinite(velocity, function, "the velocity");
    orca::AgentDef def;
    def.position = toDouble(position);
    def.velocity = toDouble(velocity);
    def.params = params;
    keepStepConfiguration();
    // Room in the mirrors first, so that a failure leaves all three as they were.
    AgentMirror mirror;
    mirror.position = position;
    mirror.velocity = velocity;
    agents.push_back(mirror);
    try {
        ids.push_back(sim.addAgent(def));
    } catch (const std::invalid_argument& e) {
        agents.pop_back();
        throw std::invalid_argument(message(function, e.what()));
    } catch (...) {
        agents.pop_back();
        throw;
    }
    return ids.size() - 1;
}

template <class Edit>
void RVOSimulator::Impl::editParams(std::size_t agentNo, const char* function, Edit edit) {
    const std::size_t i = agent(agentNo, function);
    orca::AgentDef def = sim.agent(ids[i]);
    edit(def.params);
    checkParams(def.params, function);
    keepStepConfiguration();
    sim.setAgent(ids[i], def);
}

void RVOSimulator::Impl::flushPrefVelocities() {
    for (std::size_t i = 0; i < ids.size(); ++i) {
        AgentMirror& m = agents[i];
        if (!m.prefPending) continue;
        sim.setPrefVelocity(ids[i], toDouble(m.prefVelocity));
        m.prefPending = 0;
    }
}

void RVOSimulator::Impl::keepStepConfiguration() {
    if (recording) recording->configurationChanged(); // (a new scene record)
    if (lastStep.valid && !lastStep.configuration && !recordsReady.load())
        lastStep.configuration = sim.snapshot();
}

// ---- Construction -----------------------------------------------------------------------------

RVOSimulator::RVOSimulator() : impl_(new Impl) {}

RVOSimulator::RVOSimulator(float timeStep, float neighborDist, std::size_t maxNeighbors,
                           float timeHorizon, float timeHorizonObst, float radius, float maxSpeed)
    : impl_(nullptr) {
    std::unique_ptr<Impl> impl(new Impl);
    impl_ = impl.get();
    setTimeStep(timeStep);
    setAgentDefaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed);
    impl.release();
}

RVOSimulator::RVOSimulator(float timeStep, float neighborDist, std::size_t maxNeighbors,
                           float timeHorizon, float timeHorizonObst, float radius, float maxSpeed,
                           const Vector2& velocity)
    : impl_(nullptr) {
    std::unique_ptr<Impl> impl(new Impl);
    impl_ = impl.get();
    setTimeStep(timeStep);
    setAgentDefaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed,
                     velocity);
    impl.release();
}

RVOSimulator::~RVOSimulator() {
    // A recording not stopped is finished here (a destructor cannot report a failure).
    try {
        stopRecording();
    } catch (...) {
    }
    delete impl_;
}

// ---- Agents -----------------------------------------------------------------------------------

std::size_t RVOSimulator::addAgent(const Vector2& position) {
    if (!impl_->defaults) return RVO_ERROR; // RVO2's documented answer
    return impl_->addAgent(position, impl_->defaults->params, impl_->defaults->velocity,
                           "addAgent");
}

std::size_t RVOSimulator::addAgent(const Vector2& position, float neighborDist,
                                   std::size_t maxNeighbors, float timeHorizon,
                                   float timeHorizonObst, float radius, float maxSpeed) {
    return addAgent(position, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius,
                    maxSpeed, Vector2());
}

std::size_t RVOSimulator::addAgent(const Vector2& position, float neighborDist,
                                   std::size_t maxNeighbors, float timeHorizon,
                                   float timeHorizonObst, float radius, float maxSpeed,
                                   const Vector2& velocity) {
    const orca::AgentParams p = agentParams(neighborDist, maxNeighbors, timeHorizon,
                                            timeHorizonObst, radius, maxSpeed, "addAgent");
    return impl_->addAgent(position, p, velocity, "addAgent");
}

void RVOSimulator::setAgentDefaults(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                                    float timeHorizonObst, float radius, float maxSpeed) {
    setAgentDefaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed,
                     Vector2());
}

void RVOSimulator::setAgentDefaults(float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                                    float timeHorizonObst, float radius, float maxSpeed,
                                    const Vector2& velocity) {
    AgentDefaults d;
    d.params = agentParams(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius,
                           maxSpeed, "setAgentDefaults");
    requireFinite(velocity, "setAgentDefaults", "the velocity");
    d.velocity = velocity;
    impl_->defaults = d;
}

std::size_t RVOSimulator::getNumAgents() const {
    return impl_->ids.size();
}

// ---- Agent getters ------------------------------------------------------------------------------

std::size_t RVOSimulator::getAgentMaxNeighbors(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentMaxNeighbors");
    return static_cast<std::size_t>(impl_->sim.agentParams()[i].maxNeighbors);
}

float RVOSimulator::getAgentMaxSpeed(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentMaxSpeed");
    return static_cast<float>(impl_->sim.agentParams()[i].maxSpeed);
}

float RVOSimulator::getAgentNeighborDist(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentNeighborDist");
    return static_cast<float>(impl_->sim.agentParams()[i].neighborDist);
}

float RVOSimulator::getAgentRadius(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentRadius");
    return static_cast<float>(impl_->sim.agentParams()[i].radius);
}

float RVOSimulator::getAgentTimeHorizon(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentTimeHorizon");
    return static_cast<float>(impl_->sim.agentParams()[i].timeHorizon);
}

float RVOSimulator::getAgentTimeHorizonObst(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentTimeHorizonObst");
    return static_cast<float>(impl_->sim.agentParams()[i].timeHorizonObst);
}

const Vector2& RVOSimulator::getAgentPosition(std::size_t agentNo) const {
    return impl_->agents[impl_->agent(agentNo, "getAgentPosition")].position;
}

const Vector2& RVOSimulator::getAgentPrefVelocity(std::size_t agentNo) const {
    return impl_->agents[impl_->agent(agentNo, "getAgentPrefVelocity")].prefVelocity;
}

const Vector2& RVOSimulator::getAgentVelocity(std::size_t agentNo) const {
    return impl_->agents[impl_->agent(agentNo, "getAgentVelocity")].velocity;
}

// ---- Agent setters ------------------------------------------------------------------------------

void RVOSimulator::setAgentMaxNeighbors(std::size_t agentNo, std::size_t maxNeighbors) {
    const int n =
        maxNeighbors > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(maxNeighbors);
    impl_->editParams(agentNo, "setAgentMaxNeighbors",
                      [n](orca::AgentParams& p) { p.maxNeighbors = n; });
}

void RVOSimulator::setAgentMaxSpeed(std::size_t agentNo, float maxSpeed) {
    impl_->editParams(agentNo, "setAgentMaxSpeed",
                      [maxSpeed](orca::AgentParams& p) { p.maxSpeed = maxSpeed; });
}

void RVOSimulator::setAgentNeighborDist(std::size_t agentNo, float neighborDist) {
    impl_->editParams(agentNo, "setAgentNeighborDist",
                      [neighborDist](orca::AgentParams& p) { p.neighborDist = neighborDist; });
}

void RVOSimulator::setAgentRadius(std::size_t agentNo, float radius) {
    impl_->editParams(agentNo, "setAgentRadius",
                      [radius](orca::AgentParams& p) { p.radius = radius; });
}

void RVOSimulator::setAgentTimeHorizon(std::size_t agentNo, float timeHorizon) {
    impl_->editParams(agentNo, "setAgentTimeHorizon",
                      [timeHorizon](orca::AgentParams& p) { p.timeHorizon = timeHorizon; });
}

void RVOSimulator::setAgentTimeHorizonObst(std::size_t agentNo, float timeHorizonObst) {
    impl_->editParams(agentNo, "setAgentTimeHorizonObst", [timeHorizonObst](orca::AgentParams& p) {
        p.timeHorizonObst = timeHorizonObst;
    });
}

void RVOSimulator::setAgentPosition(std::size_t agentNo, const Vector2& position) {
    const std::size_t i = impl_->agent(agentNo, "setAgentPosition");
    requireFinite(position, "setAgentPosition", "the position");
    // The last step's input keeps its own copy of the positions: nothing to preserve here.
    impl_->sim.setPosition(impl_->ids[i], toDouble(position));
    impl_->agents[i].position = position;
    if (impl_->recording) impl_->recording->stateChanged();
}

void RVOSimulator::setAgentVelocity(std::size_t agentNo, const Vector2& velocity) {
    const std::size_t i = impl_->agent(agentNo, "setAgentVelocity");
    requireFinite(velocity, "setAgentVelocity", "the velocity");
    impl_->sim.setVelocity(impl_->ids[i], toDouble(velocity));
    impl_->agents[i].velocity = velocity;
    if (impl_->recording) impl_->recording->stateChanged();
}

void RVOSimulator::setAgentPrefVelocity(std::size_t agentNo, const Vector2& prefVelocity) {
    const std::size_t i = impl_->agent(agentNo, "setAgentPrefVelocity");
    requireFinite(prefVelocity, "setAgentPrefVelocity", "the preferred velocity");
    // Only this agent's mirror is written; doStep() hands it to the core.
    AgentMirror& m = impl_->agents[i];
    m.prefVelocity = prefVelocity;
    m.prefPending = 1;
}

// ---- Time -----------------------------------------------------------------------------------

float RVOSimulator::getGlobalTime() const {
    return impl_->globalTime;
}

float RVOSimulator::getTimeStep() const {
    return impl_->timeStep;
}

void RVOSimulator::setTimeStep(float timeStep) {
    requireFinite(timeStep, "setTimeStep", "the time step");
    orca::SimulationParams params = impl_->sim.params();
    params.timeStep = timeStep;
    if (std::string error = orca::checkSimulationParams(params); !error.empty())
        throw std::invalid_argument(message("setTimeStep", error));
    impl_->keepStepConfiguration();
    impl_->sim.setParams(params);
    impl_->timeStep = timeStep;
}

void RVOSimulator::doStep() {
    Impl& s = *impl_;
    if (s.timeStep <= 0.0F)
        throw std::logic_error(message("doStep", "no time step has been set (call setTimeStep, "
                                                 "or construct with a time step, first)"));
    s.flushPrefVelocities();
    // The step's input, kept for the neighbour and ORCA-line queries (stepRecords()).
    StepInput input;
    input.valid = true;
    input.position.assign(s.sim.positions().begin(), s.sim.positions().end());
    input.velocity.assign(s.sim.velocities().begin(), s.sim.velocities().end());
    input.prefVelocity.resize(s.ids.size());
    for (std::size_t i = 0; i < s.ids.size(); ++i)
        input.prefVelocity[i] = toDouble(s.agents[i].prefVelocity);
    // A recording: the new configuration and the edited state before the step, if any.
    if (s.recording)
        s.recording->beforeStep(s.sim, input.prefVelocity, [&s] { return s.currentScene(); });

    // RVO2 holds positions and velocities in float, and so does the face: the core's results
    // (computed in double) are rounded to float and written back, so that every step starts
    // from the state RVO2 would hold. Measured on RVO2's examples, this keeps the printed
    // positions identical for hundreds of steps longer (docs/rvo2.md, "Same results").
    // (Beyond float's range, about 3.4e38, the mirror shows infinity, as RVO2 would; the core
    // keeps its finite double.)
    auto keepFloatState = [&s] {
        s.sim.roundStateToFloat();
        const auto pos = s.sim.positions();
        const auto vel = s.sim.velocities();
        for (std::size_t i = 0; i < s.ids.size(); ++i) {
            AgentMirror& m = s.agents[i];
            m.position = toFloat(pos[i]);
            m.velocity = toFloat(vel[i]);
        }
    };
    try {
        s.sim.step();
    } catch (...) {
        keepFloatState(); // a position that overflowed has moved (orca::NonFiniteState)
        throw;
    }
    keepFloatState();
    if (s.recording) s.recording->afterStep(s.sim, input.prefVelocity);
    s.lastStep = std::move(input);
    s.recordsReady.store(false);
    s.globalTime += s.timeStep;
}

} // namespace RVO
