//===- LocalMemoryKernels.cpp - Local memory algorithms with barriers -----===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The classic work-group algorithms on __local memory: tree reductions (the
// stride loop is a b-loop with a uniform trip count), Hillis-Steele and
// Blelloch scans, a tiled matrix multiply with barriers in the k-tile loop,
// async_work_group_copy in both directions, automatic __local arrays next to
// __local arguments (DESIGN.md section 3: both become work-group arguments
// the device allocates) and AMD's BinomialOption, one of the paper's
// benchmarks (section 6), with local size 255. Results are checked against
// host references computed directly in C++; every POCL_ISS_MODE must match
// them.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

// One program per kernel: a kernel the compiler cannot build yet fails its
// own case only.
static const char *ReduceSumSource = R"CLC(
// The textbook reduction: power-of-two groups, stride halving from
// get_local_size(0) / 2. Every work-item then reads the group's sum.
__kernel void reduceSum(__global const int *In, __global int *Sums,
                        __global int *Centered, __local int *S) {
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t N = get_local_size(0);
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t St = get_local_size(0) / 2; St > 0; St >>= 1) {
    if (L < St)
      S[L] += S[L + St];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Sums[get_group_id(0)] = S[0];
  Centered[G] = In[G] * (int)N - S[0];
}
)CLC";

static const char *ReduceSumAnySource = R"CLC(
// A float reduction for any group size: the first stride is the largest
// power of two below the size.
__kernel void reduceSumAny(__global const float *In, __global float *Sums,
                           __local float *S) {
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t N = get_local_size(0);
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t P = 1;
  while (P * 2 < N)
    P *= 2;
  for (size_t St = P; St > 0; St >>= 1) {
    if (L < St && L + St < N)
      S[L] += S[L + St];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Sums[get_group_id(0)] = S[0];
}
)CLC";

static const char *ScanHillisSteeleSource = R"CLC(
// Hillis-Steele inclusive scan per work-group, any size.
__kernel void scanHillisSteele(__global const int *In, __global int *Out,
                               __local int *S) {
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t N = get_local_size(0);
  S[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Off = 1; Off < N; Off <<= 1) {
    int V = S[L];
    if (L >= Off)
      V += S[L - Off];
    barrier(CLK_LOCAL_MEM_FENCE);
    S[L] = V;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[G] = S[L];
}
)CLC";

static const char *ScanBlellochSource = R"CLC(
// Blelloch exclusive scan of 2 * get_local_size(0) elements per group
// (power-of-two groups); the barrier opens each loop body.
__kernel void scanBlelloch(__global const int *In, __global int *Out,
                           __global int *Totals, __local int *T) {
  size_t L = get_local_id(0), N = 2 * get_local_size(0);
  size_t Base = get_group_id(0) * N;
  T[2 * L] = In[Base + 2 * L];
  T[2 * L + 1] = In[Base + 2 * L + 1];
  size_t Offset = 1;
  for (size_t D = N >> 1; D > 0; D >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L < D) {
      size_t Ai = Offset * (2 * L + 1) - 1, Bi = Offset * (2 * L + 2) - 1;
      T[Bi] += T[Ai];
    }
    Offset <<= 1;
  }
  if (L == 0) {
    Totals[get_group_id(0)] = T[N - 1];
    T[N - 1] = 0;
  }
  for (size_t D = 1; D < N; D <<= 1) {
    Offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (L < D) {
      size_t Ai = Offset * (2 * L + 1) - 1, Bi = Offset * (2 * L + 2) - 1;
      int Tmp = T[Ai];
      T[Ai] = T[Bi];
      T[Bi] += Tmp;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[Base + 2 * L] = T[2 * L];
  Out[Base + 2 * L + 1] = T[2 * L + 1];
}
)CLC";

