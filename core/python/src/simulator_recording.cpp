// orca.Simulator's recordings (docs/recording-format.md): start_recording / stop_recording /
// is_recording over scene::RecordingSession (the rule of scene records and frames the RVO2 face
// follows too), and orca.load_recording, a recording read back as NumPy arrays.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl/filesystem.h>

#include "orca/scene/recording.hpp"
#include "simulator_py.hpp"

namespace orca::python {

namespace {

/// The preferred velocities the next step will use (the goal or route, deadlock breaking's
/// turn), as `orca run --recording` records them.
std::vector<Vec2> nextPrefVelocities(const Simulator& sim) {
    std::vector<Vec2> v(sim.agentCount());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = sim.prefVelocityAt(i);
    return v;
}

scene::RecordingEncoding encodingOf(py::handle value) {
    if (!PyUnicode_Check(value.ptr()))
        throw py::type_error("encoding must be a string, not " + typeName(value));
    const std::string name = value.cast<std::string>();
    if (name == "float64") return scene::RecordingEncoding::Float64;
    if (name == "float32") return scene::RecordingEncoding::Float32;
    throw py::value_error("encoding must be \"float64\" or \"float32\", not \"" + name + "\"");
}

void stopRecording(PySimulator& s) {
    if (!s.recording) return;
    // Out of the simulator first: a recording that cannot be put in place is abandoned.
    const std::unique_ptr<scene::RecordingSession> session = std::move(s.recording);
    session->finish();
}

/// A recording that cannot be written any more is abandoned (the target stays as it was),
/// never left half-written: the error, saying so.
[[noreturn]] void abandon(std::unique_ptr<scene::RecordingSession>& recording,
                          const scene::SceneError& e) {
    recording.reset();
    throw scene::SceneError(e.file(), e.jsonPath(), e.line(), e.column(),
                            e.message() + " (the recording is abandoned; " + e.file() +
                                " is unchanged)");
}

// ---- orca.load_recording ----------------------------------------------------------------------

struct PyRecordingFrame {
    std::uint64_t step = 0;
    double time = 0.0;
    std::size_t scene = 0;
    py::array_t<double> positions;
    py::array_t<double> velocities;
    py::array_t<double> prefVelocities;
};

struct PyRecording {
    std::string file;
    std::string encoding;
    bool truncated = false;
    py::tuple scenes;
    py::tuple frames;
    std::vector<const PyRecordingFrame*> framePtrs; ///< the frames' C++ objects, in order
};

/// Points as a new read-only (n, 2) float64 array.
py::array_t<double> readOnlyArray(const std::vector<Vec2>& points) {
    py::array_t<double> a({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* out = a.mutable_data();
    for (std::size_t i = 0; i < points.size(); ++i) {
        out[2 * i] = points[i].x;
        out[2 * i + 1] = points[i].y;
    }
    a.attr("setflags")(py::arg("write") = false);
    return a;
}

/// The frames' arrays `member` stacked into a new (frames, n, 2) array; ValueError when the
/// frames have different agent counts.
py::array_t<double> stacked(const PyRecording& r, py::array_t<double> PyRecordingFrame::*member,
                            const char* what) {
    const std::size_t count = r.framePtrs.size();
    const std::size_t n =
        count == 0 ? 0 : static_cast<std::size_t>((r.framePtrs.front()->*member).shape(0));
    for (const PyRecordingFrame* f : r.framePtrs)
        if (static_cast<std::size_t>((f->*member).shape(0)) != n)
            throw py::value_error(std::string(what) + ": the frames have different agent counts (" +
                                  std::to_string(n) + " in the first, " +
                                  std::to_string((f->*member).shape(0)) + " in the frame of step " +
                                  std::to_string(f->step) +
                                  "): read them frame by frame (frames[k]." + what + ")");
    py::array_t<double> a(
        {static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(n), py::ssize_t{2}});
    double* out = a.mutable_data();
    for (std::size_t k = 0; k < count; ++k)
        if (n > 0)
            std::memcpy(out + 2 * n * k, (r.framePtrs[k]->*member).data(), 2 * n * sizeof(double));
    return a;
}

const char* const kRecordingDoc = R"(A recording read back (``orca.load_recording(path)``).

``scenes``: each scene record as scene JSON text (``Simulator.from_scene_text`` loads
one); ``frames``: the recorded states in file order (orca.RecordingFrame: step, time,
scene, positions, velocities, pref_velocities). ``steps``, ``times``, ``positions``,
``velocities`` and ``pref_velocities`` stack the frames into arrays (the last three of
shape (frames, n, 2), when every frame has the same agents).
)";

const char* const kFrameDoc = R"(One recorded state (docs/recording-format.md).

The state after step ``step`` and the preferred velocities that step used (for step 0,
or a second frame of the same step — a state edited before the next step — the ones the
next step was to use). ``scene`` is the index in Recording.scenes of the configuration
its agents have. The arrays are read-only, float64, shape (n, 2), row i for agent i.
)";

} // namespace

// ---- PySimulator's recording (simulator_py.hpp) -----------------------------------------------

PySimulator::~PySimulator() {
    if (!recording) return;
    try {
        recording->finish();
    } catch (...) {
    }
}

void PySimulator::step() {
    if (!recording) {
        sim.step();
        return;
    }
    const std::vector<Vec2> prefs = nextPrefVelocities(sim);
    try {
        recording->beforeStep(sim, prefs, [this] { return sceneOf(*this); });
    } catch (const scene::SceneError& e) {
        abandon(recording, e);
    } catch (...) {
        recording.reset();
        throw;
    }
    sim.step();
    try {
        recording->afterStep(sim, prefs);
    } catch (const scene::SceneError& e) {
        abandon(recording, e);
    } catch (...) {
        recording.reset();
        throw;
    }
}

// ---- Bindings ---------------------------------------------------------------------------------

void bindRecording(py::module_& m, py::class_<PySimulator>& cls) {
    cls.def(
        "start_recording",
        [](PySimulator& s, const std::filesystem::path& path, py::object encoding) {
            requireIdle(s.busy, "start_recording");
            const scene::RecordingEncoding e = encodingOf(encoding);
            stopRecording(s); // (as PyRVOSimulator.startRecording: the old one is finished)
            s.recording = std::make_unique<scene::RecordingSession>(path, e, sceneOf(s), s.sim,
                                                                    nextPrefVelocities(s.sim));
        },
        py::arg("path"), py::arg("encoding") = "float64",
        R"(Records the run from now on into ``path`` (str or os.PathLike), an ORCA Sandbox
recording (docs/recording-format.md; ``orca.load_recording`` and ``orca recording FILE``
read it): the scene, then a frame per step — each agent's position and velocity after
the step and the preferred velocity the step used. Frame 0 is the state now.

Changes between steps are recorded before the next step: adding agents or obstacles,
setting ``time_step``, ``restore``, or assigning ``pref_velocities`` to agents that had
goals write a new scene record; assigning ``positions`` or ``velocities`` writes a frame
of the edited state (with the step number of the frame before it).

``encoding``: "float64" (default; exact: the simulator's doubles) or "float32" (half
the size, rounded). The file appears, whole, at stop_recording — or when the
Simulator is garbage-collected, as PyRVOSimulator's recordings do (an error then is
lost); until then an older file of that name stays as it was. Recording again finishes
the current recording first. orca.SceneError (a ValueError) naming the file when it
cannot be written; a step whose frame cannot be written abandons the recording (the
file stays as it was) and raises it.)");
    cls.def(
        "stop_recording",
        [](PySimulator& s) {
            requireIdle(s.busy, "stop_recording");
            stopRecording(s);
        },
        R"(Finishes the recording and puts the file in place (nothing when not recording).
orca.SceneError when that fails; the recording is over either way.)");
    cls.def_property_readonly(
        "is_recording",
        [](const PySimulator& s) {
            requireIdle(s.busy, "is_recording");
            return s.recording != nullptr;
        },
        "True between start_recording and stop_recording.");

