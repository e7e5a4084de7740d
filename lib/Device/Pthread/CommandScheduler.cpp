//===- CommandScheduler.cpp - The device's command thread -----------------===//
// SPDX-License-Identifier: MIT
//
// See CommandScheduler.h. A task stays in its stream while it runs and
// while it is destroyed, so drain() returns only after the last command has
// finished and dropped what it held.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/CommandScheduler.h"

#include "Device/Pthread/Thread.h"

#include <algorithm>

namespace iss {

bool CommandScheduler::start() {
  return startThread([this] { loop(); });
}

unsigned CommandScheduler::openStream(bool OutOfOrder) {
  std::lock_guard<std::mutex> L(M);
  unsigned S = NextStream++;
  Streams[S].OutOfOrder = OutOfOrder;
  return S;
}

void CommandScheduler::closeStream(unsigned Stream) {
  std::lock_guard<std::mutex> L(M);
  Streams.erase(Stream);
}

void CommandScheduler::submit(unsigned Stream, std::unique_ptr<Task> T) {
  std::lock_guard<std::mutex> L(M);
  Streams[Stream].Tasks.push_back(std::move(T));
  Dirty = true;
  WorkCV.notify_one();
}

void CommandScheduler::notify() {
  std::lock_guard<std::mutex> L(M);
  Dirty = true;
  WorkCV.notify_one();
}

void CommandScheduler::drain(unsigned Stream) {
  std::unique_lock<std::mutex> L(M);
  IdleCV.wait(L, [&] {
    auto It = Streams.find(Stream);
    return It == Streams.end() || It->second.Tasks.empty();
  });
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
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Task *Next = nullptr;
    unsigned NextId = 0;
    // Round-robin from the stream after the last one served.
    for (int Pass = 0; Pass < 2 && !Next; ++Pass)
      for (auto &[Id, S] : Streams) {
        if ((Pass == 0) == (Id <= LastServed))
          continue;
        if ((Next = pick(S))) {
          NextId = Id;
          break;
        }
      }
    if (!Next) {
      WorkCV.wait(L, [&] { return Dirty; });
      Dirty = false;
      continue;
    }
    LastServed = NextId;
    L.unlock();
    Next->run();
    L.lock();
    // Destroying the task releases what it held (events, buffers, the
    // queue itself), which may call back into the runtime, so not under M;
    // a null entry keeps the stream busy for drain() meanwhile.
    std::unique_ptr<Task> Done;
    auto &Tasks = Streams[NextId].Tasks;
    auto It = std::find_if(Tasks.begin(), Tasks.end(),
                           [&](const auto &T) { return T.get() == Next; });
    Done = std::move(*It);
    L.unlock();
    Done.reset();
    L.lock();
    auto SIt = Streams.find(NextId);
    if (SIt != Streams.end()) {
      auto &Left = SIt->second.Tasks;
      auto Null = std::find(Left.begin(), Left.end(), nullptr);
      if (Null != Left.end())
        Left.erase(Null);
    }
    IdleCV.notify_all();
  }
}

} // namespace iss
