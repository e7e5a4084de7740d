//===- IssBench.cpp - The ablation driver ---------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Reproduces the paper's evaluation (section 6.3, Figures 12 and 13): each
// benchmark under every POCL_ISS_MODE (scalar, vec, split, score,
// split+score), single-threaded (POCL_MAX_PTHREAD_COUNT=1, as in the paper)
// and on all cores, and on every other OpenCL platform the ICD loader sees;
// Debian's pocl is the baseline the paper's "intel" column stands for.
//
// The mode is read by the runtime from its environment, so the driver runs
// each (platform, mode, threads, benchmark) in a child process: it re-executes
// itself with --child and the environment set, and reads one RESULT line
// back. A crash or hang of one configuration is then a reported failure, not
// the end of the run. Every run's output is verified; a failed verification
// is reported loudly and makes the exit code 1.
//
// Output (in --out): results.csv, results.md (medians, spread, speed-ups vs
// pocl and vs scalar, each configuration's first launch with its compilation)
// and gnuplot PNGs normalised to the fastest, like the paper's figures.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "DriverOptions.h"
#include "Report.h"
#include "Spawn.h"
#include "Vendors.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <iostream>
#include <limits.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace clt;
using namespace issbench;

namespace {

const std::vector<std::string> AllModes = {"scalar", "vec", "split", "score",
                                           "split+score"};

// The order of the paper's figures; registration order across files is not
// defined, so the report sorts by this list.
const std::vector<std::string> PaperOrder = {"Convolution2D",
                                             "BlackScholes",
                                             "sgemm",
                                             "saxpy",
                                             "FloydWarshall",
                                             "kmeans",
                                             "kmeans-swap",
                                             "nn",
                                             "mri-q-phimag",
                                             "mri-q-q",
                                             "gaussian",
                                             "lud",
                                             "myocyte",
                                             "cfd",
                                             "BinomialOption",
                                             "DCT",
                                             "FastWalshTransform",
                                             "BitonicSort"};

std::string join(const std::vector<std::string> &V, const char *Sep) {
  std::string Out;
  for (const auto &S : V)
    Out += (Out.empty() ? "" : Sep) + S;
  return Out;
}

[[noreturn]] void die(const std::string &Msg) {
  std::cerr << "iss-bench: " << Msg << "\n";
  std::exit(2);
}

std::vector<BenchmarkInfo> sortedRegistry() {
  std::vector<BenchmarkInfo> R = issbench::registry();
  auto Rank = [](const std::string &N) {
    auto It = std::find(PaperOrder.begin(), PaperOrder.end(), N);
    return It - PaperOrder.begin();
  };
  std::stable_sort(R.begin(), R.end(), [&](const auto &A, const auto &B) {
    return Rank(A.Name) < Rank(B.Name);
  });
  return R;
}

const BenchmarkInfo *findBenchmark(const std::string &Name) {
  for (const BenchmarkInfo &I : issbench::registry())
    if (lower(I.Name) == lower(Name))
      return &I;
  return nullptr;
}

//===-- Child: one benchmark on one platform
//--------------------------------===//

struct ChildArgs {
  std::string Platform, Benchmark, Label;
  int Reps = 7;
  Size Sz = Size::Full;
  bool CpuTime = false;
};

/// CPU time of this process (all its threads), in milliseconds.
double processCpuMillis() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec * 1e-6;
}

