//===- CompileBench.cpp - Compile time of big kernels, beside pocl -------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Times clBuildProgram and the first launch (where pocl-iss compiles the
// work-group function, DESIGN.md section 2) of generated big kernels, on
// every OpenCL platform the ICD loader sees, in one run, and reports the
// ratios: compile time on kernels with thousands of calls and on a
// 10,000-case switch, huge expressions that need a deep stack, a stencil of
// many clamped taps and a bitonic sort in one 4096-wide work group. Each
// (platform, kernel) runs in a child process on an empty kernel cache of its
// own, as a first run does, so that a platform that crashes on a kernel
// (pocl 3.1 on the 100,000-level expressions) is reported as such and the run
// goes on. The CPU time counts what the child leaves running too (this
// process adopts it): pocl-iss's compiler process, compiling the mode's code
// behind a tiered first launch. Every first launch is checked against a host
// reference.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"
#include "DriverOptions.h"
#include "Spawn.h"
#include "Vendors.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <functional>
#include <iostream>
#include <limits.h>
#include <map>
#include <memory>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace clt;

namespace {

/// A generated kernel `k(__global int *out, __global const int *in)`, what
/// it computes for work-item i, and the launch: Global work-items (and
/// inputs) in groups of Local.
struct Generated {
  std::string Source;
  std::function<int(const std::vector<int> &In, size_t I)> Reference;
  size_t Global = 64, Local = 16;
};

struct KernelKind {
  const char *Name;
  unsigned DefaultSize;
  const char *What;
  std::function<Generated(unsigned)> Make;
};

constexpr size_t Inputs = 64;

const char *const Header =
    "__kernel void k(__global int *out, __global const int *in) {\n"
    "  size_t i = get_global_id(0);\n";

/// hadd and rhadd of OpenCL C on any integer type, without overflow.
template <typename T> T hostHadd(T X, T Y) {
  return static_cast<T>((X >> 1) + (Y >> 1) + (X & Y & 1));
}
template <typename T> T hostRhadd(T X, T Y) {
  return static_cast<T>((X >> 1) + (Y >> 1) + ((X | Y) & 1));
}

int caseValue(unsigned C) { return static_cast<int>(C * 7 + 3); }

/// A valid kernel: an N-case switch on an input.
Generated makeSwitch(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  int v = in[i];\n  int r;\n  switch (v) {\n";
  for (unsigned C = 0; C < N; ++C)
    S += "  case " + std::to_string(C) +
         ": r = " + std::to_string(caseValue(C)) + " ^ v; break;\n";
  S += "  default: r = -1;\n  }\n  out[i] = r;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    int V = In[I];
    return V >= 0 && unsigned(V) < N ? caseValue(unsigned(V)) ^ V : -1;
  };
  return G;
}

/// An N-case switch whose every case calls a builtin.
Generated makeSwitchCalls(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  int v = in[i];\n  int r;\n  switch (v) {\n";
  for (unsigned C = 0; C < N; ++C)
    S += "  case " + std::to_string(C) + ": r = hadd(v, " +
         std::to_string(caseValue(C)) + "); break;\n";
  S += "  default: r = -1;\n  }\n  out[i] = r;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    int V = In[I];
    return V >= 0 && unsigned(V) < N ? hostHadd(V, caseValue(unsigned(V))) : -1;
  };
  return G;
}

/// N calls of hadd and rhadd on the eight integer types, in a row: the
/// shape of pocl's kernel/test_hadd.
Generated makeCalls(unsigned N) {
  static const char *const Types[8] = {"char", "uchar", "short", "ushort",
                                       "int",  "uint",  "long",  "ulong"};
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  int x = in[i];\n  int acc = 0;\n";
  for (unsigned C = 0; C < N; ++C) {
    const char *T = Types[C % 8];
    S += std::string("  acc += (int)") + (C % 2 ? "rhadd" : "hadd") + "((" + T +
         ")x, (" + T + ")" + std::to_string(C * 2654435761u) + "u);\n";
  }
  S += "  out[i] = acc;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    int X = In[I];
    uint32_t Acc = 0;
    for (unsigned C = 0; C < N; ++C) {
      uint32_t K = C * 2654435761u;
      bool R = C % 2;
      auto Op = [&](auto A, auto B) {
        return static_cast<int>(R ? hostRhadd(A, B) : hostHadd(A, B));
      };
      int V = 0;
      switch (C % 8) {
      case 0:
        V = Op(int8_t(X), int8_t(K));
        break;
      case 1:
        V = Op(uint8_t(X), uint8_t(K));
        break;
      case 2:
        V = Op(int16_t(X), int16_t(K));
        break;
      case 3:
        V = Op(uint16_t(X), uint16_t(K));
        break;
      case 4:
        V = Op(int32_t(X), int32_t(K));
        break;
      case 5:
        V = Op(uint32_t(X), uint32_t(K));
        break;
      case 6:
        V = Op(int64_t(X), int64_t(K));
        break;
      default:
        V = Op(uint64_t(int64_t(X)), uint64_t(K));
        break;
      }
      Acc += uint32_t(V);
    }
    return static_cast<int>(Acc);
  };
  return G;
}

