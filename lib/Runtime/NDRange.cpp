//===- NDRange.cpp - Kernel launches: NDRange, task and native ------------===//
// SPDX-License-Identifier: MIT
//
// Launching a kernel: the NDRange is validated against the device limits
// and the kernel's reqd_work_group_size (OpenCL 1.2: the global size must be
// a multiple of the local size); a NULL local size is chosen here. The
// work-group functions are compiled for the local size at enqueue, as pocl
// does (DESIGN.md section 2), and cached in the program per kernel and local
// size. The arguments are copied when enqueued, so later clSetKernelArg
// calls do not change a command already in the queue. Native kernels
// (clEnqueueNativeKernel) are host functions the scheduler thread calls
// with a copy of their argument block.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include "Device/Pthread/WorkerPool.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace iss;

/// Attaches the measured choice (POCL_ISS_CHOICE, where launches are
/// tiered) to the mode's code in \p Slot once its candidates are there:
/// `vec`'s code (the slot's, or what is loaded or in the kernel cache,
/// never compiled for this) and, where its count found widening close, the
/// kernel as written, from the cache or compiling in the compiler process
/// meanwhile. Decided already where an earlier process remembered it;
/// nothing to choose where the mode's code is `vec`'s. Leaves
/// Slot.ChoiceOpen set while a candidate is still compiling.
static void settleChoice(const _cl_program &P, const std::string &Name,
                         const size_t L[3], _cl_program::CompiledSlot &Slot) {
  if (!Slot.ChoiceOpen || Slot.Pending)
    return;
  std::string Error;
  if (Slot.PendingWritten) {
    std::shared_ptr<CompiledKernel> W;
    BackgroundCompile::Status St = Slot.PendingWritten->poll(W, Error);
    if (St == BackgroundCompile::Status::Running)
      return;
    if (St == BackgroundCompile::Status::Done && !W->Subkernels.empty())
      Slot.ChoiceWritten = W;
    else
      debugLog(DbgRuntime,
               "compiling %s as written for local size %zux%zux%zu failed, "
               "the choice goes without it: %s",
               Name.c_str(), L[0], L[1], L[2], Error.c_str());
    Slot.PendingWritten.reset();
  }
  const std::shared_ptr<CompiledKernel> &Mode = Slot.Code;
  std::shared_ptr<CompiledKernel> Vec = std::move(Slot.ChoiceVec);
  std::shared_ptr<CompiledKernel> Written = std::move(Slot.ChoiceWritten);
  bool Asked = Written || Slot.PendingWritten;
  Slot.ChoiceOpen = false;
  if (Mode->choice())
    return;
  CodeCandidate Remembered = rememberedChoice(P.Binary, Name, L);
  if (Remembered == CodeCandidate::Mode)
    return;
  if (!Vec)
    Vec =
        getCompiledKernel(P.Binary, Name, L, Error, CompileTier::VecCachedOnly);
  if (Vec && (Vec == Mode || Vec->Subkernels.empty()))
    Vec = nullptr; // the mode's code is vec's
  bool Close = Mode->WrittenCandidate || (Vec && Vec->WrittenCandidate);
  if (Close && !Written)
    Written = getCompiledKernel(P.Binary, Name, L, Error,
                                CompileTier::WrittenCachedOnly);
  auto Log = [&](const char *What) {
    debugLog(DbgDevice, "%s, local size %zux%zux%zu: %s", Name.c_str(), L[0],
             L[1], L[2], What);
  };
  if ((Remembered == CodeCandidate::Vec && Vec) ||
      (Remembered == CodeCandidate::Written && Written)) {
    Log(Remembered == CodeCandidate::Vec
            ? "vec's code, as measured by an earlier process"
            : "the kernel as written, as measured by an earlier process");
    Mode->attachChoice(std::make_shared<MeasuredChoice>(
        *Mode, Remembered, Remembered == CodeCandidate::Vec ? Vec : Written));
    return;
  }
  if (Close && !Written && !Asked) {
    // Compiled behind the launches, which run the mode's code meanwhile.
    Slot.PendingWritten = BackgroundCompile::start(
        std::make_shared<const std::vector<uint8_t>>(P.Binary), Name, L, true);
    if (Slot.PendingWritten) {
      Slot.ChoiceVec = Vec;
      Slot.ChoiceOpen = true;
      return;
    }
  }
  if (!Vec && !Written)
    return;
  Log(!Written ? "measuring the mode's code against vec's"
      : Vec    ? "measuring the mode's code against vec's and the kernel "
                 "as written"
               : "measuring the mode's code against the kernel as written");
  Mode->attachChoice(std::make_shared<MeasuredChoice>(
      *Mode, Vec, Written, choiceRememberer(P.Binary, Name, L)));
}

