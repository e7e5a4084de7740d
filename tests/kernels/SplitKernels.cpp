//===- SplitKernels.cpp - Kernels that input space splitting cuts ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// End-to-end kernels whose control flow diverges only on part of the
// work-item space (the input-space-splitting paper, sections 3 and 5):
// clamped windows, whose loops run as often on every work-item of the
// interior (there the split runs the work-item loop inside them,
// horizontally), tail guards on padded sizes, triangular loops that never
// become uniform, induction variables read after their loop, and a private
// array that the scalar range of a split region zeroes. Each runs
// with local sizes that are and are not multiples of the vector width,
// with global offsets, in 1, 2 and 3 dimensions and across a barrier, and
// is checked against a host reference in every POCL_ISS_MODE.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"
#include "Launches.h"

#include <algorithm>
#include <array>

using namespace clt;
using namespace clt::launches;

static const char *SplitSource = R"CLC(
// A box filter of radius R with clamped borders: 2R + 1 iterations on every
// work-item at least R away from both ends.
__kernel void box1d(__global const float *In, __global float *Out, int N,
                    int R) {
  int X = get_global_id(0) - get_global_offset(0);
  if (X >= N)
    return;
  int Lo = max(0, X - R), Hi = min(N - 1, X + R);
  float S = 0.0f;
  for (int I = Lo; I <= Hi; ++I)
    S += In[I] * (float)(I - X + R + 1);
  Out[X] = S;
}

// The paper's Convolution2D (Figure 2) with a mask of any shape.
__kernel void conv2d(__global const int *In, __global int *Out,
                     __global const float *Mask, int W, int H, int MW,
                     int MH) {
  int X = get_global_id(0), Y = get_global_id(1);
  if (X >= W || Y >= H)
    return;
  int VS = (MW - 1) / 2, HS = (MH - 1) / 2;
  int L = max(0, X - VS), Rt = min(W - 1, X + VS);
  int T = max(0, Y - HS), B = min(H - 1, Y + HS);
  float S = 0.0f;
  for (int I = L; I <= Rt; ++I)
    for (int J = T; J <= B; ++J)
      S += In[J * W + I] * Mask[(J - (Y - HS)) * MW + (I - (X - VS))];
  Out[Y * W + X] = (int)(S + 0.5f);
}

// An inner loop whose trip count follows the outer loop's counter (the
// same on every lane at equal counters), its induction variables read
// after the loops, and a step of 3 whose value the body uses.
__kernel void ivs(__global const int *In, __global int *Out, int N, int R) {
  int X = get_global_id(0);
  int Lo = max(0, X - R), Hi = min(N - 1, X + R);
  int S = 0, I, J = 0;
  for (I = Lo; I <= Hi; ++I)
    for (J = Lo; J <= I; ++J)
      S += In[J] ^ I;
  int K;
  for (K = Lo; K <= Hi; K += 3)
    S += K * In[K];
  Out[X] = S + 7 * I + 11 * J + 13 * K;
}

// A loop that stays divergent on every tile (its trip count is the id
// modulo 5) behind a tail guard.
__kernel void triangle(__global const int *In, __global int *Out, int N) {
  int X = get_global_id(0);
  if (X < N) {
    int S = 0;
    for (int I = 0; I <= X % 5; ++I)
      S += In[X - I > 0 ? X - I : 0];
    Out[X] = S;
  }
}

// A clamped window read from local memory after a barrier: the second
// region is split on its own.
__kernel void haloLocal(__global const float *In, __global float *Out, int N,
                        int R, __local float *Tile) {
  int X = get_global_id(0), L = get_local_id(0), LS = get_local_size(0);
  Tile[L] = X < N ? In[X] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  int Lo = max(0, L - R), Hi = min(LS - 1, L + R);
  float S = 0.0f;
  for (int I = Lo; I <= Hi; ++I)
    S += Tile[I];
  if (X < N)
    Out[X] = S;
}

// A clamped window walked backwards, each step depending on the last: the
// loop counts down, its test is i >= lo.
__kernel void backwards(__global const float *In, __global float *Out, int N,
                        int R) {
  int X = get_global_id(0);
  int Lo = max(0, X - R), Hi = min(N - 1, X + R);
  float S = 0.0f;
  for (int I = Hi; I >= Lo; --I)
    S = S * 0.5f + In[I];
  Out[X] = S;
}

// A clamped window along y over a column-major image, vectorized along y
// where the local size has w work-items there only (1x40, 2x100).
__kernel void columns(__global const int *In, __global int *Out, int W, int H,
                      int R) {
  int X = get_global_id(0), Y = get_global_id(1);
  int Lo = max(0, Y - R), Hi = min(H - 1, Y + R);
  int S = 0;
  for (int J = Lo; J <= Hi; ++J)
    S += In[X * H + J] * (J - Y);
  Out[X * H + Y] = S;
}

// A box filter along x in a 3D range.
__kernel void box3d(__global const int *In, __global int *Out, int W, int R) {
  int X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  int Row = (Z * get_global_size(1) + Y) * W;
  int Lo = max(0, X - R), Hi = min(W - 1, X + R);
  int S = 0;
  for (int I = Lo; I <= Hi; ++I)
    S += In[Row + I];
  Out[Row + X] = S;
}

