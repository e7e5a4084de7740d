//===- StartupBench.cpp - Start-up times, cold and warm, beside pocl ------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Measures the start of an OpenCL application on pocl-iss and on the other
// platforms the ICD loader sees (Debian's pocl, the baseline): clBuildProgram,
// the first launch of one kernel (where the work-group function is compiled;
// pocl-iss's tiered first launch runs vec's code while the mode's compiles
// in its compiler process, doc/user-guide.md), the second launch, and the
// whole process on the clock and in CPU time. Two sources: 120 generated
// small kernels (ManyKernels.h) and the paper's Convolution2D (Figure 2).
//
// Every measurement is a process of its own, this program again with
// --child, which sees only the platform it measures (OCL_ICD_VENDORS names
// that platform's .icd alone, so that it does not load the other
// implementation too) and has the kernel cache on in a folder per platform
// and source: the cold run finds it empty, the warm runs find what the runs
// before them left there. This process adopts what a child leaves running
// (PR_SET_CHILD_SUBREAPER): pocl-iss's compiler process goes on compiling
// the mode's code into the cache after its application has ended, and the
// next run starts only once it has finished; how long it took is reported.
// Every launch is checked against a host reference.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"
#include "Convolution2DKernel.h"
#include "DriverOptions.h"
#include "ManyKernels.h"
#include "Spawn.h"
#include "Vendors.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clt;

namespace {

const char *const Tool = "startup-bench";

[[noreturn]] void die(const std::string &Msg) { vendors::fail(Tool, Msg); }

double millisSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - T)
      .count();
}

//===-- The sources and their launched kernels ----------------------------===//

/// A source, the kernel of it that is launched, its inputs and its host
/// reference. \p Size is the side of the problem: Size x Size work-items.
class Workload {
public:
  virtual ~Workload() = default;
  virtual std::string source() const = 0;
  virtual const char *kernelName() const = 0;
  /// Makes the buffers and sets the kernel's arguments.
  virtual void setup(const Env &E, cl_kernel K) = 0;
  /// Fills the output with a value the kernel never writes (not timed).
  virtual void poison(const Env &E) = 0;
  virtual void enqueue(const Env &E, cl_kernel K) const = 0;
  /// Reads the output: "" if it is the host reference's, else what differs.
  virtual std::string verify(const Env &E) = 0;
};

/// The many-kernel source; the reduction it launches (ManyKernels.h) runs on
/// Size * Size - 3 elements, so that its last work group has a tail.
class ManyKernels : public Workload {
  size_t N, Groups;
  std::vector<uint32_t> Want;
  Mem DIn, DOut;

public:
  explicit ManyKernels(int Size)
      : N(size_t(Size) * size_t(Size) - 3),
        Groups(roundUp(N, startup::ReductionLocal) / startup::ReductionLocal) {}
  std::string source() const override { return startup::manyKernelsSource(); }
  const char *kernelName() const override { return startup::launchedKernel(); }
  void setup(const Env &E, cl_kernel K) override {
    std::vector<uint32_t> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = uint32_t(I * 2654435761u) ^ uint32_t(I >> 5);
    Want = startup::launchedReference(In, Groups);
    DIn = E.input(In);
    DOut = E.output<uint32_t>(Groups);
    setArgs(K, DOut, DIn, cl_uint(N));
  }
  void poison(const Env &E) override {
    // The reference's values are of all bits: one that differs from each.
    std::vector<uint32_t> Bad(Want);
    for (uint32_t &V : Bad)
      V = ~V;
    E.write(DOut, Bad);
  }
  void enqueue(const Env &E, cl_kernel K) const override {
    size_t Global = Groups * startup::ReductionLocal,
           Local = startup::ReductionLocal;
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &Local, 0,
                                    nullptr, nullptr));
  }
  std::string verify(const Env &E) override {
    std::vector<uint32_t> Got = E.read<uint32_t>(DOut, Groups);
    size_t Bad = 0;
    std::string First;
    for (size_t G = 0; G < Groups; ++G)
      if (Got[G] != Want[G] && Bad++ == 0)
        First = "out[" + std::to_string(G) + "] = " + std::to_string(Got[G]) +
                ", want " + std::to_string(Want[G]);
    return Bad ? std::to_string(Bad) + " of " + std::to_string(Groups) +
                     " sums differ; first: " + First
               : "";
  }
};

