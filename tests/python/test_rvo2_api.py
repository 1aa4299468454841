"""orca.rvo2.PyRVOSimulator: Python-RVO2's class, method by method, with hand-checked numbers.

The face runs over the C++ compatibility layer RVO::RVOSimulator (tests/rvo2 tests that layer);
these tests check what Python sees: names, argument order and keywords, defaults, tuple returns
of floats, and the numbers of small cases worked out by hand.
"""

import math

import pytest

import orca.rvo2 as rvo2
from support import f32


def circle_defaults(**kw):
    """RVO2 Circle's parameters: Δt 0.25, neighborDist 15, maxNeighbors 10, τ = τo = 10,
    radius 1.5, maxSpeed 2."""
    return rvo2.PyRVOSimulator(0.25, 15, 10, 10, 10, 1.5, 2, **kw)


def head_on():
    """Two agents of radius 1 head-on at (-5, 0) and (5, 0), at rest, preferring (±1, 0);
    τ = 10, Δt = 0.25 (set through setTimeStep and setAgentDefaults)."""
    sim = rvo2.PyRVOSimulator(0.5, 1, 1, 1, 1, 1, 1)
    sim.setTimeStep(0.25)
    sim.setAgentDefaults(15, 10, 10, 10, 1, 2)
    sim.addAgent((-5, 0))
    sim.addAgent((5, 0))
    sim.setAgentPrefVelocity(0, (1, 0))
    sim.setAgentPrefVelocity(1, (-1, 0))
    return sim


def test_constructor_sets_time_step_and_agent_defaults():
    sim = rvo2.PyRVOSimulator(0.1, 12, 7, 3, 4, 0.5, 1.25)
    assert sim.getTimeStep() == f32(0.1)
    a = sim.addAgent((-1, 3))
    assert a == 0
    assert sim.getAgentNeighborDist(a) == 12.0
    assert sim.getAgentMaxNeighbors(a) == 7
    assert sim.getAgentTimeHorizon(a) == 3.0
    assert sim.getAgentTimeHorizonObst(a) == 4.0
    assert sim.getAgentRadius(a) == 0.5
    assert sim.getAgentMaxSpeed(a) == 1.25
    assert sim.getAgentPosition(a) == (-1.0, 3.0)
    assert sim.getAgentVelocity(a) == (0.0, 0.0)
    assert sim.getAgentPrefVelocity(a) == (0.0, 0.0)
    # The optional default velocity, positional or by Python-RVO2's keyword.
    moving = rvo2.PyRVOSimulator(0.1, 12, 7, 3, 4, 0.5, 1.25, (0.5, -0.5))
    assert moving.getAgentVelocity(moving.addAgent((0, 0))) == (0.5, -0.5)
    named = rvo2.PyRVOSimulator(timeStep=0.1, neighborDist=12, maxNeighbors=7, timeHorizon=3,
                                timeHorizonObst=4, radius=0.5, maxSpeed=1.25,
                                velocity=(1, 2))
    assert named.getAgentVelocity(named.addAgent((0, 0))) == (1.0, 2.0)


def test_returns_are_tuples_of_floats_and_ints():
    sim = head_on()
    sim.doStep()
    for value in (sim.getAgentPosition(0), sim.getAgentVelocity(0),
                  sim.getAgentPrefVelocity(0), sim.getAgentORCALine(0, 0)):
        assert type(value) is tuple
        assert all(type(x) is float for x in value)
    assert len(sim.getAgentORCALine(0, 0)) == 4
    for value in (sim.getAgentRadius(0), sim.getAgentMaxSpeed(0), sim.getGlobalTime(),
                  sim.getTimeStep(), sim.getAgentNeighborDist(0), sim.getAgentTimeHorizon(0),
                  sim.getAgentTimeHorizonObst(0)):
        assert type(value) is float
    for value in (sim.getNumAgents(), sim.getAgentMaxNeighbors(0),
                  sim.getAgentNumAgentNeighbors(0), sim.getAgentAgentNeighbor(0, 0),
                  sim.getNumObstacleVertices(), sim.addAgent((40, 40))):
        assert type(value) is int
    assert type(sim.queryVisibility((0, 0), (1, 1))) is bool


