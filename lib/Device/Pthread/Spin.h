//===- Spin.h - Bounded busy waiting before sleeping ------------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Waking a sleeping thread costs a system call on one side and, on the
// other, tens of microseconds before the woken thread runs (more on virtual
// machines, whose idle virtual CPUs must be rescheduled too). Applications
// with many small launches pay that several times per launch: gaussian and
// lud ran slower on two threads than on one. So the device's threads and
// the application's waits spin for a while (POCL_ISS_SPIN_US) before they
// sleep: a launch, command or completion that comes within that time is
// seen at once. Spinning yields the CPU regularly, so that a thread it
// waits for on the same core can run.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_SPIN_H
#define POCL_ISS_DEVICE_PTHREAD_SPIN_H

#include <chrono>
#include <cstdint>
#include <sched.h>

namespace iss {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Busy-waits until \p Ready() is true or \p BudgetNs have passed; true
/// when \p Ready() became true. A budget of 0 checks once.
template <typename Pred> bool spinUntil(Pred Ready, uint64_t BudgetNs) {
  if (Ready())
    return true;
  if (!BudgetNs)
    return false;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point End =
      Clock::now() + std::chrono::nanoseconds(BudgetNs);
  for (;;) {
    // About a microsecond between yields: when the thread this one waits
    // for shares its core (a loaded machine), it gets the core back at
    // once instead of after a time slice.
    for (int I = 0; I < 16; ++I) {
      cpuRelax();
      if (Ready())
        return true;
    }
    sched_yield();
    if (Ready())
      return true;
    if (Clock::now() >= End)
      return false;
  }
}

/// Busy-waits, yielding, until \p Ready() is true: for waits that end
/// within microseconds unless the thread waited for was preempted.
template <typename Pred> void spinForever(Pred Ready) {
  for (unsigned Round = 0; !Ready(); ++Round) {
    if (Round < 64)
      for (int I = 0; I < 16; ++I)
        cpuRelax();
    else
      sched_yield();
  }
}

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_SPIN_H
