//===- IntegerDivision.cpp - Division-heavy integer kernels ---------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The cost of iss-safe-division, the guard that keeps integer divisions by
// zero (or of the minimum value by -1) from trapping: run once as is and
// once with POCL_ISS_SAFE_DIVISION=0 and compare the medians
// (doc/design-notes.md, "The integer division guard", has the numbers). No
// divisor here is 0 or -1, so both runs verify.
//
// intdiv, intdiv-long: divisors that differ per work-item, so the guard (a
// compare and a select per division, and for a signed quotient a negation
// and a select) runs next to every division: int (or long) quotients and
// remainders in a loop all work-items run together (horizontal
// parallelization vectorizes the work-item loop inside it; x86 has no
// vector division, so the divisions themselves stay scalar). 32-bit
// divisions are the cheaper ones, so intdiv is the guard's worst case.
//
// intdiv-uniform: a divisor for the whole launch (a kernel argument), as in
// index arithmetic (row = i / width, FastWalshTransform's pairs): digit
// sums in a base given as an argument. The guard depends on the divisor
// only and is hoisted out of the work-item loop.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cstdint>
#include <limits>
#include <type_traits>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// Quotients and remainders by divisors that differ per work-item; the
// dividend moves on by a linear congruential step each round.
#define INTDIV(T, UT, MUL, ADD)                                                \
  __kernel void intdiv_##T(__global const T *A, __global const T *B,          \
                           __global UT *Out, int Rounds) {                    \
    int I = get_global_id(0);                                                 \
    T X = A[I], D = B[I];                                                     \
    UT Acc = 0;                                                               \
    for (int R = 0; R < Rounds; ++R) {                                        \
      Acc += (UT)(X / D - X % (D + R));                                       \
      Acc ^= (UT)(X / (D - R));                                               \
      X = (T)((UT)X * MUL + ADD);                                             \
    }                                                                         \
    Out[I] = Acc;                                                             \
  }
INTDIV(int, uint, 1103515245u, 12345u)
INTDIV(long, ulong, 6364136223846793005ul, 1442695040888963407ul)

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

/// intdiv_int (T = int32_t) or intdiv_long (int64_t).
template <typename T> class IntDiv : public Benchmark {
  using UT = std::make_unsigned_t<T>;
  static constexpr bool Long = sizeof(T) == 8;
  int N = 0;
  std::vector<UT> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 1 << 20 : 1 << 16;
    auto A = randomVector<T>(N, std::numeric_limits<T>::min(),
                             std::numeric_limits<T>::max(), 21);
    // The divisors D - R and D + R stay within [2, 1016]: never 0 or -1,
    // so the unguarded code runs too.
    auto B = randomVector<T>(N, Rounds + 2, 1000, 22);
    const UT Mul = Long ? UT(6364136223846793005ull) : UT(1103515245u);
    const UT Add = Long ? UT(1442695040888963407ull) : UT(12345u);
    Want.resize(N);
    for (int I = 0; I < N; ++I) {
      T X = A[I], D = B[I];
      UT Acc = 0;
      for (int R = 0; R < Rounds; ++R) {
        Acc += UT(X / D - X % (D + R));
        Acc ^= UT(X / (D - R));
        X = T(UT(UT(X) * Mul + Add));
      }
      Want[I] = Acc;
    }
    K = kernel(E, program(E, Source), Long ? "intdiv_long" : "intdiv_int");
    cl_mem DA = buffer(E, N * sizeof(T)), DB = buffer(E, N * sizeof(T));
    DOut = buffer(E, N * sizeof(UT));
    E.write(DA, A);
    E.write(DB, B);
    setArgs(K, DA, DB, DOut, Rounds);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<UT>(N, 0));
    size_t Global = N;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<UT> Got(N);
    E.read(DOut, Got);
    return compareExact(Got, Want, "out");
  }

  std::string describe() const override {
    return std::to_string(N) + (Long ? " longs x " : " ints x ") +
           std::to_string(Rounds) + " rounds";
  }
};

using IntDivInt = IntDiv<int32_t>;
using IntDivLong = IntDiv<int64_t>;

class IntDivUniform : public Benchmark {
  int N = 0;
  std::vector<unsigned> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
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

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<unsigned>(N, 0));
    size_t Global = N;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<unsigned> Got(N);
    E.read(DOut, Got);
    return compareExact(Got, Want, "out");
  }

  std::string describe() const override {
    return std::to_string(N) + " uints x " + std::to_string(Digits) + " digits";
  }
};

ISS_BENCHMARK(IntDivInt, "intdiv",
              "division-heavy, int, divisor per work-item");
ISS_BENCHMARK(IntDivLong, "intdiv-long",
              "division-heavy, long, divisor per work-item");
ISS_BENCHMARK(IntDivUniform, "intdiv-uniform",
              "division-heavy, divisor per launch");

} // namespace
} // namespace issbench