def test_add_agent_with_all_parameters_and_numbering():
    sim = circle_defaults(velocity=(1, 0))
    assert sim.addAgent((0, 0)) == 0
    assert sim.addAgent((10, 0), 5, 3, 2, 1, 0.75, 1, (0, 0)) == 1
    assert sim.addAgent(pos=(20, 0), neighborDist=6, maxNeighbors=4, timeHorizon=3,
                        timeHorizonObst=2, radius=0.5, maxSpeed=3, velocity=(0, 2)) == 2
    assert sim.getNumAgents() == 3
    assert sim.getAgentVelocity(0) == (1.0, 0.0)  # the defaults' velocity
    assert sim.getAgentVelocity(1) == (0.0, 0.0)
    assert sim.getAgentVelocity(2) == (0.0, 2.0)
    assert sim.getAgentRadius(1) == 0.75
    assert sim.getAgentNeighborDist(1) == 5.0
    assert sim.getAgentMaxNeighbors(2) == 4
    assert sim.getAgentTimeHorizon(2) == 3.0
    assert sim.getAgentTimeHorizonObst(2) == 2.0
    assert sim.getAgentMaxSpeed(2) == 3.0
    # Later defaults affect only later agents (setAgentDefaults' keywords are snake case).
    sim.setAgentDefaults(neighbor_dist=1, max_neighbors=1, time_horizon=1,
                         time_horizon_obst=1, radius=0.25, max_speed=0.5)
    assert sim.getAgentRadius(0) == 1.5
    assert sim.getAgentRadius(sim.addAgent((30, 0))) == 0.25


def test_add_agent_needs_pos_alone_or_every_parameter():
    sim = circle_defaults()
    with pytest.raises(ValueError, match="Either pass only 'pos', or pass all parameters."):
        sim.addAgent((0, 0), 5, 3, 2, 1, 0.75, 1)
    with pytest.raises(TypeError):
        sim.addAgent((0, 0), 5, None, 2, 1, 0.75, 1, (0, 0))
    # As in Python-RVO2, parameters given without neighborDist are ignored.
    a = sim.addAgent((0, 0), radius=0.25)
    assert sim.getAgentRadius(a) == 1.5
    assert sim.getNumAgents() == 1


def test_setters_read_back():
    sim = circle_defaults()
    a = sim.addAgent((0, 0))
    sim.setAgentMaxNeighbors(a, 3)
    sim.setAgentMaxSpeed(a, 4.5)
    sim.setAgentNeighborDist(a, 7)
    sim.setAgentRadius(a, 0.3)
    sim.setAgentTimeHorizon(a, 2.5)
    sim.setAgentTimeHorizonObst(a, 1.5)
    sim.setAgentPosition(a, (5, 6))
    sim.setAgentVelocity(a, (-1, 0.5))
    sim.setAgentPrefVelocity(a, (0.1, 0.2))
    sim.setTimeStep(0.5)
    assert sim.getAgentMaxNeighbors(a) == 3
    assert sim.getAgentMaxSpeed(a) == 4.5
    assert sim.getAgentNeighborDist(a) == 7.0
    assert sim.getAgentRadius(a) == f32(0.3)  # RVO2 keeps floats
    assert sim.getAgentTimeHorizon(a) == 2.5
    assert sim.getAgentTimeHorizonObst(a) == 1.5
    assert sim.getAgentPosition(a) == (5.0, 6.0)
    assert sim.getAgentVelocity(a) == (-1.0, 0.5)
    assert sim.getAgentPrefVelocity(a) == (f32(0.1), f32(0.2))
    assert sim.getTimeStep() == 0.5
    # Python-RVO2's keyword names, including its camel-case timeHorizonObst.
    sim.setAgentTimeHorizonObst(agent_no=a, timeHorizonObst=3)
    sim.setAgentTimeHorizon(agent_no=a, time_horizon=4)
    sim.setAgentMaxSpeed(agent_no=a, max_speed=1)
    sim.setAgentPrefVelocity(agent_no=a, velocity=(0, 1))
    sim.setTimeStep(time_step=0.25)
    assert (sim.getAgentTimeHorizonObst(a), sim.getAgentTimeHorizon(a)) == (3.0, 4.0)
    assert sim.getAgentMaxSpeed(agent_no=a) == 1.0
    assert sim.getAgentPrefVelocity(agent_no=a) == (0.0, 1.0)
    # maxNeighbors beyond int reads back as 2**31 - 1 ("all").
    sim.setAgentMaxNeighbors(a, 2**40)
    assert sim.getAgentMaxNeighbors(a) == 2**31 - 1
    # Any sequence of two numbers is a vector (Python-RVO2 wants tuples).
    sim.setAgentPosition(a, [1, 2])
    assert sim.getAgentPosition(a) == (1.0, 2.0)


