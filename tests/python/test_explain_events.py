"""orca.Simulator.explain and .events give what `orca explain` and `orca events` print for the
same scene and steps (the CLI is the reference: the same JSON writers, read as Python)."""

import math

import pytest

import orca
from support import SCENES, run_cli


@pytest.mark.parametrize("scene,agent,steps", [("head_on.json", 0, 3),
                                               ("dense_convergence.json", 5, 40),
                                               ("blocks.json", 17, 120),
                                               ("routes_doorway.json", 2, 60)])
def test_explain_is_the_clis_record(scene, agent, steps):
    sim = orca.Simulator.from_scene(SCENES / scene)
    sim.step(steps)
    record = sim.explain(agent)
    assert record == run_cli("explain", str(SCENES / scene), "--agent", str(agent),
                             "--steps", str(steps))
    assert list(record) == list(run_cli("explain", str(SCENES / scene), "--agent", str(agent),
                                        "--steps", str(steps)))  # the same key order
    traced = sim.explain(agent, lp_trace=True)
    assert traced == run_cli("explain", str(SCENES / scene), "--agent", str(agent), "--steps",
                             str(steps), "--lp-trace")
    assert "lpTrace" in traced and "lpTrace" not in record


def test_explain_head_on_by_hand_and_changes_nothing():
    # Radius 1 at (-5, 0) and (5, 0), preferring (±1, 0), τ = 10 (the head-on case of
    # test_simulator): one neighbour, one half-plane with u = (0.8, 0), v_new = (0.4, 0).
    sim = orca.Simulator(radius=1, time_horizon=10)
    sim.add_agent((-5, 0), pref_velocity=(1, 0))
    sim.add_agent((5, 0), pref_velocity=(-1, 0))
    before = sim.state_hash()
    record = sim.explain(0)
    assert sim.state_hash() == before and sim.step_count == 0
    assert record["agent"] == 0 and record["step"] == 0
    assert record["position"] == [-5.0, 0.0] and record["prefVelocity"] == [1.0, 0.0]
    assert [n["agent"] for n in record["neighbors"]] == [1]
    assert len(record["lines"]) == 1
    assert record["lines"][0]["u"] == pytest.approx([0.8, 0.0])
    assert record["newVelocity"] == pytest.approx([0.4, 0.0])
    sim.step()
    assert sim.velocities[0] == pytest.approx(record["newVelocity"])


@pytest.mark.parametrize("scene,steps", [("dense_convergence.json", 300),
                                         ("routes_doorway.json", 300),
                                         ("detour_wall.json", 300)])
def test_events_are_the_clis(scene, steps):
    sim = orca.Simulator.from_scene(SCENES / scene)
    sim.step(steps)
    events = sim.events()
    assert events == run_cli("events", str(SCENES / scene), "--steps", str(steps))
    assert events, "the scene has events"
    assert set(events[0]) == {"step", "kind", "agents", "obstacle", "value"}
    # The filters are the CLI's --kinds and --agent.
    kinds = ["overlap-begin", "arrived", "waypoint-reached", "detour-enter"]
    assert sim.events(kinds=kinds) == run_cli("events", str(SCENES / scene), "--steps",
                                              str(steps), "--kinds", ",".join(kinds))
    assert sim.events(kinds="arrived") == [e for e in events if e["kind"] == "arrived"]
    assert sim.events(agent=3) == run_cli("events", str(SCENES / scene), "--steps", str(steps),
                                          "--agent", "3")


def test_events_as_the_run_goes_and_their_errors():
    sim = orca.Simulator.from_scene(SCENES / "dense_convergence.json")
    sim.step(100)
    first = sim.events()
    sim.step(100)
    both = sim.events()
    assert both[:len(first)] == first and len(both) > len(first)
    assert all(e["step"] <= 200 for e in both)
    sim.clear_events()
    assert sim.events() == []
    sim.step()
    assert all(e["step"] == 201 for e in sim.events())
    with pytest.raises(ValueError, match="unknown event kind \"overlap\""):
        sim.events(kinds=["overlap"])
    with pytest.raises(TypeError):
        sim.events(kinds=[1])
    with pytest.raises(IndexError):
        sim.events(agent=10**6)
    off = orca.Simulator.from_scene(SCENES / "head_on.json", events=False)
    off.step()
    with pytest.raises(RuntimeError, match="events=False"):
        off.events()


def test_events_see_edits_and_agents_added_from_python():
    # Two agents placed overlapping: an overlap-begin at step 0, its end once apart.
    sim = orca.Simulator(radius=1)
    sim.add_agent((0, 0), pref_velocity=(-1, 0))
    sim.add_agent((1.5, 0), pref_velocity=(1, 0))
    assert sim.events() == [{"step": 0, "kind": "overlap-begin", "agents": [0, 1],
                             "obstacle": None, "value": 0.5}]
    sim.step(3)
    ends = sim.events(kinds="overlap-end")
    assert len(ends) == 1 and ends[0]["agents"] == [0, 1]
    assert ends[0]["value"] == pytest.approx(0.5)
    assert not math.isnan(ends[0]["step"])
