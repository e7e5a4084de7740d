//===- StackGuard.h - Running deep recursion on a large, guarded stack ----===//
// SPDX-License-Identifier: MIT
//
// Clang recurses once per level of an expression: a 100,000-term sum or
// 100,000 nested unary operators need hundreds of megabytes of stack, far
// more than the application thread that calls clBuildProgram has, and a
// stack overflow kills the application. The compiler therefore
// runs on a thread of its own with a large stack, and an overflow of that
// stack becomes an error the caller turns into a build failure.
//
// How: the thread's lowest pages (a reserve above glibc's guard pages) are
// made inaccessible; a SIGSEGV at an address in the reserve or the guard,
// taken on an alternate signal stack, jumps back to where the thread
// started (siglongjmp). If the fault happens inside the C library (malloc
// holding its lock, say), the reserve is opened and the thread goes on until
// it faults in the guard below, by then back in the compiler's own code.
// Every other SIGSEGV goes to the handler that was installed before ours.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_STACKGUARD_H
#define POCL_ISS_STACKGUARD_H

#include <cstddef>
#include <functional>

namespace iss {

/// How runOnLargeStack ended.
enum class StackRun {
  Completed, ///< Fn returned.
  Exhausted, ///< Fn used up the stack; its frames were abandoned.
  NoThread,  ///< No thread could be made; Fn did not run.
};

/// Runs \p Fn on a new thread whose stack has \p StackBytes (at least 1 MiB;
/// halved down to 16 MiB if the system refuses that much) and waits for it.
///
/// On Exhausted, \p Fn's frames were abandoned without running their
/// destructors: whatever they owned is leaked rather than destroyed half-way
/// through an update. \p Fn must therefore publish its results to the
/// caller only at its very end, and hold no lock when it recurses deeply.
StackRun runOnLargeStack(const std::function<void()> &Fn, size_t StackBytes);

} // namespace iss

#endif // POCL_ISS_STACKGUARD_H
