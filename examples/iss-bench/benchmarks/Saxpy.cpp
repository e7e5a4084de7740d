//===- Saxpy.cpp - A simple streaming kernel ------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// z = a * x + y over a 1D NDRange whose size is not a multiple of the local
// size (guarded tail). No divergence except the tail: the control for the
// ablation, where every vectorizing mode should do equally well and the gap
// to scalar is bounded by memory bandwidth.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void saxpy(float A, __global const float *X, __global const float *Y,
                    __global float *Z, int N) {
  int I = get_global_id(0);
  if (I < N)
    Z[I] = A * X[I] + Y[I];
}
)CLC";

class Saxpy : public Benchmark {
  int N = 0;
  const float A = 2.5f;
  std::vector<float> Want;
  cl_mem DZ = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? (1 << 24) - 3 : (1 << 22) - 3;
    auto X = randomVector<float>(N, -1.f, 1.f, 8);
    auto Y = randomVector<float>(N, -1.f, 1.f, 9);
    Want.resize(N);
    for (int I = 0; I < N; ++I)
      Want[I] = A * X[I] + Y[I];
    K = kernel(E, program(E, Source), "saxpy");
    cl_mem DX = buffer(E, N * sizeof(float)), DY = buffer(E, N * sizeof(float));
    DZ = buffer(E, N * sizeof(float));
    E.write(DX, X);
    E.write(DY, Y);
    setArgs(K, A, DX, DY, DZ, N);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DZ, std::vector<float>(N, 0.f));
    size_t Local = 256, Global = roundUp(N, Local);
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(N);
    E.read(DZ, Got);
    return compareNear(Got, Want, 1e-6, 1e-6, "z");
  }

  std::string describe() const override {
    return std::to_string(N) + " floats";
  }
};

ISS_BENCHMARK(Saxpy, "saxpy", "simple streaming kernel");

} // namespace
} // namespace issbench
