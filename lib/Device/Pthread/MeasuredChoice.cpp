//===- MeasuredChoice.cpp - The fastest of the compiled candidates --------===//
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
/// Chunks each candidate runs before a clear difference drops one.
constexpr size_t ClearSamples = 3;
/// A clear difference: the slower takes at least 5/4 of the faster's time.
constexpr uint64_t ClearNum = 5, ClearDen = 4;
/// Chunks and time each candidate runs before a small difference decides.
constexpr size_t CloseSamples = 16;
constexpr uint64_t CloseNs = 1000000;
/// Past this many chunks of any, the samples decide whatever time they
/// took.
constexpr size_t MostSamples = 64;
/// A small difference decides against the mode's code only when another
/// is faster by more than 3 %: less is within what a shared machine varies
/// by, and the mode's code is the paper's choice.
constexpr uint64_t CloseNum = 97, CloseDen = 100;
} // namespace

uint64_t medianOf(std::vector<uint64_t> V) {
  if (V.empty())
    return 0;
  auto Mid = V.begin() + V.size() / 2;
  std::nth_element(V.begin(), Mid, V.end());
  return *Mid;
}

CodeCandidate decideChoice(ChoiceSamples &S) {
  uint64_t Median[MaxCandidates] = {};
  unsigned Best = MaxCandidates;
  bool Enough = true, Most = false;
  for (unsigned C = 0; C < S.Count; ++C) {
    if (S.Out[C])
      continue;
    if (S.Of[C].size() < ClearSamples)
      return CodeCandidate::None;
    Median[C] = medianOf(S.Of[C]);
    if (Best == MaxCandidates || Median[C] < Median[Best])
      Best = C;
    Enough &= S.Of[C].size() >= CloseSamples && S.Ns[C] >= CloseNs;
    Most |= S.Of[C].size() >= MostSamples;
  }
  if (Best == MaxCandidates)
    return CodeCandidate::Mode; // nothing in the running: cannot happen
  unsigned Left = 0;
  for (unsigned C = 0; C < S.Count; ++C) {
    if (S.Out[C])
      continue;
    if (C != Best && Median[C] * ClearDen >= Median[Best] * ClearNum)
      S.Out[C] = true;
    else
      ++Left;
  }
  if (Left == 1)
    return CodeCandidate(Best);
  if (!Enough && !Most)
    return CodeCandidate::None;
  unsigned Mode = unsigned(CodeCandidate::Mode);
  if (S.Out[Mode] || Median[Best] * CloseDen < Median[Mode] * CloseNum)
    return CodeCandidate(Best);
  return CodeCandidate::Mode;
}

MeasuredChoice::MeasuredChoice(const CompiledKernel &Mode,
                               std::shared_ptr<CompiledKernel> Vec,
                               std::shared_ptr<CompiledKernel> Written,
                               std::function<void(CodeCandidate)> Remember)
    : Mode(Mode), Count(Written ? 3 : 2), Remember(std::move(Remember)) {
  // Where the mode's code is vec's, the kernel as written is the other.
  Samples.Out[unsigned(CodeCandidate::Vec)] = !Vec;
  Codes[unsigned(CodeCandidate::Vec)] = std::move(Vec);
  Codes[unsigned(CodeCandidate::Written)] = std::move(Written);
  Samples.Count = Count;
  unsigned Run = 0;
  for (unsigned C = 0; C < Count; ++C)
    Run |= unsigned(!Samples.Out[C]) << C;
  Running.store(Run, std::memory_order_relaxed);
}

MeasuredChoice::MeasuredChoice(const CompiledKernel &Mode,
                               CodeCandidate Remembered,
                               std::shared_ptr<CompiledKernel> Code)
    : Mode(Mode), Count(1), Decided(Remembered) {
  Codes[unsigned(Remembered)] = std::move(Code);
}

CodeCandidate MeasuredChoice::nextTurn() {
  unsigned R = Running.load(std::memory_order_relaxed);
  unsigned N = unsigned(__builtin_popcount(R));
  if (!N)
    return CodeCandidate::Mode;
  unsigned K = unsigned(Turns.fetch_add(1, std::memory_order_relaxed) % N);
  for (unsigned C = 0;; ++C)
    if (R >> C & 1 && !K--)
      return CodeCandidate(C);
}

/// The candidates' names in the log.
static const char *nameOf(const CompiledKernel &Mode, unsigned C) {
  return C == unsigned(CodeCandidate::Mode)  ? Mode.Mode.c_str()
         : C == unsigned(CodeCandidate::Vec) ? "vec"
                                             : "the as-written";
}

void MeasuredChoice::record(CodeCandidate Who, uint64_t Ns, uint64_t Groups) {
  if (!Groups)
    return;
  std::function<void(CodeCandidate)> Store;
  CodeCandidate W;
  {
    std::lock_guard<std::mutex> L(M);
    if (winner() != CodeCandidate::None)
      return;
    unsigned C = unsigned(Who);
    // Per group, in 1/16 ns: small groups take tens of nanoseconds.
    Samples.Of[C].push_back(Ns * 16 / Groups);
    Samples.Ns[C] += Ns;
    W = decideChoice(Samples);
    unsigned Run = 0;
    for (unsigned I = 0; I < Count; ++I)
      Run |= unsigned(!Samples.Out[I]) << I;
    Running.store(Run, std::memory_order_relaxed);
    if (W == CodeCandidate::None)
      return;
    Decided.store(W, std::memory_order_release);
    if (debugEnabled(DbgDevice)) {
      std::string Others;
      for (unsigned I = 0; I < Count; ++I)
        if (I != unsigned(W))
          Others += std::string(Others.empty() ? "" : ", ") + nameOf(Mode, I) +
                    "'s " + std::to_string(medianOf(Samples.Of[I]) / 16) +
                    " (" + std::to_string(Samples.Of[I].size()) + ")";
      debugLog(DbgDevice,
               "%s, local size %zux%zux%zu: measured choice: %s code, %llu "
               "ns per work group (%zu chunks) against %s",
               Mode.KernelName.c_str(), Mode.LocalSize[0], Mode.LocalSize[1],
               Mode.LocalSize[2],
               (std::string(nameOf(Mode, unsigned(W))) +
                (W == CodeCandidate::Written ? "" : "'s"))
                   .c_str(),
               (unsigned long long)(medianOf(Samples.Of[unsigned(W)]) / 16),
               Samples.Of[unsigned(W)].size(), Others.c_str());
    }
    Store = std::move(Remember);
  }
  // Outside the lock: it writes a file.
  if (Store)
    Store(W);
}

} // namespace iss
