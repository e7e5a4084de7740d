//===- WorkerPool.cpp - Runs the work groups of a kernel launch -----------===//
// SPDX-License-Identifier: MIT
//
// See WorkerPool.h. Work groups are numbered linearly, dimension 0 fastest;
// chunks are sized so that every participant gets several of them, which
// evens out groups of different cost (partial tiles, early exits) without
// paying an atomic per group on big launches.
//
// The gate protocol: the launcher writes the launch, stores a new gate
// (launch number, open, nobody joined) and wakes sleeping workers; a worker
// joins by a compare-and-swap that counts it in, which fails once the
// launcher has closed the gate. The launcher's close returns how many
// joined, and it waits for exactly those (Left). Workers that sleep count
// themselves in Sleepers before they check the gate under M, and the
// launcher reads Sleepers after storing the gate, so one of the two always
// sees the other (both sequentially consistent) and no wake-up is lost.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/WorkerPool.h"

#include "Device/Pthread/HostInfo.h"
#include "Device/Pthread/Spin.h"
#include "Device/Pthread/Thread.h"
#include "pocl-iss/Env.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace iss {

static uint64_t launchOf(uint64_t G) { return G >> 32; }

static uint64_t monotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

WorkerPool::WorkerPool(unsigned Threads, bool Affinity, size_t LocalBytes,
                       size_t PrintfBytes, uint64_t Spin)
    : NumThreads(std::max(1u, Threads)), LocalMemBytes(LocalBytes),
      SpinNs(Spin) {
  PrintfCapacity =
      static_cast<uint32_t>(std::max<size_t>(4096, PrintfBytes / NumThreads));
  Parts.resize(NumThreads);
  for (Participant &P : Parts) {
    size_t Bytes = (LocalMemBytes + 63) / 64 * 64;
    P.LocalMem = {static_cast<char *>(std::aligned_alloc(64, Bytes)),
                  std::free};
    P.PrintfBuffer.reset(new char[PrintfCapacity]);
  }
  if (Affinity)
    bindThreadToCore(0);
  for (unsigned I = 1; I < NumThreads; ++I) {
    bool Started = startThread([this, I, Affinity] {
      if (Affinity)
        bindThreadToCore(I);
      workerMain(I);
    });
    if (!Started) {
      // Fewer participants still run everything correctly.
      debugLog(DbgWarning, "could only start %u of %u worker threads", I,
               NumThreads);
      NumThreads = I;
      break;
    }
  }
  debugLog(DbgDevice, "worker pool: %u threads, %zu bytes of local memory each",
           NumThreads, LocalMemBytes);
}

void WorkerPool::workerMain(unsigned Index) {
  uint64_t Seen = 0; // the last launch this worker looked at
  for (;;) {
    auto NewLaunch = [&] {
      return launchOf(Gate.load(std::memory_order_seq_cst)) != Seen;
    };
    if (!spinUntil(NewLaunch, SpinNs)) {
      std::unique_lock<std::mutex> L(M);
      Sleepers.fetch_add(1, std::memory_order_seq_cst);
      StartCV.wait(L, NewLaunch);
      Sleepers.fetch_sub(1, std::memory_order_relaxed);
    }
    uint64_t G = Gate.load(std::memory_order_acquire);
    Seen = launchOf(G);
    // Join if the launch is still open and has room.
    bool Joined = false;
    while (!(G & Closed) &&
           (G & JoinedMask) < Invited.load(std::memory_order_relaxed)) {
      if (Gate.compare_exchange_weak(G, G + 1, std::memory_order_acq_rel,
                                     std::memory_order_acquire)) {
        Joined = true;
        break;
      }
      if (launchOf(G) != Seen)
        break; // a later launch: look again
    }
    if (!Joined)
      continue;
    Parts[Index].LastLaunch = Seen;
    work(Index);
    Left.fetch_add(1, std::memory_order_release);
  }
}

