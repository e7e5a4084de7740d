//===- Pathfinder.cpp - Rodinia pathfinder --------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's pathfinder (OpenCL), as the suite writes it: dynamic
// programming down the rows of a grid of weights, the cost of a cell the
// least of its three upper neighbours' plus its weight. Each launch runs
// `iteration` rows in 256-work-item blocks of local memory that overlap by
// a halo shrinking by one cell per side and row, with barriers between the
// rows, neighbours clamped to the block's valid range and per-row guards
// on the local id. A kernel pocl-iss was not tuned on. (The suite's kernel
// also takes a debugging output buffer it does not need; it is left out.)
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__kernel void dynproc_kernel(int iteration, __global int *gpuWall,
                             __global int *gpuSrc, __global int *gpuResults,
                             int cols, int rows, int startStep, int border,
                             int HALO, __local int *prev,
                             __local int *result) {
  int BLOCK_SIZE = get_local_size(0);
  int bx = get_group_id(0);
  int tx = get_local_id(0);

  int small_block_cols = BLOCK_SIZE - (iteration * HALO * 2);

  int blkX = (small_block_cols * bx) - border;
  int blkXmax = blkX + BLOCK_SIZE - 1;

  int xidx = blkX + tx;

  int validXmin = (blkX < 0) ? -blkX : 0;
  int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1)
                                       : BLOCK_SIZE - 1;

  int W = tx - 1;
  int E = tx + 1;

  W = (W < validXmin) ? validXmin : W;
  E = (E > validXmax) ? validXmax : E;

  bool isValid = IN_RANGE(tx, validXmin, validXmax);

  if (IN_RANGE(xidx, 0, cols - 1)) {
    prev[tx] = gpuSrc[xidx];
  }

  barrier(CLK_LOCAL_MEM_FENCE);

  bool computed;
  for (int i = 0; i < iteration; i++) {
    computed = false;

    if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
      computed = true;
      int left = prev[W];
      int up = prev[tx];
      int right = prev[E];
      int shortest = MIN(left, up);
      shortest = MIN(shortest, right);

      int index = cols * (startStep + i) + xidx;
      result[tx] = shortest + gpuWall[index];
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    if (i == iteration - 1) {
      break;
    }

    if (computed) {
      prev[tx] = result[tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (computed) {
    gpuResults[xidx] = result[tx];
  }
}
)CLC";

constexpr int Block = 256, Pyramid = 20, Halo = 1;

class Pathfinder : public Benchmark {
  int Cols = 0, Rows = 0;
  std::vector<int> Wall, Want;
  cl_mem DWall = nullptr, D[2] = {nullptr, nullptr};
  cl_kernel K = nullptr;
  int Result = 0;

public:
  void setup(const Env &E, Size S) override {
    Cols = S == Size::Full ? 100000 : 20000;
    Rows = 101;
    Wall = randomVector<int>(size_t(Rows) * Cols, 0, 9, 91);
    std::vector<int> Cur(Wall.begin(), Wall.begin() + Cols), Next(Cols);
    for (int R = 1; R < Rows; ++R) {
      for (int C = 0; C < Cols; ++C) {
        int M = Cur[C];
        if (C > 0)
          M = std::min(M, Cur[C - 1]);
        if (C < Cols - 1)
          M = std::min(M, Cur[C + 1]);
        Next[C] = M + Wall[size_t(R) * Cols + C];
      }
      std::swap(Cur, Next);
    }
    Want = Cur;
    K = kernel(E, program(E, Source), "dynproc_kernel");
    // The kernel reads the weights from the second row on.
    DWall = buffer(E, size_t(Rows - 1) * Cols * sizeof(int));
    E.write(DWall, std::vector<int>(Wall.begin() + Cols, Wall.end()));
    D[0] = buffer(E, size_t(Cols) * sizeof(int));
    D[1] = buffer(E, size_t(Cols) * sizeof(int));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(D[0], std::vector<int>(Wall.begin(), Wall.begin() + Cols));
    int Border = Pyramid * Halo;
    int Small = Block - Pyramid * Halo * 2;
    int BlockCols = Cols / Small + (Cols % Small == 0 ? 0 : 1);
    size_t Local = Block, Global = size_t(Block) * BlockCols;
    int Src = 1, Dst = 0;
    for (int T = 0; T < Rows - 1; T += Pyramid) {
      std::swap(Src, Dst);
      int Iter = std::min(Pyramid, Rows - T - 1);
      setArgs(K, Iter, DWall, D[Src], D[Dst], Cols, Rows, T, Border, Halo,
              LocalMem{Block * sizeof(int)}, LocalMem{Block * sizeof(int)});
      E.launch(K, 1, &Global, &Local, Events);
    }
    Result = Dst;
  }

  std::string verify(const Env &E) override {
    std::vector<int> Got(Cols);
    E.read(D[Result], Got);
    return compareExact(Got, Want, "costs");
  }

  std::string describe() const override {
    return std::to_string(Cols) + " columns, " + std::to_string(Rows) +
           " rows in " + std::to_string((Rows - 1 + Pyramid - 1) / Pyramid) +
           " launches";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(Pathfinder, "pathfinder", "Rodinia pathfinder (not in the paper)");

} // namespace
} // namespace issbench
