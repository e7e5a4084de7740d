//===- Myocyte.cpp - Two work-groups, one busy work-item each -------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Modelled on Rodinia's myocyte (section 6.5): a single kernel launched as
// two work-groups of local size 2, each doing a different task, with only
// the work-item guarded by get_local_id(0) == 0 doing any work. The paper
// finds the vector code is never executed and all modes run equally fast;
// the benchmark checks that the splitting machinery costs nothing here.
// Two small ODE systems integrated with explicit Euler: a FitzHugh-Nagumo
// membrane and a three-compartment calcium exchange.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// Results must be reproducible on the host bit for bit.
#pragma OPENCL FP_CONTRACT OFF

__kernel void myocyte(int Steps, float Dt, __global const float *P,
                      __global float *State, __global float *Trace,
                      int TraceEvery, int TraceLen) {
  if (get_local_id(0) == 0) {
    if (get_group_id(0) == 0) {
      float V = State[0], W = State[1];
      for (int S = 0; S < Steps; ++S) {
        float DV = V - V * V * V / 3.0f - W + P[3];
        float DW = P[2] * (V + P[0] - P[1] * W);
        V += Dt * DV;
        W += Dt * DW;
        if (S % TraceEvery == 0)
          Trace[S / TraceEvery] = V;
      }
      State[0] = V;
      State[1] = W;
    } else {
      float C0 = State[2], C1 = State[3], C2 = State[4];
      for (int S = 0; S < Steps; ++S) {
        float F01 = P[4] * (C0 - C1);
        float F12 = P[5] * (C1 - C2);
        C0 += Dt * (P[6] * (1.0f - C0) - F01);
        C1 += Dt * (F01 - F12);
        C2 += Dt * (F12 - P[6] * C2 * C2);
        if (S % TraceEvery == 0)
          Trace[TraceLen + S / TraceEvery] = C1;
      }
      State[2] = C0;
      State[3] = C1;
      State[4] = C2;
    }
  }
}
)CLC";

class Myocyte : public Benchmark {
  int Steps = 0, TraceEvery = 1000, TraceLen = 0;
  const float Dt = 0.001f;
  std::vector<float> Params = {0.7f, 0.8f, 0.08f, 0.5f, 3.0f, 1.5f, 0.4f};
  std::vector<float> State0 = {-1.0f, 1.0f, 0.1f, 0.2f, 0.3f};
  std::vector<float> WantState, WantTrace;
  cl_mem DState = nullptr, DTrace = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Steps = S == Size::Full ? 2000000 : 200000;
    TraceLen = (Steps + TraceEvery - 1) / TraceEvery;
    WantState = State0;
    WantTrace.assign(2 * size_t(TraceLen), 0.f);
    const float *P = Params.data();
    float V = State0[0], W = State0[1];
    for (int St = 0; St < Steps; ++St) {
      float DV = V - V * V * V / 3.0f - W + P[3];
      float DW = P[2] * (V + P[0] - P[1] * W);
      V += Dt * DV;
      W += Dt * DW;
      if (St % TraceEvery == 0)
        WantTrace[St / TraceEvery] = V;
    }
    float C0 = State0[2], C1 = State0[3], C2 = State0[4];
    for (int St = 0; St < Steps; ++St) {
      float F01 = P[4] * (C0 - C1);
      float F12 = P[5] * (C1 - C2);
      C0 += Dt * (P[6] * (1.0f - C0) - F01);
      C1 += Dt * (F01 - F12);
      C2 += Dt * (F12 - P[6] * C2 * C2);
      if (St % TraceEvery == 0)
        WantTrace[TraceLen + St / TraceEvery] = C1;
    }
    WantState = {V, W, C0, C1, C2};
    K = kernel(E, program(E, Source), "myocyte");
    cl_mem DP = buffer(E, Params.size() * sizeof(float));
    DState = buffer(E, State0.size() * sizeof(float));
    DTrace = buffer(E, WantTrace.size() * sizeof(float));
    E.write(DP, Params);
    setArgs(K, Steps, Dt, DP, DState, DTrace, TraceEvery, TraceLen);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DState, State0);
    E.write(DTrace, std::vector<float>(WantTrace.size(), -99.f));
    size_t Global = 4, Local = 2;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> St(State0.size()), Tr(WantTrace.size());
    E.read(DState, St);
    E.read(DTrace, Tr);
    // Without contraction the float operations are the host's, in the same
    // order: any difference beyond noise means a miscompiled loop.
    std::string Msg = compareNear(St, WantState, 1e-4, 1e-5, "state");
    return Msg.empty() ? compareNear(Tr, WantTrace, 1e-4, 1e-5, "trace") : Msg;
  }

  std::string describe() const override {
    return "2 groups x 2 work-items, " + std::to_string(Steps) + " steps";
  }
};

ISS_BENCHMARK(Myocyte, "myocyte", "Rodinia myocyte-like (2 work-groups)");

} // namespace
} // namespace issbench
