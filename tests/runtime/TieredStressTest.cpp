//===- TieredStressTest.cpp - The default configuration under load --------===//
// SPDX-License-Identifier: MIT
//
// What an application run after run does to the tiered first launch:
// children of this test, one after the other, each in one POCL_ISS_MODE
// in turn and all with the same kernel cache, build eight kernels (barrier
// reductions, a prefix sum, barriers in loops and under a uniform
// condition, clamped stencils, a tail guard) in three programs, launch
// them from two application threads at once (the second one all of them,
// its stencils from a second program of the same source: the same kernels
// compiled and cached by both threads at once) while two busy threads of
// their own keep the cores loaded, check every result against a host
// reference, and return from main right after their last launch, with the
// mode's compiles under way. POCL_ISS_TIERED is as users get it. Every
// child must exit with 0; a crash, an LLVM error or a wrong result fails.
// ISS_STRESS_ROUNDS sets the rounds over the five modes (default 3).
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <unistd.h>

static const char *const ReduceSource = R"CL(
__kernel void reduce(__global const int *In, __global int *Out,
                     __local int *Tmp) {
  size_t L = get_local_id(0), N = get_local_size(0);
  Tmp[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t S = N / 2; S > 0; S /= 2) {
    if (L < S)
      Tmp[L] += Tmp[L + S];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Out[get_group_id(0)] = Tmp[0];
}
__kernel void scan(__global const int *In, __global int *Out,
                   __local int *Tmp) {
  size_t L = get_local_id(0), N = get_local_size(0);
  Tmp[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t D = 1; D < N; D *= 2) {
    int V = L >= D ? Tmp[L - D] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    Tmp[L] += V;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[get_global_id(0)] = Tmp[L];
}
__kernel void rotateLocal(__global const int *In, __global int *Out, int Steps) {
  __local int Tmp[64];
  size_t L = get_local_id(0), N = get_local_size(0);
  int Acc = In[get_global_id(0)];
  for (int I = 0; I < Steps; ++I) {
    Tmp[L] = Acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    Acc += Tmp[(L + 1) % N];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[get_global_id(0)] = Acc;
}
)CL";

static const char *const GuardSource = R"CL(
__kernel void uniformBarrier(__global const int *In, __global int *Out,
                             int Mode) {
  __local int Tmp[64];
  size_t L = get_local_id(0), N = get_local_size(0);
  int V = In[get_global_id(0)];
  if (Mode > 0) {
    Tmp[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
    V = Tmp[N - 1 - L] * Mode;
  }
  Out[get_global_id(0)] = V;
}
__kernel void tail(__global const int *In, __global int *Out, int N) {
  int G = get_global_id(0);
  if (G < N)
    Out[G] = In[G] * 3 + 1;
}
)CL";

static const char *const StencilSource = R"CL(
__kernel void clamp1(__global const int *In, __global int *Out, int N) {
  int X = get_global_id(0);
  int S = 0;
  for (int D = -2; D <= 2; ++D)
    S += In[clamp(X + D, 0, N - 1)] * (D + 3);
  Out[X] = S;
}
__kernel void clamp2(__global const int *In, __global int *Out, int W,
                     int H) {
  int X = get_global_id(0), Y = get_global_id(1);
  int S = 0;
  for (int DY = -1; DY <= 1; ++DY)
    for (int DX = -1; DX <= 1; ++DX)
      S += In[clamp(Y + DY, 0, H - 1) * W + clamp(X + DX, 0, W - 1)];
  Out[Y * W + X] = S;
}
__kernel void transposeTile(__global const int *In, __global int *Out,
                            int W) {
  __local int Tile[16][17];
  int LX = get_local_id(0), LY = get_local_id(1);
  Tile[LY][LX] = In[get_global_id(1) * W + get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  int X = get_group_id(1) * 16 + LX, Y = get_group_id(0) * 16 + LY;
  Out[Y * W + X] = Tile[LX][LY];
}
)CL";

namespace {
/// One kernel's launches and their check.
struct Case {
  const char *Name;
  std::function<void(clt::Env &, const cl_program[3])> Run;
};
} // namespace

static void expectEqual(const char *Kernel, const std::vector<int> &Got,
                        const std::vector<int> &Want) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I])
      throw clt::Failure(std::string(Kernel) + ": element " +
                         std::to_string(I) + " is " + std::to_string(Got[I]) +
                         ", expected " + std::to_string(Want[I]));
}

static std::vector<int> inputs(size_t N) {
  std::vector<int> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = int((I * 7919) % 23) - 11;
  return V;
}