/// N functions with a private array filled by a loop of builtin calls,
/// all called by the kernel: the other half of test_hadd's shape (helper
/// functions, loops over vector components).
Generated makeFunctions(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  for (unsigned F = 0; F < N; ++F)
    S += "int f" + std::to_string(F) +
         "(int x) {\n  int t[4];\n"
         "  for (int j = 0; j < 4; ++j)\n    t[j] = hadd(x + j, " +
         std::to_string(caseValue(F)) +
         ");\n"
         "  return t[0] ^ t[1] ^ t[2] ^ t[3];\n}\n";
  S += Header;
  S += "  int x = in[i];\n  int acc = 0;\n";
  for (unsigned F = 0; F < N; ++F)
    S += "  acc += f" + std::to_string(F) + "(x);\n";
  S += "  out[i] = acc;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    int X = In[I];
    uint32_t Acc = 0;
    for (unsigned F = 0; F < N; ++F) {
      int T = 0;
      for (int J = 0; J < 4; ++J)
        T ^= hostHadd(X + J, caseValue(F));
      Acc += uint32_t(T);
    }
    return static_cast<int>(Acc);
  };
  return G;
}

/// N helper functions with locals, a branch and two builtin calls, all
/// called by the kernel: what pocl's test_hadd calls its safe_* helpers.
Generated makeHelpers(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  for (unsigned F = 0; F < N; ++F)
    S += "int h" + std::to_string(F) + "(int x) {\n  int r = hadd(x, " +
         std::to_string(caseValue(F)) +
         ");\n  if (r & 1)\n"
         "    r = rhadd(r, x);\n  return r;\n}\n";
  S += Header;
  S += "  int x = in[i];\n  int acc = 0;\n";
  for (unsigned F = 0; F < N; ++F)
    S += "  acc += h" + std::to_string(F) + "(x);\n";
  S += "  out[i] = acc;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    int X = In[I];
    uint32_t Acc = 0;
    for (unsigned F = 0; F < N; ++F) {
      int R = hostHadd(X, caseValue(F));
      if (R & 1)
        R = hostRhadd(R, X);
      Acc += uint32_t(R);
    }
    return static_cast<int>(Acc);
  };
  return G;
}

/// One expression of N terms: a left-deep tree N levels deep.
Generated makeSum(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  out[i] = ";
  for (unsigned T = 0; T < N; ++T)
    S += (T ? " + in[" : "in[") + std::to_string(T % Inputs) + "]";
  S += ";\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t) {
    uint32_t Sum = 0;
    for (unsigned T = 0; T < N; ++T)
      Sum += uint32_t(In[T % Inputs]);
    return static_cast<int>(Sum);
  };
  return G;
}

