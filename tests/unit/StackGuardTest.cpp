//===- StackGuardTest.cpp - runOnLargeStack: large stacks, overflow caught
//-===//
// SPDX-License-Identifier: MIT
//
// include/pocl-iss/StackGuard.h, which clBuildProgram and the enqueue-time
// compilation run on: deep recursion completes on a large stack;
// running out of it returns Exhausted and the process, its allocator
// included, goes on; a SIGSEGV that is not a stack overflow on a guarded
// thread still kills the process.
//
//===----------------------------------------------------------------------===//

#include "pocl-iss/StackGuard.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

using namespace iss;

namespace {

/// Recursion that needs about 1 KiB of stack per level and cannot become a
/// loop: the frame's array is used after the recursive call.
__attribute__((noinline)) unsigned deep(unsigned N) {
  volatile char Frame[1024];
  Frame[N % 1024] = static_cast<char>(N);
  if (N == 0)
    return 0;
  return deep(N - 1) + static_cast<unsigned char>(Frame[N % 1024]);
}

/// The same with an allocation per level, so that an overflow may happen
/// inside malloc.
__attribute__((noinline)) unsigned deepAllocating(unsigned N) {
  volatile char Frame[256];
  void *P = std::malloc(16 + N % 512);
  Frame[N % 256] = static_cast<char>(P != nullptr);
  unsigned R = N == 0 ? 0 : deepAllocating(N - 1);
  std::free(P);
  return R + static_cast<unsigned char>(Frame[N % 256]);
}

unsigned expectedDeep(unsigned N) {
  unsigned S = 0;
  for (unsigned I = 1; I <= N; ++I)
    S += static_cast<unsigned char>(static_cast<char>(I));
  return S;
}

TEST(StackGuard, DeepRecursionCompletesOnALargeStack) {
  // 64 MiB: far more than the 8 MiB of a usual thread.
  unsigned Result = 0;
  EXPECT_EQ(runOnLargeStack([&] { Result = deep(40000); }, 64u << 20),
            StackRun::Completed);
  EXPECT_EQ(Result, expectedDeep(40000));
}

TEST(StackGuard, ExhaustionReturnsAndTheProcessGoesOn) {
  for (int Round = 0; Round < 3; ++Round) {
    bool Finished = false;
    EXPECT_EQ(runOnLargeStack(
                  [&] {
                    deep(1u << 20); // 1 GiB of frames
                    Finished = true;
                  },
                  16u << 20),
              StackRun::Exhausted);
    EXPECT_FALSE(Finished);
  }
  // The same with allocations at every level, from several threads at
  // once: whichever thread overflows inside malloc, no lock stays taken.
  std::vector<std::thread> Threads;
  std::vector<StackRun> Runs(4, StackRun::Completed);
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&Runs, T] {
      Runs[T] = runOnLargeStack([] { deepAllocating(1u << 22); }, 16u << 20);
    });
  for (std::thread &T : Threads)
    T.join();
  for (StackRun R : Runs)
    EXPECT_EQ(R, StackRun::Exhausted);
  std::vector<void *> Blocks;
  for (int I = 0; I < 1000; ++I)
    Blocks.push_back(std::malloc(64 + I));
  for (void *B : Blocks)
    std::free(B);
  unsigned Result = 0;
  EXPECT_EQ(runOnLargeStack([&] { Result = deep(1000); }, 16u << 20),
            StackRun::Completed);
  EXPECT_EQ(Result, expectedDeep(1000));
}

TEST(StackGuardDeathTest, OtherFaultsStillCrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // A null dereference on a guarded thread is no stack overflow.
  EXPECT_DEATH(runOnLargeStack(
                   [] {
                     volatile int *Null = nullptr;
                     *Null = 1;
                   },
                   16u << 20),
               "");
  // Nor is one on any other thread, once the handler is installed.
  runOnLargeStack([] {}, 16u << 20);
  EXPECT_DEATH(
      {
        volatile int *Null = nullptr;
        *Null = 2;
      },
      "");
}

} // namespace