// Consecutive along the second dimension where F is set (rows of a
// row-major matrix walked by columns), along the first where it is not,
// behind a tail guard in both: the best subkernel depends on an argument
// (split+score picks it per launch, iss-subkernels).
__kernel void eitherDim(__global int *Out, __global const int *In, int N,
                        int F) {
  int X = get_global_id(0), Y = get_global_id(1);
  if (X >= N || Y >= N)
    return;
  if (F)
    Out[X * N + Y] = In[X * N + Y] * 3 + X;
  else
    Out[Y * N + X] = In[Y * N + X] * 5 - Y;
}

// A 3D volume stored with dimension F innermost, behind tail guards in
// every dimension. The index's N * N is a product of arguments, which the
// model does not read: every dimension scores alike, and the local sizes
// of the test make each of x, y and z the vectorized one (8x8x8 and 16x4x2
// x, 1x8x4 and 3x5x7 y, 2x2x16 z), with the scalar fallback kept beside.
__kernel void anyDim3(__global int *Out, __global const int *In, int N,
                      int F) {
  int X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  if (X >= N || Y >= N || Z >= N)
    return;
  int I = F == 0 ? (Z * N + Y) * N + X
                 : F == 1 ? (X * N + Z) * N + Y : (Y * N + X) * N + Z;
  Out[I] = In[I] * (F + 2) + X - Y + Z;
}

// Rows indexed in 32-bit unsigned arithmetic, as the AMD APP SDK writes
// them: c = x + y * w wraps where y * w passes 2^32. The model assumes,
// of each row's y * w, that nothing wraps, and checks it per work group
// before the split runs; a row that wraps sends its group to the unsplit
// loops.
__kernel void uintRows(__global const float *In, __global float *Out, uint W,
                       uint N) {
  uint x = get_global_id(0), y = get_global_id(1);
  uint c = x + y * W;
  float v = -1.0f;
  if (c < N)
    v = In[c];
  Out[(get_global_id(1) - get_global_offset(1)) * get_global_size(0) +
      get_global_id(0) - get_global_offset(0)] = v;
}

// The SDK's border guard on the global size, with the same indices.
__kernel void uintCross(__global const float *In, __global float *Out) {
  uint x = get_global_id(0), y = get_global_id(1);
  uint width = get_global_size(0), height = get_global_size(1);
  uint c = x + y * width;
  if (x >= 1 && x < width - 1 && y >= 1 && y < height - 1)
    Out[c] = In[c - 1] + In[c + 1] + In[c - width] + In[c + width] -
             4.0f * In[c];
}

// Guarded on both sides: the tiles that 0 and N - 1 cut share one copy.
__kernel void smooth(__global const float *In, __global float *Out, int N) {
  int i = get_global_id(0);
  if (i > 0 && i < N - 1)
    Out[i] = In[i - 1] + In[i + 1];
}

// Consecutive below N and above, but at i and at i - N: two copies.
__kernel void wrap(__global const float *In, __global float *Out, int N) {
  int i = get_global_id(0);
  Out[i - get_global_offset(0)] = In[i < N ? i : i - N];
}

// The AMD SDK box filter's shape: zero within K of either end, a window
// of 2K + 1 elsewhere; the two aprons share a copy, as do the two tiles
// K and N - K cut. With Uneven, the apron sums M = 4 elements on the left
// and 8 on the right: in lock-step on each apron, not on both, so each
// keeps its own copy.
__kernel void apron(__global const float *In, __global float *Out, int N,
                    int K, int Uneven) {
  int i = get_global_id(0);
  if (i < K || i >= N - K) {
    float S = 0.0f;
    if (Uneven) {
      int M = i < K ? 4 : 8;
      for (int J = 0; J < M; ++J)
        S += In[i + J];
    }
    Out[i] = S;
    return;
  }
  float S = 0.0f;
  for (int J = -K; J <= K; ++J)
    S += In[i + J] * (float)(J + K + 1);
  Out[i] = S;
}

// A loop that runs Lo times below N and Hi times from N on: divergent only
// in the tile N cuts, in lock-step on the whole tiles either side.
__kernel void steps(__global const float *In, __global float *Out, int N,
                    int Lo, int Hi) {
  int i = get_global_id(0);
  int M = i < N ? Lo : Hi;
  float S = 0.0f;
  for (int J = 0; J < M; ++J)
    S += In[i + J] * (float)(J + 1);
  Out[i - get_global_offset(0)] = S;
}
// Convolution2D's shape in integers (exact sums), the window 2R + 1 wide
// and 3 high: in groups of 32 or more along x, the border cuts a tile
// whose other lanes run the interior's copy with masks (partial edges).
__kernel void clampedBox2D(__global const int *In, __global int *Out, int W,
                           int H, int R) {
  int X = get_global_id(0), Y = get_global_id(1);
  if (X >= W || Y >= H)
    return;
  int L = max(0, X - R), Rt = min(W - 1, X + R);
  int T = max(0, Y - 1), B = min(H - 1, Y + 1);
  int S = 0;
  for (int I = L; I <= Rt; ++I)
    for (int J = T; J <= B; ++J)
      S += In[J * W + I] * (I - X + 2 * R + 1) + J;
  Out[Y * W + X] = S;
}

