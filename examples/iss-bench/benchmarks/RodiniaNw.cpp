//===- RodiniaNw.cpp - Rodinia nw (Needleman-Wunsch) ----------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's nw (OpenCL), as the suite writes it: the Needleman-Wunsch
// score matrix computed in 16x16 blocks along anti-diagonals, one launch
// per diagonal of blocks (nw_kernel1 for the upper-left half, nw_kernel2
// for the lower-right), one 16-work-item group per block. Each group loads
// its block's reference values and borders into local memory under
// barriers (one lane loads the corner, `tx == 0`), then sweeps the block's
// own anti-diagonals with a triangular guard (`tx <= m`, m the diagonal)
// and a barrier per diagonal, and stores the block back. A kernel pocl-iss
// was not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define BLOCK_SIZE 16

#define SCORE(i, j) input_itemsets_l[j + i * (BLOCK_SIZE + 1)]
#define REF(i, j) reference_l[j + i * BLOCK_SIZE]

int maximum(int a, int b, int c) {
  int k;
  if (a <= b)
    k = b;
  else
    k = a;
  if (k <= c)
    return (c);
  else
    return (k);
}

__kernel void nw_kernel1(__global int *reference_d,
                         __global int *input_itemsets_d,
                         __global int *output_itemsets_d,
                         __local int *input_itemsets_l,
                         __local int *reference_l, int cols, int penalty,
                         int blk, int block_width, int worksize, int offset_r,
                         int offset_c) {
  // Block index
  int bx = get_group_id(0);

  // Thread index
  int tx = get_local_id(0);

  // Base elements
  int base = offset_r * cols + offset_c;

  int b_index_x = bx;
  int b_index_y = blk - 1 - bx;

  int index = base + cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x +
              tx + (cols + 1);
  int index_n = base + cols * BLOCK_SIZE * b_index_y +
                BLOCK_SIZE * b_index_x + tx + (1);
  int index_w = base + cols * BLOCK_SIZE * b_index_y +
                BLOCK_SIZE * b_index_x + (cols);
  int index_nw =
      base + cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

  if (tx == 0) {
    SCORE(tx, 0) = input_itemsets_d[index_nw + tx];
  }

  barrier(CLK_LOCAL_MEM_FENCE);

  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    REF(ty, tx) = reference_d[index + cols * ty];

  barrier(CLK_LOCAL_MEM_FENCE);

  SCORE((tx + 1), 0) = input_itemsets_d[index_w + cols * tx];

  barrier(CLK_LOCAL_MEM_FENCE);

  SCORE(0, (tx + 1)) = input_itemsets_d[index_n];

  barrier(CLK_LOCAL_MEM_FENCE);

  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;

      SCORE(t_index_y, t_index_x) =
          maximum(SCORE((t_index_y - 1), (t_index_x - 1)) +
                      REF((t_index_y - 1), (t_index_x - 1)),
                  SCORE((t_index_y), (t_index_x - 1)) - (penalty),
                  SCORE((t_index_y - 1), (t_index_x)) - (penalty));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  barrier(CLK_LOCAL_MEM_FENCE);

  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;

      SCORE(t_index_y, t_index_x) =
          maximum(SCORE((t_index_y - 1), (t_index_x - 1)) +
                      REF((t_index_y - 1), (t_index_x - 1)),
                  SCORE((t_index_y), (t_index_x - 1)) - (penalty),
                  SCORE((t_index_y - 1), (t_index_x)) - (penalty));
    }

    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    input_itemsets_d[index + cols * ty] = SCORE((ty + 1), (tx + 1));

  return;
}

