//===- WorkerPool.h - Runs the work groups of a kernel launch --*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The pthread device's workers: one thread per core (POCL_MAX_PTHREAD_COUNT
// overrides, POCL_AFFINITY pins), plus the command scheduler's thread, which
// takes part in every launch as participant 0. A launch evaluates the
// compiled kernel's selection function once (the input-space-splitting
// paper, section 5: the scores depend on arguments and offsets, not on the
// group), then hands out work groups in chunks from an atomic counter.
//
// Every participant owns its local memory (for __local arguments and the
// automatic __local variables, 64-byte aligned), its scratch memory (for
// private arrays too big for its stack), its copy of the argument
// slots pointing there, its iss_wg_context and its printf buffer; printf
// output is written to stdout in participant order once the launch is over.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H
#define POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H

#include "pocl-iss/KernelCompiler.h"
#include "pocl-iss/WorkGroupABI.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace iss {

/// One kernel launch, as the runtime prepared it.
struct KernelLaunch {
  const CompiledKernel *Kernel = nullptr;
  /// One slot per kernel argument, then one per automatic __local variable
  /// (WorkGroupABI.h). Slots of __local memory are filled per participant.
  std::vector<void *> Slots;
  /// __local slots: slot index and byte offset in the participant's local
  /// memory.
  struct LocalSlot {
    unsigned Slot;
    size_t Offset;
  };
  std::vector<LocalSlot> Locals;
  uint64_t NumGroups[3] = {1, 1, 1};
  uint64_t GlobalOffset[3] = {0, 0, 0};
  uint32_t WorkDim = 1;
};

class WorkerPool {
public:
  /// \p Threads participants in all (the caller included).
  WorkerPool(unsigned Threads, bool Affinity, size_t LocalMemBytes,
             size_t PrintfBytes);
  unsigned size() const { return NumThreads; }
  /// Runs \p L on the calling thread and the workers; returns when every
  /// work group is done and printf output is flushed. False, with nothing
  /// run, when the scratch memory the kernel needs cannot be allocated.
  bool run(const KernelLaunch &L);

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
  };
  void workerMain(unsigned Index);
  void work(unsigned Index);
  /// Points participant \p Index's argument slots at its own local memory
  /// and returns the work-group context of the current launch for it.
  iss_wg_context prepare(unsigned Index);
  /// Gives every participant at least \p Bytes of scratch memory.
  bool reserveScratch(size_t Bytes);

  unsigned NumThreads;
  size_t LocalMemBytes;
  uint32_t PrintfCapacity;
  std::vector<Participant> Parts;

  std::mutex M;
  std::condition_variable StartCV, DoneCV;
  uint64_t Generation = 0;
  unsigned Running = 0; ///< workers still in the current launch

  // The current launch.
  const KernelLaunch *Launch = nullptr;
  iss_subkernel_fn Fn = nullptr;
  uint64_t TotalGroups = 0;
  uint64_t Chunk = 1;
  std::atomic<uint64_t> NextGroup{0};
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_WORKERPOOL_H
