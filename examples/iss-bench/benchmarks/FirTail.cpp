//===- FirTail.cpp - A FIR filter whose window is cut at the end ----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// out[i] = sum of in[i + j] * taps[j] for j < min(K, N - i): the window is
// cut short within K of the end. The loop's trip count is K on every
// work-item but the last K - 1, so it diverges only in the tiles N - K
// cuts and after; the reads are consecutive (in) and uniform (taps)
// everywhere. Unsplit, no mode runs the loop in lock-step, and the
// work-item loop around it stays scalar; the split runs it in lock-step on
// the whole tiles before N - K, the loop over lanes inside (its only gain:
// no branch to fold, no address to mend). Not one of the paper's
// benchmarks: run it by name.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void firTail(__global const float *In, __global const float *Taps,
                      __global float *Out, int N, int K) {
  int I = get_global_id(0);
  int M = min(K, N - I);
  float S = 0.0f;
  for (int J = 0; J < M; ++J)
    S += In[I + J] * Taps[J];
  Out[I] = S;
}
)CLC";

class FirTail : public Benchmark {
  int N = 0;
  const int K = 32;
  std::vector<float> Want;
  cl_mem DOut = nullptr;
  cl_kernel Kr = nullptr;

public:
  void setup(const clt::Env &Cl, Size Sz) override {
    N = Sz == Size::Full ? 1 << 22 : 1 << 20;
    auto In = randomVector<float>(N, -1.f, 1.f, 71);
    auto Taps = randomVector<float>(K, -1.f, 1.f, 72);
    Want.assign(N, 0.f);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < std::min(K, N - I); ++J)
        Want[I] += In[I + J] * Taps[J];
    Kr = kernel(Cl, program(Cl, Source), "firTail");
    cl_mem DIn = buffer(Cl, N * sizeof(float));
    cl_mem DTaps = buffer(Cl, K * sizeof(float));
    DOut = buffer(Cl, N * sizeof(float));
    Cl.write(DIn, In);
    Cl.write(DTaps, Taps);
    setArgs(Kr, DIn, DTaps, DOut, N, K);
  }

  void run(const clt::Env &Cl, std::vector<cl_event> &Events) override {
    size_t Local = 256, Global = N;
    Cl.launch(Kr, 1, &Global, &Local, Events);
  }

  std::string verify(const clt::Env &Cl) override {
    std::vector<float> Got(N);
    Cl.read(DOut, Got);
    return compareNear(Got, Want, 1e-4, 1e-5, "out");
  }

  std::string describe() const override {
    return std::to_string(N) + " floats, " + std::to_string(K) + " taps";
  }
};

ISS_BENCHMARK(FirTail, "fir-tail", "pocl-iss: a window cut at the end");

} // namespace
} // namespace issbench