/// The largest divisor of \p N not above \p Limit; with \p Multiple > 1, the
/// largest such divisor that is a multiple of it, if there is one.
static size_t largestDivisor(size_t N, size_t Limit, size_t Multiple) {
  Limit = std::max<size_t>(1, std::min(N, Limit));
  if (Multiple > 1)
    for (size_t C = Limit / Multiple * Multiple; C >= Multiple; C -= Multiple)
      if (N % C == 0)
        return C;
  for (size_t C = Limit; C > 1; --C)
    if (N % C == 0)
      return C;
  return 1;
}

/// Picks a local size for a NULL local_work_size: big work groups with a
/// dimension 0 that is a multiple of the vector width (the work-item loop
/// the compiler vectorizes), then smaller ones until every thread has a
/// work group.
static void pickLocalSize(cl_uint Dims, const size_t *Global, cl_device_id D,
                          size_t Width, size_t *Local) {
  size_t Budget = D->MaxWorkGroupSize;
  for (cl_uint I = 0; I < Dims; ++I) {
    Local[I] =
        largestDivisor(Global[I], std::min(Budget, D->MaxWorkItemSizes[I]),
                       I == 0 ? Width : 1);
    Budget /= Local[I];
  }
  const size_t Threads = D->numThreads();
  auto Groups = [&] {
    size_t G = 1;
    for (cl_uint I = 0; I < Dims; ++I)
      G *= Global[I] / Local[I];
    return G;
  };
  // Shrink the outermost dimensions first: dimension 0 keeps its width.
  for (int I = static_cast<int>(Dims) - 1; I >= 0 && Groups() < Threads;) {
    if (Local[I] == 1) {
      --I;
      continue;
    }
    Local[I] = largestDivisor(Global[I], Local[I] - 1, I == 0 ? Width : 1);
  }
}

namespace {

/// A kernel launch: the launch as the worker pool runs it, and in the same
/// allocation its argument slots, __local slots, retained buffers and
/// argument bytes (Command.h says why one allocation).
class KernelCommand final : public Command {
public:
  static std::unique_ptr<KernelCommand> make(size_t NumSlots, size_t NumLocals,
                                             size_t NumMems, size_t Bytes) {
    size_t SlotsAt = roundUp(sizeof(KernelCommand), alignof(void *));
    size_t LocalsAt = roundUp(SlotsAt + NumSlots * sizeof(void *),
                              alignof(KernelLaunch::LocalSlot));
    size_t MemsAt =
        roundUp(LocalsAt + NumLocals * sizeof(KernelLaunch::LocalSlot),
                alignof(Ref<_cl_mem>));
    size_t ArgsAt = MemsAt + NumMems * sizeof(Ref<_cl_mem>);
    // The bytes start 128-byte aligned (long16), with room to align them.
    void *Mem = ::operator new(ArgsAt + ArgAlign + Bytes, std::nothrow);
    if (!Mem)
      return nullptr;
    auto *Base = static_cast<char *>(Mem);
    std::unique_ptr<KernelCommand> C(new (Mem) KernelCommand());
    C->Slots = reinterpret_cast<void **>(Base + SlotsAt);
    C->Locals = reinterpret_cast<KernelLaunch::LocalSlot *>(Base + LocalsAt);
    C->Mems = reinterpret_cast<Ref<_cl_mem> *>(Base + MemsAt);
    uintptr_t Args = reinterpret_cast<uintptr_t>(Base + ArgsAt);
    C->Args = reinterpret_cast<char *>(roundUp(Args, ArgAlign));
    C->ArgBytes = Bytes;
    std::fill_n(C->Slots, NumSlots, nullptr);
    C->Launch.Slots = C->Slots;
    C->Launch.NumSlots = NumSlots;
    C->Launch.Locals = C->Locals;
    return C;
  }
  ~KernelCommand() override { release(); }
  static void operator delete(void *P) { ::operator delete(P); }