/// The paper's Convolution2D on a Size x Size image, a 5x5 mask, 32x8
/// work groups.
class Convolution : public Workload {
  int Side;
  static constexpr int MaskSize = 5;
  std::vector<int> Want;
  Mem DIn, DMask, DOut;

public:
  explicit Convolution(int Size) : Side(Size) {}
  std::string source() const override { return conv2d::Source; }
  const char *kernelName() const override { return "Convolution2D"; }
  void setup(const Env &E, cl_kernel K) override {
    std::vector<int> In = conv2d::testImage(Side, Side);
    std::vector<float> Mask = conv2d::boxMask(MaskSize);
    Want = conv2d::reference(In, Mask, Side, Side, MaskSize, MaskSize);
    DIn = E.input(In);
    DMask = E.input(Mask);
    DOut = E.output<int>(Want.size());
    setArgs(K, DOut, DIn, DMask, Side, Side, MaskSize, MaskSize);
  }
  void poison(const Env &E) override {
    E.write(DOut, std::vector<int>(Want.size(), -1000));
  }
  void enqueue(const Env &E, cl_kernel K) const override {
    size_t Global[2] = {size_t(Side), size_t(Side)}, Local[2] = {32, 8};
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 2, nullptr, Global, Local, 0,
                                    nullptr, nullptr));
  }
  std::string verify(const Env &E) override {
    std::string First;
    size_t Bad = conv2d::countMismatches(E.read<int>(DOut, Want.size()), Want,
                                         &First, Side);
    return Bad ? std::to_string(Bad) + " pixels differ; first: " + First : "";
  }
};

const char *const SourceNames[] = {"many", "conv"};

std::unique_ptr<Workload> makeWorkload(const std::string &Name, int Size) {
  if (Name == "many")
    return std::make_unique<ManyKernels>(Size);
  if (Name == "conv")
    return std::make_unique<Convolution>(Size);
  return nullptr;
}

//===-- The child: one start-up -------------------------------------------===//

/// Prints "PLATFORM\t<name>\t<version>" per platform the loader sees.
int listPlatforms() {
  for (cl_platform_id P : platforms()) {
    char Version[256] = {0};
    clGetPlatformInfo(P, CL_PLATFORM_VERSION, sizeof(Version) - 1, Version,
                      nullptr);
    std::printf("PLATFORM\t%s\t%s\n", platformName(P).c_str(), Version);
  }
  return 0;
}