/// Runs one benchmark and prints "RESULT\t<status>\t<describe>\t<times>\t<msg>
/// \t<first launch ms>\t<first launch CPU ms>" on stdout (parseResultLine).
/// Exit code 0 if verified or not supported on this platform (a barrier
/// kernel the platform refuses to build), 1 otherwise.
int runChild(const ChildArgs &A) {
  const BenchmarkInfo *Info = findBenchmark(A.Benchmark);
  // Run 0's wall-clock and CPU time; negative until it has completed.
  double FirstMs = -1, FirstCpuMs = -1;
  auto Emit = [&](const std::string &Status, const std::string &Desc,
                  const std::vector<double> &Times, const std::string &Msg) {
    auto Num = [](double X) {
      char Buf[32];
      std::snprintf(Buf, sizeof(Buf), "%.6f", X);
      return std::string(Buf);
    };
    std::string T;
    for (double X : Times)
      T += (T.empty() ? "" : ",") + Num(X);
    std::string M = Msg;
    std::replace(M.begin(), M.end(), '\n', ' ');
    std::replace(M.begin(), M.end(), '\t', ' ');
    std::string First = FirstMs >= 0 ? Num(FirstMs) : "";
    std::string FirstCpu = FirstMs >= 0 ? Num(FirstCpuMs) : "";
    std::printf("RESULT\t%s\t%s\t%s\t%s\t%s\t%s\n", Status.c_str(),
                Desc.c_str(), T.c_str(), M.c_str(), First.c_str(),
                FirstCpu.c_str());
    std::fflush(stdout);
  };
  if (!Info || !Info->Make) {
    Emit("ERROR", "", {}, "unknown or unsupported benchmark");
    return 1;
  }
  std::string Desc;
  std::vector<double> Times;
  try {
    Env E;
    E.open(A.Platform);
    std::unique_ptr<Benchmark> B = Info->Make();
    B->setup(E, A.Sz);
    Desc = B->describe();
    std::string FirstFailure;
    int Failures = 0;
    // Run 0 is the warm-up: it includes the compilation at enqueue time
    // (DESIGN.md section 2), is verified, and is reported on its own as the
    // first launch, by the clock on the wall and in CPU time.
    for (int R = 0; R <= A.Reps; ++R) {
      std::vector<cl_event> Events;
      double Cpu = processCpuMillis();
      auto Start = std::chrono::steady_clock::now();
      B->run(E, Events);
      CL_CHECK(clFinish(E.Q));
      double Wall = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - Start)
                        .count();
      Cpu = processCpuMillis() - Cpu;
      if (R == 0) {
        FirstMs = Wall;
        FirstCpuMs = Cpu;
      }
      double Ms = kernelMillis(Events);
      if (B->hostMillis() >= 0) // a benchmark of the host side: wall time
        Ms = B->hostMillis();
      if (A.CpuTime)
        Ms = Cpu;
      std::string Msg = B->verify(E);
      if (!Msg.empty()) {
        ++Failures;
        if (FirstFailure.empty())
          FirstFailure = "run " + std::to_string(R) + ": " + Msg;
        std::fprintf(stderr, "  [%s] %s run %d: VERIFICATION FAILED: %s\n",
                     A.Label.c_str(), Info->Name.c_str(), R, Msg.c_str());
      }
      if (R > 0)
        Times.push_back(Ms);
    }
    if (Failures) {
      Emit("FAIL", Desc, Times,
           std::to_string(Failures) + " of " + std::to_string(A.Reps + 1) +
               " runs wrong; first: " + FirstFailure);
      return 1;
    }
    Emit("ok", Desc, Times, "");
    return 0;
  } catch (const BuildFailure &Ex) {
    // A platform that refuses a barrier kernel lacks a feature; any other
    // build failure is a bug to report. The refusal is a log line of its
    // own ("error: kernel 'k' uses a work-group barrier; ..."); compiler
    // diagnostics carry a source position ("input.cl:18:11:", before or
    // after "error:") and may quote source lines that mention barrier().
    std::string Refusal;
    std::stringstream Log(Ex.Log);
    for (std::string Line; Info->UsesBarriers && std::getline(Log, Line);)
      if (Line.rfind("error:", 0) == 0 &&
          Line.find(".cl:") == std::string::npos &&
          lower(Line).find("barrier") != std::string::npos) {
        Refusal = Line;
        break;
      }
    if (!Refusal.empty()) {
      Emit("unsupported", Desc, {}, "does not build here: " + Refusal);
      return 0;
    }
    Emit("ERROR", Desc, Times, Ex.what());
    return 1;
  } catch (const std::exception &Ex) {
    Emit("ERROR", Desc, Times, Ex.what());
    return 1;
  }
}

