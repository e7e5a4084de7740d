//===- VectorKernels.cpp - OpenCL vector types, vload/vstore --------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Kernels written with OpenCL C vector types. The work-item loop vectorizer
// of the paper (section 3, codelets vectorized across work-items) must widen
// code that is already vector-typed: float4 and int8 arithmetic, swizzles,
// conversions, and vloadn/vstoren at unaligned, work-item dependent offsets
// (consecutive accesses with a stride that is not 1).
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <algorithm>
#include <cmath>
#include <iterator>

using namespace clt;

static const char *VectorSource = R"CLC(
__kernel void float4Ops(__global const float4 *A, __global const float4 *B,
                        __global float4 *Out) {
  size_t I = get_global_id(0);
  float4 X = A[I], Y = B[I];
  float4 R = X * Y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  R = R - X.wzyx;
  R.xy = R.yx * 2.0f;
  R = select(R, -R, X > Y); // component-wise: where X > Y, negate
  Out[I] = R + (float4)(dot(X, Y));
}

__kernel void int8Ops(__global const int8 *A, __global const int8 *B,
                      __global int8 *Out, int Shift) {
  size_t I = get_global_id(0);
  int8 X = A[I], Y = B[I];
  int8 R = X * Y - (X >> Shift) + (Y & (int8)(0xff));
  R = max(R, X) ^ (Y < X); // relational results are -1/0 per component
  R.s0 += R.s7;
  Out[I] = R + (int8)((int)I);
}

// vload3/vstore3 from a packed float array (12-byte stride) and vload4 at an
// odd element offset: neither is aligned to the vector type.
__kernel void vloadStore(__global const float *In, __global float *Out,
                         __global const int *IIn, __global int *IOut) {
  size_t I = get_global_id(0);
  float3 P = vload3(I, In);
  vstore3(P.zxy * 2.0f + 1.0f, I, Out);
  int4 Q = vload4(0, IIn + 4 * I + 1);
  vstore4(Q.wzyx + (int4)(1, 2, 3, 4), I, IOut);
}

__kernel void conversions(__global const float4 *In, __global int4 *ToInt,
                          __global uchar4 *Sat, __global float4 *Back) {
  size_t I = get_global_id(0);
  float4 V = In[I];
  ToInt[I] = convert_int4_rtz(V);
  Sat[I] = convert_uchar4_sat(V);
  Back[I] = convert_float4(convert_int4_rtn(V));
}

// Rounds of a hash over the kernel's own uint8 and ulong8 vectors, each
// lane a different input (the shape of password crackers' kernels): run
// in groups of one work-item the kernel stays as written (iss-as-written),
// in larger ones its loop may be widened; every mode computes the same.
__kernel void hashRounds(__global const uint8 *In, __global const ulong8 *In64,
                         __global uint8 *Out, __global ulong8 *Out64,
                         int Rounds) {
  size_t I = get_global_id(0);
  uint8 A = In[I], B = A.s12345670 ^ (uint8)(0x9e3779b9u);
  ulong8 C = In64[I];
  for (int R = 0; R < Rounds; ++R) {
    A = rotate(A, (uint8)(7)) + B;
    B = (B ^ A) + (uint8)(R);
    C = (rotate(C, (ulong8)(13)) ^ (C >> 3)) + convert_ulong8(A);
  }
  Out[I] = A ^ B;
  Out64[I] = C;
}

// Builtins of float4 that pocl's x86 library computes with SSE and AVX
// intrinsics (max and min, blends, rounding, conversions, fabs through
// long2), which iss-generic-intrinsics rewrites: NaNs, zeros of both
// signs, infinities, halves and values out of int's range.
__kernel void libraryFloat4(__global const float4 *A, __global const float4 *B,
                            __global float4 *F, __global int4 *I) {
  size_t K = get_global_id(0);
  float4 X = A[K], Y = B[K];
  F[6 * K] = fmax(X, Y);
  F[6 * K + 1] = fmin(X, Y);
  F[6 * K + 2] = fabs(X);
  F[6 * K + 3] = rint(X);
  F[6 * K + 4] = floor(X) + ceil(Y) + trunc(X - Y);
  F[6 * K + 5] = hypot(X, Y);
  I[2 * K] = convert_int4_sat(X);
  I[2 * K + 1] = convert_int4_sat_rte(Y);
}
)CLC";

