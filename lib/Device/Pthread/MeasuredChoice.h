//===- MeasuredChoice.h - The faster of the mode's code and vec's -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The paper's score is a model of the code, and a model can be wrong: a
// split or a subkernel can run slower than plain vectorization. Where both
// are compiled (the tiered first launch compiled `vec`'s code, the compiler
// process the mode's), the device measures them on the launches themselves
// and keeps the faster (POCL_ISS_CHOICE; DESIGN.md section 7).
//
// Work groups are independent and, within one launch, all of one size, so
// a launch can run some of its groups with each candidate: the measuring
// launches hand out smaller chunks of groups, every other chunk to the
// other candidate, and time each chunk on the thread that ran it. A
// candidate's figure is the median of its chunks' times per group, so that
// a chunk the thread was preempted in does not decide. A clear difference
// (25 %) decides after a few chunks, within the first measuring launch; a
// small one is measured longer, and then the mode's code stays unless
// `vec`'s is faster by more than the noise of a shared machine: so the
// measurement costs the most where the candidates differ the least. The
// decision holds for the rest of the process and is remembered in the
// kernel cache for the next one (rememberChoice, KernelCompiler.h).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_MEASUREDCHOICE_H
#define POCL_ISS_DEVICE_PTHREAD_MEASUREDCHOICE_H

#include "pocl-iss/KernelCompiler.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace iss {

/// What the measurements so far say. Each list holds one candidate's
/// times per work group, one per chunk of groups it ran (any unit, the
/// same for both).
struct ChoiceSamples {
  std::vector<uint64_t> Mode, Vec;
  uint64_t ModeNs = 0, VecNs = 0; ///< the measured time in all
};

/// The decision the samples allow: ChoiceWinner::None while they do not
/// decide yet.
ChoiceWinner decideChoice(const ChoiceSamples &S);

/// The median of \p V (its upper middle element); 0 for none.
uint64_t medianOf(std::vector<uint64_t> V);

class MeasuredChoice {
public:
  /// Between the mode's code \p Mode (whose launches this choice takes
  /// over) and \p Vec; \p Remember stores a decision for later processes.
  MeasuredChoice(const CompiledKernel &Mode, std::shared_ptr<CompiledKernel> Vec,
                 std::function<void(ChoiceWinner)> Remember);
  /// A choice decided already (remembered from an earlier process).
  MeasuredChoice(const CompiledKernel &Mode, std::shared_ptr<CompiledKernel> Vec,
                 ChoiceWinner Remembered);

  ChoiceWinner winner() const { return Decided.load(std::memory_order_acquire); }
  const CompiledKernel &vec() const { return *Vec; }

  /// In a measuring launch: the candidate the next chunk runs, 0 for the
  /// mode's code, 1 for vec's. Alternates over the chunks of every thread
  /// and every launch.
  unsigned nextTurn() {
    return Turns.fetch_add(1, std::memory_order_relaxed) & 1;
  }
  /// A chunk of \p Groups groups that candidate \p Who ran in \p Ns.
  /// Decides once the samples allow it.
  void record(unsigned Who, uint64_t Ns, uint64_t Groups);

  /// Chunks per participant in a measuring launch: enough for a clear
  /// difference to decide within it.
  static constexpr uint64_t ChunksPerThread = 24;
  /// The least time a measured chunk should take, in ns: well above the
  /// clock's cost and resolution.
  static constexpr uint64_t MinChunkNs = 5000;

private:
  const CompiledKernel &Mode;
  std::shared_ptr<CompiledKernel> Vec;
  std::function<void(ChoiceWinner)> Remember;
  std::atomic<ChoiceWinner> Decided{ChoiceWinner::None};
  std::atomic<uint64_t> Turns{0};
  std::mutex M;
  ChoiceSamples Samples;
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_MEASUREDCHOICE_H
