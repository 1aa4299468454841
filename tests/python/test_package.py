"""The package orca as shipped: its names, Python-RVO2's complete API, docstrings everywhere,
and type stubs (_orca.pyi, py.typed) that match the extension name for name."""

import ast
import inspect
import pathlib
import re

import orca
import orca.rvo2

PACKAGE = pathlib.Path(orca.__file__).parent

# Python-RVO2's PyRVOSimulator (src/rvo2.pyx of sybrenstuvel/Python-RVO2): every public method
# with its arguments, as a program may call them by keyword.
PYTHON_RVO2 = {
    "addAgent": ["pos", "neighborDist", "maxNeighbors", "timeHorizon", "timeHorizonObst",
                 "radius", "maxSpeed", "velocity"],
    "addObstacle": ["vertices"],
    "doStep": [],
    "getAgentAgentNeighbor": ["agent_no", "neighbor_no"],
    "getAgentMaxNeighbors": ["agent_no"],
    "getAgentMaxSpeed": ["agent_no"],
    "getAgentNeighborDist": ["agent_no"],
    "getAgentNumAgentNeighbors": ["agent_no"],
    "getAgentNumObstacleNeighbors": ["agent_no"],
    "getAgentNumORCALines": ["agent_no"],
    "getAgentObstacleNeighbor": ["agent_no", "obstacle_no"],
    "getAgentORCALine": ["agent_no", "line_no"],
    "getAgentPosition": ["agent_no"],
    "getAgentPrefVelocity": ["agent_no"],
    "getAgentRadius": ["agent_no"],
    "getAgentTimeHorizon": ["agent_no"],
    "getAgentTimeHorizonObst": ["agent_no"],
    "getAgentVelocity": ["agent_no"],
    "getGlobalTime": [],
    "getNumAgents": [],
    "getNumObstacleVertices": [],
    "getObstacleVertex": ["vertex_no"],
    "getNextObstacleVertexNo": ["vertex_no"],
    "getPrevObstacleVertexNo": ["vertex_no"],
    "getTimeStep": [],
    "processObstacles": [],
    "queryVisibility": ["point1", "point2", "radius"],
    "setAgentDefaults": ["neighbor_dist", "max_neighbors", "time_horizon",
                         "time_horizon_obst", "radius", "max_speed", "velocity"],
    "setAgentMaxNeighbors": ["agent_no", "max_neighbors"],
    "setAgentMaxSpeed": ["agent_no", "max_speed"],
    "setAgentNeighborDist": ["agent_no", "neighbor_dist"],
    "setAgentPosition": ["agent_no", "position"],
    "setAgentPrefVelocity": ["agent_no", "velocity"],
    "setAgentRadius": ["agent_no", "radius"],
    "setAgentTimeHorizon": ["agent_no", "time_horizon"],
    "setAgentTimeHorizonObst": ["agent_no", "timeHorizonObst"],
    "setAgentVelocity": ["agent_no", "velocity"],
    "setTimeStep": ["time_step"],
    "__init__": ["timeStep", "neighborDist", "maxNeighbors", "timeHorizon", "timeHorizonObst",
                 "radius", "maxSpeed", "velocity"],
}


def runtime_parameters(function):
    """Parameter names (without self) of a method of the extension: from its text signature
    (the fast-call methods) or from pybind11's signature line."""
    try:
        return [p for p in inspect.signature(function).parameters if p != "self"]
    except ValueError:
        pass
    line = function.__doc__.splitlines()[0]
    inside = line[line.index("(") + 1:line.rindex(")")]
    names = []
    depth = 0
    current = ""
    for ch in inside + ",":
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            name = current.strip().split(":")[0].strip()
            if name and name not in ("self", "*"):
                names.append(name)
            current = ""
        else:
            current += ch
    return names