CLT_TEST(float4Arithmetic) {
  const size_t N = 4096 + 3;
  auto A = randomVector<float>(4 * N, -8.f, 8.f, 20);
  auto B = randomVector<float>(4 * N, -8.f, 8.f, 21);
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "float4Ops");
  Mem DA = E.input(A), DB = E.input(B), DO = E.output<float>(4 * N);
  setArgs(K, DA, DB, DO);
  E.run1(K, N, 1);
  std::vector<float> Want(4 * N);
  for (size_t I = 0; I < N; ++I) {
    const float *X = &A[4 * I], *Y = &B[4 * I];
    float R[4];
    for (int C = 0; C < 4; ++C)
      R[C] = X[C] * Y[C] + float(C + 1);
    for (int C = 0; C < 4; ++C)
      R[C] -= X[3 - C];
    float R0 = R[1] * 2.0f, R1 = R[0] * 2.0f;
    R[0] = R0;
    R[1] = R1;
    double Dot = 0;
    for (int C = 0; C < 4; ++C)
      Dot += double(X[C]) * Y[C];
    for (int C = 0; C < 4; ++C)
      Want[4 * I + C] = (X[C] > Y[C] ? -R[C] : R[C]) + float(Dot);
  }
  // dot() and contraction round differently from the host; the values are
  // below ~300, so 1e-3 absolute is a few ULPs.
  expectNear(E.read<float>(DO, 4 * N), Want, 1e-5, 1e-3, "float4Ops");
}

CLT_TEST(int8Arithmetic) {
  const size_t N = 1000;
  auto A = randomVector<int>(8 * N, -5000, 5000, 22);
  auto B = randomVector<int>(8 * N, -5000, 5000, 23);
  const int Shift = 3;
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "int8Ops");
  Mem DA = E.input(A), DB = E.input(B), DO = E.output<int>(8 * N);
  setArgs(K, DA, DB, DO, Shift);
  E.run1(K, N, 8);
  std::vector<int> Want(8 * N);
  for (size_t I = 0; I < N; ++I) {
    int R[8];
    for (int C = 0; C < 8; ++C) {
      int X = A[8 * I + C], Y = B[8 * I + C];
      R[C] = X * Y - (X >> Shift) + (Y & 0xff);
      R[C] = std::max(R[C], X) ^ (Y < X ? -1 : 0);
    }
    R[0] += R[7];
    for (int C = 0; C < 8; ++C)
      Want[8 * I + C] = R[C] + int(I);
  }
  expectEqual(E.read<int>(DO, 8 * N), Want, "int8Ops");
}

