//===- LUDecomposition.cpp - LU decomposition with global offsets ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// LU decomposition (Doolittle, no pivoting) in the manner of the AMD APP
// SDK's LUDecomposition (section 6.2): per step d the launches cover only the
// trailing submatrix by passing a global work offset, so get_global_id(d) =
// i_d + GroupOffset_d starts at d+1 (the paper's Table 2 models exactly
// this), and a final LUCombine kernel merges L and U. The SDK's decompose
// kernel shares a ratio through __local memory behind a barrier; here the
// ratio is a separate launch, which keeps the benchmark barrier-free.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// Offset launch over rows d+1..: the multipliers of column d.
__kernel void luRatio(__global const float *A, __global float *L, int N,
                      int D) {
  int Y = get_global_id(0);
  if (Y < N)
    L[Y * N + D] = A[Y * N + D] / A[D * N + D];
}

// Offset launch over the trailing (N-d-1)^2 block.
__kernel void luDecompose(__global float *A, __global const float *L, int N,
                          int D) {
  int X = get_global_id(0);
  int Y = get_global_id(1);
  if (X < N && Y < N)
    A[Y * N + X] -= L[Y * N + D] * A[D * N + X];
}

__kernel void luCombine(__global const float *L, __global float *A) {
  int I = get_global_id(1);
  int J = get_global_id(0);
  int Dim = get_global_size(0);
  if (I > J)
    A[I * Dim + J] = L[I * Dim + J];
}
)CLC";

class LUDecomposition : public Benchmark {
  int N = 0;
  std::vector<float> A0;
  std::vector<double> Want;
  cl_mem DA = nullptr, DL = nullptr;
  cl_kernel Ratio = nullptr, Decompose = nullptr, Combine = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 512 : 256;
    A0 = randomVector<float>(size_t(N) * N, -1.f, 1.f, 23);
    for (int I = 0; I < N; ++I)
      A0[size_t(I) * N + I] += float(N); // diagonally dominant: no pivoting
    Want.assign(A0.begin(), A0.end());
    for (int D = 0; D < N - 1; ++D)
      for (int Y = D + 1; Y < N; ++Y) {
        double R = Want[size_t(Y) * N + D] / Want[size_t(D) * N + D];
        for (int X = D + 1; X < N; ++X)
          Want[size_t(Y) * N + X] -= R * Want[size_t(D) * N + X];
        Want[size_t(Y) * N + D] = R; // L below the diagonal, as combined
      }
    cl_program P = program(E, Source);
    Ratio = kernel(E, P, "luRatio");
    Decompose = kernel(E, P, "luDecompose");
    Combine = kernel(E, P, "luCombine");
    DA = buffer(E, A0.size() * sizeof(float));
    DL = buffer(E, A0.size() * sizeof(float));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DA, A0);
    E.write(DL, std::vector<float>(A0.size(), 0.f));
    for (int D = 0; D < N - 1; ++D) {
      size_t Rest = size_t(N - D - 1);
      size_t Off1 = size_t(D + 1), L1 = 16, G1 = roundUp(Rest, L1);
      setArgs(Ratio, DA, DL, N, D);
      E.launch(Ratio, 1, &G1, &L1, Events, &Off1);
      size_t Off2[2] = {Off1, Off1}, L2[2] = {16, 4};
      size_t G2[2] = {roundUp(Rest, L2[0]), roundUp(Rest, L2[1])};
      setArgs(Decompose, DA, DL, N, D);
      E.launch(Decompose, 2, G2, L2, Events, Off2);
    }
    size_t G[2] = {size_t(N), size_t(N)}, L[2] = {16, 16};
    setArgs(Combine, DL, DA);
    E.launch(Combine, 2, G, L, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(A0.size());
    E.read(DA, Got);
    return compareNear(Got, Want, 1e-4, 1e-4, "LU");
  }

  std::string describe() const override {
    return std::to_string(N) + "x" + std::to_string(N) + ", " +
           std::to_string(2 * (N - 1) + 1) + " launches";
  }
};

ISS_BENCHMARK(LUDecomposition, "lud", "AMD APP SDK LUDecomposition-like");

} // namespace
} // namespace issbench