/// N nested unary operators: -~-~...in[i], each pair adds one.
Generated makeNested(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  out[i] = ";
  for (unsigned P = 0; P < N / 2; ++P)
    S += "-~";
  S += "in[i];\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    return static_cast<int>(uint32_t(In[I]) + N / 2);
  };
  return G;
}

/// A macro that expands to 2^N terms (a build failure is the right outcome
/// once the compiler's stack runs out; it takes minutes and gigabytes).
Generated makeMacro(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = "#define T0 in[i % 64]\n";
  for (unsigned L = 1; L <= N; ++L)
    S += "#define T" + std::to_string(L) + " T" + std::to_string(L - 1) +
         " + T" + std::to_string(L - 1) + "\n";
  S += Header;
  S += "  out[i] = T" + std::to_string(N) + ";\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    return static_cast<int>(uint32_t(In[I % Inputs]) << N);
  };
  return G;
}

/// Weight of tap \p T of makeStencil.
int tapWeight(unsigned T) { return static_cast<int>(T % 3 + 1); }

/// N clamped taps around each work-item, a statement each, with weights
/// that depend on the tap: the shape of a generated image filter.
Generated makeStencil(unsigned N) {
  Generated G;
  std::string &S = G.Source;
  S = Header;
  S += "  int s = 0;\n";
  for (unsigned T = 0; T < N; ++T)
    S += "  s += in[clamp((int)i + " + std::to_string(int(T) - int(N / 2)) +
         ", 0, 63)] * " + std::to_string(tapWeight(T)) + ";\n";
  S += "  out[i] = s;\n}\n";
  G.Reference = [N](const std::vector<int> &In, size_t I) {
    uint32_t Sum = 0;
    for (unsigned T = 0; T < N; ++T) {
      long J = std::min(std::max(long(I) + long(T) - long(N / 2), 0L), 63L);
      Sum += uint32_t(In[size_t(J)]) * uint32_t(tapWeight(T));
    }
    return static_cast<int>(Sum);
  };
  return G;
}

/// A bitonic sort of N (a power of two) inputs in local memory, one work
/// group of N work-items with a barrier per step: a big local size.
Generated makeBitonic(unsigned N) {
  Generated G;
  G.Global = G.Local = N;
  G.Source = "__kernel void k(__global int *out, __global const int *in) {\n"
             "  __local int s[" +
             std::to_string(N) +
             "];\n"
             "  uint l = get_local_id(0);\n"
             "  s[l] = in[get_global_id(0)];\n"
             "  barrier(CLK_LOCAL_MEM_FENCE);\n"
             "  for (uint size = 2; size <= " +
             std::to_string(N) +
             "; size <<= 1)\n"
             "    for (uint stride = size / 2; stride > 0; stride >>= 1) {\n"
             "      uint j = l ^ stride;\n"
             "      if (j > l) {\n"
             "        int a = s[l], b = s[j];\n"
             "        if ((a > b) == ((l & size) == 0)) {\n"
             "          s[l] = b;\n"
             "          s[j] = a;\n"
             "        }\n"
             "      }\n"
             "      barrier(CLK_LOCAL_MEM_FENCE);\n"
             "    }\n"
             "  out[get_global_id(0)] = s[l];\n"
             "}\n";
  auto Sorted = std::make_shared<std::vector<int>>();
  G.Reference = [Sorted](const std::vector<int> &In, size_t I) {
    if (Sorted->empty()) {
      *Sorted = In;
      std::sort(Sorted->begin(), Sorted->end());
    }
    return (*Sorted)[I];
  };
  return G;
}

const std::vector<KernelKind> &kinds() {
  static const std::vector<KernelKind> K = {
      {"switch", 10000, "an N-case switch computing a value per case",
       makeSwitch},
      {"switch-calls", 10000, "an N-case switch, a builtin call per case",
       makeSwitchCalls},
      {"calls", 4000, "N calls of hadd/rhadd on 8 integer types in a row",
       makeCalls},
      {"helpers", 2000,
       "N helper functions with a branch and builtin calls, all called",
       makeHelpers},
      {"functions", 100,
       "N functions with a private array and a loop of builtin calls",
       makeFunctions},
      {"sum", 100000, "one expression of N terms", makeSum},
      {"nested", 100000, "N nested unary operators", makeNested},
      {"stencil", 1600, "N clamped taps with their own weights", makeStencil},
      {"bitonic", 4096,
       "a bitonic sort in local memory, one group of N work-items",
       makeBitonic},
      {"macro", 24, "a macro expanding to 2^N terms (not run by default)",
       makeMacro},
  };
  return K;
}

