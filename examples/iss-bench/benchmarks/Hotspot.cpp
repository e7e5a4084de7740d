//===- Hotspot.cpp - Rodinia hotspot --------------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's hotspot (OpenCL), as the suite writes it: a thermal simulation
// step on a 2D grid, computed in 16x16 blocks of local memory that overlap
// by a halo (the "pyramid": each launch runs `iteration` steps, the block
// shrinking by one cell per side and step), with barriers between the
// steps, the valid range of each block clamped at the grid's edges, and
// per-step guards on the local ids. A kernel pocl-iss was not tuned on:
// barriers in a loop, guards affine in the local ids and the loop counter,
// and neighbours clamped by min/max against values of the group.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define BLOCK_SIZE 16
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))

__kernel void hotspot(int iteration, global float *power,
                      global float *temp_src, global float *temp_dst,
                      int grid_cols, int grid_rows, int border_cols,
                      int border_rows, float Cap, float Rx, float Ry,
                      float Rz, float step) {
  local float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  local float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
  local float temp_t[BLOCK_SIZE][BLOCK_SIZE];

  float amb_temp = 80.0f;
  float step_div_Cap;
  float Rx_1, Ry_1, Rz_1;

  int bx = get_group_id(0);
  int by = get_group_id(1);

  int tx = get_local_id(0);
  int ty = get_local_id(1);

  step_div_Cap = step / Cap;

  Rx_1 = 1 / Rx;
  Ry_1 = 1 / Ry;
  Rz_1 = 1 / Rz;

  int small_block_rows = BLOCK_SIZE - iteration * 2;
  int small_block_cols = BLOCK_SIZE - iteration * 2;

  int blkY = small_block_rows * by - border_rows;
  int blkX = small_block_cols * bx - border_cols;
  int blkYmax = blkY + BLOCK_SIZE - 1;
  int blkXmax = blkX + BLOCK_SIZE - 1;

  int yidx = blkY + ty;
  int xidx = blkX + tx;

  int loadYidx = yidx, loadXidx = xidx;
  int index = grid_cols * loadYidx + loadXidx;

  if (IN_RANGE(loadYidx, 0, grid_rows - 1) &&
      IN_RANGE(loadXidx, 0, grid_cols - 1)) {
    temp_on_cuda[ty][tx] = temp_src[index];
    power_on_cuda[ty][tx] = power[index];
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  int validYmin = (blkY < 0) ? -blkY : 0;
  int validYmax = (blkYmax > grid_rows - 1)
                      ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1)
                      : BLOCK_SIZE - 1;
  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > grid_cols - 1)
                      ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1)
                      : BLOCK_SIZE - 1;

  int N = ty - 1;
  int S = ty + 1;
  int W = tx - 1;
  int E = tx + 1;

  N = (N < validYmin) ? validYmin : N;
  S = (S > validYmax) ? validYmax : S;
  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
        IN_RANGE(tx, validXmin, validXmax) &&
        IN_RANGE(ty, validYmin, validYmax)) {
      computed = true;
      temp_t[ty][tx] =
          temp_on_cuda[ty][tx] +
          step_div_Cap *
              (power_on_cuda[ty][tx] +
               (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] -
                2.0f * temp_on_cuda[ty][tx]) * Ry_1 +
               (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] -
                2.0f * temp_on_cuda[ty][tx]) * Rx_1 +
               (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == iteration - 1)
      break;
    if (computed)
      temp_on_cuda[ty][tx] = temp_t[ty][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (computed) {
    temp_dst[index] = temp_t[ty][tx];
  }
}
)CLC";

constexpr int Block = 16, Pyramid = 2, TotalSteps = 20;