CLT_TEST(ownVectorRounds) {
  const size_t N = 512;
  const int Rounds = 21;
  auto A = randomVector<cl_uint>(8 * N, 0u, 0xffffffffu, 43);
  auto C = randomVector<cl_ulong>(8 * N, 0ull, ~0ull, 44);
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "hashRounds");
  auto Rotl32 = [](cl_uint V, unsigned S) {
    return cl_uint(V << S | V >> (32 - S));
  };
  auto Rotl64 = [](cl_ulong V, unsigned S) {
    return cl_ulong(V << S | V >> (64 - S));
  };
  std::vector<cl_uint> Want(8 * N);
  std::vector<cl_ulong> Want64(8 * N);
  for (size_t I = 0; I < N; ++I) {
    cl_uint X[8], Y[8];
    cl_ulong Z[8];
    for (int L = 0; L < 8; ++L) {
      X[L] = A[8 * I + L];
      Y[L] = A[8 * I + (L + 1) % 8] ^ 0x9e3779b9u;
      Z[L] = C[8 * I + L];
    }
    for (int R = 0; R < Rounds; ++R)
      for (int L = 0; L < 8; ++L) {
        X[L] = Rotl32(X[L], 7) + Y[L];
        Y[L] = (Y[L] ^ X[L]) + cl_uint(R);
        Z[L] = (Rotl64(Z[L], 13) ^ (Z[L] >> 3)) + X[L];
      }
    for (int L = 0; L < 8; ++L) {
      Want[8 * I + L] = X[L] ^ Y[L];
      Want64[8 * I + L] = Z[L];
    }
  }
  for (size_t Local : {size_t(1), size_t(64)}) {
    Mem DA = E.input(A), DC = E.input(C), DO = E.output<cl_uint>(8 * N),
        DO64 = E.output<cl_ulong>(8 * N);
    setArgs(K, DA, DC, DO, DO64, Rounds);
    E.run1(K, N, Local);
    std::string What = "hashRounds, local size " + std::to_string(Local);
    expectEqual(E.read<cl_uint>(DO, 8 * N), Want, What + ", uint8");
    expectEqual(E.read<cl_ulong>(DO64, 8 * N), Want64, What + ", ulong8");
  }
}

CLT_TEST(vloadVstoreUnaligned) {
  const size_t N = 777;
  auto In = randomVector<float>(3 * N, -10.f, 10.f, 24);
  auto IIn = randomVector<int>(4 * N + 4, -100, 100, 25);
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "vloadStore");
  Mem DIn = E.input(In), DOut = E.output<float>(3 * N), DII = E.input(IIn),
      DIO = E.output<int>(4 * N);
  setArgs(K, DIn, DOut, DII, DIO);
  E.run1(K, N, 7);
  std::vector<float> WantF(3 * N);
  std::vector<int> WantI(4 * N);
  for (size_t I = 0; I < N; ++I) {
    const float *P3 = &In[3 * I];
    float Sw[3] = {P3[2], P3[0], P3[1]};
    for (int C = 0; C < 3; ++C)
      WantF[3 * I + C] = Sw[C] * 2.0f + 1.0f;
    const int *Q = &IIn[4 * I + 1];
    for (int C = 0; C < 4; ++C)
      WantI[4 * I + C] = Q[3 - C] + C + 1;
  }
  expectNear(E.read<float>(DOut, 3 * N), WantF, 1e-6, 1e-6, "vload3/vstore3");
  expectEqual(E.read<int>(DIO, 4 * N), WantI, "vload4/vstore4");
}

CLT_TEST(vectorConversions) {
  const size_t N = 512;
  auto In = randomVector<float>(4 * N, -300.f, 300.f, 26);
  In[0] = 2.5f;
  In[1] = -2.5f;
  In[2] = 255.5f;
  In[3] = -0.5f;
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "conversions");
  Mem DIn = E.input(In), DI = E.output<int>(4 * N),
      DS = E.output<cl_uchar>(4 * N), DB = E.output<float>(4 * N);
  setArgs(K, DIn, DI, DS, DB);
  E.run1(K, N, 64);
  std::vector<int> WantI(4 * N);
  std::vector<cl_uchar> WantS(4 * N);
  std::vector<float> WantB(4 * N);
  for (size_t I = 0; I < 4 * N; ++I) {
    float V = In[I];
    WantI[I] = int(std::trunc(V));
    // Float to integer conversions round toward zero unless told otherwise.
    WantS[I] = cl_uchar(std::clamp(std::trunc(V), 0.0f, 255.0f));
    WantB[I] = float(int(std::floor(V)));
  }
  expectEqual(E.read<int>(DI, 4 * N), WantI, "convert_int4_rtz");
  expectEqual(E.read<cl_uchar>(DS, 4 * N), WantS, "convert_uchar4_sat");
  expectEqual(E.read<float>(DB, 4 * N), WantB,
              "convert_float4(convert_int4_rtn)");
}

