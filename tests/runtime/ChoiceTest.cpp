//===- ChoiceTest.cpp - POCL_ISS_CHOICE: the faster of the mode's and vec's
//===//
// SPDX-License-Identifier: MIT
//
// Where launches are tiered, `vec`'s code is compiled for the first launch
// and the mode's arrives from the compiler process; the device then runs
// some work groups of each launch with either, keeps the faster, and notes
// the choice in the kernel cache (lib/Device/Pthread/MeasuredChoice.h). The
// test runs itself as children, each launching one kernel until the choice
// is in the cache and a few times more, every result checked against the
// host (so every launch that mixes the two candidates is checked too), and
// reads what they logged (POCL_DEBUG=device):
// - Convolution2D in `split`: the split's code is several times faster
//   than vec's and is kept; a second process knows it from the cache and
//   measures nothing.
// - A kernel whose addresses the scores cannot read, in `score` with the
//   paper's weights (2,1,0): the scores pick its scalar fallback, several
//   times slower than vec's vectorized code, which the choice runs
//   instead; a second process runs vec's code at once.
// - Two uint16 values carried through a loop, where the count finds
//   widening only a little cheaper than the kernel as written: the kernel
//   as written is compiled behind the launches and measured too; a second
//   process measures nothing.
// - POCL_ISS_CHOICE=0: no measurement, the scores' pick throughout.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include "CheckedConvolution.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

/// Entries in the kernel cache of this process.
static int cacheEntries() {
  const char *Dir = std::getenv("POCL_CACHE_DIR");
  return Dir ? int(clt::kernelCacheEntries(Dir).size()) : 0;
}

/// Runs \p Launch (false: a wrong result) until the cache holds \p Entries
/// entries, then 3 times more; false on a wrong result or when that does
/// not happen within two minutes.
template <typename F> static bool untilCached(int Entries, F Launch) {
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::seconds(120 * clt::timeScale());
  int More = 3;
  for (int N = 1; More; ++N) {
    if (!Launch(N))
      return false;
    if (cacheEntries() >= Entries)
      --More;
    if (std::chrono::steady_clock::now() > Deadline) {
      std::fprintf(stderr, "the cache never held %d entries\n", Entries);
      return false;
    }
  }
  return true;
}

/// Convolution2D on a 512x512 image in 32x8 groups, until the cache holds
/// \p Entries entries: vec's, the split's and the choice's note.
static int convolutionChild(int Entries) {
  clt::Env E;
  E.open("pocl-iss");
  clt::CheckedConvolution Conv(E, 512, 512);
  bool Ok =
      untilCached(Entries, [&](int Launch) { return Conv.run(32, 8, Launch); });
  return Ok ? 0 : 1;
}

/// Each work-item scrambles one element at an index the scores cannot
/// read (a product modulo an argument): in `score` with the weight of
/// such accesses 0, no vectorized subkernel outscores the scalar
/// fallback; `vec` vectorizes it, gathers and all.
static const char *const ScatteredSource =
    "__kernel void scattered(__global const uint *In, __global uint *Out,\n"
    "                        uint N) {\n"
    "  uint J = (uint)get_global_id(0) * 7919u % N;\n"
    "  uint V = In[J];\n"
    "  for (int K = 0; K < 64; ++K)\n"
    "    V = V * 1664525u + 1013904223u;\n"
    "  Out[J] = V;\n"
    "}\n";

/// scattered over 65536 elements in 64-wide groups, until the cache holds
/// \p Entries entries: vec's, the mode's and the choice's note.
static int scatteredChild(int Entries) {
  clt::Env E;
  E.open("pocl-iss");
  const unsigned N = 65536;
  std::vector<unsigned> In(N), Want(N);
  for (unsigned I = 0; I < N; ++I) {
    In[I] = I * 2654435761u;
    unsigned V = In[I];
    for (int K = 0; K < 64; ++K)
      V = V * 1664525u + 1013904223u;
    Want[I] = V;
  }
  clt::Program P = E.build(ScatteredSource);
  clt::Kernel K = E.kernel(P, "scattered");
  clt::Mem InB = E.input(In);
  bool Ok = untilCached(Entries, [&](int Launch) {
    clt::Mem Out = E.output<unsigned>(N);
    clt::setArgs(K, InB, Out, N);
    size_t G = N, L = 64;
    E.run(K, 1, &G, &L);
    std::vector<unsigned> Got = E.read<unsigned>(Out, N);
    for (unsigned I = 0; I < N; ++I)
      if (Got[I] != Want[I]) {
        std::fprintf(stderr, "launch %d: element %u: %u, expected %u\n", Launch,
                     I, Got[I], Want[I]);
        return false;
      }
    return true;
  });
  return Ok ? 0 : 1;
}

