"""orca.Simulator.start_recording / stop_recording and orca.load_recording
(docs/recording-format.md): a run recorded from Python holds the simulator's states exactly (as
load_recording and `orca recording --csv` read them back), configuration changes write new
scene records, edited states get frames of their own, and every recorded step is ORCA's answer
to the recorded state before it."""

import csv
import gc
import json
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import orca
from support import SCENES, run_cli


def same_bits(a, b) -> bool:
    """Exactly the same float64 values, -0.0 and 0.0 told apart."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def circle(n=12, radius=10.0):
    """n agents on a circle, driven from Python toward the antipodes (as RVO2 programs do)."""
    sim = orca.Simulator(0.25, radius=0.6, max_speed=1.5, neighbor_dist=8, time_horizon=4)
    angles = 2 * math.pi * np.arange(n) / n
    start = radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    for p in start:
        sim.add_agent(p)
    return sim, -start


def steer(sim, goals):
    """Unit preferred velocities toward the goals (slower when close)."""
    d = goals[:len(sim)] - sim.positions
    norm = np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1.0)
    sim.pref_velocities = d / norm
    return sim.pref_velocities


def state(sim, prefs):
    return sim.step_count, sim.time, sim.positions, sim.velocities, prefs


def check_frames(rec, expected):
    assert len(rec) == len(expected)
    for k, (frame, (step, time, p, v, pv)) in enumerate(zip(rec.frames, expected)):
        assert frame.step == step and frame.time == time, k
        assert same_bits(frame.positions, p), k
        assert same_bits(frame.velocities, v), k
        assert same_bits(frame.pref_velocities, pv), k


def test_a_recorded_run_holds_the_simulators_states_exactly(tmp_path):
    sim, goals = circle()
    prefs = steer(sim, goals)
    path = tmp_path / "run.orcarec"
    assert not sim.is_recording
    sim.start_recording(path)
    assert sim.is_recording
    expected = [state(sim, prefs)]
    for _ in range(40):
        prefs = steer(sim, goals)
        sim.step()
        expected.append(state(sim, prefs))
    assert not path.exists()  # nothing in place while recording
    sim.stop_recording()
    assert not sim.is_recording
    sim.step()  # not recorded
    sim.stop_recording()  # nothing to stop

    rec = orca.load_recording(path)
    assert rec.encoding == "float64" and not rec.truncated and rec.file == str(path)
    assert len(rec.scenes) == 1 and len(rec) == 41
    check_frames(rec, expected)
    assert list(rec.steps) == list(range(41)) and rec.steps.dtype == np.uint64
    assert same_bits(rec.times, [e[1] for e in expected])
    assert rec.positions.shape == (41, 12, 2)
    assert same_bits(rec.positions, np.stack([e[2] for e in expected]))
    assert same_bits(rec.velocities, np.stack([e[3] for e in expected]))
    assert same_bits(rec.pref_velocities, np.stack([e[4] for e in expected]))
    frame = rec.frames[3]
    assert frame.scene == 0 and not frame.positions.flags.writeable
    assert repr(frame) == "<orca.RecordingFrame: step 3, 12 agents>"
    # The scene record is the simulator's scene at the start (save_scene's content).
    start = orca.Simulator.from_scene_text(rec.scenes[0])
    assert len(start) == 12 and start.step_count == 0
    assert same_bits(start.positions, expected[0][2])

    # The CLI reads the same numbers: `orca recording FILE --csv` writes them exactly.
    out = tmp_path / "run.csv"
    summary = run_cli("recording", str(path), "--csv", str(out))
    assert summary["encoding"] == "float64" and summary["scenes"] == 1
    assert summary["frames"] == 41 and summary["agents"] == 12
    assert summary["firstStep"] == 0 and summary["lastStep"] == 40
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 41 * 12
    for row in rows:
        step, agent = int(row["step"]), int(row["agent"])
        _, _, p, v, pv = expected[step]
        numbers = [float(row[k]) for k in ("x", "y", "vx", "vy", "pvx", "pvy")]
        assert same_bits(numbers, [*p[agent], *v[agent], *pv[agent]])


def test_goals_record_the_preferred_velocities_the_steps_used(tmp_path):
    # Agents with goals: the simulator computes each step's preferred velocity; the frame
    # holds the one pref_velocities showed before the step (as `orca run --recording`).
    sim = orca.Simulator.from_scene(SCENES / "crossing.json")
    path = tmp_path / "crossing.orcarec"
    sim.start_recording(path, encoding="float64")
    expected = [state(sim, sim.pref_velocities)]
    for _ in range(30):
        prefs = sim.pref_velocities
        sim.step()
        expected.append(state(sim, prefs))
    sim.stop_recording()
    check_frames(orca.load_recording(path), expected)
    # The same run as `orca run --recording` writes it: the same frames.
    cli = tmp_path / "cli.orcarec"
    run_cli("run", str(SCENES / "crossing.json"), "--steps", "30", "--recording", str(cli))
    mine, theirs = orca.load_recording(path), orca.load_recording(cli)
    assert same_bits(mine.positions, theirs.positions)
    assert same_bits(mine.velocities, theirs.velocities)
    assert same_bits(mine.pref_velocities, theirs.pref_velocities)
    assert list(mine.steps) == list(theirs.steps)


def test_changes_between_steps_write_scene_records_and_frames(tmp_path):
    sim, goals = circle(8)
    goals = np.vstack([goals, [[0.0, -12.0]]])
    path = tmp_path / "edits.orcarec"
    prefs = steer(sim, goals)
    sim.start_recording(path)
    expected = [state(sim, prefs)]
    scenes = [0]  # each expected frame's scene record
    kept = None
    for s in range(1, 21):
        edited = True
        if s == 4:
            sim.add_agent((0.0, 12.0), radius=0.4)      # a new agent: a scene record
        elif s == 7:
            sim.add_obstacle([(-1, -1), (1, -1), (1, 1), (-1, 1)])  # an obstacle: another
        elif s == 10:
            sim.time_step = 0.125                       # a parameter: another
        elif s == 12:
            p = sim.positions
            p[0] += (0.25, -0.5)
            sim.positions = p                           # an edited state: a frame, no scene
        elif s == 14:
            v = sim.velocities
            v[1] = (0.0, 0.0)
            sim.velocities = v                          # the same
        elif s == 16:
            sim.restore(kept)                           # another state: a scene record
        else:
            edited = False
        if s == 6:
            kept = sim.snapshot()
        prefs = steer(sim, goals)
        if edited:  # the state the step starts from, with the preferred velocities it uses
            expected.append(state(sim, prefs))
            scenes.append(scenes[-1] + (0 if s in (12, 14) else 1))
        sim.step()
        expected.append(state(sim, prefs))
        scenes.append(scenes[-1])
    sim.pref_velocities = sim.pref_velocities  # constant preferred velocities: nothing to write
    sim.stop_recording()

    rec = orca.load_recording(path)
    assert len(rec.scenes) == 5  # the start, agent, obstacle, time step, restore
    check_frames(rec, expected)
    assert [f.scene for f in rec.frames] == scenes
    steps = [f.step for f in rec.frames]
    assert steps[:6] == [0, 1, 2, 3, 3, 4]  # the state before step 4, then step 4
    assert steps[-6:] == [5, 6, 7, 8, 9, 10]  # restored to step 5, stepped again
    assert [len(f.positions) for f in rec.frames][:6] == [8, 8, 8, 8, 9, 9]
    with pytest.raises(ValueError, match="different agent counts"):
        rec.positions
    assert orca.Simulator.from_scene_text(rec.scenes[2]).obstacle_count == 1
    assert orca.Simulator.from_scene_text(rec.scenes[3]).time_step == 0.125
    summary = run_cli("recording", str(path))
    assert summary["scenes"] == 5 and summary["frames"] == len(expected)


def test_pref_velocities_dropping_goals_is_a_configuration_change(tmp_path):
    sim = orca.Simulator.from_scene(SCENES / "crossing.json")
    path = tmp_path / "goals.orcarec"
    sim.start_recording(path)
    sim.step(3)
    sim.pref_velocities = np.zeros((len(sim), 2))  # the goals are gone
    sim.step(2)
    sim.stop_recording()
    rec = orca.load_recording(path)
    assert len(rec.scenes) == 2
    assert [f.step for f in rec.frames] == [0, 1, 2, 3, 3, 4, 5]
    assert all("goal" in a for a in json.loads(rec.scenes[0])["agents"])
    assert not any("goal" in a for a in json.loads(rec.scenes[1])["agents"])
    assert not rec.frames[-1].pref_velocities.any()


def replay_each_step(rec):
    """For every pair of frames (state s − 1, step s) of one scene: a Simulator made from the
    scene record, put into state s − 1 and given the preferred velocities of frame s, steps
    to frame s exactly. Returns how many steps were checked."""
    checked = 0
    for before, after in zip(rec.frames, rec.frames[1:]):
        if after.step != before.step + 1:
            continue  # (an edited state or a restore: its own frame starts the next pair)
        assert before.scene == after.scene
        sim = orca.Simulator.from_scene_text(rec.scenes[after.scene], events=False)
        sim.positions = before.positions
        sim.velocities = before.velocities
        sim.pref_velocities = after.pref_velocities
        sim.step()
        assert same_bits(sim.positions, after.positions), after.step
        assert same_bits(sim.velocities, after.velocities), after.step
        checked += 1
    return checked


def test_each_recorded_step_is_orcas_answer_to_the_state_before_it(tmp_path):
    sim, goals = circle(16, radius=6.0)
    goals = np.vstack([goals, [[3.0, 0.0]]])
    path = tmp_path / "replay.orcarec"
    sim.start_recording(path)
    for s in range(60):
        if s == 20:
            sim.add_agent((-3.0, 0.0))
        if s == 30:
            sim.add_obstacle([(-0.5, 4.0), (0.5, 4.0), (0.0, 5.0)])
        if s == 40:
            p = sim.positions
            p[2] *= 0.98
            sim.positions = p
        steer(sim, goals)
        sim.step()
    sim.stop_recording()
    rec = orca.load_recording(path)
    assert replay_each_step(rec) == 60
    # Crowded enough that ORCA had work to do: velocities differ from the preferred ones.
    assert any(not np.allclose(f.velocities, f.pref_velocities) for f in rec.frames[1:])


def test_float32_recordings_round_the_states(tmp_path):
    sim, goals = circle()
    path = tmp_path / "f32.orcarec"
    sim.start_recording(str(path), "float32")
    expected = [state(sim, sim.pref_velocities)]
    for _ in range(5):
        prefs = steer(sim, goals)
        sim.step()
        expected.append(state(sim, prefs))
    sim.stop_recording()
    rec = orca.load_recording(path)
    assert rec.encoding == "float32"
    assert path.read_bytes()[12] == 1
    for frame, (_, _, p, v, pv) in zip(rec.frames, expected):
        assert same_bits(frame.positions, p.astype(np.float32))
        assert same_bits(frame.velocities, v.astype(np.float32))
        assert same_bits(frame.pref_velocities, pv.astype(np.float32))


def test_recording_again_finishes_the_first_and_collection_finishes_the_last(tmp_path):
    sim, goals = circle(4)
    first, second = tmp_path / "first.orcarec", tmp_path / "second.orcarec"
    sim.start_recording(first)
    sim.step(3)
    sim.start_recording(second)  # as PyRVOSimulator.startRecording: the first is finished
    assert first.exists() and sim.is_recording
    assert list(orca.load_recording(first).steps) == [0, 1, 2, 3]
    sim.step(2)
    assert not second.exists()
    del sim
    gc.collect()
    assert list(orca.load_recording(second).steps) == [3, 4, 5]


def test_an_older_file_stays_until_the_recording_is_finished(tmp_path):
    path = tmp_path / "run.orcarec"
    path.write_bytes(b"old")
    sim, _ = circle(3)
    sim.start_recording(path)
    sim.step(2)
    assert path.read_bytes() == b"old"
    sim.stop_recording()
    assert len(orca.load_recording(path)) == 3


def test_errors(tmp_path):
    sim, _ = circle(3)
    bad = tmp_path / "no" / "such" / "dir.orcarec"
    with pytest.raises(orca.SceneError) as e:
        sim.start_recording(bad)
    assert isinstance(e.value, ValueError) and e.value.file == str(bad)
    assert str(bad) in str(e.value)
    assert not sim.is_recording
    sim.step()  # still fine, not recording
    with pytest.raises(ValueError, match='encoding must be "float64" or "float32"'):
        sim.start_recording(tmp_path / "x.orcarec", encoding="float16")
    with pytest.raises(TypeError, match="encoding must be a string"):
        sim.start_recording(tmp_path / "x.orcarec", encoding=64)
    with pytest.raises(TypeError):
        sim.start_recording(None)
    assert not sim.is_recording and not (tmp_path / "x.orcarec").exists()
    # A bad encoding does not end the recording that runs.
    sim.start_recording(tmp_path / "y.orcarec")
    with pytest.raises(ValueError):
        sim.start_recording(tmp_path / "z.orcarec", encoding="float16")
    assert sim.is_recording
    sim.stop_recording()

    # Reading: not a recording, a missing file, a file cut short.
    text = tmp_path / "scene.json"
    sim.save_scene(text)
    with pytest.raises(orca.SceneError, match="not an ORCA Sandbox recording"):
        orca.load_recording(text)
    with pytest.raises(orca.SceneError):
        orca.load_recording(tmp_path / "missing.orcarec")
    whole = (tmp_path / "y.orcarec").read_bytes()
    cut = tmp_path / "cut.orcarec"
    cut.write_bytes(whole[:-7])
    rec = orca.load_recording(cut)
    assert rec.truncated and len(rec) == 0 and len(rec.scenes) == 1
    assert rec.positions.shape == (0, 0, 2)


def test_a_frame_that_cannot_be_written_abandons_the_recording(tmp_path):
    # A full disk, as a file size limit (in a process of its own): the step is done, the
    # recording abandoned with the system's reason, the older file left as it was.
    program = textwrap.dedent(f"""
        import os, resource, signal
        import orca
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (200000, 200000))
        sim = orca.Simulator()
        for i in range(100):
            sim.add_agent((3.0 * i, 0.0), pref_velocity=(0.0, 1.0))
        path = {str(tmp_path / "run.orcarec")!r}
        with open(path, "w") as f:
            f.write("old")
        sim.start_recording(path)
        try:
            sim.step(100)
        except orca.SceneError as e:
            print(e)
        print(sim.is_recording, 0 < sim.step_count < 100, open(path).read())
        print(sorted(os.listdir({str(tmp_path)!r})))
        """)
    out = subprocess.run([sys.executable, "-c", program], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert "File too large (the recording is abandoned;" in out[0]
    assert out[0].endswith("run.orcarec is unchanged)")
    assert out[1:] == ["False True old", "['run.orcarec']"]


def test_the_recording_is_not_part_of_a_snapshot(tmp_path):
    sim, _ = circle(3)
    sim.start_recording(tmp_path / "a.orcarec")
    state_ = sim.snapshot()
    other, _ = circle(3)
    other.restore(state_)
    assert sim.is_recording and not other.is_recording
    sim.stop_recording()