//===-- Parent: configurations, child processes
//-----------------------------===//

struct Options {
  std::vector<std::string> Benchmarks;
  std::vector<std::string> Modes = AllModes;
  std::vector<std::string> Threads = {"1", "all"};
  std::vector<std::string> PlatformFilter;
  int Reps = 7;
  Size Sz = Size::Full;
  std::string Out = "iss-bench-results";
  std::string Vendors, IssIcd;
  int Timeout = 900;
  bool CpuTime = false;
  bool WarmCache = false;
};

[[noreturn]] void usage() {
  std::cout <<
      R"(usage: iss-bench [options]
Runs the benchmarks of the paper's evaluation under every POCL_ISS_MODE and on
every OpenCL platform (Debian's pocl is the baseline), verifies every run and
writes results.csv, results.md and speed-up plots.

Each configuration runs one warm-up, then --reps timed runs. Kernel caches are
off (POCL_KERNEL_CACHE=0), so the warm-up compiles the work-group functions at
enqueue time: it is reported as the first launch, in wall-clock and process
CPU ms around the run and clFinish (results.csv: first_launch_ms,
first_launch_cpu_ms; results.md: a table per thread setting with each mode's
first launch over vec's, split/vec and so on).

  --benchmarks a,b,c   benchmarks to run (default: the paper's; see --list)
  --modes m,...        POCL_ISS_MODE values (default: scalar,vec,split,score,split+score)
  --reps N             timed repetitions after one warm-up (default 7)
  --threads 1,all      single-threaded (POCL_MAX_PTHREAD_COUNT=1) and/or all cores
  --size small|full    problem sizes (default full)
  --quick              --size small --reps 3 --threads 1 (explicit options win)
  --out DIR            output folder (default iss-bench-results)
  --vendors DIR        OCL_ICD_VENDORS folder holding all .icd files to compare
  --iss-icd FILE       pocl-iss.icd to combine with /etc/OpenCL/vendors
                       (default: <build>/vendors/pocl-iss.icd next to this binary)
  --platforms s,...    only platforms whose name contains one of these
  --timeout SEC        limit per child process (default 900)
  --warm-cache         an application's second run: each configuration runs
                       once untimed first, with a kernel cache of its own,
                       and what it leaves compiling is waited for; the timed
                       child then starts from that cache, tiered (pocl-iss's
                       default: the mode's code, and the measured choice
                       between it and vec's; POCL_ISS_TIERED in the
                       environment overrides). Its first launch is a warm one
  --cpu-time           time each run by the process's CPU time instead of
                       event profiling: on a loaded machine it leaves out
                       the time the process waited for a core (uploads in
                       run() count; platforms that spin while waiting
                       are charged for it)
  --list               list the benchmarks and exit
)";
  std::exit(0);
}

Options parseOptions(int Argc, char **Argv) {
  Options O;
  bool Quick = false, HaveSize = false, HaveReps = false, HaveThreads = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&] { return driver::optionValue("iss-bench", Argc, Argv, I); };
    if (A == "--benchmarks") {
      O.Benchmarks.clear();
      for (const std::string &B : driver::splitList(Next())) {
        const BenchmarkInfo *Info = findBenchmark(B);
        if (!Info) {
          std::vector<std::string> Known;
          for (const auto &R : sortedRegistry())
            Known.push_back(R.Name);
          die("unknown benchmark '" + B + "' (known: " + join(Known, ", ") +
              ")");
        }
        O.Benchmarks.push_back(Info->Name);
      }
    } else if (A == "--modes") {
      O.Modes = driver::splitList(Next());
      for (const std::string &M : O.Modes)
        if (std::find(AllModes.begin(), AllModes.end(), M) == AllModes.end())
          die("unknown mode '" + M + "' (known: " + join(AllModes, ", ") + ")");
    } else if (A == "--reps") {
      O.Reps = driver::parseInt("iss-bench", Next(), "--reps", 1, 1000);
      HaveReps = true;
    } else if (A == "--threads") {
      O.Threads = driver::splitList(Next());
      for (const std::string &T : O.Threads)
        if (T != "1" && T != "all")
          die("unknown thread setting '" + T + "' (known: 1, all)");
      HaveThreads = true;
    } else if (A == "--size") {
      std::string S = Next();
      if (S != "small" && S != "full")
        die("unknown size '" + S + "' (known: small, full)");
      O.Sz = S == "full" ? Size::Full : Size::Small;
      HaveSize = true;
    } else if (A == "--quick") {
      Quick = true;
    } else if (A == "--out") {
      O.Out = Next();
    } else if (A == "--vendors") {
      O.Vendors = Next();
    } else if (A == "--iss-icd") {
      O.IssIcd = Next();
    } else if (A == "--platforms") {
      O.PlatformFilter = driver::splitList(Next());
    } else if (A == "--timeout") {
      O.Timeout = driver::parseInt("iss-bench", Next(), "--timeout", 1, 86400);
    } else if (A == "--cpu-time") {
      O.CpuTime = true;
    } else if (A == "--warm-cache") {
      O.WarmCache = true;
    } else if (A == "--list") {
      for (const auto &R : sortedRegistry())
        std::printf("%-21s %-45s %s\n", R.Name.c_str(), R.Origin.c_str(),
                    !R.Make ? "(not supported yet)"
                    : std::count(PaperOrder.begin(), PaperOrder.end(), R.Name)
                        ? ""
                        : "(run when named)");
      std::exit(0);
    } else if (A == "--help" || A == "-h") {
      usage();
    } else {
      die("unknown option '" + A + "' (see --help)");
    }
  }
  if (Quick) {
    if (!HaveSize)
      O.Sz = Size::Small;
    if (!HaveReps)
      O.Reps = 3;
    if (!HaveThreads)
      O.Threads = {"1"};
  }
  // By default the paper's benchmarks (section 6.2); the others target one
  // property each and run when named.
  if (O.Benchmarks.empty())
    for (const auto &R : sortedRegistry())
      if (std::count(PaperOrder.begin(), PaperOrder.end(), R.Name))
        O.Benchmarks.push_back(R.Name);
  if (O.Modes.empty())
    die("--modes is empty");
  return O;
}

