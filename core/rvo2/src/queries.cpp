// RVO::RVOSimulator: obstacles and their vertex numbers, visibility, and the last step's
// neighbours and ORCA lines (RVOSimulator.h).
#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "orca/obstacles.hpp"
#include "simulator_impl.hpp"

namespace RVO {

// ---- Obstacles ------------------------------------------------------------------------------

orca::Roadmap::Limits RVOSimulator::Impl::visibilityLimits() {
    orca::Roadmap::Limits limits;
    limits.maxVertices = std::numeric_limits<std::size_t>::max();
    limits.fullGraphNodes = 0;   // bounded graph: linear in the nodes
    limits.sectorNeighbours = 1; // the fewest edge tests (the graph is never used)
    limits.maxCacheBytes = 0;
    return limits;
}

const VertexMirror& RVOSimulator::Impl::vertex(std::size_t vertexNo, const char* function) const {
    if (vertexNo >= vertices.size())
        throw std::out_of_range(
            message(function, "no obstacle vertex number " + std::to_string(vertexNo) +
                                  " (there are " + std::to_string(vertices.size()) + " vertices)"));
    return vertices[vertexNo];
}

std::size_t RVOSimulator::addObstacle(const std::vector<Vector2>& vertices) {
    if (vertices.size() < 2) return RVO_ERROR; // RVO2's documented answer
    std::vector<orca::Vec2> polygon;
    polygon.reserve(vertices.size());
    for (const Vector2& v : vertices)
        polygon.push_back(toDouble(v));
    // The core's own check (orca::checkPolygon), so that processObstacles() cannot fail later.
    const orca::PolygonCheck check = orca::checkPolygon(polygon);
    if (!check.valid)
        throw std::invalid_argument(message("addObstacle", "invalid polygon: " + check.error));
    if (check.clockwise)
        throw std::invalid_argument(message(
            "addObstacle", "the vertices are in clockwise order; RVO2 takes that as an "
                           "inside-out (bounding) obstacle, which this core does not have: list "
                           "them counter-clockwise, or build the boundary from counter-clockwise "
                           "polygons or two-vertex walls (docs/rvo2.md)"));

    Impl& s = *impl_;
    const std::size_t first = s.vertices.size();
    const std::size_t n = vertices.size();
    s.polygons.push_back(std::move(polygon));
    s.polygonFirstVertex.push_back(first);
    for (std::size_t k = 0; k < n; ++k) {
        VertexMirror m;
        m.point = vertices[k];
        m.next = first + (k + 1) % n;
        m.prev = first + (k + n - 1) % n;
        s.vertices.push_back(m);
    }
    return first;
}

void RVOSimulator::processObstacles() {
    Impl& s = *impl_;
    if (s.processedPolygons == s.polygons.size()) return;
    // The visibility index of every processed polygon first (it cannot fail for polygons that
    // passed checkPolygon; if it did, nothing would have changed).
    orca::Roadmap visibility(Impl::visibilityLimits());
    std::string error;
    if (!visibility.build(s.polygons, 1.0, &error))
        throw std::runtime_error(message("processObstacles", error));
    s.keepStepConfiguration();
    const std::span<const std::vector<orca::Vec2>> added(s.polygons.data() + s.processedPolygons,
                                                         s.polygons.size() - s.processedPolygons);
    const std::vector<orca::ObstacleId> ids = s.sim.addObstacles(added);
    for (std::size_t k = 0; k < ids.size(); ++k) {
        if (ids[k].slot >= s.firstVertexBySlot.size())
            s.firstVertexBySlot.resize(ids[k].slot + std::size_t{1}, 0);
        s.firstVertexBySlot[ids[k].slot] = s.polygonFirstVertex[s.processedPolygons + k];
    }
    s.processedPolygons = s.polygons.size();
    s.visibility = std::move(visibility);
}

std::size_t RVOSimulator::getNumObstacleVertices() const {
    return impl_->vertices.size();
}

const Vector2& RVOSimulator::getObstacleVertex(std::size_t vertexNo) const {
    return impl_->vertex(vertexNo, "getObstacleVertex").point;
}

std::size_t RVOSimulator::getNextObstacleVertexNo(std::size_t vertexNo) const {
    return impl_->vertex(vertexNo, "getNextObstacleVertexNo").next;
}

std::size_t RVOSimulator::getPrevObstacleVertexNo(std::size_t vertexNo) const {
    return impl_->vertex(vertexNo, "getPrevObstacleVertexNo").prev;
}

bool RVOSimulator::queryVisibility(const Vector2& point1, const Vector2& point2) const {
    requireFinite(point1, "queryVisibility", "point1");
    requireFinite(point2, "queryVisibility", "point2");
    return impl_->visibility.visible(toDouble(point1), toDouble(point2), 0.0);
}

bool RVOSimulator::queryVisibility(const Vector2& point1, const Vector2& point2,
                                   float radius) const {
    requireFinite(point1, "queryVisibility", "point1");
    requireFinite(point2, "queryVisibility", "point2");
    requireFinite(radius, "queryVisibility", "the radius");
    if (radius < 0.0F)
        throw std::invalid_argument(
            message("queryVisibility",
                    "the radius must be >= 0 (radius = " + std::to_string(radius) + ")"));
    return impl_->visibility.visible(toDouble(point1), toDouble(point2), radius);
}

// ---- The last step's decisions ------------------------------------------------------------

const StepRecords& RVOSimulator::Impl::stepRecords() const {
    if (recordsReady.load(std::memory_order_acquire)) return records;
    const std::lock_guard<std::mutex> lock(recordsMutex);
    if (!recordsReady.load(std::memory_order_relaxed)) {
        computeRecords();
        recordsReady.store(true, std::memory_order_release);
    }
    return records;
}

void RVOSimulator::Impl::computeRecords() const {
    records = StepRecords{};
    records.agentOffset.push_back(0);
    records.obstacleOffset.push_back(0);
    records.lineOffset.push_back(0);
    if (!lastStep.valid) return;

    // The simulator as the step found it: its configuration (kept if it changed since), with
    // the positions, velocities and preferred velocities the step read. A dry run (explain)
    // of that state makes exactly the step's decisions.
    orca::SimulatorState state = lastStep.configuration ? *lastStep.configuration : sim.snapshot();
    if (state.agentCount() != lastStep.position.size())
        throw std::logic_error("RVO::RVOSimulator: the last step's input lost track of the agents");
    state.position = lastStep.position;
    state.velocity = lastStep.velocity;
    auto config = std::make_shared<orca::SimulatorState::Config>(*state.config);
    config->prefVelocity = lastStep.prefVelocity;
    state.config = config;
    orca::Simulator replay;
    replay.restore(state);
    const std::vector<orca::ExplainRecord> decisions = replay.explain(config->ids);

    for (const orca::ExplainRecord& rec : decisions) {
        for (const orca::ExplainAgentNeighbor& n : rec.agentNeighbors)
            records.agentNeighbors.push_back(*replay.indexOf(n.id));
        for (const orca::ExplainObstacleNeighbor& n : rec.obstacleNeighbors)
            records.obstacleNeighbors.push_back(firstVertexBySlot[n.obstacle.slot] + n.segment);
        for (const orca::ExplainLine& l : rec.lines) {
            Line line;
            line.point = toFloat(l.line.point);
            line.direction = toFloat(l.line.direction);
            records.lines.push_back(line);
        }
        records.agentOffset.push_back(records.agentNeighbors.size());
        records.obstacleOffset.push_back(records.obstacleNeighbors.size());
        records.lineOffset.push_back(records.lines.size());
    }
}

namespace {

/// Entry `k` of agent `agentNo`'s part [offset[agentNo], offset[agentNo + 1]) of `list`, or
/// std::out_of_range naming `function` and `what` ("agent neighbour"...).
template <class T>
const T& entry(const std::vector<std::size_t>& offset, const std::vector<T>& list,
               std::size_t agentNo, std::size_t k, const char* function, const char* what) {
    const std::size_t count =
        agentNo + 1 < offset.size() ? offset[agentNo + 1] - offset[agentNo] : 0;
    if (k >= count)
        throw std::out_of_range(message(function, std::string("agent ") + std::to_string(agentNo) +
                                                      " had " + std::to_string(count) + " " + what +
                                                      "(s) in the last step; there is no number " +
                                                      std::to_string(k)));
    return list[offset[agentNo] + k];
}

std::size_t count(const std::vector<std::size_t>& offset, std::size_t agentNo) {
    return agentNo + 1 < offset.size() ? offset[agentNo + 1] - offset[agentNo] : 0;
}

} // namespace

std::size_t RVOSimulator::getAgentAgentNeighbor(std::size_t agentNo, std::size_t neighborNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentAgentNeighbor");
    const StepRecords& r = impl_->stepRecords();
    return entry(r.agentOffset, r.agentNeighbors, i, neighborNo, "getAgentAgentNeighbor",
                 "agent neighbour");
}

std::size_t RVOSimulator::getAgentObstacleNeighbor(std::size_t agentNo,
                                                   std::size_t neighborNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentObstacleNeighbor");
    const StepRecords& r = impl_->stepRecords();
    return entry(r.obstacleOffset, r.obstacleNeighbors, i, neighborNo, "getAgentObstacleNeighbor",
                 "obstacle neighbour");
}

const Line& RVOSimulator::getAgentORCALine(std::size_t agentNo, std::size_t lineNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentORCALine");
    const StepRecords& r = impl_->stepRecords();
    return entry(r.lineOffset, r.lines, i, lineNo, "getAgentORCALine", "ORCA line");
}

std::size_t RVOSimulator::getAgentNumAgentNeighbors(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentNumAgentNeighbors");
    return count(impl_->stepRecords().agentOffset, i);
}

std::size_t RVOSimulator::getAgentNumObstacleNeighbors(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentNumObstacleNeighbors");
    return count(impl_->stepRecords().obstacleOffset, i);
}

std::size_t RVOSimulator::getAgentNumORCALines(std::size_t agentNo) const {
    const std::size_t i = impl_->agent(agentNo, "getAgentNumORCALines");
    return count(impl_->stepRecords().lineOffset, i);
}

} // namespace RVO
