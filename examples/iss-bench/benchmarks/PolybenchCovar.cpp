//===- PolybenchCovar.cpp - PolyBench/GPU COVAR ---------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's COVAR (OpenCL), as the suite writes it: the covariance
// matrix of m columns over n rows in three kernels. mean_kernel is 1D over
// the columns in 256-work-item groups over a global size rounded up to whole
// groups, a tail guard (`j < m`) around a loop over the rows accumulating
// into global memory; reduce_kernel is 2D in 32x8 groups, the guard
// `i < n && j < m` on the padding; covar_kernel is 1D again, the tail guard
// around a triangular loop (`j2 = j1 .. m`, its trip count differs on every
// lane) around the loop over the rows, which accumulates into
// symmat[j1 * m + j2] in global memory. m and n are not multiples of the
// groups.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "PolybenchColumns.h"

#include <string>

using namespace clt;

namespace issbench {
namespace {

const std::string Source = std::string(polybench::MeanKernel) + R"CLC(
__kernel void reduce_kernel(__global DATA_TYPE *mean, __global DATA_TYPE *data,
                            int m, int n) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < n) && (j < m)) {
    data[i * m + j] -= mean[j];
  }
}

__kernel void covar_kernel(__global DATA_TYPE *symmat,
                           __global DATA_TYPE *data, int m, int n) {
  int j1 = get_global_id(0);
  int i, j2;

  if (j1 < m) {
    for (j2 = j1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0;
      for (i = 0; i < n; i++) {
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      }
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}
)CLC";

class PolybenchCovar : public Benchmark {
  int M = 0, N = 0;
  std::vector<float> Data0;
  std::vector<double> WantMean, WantSym;
  cl_mem DMean = nullptr, DData = nullptr, DSym = nullptr;
  cl_kernel KMean = nullptr, KReduce = nullptr, KCovar = nullptr;

public:
  void setup(const Env &E, Size S) override {
    M = N = S == Size::Full ? 390 : 180;
    Data0 = randomVector<float>(size_t(M) * N, 0.f, 1.f, 111);
    WantMean = polybench::columnMeans(Data0, M, N);
    std::vector<double> Data(Data0.size());
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < M; ++J)
        Data[size_t(I) * M + J] = Data0[size_t(I) * M + J] - WantMean[J];
    WantSym = polybench::symmetricProducts(Data, M, N, M, true);
    cl_program P = program(E, Source.c_str());
    KMean = kernel(E, P, "mean_kernel");
    KReduce = kernel(E, P, "reduce_kernel");
    KCovar = kernel(E, P, "covar_kernel");
    DMean = buffer(E, size_t(M) * sizeof(float));
    DData = buffer(E, Data0.size() * sizeof(float));
    DSym = buffer(E, size_t(M) * M * sizeof(float));
    setArgs(KMean, DMean, DData, float(N), M, N);
    setArgs(KReduce, DMean, DData, M, N);
    setArgs(KCovar, DSym, DData, M, N);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DData, Data0);
    E.write(DSym, std::vector<float>(size_t(M) * M, -1.f));
    size_t Local1 = 256, Global1 = roundUp(M, Local1);
    size_t Local2[2] = {32, 8};
    size_t Global2[2] = {roundUp(M, Local2[0]), roundUp(N, Local2[1])};
    E.launch(KMean, 1, &Global1, &Local1, Events);
    E.launch(KReduce, 2, Global2, Local2, Events);
    E.launch(KCovar, 1, &Global1, &Local1, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Mean(M), Sym(size_t(M) * M);
    E.read(DMean, Mean);
    E.read(DSym, Sym);
    std::string Msg = compareNear(Mean, WantMean, 1e-4, 1e-5, "mean");
    // Float sums of n products of centred values (about n/12 on the
    // diagonal, of either sign off it), against double sums.
    if (Msg.empty())
      Msg = compareNear(Sym, WantSym, 1e-3, 1e-3, "symmat");
    return Msg;
  }

  std::string describe() const override {
    return std::to_string(M) + "x" + std::to_string(N) + ", 3 kernels";
  }
};

ISS_BENCHMARK(PolybenchCovar, "pb-COVAR", "PolyBench/GPU COVAR (unseen)");

} // namespace
} // namespace issbench