// Sizes compared unsigned, as the NVIDIA SDK's transpose compares them: the
// model assumes the size arguments non-negative as ints and checks that
// per group; past 2^31 (Lo) or negative (Hi, all of uint's top half) the
// groups run unsplit. Lo - 1 wraps below Lo = 0. The uniform load keeps
// the guards from the masks (-iss-cheap-masks): the region is split.
__kernel void uintSizes(__global const float *In, __global float *Out,
                        uint Lo, int Hi) {
  uint x = get_global_id(0), i = x - get_global_offset(0);
  float v = -1.0f;
  if (x >= Lo && x < Hi)
    v = In[i] * In[0];
  if (x - 1 < Lo)
    v += 100.0f;
  Out[i] = v;
}
// Window sums of six channels, as a Harris corner response takes them:
// each work-item puts its column of the channels in local memory, and
// after the barrier all but the last two of the group (the groups
// overlap by two columns) sum three columns per channel into a private
// array of six floats. That array is 24 bytes, which clang aligns to 16:
// each work-item's copy must be too, in the interior's tiles and in the
// scalar range of the work-items the guard leaves out alike.
__kernel void windowMoments(__global const float *In, __global float *Out,
                            int N, __local float *Cols) {
  int L = get_local_id(0), LS = get_local_size(0);
  int Start = get_group_id(0) * (LS - 2);
  int X = min(Start + L, N - 1);
  for (int C = 0; C < 6; ++C)
    Cols[C * LS + L] = In[C * N + X];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (L < LS - 2) {
    float Sums[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    for (int C = 0; C < 6; ++C) {
      float S = 0.0f;
      for (int I = 0; I < 3; ++I)
        S += Cols[C * LS + L + I];
      Sums[C] = S;
    }
    if (Start + L < N)
      Out[Start + L] = Sums[0] * Sums[4] - Sums[2] * Sums[2] +
                       Sums[1] * Sums[5] - Sums[3];
  }
}
)CLC";

namespace {

std::vector<float> box1dReference(const std::vector<float> &In, int N,
                                  int R) {
  std::vector<float> Out(N);
  for (int X = 0; X < N; ++X) {
    float S = 0.0f;
    for (int I = std::max(0, X - R); I <= std::min(N - 1, X + R); ++I)
      S += In[I] * float(I - X + R + 1);
    Out[X] = S;
  }
  return Out;
}

} // namespace

CLT_TEST(box1dClampedWindows) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "box1d");
  struct Case {
    int N, R;
    size_t Local, Offset;
  };
  for (Case C : {Case{1000, 2, 64, 0}, Case{1000, 0, 32, 5},
                 Case{517, 3, 16, 0}, Case{4099, 17, 8, 1},
                 Case{300, 40, 64, 0}, Case{100, 2, 12, 3},
                 Case{64, 1, 7, 0}, Case{5, 9, 8, 0}, Case{2048, 5, 0, 0}}) {
    // Small integers: every partial sum is exact, in any order.
    auto Ints = randomVector<int>(C.N, -4, 4, C.N + C.R);
    std::vector<float> In(Ints.begin(), Ints.end());
    Mem DIn = E.input(In), DOut = E.output<float>(C.N);
    setArgs(K, DIn, DOut, C.N, C.R);
    size_t Global = C.Local ? roundUp(C.N, C.Local) : size_t(C.N);
    E.run(K, 1, &Global, C.Local ? &C.Local : nullptr, &C.Offset);
    expectEqual(E.read<float>(DOut, C.N), box1dReference(In, C.N, C.R),
               "box1d n=" + std::to_string(C.N) + " r=" + std::to_string(C.R) +
                   " local=" + std::to_string(C.Local));
  }
}

CLT_TEST(conv2dMaskShapes) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "conv2d");
  struct Case {
    int W, H, MW, MH;
    size_t L0, L1;
  };
  for (Case C : {Case{256, 64, 5, 5, 32, 8}, Case{203, 77, 3, 7, 16, 4},
                 Case{100, 30, 9, 1, 64, 1}, Case{64, 64, 1, 1, 8, 8},
                 Case{37, 19, 5, 3, 5, 3}, Case{128, 16, 21, 5, 16, 16}}) {
    auto In = randomVector<int>(size_t(C.W) * C.H, 0, 255, C.W * 7 + C.MW);
    auto Mask =
        randomVector<float>(size_t(C.MW) * C.MH, 0.f, 1.f, C.MH * 3 + 1);
    Mem DIn = E.input(In), DMask = E.input(Mask),
        DOut = E.output<int>(In.size());
    setArgs(K, DIn, DOut, DMask, C.W, C.H, C.MW, C.MH);
    size_t Global[2] = {roundUp(C.W, C.L0), roundUp(C.H, C.L1)};
    size_t Local[2] = {C.L0, C.L1};
    E.run(K, 2, Global, Local);
    std::vector<int> Want(In.size());
    int VS = (C.MW - 1) / 2, HS = (C.MH - 1) / 2;
    for (int Y = 0; Y < C.H; ++Y)
      for (int X = 0; X < C.W; ++X) {
        float S = 0.0f;
        for (int I = std::max(0, X - VS); I <= std::min(C.W - 1, X + VS); ++I)
          for (int J = std::max(0, Y - HS); J <= std::min(C.H - 1, Y + HS);
               ++J)
            S = std::fma(float(In[J * C.W + I]),
                         Mask[(J - (Y - HS)) * C.MW + (I - (X - VS))], S);
        Want[Y * C.W + X] = int(S + 0.5f);
      }
    // Contracted or not, the sums differ in the last bits, the rounded
    // pixels by one at most.
    expectNear(E.read<int>(DOut, In.size()), Want, 0.0, 1.0,
               "conv2d " + std::to_string(C.W) + "x" + std::to_string(C.H) +
                   " mask " + std::to_string(C.MW) + "x" +
                   std::to_string(C.MH));
  }
}

