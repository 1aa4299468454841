"""orca.Simulator from code: parameters, agents and obstacles, the NumPy arrays (one call
reads or writes every agent), stepping, and the errors of all of it."""

import math

import numpy as np
import pytest

import orca


def crossing():
    """Four agents of radius 0.5 on a square crossing to the opposite corners. (Symmetric, they
    lock up at the centre, as ORCA does; deadlock breaking lets them through.)"""
    sim = orca.Simulator(0.1, radius=0.5, max_speed=1.5, neighbor_dist=5, time_horizon=2,
                         deadlock_breaking=True)
    for x, y in ((-4, -4), (4, -4), (4, 4), (-4, 4)):
        sim.add_agent((x, y), goal=(-x, -y))
    return sim


def test_defaults_are_rvo2_circles_and_keywords_set_parameters():
    sim = orca.Simulator()
    assert sim.time_step == 0.25
    assert sim.agent_defaults == {"radius": 1.5, "max_speed": 2.0, "pref_speed": 1.0,
                                  "neighbor_dist": 15.0, "max_neighbors": 10,
                                  "time_horizon": 10.0, "time_horizon_obst": 10.0,
                                  "goal_radius": -1.0, "waypoint_radius": -1.0,
                                  "avoidance_weight": 1.0}
    assert sim.parameters["responsibility"] == 0.5
    assert sim.parameters["routing"] == "straight"
    assert sim.parameters["deadlock_breaking"] is False
    assert sim.parameters["detour_enabled"] is False
    sim = orca.Simulator(0.1, radius=0.5, max_neighbors=3, responsibility=1.0,
                         detour_enabled=True, detour_cell_size=0.25, routing="roadmap",
                         deadlock_breaking=True, threads=2, events=False)
    assert sim.time_step == 0.1
    assert sim.threads == 2
    assert sim.agent_defaults["radius"] == 0.5
    assert sim.agent_defaults["max_neighbors"] == 3
    assert sim.parameters["responsibility"] == 1.0
    assert sim.parameters["detour_enabled"] is True
    assert sim.parameters["detour_cell_size"] == 0.25
    assert sim.parameters["routing"] == "roadmap"
    assert sim.parameters["deadlock_breaking"] is True
    sim.time_step = 0.5
    sim.threads = 1
    assert (sim.time_step, sim.threads) == (0.5, 1)


def test_parameter_table_gives_every_keyword():
    rows = orca.parameters()
    keywords = [r["keyword"] for r in rows]
    assert "time_step" in keywords and "detour_enter_speed_ratio" in keywords
    assert "lp3_bisector_weight" in keywords and "time_horizon_obst" in keywords
    radius = next(r for r in rows if r["keyword"] == "radius")
    assert radius["name"] == "agent.radius" and radius["scope"] == "agent"
    assert radius["default"] == 1.5 and radius["unit"] == "units" and radius["doc"]
    # Every simulation and detour row is a constructor keyword, every agent row too.
    sim = orca.Simulator()
    for r in rows:
        if r["keyword"] != "time_step":
            orca.Simulator(**{r["keyword"]: r["default"]})
        if r["scope"] == "agent":
            sim.add_agent((len(sim) * 10, 0), **{r["keyword"]: r["default"]})
        else:
            assert sim.parameters[r["keyword"]] == r["default"] or r["keyword"] == "time_step"


