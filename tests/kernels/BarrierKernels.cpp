//===- BarrierKernels.cpp - Work-group barriers in kernel control flow ----===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Kernels whose barriers sit in the control flow that pocl's work-group
// function generation has to take apart (pocl paper, sections 3-4): barriers
// in loops whose trip count comes from a kernel argument (b-loops), nested
// b-loops, barriers in both arms of a uniform branch and in one arm only,
// loops with several uniform exits and a uniform continue, data dependent
// loops between two barriers, and values of every kind live across barriers
// (context arrays; uniform values may be merged, per work-item ones must
// not). Kernels without barriers but with several returns and a data
// dependent loop check the single-region path. Every case is checked against
// a host simulation of the work-group, under local sizes that are not
// multiples of the vector width (255, 7), 1x1x1, 2D and 3D groups and the
// largest group the kernel allows; input space splitting (paper, section 3)
// must give the same results in every POCL_ISS_MODE.
//
//===----------------------------------------------------------------------===//

#include "CaptureStdout.h"

using namespace clt;

// Barrier-free kernels in a program of their own: they take the single
// parallel region path, whatever the state of barrier support.
static const char *NoBarrierSource = R"CLC(
// No barrier: padding work-items leave first, then three more returns.
__kernel void manyReturns(__global const int *In, __global int *Out, int N) {
  int G = get_global_id(0);
  if (G >= N)
    return;
  int X = In[G];
  if (X < 0) {
    Out[G] = -X;
    return;
  }
  if (X % 3 == 0) {
    Out[G] = X / 3 + 100000;
    return;
  }
  if (X > 900)
    return;
  Out[G] = X * 2;
}

// No barrier: Euclid's algorithm, a trip count per work-item.
__kernel void gcdSteps(__global const uint *In, __global uint *Out) {
  size_t G = get_global_id(0);
  uint A = In[2 * G], B = In[2 * G + 1], Steps = 0;
  while (B != 0) {
    uint T = A % B;
    A = B;
    B = T;
    ++Steps;
  }
  Out[2 * G] = A;
  Out[2 * G + 1] = Steps;
}
)CLC";

// One program per kernel: a kernel the compiler cannot build yet fails its
// own case only.
static const char *ArgLoopSource = R"CLC(
// A b-loop whose trip count is a kernel argument (possibly zero).
__kernel void argLoop(__global const uint *In, __global uint *Out, int Iters,
                      __local uint *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  uint X = In[G];
  for (int It = 0; It < Iters; ++It) {
    S[L] = X;
    barrier(CLK_LOCAL_MEM_FENCE);
    X = (X ^ S[(L + 1) % LS]) + (uint)It;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[G] = X;
}
)CLC";

static const char *NestedLoopsSource = R"CLC(
// Barriers only in the inner loop of a loop nest; code between the loops.
__kernel void nestedLoops(__global const uint *In, __global uint *Out,
                          int Outer, int Inner, __local uint *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  uint X = In[G];
  for (int I = 0; I < Outer; ++I) {
    X += (uint)I * 7u;
    for (int J = 0; J < Inner; ++J) {
      S[L] = X;
      barrier(CLK_LOCAL_MEM_FENCE);
      X = X * 3u + S[(L + (size_t)J + 1) % LS];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    X ^= (uint)L;
  }
  Out[G] = X;
}
)CLC";

static const char *UniformIfElseSource = R"CLC(
// A barrier in each arm of a uniform branch, then common code with more
// barriers.
__kernel void uniformIfElse(__global const int *In, __global int *Out,
                            int Arg, __local int *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  int X = In[G];
  if (Arg > 3) {
    S[L] = X * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    X = S[(L + 1) % LS] + Arg;
  } else {
    S[L] = X - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    X = S[(L + LS - 1) % LS] - Arg;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  S[L] = X;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = S[LS - 1 - L] * 4 + X;
}
)CLC";

static const char *CondBarrierCommonSource = R"CLC(
// A conditional barrier (no else) followed by common code without one.
__kernel void condBarrierCommon(__global const int *In, __global int *Out,
                                int Arg, __local int *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  int X = In[G];
  S[L] = X;
  if (Arg > 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    X += S[(L + (size_t)Arg) % LS];
  }
  X = X * 3 + (int)L;
  Out[G] = X;
}
)CLC";