  void addLocal(unsigned Slot, size_t Offset) {
    Locals[Launch.NumLocals++] = {Slot, Offset};
  }
  void addMem(cl_mem M) { new (&Mems[NumMems++]) Ref<_cl_mem>(M); }

  /// The same launch with the same argument snapshot (a command buffer's
  /// recorded launch, enqueued again): slots into the snapshot point into
  /// the copy's.
  std::unique_ptr<Command> clone() const override {
    std::unique_ptr<KernelCommand> C =
        make(Launch.NumSlots, Launch.NumLocals, NumMems, ArgBytes);
    if (!C)
      return nullptr;
    std::memcpy(C->Args, Args, ArgBytes);
    for (size_t I = 0; I < Launch.NumSlots; ++I) {
      auto *S = static_cast<char *>(Slots[I]);
      C->Slots[I] =
          S >= Args && S <= Args + ArgBytes ? C->Args + (S - Args) : Slots[I];
    }
    for (size_t I = 0; I < Launch.NumLocals; ++I)
      C->addLocal(Locals[I].Slot, Locals[I].Offset);
    for (size_t I = 0; I < NumMems; ++I)
      C->addMem(Mems[I].get());
    C->Pool = Pool;
    C->Kernel = Kernel;
    C->Compiled = Compiled;
    C->Launch.Kernel = Launch.Kernel;
    C->Launch.WorkDim = Launch.WorkDim;
    C->Launch.MaxThreads = Launch.MaxThreads;
    for (int I = 0; I < 3; ++I) {
      C->Launch.NumGroups[I] = Launch.NumGroups[I];
      C->Launch.GlobalOffset[I] = Launch.GlobalOffset[I];
    }
    return C;
  }

  KernelLaunch Launch;
  WorkerPool *Pool = nullptr; ///< at enqueue, for its size only
  Ref<_cl_kernel> Kernel;
  std::shared_ptr<CompiledKernel> Compiled;
  void **Slots = nullptr;
  char *Args = nullptr;
  size_t ArgBytes = 0;

private:
  KernelCommand() = default;
  static constexpr size_t ArgAlign = 128;
  static size_t roundUp(size_t X, size_t A) { return (X + A - 1) / A * A; }

  cl_int execute() override {
    // The device's pool now, not Pool: a command buffer's command recorded
    // before fork runs in the child on the child's pool (Fork.cpp).
    return theDevice()->pool().run(Launch) ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
  }
  void release() override {
    for (size_t I = 0; I < NumMems; ++I)
      Mems[I].~Ref<_cl_mem>();
    NumMems = 0;
    Kernel = Ref<_cl_kernel>();
    Compiled.reset();
  }

  KernelLaunch::LocalSlot *Locals = nullptr;
  Ref<_cl_mem> *Mems = nullptr;
  size_t NumMems = 0; ///< constructed entries of Mems
};

} // namespace