/// Starts like an application on \p Platform: builds \p Source, launches its
/// kernel twice and checks both results. Prints one line "RESULT\t<status>
/// \t<init ms>\t<build ms>\t<first ms>\t<second ms>\t<message>", status ok,
/// wrong or error; exit code 0 for ok, else 1.
int runChild(const std::string &Platform, const std::string &Source, int Size) {
  auto Start = std::chrono::steady_clock::now();
  double InitMs = 0, BuildMs = 0, LaunchMs[2] = {0, 0};
  auto Report = [&](const char *Status, std::string Msg) {
    std::replace(Msg.begin(), Msg.end(), '\n', ' ');
    std::replace(Msg.begin(), Msg.end(), '\t', ' ');
    if (Msg.size() > 400)
      Msg = Msg.substr(0, 400) + "...";
    std::printf("RESULT\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n", Status, InitMs,
                BuildMs, LaunchMs[0], LaunchMs[1], Msg.c_str());
    std::fflush(stdout);
    return std::strcmp(Status, "ok") == 0 ? 0 : 1;
  };
  try {
    std::unique_ptr<Workload> W = makeWorkload(Source, Size);
    if (!W)
      return Report("error", "no source '" + Source + "'");
    Env E;
    E.open(Platform);
    InitMs = millisSince(Start);
    std::string Text = W->source();
    const char *Src = Text.c_str();
    cl_int Err;
    Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
    CL_CHECK(Err);
    auto T = std::chrono::steady_clock::now();
    Err = clBuildProgram(P, 1, &E.Device, "", nullptr, nullptr);
    BuildMs = millisSince(T);
    if (Err != CL_SUCCESS)
      return Report("error", std::string("clBuildProgram returned ") +
                                 errorName(Err) + "; log: " + E.buildLog(P));
    Kernel K = E.kernel(P, W->kernelName());
    W->setup(E, K);
    std::string Wrong;
    for (int L = 0; L < 2; ++L) {
      W->poison(E);
      T = std::chrono::steady_clock::now();
      W->enqueue(E, K);
      CL_CHECK(clFinish(E.Q));
      LaunchMs[L] = millisSince(T);
      std::string Msg = W->verify(E);
      if (!Msg.empty() && Wrong.empty())
        Wrong = std::string(L ? "second" : "first") + " launch: " + Msg;
    }
    return Report(Wrong.empty() ? "ok" : "wrong", Wrong);
  } catch (const std::exception &X) {
    return Report("error", X.what());
  }
}

//===-- The parent: platforms, runs, the table ----------------------------===//

struct Options {
  unsigned Reps = 5;
  std::vector<std::string> Sources = {"many", "conv"};
  std::vector<std::string> PlatformFilter;
  int Size = 1024;
  std::string Markdown, Vendors, IssIcd;
  unsigned Timeout = 600;
  std::string Command; ///< the command line, for the report
};

void usage() {
  std::cout << R"(usage: startup-bench [options]
What an OpenCL application waits for at start, on pocl-iss and beside it on
every other platform (Debian's pocl): clBuildProgram, the first launch of one
kernel (its compile included) and the second, and the whole process on the
clock and in CPU time; a cold run with an empty kernel cache, then warm runs
with the cache it filled. Every run is a fresh process; every launch is
checked against a host reference (exit code 1 if one is wrong).

  --reps N             warm runs per platform and source (default 5); the
                       table gives their median [min, max]
  --sources a,b        many (120 generated kernels, a reduction launched)
                       and/or conv (the paper's Convolution2D); default both
  --size N             the launched kernel's problem: N x N work-items (a
                       multiple of 32; default 1024)
  --platforms a,b      only platforms whose name contains one of these
                       (default: all, e.g. pocl-iss and Portable Computing
                       Language)
  --markdown FILE      also write the table, with how it was measured, there
  --vendors DIR        OCL_ICD_VENDORS folder holding the .icd files to compare
  --iss-icd FILE       pocl-iss.icd to combine with /etc/OpenCL/vendors
                       (default: <build>/vendors/pocl-iss.icd next to this binary)
  --timeout S          seconds before a child is stopped (default 600)
)";
}

Options parseOptions(int Argc, char **Argv) {
  Options O;
  O.Command = Tool;
  for (int I = 1; I < Argc; ++I)
    O.Command += std::string(" ") + Argv[I];
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&] { return driver::optionValue(Tool, Argc, Argv, I); };
    if (A == "--reps") {
      O.Reps = unsigned(driver::parseInt(Tool, Next(), "--reps", 1, 1000));
    } else if (A == "--sources") {
      O.Sources = driver::splitList(Next());
      for (const std::string &S : O.Sources)
        if (!makeWorkload(S, 32))
          die("unknown source '" + S + "' (known: many, conv)");
    } else if (A == "--size") {
      O.Size = driver::parseInt(Tool, Next(), "--size", 32, 8192);
      if (O.Size % 32)
        die("--size must be a multiple of 32 (Convolution2D's 32x8 groups)");
    } else if (A == "--platforms") {
      O.PlatformFilter = driver::splitList(Next());
    } else if (A == "--markdown") {
      O.Markdown = Next();
    } else if (A == "--vendors") {
      O.Vendors = Next();
    } else if (A == "--iss-icd") {
      O.IssIcd = Next();
    } else if (A == "--timeout") {
      O.Timeout =
          unsigned(driver::parseInt(Tool, Next(), "--timeout", 1, 86400));
    } else if (A == "--help" || A == "-h") {
      usage();
      std::exit(0);
    } else {
      die("unknown option '" + A + "' (see --help)");
    }
  }
  if (O.Sources.empty())
    die("--sources is empty");
  return O;
}

