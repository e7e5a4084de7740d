//===- ArgumentKernels.cpp - Argument kinds and __local memory ------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Kernel arguments of every kind the subkernels and the scoring function
// receive as parameters (the paper's scores are functions of the kernel
// arguments, section 4.1): scalars of each width, by-value structs,
// __constant buffers, __local buffers and function-scope __local arrays
// (DESIGN.md section 3: the latter become trailing work-group arguments).
// No barriers: every work-item only touches its own __local slot.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

static const char *ArgSource = R"CLC(
typedef struct {
  float Scale;
  int Offset;
  char Tag;   // padding follows: the host layout must match
  double Weight;
  int4 Lanes;
} Params;

__kernel void structArg(Params P, __global const float *In,
                        __global float *Out) {
  size_t I = get_global_id(0);
  Out[I] = In[I] * P.Scale + P.Offset + P.Tag + (float)P.Weight +
           P.Lanes[I % 4];
}

__kernel void scalarArgs(char C, uchar UC, short S, ushort US, int I32,
                         uint U32, long L, ulong UL, float F,
                         __global long *Out) {
  size_t I = get_global_id(0);
  Out[I] = C + UC + S + US + I32 + U32 + L + (long)(UL >> 1) + (long)F +
           (long)I;
}

__kernel void constantArg(__constant int *Table, __global const int *Idx,
                          __global int *Out) {
  size_t I = get_global_id(0);
  Out[I] = Table[Idx[I]] + Table[I % 16];
}

// A __local argument: each work-item owns slot get_local_id(0).
__kernel void localArg(__global const int *In, __global int *Out,
                       __local int *Scratch) {
  size_t L = get_local_id(0);
  size_t G = get_global_id(0);
  Scratch[L] = In[G] * 2;
  Scratch[L] += (int)L;
  Out[G] = Scratch[L] - 1;
}

// Two __local arguments of different types and an automatic __local array.
__kernel void autoLocal(__global const float *In, __global float *Out,
                        __local float *A, __local short *B) {
  __local int Counts[256];
  size_t L = get_local_id(0);
  size_t G = get_global_id(0);
  A[L] = In[G];
  B[L] = (short)(G & 0x7fff);
  Counts[L] = (int)get_group_id(0);
  Out[G] = A[L] + B[L] + Counts[L] * 0.25f;
}
)CLC";

// The host mirror of Params with OpenCL C's alignment (int4 is 16-aligned).
struct alignas(16) HostParams {
  cl_float Scale;
  cl_int Offset;
  cl_char Tag;
  cl_double Weight;
  cl_int4 Lanes;
};
static_assert(sizeof(HostParams) == 48, "layout must match the kernel's");

CLT_TEST(structByValue) {
  const size_t N = 1031;
  auto In = randomVector<float>(N, -1.f, 1.f, 30);
  HostParams P{};
  P.Scale = 3.0f;
  P.Offset = -7;
  P.Tag = 5;
  P.Weight = 0.5;
  P.Lanes = {{10, 20, 30, 40}};
  Program Prog = E.build(ArgSource);
  Kernel K = E.kernel(Prog, "structArg");
  Mem DIn = E.input(In), DOut = E.output<float>(N);
  setArgs(K, P, DIn, DOut);
  E.run1(K, N);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] =
        In[I] * P.Scale + P.Offset + P.Tag + float(P.Weight) + P.Lanes.s[I % 4];
  expectNear(E.read<float>(DOut, N), Want, 1e-6, 1e-5, "structArg");
}

CLT_TEST(scalarArgumentWidths) {
  const size_t N = 100;
  cl_char C = -3;
  cl_uchar UC = 250;
  cl_short S = -30000;
  cl_ushort US = 60000;
  cl_int I32 = -2000000000;
  cl_uint U32 = 4000000000u;
  cl_long L = -(1ll << 40);
  cl_ulong UL = 1ull << 63;
  cl_float F = 12345.75f;
  Program Prog = E.build(ArgSource);
  Kernel K = E.kernel(Prog, "scalarArgs");
  Mem Out = E.output<cl_long>(N);
  setArgs(K, C, UC, S, US, I32, U32, L, UL, F, Out);
  E.run1(K, N, 10);
  std::vector<cl_long> Want(N);
  for (size_t I = 0; I < N; ++I) {
    // OpenCL C's usual arithmetic conversions: I32 + U32 is uint.
    cl_uint Sum32 = cl_uint(C + UC + S + US + I32) + U32;
    Want[I] = cl_long(Sum32) + L + cl_long(UL >> 1) + cl_long(F) + cl_long(I);
  }
  expectEqual(E.read<cl_long>(Out, N), Want, "scalarArgs");
}