static const char *MultiExitSource = R"CLC(
// An endless loop with a barrier and three ways out of an iteration: a
// break on an argument, a break on a value every work-item of the group
// reads from local memory (uniform at run time only), and a continue on an
// argument that skips the second break.
__kernel void multiExit(__global const uint *In, __global uint *Out,
                        int Limit, uint Threshold, int Skip, __local uint *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  uint X = In[G];
  int It = 0;
  for (;;) {
    if (It == Limit)
      break;
    S[L] = X;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint Nb = S[(L + 1) % LS];
    uint First = S[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    X = (X * 3u + Nb) & 0xffffu;
    ++It;
    if (Skip && (It & 3) == 2)
      continue;
    if (First > Threshold)
      break;
  }
  Out[G] = X * 64u + (uint)It;
}
)CLC";

static const char *CollatzBetweenSource = R"CLC(
// A data dependent loop in the region between two barriers.
__kernel void collatzBetween(__global const uint *In, __global uint *Out,
                             __local uint *S) {
  size_t L = get_local_id(0), G = get_global_id(0), LS = get_local_size(0);
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint V = S[(L + 3) % LS];
  uint Steps = 0;
  while (V > 1) {
    V = (V & 1) ? 3 * V + 1 : V / 2;
    ++Steps;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  S[L] = Steps;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = Steps * 1000u + S[LS - 1 - L];
}
)CLC";

static const char *LiveValuesSource = R"CLC(
// Values live across barriers: per work-item scalars, a float4, a private
// array indexed dynamically, copies of ids and arguments, a uniform value
// made divergent just before the barrier.
__kernel void liveValues(__global const float *In, __global float4 *OutV,
                         __global int *OutI, int K, __local float *T) {
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t Grp = get_group_id(0), LS = get_local_size(0);
  int A = (int)G * 3 + K;
  int U = K * 2 + (int)Grp;
  uint LidCopy = (uint)get_local_id(0);
  float4 V = (float4)(In[G], In[G] * 2.0f, (float)L, (float)Grp);
  int Arr[8];
  for (int I = 0; I < 8; ++I)
    Arr[I] = ((int)G * (I + 1)) ^ K;
  int Idx = (int)((L + (uint)K) & 7);
  int Odd = K;
  if (L & 1)
    Odd += 1;
  T[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  float Nb = T[(L + 1) % LS];
  A += (int)L;
  V += Nb;
  Arr[Idx] += 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  T[L] = V.x + V.y;
  barrier(CLK_LOCAL_MEM_FENCE);
  float Mirror = T[LS - 1 - L];
  V.w += Mirror;
  Arr[(Idx + 3) & 7] -= A;
  barrier(CLK_LOCAL_MEM_FENCE);
  OutV[G] = V;
  __global int *R = OutI + 8 * G;
  R[0] = A;
  R[1] = U;
  R[2] = (int)LidCopy;
  R[3] = Arr[Idx];
  R[4] = Arr[(Idx + 3) & 7];
  R[5] = Arr[(Idx + 5) & 7];
  R[6] = Odd;
  R[7] = Idx;
}
)CLC";

static const char *GroupShapeSource = R"CLC(
// Any 1D/2D/3D group: exchange through local memory with the mirrored
// work-item, then a tree reduction that works for any group size.
__kernel void groupShape(__global uint *Out, __global uint *Sums,
                         __local uint *S) {
  size_t Lx = get_local_size(0), Ly = get_local_size(1);
  size_t N = Lx * Ly * get_local_size(2);
  size_t F = (get_local_id(2) * Ly + get_local_id(1)) * Lx + get_local_id(0);
  size_t Gx = get_global_size(0), Gy = get_global_size(1);
  size_t Lin = (get_global_id(2) * Gy + get_global_id(1)) * Gx +
               get_global_id(0);
  S[F] = (uint)Lin * 7u + 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Other = S[N - 1 - F];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t P = 1;
  while (P * 2 < N)
    P *= 2;
  for (size_t St = P; St > 0; St >>= 1) {
    if (F < St && F + St < N)
      S[F] += S[F + St];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[Lin] = Other;
  if (F == 0) {
    size_t Grp = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) *
                     get_num_groups(0) +
                 get_group_id(0);
    Sums[Grp] = S[0];
  }
}
)CLC";

