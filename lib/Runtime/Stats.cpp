//===- Stats.cpp - POCL_ISS_STATS: subkernel launches, pieces' work-items -===//
// SPDX-License-Identifier: MIT
//
// With POCL_ISS_STATS=1, the runtime remembers every compiled kernel and at
// exit prints one line per subkernel with the number of launches that
// selected it, so the subkernel choices of the input-space-splitting paper
// (section 6, Table 3) can be seen for a real run. Kernels compiled in a
// split mode also count the work-items each piece of each region ran
// (iss-split); a second table gives, per piece, its properties and its
// share of the region's work-items.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>
#include <cstdio>
#include <map>

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

/// "32x8x1".
std::string localSize(const CompiledKernel &K) {
  return std::to_string(K.LocalSize[0]) + "x" + std::to_string(K.LocalSize[1]) +
         "x" + std::to_string(K.LocalSize[2]);
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
      std::string Local = localSize(*K);
      for (size_t I = 0; I < K->Subkernels.size(); ++I) {
        std::string Name = I < K->SubkernelNames.size()
                               ? K->SubkernelNames[I]
                               : "#" + std::to_string(I);
        unsigned long long N = K->Launches ? K->Launches[I].load() : 0;
        std::fprintf(stderr, "%-24s %-16s %-12s %-32s %10llu\n",
                     K->KernelName.c_str(), Local.c_str(), K->Mode.c_str(),
                     Name.c_str(), N);
      }
    }
    printPieces(T);
  }

  /// Per kernel, local size and region: the work-items each piece ran and
  /// their share of the region's (the paper's Table 3).
  static void printPieces(StatsTable &T) {
    bool Header = false;
    for (const auto &K : T.Kernels) {
      if (!K->PieceWorkItems)
        continue;
      if (!Header) {
        std::fprintf(stderr,
                     "pocl-iss stats: work-items per piece of each region\n");
        std::fprintf(stderr, "%-24s %-16s %-20s %6s %12s %8s  %s\n",
                     "kernel", "local", "subkernel", "region", "work-items",
                     "share", "piece: how");
        Header = true;
      }
      std::string Local = localSize(*K);
      // Per subkernel and region; counters are in the order the regions
      // were built.
      auto RegionOf = [&](size_t I) {
        return std::make_pair(K->Pieces[I].Subkernel, K->Pieces[I].Region);
      };
      std::map<std::pair<unsigned, unsigned>, uint64_t> RegionTotal;
      for (size_t I = 0; I < K->Pieces.size(); ++I)
        RegionTotal[RegionOf(I)] +=
            K->PieceWorkItems[I].load(std::memory_order_relaxed);
      std::vector<size_t> Order(K->Pieces.size());
      for (size_t I = 0; I < Order.size(); ++I)
        Order[I] = I;
      std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
        return RegionOf(A) < RegionOf(B);
      });
      // A piece run in more than one way (its whole tiles and the partial
      // ones beside them) gets a line of its own for all of them, after
      // its region's.
      std::map<std::pair<std::pair<unsigned, unsigned>, std::string>,
               std::pair<uint64_t, unsigned>>
          PieceTotal;
      for (size_t I = 0; I < K->Pieces.size(); ++I) {
        auto &[N, Lines] = PieceTotal[{RegionOf(I), K->Pieces[I].Name}];
        N += K->PieceWorkItems[I].load(std::memory_order_relaxed);
        ++Lines;
      }
      auto Line = [&](const PieceInfo &P, uint64_t N, const std::string &How) {
        uint64_t Total = RegionTotal[{P.Subkernel, P.Region}];
        std::string Sub = P.Subkernel < K->SubkernelNames.size()
                              ? K->SubkernelNames[P.Subkernel]
                              : "#" + std::to_string(P.Subkernel);
        std::fprintf(stderr, "%-24s %-16s %-20s %6u %12llu %7.2f%%  %s%s%s\n",
                     K->KernelName.c_str(), Local.c_str(), Sub.c_str(),
                     P.Region, static_cast<unsigned long long>(N),
                     Total ? 100.0 * double(N) / double(Total) : 0.0,
                     P.Name.c_str(), How.empty() ? "" : ": ", How.c_str());
      };
      for (size_t J = 0; J < Order.size(); ++J) {
        size_t I = Order[J];
        const PieceInfo &P = K->Pieces[I];
        Line(P, K->PieceWorkItems[I].load(std::memory_order_relaxed),
             P.Properties);
        if (J + 1 < Order.size() && RegionOf(Order[J + 1]) == RegionOf(I))
          continue;
        for (auto &[Key, Sum] : PieceTotal)
          if (Key.first == RegionOf(I) && Sum.second > 1) {
            PieceInfo All = P;
            All.Name = Key.second;
            Line(All, Sum.first, "all its ranges");
          }
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
