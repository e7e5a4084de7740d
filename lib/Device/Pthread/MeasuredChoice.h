//===- MeasuredChoice.h - The fastest of the compiled candidates -*- C++
//-*-===//
// SPDX-License-Identifier: MIT
//
// The paper's score is a model of the code, and so is the count that keeps
// a kernel as written (iss-as-written): a model can be wrong. Where the
// launches are tiered, `vec`'s code is compiled for the first launch and the
// mode's arrives from the compiler process, and where the count found
// widening across work-items only a little cheaper than the kernel as
// written, the kernel as written compiles there too. The device measures
// these candidates on the launches themselves and keeps the fastest
// (POCL_ISS_CHOICE; DESIGN.md section 7).
//
// Work groups are independent and, within one launch, all of one size, so
// a launch can run some of its groups with each candidate: the measuring
// launches hand out smaller chunks of groups, each to the next candidate in
// turn, and time each chunk on the thread that ran it. A candidate's figure
// is the median of its chunks' times per group, so that a chunk the thread
// was preempted in does not decide. A candidate a quarter slower than the
// fastest drops out after a few chunks, within the first measuring launch;
// when one is left, it is the choice. Candidates closer than that are
// measured longer, and then the mode's code stays unless another is faster
// by more than the noise of a shared machine: so the measurement costs the
// most where the candidates differ the least. The decision holds for the
// rest of the process and is remembered in the kernel cache for the next
// one (choiceRememberer, KernelCompiler.h).
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

/// The candidates a choice measures, in CodeCandidate's order.
constexpr unsigned MaxCandidates = 3;

/// What the measurements so far say: per candidate, its times per work
/// group, one per chunk of groups it ran (any unit, the same for all), and
/// the measured time in all; which candidates are still in the running.
struct ChoiceSamples {
  unsigned Count = 2; ///< candidates: the mode's code, vec's[, as written]
  std::vector<uint64_t> Of[MaxCandidates];
  uint64_t Ns[MaxCandidates] = {};
  bool Out[MaxCandidates] = {};
};

/// Drops the candidates the samples show to be clearly slower than the
/// fastest, and returns the decision they allow: CodeCandidate::None while
/// they do not decide yet.
CodeCandidate decideChoice(ChoiceSamples &S);

/// The median of \p V (its upper middle element); 0 for none.
uint64_t medianOf(std::vector<uint64_t> V);

class MeasuredChoice {
public:
  /// Between the mode's code \p Mode (whose launches this choice takes
  /// over) and those of \p Vec and \p Written that are not null (one at
  /// least); \p Remember stores a decision for later processes (may be
  /// empty).
  MeasuredChoice(const CompiledKernel &Mode,
                 std::shared_ptr<CompiledKernel> Vec,
                 std::shared_ptr<CompiledKernel> Written,
                 std::function<void(CodeCandidate)> Remember);
  /// A choice an earlier process made: \p Code runs every launch.
  MeasuredChoice(const CompiledKernel &Mode, CodeCandidate Remembered,
                 std::shared_ptr<CompiledKernel> Code);

  CodeCandidate winner() const {
    return Decided.load(std::memory_order_acquire);
  }
  /// The code of candidate \p C, which is there.
  const CompiledKernel &code(CodeCandidate C) const {
    return C == CodeCandidate::Mode ? Mode : *Codes[unsigned(C)];
  }
  /// Candidates are numbered below this; those without code never run.
  unsigned candidates() const { return Count; }
  bool has(CodeCandidate C) const {
    return C == CodeCandidate::Mode || Codes[unsigned(C)];
  }

  /// In a measuring launch: the candidate the next chunk runs. Goes round
  /// those still in the running, over the chunks of every thread and every
  /// launch.
  CodeCandidate nextTurn();
  /// A chunk of \p Groups groups that candidate \p Who ran in \p Ns.
  /// Decides once the samples allow it.
  void record(CodeCandidate Who, uint64_t Ns, uint64_t Groups);

  /// Chunks per participant in a measuring launch: enough for a clear
  /// difference to decide within it.
  static constexpr uint64_t ChunksPerThread = 24;
  /// The least time a measured chunk should take, in ns: well above the
  /// clock's cost and resolution.
  static constexpr uint64_t MinChunkNs = 5000;

private:
  const CompiledKernel &Mode;
  std::shared_ptr<CompiledKernel> Codes[MaxCandidates];
  unsigned Count;
  std::function<void(CodeCandidate)> Remember;
  std::atomic<CodeCandidate> Decided{CodeCandidate::None};
  std::atomic<uint64_t> Turns{0};
  /// Bit C: candidate C is still in the running.
  std::atomic<unsigned> Running{0};
  std::mutex M;
  ChoiceSamples Samples;
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_MEASUREDCHOICE_H