static const char *MatmulTiledSource = R"CLC(
// C = A * B with TILE x TILE tiles in automatic __local arrays; TILE is a
// build option, the sizes are multiples of it.
__kernel void matmulTiled(__global const float *A, __global const float *B,
                          __global float *C, int M, int N, int K) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int Tx = get_local_id(0), Ty = get_local_id(1);
  int Col = get_global_id(0), Row = get_global_id(1);
  float Acc = 0.0f;
  for (int T = 0; T < K / TILE; ++T) {
    As[Ty][Tx] = A[Row * K + T * TILE + Tx];
    Bs[Ty][Tx] = B[(T * TILE + Ty) * N + Col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int Kk = 0; Kk < TILE; ++Kk)
      Acc += As[Ty][Kk] * Bs[Kk][Tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (Row < M)
    C[Row * N + Col] = Acc;
}
)CLC";

static const char *MixedLocalsSource = R"CLC(
// Two __local arguments of different types and two automatic __local
// arrays in one kernel; up to 256 work-items.
__kernel void mixedLocals(__global const int *In, __global int *Out,
                          __local int *ArgA, __local short *ArgB) {
  __local int Auto[256];
  __local float AutoF[64];
  size_t L = get_local_id(0), G = get_global_id(0);
  size_t LS = get_local_size(0), Grp = get_group_id(0);
  ArgA[L] = In[G];
  ArgB[L] = (short)(L * 3);
  Auto[L] = (int)Grp * 10 + (int)L;
  for (size_t I = L; I < 64; I += LS)
    AutoF[I] = (float)I * 0.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int R = ArgA[LS - 1 - L] + ArgB[(L + 1) % LS] + Auto[(L + 2) % LS] +
          (int)(AutoF[(L * 5) % 64] * 2.0f);
  barrier(CLK_LOCAL_MEM_FENCE);
  Auto[L] = R;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[2 * G] = R;
  Out[2 * G + 1] = Auto[(L + 1) % LS];
}

// Another kernel of the same program with an automatic array of the same
// name: each kernel has its own.
__kernel void smallLocals(__global int *Out) {
  __local int Auto[64];
  size_t L = get_local_id(0), LS = get_local_size(0);
  Auto[L] = (int)(L * L);
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = Auto[LS - 1 - L];
}
)CLC";

static const char *AsyncCopySource = R"CLC(
// Global -> local copy, every work-item reads other work-items' elements,
// local -> global copy of the results.
__kernel void asyncCopy(__global const float *In, __global float *Out,
                        __local float *Buf, __local float *Res) {
  size_t L = get_local_id(0), LS = get_local_size(0);
  size_t Grp = get_group_id(0);
  event_t Ev = async_work_group_copy(Buf, In + Grp * LS, LS, 0);
  wait_group_events(1, &Ev);
  Res[L] = Buf[(L * 7 + 3) % LS] * 2.0f + Buf[L];
  barrier(CLK_LOCAL_MEM_FENCE);
  Ev = async_work_group_copy(Out + Grp * LS, Res, LS, 0);
  wait_group_events(1, &Ev);
}
)CLC";

static const char *AsyncStridedSource = R"CLC(
// Strided copies of int4: gather the even elements of the group's window,
// scatter the results into the odd ones.
__kernel void asyncStrided(__global const int4 *In, __global int4 *Out,
                           __local int4 *Buf) {
  size_t L = get_local_id(0), LS = get_local_size(0);
  size_t Grp = get_group_id(0);
  event_t Ev = async_work_group_strided_copy(Buf, In + Grp * LS * 2, LS, 2, 0);
  wait_group_events(1, &Ev);
  int4 V = Buf[LS - 1 - L] + (int4)((int)L);
  barrier(CLK_LOCAL_MEM_FENCE);
  Buf[L] = V;
  barrier(CLK_LOCAL_MEM_FENCE);
  Ev = async_work_group_strided_copy(Out + Grp * LS * 2 + 1, Buf, LS, 2, 0);
  wait_group_events(1, &Ev);
}
)CLC";