    py::class_<PyRecordingFrame> frame(m, "RecordingFrame", kFrameDoc);
    frame.def_readonly("step", &PyRecordingFrame::step, "The step count of the state.");
    frame.def_readonly("time", &PyRecordingFrame::time, "Simulated time of the state (s).");
    frame.def_readonly("scene", &PyRecordingFrame::scene,
                       "Index in Recording.scenes of the frame's configuration.");
    frame.def_readonly("positions", &PyRecordingFrame::positions,
                       "Positions (world units), shape (n, 2).");
    frame.def_readonly("velocities", &PyRecordingFrame::velocities,
                       "Velocities (units/s), shape (n, 2).");
    frame.def_readonly("pref_velocities", &PyRecordingFrame::prefVelocities,
                       "Preferred velocities the step used (units/s), shape (n, 2).");
    frame.def("__repr__", [](const PyRecordingFrame& f) {
        return "<orca.RecordingFrame: step " + std::to_string(f.step) + ", " +
               std::to_string(f.positions.shape(0)) + " agents>";
    });

    py::class_<PyRecording> rec(m, "Recording", kRecordingDoc);
    rec.def_readonly("file", &PyRecording::file, "The file read.");
    rec.def_readonly("encoding", &PyRecording::encoding,
                     "How the frames store numbers: \"float64\" or \"float32\".");
    rec.def_readonly("truncated", &PyRecording::truncated,
                     "The file ended inside a record (a program killed while recording); the "
                     "records before it were read.");
    rec.def_readonly("scenes", &PyRecording::scenes,
                     "The scene records as scene JSON text, in file order (a tuple of str).");
    rec.def_readonly("frames", &PyRecording::frames,
                     "The frames in file order (a tuple of orca.RecordingFrame).");
    rec.def(
        "__len__", [](const PyRecording& r) { return r.framePtrs.size(); },
        "The number of frames.");
    rec.def_property_readonly(
        "steps",
        [](const PyRecording& r) {
            py::array_t<std::uint64_t> a(static_cast<py::ssize_t>(r.framePtrs.size()));
            for (std::size_t k = 0; k < r.framePtrs.size(); ++k)
                a.mutable_data()[k] = r.framePtrs[k]->step;
            return a;
        },
        "Each frame's step count: a new uint64 array of shape (frames,).");
    rec.def_property_readonly(
        "times",
        [](const PyRecording& r) {
            py::array_t<double> a(static_cast<py::ssize_t>(r.framePtrs.size()));
            for (std::size_t k = 0; k < r.framePtrs.size(); ++k)
                a.mutable_data()[k] = r.framePtrs[k]->time;
            return a;
        },
        "Each frame's simulated time (s): a new float64 array of shape (frames,).");
    rec.def_property_readonly(
        "positions",
        [](const PyRecording& r) { return stacked(r, &PyRecordingFrame::positions, "positions"); },
        "Every frame's positions: a new array of shape (frames, n, 2) (ValueError when the "
        "recording's agent count changes: read frames[k].positions).");
    rec.def_property_readonly(
        "velocities",
        [](const PyRecording& r) {
            return stacked(r, &PyRecordingFrame::velocities, "velocities");
        },
        "Every frame's velocities: a new array of shape (frames, n, 2) (as positions).");
    rec.def_property_readonly(
        "pref_velocities",
        [](const PyRecording& r) {
            return stacked(r, &PyRecordingFrame::prefVelocities, "pref_velocities");
        },
        "Every frame's preferred velocities: a new array of shape (frames, n, 2) (as "
        "positions).");
    rec.def("__repr__", [](const PyRecording& r) {
        return "<orca.Recording: " + std::to_string(r.framePtrs.size()) + " frames, " +
               std::to_string(r.scenes.size()) + " scenes, " + r.encoding + ">";
    });