def test_constructor_errors():
    with pytest.raises(ValueError, match="timeStep"):
        orca.Simulator(0)
    with pytest.raises(ValueError, match="radius must be > 0"):
        orca.Simulator(radius=-1)
    with pytest.raises(ValueError, match="responsibility"):
        orca.Simulator(responsibility=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'raduis'"):
        orca.Simulator(raduis=1)
    with pytest.raises(ValueError, match="routing"):
        orca.Simulator(routing="fastest")
    with pytest.raises(TypeError):
        orca.Simulator(detour_enabled=1)
    with pytest.raises(ValueError, match="threads"):
        orca.Simulator(threads=0)
    with pytest.raises(ValueError, match="threads"):
        orca.Simulator(threads=100000)
    with pytest.raises(TypeError):
        orca.Simulator(None)
    with pytest.raises(ValueError):
        orca.Simulator(math.nan)
    sim = orca.Simulator()
    with pytest.raises(ValueError):
        sim.time_step = -1
    assert sim.time_step == 0.25


def test_add_agent_and_read_it_back():
    sim = orca.Simulator(radius=0.5)
    assert sim.add_agent((1, 2)) == 0
    assert sim.add_agent((5, 5), velocity=(0.5, 0), goal=(10, 5), waypoints=[(7, 6)],
                         radius=0.75, max_speed=3, pref_speed=1.5, max_neighbors=4) == 1
    assert sim.add_agent([9, 9], pref_velocity=np.array([0, -1]), static=False) == 2
    assert sim.add_agent((20, 0), static=True) == 3
    assert len(sim) == sim.agent_count == 4
    a = sim.agent(1)
    assert a["position"] == (5.0, 5.0) and a["velocity"] == (0.5, 0.0)
    assert a["goal"] == (10.0, 5.0) and a["waypoints"] == [(7.0, 6.0)]
    assert a["route_progress"] == 0 and a["static"] is False and a["at_goal"] is False
    assert a["params"]["radius"] == 0.75 and a["params"]["max_neighbors"] == 4
    assert a["params"]["max_speed"] == 3.0 and a["params"]["pref_speed"] == 1.5
    assert a["params"]["time_horizon"] == 10.0  # the default
    assert sim.agent(0)["params"]["radius"] == 0.5  # the simulator's agent default
    assert sim.agent(0)["goal"] is None
    assert sim.agent(2)["pref_velocity"] == (0.0, -1.0)
    assert sim.agent(3)["static"] is True
    # The preferred velocity toward a waypoint is at pref_speed: (2, 1) normalised * 1.5.
    assert tuple(sim.pref_velocities[1]) == pytest.approx((1.5 * 2 / math.sqrt(5),
                                                           1.5 / math.sqrt(5)))


def test_add_agent_errors_change_nothing():
    sim = orca.Simulator()
    sim.add_agent((0, 0))
    for kwargs in ({"radius": 0}, {"max_speed": -1}, {"time_horizon": math.inf},
                   {"velocity": (math.nan, 0)}, {"goal": (0, math.inf)},
                   {"waypoints": [(1, 1)]},  # waypoints without a goal
                   {"max_neighbors": -2}):
        with pytest.raises(ValueError):
            sim.add_agent((5, 5), **kwargs)
    for args, kwargs in ((((1, 2, 3),), {}), ((None,), {}), (("ab",), {}),
                         (((0, 0),), {"static": 1}), (((0, 0),), {"max_neighbors": 2.5}),
                         (((0, 0),), {"colour": "red"})):
        with pytest.raises((TypeError, ValueError)):
            sim.add_agent(*args, **kwargs)
    assert len(sim) == 1


def test_obstacles():
    sim = orca.Simulator()
    assert sim.add_obstacle([(0, 0), (2, 0), (2, 1), (0, 1)]) == 0
    assert sim.add_obstacle(np.array([[5, 5], [6, 5]])) == 1  # a thin wall
    assert sim.obstacle_count == 2
    polygons = sim.obstacles()
    assert polygons[0].tolist() == [[0, 0], [2, 0], [2, 1], [0, 1]]
    assert polygons[1].dtype == np.float64 and polygons[1].shape == (2, 2)
    for bad in ([(0, 0), (0, 1), (1, 0)],       # clockwise
                [(0, 0)],                       # one vertex
                [(0, 0), (1, 1), (1, 0), (0, 1)],  # crossing edges
                [(0, 0), (math.nan, 0), (1, 1)]):
        with pytest.raises(ValueError):
            sim.add_obstacle(bad)
    with pytest.raises(TypeError):
        sim.add_obstacle(None)
    with pytest.raises(TypeError):
        sim.add_obstacle("abc")
    assert sim.obstacle_count == 2


def test_a_free_agent_by_hand():
    # Alone: v = v_pref = (goal - p) clamped to pref_speed 1 = (1, 0); p += v * 0.25.
    sim = orca.Simulator()
    sim.add_agent((0, 0), goal=(10, 0))
    sim.step()
    assert sim.positions.tolist() == [[0.25, 0.0]]
    assert sim.velocities.tolist() == [[1.0, 0.0]]
    assert sim.time == 0.25 and sim.step_count == 1
    sim.step(3)
    assert sim.positions.tolist() == [[1.0, 0.0]]
    assert sim.step_count == 4
    sim.step(0)
    assert sim.step_count == 4


def test_head_on_pair_by_hand():
    # Radius 1 at (∓5, 0), preferring (±1, 0), τ = 10: u = (0.8, 0) (tests/rvo2 and
    # test_rvo2_api derive it), each agent takes half: v = (0.4, 0), p = -5 + 0.4 * 0.25.
    sim = orca.Simulator(radius=1, time_horizon=10)
    sim.add_agent((-5, 0), pref_velocity=(1, 0))
    sim.add_agent((5, 0), pref_velocity=(-1, 0))
    sim.step()
    assert sim.velocities == pytest.approx(np.array([[0.4, 0.0], [-0.4, 0.0]]), abs=1e-12)
    assert sim.positions == pytest.approx(np.array([[-4.9, 0.0], [4.9, 0.0]]), abs=1e-12)


def test_arrays_have_shape_n_2_and_round_trip():
    sim = crossing()
    for name in ("positions", "velocities", "pref_velocities"):
        a = getattr(sim, name)
        assert a.shape == (4, 2) and a.dtype == np.float64 and a.flags.c_contiguous
        assert a.flags.writeable  # a copy: changing it changes nothing until assigned
    p = sim.positions
    p[0] = (100, 100)
    assert sim.positions[0].tolist() == [-4.0, -4.0]
    new = np.array([[-3.0, -3.5], [3.25, -3.0], [3.0, 3.0], [-3.0, 3.0]])
    sim.positions = new
    assert np.array_equal(sim.positions, new)
    sim.velocities = new / 10
    assert np.array_equal(sim.velocities, new / 10)
    # Lists, ints, float32 and Fortran order are converted.
    sim.positions = [[1, 1], [2, 2], [3, 3], [4, 4]]
    assert sim.positions.tolist() == [[1, 1], [2, 2], [3, 3], [4, 4]]
    sim.positions = np.asfortranarray(new.astype(np.float32))
    assert np.array_equal(sim.positions, new.astype(np.float32).astype(np.float64))
    sim.positions = new[:, ::-1][:, ::-1]  # a non-contiguous view
    assert np.array_equal(sim.positions, new)
    # -0.0 is written and read back as such.
    sim.velocities = np.array([[-0.0, 0.0]] * 4)
    assert math.copysign(1, sim.velocities[0, 0]) == -1


def test_pref_velocities_set_constant_preferred_velocities_and_drop_goals():
    sim = crossing()
    # Toward the goal at pref_speed 1.
    assert sim.pref_velocities[0] == pytest.approx((1 / math.sqrt(2), 1 / math.sqrt(2)))
    wanted = np.array([[0.5, 0], [0, 0.5], [-0.5, 0], [0, -0.5]])
    sim.pref_velocities = wanted
    assert np.array_equal(sim.pref_velocities, wanted)
    assert sim.agent(0)["goal"] is None
    sim.step()
    # Far apart: each agent takes its preferred velocity.
    assert np.array_equal(sim.velocities, wanted)


def test_array_errors_change_nothing():
    sim = crossing()
    before = sim.positions
    for bad in (np.zeros((3, 2)), np.zeros((4, 3)), np.zeros(8), np.zeros((4, 2, 1)),
                np.zeros((0, 2)), [[1, 2]] * 5, np.array([[np.nan, 0]] * 4),
                np.array([[0, 0]] * 3 + [[np.inf, 0]]), np.full((4, 2), 1e400)):
        with pytest.raises(ValueError):
            sim.positions = bad
    for bad in (None, "abcd", [["a", "b"]] * 4, object(), [[None, 1]] * 4, {1: 2}):
        with pytest.raises((TypeError, ValueError)):
            sim.positions = bad
    for name in ("velocities", "pref_velocities"):
        with pytest.raises(ValueError, match=r"must have shape \(4, 2\)"):
            setattr(sim, name, np.zeros((2, 2)))
        with pytest.raises(TypeError):
            setattr(sim, name, None)
    assert np.array_equal(sim.positions, before)
    # A NaN in the last row refuses the whole call: nothing was written before it.
    bad = sim.positions + 1
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"positions\[3\] is not finite"):
        sim.positions = bad
    assert np.array_equal(sim.positions, before)


