//===- PolybenchJacobi2D.cpp - PolyBench/GPU JACOBI2D ---------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's JACOBI2D (OpenCL), as the suite writes it: per time step a
// five-point stencil from A into B and a copy of B back into A, two 2D
// kernels launched in 32x8 groups over a global size rounded up to whole
// groups. Both guard the interior with `i >= 1 && i < n-1 && j >= 1 &&
// j < n-1` on the global ids, which also cuts the padding: n is not a
// multiple of 32, so the right-most groups diverge in the middle of a tile.
// A kernel pocl-iss was not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void runJacobi2D_kernel1(__global DATA_TYPE *A, __global DATA_TYPE *B,
                                  int n) {
  int i = get_global_id(1);
  int j = get_global_id(0);

  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] +
                           A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                           A[(i - 1) * n + j]);
  }
}

__kernel void runJacobi2D_kernel2(__global DATA_TYPE *A, __global DATA_TYPE *B,
                                  int n) {
  int i = get_global_id(1);
  int j = get_global_id(0);

  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
    A[i * n + j] = B[i * n + j];
  }
}
)CLC";

class PolybenchJacobi2D : public Benchmark {
  int N = 0, Steps = 0;
  std::vector<float> A0, B0, WantA, WantB;
  cl_mem DA = nullptr, DB = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not a multiple of the 32-wide groups: the guard cuts the padding too.
    N = S == Size::Full ? 2000 : 1000;
    Steps = 4;
    A0 = randomVector<float>(size_t(N) * N, 0.f, 1.f, 901);
    B0 = randomVector<float>(size_t(N) * N, 0.f, 1.f, 902);
    WantA = A0;
    WantB = B0;
    for (int T = 0; T < Steps; ++T) {
      for (int I = 1; I < N - 1; ++I)
        for (int J = 1; J < N - 1; ++J) {
          const float *Row = &WantA[size_t(I) * N];
          WantB[size_t(I) * N + J] = 0.2f * (Row[J] + Row[J - 1] + Row[J + 1] +
                                             Row[J + N] + Row[J - N]);
        }
      for (int I = 1; I < N - 1; ++I)
        for (int J = 1; J < N - 1; ++J)
          WantA[size_t(I) * N + J] = WantB[size_t(I) * N + J];
    }
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "runJacobi2D_kernel1");
    K2 = kernel(E, P, "runJacobi2D_kernel2");
    DA = buffer(E, A0.size() * sizeof(float));
    DB = buffer(E, B0.size() * sizeof(float));
    setArgs(K1, DA, DB, N);
    setArgs(K2, DA, DB, N);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DA, A0);
    E.write(DB, B0);
    size_t Local[2] = {32, 8};
    size_t Global[2] = {roundUp(N, Local[0]), roundUp(N, Local[1])};
    for (int T = 0; T < Steps; ++T) {
      E.launch(K1, 2, Global, Local, Events);
      E.launch(K2, 2, Global, Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> GotA(WantA.size()), GotB(WantB.size());
    E.read(DA, GotA);
    E.read(DB, GotB);
    std::string Msg = compareNear(GotA, WantA, 1e-5, 1e-6, "A");
    return Msg.empty() ? compareNear(GotB, WantB, 1e-5, 1e-6, "B") : Msg;
  }

  std::string describe() const override {
    return std::to_string(N) + "x" + std::to_string(N) + ", " +
           std::to_string(Steps) + " steps of 2 kernels";
  }
};

ISS_BENCHMARK(PolybenchJacobi2D, "pb-JACOBI2D",
              "PolyBench/GPU JACOBI2D (unseen)");

} // namespace
} // namespace issbench
