#!/usr/bin/env bash
# test.sh - README command 2: installs what is missing, builds if needed and
# runs every test through CTest (lit, unit, runtime API and end-to-end
# kernels in every POCL_ISS_MODE).
# SPDX-License-Identifier: MIT
source "$(dirname "$0")/common.sh"
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)" --timeout 900
