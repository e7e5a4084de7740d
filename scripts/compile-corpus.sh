#!/usr/bin/env bash
# compile-corpus.sh - The work-group passes over every kernel the kernel
# tests compile, timed, for compile-time work
# SPDX-License-Identifier: MIT
#
#   scripts/compile-corpus.sh dump CORPUS
#       runs each tests/kernels binary in `split` mode, untiered, with
#       POCL_ISS_DUMP_IR=CORPUS/<binary> and POCL_KERNEL_CACHE=0, and lists
#       every (kernel, local size) compiled in CORPUS/list.txt;
#   scripts/compile-corpus.sh run CORPUS OUT MODE [pocl-iss-opt flags...]
#       runs pocl-iss-opt's work-group pipeline (-passes=iss-workgroup,
#       the compile's; 16 lanes, cheap masks) on each listed kernel's linked IR in MODE,
#       two at a time, with the extra flags (-iss-model-max-ops=N, say),
#       writing OUT/<binary>_<kernel>-<local size>.ll and the seconds of each
#       in OUT/times.txt, and prints the sum and the slowest.
#
# Two runs over the same CORPUS with different flags or builds are
# compared with
#   for f in OUT1/*.ll; do cmp -s $f OUT2/${f##*/} || echo $f; done
# (the IR's ModuleID names the CORPUS folder)
# (doc/design-notes.md, "isl quotas"). A kernel name that two programs
# of one binary share is dumped once, the last one compiled.

set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath "${BUILD:-build}")

case "${1:-}" in
dump)
  CORPUS=$(realpath -m "$2")
  mkdir -p "$CORPUS"
  : > "$CORPUS/list.txt"
  for B in "$BUILD"/tests/kernels/kernel-*; do
    N=$(basename "$B")
    mkdir -p "$CORPUS/$N"
    # Untiered: a tiered launch leaves the mode's compile to a compiler
    # process that exit may stop half-way, and the files dumped would
    # depend on timing.
    OCL_ICD_VENDORS="$BUILD/vendors" POCL_ISS_MODE=split POCL_ISS_TIERED=0 \
      POCL_KERNEL_CACHE=0 POCL_DEBUG=llvm POCL_ISS_DUMP_IR="$CORPUS/$N" \
      "$B" > "$CORPUS/$N.log" 2>&1 || echo "$N failed (see $CORPUS/$N.log)"
    grep -o 'kernel [^ ]*, local size [0-9,]*' "$CORPUS/$N.log" |
      sed 's/,$//' | sort -u |
      while read -r _ K _ _ L; do
        K=${K%,}
        [ -f "$CORPUS/$N/$K-split-linked.ll" ] && echo "$N/$K $L"
      done >> "$CORPUS/list.txt" || true
  done
  echo "$(wc -l < "$CORPUS/list.txt") (kernel, local size) in $CORPUS/list.txt"
  ;;
run)
  CORPUS=$(realpath "$2") OUT=$(realpath -m "$3") MODE=$4
  shift 4
  mkdir -p "$OUT"
  : > "$OUT/times.txt"
  export CORPUS OUT MODE EXTRA="$*" OPT="$BUILD/bin/pocl-iss-opt"
  xargs -P 2 -L 1 bash -c '
    K=$0 L=$1 N=$(echo "$0" | tr / _)-$1
    /usr/bin/time -o "$OUT/$N.t" -f %e timeout 300 "$OPT" \
      -passes=iss-workgroup \
      -iss-mode="$MODE" -iss-vector-width=16 -iss-cheap-masks \
      -iss-kernel="$(basename "$K")" -iss-local-size="$L" $EXTRA \
      "$CORPUS/$K-split-linked.ll" -S -o "$OUT/$N.ll" 2>/dev/null || true
    echo "$N $(tail -1 "$OUT/$N.t")" >> "$OUT/times.txt"
    rm -f "$OUT/$N.t"' < "$CORPUS/list.txt"
  awk '{ S += $2; if ($2 > M) { M = $2; W = $1 } }
       END { printf "%d compiles: %.1f s in all, the slowest %.2f s (%s)\n",
             NR, S, M, W }' "$OUT/times.txt"
  ;;
*)
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
  exit 2
  ;;
esac
