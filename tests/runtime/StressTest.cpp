//===- StressTest.cpp - Eight host threads on one context -----------------===//
// SPDX-License-Identifier: MIT
//
// Concurrency stress: eight host threads, each with its own
// command queue on one shared context and program, enqueue for a bounded
// time random sequences of kernels (several local sizes, chains of a
// thousand small launches), writes, reads (blocking and not), copies, fills,
// maps, markers and barriers, commands held back by user events, and event
// callbacks that themselves call blocking functions. Every result is checked
// against a host model of each thread's buffers. The same sequences run on
// in-order queues, on out-of-order queues (where only events, markers and
// barriers order them) and on a mix of both.
//
// A watchdog turns a hang into a failure: each thread publishes what it is
// doing and how many steps it has made; when some thread makes no progress
// for a while (30 s, times ISS_TEST_TIME_SCALE), the watchdog prints every
// thread's state and ends the process with status 1. ISS_STRESS_SECONDS sets
// the time per case (default 3).
// On Debian's pocl (ISS_TEST_PLATFORM=Portable, to check the test itself)
// the callbacks do not block: pocl calls them on its device threads, where
// a blocking call deadlocks.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace clt;

namespace {

const char *Source = R"CLC(
__kernel void affine(__global uint *a, uint m, uint c) {
  size_t i = get_global_id(0);
  a[i] = a[i] * m + c;
}

__kernel void accumulate(__global uint *b, __global const uint *a) {
  size_t i = get_global_id(0);
  b[i] += a[i];
}

// A work-group sum through local memory and barriers, stored per item.
__kernel void groupSum(__global uint *b, __global const uint *a,
                       __local uint *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
  for (size_t j = 0; j < n; ++j)
    s += tmp[j];
  b[get_global_id(0)] = s;
}
)CLC";

constexpr int Threads = 8;
constexpr size_t N = 4096; ///< uints per buffer
constexpr size_t Bytes = N * sizeof(cl_uint);

using Vec = std::vector<cl_uint>;

/// What each thread is doing, for the watchdog.
struct Progress {
  std::atomic<uint64_t> Steps{0};
  std::atomic<const char *> Doing{"starting"};
};

struct Shared {
  cl_context Ctx = nullptr;
  cl_device_id Device = nullptr;
  cl_program Program = nullptr;
  std::chrono::steady_clock::time_point End;
  std::atomic<bool> Stop{false};
  std::mutex FailM;
  std::string FirstFailure;
  Progress Prog[Threads];
  std::atomic<int> CallbacksRun{0};
};

/// A callback that checks its own event and then blocks: it waits for its
/// event and reads a buffer through its queue with a blocking read.
struct CallbackCheck {
  bool Blocking = true; ///< false on Debian's pocl, where they deadlock
  cl_command_queue Q = nullptr;
  cl_mem Buf = nullptr;
  std::atomic<bool> Done{false};
  std::atomic<cl_int> Error{CL_SUCCESS};
  Shared *S = nullptr;
};

void CL_CALLBACK blockingCallback(cl_event Self, cl_int Status, void *Data) {
  auto &C = *static_cast<CallbackCheck *>(Data);
  cl_int Err = Status == CL_COMPLETE ? CL_SUCCESS : Status;
  if (Err == CL_SUCCESS && C.Blocking)
    Err = clWaitForEvents(1, &Self);
  cl_uint First = 0;
  if (Err == CL_SUCCESS && C.Blocking)
    Err = clEnqueueReadBuffer(C.Q, C.Buf, CL_TRUE, 0, sizeof(First), &First, 0,
                              nullptr, nullptr);
  C.Error = Err;
  ++C.S->CallbacksRun;
  C.Done = true;
}

class Worker {
public:
  Worker(Shared &S, int Index, bool OutOfOrder, unsigned Seed)
      : S(S), P(S.Prog[Index]), Rng(Seed), OutOfOrder(OutOfOrder) {}