def test_one_free_agent_moves_at_its_preferred_velocity():
    # Alone, ORCA has no half-plane: v_new = v_pref (within maxSpeed), p += v * Δt.
    sim = circle_defaults()
    a = sim.addAgent((1, 1))
    sim.setAgentPrefVelocity(a, (1, -0.5))
    sim.doStep()
    assert sim.getAgentVelocity(a) == (1.0, -0.5)
    assert sim.getAgentPosition(a) == (1.25, 0.875)
    assert sim.getGlobalTime() == 0.25
    # Above maxSpeed, the preferred velocity is cut to maxSpeed, same direction.
    sim.setAgentPrefVelocity(a, (0, 8))
    sim.doStep()
    assert sim.getAgentVelocity(a) == (0.0, 2.0)
    assert sim.getAgentPosition(a) == (1.25, 1.375)
    assert sim.getGlobalTime() == 0.5


def test_global_time_is_a_float_sum():
    # RVO2 adds the float time step to a float clock: ten steps of 0.1 are not 1.
    sim = rvo2.PyRVOSimulator(0.1, 15, 10, 10, 10, 1.5, 2)
    expected = 0.0
    for _ in range(10):
        sim.doStep()
        expected = f32(expected + f32(0.1))
    assert sim.getGlobalTime() == expected
    assert expected != 1.0


def test_head_on_pair_by_hand():
    # Relative position p = (10, 0), relative velocity 0. w = 0 - p/τ = (-1, 0) lies in front
    # of the cut-off circle (centre p/τ = (1, 0), radius (r_A + r_B)/τ = 0.2), so u goes from
    # 0 to the circle's nearest point (0.8, 0): u = (0.8, 0). Agent 0's line passes through
    # v + u/2 = (0.4, 0) with direction (0, 1): it may take x <= 0.4, and the velocity nearest
    # its preferred (1, 0) is (0.4, 0). Agent 1 mirrors it.
    sim = head_on()
    assert sim.getAgentNumAgentNeighbors(0) == 0  # before the first step
    assert sim.getAgentNumORCALines(0) == 0
    sim.doStep()
    assert sim.getAgentNumAgentNeighbors(0) == 1
    assert sim.getAgentAgentNeighbor(0, 0) == 1
    assert sim.getAgentAgentNeighbor(agent_no=1, neighbor_no=0) == 0
    assert sim.getAgentNumObstacleNeighbors(0) == 0
    assert sim.getAgentNumORCALines(0) == 1
    px, py, dx, dy = sim.getAgentORCALine(0, 0)
    assert (px, py, dx, dy) == pytest.approx((0.4, 0.0, 0.0, 1.0), abs=1e-6)
    px, py, dx, dy = sim.getAgentORCALine(agent_no=1, line_no=0)
    assert (px, py, dx, dy) == pytest.approx((-0.4, 0.0, 0.0, -1.0), abs=1e-6)
    assert sim.getAgentVelocity(0) == pytest.approx((0.4, 0.0), abs=1e-6)
    assert sim.getAgentPosition(0) == pytest.approx((-4.9, 0.0), abs=1e-6)  # -5 + 0.4 * 0.25
    assert sim.getAgentPosition(1) == pytest.approx((4.9, 0.0), abs=1e-6)


def test_neighbours_nearest_first_capped_by_max_neighbors():
    sim = rvo2.PyRVOSimulator(0.25, 10, 2, 5, 5, 0.5, 1)
    for p in ((0, 0), (6, 0), (0, -2), (3, 4), (0, 30)):  # 6, 2, 5 and 30 away from agent 0
        sim.addAgent(p)
    sim.doStep()
    assert sim.getAgentNumAgentNeighbors(0) == 2  # maxNeighbors = 2: the nearest two
    assert [sim.getAgentAgentNeighbor(0, k) for k in range(2)] == [2, 3]
    assert sim.getAgentNumAgentNeighbors(4) == 0  # beyond neighborDist
    assert sim.getAgentNumORCALines(0) == 2