static const char *PrintfBetweenSource = R"CLC(
// printf in the region between two barriers, and after the last one.
__kernel void printfBetween(__global const int *In, __local int *S) {
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t Grp = get_group_id(0), LS = get_local_size(0);
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  int Nb = S[(L + 1) % LS];
  printf("g%u l%u: %d\n", (uint)Grp, (uint)L, Nb + S[L]);
  barrier(CLK_LOCAL_MEM_FENCE);
  S[L] = Nb * 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L == 0)
    printf("group %u: %d\n", (uint)Grp, S[LS - 1]);
}
)CLC";

/// The 1D local sizes every b-loop kernel runs with: 255 and 7 are not
/// multiples of any vector width, 1 is a single work-item, the last is the
/// largest group the kernel allows.
static std::vector<size_t> localSizesFor(Env &E, const Kernel &K) {
  return {255, 7, 1, 64, maxLocalSize1D(E, K)};
}

/// Runs \p Sim(Group, GroupIn, GroupOut) for every work-group of \p LS items.
template <typename T, typename Fn>
static std::vector<T> perGroup(const std::vector<T> &In, size_t LS, Fn Sim) {
  std::vector<T> Out(In.size());
  for (size_t Base = 0; Base < In.size(); Base += LS) {
    std::vector<T> X(In.begin() + Base, In.begin() + Base + LS);
    Sim(Base / LS, X);
    std::copy(X.begin(), X.end(), Out.begin() + Base);
  }
  return Out;
}

CLT_TEST(barrierLoopArgumentTrips) {
  Program P = E.build(ArgLoopSource);
  Kernel K = E.kernel(P, "argLoop");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 9;
    auto In = randomVector<cl_uint>(N, 0, 1 << 20, 100);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    for (int Iters : {0, 1, 7}) {
      setArgs(K, DIn, DOut, Iters);
      setLocalArg(K, 3, LS * sizeof(cl_uint));
      E.run1(K, N, LS);
      auto Want = perGroup(In, LS, [&](size_t, std::vector<cl_uint> &X) {
        for (int It = 0; It < Iters; ++It) {
          std::vector<cl_uint> S = X;
          for (size_t L = 0; L < LS; ++L)
            X[L] = (X[L] ^ S[(L + 1) % LS]) + cl_uint(It);
        }
      });
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "argLoop local " + std::to_string(LS) + " iters " +
                      std::to_string(Iters));
    }
  }
}

CLT_TEST(nestedLoopBarriers) {
  Program P = E.build(NestedLoopsSource);
  Kernel K = E.kernel(P, "nestedLoops");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 5;
    auto In = randomVector<cl_uint>(N, 0, 0xffffffffu, 101);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    for (auto [Outer, Inner] : {std::pair{3, 4}, {1, 0}, {0, 5}, {4, 1}}) {
      setArgs(K, DIn, DOut, Outer, Inner);
      setLocalArg(K, 4, LS * sizeof(cl_uint));
      E.run1(K, N, LS);
      auto Want = perGroup(In, LS, [&](size_t, std::vector<cl_uint> &X) {
        for (int I = 0; I < Outer; ++I) {
          for (cl_uint &V : X)
            V += cl_uint(I) * 7u;
          for (int J = 0; J < Inner; ++J) {
            std::vector<cl_uint> S = X;
            for (size_t L = 0; L < LS; ++L)
              X[L] = X[L] * 3u + S[(L + size_t(J) + 1) % LS];
          }
          for (size_t L = 0; L < LS; ++L)
            X[L] ^= cl_uint(L);
        }
      });
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "nestedLoops local " + std::to_string(LS) + " " +
                      std::to_string(Outer) + "x" + std::to_string(Inner));
    }
  }
}

CLT_TEST(uniformIfElseBarriers) {
  Program P = E.build(UniformIfElseSource);
  Kernel K = E.kernel(P, "uniformIfElse");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 6;
    auto In = randomVector<int>(N, -1000, 1000, 102);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    for (int Arg : {-2, 3, 4, 10}) {
      setArgs(K, DIn, DOut, Arg);
      setLocalArg(K, 3, LS * sizeof(int));
      E.run1(K, N, LS);
      auto Want = perGroup(In, LS, [&](size_t, std::vector<int> &X) {
        std::vector<int> S(LS), Y(LS);
        for (size_t L = 0; L < LS; ++L)
          S[L] = Arg > 3 ? X[L] * 2 : X[L] - 1;
        for (size_t L = 0; L < LS; ++L)
          Y[L] = Arg > 3 ? S[(L + 1) % LS] + Arg : S[(L + LS - 1) % LS] - Arg;
        for (size_t L = 0; L < LS; ++L)
          X[L] = Y[LS - 1 - L] * 4 + Y[L];
      });
      expectEqual(E.read<int>(DOut, N), Want,
                  "uniformIfElse local " + std::to_string(LS) + " arg " +
                      std::to_string(Arg));
    }
  }
}

