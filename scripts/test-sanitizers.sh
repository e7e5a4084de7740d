#!/usr/bin/env bash
# test-sanitizers.sh - the tests of README command 2 again on builds with
# the compiler's sanitizers (-DPOCL_ISS_SANITIZE, doc/architecture.md,
# "Sanitizers"), where every report is fatal and fails the test that made
# it, and the tests' time limits are scaled for the slower code:
#
#   bash scripts/test-sanitizers.sh      by hand: every test on an
#       AddressSanitizer+UndefinedBehaviorSanitizer build (build-asan/);
#   bash scripts/test-sanitizers.sh ci   CI, after test.sh (.ci/run): on
#       build-asan/ the runtime API tests (the stress test among them), the
#       unit tests and the end-to-end kernels in the default mode; then on
#       a ThreadSanitizer build (build-tsan/) the concurrency-heavy runtime
#       tests: stress, events, queues, the tiered first launch.
#
# A sanitizer report anywhere in a test's output fails the run as well,
# even one from a child process whose status the test does not look at.
# The trees are configured and built by common.sh (without the examples),
# from scratch on a fresh machine. LeakSanitizer is off: it cannot run
# where processes are traced, which some CI sandboxes do.
# SPDX-License-Identifier: MIT
set -euo pipefail
cd "$(dirname "$0")/.."
SCOPE=${1:-all}
case "$SCOPE" in
  all | ci) ;;
  *) echo "usage: $0 [all|ci]" >&2; exit 2 ;;
esac

# sanitized <build dir> <sanitizers> <targets, empty for all> <ctest args>...
sanitized() {
  local Dir=$1 Sanitizers=$2 Targets=$3
  shift 3
  local Start=$SECONDS
  BUILD=$Dir POCL_ISS_TARGETS=$Targets \
    POCL_ISS_CMAKE_ARGS="-DPOCL_ISS_SANITIZE=$Sanitizers -DPOCL_ISS_BUILD_EXAMPLES=OFF ${POCL_ISS_CMAKE_ARGS:-}" \
    bash scripts/common.sh
  local Built=$SECONDS
  # ThreadSanitizer's shadow memory needs the address space laid out
  # without randomization on kernels with high ASLR entropy.
  local Prefix=()
  [ "$Sanitizers" != thread ] || Prefix=(setarch "$(uname -m)" -R)
  # Tests without a limit of their own (the unit tests) get an hour.
  (cd "$Dir" && ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} \
    "${Prefix[@]}" ctest --output-on-failure -j"$(nproc)" --timeout 3600 "$@")
  if grep -n -E "ERROR: (AddressSanitizer|LeakSanitizer|ThreadSanitizer)|WARNING: ThreadSanitizer|runtime error: " \
      "$Dir/Testing/Temporary/LastTest.log"; then
    echo "test-sanitizers: the reports above, in $Dir/Testing/Temporary/LastTest.log" >&2
    exit 1
  fi
  echo "test-sanitizers: $Sanitizers ($Dir): build $((Built - Start)) s, tests $((SECONDS - Built)) s"
}

if [ "$SCOPE" = all ]; then
  sanitized build-asan address,undefined ""
else
  sanitized build-asan address,undefined "" -L '^(runtime|unit|default-mode)$'
  sanitized build-tsan thread \
    "runtime-stress runtime-event runtime-queue runtime-tiered runtime-tiered-stress" \
    -R '^runtime-(stress|stress-nospin|event|queue|tiered|tiered-stress)$'
fi