def test_at_goal_and_a_crossing_that_arrives():
    sim = crossing()
    assert sim.at_goal().tolist() == [False] * 4
    sim.step(300)
    assert sim.at_goal().dtype == np.bool_
    assert sim.at_goal().tolist() == [True] * 4
    assert np.allclose(sim.positions, [[4, 4], [-4, 4], [-4, -4], [4, -4]], atol=0.5)


def test_results_do_not_depend_on_threads():
    hashes = set()
    for threads in (1, 2, 3):
        sim = crossing()
        sim.threads = threads
        sim.step(50)
        hashes.add(sim.state_hash())
    assert len(hashes) == 1


def test_index_errors():
    sim = crossing()
    for bad in (4, -1, 2**80):
        with pytest.raises(IndexError):
            sim.agent(bad)
        with pytest.raises(IndexError):
            sim.explain(bad)
    for bad in (None, 1.0, "0"):
        with pytest.raises(TypeError):
            sim.agent(bad)
    with pytest.raises(ValueError):
        sim.step(-1)
    with pytest.raises(TypeError):
        sim.step(1.5)
    assert sim.agent(np.int64(3))["position"] == (-4.0, 4.0)


def test_repr_and_len():
    sim = crossing()
    assert repr(sim) == "<orca.Simulator: 4 agents, 0 obstacles, step 0>"
    assert len(sim) == 4
    assert repr(sim.snapshot()) == "<orca.State: 4 agents, step 0>"


