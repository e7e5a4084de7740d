//===- Command.h - Enqueued commands as the scheduler runs them -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Every enqueued command is one object: its event, its wait list and what
// it does. Most commands are a lambda (LambdaCommand); kernel launches are
// their own class (NDRange.cpp) that holds the argument snapshot in the
// same allocation. Few allocations per command matter: an application
// enqueues from its thread and the device frees on its own, a pattern that
// makes glibc's allocator slow (every allocation reaches the arena's slow
// path), and small launches cost little else.
//
// A command is built once its arguments are validated and then goes to a
// CommandTarget: submitted to a queue (clEnqueue*), or recorded in a
// command buffer (cl_khr_command_buffer, clCommand*KHR), which keeps it as a
// template and submits a clone() of it each time it is enqueued
// (CommandBuffer.cpp). Both paths build the same command objects.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_RUNTIME_COMMAND_H
#define POCL_ISS_RUNTIME_COMMAND_H

#include "Runtime/Objects.h"

#include "Device/Pthread/CommandScheduler.h"

#include <new>
#include <optional>

namespace iss {

class Command : public CommandScheduler::Task {
public:
  bool ready() const final;
  /// Fails with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if an event
  /// of the wait list failed; otherwise moves the event through
  /// CL_RUNNING to CL_COMPLETE or execute()'s error, with release() in
  /// between.
  void run() final;
  /// In the child after fork: the event ends with CL_OUT_OF_RESOURCES.
  void abandon() final;
  /// A fresh copy that has not run, holding what this one holds (the
  /// recorded commands of a command buffer); null when out of memory.
  virtual std::unique_ptr<Command> clone() const = 0;
  /// Submitted by a command buffer, whose dependencies are explicit: a
  /// recorded barrier orders only the command buffer's commands.
  bool InCommandBuffer = false;

protected:
  /// What the command does; CL_SUCCESS or the (negative) error its event
  /// ends with.
  virtual cl_int execute() = 0;
  /// Drops the objects the command retained (buffers, kernels), so that
  /// reference counts seen after a wait are the application's own.
  virtual void release() {}

private:
  friend cl_int submitCommand(cl_command_queue, cl_command_type, cl_uint,
                              const cl_event *, cl_event *, bool,
                              std::unique_ptr<Command>);
  Ref<_cl_event> Event;
  std::vector<Ref<_cl_event>> WaitList;
};

/// A command whose work is a callable returning a cl_int, or nothing at all
/// (markers and barriers: \p F is std::nullptr_t).
template <typename F> class LambdaCommand final : public Command {
public:
  explicit LambdaCommand(F Body) : Body(std::move(Body)) {}

  std::unique_ptr<Command> clone() const override {
    if constexpr (std::is_copy_constructible_v<F>)
      if (Body)
        return std::unique_ptr<Command>(new (std::nothrow)
                                            LambdaCommand<F>(*Body));
    return nullptr;
  }

private:
  cl_int execute() override {
    if constexpr (std::is_same_v<F, std::nullptr_t>)
      return CL_SUCCESS;
    else
      return (*Body)();
  }
  void release() override { Body.reset(); }
  std::optional<F> Body;
};

/// Creates the event of \p C, hands \p C to the queue's scheduler stream
/// and, when \p EventOut is given, returns the event to the application.
/// With \p Blocking, waits for it and returns
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it did not complete.
/// The wait list must have been validated (checkWaitList).
cl_int submitCommand(cl_command_queue Q, cl_command_type Type, cl_uint NumWait,
                     const cl_event *WaitList, cl_event *EventOut,
                     bool Blocking, std::unique_ptr<Command> C);

/// submitCommand for a command that runs \p Body (a callable returning
/// cl_int, or nullptr for none); everything \p Body captures is released
/// as soon as it has run.
template <typename F>
cl_int enqueueCommand(cl_command_queue Q, cl_command_type Type, cl_uint NumWait,
                      const cl_event *WaitList, cl_event *EventOut,
                      bool Blocking, F Body) {
  std::unique_ptr<Command> C(new (std::nothrow)
                                 LambdaCommand<F>(std::move(Body)));
  if (!C)
    return apiError("enqueue", CL_OUT_OF_HOST_MEMORY, "allocating a command");
  return submitCommand(Q, Type, NumWait, WaitList, EventOut, Blocking,
                       std::move(C));
}

/// Where a validated command goes: a queue, with an event wait list and an
/// event (clEnqueue*), or a command buffer in the recording state, with a
/// sync-point wait list and a sync point (clCommand*KHR). Q is the queue
/// the command is checked against: the command buffer's for a recording.
struct CommandTarget {
  cl_command_queue Q = nullptr;
  cl_uint NumWait = 0;
  const cl_event *Wait = nullptr;
  cl_event *Event = nullptr;
  bool Blocking = false;
  cl_command_buffer_khr Buffer = nullptr; ///< recording when set
  cl_uint NumSync = 0;
  const cl_sync_point_khr *Sync = nullptr;
  cl_sync_point_khr *SyncOut = nullptr;

