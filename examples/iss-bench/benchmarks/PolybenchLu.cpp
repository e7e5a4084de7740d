//===- PolybenchLu.cpp - PolyBench/GPU LU ---------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's LU (OpenCL), as the suite writes it: for each k the host
// launches lu_kernel1, 1D in 256-work-item groups, which divides row k right
// of the diagonal by the pivot behind the guard `j > k && j < n`, then
// lu_kernel2, 2D in 32x8 groups, which updates the trailing submatrix behind
// `i > k && j > k && i < n && j < n`. Unlike lud, every launch covers the
// whole (padded) matrix: the guards, whose bounds move with the argument k,
// cut the work down, so most work groups of the late launches do nothing.
// n is not a multiple of the groups. Input diagonally dominant (no
// pivoting, as the suite does none).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void lu_kernel1(__global DATA_TYPE *A, int k, int n) {
  int j = get_global_id(0);

  if ((j > k) && (j < n)) {
    A[k * n + j] = A[k * n + j] / A[k * n + k];
  }
}

__kernel void lu_kernel2(__global DATA_TYPE *A, int k, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i > k) && (j > k) && (i < n) && (j < n)) {
    A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
  }
}
)CLC";

class PolybenchLu : public Benchmark {
  int N = 0;
  std::vector<float> A0;
  std::vector<double> Want;
  cl_mem DA = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 500 : 250;
    A0 = randomVector<float>(size_t(N) * N, -1.f, 1.f, 91);
    for (int I = 0; I < N; ++I)
      A0[size_t(I) * N + I] += float(N);
    // The suite's CPU version: U above the diagonal divided by the pivot
    // row's diagonal, the multipliers left in place below it.
    Want.assign(A0.begin(), A0.end());
    for (int K = 0; K < N; ++K) {
      for (int J = K + 1; J < N; ++J)
        Want[size_t(K) * N + J] /= Want[size_t(K) * N + K];
      for (int I = K + 1; I < N; ++I)
        for (int J = K + 1; J < N; ++J)
          Want[size_t(I) * N + J] -=
              Want[size_t(I) * N + K] * Want[size_t(K) * N + J];
    }
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "lu_kernel1");
    K2 = kernel(E, P, "lu_kernel2");
    DA = buffer(E, A0.size() * sizeof(float));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DA, A0);
    size_t L1 = 256, G1 = roundUp(N, L1);
    size_t L2[2] = {32, 8}, G2[2] = {roundUp(N, L2[0]), roundUp(N, L2[1])};
    for (int K = 0; K < N; ++K) {
      setArgs(K1, DA, K, N);
      E.launch(K1, 1, &G1, &L1, Events);
      setArgs(K2, DA, K, N);
      E.launch(K2, 2, G2, L2, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(A0.size());
    E.read(DA, Got);
    return compareNear(Got, Want, 1e-4, 1e-4, "LU");
  }

  std::string describe() const override {
    return std::to_string(N) + "x" + std::to_string(N) + ", " +
           std::to_string(2 * N) + " launches";
  }
};

ISS_BENCHMARK(PolybenchLu, "pb-LU", "PolyBench/GPU LU (unseen)");

} // namespace
} // namespace issbench
