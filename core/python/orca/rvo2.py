"""Python-RVO2's API on the ORCA Sandbox core.

A Python-RVO2 program changes one line, its import::

    import orca.rvo2 as rvo2
    sim = rvo2.PyRVOSimulator(1 / 60.0, 1.5, 5, 1.5, 2, 0.4, 2)

``PyRVOSimulator`` has Python-RVO2's constructor, method names, argument order, defaults and
tuple returns; every decision is our core's, through the C++ compatibility layer
RVO::RVOSimulator (docs/rvo2.md). Differences and errors: docs/python.md.
"""

from ._orca import PyRVOSimulator

PyRVOSimulator.__module__ = __name__

__all__ = ["PyRVOSimulator"]