static const char *BinomialOptionsSource = R"CLC(
// AMD APP SDK's BinomialOption: one group prices four options (a float4) on
// a tree of NumSteps steps; the local size is NumSteps + 1.
#define RISKFREE 0.02f
#define VOLATILITY 0.30f
__kernel void binomialOptions(int NumSteps, __global const float4 *RandArray,
                              __global float4 *Output, __local float4 *CallA,
                              __local float4 *CallB) {
  uint Tid = get_local_id(0);
  uint Bid = get_group_id(0);
  float4 InRand = RandArray[Bid];
  float4 S = (1.0f - InRand) * 5.0f + InRand * 30.f;
  float4 X = (1.0f - InRand) * 1.0f + InRand * 100.f;
  float4 OptionYears = (1.0f - InRand) * 0.25f + InRand * 10.f;
  float4 Dt = OptionYears * (1.0f / (float)NumSteps);
  float4 Vsdt = VOLATILITY * sqrt(Dt);
  float4 Rdt = RISKFREE * Dt;
  float4 R = exp(Rdt);
  float4 RInv = 1.0f / R;
  float4 U = exp(Vsdt);
  float4 D = 1.0f / U;
  float4 Pu = (R - D) / (U - D);
  float4 Pd = 1.0f - Pu;
  float4 PuByr = Pu * RInv;
  float4 PdByr = Pd * RInv;
  float4 Profit = S * exp(Vsdt * (2.0f * Tid - (float)NumSteps)) - X;
  CallA[Tid].x = Profit.x > 0 ? Profit.x : 0.0f;
  CallA[Tid].y = Profit.y > 0 ? Profit.y : 0.0f;
  CallA[Tid].z = Profit.z > 0 ? Profit.z : 0.0f;
  CallA[Tid].w = Profit.w > 0 ? Profit.w : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int J = NumSteps; J > 0; J -= 2) {
    if (Tid < J)
      CallB[Tid] = PuByr * CallA[Tid] + PdByr * CallA[Tid + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (Tid < J - 1)
      CallA[Tid] = PuByr * CallB[Tid] + PdByr * CallB[Tid + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (Tid == 0)
    Output[Bid] = CallA[0];
}
)CLC";

static std::string sizeName(size_t LS) { return "local " + std::to_string(LS); }

/// The largest power of two not above \p N.
static size_t floorPow2(size_t N) {
  size_t P = 1;
  while (P * 2 <= N)
    P *= 2;
  return P;
}

CLT_TEST(treeReductionPowerOfTwo) {
  Program P = E.build(ReduceSumSource);
  Kernel K = E.kernel(P, "reduceSum");
  size_t Max = floorPow2(maxLocalSize1D(E, K));
  for (size_t LS : {size_t(256), size_t(1), size_t(2), size_t(64), Max}) {
    const size_t Groups = 23, N = LS * Groups;
    auto In = randomVector<int>(N, -10000, 10000, 200);
    Mem DIn = E.input(In);
    Mem DSums = E.output<int>(Groups), DCent = E.output<int>(N);
    setArgs(K, DIn, DSums, DCent);
    setLocalArg(K, 3, LS * sizeof(int));
    E.run1(K, N, LS);
    std::vector<int> WantSums(Groups, 0), WantCent(N);
    for (size_t I = 0; I < N; ++I)
      WantSums[I / LS] += In[I];
    for (size_t I = 0; I < N; ++I)
      WantCent[I] = In[I] * int(LS) - WantSums[I / LS];
    expectEqual(E.read<int>(DSums, Groups), WantSums,
                "reduceSum sums " + sizeName(LS));
    expectEqual(E.read<int>(DCent, N), WantCent,
                "reduceSum broadcast " + sizeName(LS));
  }
}

CLT_TEST(treeReductionAnySize) {
  Program P = E.build(ReduceSumAnySource);
  Kernel K = E.kernel(P, "reduceSumAny");
  for (size_t LS :
       {size_t(255), size_t(7), size_t(1), size_t(100), maxLocalSize1D(E, K)}) {
    const size_t Groups = 17, N = LS * Groups;
    auto In = randomVector<float>(N, -1.f, 1.f, 201);
    Mem DIn = E.input(In), DSums = E.output<float>(Groups);
    setArgs(K, DIn, DSums);
    setLocalArg(K, 2, LS * sizeof(float));
    E.run1(K, N, LS);
    std::vector<double> Exact(Groups, 0.0);
    for (size_t I = 0; I < N; ++I)
      Exact[I / LS] += In[I];
    std::vector<float> Want(Exact.begin(), Exact.end());
    // Summation order differs from the host's: allow float rounding per
    // addition on values of magnitude <= 1.
    expectNear(E.read<float>(DSums, Groups), Want, 1e-5,
               1e-6 * double(LS) + 1e-6, "reduceSumAny " + sizeName(LS));
  }
}

CLT_TEST(prefixSumHillisSteele) {
  Program P = E.build(ScanHillisSteeleSource);
  Kernel K = E.kernel(P, "scanHillisSteele");
  for (size_t LS :
       {size_t(255), size_t(7), size_t(1), size_t(64), maxLocalSize1D(E, K)}) {
    const size_t N = LS * 13;
    auto In = randomVector<int>(N, -1000, 1000, 202);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LS * sizeof(int));
    E.run1(K, N, LS);
    std::vector<int> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = (I % LS ? Want[I - 1] : 0) + In[I];
    expectEqual(E.read<int>(DOut, N), Want, "scanHillisSteele " + sizeName(LS));
  }
}

