"""orca.rvo2.PyRVOSimulator's errors: Python exceptions carrying the C++ message, and nothing a
program passes crashes the interpreter or changes the simulator when it is refused."""

import itertools
import math

import numpy as np
import pytest

import orca
import orca.rvo2 as rvo2


def two_agents():
    sim = rvo2.PyRVOSimulator(0.25, 15, 10, 10, 10, 1.5, 2)
    sim.addAgent((0, 0))
    sim.addAgent((5, 0))
    return sim


def state(sim):
    """Everything a refused call must leave unchanged."""
    n = sim.getNumAgents()
    return ([(sim.getAgentPosition(i), sim.getAgentVelocity(i), sim.getAgentPrefVelocity(i),
              sim.getAgentRadius(i), sim.getAgentMaxSpeed(i), sim.getAgentNeighborDist(i),
              sim.getAgentMaxNeighbors(i), sim.getAgentTimeHorizon(i),
              sim.getAgentTimeHorizonObst(i)) for i in range(n)],
            sim.getNumObstacleVertices(), sim.getTimeStep(), sim.getGlobalTime())


def test_agent_numbers_out_of_range_are_index_errors_with_the_cpp_message():
    sim = two_agents()
    with pytest.raises(IndexError, match=r"RVO::RVOSimulator::getAgentPosition: no agent "
                                         r"number 2 \(there are 2 agents\)"):
        sim.getAgentPosition(2)
    with pytest.raises(IndexError, match="setAgentRadius"):
        sim.setAgentRadius(7, 1.0)
    with pytest.raises(IndexError, match="negative"):
        sim.getAgentVelocity(-1)  # a negative number is no agent (not Python's "from the end")
    with pytest.raises(IndexError):
        sim.getAgentPosition(2**70)
    with pytest.raises(IndexError):
        sim.getObstacleVertex(0)
    with pytest.raises(IndexError):
        sim.getNextObstacleVertexNo(-3)
    sim.doStep()
    with pytest.raises(IndexError):
        sim.getAgentAgentNeighbor(0, 1)  # one neighbour: number 0 only
    with pytest.raises(IndexError):
        sim.getAgentORCALine(0, 5)
    with pytest.raises(IndexError):
        sim.getAgentObstacleNeighbor(0, 0)


def test_values_the_core_refuses_are_value_errors_and_change_nothing():
    sim = two_agents()
    before = state(sim)
    refused = [
        lambda: sim.setAgentRadius(0, 0),
        lambda: sim.setAgentRadius(0, -1),
        lambda: sim.setAgentRadius(0, math.nan),
        lambda: sim.setAgentMaxSpeed(0, -0.5),
        lambda: sim.setAgentNeighborDist(0, math.inf),
        lambda: sim.setAgentTimeHorizon(0, 0),
        lambda: sim.setAgentTimeHorizonObst(0, -2),
        lambda: sim.setAgentPosition(0, (math.nan, 0)),
        lambda: sim.setAgentVelocity(0, (0, math.inf)),
        lambda: sim.setAgentPrefVelocity(0, (1e39, 0)),  # beyond float's range
        lambda: sim.setAgentMaxNeighbors(0, -1),
        lambda: sim.setTimeStep(0),
        lambda: sim.setTimeStep(1e-9),
        lambda: sim.setTimeStep(math.nan),
        lambda: sim.addAgent((math.nan, 0)),
        lambda: sim.addAgent((0, 0), 15, 10, 10, 10, -1, 2, (0, 0)),
        lambda: sim.addObstacle([(0, 0), (0, 1), (1, 0)]),  # clockwise
        lambda: sim.addObstacle([(0, 0), (1, 0), (2, 0)]),  # collinear
        lambda: sim.addObstacle([(0, 0), (2, 2), (2, 0), (0, 2)]),  # edges cross
        lambda: sim.addObstacle([(0, 0), (0, 0), (1, 1)]),  # repeated vertex
        lambda: sim.addObstacle([(0, 0), (math.nan, 1), (1, 1)]),
        lambda: sim.setAgentDefaults(15, 10, 10, 10, 0, 2),
        lambda: sim.queryVisibility((0, 0), (1, 1), -1),
        lambda: sim.queryVisibility((0, 0), (math.nan, 1)),
    ]
    for call in refused:
        with pytest.raises(ValueError):
            call()
    assert state(sim) == before
    with pytest.raises(ValueError, match=r"setAgentRadius: agent radius must be > 0"):
        sim.setAgentRadius(0, 0)
    with pytest.raises(ValueError, match="clockwise"):
        sim.addObstacle([(0, 0), (0, 1), (1, 0)])


def test_python_rvo2s_runtime_errors():
    sim = two_agents()
    with pytest.raises(RuntimeError, match="Error adding obstacle to RVO simulation"):
        sim.addObstacle([(0, 0)])
    with pytest.raises(RuntimeError, match="Error adding obstacle to RVO simulation"):
        sim.addObstacle([])
    assert sim.getNumObstacleVertices() == 0