def test_a_step_that_would_overflow_raises_non_finite_state_error():
    sim = orca.Simulator(max_speed=1e308)
    sim.add_agent((1.7e308, 0), pref_velocity=(1e308, 0))
    with pytest.raises(orca.NonFiniteStateError, match="position overflowed"):
        sim.step()
    with pytest.raises(RuntimeError):  # and every later step refuses too
        sim.step()


def test_hostile_arguments_to_every_method_raise_and_never_crash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # save_scene("x") is a valid call
    hostile = [None, -1, 2**64, math.nan, -math.inf, 1e300, "x", b"xy", (), (1,), (1, 2, 3),
               (math.nan, 1), np.array([[1, 2]]), np.zeros((2, 2, 2)), object(),
               [None, None], 1j, np.float64("nan"), [[1, 2]] * 3, {"a": 1}]
    sim = crossing()
    sim.add_obstacle([(10, 10), (12, 10), (11, 12)])
    state = sim.snapshot()
    calls = [
        sim.add_agent, sim.add_obstacle, sim.agent, sim.explain,
        lambda v: sim.step(v) if v != 2**64 else None,  # 2**64 steps: a (very) long run
        sim.restore, sim.save_scene,
        lambda v: sim.add_agent((50, 50), velocity=v),
        lambda v: sim.add_agent((60, 60), goal=v),
        lambda v: sim.add_agent((70, 70), radius=v),
        lambda v: sim.add_agent((80, 80), waypoints=v, goal=(0, 0)),
        lambda v: sim.events(kinds=v), lambda v: sim.events(agent=v),
        lambda v: sim.explain(0, lp_trace=v),
        lambda v: setattr(sim, "positions", v),
        lambda v: setattr(sim, "velocities", v),
        lambda v: setattr(sim, "pref_velocities", v),
        lambda v: setattr(sim, "time_step", v),
        lambda v: setattr(sim, "threads", v),
        lambda v: orca.Simulator(v), lambda v: orca.Simulator(radius=v),
        lambda v: orca.Simulator(threads=v), lambda v: orca.Simulator(routing=v),
        lambda v: orca.Simulator.from_scene(v),
        lambda v: orca.Simulator.from_scene_text(v),
    ]
    for call in calls:
        for bad in hostile:
            try:
                call(bad)
            except (TypeError, ValueError, IndexError, RuntimeError):
                pass
            sim.restore(state)
    sim.step(5)  # and the simulator still works
    assert sim.step_count == 5