CLT_TEST(conditionalBarrierThenCommonCode) {
  Program P = E.build(CondBarrierCommonSource);
  Kernel K = E.kernel(P, "condBarrierCommon");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 6;
    auto In = randomVector<int>(N, -100000, 100000, 103);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    for (int Arg : {0, 1, 5, -4}) {
      setArgs(K, DIn, DOut, Arg);
      setLocalArg(K, 3, LS * sizeof(int));
      E.run1(K, N, LS);
      auto Want = perGroup(In, LS, [&](size_t, std::vector<int> &X) {
        std::vector<int> S = X;
        for (size_t L = 0; L < LS; ++L) {
          if (Arg > 0)
            X[L] += S[(L + size_t(Arg)) % LS];
          X[L] = X[L] * 3 + int(L);
        }
      });
      expectEqual(E.read<int>(DOut, N), Want,
                  "condBarrierCommon local " + std::to_string(LS) + " arg " +
                      std::to_string(Arg));
    }
  }
}

CLT_TEST(loopWithSeveralExits) {
  Program P = E.build(MultiExitSource);
  Kernel K = E.kernel(P, "multiExit");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 11;
    auto In = randomVector<cl_uint>(N, 0, 0xffff, 104);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    struct Params {
      int Limit;
      cl_uint Threshold;
      int Skip;
    };
    for (Params Pr :
         {Params{0, 0, 0}, Params{5, 0xffff, 0}, Params{50, 50000, 0},
          Params{50, 40000, 1}, Params{50, 0, 1}}) {
      setArgs(K, DIn, DOut, Pr.Limit, Pr.Threshold, Pr.Skip);
      setLocalArg(K, 5, LS * sizeof(cl_uint));
      E.run1(K, N, LS);
      auto Want = perGroup(In, LS, [&](size_t, std::vector<cl_uint> &X) {
        int It = 0;
        for (;;) {
          if (It == Pr.Limit)
            break;
          std::vector<cl_uint> S = X;
          for (size_t L = 0; L < LS; ++L)
            X[L] = (X[L] * 3u + S[(L + 1) % LS]) & 0xffffu;
          ++It;
          if (Pr.Skip && (It & 3) == 2)
            continue;
          if (S[0] > Pr.Threshold)
            break;
        }
        for (cl_uint &V : X)
          V = V * 64u + cl_uint(It);
      });
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "multiExit local " + std::to_string(LS) + " limit " +
                      std::to_string(Pr.Limit) + " threshold " +
                      std::to_string(Pr.Threshold) + " skip " +
                      std::to_string(Pr.Skip));
    }
  }
}

CLT_TEST(earlyReturnsWithoutBarrier) {
  const int N = 10007;
  auto In = randomVector<int>(N, -1000, 1000, 105);
  Program P = E.build(NoBarrierSource);
  Kernel K = E.kernel(P, "manyReturns");
  for (size_t LS : {size_t(64), size_t(255), size_t(1), size_t(7)}) {
    size_t Global = (N + LS - 1) / LS * LS + LS; // a whole idle group too
    std::vector<int> Init(Global, -7);
    Mem DIn = E.input(In);
    Mem DOut = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        Global * sizeof(int), Init.data());
    setArgs(K, DIn, DOut, N);
    E.run1(K, Global, LS);
    std::vector<int> Want = Init;
    for (int I = 0; I < N; ++I) {
      int X = In[I];
      if (X < 0)
        Want[I] = -X;
      else if (X % 3 == 0)
        Want[I] = X / 3 + 100000;
      else if (X <= 900)
        Want[I] = X * 2;
    }
    expectEqual(E.read<int>(DOut, Global), Want,
                "manyReturns local " + std::to_string(LS));
  }
}

