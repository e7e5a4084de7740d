//===- Event.cpp - Events, commands, markers and barriers -----------------===//
// SPDX-License-Identifier: MIT
//
// Every enqueued command has an event, whether or not the application asked
// for it: the command is a scheduler task (CommandScheduler.h) that may start
// once the events of its wait list are done, moves its event through
// CL_SUBMITTED, CL_RUNNING and CL_COMPLETE (or a negative error status) with
// profiling timestamps, and drops everything it retained (buffers, kernels)
// before its event completes, so that reference counts seen after a wait are
// the application's own. A command whose wait list contains a failed event
// does not run and fails with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
// Waiters wake when the status is terminal; callbacks run afterwards on
// callback threads (EventCallbacks.cpp), never on the scheduler's.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include "Device/Pthread/Spin.h"

using namespace iss;

_cl_event::~_cl_event() {
  if (Queue)
    releaseObject(Queue);
}

namespace iss {

void destroyObject(_cl_event *E) { deleteObject(E); }

cl_int checkWaitList(const char *Func, cl_context Ctx, cl_uint Num,
                     const cl_event *List) {
  if ((Num == 0) != (List == nullptr))
    return apiError(Func, CL_INVALID_EVENT_WAIT_LIST,
                    "num_events_in_wait_list and event_wait_list disagree");
  for (cl_uint I = 0; I < Num; ++I) {
    if (!isValid(List[I]))
      return apiError(Func, CL_INVALID_EVENT_WAIT_LIST,
                      "invalid event in the wait list");
    if (Ctx && List[I]->Context.get() != Ctx)
      return apiError(Func, CL_INVALID_CONTEXT,
                      "wait list event from another context");
  }
  return CL_SUCCESS;
}

void setEventStatus(cl_event E, cl_int Status, cl_ulong When) {
  std::vector<DueCallback> Due;
  bool Terminal = Status <= CL_COMPLETE;
  {
    std::lock_guard<std::mutex> L(E->M);
    cl_int Old = E->Status.load();
    if (Old <= CL_COMPLETE)
      return; // terminal already
    int Slot = Status == CL_SUBMITTED ? 1 : Status == CL_RUNNING ? 2 : 3;
    if (Status != CL_QUEUED)
      E->Times[Slot] = When ? When : nowNs();
    if (Status < 0)
      E->Times[2] = E->Times[2] ? E->Times[2] : E->Times[3];
    E->Status.store(Status);
    E->Finished = Terminal;
    // Callbacks for this status or any passed one; all of them when the
    // event ended (a failed event reports its error to each).
    auto It = E->Callbacks.begin();
    while (It != E->Callbacks.end()) {
      if (Terminal || It->Status >= Status) {
        Due.push_back({It->Fn, It->Data, Status < 0 ? Status : It->Status});
        It = E->Callbacks.erase(It);
      } else {
        ++It;
      }
    }
  }
  if (Terminal) {
    E->CV.notify_all();
    // Commands of any queue may have waited for this event.
    theDevice()->scheduler().notify();
  }
  queueCallbacks(E, std::move(Due));
}

void waitEvent(cl_event E) {
  // Small commands finish within microseconds: spin before sleeping
  // (Spin.h).
  if (spinUntil([&] { return E->Status.load() <= CL_COMPLETE; },
                uint64_t(settings().SpinUs) * 1000))
    return;
  std::unique_lock<std::mutex> L(E->M);
  E->CV.wait(L, [&] { return E->Finished; });
}

} // namespace iss

