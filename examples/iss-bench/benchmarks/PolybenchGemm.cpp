//===- PolybenchGemm.cpp - PolyBench/GPU GEMM -----------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's GEMM (OpenCL), as the suite writes it: C = alpha A B +
// beta C, one work-item per element of C, in 32x8 groups over a global
// size rounded up to whole groups, with a tail guard on both ids; the inner
// product accumulates into global memory through the loop (C may alias A
// or B for all the compiler knows). A kernel pocl-iss was not tuned on:
// the tail guard diverges only in the last groups, and the loop over k runs
// alike on every work-item.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void gemm(__global DATA_TYPE *a, __global DATA_TYPE *b,
                   __global DATA_TYPE *c, DATA_TYPE alpha, DATA_TYPE beta,
                   int ni, int nj, int nk) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < ni) && (j < nj)) {
    c[i * nj + j] *= beta;
    int k;
    for (k = 0; k < nk; k++) {
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
  }
}
)CLC";

class PolybenchGemm : public Benchmark {
  int NI = 0, NJ = 0, NK = 0;
  std::vector<float> C0;
  std::vector<double> Want;
  cl_mem DC = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of the 32x8 groups: the guard cuts the padding.
    NI = NJ = NK = S == Size::Full ? 600 : 300;
    const float Alpha = 32412.f / 100000.f, Beta = 2123.f / 100000.f;
    auto A = randomVector<float>(size_t(NI) * NK, -1.f, 1.f, 51);
    auto B = randomVector<float>(size_t(NK) * NJ, -1.f, 1.f, 52);
    C0 = randomVector<float>(size_t(NI) * NJ, -1.f, 1.f, 53);
    Want.assign(C0.begin(), C0.end());
    for (int I = 0; I < NI; ++I)
      for (int J = 0; J < NJ; ++J) {
        double &C = Want[size_t(I) * NJ + J];
        C *= Beta;
        for (int Kk = 0; Kk < NK; ++Kk)
          C += double(Alpha) * A[size_t(I) * NK + Kk] * B[size_t(Kk) * NJ + J];
      }
    K = kernel(E, program(E, Source), "gemm");
    cl_mem DA = buffer(E, A.size() * sizeof(float));
    cl_mem DB = buffer(E, B.size() * sizeof(float));
    DC = buffer(E, C0.size() * sizeof(float));
    E.write(DA, A);
    E.write(DB, B);
    setArgs(K, DA, DB, DC, Alpha, Beta, NI, NJ, NK);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DC, C0);
    size_t Local[2] = {32, 8};
    size_t Global[2] = {roundUp(NJ, Local[0]), roundUp(NI, Local[1])};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(C0.size());
    E.read(DC, Got);
    // Sums of NK products of magnitude <= 0.33, rounded in float.
    return compareNear(Got, Want, 1e-4, 1e-3, "C");
  }

  std::string describe() const override {
    return std::to_string(NI) + "x" + std::to_string(NJ) + "x" +
           std::to_string(NK);
  }
};

ISS_BENCHMARK(PolybenchGemm, "pb-GEMM", "PolyBench/GPU GEMM (not in the paper)");

} // namespace
} // namespace issbench
