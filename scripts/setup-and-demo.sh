#!/usr/bin/env bash
# setup-and-demo.sh - README command 1: installs the packages, configures and
# builds pocl-iss, then runs the Convolution2D demo through the ICD loader
# under every POCL_ISS_MODE and under Debian's pocl, with the speed-ups.
# SPDX-License-Identifier: MIT
source "$(dirname "$0")/common.sh"
echo
echo "== clinfo through the ICD loader (OCL_ICD_VENDORS=$BUILD/vendors) =="
OCL_ICD_VENDORS="$PWD/$BUILD/vendors" clinfo -l
echo
echo "== Convolution2D (the paper's Figure 2), every mode and Debian's pocl =="
"$BUILD/examples/iss-bench" --quick --benchmarks Convolution2D --out "$BUILD/demo"
cat "$BUILD/demo/results.md"
