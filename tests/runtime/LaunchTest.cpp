//===- LaunchTest.cpp - How many threads a launch uses --------------------===//
// SPDX-License-Identifier: MIT
//
// The worker pool runs a launch whose work is too small to share on one
// thread and gives a big one to every thread: waking workers for a launch
// of a few microseconds costs more than it saves (lud and gaussian run
// thousands of them). What a launch used is visible in POCL_DEBUG=device's
// log ("<kernel>: <n> groups, <w> workers invited, <t> ns"), so the test
// runs its own launches in a child process with two threads and that log,
// and reads it: after the first launch of a trivial kernel (whose cost is
// unknown then) its launches invite no worker; every launch of a kernel
// that takes milliseconds invites the other thread. Every result is
// checked in the child.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <cstdio>
#include <sstream>
#include <unistd.h>
#include <vector>

using namespace clt;

static const char *Source = R"CLC(
__kernel void tick(__global int *c) { c[get_global_id(0)] += 1; }

__kernel void heavy(__global float *x, int n) {
  size_t i = get_global_id(0);
  float a = x[i];
  for (int k = 0; k < n; ++k)
    a = a * 0.999f + 0.5f;
  x[i] = a;
}
)CLC";

static constexpr int TickLaunches = 200, HeavyLaunches = 4;
static constexpr size_t TickItems = 256, HeavyItems = 1 << 16;
static constexpr int HeavySteps = 4000;

/// The launches themselves; runs only in the child (ISS_LAUNCH_CHILD=1).
CLT_TEST(childLaunches) {
  if (!std::getenv("ISS_LAUNCH_CHILD"))
    CLT_SKIP("runs as launchThreads' child");
  Program P = E.build(Source);
  Kernel Tick = E.kernel(P, "tick"), Heavy = E.kernel(P, "heavy");
  Mem C = E.buffer(CL_MEM_READ_WRITE, TickItems * sizeof(int));
  std::vector<int> Zero(TickItems, 0);
  CL_CHECK(clEnqueueWriteBuffer(E.Q, C, CL_TRUE, 0, TickItems * sizeof(int),
                                Zero.data(), 0, nullptr, nullptr));
  setArg(Tick, 0, C.get());
  size_t G = TickItems, L = 64;
  for (int I = 0; I < TickLaunches; ++I)
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, Tick, 1, nullptr, &G, &L, 0, nullptr,
                                    nullptr));
  std::vector<int> Counts(TickItems);
  CL_CHECK(clEnqueueReadBuffer(E.Q, C, CL_TRUE, 0, TickItems * sizeof(int),
                               Counts.data(), 0, nullptr, nullptr));
  for (int V : Counts)
    CLT_EXPECT(V == TickLaunches);

  std::vector<float> X(HeavyItems, 1.0f);
  Mem XB = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    HeavyItems * sizeof(float), X.data());
  setArg(Heavy, 0, XB.get());
  setArg(Heavy, 1, HeavySteps);
  size_t HG = HeavyItems, HL = 64;
  for (int I = 0; I < HeavyLaunches; ++I)
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, Heavy, 1, nullptr, &HG, &HL, 0,
                                    nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(E.Q, XB, CL_TRUE, 0, HeavyItems * sizeof(float),
                               X.data(), 0, nullptr, nullptr));
  float Want = 1.0f;
  for (int I = 0; I < HeavyLaunches * HeavySteps; ++I)
    Want = Want * 0.999f + 0.5f;
  for (float V : X)
    CLT_EXPECT_MSG(V > Want * 0.999f && V < Want * 1.001f,
                   std::to_string(V) + " vs " + std::to_string(Want));
}

/// Workers invited by each logged launch of \p Kernel, in order.
static std::vector<unsigned> invited(const std::string &Log,
                                     const std::string &Kernel) {
  std::vector<unsigned> Out;
  std::istringstream In(Log);
  std::string Line, Key = "device: " + Kernel + ": ";
  while (std::getline(In, Line)) {
    size_t At = Line.find(Key);
    if (At == std::string::npos)
      continue;
    unsigned long long Groups = 0;
    unsigned Workers = 0;
    if (std::sscanf(Line.c_str() + At + Key.size(),
                    "%llu groups, %u workers invited", &Groups, &Workers) == 2)
      Out.push_back(Workers);
  }
  return Out;
}

CLT_TEST(launchThreads) {
  if (!E.IsPoclIss)
    CLT_SKIP("reads pocl-iss's POCL_DEBUG=device log");
  if (std::getenv("ISS_LAUNCH_CHILD"))
    CLT_SKIP("the child runs childLaunches only");
  std::string Self = selfPath();
  CLT_EXPECT(!Self.empty());
  std::string Log;
  int Exit = runChild(Self.c_str(), "childLaunches",
                      {{"ISS_LAUNCH_CHILD", "1"},
                       {"POCL_DEBUG", "device"},
                       {"POCL_MAX_PTHREAD_COUNT", "2"}},
                      100, Log);
  CLT_EXPECT_MSG(Exit == 0, "the child failed:\n" + Log);

  std::vector<unsigned> Tick = invited(Log, "tick");
  CLT_EXPECT_MSG(Tick.size() == TickLaunches,
                 std::to_string(Tick.size()) + " tick launches logged");
  // The first launch does not know the cost yet. A launch that was
  // preempted may look bigger than it is for a while: a few may invite.
  unsigned Shared = 0;
  for (size_t I = 1; I < Tick.size(); ++I)
    Shared += Tick[I] != 0;
  CLT_EXPECT_MSG(Shared <= 4, std::to_string(Shared) + " of " +
                                  std::to_string(Tick.size() - 1) +
                                  " trivial launches invited a worker");

  std::vector<unsigned> Heavy = invited(Log, "heavy");
  CLT_EXPECT_MSG(Heavy.size() == HeavyLaunches,
                 std::to_string(Heavy.size()) + " heavy launches logged");
  for (unsigned W : Heavy)
    CLT_EXPECT_MSG(W == 1, "a launch of milliseconds invited " +
                               std::to_string(W) + " workers, not 1");
}
