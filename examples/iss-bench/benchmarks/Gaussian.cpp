//===- Gaussian.cpp - Rodinia gaussian elimination (Fan1, Fan2) -----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's gaussian elimination (section 6.2): per pivot t, Fan1 computes
// the multipliers of column t (1D) and Fan2 updates the trailing matrix (2D).
// In Fan2 dimension 0 walks rows (stride Size) and dimension 1 walks columns
// (consecutive): the benchmark where scoring must pick the second dimension
// to vectorize (sections 6.4 and Table 3), and whose shrinking, guarded
// iteration space produces many codelets.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void Fan1(__global float *m_dev, __global float *a_dev,
                   __global float *b_dev, const int size, const int t) {
  int globalId = get_global_id(0);
  if (globalId < size - 1 - t) {
    *(m_dev + size * (globalId + t + 1) + t) =
        *(a_dev + size * (globalId + t + 1) + t) / *(a_dev + size * t + t);
  }
}

__kernel void Fan2(__global float *m_dev, __global float *a_dev,
                   __global float *b_dev, const int size, const int t) {
  int globalIdx = get_global_id(0);
  int globalIdy = get_global_id(1);
  if (globalIdx < size - 1 - t && globalIdy < size - t) {
    a_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] -=
        m_dev[size * (globalIdx + 1 + t) + t] * a_dev[size * t + (globalIdy + t)];
    if (globalIdy == 0) {
      b_dev[globalIdx + 1 + t] -=
          m_dev[size * (globalIdx + 1 + t) + (globalIdy + t)] * b_dev[t];
    }
  }
}
)CLC";

class Gaussian : public Benchmark {
  int N = 0;
  std::vector<float> A0, B0;
  std::vector<double> WantA, WantB;
  cl_mem DM = nullptr, DA = nullptr, DB = nullptr;
  cl_kernel Fan1 = nullptr, Fan2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 512 : 256;
    A0 = randomVector<float>(size_t(N) * N, -1.f, 1.f, 21);
    B0 = randomVector<float>(N, -1.f, 1.f, 22);
    // Diagonally dominant: no pivoting needed, errors stay small.
    for (int I = 0; I < N; ++I)
      A0[size_t(I) * N + I] += float(N);
    WantA.assign(A0.begin(), A0.end());
    WantB.assign(B0.begin(), B0.end());
    std::vector<double> M(size_t(N) * N, 0.0);
    for (int T = 0; T < N - 1; ++T) {
      for (int R = T + 1; R < N; ++R)
        M[size_t(R) * N + T] =
            WantA[size_t(R) * N + T] / WantA[size_t(T) * N + T];
      for (int R = T + 1; R < N; ++R) {
        for (int C = T; C < N; ++C)
          WantA[size_t(R) * N + C] -=
              M[size_t(R) * N + T] * WantA[size_t(T) * N + C];
        WantB[R] -= M[size_t(R) * N + T] * WantB[T];
      }
    }
    cl_program P = program(E, Source);
    Fan1 = kernel(E, P, "Fan1");
    Fan2 = kernel(E, P, "Fan2");
    DM = buffer(E, A0.size() * sizeof(float));
    DA = buffer(E, A0.size() * sizeof(float));
    DB = buffer(E, B0.size() * sizeof(float));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DA, A0);
    E.write(DB, B0);
    E.write(DM, std::vector<float>(A0.size(), 0.f));
    size_t L1 = 64, G1 = roundUp(N, L1);
    size_t L2[2] = {16, 16}, G2[2] = {roundUp(N, 16), roundUp(N, 16)};
    for (int T = 0; T < N - 1; ++T) {
      setArgs(Fan1, DM, DA, DB, N, T);
      E.launch(Fan1, 1, &G1, &L1, Events);
      setArgs(Fan2, DM, DA, DB, N, T);
      E.launch(Fan2, 2, G2, L2, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> A(A0.size()), B(B0.size());
    E.read(DA, A);
    E.read(DB, B);
    // Only the upper triangle is defined (the strict lower one holds
    // eliminated values ~0 that round differently).
    std::vector<float> GotU;
    std::vector<double> WantU;
    for (int R = 0; R < N; ++R)
      for (int C = R; C < N; ++C) {
        GotU.push_back(A[size_t(R) * N + C]);
        WantU.push_back(WantA[size_t(R) * N + C]);
      }
    std::string Msg = compareNear(GotU, WantU, 1e-4, 1e-4, "upper triangle");
    return Msg.empty() ? compareNear(B, WantB, 1e-4, 1e-4, "b") : Msg;
  }

  std::string describe() const override {
    return std::to_string(N) + "x" + std::to_string(N) + ", " +
           std::to_string(2 * (N - 1)) + " launches";
  }
};

ISS_BENCHMARK(Gaussian, "gaussian", "Rodinia gaussian Fan1/Fan2");

} // namespace
} // namespace issbench
