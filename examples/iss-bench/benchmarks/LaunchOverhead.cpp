//===- LaunchOverhead.cpp - What one small kernel launch costs the host ---===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The per-launch cost of a runtime: 10000 launches of a trivial kernel (four
// work groups of 64 work-items, one increment each), timed on the host with
// a steady clock, so what is measured is what an application with many
// small launches (gaussian, lud) pays per clEnqueueNDRangeKernel besides
// the kernel's work: argument snapshot, event, hand-over to the device,
// waking threads, completion. Two variants:
//   launch       enqueues the launches back to back, then clFinish;
//   launch-wait  waits for each launch (clWaitForEvents) before the next.
// What is reported is the time per launch in microseconds (in the column
// that says ms for the other benchmarks). Ten thousand launches, so that
// one preemption on a shared machine does not decide the result.
// Every launch is verified: each counter ends at the number of launches.
// Not one of the paper's benchmarks: run them by name.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <chrono>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void tick(__global int *C) { C[get_global_id(0)] += 1; }
)CLC";

constexpr int Launches = 10000;
constexpr size_t Items = 256, Local = 64;

class LaunchOverhead : public Benchmark {
  bool Wait;
  cl_mem DC = nullptr;
  cl_kernel K = nullptr;

public:
  explicit LaunchOverhead(bool Wait) : Wait(Wait) {}

  void setup(const clt::Env &E, Size) override {
    K = kernel(E, program(E, Source), "tick");
    DC = buffer(E, Items * sizeof(int));
    setArgs(K, DC);
  }

  void run(const clt::Env &E, std::vector<cl_event> &) override {
    E.write(DC, std::vector<int>(Items, 0));
    size_t Global = Items, L = Local;
    auto Start = std::chrono::steady_clock::now();
    for (int I = 0; I < Launches; ++I) {
      if (!Wait) {
        CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &L, 0,
                                        nullptr, nullptr));
        continue;
      }
      cl_event Ev;
      CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, &L, 0,
                                      nullptr, &Ev));
      cl_int Err = clWaitForEvents(1, &Ev);
      clReleaseEvent(Ev);
      CL_CHECK(Err);
    }
    CL_CHECK(clFinish(E.Q));
    std::chrono::duration<double, std::milli> Ms =
        std::chrono::steady_clock::now() - Start;
    // Microseconds per launch, in the field for milliseconds.
    reportHostMillis(Ms.count() * 1000.0 / Launches);
  }

  std::string verify(const clt::Env &E) override {
    std::vector<int> Got(Items);
    E.read(DC, Got);
    return compareExact(Got, std::vector<int>(Items, Launches), "counters");
  }

  std::string describe() const override {
    return std::to_string(Launches) + " launches of 4x64 work-items" +
           (Wait ? ", each waited for" : "") +
           "; host time, us per launch (not ms)";
  }
};

struct LaunchNoWait : LaunchOverhead {
  LaunchNoWait() : LaunchOverhead(false) {}
};
struct LaunchWait : LaunchOverhead {
  LaunchWait() : LaunchOverhead(true) {}
};

ISS_BENCHMARK(LaunchNoWait, "launch", "pocl-iss: per-launch host cost");
ISS_BENCHMARK(LaunchWait, "launch-wait",
              "pocl-iss: per-launch cost, each waited for");

} // namespace
} // namespace issbench