CLT_TEST(dataDependentLoopWithoutBarrier) {
  const size_t N = 255 * 40;
  auto In = randomVector<cl_uint>(2 * N, 0, 0x7fffffff, 106);
  Program P = E.build(NoBarrierSource);
  Kernel K = E.kernel(P, "gcdSteps");
  Mem DIn = E.input(In), DOut = E.output<cl_uint>(2 * N);
  setArgs(K, DIn, DOut);
  std::vector<cl_uint> Want(2 * N);
  for (size_t I = 0; I < N; ++I) {
    cl_uint A = In[2 * I], B = In[2 * I + 1], Steps = 0;
    while (B != 0) {
      cl_uint T = A % B;
      A = B;
      B = T;
      ++Steps;
    }
    Want[2 * I] = A;
    Want[2 * I + 1] = Steps;
  }
  for (size_t LS : {size_t(255), size_t(8), size_t(1)}) {
    E.run1(K, N, LS);
    expectEqual(E.read<cl_uint>(DOut, 2 * N), Want,
                "gcdSteps local " + std::to_string(LS));
  }
}

CLT_TEST(dataDependentLoopBetweenBarriers) {
  Program P = E.build(CollatzBetweenSource);
  Kernel K = E.kernel(P, "collatzBetween");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 8;
    auto In = randomVector<cl_uint>(N, 1, 100000, 107);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LS * sizeof(cl_uint));
    E.run1(K, N, LS);
    auto Want = perGroup(In, LS, [&](size_t, std::vector<cl_uint> &X) {
      std::vector<cl_uint> Steps(LS, 0);
      for (size_t L = 0; L < LS; ++L) {
        cl_uint V = X[(L + 3) % LS];
        while (V > 1) {
          V = (V & 1) ? 3 * V + 1 : V / 2;
          ++Steps[L];
        }
      }
      for (size_t L = 0; L < LS; ++L)
        X[L] = Steps[L] * 1000u + Steps[LS - 1 - L];
    });
    expectEqual(E.read<cl_uint>(DOut, N), Want,
                "collatzBetween local " + std::to_string(LS));
  }
}

CLT_TEST(valuesLiveAcrossBarriers) {
  Program P = E.build(LiveValuesSource);
  Kernel K = E.kernel(P, "liveValues");
  for (size_t LS : localSizesFor(E, K)) {
    const size_t N = LS * 7;
    auto In = randomVector<float>(N, -10.f, 10.f, 108);
    Mem DIn = E.input(In);
    Mem DV = E.output<cl_float>(4 * N), DI = E.output<int>(8 * N);
    for (int KArg : {0, 13}) {
      setArgs(K, DIn, DV, DI, KArg);
      setLocalArg(K, 4, LS * sizeof(float));
      E.run1(K, N, LS);
      std::vector<float> WantV(4 * N);
      std::vector<int> WantI(8 * N);
      for (size_t G = 0; G < N; ++G) {
        size_t L = G % LS, Grp = G / LS, Base = Grp * LS;
        auto InAt = [&](size_t Lid) { return In[Base + Lid]; };
        float Nb = InAt((L + 1) % LS);
        float Vx = In[G] + Nb, Vy = In[G] * 2.0f + Nb;
        float Vz = float(L) + Nb, Vw = float(Grp) + Nb;
        size_t M = LS - 1 - L;
        float NbM = InAt((M + 1) % LS);
        float Mirror = (InAt(M) + NbM) + (InAt(M) * 2.0f + NbM);
        Vw += Mirror;
        int Arr[8];
        for (int I = 0; I < 8; ++I)
          Arr[I] = (int(G) * (I + 1)) ^ KArg;
        int Idx = int((L + cl_uint(KArg)) & 7);
        int A = int(G) * 3 + KArg + int(L);
        Arr[Idx] += 5;
        Arr[(Idx + 3) & 7] -= A;
        float V[4] = {Vx, Vy, Vz, Vw};
        std::copy(V, V + 4, WantV.begin() + 4 * G);
        int R[8] = {A,
                    KArg * 2 + int(Grp),
                    int(L),
                    Arr[Idx],
                    Arr[(Idx + 3) & 7],
                    Arr[(Idx + 5) & 7],
                    KArg + int(L & 1),
                    Idx};
        std::copy(R, R + 8, WantI.begin() + 8 * G);
      }
      std::string What = "liveValues local " + std::to_string(LS) + " k " +
                         std::to_string(KArg);
      expectNear(E.read<float>(DV, 4 * N), WantV, 1e-6, 1e-6, What + " float4");
      expectEqual(E.read<int>(DI, 8 * N), WantI, What + " ints");
    }
  }
}

