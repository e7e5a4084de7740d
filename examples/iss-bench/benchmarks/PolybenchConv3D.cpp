//===- PolybenchConv3D.cpp - PolyBench/GPU 3DCONV -------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's 3DCONV (OpenCL), as the suite writes it: a 3x3x3 stencil
// (with the suite's repeated terms) over a cube, one 2D launch per interior
// plane i, the plane passed as a kernel argument, the work-items covering
// (k, j) in 32x8 groups over a global size rounded up to whole groups. A
// kernel pocl-iss was not tuned on: one guard tests all three dimensions,
// the launch's ids against both borders and the padding, and i, a uniform
// argument, against its own; the index is int arithmetic on arguments
// (i * (nk * nj) + j * nk + k).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void Convolution3D_kernel(__global DATA_TYPE *A, __global DATA_TYPE *B,
                                   int ni, int nj, int nk, int i) {
  int k = get_global_id(0);
  int j = get_global_id(1);

  DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;
  c11 = +2;  c21 = +5;  c31 = -8;
  c12 = -3;  c22 = +6;  c32 = -9;
  c13 = +4;  c23 = +7;  c33 = +10;

  if ((i < (ni - 1)) && (j < (nj - 1)) && (k < (nk - 1)) && (i > 0) &&
      (j > 0) && (k > 0)) {
    B[i * (nk * nj) + j * nk + k] =
        c11 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c13 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c21 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c23 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c31 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c33 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k - 1)] +
        c12 * A[(i + 0) * (nk * nj) + (j - 1) * nk + (k + 0)] +
        c22 * A[(i + 0) * (nk * nj) + (j + 0) * nk + (k + 0)] +
        c32 * A[(i + 0) * (nk * nj) + (j + 1) * nk + (k + 0)] +
        c11 * A[(i - 1) * (nk * nj) + (j - 1) * nk + (k + 1)] +
        c13 * A[(i + 1) * (nk * nj) + (j - 1) * nk + (k + 1)] +
        c21 * A[(i - 1) * (nk * nj) + (j + 0) * nk + (k + 1)] +
        c23 * A[(i + 1) * (nk * nj) + (j + 0) * nk + (k + 1)] +
        c31 * A[(i - 1) * (nk * nj) + (j + 1) * nk + (k + 1)] +
        c33 * A[(i + 1) * (nk * nj) + (j + 1) * nk + (k + 1)];
  }
}
)CLC";

class PolybenchConv3D : public Benchmark {
  int NI = 0, NJ = 0, NK = 0;
  std::vector<float> Want;
  cl_mem DB = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of the 32x8 groups: the guard also cuts the padding.
    NI = NJ = NK = S == Size::Full ? 250 : 100;
    std::vector<float> A =
        randomVector<float>(size_t(NI) * NJ * NK, 0.f, 1.f, 43);
    Want.assign(A.size(), 0.f);
    const float C11 = 2, C21 = 5, C31 = -8, C12 = -3, C22 = 6, C32 = -9,
                C13 = 4, C23 = 7, C33 = 10;
    auto At = [&](int I, int J, int K) {
      return A[(size_t(I) * NJ + J) * NK + K];
    };
    for (int I = 1; I < NI - 1; ++I)
      for (int J = 1; J < NJ - 1; ++J)
        for (int K = 1; K < NK - 1; ++K)
          Want[(size_t(I) * NJ + J) * NK + K] =
              C11 * At(I - 1, J - 1, K - 1) + C13 * At(I + 1, J - 1, K - 1) +
              C21 * At(I - 1, J - 1, K - 1) + C23 * At(I + 1, J - 1, K - 1) +
              C31 * At(I - 1, J - 1, K - 1) + C33 * At(I + 1, J - 1, K - 1) +
              C12 * At(I, J - 1, K) + C22 * At(I, J, K) +
              C32 * At(I, J + 1, K) + C11 * At(I - 1, J - 1, K + 1) +
              C13 * At(I + 1, J - 1, K + 1) + C21 * At(I - 1, J, K + 1) +
              C23 * At(I + 1, J, K + 1) + C31 * At(I - 1, J + 1, K + 1) +
              C33 * At(I + 1, J + 1, K + 1);
    K = kernel(E, program(E, Source), "Convolution3D_kernel");
    cl_mem DA = buffer(E, A.size() * sizeof(float));
    DB = buffer(E, A.size() * sizeof(float));
    E.write(DA, A);
    setArgs(K, DA, DB, NI, NJ, NK, 0);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DB, std::vector<float>(size_t(NI) * NJ * NK, 0.f));
    size_t Local[2] = {32, 8};
    size_t Global[2] = {roundUp(NK, Local[0]), roundUp(NJ, Local[1])};
    // The suite's host loop: one launch per interior plane.
    for (int I = 1; I < NI - 1; ++I) {
      setArg(K, 5, I);
      E.launch(K, 2, Global, Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(size_t(NI) * NJ * NK);
    E.read(DB, Got);
    // Terms up to 10 in magnitude, summed in any order (and contracted).
    return compareNear(Got, Want, 1e-5, 1e-4, "B");
  }

  std::string describe() const override {
    return std::to_string(NI) + "x" + std::to_string(NJ) + "x" +
           std::to_string(NK) + " floats, " + std::to_string(NI - 2) +
           " launches";
  }
};

ISS_BENCHMARK(PolybenchConv3D, "pb-3DCONV",
              "PolyBench/GPU 3DCONV (not in the paper)");

} // namespace
} // namespace issbench
