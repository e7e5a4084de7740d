//===- TieredTest.cpp - POCL_ISS_TIERED: vec's code first, the mode's next ===//
// SPDX-License-Identifier: MIT
//
// With POCL_ISS_TIERED (the default), the first launch of a kernel not yet
// compiled for its local size runs `vec`'s code, compiled at enqueue, while
// the compiler process compiles POCL_ISS_MODE's; the launches run `vec`'s
// code until the mode's has arrived, none waiting for it, and the mode's
// from then on. The test runs itself as children in `split` mode and reads
// what they logged (POCL_DEBUG=llvm) and timed:
// - Convolution2D in 32x8 groups, launched until the split's code is in
//   the kernel cache and once more (every result checked against the host
//   reference, on either code): compiled once in each mode, the split's
//   loaded once from the compiler process; then once in 16x16 groups, the
//   process exiting with that compile under way. A second process loads
//   the split's code from the cache and compiles nothing for 32x8.
// - POCL_ISS_TIERED=0 and POCL_ISS_STATS=1 compile the mode's code first.
// - A kernel with nothing to split: the compiler process finds the split's
//   code to be vec's after the work-group passes and compiles no more; the
//   launches run vec's code as the split's, the cache holds one object, and
//   a second process loads it as the split's at once.
// - A kernel whose split compile takes long, launched once: the process
//   exits at once (under 0.2 s from the end of main), with and without the
//   kernel cache; with it, the compiler process finishes the compile
//   after the application is gone, and the next run loads it.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include "CheckedConvolution.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <time.h>
#include <unistd.h>

/// CLOCK_MONOTONIC in nanoseconds: the same clock in every process.
static long long monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

/// Kernel cache entries in \p Dir.
static int cacheEntries(const char *Dir = std::getenv("POCL_CACHE_DIR")) {
  return Dir ? int(clt::kernelCacheEntries(Dir).size()) : 0;
}

/// Whether the kernel cache is on in this process.
static bool cacheOn() {
  const char *C = std::getenv("POCL_KERNEL_CACHE");
  return C && std::strcmp(C, "1") == 0;
}

