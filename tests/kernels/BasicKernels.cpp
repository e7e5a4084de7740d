//===- BasicKernels.cpp - 1D kernels: sizes, tails, control flow ----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// One-dimensional end-to-end kernels checked against host references. They
// target the full-tile split of the paper (section 3.2.1): global and local
// sizes that leave partial vectors (1000003 items, local sizes 1, 7, 64, 255,
// NULL local size), work-items that return early, per-work-item loops with
// data-dependent trip counts (divergent loops, section 3.2.3), integer and
// double arithmetic, and many work-groups.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

static const char *BasicSource = R"CLC(
__kernel void vecAdd(__global const float *A, __global const float *B,
                     __global float *C, uint N) {
  size_t I = get_global_id(0);
  if (I < N)
    C[I] = A[I] + B[I];
}

__kernel void saxpy(float Alpha, __global const float *X, __global float *Y) {
  size_t I = get_global_id(0);
  Y[I] = Alpha * X[I] + Y[I];
}

// Every work-item records who it is, so a wrong local/group id or a missing
// or duplicated work-item shows up, whatever the local size.
__kernel void whoAmI(__global uint *Out, uint N) {
  size_t I = get_global_id(0);
  if (I >= N)
    return;
  Out[I] = (uint)(get_group_id(0) * 100000 + get_local_id(0) * 10 +
                  get_work_dim());
}

__kernel void groupInfo(__global uint *Out) {
  size_t I = get_global_id(0);
  Out[4 * I + 0] = (uint)get_local_size(0);
  Out[4 * I + 1] = (uint)get_num_groups(0);
  Out[4 * I + 2] = (uint)get_global_size(0);
  Out[4 * I + 3] = (uint)(get_group_id(0) * get_local_size(0) +
                          get_local_id(0));
}

// Odd work-items leave at once, the others after a data-dependent test: the
// early exits split the work-item loop into divergent parts.
__kernel void earlyReturn(__global const int *In, __global int *Out) {
  size_t I = get_global_id(0);
  if (I & 1)
    return;
  int V = In[I];
  if (V < 0)
    return;
  Out[I] = V * 3 + 1;
}

// Collatz step count: a loop whose trip count differs per work-item.
__kernel void collatz(__global const uint *In, __global uint *Steps) {
  size_t I = get_global_id(0);
  uint N = In[I];
  uint S = 0;
  while (N > 1) {
    N = (N & 1) ? 3 * N + 1 : N / 2;
    ++S;
  }
  Steps[I] = S;
}

// A uniform loop bound taken from an argument, with a work-item dependent
// branch inside.
__kernel void prefixLike(__global const int *In, __global int *Out, int K) {
  int I = get_global_id(0);
  int Acc = 0;
  for (int J = 0; J < K; ++J) {
    if ((I + J) % 3 == 0)
      Acc += In[(I + J) % 4096];
    else
      Acc -= J;
  }
  Out[I] = Acc;
}

__kernel void integerOps(__global const int *A, __global const int *B,
                         __global int *Out, __global uint *UOut,
                         __global long *LOut) {
  size_t I = get_global_id(0);
  int X = A[I], Y = B[I];
  Out[8 * I + 0] = X + Y;
  Out[8 * I + 1] = X - Y;
  Out[8 * I + 2] = X * Y;
  Out[8 * I + 3] = Y != 0 ? X / Y : 0;
  Out[8 * I + 4] = Y != 0 ? X % Y : 0;
  Out[8 * I + 5] = X >> (Y & 31);
  Out[8 * I + 6] = (X & Y) ^ (X | 12345);
  Out[8 * I + 7] = max(X, Y) - min(X, Y) + abs_diff(X, Y) + clamp(X, -5, 5);
  UOut[I] = ((uint)X >> (Y & 31)) + rotate((uint)X, (uint)Y) + popcount(X);
  LOut[I] = (long)X * (long)Y + ((long)X << 20) - mul_hi(X, Y);
}

__kernel void manyGroups(__global uint *Out) {
  // Local size 1 x many groups: the group loop, not the work-item loop, is
  // what is exercised.
  Out[get_global_id(0)] = (uint)get_group_id(0) ^ 0x5a5a5a5au;
}
)CLC";

static const char *DoubleSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void daxpyPoly(double Alpha, __global const double *X,
                        __global double *Y) {
  size_t I = get_global_id(0);
  double V = X[I];
  // Horner, written without fma so the host can reproduce it exactly.
  double P = ((0.25 * V - 1.5) * V + 2.0) * V - 3.0;
  Y[I] = Alpha * P + Y[I] + sqrt(fabs(V));
}
)CLC";