CLT_TEST(prefixSumBlelloch) {
  Program P = E.build(ScanBlellochSource);
  Kernel K = E.kernel(P, "scanBlelloch");
  size_t Max = floorPow2(maxLocalSize1D(E, K));
  for (size_t LS : {size_t(128), size_t(1), size_t(32), Max}) {
    const size_t Groups = 9, Per = 2 * LS, N = Per * Groups;
    auto In = randomVector<int>(N, -1000, 1000, 203);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    Mem DTot = E.output<int>(Groups);
    setArgs(K, DIn, DOut, DTot);
    setLocalArg(K, 3, Per * sizeof(int));
    E.run1(K, LS * Groups, LS);
    std::vector<int> Want(N), WantTot(Groups, 0);
    for (size_t I = 0; I < N; ++I) {
      Want[I] = WantTot[I / Per];
      WantTot[I / Per] += In[I];
    }
    expectEqual(E.read<int>(DOut, N), Want, "scanBlelloch " + sizeName(LS));
    expectEqual(E.read<int>(DTot, Groups), WantTot,
                "scanBlelloch totals " + sizeName(LS));
  }
}

CLT_TEST(tiledMatrixMultiply) {
  // Odd numbers of tiles in every dimension.
  struct Case {
    int Tile, M, N, K;
  };
  for (Case C : {Case{16, 16 * 3, 16 * 5, 16 * 7}, Case{8, 8 * 9, 8 * 3, 8 * 5},
                 Case{4, 4 * 7, 4 * 11, 4 * 3}, Case{1, 13, 7, 9}}) {
    std::string Opt = "-DTILE=" + std::to_string(C.Tile);
    Program P = E.build(MatmulTiledSource, Opt.c_str());
    Kernel K = E.kernel(P, "matmulTiled");
    size_t Tile = size_t(C.Tile);
    std::string What = "matmulTiled " + std::to_string(C.Tile) + "x" +
                       std::to_string(C.Tile) + " " + std::to_string(C.M) +
                       "x" + std::to_string(C.K) + "*" + std::to_string(C.K) +
                       "x" + std::to_string(C.N);
    if (Tile * Tile > maxLocalSize1D(E, K))
      CLT_SKIP(What + ": tile larger than the work-group size");
    auto A = randomVector<float>(size_t(C.M * C.K), -1.f, 1.f, 204);
    auto B = randomVector<float>(size_t(C.K * C.N), -1.f, 1.f, 205);
    Mem DA = E.input(A), DB = E.input(B);
    Mem DC = E.output<float>(size_t(C.M * C.N));
    setArgs(K, DA, DB, DC, C.M, C.N, C.K);
    size_t Global[2] = {size_t(C.N), size_t(C.M)}, Local[2] = {Tile, Tile};
    E.run(K, 2, Global, Local);
    std::vector<float> Want(size_t(C.M * C.N));
    for (int R = 0; R < C.M; ++R)
      for (int Col = 0; Col < C.N; ++Col) {
        double Acc = 0;
        for (int Kk = 0; Kk < C.K; ++Kk)
          Acc += double(A[R * C.K + Kk]) * double(B[Kk * C.N + Col]);
        Want[size_t(R * C.N + Col)] = float(Acc);
      }
    expectNear(E.read<float>(DC, Want.size()), Want, 1e-5, 1e-6 * double(C.K),
               What);
  }
}