__kernel void nw_kernel2(__global int *reference_d,
                         __global int *input_itemsets_d,
                         __global int *output_itemsets_d,
                         __local int *input_itemsets_l,
                         __local int *reference_l, int cols, int penalty,
                         int blk, int block_width, int worksize, int offset_r,
                         int offset_c) {
  int bx = get_group_id(0);

  // Thread index
  int tx = get_local_id(0);

  // Base elements
  int base = offset_r * cols + offset_c;

  int b_index_x = bx + block_width - blk;
  int b_index_y = block_width - bx - 1;

  int index = base + cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x +
              tx + (cols + 1);
  int index_n = base + cols * BLOCK_SIZE * b_index_y +
                BLOCK_SIZE * b_index_x + tx + (1);
  int index_w = base + cols * BLOCK_SIZE * b_index_y +
                BLOCK_SIZE * b_index_x + (cols);
  int index_nw =
      base + cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;

  if (tx == 0)
    SCORE(tx, 0) = input_itemsets_d[index_nw];

  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    REF(ty, tx) = reference_d[index + cols * ty];

  barrier(CLK_LOCAL_MEM_FENCE);

  SCORE((tx + 1), 0) = input_itemsets_d[index_w + cols * tx];

  barrier(CLK_LOCAL_MEM_FENCE);

  SCORE(0, (tx + 1)) = input_itemsets_d[index_n];

  barrier(CLK_LOCAL_MEM_FENCE);

  for (int m = 0; m < BLOCK_SIZE; m++) {
    if (tx <= m) {
      int t_index_x = tx + 1;
      int t_index_y = m - tx + 1;

      SCORE(t_index_y, t_index_x) =
          maximum(SCORE((t_index_y - 1), (t_index_x - 1)) +
                      REF((t_index_y - 1), (t_index_x - 1)),
                  SCORE((t_index_y), (t_index_x - 1)) - (penalty),
                  SCORE((t_index_y - 1), (t_index_x)) - (penalty));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
    if (tx <= m) {
      int t_index_x = tx + BLOCK_SIZE - m;
      int t_index_y = BLOCK_SIZE - tx;

      SCORE(t_index_y, t_index_x) =
          maximum(SCORE((t_index_y - 1), (t_index_x - 1)) +
                      REF((t_index_y - 1), (t_index_x - 1)),
                  SCORE((t_index_y), (t_index_x - 1)) - (penalty),
                  SCORE((t_index_y - 1), (t_index_x)) - (penalty));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int ty = 0; ty < BLOCK_SIZE; ty++)
    input_itemsets_d[index + ty * cols] = SCORE((ty + 1), (tx + 1));

  return;
}
)CLC";

constexpr int Block = 16;

class RodiniaNw : public Benchmark {
  int Cols = 0, Penalty = 10;
  std::vector<int> Items0, Want;
  cl_mem DItems = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Rodinia's max_rows = max_cols = dimension + 1, the dimension a
    // multiple of 16.
    Cols = (S == Size::Full ? 2048 : 1024) + 1;
    size_t N = size_t(Cols) * Cols;
    // BLOSUM62-like similarity scores of random sequences.
    std::vector<int> Ref = randomVector<int>(N, -4, 11, 961);
    for (int I = 0; I < Cols; ++I)
      Ref[I] = Ref[size_t(I) * Cols] = 0;
    Items0.assign(N, 0);
    for (int I = 1; I < Cols; ++I) {
      Items0[size_t(I) * Cols] = -I * Penalty;
      Items0[I] = -I * Penalty;
    }
    Want = Items0;
    for (int I = 1; I < Cols; ++I)
      for (int J = 1; J < Cols; ++J) {
        size_t At = size_t(I) * Cols + J;
        Want[At] =
            std::max({Want[At - Cols - 1] + Ref[At], Want[At - 1] - Penalty,
                      Want[At - Cols] - Penalty});
      }
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "nw_kernel1");
    K2 = kernel(E, P, "nw_kernel2");
    cl_mem DRef = buffer(E, N * sizeof(int));
    DItems = buffer(E, N * sizeof(int));
    cl_mem DOut = buffer(E, N * sizeof(int));
    E.write(DRef, Ref);
    int Worksize = Cols - 1, BlockWidth = Worksize / Block;
    for (cl_kernel K : {K1, K2})
      setArgs(K, DRef, DItems, DOut,
              LocalMem{size_t(Block + 1) * (Block + 1) * sizeof(int)},
              LocalMem{size_t(Block) * Block * sizeof(int)}, Cols, Penalty, 0,
              BlockWidth, Worksize, 0, 0);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DItems, Items0);
    int BlockWidth = (Cols - 1) / Block;
    size_t Local = Block;
    for (int Blk = 1; Blk <= BlockWidth; ++Blk) {
      size_t Global = size_t(Block) * Blk;
      clt::setArg(K1, 7, Blk);
      E.launch(K1, 1, &Global, &Local, Events);
    }
    for (int Blk = BlockWidth - 1; Blk >= 1; --Blk) {
      size_t Global = size_t(Block) * Blk;
      clt::setArg(K2, 7, Blk);
      E.launch(K2, 1, &Global, &Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<int> Got(Want.size());
    E.read(DItems, Got);
    return compareExact(Got, Want, "score");
  }

  std::string describe() const override {
    int Dim = Cols - 1;
    return std::to_string(Dim) + "x" + std::to_string(Dim) + ", " +
           std::to_string(2 * (Dim / Block) - 1) + " launches";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(RodiniaNw, "rd-nw", "Rodinia nw (unseen)");

} // namespace
} // namespace issbench