def test_agent_below_a_square_by_hand():
    # Agent of radius 1 at (0, -3), at rest, preferring (0, 2) (its maxSpeed), τo = 2, under
    # the square [-1, 1] x [0, 2]. Only the bottom edge (vertices 0 -> 1) faces it within
    # τo * maxSpeed + r = 5. The projection falls mid-edge and both legs are behind v = 0, so
    # v is projected on the cut-off line: the edge scaled by 1/τo, y = 1.5, moved toward the
    # agent by r/τo = 0.5: the line through (-0.5, 1) with direction (-1, 0) allows y <= 1.
    sim = rvo2.PyRVOSimulator(0.25, 15, 10, 10, 2, 1, 2)
    assert sim.addObstacle([(-1, 0), (1, 0), (1, 2), (-1, 2)]) == 0
    sim.processObstacles()
    a = sim.addAgent((0, -3))
    sim.setAgentPrefVelocity(a, (0, 2))
    sim.doStep()
    assert sim.getAgentNumObstacleNeighbors(a) == 1
    assert sim.getAgentObstacleNeighbor(a, 0) == 0  # the edge from vertex 0
    assert sim.getAgentObstacleNeighbor(agent_no=a, obstacle_no=0) == 0
    assert sim.getAgentNumAgentNeighbors(a) == 0
    assert sim.getAgentNumORCALines(a) == 1
    assert sim.getAgentORCALine(a, 0) == pytest.approx((-0.5, 1.0, -1.0, 0.0), abs=1e-6)
    assert sim.getAgentVelocity(a) == pytest.approx((0.0, 1.0), abs=1e-6)
    assert sim.getAgentPosition(a) == pytest.approx((0.0, -2.75), abs=1e-6)


def test_obstacle_vertices_are_numbered_over_all_polygons():
    sim = circle_defaults()
    assert sim.addObstacle([(0, 0), (4, 0), (0, 3)]) == 0       # vertices 0, 1, 2
    assert sim.addObstacle([(10, 0), (12, 0)]) == 3             # a thin wall: 3, 4
    assert sim.addObstacle(vertices=[(20, 0), (22, 0), (22, 2), (20, 2)]) == 5
    assert sim.getNumObstacleVertices() == 9
    assert sim.getObstacleVertex(1) == (4.0, 0.0)
    assert sim.getObstacleVertex(vertex_no=4) == (12.0, 0.0)
    assert [sim.getNextObstacleVertexNo(v) for v in range(9)] == [1, 2, 0, 4, 3, 6, 7, 8, 5]
    assert [sim.getPrevObstacleVertexNo(v) for v in range(9)] == [2, 0, 1, 4, 3, 8, 5, 6, 7]


def test_query_visibility_after_process_obstacles():
    sim = circle_defaults()
    sim.addObstacle([(-1, -1), (1, -1), (1, 1), (-1, 1)])
    assert sim.queryVisibility((-5, 0), (5, 0))  # not processed yet: nothing blocks
    sim.processObstacles()
    assert not sim.queryVisibility((-5, 0), (5, 0))
    assert sim.queryVisibility((-5, 3), (5, 3))
    assert sim.queryVisibility((-5, 3), (5, 3), 1.5)       # 2 from the top edge
    assert not sim.queryVisibility((-5, 3), (5, 3), 2.5)
    assert not sim.queryVisibility(point1=(-5, 3), point2=(5, 3), radius=2.5)


def test_obstacles_act_from_process_obstacles_on():
    # An agent heading into a wall ahead: unprocessed, the wall is ignored; processed, the
    # agent slows down before it.
    def run(process):
        sim = rvo2.PyRVOSimulator(0.25, 15, 10, 10, 2, 0.5, 2)
        sim.addObstacle([(-5, 1), (5, 1)])
        if process:
            sim.processObstacles()
        a = sim.addAgent((0, 0))
        sim.setAgentPrefVelocity(a, (0, 2))
        sim.doStep()
        return sim.getAgentVelocity(a)[1], sim.getAgentNumObstacleNeighbors(a)
    assert run(False) == (2.0, 0)
    speed, neighbours = run(True)
    assert speed < 2.0 and neighbours == 1