/// A platform and the .icd file that holds it alone.
struct Platform {
  std::string Name, Version, Icd;
  std::string label() const { return driver::platformLabel(Name); }
};

/// The platforms of every .icd in \p VendorDir that \p Filter wants, each
/// found by a child that sees that .icd alone; pocl-iss first.
std::vector<Platform> findPlatforms(const std::string &VendorDir,
                                    const std::vector<std::string> &Filter) {
  std::vector<std::string> Icds;
  if (DIR *D = opendir(VendorDir.c_str())) {
    while (dirent *Ent = readdir(D)) {
      std::string N = Ent->d_name;
      if (N.size() > 4 && N.substr(N.size() - 4) == ".icd")
        Icds.push_back(VendorDir + "/" + N);
    }
    closedir(D);
  }
  std::sort(Icds.begin(), Icds.end());
  std::vector<Platform> Found;
  std::string Self = vendors::selfPath(Tool);
  for (const std::string &Icd : Icds) {
    spawn::Outcome R =
        spawn::run(Tool, {Self, "--child-platforms"},
                   {{"OCL_ICD_VENDORS", Icd}}, {"OCL_ICD_FILENAMES"}, 60);
    for (const std::string &Line : spawn::taggedLines(R, "PLATFORM\t")) {
      std::stringstream LS(Line.substr(9));
      Platform P;
      P.Icd = Icd;
      std::getline(LS, P.Name, '\t');
      std::getline(LS, P.Version);
      if (driver::wantedPlatform(P.Name, Filter))
        Found.push_back(P);
    }
  }
  std::stable_sort(Found.begin(), Found.end(),
                   [](const Platform &A, const Platform &B) {
                     return isPoclIss(A.Name) && !isPoclIss(B.Name);
                   });
  return Found;
}

/// One start-up.
struct Run {
  std::string Status = "error"; ///< ok, wrong, error
  std::string Message;
  double InitMs = 0, BuildMs = 0, FirstMs = 0, SecondMs = 0; ///< the child's
  double WallMs = 0, CpuMs = 0; ///< the whole process's, from wait4
  spawn::LeftBehind Left;
  bool ok() const { return Status == "ok"; }
};

Run measure(const Platform &P, const std::string &Source,
            const std::string &CacheDir, const Options &O) {
  spawn::Outcome Ch = spawn::run(Tool,
                                 {vendors::selfPath(Tool), "--child", P.Name,
                                  Source, std::to_string(O.Size)},
                                 {{"OCL_ICD_VENDORS", P.Icd},
                                  {"POCL_CACHE_DIR", CacheDir},
                                  {"POCL_KERNEL_CACHE", "1"}},
                                 {"OCL_ICD_FILENAMES"}, O.Timeout);
  Run R;
  R.WallMs = Ch.WallMs;
  R.CpuMs = Ch.CpuMs;
  R.Left = spawn::waitLeftBehind(O.Timeout);
  std::vector<std::string> Results = spawn::taggedLines(Ch, "RESULT\t");
  for (const std::string &Line : Results) {
    std::stringstream LS(Line.substr(7));
    std::string F[4];
    std::getline(LS, R.Status, '\t');
    for (std::string &X : F)
      std::getline(LS, X, '\t');
    std::getline(LS, R.Message);
    R.InitMs = std::atof(F[0].c_str());
    R.BuildMs = std::atof(F[1].c_str());
    R.FirstMs = std::atof(F[2].c_str());
    R.SecondMs = std::atof(F[3].c_str());
  }
  if (Results.empty())
    R.Message = "child " + spawn::describe(Ch.Status) + " without a result";
  else if (!WIFEXITED(Ch.Status) || WEXITSTATUS(Ch.Status) > 1) {
    R.Status = "error";
    R.Message += " (child " + spawn::describe(Ch.Status) + ")";
  }
  return R;
}