/// Two uint16 values carried through a loop of multiply-adds, as a peak
/// compute benchmark writes them: widened by the work-items of a group,
/// the two take every vector register there is, and the count of
/// iss-as-written finds widening only a little cheaper than the kernel as
/// written, which is then a candidate too.
static const char *const Mad16Source =
    "__kernel void mad16(__global uint *Out, uint A) {\n"
    "  uint16 X = (uint16)(A) + (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n"
    "                                    11, 12, 13, 14, 15);\n"
    "  uint16 Y = (uint16)((uint)get_global_id(0));\n"
    "  for (int I = 0; I < 64; ++I) {\n"
    "    X = Y * X + Y; Y = X * Y + X; X = Y * X + Y; Y = X * Y + X;\n"
    "  }\n"
    "  uint8 S8 = X.lo + X.hi;\n"
    "  uint4 S4 = S8.lo + S8.hi;\n"
    "  Out[get_global_id(0)] = S4.x + S4.y + S4.z + S4.w;\n"
    "}\n";

/// The host's mad16 for work-item \p G.
static unsigned mad16(unsigned A, unsigned G) {
  unsigned X[16], Y[16], S = 0;
  for (unsigned L = 0; L < 16; ++L) {
    X[L] = A + L;
    Y[L] = G;
  }
  for (int I = 0; I < 64; ++I)
    for (unsigned L = 0; L < 16; ++L)
      for (int Twice = 0; Twice < 2; ++Twice) {
        X[L] = Y[L] * X[L] + Y[L];
        Y[L] = X[L] * Y[L] + X[L];
      }
  for (unsigned L = 0; L < 16; ++L)
    S += X[L];
  return S;
}

/// mad16 over 16384 work-items in groups of 256, until the cache holds
/// \p Entries entries: vec's, the mode's, the kernel as written and the
/// choice's note.
static int mad16Child(int Entries) {
  clt::Env E;
  E.open("pocl-iss");
  const unsigned N = 16384, A = 7;
  clt::Program P = E.build(Mad16Source);
  clt::Kernel K = E.kernel(P, "mad16");
  bool Ok = untilCached(Entries, [&](int Launch) {
    clt::Mem Out = E.output<unsigned>(N);
    clt::setArgs(K, Out, A);
    size_t G = N, L = 256;
    E.run(K, 1, &G, &L);
    std::vector<unsigned> Got = E.read<unsigned>(Out, N);
    for (unsigned I = 0; I < N; I += 97)
      if (Got[I] != mad16(A, I)) {
        std::fprintf(stderr, "launch %d: work-item %u: %u, expected %u\n",
                     Launch, I, Got[I], mad16(A, I));
        return false;
      }
    return true;
  });
  return Ok ? 0 : 1;
}

/// What one child must have logged: each text that many times.
struct Expect {
  const char *What;
  const char *Child;
  int Entries; ///< the kernel cache entries it waits for
  std::vector<std::pair<std::string, int>> Lines;
};

static int check(const char *Self, const clt::EnvChanges &Env,
                 const Expect &X) {
  std::string Log;
  std::string Arg = std::string(X.Child) + std::to_string(X.Entries);
  int Exit = clt::runChild(Self, Arg.c_str(), Env, 600, Log);
  if (Exit == 77)
    return 77;
  if (Exit != 0) {
    std::printf("FAIL: %s: the child exited with %d:\n%s\n", X.What, Exit,
                Log.c_str());
    return 1;
  }
  for (const auto &[Text, Times] : X.Lines)
    if (clt::occurrences(Log, Text) != Times) {
      std::printf("FAIL: %s: \"%s\" logged %d times, expected %d:\n%s\n",
                  X.What, Text.c_str(), clt::occurrences(Log, Text), Times,
                  Log.c_str());
      return 1;
    }
  std::printf("%s: as expected\n", X.What);
  return 0;
}