  void run() {
    cl_int Err;
    cl_command_queue_properties Props =
        OutOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
    Q.reset(clCreateCommandQueue(S.Ctx, S.Device, Props, &Err));
    CL_CHECK(Err);
    A.reset(clCreateBuffer(S.Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &Err));
    CL_CHECK(Err);
    B.reset(clCreateBuffer(S.Ctx, CL_MEM_READ_WRITE, Bytes, nullptr, &Err));
    CL_CHECK(Err);
    Affine.reset(clCreateKernel(S.Program, "affine", &Err));
    CL_CHECK(Err);
    Accumulate.reset(clCreateKernel(S.Program, "accumulate", &Err));
    CL_CHECK(Err);
    GroupSum.reset(clCreateKernel(S.Program, "groupSum", &Err));
    CL_CHECK(Err);
    // Known contents to start from.
    MA.assign(N, 0);
    MB.assign(N, 0);
    step("initial writes");
    CL_CHECK(clEnqueueWriteBuffer(Q, A, CL_TRUE, 0, Bytes, MA.data(), 0,
                                  nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(Q, B, CL_TRUE, 0, Bytes, MB.data(), 0,
                                  nullptr, nullptr));
    while (!S.Stop && std::chrono::steady_clock::now() < S.End) {
      switch (Rng() % 7) {
      case 0:
        writeKernelRead();
        break;
      case 1:
        copyMap();
        break;
      case 2:
        userEventAndCallback();
        break;
      case 3:
        fillKernelWait();
        break;
      case 4:
        manyLaunches();
        break;
      case 5:
        barrierThenRead();
        break;
      case 6:
        groupSums();
        break;
      }
    }
    step("finishing");
    CL_CHECK(clFinish(Q));
  }

private:
  void step(const char *What) {
    P.Doing = What;
    ++P.Steps;
  }

  cl_uint rand32() { return static_cast<cl_uint>(Rng()); }
  Vec randomVec() {
    Vec V(N);
    for (cl_uint &X : V)
      X = rand32();
    return V;
  }
  /// A local size for a launch of N work-items, or null (the runtime's
  /// choice).
  const size_t *pickLocal() {
    static const size_t Sizes[] = {1, 16, 64, 128, 256};
    unsigned I = Rng() % 6;
    if (I == 5)
      return nullptr;
    Local = Sizes[I];
    return &Local;
  }
  static void applyAffine(Vec &V, cl_uint M, cl_uint C) {
    for (cl_uint &X : V)
      X = X * M + C;
  }
  void launchAffine(cl_uint M, cl_uint C, cl_uint NumWait, const cl_event *Wait,
                    cl_event *Out) {
    size_t G = N;
    setArg(Affine, 0, A.get());
    setArg(Affine, 1, M);
    setArg(Affine, 2, C);
    CL_CHECK(clEnqueueNDRangeKernel(Q, Affine, 1, nullptr, &G, pickLocal(),
                                    NumWait, Wait, Out));
  }
  void expect(const Vec &Got, const Vec &Want, const char *What) {
    for (size_t I = 0; I < N; ++I)
      if (Got[I] != Want[I])
        fail(__FILE__, __LINE__,
             std::string(What) + ": element " + std::to_string(I) + " is " +
                 std::to_string(Got[I]) + ", expected " +
                 std::to_string(Want[I]) +
                 (OutOfOrder ? " (out-of-order queue)" : " (in-order queue)"));
  }

  /// Non-blocking write, a kernel waiting for it, a blocking read.
  void writeKernelRead() {
    step("write, kernel, blocking read");
    Vec H = randomVec();
    cl_uint M = rand32() | 1, C = rand32();
    Event W, K;
    CL_CHECK(clEnqueueWriteBuffer(Q, A, CL_FALSE, 0, Bytes, H.data(), 0,
                                  nullptr, W.out()));
    cl_event WE = W;
    launchAffine(M, C, 1, &WE, K.out());
    Vec Out(N);
    cl_event KE = K;
    CL_CHECK(clEnqueueReadBuffer(Q, A, CL_TRUE, 0, Bytes, Out.data(), 1, &KE,
                                 nullptr));
    applyAffine(H, M, C);
    MA = H;
    expect(Out, MA, "write+affine+read");
  }

  /// A copy, a blocking map that waits for it, checked, then unmapped.
  void copyMap() {
    step("copy, map, unmap");
    Event Cp, Un;
    CL_CHECK(clEnqueueCopyBuffer(Q, A, B, 0, 0, Bytes, 0, nullptr, Cp.out()));
    cl_event CE = Cp;
    cl_int Err;
    auto *Ptr = static_cast<cl_uint *>(clEnqueueMapBuffer(
        Q, B, CL_TRUE, CL_MAP_READ, 0, Bytes, 1, &CE, nullptr, &Err));
    CL_CHECK(Err);
    MB = MA;
    expect(Vec(Ptr, Ptr + N), MB, "copy+map");
    CL_CHECK(clEnqueueUnmapMemObject(Q, B, Ptr, 0, nullptr, Un.out()));
    waitFor(Un);
  }

  /// A write held back by a user event, a kernel after it, a non-blocking
  /// read whose completion callback blocks; the user event is set after a
  /// random pause.
  void userEventAndCallback() {
    step("user event, callback");
    cl_int Err;
    Event U(clCreateUserEvent(S.Ctx, &Err));
    CL_CHECK(Err);
    Vec H = randomVec();
    Event W, K, R;
    cl_event UE = U;
    CL_CHECK(clEnqueueWriteBuffer(Q, A, CL_FALSE, 0, Bytes, H.data(), 1, &UE,
                                  W.out()));
    cl_event WE = W;
    size_t G = N;
    setArg(Accumulate, 0, B.get());
    setArg(Accumulate, 1, A.get());
    CL_CHECK(clEnqueueNDRangeKernel(Q, Accumulate, 1, nullptr, &G, pickLocal(),
                                    1, &WE, K.out()));
    Vec Out(N);
    cl_event KE = K;
    CL_CHECK(clEnqueueReadBuffer(Q, B, CL_FALSE, 0, Bytes, Out.data(), 1, &KE,
                                 R.out()));
    CallbackCheck C;
    C.Blocking = BlockingCallbacks;
    C.Q = Q;
    C.Buf = A;
    C.S = &S;
    CL_CHECK(clSetEventCallback(R, CL_COMPLETE, blockingCallback, &C));
    // C lives until its callback has run, even when a check below fails
    // (a callback that never runs is a hang, for the watchdog).
    struct WaitForCallback {
      CallbackCheck &C;
      Progress &P;
      ~WaitForCallback() {
        P.Doing = "user event, waiting for the callback";
        while (!C.Done)
          std::this_thread::sleep_for(std::chrono::microseconds(50));
      }
    } Guard{C, P};
    if (eventStatus(W) == CL_COMPLETE)
      fail(__FILE__, __LINE__, "a write ran before its user event was set");
    std::this_thread::sleep_for(std::chrono::microseconds(Rng() % 300));
    CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
    step("user event, waiting for the read");
    waitFor(R);
    MA = H;
    for (size_t I = 0; I < N; ++I)
      MB[I] += MA[I];
    expect(Out, MB, "user event+accumulate+read");
    step("user event, waiting for the callback");
    while (!C.Done)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    CL_CHECK(C.Error.load());
  }

  /// A fill, a kernel, a non-blocking read, clFlush and clWaitForEvents.
  void fillKernelWait() {
    step("fill, kernel, wait");
    cl_uint Pattern = rand32(), M = rand32(), C = rand32();
    Event F, K, R;
    CL_CHECK(clEnqueueFillBuffer(Q, A, &Pattern, sizeof(Pattern), 0, Bytes, 0,
                                 nullptr, F.out()));
    cl_event FE = F;
    launchAffine(M, C, 1, &FE, K.out());
    Vec Out(N);
    cl_event KE = K;
    CL_CHECK(clEnqueueReadBuffer(Q, A, CL_FALSE, 0, Bytes, Out.data(), 1, &KE,
                                 R.out()));
    CL_CHECK(clFlush(Q));
    waitFor(R);
    MA.assign(N, Pattern * M + C);
    expect(Out, MA, "fill+affine+read");
  }

  /// A chain of small launches, each waiting for the previous, then
  /// clFinish and a blocking read.
  void manyLaunches() {
    step("many launches");
    int Count = 20 + static_cast<int>(Rng() % 200);
    Event Prev;
    for (int I = 0; I < Count; ++I) {
      cl_uint M = rand32(), C = rand32();
      Event Next;
      cl_event PE = Prev;
      launchAffine(M, C, Prev ? 1 : 0, Prev ? &PE : nullptr, Next.out());
      applyAffine(MA, M, C);
      Prev = std::move(Next);
    }
    step("many launches, clFinish");
    CL_CHECK(clFinish(Q));
    Vec Out(N);
    CL_CHECK(clEnqueueReadBuffer(Q, A, CL_TRUE, 0, Bytes, Out.data(), 0,
                                 nullptr, nullptr));
    expect(Out, MA, "launch chain");
  }

  /// Kernels ordered by a barrier alone: with an out-of-order queue,
  /// nothing else orders the read after them.
  void barrierThenRead() {
    step("barrier, read");
    cl_uint M = rand32(), C = rand32();
    launchAffine(M, C, 0, nullptr, nullptr);
    applyAffine(MA, M, C);
    CL_CHECK(clEnqueueBarrierWithWaitList(Q, 0, nullptr, nullptr));
    size_t G = N;
    setArg(Accumulate, 0, B.get());
    setArg(Accumulate, 1, A.get());
    CL_CHECK(clEnqueueNDRangeKernel(Q, Accumulate, 1, nullptr, &G, nullptr, 0,
                                    nullptr, nullptr));
    for (size_t I = 0; I < N; ++I)
      MB[I] += MA[I];
    Event Marker;
    CL_CHECK(clEnqueueMarkerWithWaitList(Q, 0, nullptr, Marker.out()));
    cl_event ME = Marker;
    Vec Out(N);
    CL_CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, Bytes, Out.data(), 1, &ME,
                                 nullptr));
    expect(Out, MB, "barrier+accumulate+marker+read");
  }

  /// A barrier kernel with __local memory, local size 64.
  void groupSums() {
    step("group sums");
    size_t G = N, L = 64;
    setArg(GroupSum, 0, B.get());
    setArg(GroupSum, 1, A.get());
    CL_CHECK(clSetKernelArg(GroupSum, 2, L * sizeof(cl_uint), nullptr));
    Event K;
    CL_CHECK(clEnqueueNDRangeKernel(Q, GroupSum, 1, nullptr, &G, &L, 0, nullptr,
                                    K.out()));
    Vec Out(N);
    cl_event KE = K;
    CL_CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, Bytes, Out.data(), 1, &KE,
                                 nullptr));
    for (size_t Gr = 0; Gr < N; Gr += L) {
      cl_uint Sum = 0;
      for (size_t I = 0; I < L; ++I)
        Sum += MA[Gr + I];
      for (size_t I = 0; I < L; ++I)
        MB[Gr + I] = Sum;
    }
    expect(Out, MB, "group sums");
  }

