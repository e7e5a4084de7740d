//===- DivisionKernels.cpp - Integer division by zero and MIN / -1 --------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// An integer division by zero, or of the minimum value by -1, "does not
// cause an exception but will result in an unspecified value" (OpenCL C
// 1.2, section 6.3.b); the conformance suite's integer tests divide by zero
// for every type from char to ulong. x86 traps on both (SIGFPE): without
// iss-safe-division these kernels kill the test process. Here every type,
// scalar and vector, divides dividends from the edges of its range by
// divisors that include 0 and -1, with the divisor per work-item (from a
// buffer) and for the whole launch (a kernel argument): the launch must
// finish, and every lane whose quotient and remainder are defined must be
// right, next to lanes that are not.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <limits>

using namespace clt;

static const char *DivisionSource = R"CLC(
#define DIVIDE(T)                                                              \
  __kernel void div_##T(__global const T *A, __global const T *B,              \
                        __global T *Q, __global T *R) {                        \
    size_t I = get_global_id(0);                                               \
    Q[I] = A[I] / B[I];                                                        \
    R[I] = A[I] % B[I];                                                        \
  }                                                                            \
  __kernel void div_##T##4(__global const T##4 *A, __global const T##4 *B,     \
                           __global T##4 *Q, __global T##4 *R) {               \
    size_t I = get_global_id(0);                                               \
    Q[I] = A[I] / B[I];                                                        \
    R[I] = A[I] % B[I];                                                        \
  }                                                                            \
  __kernel void div_##T##16(__global const T##16 *A, __global const T##16 *B,  \
                            __global T##16 *Q, __global T##16 *R) {            \
    size_t I = get_global_id(0);                                               \
    Q[I] = A[I] / B[I];                                                        \
    R[I] = A[I] % B[I];                                                        \
  }                                                                            \
  __kernel void divArg_##T(__global const T *A, T D, __global T *Q,            \
                           __global T *R) {                                    \
    size_t I = get_global_id(0);                                               \
    Q[I] = A[I] / D;                                                           \
    R[I] = A[I] % D;                                                           \
  }
DIVIDE(char)
DIVIDE(uchar)
DIVIDE(short)
DIVIDE(ushort)
DIVIDE(int)
DIVIDE(uint)
DIVIDE(long)
DIVIDE(ulong)

// Divisors that reach 0 and -1 in a loop all work-items run together:
// horizontal parallelization puts the work-item loop inside it, where the
// divisor is the same for all lanes.
__kernel void divLoop(__global const int *A, __global int *Q, __global int *R,
                      int N) {
  size_t I = get_global_id(0);
  for (int K = -N; K <= N; ++K) {
    Q[I * (2 * N + 1) + K + N] = A[I] / K;
    R[I * (2 * N + 1) + K + N] = A[I] % K;
  }
}
)CLC";

/// Whether \p A / \p B and \p A % \p B are defined: B is not 0, and for a
/// signed type A / B does not overflow.
template <typename T> static bool defined(T A, T B) {
  if (B == 0)
    return false;
  if constexpr (std::is_signed_v<T>)
    return !(A == std::numeric_limits<T>::min() && B == T(-1));
  return true;
}

/// Dividends and divisors: the edges of the range, 0, 1 and -1, and a few
/// random values. Every dividend meets every divisor, twice.
template <typename T>
static void makeOperands(size_t Count, std::vector<T> &A, std::vector<T> &B) {
  using L = std::numeric_limits<T>;
  std::vector<T> As = {L::min(), T(L::min() + 1), T(-1),          0, 1,
                       100,      L::max(),        T(L::max() - 1)};
  std::vector<T> Bs = {0, T(-1), 1, 2, T(-2), 3, L::max(), L::min()};
  std::mt19937_64 Gen(11); // the whole range of every type, ulong's too
  for (int I = 0; I < 4; ++I) {
    As.push_back(T(Gen()));
    Bs.push_back(T(Gen()));
  }
  A.resize(Count);
  B.resize(Count);
  for (size_t I = 0; I < Count; ++I) {
    A[I] = As[I % As.size()];
    // Lanes next to each other get different divisors: a vector of the
    // work-item loop mixes defined and undefined lanes.
    B[I] = Bs[(I + I / As.size()) % Bs.size()];
  }
}