/// Milliseconds, with two decimals below 10.
std::string fmt(double Ms) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), Ms < 10 ? "%.2f" : "%.1f", Ms);
  return Buf;
}

void printRun(const Platform &P, const std::string &Source, const char *Which,
              const Run &R) {
  std::cerr << Tool << ": " << Source << " on " << P.label() << ", " << Which
            << ": ";
  if (R.ok())
    std::cerr << "init " << fmt(R.InitMs) << " ms, build " << fmt(R.BuildMs)
              << " ms, first launch " << fmt(R.FirstMs) << " ms, second "
              << fmt(R.SecondMs) << " ms; process " << fmt(R.WallMs)
              << " ms wall, " << fmt(R.CpuMs) << " ms CPU";
  else
    std::cerr << "*** " << (R.Status == "wrong" ? "WRONG RESULT" : "ERROR")
              << ": " << R.Message << " ***";
  if (R.Left.Processes)
    std::cerr << "; " << R.Left.Processes << " process(es) it left went on "
              << fmt(R.Left.WallMs) << " ms after it (" << fmt(R.Left.CpuMs)
              << " ms CPU)";
  if (R.Left.TimedOut)
    std::cerr << "; some still ran at the time limit";
  std::cerr << "\n";
}

/// The median, least and greatest of \p Get over \p Runs (not empty).
struct Spread {
  double Median, Min, Max;
};
template <typename F> Spread spread(const std::vector<Run> &Runs, F Get) {
  std::vector<double> V;
  for (const Run &R : Runs)
    V.push_back(Get(R));
  std::sort(V.begin(), V.end());
  size_t H = V.size() / 2;
  return {V.size() % 2 ? V[H] : (V[H - 1] + V[H]) / 2, V.front(), V.back()};
}

/// A warm measure: "median [min, max]", the median alone for one run.
template <typename F>
std::string warmCell(const std::vector<Run> &Runs, F Get) {
  Spread S = spread(Runs, Get);
  if (Runs.size() == 1)
    return fmt(S.Median);
  return fmt(S.Median) + " [" + fmt(S.Min) + ", " + fmt(S.Max) + "]";
}

/// A platform's runs on one source.
struct Series {
  Run Cold;
  std::vector<Run> Warm;
  /// Whether every run so far is verified.
  bool ok() const {
    return Cold.ok() && std::all_of(Warm.begin(), Warm.end(),
                                    [](const Run &R) { return R.ok(); });
  }
};

std::string loadAverage() {
  std::ifstream In("/proc/loadavg");
  std::string One;
  In >> One;
  return One.empty() ? "?" : One;
}

std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind("model name", 0) == 0 && Line.find(':') != std::string::npos)
      return Line.substr(Line.find(':') + 2);
  return "an unknown CPU";
}

std::string envValue(const char *Name) {
  const char *V = std::getenv(Name);
  return std::string(Name) + "=" + (V ? V : "(unset)");
}

/// The table (markdown), what it leaves out (failures, what the runs left
/// running) and whether a run failed.
struct Report {
  std::string Table, Notes;
  bool Bad = false;
};

