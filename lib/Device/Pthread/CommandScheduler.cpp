//===- CommandScheduler.cpp - The device's command thread -----------------===//
// SPDX-License-Identifier: MIT
//
// See CommandScheduler.h. A task stays in its stream while it runs and
// while it is destroyed, so drain() returns only after the last command has
// finished and dropped what it held.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/CommandScheduler.h"

#include "Device/Pthread/Spin.h"
#include "Device/Pthread/Thread.h"

#include <algorithm>

namespace iss {

bool CommandScheduler::start() {
  return startThread([this] { loop(); });
}

unsigned CommandScheduler::openStream(bool OutOfOrder) {
  std::lock_guard<std::mutex> L(M);
  unsigned S = NextStream++;
  auto Str = std::make_shared<Stream>();
  Str->OutOfOrder = OutOfOrder;
  Streams.emplace(S, std::move(Str));
  return S;
}

void CommandScheduler::closeStream(unsigned Stream) {
  std::lock_guard<std::mutex> L(M);
  Streams.erase(Stream);
}

void CommandScheduler::submit(unsigned Stream, std::unique_ptr<Task> T) {
  std::lock_guard<std::mutex> L(M);
  auto It = Streams.find(Stream);
  if (It == Streams.end())
    return; // the queue is gone: nothing can enqueue to it
  It->second->Tasks.push_back(std::move(T));
  It->second->Pending.fetch_add(1, std::memory_order_relaxed);
  Dirty.store(true, std::memory_order_release);
  WorkCV.notify_one();
}

/// Set on the scheduler thread, which looks at every stream after each
/// command anyway.
static thread_local bool OnSchedulerThread = false;

void CommandScheduler::notify() {
  if (OnSchedulerThread)
    return;
  std::lock_guard<std::mutex> L(M);
  Dirty.store(true, std::memory_order_release);
  WorkCV.notify_one();
}

void CommandScheduler::drain(unsigned Id) {
  std::shared_ptr<Stream> S;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Streams.find(Id);
    if (It == Streams.end())
      return;
    S = It->second;
  }
  if (spinUntil([&] { return S->Pending.load(std::memory_order_acquire) == 0; },
                SpinNs))
    return;
  std::unique_lock<std::mutex> L(M);
  IdleCV.wait(L, [&] { return S->Tasks.empty(); });
}

void CommandScheduler::lockForFork() { M.lock(); }

void CommandScheduler::unlockForFork() { M.unlock(); }

CommandScheduler *CommandScheduler::afterFork(CommandScheduler &Old) {
  auto *New = new CommandScheduler(Old.SpinNs);
  New->NextStream = Old.NextStream;
  for (auto &[Id, S] : Old.Streams) {
    auto Str = std::make_shared<Stream>();
    Str->OutOfOrder = S->OutOfOrder;
    for (std::unique_ptr<Task> &T : S->Tasks)
      if (T)
        T.release()->abandon();
    New->Streams.emplace(Id, std::move(Str));
  }
  return New;
}

CommandScheduler::Task *CommandScheduler::pick(Stream &S) {
  // Only the scheduler thread runs and destroys tasks, so when it picks,
  // no entry is running or null.
  if (!S.OutOfOrder)
    return !S.Tasks.empty() && S.Tasks.front()->ready() ? S.Tasks.front().get()
                                                        : nullptr;
  bool Earlier = false;
  for (const std::unique_ptr<Task> &T : S.Tasks) {
    if (!(T->WaitsForPrevious && Earlier) && T->ready())
      return T.get();
    if (T->BlocksFollowing)
      return nullptr;
    Earlier = true;
  }
  return nullptr;
}

void CommandScheduler::loop() {
  OnSchedulerThread = true;
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Task *Next = nullptr;
    std::shared_ptr<Stream> From;
    unsigned NextId = 0;
    Dirty.store(false, std::memory_order_relaxed);
    // Round-robin from the stream after the last one served.
    for (int Pass = 0; Pass < 2 && !Next; ++Pass)
      for (auto &[Id, S] : Streams) {
        if ((Pass == 0) == (Id <= LastServed))
          continue;
        if ((Next = pick(*S))) {
          NextId = Id;
          From = S;
          break;
        }
      }
    if (!Next) {
      // Nothing ready: spin for a new command or a finished dependency,
      // then sleep.
      L.unlock();
      spinUntil([&] { return Dirty.load(std::memory_order_acquire); }, SpinNs);
      L.lock();
      WorkCV.wait(L, [&] { return Dirty.load(std::memory_order_relaxed); });
      continue;
    }
    LastServed = NextId;
    L.unlock();
    Next->run();
    L.lock();
    // Destroying the task releases what it held (events, buffers, the
    // queue itself), which may call back into the runtime, so not under M;
    // a null entry keeps the stream busy for drain() meanwhile.
    auto It = std::find_if(From->Tasks.begin(), From->Tasks.end(),
                           [&](const auto &T) { return T.get() == Next; });
    std::unique_ptr<Task> Done = std::move(*It);
    L.unlock();
    Done.reset();
    L.lock();
    auto Null = std::find(From->Tasks.begin(), From->Tasks.end(), nullptr);
    if (Null != From->Tasks.end())
      From->Tasks.erase(Null);
    From->Pending.fetch_sub(1, std::memory_order_release);
    // Only an empty stream ends a drain(): waking clFinish after every
    // command would cost it a system call and a context switch each.
    if (From->Tasks.empty())
      IdleCV.notify_all();
  }
}

} // namespace iss
