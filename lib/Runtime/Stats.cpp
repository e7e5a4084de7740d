//===- Stats.cpp - POCL_ISS_STATS: how often each subkernel ran -----------===//
// SPDX-License-Identifier: MIT
//
// With POCL_ISS_STATS=1, the runtime remembers every compiled kernel and at
// exit prints one line per subkernel with the number of launches that
// selected it, so the subkernel choices of the input-space-splitting paper
// (section 6, Table 3) can be seen for a real run.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <cstdio>

namespace iss {

namespace {
struct StatsTable {
  std::mutex M;
  std::vector<std::shared_ptr<CompiledKernel>> Kernels;
};

// Never destroyed: compiled code must not be freed during exit, when the
// compiler's own statics may already be gone.
StatsTable &table() {
  static StatsTable *T = new StatsTable;
  return *T;
}

/// Prints at exit; owns nothing.
struct StatsPrinter {
  ~StatsPrinter() {
    StatsTable &T = table();
    std::lock_guard<std::mutex> L(T.M);
    if (T.Kernels.empty())
      return;
    std::fprintf(stderr, "pocl-iss stats: subkernel launches per kernel\n");
    std::fprintf(stderr, "%-24s %-16s %-12s %-32s %10s\n", "kernel", "local",
                 "mode", "subkernel", "launches");
    for (const auto &K : T.Kernels) {
      char Local[64];
      std::snprintf(Local, sizeof(Local), "%zux%zux%zu", K->LocalSize[0],
                    K->LocalSize[1], K->LocalSize[2]);
      for (size_t I = 0; I < K->Subkernels.size(); ++I) {
        std::string Name = I < K->SubkernelNames.size()
                               ? K->SubkernelNames[I]
                               : "#" + std::to_string(I);
        unsigned long long N = K->Launches ? K->Launches[I].load() : 0;
        std::fprintf(stderr, "%-24s %-16s %-12s %-32s %10llu\n",
                     K->KernelName.c_str(), Local, K->Mode.c_str(),
                     Name.c_str(), N);
      }
    }
  }
};
} // namespace

void recordCompiledKernel(const std::shared_ptr<CompiledKernel> &K) {
  if (!settings().Stats)
    return;
  static StatsPrinter Printer; // its destructor runs at exit
  StatsTable &T = table();
  std::lock_guard<std::mutex> L(T.M);
  T.Kernels.push_back(K);
}

} // namespace iss