const char *const DefaultKernels[] = {"switch",  "switch-calls", "calls",
                                      "helpers", "functions",    "sum",
                                      "nested",  "stencil",      "bitonic"};

[[noreturn]] void die(const std::string &Msg) {
  std::cerr << "compile-bench: " << Msg << "\n";
  std::exit(2);
}

/// "name" or "name:N".
std::pair<const KernelKind *, unsigned> parseSpec(const std::string &Spec) {
  std::string Name = Spec.substr(0, Spec.find(':'));
  for (const KernelKind &K : kinds())
    if (Name == K.Name) {
      unsigned N = K.DefaultSize;
      if (Spec.find(':') != std::string::npos)
        N = static_cast<unsigned>(
            std::strtoul(Spec.c_str() + Spec.find(':') + 1, nullptr, 10));
      if (N == 0 || (std::string(K.Name) == "bitonic" && (N & (N - 1))))
        die("bad size in '" + Spec + "'");
      return {&K, N};
    }
  die("no kernel kind '" + Name + "' (see --list)");
}

double seconds(std::chrono::steady_clock::time_point A,
               std::chrono::steady_clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

/// CPU time of the process, all its threads: on a shared, loaded machine it
/// varies far less than the time on the clock.
double cpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

/// The child: one kernel on one platform. Prints one RESULT line:
/// status, build seconds, first-launch seconds, the CPU seconds of both,
/// message.
int runChild(const std::string &Platform, const std::string &Spec) {
  auto [Kind, N] = parseSpec(Spec);
  Generated G = Kind->Make(N);
  auto Report = [](const char *Status, double Build, double Launch, double Cpu,
                   std::string Msg) {
    for (char &C : Msg)
      if (C == '\n' || C == '\t')
        C = ' ';
    if (Msg.size() > 300)
      Msg = Msg.substr(0, 300) + "...";
    std::printf("RESULT\t%s\t%.3f\t%.3f\t%.3f\t%s\n", Status, Build, Launch,
                Cpu, Msg.c_str());
    std::fflush(stdout);
  };
  try {
    Env E;
    E.open(Platform);
    const size_t Global = G.Global, Local = G.Local;
    std::vector<int> In(std::max(Inputs, Global));
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<int>((I * 2731) % (std::max(N, 64u) + 8)) - 3;
    Mem InB = E.buffer(CL_MEM_READ_ONLY, In.size() * sizeof(int));
    Mem OutB = E.buffer(CL_MEM_READ_WRITE, Global * sizeof(int));
    E.write(InB, In);

    const char *Src = G.Source.c_str();
    double Cpu0 = cpuSeconds();
    auto T0 = std::chrono::steady_clock::now();
    cl_int Err;
    Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &E.Device, "", nullptr, nullptr);
    auto T1 = std::chrono::steady_clock::now();
    if (Err != CL_SUCCESS) {
      size_t Size = 0;
      clGetProgramBuildInfo(P, E.Device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                            &Size);
      std::string Log(Size, '\0');
      clGetProgramBuildInfo(P, E.Device, CL_PROGRAM_BUILD_LOG, Size, Log.data(),
                            nullptr);
      Report("build-failed", seconds(T0, T1), 0, cpuSeconds() - Cpu0,
             errorName(Err) + (": " + Log));
      return 0;
    }
    Kernel K = E.kernel(P, "k");
    setArgs(K, OutB, InB);
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &Local, 0,
                                    nullptr, nullptr));
    CL_CHECK(clFinish(E.Q));
    auto T2 = std::chrono::steady_clock::now();
    double Cpu = cpuSeconds() - Cpu0;
    std::vector<int> Out(Global);
    E.read(OutB, Out);
    std::string Wrong;
    for (size_t I = 0; I < Global && Wrong.empty(); ++I) {
      int Want = G.Reference(In, I);
      if (Out[I] != Want)
        Wrong = "out[" + std::to_string(I) + "] = " + std::to_string(Out[I]) +
                ", expected " + std::to_string(Want);
    }
    Report(Wrong.empty() ? "ok" : "wrong", seconds(T0, T1), seconds(T1, T2),
           Cpu, Wrong);
  } catch (const std::exception &X) {
    Report("error", 0, 0, 0, X.what());
  }
  return 0;
}