def stub_classes():
    tree = ast.parse((PACKAGE / "_orca.pyi").read_text())
    classes = {}
    functions = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = {}
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    args = [a.arg for a in item.args.args + item.args.kwonlyargs
                            if a.arg != "self"]
                    if item.name not in members:  # a property's getter, not its setter
                        members[item.name] = args
            classes[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            functions[node.name] = [a.arg for a in node.args.args]
    return classes, functions


def test_package_names():
    assert orca.__all__ == ["NonFiniteStateError", "Recording", "RecordingFrame", "SceneError",
                            "Simulator", "State", "__version__", "load_recording",
                            "parameters"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", orca.__version__)
    assert orca.rvo2.__all__ == ["PyRVOSimulator"]
    assert orca.Simulator.__module__ == "orca"
    assert orca.Recording.__module__ == "orca" and orca.RecordingFrame.__module__ == "orca"
    assert orca.rvo2.PyRVOSimulator.__module__ == "orca.rvo2"
    assert issubclass(orca.SceneError, ValueError)
    assert issubclass(orca.NonFiniteStateError, RuntimeError)
    assert (PACKAGE / "py.typed").exists()


def test_python_rvo2s_whole_api_with_its_argument_names():
    cls = orca.rvo2.PyRVOSimulator
    for name, arguments in PYTHON_RVO2.items():
        assert runtime_parameters(getattr(cls, name)) == arguments, name
    public = {n for n in dir(cls) if not n.startswith("_")}
    assert public - set(PYTHON_RVO2) == {"saveScene", "startRecording",
                                         "stopRecording"}  # our extras


def test_every_public_function_has_a_docstring():
    for obj in (orca, orca.rvo2, orca.Simulator, orca.State, orca.rvo2.PyRVOSimulator,
                orca.SceneError, orca.NonFiniteStateError, orca.Recording, orca.RecordingFrame,
                orca.load_recording):
        assert obj.__doc__ and len(obj.__doc__.strip()) > 20, obj
    for cls in (orca.Simulator, orca.State, orca.rvo2.PyRVOSimulator, orca.Recording,
                orca.RecordingFrame):
        for name, member in vars(cls).items():
            if name.startswith("_") and name != "__init__":
                continue
            doc = member.__doc__ or ""
            # More than the signature line pybind11 writes.
            text = doc.split("\n--\n\n")[-1] if "--\n\n" in doc else "\n".join(
                doc.splitlines()[1:]) if doc.startswith(name + "(") else doc
            assert len(text.strip()) > 10, f"{cls.__name__}.{name} has no docstring"


def test_the_stubs_match_the_extension():
    classes, functions = stub_classes()
    ext = orca._orca
    assert set(classes) == {"SceneError", "NonFiniteStateError", "State", "Simulator",
                            "PyRVOSimulator", "Recording", "RecordingFrame", "_ParameterRow",
                            "_Event", "_Agent"}
    assert set(functions) == {"parameters", "load_recording"}
    assert functions["load_recording"] == runtime_parameters(orca.load_recording)
    for cls_name in ("State", "Simulator", "PyRVOSimulator", "Recording", "RecordingFrame"):
        cls = getattr(ext, cls_name)
        runtime = {n for n in vars(cls) if not n.startswith("_")}
        stub = {n for n in classes[cls_name] if not n.startswith("_")}
        assert stub == runtime, cls_name
        for name, args in classes[cls_name].items():
            member = getattr(cls, name)
            if isinstance(member, property):
                continue
            actual = runtime_parameters(member)
            if "**kwargs" in actual:  # Simulator() and add_agent() take the parameter table
                assert args[:len(actual) - 1] == actual[:-1], name
            else:
                assert args == actual, f"{cls_name}.{name}: stub {args} != {actual}"
    # The keywords the stubs spell out are the parameter table's.
    table = orca.parameters()
    agent = [r["keyword"] for r in table if r["scope"] == "agent"]
    others = [r["keyword"] for r in table if r["scope"] != "agent"]
    init = classes["Simulator"]["__init__"]
    assert init == others + agent + ["routing", "deadlock_breaking", "threads", "events"]
    add = classes["Simulator"]["add_agent"]
    assert add == ["position", "velocity", "goal", "pref_velocity", "waypoints", "static"] + agent