/// Checks the defined lanes; returns how many there were.
template <typename T>
static size_t
expectDefinedLanes(const std::vector<T> &A, const std::vector<T> &B,
                   const std::vector<T> &Q, const std::vector<T> &R,
                   const std::string &What) {
  size_t Bad = 0, Checked = 0;
  std::string Msg;
  for (size_t I = 0; I < A.size(); ++I) {
    if (!defined(A[I], B[I]))
      continue;
    ++Checked;
    // char and short are promoted to int, as in OpenCL C.
    T WantQ = T(A[I] / B[I]), WantR = T(A[I] % B[I]);
    if (Q[I] == WantQ && R[I] == WantR)
      continue;
    if (++Bad <= 5)
      Msg += "\n  [" + std::to_string(I) + "] " + std::to_string(A[I]) + " / " +
             std::to_string(B[I]) + ": got " + std::to_string(Q[I]) + " rem " +
             std::to_string(R[I]) + ", want " + std::to_string(WantQ) +
             " rem " + std::to_string(WantR);
  }
  if (Bad)
    fail(What + ": " + std::to_string(Bad) + " of " + std::to_string(Checked) +
         " defined lanes wrong" + Msg);
  return Checked;
}

/// div_<T>, div_<T>4 and div_<T>16 over the same operands, then divArg_<T>
/// with a divisor of 0, -1 (or the maximum, unsigned) and 3 for the whole
/// launch.
template <typename T>
static void checkType(Env &E, const Program &P, const std::string &Type) {
  const size_t Count = 2 * 12 * 12 * 16; // a multiple of 16 lanes
  std::vector<T> A, B;
  makeOperands(Count, A, B);
  Mem DA = E.input(A), DB = E.input(B);
  Mem DQ = E.output<T>(Count), DR = E.output<T>(Count);
  for (unsigned Width : {1u, 4u, 16u}) {
    std::string Name =
        "div_" + Type + (Width == 1 ? "" : std::to_string(Width));
    Kernel K = E.kernel(P, Name.c_str());
    setArgs(K, DA, DB, DQ, DR);
    // 16 work-items per group: whole vectors of the work-item loop, with
    // undefined lanes in each.
    E.run1(K, Count / Width, 16);
    size_t Checked = expectDefinedLanes(A, B, E.read<T>(DQ, Count),
                                        E.read<T>(DR, Count), Name);
    CLT_EXPECT_MSG(Checked > Count / 2 && Checked < Count,
                   Name +
                       ": the operands should mix defined and undefined lanes");
  }
  std::string Name = "divArg_" + Type;
  Kernel K = E.kernel(P, Name.c_str());
  for (T D : {T(0), T(-1), T(3)}) {
    setArgs(K, DA, D, DQ, DR);
    E.run1(K, Count, 16);
    expectDefinedLanes(A, std::vector<T>(Count, D), E.read<T>(DQ, Count),
                       E.read<T>(DR, Count), Name + " by " + std::to_string(D));
  }
}

CLT_TEST(divisionByZeroAndOverflowSigned) {
  Program P = E.build(DivisionSource);
  checkType<cl_char>(E, P, "char");
  checkType<cl_short>(E, P, "short");
  checkType<cl_int>(E, P, "int");
  checkType<cl_long>(E, P, "long");
}

CLT_TEST(divisionByZeroUnsigned) {
  Program P = E.build(DivisionSource);
  checkType<cl_uchar>(E, P, "uchar");
  checkType<cl_ushort>(E, P, "ushort");
  checkType<cl_uint>(E, P, "uint");
  checkType<cl_ulong>(E, P, "ulong");
}

CLT_TEST(divisionByZeroInLoop) {
  const int N = 3, Count = 200, Terms = 2 * N + 1;
  Program P = E.build(DivisionSource);
  Kernel K = E.kernel(P, "divLoop");
  auto A = randomVector<cl_int>(Count, -100000, 100000, 13);
  A[0] = std::numeric_limits<cl_int>::min();
  A[1] = std::numeric_limits<cl_int>::max();
  Mem DA = E.input(A);
  Mem DQ = E.output<cl_int>(Count * Terms),
      DR = E.output<cl_int>(Count * Terms);
  setArgs(K, DA, DQ, DR, N);
  E.run1(K, Count, 8);
  std::vector<cl_int> As(Count * Terms), Bs(Count * Terms);
  for (int I = 0; I < Count; ++I)
    for (int D = -N; D <= N; ++D) {
      As[I * Terms + D + N] = A[I];
      Bs[I * Terms + D + N] = D;
    }
  expectDefinedLanes(As, Bs, E.read<cl_int>(DQ, Count * Terms),
                     E.read<cl_int>(DR, Count * Terms), "divLoop");
}
