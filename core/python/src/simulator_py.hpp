#pragma once
// The state behind orca.Simulator and orca.State (docs/python.md): the core simulator, what a
// scene file says beyond the simulator (name, agent defaults, user ids) so that save_scene
// writes it back, the event detector run as `orca events` runs it, and a recording.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bindings.hpp"
#include "orca/events.hpp"
#include "orca/parameters.hpp"
#include "orca/scene/recording_session.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"
#include "orca/types.hpp"

namespace orca::python {

/// What a scene holds that the simulator does not; fixed when the simulator is made (shared
/// by its snapshots).
struct SceneInfo {
    std::string name = "Python program";
    std::string description = "Saved by orca.Simulator.save_scene";
    AgentParams agentDefaults;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();
    /// The user ids of the scene's agents and obstacles (index = position in the file, which
    /// is the simulator's order: agents are never removed, new ones come after).
    std::vector<std::optional<nlohmann::json>> agentIds;
    std::vector<std::optional<nlohmann::json>> obstacleIds;
};

/// Events as `orca events` finds them: the detector starts on the state before the first
/// step (or the first events() call) and observes every step after it.
struct EventLog {
    bool enabled = true;
    bool started = false;
    EventDetector detector;
    std::vector<Event> events;

    /// Starts the detector on `sim` unless running.
    void start(const Simulator& sim);
};

/// One orca.Simulator.
struct PySimulator {
    Simulator sim;
    std::shared_ptr<const SceneInfo> info = std::make_shared<SceneInfo>();
    EventLog log;
    bool busy = false; ///< a step runs without the GIL (BusyGuard)
    /// start_recording's recording (null when not recording).
    std::unique_ptr<scene::RecordingSession> recording;

    PySimulator() = default;
    PySimulator(const PySimulator&) = delete;
    PySimulator& operator=(const PySimulator&) = delete;
    /// A recording not stopped is finished here, as PyRVOSimulator's is (a failure then is
    /// lost: stop_recording reports it).
    ~PySimulator();

    /// The agent at index `value` (IndexError when there is none).
    [[nodiscard]] std::size_t agentIndex(py::handle value) const;
    /// Agents, obstacles or parameters changed, or a state was restored: a recording writes a
    /// scene record before the next step.
    void configurationChanged() {
        if (recording) recording->configurationChanged();
    }
    /// Positions or velocities were set: a recording writes the state before the next step.
    void stateChanged() {
        if (recording) recording->stateChanged();
    }
    /// Steps once, recording the step when recording (call without the GIL). A recording that
    /// cannot be written is abandoned (the target file stays as it was) and its SceneError
    /// thrown after the step.
    void step();
};

/// One orca.State: a snapshot with the events detected up to it.
struct PyState {
    SimulatorState state;
    std::shared_ptr<const SceneInfo> info;
    EventLog log;
};

/// The Python keyword of a parameter (parameters.hpp): its name in snake case, detour rows
/// prefixed "detour_" ("timeStep" → "time_step", "cellSize" → "detour_cell_size").
[[nodiscard]] std::string keywordOf(const ParamRow& row);
/// Sets `row` in `simulation` or `agent` from a Python value: TypeError for a value of the
/// wrong type, ValueError (the Simulator's message) for one out of range. Integer values above
/// 2^31 - 1 count as 2^31 - 1 (maxNeighbors: all).
void setParam(const ParamRow& row, py::handle value, SimulationParams& simulation,
              AgentParams& agent);
/// The Python value of `row` (float, int or bool).
[[nodiscard]] py::object paramValue(const ParamRow& row, const SimulationParams& simulation,
                                    const AgentParams& agent);
/// TypeError for a keyword that is not in `valid`, listing them.
[[noreturn]] void unknownKeyword(const std::string& function, const std::string& keyword,
                                 const std::vector<std::string>& valid);

/// The simulator's current state as a scene: the scene it was loaded from (name, agent
/// defaults, ids, extra blocks) with every agent and obstacle as the simulator holds it now
/// (save_scene, the recordings' scene records; simulator_scene.cpp).
[[nodiscard]] scene::Scene sceneOf(const PySimulator& s);

/// The Simulator class's array accessors, agents and obstacles (simulator_arrays.cpp).
void bindArrays(py::class_<PySimulator>& cls);
/// from_scene, from_scene_text and save_scene (simulator_scene.cpp).
void bindScene(py::class_<PySimulator>& cls);
/// start_recording, stop_recording, is_recording; orca.load_recording, orca.Recording and
/// orca.RecordingFrame (simulator_recording.cpp).
void bindRecording(py::module_& m, py::class_<PySimulator>& cls);

} // namespace orca::python
