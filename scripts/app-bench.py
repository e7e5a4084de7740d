#!/usr/bin/env python3
# app-bench.py - Real applications from Debian's archive, run as their users
# run them, through the ICD loader on pocl-iss and on Debian's pocl 3.1 in
# turn, with a table of ratios (pocl = 1).
# SPDX-License-Identifier: MIT
#
#   scripts/app-bench.py [--reps N] [--hashcat MODES] [--clpeak TESTS]
#                        [--ffmpeg FILTERS] [--markdown FILE]
#
# The groups named run, each with its default list when given without one;
# none named, all three run.
#
# hashcat: `hashcat -b -m M -D 1` (its benchmark on the CPU, the device's
# self-test first: a failed self-test marks the row failed); the rate is
# hashes per second. clpeak: the named tests (--compute-integer and the
# like), each figure of its output a row. ffmpeg: an OpenCL filter between
# hwupload and hwdownload on a generated 1280x720 testsrc2, one thread for
# ffmpeg's own work; the rate is frames per second of the run's real time
# (`-benchmark`'s rtime), after one run per platform that is not timed and
# leaves the kernel caches warm. Every run's frames are hashed (framemd5):
# a row says whether pocl-iss's frames are identical to pocl's, and a run
# whose frames differ from its platform's first counts as failed. Each run
# is a fresh process; rows quote the median of N runs. Installs hashcat,
# clpeak and ffmpeg with apt-get when they are missing (Debian packages
# `hashcat`, `clpeak`, `ffmpeg`). pocl-iss is the
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

# Filter, its options, frames (more for the quick ones, fewer for the
# slow denoiser).
FFMPEG_FILTERS = {
    "avgblur_opencl": ("sizeX=3", 25),
    "boxblur_opencl": ("", 25),
    "convolution_opencl": ("0m=0 -1 0 -1 5 -1 0 -1 0:1m=1 2 1 2 4 2 1 2 1:"
                           "1rdiv=0.0625", 25),
    "sobel_opencl": ("", 25),
    "prewitt_opencl": ("", 25),
    "roberts_opencl": ("", 25),
    "unsharp_opencl": ("", 25),
    "erosion_opencl": ("", 25),
    "dilation_opencl": ("", 25),
    "transpose_opencl": ("dir=clock", 100),
    "pad_opencl": ("1344:768:32:24", 100),
    "nlmeans_opencl": ("s=2:p=3:r=7", 5),
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


def ffmpeg(name, vendor_dir):
    """(frames per second, hash of the frames), or None where the run
    failed."""
    opts, frames = FFMPEG_FILTERS[name]
    chain = "format=yuv420p,hwupload,%s%s,hwdownload,format=yuv420p" % (
        name, "=" + opts if opts else "")
    r = run(["ffmpeg", "-hide_banner", "-nostdin", "-benchmark",
             "-threads", "1", "-init_hw_device", "opencl=ocl:0.0",
             "-filter_hw_device", "ocl", "-f", "lavfi",
             "-i", "testsrc2=size=1280x720:rate=25", "-frames:v", str(frames),
             "-vf", chain, "-f", "framemd5", "-"], vendor_dir, 600)
    if not r or r[0] != 0:
        return None
    m = re.search(r"^bench: .*rtime=([\d.]+)s", r[1], re.M)
    hashes = re.findall(r"^\d+,.*, ([0-9a-f]{32})$", r[1], re.M)
    if not m or len(hashes) != frames:
        return None
    return frames / float(m.group(1)), " ".join(hashes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    groups = {
        "hashcat": ",".join(HASHCAT_MODES),
        "clpeak": "compute-integer,compute-intfast,compute-sp",
        "ffmpeg": ",".join(FFMPEG_FILTERS),
    }
    for g, default in groups.items():
        ap.add_argument("--" + g, nargs="?", const=default)
    ap.add_argument("--markdown")
    args = ap.parse_args()
    if all(getattr(args, g) is None for g in groups):
        for g, default in groups.items():
            setattr(args, g, default)
    dirs = vendors(args)
    rows = []  # (application, test, {platform: [values]})
    modes = [m for m in (args.hashcat or "").split(",") if m]
    tests = [t for t in (args.clpeak or "").split(",") if t]
    filters = [f for f in (args.ffmpeg or "").split(",") if f]
    for f in filters:
        if f not in FFMPEG_FILTERS:
            sys.exit("app-bench: no ffmpeg filter %s (%s)" %
                     (f, ", ".join(FFMPEG_FILTERS)))
    for tool, wanted in (("hashcat", modes), ("clpeak", tests),
                         ("ffmpeg", filters)):
        if wanted:
            ensure(tool, tool)
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
    for name in filters:
        first = {p: ffmpeg(name, d) for p, d in dirs.items()}
        vals = {p: [] for p in dirs}
        for _ in range(args.reps):
            for p, d in dirs.items():
                r = ffmpeg(name, d)
                same = r and first[p] and r[1] == first[p][1]
                vals[p].append(r[0] if same else None)
        if not first["pocl"] or not first["pocl-iss"]:
            frames = "not compared"
        elif first["pocl"][1] == first["pocl-iss"][1]:
            frames = "frames identical"
        else:
            frames = "frames DIFFER"
        rows.append(("ffmpeg", "%s, frames/s, %s" % (name, frames), vals))
        print(format_row(rows[-1]), flush=True)
    table = ["| application | test | pocl | pocl-iss | ratio |",
             "| --- | --- | ---: | ---: | ---: |"]
    table += [format_row(r) for r in rows]
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(table) + "\n")
    print("\n".join(table))
    return 1 if any(re.search("failed|DIFFER|not compared", format_row(r))
                    for r in rows) else 0


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