int main(int Argc, char **Argv) {
  // Children: --convolution=N, --scattered=N, --mad16=N (N: cache
  // entries).
  const char *Arg = Argc > 1 ? Argv[1] : "";
  bool IsConv = !std::strncmp(Arg, "--convolution=", 14);
  bool IsMad = !std::strncmp(Arg, "--mad16=", 8);
  if (IsConv || IsMad || !std::strncmp(Arg, "--scattered=", 12)) {
    if (!clt::findPlatform("pocl-iss"))
      return 77;
    int Entries = std::atoi(std::strchr(Arg, '=') + 1);
    try {
      return IsConv  ? convolutionChild(Entries)
             : IsMad ? mad16Child(Entries)
                     : scatteredChild(Entries);
    } catch (const clt::Failure &F) {
      std::fprintf(stderr, "%s\n", F.what());
      return 1;
    }
  }
  std::string SelfPath = clt::selfPath();
  if (SelfPath.empty())
    return 1;
  const char *Self = SelfPath.c_str();
  clt::TempFolder A("pocl-iss-choice"), B("pocl-iss-choice"),
      C("pocl-iss-choice"), D("pocl-iss-choice");
  if (!A.Made || !B.Made || !C.Made || !D.Made) {
    std::printf("FAIL: no temporary folder\n");
    return 1;
  }
  auto Env = [](const char *Mode, const clt::TempFolder &Dir,
                const char *Choice) {
    return clt::EnvChanges{
        {"POCL_ISS_MODE", Mode},    {"POCL_ISS_WEIGHTS", "2,1,0"},
        {"POCL_ISS_TIERED", "1"},   {"POCL_ISS_CHOICE", Choice},
        {"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", Dir.Path.c_str()},
        {"POCL_DEBUG", "device"}};
  };
  const std::string Conv = "Convolution2D, local size 32x8x1: ";
  const std::string Scat = "scattered, local size 64x1x1: ";
  const std::string Measuring = "measuring the mode's code against vec's";
  const std::string Remembered =
      "vec's code, as measured by an earlier process";
  const Expect ConvRuns[] = {
      {"Convolution2D in split",
       "--convolution=",
       3,
       {{Conv + Measuring, 1},
        {Conv + "measured choice: split's code", 1},
        {"measured choice: vec's", 0}}},
      {"Convolution2D in split, second process",
       "--convolution=",
       3,
       {{Measuring, 0}, {"measured choice", 0}, {Remembered, 0}}},
  };
  for (const Expect &X : ConvRuns)
    if (int R = check(Self, Env("split", A, "1"), X))
      return R;
  const Expect ScatRuns[] = {
      {"scattered in score",
       "--scattered=",
       3,
       {{Scat + Measuring, 1},
        {Scat + "measured choice: vec's code", 1},
        {"measured choice: score's", 0}}},
      {"scattered in score, second process",
       "--scattered=",
       3,
       {{Measuring, 0}, {"measured choice", 0}, {Scat + Remembered, 1}}},
  };
  for (const Expect &X : ScatRuns)
    if (int R = check(Self, Env("score", B, "1"), X))
      return R;
  // A count close to even: the kernel as written measured too.
  const std::string Mad = "mad16, local size 256x1x1: ";
  const Expect MadRuns[] = {
      {"mad16 in split+score",
       "--mad16=",
       4,
       {{Mad + "measuring the mode's code against vec's and the kernel as "
               "written",
         1},
        {Mad + "measured choice: ", 1}}},
      {"mad16 in split+score, second process",
       "--mad16=",
       4,
       {{Measuring, 0}, {"measured choice", 0}}},
  };
  for (const Expect &X : MadRuns)
    if (int R = check(Self, Env("split+score", D, "1"), X))
      return R;
  // Without the choice: the two codes in the cache, no note.
  const Expect Off = {
      "scattered in score, POCL_ISS_CHOICE=0",
      "--scattered=",
      2,
      {{Measuring, 0}, {"measured choice", 0}, {Remembered, 0}}};
  if (int R = check(Self, Env("score", C, "0"), Off))
    return R;
  if (clt::kernelCacheEntries(C.Path).size() != 2) {
    std::printf("FAIL: POCL_ISS_CHOICE=0 left %zu cache entries, expected "
                "vec's and score's\n",
                clt::kernelCacheEntries(C.Path).size());
    return 1;
  }
  return 0;
}