static std::vector<Case> cases() {
  const size_t N = 1024;
  std::vector<Case> C;
  C.push_back({"reduce", [=](clt::Env &E, const cl_program P[3]) {
                 std::vector<int> In = inputs(N), Want(N / 64, 0);
                 for (size_t I = 0; I < N; ++I)
                   Want[I / 64] += In[I];
                 clt::Kernel K = E.kernel(P[0], "reduce");
                 clt::Mem A = E.input(In), B = E.output<int>(N / 64);
                 clt::setArgs(K, A, B, clt::LocalMem{64 * sizeof(int)});
                 E.run1(K, N, 64);
                 expectEqual("reduce", E.read<int>(B, N / 64), Want);
               }});
  C.push_back({"scan", [=](clt::Env &E, const cl_program P[3]) {
                 std::vector<int> In = inputs(N), Want(N);
                 for (size_t I = 0; I < N; ++I)
                   Want[I] = In[I] + (I % 32 ? Want[I - 1] : 0);
                 clt::Kernel K = E.kernel(P[0], "scan");
                 clt::Mem A = E.input(In), B = E.output<int>(N);
                 clt::setArgs(K, A, B, clt::LocalMem{32 * sizeof(int)});
                 E.run1(K, N, 32);
                 expectEqual("scan", E.read<int>(B, N), Want);
               }});
  C.push_back({"rotateLocal", [=](clt::Env &E, const cl_program P[3]) {
                 const int Steps = 3, G = 16;
                 std::vector<int> In = inputs(N), Want(N);
                 for (size_t Base = 0; Base < N; Base += G) {
                   std::vector<int> Acc(In.begin() + Base,
                                        In.begin() + Base + G);
                   for (int S = 0; S < Steps; ++S) {
                     std::vector<int> T = Acc;
                     for (int L = 0; L < G; ++L)
                       Acc[L] += T[(L + 1) % G];
                   }
                   std::copy(Acc.begin(), Acc.end(), Want.begin() + Base);
                 }
                 clt::Kernel K = E.kernel(P[0], "rotateLocal");
                 clt::Mem A = E.input(In), B = E.output<int>(N);
                 clt::setArgs(K, A, B, Steps);
                 E.run1(K, N, G);
                 expectEqual("rotateLocal", E.read<int>(B, N), Want);
               }});
  C.push_back({"uniformBarrier", [=](clt::Env &E, const cl_program P[3]) {
                 std::vector<int> In = inputs(N);
                 clt::Kernel K = E.kernel(P[1], "uniformBarrier");
                 for (int Mode : {0, 2}) {
                   std::vector<int> Want(N);
                   for (size_t I = 0; I < N; ++I)
                     Want[I] =
                         Mode ? In[I / 32 * 32 + 31 - I % 32] * Mode : In[I];
                   clt::Mem A = E.input(In), B = E.output<int>(N);
                   clt::setArgs(K, A, B, Mode);
                   E.run1(K, N, 32);
                   expectEqual("uniformBarrier", E.read<int>(B, N), Want);
                 }
               }});
  C.push_back({"tail", [=](clt::Env &E, const cl_program P[3]) {
                 const int Valid = 1000;
                 std::vector<int> In = inputs(N), Want(N, -5);
                 for (int I = 0; I < Valid; ++I)
                   Want[I] = In[I] * 3 + 1;
                 clt::Kernel K = E.kernel(P[1], "tail");
                 clt::Mem A = E.input(In), B = E.input(std::vector<int>(N, -5));
                 clt::setArgs(K, A, B, Valid);
                 E.run1(K, N, 64);
                 expectEqual("tail", E.read<int>(B, N), Want);
               }});
  C.push_back({"clamp1", [=](clt::Env &E, const cl_program P[3]) {
                 std::vector<int> In = inputs(N), Want(N, 0);
                 for (int X = 0; X < int(N); ++X)
                   for (int D = -2; D <= 2; ++D)
                     Want[X] +=
                         In[std::min(std::max(X + D, 0), int(N) - 1)] * (D + 3);
                 clt::Kernel K = E.kernel(P[2], "clamp1");
                 clt::Mem A = E.input(In), B = E.output<int>(N);
                 clt::setArgs(K, A, B, int(N));
                 E.run1(K, N, 128);
                 expectEqual("clamp1", E.read<int>(B, N), Want);
               }});
  C.push_back({"clamp2", [=](clt::Env &E, const cl_program P[3]) {
                 const int W = 64, H = 16;
                 std::vector<int> In = inputs(W * H), Want(W * H, 0);
                 for (int Y = 0; Y < H; ++Y)
                   for (int X = 0; X < W; ++X)
                     for (int DY = -1; DY <= 1; ++DY)
                       for (int DX = -1; DX <= 1; ++DX)
                         Want[Y * W + X] +=
                             In[std::min(std::max(Y + DY, 0), H - 1) * W +
                                std::min(std::max(X + DX, 0), W - 1)];
                 clt::Kernel K = E.kernel(P[2], "clamp2");
                 clt::Mem A = E.input(In), B = E.output<int>(W * H);
                 clt::setArgs(K, A, B, W, H);
                 size_t G[2] = {W, H}, L[2] = {16, 4};
                 E.run(K, 2, G, L);
                 expectEqual("clamp2", E.read<int>(B, W * H), Want);
               }});
  C.push_back({"transposeTile", [=](clt::Env &E, const cl_program P[3]) {
                 const int W = 32;
                 std::vector<int> In = inputs(W * W), Want(W * W);
                 for (int Y = 0; Y < W; ++Y)
                   for (int X = 0; X < W; ++X)
                     Want[X * W + Y] = In[Y * W + X];
                 clt::Kernel K = E.kernel(P[2], "transposeTile");
                 clt::Mem A = E.input(In), B = E.output<int>(W * W);
                 clt::setArgs(K, A, B, W);
                 size_t G[2] = {W, W}, L[2] = {16, 16};
                 E.run(K, 2, G, L);
                 expectEqual("transposeTile", E.read<int>(B, W * W), Want);
               }});
  return C;
}

