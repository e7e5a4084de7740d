//===- PolybenchConv2D.cpp - PolyBench/GPU 2DCONV -------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's 2DCONV (OpenCL), as the suite writes it: a 3x3
// convolution whose work-items skip the one-element border with a test on
// the global ids, launched in 32x8 groups over a global size rounded up to
// whole groups. A kernel pocl-iss was not tuned on: besides the border the
// test guards the padding, so the right- and bottom-most groups diverge in
// the middle of a tile when the size is not a multiple of 32, and the index
// is int arithmetic on an argument (i * nj + j).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void Convolution2D_kernel(__global DATA_TYPE *A, __global DATA_TYPE *B,
                                   int ni, int nj) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  DATA_TYPE c11, c12, c13, c21, c22, c23, c31, c32, c33;
  c11 = +0.2;  c21 = +0.5;  c31 = -0.8;
  c12 = -0.3;  c22 = +0.6;  c32 = -0.9;
  c13 = +0.4;  c23 = +0.7;  c33 = +0.10;

  if ((i < (ni - 1)) && (j < (nj - 1)) && (i > 0) && (j > 0)) {
    B[i * nj + j] =
        c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
        c31 * A[(i - 1) * nj + (j + 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
        c22 * A[(i + 0) * nj + (j + 0)] + c32 * A[(i + 0) * nj + (j + 1)] +
        c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + (j + 0)] +
        c33 * A[(i + 1) * nj + (j + 1)];
  }
}
)CLC";

class PolybenchConv2D : public Benchmark {
  int NI = 0, NJ = 0;
  std::vector<float> Want;
  cl_mem DB = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of the 32x8 groups: the guard also cuts the padding.
    NI = S == Size::Full ? 3000 : 1000;
    NJ = S == Size::Full ? 3000 : 1000;
    std::vector<float> A = randomVector<float>(size_t(NI) * NJ, 0.f, 1.f, 41);
    Want.assign(A.size(), 0.f);
    const float C11 = 0.2f, C21 = 0.5f, C31 = -0.8f, C12 = -0.3f, C22 = 0.6f,
                C32 = -0.9f, C13 = 0.4f, C23 = 0.7f, C33 = 0.10f;
    auto At = [&](int I, int J) { return A[size_t(I) * NJ + J]; };
    for (int I = 1; I < NI - 1; ++I)
      for (int J = 1; J < NJ - 1; ++J)
        Want[size_t(I) * NJ + J] =
            C11 * At(I - 1, J - 1) + C21 * At(I - 1, J) +
            C31 * At(I - 1, J + 1) + C12 * At(I, J - 1) + C22 * At(I, J) +
            C32 * At(I, J + 1) + C13 * At(I + 1, J - 1) + C23 * At(I + 1, J) +
            C33 * At(I + 1, J + 1);
    K = kernel(E, program(E, Source), "Convolution2D_kernel");
    cl_mem DA = buffer(E, A.size() * sizeof(float));
    DB = buffer(E, A.size() * sizeof(float));
    E.write(DA, A);
    setArgs(K, DA, DB, NI, NJ);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DB, std::vector<float>(size_t(NI) * NJ, 0.f));
    size_t Local[2] = {32, 8};
    size_t Global[2] = {roundUp(NJ, Local[0]), roundUp(NI, Local[1])};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(size_t(NI) * NJ);
    E.read(DB, Got);
    return compareNear(Got, Want, 1e-5, 1e-5, "B");
  }

  std::string describe() const override {
    return std::to_string(NI) + "x" + std::to_string(NJ) + " floats";
  }
};

ISS_BENCHMARK(PolybenchConv2D, "pb-2DCONV", "PolyBench/GPU 2DCONV (not in the paper)");

} // namespace
} // namespace issbench
