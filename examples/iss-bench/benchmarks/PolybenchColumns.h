//===- PolybenchColumns.h - What PolyBench's CORR and COVAR share -*- C++
//-*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's CORR and COVAR start alike: the mean of each of m columns
// over n rows (mean_kernel, 1D over the columns, accumulating in global
// memory), and end alike: the symmetric matrix of the columns' products
// summed over the rows. Here are that kernel's source and the host's
// references for both, in double.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_ISSBENCH_POLYBENCHCOLUMNS_H
#define POCL_ISS_EXAMPLES_ISSBENCH_POLYBENCHCOLUMNS_H

#include <cstddef>
#include <vector>

namespace issbench {
namespace polybench {

/// DATA_TYPE and mean_kernel, as the suite writes them.
inline const char *const MeanKernel = R"CLC(
typedef float DATA_TYPE;

__kernel void mean_kernel(__global DATA_TYPE *mean, __global DATA_TYPE *data,
                          DATA_TYPE float_n, int m, int n) {
  int j = get_global_id(0);

  if (j < m) {
    mean[j] = 0.0;

    int i;
    for (i = 0; i < n; i++) {
      mean[j] += data[i * m + j];
    }
    mean[j] /= (DATA_TYPE)float_n;
  }
}
)CLC";

/// The means of the \p M columns of \p Data (\p N rows of \p M).
inline std::vector<double> columnMeans(const std::vector<float> &Data, int M,
                                       int N) {
  std::vector<double> Mean(M, 0.0);
  for (int J = 0; J < M; ++J) {
    for (int I = 0; I < N; ++I)
      Mean[J] += Data[size_t(I) * M + J];
    Mean[J] /= N;
  }
  return Mean;
}

/// symmat[j1][j2] = symmat[j2][j1] = the sum over the rows of column j1
/// times column j2, for j1 < \p Columns and j2 from j1 (\p FromDiagonal)
/// or j1 + 1 (the diagonal then 1); the rest 0.
inline std::vector<double> symmetricProducts(const std::vector<double> &Data,
                                             int M, int N, int Columns,
                                             bool FromDiagonal) {
  std::vector<double> Sym(size_t(M) * M, 0.0);
  for (int J1 = 0; J1 < Columns; ++J1) {
    if (!FromDiagonal)
      Sym[size_t(J1) * M + J1] = 1.0;
    for (int J2 = FromDiagonal ? J1 : J1 + 1; J2 < M; ++J2) {
      double Sum = 0;
      for (int I = 0; I < N; ++I)
        Sum += Data[size_t(I) * M + J1] * Data[size_t(I) * M + J2];
      Sym[size_t(J1) * M + J2] = Sym[size_t(J2) * M + J1] = Sum;
    }
  }
  return Sym;
}

} // namespace polybench
} // namespace issbench

#endif // POCL_ISS_EXAMPLES_ISSBENCH_POLYBENCHCOLUMNS_H