CLT_TEST(groupShapes) {
  Program P = E.build(GroupShapeSource);
  Kernel K = E.kernel(P, "groupShape");
  struct Shape {
    cl_uint Dims;
    size_t Local[3];
    size_t Groups[3];
  };
  size_t Max = maxLocalSize1D(E, K);
  for (const Shape &Sh :
       {Shape{3, {1, 1, 1}, {5, 3, 2}}, Shape{2, {16, 16, 1}, {3, 2, 1}},
        Shape{3, {8, 4, 2}, {3, 3, 3}}, Shape{1, {255, 1, 1}, {5, 1, 1}},
        Shape{2, {7, 3, 1}, {4, 5, 1}}, Shape{1, {Max, 1, 1}, {3, 1, 1}},
        Shape{3, {1, 1, std::min<size_t>(Max, 4)}, {2, 3, 4}}}) {
    size_t Global[3], N = 1, NGroups = 1, LN = 1;
    for (int D = 0; D < 3; ++D) {
      Global[D] = Sh.Local[D] * Sh.Groups[D];
      N *= Global[D];
      NGroups *= Sh.Groups[D];
      LN *= Sh.Local[D];
    }
    std::string What = "groupShape " + std::to_string(Sh.Local[0]) + "x" +
                       std::to_string(Sh.Local[1]) + "x" +
                       std::to_string(Sh.Local[2]);
    if (LN > Max)
      fail(What + ": larger than the kernel's work-group size");
    Mem DOut = E.output<cl_uint>(N), DSums = E.output<cl_uint>(NGroups);
    setArgs(K, DOut, DSums);
    setLocalArg(K, 2, LN * sizeof(cl_uint));
    E.run(K, Sh.Dims, Global, Sh.Local);
    std::vector<cl_uint> WantOut(N), WantSums(NGroups, 0);
    for (size_t Z = 0; Z < Global[2]; ++Z)
      for (size_t Y = 0; Y < Global[1]; ++Y)
        for (size_t X = 0; X < Global[0]; ++X) {
          size_t Id[3] = {X, Y, Z}, Lid[3], Grp[3];
          for (int D = 0; D < 3; ++D) {
            Lid[D] = Id[D] % Sh.Local[D];
            Grp[D] = Id[D] / Sh.Local[D];
          }
          size_t F = (Lid[2] * Sh.Local[1] + Lid[1]) * Sh.Local[0] + Lid[0];
          size_t Mirror = LN - 1 - F;
          size_t MLid[3] = {Mirror % Sh.Local[0],
                            Mirror / Sh.Local[0] % Sh.Local[1],
                            Mirror / (Sh.Local[0] * Sh.Local[1])};
          size_t MId[3];
          for (int D = 0; D < 3; ++D)
            MId[D] = Grp[D] * Sh.Local[D] + MLid[D];
          auto Linear = [&](const size_t *I) {
            return (I[2] * Global[1] + I[1]) * Global[0] + I[0];
          };
          WantOut[Linear(Id)] = cl_uint(Linear(MId)) * 7u + 1u;
          size_t GLin =
              (Grp[2] * Sh.Groups[1] + Grp[1]) * Sh.Groups[0] + Grp[0];
          WantSums[GLin] += cl_uint(Linear(Id)) * 7u + 1u;
        }
    expectEqual(E.read<cl_uint>(DOut, N), WantOut, What + " exchange");
    expectEqual(E.read<cl_uint>(DSums, NGroups), WantSums, What + " sums");
  }
}

CLT_TEST(printfBetweenBarriers) {
  const size_t LS = 25, N = LS * 3;
  auto In = randomVector<int>(N, -1000, 1000, 109);
  Program P = E.build(PrintfBetweenSource);
  Kernel K = E.kernel(P, "printfBetween");
  Mem DIn = E.input(In);
  setArgs(K, DIn);
  setLocalArg(K, 1, LS * sizeof(int));
  std::string Out = captureStdout([&] { E.run1(K, N, LS); });
  std::vector<std::string> Want;
  for (size_t G = 0; G < N; ++G) {
    size_t L = G % LS, Grp = G / LS, Base = Grp * LS;
    int Nb = In[Base + (L + 1) % LS];
    Want.push_back(
        format("g%u l%u: %d", unsigned(Grp), unsigned(L), Nb + In[G]));
    if (L == 0)
      Want.push_back(format("group %u: %d", unsigned(Grp), In[Base] * 2));
  }
  expectLines(Out, Want, "printf between barriers");
}
