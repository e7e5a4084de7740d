#!/usr/bin/env python3
# compare-bench.py - Ratio of medians between two sets of iss-bench runs
# SPDX-License-Identifier: MIT
#
# For an A/B measurement of one switch (POCL_ISS_SAFE_DIVISION=1 against 0,
# say): run iss-bench alternately with A and with B into separate --out
# folders, so that the load of a shared machine falls on both alike, then
#
#   scripts/compare-bench.py A1,A2,... B1,B2,...
#
# pools the timed runs of each (benchmark, platform, mode, threads) over the
# folders of each side and prints both medians and their ratio A/B. A
# platform the switch does not reach (Debian's pocl) shows the noise: its
# ratio should be 1.

import csv
import statistics
import sys


def pooled(dirs):
    times = {}
    for d in dirs.split(","):
        with open(d + "/results.csv", newline="") as f:
            for row in csv.DictReader(f):
                if row["status"] != "ok":
                    continue
                key = (row["benchmark"], row["platform"], row["mode"],
                       row["threads"])
                times.setdefault(key, []).extend(
                    float(t) for t in row["times_ms"].split(";") if t)
    return times


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare-bench.py A_DIR[,A_DIR...] B_DIR[,B_DIR...]")
    a, b = pooled(sys.argv[1]), pooled(sys.argv[2])
    print("| benchmark | platform | mode | threads | runs A/B "
          "| median A, ms | median B, ms | A/B |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for key in sorted(a.keys() & b.keys()):
        ma, mb = statistics.median(a[key]), statistics.median(b[key])
        bench, platform, mode, threads = key
        print(f"| {bench} | {platform} | {mode or '-'} | {threads} "
              f"| {len(a[key])}/{len(b[key])} | {ma:.2f} | {mb:.2f} "
              f"| {ma / mb:.3f} |")


if __name__ == "__main__":
    main()