CLT_TEST(inductionVariablesAfterLoops) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "ivs");
  for (int R : {0, 1, 4, 9}) {
    const int N = 192;
    auto In = randomVector<int>(N, -100, 100, R + 40);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    setArgs(K, DIn, DOut, N, R);
    const size_t Global = N, Local = 32;
    E.run(K, 1, &Global, &Local);
    std::vector<int> Want(N);
    for (int X = 0; X < N; ++X) {
      int Lo = std::max(0, X - R), Hi = std::min(N - 1, X + R);
      int S = 0, I, J = 0, Q;
      for (I = Lo; I <= Hi; ++I)
        for (J = Lo; J <= I; ++J)
          S += In[J] ^ I;
      for (Q = Lo; Q <= Hi; Q += 3)
        S += Q * In[Q];
      Want[X] = S + 7 * I + 11 * J + 13 * Q;
    }
    expectEqual(E.read<int>(DOut, N), Want, "ivs r=" + std::to_string(R));
  }
}

CLT_TEST(divergentLoopBehindTailGuard) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "triangle");
  const int N = 1001;
  auto In = randomVector<int>(N, -50, 50, 77);
  Mem DIn = E.input(In), DOut = E.output<int>(N);
  setArgs(K, DIn, DOut, N);
  for (size_t Local : {64, 24}) {
    size_t Global = roundUp(N, Local);
    E.run(K, 1, &Global, &Local);
    std::vector<int> Want(N);
    for (int X = 0; X < N; ++X)
      for (int I = 0; I <= X % 5; ++I)
        Want[X] += In[std::max(X - I, 0)];
    expectEqual(E.read<int>(DOut, N), Want,
                "triangle local " + std::to_string(Local));
  }
}

CLT_TEST(splitAfterBarrier) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "haloLocal");
  for (size_t Local : {64, 40, 8}) {
    const int N = 1000, R = 3;
    auto In = randomVector<float>(N, -1.f, 1.f, Local);
    Mem DIn = E.input(In), DOut = E.output<float>(N);
    setArgs(K, DIn, DOut, N, R, LocalMem{Local * sizeof(float)});
    size_t Global = roundUp(N, Local);
    E.run(K, 1, &Global, &Local);
    std::vector<float> Want(N);
    for (int X = 0; X < N; ++X) {
      int L = X % int(Local), Base = X - L;
      for (int I = std::max(0, L - R); I <= std::min(int(Local) - 1, L + R);
           ++I)
        Want[X] += Base + I < N ? In[Base + I] : 0.0f;
    }
    expectNear(E.read<float>(DOut, N), Want, 1e-6, 1e-5,
               "haloLocal local " + std::to_string(Local));
  }
}

CLT_TEST(box3dWithOffsets) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "box3d");
  const int W = 96, R = 2;
  const size_t Global[3] = {80, 6, 3}, Local[3] = {16, 2, 3},
               Offset[3] = {8, 1, 2};
  // Rows (Z * 6 + Y) * W for Z in [2, 5), Y in [1, 7): up to row 30.
  const size_t Rows = 31;
  auto In = randomVector<int>(Rows * W, -9, 9, 5);
  std::vector<int> Want(Rows * W, -1);
  Mem DIn = E.input(In);
  Mem DOut = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      Want.size() * sizeof(int), Want.data());
  setArgs(K, DIn, DOut, W, R);
  E.run(K, 3, Global, Local, Offset);
  for (size_t Z = Offset[2]; Z < Offset[2] + Global[2]; ++Z)
    for (size_t Y = Offset[1]; Y < Offset[1] + Global[1]; ++Y) {
      size_t Row = (Z * Global[1] + Y) * W;
      for (int X = int(Offset[0]); X < int(Offset[0] + Global[0]); ++X) {
        int S = 0;
        for (int I = std::max(0, X - R); I <= std::min(W - 1, X + R); ++I)
          S += In[Row + I];
        Want[Row + X] = S;
      }
    }
  expectEqual(E.read<int>(DOut, Want.size()), Want, "box3d");
}

