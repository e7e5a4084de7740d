//===- CommandScheduler.cpp - The device's command thread -----------------===//
// SPDX-License-Identifier: MIT
//
// See CommandScheduler.h. A task stays at the head of its stream while it
// runs, so drain() returns only after the last command has finished.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/CommandScheduler.h"

#include "Device/Pthread/Thread.h"

namespace iss {

bool CommandScheduler::start() {
  return startThread([this] { loop(); });
}

unsigned CommandScheduler::openStream() {
  std::lock_guard<std::mutex> L(M);
  unsigned S = NextStream++;
  Streams[S];
  return S;
}

void CommandScheduler::closeStream(unsigned Stream) {
  std::lock_guard<std::mutex> L(M);
  Streams.erase(Stream);
}

void CommandScheduler::submit(unsigned Stream, std::unique_ptr<Task> T) {
  std::lock_guard<std::mutex> L(M);
  Streams[Stream].push_back(std::move(T));
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
    return It == Streams.end() || It->second.empty();
  });
}

void CommandScheduler::loop() {
  std::unique_lock<std::mutex> L(M);
  for (;;) {
    Task *Next = nullptr;
    unsigned NextId = 0;
    // Round-robin from the stream after the last one served.
    for (int Pass = 0; Pass < 2 && !Next; ++Pass)
      for (auto &[Id, Q] : Streams) {
        if ((Pass == 0) == (Id <= LastServed) || Q.empty() || !Q.front())
          continue;
        if (Q.front()->ready()) {
          Next = Q.front().get();
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
    // a null head keeps the stream busy for drain() meanwhile.
    std::unique_ptr<Task> Done = std::move(Streams[NextId].front());
    L.unlock();
    Done.reset();
    L.lock();
    auto It = Streams.find(NextId);
    if (It != Streams.end() && !It->second.empty() && !It->second.front())
      It->second.pop_front();
    IdleCV.notify_all();
  }
}

} // namespace iss