def test_constructor_refuses_bad_values():
    with pytest.raises(ValueError):
        rvo2.PyRVOSimulator(0, 15, 10, 10, 10, 1.5, 2)
    with pytest.raises(ValueError):
        rvo2.PyRVOSimulator(0.25, 15, 10, 10, 10, -1.5, 2)
    with pytest.raises(ValueError):
        rvo2.PyRVOSimulator(0.25, 15, -10, 10, 10, 1.5, 2)
    with pytest.raises(TypeError):
        rvo2.PyRVOSimulator(0.25, 15, 10, 10, 10, 1.5)  # a required argument missing
    with pytest.raises(TypeError):
        rvo2.PyRVOSimulator("0.25", 15, 10, 10, 10, 1.5, 2)
    with pytest.raises(TypeError):
        rvo2.PyRVOSimulator(0.25, 15, 10.5, 10, 10, 1.5, 2)  # maxNeighbors is a count


def test_wrong_types_are_type_errors():
    sim = two_agents()
    for call in (lambda: sim.getAgentPosition(None),
                 lambda: sim.getAgentPosition(0.0),
                 lambda: sim.getAgentPosition("0"),
                 lambda: sim.setAgentPrefVelocity(0, None),
                 lambda: sim.setAgentPrefVelocity(0, "ab"),
                 lambda: sim.setAgentPrefVelocity(0, 1.0),
                 lambda: sim.setAgentPrefVelocity(0, (1j, 0)),
                 lambda: sim.setAgentPrefVelocity(0, ("1", 0)),
                 lambda: sim.setAgentRadius(0, None),
                 lambda: sim.addObstacle(None),
                 lambda: sim.addObstacle([None, (1, 1)]),
                 lambda: sim.addAgent(None),
                 lambda: sim.setAgentMaxNeighbors(0, 2.5),
                 lambda: sim.queryVisibility((0, 0), (1, 1), "far"),
                 lambda: sim.saveScene(None)):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError, match="2 coordinates"):
        sim.setAgentPrefVelocity(0, (1, 2, 3))
    with pytest.raises(TypeError, match="unexpected keyword argument 'agent'"):
        sim.getAgentPosition(agent=0)
    with pytest.raises(TypeError, match="missing required argument 'velocity'"):
        sim.setAgentPrefVelocity(0)
    with pytest.raises(TypeError, match="multiple values"):
        sim.setAgentPrefVelocity(0, (1, 0), agent_no=1)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        sim.setAgentPrefVelocity(0, (1, 0), (2, 0))


def test_numpy_values_are_accepted():
    sim = two_agents()
    sim.setAgentPrefVelocity(np.int64(1), np.array([0.5, -0.25], dtype=np.float32))
    assert sim.getAgentPrefVelocity(1) == (0.5, -0.25)
    sim.setAgentRadius(np.uint8(0), np.float64(0.75))
    assert sim.getAgentRadius(0) == 0.75
    sim.setAgentMaxNeighbors(1, np.int32(4))
    assert sim.getAgentMaxNeighbors(1) == 4


def test_methods_of_an_uninitialised_object_raise():
    sim = rvo2.PyRVOSimulator.__new__(rvo2.PyRVOSimulator)
    with pytest.raises(TypeError, match="not initialised"):
        sim.getNumAgents()


def test_hostile_arguments_to_every_method_raise_and_never_crash(tmp_path, monkeypatch):
    # Every method with every argument replaced by a hostile value: each call returns or
    # raises TypeError, ValueError, IndexError or RuntimeError, never anything else.
    monkeypatch.chdir(tmp_path)  # saveScene("x") is a valid call
    hostile = [None, -1, 2**64, math.nan, -math.inf, 1e300, "x", b"xy", (), (1,), (1, 2, 3),
               (math.nan, 1), [1e39, 0], np.array([[1, 2]]), object(), [None, None], 1j,
               np.float64("nan")]
    sim = two_agents()
    sim.addObstacle([(10, 10), (12, 10), (11, 12)])
    sim.processObstacles()
    sim.doStep()
    arity = {"addAgent": 1, "addObstacle": 1, "getAgentAgentNeighbor": 2,
             "getAgentObstacleNeighbor": 2, "getAgentORCALine": 2, "queryVisibility": 3,
             "setAgentDefaults": 7, "setTimeStep": 1, "getObstacleVertex": 1,
             "getNextObstacleVertexNo": 1, "getPrevObstacleVertexNo": 1, "saveScene": 1}
    calls = 0
    for name in dir(sim):
        if name.startswith("_") or name in ("doStep", "processObstacles") or \
                name.startswith(("getNum", "getGlobal", "getTimeStep")):
            continue
        n = arity.get(name, 2 if name.startswith("set") else 1)
        valid = {1: [0], 2: [0, (1.0, 0.5)], 3: [(0, 0), (1, 1), 0.5],
                 7: [15, 10, 10, 10, 1.5, 2, (0, 0)]}[n]
        if name.startswith("setAgent") and n == 2 and name not in ("setAgentPosition",
                                                                   "setAgentVelocity",
                                                                   "setAgentPrefVelocity"):
            valid = [0, 3]
        if name.startswith("getAgent") and n == 2:
            valid = [0, 0]
        for k, bad in itertools.product(range(n), hostile):
            args = list(valid)
            args[k] = bad
            try:
                getattr(sim, name)(*args)
            except (TypeError, ValueError, IndexError, RuntimeError):
                pass
            calls += 1
    assert calls > 500
    sim.doStep()  # and the simulator still works