    m.def(
        "load_recording",
        [](const std::filesystem::path& path) {
            std::optional<scene::Recording> loaded;
            {
                py::gil_scoped_release release;
                loaded = scene::loadRecording(path);
            }
            PyRecording r;
            r.file = path.string();
            r.encoding =
                loaded->encoding == scene::RecordingEncoding::Float32 ? "float32" : "float64";
            r.truncated = loaded->truncated;
            py::tuple scenes(loaded->scenes.size());
            for (std::size_t k = 0; k < loaded->scenes.size(); ++k)
                scenes[k] = py::str(scene::serializeScene(loaded->scenes[k]));
            r.scenes = std::move(scenes);
            py::tuple frames(loaded->frames.size());
            r.framePtrs.reserve(loaded->frames.size());
            for (std::size_t k = 0; k < loaded->frames.size(); ++k) {
                scene::RecordingFrame& f = loaded->frames[k];
                PyRecordingFrame out;
                out.step = f.step;
                out.time = f.time;
                out.scene = f.scene;
                out.positions = readOnlyArray(f.position);
                out.velocities = readOnlyArray(f.velocity);
                out.prefVelocities = readOnlyArray(f.prefVelocity);
                py::object object = py::cast(std::move(out));
                r.framePtrs.push_back(object.cast<const PyRecordingFrame*>());
                frames[k] = std::move(object);
            }
            r.frames = std::move(frames);
            return r;
        },
        py::arg("path"),
        R"(Reads the recording at ``path`` (str or os.PathLike; docs/recording-format.md) whole
and returns an orca.Recording: its scene records as scene JSON text and its frames as
NumPy arrays, numbers exactly as written. orca.SceneError naming the file, the byte
offset and what was expected when it is not a recording or is broken; a file cut short
(a program killed while recording) reads up to its last whole record, with
``truncated`` set.)");
}

} // namespace orca::python
