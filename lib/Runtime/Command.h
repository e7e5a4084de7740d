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

} // namespace iss

#endif // POCL_ISS_RUNTIME_COMMAND_H
