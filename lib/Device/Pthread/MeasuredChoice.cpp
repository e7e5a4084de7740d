//===- MeasuredChoice.cpp - The faster of the mode's code and vec's -------===//
// SPDX-License-Identifier: MIT
//
// See MeasuredChoice.h.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/MeasuredChoice.h"

#include "pocl-iss/Env.h"

#include <algorithm>

namespace iss {

namespace {
/// Chunks each candidate runs before a clear difference decides.
constexpr size_t ClearSamples = 3;
/// A clear difference: the slower takes at least 5/4 of the faster's time.
constexpr uint64_t ClearNum = 5, ClearDen = 4;
/// Chunks and time each candidate runs before a small difference decides.
constexpr size_t CloseSamples = 16;
constexpr uint64_t CloseNs = 1000000;
/// Past this many chunks of either, the samples decide whatever time they
/// took.
constexpr size_t MostSamples = 64;
/// A small difference decides for `vec`'s code only when it is faster by
/// more than 3 %: less is within what a shared machine varies by, and the
/// mode's code is the paper's choice.
constexpr uint64_t CloseNum = 97, CloseDen = 100;
} // namespace

uint64_t medianOf(std::vector<uint64_t> V) {
  if (V.empty())
    return 0;
  auto Mid = V.begin() + V.size() / 2;
  std::nth_element(V.begin(), Mid, V.end());
  return *Mid;
}

ChoiceWinner decideChoice(const ChoiceSamples &S) {
  size_t N = std::min(S.Mode.size(), S.Vec.size());
  if (N < ClearSamples)
    return ChoiceWinner::None;
  uint64_t Mode = medianOf(S.Mode), Vec = medianOf(S.Vec);
  if (Vec * ClearDen >= Mode * ClearNum)
    return ChoiceWinner::Mode;
  if (Mode * ClearDen >= Vec * ClearNum)
    return ChoiceWinner::Vec;
  bool Enough = N >= CloseSamples && S.ModeNs >= CloseNs && S.VecNs >= CloseNs;
  if (!Enough && std::max(S.Mode.size(), S.Vec.size()) < MostSamples)
    return ChoiceWinner::None;
  return Vec * CloseDen < Mode * CloseNum ? ChoiceWinner::Vec
                                          : ChoiceWinner::Mode;
}

MeasuredChoice::MeasuredChoice(const CompiledKernel &Mode,
                               std::shared_ptr<CompiledKernel> Vec,
                               std::function<void(ChoiceWinner)> Remember)
    : Mode(Mode), Vec(std::move(Vec)), Remember(std::move(Remember)) {}

MeasuredChoice::MeasuredChoice(const CompiledKernel &Mode,
                               std::shared_ptr<CompiledKernel> Vec,
                               ChoiceWinner Remembered)
    : Mode(Mode), Vec(std::move(Vec)), Decided(Remembered) {}

void MeasuredChoice::record(unsigned Who, uint64_t Ns, uint64_t Groups) {
  if (!Groups)
    return;
  std::function<void(ChoiceWinner)> Store;
  ChoiceWinner W;
  {
    std::lock_guard<std::mutex> L(M);
    if (winner() != ChoiceWinner::None)
      return;
    // Per group, in 1/16 ns: small groups take tens of nanoseconds.
    uint64_t PerGroup = Ns * 16 / Groups;
    (Who ? Samples.Vec : Samples.Mode).push_back(PerGroup);
    (Who ? Samples.VecNs : Samples.ModeNs) += Ns;
    W = decideChoice(Samples);
    if (W == ChoiceWinner::None)
      return;
    Decided.store(W, std::memory_order_release);
    if (debugEnabled(DbgDevice)) {
      bool V = W == ChoiceWinner::Vec;
      const std::vector<uint64_t> &Won = V ? Samples.Vec : Samples.Mode;
      const std::vector<uint64_t> &Lost = V ? Samples.Mode : Samples.Vec;
      debugLog(DbgDevice,
               "%s, local size %zux%zux%zu: measured choice: %s's code, "
               "%.1f ns per work group against %s's %.1f (medians of %zu and "
               "%zu chunks)",
               Mode.KernelName.c_str(), Mode.LocalSize[0], Mode.LocalSize[1],
               Mode.LocalSize[2], V ? "vec" : Mode.Mode.c_str(),
               double(medianOf(Won)) / 16, V ? Mode.Mode.c_str() : "vec",
               double(medianOf(Lost)) / 16, Won.size(), Lost.size());
    }
    Store = std::move(Remember);
  }
  // Outside the lock: it writes a file.
  if (Store)
    Store(W);
}

} // namespace iss