iss_wg_context WorkerPool::prepare(unsigned Index) {
  const KernelLaunch &KL = *Launch;
  Participant &P = Parts[Index];
  P.Slots.assign(KL.Slots, KL.Slots + KL.NumSlots);
  P.LocalPtrs.resize(KL.NumLocals);
  for (size_t I = 0; I < KL.NumLocals; ++I) {
    P.LocalPtrs[I] = P.LocalMem.get() + KL.Locals[I].Offset;
    P.Slots[KL.Locals[I].Slot] = &P.LocalPtrs[I];
  }
  P.PrintfPosition = 0;
  iss_wg_context Ctx = {};
  for (int D = 0; D < 3; ++D) {
    Ctx.num_groups[D] = KL.NumGroups[D];
    Ctx.global_offset[D] = KL.GlobalOffset[D];
  }
  Ctx.work_dim = KL.WorkDim;
  Ctx.printf_buffer = P.PrintfBuffer.get();
  Ctx.printf_buffer_capacity = PrintfCapacity;
  Ctx.printf_buffer_position = &P.PrintfPosition;
  Ctx.scratch = P.Scratch.get();
  return Ctx;
}

void WorkerPool::runGroups(iss_subkernel_fn F, void **Slots,
                           iss_wg_context &Ctx, uint64_t Begin,
                           uint64_t End) const {
  const KernelLaunch &KL = *Launch;
  const uint64_t N0 = KL.NumGroups[0], N1 = KL.NumGroups[1];
  // Divisions once per chunk, not per group: a 64-bit division costs as
  // much as a small work group's loop control (gaussian's 1024 groups of
  // mostly inactive work-items per launch).
  Ctx.group_id[0] = Begin % N0;
  Ctx.group_id[1] = (Begin / N0) % N1;
  Ctx.group_id[2] = Begin / (N0 * N1);
  for (uint64_t G = Begin; G < End; ++G) {
    F(Slots, &Ctx);
    if (++Ctx.group_id[0] == N0) {
      Ctx.group_id[0] = 0;
      if (++Ctx.group_id[1] == N1) {
        Ctx.group_id[1] = 0;
        ++Ctx.group_id[2];
      }
    }
  }
}

uint64_t WorkerPool::work(unsigned Index) {
  Participant &P = Parts[Index];
  iss_wg_context Ctx = prepare(Index);
  uint64_t Ran = 0;
  for (;;) {
    uint64_t Begin = NextGroup.fetch_add(Chunk, std::memory_order_relaxed);
    if (Begin >= TotalGroups)
      break;
    uint64_t End = Begin + std::min(Chunk, TotalGroups - Begin);
    CodeCandidate W = Measuring ? Measuring->winner() : CodeCandidate::Mode;
    if (W == CodeCandidate::None) {
      CodeCandidate Who = Measuring->nextTurn();
      uint64_t Start = monotonicNs();
      runGroups(Fns[unsigned(Who)], P.Slots.data(), Ctx, Begin, End);
      Measuring->record(Who, monotonicNs() - Start, End - Begin);
    } else {
      runGroups(Measuring ? Fns[unsigned(W)] : Fn, P.Slots.data(), Ctx, Begin,
                End);
    }
    Ran += End - Begin;
  }
  return Ran;
}

bool WorkerPool::reserveScratch(size_t Bytes) {
  if (Bytes > SIZE_MAX - ISS_SCRATCH_ALIGN)
    return false;
  Bytes =
      (Bytes + ISS_SCRATCH_ALIGN - 1) / ISS_SCRATCH_ALIGN * ISS_SCRATCH_ALIGN;
  for (Participant &P : Parts)
    if (P.ScratchBytes < Bytes) {
      P.Scratch.reset(
          static_cast<char *>(std::aligned_alloc(ISS_SCRATCH_ALIGN, Bytes)));
      P.ScratchBytes = P.Scratch ? Bytes : 0;
      if (!P.Scratch)
        return false;
    }
  return true;
}