/// One application run: the programs built, the kernels launched from two
/// threads at once under load, main left right after the last launch.
static int child() {
  if (!clt::findPlatform("pocl-iss"))
    return 77;
  // Two busy threads for as long as the run lasts, at most 20 s.
  std::atomic<bool> Done{false};
  std::vector<std::thread> Busy;
  for (int I = 0; I < 2; ++I)
    Busy.emplace_back([&Done] {
      auto End = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      volatile unsigned long X = 0;
      while (!Done.load(std::memory_order_relaxed) &&
             std::chrono::steady_clock::now() < End)
        for (int J = 0; J < 100000; ++J)
          X = X + J;
    });
  int Result = 0;
  try {
    clt::Env E;
    E.open("pocl-iss");
    clt::Program P0 = E.build(ReduceSource), P1 = E.build(GuardSource),
                 P2 = E.build(StencilSource), P2Again = E.build(StencilSource);
    // The second thread's stencils come from a program of their own, the
    // same binary: both threads compile (and cache) the same kernels at once.
    const cl_program Mine[3] = {P0, P1, P2}, Others[3] = {P0, P1, P2Again};
    std::vector<Case> C = cases();
    std::string Failed[2];
    auto Launch = [&](unsigned First, const cl_program *P,
                      std::string &Failure) {
      try {
        for (size_t I = 0; I < C.size(); ++I)
          if (I % 2 == First || P[2] == P2Again)
            C[I].Run(E, P);
      } catch (const clt::Failure &F) {
        Failure = F.what();
      }
    };
    std::thread Other(Launch, 1, Others, std::ref(Failed[1]));
    Launch(0, Mine, Failed[0]);
    Other.join();
    for (const std::string &F : Failed)
      if (!F.empty()) {
        std::fprintf(stderr, "%s\n", F.c_str());
        Result = 1;
      }
  } catch (const clt::Failure &F) {
    std::fprintf(stderr, "%s\n", F.what());
    Result = 1;
  }
  Done = true;
  for (std::thread &T : Busy)
    T.join();
  return Result;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  std::string Self = clt::selfPath();
  if (Self.empty())
    return 1;
  int Rounds = 3;
  if (const char *R = std::getenv("ISS_STRESS_ROUNDS"))
    Rounds = std::max(1, std::atoi(R));
  clt::TempFolder Dir("pocl-iss-tiered-stress");
  if (!Dir.Made) {
    std::printf("FAIL: no temporary folder\n");
    return 1;
  }
  const char *Modes[] = {"scalar", "vec", "split", "score", "split+score"};
  int Runs = 0, Failures = 0;
  std::string FirstFailure;
  for (int Round = 0; Round < Rounds; ++Round)
    for (const char *Mode : Modes) {
      clt::EnvChanges Env = {{"POCL_ISS_MODE", Mode},
                             {"POCL_ISS_TIERED", nullptr},
                             {"POCL_KERNEL_CACHE", "1"},
                             {"POCL_CACHE_DIR", Dir.Path.c_str()}};
      std::string Log;
      int Exit = clt::runChild(Self.c_str(), "--child", Env, 300, Log);
      if (Exit == 77) {
        std::printf("SKIP: no pocl-iss platform\n");
        return 77;
      }
      ++Runs;
      if (Exit != 0) {
        ++Failures;
        std::printf("round %d, %s: exit %d\n", Round + 1, Mode, Exit);
        if (FirstFailure.empty())
          FirstFailure = Log;
      }
    }
  std::printf("%d of %d runs failed\n", Failures, Runs);
  if (Failures) {
    std::printf("FAIL: the first failure's output:\n%s\n",
                FirstFailure.c_str());
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
