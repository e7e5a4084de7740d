#!/usr/bin/env python3
# app-bench.py - Real applications from Debian's archive, run as their users
# run them, through the ICD loader on pocl-iss and on Debian's pocl 3.1 in
# turn, with a table of ratios (pocl = 1).
# SPDX-License-Identifier: MIT
#
#   scripts/app-bench.py [--reps N] [--hashcat MODES] [--clpeak TESTS]
#                        [--markdown FILE]
#
# hashcat: `hashcat -b -m M -D 1` (its benchmark on the CPU, the device's
# self-test first: a failed self-test marks the row failed); the rate is
# hashes per second. clpeak: the named tests (--compute-integer and the
# like), each figure of its output a row. Each run is a fresh process; rows
# quote the median of N runs. Installs hashcat and clpeak with apt-get when
# they are missing (Debian packages `hashcat`, `clpeak`). pocl-iss is the
# build tree's (build/vendors, or $BUILD/vendors); pocl is the one
# /etc/OpenCL/vendors/pocl.icd names.
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HASHCAT_MODES = {
    "0": "MD5", "100": "SHA1", "1000": "NTLM", "1400": "SHA2-256",
    "1700": "SHA2-512", "500": "md5crypt", "3200": "bcrypt",
    "2500": "WPA-PBKDF2",
}


def ensure(tool, package):
    if shutil.which(tool):
        return
    subprocess.run(["apt-get", "install", "-y", "-q", package], check=True,
                   stdout=subprocess.DEVNULL)


def vendors(args):
    """The OCL_ICD_VENDORS folder of each platform."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.environ.get("BUILD", os.path.join(root, "build"))
    iss = os.path.join(build, "vendors")
    if not os.path.exists(os.path.join(iss, "pocl-iss.icd")):
        sys.exit("app-bench: no %s/pocl-iss.icd: build first" % iss)
    pocl = tempfile.mkdtemp(prefix="app-bench-pocl-")
    os.symlink("/etc/OpenCL/vendors/pocl.icd", os.path.join(pocl, "pocl.icd"))
    return {"pocl": pocl, "pocl-iss": iss}


def run(cmd, vendor_dir, timeout):
    env = dict(os.environ, OCL_ICD_VENDORS=vendor_dir)
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                           timeout=timeout, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        return None
    return p.returncode, p.stdout + p.stderr


def hashcat(mode, vendor_dir):
    """Hashes per second, or None where the run or its self-test failed."""
    r = run(["hashcat", "-b", "-m", mode, "-D", "1", "--force",
             "--machine-readable", "--quiet"], vendor_dir, 1800)
    if not r or r[0] != 0 or re.search(r"[Ss]elf-test .*fail", r[1]):
        return None
    for line in r[1].splitlines():
        f = line.split(":")
        if len(f) == 6 and f[1] == mode:
            return float(f[5])
    return None


def clpeak(test, vendor_dir):
    """{figure: value} of one clpeak test."""
    r = run(["clpeak", "--" + test], vendor_dir, 1800)
    if not r or r[0] != 0:
        return {}
    out, section = {}, ""
    for line in r[1].splitlines():
        m = re.match(r"\s+([A-Za-z].*\S)\s+\((\w+/?\w*)\)\s*$", line)
        if m:
            section = m.group(1)
            continue
        m = re.match(r"\s+(\w+)\s+:\s+([\d.]+)\s*$", line)
        if m and section:
            out["%s %s" % (section, m.group(1))] = float(m.group(2))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--hashcat", default=",".join(HASHCAT_MODES))
    ap.add_argument("--clpeak", default="compute-integer,compute-intfast,"
                    "compute-sp")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    dirs = vendors(args)
    rows = []  # (application, test, {platform: [values]})
    modes = [m for m in args.hashcat.split(",") if m]
    tests = [t for t in args.clpeak.split(",") if t]
    if modes:
        ensure("hashcat", "hashcat")
    if tests:
        ensure("clpeak", "clpeak")
    for mode in modes:
        vals = {p: [] for p in dirs}
        for _ in range(args.reps):
            for p, d in dirs.items():
                vals[p].append(hashcat(mode, d))
        rows.append(("hashcat", "%s (-m %s), H/s" %
                     (HASHCAT_MODES.get(mode, mode), mode), vals))
        print(format_row(rows[-1]), flush=True)
    for test in tests:
        vals = {}
        for _ in range(args.reps):
            for p, d in dirs.items():
                for fig, v in clpeak(test, d).items():
                    vals.setdefault(fig, {q: [] for q in dirs})[p].append(v)
        for fig, v in vals.items():
            rows.append(("clpeak", fig, v))
            print(format_row(rows[-1]), flush=True)
    table = ["| application | test | pocl | pocl-iss | ratio |",
             "| --- | --- | ---: | ---: | ---: |"]
    table += [format_row(r) for r in rows]
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(table) + "\n")
    print("\n".join(table))
    return 1 if any("failed" in format_row(r) for r in rows) else 0


def median(values):
    """The median of the runs, None if any failed."""
    if not values or any(v is None for v in values):
        return None
    return statistics.median(values)


def format_row(row):
    app, test, vals = row
    pocl, iss = median(vals.get("pocl")), median(vals.get("pocl-iss"))
    show = lambda v: "failed" if v is None else "%.4g" % v
    ratio = "%.2fx" % (iss / pocl) if pocl and iss is not None else "-"
    return "| %s | %s | %s | %s | %s |" % (app, test, show(pocl), show(iss),
                                          ratio)


if __name__ == "__main__":
    sys.exit(main())