CLT_TEST(windowWalkedBackwards) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "backwards");
  for (int R : {0, 3, 12}) {
    const int N = 520;
    // Powers of two halved at each step: exact in any order of lanes.
    auto Ints = randomVector<int>(N, -8, 8, R + 3);
    std::vector<float> In(Ints.begin(), Ints.end());
    Mem DIn = E.input(In), DOut = E.output<float>(N);
    setArgs(K, DIn, DOut, N, R);
    const size_t Global = roundUp(N, 40), Local = 40;
    E.run(K, 1, &Global, &Local);
    std::vector<float> Want(N);
    for (int X = 0; X < N; ++X) {
      float S = 0.0f;
      for (int I = std::min(N - 1, X + R); I >= std::max(0, X - R); --I)
        S = S * 0.5f + In[I];
      Want[X] = S;
    }
    expectEqual(E.read<float>(DOut, N), Want,
                "backwards r=" + std::to_string(R));
  }
}

CLT_TEST(windowAlongTheSecondDimension) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "columns");
  const int W = 24, H = 200, R = 4;
  auto In = randomVector<int>(size_t(W) * H, -50, 50, 17);
  Mem DIn = E.input(In), DOut = E.output<int>(In.size());
  setArgs(K, DIn, DOut, W, H, R);
  std::vector<int> Want(In.size());
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      for (int J = std::max(0, Y - R); J <= std::min(H - 1, Y + R); ++J)
        Want[X * H + Y] += In[X * H + J] * (J - Y);
  const size_t Locals[][2] = {{1, 40}, {2, 100}, {8, 8}};
  for (const auto &L : Locals) {
    const size_t Global[2] = {size_t(W), size_t(H)};
    E.run(K, 2, Global, L);
    expectEqual(E.read<int>(DOut, In.size()), Want,
                "columns local " + std::to_string(L[0]) + "x" +
                    std::to_string(L[1]));
  }
}

CLT_TEST(bestDimensionPerLaunch) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "eitherDim");
  const int N = 45; // not a multiple of any width: tail guards in x and y
  auto In = randomVector<int>(size_t(N) * N, -1000, 1000, 29);
  Mem DIn = E.input(In);
  const size_t Locals[][2] = {{16, 16}, {2, 16}, {16, 2}, {4, 4}, {3, 5}};
  for (int F = 0; F < 2; ++F) {
    std::vector<int> Want(In.size());
    for (int Y = 0; Y < N; ++Y)
      for (int X = 0; X < N; ++X) {
        size_t I = F ? size_t(X) * N + Y : size_t(Y) * N + X;
        Want[I] = F ? In[I] * 3 + X : In[I] * 5 - Y;
      }
    for (const auto &L : Locals) {
      Mem DOut = E.output<int>(In.size());
      setArgs(K, DOut, DIn, N, F);
      const size_t Global[2] = {(N + L[0] - 1) / L[0] * L[0],
                                (N + L[1] - 1) / L[1] * L[1]};
      E.run(K, 2, Global, L);
      expectEqual(E.read<int>(DOut, In.size()), Want,
                  "eitherDim F=" + std::to_string(F) + " local " +
                      std::to_string(L[0]) + "x" + std::to_string(L[1]));
    }
  }
}

CLT_TEST(bestOfThreeDimensions) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "anyDim3");
  const int N = 19; // a tail guard in every dimension
  const size_t Size = size_t(N) * N * N;
  auto In = randomVector<int>(Size, -1000, 1000, 31);
  Mem DIn = E.input(In);
  const size_t Locals[][3] = {{8, 8, 8}, {4, 4, 4}, {16, 4, 2}, {2, 2, 16},
                              {1, 8, 4}, {3, 5, 7}};
  for (int F = 0; F < 3; ++F) {
    std::vector<int> Want(Size);
    for (int Z = 0; Z < N; ++Z)
      for (int Y = 0; Y < N; ++Y)
        for (int X = 0; X < N; ++X) {
          size_t I = F == 0   ? (size_t(Z) * N + Y) * N + X
                     : F == 1 ? (size_t(X) * N + Z) * N + Y
                              : (size_t(Y) * N + X) * N + Z;
          Want[I] = In[I] * (F + 2) + X - Y + Z;
        }
    for (const auto &L : Locals) {
      Mem DOut = E.output<int>(Size);
      setArgs(K, DOut, DIn, N, F);
      size_t Global[3];
      for (int D = 0; D < 3; ++D)
        Global[D] = (N + L[D] - 1) / L[D] * L[D];
      E.run(K, 3, Global, L);
      expectEqual(E.read<int>(DOut, Size), Want,
                  "anyDim3 F=" + std::to_string(F) + " local " +
                      std::to_string(L[0]) + "x" + std::to_string(L[1]) +
                      "x" + std::to_string(L[2]));
    }
  }
}

