//===- EventCallbacks.cpp - Event callbacks on threads of their own -------===//
// SPDX-License-Identifier: MIT
//
// clSetEventCallback's functions never run on the device's threads or
// inside an API call: they run on callback threads, so that a callback may
// call blocking OpenCL functions (clFinish, clWaitForEvents, blocking
// reads, ...) on any queue, its own included, without stopping the
// scheduler that would have to finish what it waits for. The specification
// leaves such calls undefined (OpenCL 1.2, 5.9); applications make them.
//
// Callbacks run in the order their statuses were reached, one batch per
// status change. A thread is added whenever a batch is queued while every
// callback thread is busy, so a callback that blocks until a later
// callback has run (say, one that sets a user event) does not deadlock
// either. Threads are never joined or destroyed: at exit, a callback may
// still be running.
//
// After fork, the child has none of the callback threads: it gets a new
// set, which starts threads as the child's callbacks come. Batches queued
// in the parent and not yet run are the parent's; the child drops them.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include "Device/Pthread/Thread.h"

#include <deque>

using namespace iss;

namespace {

struct Batch {
  Ref<_cl_event> Event; ///< valid while its callbacks run
  std::vector<DueCallback> Calls;
};

class CallbackThreads {
public:
  void queue(cl_event E, std::vector<DueCallback> Calls) {
    std::lock_guard<std::mutex> L(M);
    Pending.push_back({Ref<_cl_event>(E), std::move(Calls)});
    // Every queued batch needs a thread that is not inside a callback:
    // an idle one, or one still starting.
    if (Pending.size() > Idle + Starting && Threads < MaxThreads &&
        startThread([this] { loop(); }, StackSize)) {
      ++Threads;
      ++Starting;
      return;
    }
    CV.notify_one();
  }

  /// fork(): M held across it, so that the set is consistent; released
  /// in the parent, and left locked in the child's copy, which is never
  /// used again.
  void lockForFork() { M.lock(); }
  void unlockForFork() { M.unlock(); }

private:
  void loop() {
    std::unique_lock<std::mutex> L(M);
    --Starting;
    for (;;) {
      ++Idle;
      CV.wait(L, [&] { return !Pending.empty(); });
      --Idle;
      Batch B = std::move(Pending.front());
      Pending.pop_front();
      L.unlock();
      for (const DueCallback &C : B.Calls)
        C.Fn(B.Event.get(), C.Status, C.Data);
      B.Event = Ref<_cl_event>(); // may free the event, outside the lock
      L.lock();
    }
  }

  /// A bound on threads that all wait inside callbacks at once; past it,
  /// batches wait for a callback to return.
  static constexpr unsigned MaxThreads = 64;
  static constexpr size_t StackSize = 8u << 20; ///< as a default pthread
  std::mutex M;
  std::condition_variable CV;
  std::deque<Batch> Pending;
  unsigned Threads = 0, Idle = 0, Starting = 0;
};

} // namespace

namespace iss {

// Never destroyed: callback threads may be running at exit. Replaced in a
// child after fork.
static CallbackThreads *Callbacks = nullptr;
static std::once_flag CallbacksOnce;

static CallbackThreads &callbackThreads() {
  std::call_once(CallbacksOnce, [] { Callbacks = new CallbackThreads(); });
  return *Callbacks;
}

void queueCallbacks(cl_event E, std::vector<DueCallback> Calls) {
  if (Calls.empty())
    return;
  callbackThreads().queue(E, std::move(Calls));
}

void prepareForkCallbacks() { callbackThreads().lockForFork(); }

void parentAfterForkCallbacks() { Callbacks->unlockForFork(); }

void childAfterForkCallbacks() { Callbacks = new CallbackThreads(); }

} // namespace iss
