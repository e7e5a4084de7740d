//===- Thread.h - Threads with big stacks ----------------------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Compiled kernels may keep per-work-item private arrays and context arrays
// on the stack of the thread running a work group, so every thread that runs
// work groups (workers and the command scheduler) gets a 16 MB stack, which
// std::thread cannot ask for.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_THREAD_H
#define POCL_ISS_DEVICE_PTHREAD_THREAD_H

#include <cstddef>
#include <functional>

namespace iss {

constexpr size_t WorkerStackSize = 16u << 20;

/// Starts a detached thread running \p Fn; false if it could not start.
/// Device threads live as long as the process: they are never joined, so
/// exit does not wait on a scheduler blocked on a user event.
bool startThread(std::function<void()> Fn, size_t StackSize = WorkerStackSize);

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_THREAD_H
