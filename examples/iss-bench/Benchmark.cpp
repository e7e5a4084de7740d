//===- Benchmark.cpp - Benchmark base class and registry ------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Out-of-line parts of the iss-bench benchmark interface (see Benchmark.h):
// the registry the benchmarks add themselves to.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

namespace issbench {

Benchmark::~Benchmark() = default;

std::vector<BenchmarkInfo> &registry() {
  static std::vector<BenchmarkInfo> Infos;
  return Infos;
}

} // namespace issbench
