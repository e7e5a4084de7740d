//===- IntegerDivision.cpp - Division-heavy integer kernels ---------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The cost of iss-safe-division, the guard that keeps integer divisions by
// zero (or of the minimum value by -1) from trapping: run once as is and
// once with POCL_ISS_SAFE_DIVISION=0 and compare the medians (doc/results.md
// has the numbers). No divisor here is 0 or -1, so both runs verify.
//
// intdiv: divisors that differ per work-item, so the guard (a compare and
// a select per division, and for a signed quotient a negation and a select)
// runs next to every division: int and long quotients and remainders in a
// loop all work-items run together (horizontal parallelization vectorizes
// the work-item loop inside it; x86 has no vector division, so the
// divisions themselves stay scalar).
//
// intdiv-uniform: a divisor for the whole launch (a kernel argument), as in
// index arithmetic (row = i / width, FastWalshTransform's pairs): digit
// sums in a base given as an argument. The guard depends on the divisor
// only and is hoisted out of the work-item loop.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cstdint>

using namespace clutil;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void intdiv(__global const int *A, __global const int *B,
                     __global const long *C, __global uint *Out, int Rounds) {
  int I = get_global_id(0);
  int X = A[I], D = B[I];
  long Y = C[I];
  uint Acc = 0;
  for (int R = 0; R < Rounds; ++R) {
    Acc += (uint)(X / D - X % (D + R));
    Acc ^= (uint)(Y / (D - R) + Y % (long)(D + 2 * R));
    X = (int)((uint)X * 1103515245u + 12345u);
  }
  Out[I] = Acc;
}

__kernel void intdiv_uniform(__global const uint *In, __global uint *Out,
                             uint Base, int SignedBase, int Digits) {
  int I = get_global_id(0);
  uint X = In[I];
  int S = (int)X;
  uint Sum = 0;
  for (int K = 0; K < Digits; ++K) {
    Sum += X % Base;
    X /= Base;
    Sum += (uint)(S % SignedBase);
    S /= SignedBase;
  }
  Out[I] = Sum + X + (uint)S;
}
)CLC";

const int Rounds = 16, Digits = 12;
const unsigned Base = 7;
const int SignedBase = -5;

const size_t Local = 256;

class IntDiv : public Benchmark {
  int N = 0;
  std::vector<uint32_t> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const ClEnv &E, Size S) override {
    N = S == Size::Full ? 1 << 20 : 1 << 16;
    auto A = randomVector<int>(N, INT32_MIN, INT32_MAX, 21);
    // Divisors D - R, D + R and D + 2R stay within [2, 2000]: never 0 or
    // -1, so the unguarded code runs too.
    auto B = randomVector<int>(N, Rounds + 2, 1000, 22);
    auto C = randomVector<long long>(N, INT64_MIN, INT64_MAX, 23);
    Want.resize(N);
    for (int I = 0; I < N; ++I) {
      int32_t X = A[I], D = B[I];
      int64_t Y = C[I];
      uint32_t Acc = 0;
      for (int R = 0; R < Rounds; ++R) {
        Acc += uint32_t(X / D - X % (D + R));
        Acc ^= uint32_t(Y / (D - R) + Y % int64_t(D + 2 * R));
        X = int32_t(uint32_t(X) * 1103515245u + 12345u);
      }
      Want[I] = Acc;
    }
    K = kernel(E, program(E, Source), "intdiv");
    cl_mem DA = buffer(E, N * sizeof(int)), DB = buffer(E, N * sizeof(int));
    cl_mem DC = buffer(E, N * sizeof(cl_long));
    DOut = buffer(E, N * sizeof(uint32_t));
    E.write(DA, A);
    E.write(DB, B);
    E.write(DC, C);
    setArgs(K, DA, DB, DC, DOut, Rounds);
  }

  void run(const ClEnv &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<uint32_t>(N, 0));
    size_t Global = N;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const ClEnv &E) override {
    std::vector<uint32_t> Got(N);
    E.read(DOut, Got);
    return compareExact(Got, Want, "out");
  }

  std::string describe() const override {
    return std::to_string(N) + " ints x " + std::to_string(Rounds) + " rounds";
  }
};

class IntDivUniform : public Benchmark {
  int N = 0;
  std::vector<unsigned> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const ClEnv &E, Size S) override {
    N = S == Size::Full ? 1 << 22 : 1 << 18;
    auto In = randomVector<unsigned>(N, 0, UINT32_MAX, 24);
    Want.resize(N);
    for (int I = 0; I < N; ++I) {
      uint32_t X = In[I], Sum = 0;
      int32_t Sg = int32_t(X);
      for (int D = 0; D < Digits; ++D) {
        Sum += X % Base;
        X /= Base;
        Sum += uint32_t(Sg % SignedBase);
        Sg /= SignedBase;
      }
      Want[I] = Sum + X + uint32_t(Sg);
    }
    K = kernel(E, program(E, Source), "intdiv_uniform");
    cl_mem DIn = buffer(E, N * sizeof(unsigned));
    DOut = buffer(E, N * sizeof(unsigned));
    E.write(DIn, In);
    setArgs(K, DIn, DOut, Base, SignedBase, Digits);
  }

  void run(const ClEnv &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<unsigned>(N, 0));
    size_t Global = N;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const ClEnv &E) override {
    std::vector<unsigned> Got(N);
    E.read(DOut, Got);
    return compareExact(Got, Want, "out");
  }

  std::string describe() const override {
    return std::to_string(N) + " uints x " + std::to_string(Digits) + " digits";
  }
};

ISS_BENCHMARK(IntDiv, "intdiv", "division-heavy, divisor per work-item");
ISS_BENCHMARK(IntDivUniform, "intdiv-uniform",
              "division-heavy, divisor per launch");

} // namespace
} // namespace issbench
