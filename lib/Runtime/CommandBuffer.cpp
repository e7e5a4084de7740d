//===- CommandBuffer.cpp - cl_khr_command_buffer --------------------------===//
// SPDX-License-Identifier: MIT
//
// Command buffers as pocl 3.1 exposes them (cl_khr_command_buffer 0.9.0,
// one queue, capabilities kernel printf, simultaneous use and out of
// order). Recording a command runs the checks of its clEnqueue*
// counterpart against the command buffer's queue and keeps the command
// object the queue would have run (Command.h): a kernel's arguments are
// captured then, as clEnqueueNDRangeKernel captures them. Enqueueing the
// command buffer submits a clone of each recorded command, in recording
// order, each waiting for the events of the enqueue's wait list and for the
// clones its sync points name; a recorded barrier waits for every command
// recorded before it (or its sync points) and every later command waits for
// it. The event returned is a command of type CL_COMMAND_COMMAND_BUFFER_KHR
// that waits for all the clones; until it has run the command buffer is
// pending.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include <algorithm>
#include <optional>

using namespace iss;

namespace iss {
void destroyObject(_cl_command_buffer_khr *B) { deleteObject(B); }
} // namespace iss

cl_int CommandTarget::checkWaits(const char *Func) const {
  if (!Buffer)
    return checkWaitList(Func, Q->Context.get(), NumWait, Wait);
  if ((NumSync == 0) != (Sync == nullptr))
    return apiError(Func, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                    "num_sync_points_in_wait_list and sync_point_wait_list "
                    "disagree");
  std::lock_guard<std::mutex> L(Buffer->M);
  for (cl_uint I = 0; I < NumSync; ++I)
    if (Sync[I] == 0 || Sync[I] > Buffer->Commands.size())
      return apiError(Func, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                      "a sync point this command buffer did not return");
  return CL_SUCCESS;
}

cl_int CommandTarget::submit(cl_command_type Type,
                             std::unique_ptr<Command> C) const {
  if (!Buffer)
    return submitCommand(Q, Type, NumWait, Wait, Event, Blocking, std::move(C));
  std::lock_guard<std::mutex> L(Buffer->M);
  if (Buffer->Finalized)
    return apiError("clCommand*KHR", CL_INVALID_OPERATION,
                    "the command buffer was finalized meanwhile");
  Buffer->Commands.push_back(
      {Type, std::move(C),
       std::vector<cl_sync_point_khr>(Sync, Sync + NumSync)});
  if (SyncOut)
    *SyncOut = static_cast<cl_sync_point_khr>(Buffer->Commands.size());
  return CL_SUCCESS;
}

/// The checks every clCommand*KHR starts with (the extension's order, as
/// pocl 3.1 has it), then the recording target on the buffer's queue.
static cl_int recordTarget(const char *Func, cl_command_buffer_khr B,
                           cl_command_queue Q, cl_uint NumSync,
                           const cl_sync_point_khr *Sync,
                           cl_sync_point_khr *SyncOut,
                           cl_mutable_command_khr *Mutable, CommandTarget &T) {
  if (!isValid(B))
    return apiError(Func, CL_INVALID_COMMAND_BUFFER_KHR,
                    "invalid command buffer");
  if (Q)
    return apiError(Func, CL_INVALID_COMMAND_QUEUE,
                    "command_queue must be NULL (one queue per buffer)");
  if (Mutable)
    return apiError(Func, CL_INVALID_VALUE,
                    "mutable_handle must be NULL (no mutable commands)");
  {
    std::lock_guard<std::mutex> L(B->M);
    if (B->Finalized)
      return apiError(Func, CL_INVALID_OPERATION,
                      "the command buffer is not recording");
  }
  T.Q = B->Queue.get();
  T.Buffer = B;
  T.NumSync = NumSync;
  T.Sync = Sync;
  T.SyncOut = SyncOut;
  return CL_SUCCESS;
}

