//===- DCT.cpp - AMD APP SDK 8x8 discrete cosine transform ----------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The forward 2D DCT-II of every 8x8 block of a float image, after the AMD
// APP SDK sample the paper evaluates (section 6.2): 8x8 work-groups, one
// work-item per coefficient, Out = A * In * A^T computed as two matrix
// products with the intermediate A * In in a __local array (a kernel
// argument, as in the original) and one barrier between them. Both loops
// have a constant trip count and affine accesses; the paper's Table 3 runs
// one codelet 100% of the time.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// Dct is the 8x8 DCT-II matrix, row-major. Work-item (X, Y) computes the
// coefficient (LY, LX) of its block: first row LY of Dct times column LX of
// the block, then row LY of that product times row LX of Dct.
__kernel void dct8x8(__global float *Out, __global const float *In,
                     __global const float *Dct, __local float *Inter,
                     uint Width) {
  uint X = get_global_id(0);
  uint Y = get_global_id(1);
  uint LX = get_local_id(0);
  uint LY = get_local_id(1);
  uint Top = Y - LY;

  float Acc = 0.0f;
  for (uint K = 0; K < 8; ++K)
    Acc += Dct[LY * 8 + K] * In[(Top + K) * Width + X];
  Inter[LY * 8 + LX] = Acc;
  barrier(CLK_LOCAL_MEM_FENCE);

  Acc = 0.0f;
  for (uint K = 0; K < 8; ++K)
    Acc += Inter[LY * 8 + K] * Dct[LX * 8 + K];
  Out[Y * Width + X] = Acc;
}
)CLC";

class DCT : public Benchmark {
  cl_uint Width = 0, Height = 0;
  std::vector<double> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Width = Height = S == Size::Full ? 2048 : 512;
    size_t N = size_t(Width) * Height;
    auto In = randomVector<float>(N, 0.f, 255.f, 24);
    // A[u][x] = c(u) cos((2x + 1) u pi / 16), c(0) = sqrt(1/8), else
    // sqrt(2/8): orthonormal.
    const double Pi = 3.14159265358979323846;
    double A[8][8];
    std::vector<float> Dct(64);
    for (int U = 0; U < 8; ++U)
      for (int X = 0; X < 8; ++X) {
        A[U][X] = std::sqrt((U ? 2.0 : 1.0) / 8) *
                  std::cos((2 * X + 1) * U * Pi / 16);
        Dct[U * 8 + X] = float(A[U][X]);
      }
    Want.assign(N, 0.0);
    for (cl_uint BY = 0; BY < Height; BY += 8)
      for (cl_uint BX = 0; BX < Width; BX += 8) {
        double T[8][8] = {}; // A * block
        for (int U = 0; U < 8; ++U)
          for (int C = 0; C < 8; ++C)
            for (int R = 0; R < 8; ++R)
              T[U][C] += A[U][R] * In[(BY + R) * Width + BX + C];
        for (int U = 0; U < 8; ++U)
          for (int V = 0; V < 8; ++V) {
            double Sum = 0;
            for (int C = 0; C < 8; ++C)
              Sum += T[U][C] * A[V][C];
            Want[(BY + U) * Width + BX + V] = Sum;
          }
      }
    K = kernel(E, program(E, Source), "dct8x8");
    cl_mem DIn = buffer(E, N * sizeof(float));
    cl_mem DDct = buffer(E, Dct.size() * sizeof(float));
    DOut = buffer(E, N * sizeof(float));
    E.write(DIn, In);
    E.write(DDct, Dct);
    setArgs(K, DOut, DIn, DDct, LocalMem{64 * sizeof(float)}, Width);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<float>(Want.size(), -1.f));
    size_t Global[2] = {Width, Height}, Local[2] = {8, 8};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DOut, Got);
    // Coefficients up to 8 * 255 from two 8-term float dot products and a
    // float Dct: a few float ULPs of 2040 (measured: up to 2.5e-4).
    return compareNear(Got, Want, 1e-5, 1e-3, "coefficients");
  }

  std::string describe() const override {
    return std::to_string(Width) + "x" + std::to_string(Height) +
           " image, 8x8 blocks";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(DCT, "DCT", "AMD APP SDK");

} // namespace
} // namespace issbench