CLT_TEST(uintRowsThatWrap) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "uintRows");
  struct Case {
    size_t GX, GY, LX, LY, OX, OY;
    cl_uint W, N;
  };
  // W = 2^31 + 3: odd rows wrap past 2^32 (c >= N there), even ones do
  // not; W = 2^30: rows from 4 on wrap.
  for (Case C : {Case{64, 8, 16, 2, 0, 0, 64, 512},
                 Case{64, 8, 32, 1, 3, 0, 0x80000003u, 1024},
                 Case{48, 12, 16, 4, 0, 1, 0x40000000u, 4096},
                 Case{40, 6, 8, 3, 5, 2, 40, 200},
                 Case{256, 3, 64, 1, 0, 0, 0xFFFFFF00u, 100000},
                 // Rows of four tiles and more: the groups whose rows
                 // wrap run the copy of the tiles that N cuts, the
                 // region as written, over all their work-items.
                 Case{128, 6, 64, 2, 0, 1, 0x80000003u, 4096}}) {
    auto In = randomVector<float>(C.N, -10.f, 10.f, C.W % 1000);
    Mem DIn = E.input(In), DOut = E.output<float>(C.GX * C.GY);
    setArgs(K, DIn, DOut, C.W, C.N);
    size_t Global[2] = {C.GX, C.GY}, Local[2] = {C.LX, C.LY},
           Offset[2] = {C.OX, C.OY};
    E.run(K, 2, Global, Local, Offset);
    std::vector<float> Want(C.GX * C.GY);
    for (size_t Y = C.OY; Y < C.OY + C.GY; ++Y)
      for (size_t X = C.OX; X < C.OX + C.GX; ++X) {
        cl_uint Cv = cl_uint(X) + cl_uint(Y) * C.W;
        Want[(Y - C.OY) * C.GX + (X - C.OX)] =
            Cv < C.N ? In[Cv] : -1.0f;
      }
    std::vector<float> Got = E.read<float>(DOut, C.GX * C.GY);
    expectEqual(Got, Want,
                "uintRows W=" + std::to_string(C.W) + " local " +
                    std::to_string(C.LX) + "x" + std::to_string(C.LY));
  }
}

CLT_TEST(uintSizesPastTheSignBit) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "uintSizes");
  struct Case {
    size_t G, L, O;
    cl_uint Lo;
    cl_int Hi;
  };
  for (Case C :
       {Case{256, 64, 0, 3, 200}, Case{256, 16, 5, 0, 77},
        Case{96, 24, 0, 17, -1}, Case{128, 32, 7, 0, -100},
        Case{128, 64, 0, 0x80000000u, 50}, Case{64, 16, 0, 0xFFFFFFFFu, -1}}) {
    auto In = randomVector<float>(C.G, -10.f, 10.f, unsigned(C.G + C.L));
    Mem DIn = E.input(In), DOut = E.output<float>(C.G);
    setArgs(K, DIn, DOut, C.Lo, C.Hi);
    E.run(K, 1, &C.G, &C.L, &C.O);
    std::vector<float> Want(C.G);
    for (size_t I = 0; I < C.G; ++I) {
      cl_uint X = cl_uint(I + C.O);
      float V = X >= C.Lo && X < cl_uint(C.Hi) ? In[I] * In[0] : -1.0f;
      Want[I] = X - 1 < C.Lo ? V + 100.0f : V;
    }
    expectEqual(E.read<float>(DOut, C.G), Want,
                "uintSizes lo=" + std::to_string(C.Lo) + " hi=" +
                    std::to_string(C.Hi) + " local=" + std::to_string(C.L));
  }
}

CLT_TEST(uintCrossOnGlobalSize) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "uintCross");
  for (auto [W, H, LX, LY] : {std::array<size_t, 4>{128, 32, 32, 4},
                              std::array<size_t, 4>{64, 17, 16, 1},
                              std::array<size_t, 4>{48, 48, 16, 16},
                              std::array<size_t, 4>{24, 5, 8, 5},
                              // Rows of more than two tiles: a whole
                              // group joins the ranges' nests.
                              std::array<size_t, 4>{256, 8, 64, 2}}) {
    // Small integers: exact in any order.
    auto Ints = randomVector<int>(W * H, -20, 20, unsigned(W + H));
    std::vector<float> In(Ints.begin(), Ints.end());
    std::vector<float> Init(W * H, 7.0f);
    Mem DIn = E.input(In), DOut = E.output<float>(W * H);
    E.write(DOut, Init);
    setArgs(K, DIn, DOut);
    size_t Global[2] = {W, H}, Local[2] = {LX, LY};
    E.run(K, 2, Global, Local);
    std::vector<float> Want = Init;
    for (size_t Y = 1; Y + 1 < H; ++Y)
      for (size_t X = 1; X + 1 < W; ++X) {
        size_t Cv = X + Y * W;
        Want[Cv] = In[Cv - 1] + In[Cv + 1] + In[Cv - W] + In[Cv + W] -
                   4.0f * In[Cv];
      }
    expectEqual(E.read<float>(DOut, W * H), Want,
                "uintCross " + std::to_string(W) + "x" + std::to_string(H));
  }
}