struct Options {
  std::vector<std::string> Kernels;
  std::vector<std::string> PlatformFilter;
  std::string Vendors, IssIcd, Csv;
  unsigned Reps = 1;
  unsigned Timeout = 900;
};

void usage() {
  std::cout
      << R"(compile-bench: clBuildProgram and first-launch times of generated big
kernels on every OpenCL platform, with ratios to pocl-iss.

  --kernels a,b:N,...  kernel kinds, each with an optional size N
                       (default: switch, switch-calls, calls, helpers,
                       functions, sum, nested at their default sizes;
                       see --list)
  --reps N             runs per (platform, kernel); the median is reported (1)
  --timeout S          seconds before a child is stopped (900)
  --platforms a,b      only platforms whose name contains one of these
  --vendors DIR        OCL_ICD_VENDORS folder holding the .icd files to compare
  --iss-icd FILE       pocl-iss.icd to combine with /etc/OpenCL/vendors
                       (default: <build>/vendors/pocl-iss.icd next to this binary)
  --csv FILE           also write every run as CSV
  --list               the kernel kinds
)";
}

struct Run {
  std::string Status; ///< ok, wrong, build-failed, error, or how it died
  double Build = 0, Launch = 0; ///< seconds on the clock
  /// CPU seconds of the build and first launch, all threads, and of what
  /// the child left running (a compiler process finishing a compile).
  double Cpu = 0;
  std::string Message;
  double total() const { return Build + Launch; }
};

/// Runs the child for (platform, kernel) on an empty kernel cache of its
/// own, then waits for what it left running.
Run measure(const std::string &Platform, const std::string &Spec,
            unsigned Timeout) {
  std::string Self = vendors::selfPath("compile-bench");
  TempFolder Cache("compile-bench-cache");
  if (!Cache.Made)
    die(std::string("no temporary folder: ") + std::strerror(errno));
  spawn::Outcome Ch =
      spawn::run("compile-bench", {Self, "--child", Platform, Spec},
                 {{"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", Cache.Path}},
                 {}, Timeout);
  spawn::LeftBehind Left = spawn::waitLeftBehind(Timeout);
  int Status = Ch.Status;
  Run R;
  for (const std::string &Line : spawn::taggedLines(Ch, "RESULT\t")) {
    std::stringstream LS(Line.substr(7));
    std::string B, L, C;
    std::getline(LS, R.Status, '\t');
    std::getline(LS, B, '\t');
    std::getline(LS, L, '\t');
    std::getline(LS, C, '\t');
    std::getline(LS, R.Message);
    R.Build = std::atof(B.c_str());
    R.Launch = std::atof(L.c_str());
    R.Cpu = std::atof(C.c_str()) + Left.CpuMs / 1e3;
  }
  if (Left.TimedOut)
    R.Status = "timeout";
  if (R.Status.empty()) {
    if (WIFSIGNALED(Status))
      R.Status =
          WTERMSIG(Status) == SIGALRM
              ? "timeout"
              : std::string("crashed (") + strsignal(WTERMSIG(Status)) + ")";
    else
      R.Status = "no result";
  }
  return R;
}

std::string fmt(double X) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.2f", X);
  return Buf;
}

