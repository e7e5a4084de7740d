#!/usr/bin/env bash
# test.sh - README command 2: installs what is missing, builds if needed and
# runs every test through CTest (lit, unit, runtime API and end-to-end
# kernels in every POCL_ISS_MODE).
# SPDX-License-Identifier: MIT
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 900
