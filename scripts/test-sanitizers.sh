#!/usr/bin/env bash
# test-sanitizers.sh - the tests of README command 2 again, on a build of the
# whole tree with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/, -DPOCL_ISS_SANITIZE=address,undefined): every report is
# fatal and fails the test that made it. CI runs it after test.sh
# (.ci/run). LeakSanitizer is off: it cannot run where processes are
# traced, which some CI sandboxes do.
# SPDX-License-Identifier: MIT
BUILD=${BUILD:-build-asan}
POCL_ISS_CMAKE_ARGS="-DPOCL_ISS_SANITIZE=address,undefined ${POCL_ISS_CMAKE_ARGS:-}"
source "$(dirname "$0")/common.sh"
cd "$BUILD"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
  ctest --output-on-failure -j"$(nproc)" --timeout 900