namespace {
/// Keeps a command buffer pending while an enqueue of it is in flight:
/// dropped when the final command has run or failed.
class PendingGuard {
public:
  explicit PendingGuard(cl_command_buffer_khr B) : B(B) { ++B->Pending; }
  PendingGuard(PendingGuard &&O) noexcept : B(std::move(O.B)) {}
  PendingGuard(const PendingGuard &) = delete;
  ~PendingGuard() {
    if (B)
      --B->Pending;
  }

private:
  Ref<_cl_command_buffer_khr> B;
};
} // namespace

//===----------------------------------------------------------------------===//
// The entries, reached through clGetExtensionFunctionAddress(ForPlatform).
//===----------------------------------------------------------------------===//

static cl_command_buffer_khr CL_API_CALL createCommandBuffer(
    cl_uint NumQueues, const cl_command_queue *Queues,
    const cl_command_buffer_properties_khr *Props, cl_int *Err) {
  const char *Func = "clCreateCommandBufferKHR";
  if (NumQueues != 1 || !Queues)
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "needs exactly one queue")),
           nullptr;
  if (!isValid(Queues[0]))
    return setErrcode(
               Err, apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue")),
           nullptr;
  std::vector<cl_command_buffer_properties_khr> Copy;
  cl_command_buffer_flags_khr Flags = 0;
  if (Props) {
    bool SeenFlags = false;
    for (const cl_command_buffer_properties_khr *P = Props; *P; P += 2) {
      if (P[0] != CL_COMMAND_BUFFER_FLAGS_KHR || SeenFlags)
        return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                        "unknown or repeated property")),
               nullptr;
      SeenFlags = true;
      Flags = P[1];
      if (Flags &
          ~cl_command_buffer_flags_khr(CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR))
        return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                        "unknown command buffer flags")),
               nullptr;
      Copy.push_back(P[0]);
      Copy.push_back(P[1]);
    }
    Copy.push_back(0);
  }
  cl_command_buffer_khr B = makeObject<_cl_command_buffer_khr>();
  if (!B)
    return setErrcode(Err, apiError(Func, CL_OUT_OF_HOST_MEMORY,
                                    "allocating the command buffer")),
           nullptr;
  B->Queue = Ref<_cl_command_queue>(Queues[0]);
  B->Properties = std::move(Copy);
  B->Flags = Flags;
  setErrcode(Err, CL_SUCCESS);
  return B;
}

static cl_int CL_API_CALL finalizeCommandBuffer(cl_command_buffer_khr B) {
  const char *Func = "clFinalizeCommandBufferKHR";
  if (!isValid(B))
    return apiError(Func, CL_INVALID_COMMAND_BUFFER_KHR,
                    "invalid command buffer");
  std::lock_guard<std::mutex> L(B->M);
  if (B->Finalized)
    return apiError(Func, CL_INVALID_OPERATION,
                    "the command buffer is not recording");
  B->Finalized = true;
  return CL_SUCCESS;
}

/// clRetainCommandBufferKHR and clReleaseCommandBufferKHR. An enqueue in
/// flight holds its own reference (PendingGuard).
template <bool Retain>
static cl_int CL_API_CALL changeRefCount(cl_command_buffer_khr B) {
  if (!isValid(B))
    return apiError(Retain ? "clRetainCommandBufferKHR"
                           : "clReleaseCommandBufferKHR",
                    CL_INVALID_COMMAND_BUFFER_KHR, "invalid command buffer");
  if (Retain)
    retainObject(B);
  else
    releaseObject(B);
  return CL_SUCCESS;
}

