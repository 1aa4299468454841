"""ORCA Sandbox's core in Python: see, step through and explain ORCA crowds.

Our own API (docs/python.md)::

    import orca
    sim = orca.Simulator.from_scene("scenes/circle.json")
    sim.step(100)
    positions = sim.positions          # (n, 2) float64 NumPy array
    why = sim.explain(0)               # the content of `orca explain` as a dict
    sim.start_recording("run.orcarec")   # every step from now on, exactly
    sim.step(100)
    sim.stop_recording()
    frames = orca.load_recording("run.orcarec").positions   # (frames, n, 2)

Python-RVO2's API on the same core: ``import orca.rvo2 as rvo2`` (``rvo2.PyRVOSimulator``).
"""

from ._orca import (
    NonFiniteStateError,
    Recording,
    RecordingFrame,
    SceneError,
    Simulator,
    State,
    __version__,
    load_recording,
    parameters,
)

# The classes live in the extension orca._orca; they are documented and used as orca.*.
for _cls in (Simulator, State, SceneError, NonFiniteStateError, Recording, RecordingFrame):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "NonFiniteStateError",
    "Recording",
    "RecordingFrame",
    "SceneError",
    "Simulator",
    "State",
    "__version__",
    "load_recording",
    "parameters",
]