def test_a_circle_crosses_without_overlaps():
    # A Python-RVO2 style crowd: 24 agents on a circle of radius 30 walk to the point 2.8
    # radians further round it. (To the antipodes the ring of 24 locks up at the centre, in
    # Python-RVO2 as here: a symmetric jam is ORCA's own behaviour.)
    sim = circle_defaults()
    n = 24
    goals = []
    for i in range(n):
        a = 2 * math.pi * i / n
        sim.addAgent((30 * math.cos(a), 30 * math.sin(a)))
        goals.append((30 * math.cos(a + 2.8), 30 * math.sin(a + 2.8)))
    closest = math.inf
    for _ in range(400):
        for i in range(n):
            px, py = sim.getAgentPosition(i)
            dx, dy = goals[i][0] - px, goals[i][1] - py
            d = math.hypot(dx, dy)
            sim.setAgentPrefVelocity(i, (dx / d, dy / d) if d > 1 else (dx, dy))
        sim.doStep()
        pos = [sim.getAgentPosition(i) for i in range(n)]
        for i in range(n):
            for j in range(i):
                closest = min(closest, math.dist(pos[i], pos[j]))
    assert all(math.dist(sim.getAgentPosition(i), goals[i]) < 1.5 for i in range(n))
    assert closest > 2 * 1.5 - 1e-3  # no overlap beyond float rounding


def test_save_scene_writes_a_scene_our_simulator_loads(tmp_path):
    import orca
    sim = head_on()
    sim.addObstacle([(-1, 4), (1, 4), (0, 6)])
    sim.processObstacles()
    sim.doStep()
    path = tmp_path / "rvo2.json"
    sim.saveScene(str(path))
    loaded = orca.Simulator.from_scene(path)
    assert loaded.agent_count == 2 and loaded.obstacle_count == 1
    assert loaded.time == 0.25 and loaded.step_count == 1
    assert loaded.positions.tolist() == [list(sim.getAgentPosition(0)),
                                         list(sim.getAgentPosition(1))]
    assert loaded.pref_velocities.tolist() == [[1.0, 0.0], [-1.0, 0.0]]
    # The first step from the file is the program's next step.
    sim.doStep()
    loaded.step()
    for i in range(2):
        assert tuple(loaded.positions[i]) == pytest.approx(sim.getAgentPosition(i), abs=1e-6)
    sim.saveScene(path=tmp_path / "as_path.json")  # os.PathLike too
    assert (tmp_path / "as_path.json").exists()


def test_a_recording_appears_whole_at_stop_recording(tmp_path):
    import orca
    sim = head_on()
    path = tmp_path / "run.orcarec"
    sim.startRecording(path)
    for _ in range(4):
        sim.doStep()
    assert not path.exists()  # nothing in place while recording
    sim.stopRecording()
    data = path.read_bytes()
    assert data[:8] == b"ORCAREC\n" and data[12] == 1  # float32: RVO2's float state
    # The scene record, then 5 frames (the start and 4 steps) of 2 agents: 5 + 20 + 2 x 24.
    assert data[16:17] == b"S"
    scene_length = int.from_bytes(data[17:21], "little")
    assert b'"orca-scene"' in data[21:21 + scene_length]
    frames = data[21 + scene_length:]
    assert len(frames) == 5 * 73
    assert [frames[k * 73:k * 73 + 1] for k in range(5)] == [b"F"] * 5
    steps = [int.from_bytes(frames[k * 73 + 5:k * 73 + 13], "little") for k in range(5)]
    assert steps == [0, 1, 2, 3, 4]
    sim.stopRecording()  # nothing to stop
    with pytest.raises(orca.SceneError):
        sim.startRecording(tmp_path / "no" / "such" / "dir.orcarec")


def test_setting_the_same_preferred_velocity_again_changes_nothing():
    # The face skips the hand-over of an unchanged preferred velocity (docs/python.md,
    # "Speed"): the results are those of setting it once, and -0.0 still counts as a change.
    a, b = head_on(), head_on()
    for _ in range(30):
        for i in range(2):
            a.setAgentPrefVelocity(i, a.getAgentPrefVelocity(i))
        a.doStep()
        b.doStep()
    assert [a.getAgentPosition(i) for i in range(2)] == [b.getAgentPosition(i) for i in range(2)]
    a.setAgentPrefVelocity(0, (0.0, 0.0))
    a.setAgentPrefVelocity(0, (-0.0, 0.0))
    assert math.copysign(1, a.getAgentPrefVelocity(0)[0]) == -1
    with pytest.raises(IndexError):
        a.setAgentPrefVelocity(5, (0.0, 0.0))
