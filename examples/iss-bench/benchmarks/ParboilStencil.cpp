//===- ParboilStencil.cpp - Parboil stencil (naive) -----------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Parboil's stencil benchmark in its plain OpenCL version (opencl_base): a
// 7-point Jacobi step on a 3D grid, one work-item per interior point, the
// ids offset by one and a tail guard on x only (the y and z sizes of the
// launch are exact), in 1D groups along x over a global x size rounded up
// to whole groups; the grids swap between iterations. A kernel pocl-iss
// was not tuned on: the guard diverges only in the last group of each row,
// and the index is int arithmetic on three arguments.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + _nx * ((_j) + _ny * (_k)))

__kernel void naive_kernel(float c0, float c1, __global float *A0,
                           __global float *Anext, int nx, int ny, int nz) {
  int i = get_global_id(0) + 1;
  int j = get_global_id(1) + 1;
  int k = get_global_id(2) + 1;

  if (i < nx - 1) {
    Anext[Index3D(nx, ny, i, j, k)] =
        c1 * (A0[Index3D(nx, ny, i, j, k + 1)] +
              A0[Index3D(nx, ny, i, j, k - 1)] +
              A0[Index3D(nx, ny, i, j + 1, k)] +
              A0[Index3D(nx, ny, i, j - 1, k)] +
              A0[Index3D(nx, ny, i + 1, j, k)] +
              A0[Index3D(nx, ny, i - 1, j, k)]) -
        A0[Index3D(nx, ny, i, j, k)] * c0;
  }
}
)CLC";

constexpr int Iterations = 4;
constexpr float C0 = 1.0f / 6.0f, C1 = 1.0f / 6.0f / 6.0f;

class ParboilStencil : public Benchmark {
  int NX = 0, NY = 0, NZ = 0;
  std::vector<float> In, Want;
  cl_mem D[2] = {nullptr, nullptr};
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Parboil's default data set is 512x512x64.
    NX = S == Size::Full ? 512 : 256;
    NY = NX;
    NZ = S == Size::Full ? 64 : 32;
    size_t N = size_t(NX) * NY * NZ;
    In = randomVector<float>(N, 0.f, 1.f, 71);
    std::vector<float> A = In, Next = In;
    auto Idx = [&](int I, int J, int Kk) {
      return size_t(I) + size_t(NX) * (size_t(J) + size_t(NY) * Kk);
    };
    for (int T = 0; T < Iterations; ++T) {
      for (int Kk = 1; Kk < NZ - 1; ++Kk)
        for (int J = 1; J < NY - 1; ++J)
          for (int I = 1; I < NX - 1; ++I)
            Next[Idx(I, J, Kk)] =
                C1 * (A[Idx(I, J, Kk + 1)] + A[Idx(I, J, Kk - 1)] +
                      A[Idx(I, J + 1, Kk)] + A[Idx(I, J - 1, Kk)] +
                      A[Idx(I + 1, J, Kk)] + A[Idx(I - 1, J, Kk)]) -
                A[Idx(I, J, Kk)] * C0;
      std::swap(A, Next);
    }
    Want = A;
    K = kernel(E, program(E, Source), "naive_kernel");
    D[0] = buffer(E, N * sizeof(float));
    D[1] = buffer(E, N * sizeof(float));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    // Both grids start alike: the boundary, never written, stays the input.
    E.write(D[0], In);
    E.write(D[1], In);
    size_t Local[3] = {64, 1, 1};
    size_t Global[3] = {roundUp(NX - 2, Local[0]), size_t(NY - 2),
                        size_t(NZ - 2)};
    for (int T = 0; T < Iterations; ++T) {
      setArgs(K, C0, C1, D[T % 2], D[(T + 1) % 2], NX, NY, NZ);
      E.launch(K, 3, Global, Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(D[Iterations % 2], Got);
    return compareNear(Got, Want, 1e-5, 1e-6, "grid");
  }

  std::string describe() const override {
    return std::to_string(NX) + "x" + std::to_string(NY) + "x" +
           std::to_string(NZ) + ", " + std::to_string(Iterations) +
           " steps";
  }
};

ISS_BENCHMARK(ParboilStencil, "parboil-stencil", "Parboil stencil (not in the paper)");

} // namespace
} // namespace issbench
