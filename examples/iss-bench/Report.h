//===- Report.h - Results, statistics and report files ----------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The measured data of iss-bench and how it is summarised: medians with
// spread (DESIGN.md section 5: never a single absolute time), speed-ups as
// ratios of medians against Debian's pocl and against the scalar mode, the
// first launch of each configuration (compilation included) and each mode's
// over vec's, and gnuplot figures normalised to the fastest configuration like
// the paper's Figures 12 and 13 (section 6.4).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_ISSBENCH_REPORT_H
#define POCL_ISS_EXAMPLES_ISSBENCH_REPORT_H

#include <string>
#include <vector>

namespace issbench {

/// One measured configuration: a platform, a POCL_ISS_MODE (empty for other
/// platforms) and a thread setting ("1" or "all").
struct Config {
  std::string Platform, Label, Mode, Threads;
  /// Column name in the tables: the mode for pocl-iss, else the label.
  std::string column() const { return Mode.empty() ? Label : Mode; }
  std::string name() const {
    return Label + (Mode.empty() ? "" : "/" + Mode) + "/" +
           (Threads == "1" ? "1 thread" : "all cores");
  }
};

struct Result {
  Config Cfg;
  std::string Benchmark;
  /// ok, FAIL (verification), ERROR, unsupported (no implementation, or a
  /// barrier kernel this platform does not build)
  std::string Status;
  std::string Desc, Message;
  std::vector<double> TimesMs;
  /// The warm-up run (run 0), which compiles the work-group function at
  /// enqueue time (kernel caches off): wall-clock and process CPU time in
  /// ms around run() and clFinish; negative if run 0 did not complete.
  double FirstLaunchMs = -1, FirstLaunchCpuMs = -1;
};

struct Stats {
  double Median = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0;
};

Stats stats(std::vector<double> V);

/// Parses a child's line "RESULT\t<status>\t<desc>\t<times>\t<msg>\t<first
/// launch ms>\t<first launch CPU ms>" (the last two empty if run 0 did not
/// complete). A line that does not have this form gives status ERROR.
Result parseResultLine(const Config &C, const std::string &Benchmark,
                       const std::string &Line);

struct ReportInfo {
  std::string OutDir, SizeName;
  int Reps = 0;
  bool CpuTime = false; ///< times are process CPU time (--cpu-time)
  std::vector<std::string> Threads, Benchmarks, PlatformNames;
  std::vector<Config> Configs;
};

/// Writes results.csv, results.md and the speed-up plots into OutDir.
void writeReport(const ReportInfo &Info, const std::vector<Result> &Results);

} // namespace issbench

#endif // POCL_ISS_EXAMPLES_ISSBENCH_REPORT_H
