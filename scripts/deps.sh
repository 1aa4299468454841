#!/usr/bin/env bash
# Installs the Debian 12 packages ORCA Sandbox needs, only those that are missing.
# Usage: scripts/deps.sh [build|test]   (build: app + CLI + Python module; test: also GoogleTest,
# Benchmark, Xvfb, pytest)
set -euo pipefail

build_pkgs=(build-essential cmake ninja-build pkg-config
            libsdl2-dev libimgui-dev libstb-dev libglm-dev nlohmann-json3-dev libcli11-dev libgif-dev
            libpugixml-dev
            libgl-dev libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core
            pybind11-dev python3-dev python3-numpy)
test_pkgs=(libgtest-dev libgmock-dev libbenchmark-dev xvfb xauth xdotool clang-format python3
           python3-pytest)

pkgs=("${build_pkgs[@]}")
if [[ "${1:-build}" == "test" ]]; then pkgs+=("${test_pkgs[@]}"); fi

missing=()
for p in "${pkgs[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi

echo "Installing missing packages: ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y --no-install-recommends "${missing[@]}"