Report report(const Options &O, const std::vector<Platform> &Platforms,
              const std::map<std::pair<std::string, size_t>, Series> &All) {
  const Platform *Pocl = nullptr;
  for (const Platform &P : Platforms)
    if (P.Name == "Portable Computing Language")
      Pocl = &P;
  std::ostringstream T;
  T << "| source | platform | build, cold | build, warm | first launch, cold "
       "/ warm | second launch, cold / warm | process wall, cold / warm | "
       "process CPU, cold / warm | warm build, pocl-iss / pocl |\n"
       "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  std::ostringstream Notes;
  Report Out;
  for (const std::string &Source : O.Sources)
    for (size_t I = 0; I < Platforms.size(); ++I) {
      const Platform &P = Platforms[I];
      const Series &S = All.at({Source, I});
      T << "| " << Source << " | " << P.label() << " |";
      if (!S.ok()) {
        const Run &Failed = !S.Cold.ok() ? S.Cold : S.Warm.back();
        T << " " << (Failed.Status == "wrong" ? "WRONG RESULT" : "error")
          << " | - | - | - | - | - | - |\n";
        Notes << "- " << Source << " on " << P.label() << ": "
              << (Failed.Status == "wrong" ? "WRONG RESULT" : "error") << ", "
              << Failed.Message << "\n";
        Out.Bad = true;
        continue;
      }
      auto Pair = [&](double Cold, auto Get) {
        return " " + fmt(Cold) + " / " + warmCell(S.Warm, Get) + " |";
      };
      T << " " << fmt(S.Cold.BuildMs) << " | "
        << warmCell(S.Warm, [](const Run &R) { return R.BuildMs; }) << " |"
        << Pair(S.Cold.FirstMs, [](const Run &R) { return R.FirstMs; })
        << Pair(S.Cold.SecondMs, [](const Run &R) { return R.SecondMs; })
        << Pair(S.Cold.WallMs, [](const Run &R) { return R.WallMs; })
        << Pair(S.Cold.CpuMs, [](const Run &R) { return R.CpuMs; });
      const Series *Base = nullptr;
      if (Pocl && isPoclIss(P.Name))
        Base = &All.at({Source, size_t(Pocl - Platforms.data())});
      if (Base && Base->ok()) {
        auto Build = [](const Run &R) { return R.BuildMs; };
        char Ratio[32];
        std::snprintf(Ratio, sizeof(Ratio), "%.2fx",
                      spread(S.Warm, Build).Median /
                          spread(Base->Warm, Build).Median);
        T << " " << Ratio << " |\n";
      } else {
        T << " - |\n";
      }
      auto Behind = [&](const Run &R, const std::string &Which) {
        if (R.Left.Processes)
          Notes << "- " << Source << " on " << P.label() << ", " << Which
                << ": " << R.Left.Processes
                << " process(es) it started went on for " << fmt(R.Left.WallMs)
                << " ms after it had ended (" << fmt(R.Left.CpuMs)
                << " ms CPU in all, not in its process CPU)"
                << (R.Left.TimedOut ? ", and still ran at the time limit" : "")
                << "; the next run started after them.\n";
      };
      Behind(S.Cold, "cold run");
      for (size_t W = 0; W < S.Warm.size(); ++W)
        Behind(S.Warm[W], "warm run " + std::to_string(W + 1));
    }
  Out.Table = T.str();
  Out.Notes = Notes.str();
  return Out;
}