static cl_int CL_API_CALL enqueueCommandBuffer(
    cl_uint NumQueues, cl_command_queue *Queues, cl_command_buffer_khr B,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  const char *Func = "clEnqueueCommandBufferKHR";
  if (!isValid(B))
    return apiError(Func, CL_INVALID_COMMAND_BUFFER_KHR,
                    "invalid command buffer");
  if ((NumQueues == 0) != (Queues == nullptr))
    return apiError(Func, CL_INVALID_VALUE, "num_queues and queues disagree");
  cl_command_queue Q = B->Queue.get();
  if (Queues) {
    if (NumQueues != 1)
      return apiError(Func, CL_INVALID_VALUE,
                      "the command buffer has one queue");
    if (!isValid(Queues[0]))
      return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
    if (Queues[0]->Context.get() != Q->Context.get())
      return apiError(Func, CL_INVALID_CONTEXT,
                      "the queue is of another context");
    // Compatible: the same device and the same properties.
    if (Queues[0]->Device != Q->Device ||
        Queues[0]->Properties != Q->Properties)
      return apiError(Func, CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                      "the queue's device or properties differ");
    Q = Queues[0];
  }
  if (cl_int E = checkWaitList(Func, Q->Context.get(), NumWait, Wait))
    return E;
  std::vector<std::unique_ptr<Command>> Clones;
  std::vector<const _cl_command_buffer_khr::Recorded *> Recs;
  // Pending from the check on (so that two enqueues cannot both pass it)
  // until the final command has run; that command holds the guard.
  std::optional<PendingGuard> Guard;
  {
    std::lock_guard<std::mutex> L(B->M);
    if (!B->Finalized)
      return apiError(Func, CL_INVALID_OPERATION,
                      "the command buffer is not finalized");
    if (B->Pending.load() &&
        !(B->Flags & CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR))
      return apiError(Func, CL_INVALID_OPERATION,
                      "pending, and not created for simultaneous use");
    Guard.emplace(B);
    for (const auto &R : B->Commands) {
      Clones.push_back(R.Template->clone());
      if (!Clones.back())
        return apiError(Func, CL_OUT_OF_HOST_MEMORY, "cloning a command");
      Recs.push_back(&R);
    }
  }
  // The clones' events, by sync point - 1; released at the end, when the
  // final command holds them.
  std::vector<cl_event> Events;
  struct ReleaseAll {
    std::vector<cl_event> &E;
    ~ReleaseAll() {
      for (cl_event Ev : E)
        releaseObject(Ev);
    }
  } Release{Events};
  cl_event LastBarrier = nullptr;
  for (size_t I = 0; I < Clones.size(); ++I) {
    const auto &R = *Recs[I];
    std::vector<cl_event> Deps(Wait, Wait + NumWait);
    for (cl_sync_point_khr S : R.Waits)
      Deps.push_back(Events[S - 1]);
    if (R.Type == CL_COMMAND_BARRIER && R.Waits.empty())
      Deps.insert(Deps.end(), Events.begin(), Events.end());
    else if (LastBarrier)
      Deps.push_back(LastBarrier);
    std::sort(Deps.begin(), Deps.end());
    Deps.erase(std::unique(Deps.begin(), Deps.end()), Deps.end());
    Clones[I]->InCommandBuffer = true;
    cl_event Ev = nullptr;
    if (cl_int E = submitCommand(Q, R.Type, cl_uint(Deps.size()),
                                 Deps.empty() ? nullptr : Deps.data(), &Ev,
                                 false, std::move(Clones[I])))
      return E;
    Events.push_back(Ev);
    if (R.Type == CL_COMMAND_BARRIER)
      LastBarrier = Ev;
  }
  std::vector<cl_event> All(Wait, Wait + NumWait);
  All.insert(All.end(), Events.begin(), Events.end());
  return enqueueCommand(Q, CL_COMMAND_COMMAND_BUFFER_KHR, cl_uint(All.size()),
                        All.empty() ? nullptr : All.data(), Event, false,
                        [Guard = std::move(*Guard)] { return CL_SUCCESS; });
}