public:
  bool BlockingCallbacks = true;

private:
  Shared &S;
  Progress &P;
  std::mt19937 Rng;
  bool OutOfOrder;
  size_t Local = 0;
  Queue Q;
  Mem A, B;
  Kernel Affine, Accumulate, GroupSum;
  Vec MA, MB; ///< what A and B hold
};

double stressSeconds() {
  const char *V = std::getenv("ISS_STRESS_SECONDS");
  double S = V && *V ? std::atof(V) : 3.0;
  return S > 0 ? S : 3.0;
}

/// Prints every thread's state with write(2) only and ends the process.
[[noreturn]] void reportHang(Shared &S, int Stuck, double Seconds) {
  std::string Msg = "stress watchdog: thread " + std::to_string(Stuck) +
                    " made no progress for " +
                    std::to_string(static_cast<int>(Seconds)) + " s\n";
  for (int I = 0; I < Threads; ++I)
    Msg += "  thread " + std::to_string(I) + ": " +
           std::to_string(S.Prog[I].Steps.load()) +
           " steps, now: " + S.Prog[I].Doing.load() + "\n";
  (void)!write(2, Msg.data(), Msg.size());
  _exit(1);
}

/// Runs the eight workers; \p OutOfOrder says which queues are out of
/// order.
void stress(Env &E, bool (*OutOfOrder)(int)) {
  Program P = E.build(Source);
  Shared S;
  S.Ctx = E.Ctx;
  S.Device = E.Device;
  S.Program = P;
  double Seconds = stressSeconds();
  S.End = std::chrono::steady_clock::now() +
          std::chrono::milliseconds(static_cast<int64_t>(Seconds * 1000));
  unsigned Seed = static_cast<unsigned>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  std::printf("  %d threads for %.1f s, seed %u\n", Threads, Seconds, Seed);
  std::fflush(stdout);

  std::vector<std::thread> Ts;
  for (int I = 0; I < Threads; ++I)
    Ts.emplace_back([&S, &E, I, OutOfOrder, Seed] {
      try {
        Worker W(S, I, OutOfOrder(I), Seed + 7919 * I);
        W.BlockingCallbacks = E.IsPoclIss;
        W.run();
      } catch (const Failure &F) {
        std::lock_guard<std::mutex> L(S.FailM);
        if (S.FirstFailure.empty())
          S.FirstFailure = "thread " + std::to_string(I) + ": " + F.what();
        S.Stop = true;
      }
      S.Prog[I].Doing = "done";
      ++S.Prog[I].Steps;
    });

  // The watchdog: no step for this long is a hang (a step is at most a few
  // hundred small commands).
  const double HangSeconds = 30.0 * timeScale();
  std::vector<uint64_t> Last(Threads, 0);
  std::vector<std::chrono::steady_clock::time_point> Since(
      Threads, std::chrono::steady_clock::now());
  for (;;) {
    bool AllDone = true;
    auto Now = std::chrono::steady_clock::now();
    for (int I = 0; I < Threads; ++I) {
      const char *Doing = S.Prog[I].Doing;
      if (std::string(Doing) != "done")
        AllDone = false;
      else
        continue;
      uint64_t Steps = S.Prog[I].Steps;
      if (Steps != Last[I]) {
        Last[I] = Steps;
        Since[I] = Now;
      } else if (std::chrono::duration<double>(Now - Since[I]).count() >
                 HangSeconds) {
        reportHang(S, I, HangSeconds);
      }
    }
    if (AllDone)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (std::thread &T : Ts)
    T.join();
  uint64_t Steps = 0;
  for (int I = 0; I < Threads; ++I)
    Steps += S.Prog[I].Steps;
  std::printf("  %llu steps, %d callbacks\n",
              static_cast<unsigned long long>(Steps), S.CallbacksRun.load());
  if (!S.FirstFailure.empty())
    fail(__FILE__, __LINE__, S.FirstFailure);
  CLT_EXPECT(S.CallbacksRun > 0);
}

} // namespace

CLT_TEST(inOrderQueues) {
  stress(E, [](int) { return false; });
}

CLT_TEST(outOfOrderQueues) {
  stress(E, [](int) { return true; });
}

CLT_TEST(mixedQueues) {
  stress(E, [](int I) { return I % 2 == 1; });
}