/// clEnqueueNDRangeKernel, clEnqueueTask and clCommandNDRangeKernelKHR.
cl_int iss::ndrangeCommand(const char *Func, const CommandTarget &T,
                           cl_kernel K, cl_uint Dims, const size_t *Offset,
                           const size_t *Global, const size_t *LocalIn,
                           cl_command_type Type) {
  cl_command_queue Q = T.Q;
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!isValid(K))
    return apiError(Func, CL_INVALID_KERNEL, "invalid kernel");
  cl_program P = K->Program.get();
  if (P->Context.get() != Q->Context.get())
    return apiError(Func, CL_INVALID_CONTEXT,
                    "kernel and queue are from different contexts");
  if (!P->isExecutable())
    return apiError(Func, CL_INVALID_PROGRAM_EXECUTABLE,
                    "no executable for the queue's device");
  if (Dims < 1 || Dims > 3)
    return apiError(Func, CL_INVALID_WORK_DIMENSION, "work_dim not 1..3");
  // OpenCL 3.0 (clEnqueueNDRangeKernel): on a 2.1 or newer device, a NULL
  // global size or a 0 in one of its dimensions is no error but an empty
  // launch, which completes once its wait list has, like a marker.
  bool Empty = !Global;
  cl_device_id D = Q->Device;
  const size_t *Reqd = K->Info.ReqdWorkGroupSize;
  bool HasReqd = Reqd[0] || Reqd[1] || Reqd[2];
  size_t G[3] = {1, 1, 1}, L[3] = {1, 1, 1}, O[3] = {0, 0, 0};
  for (cl_uint I = 0; I < Dims; ++I) {
    G[I] = Global ? Global[I] : 0;
    Empty |= G[I] == 0;
    O[I] = Offset ? Offset[I] : 0;
    if (O[I] > SIZE_MAX - G[I])
      return apiError(Func, CL_INVALID_GLOBAL_OFFSET,
                      "offset + global size overflows");
  }
  // Every condition OpenCL 3.0 lists for clEnqueueNDRangeKernel before our
  // own limit on the global sizes' product below: a local size past
  // CL_DEVICE_MAX_WORK_ITEM_SIZES is CL_INVALID_WORK_ITEM_SIZE whatever the
  // global size. Each dimension is checked before the local sizes'
  // product, which cannot overflow then (it saturates all the same).
  if (LocalIn) {
    size_t Total = 1;
    for (cl_uint I = 0; I < Dims; ++I) {
      L[I] = LocalIn[I];
      if (L[I] == 0)
        return apiError(Func, CL_INVALID_WORK_GROUP_SIZE, "a local size is 0");
      if (L[I] > D->MaxWorkItemSizes[I])
        return apiError(Func, CL_INVALID_WORK_ITEM_SIZE,
                        "local size above CL_DEVICE_MAX_WORK_ITEM_SIZES");
      if (!mulSize(Total, L[I], Total))
        Total = SIZE_MAX;
    }
    if (Total > D->MaxWorkGroupSize)
      return apiError(Func, CL_INVALID_WORK_GROUP_SIZE,
                      "work-group size above CL_DEVICE_MAX_WORK_GROUP_SIZE");
    for (cl_uint I = 0; I < Dims; ++I)
      if (G[I] % L[I])
        return apiError(Func, CL_INVALID_WORK_GROUP_SIZE,
                        "global size is not a multiple of the local size");
    if (HasReqd)
      for (int I = 0; I < 3; ++I)
        if (L[I] != std::max<size_t>(Reqd[I], 1))
          return apiError(Func, CL_INVALID_WORK_GROUP_SIZE,
                          "local size differs from reqd_work_group_size");
  } else if (HasReqd) {
    // OpenCL 1.2 (5.8): a kernel with reqd_work_group_size needs that local
    // size spelled out.
    return apiError(Func, CL_INVALID_WORK_GROUP_SIZE,
                    "local_work_size is NULL but the kernel has "
                    "reqd_work_group_size");
  }
  // The number of work-items must be a size_t too, as each global size
  // must (OpenCL 1.2, 5.8): were its product to wrap, the group count the
  // device runs would wrap with it ({2^22, 2^21, 2^21} would run nothing).
  // CL_INVALID_GLOBAL_WORK_SIZE rather than CL_OUT_OF_RESOURCES: no local
  // size or resource makes this NDRange representable.
  size_t Items = 1;
  for (cl_uint I = 0; I < Dims && !Empty; ++I)
    if (!mulSize(Items, G[I], Items))
      return apiError(Func, CL_INVALID_GLOBAL_WORK_SIZE,
                      "the number of work-items overflows size_t");
  if (!LocalIn && !Empty)
    pickLocalSize(Dims, G, D, preferredMultiple(D), L);
  if (cl_int E = T.checkWaits(Func))
    return E;
  if (Empty) {
    {
      std::lock_guard<std::mutex> Lock(K->M);
      for (const KernelArgValue &V : K->Args)
        if (!V.IsSet)
          return apiError(Func, CL_INVALID_KERNEL_ARGS,
                          "an argument has not been set");
    }
    debugLog(DbgDevice, "%s: %s with no work-item: nothing to run", Func,
             K->Info.Name.c_str());
    return T.run(Type, nullptr);
  }

  // The argument snapshot, in the command's own allocation. Every value is
  // placed at its alignment in one block; buffer slots point at a pointer
  // stored in the block.
  const auto &Infos = K->Info.Args;
  const auto &AutoLocals = K->Info.AutoLocals;
  std::unique_ptr<KernelCommand> C;
  size_t LocalBytes = 0;
  std::array<size_t, 3> LocalKey = {L[0], L[1], L[2]};
  // The channel order and type of each image argument, which the compile
  // makes constants (iss-image-formats, lib/Compiler/WorkGroup/
  // ImageFormats.cpp): the work-group functions are compiled under the
  // kernel's name followed by them. Empty, so nothing to allocate, for a
  // kernel without images. Not the samplers: the branches on their bits
  // predict well, and launches with different samplers (the CTS's, a
  // program per sampler) then share the compiles.
  std::string Formats;
  {
    std::lock_guard<std::mutex> Lock(K->M);
    size_t Bytes = 0, NumLocals = AutoLocals.size(), NumMems = 0;
    auto Place = [&](size_t I) {
      const KernelArgValue &V = K->Args[I];
      size_t Align = std::max<size_t>(Infos[I].Align, alignof(void *));
      size_t Len =
          Infos[I].Kind == ArgKind::Value || Infos[I].Kind == ArgKind::Sampler
              ? V.Bytes.size()
              : sizeof(void *);
      size_t At = (Bytes + Align - 1) / Align * Align;
      Bytes = At + Len;
      return At;
    };
    for (size_t I = 0; I < Infos.size(); ++I) {
      const KernelArgValue &V = K->Args[I];
      if (!V.IsSet)
        return apiError(Func, CL_INVALID_KERNEL_ARGS,
                        "an argument has not been set");
      Place(I);
      NumLocals += Infos[I].Kind == ArgKind::Local;
      NumMems += V.Mem != nullptr;
      if (Infos[I].Kind == ArgKind::Image && V.Mem && isValid(V.Mem) &&
          V.Mem->isImage()) {
        char Buf[64];
        std::snprintf(Buf, sizeof(Buf), "#%zu=%x.%x", I,
                      unsigned(V.Mem->ImageFormat.image_channel_order),
                      unsigned(V.Mem->ImageFormat.image_channel_data_type));
        Formats += Buf;
      }
    }
    C = KernelCommand::make(Infos.size() + AutoLocals.size(), NumLocals,
                            NumMems, Bytes);
    if (!C)
      return apiError(Func, CL_OUT_OF_HOST_MEMORY, "argument snapshot");
    Bytes = 0;
    for (size_t I = 0; I < Infos.size(); ++I) {
      const KernelArgValue &V = K->Args[I];
      char *At = C->Args + Place(I);
      C->Slots[I] = At;
      switch (Infos[I].Kind) {
      case ArgKind::Value:
      case ArgKind::Sampler:
        std::memcpy(At, V.Bytes.data(), V.Bytes.size());
        break;
      case ArgKind::Local:
        C->addLocal(static_cast<unsigned>(I), LocalBytes);
        LocalBytes += (V.LocalSize + 63) / 64 * 64;
        break;
      default: {
        void *Addr = V.SvmPtr; // an SVM pointer as set; null otherwise
        if (V.Mem) {
          if (!isValid(V.Mem))
            return apiError(Func, CL_INVALID_MEM_OBJECT,
                            "a buffer argument was released");
          // An image is its descriptor (WorkGroupABI.h), which lives as
          // long as the image the command retains.
          Addr = Infos[I].Kind == ArgKind::Image
                     ? static_cast<void *>(&V.Mem->DevImage)
                     : V.Mem->Data;
          C->addMem(V.Mem);
        }
        std::memcpy(At, &Addr, sizeof(void *));
        break;
      }
      }
    }
    if (K->CompiledLocal == LocalKey && K->CompiledFormats == Formats)
      C->Compiled = K->Compiled;
  }
  for (size_t I = 0; I < AutoLocals.size(); ++I) {
    size_t Align = std::max<size_t>(AutoLocals[I].second, 64);
    LocalBytes = (LocalBytes + Align - 1) / Align * Align;
    C->addLocal(static_cast<unsigned>(Infos.size() + I), LocalBytes);
    LocalBytes += AutoLocals[I].first;
  }
  if (LocalBytes > D->LocalMemSize)
    return apiError(Func, CL_OUT_OF_RESOURCES,
                    "the kernel needs more local memory than the device has");

  // The work-group functions for this local size, compiled once per
  // program; the kernel remembers the last ones it used. With
  // POCL_ISS_TIERED, the first launch of a kernel that is not compiled yet
  // runs `vec`'s code while the compiler process compiles POCL_ISS_MODE's;
  // the launches run `vec`'s until the mode's has arrived, and never wait
  // for it (so the kernel remembers only the mode's).
  if (!C->Compiled) {
    const std::string Name = K->Info.Name + Formats;
    bool Final = true;
    {
      std::lock_guard<std::mutex> Lock(P->CompiledM);
      _cl_program::CompiledSlot &Slot = P->Compiled[{Name, LocalKey}];
      if (!Slot.Code) {
        std::string Error;
        std::shared_ptr<CompiledKernel> Code;
        std::shared_ptr<BackgroundCompile> Pending;
        // The binary as the compiler process's requests hold it: one copy
        // for the mode's compile and the kernel as written's.
        std::shared_ptr<const std::vector<uint8_t>> Binary;
        if (tieredLaunches()) {
          // The mode's code where it is at hand; else the compiler process
          // starts on it before `vec`'s is compiled here, beside it.
          Code = getCompiledKernel(P->Binary, Name, L, Error,
                                   CompileTier::CachedOnly);
          if (!Code) {
            Binary = std::make_shared<const std::vector<uint8_t>>(P->Binary);
            Pending = BackgroundCompile::start(Binary, Name, L);
          }
          Slot.ChoiceOpen = measuredChoices();
        }
        if (!Code)
          Code =
              getCompiledKernel(P->Binary, Name, L, Error,
                                Pending ? CompileTier::Vec : CompileTier::Mode);
        if (!Code) {
          debugLog(DbgRuntime,
                   "%s: compiling %s for local size %zux%zux%zu: %s", Func,
                   Name.c_str(), L[0], L[1], L[2], Error.c_str());
          return apiError(
              Func, CL_OUT_OF_RESOURCES,
              "the kernel could not be compiled for this local size");
        }
        if (Code->Subkernels.empty())
          return apiError(Func, CL_OUT_OF_RESOURCES,
                          "the compiled kernel has no work-group function");
        Slot.Code = Code;
        Slot.Pending = Pending;
        Final = !Pending;
        recordCompiledKernel(Slot.Code);
        if (Pending && Slot.ChoiceOpen) {
          // `vec`'s code is a candidate; the kernel as written too where
          // its count was close, compiled after the mode's.
          Slot.ChoiceVec = Code;
          if (Code->WrittenCandidate)
            Slot.PendingWritten =
                BackgroundCompile::start(Binary, Name, L, true);
        }
      }
      if (Slot.Pending) {
        std::string Error;
        std::shared_ptr<CompiledKernel> Code;
        BackgroundCompile::Status St = Slot.Pending->poll(Code, Error);
        if (St == BackgroundCompile::Status::Running) {
          Final = false;
        } else {
          // A compile that failed leaves the launches `vec`'s code, which is
          // right: no error for what the first launch ran.
          if (St == BackgroundCompile::Status::Done &&
              !Code->Subkernels.empty())
            Slot.Code = Code;
          else
            debugLog(DbgRuntime,
                     "%s: compiling %s for local size %zux%zux%zu in mode %s "
                     "failed, its launches keep vec's code: %s",
                     Func, Name.c_str(), L[0], L[1], L[2],
                     modeName(settings().IssMode),
                     Error.empty() ? "no work-group function" : Error.c_str());
          Slot.Pending.reset();
          Final = true;
        }
      }
      settleChoice(*P, Name, L, Slot);
      // A launch that finds the kernel's code final skips this table.
      Final = Final && !Slot.ChoiceOpen;
      C->Compiled = Slot.Code;
    }
    if (Final) {
      std::lock_guard<std::mutex> KLock(K->M);
      K->CompiledLocal = LocalKey;
      K->CompiledFormats = Formats;
      K->Compiled = C->Compiled;
    }
  }
  // Private and context arrays beyond the stack live in scratch memory,
  // one work group's worth per thread: refuse what the host cannot hold
  // rather than share it.
  C->Pool = &D->pool();
  if (C->Compiled->ScratchBytes > D->GlobalMemSize / C->Pool->size())
    return apiError(Func, CL_OUT_OF_RESOURCES,
                    "the kernel's private memory per work group exceeds the "
                    "device's memory");
  C->Kernel = Ref<_cl_kernel>(K);
  KernelLaunch &Launch = C->Launch;
  Launch.Kernel = C->Compiled.get();
  Launch.WorkDim = Dims;
  Launch.MaxThreads = D->numThreads(); // a sub-device's compute units
  for (int I = 0; I < 3; ++I) {
    Launch.NumGroups[I] = G[I] / L[I];
    Launch.GlobalOffset[I] = O[I];
  }
  debugLog(DbgDevice, "%s: %s global %zux%zux%zu local %zux%zux%zu", Func,
           K->Info.Name.c_str(), G[0], G[1], G[2], L[0], L[1], L[2]);
  return T.submit(Type, std::move(C));
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue Q, cl_kernel K, cl_uint Dims, const size_t *Offset,
    const size_t *Global, const size_t *Local, cl_uint NumWait,
    const cl_event *Wait, cl_event *Event) {
  return ndrangeCommand(__func__, CommandTarget::queue(Q, NumWait, Wait, Event),
                        K, Dims, Offset, Global, Local,
                        CL_COMMAND_NDRANGE_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue Q, cl_kernel K,
                                              cl_uint NumWait,
                                              const cl_event *Wait,
                                              cl_event *Event) {
  const size_t One[3] = {1, 1, 1};
  return ndrangeCommand(__func__, CommandTarget::queue(Q, NumWait, Wait, Event),
                        K, 1, nullptr, One, One, CL_COMMAND_TASK);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue Q, void(CL_CALLBACK *Fn)(void *), void *Args,
    size_t ArgsSize, cl_uint NumMems, const cl_mem *Mems, const void **Locs,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  // The checks in the order of OpenCL 3.0 (5.10) and pocl 3.1.
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!Fn)
    return ISS_ERR(CL_INVALID_VALUE, "user_func is NULL");
  if (!Args && (ArgsSize || NumMems))
    return ISS_ERR(CL_INVALID_VALUE,
                   "args is NULL but cb_args or num_mem_objects is not 0");
  if (Args && !ArgsSize)
    return ISS_ERR(CL_INVALID_VALUE, "args is not NULL but cb_args is 0");
  if ((NumMems > 0) != (Mems != nullptr) || (NumMems > 0) != (Locs != nullptr))
    return ISS_ERR(CL_INVALID_VALUE,
                   "mem_list and args_mem_loc disagree with num_mem_objects");
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  // Every handle's location must lie inside the args block: it is where
  // the copy gets the buffer's pointer, and a location outside would be a
  // write outside the copy.
  std::vector<size_t> Offsets(NumMems);
  std::vector<Ref<_cl_mem>> Keep(NumMems);
  for (cl_uint I = 0; I < NumMems; ++I) {
    if (Mems[I] && (!isValid(Mems[I]) || Mems[I]->Type != CL_MEM_OBJECT_BUFFER))
      return ISS_ERR(CL_INVALID_MEM_OBJECT, "an entry of mem_list is not a "
                                            "buffer");
    uintptr_t Loc = reinterpret_cast<uintptr_t>(Locs[I]);
    uintptr_t Base = reinterpret_cast<uintptr_t>(Args);
    if (Loc < Base || Loc - Base > ArgsSize ||
        ArgsSize - (Loc - Base) < sizeof(void *))
      return ISS_ERR(CL_INVALID_VALUE,
                     "an args_mem_loc entry is not a pointer inside args");
    Offsets[I] = Loc - Base;
    Keep[I] = Ref<_cl_mem>(Mems[I]);
  }
  // The copy the function gets (OpenCL 3.0: the application may reuse
  // args when the call returns); the pointers are stored when it runs, as
  // the buffers' data pointers are final then.
  std::vector<char> Copy(static_cast<const char *>(Args),
                         static_cast<const char *>(Args) + ArgsSize);
  return enqueueCommand(
      Q, CL_COMMAND_NATIVE_KERNEL, NumWait, Wait, Event, false,
      [Fn, Copy = std::move(Copy), Offsets = std::move(Offsets),
       Keep = std::move(Keep)]() mutable {
        for (size_t I = 0; I < Keep.size(); ++I) {
          void *Ptr = Keep[I] ? Keep[I]->Data : nullptr;
          std::memcpy(Copy.data() + Offsets[I], &Ptr, sizeof(void *));
        }
        Fn(Copy.empty() ? nullptr : Copy.data());
        return CL_SUCCESS;
      });
}
