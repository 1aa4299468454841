#!/usr/bin/env bash
# Installs what is missing, then builds and runs every test: the Release build (unit, scenario,
# CLI and GUI tests under Xvfb) and the ASan+UBSan build (core, scene, CLI and the
# app-logic tests; the Xvfb ones are left out there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
# A previous `scripts/sandbox.sh` configures the same build dir without tests: turn them back on.
cmake --preset dev -DORCA_BUILD_TESTS=ON -DORCA_BUILD_BENCH=ON >/dev/null
cmake --workflow --preset dev
cmake --workflow --preset asan
