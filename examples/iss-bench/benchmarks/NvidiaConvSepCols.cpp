//===- NvidiaConvSepCols.cpp - NVIDIA convolutionSeparable, columns -------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA OpenCL SDK's separable convolution (oclConvolutionSeparable),
// its column pass, as the SDK writes it: 16x8 groups, each loading 8 result
// steps of 8 rows per column plus a halo step above and below into local
// memory (transposed, one column of the group per local row, padded by
// one), a barrier, then a 17-tap filter (radius 8) down the column. The
// halo loads are guarded on the image's ends (`baseY + i * 8 >= 0` at the
// top, `< imageH` at the bottom; zero outside), so only the first and last
// rows of groups take the other side of each test. A kernel pocl-iss was
// not tuned on (unseen, issue 9).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define KERNEL_RADIUS 8
#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__kernel __attribute__((
    reqd_work_group_size(COLUMNS_BLOCKDIM_X, COLUMNS_BLOCKDIM_Y, 1)))
void convolutionColumns(__global float *d_Dst, __global float *d_Src,
                        __constant float *c_Kernel, int imageW, int imageH,
                        int pitch) {
  __local float l_Data[COLUMNS_BLOCKDIM_X]
                      [(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) *
                           COLUMNS_BLOCKDIM_Y +
                       1];

  // Offset to the upper halo edge
  const int baseX = get_group_id(0) * COLUMNS_BLOCKDIM_X + get_local_id(0);
  const int baseY =
      (get_group_id(1) * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) *
          COLUMNS_BLOCKDIM_Y +
      get_local_id(1);
  d_Src += baseY * pitch + baseX;
  d_Dst += baseY * pitch + baseX;

  // Load main data
  for (int i = COLUMNS_HALO_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
    l_Data[get_local_id(0)][get_local_id(1) + i * COLUMNS_BLOCKDIM_Y] =
        d_Src[i * COLUMNS_BLOCKDIM_Y * pitch];

  // Load upper halo
  for (int i = 0; i < COLUMNS_HALO_STEPS; i++)
    l_Data[get_local_id(0)][get_local_id(1) + i * COLUMNS_BLOCKDIM_Y] =
        (baseY + i * COLUMNS_BLOCKDIM_Y >= 0)
            ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch]
            : 0;

  // Load lower halo
  for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS;
       i++)
    l_Data[get_local_id(0)][get_local_id(1) + i * COLUMNS_BLOCKDIM_Y] =
        (baseY + i * COLUMNS_BLOCKDIM_Y < imageH)
            ? d_Src[i * COLUMNS_BLOCKDIM_Y * pitch]
            : 0;

  // Compute and store results
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = COLUMNS_HALO_STEPS;
       i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
    float sum = 0;

    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
      sum += c_Kernel[KERNEL_RADIUS - j] *
             l_Data[get_local_id(0)]
                   [get_local_id(1) + i * COLUMNS_BLOCKDIM_Y + j];

    d_Dst[i * COLUMNS_BLOCKDIM_Y * pitch] = sum;
  }
}
)CLC";

constexpr int Radius = 8, BlockX = 16, BlockY = 8, ResultSteps = 8;

class NvidiaConvSepCols : public Benchmark {
  int W = 0, H = 0;
  std::vector<float> Want;
  cl_mem DDst = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // The SDK's sizes are multiples of 16 columns and 8 * 8 rows.
    W = S == Size::Full ? 2048 : 1024;
    H = S == Size::Full ? 2048 : 1024;
    auto Src = randomVector<float>(size_t(W) * H, 0.f, 1.f, 951);
    auto Taps = randomVector<float>(2 * Radius + 1, 0.f, 0.1f, 952);
    Want.assign(Src.size(), 0.f);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        float Sum = 0;
        for (int J = -Radius; J <= Radius; ++J) {
          int YY = Y + J;
          float V = YY >= 0 && YY < H ? Src[size_t(YY) * W + X] : 0.f;
          Sum += Taps[Radius - J] * V;
        }
        Want[size_t(Y) * W + X] = Sum;
      }
    K = kernel(E, program(E, Source), "convolutionColumns");
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
    size_t Global[2] = {size_t(W), size_t(H / ResultSteps)};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DDst, Got);
    return compareNear(Got, Want, 1e-5, 1e-6, "columns");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + ", radius " +
           std::to_string(Radius);
  }
};

ISS_BENCHMARK_WITH_BARRIERS(
    NvidiaConvSepCols, "nv-convSepCols",
    "NVIDIA OpenCL SDK convolutionSeparable columns (unseen, issue 9)");

} // namespace
} // namespace issbench