// Ranges whose copies are the same code share one (SplitPlan::copyClasses)
// and run in a loop over their ranges; ranges of one piece whose addresses
// differ keep their own. Local sizes with one tile, several, a partial one,
// with global offsets that move the borders into any tile.
CLT_TEST(rangesSharingACopy) {
  Program P = E.build(SplitSource);
  Kernel Smooth = E.kernel(P, "smooth");
  Kernel Wrap = E.kernel(P, "wrap");
  struct Case {
    size_t G, L, Off;
    int N;
  };
  for (Case C :
       {Case{256, 64, 0, 250}, Case{192, 16, 0, 100}, Case{240, 48, 5, 200},
        Case{256, 128, 3, 131}, Case{64, 64, 0, 64}, Case{120, 24, 17, 2}}) {
    std::string What = " global " + std::to_string(C.G) + " local " +
                       std::to_string(C.L) + " offset " +
                       std::to_string(C.Off) + " N " + std::to_string(C.N);
    size_t Size = C.G + C.Off;
    auto In = randomVector<float>(Size, -8.f, 8.f, unsigned(C.G + C.N));
    {
      std::vector<float> Init(Size, 5.0f);
      Mem DIn = E.input(In), DOut = E.output<float>(Size);
      E.write(DOut, Init);
      setArgs(Smooth, DIn, DOut, C.N);
      E.run(Smooth, 1, &C.G, &C.L, &C.Off);
      std::vector<float> Want = Init;
      for (size_t I = C.Off; I < Size; ++I)
        if (I > 0 && int(I) < C.N - 1)
          Want[I] = In[I - 1] + In[I + 1];
      expectEqual(E.read<float>(DOut, Size), Want, "smooth" + What);
    }
    {
      // In holds 2N values at least where i - N is read.
      size_t Len = std::max(Size, size_t(2 * C.N));
      auto Src = randomVector<float>(Len, -8.f, 8.f, unsigned(C.L));
      Mem DIn = E.input(Src), DOut = E.output<float>(C.G);
      setArgs(Wrap, DIn, DOut, C.N);
      E.run(Wrap, 1, &C.G, &C.L, &C.Off);
      std::vector<float> Want(C.G);
      for (size_t I = C.Off; I < Size; ++I) {
        int J = int(I) < C.N ? int(I) : int(I) - C.N;
        Want[I - C.Off] = Src[J];
      }
      expectEqual(E.read<float>(DOut, C.G), Want, "wrap" + What);
    }
  }
}

// Ranges of a region with loops share a copy where each loop that runs in
// lock-step on each of them does so on them all: the box filter's aprons
// (the window's loop not reached) and cut tiles (scalar) do; aprons whose
// own loops run 4 and 8 times do not. Local sizes with one tile, several,
// a partial one, with global offsets that move the aprons into any tile.
CLT_TEST(rangesWithLoopsSharingACopy) {
  Program P = E.build(SplitSource);
  Kernel Apron = E.kernel(P, "apron");
  struct Case {
    size_t G, L, Off;
    int K;
  };
  for (int Uneven : {0, 1})
    for (Case C :
         {Case{256, 64, 0, 3}, Case{192, 16, 0, 1}, Case{240, 48, 5, 9},
          Case{256, 128, 3, 20}, Case{64, 64, 0, 40}, Case{120, 24, 17, 0}}) {
      int N = int(C.G + C.Off);
      std::string What = " uneven " + std::to_string(Uneven) + " global " +
                         std::to_string(C.G) + " local " + std::to_string(C.L) +
                         " offset " + std::to_string(C.Off) + " K " +
                         std::to_string(C.K);
      // Read up to i + K and i + 7 past the last work-item.
      size_t Len = size_t(N) + size_t(std::max(C.K, 8));
      auto In = randomVector<float>(Len, -8.f, 8.f, unsigned(C.G + C.K));
      std::vector<float> Init(size_t(N), 5.0f);
      Mem DIn = E.input(In), DOut = E.output<float>(size_t(N));
      E.write(DOut, Init);
      setArgs(Apron, DIn, DOut, N, C.K, Uneven);
      E.run(Apron, 1, &C.G, &C.L, &C.Off);
      std::vector<float> Want = Init;
      for (int I = int(C.Off); I < N; ++I) {
        float S = 0.0f;
        if (I < C.K || I >= N - C.K) {
          for (int J = 0; Uneven && J < (I < C.K ? 4 : 8); ++J)
            S += In[I + J];
        } else {
          for (int J = -C.K; J <= C.K; ++J)
            S += In[I + J] * float(J + C.K + 1);
        }
        Want[I] = S;
      }
      // The window's products may be contracted.
      expectNear(E.read<float>(DOut, size_t(N)), Want, 1e-5, 1e-4,
                 "apron" + What);
    }
}

