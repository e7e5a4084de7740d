//===- WorkerPool.cpp - Runs the work groups of a kernel launch -----------===//
// SPDX-License-Identifier: MIT
//
// See WorkerPool.h. Work groups are numbered linearly, dimension 0 fastest;
// chunks are sized so that every participant gets several of them, which
// evens out groups of different cost (partial tiles, early exits) without
// paying an atomic per group on big launches.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/WorkerPool.h"

#include "Device/Pthread/HostInfo.h"
#include "Device/Pthread/Thread.h"
#include "pocl-iss/Env.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace iss {

WorkerPool::WorkerPool(unsigned Threads, bool Affinity, size_t LocalBytes,
                       size_t PrintfBytes)
    : NumThreads(std::max(1u, Threads)), LocalMemBytes(LocalBytes) {
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
  uint64_t Seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> L(M);
      StartCV.wait(L, [&] { return Generation != Seen; });
      Seen = Generation;
    }
    work(Index);
    std::lock_guard<std::mutex> L(M);
    if (--Running == 0)
      DoneCV.notify_all();
  }
}

iss_wg_context WorkerPool::prepare(unsigned Index) {
  const KernelLaunch &KL = *Launch;
  Participant &P = Parts[Index];
  P.Slots = KL.Slots;
  P.LocalPtrs.resize(KL.Locals.size());
  for (size_t I = 0; I < KL.Locals.size(); ++I) {
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

void WorkerPool::work(unsigned Index) {
  const KernelLaunch &KL = *Launch;
  Participant &P = Parts[Index];
  iss_wg_context Ctx = prepare(Index);
  const uint64_t N0 = KL.NumGroups[0], N1 = KL.NumGroups[1];
  for (;;) {
    uint64_t Begin = NextGroup.fetch_add(Chunk, std::memory_order_relaxed);
    if (Begin >= TotalGroups)
      break;
    uint64_t End = Begin + std::min(Chunk, TotalGroups - Begin);
    for (uint64_t G = Begin; G < End; ++G) {
      Ctx.group_id[0] = G % N0;
      Ctx.group_id[1] = (G / N0) % N1;
      Ctx.group_id[2] = G / (N0 * N1);
      Fn(P.Slots.data(), &Ctx);
    }
  }
}

bool WorkerPool::reserveScratch(size_t Bytes) {
  Bytes = (Bytes + 63) / 64 * 64;
  for (Participant &P : Parts)
    if (P.ScratchBytes < Bytes) {
      P.Scratch.reset(static_cast<char *>(std::aligned_alloc(64, Bytes)));
      P.ScratchBytes = P.Scratch ? Bytes : 0;
      if (!P.Scratch)
        return false;
    }
  return true;
}

bool WorkerPool::run(const KernelLaunch &KL) {
  const CompiledKernel &K = *KL.Kernel;
  if (K.ScratchBytes && !reserveScratch(K.ScratchBytes)) {
    debugLog(DbgDevice, "%s: no memory for %zu bytes of scratch per thread",
             K.KernelName.c_str(), K.ScratchBytes);
    return false;
  }
  Launch = &KL;
  TotalGroups = KL.NumGroups[0] * KL.NumGroups[1] * KL.NumGroups[2];

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
  Fn = K.Subkernels[Sub];

  // Several chunks per participant for balance, but never tiny ones on
  // launches with many small groups.
  unsigned Workers = static_cast<unsigned>(
      std::min<uint64_t>(NumThreads, std::max<uint64_t>(1, TotalGroups)));
  Chunk = std::max<uint64_t>(1, TotalGroups / (uint64_t(Workers) * 8));
  NextGroup.store(0, std::memory_order_relaxed);

  if (Workers > 1) {
    std::lock_guard<std::mutex> L(M);
    Running = NumThreads - 1;
    ++Generation;
    StartCV.notify_all();
  }
  work(0);
  if (Workers > 1) {
    std::unique_lock<std::mutex> L(M);
    DoneCV.wait(L, [&] { return Running == 0; });
  }
  // printf output in participant order. Only participants that took part
  // in this launch have reset their positions.
  unsigned Used = Workers > 1 ? NumThreads : 1;
  bool Any = false;
  for (unsigned I = 0; I < Used; ++I) {
    Participant &P = Parts[I];
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
  return true;
}

} // namespace iss