CLT_TEST(float4LibraryBuiltins) {
  const size_t N = 256;
  auto A = randomVector<float>(4 * N, -3e9f, 3e9f, 41);
  auto B = randomVector<float>(4 * N, -100.f, 100.f, 42);
  const float Inf = INFINITY, NaN = NAN;
  const float Edge[][2] = {{NaN, 1.0f},   {2.0f, NaN},    {-0.0f, 0.0f},
                           {0.0f, -0.0f}, {Inf, -Inf},    {-Inf, 3.0f},
                           {2.5f, -2.5f}, {-3.5f, 3.5f},  {0.5f, -0.5f},
                           {1.5f, 2.5f},  {3e9f, -3e9f},  {-2147483648.f, 2147483520.f},
                           {1e-40f, -1e-40f}, {255.5f, 254.5f}, {-7.25f, 7.75f},
                           {16777216.f, -16777217.f}};
  for (size_t I = 0; I < std::size(Edge); ++I) {
    A[I] = Edge[I][0];
    B[I] = Edge[I][1];
  }
  // Two more vectors of halves: rint and the _rte conversion round them to
  // even, floor, ceil and trunc each their way.
  for (size_t I = 16; I < 24; ++I) {
    A[I] = float(int(I) - 20) + 0.5f;
    B[I] = -A[I];
  }
  Program P = E.build(VectorSource);
  Kernel K = E.kernel(P, "libraryFloat4");
  Mem DA = E.input(A), DB = E.input(B), DF = E.output<float>(24 * N),
      DI = E.output<int>(8 * N);
  setArgs(K, DA, DB, DF, DI);
  E.run1(K, N, 64);
  auto F = E.read<float>(DF, 24 * N);
  auto Ints = E.read<int>(DI, 8 * N);
  auto SatInt = [](double V) {
    if (std::isnan(V))
      return 0;
    return int(std::clamp(V, -2147483648.0, 2147483647.0));
  };
  size_t Bad = 0;
  std::string First;
  auto Check = [&](bool Ok, const std::string &What) {
    if (!Ok && Bad++ == 0)
      First = What;
  };
  auto Same = [](float Got, double Want) {
    // -0 and +0 are the same value for fmax and fmin (either may come).
    return (std::isnan(Got) && std::isnan(Want)) || double(Got) == Want;
  };
  for (size_t L = 0; L < 4 * N; ++L) {
    size_t V = L / 4, C = L % 4;
    double X = A[L], Y = B[L];
    auto At = [&](size_t Which) { return F[(6 * V + Which) * 4 + C]; };
    std::string Where = " at " + std::to_string(L) + " (" + std::to_string(X) +
                        ", " + std::to_string(Y) + ")";
    // fmax and fmin return the other operand where one is a NaN.
    Check(Same(At(0), std::fmax(X, Y)), "fmax" + Where);
    Check(Same(At(1), std::fmin(X, Y)), "fmin" + Where);
    Check(Same(At(2), std::fabs(X)) && !std::signbit(At(2)), "fabs" + Where);
    Check(Same(At(3), std::nearbyint(X)), "rint" + Where);
    Check(Same(At(4), double(float(float(std::floor(X)) + float(std::ceil(Y))) +
                             float(std::trunc(float(X - Y))))),
          "floor + ceil + trunc" + Where);
    // hypot: 4 ulp in OpenCL 1.2; exact enough here to tell lanes apart.
    double H = std::hypot(X, Y);
    Check((std::isnan(At(5)) && std::isnan(H)) ||
              (std::isinf(H) ? At(5) == H
                             : std::fabs(At(5) - H) <= 4e-7 * std::fabs(H) + 1e-45),
          "hypot" + Where);
    Check(Ints[(2 * V) * 4 + C] == SatInt(std::trunc(X)), "convert_int4_sat" + Where);
    Check(Ints[(2 * V + 1) * 4 + C] == SatInt(std::nearbyint(Y)),
          "convert_int4_sat_rte" + Where);
  }
  if (Bad)
    fail(__FILE__, __LINE__,
         std::to_string(Bad) + " results differ, first: " + First);
}
