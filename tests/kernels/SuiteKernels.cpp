//===- SuiteKernels.cpp - Kernels shaped like the benchmark suites' -------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Kernels written the way Rodinia, Parboil and the AMD APP SDK write them
// (our own code, their shapes), none of which pocl-iss was tuned on: a
// dynamic-programming pyramid over local memory with barriers inside a
// loop and a `break` (Rodinia's pathfinder), a 3D seven-point stencil with
// an interior guard on a padded global size and a kernel loop over z
// (Parboil's stencil), a stencil that stages a tile and its clamped halo
// in local memory (Rodinia's hotspot), a tree reduction in local memory
// whose steps come from pow() (Rodinia's backprop), and a diffusion step
// reading its neighbours through index arrays with `%` and `/` by a
// run-time size (Rodinia's srad). Each runs with several local sizes,
// multiples of the vector width and not, and is checked against a host
// reference in every POCL_ISS_MODE.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <algorithm>
#include <cmath>

using namespace clt;

static const char *SuiteSource = R"CLC(
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

// One pyramid of `steps` rows of the minimum-path recurrence: each group
// owns `small` columns and recomputes a halo of `steps` columns per side.
__kernel void pyramid(int steps, __global const int *wall,
                      __global const int *src, __global int *dst, int cols,
                      int startRow, __local int *prev, __local int *next) {
  int block = get_local_size(0);
  int tx = get_local_id(0);
  int small = block - 2 * steps;
  int blkX = small * get_group_id(0) - steps;
  int blkXmax = blkX + block - 1;
  int x = blkX + tx;
  int validMin = blkX < 0 ? -blkX : 0;
  int validMax = blkXmax > cols - 1 ? block - 1 - (blkXmax - cols + 1)
                                    : block - 1;
  int w = max(tx - 1, validMin), e = min(tx + 1, validMax);
  bool valid = IN_RANGE(tx, validMin, validMax);
  if (IN_RANGE(x, 0, cols - 1))
    prev[tx] = src[x];
  barrier(CLK_LOCAL_MEM_FENCE);
  bool computed = false;
  for (int i = 0; i < steps; i++) {
    computed = false;
    if (IN_RANGE(tx, i + 1, block - i - 2) && valid) {
      computed = true;
      int best = min(min(prev[w], prev[tx]), prev[e]);
      next[tx] = best + wall[cols * (startRow + i) + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == steps - 1)
      break;
    if (computed)
      prev[tx] = next[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed)
    dst[x] = next[tx];
}

#define AT(i, j, k) ((i) + nx * ((j) + ny * (k)))
// Seven points, the faces untouched; the global size is padded.
__kernel void stencil7(float c0, float c1, __global const float *a,
                       __global float *b, int nx, int ny, int nz) {
  int i = get_global_id(0) + 1;
  int j = get_global_id(1) + 1;
  if (i < nx - 1 && j < ny - 1) {
    for (int k = 1; k < nz - 1; k++)
      b[AT(i, j, k)] = c1 * (a[AT(i, j, k + 1)] + a[AT(i, j, k - 1)] +
                             a[AT(i, j + 1, k)] + a[AT(i, j - 1, k)] +
                             a[AT(i + 1, j, k)] + a[AT(i - 1, j, k)]) -
                       c0 * a[AT(i, j, k)];
  }
}

// A tile and its halo in local memory, the halo clamped to the grid.
__kernel void tiled5(__global const float *t, __global const float *p,
                     __global float *out, int w, int h, float k,
                     __local float *tile) {
  int lx = get_local_id(0), ly = get_local_id(1);
  int bw = get_local_size(0), bh = get_local_size(1);
  int gx = get_global_id(0), gy = get_global_id(1);
  int tw = bw + 2;
  int cx = min(gx, w - 1), cy = min(gy, h - 1);
  tile[(ly + 1) * tw + lx + 1] = t[cy * w + cx];
  if (lx == 0)
    tile[(ly + 1) * tw] = t[cy * w + max(cx - 1, 0)];
  if (lx == bw - 1)
    tile[(ly + 1) * tw + bw + 1] = t[cy * w + min(cx + 1, w - 1)];
  if (ly == 0)
    tile[lx + 1] = t[max(cy - 1, 0) * w + cx];
  if (ly == bh - 1)
    tile[(bh + 1) * tw + lx + 1] = t[min(cy + 1, h - 1) * w + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gx < w && gy < h) {
    float c = tile[(ly + 1) * tw + lx + 1];
    float n = gy > 0 ? tile[ly * tw + lx + 1] : c;
    float s = gy < h - 1 ? tile[(ly + 2) * tw + lx + 1] : c;
    float wv = gx > 0 ? tile[(ly + 1) * tw + lx] : c;
    float ev = gx < w - 1 ? tile[(ly + 1) * tw + lx + 2] : c;
    out[gy * w + gx] = c + k * (n + s + wv + ev - 4.0f * c) + p[gy * w + gx];
  }
}

// Weighted inputs summed over the rows of a square group, the steps of
// the tree coming from pow(); one partial sum per group and column.
__kernel void treeSum(__global const float *in, __global const float *wts,
                      __global float *partial, int hid, __local float *inp,
                      __local float *m) {
  int by = get_group_id(1);
  int tx = get_local_id(0), ty = get_local_id(1);
  int b = get_local_size(0);
  int index = (hid + 1) * b * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int indexIn = b * by + ty + 1;
  if (tx == 0)
    inp[ty] = in[indexIn];
  barrier(CLK_LOCAL_MEM_FENCE);
  m[ty * b + tx] = wts[index] * inp[ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 1; i <= (int)log2((float)b); i++) {
    int pw = (int)pow(2.0f, (float)i);
    if (ty % pw == 0)
      m[ty * b + tx] += m[(ty + pw / 2) * b + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (ty == 0)
    partial[by * hid + tx] = m[tx];
}

// A diffusion coefficient per cell, the image stored by columns, the
// neighbours' indices in arrays (clamped at the borders by the host).
__kernel void diffusion(__global const float *img, __global const int *north,
                        __global const int *south, __global const int *west,
                        __global const int *east, __global float *coef,
                        int rows, int cols, float q0sqr) {
  int ei = get_global_id(0);
  if (ei >= rows * cols)
    return;
  int row = ei % rows, col = ei / rows;
  float c = img[ei];
  float dn = img[north[row] + rows * col] - c;
  float ds = img[south[row] + rows * col] - c;
  float dw = img[row + rows * west[col]] - c;
  float de = img[row + rows * east[col]] - c;
  float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (c * c);
  float l = (dn + ds + dw + de) / c;
  float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1 + 0.25f * l;
  float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
  float v = 1.0f / (1.0f + den);
  coef[ei] = v < 0 ? 0 : (v > 1 ? 1 : v);
}
)CLC";

CLT_TEST(pyramidOfMinimumPaths) {
  Program P = E.build(SuiteSource);
  Kernel K = E.kernel(P, "pyramid");
  struct Case {
    int Cols, Rows, Steps;
    size_t Block;
  };
  for (Case C : {Case{1000, 9, 4, 64}, Case{517, 5, 2, 32},
                 Case{100, 12, 5, 16}, Case{300, 3, 1, 24},
                 Case{64, 7, 3, 256}}) {
    auto Wall = randomVector<int>(size_t(C.Cols) * C.Rows, 0, 9,
                                  unsigned(C.Cols + C.Steps));
    std::vector<int> Src(Wall.begin(), Wall.begin() + C.Cols);
    std::vector<int> Want = Src;
    // Rows 1.. Steps: the recurrence with the borders clamped.
    for (int R = 1; R <= C.Steps; ++R) {
      std::vector<int> Next(C.Cols);
      for (int X = 0; X < C.Cols; ++X)
        Next[X] = Wall[size_t(R) * C.Cols + X] +
                  std::min({Want[std::max(X - 1, 0)], Want[X],
                            Want[std::min(X + 1, C.Cols - 1)]});
      Want = Next;
    }
    Mem DWall = E.input(Wall), DSrc = E.input(Src),
        DDst = E.output<int>(C.Cols);
    int Small = int(C.Block) - 2 * C.Steps;
    size_t Global = size_t((C.Cols + Small - 1) / Small) * C.Block;
    setArgs(K, C.Steps, DWall, DSrc, DDst, C.Cols, 1,
            LocalMem{C.Block * sizeof(int)}, LocalMem{C.Block * sizeof(int)});
    E.run(K, 1, &Global, &C.Block);
    expectEqual(E.read<int>(DDst, C.Cols), Want,
                "pyramid cols=" + std::to_string(C.Cols) +
                    " steps=" + std::to_string(C.Steps) +
                    " block=" + std::to_string(C.Block));
  }
}

CLT_TEST(sevenPointStencilPadded) {
  Program P = E.build(SuiteSource);
  Kernel K = E.kernel(P, "stencil7");
  struct Case {
    int NX, NY, NZ;
    size_t L0, L1;
  };
  for (Case C : {Case{66, 34, 8, 32, 4}, Case{40, 21, 5, 16, 8},
                 Case{19, 9, 4, 8, 2}, Case{130, 5, 3, 64, 1},
                 Case{3, 3, 3, 4, 4}}) {
    size_t N = size_t(C.NX) * C.NY * C.NZ;
    // Small integers: every sum is exact.
    auto Ints = randomVector<int>(N, -8, 8, unsigned(C.NX * C.NY));
    std::vector<float> A(Ints.begin(), Ints.end());
    std::vector<float> Init(N, -1.0f);
    float C0 = 2.0f, C1 = 0.5f;
    Mem DA = E.input(A), DB = E.output<float>(N);
    E.write(DB, Init);
    std::vector<float> Want = Init;
    auto At = [&](int I, int J, int K) {
      return size_t(I) + size_t(C.NX) * (size_t(J) + size_t(C.NY) * K);
    };
    for (int I = 1; I < C.NX - 1; ++I)
      for (int J = 1; J < C.NY - 1; ++J)
        for (int Z = 1; Z < C.NZ - 1; ++Z)
          Want[At(I, J, Z)] =
              C1 * (A[At(I, J, Z + 1)] + A[At(I, J, Z - 1)] +
                    A[At(I, J + 1, Z)] + A[At(I, J - 1, Z)] +
                    A[At(I + 1, J, Z)] + A[At(I - 1, J, Z)]) -
              C0 * A[At(I, J, Z)];
    setArgs(K, C0, C1, DA, DB, C.NX, C.NY, C.NZ);
    size_t Global[2] = {roundUp(size_t(C.NX - 2), C.L0),
                        roundUp(size_t(C.NY - 2), C.L1)};
    size_t Local[2] = {C.L0, C.L1};
    E.run(K, 2, Global, Local);
    expectEqual(E.read<float>(DB, N), Want,
                "stencil7 " + std::to_string(C.NX) + "x" +
                    std::to_string(C.NY) + "x" + std::to_string(C.NZ));
  }
}

CLT_TEST(tileWithClampedHalo) {
  Program P = E.build(SuiteSource);
  Kernel K = E.kernel(P, "tiled5");
  struct Case {
    int W, H;
    size_t L0, L1;
  };
  for (Case C : {Case{128, 64, 16, 16}, Case{100, 37, 32, 4},
                 Case{23, 50, 8, 8}, Case{64, 3, 64, 1}, Case{5, 5, 4, 2}}) {
    size_t N = size_t(C.W) * C.H;
    auto T = randomVector<int>(N, 0, 100, unsigned(C.W * 3 + C.H));
    auto Pw = randomVector<int>(N, 0, 4, unsigned(C.W + C.H));
    std::vector<float> Temp(T.begin(), T.end()), Power(Pw.begin(), Pw.end());
    float Kc = 0.25f;
    std::vector<float> Want(N);
    for (int Y = 0; Y < C.H; ++Y)
      for (int X = 0; X < C.W; ++X) {
        float Ct = Temp[Y * C.W + X];
        float Nv = Y > 0 ? Temp[(Y - 1) * C.W + X] : Ct;
        float Sv = Y < C.H - 1 ? Temp[(Y + 1) * C.W + X] : Ct;
        float Wv = X > 0 ? Temp[Y * C.W + X - 1] : Ct;
        float Ev = X < C.W - 1 ? Temp[Y * C.W + X + 1] : Ct;
        Want[Y * C.W + X] =
            Ct + Kc * (Nv + Sv + Wv + Ev - 4.0f * Ct) + Power[Y * C.W + X];
      }
    Mem DT = E.input(Temp), DP = E.input(Power), DOut = E.output<float>(N);
    setArgs(K, DT, DP, DOut, C.W, C.H, Kc,
            LocalMem{(C.L0 + 2) * (C.L1 + 2) * sizeof(float)});
    size_t Global[2] = {roundUp(C.W, C.L0), roundUp(C.H, C.L1)};
    size_t Local[2] = {C.L0, C.L1};
    E.run(K, 2, Global, Local);
    // Integers and quarters: exact in any order of the additions.
    expectEqual(E.read<float>(DOut, N), Want,
                "tiled5 " + std::to_string(C.W) + "x" + std::to_string(C.H) +
                    " local " + std::to_string(C.L0) + "x" +
                    std::to_string(C.L1));
  }
}

CLT_TEST(treeSumWithPowSteps) {
  Program P = E.build(SuiteSource);
  Kernel K = E.kernel(P, "treeSum");
  for (size_t B : {16u, 8u, 4u, 32u}) {
    int Hid = int(B);
    int Groups = 5;
    int In = int(B) * Groups;
    auto Inp = randomVector<int>(size_t(In) + 1, -3, 3, unsigned(B));
    auto W = randomVector<int>(size_t(In + 1) * (Hid + 1), -3, 3,
                               unsigned(B) + 1);
    std::vector<float> FIn(Inp.begin(), Inp.end()), FW(W.begin(), W.end());
    std::vector<float> Want(size_t(Groups) * Hid);
    for (int G = 0; G < Groups; ++G)
      for (int Tx = 0; Tx < int(B); ++Tx) {
        float S = 0;
        for (int Ty = 0; Ty < int(B); ++Ty)
          S += FW[size_t((Hid + 1) * int(B) * G + (Hid + 1) * Ty + Tx + 1 +
                         (Hid + 1))] *
               FIn[size_t(int(B) * G + Ty + 1)];
        Want[size_t(G) * Hid + Tx] = S;
      }
    Mem DIn = E.input(FIn), DW = E.input(FW),
        DPart = E.output<float>(Want.size());
    setArgs(K, DIn, DW, DPart, Hid, LocalMem{B * sizeof(float)},
            LocalMem{B * B * sizeof(float)});
    size_t Global[2] = {B, B * Groups};
    size_t Local[2] = {B, B};
    E.run(K, 2, Global, Local);
    expectEqual(E.read<float>(DPart, Want.size()), Want,
                "treeSum block " + std::to_string(B));
  }
}

CLT_TEST(diffusionThroughIndexArrays) {
  Program P = E.build(SuiteSource);
  Kernel K = E.kernel(P, "diffusion");
  struct Case {
    int Rows, Cols;
    size_t Local;
  };
  for (Case C : {Case{64, 48, 64}, Case{37, 21, 16}, Case{10, 100, 24},
                 Case{1, 17, 8}, Case{50, 50, 0}}) {
    size_t N = size_t(C.Rows) * C.Cols;
    auto Img = randomVector<float>(N, 1.0f, 2.0f, unsigned(C.Rows * C.Cols));
    std::vector<int> North(C.Rows), South(C.Rows), West(C.Cols), East(C.Cols);
    for (int I = 0; I < C.Rows; ++I) {
      North[I] = std::max(I - 1, 0);
      South[I] = std::min(I + 1, C.Rows - 1);
    }
    for (int J = 0; J < C.Cols; ++J) {
      West[J] = std::max(J - 1, 0);
      East[J] = std::min(J + 1, C.Cols - 1);
    }
    float Q0 = 0.05f;
    std::vector<float> Want(N);
    for (size_t Ei = 0; Ei < N; ++Ei) {
      int Row = int(Ei % C.Rows), Col = int(Ei / C.Rows);
      double Cv = Img[Ei];
      double Dn = Img[North[Row] + size_t(C.Rows) * Col] - Cv;
      double Ds = Img[South[Row] + size_t(C.Rows) * Col] - Cv;
      double Dw = Img[Row + size_t(C.Rows) * West[Col]] - Cv;
      double De = Img[Row + size_t(C.Rows) * East[Col]] - Cv;
      double G2 = (Dn * Dn + Ds * Ds + Dw * Dw + De * De) / (Cv * Cv);
      double L = (Dn + Ds + Dw + De) / Cv;
      double Num = 0.5 * G2 - (1.0 / 16.0) * (L * L);
      double Den = 1 + 0.25 * L;
      double Q = Num / (Den * Den);
      Den = (Q - Q0) / (Q0 * (1 + Q0));
      double V = 1.0 / (1.0 + Den);
      Want[Ei] = float(std::clamp(V, 0.0, 1.0));
    }
    Mem DImg = E.input(Img), DN = E.input(North), DS = E.input(South),
        DWv = E.input(West), DE = E.input(East), DC = E.output<float>(N);
    setArgs(K, DImg, DN, DS, DWv, DE, DC, C.Rows, C.Cols, Q0);
    size_t Global = C.Local ? roundUp(N, C.Local) : N;
    E.run(K, 1, &Global, C.Local ? &C.Local : nullptr);
    // Float arithmetic in the kernel, double here: a few ulps apart.
    expectNear(E.read<float>(DC, N), Want, 1e-4, 1e-6,
               "diffusion " + std::to_string(C.Rows) + "x" +
                   std::to_string(C.Cols));
  }
}
