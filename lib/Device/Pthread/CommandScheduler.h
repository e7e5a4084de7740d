//===- CommandScheduler.h - The device's command thread --------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// One thread per device runs the commands of every command queue: each
// queue is an in-order stream, and the first command of a stream runs once
// its dependencies (event wait lists, possibly on other queues or user
// events) are done. Streams are served round-robin, so a queue blocked on a
// user event does not hold back the others. The thread also takes part in
// running kernels' work groups (WorkerPool::run), so it has a big stack.
//
// The scheduler knows nothing about OpenCL objects: a Task says whether it
// may start and runs; the runtime's commands implement it.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H
#define POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace iss {

class CommandScheduler {
public:
  struct Task {
    virtual ~Task() = default;
    /// True when every dependency has finished (successfully or not).
    virtual bool ready() const = 0;
    /// Runs the command on the scheduler thread.
    virtual void run() = 0;
  };

  /// Starts the scheduler thread; false if it could not.
  bool start();
  unsigned openStream();
  /// Forgets a stream; it must be empty (its queue is released only once
  /// its commands are done, since they hold a reference to it).
  void closeStream(unsigned Stream);
  void submit(unsigned Stream, std::unique_ptr<Task> T);
  /// Something a task may depend on changed (e.g. a user event completed).
  void notify();
  /// Blocks until every command submitted to \p Stream has run (clFinish).
  void drain(unsigned Stream);

private:
  void loop();
  std::mutex M;
  std::condition_variable WorkCV, IdleCV;
  bool Dirty = false;
  unsigned NextStream = 1;
  unsigned LastServed = 0;
  std::map<unsigned, std::deque<std::unique_ptr<Task>>> Streams;
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H
