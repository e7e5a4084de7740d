#!/usr/bin/env bash
# common.sh - what both README commands do first: install the Debian 12
# packages pocl-iss builds and runs with (root, or sudo), then configure and
# build into $BUILD (default build/; POCL_ISS_CMAKE_ARGS adds configure
# options, POCL_ISS_TARGETS names the targets to build, default all).
# Sourced by setup-and-demo.sh and test.sh, run by test-sanitizers.sh.
# SPDX-License-Identifier: MIT
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

POCL_ISS_PACKAGES=(
  build-essential cmake pkg-config python3
  llvm-19-dev clang-19 libclang-19-dev libpolly-19-dev
  libpocl2 libpocl2-common pocl-opencl-icd
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers
  libhwloc-dev googletest libgtest-dev clinfo gnuplot-nox
)

missing=()
for p in "${POCL_ISS_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "pocl-iss: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

BUILD=${BUILD:-build}
# shellcheck disable=SC2086 # extra configure options, word-split on purpose
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release ${POCL_ISS_CMAKE_ARGS:-}
# shellcheck disable=SC2086 # a list of targets
cmake --build "$BUILD" -j"$(nproc)" ${POCL_ISS_TARGETS:+--target $POCL_ISS_TARGETS}