int runParent(const Options &O) {
  // The compiler process a child leaves behind becomes ours to wait for.
  spawn::adoptOrphans(Tool);
  auto [VendorDir, TempVendors] =
      vendors::prepareVendors(Tool, O.Vendors, O.IssIcd, false);
  std::vector<Platform> Platforms = findPlatforms(VendorDir, O.PlatformFilter);
  if (Platforms.empty()) {
    if (TempVendors)
      vendors::removeVendors(VendorDir);
    die("no OpenCL platform found in " + VendorDir +
        (O.PlatformFilter.empty() ? "" : " matching --platforms"));
  }
  std::string LoadBefore = loadAverage();
  std::cerr << Tool << ": " << Platforms.size() << " platform(s):";
  for (const Platform &P : Platforms)
    std::cerr << " \"" << P.Name << "\" (" << P.Icd << ")";
  std::cerr << "\n";

  // A cache folder per platform, one below it per source.
  std::vector<std::unique_ptr<TempFolder>> Caches;
  for (const Platform &P : Platforms) {
    Caches.push_back(
        std::make_unique<TempFolder>(std::string(Tool) + "-" + P.label()));
    if (!Caches.back()->Made)
      die("cannot make a folder under /tmp for the kernel cache");
  }
  std::map<std::pair<std::string, size_t>, Series> All;
  for (const std::string &Source : O.Sources) {
    for (size_t I = 0; I < Platforms.size(); ++I) {
      std::string Dir = Caches[I]->Path + "/" + Source;
      if (mkdir(Dir.c_str(), 0700) != 0)
        die("cannot make " + Dir + ": " + std::strerror(errno));
      Series &S = All[{Source, I}];
      S.Cold = measure(Platforms[I], Source, Dir, O);
      printRun(Platforms[I], Source, "cold", S.Cold);
    }
    // The warm runs take turns, so that a change in the machine's load
    // reaches every platform alike.
    for (unsigned Rep = 0; Rep < O.Reps; ++Rep)
      for (size_t I = 0; I < Platforms.size(); ++I) {
        Series &S = All[{Source, I}];
        if (!S.ok())
          continue; // a failure does not get better
        S.Warm.push_back(
            measure(Platforms[I], Source, Caches[I]->Path + "/" + Source, O));
        printRun(Platforms[I], Source,
                 ("warm " + std::to_string(Rep + 1)).c_str(), S.Warm.back());
      }
  }
  std::string LoadAfter = loadAverage();

  Report Summary = report(O, Platforms, All);
  std::cout << Summary.Table;
  if (!Summary.Notes.empty())
    std::cout << "\n" << Summary.Notes;

  if (!O.Markdown.empty()) {
    std::ofstream Md(O.Markdown);
    Md << "# Start-up: pocl-iss beside pocl\n\n`" << O.Command << "` on "
       << cpuModel() << " (" << std::thread::hardware_concurrency()
       << " hardware threads; load average " << LoadBefore << " before, "
       << LoadAfter << " after); " << envValue("POCL_ISS_MODE") << ", "
       << envValue("POCL_ISS_TIERED") << ", "
       << envValue("POCL_MAX_PTHREAD_COUNT") << ".\n\n";
    for (const Platform &P : Platforms)
      Md << "- " << P.label() << ": " << P.Name << ", " << P.Version << "\n";
    Md << "\nMilliseconds. Each run is a fresh process that sees only its "
          "platform, with the kernel cache on in a folder of the platform's "
          "and the source's: the cold run finds it empty, the "
       << O.Reps
       << " warm runs (median [min, max]) find what the runs before them "
          "left. Build: clBuildProgram. First and second launch: "
          "clEnqueueNDRangeKernel and clFinish of one kernel on "
       << O.Size << "x" << O.Size
       << " work-items, the first with its compile: many, a program of "
       << startup::ManyKernelCount << " generated kernels ("
       << (startup::manyKernelsSource().size() + 500) / 1000
       << " KB), launches " << startup::launchedKernel()
       << " (a reduction in __local memory with barriers); conv, the paper's "
          "Convolution2D, with a 5x5 mask. Process: the child from "
          "its fork to its end, on the clock and in CPU time (user and system, "
          "its own and its waited-for children's, from wait4). Last column: "
          "pocl-iss's median warm build over pocl's.\n\n"
       << Summary.Table;
    if (!Summary.Notes.empty())
      Md << "\n" << Summary.Notes;
    if (!Md)
      die("cannot write " + O.Markdown);
    std::cerr << Tool << ": wrote " << O.Markdown << "\n";
  }
  Caches.clear();
  if (TempVendors)
    vendors::removeVendors(VendorDir);
  if (Summary.Bad) {
    std::cerr << Tool << ": *** a run FAILED: see above ***\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (Args.size() == 1 && Args[0] == "--child-platforms")
    return listPlatforms();
  if (Args.size() == 4 && Args[0] == "--child")
    return runChild(Args[1], Args[2], std::atoi(Args[3].c_str()));
  return runParent(parseOptions(Argc, Argv));
}
