//===- Thread.cpp - Threads with big stacks -------------------------------===//
// SPDX-License-Identifier: MIT
//
// pthread_create with an explicit stack size (see Thread.h).
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/Thread.h"

#include <pthread.h>

namespace iss {

static void *threadEntry(void *Arg) {
  auto *Fn = static_cast<std::function<void()> *>(Arg);
  (*Fn)();
  delete Fn;
  return nullptr;
}

bool startThread(std::function<void()> Fn, size_t StackSize) {
  pthread_attr_t Attr;
  if (pthread_attr_init(&Attr))
    return false;
  pthread_attr_setstacksize(&Attr, StackSize);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  auto *Heap = new std::function<void()>(std::move(Fn));
  pthread_t T;
  int Err = pthread_create(&T, &Attr, threadEntry, Heap);
  pthread_attr_destroy(&Attr);
  if (Err) {
    delete Heap;
    return false;
  }
  return true;
}

} // namespace iss