// A loop whose trip count changes where a parameter cuts a tile: the split
// runs it in lock-step on either side (its only gain), in 1D groups with
// one tile, several, a partial one, with offsets; trip counts of zero too.
CLT_TEST(tripCountsPerRange) {
  Program P = E.build(SplitSource);
  Kernel Steps = E.kernel(P, "steps");
  struct Case {
    size_t G, L, Off;
    int N, Lo, Hi;
  };
  for (Case C : {Case{256, 64, 0, 100, 4, 8}, Case{192, 16, 0, 37, 3, 0},
                 Case{240, 48, 5, 200, 0, 5}, Case{256, 128, 3, 131, 9, 2},
                 Case{64, 64, 0, 64, 1, 7}, Case{120, 24, 17, -3, 2, 6}}) {
    std::string What =
        " global " + std::to_string(C.G) + " local " + std::to_string(C.L) +
        " offset " + std::to_string(C.Off) + " N " + std::to_string(C.N) +
        " trips " + std::to_string(C.Lo) + "/" + std::to_string(C.Hi);
    size_t Size = C.G + C.Off + size_t(std::max(C.Lo, C.Hi));
    auto In = randomVector<float>(Size, -8.f, 8.f, unsigned(C.G + C.N));
    Mem DIn = E.input(In), DOut = E.output<float>(C.G);
    setArgs(Steps, DIn, DOut, C.N, C.Lo, C.Hi);
    E.run(Steps, 1, &C.G, &C.L, &C.Off);
    std::vector<float> Want(C.G);
    for (size_t X = 0; X < C.G; ++X) {
      int I = int(X + C.Off);
      float S = 0.0f;
      for (int J = 0; J < (I < C.N ? C.Lo : C.Hi); ++J)
        S += In[size_t(I + J)] * float(J + 1);
      Want[X] = S;
    }
    expectNear(E.read<float>(DOut, C.G), Want, 1e-5, 1e-4, "steps" + What);
  }
}

CLT_TEST(partialEdgesOfAClampedWindow) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "clampedBox2D");
  const int W = 75, H = 13;
  auto In = randomVector<int>(size_t(W) * H, -9, 9, 41);
  Mem DIn = E.input(In);
  // Groups of two tiles and more, a partial last tile (40, 48 at 16
  // lanes), offsets that move the border within a tile, one tile a row.
  static const Launch2D Edges[] = {{32, 8, 0, 0}, {32, 8, 3, 1}, {40, 3, 0, 0},
                                   {48, 2, 7, 0}, {64, 2, 0, 0}, {16, 4, 5, 2}};
  // No border, one in the first tile, one wider than a tile, wider than
  // a group.
  for (int R : {0, 2, 5, 17, 40}) {
    checkEach2D(
        E, K, W, H, Edges, -1,
        [&](Mem &DOut) { setArgs(K, DIn, DOut, W, H, R); },
        [&](int X, int Y) {
          int S = 0;
          for (int I = std::max(0, X - R); I <= std::min(W - 1, X + R); ++I)
            for (int J = std::max(0, Y - 1); J <= std::min(H - 1, Y + 1); ++J)
              S += In[size_t(J) * W + I] * (I - X + 2 * R + 1) + J;
          return S;
        },
        "clampedBox2D r=" + std::to_string(R));
  }
}

CLT_TEST(privateArraysPaddedToTheirAlignment) {
  Program P = E.build(SplitSource);
  Kernel K = E.kernel(P, "windowMoments");
  const int N = 1000;
  // Small integers: every sum and product is exact.
  auto Ints = randomVector<int>(6 * N, -8, 8, 67);
  std::vector<float> In(Ints.begin(), Ints.end());
  std::vector<float> Want(N);
  for (int X = 0; X < N; ++X) {
    float S[6] = {};
    for (int C = 0; C < 6; ++C)
      for (int I = 0; I < 3; ++I)
        S[C] += In[size_t(C) * N + std::min(X + I, N - 1)];
    Want[X] = S[0] * S[4] - S[2] * S[2] + S[1] * S[5] - S[3];
  }
  Mem DIn = E.input(In);
  // 256 as the corner response runs; a group of tiles and a partial one;
  // one partial tile.
  for (size_t Local : {256, 64, 33, 7}) {
    Mem DOut = E.output<float>(N);
    setArgs(K, DIn, DOut, N, LocalMem{6 * Local * sizeof(float)});
    size_t Global = (N + Local - 3) / (Local - 2) * Local;
    E.run(K, 1, &Global, &Local);
    expectEqual(E.read<float>(DOut, N), Want,
                "windowMoments local " + std::to_string(Local));
  }
}

// A private array past the stack budget lives in the worker's scratch
// memory, and keeps the alignment it asks for there: the base is aligned
// to a page (ISS_SCRATCH_ALIGN) and the array's offset to its alignment.
// 4 MiB per work-item, aligned to 128, two work-items a group.
static const char *ScratchAlignedSource = R"CLC(
__kernel void scratchAligned(__global uint *out, int n) {
  __attribute__((aligned(128))) int p[1048576];
  int l = (int)get_local_id(0);
  p[n + l] = l + 1;
  p[n + l + 2] = 2 * l;
  out[get_global_id(0)] =
      (uint)((size_t)&p[0] % 128) + 1000u * (uint)(p[n + l] + p[n + l + 2]);
}
)CLC";

CLT_TEST(privateArrayInScratchKeepsItsAlignment) {
  Program P = E.build(ScratchAlignedSource);
  Kernel K = E.kernel(P, "scratchAligned");
  const size_t Global = 8, Local = 2;
  Mem DOut = E.output<cl_uint>(Global);
  setArgs(K, DOut, 5);
  E.run(K, 1, &Global, &Local);
  std::vector<cl_uint> Want(Global);
  for (size_t I = 0; I < Global; ++I)
    Want[I] = 1000u * cl_uint(3 * (I % Local) + 1);
  expectEqual(E.read<cl_uint>(DOut, Global), Want, "scratchAligned");
}
