//===- UniformPow.cpp - A uniform builtin before a divergent loop ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// s = pow(r, e) is the same for every work-item; then a per-work-item early
// return (a padded NDRange's tail guard) and a loop whose trip count
// depends on the work-item. The uniform builtin must run once per work
// group, not once per work-item inside the work-item loop (uniform values
// stay uniform; iss-hoist-uniform). Not one of
// the paper's benchmarks: run it by name.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void uniformPow(__global const float *X, __global float *Y, float R,
                         float E, int N) {
  float S = pow(R, E);
  int G = get_global_id(0);
  if (G >= N)
    return;
  float Acc = 0.0f;
  for (int J = 0; J < (G & 7); ++J)
    Acc += S * X[G + J];
  Y[G] = Acc;
}
)CLC";

class UniformPow : public Benchmark {
  int N = 0;
  const float R = 1.0001f, E = 3.5f;
  std::vector<float> Want;
  cl_mem DY = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const clt::Env &Cl, Size Sz) override {
    N = Sz == Size::Full ? (1 << 22) - 3 : (1 << 20) - 3;
    auto X = randomVector<float>(N + 8, -1.f, 1.f, 21);
    float S = std::pow(R, E);
    Want.assign(N, 0.f);
    for (int G = 0; G < N; ++G)
      for (int J = 0; J < (G & 7); ++J)
        Want[G] += S * X[G + J];
    K = kernel(Cl, program(Cl, Source), "uniformPow");
    cl_mem DX = buffer(Cl, (N + 8) * sizeof(float));
    DY = buffer(Cl, N * sizeof(float));
    Cl.write(DX, X);
    setArgs(K, DX, DY, R, E, N);
  }

  void run(const clt::Env &Cl, std::vector<cl_event> &Events) override {
    size_t Local = 256, Global = roundUp(N, Local);
    Cl.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const clt::Env &Cl) override {
    std::vector<float> Got(N);
    Cl.read(DY, Got);
    return compareNear(Got, Want, 1e-4, 1e-5, "y");
  }

  std::string describe() const override {
    return std::to_string(N) + " floats";
  }
};

ISS_BENCHMARK(UniformPow, "uniform-pow", "pocl-iss: uniform builtin, tail guard");

} // namespace
} // namespace issbench
