//===- NDRangeKernels.cpp - 2D/3D kernels, global offsets, stencils -------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Multi-dimensional end-to-end kernels. The paper builds one subkernel per
// work-item dimension and selects among them by score (section 4); its model
// of get_global_id is i_d + GroupOffset_d (Table 2). These kernels check that
// every dimension's ids, sizes and the global offset are right under every
// subkernel choice, and include the 3x3 clamped stencil whose borders are the
// divergent parts that input space splitting separates (sections 1 and 3).
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

static const char *NDRangeSource = R"CLC(
// Packs every id of a 3D work-item into a record, indexed by its global id
// relative to the offset.
__kernel void ids3d(__global uint *Out) {
  size_t X = get_global_id(0) - get_global_offset(0);
  size_t Y = get_global_id(1) - get_global_offset(1);
  size_t Z = get_global_id(2) - get_global_offset(2);
  size_t W = get_global_size(0), H = get_global_size(1);
  __global uint *R = Out + 8 * ((Z * H + Y) * W + X);
  R[0] = (uint)get_global_id(0);
  R[1] = (uint)get_global_id(1);
  R[2] = (uint)get_global_id(2);
  R[3] = (uint)(get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16);
  R[4] = (uint)(get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16);
  R[5] = (uint)(get_num_groups(0) | get_num_groups(1) << 8 |
                get_num_groups(2) << 16);
  R[6] = (uint)(get_global_offset(0) | get_global_offset(1) << 8 |
                get_global_offset(2) << 16);
  R[7] = get_work_dim();
}

// A 2D kernel with an offset: writes the window [Ox, Ox+W) x [Oy, Oy+H) of
// a Pitch-wide image, leaving the rest untouched.
__kernel void window2d(__global float *Img, int Pitch) {
  int X = get_global_id(0);
  int Y = get_global_id(1);
  Img[Y * Pitch + X] = X * 0.5f + Y * 1000.0f;
}

// 3x3 box-weighted stencil with clamped borders, the MAX/MIN pattern of the
// paper's Convolution2D (Figure 2).
__kernel void stencil3x3(__global const float *In, __global float *Out,
                         int Width, int Height, __constant float *Weights) {
  int X = get_global_id(0);
  int Y = get_global_id(1);
  if (X >= Width || Y >= Height)
    return;
  float Sum = 0.0f;
  for (int Dy = -1; Dy <= 1; ++Dy) {
    int Yy = min(max(Y + Dy, 0), Height - 1);
    for (int Dx = -1; Dx <= 1; ++Dx) {
      int Xx = min(max(X + Dx, 0), Width - 1);
      Sum += In[Yy * Width + Xx] * Weights[(Dy + 1) * 3 + Dx + 1];
    }
  }
  Out[Y * Width + X] = Sum;
}

// Uses dimension 1 as the contiguous one: a subkernel for dimension 0 sees
// only strided accesses, one for dimension 1 consecutive ones (the case the
// paper's scoring exists for, gaussian's Fan2).
__kernel void transposeAdd(__global const int *A, __global int *B, int N) {
  int Row = get_global_id(0);
  int Col = get_global_id(1);
  B[Row * N + Col] = A[Row * N + Col] + A[Col * N + Row] + Row - Col;
}
)CLC";

static void checkIds3d(Env &E, const Kernel &K, const size_t Global[3],
                       const size_t Local[3], const size_t Offset[3]) {
  size_t N = Global[0] * Global[1] * Global[2];
  Mem Out = E.output<cl_uint>(8 * N);
  setArgs(K, Out);
  E.run(K, 3, Global, Local, Offset);
  auto Got = E.read<cl_uint>(Out, 8 * N);
  std::vector<cl_uint> Want(8 * N);
  for (size_t Z = 0; Z < Global[2]; ++Z)
    for (size_t Y = 0; Y < Global[1]; ++Y)
      for (size_t X = 0; X < Global[0]; ++X) {
        cl_uint *R = &Want[8 * ((Z * Global[1] + Y) * Global[0] + X)];
        size_t Id[3] = {X, Y, Z};
        R[3] = R[4] = R[5] = R[6] = 0;
        for (int D = 0; D < 3; ++D) {
          R[D] = cl_uint(Id[D] + Offset[D]);
          R[3] |= cl_uint(Id[D] % Local[D]) << (8 * D);
          R[4] |= cl_uint(Id[D] / Local[D]) << (8 * D);
          R[5] |= cl_uint(Global[D] / Local[D]) << (8 * D);
          R[6] |= cl_uint(Offset[D]) << (8 * D);
        }
        R[7] = 3;
      }
  expectEqual(Got, Want,
              "ids3d global " + std::to_string(Global[0]) + "x" +
                  std::to_string(Global[1]) + "x" + std::to_string(Global[2]) +
                  " local " + std::to_string(Local[0]) + "x" +
                  std::to_string(Local[1]) + "x" + std::to_string(Local[2]));
}