namespace iss {

bool Command::ready() const {
  for (const auto &W : WaitList)
    if (W->Status.load() > CL_COMPLETE)
      return false;
  return true;
}

void Command::run() {
  for (const auto &W : WaitList)
    if (W->Status.load() < 0) {
      release();
      WaitList.clear();
      setEventStatus(Event.get(), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      return;
    }
  WaitList.clear();
  setEventStatus(Event.get(), CL_RUNNING);
  cl_int Result = execute();
  // The command's end, before it releases what it held (bookkeeping, not
  // execution).
  cl_ulong End = nowNs();
  release(); // buffers, kernels, ... before completion
  setEventStatus(Event.get(),
                 Result == CL_SUCCESS
                     ? CL_COMPLETE
                     : (Result < 0 ? Result : CL_OUT_OF_RESOURCES),
                 End);
}

// The child is single-threaded here, but the event's lock may have been
// held by the scheduler thread at fork, and its condition variable may
// count the parent's waiters: both are made anew (what pthread_mutex_init
// is to a child's inherited mutex). The event's callbacks are the parent's
// and do not run.
void Command::abandon() {
  _cl_event *E = Event.get();
  new (&E->M) std::mutex();
  new (&E->CV) std::condition_variable();
  if (E->Status.load() <= CL_COMPLETE)
    return;
  E->Times[3] = nowNs();
  if (!E->Times[2])
    E->Times[2] = E->Times[3];
  E->Status.store(CL_OUT_OF_RESOURCES);
  E->Finished = true;
  debugLog(DbgDevice, "a command pending at fork is abandoned in the child");
}

cl_int submitCommand(cl_command_queue Q, cl_command_type Type, cl_uint NumWait,
                     const cl_event *WaitList, cl_event *EventOut,
                     bool Blocking, std::unique_ptr<Command> C) {
  cl_event E = makeObject<_cl_event>();
  if (!E)
    return apiError("enqueue", CL_OUT_OF_HOST_MEMORY, "allocating an event");
  E->Context = Q->Context;
  E->Queue = Q;
  retainObject(Q);
  E->Type = Type;
  E->Times[0] = nowNs();
  if (NumWait) {
    C->WaitList.reserve(NumWait);
    for (cl_uint I = 0; I < NumWait; ++I)
      C->WaitList.emplace_back(WaitList[I]);
  }
  // Held by the command until it is destroyed; the application's
  // reference, if it asked for one, is the initial count.
  C->Event = Ref<_cl_event>(E);
  // Markers and barriers order an out-of-order queue (OpenCL 1.2, 5.10):
  // without a wait list they wait for everything enqueued before them, and
  // barriers (clEnqueueWaitForEvents's too) hold back what comes after.
  // A command buffer's commands carry their dependencies in their wait
  // lists (CommandBuffer.cpp).
  bool Sync = (Type == CL_COMMAND_MARKER || Type == CL_COMMAND_BARRIER) &&
              !C->InCommandBuffer;
  C->WaitsForPrevious = Sync && NumWait == 0;
  C->BlocksFollowing = Type == CL_COMMAND_BARRIER;
  if (EventOut)
    *EventOut = E;
  Ref<_cl_event> Keep(E);
  if (!EventOut)
    releaseObject(E);
  setEventStatus(E, CL_SUBMITTED);
  Q->Device->scheduler().submit(Q->Stream, std::move(C));
  if (!Blocking)
    return CL_SUCCESS;
  waitEvent(E);
  if (E->Status.load() < 0)
    return apiError("enqueue", CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                    "a blocking command did not complete");
  return CL_SUCCESS;
}

} // namespace iss

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint Num,
                                                const cl_event *List) {
  if (Num == 0 || !List)
    return ISS_ERR(CL_INVALID_VALUE, "empty event list");
  for (cl_uint I = 0; I < Num; ++I) {
    if (!isValid(List[I]))
      return ISS_ERR(CL_INVALID_EVENT, "invalid event in the list");
    if (List[I]->Context.get() != List[0]->Context.get())
      return ISS_ERR(CL_INVALID_CONTEXT, "events from different contexts");
  }
  bool Failed = false;
  for (cl_uint I = 0; I < Num; ++I) {
    waitEvent(List[I]);
    Failed |= List[I]->Status.load() < 0;
  }
  if (Failed)
    return ISS_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                   "an event ended with an error");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event E, cl_event_info Param,
                                               size_t Size, void *Value,
                                               size_t *SizeRet) {
  if (!isValid(E))
    return ISS_ERR(CL_INVALID_EVENT, "invalid event");
  switch (Param) {
  case CL_EVENT_COMMAND_QUEUE:
    return returnValue(Size, Value, SizeRet, E->Queue);
  case CL_EVENT_CONTEXT:
    return returnValue(Size, Value, SizeRet, E->Context.get());
  case CL_EVENT_COMMAND_TYPE:
    return returnValue(Size, Value, SizeRet, E->Type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return returnValue(Size, Value, SizeRet, E->Status.load());
  case CL_EVENT_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(E->RefCount.load()));
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_event_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event E,
                                                        cl_profiling_info Param,
                                                        size_t Size,
                                                        void *Value,
                                                        size_t *SizeRet) {
  if (!isValid(E))
    return ISS_ERR(CL_INVALID_EVENT, "invalid event");
  if (!E->Queue || !(E->Queue->Properties & CL_QUEUE_PROFILING_ENABLE))
    return ISS_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
                   "the queue has no CL_QUEUE_PROFILING_ENABLE");
  if (E->Status.load() != CL_COMPLETE)
    return ISS_ERR(CL_PROFILING_INFO_NOT_AVAILABLE,
                   "the command has not completed");
  cl_ulong T;
  switch (Param) {
  case CL_PROFILING_COMMAND_QUEUED:
    T = E->Times[0];
    break;
  case CL_PROFILING_COMMAND_SUBMIT:
    T = E->Times[1];
    break;
  case CL_PROFILING_COMMAND_START:
    T = E->Times[2];
    break;
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    T = E->Times[3];
    break;
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_profiling_info");
  }
  return returnValue(Size, Value, SizeRet, T);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event E) {
  if (!isValid(E))
    return ISS_ERR(CL_INVALID_EVENT, "invalid event");
  retainObject(E);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event E) {
  if (!isValid(E))
    return ISS_ERR(CL_INVALID_EVENT, "invalid event");
  releaseObject(E);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(
    cl_event E, cl_int Type, void(CL_CALLBACK *Fn)(cl_event, cl_int, void *),
    void *Data) {
  if (!isValid(E))
    return ISS_ERR(CL_INVALID_EVENT, "invalid event");
  if (!Fn)
    return ISS_ERR(CL_INVALID_VALUE, "pfn_notify is NULL");
  if (Type != CL_SUBMITTED && Type != CL_RUNNING && Type != CL_COMPLETE)
    return ISS_ERR(CL_INVALID_VALUE, "command_exec_callback_type is invalid");
  cl_int Now;
  {
    std::lock_guard<std::mutex> L(E->M);
    Now = E->Status.load();
    if (Now > Type) {
      E->Callbacks.push_back({Type, Fn, Data});
      return CL_SUCCESS;
    }
  }
  // Already reached: called at once, but on a callback thread, so that
  // it never runs inside this call (the application may hold a lock the
  // callback takes, or the callback may block on its own queue).
  queueCallbacks(E, {{Fn, Data, Now < 0 ? Now : Type}});
  return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context C, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  cl_event E = makeObject<_cl_event>();
  if (!E)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating an event");
  E->Context = Ref<_cl_context>(C);
  E->Type = CL_COMMAND_USER;
  E->Status.store(CL_SUBMITTED);
  E->Times[0] = E->Times[1] = nowNs();
  setErrcode(Err, CL_SUCCESS);
  return E;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event E,
                                                     cl_int Status) {
  if (!isValid(E) || E->Type != CL_COMMAND_USER || E->Queue)
    return ISS_ERR(CL_INVALID_EVENT, "not a user event");
  if (Status != CL_COMPLETE && Status >= 0)
    return ISS_ERR(CL_INVALID_VALUE, "status must be CL_COMPLETE or negative");
  if (E->Status.load() <= CL_COMPLETE)
    return ISS_ERR(CL_INVALID_OPERATION, "the status was already set");
  setEventStatus(E, Status);
  return CL_SUCCESS;
}

static cl_int enqueueMarkerImpl(const char *Func, cl_command_queue Q,
                                cl_command_type Type, cl_uint Num,
                                const cl_event *List, cl_event *Event) {
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (cl_int E = checkWaitList(Func, Q->Context.get(), Num, List))
    return E;
  // An in-order queue implies waiting for everything enqueued before; an
  // out-of-order one orders markers and barriers by their command type
  // (enqueueCommand).
  return enqueueCommand(Q, Type, Num, List, Event, false, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(
    cl_command_queue Q, cl_uint Num, const cl_event *List, cl_event *Event) {
  return enqueueMarkerImpl(__func__, Q, CL_COMMAND_MARKER, Num, List, Event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(
    cl_command_queue Q, cl_uint Num, const cl_event *List, cl_event *Event) {
  return enqueueMarkerImpl(__func__, Q, CL_COMMAND_BARRIER, Num, List, Event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue Q,
                                                cl_event *Event) {
  if (!Event)
    return ISS_ERR(CL_INVALID_VALUE, "event is NULL");
  return enqueueMarkerImpl(__func__, Q, CL_COMMAND_MARKER, 0, nullptr, Event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue Q) {
  return enqueueMarkerImpl(__func__, Q, CL_COMMAND_BARRIER, 0, nullptr,
                           nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue Q,
                                                       cl_uint Num,
                                                       const cl_event *List) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (Num == 0 || !List)
    return ISS_ERR(CL_INVALID_VALUE, "empty event list");
  for (cl_uint I = 0; I < Num; ++I) {
    if (!isValid(List[I]))
      return ISS_ERR(CL_INVALID_EVENT, "invalid event in the list");
    if (List[I]->Context.get() != Q->Context.get())
      return ISS_ERR(CL_INVALID_CONTEXT, "event from another context");
  }
  return enqueueCommand(Q, CL_COMMAND_BARRIER, Num, List, nullptr, false,
                        nullptr);
}
