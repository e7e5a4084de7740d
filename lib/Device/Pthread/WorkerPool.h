//===- WorkerPool.h - Runs the work groups of a kernel launch --*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The pthread device's workers: one thread per core (POCL_MAX_PTHREAD_COUNT
// overrides, POCL_AFFINITY pins), plus the command scheduler's thread, which
// takes part in every launch as participant 0 (the launcher). A launch
// evaluates the compiled kernel's selection function once (the
// input-space-splitting paper, section 5: the scores depend on arguments
// and offsets, not on the group), then hands out work groups in chunks from
// an atomic counter.
//
// The launcher starts on the work groups at once. Workers join while the
// launch is open; when the launcher runs out of groups it closes the launch
// and waits only for the workers that joined, so a worker that wakes late
// costs a launch nothing. Between launches workers spin for a while
// (POCL_ISS_SPIN_US, Spin.h) before they sleep, so back-to-back launches
// find them awake. A launch runs on the launcher alone when its work,
// estimated from the time the kernel's work groups took before, is too
// small to pay for another thread, or when launches of its size have been
// faster that way: the pool measures both ways per kernel and size and
// keeps trying the slower one now and then, since the answer depends on
// the machine's load and caches as much as on the kernel. A launch on a
// sub-device invites no more workers than its compute units allow. Where
// the runtime attached a measured choice to the kernel (MeasuredChoice.h),
// a launch runs the candidate it chose, or while it is open measures both.
//
// Every participant owns its local memory (for __local arguments and the
// automatic __local variables, 64-byte aligned), its scratch memory (for
// private arrays too big for its stack), its copy of the argument slots
// pointing there, its iss_wg_context and its printf buffer; printf output
// is written to stdout in participant order once the launch is over.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H
#define POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H

#include "Device/Pthread/MeasuredChoice.h"

#include "pocl-iss/KernelCompiler.h"
#include "pocl-iss/WorkGroupABI.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace iss {

/// One kernel launch, as the runtime prepared it (the arrays are the
/// runtime's, alive while the launch runs).
struct KernelLaunch {
  const CompiledKernel *Kernel = nullptr;
  /// One slot per kernel argument, then one per automatic __local variable
  /// (WorkGroupABI.h). Slots of __local memory are filled per participant.
  void *const *Slots = nullptr;
  size_t NumSlots = 0;
  /// __local slots: slot index and byte offset in the participant's local
  /// memory.
  struct LocalSlot {
    unsigned Slot;
    size_t Offset;
  };
  const LocalSlot *Locals = nullptr;
  size_t NumLocals = 0;
  uint64_t NumGroups[3] = {1, 1, 1};
  uint64_t GlobalOffset[3] = {0, 0, 0};
  uint32_t WorkDim = 1;
  /// Participants the launch may use, the launcher included: a
  /// sub-device's compute units (0: every thread of the pool).
  unsigned MaxThreads = 0;
};

class WorkerPool {
public:
  /// \p Threads participants in all (the caller included); idle workers
  /// spin \p SpinNs before they sleep.
  WorkerPool(unsigned Threads, bool Affinity, size_t LocalMemBytes,
             size_t PrintfBytes, uint64_t SpinNs);
  unsigned size() const { return NumThreads; }
  /// Runs \p L on the calling thread and the workers that join; returns
  /// when every work group is done and printf output is flushed. False,
  /// with nothing run, when the scratch memory the kernel needs cannot be
  /// allocated. One launch at a time.
  bool run(const KernelLaunch &L);

  /// The least work, estimated from the kernel's earlier launches, worth
  /// giving another thread: waking one, or even synchronising with one
  /// that spins, costs a good part of it.
  static constexpr uint64_t MinParallelNs = 4000;
  /// In a bucket of launch sizes (CompiledKernel::LaunchHistory), every
  /// ExploreEvery-th launch runs the way that has been slower, to notice
  /// when it becomes faster.
  static constexpr uint32_t ExploreEvery = 32;

private:
  struct Participant {
    std::unique_ptr<char, void (*)(void *)> LocalMem{nullptr, nullptr};
    std::unique_ptr<char[]> PrintfBuffer;
    uint32_t PrintfPosition = 0;
    std::vector<void *> Slots;
    std::vector<void *> LocalPtrs;
    /// iss_wg_context::scratch, grown to the largest kernel's need.
    std::unique_ptr<char, void (*)(void *)> Scratch{nullptr, std::free};
    size_t ScratchBytes = 0;
    /// The last launch it took part in (its printf buffer is current).
    uint64_t LastLaunch = 0;
  };
  void workerMain(unsigned Index);
  /// Runs chunks of work groups until none is left; returns how many
  /// groups this participant ran.
  uint64_t work(unsigned Index);
  /// Runs work groups [Begin, End) with \p F.
  void runGroups(iss_subkernel_fn F, void **Slots, iss_wg_context &Ctx,
                 uint64_t Begin, uint64_t End) const;
  /// Points participant \p Index's argument slots at its own local memory
  /// and returns the work-group context of the current launch for it.
  iss_wg_context prepare(unsigned Index);
  /// The subkernel of \p K the launch runs (its selection function's
  /// pick), counted for POCL_ISS_STATS.
  iss_subkernel_fn select(const CompiledKernel &K);
  /// Gives every participant at least \p Bytes of scratch memory.
  bool reserveScratch(size_t Bytes);
  /// How many workers may join a launch, and the bucket of the launch
  /// history its time goes to (-1: none).
  struct Plan {
    unsigned Workers;
    int Bucket;
  };
  /// Plans a launch of \p Groups work groups of \p K on at most \p Threads
  /// participants: with workers unless it is small, or its size has run
  /// faster on one thread.
  Plan plan(const CompiledKernel &K, uint64_t Groups, unsigned Threads) const;

  unsigned NumThreads;
  size_t LocalMemBytes;
  uint32_t PrintfCapacity;
  uint64_t SpinNs;
  std::vector<Participant> Parts;

  /// The launch gate: the launch number in the high 32 bits, Closed, and
  /// the number of workers that joined in the low bits. A worker joins by
  /// incrementing it while the launch is open and has room.
  static constexpr uint64_t Closed = 1ull << 31;
  static constexpr uint64_t JoinedMask = Closed - 1;
  alignas(64) std::atomic<uint64_t> Gate{0};
  std::atomic<unsigned> Invited{0};          ///< workers that may join
  alignas(64) std::atomic<unsigned> Left{0}; ///< joined workers that are done
  uint64_t LaunchNumber = 0;

  // Sleeping workers.
  std::mutex M;
  std::condition_variable StartCV;
  std::atomic<unsigned> Sleepers{0};

  // The current launch, written by the launcher before it opens the gate.
  const KernelLaunch *Launch = nullptr;
  iss_subkernel_fn Fn = nullptr;
  /// A launch that measures the candidates of a choice: its chunks go
  /// round them (Fns, in CodeCandidate's order; the mode's is Fn) while the
  /// choice is open.
  MeasuredChoice *Measuring = nullptr;
  iss_subkernel_fn Fns[MaxCandidates] = {};
  uint64_t TotalGroups = 0;
  uint64_t Chunk = 1;
  alignas(64) std::atomic<uint64_t> NextGroup{0};
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H