struct ChildOutcome {
  std::string Line; ///< the RESULT line, if any
  int Status = 0;   ///< waitpid status
};

ChildOutcome
spawnChild(const std::vector<std::string> &Argv,
           const std::vector<std::pair<std::string, std::string>> &Set,
           const std::vector<std::string> &Unset, int Timeout) {
  spawn::Outcome Ch =
      spawn::run("iss-bench", Argv, Set, Unset, unsigned(Timeout));
  ChildOutcome R;
  R.Status = Ch.Status;
  std::vector<std::string> Results = spawn::taggedLines(Ch, "RESULT\t");
  if (!Results.empty())
    R.Line = Results.back();
  return R;
}

int runParent(const Options &O) {
  auto [VendorDir, TempVendors] =
      vendors::prepareVendors("iss-bench", O.Vendors, O.IssIcd, false);
  setenv("OCL_ICD_VENDORS", VendorDir.c_str(), 1);
  unsetenv("OCL_ICD_FILENAMES");

  std::vector<Config> Configs;
  std::vector<std::string> PlatformNames;
  for (cl_platform_id P : platforms()) {
    std::string Name = platformName(P);
    if (!driver::wantedPlatform(Name, O.PlatformFilter))
      continue;
    PlatformNames.push_back(Name);
  }
  if (PlatformNames.empty())
    die("no OpenCL platform found with OCL_ICD_VENDORS=" + VendorDir);
  for (const std::string &T : O.Threads)
    for (const std::string &Name : PlatformNames) {
      if (isPoclIss(Name)) {
        for (const std::string &M : O.Modes)
          Configs.push_back({Name, driver::platformLabel(Name), M, T});
      } else {
        Configs.push_back({Name, driver::platformLabel(Name), "", T});
      }
    }

  std::cerr << "iss-bench: platforms: ";
  for (const auto &N : PlatformNames)
    std::cerr << "\"" << N << "\" ";
  std::cerr << "\niss-bench: " << Configs.size() << " configurations x "
            << O.Benchmarks.size() << " benchmarks, " << O.Reps
            << " timed runs each, size "
            << (O.Sz == Size::Full ? "full" : "small") << "\n";

  std::string Mk = "mkdir -p '" + O.Out + "'";
  if (std::system(Mk.c_str()) != 0)
    die("cannot create " + O.Out);
  char RealOut[PATH_MAX];
  std::string OutDir = realpath(O.Out.c_str(), RealOut) ? RealOut : O.Out;

  std::string Self = vendors::selfPath("iss-bench");
  std::vector<Result> Results;
  size_t Total = 0, Done = 0;
  for (const std::string &B : O.Benchmarks)
    if (findBenchmark(B)->Make)
      Total += Configs.size();
  bool AnyFailure = false;

  for (const std::string &B : O.Benchmarks) {
    const BenchmarkInfo *Info = findBenchmark(B);
    if (!Info->Make) {
      Result R;
      R.Benchmark = B;
      R.Status = "unsupported";
      R.Message = "not supported yet; " + Info->Origin;
      Results.push_back(R);
      std::cerr << "iss-bench: " << B << ": " << R.Message << "\n";
      continue;
    }
    for (const Config &C : Configs) {
      ++Done;
      std::cerr << "[" << Done << "/" << Total << "] " << C.name() << ": " << B
                << " ..." << std::endl;
      std::vector<std::pair<std::string, std::string>> Set;
      std::vector<std::string> Unset;
      if (!C.Mode.empty())
        Set.push_back({"POCL_ISS_MODE", C.Mode});
      else
        Unset.push_back("POCL_ISS_MODE");
      if (C.Threads == "1")
        Set.push_back({"POCL_MAX_PTHREAD_COUNT", "1"});
      else
        Unset.push_back("POCL_MAX_PTHREAD_COUNT");
      // Kernel caches off, so that the first launch really compiles on both
      // pocl and pocl-iss (its time is reported); a folder per
      // configuration all the same, so that nothing one configuration
      // leaves there (pocl's build folders) can reach another. With
      // --warm-cache, on, in a folder per configuration and benchmark.
      Set.push_back({"POCL_KERNEL_CACHE", O.WarmCache ? "1" : "0"});
      // The timed runs measure the mode's code: a tiered launch would run
      // `vec`'s until the mode's arrives (but from a warm cache the mode's
      // is there). POCL_ISS_TIERED in the environment overrides, for
      // first-launch studies.
      if (!std::getenv("POCL_ISS_TIERED"))
        Set.push_back({"POCL_ISS_TIERED", O.WarmCache ? "1" : "0"});
      Set.push_back(
          {"POCL_CACHE_DIR", OutDir + "/kcache/" + C.Label + "-" +
                                 (C.Mode.empty() ? "default" : C.Mode) +
                                 (O.WarmCache ? "-" + B : "")});
      std::vector<std::string> Argv = {
          Self,          "--child",
          "--platform",  C.Platform,
          "--benchmark", B,
          "--reps",      std::to_string(O.Reps),
          "--size",      O.Sz == Size::Full ? "full" : "small",
          "--label",     C.name(),
          "--cpu-time",  O.CpuTime ? "1" : "0"};
      if (O.WarmCache) {
        spawnChild(Argv, Set, Unset, O.Timeout);
        spawn::waitLeftBehind(unsigned(O.Timeout));
      }
      ChildOutcome Ch = spawnChild(Argv, Set, Unset, O.Timeout);
      Result R = parseResultLine(C, B, Ch.Line);
      if (Ch.Line.empty()) {
        R.Status = "ERROR";
        R.Message =
            "child process " + spawn::describe(Ch.Status) + " without a result";
      } else if (!(WIFEXITED(Ch.Status) && (WEXITSTATUS(Ch.Status) == 0 ||
                                            WEXITSTATUS(Ch.Status) == 1))) {
        R.Status = "ERROR";
        R.Message += " (child " + spawn::describe(Ch.Status) + ")";
      }
      if (R.Status == "ok") {
        Stats S = stats(R.TimesMs);
        std::fprintf(stderr,
                     "    %s: median %.3f ms (min %.3f, max %.3f), verified\n",
                     R.Desc.c_str(), S.Median, S.Min, S.Max);
        if (R.FirstLaunchMs >= 0)
          std::fprintf(stderr,
                       "    first launch (compile included): %.1f ms wall, "
                       "%.1f ms CPU\n",
                       R.FirstLaunchMs, R.FirstLaunchCpuMs);
      } else if (R.Status == "unsupported") {
        std::fprintf(stderr, "    not supported on %s: %s\n", C.name().c_str(),
                     R.Message.c_str());
      } else {
        AnyFailure = true;
        std::fprintf(stderr, "    *** %s %s on %s: %s ***\n",
                     R.Status == "FAIL" ? "VERIFICATION FAILED:" : "ERROR:",
                     B.c_str(), C.name().c_str(), R.Message.c_str());
      }
      Results.push_back(std::move(R));
    }
  }
  if (TempVendors)
    vendors::removeVendors(VendorDir);

  ReportInfo RI;
  RI.OutDir = OutDir;
  RI.Reps = O.Reps;
  RI.CpuTime = O.CpuTime;
  RI.SizeName = O.Sz == Size::Full ? "full" : "small";
  RI.Threads = O.Threads;
  RI.Configs = Configs;
  RI.Benchmarks = O.Benchmarks;
  RI.PlatformNames = PlatformNames;
  writeReport(RI, Results);
  std::cerr << "iss-bench: wrote " << OutDir << "/results.csv, results.md, "
            << "speedup-*.png\n";
  size_t Bad = 0;
  for (const Result &R : Results)
    if (R.Status == "FAIL" || R.Status == "ERROR")
      ++Bad;
  if (AnyFailure) {
    std::cerr << "iss-bench: *** " << Bad
              << " configuration(s) FAILED verification or did not run; see "
                 "results.md ***\n";
    return 1;
  }
  size_t NotSupported = 0;
  for (const Result &R : Results)
    NotSupported += R.Status == "unsupported" && !R.Cfg.Platform.empty();
  std::cerr << "iss-bench: all runs verified";
  if (NotSupported)
    std::cerr << "; " << NotSupported
              << " configuration(s) not supported on their platform (not run)";
  std::cerr << "\n";
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::string(Argv[1]) == "--child") {
    ChildArgs A;
    for (int I = 2; I + 1 < Argc; I += 2) {
      std::string K = Argv[I], V = Argv[I + 1];
      if (K == "--platform")
        A.Platform = V;
      else if (K == "--benchmark")
        A.Benchmark = V;
      else if (K == "--reps")
        A.Reps = std::atoi(V.c_str());
      else if (K == "--size")
        A.Sz = V == "full" ? Size::Full : Size::Small;
      else if (K == "--label")
        A.Label = V;
      else if (K == "--cpu-time")
        A.CpuTime = V == "1";
    }
    return runChild(A);
  }
  Options O = parseOptions(Argc, Argv);
  // What a warming run leaves compiling is waited for (--warm-cache).
  if (O.WarmCache)
    spawn::adoptOrphans("iss-bench");
  return runParent(O);
}
