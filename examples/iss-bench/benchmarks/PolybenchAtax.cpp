//===- PolybenchAtax.cpp - PolyBench/GPU ATAX -----------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's ATAX (OpenCL), as the suite writes it: y = A^T (A x) in
// two 1D kernels of 256-work-item groups over a global size rounded up to
// whole groups, each with a tail guard and a loop that accumulates into
// global memory. The first walks a row of A per work-item (its reads of A
// are strided across work-items, its reads of x uniform), the second a
// column (consecutive reads of A). A kernel pocl-iss was not tuned on.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void atax_kernel1(__global DATA_TYPE *A, __global DATA_TYPE *x,
                           __global DATA_TYPE *tmp, int nx, int ny) {
  int i = get_global_id(0);

  if (i < nx) {
    int j;
    for (j = 0; j < ny; j++) {
      tmp[i] += A[i * ny + j] * x[j];
    }
  }
}

__kernel void atax_kernel2(__global DATA_TYPE *A, __global DATA_TYPE *y,
                           __global DATA_TYPE *tmp, int nx, int ny) {
  int j = get_global_id(0);

  if (j < ny) {
    int i;
    for (i = 0; i < nx; i++) {
      y[j] += A[i * ny + j] * tmp[i];
    }
  }
}
)CLC";

class PolybenchAtax : public Benchmark {
  int NX = 0, NY = 0;
  std::vector<double> WantY;
  cl_mem DY = nullptr, DTmp = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of 256: the guards cut the padding.
    NX = NY = S == Size::Full ? 4000 : 2000;
    auto A = randomVector<float>(size_t(NX) * NY, -1.f, 1.f, 61);
    auto X = randomVector<float>(NY, -1.f, 1.f, 62);
    std::vector<double> Tmp(NX, 0.0);
    WantY.assign(NY, 0.0);
    for (int I = 0; I < NX; ++I)
      for (int J = 0; J < NY; ++J)
        Tmp[I] += double(A[size_t(I) * NY + J]) * X[J];
    for (int J = 0; J < NY; ++J)
      for (int I = 0; I < NX; ++I)
        WantY[J] += double(A[size_t(I) * NY + J]) * Tmp[I];
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "atax_kernel1");
    K2 = kernel(E, P, "atax_kernel2");
    cl_mem DA = buffer(E, A.size() * sizeof(float));
    cl_mem DX = buffer(E, X.size() * sizeof(float));
    DY = buffer(E, size_t(NY) * sizeof(float));
    DTmp = buffer(E, size_t(NX) * sizeof(float));
    E.write(DA, A);
    E.write(DX, X);
    setArgs(K1, DA, DX, DTmp, NX, NY);
    setArgs(K2, DA, DY, DTmp, NX, NY);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DY, std::vector<float>(NY, 0.f));
    E.write(DTmp, std::vector<float>(NX, 0.f));
    size_t Local = 256;
    size_t G1 = roundUp(NX, Local), G2 = roundUp(NY, Local);
    E.launch(K1, 1, &G1, &Local, Events);
    E.launch(K2, 1, &G2, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(NY);
    E.read(DY, Got);
    // Two float sums of NX terms each (of size up to 20 in the second),
    // against double sums.
    return compareNear(Got, WantY, 1e-3, 0.5, "y");
  }

  std::string describe() const override {
    return std::to_string(NX) + "x" + std::to_string(NY) + ", 2 kernels";
  }
};

ISS_BENCHMARK(PolybenchAtax, "pb-ATAX", "PolyBench/GPU ATAX (not in the paper)");

} // namespace
} // namespace issbench