CLT_TEST(ids3dWithOffsets) {
  Program P = E.build(NDRangeSource);
  Kernel K = E.kernel(P, "ids3d");
  const size_t Configs[][9] = {
      // global, local, offset
      {16, 4, 2, 8, 2, 1, 0, 0, 0},  {21, 6, 5, 7, 3, 5, 3, 1, 2},
      {64, 3, 3, 64, 1, 1, 5, 6, 7}, {9, 10, 11, 1, 5, 11, 1, 0, 100},
      {30, 2, 4, 15, 2, 2, 0, 9, 0},
  };
  for (const auto &C : Configs)
    checkIds3d(E, K, C, C + 3, C + 6);
}

CLT_TEST(window2dWithOffset) {
  const int Pitch = 100, Rows = 60;
  Program P = E.build(NDRangeSource);
  Kernel K = E.kernel(P, "window2d");
  std::vector<float> Init(Pitch * Rows, -1.0f);
  Mem Img = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                     Init.size() * sizeof(float), Init.data());
  setArgs(K, Img, Pitch);
  const size_t Global[2] = {35, 24}, Local[2] = {7, 8}, Offset[2] = {13, 30};
  E.run(K, 2, Global, Local, Offset);
  std::vector<float> Want = Init;
  for (size_t Y = Offset[1]; Y < Offset[1] + Global[1]; ++Y)
    for (size_t X = Offset[0]; X < Offset[0] + Global[0]; ++X)
      Want[Y * Pitch + X] = X * 0.5f + Y * 1000.0f;
  expectEqual(E.read<float>(Img, Init.size()), Want, "window2d");
}

CLT_TEST(stencil3x3Clamped) {
  Program P = E.build(NDRangeSource);
  Kernel K = E.kernel(P, "stencil3x3");
  std::vector<float> Weights = {0.0625f, 0.125f,  0.0625f, 0.125f, 0.25f,
                                0.125f,  0.0625f, 0.125f,  0.0625f};
  Mem DW = E.input(Weights);
  struct Shape {
    int W, H;
    size_t L0, L1;
  };
  for (Shape S :
       {Shape{256, 128, 16, 4}, Shape{203, 77, 8, 8}, Shape{33, 5, 1, 1},
        Shape{1, 9, 1, 3}, Shape{300, 2, 64, 1}}) {
    auto In = randomVector<float>(size_t(S.W) * S.H, 0.f, 255.f, 12 + S.W);
    Mem DIn = E.input(In), DOut = E.output<float>(In.size());
    setArgs(K, DIn, DOut, S.W, S.H, DW);
    size_t Global[2] = {(S.W + S.L0 - 1) / S.L0 * S.L0,
                        (S.H + S.L1 - 1) / S.L1 * S.L1};
    size_t Local[2] = {S.L0, S.L1};
    E.run(K, 2, Global, Local);
    std::vector<float> Want(In.size());
    for (int Y = 0; Y < S.H; ++Y)
      for (int X = 0; X < S.W; ++X) {
        float Sum = 0;
        for (int Dy = -1; Dy <= 1; ++Dy)
          for (int Dx = -1; Dx <= 1; ++Dx) {
            int Yy = std::min(std::max(Y + Dy, 0), S.H - 1);
            int Xx = std::min(std::max(X + Dx, 0), S.W - 1);
            Sum += In[Yy * S.W + Xx] * Weights[(Dy + 1) * 3 + Dx + 1];
          }
        Want[Y * S.W + X] = Sum;
      }
    // Nine products of values <= 255: fma contraction changes the last bits.
    expectNear(E.read<float>(DOut, In.size()), Want, 1e-5, 1e-4,
               "stencil3x3 " + std::to_string(S.W) + "x" + std::to_string(S.H));
  }
}

CLT_TEST(secondDimensionContiguous) {
  const int N = 96;
  auto A = randomVector<int>(N * N, -1000, 1000, 13);
  Program P = E.build(NDRangeSource);
  Kernel K = E.kernel(P, "transposeAdd");
  Mem DA = E.input(A), DB = E.output<int>(N * N);
  setArgs(K, DA, DB, N);
  std::vector<int> Want(N * N);
  for (int R = 0; R < N; ++R)
    for (int C = 0; C < N; ++C)
      Want[R * N + C] = A[R * N + C] + A[C * N + R] + R - C;
  const size_t Locals[][2] = {{1, 32}, {4, 4}, {32, 1}, {3, 16}, {96, 1}};
  for (const auto &L : Locals) {
    const size_t Global[2] = {size_t(N), size_t(N)};
    E.run(K, 2, Global, L);
    expectEqual(E.read<int>(DB, N * N), Want,
                "transposeAdd local " + std::to_string(L[0]) + "x" +
                    std::to_string(L[1]));
  }
}