WorkerPool::Plan WorkerPool::plan(const CompiledKernel &K, uint64_t Groups,
                                  unsigned Threads) const {
  uint64_t Max = std::min<uint64_t>(Threads - 1, Groups - 1);
  if (!Max)
    return {0, -1};
  CompiledKernel::LaunchHistory &H = K.History;
  uint64_t PerGroup = H.NsPerGroup.load(std::memory_order_relaxed);
  if (!PerGroup) // not measured yet
    return {static_cast<unsigned>(Max), -1};
  // Every participant should get at least MinParallelNs of work.
  uint64_t Shares = Groups * PerGroup / MinParallelNs;
  if (Shares < 2)
    return {0, -1};
  unsigned Workers = static_cast<unsigned>(std::min<uint64_t>(Max, Shares - 1));
  int Bucket = 0;
  while (Shares >= 4) {
    Shares /= 2;
    ++Bucket;
  }
  if (Bucket >= int(CompiledKernel::LaunchHistory::Buckets))
    return {Workers, -1}; // big enough for any thread to pay off
  // Whichever has been faster for launches of this size, and now and
  // then the other, since load and caches change.
  uint32_t N = H.Count[Bucket].fetch_add(1, std::memory_order_relaxed) + 1;
  uint64_t Alone = H.AloneNs[Bucket].load(std::memory_order_relaxed);
  uint64_t Parallel = H.ParallelNs[Bucket].load(std::memory_order_relaxed);
  bool UseWorkers;
  if (!Parallel)
    UseWorkers = true;
  else if (!Alone)
    UseWorkers = false;
  else // workers when clearly faster: on a shared machine both averages
       // are noisy, and flapping between them costs wake-ups
    UseWorkers = (8 * Parallel < 7 * Alone) != (N % ExploreEvery == 0);
  return {UseWorkers ? Workers : 0, Bucket};
}

/// A running average, weight 1/8 to the new sample: one lucky or unlucky
/// launch does not decide.
static void average(std::atomic<uint64_t> &Avg, uint64_t Sample) {
  Sample = std::max<uint64_t>(1, Sample);
  uint64_t Old = Avg.load(std::memory_order_relaxed);
  Avg.store(Old ? (7 * Old + Sample) / 8 : Sample, std::memory_order_relaxed);
}

/// An estimate of the work itself: a preempted launch takes longer than its
/// work, never shorter, so the estimate follows samples down at once and up
/// slowly.
static void lowerEnvelope(std::atomic<uint64_t> &Est, uint64_t Sample) {
  Sample = std::max<uint64_t>(1, Sample);
  uint64_t Old = Est.load(std::memory_order_relaxed);
  uint64_t New = !Old || Sample <= Old ? Sample : Old + (Sample - Old) / 8;
  Est.store(New, std::memory_order_relaxed);
}

iss_subkernel_fn WorkerPool::select(const CompiledKernel &K) {
  // The selection function sees participant 0's slots and group 0.
  uint32_t Sub = 0;
  if (K.Select && K.Subkernels.size() > 1) {
    iss_wg_context Ctx = prepare(0);
    Sub = K.Select(Parts[0].Slots.data(), &Ctx);
    if (Sub >= K.Subkernels.size()) {
      debugLog(DbgDevice, "%s: selection returned %u of %zu subkernels",
               K.KernelName.c_str(), Sub, K.Subkernels.size());
      Sub = 0;
    }
  }
  if (K.Launches)
    K.Launches[Sub].fetch_add(1, std::memory_order_relaxed);
  return K.Subkernels[Sub];
}

