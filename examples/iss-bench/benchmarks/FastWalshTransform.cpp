//===- FastWalshTransform.cpp - AMD APP SDK Fast Walsh Transform ----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The in-place Walsh-Hadamard transform of a float vector, after the AMD APP
// SDK sample the paper evaluates (section 6.2): log2(N) launches of N/2
// work-items, one butterfly step each, no barriers (the launches are the
// synchronisation). The pair a work-item combines is found by a division
// and a remainder by the step, so the accesses are consecutive only within
// runs of Step work-items: the index arithmetic the splitting has to see
// through.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cfloat>
#include <stdexcept>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// One butterfly step: work-item I combines Data[Lo] and Data[Lo + Step],
// where Lo runs over the first halves of the blocks of 2 * Step elements.
__kernel void fwtStep(__global float *Data, uint Step) {
  uint I = get_global_id(0);
  uint Lo = (I / Step) * (2 * Step) + I % Step;
  uint Hi = Lo + Step;
  float A = Data[Lo];
  float B = Data[Hi];
  Data[Lo] = A + B;
  Data[Hi] = A - B;
}
)CLC";

class FastWalshTransform : public Benchmark {
  cl_uint Log2N = 0;
  size_t N = 0;
  std::vector<float> Input, Want;
  cl_mem DData = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Log2N = S == Size::Full ? 22 : 18;
    N = size_t(1) << Log2N;
    Input = randomVector<float>(N, -1.f, 1.f, 21);
    // Every output is a chain of float additions and subtractions whose
    // order the algorithm fixes; each is correctly rounded and nothing can
    // be contracted or reassociated without fast-math, so any conforming
    // platform gives these bits exactly. An exact check also catches a
    // dropped or duplicated input term, which a tolerance large enough for
    // a double reference (about log2(N) * FLT_EPSILON * sum |x|) would not.
    Want = Input;
    for (size_t Step = 1; Step < N; Step *= 2)
      for (size_t Lo = 0; Lo < N; Lo += 2 * Step)
        for (size_t I = Lo; I < Lo + Step; ++I) {
          float A = Want[I], B = Want[I + Step];
          Want[I] = A + B;
          Want[I + Step] = A - B;
        }
    // The reference itself against the definition, sum_i (-1)^|i & k| x_i,
    // at a few k, within the float rounding bound above.
    double SumAbs = 0;
    for (float X : Input)
      SumAbs += std::fabs(X);
    for (size_t Kk : {size_t(0), size_t(1), N / 2 + 3, N - 1}) {
      double Sum = 0;
      for (size_t I = 0; I < N; ++I)
        Sum += (__builtin_popcountll(I & Kk) & 1) ? -Input[I] : Input[I];
      if (std::fabs(Sum - Want[Kk]) > Log2N * (FLT_EPSILON / 2) * SumAbs)
        throw std::logic_error("FastWalshTransform: host reference wrong at " +
                               std::to_string(Kk));
    }
    K = kernel(E, program(E, Source), "fwtStep");
    DData = buffer(E, N * sizeof(float));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DData, Input);
    size_t Global = N / 2, Local = 256;
    for (cl_uint Step = 1; Step < N; Step *= 2) {
      setArgs(K, DData, Step);
      E.launch(K, 1, &Global, &Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(N);
    E.read(DData, Got);
    return compareExact(Got, Want, "transform");
  }

  std::string describe() const override {
    return std::to_string(N) + " floats, " + std::to_string(Log2N) + " steps";
  }
};

ISS_BENCHMARK(FastWalshTransform, "FastWalshTransform", "AMD APP SDK");

} // namespace
} // namespace issbench