CLT_TEST(constantBuffer) {
  const size_t N = 3000;
  auto Table = randomVector<int>(64, -1000, 1000, 31);
  auto Idx = randomVector<int>(N, 0, 63, 32);
  Program Prog = E.build(ArgSource);
  Kernel K = E.kernel(Prog, "constantArg");
  Mem DT = E.input(Table), DI = E.input(Idx), DO = E.output<int>(N);
  setArgs(K, DT, DI, DO);
  E.run1(K, N, 100);
  std::vector<int> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = Table[Idx[I]] + Table[I % 16];
  expectEqual(E.read<int>(DO, N), Want, "constantArg");
}

CLT_TEST(localArgumentOwnSlot) {
  Program Prog = E.build(ArgSource);
  Kernel K = E.kernel(Prog, "localArg");
  for (size_t Local : {size_t(1), size_t(7), size_t(64), size_t(255)}) {
    const size_t N = Local * 37;
    auto In = randomVector<int>(N, -1000, 1000, 33);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, Local * sizeof(int));
    E.run1(K, N, Local);
    std::vector<int> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = In[I] * 2 + int(I % Local) - 1;
    expectEqual(E.read<int>(DOut, N), Want,
                "localArg local " + std::to_string(Local));
  }
}

CLT_TEST(automaticLocalArray) {
  Program Prog = E.build(ArgSource);
  Kernel K = E.kernel(Prog, "autoLocal");
  for (size_t Local : {size_t(7), size_t(64), size_t(255), size_t(256)}) {
    const size_t N = Local * 19;
    auto In = randomVector<float>(N, -1.f, 1.f, 34);
    Mem DIn = E.input(In), DOut = E.output<float>(N);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, Local * sizeof(float));
    setLocalArg(K, 3, Local * sizeof(cl_short));
    E.run1(K, N, Local);
    std::vector<float> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = In[I] + float(I & 0x7fff) + float(I / Local) * 0.25f;
    expectNear(E.read<float>(DOut, N), Want, 1e-6, 1e-6,
               "autoLocal local " + std::to_string(Local));
  }
}

/// Helpers the source keeps out of line (noinline) that take and build
/// 3-component vectors by value, with uniform and per-work-item arguments:
/// pocl's kernel/test_ucharn shape, which once compiled to an empty
/// work-group function.
static const char *HelperVectorSource = R"CLC(
int f3(uchar3 u, int z) __attribute__((noinline));
int f3(uchar3 u, int z) { return u.x + u.y * 2 + u.z * 3 + z; }
int g3(void) __attribute__((noinline));
int g3(void) { uchar3 u = (uchar3)(1, 2, 3); return f3(u, 4); }
int h3(uint i) __attribute__((noinline));
int h3(uint i) { uchar3 u = (uchar3)(i, i + 1, i * 2); return f3(u, (int)i); }
kernel void helpers(global int *o) {
  uint i = get_global_id(0);
  o[i] = g3() * 1000 + h3(i);
}
)CLC";

CLT_TEST(noinlineHelpersWithVec3) {
  Program P = E.build(HelperVectorSource);
  Kernel K = E.kernel(P, "helpers");
  const size_t N = 300;
  Mem DOut = E.output<int>(N);
  setArgs(K, DOut);
  for (size_t Local : {size_t(1), size_t(4), size_t(100)}) {
    E.run1(K, N, Local);
    std::vector<int> Want(N);
    for (size_t I = 0; I < N; ++I) {
      unsigned char U0 = (unsigned char)I, U1 = (unsigned char)(I + 1),
                    U2 = (unsigned char)(I * 2);
      Want[I] = (1 + 2 * 2 + 3 * 3 + 4) * 1000 + U0 + U1 * 2 + U2 * 3 + int(I);
    }
    expectEqual(E.read<int>(DOut, N), Want,
                "noinline vec3 helpers, local " + std::to_string(Local));
  }
}