int runParent(const Options &O) {
  spawn::adoptOrphans("compile-bench");
  auto [VendorDir, Temporary] =
      vendors::prepareVendors("compile-bench", O.Vendors, O.IssIcd, true);
  setenv("OCL_ICD_VENDORS", VendorDir.c_str(), 1);
  unsetenv("OCL_ICD_FILENAMES");
  std::vector<std::string> Platforms;
  for (cl_platform_id P : platforms()) {
    std::string Name = platformName(P);
    if (driver::wantedPlatform(Name, O.PlatformFilter))
      Platforms.push_back(Name);
  }
  // pocl-iss first: the ratios are the others' time over ours.
  std::stable_sort(Platforms.begin(), Platforms.end(),
                   [](const std::string &A, const std::string &B) {
                     return isPoclIss(A) && !isPoclIss(B);
                   });
  if (Platforms.empty())
    die("no OpenCL platform with OCL_ICD_VENDORS=" + VendorDir);

  FILE *Csv = O.Csv.empty() ? nullptr : std::fopen(O.Csv.c_str(), "w");
  if (Csv)
    std::fprintf(Csv,
                 "platform,kernel,rep,status,build_s,first_launch_s,cpu_s\n");
  // Medians per (kernel, platform).
  std::map<std::pair<std::string, std::string>, Run> Median;
  for (const std::string &Spec : O.Kernels)
    for (const std::string &P : Platforms) {
      std::vector<Run> Runs;
      for (unsigned Rep = 0; Rep < O.Reps; ++Rep) {
        std::cerr << "compile-bench: " << driver::platformLabel(P) << " "
                  << Spec << " run " << Rep + 1 << "/" << O.Reps << " ... ";
        Run R = measure(P, Spec, O.Timeout);
        std::cerr << R.Status;
        if (R.Status == "ok")
          std::cerr << ": build " << fmt(R.Build) << " s, first launch "
                    << fmt(R.Launch) << " s";
        else if (!R.Message.empty())
          std::cerr << ": " << R.Message;
        std::cerr << "\n";
        if (Csv)
          std::fprintf(Csv, "%s,%s,%u,%s,%.3f,%.3f,%.3f\n",
                       driver::platformLabel(P).c_str(), Spec.c_str(), Rep,
                       R.Status.c_str(), R.Build, R.Launch, R.Cpu);
        Runs.push_back(R);
        if (R.Status != "ok")
          break; // a crash or a failure does not get better
      }
      std::sort(Runs.begin(), Runs.end(), [](const Run &A, const Run &B) {
        return (A.Status != "ok") > (B.Status != "ok") ||
               ((A.Status != "ok") == (B.Status != "ok") &&
                A.total() < B.total());
      });
      Run &Mid = Median[{Spec, P}] = Runs[Runs.size() / 2];
      // The median CPU time, which need not be that of the run with the
      // median time on the clock.
      std::vector<double> Cpu;
      for (const Run &R : Runs)
        if (R.Status == "ok")
          Cpu.push_back(R.Cpu);
      std::sort(Cpu.begin(), Cpu.end());
      if (Mid.Status == "ok")
        Mid.Cpu = Cpu[Cpu.size() / 2];
    }
  if (Csv)
    std::fclose(Csv);

  // The table: per platform build, first launch, their total on the clock
  // and in CPU time; then each other platform's totals over pocl-iss's, on
  // the clock and in CPU time (the steadier on a loaded machine).
  std::cout << "| kernel |";
  for (const std::string &P : Platforms)
    std::cout << " " << driver::platformLabel(P)
              << " build s | first launch s | total s | CPU s |";
  for (size_t I = 1; I < Platforms.size(); ++I)
    std::cout << " " << driver::platformLabel(Platforms[I]) << " / "
              << driver::platformLabel(Platforms[0]) << " | in CPU time |";
  std::cout << "\n|---|";
  for (size_t I = 0; I < Platforms.size(); ++I)
    std::cout << "---:|---:|---:|---:|";
  for (size_t I = 1; I < Platforms.size(); ++I)
    std::cout << "---:|---:|";
  std::cout << "\n";
  std::vector<double> LogWall(Platforms.size(), 0), LogCpu(Platforms.size(), 0);
  std::vector<unsigned> Counted(Platforms.size(), 0);
  for (const std::string &Spec : O.Kernels) {
    std::cout << "| " << Spec << " |";
    for (const std::string &P : Platforms) {
      const Run &R = Median[{Spec, P}];
      if (R.Status == "ok")
        std::cout << " " << fmt(R.Build) << " | " << fmt(R.Launch) << " | "
                  << fmt(R.total()) << " | " << fmt(R.Cpu) << " |";
      else if (R.Status == "build-failed")
        std::cout << " " << fmt(R.Build) << " (build failed) | - | - | "
                  << fmt(R.Cpu) << " |";
      else
        std::cout << " " << R.Status << " | - | - | - |";
    }
    const Run &Ours = Median[{Spec, Platforms[0]}];
    for (size_t I = 1; I < Platforms.size(); ++I) {
      const Run &Other = Median[{Spec, Platforms[I]}];
      if (Ours.Status == "ok" && Other.Status == "ok" && Ours.total() > 0 &&
          Ours.Cpu > 0) {
        double Wall = Other.total() / Ours.total(), Cpu = Other.Cpu / Ours.Cpu;
        std::cout << " " << fmt(Wall) << "x | " << fmt(Cpu) << "x |";
        LogWall[I] += std::log(Wall);
        LogCpu[I] += std::log(Cpu);
        ++Counted[I];
      } else {
        std::cout << " - | - |";
      }
    }
    std::cout << "\n";
  }
  for (size_t I = 1; I < Platforms.size(); ++I)
    if (Counted[I])
      std::cout << "\nGeometric mean of " << driver::platformLabel(Platforms[I])
                << " / " << driver::platformLabel(Platforms[0]) << " over the "
                << Counted[I] << " kernels both ran: "
                << fmt(std::exp(LogWall[I] / Counted[I])) << "x on the clock, "
                << fmt(std::exp(LogCpu[I] / Counted[I])) << "x in CPU time\n";
  bool Bad = false;
  for (const auto &[Key, R] : Median)
    if (R.Status == "wrong") {
      std::cout << "WRONG RESULT: " << driver::platformLabel(Key.second) << " "
                << Key.first << ": " << R.Message << "\n";
      Bad = true;
    }
  if (Temporary)
    vendors::removeVendors(VendorDir);
  return Bad ? 1 : 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  if (Args.size() == 3 && Args[0] == "--child")
    return runChild(Args[1], Args[2]);
  Options O;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    auto Value = [&]() -> std::string {
      if (I + 1 >= Args.size())
        die(A + " needs a value");
      return Args[++I];
    };
    if (A == "--kernels")
      O.Kernels = driver::splitList(Value());
    else if (A == "--reps")
      O.Reps = std::max(1, std::atoi(Value().c_str()));
    else if (A == "--timeout")
      O.Timeout =
          static_cast<unsigned>(std::max(1, std::atoi(Value().c_str())));
    else if (A == "--platforms")
      O.PlatformFilter = driver::splitList(Value());
    else if (A == "--vendors")
      O.Vendors = Value();
    else if (A == "--iss-icd")
      O.IssIcd = Value();
    else if (A == "--csv")
      O.Csv = Value();
    else if (A == "--list") {
      for (const KernelKind &K : kinds())
        std::cout << K.Name << " (N = " << K.DefaultSize << "): " << K.What
                  << "\n";
      return 0;
    } else if (A == "--help" || A == "-h") {
      usage();
      return 0;
    } else {
      usage();
      die("unknown argument '" + A + "'");
    }
  }
  if (O.Kernels.empty())
    for (const char *K : DefaultKernels)
      O.Kernels.push_back(K);
  for (const std::string &K : O.Kernels)
    parseSpec(K); // dies on a bad one before anything runs
  return runParent(O);
}
