//===- Report.cpp - CSV, Markdown and gnuplot output of iss-bench ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Turns the per-configuration run times into the ablation report: a CSV with
// every run, a Markdown summary (medians with min/max, speed-ups of each
// POCL_ISS_MODE vs Debian's pocl and vs scalar, geometric means, the first
// launch of each configuration with its compilation) and PNG bar charts of
// the speed-up normalised to the fastest configuration per benchmark, in the
// manner of the paper's Figures 12 and 13 (section 6.4).
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/utsname.h>

namespace issbench {

Stats stats(std::vector<double> V) {
  Stats S;
  if (V.empty())
    return S;
  std::sort(V.begin(), V.end());
  // Linear interpolation between order statistics (type 7 quantiles).
  auto Q = [&](double P) {
    double Pos = P * double(V.size() - 1);
    size_t Lo = size_t(std::floor(Pos));
    size_t Hi = std::min(Lo + 1, V.size() - 1);
    return V[Lo] + (Pos - double(Lo)) * (V[Hi] - V[Lo]);
  };
  S.Min = V.front();
  S.Max = V.back();
  S.Median = Q(0.5);
  S.Q1 = Q(0.25);
  S.Q3 = Q(0.75);
  return S;
}

Result parseResultLine(const Config &C, const std::string &Benchmark,
                       const std::string &Line) {
  Result R;
  R.Cfg = C;
  R.Benchmark = Benchmark;
  std::vector<std::string> F;
  size_t Pos = 0;
  while (true) {
    size_t Tab = Line.find('\t', Pos);
    F.push_back(Line.substr(Pos, Tab == std::string::npos ? Tab : Tab - Pos));
    if (Tab == std::string::npos)
      break;
    Pos = Tab + 1;
  }
  // The first-launch fields: empty (run 0 did not complete) or a time.
  auto FirstLaunch = [](const std::string &S, double &Ms) {
    if (S.empty())
      return true;
    char *End;
    Ms = std::strtod(S.c_str(), &End);
    return *End == 0 && std::isfinite(Ms) && Ms >= 0;
  };
  // The message cannot hold a tab (the child replaces them), so a line
  // with another number of fields is not one of ours.
  double First = -1, FirstCpu = -1;
  if (F.size() != 7 || F[0] != "RESULT" || !FirstLaunch(F[5], First) ||
      !FirstLaunch(F[6], FirstCpu) || F[5].empty() != F[6].empty()) {
    R.Status = "ERROR";
    R.Message = "malformed result line";
    return R;
  }
  R.FirstLaunchMs = First;
  R.FirstLaunchCpuMs = FirstCpu;
  R.Status = F[1];
  R.Desc = F[2];
  R.Message = F[4];
  std::stringstream SS(F[3]);
  std::string T;
  while (std::getline(SS, T, ','))
    if (!T.empty())
      R.TimesMs.push_back(std::atof(T.c_str()));
  return R;
}

namespace {

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

std::string csvQuote(const std::string &S) {
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0)
      return Line.substr(Line.find(':') + 2);
  return "unknown CPU";
}

std::string threadsTitle(const std::string &T) {
  return T == "1" ? "single-threaded (POCL_MAX_PTHREAD_COUNT=1)"
                  : "all cores (POCL_MAX_PTHREAD_COUNT unset)";
}

/// Median per (threads, column, benchmark) of the verified results only: a
/// wrong answer has no speed.
using MedianMap = std::map<std::string, double>;
std::string key(const std::string &T, const std::string &Col,
                const std::string &B) {
  return T + "|" + Col + "|" + B;
}

const Result *find(const std::vector<Result> &Rs, const std::string &T,
                   const std::string &Col, const std::string &B) {
  for (const Result &R : Rs)
    if (R.Benchmark == B && R.Cfg.Threads == T && R.Cfg.column() == Col)
      return &R;
  return nullptr;
}

void writeCsv(const ReportInfo &Info, const std::vector<Result> &Results) {
  std::ofstream Out(Info.OutDir + "/results.csv");
  Out << "benchmark,problem,platform,mode,threads,status,reps,median_ms,min_ms,"
         "max_ms,q1_ms,q3_ms,times_ms,message,first_launch_ms,"
         "first_launch_cpu_ms\n";
  for (const Result &R : Results) {
    Stats S = stats(R.TimesMs);
    std::string Times;
    for (double T : R.TimesMs)
      Times += (Times.empty() ? "" : ";") + fmt("%.4f", T);
    Out << R.Benchmark << "," << csvQuote(R.Desc) << ","
        << csvQuote(R.Cfg.Platform) << "," << R.Cfg.Mode << "," << R.Cfg.Threads
        << "," << R.Status << "," << R.TimesMs.size() << ",";
    if (R.TimesMs.empty())
      Out << ",,,,,";
    else
      Out << fmt("%.4f", S.Median) << "," << fmt("%.4f", S.Min) << ","
          << fmt("%.4f", S.Max) << "," << fmt("%.4f", S.Q1) << ","
          << fmt("%.4f", S.Q3) << ",";
    Out << Times << "," << csvQuote(R.Message) << ",";
    if (R.FirstLaunchMs >= 0)
      Out << fmt("%.4f", R.FirstLaunchMs) << ","
          << fmt("%.4f", R.FirstLaunchCpuMs);
    else
      Out << ",";
    Out << "\n";
  }
}

std::vector<std::string> columnsFor(const ReportInfo &Info,
                                    const std::string &T) {
  std::vector<std::string> Cols;
  for (const Config &C : Info.Configs)
    if (C.Threads == T &&
        std::find(Cols.begin(), Cols.end(), C.column()) == Cols.end())
      Cols.push_back(C.column());
  return Cols;
}

bool isMode(const std::string &Col) {
  return Col == "scalar" || Col == "vec" || Col == "split" || Col == "score" ||
         Col == "split+score";
}

/// The table cell of a result that has no time: not run, or wrong.
std::string notOkCell(const Result &R) {
  if (R.Status == "unsupported")
    return "not supported";
  return R.Status == "FAIL" ? "**WRONG RESULT**" : "**ERROR**";
}

/// exp of the mean of \p Logs (logarithms of ratios); 0 if empty.
double geometricMean(const std::vector<double> &Logs) {
  double S = 0;
  for (double X : Logs)
    S += X;
  return Logs.empty() ? 0.0 : std::exp(S / double(Logs.size()));
}

/// "First launch (compile included)": per thread setting, the warm-up run's
/// wall time in every configuration, and for pocl-iss each mode's over
/// vec's.
void writeFirstLaunch(std::ofstream &Out, const ReportInfo &Info,
                      const std::vector<Result> &Results) {
  Out << "## First launch (compile included)\n\n"
      << "Wall-clock time in ms of each configuration's warm-up run (run 0: "
         "the benchmark's enqueues and clFinish) with kernel caches off "
         "(POCL_KERNEL_CACHE=0), so that it includes compiling the "
         "work-group functions at enqueue time, besides the first run "
         "itself and its uploads; clBuildProgram comes before it and is not "
         "included. One run each, not a median. results.csv also has the "
         "process CPU time of that run (first_launch_cpu_ms). "
         "`split/vec` and the like: pocl-iss's first launch in that mode "
         "over its first launch in vec; the geometric mean is over the "
         "benchmarks where both were verified. The first launch compiles "
         "the mode's own code (POCL_ISS_TIERED=0, so that the timed runs "
         "run it; POCL_ISS_TIERED=1 in the environment measures the tiered "
         "first launch, which runs `vec`'s code).\n\n";
  for (const std::string &T : Info.Threads) {
    std::vector<std::string> Cols = columnsFor(Info, T), Ratios;
    if (std::count(Cols.begin(), Cols.end(), "vec"))
      for (const auto &C : Cols)
        if (isMode(C) && C != "vec")
          Ratios.push_back(C);
    Out << "### " << threadsTitle(T) << "\n\n| benchmark |";
    for (const auto &C : Cols)
      Out << " " << C << " |";
    for (const auto &M : Ratios)
      Out << " " << M << "/vec |";
    Out << "\n|---|";
    for (size_t I = 0; I < Cols.size() + Ratios.size(); ++I)
      Out << "---:|";
    Out << "\n";
    auto FirstMs = [&](const std::string &C, const std::string &B) {
      const Result *R = find(Results, T, C, B);
      return R && R->Status == "ok" ? R->FirstLaunchMs : -1.0;
    };
    std::map<std::string, std::vector<double>> Logs;
    for (const std::string &B : Info.Benchmarks) {
      std::string Row = "| " + B + " |";
      bool Any = false;
      for (const auto &C : Cols) {
        const Result *R = find(Results, T, C, B);
        Any |= R != nullptr;
        if (!R)
          Row += " |";
        else if (R->Status != "ok")
          Row += " " + notOkCell(*R) + " |";
        else
          Row += " " +
                 (R->FirstLaunchMs >= 0 ? fmt("%.1f", R->FirstLaunchMs) : "-") +
                 " |";
      }
      for (const auto &M : Ratios) {
        double X = FirstMs(M, B), V = FirstMs("vec", B);
        if (X > 0 && V > 0) {
          Row += " " + fmt("%.2fx", X / V) + " |";
          Logs[M].push_back(std::log(X / V));
        } else {
          Row += " - |";
        }
      }
      if (Any)
        Out << Row << "\n";
    }
    if (!Ratios.empty()) {
      Out << "| **geometric mean** |";
      for (size_t I = 0; I < Cols.size(); ++I)
        Out << " |";
      for (const auto &M : Ratios)
        Out << " **"
            << (Logs[M].empty() ? "-" : fmt("%.2fx", geometricMean(Logs[M])))
            << "** |";
      Out << "\n";
    }
    Out << "\n";
  }
}

void writeMarkdown(const ReportInfo &Info, const std::vector<Result> &Results,
                   const MedianMap &Medians) {
  std::ofstream Out(Info.OutDir + "/results.md");
  struct utsname U;
  uname(&U);
  std::time_t Now = std::time(nullptr);
  char Date[64];
  std::strftime(Date, sizeof(Date), "%Y-%m-%d %H:%M %Z", std::localtime(&Now));
  Out << "# iss-bench results\n\n"
      << "- date: " << Date << "\n- host: " << U.nodename << ", " << cpuModel()
      << "\n- platforms:";
  for (const auto &P : Info.PlatformNames)
    Out << " \"" << P << "\"";
  Out << "\n- problem size: " << Info.SizeName << "; " << Info.Reps
      << " timed runs after one warm-up per configuration, every run verified\n"
      << (Info.CpuTime
              ? "- time: CPU time of the whole process during each run "
                "(--cpu-time: uploads included, time the process waited for "
                "a core excluded); median, with [min, max]\n\n"
              : "- time: sum of the benchmark's kernel launches from event "
                "profiling (CL_PROFILING_COMMAND_START..END); median, with "
                "[min, max]; the host-side benchmarks (launch, launch-wait) "
                "report wall-clock microseconds per launch instead, as their "
                "problem column says\n\n");

  for (const std::string &T : Info.Threads) {
    std::vector<std::string> Cols = columnsFor(Info, T);
    Out << "## " << threadsTitle(T) << "\n\n### "
        << (Info.CpuTime ? "CPU time" : "Kernel time")
        << ", ms: median [min, max]\n\n"
        << "| benchmark | problem |";
    for (const auto &C : Cols)
      Out << " " << C << " |";
    Out << "\n|---|---|";
    for (size_t I = 0; I < Cols.size(); ++I)
      Out << "---:|";
    Out << "\n";
    for (const std::string &B : Info.Benchmarks) {
      std::string Desc;
      std::string Row;
      bool Unsupported = false;
      for (const auto &C : Cols) {
        const Result *R = find(Results, T, C, B);
        if (!R) {
          for (const Result &X : Results)
            if (X.Benchmark == B && X.Status == "unsupported")
              Unsupported = true;
          Row += " |";
          continue;
        }
        if (!R->Desc.empty())
          Desc = R->Desc;
        if (R->Status == "ok") {
          Stats S = stats(R->TimesMs);
          Row += " " + fmt("%.3f", S.Median) + " [" + fmt("%.3f", S.Min) +
                 ", " + fmt("%.3f", S.Max) + "] |";
        } else {
          Row += " " + notOkCell(*R) + " |";
        }
      }
      if (Unsupported)
        Out << "| " << B << " | not supported yet |" << Row << "\n";
      else
        Out << "| " << B << " | " << Desc << " |" << Row << "\n";
    }

    // Speed-ups: ratios of medians, one cell per mode.
    bool HavePocl = std::find(Cols.begin(), Cols.end(), "pocl") != Cols.end();
    bool HaveScalar =
        std::find(Cols.begin(), Cols.end(), "scalar") != Cols.end();
    std::vector<std::string> Modes;
    for (const auto &C : Cols)
      if (isMode(C))
        Modes.push_back(C);
    if (!Modes.empty() && (HavePocl || HaveScalar)) {
      Out << "\n### Speed-up of pocl-iss (ratio of medians): "
          << (HavePocl ? "vs pocl" : "")
          << (HavePocl && HaveScalar ? " / " : "")
          << (HaveScalar ? "vs scalar" : "") << "\n\n| benchmark |";
      for (const auto &M : Modes)
        Out << " " << M << " |";
      Out << "\n|---|";
      for (size_t I = 0; I < Modes.size(); ++I)
        Out << "---:|";
      Out << "\n";
      std::map<std::string, std::vector<double>> LogPocl, LogScalar;
      for (const std::string &B : Info.Benchmarks) {
        auto Med = [&](const std::string &C) {
          auto It = Medians.find(key(T, C, B));
          return It == Medians.end() ? 0.0 : It->second;
        };
        bool Any = false;
        std::string Row = "| " + B + " |";
        for (const auto &M : Modes) {
          double X = Med(M), P = Med("pocl"), S = Med("scalar");
          std::string Cell;
          if (X > 0 && HavePocl) {
            Cell += P > 0 ? fmt("%.2fx", P / X) : "-";
            if (P > 0)
              LogPocl[M].push_back(std::log(P / X));
          }
          if (X > 0 && HaveScalar) {
            Cell += std::string(HavePocl ? " / " : "") +
                    (S > 0 ? fmt("%.2fx", S / X) : "-");
            if (S > 0)
              LogScalar[M].push_back(std::log(S / X));
          }
          Any |= X > 0;
          Row += " " + (Cell.empty() ? "-" : Cell) + " |";
        }
        if (Any)
          Out << Row << "\n";
      }
      Out << "| **geometric mean** |";
      for (const auto &M : Modes) {
        std::string Cell;
        if (HavePocl)
          Cell += LogPocl[M].empty() ? "-"
                                     : fmt("%.2fx", geometricMean(LogPocl[M]));
        if (HaveScalar)
          Cell += std::string(HavePocl ? " / " : "") +
                  (LogScalar[M].empty()
                       ? "-"
                       : fmt("%.2fx", geometricMean(LogScalar[M])));
        Out << " **" << Cell << "** |";
      }
      Out << "\n";
    }
    Out << "\n";
    for (const char *Fig : {"fig12", "fig13"}) {
      std::string Png = std::string("speedup-") + T + "-" + Fig + ".png";
      if (std::ifstream(Info.OutDir + "/" + Png))
        Out << "![" << Fig << ", " << threadsTitle(T) << "](" << Png << ")\n";
    }
    Out << "\n";
  }

  writeFirstLaunch(Out, Info, Results);

  bool Header = false;
  for (const Result &R : Results) {
    if (R.Status != "FAIL" && R.Status != "ERROR")
      continue;
    if (!Header)
      Out << "## Failures\n\n";
    Header = true;
    Out << "- **" << R.Benchmark << "** on " << R.Cfg.name() << ": "
        << (R.Status == "FAIL" ? "WRONG RESULT: " : "ERROR: ") << R.Message
        << "\n";
  }
  Header = false;
  for (const Result &R : Results) {
    if (R.Status != "unsupported")
      continue;
    if (!Header)
      Out << "\n## Not run\n\n";
    Header = true;
    Out << "- " << R.Benchmark
        << (R.Cfg.Platform.empty() ? "" : " on " + R.Cfg.name()) << ": "
        << R.Message << "\n";
  }
}

/// One clustered bar chart: per benchmark, the speed-up of each column
/// relative to the fastest column of that benchmark (1.0 = fastest).
void writePlot(const ReportInfo &Info, const std::string &T,
               const std::string &Name, const std::string &Title,
               const std::vector<std::string> &Wanted, const MedianMap &Medians,
               const std::vector<std::string> &AllCols) {
  std::vector<std::string> Cols;
  for (const auto &W : Wanted)
    if (std::find(AllCols.begin(), AllCols.end(), W) != AllCols.end())
      Cols.push_back(W);
  if (Cols.empty())
    return;
  std::string Base = Info.OutDir + "/speedup-" + T + "-" + Name;
  std::ofstream Dat(Base + ".dat");
  Dat << "benchmark";
  for (const auto &C : Cols)
    Dat << "\t\"" << C << "\"";
  Dat << "\n";
  size_t Rows = 0;
  for (const std::string &B : Info.Benchmarks) {
    double Best = 0;
    for (const auto &C : AllCols) {
      auto It = Medians.find(key(T, C, B));
      if (It != Medians.end() && (Best == 0 || It->second < Best))
        Best = It->second;
    }
    if (Best == 0)
      continue;
    ++Rows;
    Dat << B;
    for (const auto &C : Cols) {
      auto It = Medians.find(key(T, C, B));
      Dat << "\t" << (It == Medians.end() ? 0.0 : Best / It->second);
    }
    Dat << "\n";
  }
  Dat.close();
  if (!Rows)
    return;
  std::ofstream Gp(Base + ".gp");
  // noenhanced: benchmark and variable names contain '_' and '+'.
  Gp << "set terminal pngcairo noenhanced size 1200,500 font 'sans,10'\n"
     << "set output '" << Base << ".png'\n"
     << "set title '" << Title << "'\n"
     << "set ylabel 'speed-up, normalised to the fastest'\n"
     << "set yrange [0:1.1]\nset grid ytics\nset key outside right top\n"
     << "set style data histogram\nset style histogram cluster gap 1\n"
     << "set style fill solid 0.85 border -1\nset boxwidth 0.9\n"
     << "set xtics rotate by -35 scale 0\n"
     << "plot for [i=2:" << Cols.size() + 1 << "] '" << Base
     << ".dat' using i:xtic(1) title columnheader(i)\n";
  Gp.close();
  std::string Cmd = "gnuplot '" + Base + ".gp' 2>&1";
  if (std::system(Cmd.c_str()) != 0)
    std::fprintf(stderr, "iss-bench: warning: gnuplot failed for %s.gp\n",
                 Base.c_str());
}

} // namespace