class Hotspot : public Benchmark {
  int Cols = 0, Rows = 0;
  float Cap = 0, Rx = 0, Ry = 0, Rz = 0, Step = 0;
  std::vector<float> Temp0, Power;
  std::vector<float> Want;
  cl_mem D[2] = {nullptr, nullptr};
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Cols = Rows = S == Size::Full ? 1024 : 512;
    // Rodinia's chip constants (hotspot.c).
    const float TChip = 0.0005f, ChipH = 0.016f, ChipW = 0.016f;
    const float FactorChip = 0.5f, SpecHeatSi = 1.75e6f, KSi = 100.f;
    const float MaxPd = 3.0e6f, Precision = 0.001f;
    float GridH = ChipH / Rows, GridW = ChipW / Cols;
    Cap = FactorChip * SpecHeatSi * TChip * GridW * GridH;
    Rx = GridW / (2.0f * KSi * TChip * GridH);
    Ry = GridH / (2.0f * KSi * TChip * GridW);
    Rz = TChip / (KSi * GridH * GridW);
    float MaxSlope = MaxPd / (FactorChip * TChip * SpecHeatSi);
    Step = Precision / MaxSlope;
    Temp0 = randomVector<float>(size_t(Rows) * Cols, 320.f, 340.f, 81);
    Power = randomVector<float>(size_t(Rows) * Cols, 0.f, 0.01f, 82);

    // The same steps on the whole grid, neighbours clamped at its edges.
    const float Amb = 80.0f, SDC = Step / Cap;
    const float Rx1 = 1 / Rx, Ry1 = 1 / Ry, Rz1 = 1 / Rz;
    std::vector<float> T = Temp0, Next(T.size());
    for (int It = 0; It < TotalSteps; ++It) {
      for (int R = 0; R < Rows; ++R)
        for (int C = 0; C < Cols; ++C) {
          auto At = [&](int Rr, int Cc) { return T[size_t(Rr) * Cols + Cc]; };
          float Me = At(R, C);
          float N = At(std::max(R - 1, 0), C), So = At(std::min(R + 1, Rows - 1), C);
          float W = At(R, std::max(C - 1, 0)), Ea = At(R, std::min(C + 1, Cols - 1));
          Next[size_t(R) * Cols + C] =
              Me + SDC * (Power[size_t(R) * Cols + C] +
                          (So + N - 2.0f * Me) * Ry1 +
                          (Ea + W - 2.0f * Me) * Rx1 + (Amb - Me) * Rz1);
        }
      std::swap(T, Next);
    }
    Want = T;
    K = kernel(E, program(E, Source), "hotspot");
    D[0] = buffer(E, Temp0.size() * sizeof(float));
    D[1] = buffer(E, Temp0.size() * sizeof(float));
    cl_mem DP = buffer(E, Power.size() * sizeof(float));
    E.write(DP, Power);
    clt::setArg(K, 1, DP);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(D[0], Temp0);
    E.write(D[1], Temp0);
    const int Border = Pyramid * 2 / 2, Small = Block - Pyramid * 2;
    int BlockCols = (Cols + Small - 1) / Small;
    int BlockRows = (Rows + Small - 1) / Small;
    size_t Local[2] = {Block, Block};
    size_t Global[2] = {size_t(Block) * BlockCols, size_t(Block) * BlockRows};
    int Src = 0;
    for (int T = 0; T < TotalSteps; T += Pyramid) {
      int Iter = std::min(Pyramid, TotalSteps - T);
      clt::setArg(K, 0, Iter);
      clt::setArg(K, 2, D[Src]);
      clt::setArg(K, 3, D[1 - Src]);
      clt::setArg(K, 4, Cols);
      clt::setArg(K, 5, Rows);
      clt::setArg(K, 6, Border);
      clt::setArg(K, 7, Border);
      clt::setArg(K, 8, Cap);
      clt::setArg(K, 9, Rx);
      clt::setArg(K, 10, Ry);
      clt::setArg(K, 11, Rz);
      clt::setArg(K, 12, Step);
      E.launch(K, 2, Global, Local, Events);
      Src = 1 - Src;
    }
    Result = Src;
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(D[Result], Got);
    return compareNear(Got, Want, 1e-5, 1e-3, "temperature");
  }

  std::string describe() const override {
    return std::to_string(Cols) + "x" + std::to_string(Rows) + ", " +
           std::to_string(TotalSteps) + " steps in " +
           std::to_string(TotalSteps / Pyramid) + " launches";
  }

private:
  int Result = 0;
};

ISS_BENCHMARK_WITH_BARRIERS(Hotspot, "hotspot", "Rodinia hotspot (not in the paper)");

} // namespace
} // namespace issbench
