//===- PolybenchCorr.cpp - PolyBench/GPU CORR -----------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's CORR (OpenCL), as the suite writes it: the correlation
// matrix of m columns over n rows in four kernels. mean_kernel and
// std_kernel are 1D over the columns in 256-work-item groups over a global
// size rounded up to whole groups, each with a tail guard (`j < m`) around a
// loop over the rows that accumulates into global memory; std_kernel also
// branches on the data (`std[j] <= eps`). reduce_kernel is 2D in 32x8
// groups with the guard `i < n && j < m` on the padding. corr_kernel is 1D
// again with the tail guard `j1 < m-1` and a triangular loop
// (`j2 = j1+1 .. m`): its trip count differs on every lane. m and n are not
// multiples of the groups. A kernel pocl-iss was not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "PolybenchColumns.h"

#include <cmath>
#include <string>

using namespace clt;

namespace issbench {
namespace {

const std::string Source = std::string(polybench::MeanKernel) + R"CLC(
__kernel void std_kernel(__global DATA_TYPE *mean, __global DATA_TYPE *std,
                         __global DATA_TYPE *data, DATA_TYPE float_n,
                         DATA_TYPE eps, int m, int n) {
  int j = get_global_id(0);

  if (j < m) {
    std[j] = 0.0;

    int i;
    for (i = 0; i < n; i++) {
      std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    }
    std[j] /= float_n;
    std[j] = sqrt(std[j]);
    if (std[j] <= eps) {
      std[j] = 1.0;
    }
  }
}

__kernel void reduce_kernel(__global DATA_TYPE *mean, __global DATA_TYPE *std,
                            __global DATA_TYPE *data, DATA_TYPE float_n, int m,
                            int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < n) && (j < m)) {
    data[i * m + j] -= mean[j];
    data[i * m + j] /= (sqrt(float_n) * std[j]);
  }
}

__kernel void corr_kernel(__global DATA_TYPE *symmat, __global DATA_TYPE *data,
                          int m, int n) {
  int j1 = get_global_id(0);

  int i, j2;
  if (j1 < (m - 1)) {
    symmat[j1 * m + j1] = 1.0;

    for (j2 = (j1 + 1); j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0;

      for (i = 0; i < n; i++) {
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      }

      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}
)CLC";

class PolybenchCorr : public Benchmark {
  int M = 0, N = 0;
  const float Eps = 0.005f;
  std::vector<float> Data0;
  std::vector<double> WantMean, WantStd, WantSym;
  cl_mem DMean = nullptr, DStd = nullptr, DData = nullptr, DSym = nullptr;
  cl_kernel KMean = nullptr, KStd = nullptr, KReduce = nullptr, KCorr = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of the 256-wide (and 32x8) groups: the tail guards cut.
    M = N = S == Size::Full ? 390 : 250;
    Data0 = randomVector<float>(size_t(M) * N, 0.f, 1.f, 921);
    // Some constant columns, whose deviation falls under eps.
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < M; J += 97)
        Data0[size_t(I) * M + J] = 0.5f;
    WantMean = polybench::columnMeans(Data0, M, N);
    WantStd.assign(M, 0.0);
    for (int J = 0; J < M; ++J) {
      for (int I = 0; I < N; ++I) {
        double D = Data0[size_t(I) * M + J] - WantMean[J];
        WantStd[J] += D * D;
      }
      WantStd[J] = std::sqrt(WantStd[J] / N);
      if (WantStd[J] <= Eps)
        WantStd[J] = 1.0;
    }
    std::vector<double> Data(Data0.size());
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < M; ++J)
        Data[size_t(I) * M + J] = (Data0[size_t(I) * M + J] - WantMean[J]) /
                                  (std::sqrt(double(N)) * WantStd[J]);
    // The last diagonal element is the host's in the suite: left at 0.
    WantSym = polybench::symmetricProducts(Data, M, N, M - 1, false);
    cl_program P = program(E, Source.c_str());
    KMean = kernel(E, P, "mean_kernel");
    KStd = kernel(E, P, "std_kernel");
    KReduce = kernel(E, P, "reduce_kernel");
    KCorr = kernel(E, P, "corr_kernel");
    DMean = buffer(E, size_t(M) * sizeof(float));
    DStd = buffer(E, size_t(M) * sizeof(float));
    DData = buffer(E, Data0.size() * sizeof(float));
    DSym = buffer(E, size_t(M) * M * sizeof(float));
    float FloatN = float(N);
    setArgs(KMean, DMean, DData, FloatN, M, N);
    setArgs(KStd, DMean, DStd, DData, FloatN, Eps, M, N);
    setArgs(KReduce, DMean, DStd, DData, FloatN, M, N);
    setArgs(KCorr, DSym, DData, M, N);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DData, Data0);
    E.write(DSym, std::vector<float>(size_t(M) * M, 0.f));
    size_t Local1 = 256, Global1 = roundUp(M, Local1);
    size_t Local2[2] = {32, 8};
    size_t Global2[2] = {roundUp(M, Local2[0]), roundUp(N, Local2[1])};
    E.launch(KMean, 1, &Global1, &Local1, Events);
    E.launch(KStd, 1, &Global1, &Local1, Events);
    E.launch(KReduce, 2, Global2, Local2, Events);
    E.launch(KCorr, 1, &Global1, &Local1, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Mean(M), Std(M), Sym(size_t(M) * M);
    E.read(DMean, Mean);
    E.read(DStd, Std);
    E.read(DSym, Sym);
    std::string Msg = compareNear(Mean, WantMean, 1e-4, 1e-5, "mean");
    if (Msg.empty())
      Msg = compareNear(Std, WantStd, 1e-4, 1e-5, "std");
    // Float sums of n products of normalised columns, against double sums.
    if (Msg.empty())
      Msg = compareNear(Sym, WantSym, 1e-3, 1e-4, "symmat");
    return Msg;
  }

  std::string describe() const override {
    return std::to_string(M) + "x" + std::to_string(N) + ", 4 kernels";
  }
};

ISS_BENCHMARK(PolybenchCorr, "pb-CORR", "PolyBench/GPU CORR (unseen)");

} // namespace
} // namespace issbench