bool WorkerPool::run(const KernelLaunch &KL) {
  // The measured choice: the code it chose, or every candidate while it
  // measures.
  const CompiledKernel *Code = KL.Kernel;
  Measuring = KL.Kernel->choice();
  if (Measuring) {
    CodeCandidate W = Measuring->winner();
    if (W != CodeCandidate::None) {
      Code = &Measuring->code(W);
      Measuring = nullptr;
    }
  }
  const CompiledKernel &K = *Code;
  size_t Scratch = K.ScratchBytes;
  if (Measuring)
    for (unsigned C = 1; C < Measuring->candidates(); ++C)
      if (Measuring->has(CodeCandidate(C)))
        Scratch =
            std::max(Scratch, Measuring->code(CodeCandidate(C)).ScratchBytes);
  if (Scratch && !reserveScratch(Scratch)) {
    debugLog(DbgDevice, "%s: no memory for %zu bytes of scratch per thread",
             K.KernelName.c_str(), Scratch);
    return false;
  }
  Launch = &KL;
  TotalGroups = KL.NumGroups[0] * KL.NumGroups[1] * KL.NumGroups[2];
  Fn = select(K);
  if (Measuring) {
    Fns[0] = Fn;
    for (unsigned C = 1; C < Measuring->candidates(); ++C)
      Fns[C] = Measuring->has(CodeCandidate(C))
                   ? select(Measuring->code(CodeCandidate(C)))
                   : nullptr;
  }

  unsigned Threads =
      KL.MaxThreads ? std::min(KL.MaxThreads, NumThreads) : NumThreads;
  Plan LP = TotalGroups ? plan(K, TotalGroups, Threads) : Plan{0, -1};
  unsigned Workers = LP.Workers;
  // Several chunks per participant for balance, but never tiny ones on
  // launches with many small groups. A measuring launch cuts more, so
  // that a clear difference decides within it, as long as a chunk takes
  // long enough to time.
  uint64_t Cuts =
      uint64_t(Workers + 1) * (Measuring ? MeasuredChoice::ChunksPerThread : 8);
  Chunk = std::max<uint64_t>(1, TotalGroups / Cuts);
  if (Measuring)
    if (uint64_t PerGroup =
            K.History.NsPerGroup.load(std::memory_order_relaxed))
      Chunk = std::max(Chunk, MeasuredChoice::MinChunkNs / PerGroup + 1);
  NextGroup.store(0, std::memory_order_relaxed);
  // Launch numbers live in the gate's high 32 bits; 0 is never used.
  LaunchNumber = (LaunchNumber + 1) & 0xffffffffu;
  LaunchNumber += !LaunchNumber;
  Parts[0].LastLaunch = LaunchNumber;
  uint64_t Start = monotonicNs();
  if (Workers) {
    Left.store(0, std::memory_order_relaxed);
    Invited.store(Workers, std::memory_order_relaxed);
    Gate.store(LaunchNumber << 32, std::memory_order_seq_cst);
    if (Sleepers.load(std::memory_order_seq_cst)) {
      { std::lock_guard<std::mutex> L(M); }
      StartCV.notify_all();
    }
  }

  uint64_t Ran = work(0);
  uint64_t Took = monotonicNs() - Start;
  unsigned Joined = 0;
  if (Workers) {
    uint64_t G = Gate.fetch_or(Closed, std::memory_order_acq_rel);
    Joined = static_cast<unsigned>(G & JoinedMask);
    // Those that joined are running their last chunks.
    spinForever([&] { return Left.load(std::memory_order_acquire) == Joined; });
  }
  CompiledKernel::LaunchHistory &H = K.History;
  if (Ran)
    lowerEnvelope(H.NsPerGroup, Took / Ran);
  uint64_t Wall = monotonicNs() - Start;
  if (debugEnabled(DbgDevice))
    debugLog(DbgDevice,
             "%s: %llu groups, %u workers invited, %u joined, %llu ns",
             K.KernelName.c_str(), (unsigned long long)TotalGroups, Workers,
             Joined, (unsigned long long)Wall);
  if (LP.Bucket >= 0) {
    // In 1/16 ns: groups may take only tens of nanoseconds.
    uint64_t PerGroup = Wall * 16 / TotalGroups;
    average(Workers ? H.ParallelNs[LP.Bucket] : H.AloneNs[LP.Bucket], PerGroup);
  }
  // printf output in participant order, from those that took part.
  bool Any = false;
  for (Participant &P : Parts) {
    if (P.LastLaunch != LaunchNumber)
      continue;
    uint32_t Len = std::min(P.PrintfPosition, PrintfCapacity);
    if (Len) {
      std::fwrite(P.PrintfBuffer.get(), 1, Len, stdout);
      Any = true;
    }
    P.PrintfPosition = 0;
  }
  if (Any)
    std::fflush(stdout);
  Launch = nullptr;
  Measuring = nullptr;
  return true;
}

} // namespace iss