void writeReport(const ReportInfo &Info, const std::vector<Result> &Results) {
  MedianMap Medians;
  for (const Result &R : Results)
    if (R.Status == "ok" && !R.TimesMs.empty())
      Medians[key(R.Cfg.Threads, R.Cfg.column(), R.Benchmark)] =
          stats(R.TimesMs).Median;
  writeCsv(Info, Results);
  for (const std::string &T : Info.Threads) {
    std::vector<std::string> Cols = columnsFor(Info, T);
    std::vector<std::string> Fig12 = {"split+score", "pocl", "vec", "scalar"};
    std::vector<std::string> Fig13 = {"split", "score", "vec", "split+score"};
    // Other platforms (not pocl) join both figures.
    for (const auto &C : Cols)
      if (!isMode(C) && C != "pocl") {
        Fig12.push_back(C);
        Fig13.push_back(C);
      }
    std::string TT = threadsTitle(T);
    writePlot(Info, T, "fig12",
              "split+score vs pocl, vec and scalar, " + TT +
                  " (cf. paper Fig. 12)",
              Fig12, Medians, Cols);
    writePlot(Info, T, "fig13",
              "split only, score only, " + TT + " (cf. paper Fig. 13)", Fig13,
              Medians, Cols);
  }
  // Last: the Markdown links only the plots gnuplot did produce.
  writeMarkdown(Info, Results, Medians);
}

} // namespace issbench