CLT_TEST(automaticLocalsWithLocalArguments) {
  Program P = E.build(MixedLocalsSource);
  Kernel K = E.kernel(P, "mixedLocals");
  for (size_t LS :
       {size_t(255), size_t(256), size_t(7), size_t(1), size_t(64)}) {
    const size_t N = LS * 11;
    auto In = randomVector<int>(N, -100000, 100000, 206);
    Mem DIn = E.input(In), DOut = E.output<int>(2 * N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LS * sizeof(int));
    setLocalArg(K, 3, LS * sizeof(cl_short));
    E.run1(K, N, LS);
    std::vector<int> R(N), Want(2 * N);
    for (size_t G = 0; G < N; ++G) {
      size_t L = G % LS, Grp = G / LS, Base = Grp * LS;
      size_t L2 = (L + 2) % LS;
      R[G] = In[Base + LS - 1 - L] + int((L + 1) % LS * 3) +
             (int(Grp) * 10 + int(L2)) + int(float((L * 5) % 64) * 0.5f * 2.0f);
    }
    for (size_t G = 0; G < N; ++G) {
      size_t L = G % LS, Base = G / LS * LS;
      Want[2 * G] = R[G];
      Want[2 * G + 1] = R[Base + (L + 1) % LS];
    }
    expectEqual(E.read<int>(DOut, 2 * N), Want, "mixedLocals " + sizeName(LS));
  }
  Kernel K2 = E.kernel(P, "smallLocals");
  for (size_t LS : {size_t(64), size_t(9)}) {
    const size_t N = LS * 5;
    Mem DOut = E.output<int>(N);
    setArgs(K2, DOut);
    E.run1(K2, N, LS);
    std::vector<int> Want(N);
    for (size_t G = 0; G < N; ++G) {
      size_t M = LS - 1 - G % LS;
      Want[G] = int(M * M);
    }
    expectEqual(E.read<int>(DOut, N), Want, "smallLocals " + sizeName(LS));
  }
}

CLT_TEST(asyncWorkGroupCopies) {
  Program P = E.build(AsyncCopySource);
  Kernel K = E.kernel(P, "asyncCopy");
  for (size_t LS :
       {size_t(255), size_t(1), size_t(64), size_t(10), maxLocalSize1D(E, K)}) {
    const size_t N = LS * 9;
    auto In = randomVector<float>(N, -100.f, 100.f, 207);
    Mem DIn = E.input(In), DOut = E.output<float>(N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LS * sizeof(float));
    setLocalArg(K, 3, LS * sizeof(float));
    E.run1(K, N, LS);
    std::vector<float> Want(N);
    for (size_t G = 0; G < N; ++G) {
      size_t L = G % LS, Base = G / LS * LS;
      Want[G] = In[Base + (L * 7 + 3) % LS] * 2.0f + In[G];
    }
    expectNear(E.read<float>(DOut, N), Want, 1e-6, 1e-6,
               "asyncCopy " + sizeName(LS));
  }
}

