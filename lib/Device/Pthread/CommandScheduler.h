//===- CommandScheduler.h - The device's command thread --------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// One thread per device runs the commands of every command queue. Each
// queue is a stream: an in-order stream runs its first command once its
// dependencies (event wait lists, possibly on other queues or user events)
// are done; an out-of-order stream runs any command whose dependencies are
// done, except that markers and barriers with an empty wait list wait for
// every command submitted before them and barriers hold back every command
// submitted after them (OpenCL 1.2, 5.10). Streams are served round-robin,
// so a queue blocked on a user event does not hold back the others. The
// thread also takes part in running kernels' work groups (WorkerPool::run),
// so it has a big stack.
//
// With nothing to run, the thread spins for a while (POCL_ISS_SPIN_US,
// Spin.h) before it sleeps, and so does clFinish before it sleeps: a
// command enqueued, or a stream drained, within that time costs no wake-up.
//
// The scheduler knows nothing about OpenCL objects: a Task says whether it
// may start and runs; the runtime's commands implement it.
//
// After fork, the child has none of the parent's threads: lockForFork()
// before fork keeps the streams consistent, and in the child afterFork()
// makes a scheduler (its thread not started) that takes over the streams,
// so queues made before fork keep their streams; the commands pending at
// fork stay the parent's and are abandoned in the child.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H
#define POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
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
    /// In an out-of-order stream: starts only after every task submitted
    /// before it has run (markers and barriers without a wait list).
    bool WaitsForPrevious = false;
    /// In an out-of-order stream: no task submitted after it starts before
    /// it has run (barriers).
    bool BlocksFollowing = false;
    /// In the child after fork: the task will never run (it may have been
    /// running on a thread that is gone). Ends what waits for it without
    /// taking locks that thread may have held.
    virtual void abandon() {}
  };

  /// \p SpinNs: how long the thread and drain() busy-wait before sleeping.
  explicit CommandScheduler(uint64_t SpinNs) : SpinNs(SpinNs) {}
  /// Starts the scheduler thread; false if it could not.
  bool start();
  unsigned openStream(bool OutOfOrder);
  /// Forgets a stream; it must be empty (its queue is released only once
  /// its commands are done, since they hold a reference to it).
  void closeStream(unsigned Stream);
  void submit(unsigned Stream, std::unique_ptr<Task> T);
  /// Something a task may depend on changed (e.g. a user event completed).
  void notify();
  /// Blocks until every command submitted to \p Stream has run (clFinish).
  void drain(unsigned Stream);

  /// Before fork: holds the lock, so that the streams are consistent in
  /// the child. unlockForFork() in the parent after fork.
  void lockForFork();
  void unlockForFork();
  /// In the child after fork, with \p Old locked by lockForFork(): a new
  /// scheduler, not started, with \p Old's streams emptied (each pending
  /// task abandoned and leaked: destroying it could take locks of the
  /// parent's threads). \p Old is left as it is, never to be used again.
  static CommandScheduler *afterFork(CommandScheduler &Old);

private:
  struct Stream {
    /// Submission order. A task stays here while it runs and until it is
    /// destroyed (a null entry then), so drain() sees it.
    std::deque<std::unique_ptr<Task>> Tasks;
    /// Tasks.size(), for drain() to spin on without the lock.
    std::atomic<size_t> Pending{0};
    bool OutOfOrder = false;
  };
  /// The task of \p S to run now, or null.
  static Task *pick(Stream &S);
  void loop();
  const uint64_t SpinNs;
  std::mutex M;
  std::condition_variable WorkCV, IdleCV;
  /// Something was submitted or changed since the thread last looked.
  std::atomic<bool> Dirty{false};
  unsigned NextStream = 1;
  unsigned LastServed = 0;
  /// Shared with drain(), which may spin on a stream outside the lock.
  std::map<unsigned, std::shared_ptr<Stream>> Streams;
};

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_COMMANDSCHEDULER_H
