//===- NvidiaConvSepRows.cpp - NVIDIA convolutionSeparable, rows ----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA OpenCL SDK's separable convolution (oclConvolutionSeparable),
// its row pass, as the SDK writes it: 16x4 groups, each loading 8 result
// steps of 16 pixels per row plus a halo step on each side into local
// memory, a barrier, then a 17-tap filter (radius 8) from local memory. The
// halo loads are guarded on the image's ends (`baseX + i * 16 >= 0` on the
// left, `< imageW` on the right; zero outside), so only the first and last
// groups of a row take the other side of each test. A kernel pocl-iss was
// not tuned on (unseen, issue 9).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define KERNEL_RADIUS 8
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1

__kernel
__attribute__((reqd_work_group_size(ROWS_BLOCKDIM_X, ROWS_BLOCKDIM_Y, 1)))
void convolutionRows(__global float *d_Dst, __global float *d_Src,
                     __constant float *c_Kernel, int imageW, int imageH,
                     int pitch) {
  __local float l_Data[ROWS_BLOCKDIM_Y]
                      [(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) *
                       ROWS_BLOCKDIM_X];

  // Offset to the left halo edge
  const int baseX =
      (get_group_id(0) * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) *
          ROWS_BLOCKDIM_X +
      get_local_id(0);
  const int baseY = get_group_id(1) * ROWS_BLOCKDIM_Y + get_local_id(1);

  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;

  // Load main data
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
    l_Data[get_local_id(1)][get_local_id(0) + i * ROWS_BLOCKDIM_X] =
        d_Src[i * ROWS_BLOCKDIM_X];

  // Load left halo
  for (int i = 0; i < ROWS_HALO_STEPS; i++)
    l_Data[get_local_id(1)][get_local_id(0) + i * ROWS_BLOCKDIM_X] =
        (baseX + i * ROWS_BLOCKDIM_X >= 0) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;

  // Load right halo
  for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS;
       i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++)
    l_Data[get_local_id(1)][get_local_id(0) + i * ROWS_BLOCKDIM_X] =
        (baseX + i * ROWS_BLOCKDIM_X < imageW) ? d_Src[i * ROWS_BLOCKDIM_X]
                                               : 0;

  // Compute and store results
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
    float sum = 0;

    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
      sum += c_Kernel[KERNEL_RADIUS - j] *
             l_Data[get_local_id(1)][get_local_id(0) + i * ROWS_BLOCKDIM_X + j];

    d_Dst[i * ROWS_BLOCKDIM_X] = sum;
  }
}
)CLC";

constexpr int Radius = 8, BlockX = 16, BlockY = 4, ResultSteps = 8;

class NvidiaConvSepRows : public Benchmark {
  int W = 0, H = 0;
  std::vector<float> Want;
  cl_mem DDst = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // The SDK's sizes are multiples of 8 * 16 columns and 4 rows.
    W = S == Size::Full ? 2048 : 1024;
    H = S == Size::Full ? 2048 : 1024;
    auto Src = randomVector<float>(size_t(W) * H, 0.f, 1.f, 941);
    auto Taps = randomVector<float>(2 * Radius + 1, 0.f, 0.1f, 942);
    Want.assign(Src.size(), 0.f);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        float Sum = 0;
        for (int J = -Radius; J <= Radius; ++J) {
          int XX = X + J;
          float V = XX >= 0 && XX < W ? Src[size_t(Y) * W + XX] : 0.f;
          Sum += Taps[Radius - J] * V;
        }
        Want[size_t(Y) * W + X] = Sum;
      }
    K = kernel(E, program(E, Source), "convolutionRows");
    cl_mem DSrc = buffer(E, Src.size() * sizeof(float));
    cl_mem DTaps = buffer(E, Taps.size() * sizeof(float));
    DDst = buffer(E, Src.size() * sizeof(float));
    E.write(DSrc, Src);
    E.write(DTaps, Taps);
    setArgs(K, DDst, DSrc, DTaps, W, H, W);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DDst, std::vector<float>(Want.size(), -1.f));
    size_t Local[2] = {BlockX, BlockY};
    size_t Global[2] = {size_t(W / ResultSteps), size_t(H)};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DDst, Got);
    return compareNear(Got, Want, 1e-5, 1e-6, "rows");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + ", radius " +
           std::to_string(Radius);
  }
};

ISS_BENCHMARK_WITH_BARRIERS(
    NvidiaConvSepRows, "nv-convSepRows",
    "NVIDIA OpenCL SDK convolutionSeparable rows (unseen, issue 9)");

} // namespace
} // namespace issbench