CLT_TEST(asyncStridedCopies) {
  Program P = E.build(AsyncStridedSource);
  Kernel K = E.kernel(P, "asyncStrided");
  for (size_t LS : {size_t(255), size_t(1), size_t(16)}) {
    const size_t Groups = 6, N = LS * Groups * 2 * 4; // ints
    auto In = randomVector<int>(N, -100000, 100000, 208);
    std::vector<int> Init(N, -7);
    Mem DIn = E.input(In);
    Mem DOut = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                        N * sizeof(int), Init.data());
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LS * 4 * sizeof(int));
    E.run1(K, LS * Groups, LS);
    std::vector<int> Want = Init;
    for (size_t Grp = 0; Grp < Groups; ++Grp)
      for (size_t L = 0; L < LS; ++L) {
        size_t Src = Grp * LS * 2 + 2 * (LS - 1 - L); // int4 index
        size_t Dst = Grp * LS * 2 + 2 * L + 1;
        for (int C = 0; C < 4; ++C)
          Want[4 * Dst + C] = In[4 * Src + C] + int(L);
      }
    expectEqual(E.read<int>(DOut, N), Want, "asyncStrided " + sizeName(LS));
  }
}

/// BinomialOption's host reference in double precision.
static std::vector<float> binomialReference(const std::vector<float> &Rand,
                                            int NumSteps) {
  std::vector<float> Out(Rand.size());
  std::vector<double> A(size_t(NumSteps) + 1), B(size_t(NumSteps) + 1);
  for (size_t I = 0; I < Rand.size(); ++I) {
    double R0 = Rand[I];
    double S = (1 - R0) * 5 + R0 * 30, X = (1 - R0) * 1 + R0 * 100;
    double Years = (1 - R0) * 0.25 + R0 * 10;
    double Dt = Years * (1.0 / NumSteps);
    double Vsdt = 0.30 * std::sqrt(Dt), Rdt = 0.02 * Dt;
    double R = std::exp(Rdt), RInv = 1 / R, U = std::exp(Vsdt), D = 1 / U;
    double Pu = (R - D) / (U - D), Pd = 1 - Pu;
    double PuByr = Pu * RInv, PdByr = Pd * RInv;
    for (int T = 0; T <= NumSteps; ++T)
      A[size_t(T)] =
          std::max(S * std::exp(Vsdt * (2.0 * T - NumSteps)) - X, 0.0);
    for (int J = NumSteps; J > 0; J -= 2) {
      for (int T = 0; T < J; ++T)
        B[size_t(T)] = PuByr * A[size_t(T)] + PdByr * A[size_t(T) + 1];
      for (int T = 0; T < J - 1; ++T)
        A[size_t(T)] = PuByr * B[size_t(T)] + PdByr * B[size_t(T) + 1];
    }
    Out[I] = float(A[0]);
  }
  return Out;
}

CLT_TEST(binomialOption) {
  Program P = E.build(BinomialOptionsSource);
  Kernel K = E.kernel(P, "binomialOptions");
  // Even step counts: the loop's last trip then updates CallA[0].
  for (int NumSteps : {254, 128, 2}) {
    size_t LS = size_t(NumSteps) + 1;
    if (LS > maxLocalSize1D(E, K))
      CLT_SKIP("local size " + std::to_string(LS) + " not allowed");
    const size_t Options = 4 * 40;
    auto Rand = randomVector<float>(Options, 0.f, 1.f, 209);
    Mem DRand = E.input(Rand), DOut = E.output<float>(Options);
    setArgs(K, NumSteps, DRand, DOut);
    setLocalArg(K, 3, LS * 4 * sizeof(float));
    setLocalArg(K, 4, LS * 4 * sizeof(float));
    E.run1(K, LS * (Options / 4), LS);
    // The device computes in float (exp, sqrt within a few ULP) over up to
    // 254 steps of a convex combination.
    expectNear(E.read<float>(DOut, Options), binomialReference(Rand, NumSteps),
               1e-3, 1e-3, "binomialOptions steps " + std::to_string(NumSteps));
  }
}
