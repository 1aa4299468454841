#!/usr/bin/env bash
# Installs what is missing, builds, and launches the sandbox (default scene: scenes/welcome.json).
# Extra arguments go to orca-sandbox, e.g. scripts/sandbox.sh scenes/blocks.json
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh build
cmake --preset dev -DORCA_BUILD_TESTS=OFF -DORCA_BUILD_BENCH=OFF >/dev/null
cmake --build --preset dev --target orca-sandbox orca
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
    echo "No display found (DISPLAY is not set). Run under a desktop session, or headless:" >&2
    echo "  xvfb-run -a -s '-screen 0 1280x800x24' build/bin/orca-sandbox --screenshot out.png" >&2
    exit 1
fi
exec build/bin/orca-sandbox "$@"
