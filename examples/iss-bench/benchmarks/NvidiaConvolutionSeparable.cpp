//===- NvidiaConvolutionSeparable.cpp - NVIDIA's separable convolution ----===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA OpenCL SDK's separable convolution (oclConvolutionSeparable),
// its two passes as the SDK writes them, each a benchmark of its own.
// Kernels pocl-iss was not tuned on (unseen).
//
// Rows (nv-convSepRows): 16x4 groups, each loading 8 result steps of 16
// pixels per row plus a halo step on each side into local memory, a
// barrier, then a 17-tap filter (radius 8) from local memory. The halo
// loads are guarded on the image's ends (`baseX + i * 16 >= 0` on the left,
// `< imageW` on the right; zero outside), so only the first and last groups
// of a row take the other side of each test.
//
// Columns (nv-convSepCols): 16x8 groups, each loading 8 result steps of 8
// rows per column plus a halo step above and below into local memory
// (transposed, one column of the group per local row, padded by one), a
// barrier, then the filter down the column. The halo loads are guarded on
// the image's ends (`baseY + i * 8 >= 0` at the top, `< imageH` at the
// bottom), so only the first and last rows of groups take the other side.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *RowsSource = R"CLC(
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

const char *ColumnsSource = R"CLC(
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

constexpr int Radius = 8, ResultSteps = 8;

/// One pass: along x (rows) or along y (columns), with the host reference
/// of the same pass (zero outside the image).
class ConvolutionSeparable : public Benchmark {
  const bool Columns;
  int W = 0, H = 0;
  std::vector<float> Want;
  cl_mem DDst = nullptr;
  cl_kernel K = nullptr;

public:
  explicit ConvolutionSeparable(bool Columns) : Columns(Columns) {}

  void setup(const Env &E, Size S) override {
    // The SDK's sizes: multiples of 8 * 16 columns and 4 rows (rows), of
    // 16 columns and 8 * 8 rows (columns).
    W = S == Size::Full ? 2048 : 1024;
    H = S == Size::Full ? 2048 : 1024;
    unsigned Seed = Columns ? 951 : 941;
    auto Src = randomVector<float>(size_t(W) * H, 0.f, 1.f, Seed);
    auto Taps = randomVector<float>(2 * Radius + 1, 0.f, 0.1f, Seed + 1);
    Want.assign(Src.size(), 0.f);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        float Sum = 0;
        for (int J = -Radius; J <= Radius; ++J) {
          int XX = Columns ? X : X + J, YY = Columns ? Y + J : Y;
          float V = XX >= 0 && XX < W && YY >= 0 && YY < H
                        ? Src[size_t(YY) * W + XX]
                        : 0.f;
          Sum += Taps[Radius - J] * V;
        }
        Want[size_t(Y) * W + X] = Sum;
      }
    K = kernel(E, program(E, Columns ? ColumnsSource : RowsSource),
               Columns ? "convolutionColumns" : "convolutionRows");
    cl_mem DSrc = buffer(E, Src.size() * sizeof(float));
    cl_mem DTaps = buffer(E, Taps.size() * sizeof(float));
    DDst = buffer(E, Src.size() * sizeof(float));
    E.write(DSrc, Src);
    E.write(DTaps, Taps);
    setArgs(K, DDst, DSrc, DTaps, W, H, W);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DDst, std::vector<float>(Want.size(), -1.f));
    size_t Local[2] = {16, size_t(Columns ? 8 : 4)};
    size_t Global[2] = {size_t(Columns ? W : W / ResultSteps),
                        size_t(Columns ? H / ResultSteps : H)};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DDst, Got);
    return compareNear(Got, Want, 1e-5, 1e-6, Columns ? "columns" : "rows");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + ", radius " +
           std::to_string(Radius);
  }
};

struct NvidiaConvSepRows : ConvolutionSeparable {
  NvidiaConvSepRows() : ConvolutionSeparable(false) {}
};
struct NvidiaConvSepCols : ConvolutionSeparable {
  NvidiaConvSepCols() : ConvolutionSeparable(true) {}
};

ISS_BENCHMARK_WITH_BARRIERS(
    NvidiaConvSepRows, "nv-convSepRows",
    "NVIDIA OpenCL SDK convolutionSeparable rows (unseen)");
ISS_BENCHMARK_WITH_BARRIERS(
    NvidiaConvSepCols, "nv-convSepCols",
    "NVIDIA OpenCL SDK convolutionSeparable columns (unseen)");

} // namespace
} // namespace issbench
