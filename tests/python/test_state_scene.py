"""orca.Simulator's snapshots (restore continues bit for bit, events included) and scene files
(from_scene with the loader's precise errors, save_scene written atomically and loaded back)."""

import json
import os
import warnings

import numpy as np
import pytest

import orca
from support import SCENES, run_cli


def run(sim, steps):
    """The trajectory of `steps` steps: positions and velocities after each."""
    out = []
    for _ in range(steps):
        sim.step()
        out.append((sim.positions, sim.velocities))
    return out


def same_bits(a, b):
    return all(np.array_equal(p, q) and np.array_equal(v, w) and
               p.tobytes() == q.tobytes() and v.tobytes() == w.tobytes()
               for (p, v), (q, w) in zip(a, b)) and len(a) == len(b)


def test_restore_continues_bit_for_bit_with_the_same_events():
    sim = orca.Simulator.from_scene(SCENES / "dense_convergence.json")
    sim.step(60)
    state = sim.snapshot()
    assert (state.step_count, state.agent_count) == (60, len(sim))
    assert state.time == sim.time
    first = run(sim, 120)
    events = sim.events()
    hash_first = sim.state_hash()
    sim.restore(state)
    assert sim.step_count == 60
    second = run(sim, 120)
    assert same_bits(first, second)
    assert sim.state_hash() == hash_first
    assert sim.events() == events
    # The whole run's events are the CLI's for 180 steps, across the restore.
    assert events == run_cli("events", str(SCENES / "dense_convergence.json"), "--steps", "180")


def test_a_state_restores_into_another_simulator_and_after_edits():
    a = orca.Simulator.from_scene(SCENES / "routes_doorway.json")
    a.step(30)
    state = a.snapshot()
    expected = run(a, 50)
    b = orca.Simulator()  # empty, other parameters
    b.add_agent((0, 0))
    b.restore(state)
    assert len(b) == len(a) and b.obstacle_count == a.obstacle_count
    assert same_bits(run(b, 50), expected)
    # Edits after a snapshot are undone by restoring it.
    a.restore(state)
    a.positions = a.positions + 0.5
    a.add_agent((100, 100))
    a.restore(state)
    assert same_bits(run(a, 50), expected)
    with pytest.raises(TypeError):
        a.restore(None)
    with pytest.raises(TypeError):
        orca.State()


def test_save_scene_then_load_it_back_continues_bit_for_bit(tmp_path):
    sim = orca.Simulator.from_scene(SCENES / "routes_doorway.json")
    sim.step(40)
    path = tmp_path / "saved.json"
    sim.save_scene(path)
    text = json.loads(path.read_text())
    original = json.loads((SCENES / "routes_doorway.json").read_text())
    assert text["name"] == original["name"] and text["agentDefaults"] == original["agentDefaults"]
    loaded = orca.Simulator.from_scene(str(path))
    assert (loaded.step_count, loaded.time) == (40, sim.time)
    assert np.array_equal(loaded.positions, sim.positions)
    assert same_bits(run(loaded, 60), run(sim, 60))
    # `orca validate` accepts it.
    assert run_cli_ok("validate", str(path))


def run_cli_ok(*args):
    import subprocess
    from support import orca_cli
    return subprocess.run([orca_cli(), *args], capture_output=True).returncode == 0


def test_save_scene_of_a_simulator_built_from_code(tmp_path):
    sim = orca.Simulator(0.1, radius=0.5, max_speed=1.5, threads=2)
    sim.add_agent((0, 0), goal=(10, 0), waypoints=[(5, 2)], radius=0.75)
    sim.add_agent((10, 0), pref_velocity=(-1, 0))
    sim.add_agent((5, -3), static=True)
    sim.add_obstacle([(4, 4), (6, 4), (5, 6)])
    sim.step(25)
    sim.save_scene(tmp_path / "code.json")
    scene = json.loads((tmp_path / "code.json").read_text())
    assert scene["name"] == "Python program"
    assert scene["agentDefaults"]["radius"] == 0.5
    assert scene["agents"][0]["radius"] == 0.75 and scene["agents"][0]["waypoints"] == [[5, 2]]
    assert scene["agents"][1]["prefVelocity"] == [-1, 0]
    assert scene["agents"][2]["static"] is True
    loaded = orca.Simulator.from_scene(tmp_path / "code.json")
    assert same_bits(run(loaded, 30), run(sim, 30))


def test_save_scene_errors_leave_the_old_file(tmp_path):
    sim = orca.Simulator()
    sim.add_agent((0, 0))
    path = tmp_path / "keep.json"
    sim.save_scene(path)
    before = path.read_bytes()
    sim.positions = np.array([[2e7, 0.0]])  # beyond the scene format's ±1e7
    with pytest.raises(orca.SceneError) as error:
        sim.save_scene(path)
    assert isinstance(error.value, ValueError)
    assert path.read_bytes() == before
    assert error.value.json_path == "agents[0].position[0]"
    assert sorted(os.listdir(tmp_path)) == ["keep.json"]  # no temporary file left
    sim.positions = np.array([[1.0, 2.0]])
    with pytest.raises(orca.SceneError, match="cannot"):
        sim.save_scene(tmp_path / "no" / "such" / "folder.json")
    with pytest.raises(TypeError):
        sim.save_scene(None)


def test_from_scene_errors_name_the_file_and_the_json_path(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(orca.SceneError) as error:
        orca.Simulator.from_scene(missing)
    assert str(missing) in str(error.value) and error.value.file == str(missing)

    syntax = tmp_path / "syntax.json"
    syntax.write_text('{\n  "format": "orca-scene",\n  "version": 1,\n  "agents": [,]\n}\n')
    with pytest.raises(orca.SceneError) as error:
        orca.Simulator.from_scene(syntax)
    assert error.value.line == 4 and error.value.column > 0
    assert str(error.value).startswith(f"{syntax}:4:")

    scene = json.loads((SCENES / "head_on.json").read_text())
    scene["agents"][1]["radius"] = -2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(scene))
    with pytest.raises(ValueError) as error:  # orca.SceneError is a ValueError
        orca.Simulator.from_scene(bad)
    assert isinstance(error.value, orca.SceneError)
    assert error.value.json_path == "agents[1].radius"
    assert "agents[1].radius" in str(error.value) and error.value.message
    with pytest.raises(orca.SceneError):
        orca.Simulator.from_scene(tmp_path)  # a folder
    with pytest.raises(orca.SceneError, match="<mine>"):
        orca.Simulator.from_scene_text("[]", name="<mine>")
    with pytest.raises(TypeError):
        orca.Simulator.from_scene(None)


def test_loader_warnings_are_python_warnings():
    scene = json.loads((SCENES / "head_on.json").read_text())
    scene["obstacles"] = [{"vertices": [[0, 5], [0, 6], [1, 5]]}]  # clockwise: reversed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sim = orca.Simulator.from_scene_text(json.dumps(scene), name="cw.json")
    assert sim.obstacle_count == 1
    assert any("cw.json: warning: at obstacles[0]" in str(w.message) for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            orca.Simulator.from_scene_text(json.dumps(scene), name="cw.json")