static cl_int CL_API_CALL getCommandBufferInfo(cl_command_buffer_khr B,
                                               cl_command_buffer_info_khr Param,
                                               size_t Size, void *Value,
                                               size_t *SizeRet) {
  if (!isValid(B))
    return apiError("clGetCommandBufferInfoKHR", CL_INVALID_COMMAND_BUFFER_KHR,
                    "invalid command buffer");
  switch (Param) {
  case CL_COMMAND_BUFFER_QUEUES_KHR:
    return returnValue(Size, Value, SizeRet, B->Queue.get());
  case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
    return returnValue(Size, Value, SizeRet, cl_uint(1));
  case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
    return returnValue(Size, Value, SizeRet, cl_uint(B->RefCount.load()));
  case CL_COMMAND_BUFFER_STATE_KHR: {
    std::lock_guard<std::mutex> L(B->M);
    cl_command_buffer_state_khr S =
        !B->Finalized       ? CL_COMMAND_BUFFER_STATE_RECORDING_KHR
        : B->Pending.load() ? CL_COMMAND_BUFFER_STATE_PENDING_KHR
                            : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
    return returnValue(Size, Value, SizeRet, S);
  }
  case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
    return returnArray(Size, Value, SizeRet, B->Properties);
  default:
    return apiError("clGetCommandBufferInfoKHR", CL_INVALID_VALUE,
                    "unknown cl_command_buffer_info_khr");
  }
}

//===----------------------------------------------------------------------===//
// Recording.
//===----------------------------------------------------------------------===//

#define ISS_RECORD(Name)                                                       \
  CommandTarget T;                                                             \
  if (cl_int E = recordTarget(Name, B, Q, NumSync, Sync, SyncOut, Mutable, T)) \
  return E

static cl_int CL_API_CALL commandBarrier(cl_command_buffer_khr B,
                                         cl_command_queue Q, cl_uint NumSync,
                                         const cl_sync_point_khr *Sync,
                                         cl_sync_point_khr *SyncOut,
                                         cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandBarrierWithWaitListKHR");
  if (cl_int E = T.checkWaits("clCommandBarrierWithWaitListKHR"))
    return E;
  return T.run(CL_COMMAND_BARRIER, nullptr);
}

static cl_int CL_API_CALL
commandCopyBuffer(cl_command_buffer_khr B, cl_command_queue Q, cl_mem Src,
                  cl_mem Dst, size_t SrcOffset, size_t DstOffset, size_t Size,
                  cl_uint NumSync, const cl_sync_point_khr *Sync,
                  cl_sync_point_khr *SyncOut, cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandCopyBufferKHR");
  return copyBufferCommand("clCommandCopyBufferKHR", T, Src, Dst, SrcOffset,
                           DstOffset, Size);
}

static cl_int CL_API_CALL commandCopyBufferRect(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Src, cl_mem Dst,
    const size_t *SrcOrigin, const size_t *DstOrigin, const size_t *Region,
    size_t SrcRow, size_t SrcSlice, size_t DstRow, size_t DstSlice,
    cl_uint NumSync, const cl_sync_point_khr *Sync, cl_sync_point_khr *SyncOut,
    cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandCopyBufferRectKHR");
  return copyBufferRectCommand("clCommandCopyBufferRectKHR", T, Src, Dst,
                               SrcOrigin, DstOrigin, Region, SrcRow, SrcSlice,
                               DstRow, DstSlice);
}

static cl_int CL_API_CALL commandCopyBufferToImage(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Src, cl_mem Dst,
    size_t SrcOffset, const size_t *DstOrigin, const size_t *Region,
    cl_uint NumSync, const cl_sync_point_khr *Sync, cl_sync_point_khr *SyncOut,
    cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandCopyBufferToImageKHR");
  return imageBufferCopyCommand("clCommandCopyBufferToImageKHR", T,
                                CL_COMMAND_COPY_BUFFER_TO_IMAGE, Dst, Src,
                                DstOrigin, Region, SrcOffset);
}

static cl_int CL_API_CALL commandCopyImage(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Src, cl_mem Dst,
    const size_t *SrcOrigin, const size_t *DstOrigin, const size_t *Region,
    cl_uint NumSync, const cl_sync_point_khr *Sync, cl_sync_point_khr *SyncOut,
    cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandCopyImageKHR");
  return copyImageCommand("clCommandCopyImageKHR", T, Src, Dst, SrcOrigin,
                          DstOrigin, Region);
}

