"""Shared helpers of the Python test suite (tests/python; run by ctest, label `python`)."""

import json
import os
import pathlib
import struct
import subprocess

SOURCE_DIR = pathlib.Path(os.environ.get("ORCA_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
SCENES = SOURCE_DIR / "scenes"


def f32(x: float) -> float:
    """x rounded to float (what RVO2's float state holds), as a Python float."""
    return struct.unpack("f", struct.pack("f", x))[0]


def orca_cli() -> str:
    """The `orca` binary the ctest passes in ORCA_CLI (the CLI is the reference for explain
    and events)."""
    path = os.environ.get("ORCA_CLI")
    if not path:
        raise RuntimeError("ORCA_CLI is not set: run the suite through ctest "
                           "(or set ORCA_CLI to the build's bin/orca)")
    if not os.path.exists(path):
        raise RuntimeError(f"ORCA_CLI={path} does not exist: build the target `orca`")
    return path


def run_cli(*args: str):
    """Runs `orca ARGS...` and returns its standard output parsed as JSON."""
    out = subprocess.run([orca_cli(), *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)
