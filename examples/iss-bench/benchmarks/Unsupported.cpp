//===- Unsupported.cpp - Paper benchmarks that need barriers --------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Benchmarks of the paper's section 6.2 whose kernels synchronise work-items
// with barriers (the paper handles them with barrier-free continuation
// kernels, section 5.2). pocl-iss does not support barriers in its splitting
// pipeline yet, so they are registered without an implementation: the report
// lists them as "not supported yet" rather than leaving them out.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

namespace issbench {
namespace {

ISS_UNSUPPORTED(BinomialOption, "BinomialOption",
                "AMD APP SDK (local memory + barriers)");
ISS_UNSUPPORTED(DCT, "DCT", "AMD APP SDK (local memory + barriers)");
ISS_UNSUPPORTED(FastWalsh, "FastWalsh", "AMD APP SDK (not ported yet)");
ISS_UNSUPPORTED(BitonicSort, "BitonicSort", "AMD APP SDK (not ported yet)");

} // namespace
} // namespace issbench