static cl_int CL_API_CALL commandCopyImageToBuffer(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Src, cl_mem Dst,
    const size_t *SrcOrigin, const size_t *Region, size_t DstOffset,
    cl_uint NumSync, const cl_sync_point_khr *Sync, cl_sync_point_khr *SyncOut,
    cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandCopyImageToBufferKHR");
  return imageBufferCopyCommand("clCommandCopyImageToBufferKHR", T,
                                CL_COMMAND_COPY_IMAGE_TO_BUFFER, Src, Dst,
                                SrcOrigin, Region, DstOffset);
}

static cl_int CL_API_CALL
commandFillBuffer(cl_command_buffer_khr B, cl_command_queue Q, cl_mem M,
                  const void *Pattern, size_t PatternSize, size_t Offset,
                  size_t Size, cl_uint NumSync, const cl_sync_point_khr *Sync,
                  cl_sync_point_khr *SyncOut, cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandFillBufferKHR");
  return fillBufferCommand("clCommandFillBufferKHR", T, M, Pattern, PatternSize,
                           Offset, Size);
}

static cl_int CL_API_CALL
commandFillImage(cl_command_buffer_khr B, cl_command_queue Q, cl_mem M,
                 const void *Color, const size_t *Origin, const size_t *Region,
                 cl_uint NumSync, const cl_sync_point_khr *Sync,
                 cl_sync_point_khr *SyncOut, cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandFillImageKHR");
  return fillImageCommand("clCommandFillImageKHR", T, M, Color, Origin, Region);
}

static cl_int CL_API_CALL commandNDRangeKernel(
    cl_command_buffer_khr B, cl_command_queue Q,
    const cl_ndrange_kernel_command_properties_khr *Props, cl_kernel K,
    cl_uint Dims, const size_t *Offset, const size_t *Global,
    const size_t *Local, cl_uint NumSync, const cl_sync_point_khr *Sync,
    cl_sync_point_khr *SyncOut, cl_mutable_command_khr *Mutable) {
  ISS_RECORD("clCommandNDRangeKernelKHR");
  // The extension defines no kernel command property.
  if (Props && *Props)
    return apiError("clCommandNDRangeKernelKHR", CL_INVALID_VALUE,
                    "unknown kernel command property");
  return ndrangeCommand("clCommandNDRangeKernelKHR", T, K, Dims, Offset, Global,
                        Local, CL_COMMAND_NDRANGE_KERNEL);
}

#undef ISS_RECORD

void *iss::commandBufferFunction(const char *Name) {
  static const std::pair<const char *, void *> Table[] = {
#define ISS_FN(Api, Impl) {#Api, reinterpret_cast<void *>(&Impl)}
      ISS_FN(clCreateCommandBufferKHR, createCommandBuffer),
      ISS_FN(clFinalizeCommandBufferKHR, finalizeCommandBuffer),
      ISS_FN(clRetainCommandBufferKHR, changeRefCount<true>),
      ISS_FN(clReleaseCommandBufferKHR, changeRefCount<false>),
      ISS_FN(clEnqueueCommandBufferKHR, enqueueCommandBuffer),
      ISS_FN(clGetCommandBufferInfoKHR, getCommandBufferInfo),
      ISS_FN(clCommandBarrierWithWaitListKHR, commandBarrier),
      ISS_FN(clCommandCopyBufferKHR, commandCopyBuffer),
      ISS_FN(clCommandCopyBufferRectKHR, commandCopyBufferRect),
      ISS_FN(clCommandCopyBufferToImageKHR, commandCopyBufferToImage),
      ISS_FN(clCommandCopyImageKHR, commandCopyImage),
      ISS_FN(clCommandCopyImageToBufferKHR, commandCopyImageToBuffer),
      ISS_FN(clCommandFillBufferKHR, commandFillBuffer),
      ISS_FN(clCommandFillImageKHR, commandFillImage),
      ISS_FN(clCommandNDRangeKernelKHR, commandNDRangeKernel),
#undef ISS_FN
  };
  for (const auto &[N, F] : Table)
    if (std::strcmp(N, Name) == 0)
      return F;
  return nullptr;
}
