#!/bin/sh
# if-cpu-has.sh <feature>... -- <command>...: runs the command where
# /proc/cpuinfo lists every feature, and exits 77 (CTest's skip) where it
# does not: the tests of a POCL_ISS_TARGET the host may not run.
# SPDX-License-Identifier: MIT
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  grep -qw "$1" /proc/cpuinfo || exit 77
  shift
done
shift
exec "$@"
