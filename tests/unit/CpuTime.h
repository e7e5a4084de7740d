//===- CpuTime.h - CPU time for the compile-time tests ----------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// FrontHalfTest and CompilerTest's huge switch check that compile time grows
// linearly by comparing the CPU times of two sizes: on a shared, loaded
// machine CPU time varies far less than the time on the clock.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_UNIT_CPUTIME_H
#define POCL_ISS_TESTS_UNIT_CPUTIME_H

#include <ctime>

/// CPU seconds of this process, all its threads.
inline double cpuSeconds() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

#endif // POCL_ISS_TESTS_UNIT_CPUTIME_H
