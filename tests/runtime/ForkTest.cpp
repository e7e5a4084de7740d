//===- ForkTest.cpp - A process that forks after using the device ---------===//
// SPDX-License-Identifier: MIT
//
// Python's multiprocessing forks by default, so an OpenCL program may fork
// after it has run kernels: its device threads (command scheduler, worker
// pool, callback threads) do not exist in the child. The child must still
// get a working device for the objects it makes itself (context, queue,
// program, kernel), and the parent must keep working. Each case forks from
// a different state of the parent's device and runs a kernel in the child,
// checked against a host reference. A child that hangs is killed after a
// time limit (alarm in the child, a timed wait in the parent) and is a
// failure, not a stuck test.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <atomic>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace clt;

static const char *Source = R"CLC(
__kernel void axpb(__global const int *in, __global int *out, int a, int b) {
  size_t i = get_global_id(0);
  out[i] = a * in[i] + b;
}
)CLC";

/// Runs axpb on \p N elements with \p E's context and queue and checks it.
static void runAxpb(const Env &E, size_t N, int A, int B) {
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I * 7 % 1013) - 500;
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "axpb");
  Mem InBuf = E.input(In);
  Mem OutBuf = E.output<int>(N);
  setArgs(K, InBuf, OutBuf, A, B);
  E.run1(K, N, N % 64 ? 0 : 64);
  std::vector<int> Out = E.read<int>(OutBuf, N);
  std::vector<int> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = A * In[I] + B;
  CLT_EXPECT_MSG(Out == Want, "wrong results");
}

/// Exit codes of the child.
enum : int { ChildOk = 0, ChildFailed = 3, ChildTimedOut = 4 };

static void childTimedOut(int) {
  static const char Msg[] = "fork child: timed out\n";
  (void)!write(2, Msg, sizeof(Msg) - 1);
  _exit(ChildTimedOut);
}

/// In the child: a fresh context and queue on the parent's device, a
/// kernel built and run there, then \p Also; never returns.
template <typename Fn>
[[noreturn]] static void childMain(const Env &Parent, Fn Also) {
  std::signal(SIGALRM, childTimedOut);
  alarm(30 * timeScale());
  int Code = ChildOk;
  try {
    Env E;
    E.Platform = Parent.Platform;
    E.Device = Parent.Device;
    E.PlatformName = Parent.PlatformName;
    E.IsPoclIss = Parent.IsPoclIss;
    E.connect();
    runAxpb(E, 4099, 3, -11);
    Also(E);
  } catch (const Failure &F) {
    std::fprintf(stderr, "fork child: %s\n", F.what());
    Code = ChildFailed;
  } catch (const Skipped &S) {
    std::fprintf(stderr, "fork child: skipped: %s\n", S.Reason.c_str());
    Code = ChildFailed;
  }
  std::fflush(stderr);
  // As multiprocessing's children do: no exit handlers of the parent's.
  _exit(Code);
}

/// Forks a child running childMain(Parent, Also) and checks that it
/// succeeded within the time limit.
template <typename Fn> static void forkAndCheck(const Env &Parent, Fn Also) {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t Pid = fork();
  if (Pid < 0)
    fail("fork failed");
  if (Pid == 0)
    childMain(Parent, Also);
  int Status = waitChild(Pid, 60);
  CLT_EXPECT_MSG(Status != -1, "the child did not end within 60 s (hung)");
  CLT_EXPECT_MSG(WIFEXITED(Status), "the child was killed by signal " +
                                        std::to_string(WTERMSIG(Status)));
  int Code = WEXITSTATUS(Status);
  CLT_EXPECT_MSG(Code != ChildTimedOut, "the child hung (its alarm fired)");
  CLT_EXPECT_MSG(Code == ChildOk,
                 "the child failed with exit code " + std::to_string(Code));
}

static void nothing(const Env &) {}

// The common case: the parent has run a kernel and waited for it.
CLT_TEST(forkAfterLaunch) {
  runAxpb(E, 1000, 2, 5);
  forkAndCheck(E, nothing);
  runAxpb(E, 1000, -4, 1);
}

/// axpb launched \p Count times in groups of 64 over \p Out's 4096
/// elements, with a = I at launch I and b = \p B, then waited for.
static void launchMany(const Env &E, cl_kernel K, cl_mem In, cl_mem Out,
                       int Count, int B) {
  for (int I = 0; I < Count; ++I) {
    setArgs(K, In, Out, I, B);
    size_t Global = 4096, Local = 64;
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &Local, 0,
                                    nullptr, nullptr));
  }
  CL_CHECK(clFinish(E.Q));
}

// The parent's queue idle after many launches: workers and the scheduler
// are still spinning, or have just gone to sleep, when the parent forks.
CLT_TEST(forkWhileIdleAfterManyLaunches) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "axpb");
  static constexpr size_t N = 4096;
  std::vector<int> In(N, 1);
  Mem InBuf = E.input(In);
  Mem OutBuf = E.output<int>(N);
  launchMany(E, K, InBuf, OutBuf, 500, 0);
  CLT_EXPECT(E.read<int>(OutBuf, N) == std::vector<int>(N, 499));
  forkAndCheck(E, [](const Env &C) {
    // Many launches in the child too, on its own worker threads.
    Program CP = C.build(Source);
    Kernel CK = C.kernel(CP, "axpb");
    Mem CIn = C.input(std::vector<int>(N, 2));
    Mem COut = C.output<int>(N);
    launchMany(C, CK, CIn, COut, 300, 1);
    CLT_EXPECT(C.read<int>(COut, N) == std::vector<int>(N, 2 * 299 + 1));
  });
  runAxpb(E, 4096, 9, 9);
}

