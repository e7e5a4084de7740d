//===- Benchmark.cpp - Benchmark base class and registry ------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Out-of-line parts of the iss-bench benchmark interface (see Benchmark.h):
// the registry the benchmarks add themselves to and the release of the CL
// objects a benchmark owns.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

namespace issbench {

Benchmark::~Benchmark() {
  for (cl_mem M : Mems)
    clReleaseMemObject(M);
  for (cl_kernel K : Kernels)
    clReleaseKernel(K);
  for (cl_program P : Programs)
    clReleaseProgram(P);
}

std::vector<BenchmarkInfo> &registry() {
  static std::vector<BenchmarkInfo> Infos;
  return Infos;
}

} // namespace issbench