CLT_TEST(vectorAddOddSize) {
  const cl_uint N = 1000003; // prime: no local size divides it
  auto A = randomVector<float>(N, -100.f, 100.f, 1);
  auto B = randomVector<float>(N, -100.f, 100.f, 2);
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "vecAdd");
  Mem DA = E.input(A), DB = E.input(B), DC = E.output<float>(N);
  setArgs(K, DA, DB, DC, N);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = A[I] + B[I];
  // The global size is rounded up to whole groups; the guard keeps the
  // padding work-items out.
  for (size_t Local : {size_t(64), size_t(255), size_t(7), size_t(1)}) {
    size_t Global = (N + Local - 1) / Local * Local;
    E.run1(K, Global, Local);
    expectEqual(E.read<float>(DC, N), Want,
                "vecAdd local " + std::to_string(Local));
  }
  // NULL local size with the exact, prime global size: the implementation
  // has to pick a local size that divides it.
  E.run1(K, N);
  expectEqual(E.read<float>(DC, N), Want, "vecAdd NULL local size");
}

CLT_TEST(saxpy) {
  const size_t N = 1 << 20;
  const float Alpha = 2.5f;
  auto X = randomVector<float>(N, -1.f, 1.f, 3);
  auto Y = randomVector<float>(N, -1.f, 1.f, 4);
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "saxpy");
  Mem DX = E.input(X);
  Mem DY = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                    Y.data());
  setArgs(K, Alpha, DX, DY);
  E.run1(K, N, 128);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = Alpha * X[I] + Y[I];
  // The device may contract to fma: allow one rounding of difference.
  expectNear(E.read<float>(DY, N), Want, 1e-6, 1e-7, "saxpy");
}

CLT_TEST(localSizes) {
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "whoAmI");
  for (size_t Local : {1, 2, 7, 8, 9, 16, 63, 64, 65, 100, 255, 256}) {
    const size_t Groups = 13;
    const cl_uint N = static_cast<cl_uint>(Groups * Local - Local / 2);
    size_t Global = Groups * Local;
    Mem Out = E.output<cl_uint>(Global);
    setArgs(K, Out, N);
    E.run1(K, Global, Local);
    auto Got = E.read<cl_uint>(Out, N);
    std::vector<cl_uint> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] =
          static_cast<cl_uint>((I / Local) * 100000 + (I % Local) * 10 + 1);
    expectEqual(Got, Want, "whoAmI local " + std::to_string(Local));
  }
}

CLT_TEST(nullLocalSize) {
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "groupInfo");
  for (size_t Global : {size_t(1), size_t(3), size_t(97), size_t(1000),
                        size_t(4096), size_t(30031)}) {
    Mem Out = E.output<cl_uint>(4 * Global);
    setArgs(K, Out);
    E.run1(K, Global);
    auto Got = E.read<cl_uint>(Out, 4 * Global);
    cl_uint L = Got[0];
    std::string What = "groupInfo global " + std::to_string(Global);
    CLT_EXPECT_MSG(L >= 1 && Global % L == 0,
                   What + ": local size " + std::to_string(L) +
                       " does not divide the global size");
    std::vector<cl_uint> Want(4 * Global);
    for (size_t I = 0; I < Global; ++I) {
      Want[4 * I + 0] = L;
      Want[4 * I + 1] = static_cast<cl_uint>(Global / L);
      Want[4 * I + 2] = static_cast<cl_uint>(Global);
      Want[4 * I + 3] = static_cast<cl_uint>(I);
    }
    expectEqual(Got, Want, What);
  }
}

CLT_TEST(earlyReturn) {
  const size_t N = 10007 * 4;
  auto In = randomVector<int>(N, -1000, 1000, 5);
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "earlyReturn");
  std::vector<int> Init(N, -7);
  Mem DIn = E.input(In);
  Mem DOut = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(int),
                      Init.data());
  setArgs(K, DIn, DOut);
  E.run1(K, N, 4);
  std::vector<int> Want = Init;
  for (size_t I = 0; I < N; I += 2)
    if (In[I] >= 0)
      Want[I] = In[I] * 3 + 1;
  expectEqual(E.read<int>(DOut, N), Want, "earlyReturn");
}

CLT_TEST(dataDependentLoop) {
  const size_t N = 64 * 250;
  auto In = randomVector<cl_uint>(N, 1, 100000, 6);
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "collatz");
  Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
  setArgs(K, DIn, DOut);
  E.run1(K, N, 64);
  std::vector<cl_uint> Want(N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t V = In[I];
    cl_uint S = 0;
    while (V > 1) {
      V = (V & 1) ? 3 * V + 1 : V / 2;
      V &= 0xffffffffu; // the kernel computes in uint
      ++S;
    }
    Want[I] = S;
  }
  expectEqual(E.read<cl_uint>(DOut, N), Want, "collatz");
}

