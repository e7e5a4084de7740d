//===- Fork.cpp - A process that forks after using the device -------------===//
// SPDX-License-Identifier: MIT
//
// A child of fork() has only the thread that forked: the device's command
// scheduler, worker pool and callback threads are the parent's, and any lock
// one of them held at that moment stays held in the child for ever.
// Python's multiprocessing forks by default, so a child must get a working
// device for what it makes itself, and the parent must not notice.
//
// pthread_atfork handlers, installed with the device: before fork they take
// the locks whose state the child needs consistent (the device's start and
// scheduler locks, the callback threads', the handle registry's, the debug
// log's), in that order, which nests as the code elsewhere does; after fork
// the parent releases them. The child releases the registry's and the log's
// (it holds them itself), and gets a new scheduler that takes over the
// queues' streams, a new worker pool and new callback threads, all started
// by its first command. The parent's scheduler, pool and callback set are
// left as they are in the child, never used again.
//
// What the parent had made stays valid in the child: contexts, buffers,
// programs and kernels, and queues, which run what the child enqueues.
// Commands pending at fork (queued or running) are the parent's: in the
// child their events end with CL_OUT_OF_RESOURCES, so a wait for them
// returns instead of hanging. Callbacks the parent had registered do not
// run in the child.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <pthread.h>

namespace iss {

static void prepareFork() {
  theDevice()->prepareFork();
  prepareForkCallbacks();
  lockRegistryForFork();
  lockDebugLogForFork();
}

static void parentAfterFork() {
  unlockDebugLogAfterFork();
  unlockRegistryAfterFork();
  parentAfterForkCallbacks();
  theDevice()->parentAfterFork();
}

static void childAfterFork() {
  unlockDebugLogAfterFork();
  unlockRegistryAfterFork();
  childAfterForkCallbacks();
  theDevice()->childAfterFork();
}

void installForkHandlers() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    if (pthread_atfork(prepareFork, parentAfterFork, childAfterFork))
      debugLog(DbgWarning, "pthread_atfork failed: a forked child's first "
                           "command may hang");
  });
}

} // namespace iss