  static CommandTarget queue(cl_command_queue Q, cl_uint NumWait,
                             const cl_event *Wait, cl_event *Event,
                             bool Blocking = false) {
    CommandTarget T;
    T.Q = Q, T.NumWait = NumWait, T.Wait = Wait, T.Event = Event;
    T.Blocking = Blocking;
    return T;
  }
  /// checkWaitList for a queue (Q validated), the sync points for a
  /// recording (CL_INVALID_SYNC_POINT_WAIT_LIST_KHR).
  cl_int checkWaits(const char *Func) const;
  /// Submits \p C, or records it.
  cl_int submit(cl_command_type Type, std::unique_ptr<Command> C) const;
  /// submit for a LambdaCommand running \p Body (enqueueCommand).
  template <typename F> cl_int run(cl_command_type Type, F Body) const {
    std::unique_ptr<Command> C(new (std::nothrow)
                                   LambdaCommand<F>(std::move(Body)));
    if (!C)
      return apiError("enqueue", CL_OUT_OF_HOST_MEMORY, "allocating a command");
    return submit(Type, std::move(C));
  }
};

/// A fill command's pattern (clEnqueueFillBuffer, clEnqueueSVMMemFill),
/// copied when the command is made: the application may reuse its own at
/// once.
class FillPattern {
public:
  /// 1, 2, 4, ..., 128 bytes: the scalar and vector types up to long16.
  static bool validSize(size_t Size) {
    return Size && Size <= 128 && !(Size & (Size - 1));
  }
  FillPattern(const void *Pattern, size_t Size)
      : Bytes(static_cast<const unsigned char *>(Pattern),
              static_cast<const unsigned char *>(Pattern) + Size) {}
  /// Fills \p Size bytes at \p Dst, a multiple of the pattern's size.
  void fill(char *Dst, size_t Size) const;

private:
  std::vector<unsigned char> Bytes;
};

// The commands a queue and a command buffer share: checked against T.Q and
// sent to T. \p Func names the API entry in logs.
cl_int copyBufferCommand(const char *Func, const CommandTarget &T, cl_mem Src,
                         cl_mem Dst, size_t SrcOffset, size_t DstOffset,
                         size_t Size);
cl_int copyBufferRectCommand(const char *Func, const CommandTarget &T,
                             cl_mem Src, cl_mem Dst, const size_t *SrcOrigin,
                             const size_t *DstOrigin, const size_t *Region,
                             size_t SrcRow, size_t SrcSlice, size_t DstRow,
                             size_t DstSlice);
cl_int fillBufferCommand(const char *Func, const CommandTarget &T, cl_mem M,
                         const void *Pattern, size_t PatternSize, size_t Offset,
                         size_t Size);
cl_int copyImageCommand(const char *Func, const CommandTarget &T, cl_mem Src,
                        cl_mem Dst, const size_t *SrcOrigin,
                        const size_t *DstOrigin, const size_t *Region);
/// CL_COMMAND_COPY_IMAGE_TO_BUFFER or CL_COMMAND_COPY_BUFFER_TO_IMAGE.
cl_int imageBufferCopyCommand(const char *Func, const CommandTarget &T,
                              cl_command_type Type, cl_mem Image, cl_mem Buffer,
                              const size_t *Origin, const size_t *Region,
                              size_t Offset);
cl_int fillImageCommand(const char *Func, const CommandTarget &T, cl_mem M,
                        const void *Color, const size_t *Origin,
                        const size_t *Region);
cl_int ndrangeCommand(const char *Func, const CommandTarget &T, cl_kernel K,
                      cl_uint Dims, const size_t *Offset, const size_t *Global,
                      const size_t *Local, cl_command_type Type);

} // namespace iss

/// A command buffer (cl_khr_command_buffer 0.9.0, as pocl 3.1 has it): the
/// recorded commands of one queue, each with the sync points it waits for.
struct _cl_command_buffer_khr : iss::ObjectBase {
  _cl_command_buffer_khr() : ObjectBase(iss::ObjKind::CommandBuffer) {}
  iss::Ref<_cl_command_queue> Queue;
  /// CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR: as given, 0-terminated;
  /// empty for NULL.
  std::vector<cl_command_buffer_properties_khr> Properties;
  cl_command_buffer_flags_khr Flags = 0;
  std::mutex M;
  bool Finalized = false;
  /// Enqueued and not finished (CL_COMMAND_BUFFER_STATE_PENDING_KHR).
  std::atomic<int> Pending{0};
  struct Recorded {
    cl_command_type Type;
    std::unique_ptr<iss::Command> Template;
    std::vector<cl_sync_point_khr> Waits; ///< sync points: index + 1
  };
  std::vector<Recorded> Commands;
};

namespace iss {
inline bool isValid(cl_command_buffer_khr B) {
  return isLiveObject(B, ObjKind::CommandBuffer);
}
} // namespace iss

#endif // POCL_ISS_RUNTIME_COMMAND_H