CLT_TEST(uniformLoopDivergentBranch) {
  const size_t N = 255 * 40;
  auto In = randomVector<int>(4096, -50, 50, 7);
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "prefixLike");
  Mem DIn = E.input(In), DOut = E.output<int>(N);
  for (int KArg : {0, 1, 5, 33}) {
    setArgs(K, DIn, DOut, KArg);
    E.run1(K, N, 255);
    std::vector<int> Want(N);
    for (size_t I = 0; I < N; ++I) {
      int Acc = 0;
      for (int J = 0; J < KArg; ++J)
        Acc += (int(I) + J) % 3 == 0 ? In[(I + J) % 4096] : -J;
      Want[I] = Acc;
    }
    expectEqual(E.read<int>(DOut, N), Want,
                "prefixLike K=" + std::to_string(KArg));
  }
}

static int32_t mulHi(int32_t X, int32_t Y) {
  return static_cast<int32_t>((int64_t(X) * int64_t(Y)) >> 32);
}

CLT_TEST(integerOps) {
  const size_t N = 4099;
  auto A = randomVector<int>(N, -100000, 100000, 8);
  auto B = randomVector<int>(N, -300, 300, 9);
  A[0] = INT32_MIN + 1;
  B[1] = 0;
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "integerOps");
  Mem DA = E.input(A), DB = E.input(B), DO = E.output<int>(8 * N),
      DU = E.output<cl_uint>(N), DL = E.output<cl_long>(N);
  setArgs(K, DA, DB, DO, DU, DL);
  E.run1(K, N, 1);
  std::vector<int> WantO(8 * N);
  std::vector<cl_uint> WantU(N);
  std::vector<cl_long> WantL(N);
  for (size_t I = 0; I < N; ++I) {
    int32_t X = A[I], Y = B[I];
    WantO[8 * I + 0] = int32_t(uint32_t(X) + uint32_t(Y));
    WantO[8 * I + 1] = int32_t(uint32_t(X) - uint32_t(Y));
    WantO[8 * I + 2] = int32_t(uint32_t(X) * uint32_t(Y));
    WantO[8 * I + 3] = Y ? X / Y : 0;
    WantO[8 * I + 4] = Y ? X % Y : 0;
    WantO[8 * I + 5] = X >> (Y & 31);
    WantO[8 * I + 6] = (X & Y) ^ (X | 12345);
    uint32_t AbsDiff =
        X > Y ? uint32_t(X) - uint32_t(Y) : uint32_t(Y) - uint32_t(X);
    WantO[8 * I + 7] =
        int32_t(uint32_t(std::max(X, Y)) - uint32_t(std::min(X, Y)) + AbsDiff +
                uint32_t(std::clamp(X, -5, 5)));
    uint32_t UX = uint32_t(X), R = uint32_t(Y) & 31;
    uint32_t Rot = R ? (UX << R) | (UX >> (32 - R)) : UX;
    WantU[I] = (UX >> (Y & 31)) + Rot + uint32_t(__builtin_popcount(UX));
    WantL[I] = int64_t(X) * int64_t(Y) + int64_t(uint64_t(int64_t(X)) << 20) -
               mulHi(X, Y);
  }
  expectEqual(E.read<int>(DO, 8 * N), WantO, "integerOps int");
  expectEqual(E.read<cl_uint>(DU, N), WantU, "integerOps uint");
  expectEqual(E.read<cl_long>(DL, N), WantL, "integerOps long");
}

CLT_TEST(manyWorkGroups) {
  const size_t N = 200003;
  Program P = E.build(BasicSource);
  Kernel K = E.kernel(P, "manyGroups");
  Mem Out = E.output<cl_uint>(N);
  setArgs(K, Out);
  E.run1(K, N, 1);
  std::vector<cl_uint> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = cl_uint(I) ^ 0x5a5a5a5au;
  expectEqual(E.read<cl_uint>(Out, N), Want, "manyGroups");
}

CLT_TEST(doubleKernel) {
  if (!E.hasExtension("cl_khr_fp64"))
    CLT_SKIP("device has no cl_khr_fp64");
  const size_t N = 63 * 143;
  auto X = randomVector<double>(N, -4.0, 4.0, 10);
  auto Y = randomVector<double>(N, -1.0, 1.0, 11);
  const double Alpha = 0.7;
  Program P = E.build(DoubleSource);
  Kernel K = E.kernel(P, "daxpyPoly");
  Mem DX = E.input(X);
  Mem DY = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    N * sizeof(double), Y.data());
  setArgs(K, Alpha, DX, DY);
  E.run1(K, N, 7 * 9);
  std::vector<double> Want(N);
  for (size_t I = 0; I < N; ++I) {
    double V = X[I];
    double P = ((0.25 * V - 1.5) * V + 2.0) * V - 3.0;
    Want[I] = Alpha * P + Y[I] + std::sqrt(std::fabs(V));
  }
  // Contraction to fma is allowed; a float-precision result would be off by
  // ~1e-7, far beyond this bound.
  expectNear(E.read<double>(DY, N), Want, 1e-13, 1e-13, "daxpyPoly");
}