// Several children one after another, and a grandchild: each fork starts
// from a device that has already been rebuilt once.
CLT_TEST(forkRepeatedlyAndNested) {
  runAxpb(E, 300, 1, 1);
  for (int I = 0; I < 3; ++I)
    forkAndCheck(E, nothing);
  forkAndCheck(E, [](const Env &C) { forkAndCheck(C, nothing); });
  runAxpb(E, 300, 2, 2);
}

// An event callback ran in the parent (its callback thread exists there,
// not in the child); the child sets callbacks of its own.
static void CL_CALLBACK countCallback(cl_event, cl_int, void *Data) {
  static_cast<std::atomic<int> *>(Data)->fetch_add(1);
}

static void launchWithCallback(const Env &E) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "axpb");
  std::vector<int> In(64, 2);
  Mem InBuf = E.input(In);
  Mem OutBuf = E.output<int>(64);
  setArgs(K, InBuf, OutBuf, 1, 0);
  size_t Global = 64;
  cl_event Ev;
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, nullptr, 0,
                                  nullptr, &Ev));
  Event Owned(Ev);
  std::atomic<int> Calls{0};
  CL_CHECK(clSetEventCallback(Ev, CL_COMPLETE, countCallback, &Calls));
  CL_CHECK(clFinish(E.Q));
  for (int I = 0; I < 10000 && Calls.load() == 0; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CLT_EXPECT_MSG(Calls.load() == 1, "the event callback did not run");
}

CLT_TEST(forkAfterEventCallbacks) {
  launchWithCallback(E);
  forkAndCheck(E, launchWithCallback);
  launchWithCallback(E);
}

// A command still pending at fork (held back by a user event) is the
// parent's: in the child its event fails instead of hanging a wait, and the
// parent's queue runs what the child enqueues to it. The parent's command
// runs once the parent sets the event.
CLT_TEST(forkWithCommandPending) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "axpb");
  static constexpr size_t N = 256;
  Mem InBuf = E.input(std::vector<int>(N, 5));
  Mem OutBuf = E.output<int>(N);
  setArgs(K, InBuf, OutBuf, 2, 0);
  Event Gate = userEvent(E);
  size_t Global = N;
  cl_event Raw;
  cl_event GateEv = Gate.get();
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, nullptr, 1,
                                  &GateEv, &Raw));
  Event Pending(Raw);
  settle();
  CLT_EXPECT(eventStatus(Pending) > CL_COMPLETE);
  cl_command_queue ParentQ = E.Q;
  cl_mem Out = OutBuf.get();
  cl_kernel PK = K.get();
  forkAndCheck(E, [&](const Env &C) {
    cl_event Ev = Pending.get();
    CLT_EXPECT(clWaitForEvents(1, &Ev) ==
               CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CLT_EXPECT(eventStatus(Ev) < 0);
    // The parent's queue and kernel, in the child.
    setArgs(PK, InBuf, OutBuf, 3, 1);
    CL_CHECK(clEnqueueNDRangeKernel(ParentQ, PK, 1, nullptr, &Global, nullptr,
                                    0, nullptr, nullptr));
    std::vector<int> Got(N);
    CL_CHECK(clEnqueueReadBuffer(ParentQ, Out, CL_TRUE, 0, N * sizeof(int),
                                 Got.data(), 0, nullptr, nullptr));
    CLT_EXPECT(Got == std::vector<int>(N, 16));
    (void)C;
  });
  CL_CHECK(clSetUserEventStatus(Gate, CL_COMPLETE));
  waitFor(Pending);
  CLT_EXPECT(E.read<int>(OutBuf, N) == std::vector<int>(N, 10));
}

// Fork while a kernel runs on the parent's worker threads: in the child the
// launch is lost with its threads, and its event fails; the parent's kernel
// finishes once the parent lets it.
static const char *SpinSource = R"CLC(
__kernel void spin(__global volatile int *flag, __global int *out) {
  int i = 0;
  while (flag[0] == 0 && i < 2000000000)
    ++i;
  out[get_global_id(0)] = flag[0];
}
)CLC";

CLT_TEST(forkWhileKernelRuns) {
  Program P = E.build(SpinSource);
  Kernel K = E.kernel(P, "spin");
  static volatile int Flag = 0;
  Flag = 0;
  Mem FlagBuf = E.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof(int),
                         const_cast<int *>(&Flag));
  static constexpr size_t N = 64;
  Mem OutBuf = E.output<int>(N);
  setArgs(K, FlagBuf, OutBuf);
  size_t Global = N, Local = 1;
  cl_event Raw;
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &Local, 0,
                                  nullptr, &Raw));
  Event Running(Raw);
  CL_CHECK(clFlush(E.Q));
  for (int I = 0; I < 10000 && eventStatus(Running) != CL_RUNNING; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CLT_EXPECT(eventStatus(Running) == CL_RUNNING);
  forkAndCheck(E, [&](const Env &) {
    cl_event Ev = Running.get();
    CLT_EXPECT(clWaitForEvents(1, &Ev) ==
               CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  });
  Flag = 1;
  waitFor(Running);
  CLT_EXPECT(E.read<int>(OutBuf, N) == std::vector<int>(N, 1));
  runAxpb(E, 100, 1, 2);
}