/// Runs \p Launch (false: a wrong result) once without a cache; with one,
/// until the mode's entry is there beside `vec`'s, and once more to run it.
template <typename F> static bool untilCached(F Launch) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(120 * clt::timeScale());
  int N = 1;
  for (bool Last = !cacheOn();; Last = cacheEntries() >= 2) {
    if (!Launch(N++))
      return false;
    if (Last)
      return true;
    if (std::chrono::steady_clock::now() > Deadline) {
      std::fprintf(stderr, "the mode's code never reached the cache\n");
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

/// Convolution2D in 32x8 groups until its split code is cached, then in
/// 16x16 groups once, as the process's last launch.
static int convolutionChild() {
  clt::Env E;
  E.open("pocl-iss");
  clt::CheckedConvolution Conv(E, 256, 128);
  auto Run = [&](size_t LX, size_t LY, int Launch) {
    return Conv.run(LX, LY, Launch);
  };
  if (!untilCached([&](int Launch) { return Run(32, 8, Launch); }))
    return 1;
  // The last thing the process does: its split compile runs at exit.
  return Run(16, 16, 1) ? 0 : 1;
}

/// A kernel with no condition to split on: its split code is `vec`'s.
static const char *const PlainSource =
    "__kernel void plain(__global const float *X, __global float *Y,\n"
    "                    float A) {\n"
    "  size_t I = get_global_id(0);\n"
    "  Y[I] = A * X[I] + Y[I];\n"
    "}\n";

/// plain in 64-wide groups until its split entry is cached, each result
/// checked.
static int plainChild() {
  clt::Env E;
  E.open("pocl-iss");
  const size_t N = 4096;
  std::vector<float> X(N), Y(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = float(I % 13);
    Y[I] = float(I % 7);
  }
  clt::Program P = E.build(PlainSource);
  clt::Kernel K = E.kernel(P, "plain");
  clt::Mem XB = E.input(X);
  bool Ok = untilCached([&](int Launch) {
    clt::Mem YB = E.input(Y);
    clt::setArgs(K, XB, YB, 3.0f);
    size_t G = N, L = 64;
    E.run(K, 1, &G, &L);
    std::vector<float> Got = E.read<float>(YB, N);
    for (size_t I = 0; I < N; ++I)
      if (Got[I] != 3.0f * X[I] + Y[I]) {
        std::fprintf(stderr, "launch %d: work-item %zu: %g, expected %g\n",
                     Launch, I, Got[I], 3.0f * X[I] + Y[I]);
        return false;
      }
    return true;
  });
  return Ok ? 0 : 1;
}

/// Whether an entry in \p Dir holds no object: the split's entry that
/// names vec's code, beside vec's entry.
static bool cacheHasEntryWithoutObject(const char *Dir) {
  for (const std::string &Path : clt::kernelCacheEntries(Dir)) {
    std::string Data = clt::readFile(Path);
    if (!Data.empty() && Data.find("\x7f"
                                   "ELF") == std::string::npos)
      return true;
  }
  return false;
}

/// A stencil of 20x20 clamped taps: a long split compile.
static std::string bigStencilSource() {
  std::string S = "__kernel void bigStencil(__global const float *In, "
                  "__global float *Out, int W, int H) {\n"
                  "  int x = get_global_id(0), y = get_global_id(1);\n"
                  "  float S = 0.0f;\n";
  for (int DY = -10; DY < 10; ++DY)
    for (int DX = -10; DX < 10; ++DX)
      S += "  S += In[clamp(y + (" + std::to_string(DY) +
           "), 0, H - 1) * W + clamp(x + (" + std::to_string(DX) +
           "), 0, W - 1)] * " + std::to_string(1 + (DX + 10) % 3) + ".0f;\n";
  return S + "  Out[y * W + x] = S;\n}\n";
}

/// bigStencil launched once, checked, and the process gone at once: it
/// prints when main ends, for the parent to time the exit.
static int bigChild() {
  clt::Env E;
  E.open("pocl-iss");
  const int W = 64, H = 32;
  std::vector<float> In(W * H);
  for (int I = 0; I < W * H; ++I)
    In[I] = float(I % 7);
  std::vector<float> Want(W * H);
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      float S = 0;
      for (int DY = -10; DY < 10; ++DY)
        for (int DX = -10; DX < 10; ++DX)
          S += In[std::min(std::max(Y + DY, 0), H - 1) * W +
                  std::min(std::max(X + DX, 0), W - 1)] *
               float(1 + (DX + 10) % 3);
      Want[Y * W + X] = S;
    }
  std::string Src = bigStencilSource();
  clt::Program P = E.build(Src.c_str());
  clt::Kernel K = E.kernel(P, "bigStencil");
  clt::Mem InB = E.input(In), Out = E.output<float>(In.size());
  clt::setArgs(K, InB, Out, W, H);
  size_t G[2] = {size_t(W), size_t(H)}, L[2] = {16, 4};
  E.run(K, 2, G, L);
  std::vector<float> Got = E.read<float>(Out, In.size());
  for (int I = 0; I < W * H; ++I)
    if (Got[I] != Want[I]) {
      std::fprintf(stderr, "bigStencil: work-item %d: %g, expected %g\n", I,
                   Got[I], Want[I]);
      return 1;
    }
  std::printf("main ends at %lld\n", monotonicNs());
  std::fflush(stdout);
  return 0;
}

struct Expect {
  int VecCompiles;   ///< "mode vec: compiled" for 32x8
  int SplitCompiles; ///< "mode split: compiled" for 32x8
  int SplitLoads;    ///< "mode split: loaded from the cache" for 32x8
  int Arrived;       ///< the split's code installed from the compiler process
  int Behind;        ///< tiered first launches, both local sizes (-1: any)
};

/// Runs a child; its log in \p Log. 0 when it exited with 0.
static int runChecked(const char *Self, const char *Arg, const char *What,
                      const clt::EnvChanges &Env, std::string &Log) {
  int Exit = clt::runChild(Self, Arg, Env, 600, Log);
  if (Exit == 77)
    return 77;
  if (Exit != 0) {
    std::printf("FAIL: %s: the child exited with %d:\n%s\n", What, Exit,
                Log.c_str());
    return 1;
  }
  return 0;
}

static int check(const char *Self, const char *What, const clt::EnvChanges &Env,
                 const Expect &X) {
  std::string Log;
  if (int R = runChecked(Self, "--child", What, Env, Log))
    return R;
  const std::string Conv = "kernel Convolution2D, local size 32,8,1";
  int Vec = clt::occurrences(Log, Conv + ", mode vec: compiled");
  int Split = clt::occurrences(Log, Conv + ", mode split: compiled");
  int Loads =
      clt::occurrences(Log, Conv + ", mode split: loaded from the cache");
  int Arrived =
      clt::occurrences(Log, Conv + ", mode split: from the compiler process");
  int Behind =
      clt::occurrences(Log, "the first launch runs vec's code, mode split "
                            "compiling behind it");
  if (Vec != X.VecCompiles || Split != X.SplitCompiles ||
      Loads != X.SplitLoads || Arrived != X.Arrived ||
      (X.Behind >= 0 && Behind != X.Behind)) {
    std::printf("FAIL: %s: 32x8 compiled %d times in vec, %d in split, "
                "loaded %d times from the cache, %d from the compiler "
                "process; %d tiered first launches; expected %d, %d, %d, %d, "
                "%d:\n%s\n",
                What, Vec, Split, Loads, Arrived, Behind, X.VecCompiles,
                X.SplitCompiles, X.SplitLoads, X.Arrived, X.Behind,
                Log.c_str());
    return 1;
  }
  return 0;
}

/// plainChild twice on one cache: the compiler process finds that the
/// split's code would be vec's and compiles nothing after its work-group
/// passes; the launches then run vec's code as the split's, and the cache
/// holds one object. The second process loads it as the split's at once.
static int checkPlain(const char *Self, const clt::EnvChanges &Env,
                      const char *Dir) {
  const std::string Plain = "kernel plain, local size 64,1,1, mode ";
  struct Run {
    const char *What;
    int VecCompiles, Same, Arrived, Behind, Loads;
  } Runs[] = {{"vec's code as the split's", 1, 1, 1, 1, 0},
              {"vec's code as the split's, second process", 0, 0, 0, 0, 1}};
  for (const Run &X : Runs) {
    std::string Log;
    if (int R = runChecked(Self, "--plain", X.What, Env, Log))
      return R;
    int Got[] = {
        clt::occurrences(Log, Plain + "vec: compiled"),
        clt::occurrences(Log,
                         Plain + "split: the same code as vec's, not compiled"),
        clt::occurrences(Log, Plain + "split: from the compiler process"),
        clt::occurrences(Log, "compiling behind it"),
        clt::occurrences(Log, Plain + "split: loaded from the cache")};
    int Want[] = {X.VecCompiles, X.Same, X.Arrived, X.Behind, X.Loads};
    if (clt::occurrences(Log, Plain + "split: compiled") ||
        !std::equal(std::begin(Got), std::end(Got), std::begin(Want))) {
      std::printf("FAIL: %s: vec compiled %d times, the split found to be "
                  "vec's %d, arrived %d, tiered first launches %d, loaded "
                  "from the cache %d; expected %d, %d, %d, %d, %d, and no "
                  "split compile:\n%s\n",
                  X.What, Got[0], Got[1], Got[2], Got[3], Got[4], Want[0],
                  Want[1], Want[2], Want[3], Want[4], Log.c_str());
      return 1;
    }
  }
  if (cacheEntries(Dir) != 2 || !cacheHasEntryWithoutObject(Dir)) {
    std::printf("FAIL: the cache holds %d entries, expected vec's and one "
                "without an object that names it\n",
                cacheEntries(Dir));
    return 1;
  }
  return 0;
}

/// bigChild, timed from the end of its main to the end of the process.
static int checkExit(const char *Self, const char *What,
                     const clt::EnvChanges &Env) {
  std::string Log;
  if (int R = runChecked(Self, "--big", What, Env, Log))
    return R;
  long long Ended = monotonicNs();
  long long MainEnd = 0;
  size_t At = Log.find("main ends at ");
  if (At != std::string::npos)
    MainEnd = std::atoll(Log.c_str() + At + 13);
  double Seconds = (Ended - MainEnd) / 1e9;
  // waitChild polls every 10 ms.
  double Limit = 0.2 * clt::timeScale();
  if (!MainEnd || Seconds > Limit) {
    std::printf("FAIL: %s: the exit took %.3f s (at most %.1f):\n%s\n", What,
                Seconds, Limit, Log.c_str());
    return 1;
  }
  std::printf("%s: exit in %.3f s\n", What, Seconds);
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 &&
      (!std::strcmp(Argv[1], "--child") || !std::strcmp(Argv[1], "--big") ||
       !std::strcmp(Argv[1], "--plain"))) {
    if (!clt::findPlatform("pocl-iss"))
      return 77;
    try {
      if (!std::strcmp(Argv[1], "--plain"))
        return plainChild();
      return !std::strcmp(Argv[1], "--child") ? convolutionChild() : bigChild();
    } catch (const clt::Failure &F) {
      std::fprintf(stderr, "%s\n", F.what());
      return 1;
    }
  }
  std::string SelfPath = clt::selfPath();
  if (SelfPath.empty())
    return 1;
  const char *Self = SelfPath.c_str();
  clt::TempFolder A("pocl-iss-tiered"), B("pocl-iss-tiered"),
      C("pocl-iss-tiered");
  if (!A.Made || !B.Made || !C.Made) {
    std::printf("FAIL: no temporary folder\n");
    return 1;
  }
  // `split`, tiered, logging compiles, no cache: changed by \p More.
  auto Split = [](const clt::EnvChanges &More) {
    clt::EnvChanges Env = {{"POCL_ISS_MODE", "split"},
                           {"POCL_DEBUG", "llvm"},
                           {"POCL_KERNEL_CACHE", "0"},
                           {"POCL_ISS_TIERED", "1"}};
    for (const auto &KV : More) {
      auto It = std::find_if(Env.begin(), Env.end(), [&](const auto &E) {
        return E.first == KV.first;
      });
      if (It != Env.end())
        It->second = KV.second;
      else
        Env.push_back(KV);
    }
    return Env;
  };
  clt::EnvChanges Cached =
      Split({{"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", A.Path.c_str()}});
  if (int R = check(Self, "tiered", Cached, {1, 1, 0, 1, 2}))
    return R;
  if (int R = check(Self, "tiered, second process", Cached, {0, 0, 1, 0, -1}))
    return R;
  if (int R = check(Self, "not tiered", Split({{"POCL_ISS_TIERED", "0"}}),
                    {0, 1, 0, 0, 0}))
    return R;
  if (int R = check(Self, "with stats", Split({{"POCL_ISS_STATS", "1"}}),
                    {0, 1, 0, 0, 0}))
    return R;
  if (int R = checkPlain(Self,
                         Split({{"POCL_KERNEL_CACHE", "1"},
                                {"POCL_CACHE_DIR", C.Path.c_str()}}),
                         C.Path.c_str()))
    return R;
  // Exit: nothing logged, so that no compiler process holds the log open.
  clt::EnvChanges NoCache = Split({{"POCL_DEBUG", nullptr}});
  clt::EnvChanges WithCache = Split({{"POCL_DEBUG", nullptr},
                                     {"POCL_KERNEL_CACHE", "1"},
                                     {"POCL_CACHE_DIR", B.Path.c_str()}});
  if (int R = checkExit(Self, "exit without a cache", NoCache))
    return R;
  if (int R = checkExit(Self, "exit with a cache", WithCache))
    return R;
  // The compile finishes behind the exit and lands in the cache: vec's
  // entry and the split's.
  setenv("POCL_CACHE_DIR", B.Path.c_str(), 1);
  for (int Waited = 0; cacheEntries() < 2; Waited += 50) {
    if (Waited > 300000 * clt::timeScale()) {
      std::printf("FAIL: the split's code never reached the cache\n");
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::string Log;
  clt::EnvChanges Next =
      Split({{"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", B.Path.c_str()}});
  if (int R = runChecked(Self, "--big", "the next run", Next, Log))
    return R;
  if (clt::occurrences(
          Log, "kernel bigStencil, local size 16,4,1, mode split: loaded "
               "from the cache") != 1 ||
      clt::occurrences(Log, "compiling behind it")) {
    std::printf("FAIL: the next run did not load the split's code from the "
                "cache:\n%s\n",
                Log.c_str());
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
