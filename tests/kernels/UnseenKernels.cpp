//===- UnseenKernels.cpp - Benchmark-suite shapes never tuned on ----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Kernels in the shapes of the suites pocl-iss is judged on and was never
// tuned on (our own code, their shapes):
// - PolyBench/GPU: GEMM, SYRK, SYR2K, MVT, BICG and GESUMMV behind tail
//   guards with a loop over k or j, consecutive in one kernel and strided
//   in the other; JACOBI-2D and FDTD-2D with interior guards and guards on
//   i == 0; COVARIANCE's and CORRELATION's triangular loops and the
//   latter's data-dependent clamp; GRAMSCHMIDT's uniform column k and its
//   `tid == 0` norm; 3DCONV's guard on its loop counter;
// - lud-style triangular guards on both dimensions, lud's diagonal block
//   (`tx > i` between barriers) and internal blocks;
// - the AMD APP SDK: SimpleConvolution (a 2D image on a 1D range, x = gid
//   % width), a separable box filter with clamped reads, a transpose
//   through a local tile, Blelloch and Hillis-Steele scans, a histogram
//   with local and global atomics, FastWalshTransform, BitonicSort,
//   FloydWarshall, DwtHaar1D's strides of two, unsigned clamped windows,
//   Reduction's tree for any group size, uchar4 pixels;
// - Rodinia: Needleman-Wunsch's diagonal blocks, backprop's weight update
//   with its `ty == 0 && by == 0` row, bfs's data-dependent masks, a
//   streamcluster-like gain over a uniform number of dimensions, kmeans'
//   swap, ids computed from the group as the CUDA ports do;
// - Parboil: spmv over a jagged diagonal layout, sgemm's register tile;
// - and edges the suites reach: uchar, short, long and double elements,
//   searches that break out, windows left by break, continue and return,
//   divisions the guards protect, a private array across barriers, ids
//   truncated to int past 2^32, groups of 1000 and 4096, last-group
//   guards, a 3D stencil with guards on all faces, and degenerate sizes.
//
// Each runs with several local sizes (multiples of the vector width and
// not; 1, 7, 16, 24, 33, 64 in 1D; 16x16, 8x4, 5x3, 32x1 in 2D, and 1x16,
// 3x17 where the second dimension is the vectorized one), with problem
// sizes that are not multiples of them (a padded global size and the
// kernel's tail guard) and, on some, with global offsets; results are
// checked against host references, exactly where the data are integers or
// small-integer floats whose sums are exact, with a tolerance elsewhere.
// Every POCL_ISS_MODE must match them (and Debian's pocl does, with
// ISS_TEST_PLATFORM=Portable).
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"
#include "Launches.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

using namespace clt;
using namespace clt::launches;

//===-- PolyBench/GPU -----------------------------------------------------===//

static const char *PolySource = R"CLC(
__kernel void gemm(__global const float *a, __global const float *b,
                   __global float *c, float alpha, float beta, int ni,
                   int nj, int nk) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nj) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

__kernel void syrk(__global const float *a, __global float *c, float alpha,
                   float beta, int n, int m) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < n && j < n) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
  }
}

__kernel void syr2k(__global const float *a, __global const float *b,
                    __global float *c, float alpha, float beta, int n,
                    int m) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < n && j < n) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      c[i * n + j] += alpha * a[i * m + k] * b[j * m + k] +
                      alpha * b[i * m + k] * a[j * m + k];
  }
}

// x1 walks a row (strided across work-items), x2 a column (consecutive).
__kernel void mvt1(__global const float *a, __global float *x1,
                   __global const float *y1, int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; j++)
      x1[i] += a[i * n + j] * y1[j];
}

__kernel void mvt2(__global const float *a, __global float *x2,
                   __global const float *y2, int n) {
  int i = get_global_id(0);
  if (i < n)
    for (int j = 0; j < n; j++)
      x2[i] += a[j * n + i] * y2[j];
}

__kernel void bicg1(__global const float *A, __global const float *r,
                    __global float *s, int nx, int ny) {
  int j = get_global_id(0);
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; i++)
      s[j] += r[i] * A[i * ny + j];
  }
}

__kernel void bicg2(__global const float *A, __global const float *p,
                    __global float *q, int nx, int ny) {
  int i = get_global_id(0);
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++)
      q[i] += A[i * ny + j] * p[j];
  }
}

__kernel void gesummv(__global const float *A, __global const float *B,
                      __global const float *x, __global float *y,
                      __global float *tmp, float alpha, float beta, int n) {
  int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += A[i * n + j] * x[j];
      y[i] += B[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

__kernel void jacobi1(__global const float *A, __global float *B, int n) {
  int i = get_global_id(1), j = get_global_id(0);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    B[i * n + j] = 0.25f * (A[i * n + j] + A[i * n + j - 1] +
                            A[i * n + j + 1] + A[(i + 1) * n + j] +
                            A[(i - 1) * n + j]);
}

__kernel void jacobi2(__global float *A, __global const float *B, int n) {
  int i = get_global_id(1), j = get_global_id(0);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    A[i * n + j] = B[i * n + j];
}

// ey and hz are nx x ny, ex is nx x (ny + 1).
__kernel void fdtd1(__global const float *fict, __global float *ex,
                    __global float *ey, __global const float *hz, int t,
                    int nx, int ny) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < nx && j < ny) {
    if (i == 0)
      ey[i * ny + j] = fict[t];
    else
      ey[i * ny + j] =
          ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__kernel void fdtd2(__global float *ex, __global const float *ey,
                    __global const float *hz, int nx, int ny) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < nx && j < ny && j > 0)
    ex[i * (ny + 1) + j] =
        ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + j - 1]);
}

__kernel void fdtd3(__global const float *ex, __global const float *ey,
                    __global float *hz, int nx, int ny) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] =
        hz[i * ny + j] -
        0.75f * (ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j] +
                 ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

__kernel void covMean(__global float *mean, __global const float *data,
                      float fn, int m, int n) {
  int j = get_global_id(0);
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= fn;
  }
}

__kernel void corrStd(__global const float *mean, __global float *sd,
                      __global const float *data, float fn, float eps, int m,
                      int n) {
  int j = get_global_id(0);
  if (j < m) {
    sd[j] = 0.0f;
    for (int i = 0; i < n; i++)
      sd[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    sd[j] /= fn;
    sd[j] = sqrt(sd[j]);
    if (sd[j] <= eps)
      sd[j] = 1.0f;
  }
}

__kernel void covReduce(__global const float *mean, __global float *data,
                        int m, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < n && j < m)
    data[i * m + j] -= mean[j];
}

// The upper triangle from the diagonal on, mirrored.
__kernel void covar(__global float *sym, __global const float *data, int m,
                    int n) {
  int j1 = get_global_id(0);
  if (j1 < m) {
    for (int j2 = j1; j2 < m; j2++) {
      sym[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; i++)
        sym[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      sym[j2 * m + j1] = sym[j1 * m + j2];
    }
  }
}

// The same in integers, CORRELATION's variant: 1 on the diagonal, the loop
// from j1 + 1, the last column left alone.
__kernel void corrTri(__global int *sym, __global const int *data, int m,
                      int n) {
  int j1 = get_global_id(0);
  if (j1 < m - 1) {
    sym[j1 * m + j1] = 1;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      sym[j1 * m + j2] = 0;
      for (int i = 0; i < n; i++)
        sym[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      sym[j2 * m + j1] = sym[j1 * m + j2];
    }
  }
}

__kernel void gs1(__global const float *a, __global float *r, int k, int m,
                  int n) {
  int tid = get_global_id(0);
  if (tid == 0) {
    float nrm = 0.0f;
    for (int i = 0; i < m; i++)
      nrm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrt(nrm);
  }
}

__kernel void gs2(__global const float *a, __global const float *r,
                  __global float *q, int k, int m, int n) {
  int i = get_global_id(0);
  if (i < m)
    q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__kernel void gs3(__global float *a, __global float *r,
                  __global const float *q, int k, int m, int n) {
  int j = get_global_id(0);
  if (j > k && j < n) {
    r[k * n + j] = 0.0f;
    for (int i = 0; i < m; i++)
      r[k * n + j] += q[i * n + k] * a[i * n + j];
    for (int i = 0; i < m; i++)
      a[i * n + j] -= q[i * n + k] * r[k * n + j];
  }
}

// lud-style: the strict upper part, the diagonal and the lower part of a
// square, the guard on both dimensions.
__kernel void triSplit(__global const int *a, __global int *lo,
                       __global int *up, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < n && y < n) {
    int v = a[y * n + x];
    if (x > y) {
      up[y * n + x] = v;
      lo[y * n + x] = 0;
    } else if (x == y) {
      up[y * n + x] = v;
      lo[y * n + x] = 1;
    } else {
      up[y * n + x] = 0;
      lo[y * n + x] = v;
    }
  }
}

// A lower-triangular product: j <= i, and a loop from j to i.
__kernel void triLower(__global const int *a, __global int *out, int n) {
  int j = get_global_id(0), i = get_global_id(1);
  if (j <= i && i < n) {
    int s = 0;
    for (int k = j; k <= i; k++)
      s += a[i * n + k] * a[k * n + j];
    out[i * n + j] = s;
  }
}
)CLC";

CLT_TEST(polyGemmTailGuard) {
  Program P = E.build(PolySource);
  Kernel K = E.kernel(P, "gemm");
  const int NI = 37, NJ = 45, NK = 19;
  auto A = smallFloats(size_t(NI) * NK, -4, 4, 1);
  auto B = smallFloats(size_t(NK) * NJ, -4, 4, 2);
  auto C0 = smallFloats(size_t(NI) * NJ, -4, 4, 3);
  const float Alpha = 2, Beta = 3;
  Mem DA = E.input(A), DB = E.input(B), DC = E.output<float>(C0.size());
  for (const Launch2D &L : Launches2D) {
    E.write(DC, C0);
    setArgs(K, DA, DB, DC, Alpha, Beta, NI, NJ, NK);
    run2D(E, K, NJ, NI, L);
    std::vector<float> Want = C0;
    for (int I = 0; I < NI; ++I)
      for (int J = 0; J < NJ; ++J) {
        if (!launched(I, NI, L.L1, L.O1) || !launched(J, NJ, L.L0, L.O0))
          continue;
        float &C = Want[I * NJ + J];
        C *= Beta;
        for (int Q = 0; Q < NK; ++Q)
          C += Alpha * A[I * NK + Q] * B[Q * NJ + J];
      }
    expectEqual(E.read<float>(DC, Want.size()), Want, "gemm " + L.str());
  }
}

CLT_TEST(polySyrkSyr2k) {
  Program P = E.build(PolySource);
  Kernel K1 = E.kernel(P, "syrk"), K2 = E.kernel(P, "syr2k");
  const int N = 29, M = 13;
  auto A = smallFloats(size_t(N) * M, -3, 3, 4);
  auto B = smallFloats(size_t(N) * M, -3, 3, 5);
  auto C0 = smallFloats(size_t(N) * N, -3, 3, 6);
  const float Alpha = 2, Beta = -1;
  Mem DA = E.input(A), DB = E.input(B), DC = E.output<float>(C0.size());
  for (const Launch2D &L : FewA2D) {
    for (int Two = 0; Two < 2; ++Two) {
      E.write(DC, C0);
      if (Two)
        setArgs(K2, DA, DB, DC, Alpha, Beta, N, M);
      else
        setArgs(K1, DA, DC, Alpha, Beta, N, M);
      run2D(E, Two ? K2.get() : K1.get(), N, N, L);
      std::vector<float> Want = C0;
      for (int I = 0; I < N; ++I)
        for (int J = 0; J < N; ++J) {
          if (!launched(I, N, L.L1, L.O1) || !launched(J, N, L.L0, L.O0))
            continue;
          float &C = Want[I * N + J];
          C *= Beta;
          for (int Q = 0; Q < M; ++Q)
            C += Two ? Alpha * A[I * M + Q] * B[J * M + Q] +
                           Alpha * B[I * M + Q] * A[J * M + Q]
                     : Alpha * A[I * M + Q] * A[J * M + Q];
        }
      expectEqual(E.read<float>(DC, Want.size()), Want,
                  std::string(Two ? "syr2k " : "syrk ") + L.str());
    }
  }
}

CLT_TEST(polyMatrixVector1D) {
  Program P = E.build(PolySource);
  Kernel Mvt1 = E.kernel(P, "mvt1"), Mvt2 = E.kernel(P, "mvt2"),
         Bicg1 = E.kernel(P, "bicg1"), Bicg2 = E.kernel(P, "bicg2"),
         Gesummv = E.kernel(P, "gesummv");
  const int N = 75, NX = 53, NY = 70;
  auto A = smallFloats(size_t(N) * N, -4, 4, 7);
  auto B = smallFloats(size_t(N) * N, -4, 4, 8);
  auto X = smallFloats(N, -4, 4, 9);
  auto Y = smallFloats(N, -4, 4, 10);
  auto R = smallFloats(NX, -4, 4, 11);
  auto Pv = smallFloats(NY, -4, 4, 12);
  Mem DA = E.input(A), DB = E.input(B), DX = E.input(X), DY = E.input(Y),
      DR = E.input(R), DP = E.input(Pv);
  for (const Launch1D &L : FewA1D) {
    // mvt: both directions, accumulating onto X.
    for (int Dir = 0; Dir < 2; ++Dir) {
      Mem DOut = E.output<float>(N);
      E.write(DOut, X);
      cl_kernel K = Dir ? Mvt2.get() : Mvt1.get();
      setArgs(K, DA, DOut, DY, N);
      run1D(E, K, N, L);
      std::vector<float> Want = X;
      for (int I = 0; I < N; ++I)
        if (launched(I, N, L.L, L.O))
          for (int J = 0; J < N; ++J)
            Want[I] += (Dir ? A[J * N + I] : A[I * N + J]) * Y[J];
      expectEqual(E.read<float>(DOut, N), Want,
                  "mvt" + std::to_string(Dir + 1) + " " + L.str());
    }
    // bicg: A is NX x NY.
    {
      std::vector<float> Init(std::max(NX, NY), 99.0f);
      Mem DS = E.output<float>(Init.size()), DQ = E.output<float>(Init.size());
      E.write(DS, Init);
      E.write(DQ, Init);
      setArgs(Bicg1, DA, DR, DS, NX, NY);
      run1D(E, Bicg1, NY, L);
      setArgs(Bicg2, DA, DP, DQ, NX, NY);
      run1D(E, Bicg2, NX, L);
      std::vector<float> WantS = Init, WantQ = Init;
      for (int J = 0; J < NY; ++J)
        if (launched(J, NY, L.L, L.O)) {
          WantS[J] = 0;
          for (int I = 0; I < NX; ++I)
            WantS[J] += R[I] * A[I * NY + J];
        }
      for (int I = 0; I < NX; ++I)
        if (launched(I, NX, L.L, L.O)) {
          WantQ[I] = 0;
          for (int J = 0; J < NY; ++J)
            WantQ[I] += A[I * NY + J] * Pv[J];
        }
      expectEqual(E.read<float>(DS, Init.size()), WantS, "bicg1 " + L.str());
      expectEqual(E.read<float>(DQ, Init.size()), WantQ, "bicg2 " + L.str());
    }
    // gesummv
    {
      std::vector<float> Zero(N, 0.0f);
      Mem DOut = E.output<float>(N), DTmp = E.output<float>(N);
      E.write(DOut, Zero);
      E.write(DTmp, Zero);
      const float Alpha = 3, Beta = 2;
      setArgs(Gesummv, DA, DB, DX, DOut, DTmp, Alpha, Beta, N);
      run1D(E, Gesummv, N, L);
      std::vector<float> Want(N), WantTmp(N);
      for (int I = 0; I < N; ++I)
        if (launched(I, N, L.L, L.O)) {
          for (int J = 0; J < N; ++J) {
            WantTmp[I] += A[I * N + J] * X[J];
            Want[I] += B[I * N + J] * X[J];
          }
          Want[I] = Alpha * WantTmp[I] + Beta * Want[I];
        }
      expectEqual(E.read<float>(DOut, N), Want, "gesummv y " + L.str());
      expectEqual(E.read<float>(DTmp, N), WantTmp, "gesummv tmp " + L.str());
    }
  }
}

CLT_TEST(polyJacobi2D) {
  Program P = E.build(PolySource);
  Kernel K1 = E.kernel(P, "jacobi1"), K2 = E.kernel(P, "jacobi2");
  for (int N : {34, 21}) {
    // Quarters of small integers: 4 steps stay exact.
    auto A0 = smallFloats(size_t(N) * N, -8, 8, unsigned(N));
    std::vector<float> B0(A0.size(), 0.5f);
    for (const Launch2D &L : FewB2D) {
      Mem DA = E.output<float>(A0.size()), DB = E.output<float>(A0.size());
      E.write(DA, A0);
      E.write(DB, B0);
      std::vector<float> A = A0, B = B0;
      for (int T = 0; T < 4; ++T) {
        setArgs(K1, DA, DB, N);
        run2D(E, K1, N, N, L);
        setArgs(K2, DA, DB, N);
        run2D(E, K2, N, N, L);
        for (int I = 1; I < N - 1; ++I)
          for (int J = 1; J < N - 1; ++J)
            if (launched(I, N, L.L1, L.O1) && launched(J, N, L.L0, L.O0))
              B[I * N + J] =
                  0.25f * (A[I * N + J] + A[I * N + J - 1] + A[I * N + J + 1] +
                           A[(I + 1) * N + J] + A[(I - 1) * N + J]);
        for (int I = 1; I < N - 1; ++I)
          for (int J = 1; J < N - 1; ++J)
            if (launched(I, N, L.L1, L.O1) && launched(J, N, L.L0, L.O0))
              A[I * N + J] = B[I * N + J];
      }
      std::string What = "jacobi2d n=" + std::to_string(N) + " " + L.str();
      expectEqual(E.read<float>(DA, A.size()), A, What + " A");
      expectEqual(E.read<float>(DB, B.size()), B, What + " B");
    }
  }
}

CLT_TEST(polyFdtd2D) {
  Program P = E.build(PolySource);
  Kernel K1 = E.kernel(P, "fdtd1"), K2 = E.kernel(P, "fdtd2"),
         K3 = E.kernel(P, "fdtd3");
  const int NX = 27, NY = 35, T = 3;
  auto Fict = smallFloats(T, -4, 4, 20);
  auto Ex0 = smallFloats(size_t(NX) * (NY + 1), -4, 4, 21);
  auto Ey0 = smallFloats(size_t(NX) * NY, -4, 4, 22);
  auto Hz0 = smallFloats(size_t(NX) * NY, -4, 4, 23);
  Mem DF = E.input(Fict);
  for (const Launch2D &L : FewA2D) {
    Mem DEx = E.output<float>(Ex0.size()), DEy = E.output<float>(Ey0.size()),
        DHz = E.output<float>(Hz0.size());
    E.write(DEx, Ex0);
    E.write(DEy, Ey0);
    E.write(DHz, Hz0);
    std::vector<float> Ex = Ex0, Ey = Ey0, Hz = Hz0;
    auto In = [&](int I, int J) {
      return launched(I, NX, L.L1, L.O1) && launched(J, NY, L.L0, L.O0);
    };
    for (int S = 0; S < T; ++S) {
      setArgs(K1, DF, DEx, DEy, DHz, S, NX, NY);
      run2D(E, K1, NY, NX, L);
      setArgs(K2, DEx, DEy, DHz, NX, NY);
      run2D(E, K2, NY, NX, L);
      setArgs(K3, DEx, DEy, DHz, NX, NY);
      run2D(E, K3, NY, NX, L);
      for (int I = 0; I < NX; ++I)
        for (int J = 0; J < NY; ++J)
          if (In(I, J))
            Ey[I * NY + J] =
                I == 0 ? Fict[S]
                       : Ey[I * NY + J] -
                             0.5f * (Hz[I * NY + J] - Hz[(I - 1) * NY + J]);
      for (int I = 0; I < NX; ++I)
        for (int J = 1; J < NY; ++J)
          if (In(I, J))
            Ex[I * (NY + 1) + J] = Ex[I * (NY + 1) + J] -
                                   0.5f * (Hz[I * NY + J] - Hz[I * NY + J - 1]);
      for (int I = 0; I < NX - 1; ++I)
        for (int J = 0; J < NY - 1; ++J)
          if (In(I, J))
            Hz[I * NY + J] =
                Hz[I * NY + J] -
                0.75f * (Ex[I * (NY + 1) + J + 1] - Ex[I * (NY + 1) + J] +
                         Ey[(I + 1) * NY + J] - Ey[I * NY + J]);
    }
    expectEqual(E.read<float>(DEx, Ex.size()), Ex, "fdtd ex " + L.str());
    expectEqual(E.read<float>(DEy, Ey.size()), Ey, "fdtd ey " + L.str());
    expectEqual(E.read<float>(DHz, Hz.size()), Hz, "fdtd hz " + L.str());
  }
}

CLT_TEST(polyCovarianceTriangular) {
  Program P = E.build(PolySource);
  Kernel KMean = E.kernel(P, "covMean"), KStd = E.kernel(P, "corrStd"),
         KRed = E.kernel(P, "covReduce"), KCov = E.kernel(P, "covar");
  const int M = 43, N = 31; // M columns, N rows
  auto Data0 = smallFloats(size_t(N) * M, -5, 5, 30);
  // Constant columns: their deviation is 0, which CORRELATION clamps to 1.
  for (int I = 0; I < N; ++I)
    for (int J : {0, 17, 42})
      Data0[I * M + J] = 2.0f;
  const float Fn = float(N), Eps = 0.1f;
  for (const Launch1D &L1 : FewA1D) {
    if (L1.O)
      continue; // the 2D reduce takes the whole matrix
    const Launch2D L2 = L1.L == 24 ? FewB2D[0] : Launches2D[2];
    Mem DData = E.output<float>(Data0.size()), DMean = E.output<float>(M),
        DStd = E.output<float>(M), DSym = E.output<float>(size_t(M) * M);
    E.write(DData, Data0);
    std::vector<float> Minus(size_t(M) * M, -1.0f);
    E.write(DSym, Minus);
    setArgs(KMean, DMean, DData, Fn, M, N);
    run1D(E, KMean, M, L1);
    setArgs(KStd, DMean, DStd, DData, Fn, Eps, M, N);
    run1D(E, KStd, M, L1);
    setArgs(KRed, DMean, DData, M, N);
    run2D(E, KRed, M, N, L2);
    setArgs(KCov, DSym, DData, M, N);
    run1D(E, KCov, M, L1);
    std::vector<double> Mean(M), Sd(M);
    std::vector<float> WantMean(M), WantStd(M), Data = Data0;
    for (int J = 0; J < M; ++J) {
      for (int I = 0; I < N; ++I)
        Mean[J] += Data0[I * M + J];
      Mean[J] /= N;
      WantMean[J] = float(Mean[J]);
      for (int I = 0; I < N; ++I)
        Sd[J] += (Data0[I * M + J] - Mean[J]) * (Data0[I * M + J] - Mean[J]);
      Sd[J] = std::sqrt(Sd[J] / N);
      WantStd[J] = Sd[J] <= Eps ? 1.0f : float(Sd[J]);
      for (int I = 0; I < N; ++I)
        Data[I * M + J] = float(Data0[I * M + J] - Mean[J]);
    }
    std::vector<float> Sym(size_t(M) * M);
    for (int J1 = 0; J1 < M; ++J1)
      for (int J2 = J1; J2 < M; ++J2) {
        double S = 0;
        for (int I = 0; I < N; ++I)
          S += double(Data0[I * M + J1] - Mean[J1]) *
               (Data0[I * M + J2] - Mean[J2]);
        Sym[J1 * M + J2] = Sym[J2 * M + J1] = float(S);
      }
    std::string What = "covariance " + L1.str() + " / " + L2.str();
    expectNear(E.read<float>(DMean, M), WantMean, 1e-5, 1e-5, What + " mean");
    expectNear(E.read<float>(DStd, M), WantStd, 1e-4, 1e-5, What + " stddev");
    expectNear(E.read<float>(DData, Data.size()), Data, 1e-5, 1e-5,
               What + " centred");
    expectNear(E.read<float>(DSym, Sym.size()), Sym, 1e-4, 1e-3,
               What + " symmat");
  }
}

CLT_TEST(polyCorrelationTriangularInt) {
  Program P = E.build(PolySource);
  Kernel K = E.kernel(P, "corrTri");
  for (int M : {40, 17, 64}) {
    const int N = 23;
    auto Data = randomVector<int>(size_t(N) * M, -20, 20, unsigned(M));
    Mem DData = E.input(Data);
    for (const Launch1D &L : FewA1D) {
      std::vector<int> Init(size_t(M) * M, -7);
      Mem DSym = E.output<int>(Init.size());
      E.write(DSym, Init);
      setArgs(K, DSym, DData, M, N);
      run1D(E, K, M, L);
      std::vector<int> Want = Init;
      for (int J1 = 0; J1 < M - 1; ++J1) {
        if (!launched(J1, M, L.L, L.O))
          continue;
        Want[J1 * M + J1] = 1;
        for (int J2 = J1 + 1; J2 < M; ++J2) {
          int S = 0;
          for (int I = 0; I < N; ++I)
            S += Data[I * M + J1] * Data[I * M + J2];
          Want[J1 * M + J2] = Want[J2 * M + J1] = S;
        }
      }
      expectEqual(E.read<int>(DSym, Want.size()), Want,
                  "corrTri m=" + std::to_string(M) + " " + L.str());
    }
  }
}

CLT_TEST(polyGramSchmidtUniformK) {
  Program P = E.build(PolySource);
  Kernel K1 = E.kernel(P, "gs1"), K2 = E.kernel(P, "gs2"),
         K3 = E.kernel(P, "gs3");
  const int M = 45, N = 21; // M rows, N columns
  auto A0 = randomVector<float>(size_t(M) * N, -1.f, 1.f, 40);
  for (const Launch1D &L : FewA1D) {
    if (L.O)
      continue; // gs1's tid == 0 must be launched
    Mem DA = E.output<float>(A0.size()), DR = E.output<float>(size_t(N) * N),
        DQ = E.output<float>(size_t(M) * N);
    std::vector<float> Zero(size_t(M) * N, 0.0f);
    E.write(DA, A0);
    E.write(DR, std::vector<float>(size_t(N) * N, 0.0f));
    E.write(DQ, Zero);
    for (int Kc = 0; Kc < N; ++Kc) {
      setArgs(K1, DA, DR, Kc, M, N);
      run1D(E, K1, 1, L);
      setArgs(K2, DA, DR, DQ, Kc, M, N);
      run1D(E, K2, M, L);
      setArgs(K3, DA, DR, DQ, Kc, M, N);
      run1D(E, K3, N, L);
    }
    std::vector<double> A(A0.begin(), A0.end()), R(size_t(N) * N),
        Q(size_t(M) * N);
    for (int Kc = 0; Kc < N; ++Kc) {
      double Nrm = 0;
      for (int I = 0; I < M; ++I)
        Nrm += A[I * N + Kc] * A[I * N + Kc];
      R[Kc * N + Kc] = std::sqrt(Nrm);
      for (int I = 0; I < M; ++I)
        Q[I * N + Kc] = A[I * N + Kc] / R[Kc * N + Kc];
      for (int J = Kc + 1; J < N; ++J) {
        for (int I = 0; I < M; ++I)
          R[Kc * N + J] += Q[I * N + Kc] * A[I * N + J];
        for (int I = 0; I < M; ++I)
          A[I * N + J] -= Q[I * N + Kc] * R[Kc * N + J];
      }
    }
    expectNear(E.read<float>(DQ, Q.size()),
               std::vector<float>(Q.begin(), Q.end()), 1e-3, 1e-4,
               "gramschmidt q " + L.str());
    expectNear(E.read<float>(DR, R.size()),
               std::vector<float>(R.begin(), R.end()), 1e-3, 1e-4,
               "gramschmidt r " + L.str());
  }
}

CLT_TEST(triangularGuards2D) {
  Program P = E.build(PolySource);
  Kernel KSplit = E.kernel(P, "triSplit"), KLow = E.kernel(P, "triLower");
  for (int N : {48, 37}) {
    auto A = randomVector<int>(size_t(N) * N, -9, 9, unsigned(N) + 50);
    Mem DA = E.input(A);
    for (const Launch2D &L : FewB2D) {
      std::vector<int> Init(A.size(), 12345);
      Mem DLo = E.output<int>(A.size()), DUp = E.output<int>(A.size()),
          DOut = E.output<int>(A.size());
      E.write(DLo, Init);
      E.write(DUp, Init);
      E.write(DOut, Init);
      setArgs(KSplit, DA, DLo, DUp, N);
      run2D(E, KSplit, N, N, L);
      setArgs(KLow, DA, DOut, N);
      run2D(E, KLow, N, N, L);
      std::vector<int> Lo = Init, Up = Init, Out = Init;
      for (int Y = 0; Y < N; ++Y)
        for (int X = 0; X < N; ++X) {
          if (!launched(X, N, L.L0, L.O0) || !launched(Y, N, L.L1, L.O1))
            continue;
          int V = A[Y * N + X];
          Up[Y * N + X] = X >= Y ? V : 0;
          Lo[Y * N + X] = X > Y ? 0 : X == Y ? 1 : V;
          // triLower: j = X, i = Y.
          if (X <= Y) {
            int S = 0;
            for (int Q = X; Q <= Y; ++Q)
              S += A[Y * N + Q] * A[Q * N + X];
            Out[Y * N + X] = S;
          }
        }
      std::string What = "n=" + std::to_string(N) + " " + L.str();
      expectEqual(E.read<int>(DLo, Lo.size()), Lo, "triSplit lo " + What);
      expectEqual(E.read<int>(DUp, Up.size()), Up, "triSplit up " + What);
      expectEqual(E.read<int>(DOut, Out.size()), Out, "triLower " + What);
    }
  }
}

//===-- AMD APP SDK -------------------------------------------------------===//

static const char *AmdSource = R"CLC(
// A 2D image on a 1D range, the mask applied where it fits, the border
// copied.
__kernel void simpleConv(__global const uint *in, __global const float *mask,
                         __global uint *out, uint width, uint height,
                         uint mw, uint mh) {
  uint tid = get_global_id(0);
  if (tid >= width * height)
    return;
  uint x = tid % width, y = tid / width;
  uint rx = (mw - 1) / 2, ry = (mh - 1) / 2;
  if (x >= rx && x < width - rx && y >= ry && y < height - ry) {
    float s = 0.0f;
    for (uint j = 0; j < mh; j++)
      for (uint i = 0; i < mw; i++)
        s += mask[j * mw + i] * (float)in[(y - ry + j) * width + x - rx + i];
    out[tid] = (uint)(s + 0.5f);
  } else {
    out[tid] = in[tid];
  }
}

// The two passes of a separable box filter, reads clamped to the image.
__kernel void boxH(__global const uint *in, __global uint *out, int w, int h,
                   int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uint s = 0;
  for (int i = -r; i <= r; i++)
    s += in[y * w + clamp(x + i, 0, w - 1)];
  out[y * w + x] = s / (2 * r + 1);
}

__kernel void boxV(__global const uint *in, __global uint *out, int w, int h,
                   int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uint s = 0;
  for (int i = -r; i <= r; i++)
    s += in[clamp(y + i, 0, h - 1) * w + x];
  out[y * w + x] = s;
}

// A square tile through local memory; guards for sizes that are not
// multiples of the tile.
__kernel void transposeTile(__global float *out, __global const float *in,
                            __local float *tile, int width, int height) {
  int lx = get_local_id(0), ly = get_local_id(1);
  int bs = get_local_size(0);
  int gx = get_group_id(0), gy = get_group_id(1);
  int ix = gx * bs + lx, iy = gy * bs + ly;
  if (ix < width && iy < height)
    tile[ly * bs + lx] = in[iy * width + ix];
  barrier(CLK_LOCAL_MEM_FENCE);
  int ox = gy * bs + lx, oy = gx * bs + ly;
  if (ox < height && oy < width)
    out[oy * height + ox] = tile[lx * bs + ly];
}

// An exclusive scan of 2 * local size elements per group, Blelloch's up
// and down sweeps; the group's total to sums.
__kernel void blelloch(__global const int *in, __global int *out,
                       __global int *sums, __local int *t, int n) {
  int lid = get_local_id(0), ls = get_local_size(0);
  int m = 2 * ls;
  int base = get_group_id(0) * m;
  t[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0;
  t[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0;
  int offset = 1;
  for (int d = ls; d > 0; d >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      t[bi] += t[ai];
    }
    offset *= 2;
  }
  if (lid == 0) {
    sums[get_group_id(0)] = t[m - 1];
    t[m - 1] = 0;
  }
  for (int d = 1; d < m; d *= 2) {
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
      int v = t[ai];
      t[ai] = t[bi];
      t[bi] += v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (base + 2 * lid < n)
    out[base + 2 * lid] = t[2 * lid];
  if (base + 2 * lid + 1 < n)
    out[base + 2 * lid + 1] = t[2 * lid + 1];
}

// An inclusive scan per group for any local size, double-buffered.
__kernel void hillisSteele(__global const int *in, __global int *out,
                           __local int *a, __local int *b, int n) {
  int lid = get_local_id(0), ls = get_local_size(0);
  int gid = get_global_id(0) - get_global_offset(0);
  a[lid] = gid < n ? in[gid] : 0;
  for (int off = 1; off < ls; off *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    b[lid] = lid >= off ? a[lid] + a[lid - off] : a[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[lid] = b[lid];
  }
  if (gid < n)
    out[gid] = a[lid];
}

#define BINS 256
__kernel void histogram(__global const uint *data, __global uint *hist,
                        uint n) {
  __local uint lh[BINS];
  uint lid = get_local_id(0), ls = get_local_size(0);
  for (uint i = lid; i < BINS; i += ls)
    lh[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint g = get_global_id(0) - get_global_offset(0);
  uint gs = get_global_size(0);
  for (uint i = g; i < n; i += gs)
    atomic_inc(&lh[data[i] % BINS]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = lid; i < BINS; i += ls)
    if (lh[i])
      atomic_add(&hist[i], lh[i]);
}
)CLC";

CLT_TEST(amdSimpleConvolution1DIndexed) {
  Program P = E.build(AmdSource);
  Kernel K = E.kernel(P, "simpleConv");
  struct Case {
    cl_uint W, H, MW, MH;
  };
  for (Case C : {Case{64, 20, 3, 3}, Case{37, 23, 5, 3}, Case{50, 9, 1, 7}}) {
    size_t N = size_t(C.W) * C.H;
    auto In = randomVector<cl_uint>(N, 0, 255, C.W + C.MW);
    auto MaskI = randomVector<int>(size_t(C.MW) * C.MH, 0, 3, C.H);
    std::vector<float> Mask(MaskI.begin(), MaskI.end());
    std::vector<cl_uint> Want(N);
    cl_uint RX = (C.MW - 1) / 2, RY = (C.MH - 1) / 2;
    for (cl_uint Y = 0; Y < C.H; ++Y)
      for (cl_uint X = 0; X < C.W; ++X) {
        cl_uint T = Y * C.W + X;
        if (X >= RX && X < C.W - RX && Y >= RY && Y < C.H - RY) {
          float S = 0;
          for (cl_uint J = 0; J < C.MH; ++J)
            for (cl_uint I = 0; I < C.MW; ++I)
              S += Mask[J * C.MW + I] *
                   float(In[(Y - RY + J) * C.W + X - RX + I]);
          Want[T] = cl_uint(S + 0.5f);
        } else {
          Want[T] = In[T];
        }
      }
    Mem DIn = E.input(In), DMask = E.input(Mask), DOut = E.output<cl_uint>(N);
    for (const Launch1D &L : FewA1D) {
      if (L.O)
        continue; // tid indexes the image
      setArgs(K, DIn, DMask, DOut, C.W, C.H, C.MW, C.MH);
      run1D(E, K, N, L);
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "simpleConv " + std::to_string(C.W) + "x" +
                      std::to_string(C.H) + " mask " + std::to_string(C.MW) +
                      "x" + std::to_string(C.MH) + " " + L.str());
    }
  }
}

CLT_TEST(amdSeparableBoxFilter) {
  Program P = E.build(AmdSource);
  Kernel KH = E.kernel(P, "boxH"), KV = E.kernel(P, "boxV");
  const int W = 53, H = 41;
  auto In = randomVector<cl_uint>(size_t(W) * H, 0, 255, 60);
  Mem DIn = E.input(In), DMid = E.output<cl_uint>(In.size()),
      DOut = E.output<cl_uint>(In.size());
  for (int R : {1, 3, 8}) {
    std::vector<cl_uint> Mid(In.size()), Out(In.size());
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        cl_uint S = 0;
        for (int I = -R; I <= R; ++I)
          S += In[Y * W + std::clamp(X + I, 0, W - 1)];
        Mid[Y * W + X] = S / cl_uint(2 * R + 1);
      }
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        for (int I = -R; I <= R; ++I)
          Out[Y * W + X] += Mid[std::clamp(Y + I, 0, H - 1) * W + X];
    for (const Launch2D &L : FewA2D) {
      if (L.O0 || L.O1)
        continue; // the ids index the image
      setArgs(KH, DIn, DMid, W, H, R);
      run2D(E, KH, W, H, L);
      setArgs(KV, DMid, DOut, W, H, R);
      run2D(E, KV, W, H, L);
      std::string What = "r=" + std::to_string(R) + " " + L.str();
      expectEqual(E.read<cl_uint>(DMid, Mid.size()), Mid, "boxH " + What);
      expectEqual(E.read<cl_uint>(DOut, Out.size()), Out, "boxV " + What);
    }
  }
}

CLT_TEST(amdTransposeLocalTile) {
  Program P = E.build(AmdSource);
  Kernel K = E.kernel(P, "transposeTile");
  struct Case {
    int W, H;
    size_t B, O;
  };
  for (Case C : {Case{64, 48, 16, 0}, Case{45, 30, 16, 3}, Case{20, 35, 5, 0},
                 Case{33, 17, 8, 1}}) {
    auto In = randomVector<float>(size_t(C.W) * C.H, -100.f, 100.f,
                                  unsigned(C.W * C.H));
    Mem DIn = E.input(In), DOut = E.output<float>(In.size());
    setArgs(K, DOut, DIn, LocalMem{C.B * C.B * sizeof(float)}, C.W, C.H);
    size_t Global[2] = {roundUp(C.W, C.B), roundUp(C.H, C.B)};
    size_t Local[2] = {C.B, C.B}, Offset[2] = {C.O, 2 * C.O};
    E.run(K, 2, Global, Local, Offset);
    std::vector<float> Want(In.size());
    for (int Y = 0; Y < C.H; ++Y)
      for (int X = 0; X < C.W; ++X)
        Want[X * C.H + Y] = In[Y * C.W + X];
    expectEqual(E.read<float>(DOut, Want.size()), Want,
                "transpose " + std::to_string(C.W) + "x" + std::to_string(C.H) +
                    " block " + std::to_string(C.B) + " offset " +
                    std::to_string(C.O));
  }
}

CLT_TEST(amdBlellochScan) {
  Program P = E.build(AmdSource);
  Kernel K = E.kernel(P, "blelloch");
  for (size_t L : {2u, 16u, 64u}) {
    const int N = 1000;
    auto In = randomVector<int>(N, -50, 50, unsigned(L));
    size_t M = 2 * L, Groups = (N + M - 1) / M;
    Mem DIn = E.input(In), DOut = E.output<int>(N),
        DSums = E.output<int>(Groups);
    setArgs(K, DIn, DOut, DSums, LocalMem{M * sizeof(int)}, N);
    size_t Global = Groups * L;
    E.run(K, 1, &Global, &L);
    std::vector<int> Want(N), WantSums(Groups);
    for (size_t G = 0; G < Groups; ++G) {
      int S = 0;
      for (size_t I = G * M; I < std::min(size_t(N), (G + 1) * M); ++I) {
        Want[I] = S;
        S += In[I];
      }
      WantSums[G] = S;
    }
    expectEqual(E.read<int>(DOut, N), Want,
                "blelloch local " + std::to_string(L));
    expectEqual(E.read<int>(DSums, Groups), WantSums,
                "blelloch sums local " + std::to_string(L));
  }
}

CLT_TEST(amdHillisSteeleScan) {
  Program P = E.build(AmdSource);
  Kernel K = E.kernel(P, "hillisSteele");
  const int N = 777;
  auto In = randomVector<int>(N, -50, 50, 61);
  Mem DIn = E.input(In);
  for (const Launch1D &L : FewB1D) {
    Mem DOut = E.output<int>(N);
    setArgs(K, DIn, DOut, LocalMem{L.L * sizeof(int)},
            LocalMem{L.L * sizeof(int)}, N);
    run1D(E, K, N, L);
    std::vector<int> Want(N);
    for (int I = 0; I < N; ++I)
      Want[I] = In[I] + (I % int(L.L) ? Want[I - 1] : 0);
    expectEqual(E.read<int>(DOut, N), Want, "hillisSteele " + L.str());
  }
}

CLT_TEST(amdHistogramAtomics) {
  Program P = E.build(AmdSource);
  Kernel K = E.kernel(P, "histogram");
  const cl_uint N = 5000;
  auto Data = randomVector<cl_uint>(N, 0, 100000, 62);
  // A few hot bins.
  for (cl_uint I = 0; I < N; I += 3)
    Data[I] = 7 + 256 * (I % 5);
  std::vector<cl_uint> Want(256);
  for (cl_uint V : Data)
    ++Want[V % 256];
  Mem DData = E.input(Data);
  for (const Launch1D &L : Launches1D) {
    Mem DHist = E.output<cl_uint>(256);
    E.write(DHist, std::vector<cl_uint>(256, 0));
    setArgs(K, DData, DHist, N);
    // Fewer work-items than data: each walks the data by the global size.
    size_t Global = roundUp(700, L.L), Offset = L.O;
    E.run(K, 1, &Global, &L.L, &Offset);
    expectEqual(E.read<cl_uint>(DHist, 256), Want, "histogram " + L.str());
  }
}

//===-- Rodinia -----------------------------------------------------------===//

static const char *NwSource = R"CLC(
int max3(int a, int b, int c) { return max(max(a, b), c); }

// One block of BLOCK x BLOCK cells per group, on a diagonal of blocks: the
// group's block is (bx0 + g, by0 - g). score and ref are (n+1) x (n+1),
// cols = n + 1; the first row and column of score are the borders.
__kernel void nwBlock(__global const int *ref, __global int *score, int cols,
                      int penalty, int bx0, int by0) {
  __local int temp[BLOCK + 1][BLOCK + 1];
  __local int rf[BLOCK][BLOCK];
  int g = get_group_id(0), tx = get_local_id(0);
  int bx = bx0 + g, by = by0 - g;
  int nw = cols * BLOCK * by + BLOCK * bx;
  int index = nw + tx + cols + 1;
  int indexN = nw + tx + 1;
  int indexW = nw + cols;
  if (tx == 0)
    temp[0][0] = score[nw];
  for (int ty = 0; ty < BLOCK; ty++)
    rf[ty][tx] = ref[index + cols * ty];
  barrier(CLK_LOCAL_MEM_FENCE);
  temp[tx + 1][0] = score[indexW + cols * tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  temp[0][tx + 1] = score[indexN];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = 0; m < BLOCK; m++) {
    if (tx <= m) {
      int x = tx + 1, y = m - tx + 1;
      temp[y][x] = max3(temp[y - 1][x - 1] + rf[y - 1][x - 1],
                        temp[y][x - 1] - penalty, temp[y - 1][x] - penalty);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int m = BLOCK - 2; m >= 0; m--) {
    if (tx <= m) {
      int x = tx + BLOCK - m, y = BLOCK - tx;
      temp[y][x] = max3(temp[y - 1][x - 1] + rf[y - 1][x - 1],
                        temp[y][x - 1] - penalty, temp[y - 1][x] - penalty);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int ty = 0; ty < BLOCK; ty++)
    score[index + ty * cols] = temp[ty + 1][tx + 1];
}
)CLC";

static const char *RodiniaSource = R"CLC(
// One group spans the hid columns; rows of `get_local_size(1)` per group.
__kernel void adjustWeights(__global const float *delta, int hid,
                            __global const float *ly, __global float *w,
                            __global float *oldw) {
  int by = get_group_id(1);
  int tx = get_local_id(0), ty = get_local_id(1);
  int h = get_local_size(1);
  int index = (hid + 1) * h * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int indexY = h * by + ty + 1;
  int indexX = tx + 1;
  w[index] += 0.25f * delta[indexX] * ly[indexY] + 0.5f * oldw[index];
  oldw[index] = 0.25f * delta[indexX] * ly[indexY] + 0.5f * oldw[index];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ty == 0 && by == 0) {
    w[indexX] += 0.25f * delta[indexX] + 0.5f * oldw[indexX];
    oldw[indexX] = 0.25f * delta[indexX] + 0.5f * oldw[indexX];
  }
}

__kernel void bfs1(__global const int *start, __global const int *degree,
                   __global const int *edges, __global char *mask,
                   __global char *updating, __global const char *visited,
                   __global int *cost, int n) {
  int tid = get_global_id(0);
  if (tid < n && mask[tid]) {
    mask[tid] = 0;
    for (int i = start[tid]; i < start[tid] + degree[tid]; i++) {
      int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = 1;
      }
    }
  }
}

__kernel void bfs2(__global char *mask, __global char *updating,
                   __global char *visited, __global int *over, int n) {
  int tid = get_global_id(0);
  if (tid < n && updating[tid]) {
    mask[tid] = 1;
    visited[tid] = 1;
    *over = 1;
    updating[tid] = 0;
  }
}

// The gain of opening a centre at point x, over a uniform number of
// dimensions; each point owns a row of k + 1 counters in work.
__kernel void pgain(__global const int *coord, __global const int *weight,
                    __global const int *assign, __global const int *cost,
                    __global const int *table, __global int *sw,
                    __global int *work, int num, int dim, int x, int k) {
  int tid = get_global_id(0);
  if (tid < num) {
    int s = 0;
    for (int i = 0; i < dim; i++) {
      int d = coord[i * num + tid] - coord[i * num + x];
      s += d * d;
    }
    int xc = s * weight[tid];
    int cur = cost[tid];
    if (xc < cur) {
      sw[tid] = 1;
      work[tid * (k + 1) + k] += xc - cur;
    } else {
      work[tid * (k + 1) + table[assign[tid]]] += cur - xc;
    }
  }
}
)CLC";

CLT_TEST(rodiniaNeedlemanWunsch) {
  for (int B : {16, 7, 33}) {
    Program P = E.build(NwSource, "-DBLOCK=" + std::to_string(B));
    Kernel K = E.kernel(P, "nwBlock");
    const int NB = B > 16 ? 3 : B == 1 ? 20 : 5;
    const int N = B * NB, Cols = N + 1, Penalty = 10;
    auto Ref = randomVector<int>(size_t(Cols) * Cols, -10, 10, unsigned(B));
    std::vector<int> Score(size_t(Cols) * Cols, 0);
    for (int I = 0; I < Cols; ++I) {
      Score[size_t(I) * Cols] = -I * Penalty;
      Score[I] = -I * Penalty;
    }
    std::vector<int> Want = Score;
    for (int I = 1; I < Cols; ++I)
      for (int J = 1; J < Cols; ++J)
        Want[I * Cols + J] =
            std::max({Want[(I - 1) * Cols + J - 1] + Ref[I * Cols + J],
                      Want[I * Cols + J - 1] - Penalty,
                      Want[(I - 1) * Cols + J] - Penalty});
    Mem DRef = E.input(Ref), DScore = inout(E, Score);
    size_t Local = size_t(B);
    for (int Blk = 1; Blk <= NB; ++Blk) {
      setArgs(K, DRef, DScore, Cols, Penalty, 0, Blk - 1);
      size_t Global = size_t(Blk) * B;
      E.run(K, 1, &Global, &Local);
    }
    for (int Blk = NB - 1; Blk >= 1; --Blk) {
      setArgs(K, DRef, DScore, Cols, Penalty, NB - Blk, NB - 1);
      size_t Global = size_t(Blk) * B;
      E.run(K, 1, &Global, &Local);
    }
    expectEqual(E.read<int>(DScore, Want.size()), Want,
                "nw block " + std::to_string(B));
  }
}

CLT_TEST(rodiniaBackpropAdjustWeights) {
  Program P = E.build(RodiniaSource);
  Kernel K = E.kernel(P, "adjustWeights");
  for (const Launch2D &L : Launches2D) {
    if (L.O0 || L.O1)
      continue; // the kernel reads group and local ids only
    const int Hid = int(L.L0), Groups = 3, In = int(L.L1) * Groups;
    size_t Size = size_t(In + 1) * (Hid + 1);
    auto Delta = smallFloats(Hid + 1, -4, 4, 70);
    auto Ly = smallFloats(In + 1, -4, 4, 71);
    auto W0 = smallFloats(Size, -4, 4, 72);
    auto Old0 = smallFloats(Size, -4, 4, 73);
    Mem DDelta = E.input(Delta), DLy = E.input(Ly), DW = inout(E, W0),
        DOld = inout(E, Old0);
    setArgs(K, DDelta, Hid, DLy, DW, DOld);
    size_t Global[2] = {L.L0, L.L1 * Groups}, Local[2] = {L.L0, L.L1};
    E.run(K, 2, Global, Local);
    std::vector<float> W = W0, Old = Old0;
    for (int Y = 0; Y < In; ++Y)
      for (int X = 0; X < Hid; ++X) {
        int Index = (Hid + 1) * (Y + 1) + X + 1;
        float U = 0.25f * Delta[X + 1] * Ly[Y + 1] + 0.5f * Old[Index];
        W[Index] += U;
        Old[Index] = U;
      }
    for (int X = 0; X < Hid; ++X) {
      float U = 0.25f * Delta[X + 1] + 0.5f * Old[X + 1];
      W[X + 1] += U;
      Old[X + 1] = U;
    }
    expectEqual(E.read<float>(DW, Size), W, "adjustWeights w " + L.str());
    expectEqual(E.read<float>(DOld, Size), Old,
                "adjustWeights oldw " + L.str());
  }
}

CLT_TEST(rodiniaBfsMasks) {
  Program P = E.build(RodiniaSource);
  Kernel K1 = E.kernel(P, "bfs1"), K2 = E.kernel(P, "bfs2");
  const int N = 901;
  std::mt19937 Gen(80);
  std::vector<int> Start(N), Degree(N), Edges;
  for (int I = 0; I < N; ++I) {
    Start[I] = int(Edges.size());
    Degree[I] = int(Gen() % 5);
    for (int D = 0; D < Degree[I]; ++D)
      Edges.push_back(int(Gen() % N));
  }
  // The host's levels.
  std::vector<int> Want(N, -1);
  std::vector<int> Front = {0};
  Want[0] = 0;
  while (!Front.empty()) {
    std::vector<int> Next;
    for (int U : Front)
      for (int I = Start[U]; I < Start[U] + Degree[U]; ++I)
        if (Want[Edges[I]] < 0) {
          Want[Edges[I]] = Want[U] + 1;
          Next.push_back(Edges[I]);
        }
    Front = Next;
  }
  Mem DStart = E.input(Start), DDeg = E.input(Degree), DEdges = E.input(Edges);
  for (const Launch1D &L : FewB1D) {
    if (L.O)
      continue; // tid names the node
    std::vector<char> Mask(N, 0), Visited(N, 0), Upd(N, 0);
    Mask[0] = Visited[0] = 1;
    std::vector<int> Cost(N, -1);
    Cost[0] = 0;
    Mem DMask = inout(E, Mask), DUpd = inout(E, Upd), DVis = inout(E, Visited),
        DCost = inout(E, Cost), DOver = E.output<int>(1);
    int Levels = 0;
    for (;; ++Levels) {
      CLT_EXPECT_MSG(Levels <= N, "bfs does not stop, " + L.str());
      E.write(DOver, std::vector<int>{0});
      setArgs(K1, DStart, DDeg, DEdges, DMask, DUpd, DVis, DCost, N);
      run1D(E, K1, N, L);
      setArgs(K2, DMask, DUpd, DVis, DOver, N);
      run1D(E, K2, N, L);
      if (!E.read<int>(DOver, 1)[0])
        break;
    }
    expectEqual(E.read<int>(DCost, N), Want, "bfs cost " + L.str());
  }
}

CLT_TEST(rodiniaStreamclusterGain) {
  Program P = E.build(RodiniaSource);
  Kernel K = E.kernel(P, "pgain");
  const int Num = 333, K1 = 6;
  for (int Dim : {1, 5, 16}) {
    auto Coord = randomVector<int>(size_t(Dim) * Num, -20, 20, unsigned(Dim));
    auto Weight = randomVector<int>(Num, 1, 3, 81);
    auto Assign = randomVector<int>(Num, 0, 9, 82);
    auto Cost = randomVector<int>(Num, 0, 800 * Dim, 83);
    auto Table = randomVector<int>(10, 0, K1 - 1, 84);
    auto Work0 = randomVector<int>(size_t(Num) * (K1 + 1), -5, 5, 85);
    Mem DC = E.input(Coord), DW = E.input(Weight), DA = E.input(Assign),
        DCost = E.input(Cost), DT = E.input(Table);
    for (const Launch1D &L : FewA1D) {
      const int X = (Dim * 37 + int(L.L)) % Num;
      std::vector<int> Sw(Num, 0), Work = Work0;
      Mem DSw = inout(E, Sw), DWork = inout(E, Work0);
      setArgs(K, DC, DW, DA, DCost, DT, DSw, DWork, Num, Dim, X, K1);
      run1D(E, K, Num, L);
      for (int T = 0; T < Num; ++T) {
        if (!launched(T, Num, L.L, L.O))
          continue;
        int S = 0;
        for (int I = 0; I < Dim; ++I) {
          int D = Coord[I * Num + T] - Coord[I * Num + X];
          S += D * D;
        }
        int Xc = S * Weight[T];
        if (Xc < Cost[T]) {
          Sw[T] = 1;
          Work[T * (K1 + 1) + K1] += Xc - Cost[T];
        } else {
          Work[T * (K1 + 1) + Table[Assign[T]]] += Cost[T] - Xc;
        }
      }
      std::string What = "dim=" + std::to_string(Dim) + " " + L.str();
      expectEqual(E.read<int>(DSw, Num), Sw, "pgain switch " + What);
      expectEqual(E.read<int>(DWork, Work.size()), Work, "pgain work " + What);
    }
  }
}

//===-- More shapes: the second dimension, divisions by a step, JDS -------===//

static const char *MoreSource = R"CLC(
// AMD's FastWalshTransform: the pair from a division and a modulo by the
// step, an argument; a tail guard for padded sizes.
__kernel void fwt(__global float *t, int step, int nHalf) {
  int tid = get_global_id(0);
  if (tid >= nHalf)
    return;
  int group = tid % step;
  int pair = 2 * step * (tid / step) + group;
  int match = pair + step;
  float a = t[pair], b = t[match];
  t[pair] = a + b;
  t[match] = a - b;
}

// AMD's BitonicSort step, in unsigned arithmetic with shifts.
__kernel void bitonic(__global uint *a, uint stage, uint pass, uint dir) {
  uint tid = get_global_id(0);
  uint pairDistance = 1u << (stage - pass);
  uint blockWidth = 2 * pairDistance;
  uint leftId = (tid % pairDistance) + (tid / pairDistance) * blockWidth;
  uint rightId = leftId + pairDistance;
  uint l = a[leftId], r = a[rightId];
  uint sameDirectionBlockWidth = 1u << stage;
  if ((tid / sameDirectionBlockWidth) % 2 == 1)
    dir = 1 - dir;
  uint greater = l > r ? l : r, lesser = l > r ? r : l;
  if (dir) {
    a[leftId] = lesser;
    a[rightId] = greater;
  } else {
    a[leftId] = greater;
    a[rightId] = lesser;
  }
}

// AMD's FloydWarshall pass k, with a tail guard.
__kernel void floyd(__global uint *d, __global uint *path, uint n, uint k) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= n || y >= n)
    return;
  uint yx = y * n + x, yk = y * n + k, kx = k * n + x;
  uint via = d[yk] + d[kx];
  if (via < d[yx]) {
    d[yx] = via;
    path[yx] = k;
  }
}

// A data-dependent while loop per work-item (Mandelbrot's shape, in
// integers).
__kernel void collatz(__global const uint *seed, __global int *steps, int w,
                      int h, int maxIt) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uint v = seed[y * w + x];
  int it = 0;
  while (v != 1 && it < maxIt) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    it++;
  }
  steps[y * w + x] = it;
}

// PolyBench/GPU's 3DCONV: a 2D range, a loop over i, and the interior
// guard on the loop's counter and both ids inside the loop.
__kernel void conv3d(__global const float *A, __global float *B, int ni,
                     int nj, int nk) {
  int k = get_global_id(0), j = get_global_id(1);
  for (int i = 1; i < ni - 1; ++i) {
    if (i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0) {
#define IX(a, b, c) ((a) * nj * nk + (b) * nk + (c))
      B[IX(i, j, k)] = 2 * A[IX(i - 1, j - 1, k - 1)] +
                       4 * A[IX(i + 1, j - 1, k - 1)] +
                       5 * A[IX(i - 1, j - 1, k - 1)] +
                       7 * A[IX(i + 1, j - 1, k - 1)] -
                       8 * A[IX(i - 1, j - 1, k - 1)] +
                       10 * A[IX(i + 1, j - 1, k - 1)] -
                       2 * A[IX(i, j - 1, k)] + 3 * A[IX(i, j, k)] -
                       9 * A[IX(i, j + 1, k)] + A[IX(i - 1, j - 1, k + 1)] -
                       3 * A[IX(i + 1, j + 1, k + 1)];
    }
  }
}

// Parboil's spmv over a jagged diagonal layout: a loop whose bound is
// read per work-item.
__kernel void spmvJds(__global float *dst, __global const float *data,
                      __global const int *colIdx, __global const int *perm,
                      __global const float *x, __global const int *rowLen,
                      __global const int *jdsPtr, int dim) {
  int ix = get_global_id(0);
  if (ix < dim) {
    float sum = 0.0f;
    int bound = rowLen[ix];
    for (int k = 0; k < bound; k++) {
      int j = jdsPtr[k] + ix;
      sum += data[j] * x[colIdx[j]];
    }
    dst[perm[ix]] = sum;
  }
}

// NBody's shape in integers: tiles of positions through local memory, a
// loop over the tile of uniform trip count between barriers.
__kernel void nbodyTiles(__global const int4 *pos, __global int4 *acc,
                         __local int4 *tile, int n) {
  int gid = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
  int4 p = pos[gid];
  int4 a = (int4)(0);
  for (int t = 0; t < n / ls; t++) {
    tile[lid] = pos[t * ls + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < ls; j++) {
      int4 q = tile[j];
      a.xyz += q.w * (q.xyz - p.xyz);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  a.w = gid;
  acc[gid] = a;
}
)CLC";

CLT_TEST(amdFastWalshTransform) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "fwt");
  const int N = 512, Half = N / 2;
  auto In = smallFloats(N, -3, 3, 90);
  std::vector<float> Want = In;
  for (int Step = 1; Step < N; Step <<= 1)
    for (int Tid = 0; Tid < Half; ++Tid) {
      int Pair = 2 * Step * (Tid / Step) + Tid % Step, Match = Pair + Step;
      float A = Want[Pair], B = Want[Match];
      Want[Pair] = A + B;
      Want[Match] = A - B;
    }
  for (const Launch1D &L : FewB1D) {
    if (L.O)
      continue; // tid names the pair
    Mem D = inout(E, In);
    for (int Step = 1; Step < N; Step <<= 1) {
      setArgs(K, D, Step, Half);
      run1D(E, K, Half, L);
    }
    expectEqual(E.read<float>(D, N), Want, "fwt " + L.str());
  }
}

CLT_TEST(amdBitonicSort) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "bitonic");
  const cl_uint LogN = 10, N = 1u << LogN;
  auto In = randomVector<cl_uint>(N, 0, 5000, 91);
  std::vector<cl_uint> Want = In;
  std::sort(Want.begin(), Want.end());
  for (size_t L : {1u, 8u, 16u, 64u, 128u}) {
    Mem D = inout(E, In);
    for (cl_uint Stage = 0; Stage < LogN; ++Stage)
      for (cl_uint Pass = 0; Pass <= Stage; ++Pass) {
        setArgs(K, D, Stage, Pass, cl_uint(1));
        size_t Global = N / 2;
        E.run(K, 1, &Global, &L);
      }
    expectEqual(E.read<cl_uint>(D, N), Want,
                "bitonic local " + std::to_string(L));
  }
}

/// Local sizes that vectorize the second dimension (too few work-items
/// along the first).
const Launch2D LaunchesY[] = {{1, 16, 0, 0}, {3, 17, 0, 0}, {3, 17, 1, 3}};

CLT_TEST(amdFloydWarshall) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "floyd");
  const cl_uint N = 37;
  auto D0 = randomVector<cl_uint>(size_t(N) * N, 1, 100, 92);
  for (cl_uint I = 0; I < N; ++I)
    D0[I * N + I] = 0;
  std::vector<cl_uint> Want = D0, WantPath(D0.size(), 999);
  for (cl_uint Q = 0; Q < N; ++Q)
    for (cl_uint Y = 0; Y < N; ++Y)
      for (cl_uint X = 0; X < N; ++X)
        if (Want[Y * N + Q] + Want[Q * N + X] < Want[Y * N + X]) {
          Want[Y * N + X] = Want[Y * N + Q] + Want[Q * N + X];
          WantPath[Y * N + X] = Q;
        }
  for (const Launch2D &L : LaunchesY) {
    if (L.O0 || L.O1)
      continue; // the ids name the pair
    Mem D = inout(E, D0),
        DPath = inout(E, std::vector<cl_uint>(D0.size(), 999));
    for (cl_uint Q = 0; Q < N; ++Q) {
      setArgs(K, D, DPath, N, Q);
      run2D(E, K, N, N, L);
    }
    expectEqual(E.read<cl_uint>(D, Want.size()), Want, "floyd " + L.str());
    expectEqual(E.read<cl_uint>(DPath, Want.size()), WantPath,
                "floyd path " + L.str());
  }
}

CLT_TEST(whileLoopPerWorkItem) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "collatz");
  const int W = 45, H = 29, MaxIt = 60;
  auto Seed = randomVector<cl_uint>(size_t(W) * H, 1, 1000, 93);
  std::vector<int> Want(Seed.size());
  for (size_t I = 0; I < Seed.size(); ++I) {
    cl_uint V = Seed[I];
    int It = 0;
    while (V != 1 && It < MaxIt) {
      V = (V & 1) ? 3 * V + 1 : V / 2;
      ++It;
    }
    Want[I] = It;
  }
  Mem DSeed = E.input(Seed);
  for (const Launch2D &L : LaunchesY) {
    if (L.O0 || L.O1)
      continue;
    Mem DOut = E.output<int>(Want.size());
    setArgs(K, DSeed, DOut, W, H, MaxIt);
    run2D(E, K, W, H, L);
    expectEqual(E.read<int>(DOut, Want.size()), Want, "collatz " + L.str());
  }
}

CLT_TEST(polyConv3DGuardOnLoop) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "conv3d");
  const int NI = 7, NJ = 23, NK = 35;
  size_t Size = size_t(NI) * NJ * NK;
  auto A = smallFloats(Size, -4, 4, 94);
  auto Ix = [&](int I, int J, int Q) { return (I * NJ + J) * NK + Q; };
  for (const Launch2D &L : LaunchesY) {
    std::vector<float> Want(Size, -1.0f);
    Mem DA = E.input(A), DB = inout(E, Want);
    setArgs(K, DA, DB, NI, NJ, NK);
    run2D(E, K, NK, NJ, L);
    for (int I = 1; I < NI - 1; ++I)
      for (int J = 1; J < NJ - 1; ++J)
        for (int Q = 1; Q < NK - 1; ++Q) {
          if (!launched(Q, NK, L.L0, L.O0) || !launched(J, NJ, L.L1, L.O1))
            continue;
          Want[Ix(I, J, Q)] =
              2 * A[Ix(I - 1, J - 1, Q - 1)] + 4 * A[Ix(I + 1, J - 1, Q - 1)] +
              5 * A[Ix(I - 1, J - 1, Q - 1)] + 7 * A[Ix(I + 1, J - 1, Q - 1)] -
              8 * A[Ix(I - 1, J - 1, Q - 1)] + 10 * A[Ix(I + 1, J - 1, Q - 1)] -
              2 * A[Ix(I, J - 1, Q)] + 3 * A[Ix(I, J, Q)] -
              9 * A[Ix(I, J + 1, Q)] + A[Ix(I - 1, J - 1, Q + 1)] -
              3 * A[Ix(I + 1, J + 1, Q + 1)];
        }
    expectEqual(E.read<float>(DB, Size), Want, "conv3d " + L.str());
  }
}

CLT_TEST(gemmAndTrianglesAlongY) {
  Program P = E.build(PolySource);
  Kernel KG = E.kernel(P, "gemm"), KT = E.kernel(P, "triLower");
  const int NI = 37, NJ = 29, NK = 11, N = 41;
  auto A = smallFloats(size_t(NI) * NK, -4, 4, 95);
  auto B = smallFloats(size_t(NK) * NJ, -4, 4, 96);
  auto T = randomVector<int>(size_t(N) * N, -9, 9, 97);
  for (const Launch2D &L : LaunchesY) {
    std::vector<float> C(size_t(NI) * NJ, 1.0f);
    Mem DA = E.input(A), DB = E.input(B), DC = inout(E, C);
    setArgs(KG, DA, DB, DC, 1.0f, 2.0f, NI, NJ, NK);
    run2D(E, KG, NJ, NI, L);
    for (int I = 0; I < NI; ++I)
      for (int J = 0; J < NJ; ++J)
        if (launched(I, NI, L.L1, L.O1) && launched(J, NJ, L.L0, L.O0)) {
          C[I * NJ + J] *= 2.0f;
          for (int Q = 0; Q < NK; ++Q)
            C[I * NJ + J] += A[I * NK + Q] * B[Q * NJ + J];
        }
    expectEqual(E.read<float>(DC, C.size()), C, "gemm " + L.str());
    std::vector<int> Out(T.size(), 5);
    Mem DT = E.input(T), DOut = inout(E, Out);
    setArgs(KT, DT, DOut, N);
    run2D(E, KT, N, N, L);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J <= I; ++J)
        if (launched(I, N, L.L1, L.O1) && launched(J, N, L.L0, L.O0)) {
          int S = 0;
          for (int Q = J; Q <= I; ++Q)
            S += T[I * N + Q] * T[Q * N + J];
          Out[I * N + J] = S;
        }
    expectEqual(E.read<int>(DOut, Out.size()), Out, "triLower " + L.str());
  }
}

CLT_TEST(parboilSpmvJds) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "spmvJds");
  const int Dim = 301;
  std::mt19937 Gen(98);
  // Rows of 0 to 12 entries, sorted by length (descending) into perm.
  std::vector<std::vector<std::pair<int, float>>> Rows(Dim);
  for (auto &R : Rows) {
    int Len = int(Gen() % 13);
    for (int I = 0; I < Len; ++I)
      R.push_back({int(Gen() % Dim), float(int(Gen() % 9) - 4)});
  }
  std::vector<int> Perm(Dim);
  for (int I = 0; I < Dim; ++I)
    Perm[I] = I;
  std::stable_sort(Perm.begin(), Perm.end(), [&](int A, int B) {
    return Rows[A].size() > Rows[B].size();
  });
  std::vector<int> RowLen(Dim), JdsPtr;
  std::vector<float> Data;
  std::vector<int> Col;
  for (int I = 0; I < Dim; ++I)
    RowLen[I] = int(Rows[Perm[I]].size());
  for (int Kd = 0; Kd < RowLen[0]; ++Kd) {
    JdsPtr.push_back(int(Data.size()));
    for (int I = 0; I < Dim; ++I) {
      if (RowLen[I] > Kd) {
        Data.push_back(Rows[Perm[I]][Kd].second);
        Col.push_back(Rows[Perm[I]][Kd].first);
      } else {
        break;
      }
    }
  }
  // The kernel reads data[jdsPtr[k] + ix]: the diagonals hold their rows
  // from 0 on, and the rows are sorted, so that is row ix.
  JdsPtr.push_back(int(Data.size()));
  auto X = smallFloats(Dim, -4, 4, 99);
  std::vector<float> Want(Dim);
  for (int I = 0; I < Dim; ++I)
    for (auto [C, V] : Rows[I])
      Want[I] += V * X[C];
  Mem DData = E.input(Data), DCol = E.input(Col), DPerm = E.input(Perm),
      DX = E.input(X), DLen = E.input(RowLen), DPtr = E.input(JdsPtr);
  for (const Launch1D &L : FewA1D) {
    if (L.O)
      continue;
    Mem DDst = E.output<float>(Dim);
    setArgs(K, DDst, DData, DCol, DPerm, DX, DLen, DPtr, Dim);
    run1D(E, K, Dim, L);
    expectEqual(E.read<float>(DDst, Dim), Want, "spmvJds " + L.str());
  }
}

CLT_TEST(nbodyLocalTiles) {
  Program P = E.build(MoreSource);
  Kernel K = E.kernel(P, "nbodyTiles");
  const int N = 240;
  auto Pos = randomVector<int>(size_t(N) * 4, -50, 50, 100);
  std::vector<int> Want(size_t(N) * 4);
  for (int I = 0; I < N; ++I) {
    for (int J = 0; J < N; ++J)
      for (int C = 0; C < 3; ++C)
        Want[I * 4 + C] += Pos[J * 4 + 3] * (Pos[J * 4 + C] - Pos[I * 4 + C]);
    Want[I * 4 + 3] = I;
  }
  Mem DPos = E.input(Pos);
  for (size_t L : {5u, 16u, 48u}) {
    Mem DAcc = E.output<int>(Want.size());
    setArgs(K, DPos, DAcc, LocalMem{L * 4 * sizeof(int)}, N);
    size_t Global = N;
    E.run(K, 1, &Global, &L);
    expectEqual(E.read<int>(DAcc, Want.size()), Want,
                "nbody local " + std::to_string(L));
  }
}

//===-- Element types, searches, 3D, the last group -----------------------===//

static const char *TypesSource = R"CLC(
__kernel void tailUchar(__global const uchar *in, __global uchar *out,
                        int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = (uchar)(in[i] * 3 + i);
}

__kernel void tailShort(__global const short *in, __global short *out,
                        int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = (short)(in[n - 1 - i] - 7 * i);
}

__kernel void tailLong(__global const long *in, __global long *out, int n) {
  int i = get_global_id(0);
  if (i >= 1 && i < n - 1)
    out[i] = in[i - 1] * 5 + in[i + 1] - (long)i * 100000000000L;
}

__kernel void tailDouble(__global const double *in, __global double *out,
                         int n, int r) {
  int i = get_global_id(0);
  if (i < n) {
    double s = 0.0;
    for (int k = max(0, i - r); k <= min(n - 1, i + r); k++)
      s += in[k];
    out[i] = s;
  }
}

// The SDK's uchar4 pixels: a clamped 3-tap blur along x, saturating.
__kernel void blurUchar4(__global const uchar4 *in, __global uchar4 *out,
                         int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) {
    int4 a = convert_int4(in[y * w + max(x - 1, 0)]);
    int4 b = convert_int4(in[y * w + x]);
    int4 c = convert_int4(in[y * w + min(x + 1, w - 1)]);
    out[y * w + x] = convert_uchar4_sat(a + 2 * b + c - 100);
  }
}

// A linear search that breaks out, and a binary search.
__kernel void searches(__global const int *keys, __global const int *q,
                       __global int *lin, __global int *bin, int nk, int nq) {
  int g = get_global_id(0);
  if (g >= nq)
    return;
  int v = q[g];
  int k;
  for (k = 0; k < nk; k++)
    if (keys[k] >= v)
      break;
  lin[g] = k;
  int lo = 0, hi = nk;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (keys[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  bin[g] = lo;
}

// kmeans' swap: a transposition, strided reads and consecutive writes.
__kernel void kmeansSwap(__global const float *feature,
                         __global float *swapped, int npoints, int nf) {
  int tid = get_global_id(0);
  if (tid < npoints)
    for (int i = 0; i < nf; i++)
      swapped[i * npoints + tid] = feature[tid * nf + i];
}

// A scan of each group's elements whose last work-item of the last group
// writes the total, ScanLargeArrays' shape: guards on the group id, the
// number of groups and the local size.
__kernel void groupTotals(__global const int *in, __global int *sums,
                          __global int *total, __local int *t, int n) {
  int lid = get_local_id(0), ls = get_local_size(0);
  int g = get_group_id(0), ng = get_num_groups(0);
  int gid = get_global_id(0);
  t[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == ls - 1) {
    int s = 0;
    for (int i = 0; i < ls; i++)
      s += t[i];
    sums[g] = s;
  }
  if (g == ng - 1 && lid == ls - 1)
    *total = ng * 1000 + ls;
  if (gid == get_global_size(0) - 1)
    total[1] = gid;
}

// A 3D interior stencil with guards on all six faces.
__kernel void stencil3d(__global const int *a, __global int *b, int nx,
                        int ny, int nz) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
    int c = (z * ny + y) * nx + x;
    b[c] = a[c - 1] + 2 * a[c + 1] + 3 * a[c - nx] + 4 * a[c + nx] +
           5 * a[c - nx * ny] + 6 * a[c + nx * ny] - a[c];
  } else if (x < nx && y < ny && z < nz) {
    b[(z * ny + y) * nx + x] = -a[(z * ny + y) * nx + x];
  }
}
)CLC";

CLT_TEST(elementTypesTailGuards) {
  Program P = E.build(TypesSource);
  Kernel KU = E.kernel(P, "tailUchar"), KS = E.kernel(P, "tailShort"),
         KL = E.kernel(P, "tailLong"), KD = E.kernel(P, "tailDouble");
  const int N = 203;
  auto U = randomVector<cl_uchar>(N, 0, 255, 110);
  auto S = randomVector<cl_short>(N, -30000, 30000, 111);
  auto Lg = randomVector<cl_long>(N, -1000000000000LL, 1000000000000LL, 112);
  auto Ds = randomVector<int>(N, -9, 9, 113);
  std::vector<double> D(Ds.begin(), Ds.end());
  Mem DU = E.input(U), DS = E.input(S), DL = E.input(Lg), DD = E.input(D);
  // At 64 tailDouble's window loop runs in lock-step on a range of four
  // tiles (decided within the quota since uniformAcross keeps its pairs'
  // relation to one piece).
  const Launch1D Locals[] = {{24, 0}, {24, 5}, {16, 0}, {64, 0}};
  for (const Launch1D &L : Locals) {
    std::vector<cl_uchar> WU(N + 64, 9);
    std::vector<cl_short> WS(N + 64, 9);
    std::vector<cl_long> WL(N + 64, 9);
    std::vector<double> WD(N + 64, 9);
    Mem OU = inout(E, WU), OS = inout(E, WS), OL = inout(E, WL),
        OD = inout(E, WD);
    setArgs(KU, DU, OU, N);
    run1D(E, KU, N, L);
    setArgs(KS, DS, OS, N);
    run1D(E, KS, N, L);
    setArgs(KL, DL, OL, N);
    run1D(E, KL, N, L);
    setArgs(KD, DD, OD, N, 3);
    run1D(E, KD, N, L);
    for (int I = 0; I < N; ++I) {
      if (!launched(I, N, L.L, L.O))
        continue;
      WU[I] = cl_uchar(U[I] * 3 + I);
      WS[I] = cl_short(S[N - 1 - I] - 7 * I);
      if (I >= 1 && I < N - 1)
        WL[I] = Lg[I - 1] * 5 + Lg[I + 1] - cl_long(I) * 100000000000LL;
      double Sum = 0;
      for (int Q = std::max(0, I - 3); Q <= std::min(N - 1, I + 3); ++Q)
        Sum += D[Q];
      WD[I] = Sum;
    }
    expectEqual(E.read<cl_uchar>(OU, WU.size()), WU, "uchar " + L.str());
    expectEqual(E.read<cl_short>(OS, WS.size()), WS, "short " + L.str());
    expectEqual(E.read<cl_long>(OL, WL.size()), WL, "long " + L.str());
    expectEqual(E.read<double>(OD, WD.size()), WD, "double " + L.str());
  }
}

CLT_TEST(uchar4PixelsClamped) {
  Program P = E.build(TypesSource);
  Kernel K = E.kernel(P, "blurUchar4");
  const int W = 67, H = 19;
  auto In = randomVector<cl_uchar>(size_t(W) * H * 4, 0, 255, 114);
  std::vector<cl_uchar> Want(In.size());
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      for (int C = 0; C < 4; ++C) {
        int A = In[(Y * W + std::max(X - 1, 0)) * 4 + C];
        int B = In[(Y * W + X) * 4 + C];
        int Cc = In[(Y * W + std::min(X + 1, W - 1)) * 4 + C];
        Want[(Y * W + X) * 4 + C] =
            cl_uchar(std::clamp(A + 2 * B + Cc - 100, 0, 255));
      }
  Mem DIn = E.input(In);
  for (const Launch2D &L : FewB2D) {
    if (L.O0 || L.O1)
      continue;
    Mem DOut = E.output<cl_uchar>(In.size());
    setArgs(K, DIn, DOut, W, H);
    run2D(E, K, W, H, L);
    expectEqual(E.read<cl_uchar>(DOut, In.size()), Want,
                "blurUchar4 " + L.str());
  }
}

CLT_TEST(searchLoopsWithBreak) {
  Program P = E.build(TypesSource);
  Kernel K = E.kernel(P, "searches");
  const int NK = 150, NQ = 401;
  auto Keys = randomVector<int>(NK, 0, 1000, 115);
  std::sort(Keys.begin(), Keys.end());
  auto Q = randomVector<int>(NQ, -10, 1010, 116);
  std::vector<int> WantLin(NQ), WantBin(NQ);
  for (int G = 0; G < NQ; ++G)
    WantLin[G] = WantBin[G] =
        int(std::lower_bound(Keys.begin(), Keys.end(), Q[G]) - Keys.begin());
  Mem DK = E.input(Keys), DQ = E.input(Q);
  for (const Launch1D &L : FewA1D) {
    if (L.O)
      continue;
    Mem DLin = E.output<int>(NQ), DBin = E.output<int>(NQ);
    setArgs(K, DK, DQ, DLin, DBin, NK, NQ);
    run1D(E, K, NQ, L);
    expectEqual(E.read<int>(DLin, NQ), WantLin, "linear search " + L.str());
    expectEqual(E.read<int>(DBin, NQ), WantBin, "binary search " + L.str());
  }
}

CLT_TEST(kmeansSwapTranspose) {
  Program P = E.build(TypesSource);
  Kernel K = E.kernel(P, "kmeansSwap");
  const int NP = 333, NF = 7;
  auto F = randomVector<float>(size_t(NP) * NF, -5.f, 5.f, 117);
  std::vector<float> Want(F.size());
  for (int T = 0; T < NP; ++T)
    for (int I = 0; I < NF; ++I)
      Want[I * NP + T] = F[T * NF + I];
  Mem DF = E.input(F);
  for (const Launch1D &L : FewB1D) {
    if (L.O)
      continue;
    Mem DOut = E.output<float>(F.size());
    setArgs(K, DF, DOut, NP, NF);
    run1D(E, K, NP, L);
    expectEqual(E.read<float>(DOut, F.size()), Want, "kmeansSwap " + L.str());
  }
}

CLT_TEST(lastGroupGuards) {
  Program P = E.build(TypesSource);
  Kernel K = E.kernel(P, "groupTotals");
  const int N = 1000;
  auto In = randomVector<int>(N, -100, 100, 118);
  Mem DIn = E.input(In);
  for (const Launch1D &L : FewB1D) {
    size_t G = roundUp(N, L.L), NG = G / L.L;
    Mem DSums = E.output<int>(NG), DTotal = inout(E, std::vector<int>{0, 0});
    setArgs(K, DIn, DSums, DTotal, LocalMem{L.L * sizeof(int)}, N);
    run1D(E, K, N, L);
    std::vector<int> WantSums(NG);
    for (size_t Gr = 0; Gr < NG; ++Gr)
      for (size_t I = Gr * L.L; I < (Gr + 1) * L.L; ++I)
        WantSums[Gr] += I + L.O < size_t(N) ? In[I + L.O] : 0;
    expectEqual(E.read<int>(DSums, NG), WantSums, "group sums " + L.str());
    // The ids move with the offset, the global size does not: some
    // work-item has id G - 1 while the offset is below G.
    std::vector<int> WantTotal = {int(NG) * 1000 + int(L.L), int(G) - 1};
    expectEqual(E.read<int>(DTotal, 2), WantTotal, "totals " + L.str());
  }
}

CLT_TEST(stencil3DAllFaces) {
  Program P = E.build(TypesSource);
  Kernel K = E.kernel(P, "stencil3d");
  const int NX = 21, NY = 11, NZ = 9;
  size_t Size = size_t(NX) * NY * NZ;
  auto A = randomVector<int>(Size, -50, 50, 119);
  Mem DA = E.input(A);
  // One local size: each costs 1.5 s to compile in split+score.
  const Launch3D Locals[] = {{{16, 2, 2}, {2, 0, 1}}};
  checkEach3D(
      E, K, NX, NY, NZ, Locals, 77,
      [&](Mem &DOut) { setArgs(K, DA, DOut, NX, NY, NZ); },
      [&](int X, int Y, int Z) {
        int C = (Z * NY + Y) * NX + X;
        if (X > 0 && X < NX - 1 && Y > 0 && Y < NY - 1 && Z > 0 && Z < NZ - 1)
          return A[C - 1] + 2 * A[C + 1] + 3 * A[C - NX] + 4 * A[C + NX] +
                 5 * A[C - NX * NY] + 6 * A[C + NX * NY] - A[C];
        return -A[C];
      },
      "stencil3d");
}

//===-- Divisions the guards protect, private arrays ----------------------===//

static const char *GuardedSource = R"CLC(
// Each division is by zero exactly on the work-items its guard leaves out:
// the tail (i == n), the first (i == 0), a uniform argument (m == 0) and
// the data (d[i] == 0).
__kernel void guardedDivisions(__global const int *a, __global const int *d,
                               __global int *out, int n, int m) {
  int i = get_global_id(0);
  int r = -1;
  if (i < n + 1) {
    if (i < n)
      r = a[i] / (n - i);
    if (i > 0)
      r += 1000 / i;
    if (m != 0)
      r += i % m + a[i % (n + 1)] / m;
    if (d[i] != 0)
      r += a[i] / d[i];
    out[i] = r;
  }
}

// A private array per work-item, indexed by data, live across a barrier
// (a context array of the whole group), as lavaMD and the particle
// filters keep theirs.
#define NP 40
__kernel void privateAcrossBarrier(__global const int *in, __global int *out,
                                   __local int *sh, int n) {
  int lid = get_local_id(0), gid = get_global_id(0), ls = get_local_size(0);
  int priv[NP];
  for (int k = 0; k < NP; k++)
    priv[k] = (gid < n ? in[gid] : 0) * k;
  sh[lid] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int left = sh[(lid + ls - 1) % ls];
  for (int k = 0; k < NP; k++)
    priv[((k * 7 + left) & 0x7fffffff) % NP] += k;
  barrier(CLK_LOCAL_MEM_FENCE);
  sh[lid] = priv[(left & 0x7fffffff) % NP];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = 0; k < NP; k++)
    s += priv[k] * (k + 1);
  if (gid < n)
    out[gid] = s + sh[(lid + 1) % ls];
}

// lud's diagonal block: a loop over the rows with `tx > i` guards and
// barriers, in local memory (unsigned arithmetic wraps harmlessly).
__kernel void ludDiagonal(__global uint *m, int n, int offset,
                          __local uint *sh) {
  int tx = get_local_id(0), bs = get_local_size(0);
  for (int i = 0; i < bs; i++)
    sh[i * bs + tx] = m[(offset + i) * n + offset + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < bs - 1; i++) {
    if (tx > i) {
      for (int j = 0; j < i; j++)
        sh[tx * bs + i] -= sh[tx * bs + j] * sh[j * bs + i];
      sh[tx * bs + i] /= sh[i * bs + i] | 1u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tx > i) {
      for (int j = 0; j < i + 1; j++)
        sh[(i + 1) * bs + tx] -= sh[(i + 1) * bs + j] * sh[j * bs + tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int i = 1; i < bs; i++)
    m[(offset + i) * n + offset + tx] = sh[i * bs + tx];
}
)CLC";

CLT_TEST(divisionsTheGuardsProtect) {
  Program P = E.build(GuardedSource);
  Kernel K = E.kernel(P, "guardedDivisions");
  for (int N : {100, 64, 33}) {
    // One past the end readable: the kernel runs ids up to n.
    auto A = randomVector<int>(N + 1, -1000, 1000, unsigned(N));
    auto D = randomVector<int>(N + 200, -3, 3, unsigned(N) + 1);
    Mem DA = E.input(A), DD = E.input(D);
    for (int M : {0, 7}) {
      for (const Launch1D &L : Launches1D) {
        std::vector<int> Want(N + 200, 5);
        Mem DOut = inout(E, Want);
        setArgs(K, DA, DD, DOut, N, M);
        run1D(E, K, N + 1, L);
        for (int I = 0; I < N + 1; ++I) {
          if (!launched(I, N + 1, L.L, L.O))
            continue;
          int R = -1;
          if (I < N)
            R = A[I] / (N - I);
          if (I > 0)
            R += 1000 / I;
          if (M != 0)
            R += I % M + A[I % (N + 1)] / M;
          if (D[I] != 0)
            R += A[I] / D[I];
          Want[I] = R;
        }
        expectEqual(E.read<int>(DOut, Want.size()), Want,
                    "guardedDivisions n=" + std::to_string(N) +
                        " m=" + std::to_string(M) + " " + L.str());
      }
    }
  }
}

CLT_TEST(privateArrayAcrossBarriers) {
  Program P = E.build(GuardedSource);
  Kernel K = E.kernel(P, "privateAcrossBarrier");
  const int N = 500, NP = 40;
  auto In = randomVector<int>(N, -100, 100, 120);
  Mem DIn = E.input(In);
  for (const Launch1D &L : FewA1D) {
    if (L.O)
      continue;
    Mem DOut = E.output<int>(N);
    setArgs(K, DIn, DOut, LocalMem{L.L * sizeof(int)}, N);
    run1D(E, K, N, L);
    size_t G = roundUp(N, L.L);
    int Ls = int(L.L);
    auto Val = [&](size_t Gid) { return Gid < size_t(N) ? In[Gid] : 0; };
    std::vector<std::vector<int>> Priv(G, std::vector<int>(NP));
    std::vector<int> Sh(G), Left(G);
    for (size_t Gid = 0; Gid < G; ++Gid) {
      int Lid = int(Gid % L.L);
      size_t Base = Gid - Lid;
      for (int Q = 0; Q < NP; ++Q)
        Priv[Gid][Q] = Val(Gid) * Q;
      Left[Gid] = Val(Base + (Lid + Ls - 1) % Ls);
      for (int Q = 0; Q < NP; ++Q)
        Priv[Gid][((Q * 7 + Left[Gid]) & 0x7fffffff) % NP] += Q;
    }
    for (size_t Gid = 0; Gid < G; ++Gid)
      Sh[Gid] = Priv[Gid][(Left[Gid] & 0x7fffffff) % NP];
    std::vector<int> Want(N);
    for (int Gid = 0; Gid < N; ++Gid) {
      int Lid = Gid % Ls;
      int S = 0;
      for (int Q = 0; Q < NP; ++Q)
        S += Priv[Gid][Q] * (Q + 1);
      Want[Gid] = S + Sh[Gid - Lid + (Lid + 1) % Ls];
    }
    expectEqual(E.read<int>(DOut, N), Want, "privateArray " + L.str());
  }
}

CLT_TEST(ludDiagonalBlock) {
  Program P = E.build(GuardedSource);
  Kernel K = E.kernel(P, "ludDiagonal");
  for (int Bs : {16, 7, 33}) {
    const int N = 2 * Bs + 3, Off = 2;
    auto M0 = randomVector<cl_uint>(size_t(N) * N, 0, 20, unsigned(Bs));
    std::vector<cl_uint> Sh(size_t(Bs) * Bs);
    for (int I = 0; I < Bs; ++I)
      for (int T = 0; T < Bs; ++T)
        Sh[I * Bs + T] = M0[(Off + I) * N + Off + T];
    for (int I = 0; I < Bs - 1; ++I) {
      for (int T = I + 1; T < Bs; ++T) {
        for (int J = 0; J < I; ++J)
          Sh[T * Bs + I] -= Sh[T * Bs + J] * Sh[J * Bs + I];
        Sh[T * Bs + I] /= Sh[I * Bs + I] | 1u;
      }
      for (int T = I + 1; T < Bs; ++T)
        for (int J = 0; J < I + 1; ++J)
          Sh[(I + 1) * Bs + T] -= Sh[(I + 1) * Bs + J] * Sh[J * Bs + T];
    }
    std::vector<cl_uint> Want = M0;
    for (int I = 1; I < Bs; ++I)
      for (int T = 0; T < Bs; ++T)
        Want[(Off + I) * N + Off + T] = Sh[I * Bs + T];
    Mem DM = inout(E, M0);
    setArgs(K, DM, N, Off, LocalMem{size_t(Bs) * Bs * sizeof(cl_uint)});
    size_t Global = size_t(Bs);
    E.run(K, 1, &Global, &Global);
    expectEqual(E.read<cl_uint>(DM, Want.size()), Want,
                "ludDiagonal block " + std::to_string(Bs));
  }
}

//===-- Ids past 2^32, strides of two, unsigned clamps, big groups --------===//

static const char *EdgeSource = R"CLC(
// An id truncated to int, as suites write `int i = get_global_id(0)`: with
// an offset near 2^32 the truncated ids wrap inside a group.
__kernel void truncatedIds(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  if (i >= 0 && i < n)
    out[i] = in[i] * 2 + 1;
}

// DwtHaar1D's shape: pairs in, halves out, strides of two.
__kernel void haarStep(__global const float *in, __global float *out,
                       int nHalf) {
  int i = get_global_id(0);
  if (i < nHalf) {
    float a = in[2 * i], b = in[2 * i + 1];
    out[i] = (a + b) * 0.5f;
    out[nHalf + i] = (a - b) * 0.5f;
  }
}

// The SDK's unsigned borders: the window's ends clamped without going
// below zero.
__kernel void unsignedWindow(__global const uint *in, __global uint *out,
                             uint width, uint r) {
  uint x = get_global_id(0);
  if (x >= width)
    return;
  uint left = x > r ? x - r : 0;
  uint right = x + r < width ? x + r : width - 1;
  uint s = 0;
  for (uint i = left; i <= right; i++)
    s += in[i] * (i - left + 1);
  out[x] = s;
}

// Work on even groups only, and a guard on the local id's half.
__kernel void evenGroups(__global const int *in, __global int *out, int n) {
  int g = get_group_id(0), lid = get_local_id(0), ls = get_local_size(0);
  int i = get_global_id(0);
  if (i >= n)
    return;
  if (g % 2 == 0)
    out[i] = lid < ls / 2 ? in[i] + 1 : in[i] - 1;
  else
    out[i] = -in[i];
}
)CLC";

CLT_TEST(truncatedIdsPast2To32) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "truncatedIds");
  const int N = 100;
  auto In = randomVector<int>(N, -1000, 1000, 130);
  Mem DIn = E.input(In);
  struct Case {
    size_t Global, Local, Offset;
  };
  // Ids from 2^32 - 40: -40 .. as ints, wrapping mid-group for 16 and 24.
  for (Case C : {Case{160, 16, (size_t(1) << 32) - 40},
                 Case{168, 24, (size_t(1) << 32) - 37},
                 Case{128, 64, (size_t(1) << 32) - 3},
                 Case{99, 33, (size_t(1) << 33) + 1}}) {
    std::vector<int> Want(N, 3);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, N);
    E.run(K, 1, &C.Global, &C.Local, &C.Offset);
    for (size_t G = C.Offset; G < C.Offset + C.Global; ++G) {
      int I = int(uint32_t(G));
      if (I >= 0 && I < N)
        Want[I] = In[I] * 2 + 1;
    }
    expectEqual(E.read<int>(DOut, N), Want,
                "truncatedIds local " + std::to_string(C.Local) + " offset " +
                    std::to_string(C.Offset));
  }
}

CLT_TEST(haarStrideTwo) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "haarStep");
  const int N = 512;
  auto In = smallFloats(N, -8, 8, 131);
  for (const Launch1D &L : FewB1D) {
    if (L.O)
      continue;
    std::vector<float> Cur = In;
    Mem DA = inout(E, In), DB = inout(E, In);
    for (int Half = N / 2; Half >= 1; Half /= 2) {
      setArgs(K, DA, DB, Half);
      run1D(E, K, Half, L);
      std::vector<float> Next = Cur;
      for (int I = 0; I < Half; ++I) {
        Next[I] = (Cur[2 * I] + Cur[2 * I + 1]) * 0.5f;
        Next[Half + I] = (Cur[2 * I] - Cur[2 * I + 1]) * 0.5f;
      }
      Cur = Next;
      std::swap(DA, DB);
      // The untouched tail of the new input is the old one's.
      if (2 * Half < N)
        CL_CHECK(clEnqueueCopyBuffer(
            E.Q, DB, DA, 2 * Half * sizeof(float), 2 * Half * sizeof(float),
            (N - 2 * Half) * sizeof(float), 0, nullptr, nullptr));
    }
    expectEqual(E.read<float>(DA, N), Cur, "haar " + L.str());
  }
}

CLT_TEST(unsignedClampedWindow) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "unsignedWindow");
  const cl_uint W = 300;
  auto In = randomVector<cl_uint>(W, 0, 100, 132);
  Mem DIn = E.input(In);
  for (cl_uint R : {0u, 2u, 20u}) {
    std::vector<cl_uint> Want(W);
    for (cl_uint X = 0; X < W; ++X) {
      cl_uint Lft = X > R ? X - R : 0, Rt = X + R < W ? X + R : W - 1;
      for (cl_uint I = Lft; I <= Rt; ++I)
        Want[X] += In[I] * (I - Lft + 1);
    }
    for (const Launch1D &L : FewA1D) {
      if (L.O)
        continue;
      Mem DOut = E.output<cl_uint>(W);
      setArgs(K, DIn, DOut, W, R);
      run1D(E, K, W, L);
      expectEqual(E.read<cl_uint>(DOut, W), Want,
                  "unsignedWindow r=" + std::to_string(R) + " " + L.str());
    }
  }
}

CLT_TEST(evenGroupsAndBigGroups) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "evenGroups");
  const int N = 5000;
  auto In = randomVector<int>(N, -1000, 1000, 133);
  Mem DIn = E.input(In);
  size_t Max = maxLocalSize1D(E, K);
  for (size_t L : {size_t(24), size_t(1000), size_t(4096)}) {
    if (L > Max)
      continue;
    std::vector<int> Want(N, 0);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, N);
    size_t Global = roundUp(N, L);
    E.run(K, 1, &Global, &L);
    for (int I = 0; I < N; ++I) {
      int G = I / int(L), Lid = I % int(L);
      Want[I] =
          G % 2 == 0 ? (Lid < int(L) / 2 ? In[I] + 1 : In[I] - 1) : -In[I];
    }
    expectEqual(E.read<int>(DOut, N), Want,
                "evenGroups local " + std::to_string(L));
  }
}

// Sizes for which the guards leave nothing or next to nothing: empty
// interiors, a single row, negative and huge bounds; the pieces' bounds
// computed per launch must come out empty or whole.
CLT_TEST(degenerateSizes) {
  Program P = E.build(PolySource);
  Kernel KJ = E.kernel(P, "jacobi1"), KG = E.kernel(P, "gemm"),
         KT = E.kernel(P, "triLower"), KC = E.kernel(P, "corrTri");
  Program PE = E.build(EdgeSource);
  Kernel KI = E.kernel(PE, "truncatedIds");
  const Launch2D L2[] = {{16, 16, 0, 0}};
  const Launch1D L1[] = {{24, 3}};
  const size_t Cells = 40 * 40;
  auto A = smallFloats(Cells, -4, 4, 140);
  auto Ai = randomVector<int>(Cells, -9, 9, 141);
  Mem DA = E.input(A), DAi = E.input(Ai);
  for (int N : {-5, 0, 1, 2, 3, 17}) {
    std::string What = " n=" + std::to_string(N);
    for (const Launch2D &L : L2) {
      // jacobi1 on an n x n grid (the launch covers 17 x 17 ids at least).
      std::vector<float> B(Cells, 0.5f);
      Mem DB = inout(E, B);
      setArgs(KJ, DA, DB, N);
      run2D(E, KJ, 17, 17, L);
      for (int I = 1; I < N - 1; ++I)
        for (int J = 1; J < N - 1; ++J)
          if (launched(I, 17, L.L1, L.O1) && launched(J, 17, L.L0, L.O0))
            B[I * N + J] =
                0.25f * (A[I * N + J] + A[I * N + J - 1] + A[I * N + J + 1] +
                         A[(I + 1) * N + J] + A[(I - 1) * N + J]);
      expectEqual(E.read<float>(DB, Cells), B,
                  "jacobi1" + What + " " + L.str());
      // gemm with ni = n, nj = 9, nk = n.
      std::vector<float> C(Cells, 1.0f);
      Mem DC = inout(E, C);
      int NI = N, NJ = 9, NK = std::max(N, 0);
      setArgs(KG, DA, DA, DC, 1.0f, 2.0f, NI, NJ, NK);
      run2D(E, KG, 9, 17, L);
      for (int I = 0; I < NI; ++I)
        for (int J = 0; J < NJ; ++J)
          if (launched(I, 17, L.L1, L.O1) && launched(J, 9, L.L0, L.O0)) {
            C[I * NJ + J] *= 2.0f;
            for (int Q = 0; Q < NK; ++Q)
              C[I * NJ + J] += A[I * NK + Q] * A[Q * NJ + J];
          }
      expectEqual(E.read<float>(DC, Cells), C, "gemm" + What + " " + L.str());
      // triLower
      std::vector<int> T(Cells, 3);
      Mem DT = inout(E, T);
      setArgs(KT, DAi, DT, N);
      run2D(E, KT, 17, 17, L);
      for (int I = 0; I < N; ++I)
        for (int J = 0; J <= I; ++J)
          if (launched(I, 17, L.L1, L.O1) && launched(J, 17, L.L0, L.O0)) {
            int S = 0;
            for (int Q = J; Q <= I; ++Q)
              S += Ai[I * N + Q] * Ai[Q * N + J];
            T[I * N + J] = S;
          }
      expectEqual(E.read<int>(DT, Cells), T, "triLower" + What + " " + L.str());
    }
    for (const Launch1D &L : L1) {
      std::vector<int> Sym(Cells, -7);
      Mem DS = inout(E, Sym);
      setArgs(KC, DS, DAi, N, 3);
      run1D(E, KC, 17, L);
      for (int J1 = 0; J1 < N - 1; ++J1) {
        if (!launched(J1, 17, L.L, L.O))
          continue;
        Sym[J1 * N + J1] = 1;
        for (int J2 = J1 + 1; J2 < N; ++J2) {
          int S = 0;
          for (int I = 0; I < 3; ++I)
            S += Ai[I * N + J1] * Ai[I * N + J2];
          Sym[J1 * N + J2] = Sym[J2 * N + J1] = S;
        }
      }
      expectEqual(E.read<int>(DS, Cells), Sym,
                  "corrTri" + What + " " + L.str());
    }
  }
  // A bound above every id: the guard holds everywhere.
  for (int N : {0x7fffffff, 1 << 30}) {
    size_t Global = 96, Local = 24;
    auto In = randomVector<int>(Global, -9, 9, 142);
    Mem DIn = E.input(In), DOut = E.output<int>(Global);
    setArgs(KI, DIn, DOut, N);
    E.run(KI, 1, &Global, &Local);
    std::vector<int> Want(Global);
    for (size_t I = 0; I < Global; ++I)
      Want[I] = In[I] * 2 + 1;
    expectEqual(E.read<int>(DOut, Global), Want,
                "truncatedIds n=" + std::to_string(N));
  }
}

//===-- Register tiles and lud's internal blocks --------------------------===//

// Built with -DTN=... -DTH=...: the local size is TN x TH.
static const char *TileSource = R"CLC(
// Parboil's sgemm shape: a column of TN results per work-item in a private
// array, a TH x TN tile of B in local memory, A and C column-major.
#define TM (TN * TH)
__kernel void sgemmRegTile(__global const float *A, int lda,
                           __global const float *B, int ldb, __global float *C,
                           int ldc, int k, float alpha, float beta) {
  __local float bs[TH][TN];
  int tx = get_local_id(0), ty = get_local_id(1);
  int m = get_group_id(0) * TM + ty * TN + tx;
  int n = get_group_id(1) * TN;
  float c[TN];
  for (int q = 0; q < TN; q++)
    c[q] = 0.0f;
  for (int i = 0; i < k; i += TH) {
    bs[ty][tx] = B[(n + tx) * ldb + i + ty];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < TH; j++) {
      float a = A[m + (i + j) * lda];
      for (int q = 0; q < TN; q++)
        c[q] += a * bs[j][q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int q = 0; q < TN; q++)
    C[m + (n + q) * ldc] = C[m + (n + q) * ldc] * beta + alpha * c[q];
}

// lud's internal blocks: square groups of TN x TN (TH == TN), the block
// position from the group ids and a uniform offset.
__kernel void ludInternal(__global uint *m, int n, int offset) {
  __local uint row[TN][TN], col[TN][TN];
  int bx = get_group_id(0), by = get_group_id(1);
  int tx = get_local_id(0), ty = get_local_id(1);
  int gRow = offset + (by + 1) * TN, gCol = offset + (bx + 1) * TN;
  row[ty][tx] = m[(offset + ty) * n + gCol + tx];
  col[ty][tx] = m[(gRow + ty) * n + offset + tx];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
  for (int i = 0; i < TN; i++)
    s += col[ty][i] * row[i][tx];
  m[(gRow + ty) * n + gCol + tx] -= s;
}
)CLC";

CLT_TEST(parboilSgemmRegisterTile) {
  for (auto [TN, TH] : {std::array<int, 2>{16, 8}, std::array<int, 2>{8, 4},
                        std::array<int, 2>{5, 3}}) {
    Program P = E.build(TileSource, "-DTN=" + std::to_string(TN) +
                                        " -DTH=" + std::to_string(TH));
    Kernel K = E.kernel(P, "sgemmRegTile");
    const int TM = TN * TH, M = TM * 3, N = TN * 2, KK = TH * 3;
    // Column-major A (M x KK), B stored as N x KK rows (ldb = KK), C M x N.
    auto A = smallFloats(size_t(M) * KK, -4, 4, unsigned(TN));
    auto B = smallFloats(size_t(N) * KK, -4, 4, unsigned(TH));
    auto C0 = smallFloats(size_t(M) * N, -4, 4, 150);
    const float Alpha = 2, Beta = -1;
    Mem DA = E.input(A), DB = E.input(B), DC = inout(E, C0);
    setArgs(K, DA, M, DB, KK, DC, M, KK, Alpha, Beta);
    size_t Global[2] = {size_t(M / TH), size_t(N / TN * TH)};
    size_t Local[2] = {size_t(TN), size_t(TH)};
    E.run(K, 2, Global, Local);
    std::vector<float> Want = C0;
    for (int Mi = 0; Mi < M; ++Mi)
      for (int Ni = 0; Ni < N; ++Ni) {
        float S = 0;
        for (int Q = 0; Q < KK; ++Q)
          S += A[Mi + Q * M] * B[Ni * KK + Q];
        Want[Mi + Ni * M] = Want[Mi + Ni * M] * Beta + Alpha * S;
      }
    expectEqual(E.read<float>(DC, Want.size()), Want,
                "sgemm tile " + std::to_string(TN) + "x" + std::to_string(TH));
  }
}

CLT_TEST(rodiniaLudInternal) {
  for (int Bs : {16, 5, 32}) {
    Program P = E.build(TileSource, "-DTN=" + std::to_string(Bs) +
                                        " -DTH=" + std::to_string(Bs));
    Kernel K = E.kernel(P, "ludInternal");
    const int Blocks = 3, Off = 2, N = Off + (Blocks + 1) * Bs + 1;
    auto M0 = randomVector<cl_uint>(size_t(N) * N, 0, 50, unsigned(Bs));
    std::vector<cl_uint> Want = M0;
    for (int By = 0; By < Blocks; ++By)
      for (int Bx = 0; Bx < Blocks; ++Bx)
        for (int Ty = 0; Ty < Bs; ++Ty)
          for (int Tx = 0; Tx < Bs; ++Tx) {
            int GRow = Off + (By + 1) * Bs, GCol = Off + (Bx + 1) * Bs;
            cl_uint S = 0;
            for (int I = 0; I < Bs; ++I)
              S +=
                  M0[(GRow + Ty) * N + Off + I] * M0[(Off + I) * N + GCol + Tx];
            Want[(GRow + Ty) * N + GCol + Tx] -= S;
          }
    Mem DM = inout(E, M0);
    setArgs(K, DM, N, Off);
    size_t Global[2] = {size_t(Blocks * Bs), size_t(Blocks * Bs)};
    size_t Local[2] = {size_t(Bs), size_t(Bs)};
    E.run(K, 2, Global, Local);
    expectEqual(E.read<cl_uint>(DM, Want.size()), Want,
                "ludInternal block " + std::to_string(Bs));
  }
}

//===-- Windows left early ------------------------------------------------===//

static const char *EarlyExitSource = R"CLC(
// A clamped window (the same trip count on every interior work-item, a
// loop the split may run horizontally) left by break, continue and
// return on data, its counter read after the loop.
__kernel void windowBreak(__global const int *in, __global int *out, int n,
                          int r, int t) {
  int x = get_global_id(0);
  if (x >= n)
    return;
  int lo = max(0, x - r), hi = min(n - 1, x + r);
  int s = 0, k;
  for (k = lo; k <= hi; k++) {
    if (in[k] > t)
      break;
    if (in[k] < -t)
      continue;
    s += in[k];
  }
  out[x] = s * 1000 + (k - lo);
}

__kernel void windowReturn(__global const int *in, __global int *out, int n,
                           int r, int t) {
  int x = get_global_id(0);
  if (x >= n)
    return;
  int lo = max(0, x - r), hi = min(n - 1, x + r);
  int s = 0;
  for (int k = lo; k <= hi; k++) {
    if (in[k] == t) {
      out[x] = -k - 1;
      return;
    }
    s += in[k];
  }
  out[x] = s;
}

// A 2D window whose inner loop breaks, the outer one continuing.
__kernel void window2DBreak(__global const int *in, __global int *out, int w,
                            int h, int r, int t) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int s = 0;
  for (int j = max(0, y - r); j <= min(h - 1, y + r); j++)
    for (int i = max(0, x - r); i <= min(w - 1, x + r); i++) {
      int v = in[j * w + i];
      if (v > t)
        break;
      s += v;
    }
  out[y * w + x] = s;
}
)CLC";

CLT_TEST(windowsLeftEarly) {
  Program P = E.build(EarlyExitSource);
  Kernel KB = E.kernel(P, "windowBreak"), KR = E.kernel(P, "windowReturn"),
         K2 = E.kernel(P, "window2DBreak");
  const int N = 333;
  auto In = randomVector<int>(N, -20, 20, 160);
  Mem DIn = E.input(In);
  for (int R : {0, 3, 9}) {
    for (int T : {15, 19, 30}) {
      std::vector<int> WB(N), WR(N);
      for (int X = 0; X < N; ++X) {
        int Lo = std::max(0, X - R), Hi = std::min(N - 1, X + R);
        int S = 0, Q;
        for (Q = Lo; Q <= Hi; ++Q) {
          if (In[Q] > T)
            break;
          if (In[Q] < -T)
            continue;
          S += In[Q];
        }
        WB[X] = S * 1000 + (Q - Lo);
        S = 0;
        WR[X] = INT32_MIN;
        for (Q = Lo; Q <= Hi; ++Q) {
          if (In[Q] == T) {
            WR[X] = -Q - 1;
            break;
          }
          S += In[Q];
        }
        if (WR[X] == INT32_MIN)
          WR[X] = S;
      }
      std::string What = " r=" + std::to_string(R) + " t=" + std::to_string(T);
      for (const Launch1D &L : {Launch1D{16, 0}, Launch1D{33, 0}}) {
        if (L.O)
          continue;
        Mem OB = E.output<int>(N), OR = E.output<int>(N);
        setArgs(KB, DIn, OB, N, R, T);
        run1D(E, KB, N, L);
        setArgs(KR, DIn, OR, N, R, T);
        run1D(E, KR, N, L);
        expectEqual(E.read<int>(OB, N), WB,
                    "windowBreak" + What + " " + L.str());
        expectEqual(E.read<int>(OR, N), WR,
                    "windowReturn" + What + " " + L.str());
      }
    }
  }
  const int W = 45, H = 21;
  auto Img = randomVector<int>(size_t(W) * H, -20, 20, 161);
  Mem DImg = E.input(Img);
  for (int R : {1, 4}) {
    const int T = 15;
    std::vector<int> Want(Img.size());
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        int S = 0;
        for (int J = std::max(0, Y - R); J <= std::min(H - 1, Y + R); ++J)
          for (int I = std::max(0, X - R); I <= std::min(W - 1, X + R); ++I) {
            int V = Img[J * W + I];
            if (V > T)
              break;
            S += V;
          }
        Want[Y * W + X] = S;
      }
    for (const Launch2D &L : FewA2D) {
      if (L.O0 || L.O1)
        continue;
      Mem DOut = E.output<int>(Img.size());
      setArgs(K2, DImg, DOut, W, H, R, T);
      run2D(E, K2, W, H, L);
      expectEqual(E.read<int>(DOut, Img.size()), Want,
                  "window2DBreak r=" + std::to_string(R) + " " + L.str());
    }
  }
}

//===-- Ids written the CUDA way ------------------------------------------===//

static const char *CudaIdSource = R"CLC(
// Rodinia's ports compute the id from the group, which ignores the global
// offset; get_global_id does not.
__kernel void cudaIds(__global const int *in, __global int *out, int n) {
  int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
  if (i < n)
    out[i] = in[i] * 3 + (int)get_global_id(0) + ((i & 1) ? 100 : -100) +
             (i % 3 == 0 ? in[i ^ 1] : 0);
}

// A 2D range linearized with the global size, and a grid-stride loop.
__kernel void linear2D(__global const int *in, __global int *out, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  int gw = get_global_size(0), gh = get_global_size(1);
  for (int i = y * gw + x; i < n; i += gw * gh)
    out[i] = in[i] - i;
}
)CLC";

CLT_TEST(cudaStyleIds) {
  Program P = E.build(CudaIdSource);
  Kernel K = E.kernel(P, "cudaIds"), KL = E.kernel(P, "linear2D");
  const int N = 301;
  auto In = randomVector<int>(N + 1, -100, 100, 170);
  Mem DIn = E.input(In);
  for (const Launch1D &L : Launches1D) {
    std::vector<int> Want(N, 8);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, N);
    run1D(E, K, N, L);
    for (int I = 0; I < int(roundUp(N, L.L)) && I < N; ++I)
      Want[I] = In[I] * 3 + I + int(L.O) + ((I & 1) ? 100 : -100) +
                (I % 3 == 0 ? In[I ^ 1] : 0);
    expectEqual(E.read<int>(DOut, N), Want, "cudaIds " + L.str());
  }
  const int M = 2000;
  auto In2 = randomVector<int>(M, -100, 100, 171);
  Mem DIn2 = E.input(In2);
  std::vector<int> Want(M);
  for (int I = 0; I < M; ++I)
    Want[I] = In2[I] - I;
  for (const Launch2D &L : FewB2D) {
    if (L.O0 || L.O1)
      continue; // the ids start at 0
    Mem DOut = E.output<int>(M);
    setArgs(KL, DIn2, DOut, M);
    run2D(E, KL, 40, 9, L);
    expectEqual(E.read<int>(DOut, M), Want, "linear2D " + L.str());
  }
}

//===-- A reduction for any group size ------------------------------------===//

static const char *ReduceSource = R"CLC(
// AMD's Reduction loads uint4; the tree halves a count that need not be a
// power of two (the upper half rounded up), a b-loop whose bound is
// updated at its end.
__kernel void reduceAny(__global const uint4 *in, __global uint *out,
                        __local uint *s, uint n4) {
  uint lid = get_local_id(0), ls = get_local_size(0);
  uint gid = get_global_id(0);
  uint4 v = gid < n4 ? in[gid] : (uint4)(0);
  s[lid] = v.x + v.y + v.z + v.w;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint active = ls; active > 1;) {
    uint h = (active + 1) / 2;
    if (lid < active - h)
      s[lid] += s[lid + h];
    barrier(CLK_LOCAL_MEM_FENCE);
    active = h;
  }
  if (lid == 0)
    out[get_group_id(0)] = s[0];
}
)CLC";

CLT_TEST(reductionAnyGroupSize) {
  Program P = E.build(ReduceSource);
  Kernel K = E.kernel(P, "reduceAny");
  const cl_uint N4 = 1001;
  auto In = randomVector<cl_uint>(size_t(N4) * 4, 0, 1000000, 180);
  Mem DIn = E.input(In);
  for (const Launch1D &L : Launches1D) {
    if (L.O)
      continue;
    size_t Groups = roundUp(N4, L.L) / L.L;
    Mem DOut = E.output<cl_uint>(Groups);
    setArgs(K, DIn, DOut, LocalMem{L.L * sizeof(cl_uint)}, N4);
    run1D(E, K, N4, L);
    std::vector<cl_uint> Want(Groups);
    for (size_t I = 0; I < size_t(N4) * 4; ++I)
      Want[I / 4 / L.L] += In[I];
    expectEqual(E.read<cl_uint>(DOut, Groups), Want, "reduceAny " + L.str());
  }
}

//===-- Windows across a barrier, wrapped ids, compaction -----------------===//

static const char *MiscSource = R"CLC(
// The window's ends computed before a barrier, used after it (kept in a
// context array across it).
__kernel void windowAcrossBarrier(__global const int *in, __global int *out,
                                  __local int *t, int n, int r) {
  int x = get_global_id(0), lid = get_local_id(0);
  int lo = max(0, x - r), hi = min(n - 1, x + r);
  t[lid] = x < n ? in[x] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (int k = lo; k <= hi; k++)
    s += in[k] * (k - lo + 1);
  if (x < n)
    out[x] = s + t[(lid + 1) % get_local_size(0)];
}

// An id wrapped into range by a loop.
__kernel void wrappedIds(__global const int *in, __global int *out, int n) {
  int g = get_global_id(0);
  int i = g;
  while (i >= n)
    i -= n;
  out[g] = in[i] + g;
}

// Stream compaction: the slot from a global atomic counter.
__kernel void compact(__global const int *in, __global int *out,
                      __global int *count, int n, int t) {
  int i = get_global_id(0);
  if (i < n && in[i] > t) {
    int p = atomic_inc(count);
    out[p] = in[i] * 2 + 1;
  }
}
)CLC";

CLT_TEST(windowsAcrossBarriersWrapsAndCompaction) {
  Program P = E.build(MiscSource);
  Kernel KW = E.kernel(P, "windowAcrossBarrier"),
         KI = E.kernel(P, "wrappedIds"), KC = E.kernel(P, "compact");
  const int N = 350;
  auto In = randomVector<int>(N, -100, 100, 190);
  Mem DIn = E.input(In);
  for (const Launch1D &L : FewB1D) {
    if (L.O)
      continue;
    for (int R : {0, 4}) {
      Mem DOut = E.output<int>(N);
      setArgs(KW, DIn, DOut, LocalMem{L.L * sizeof(int)}, N, R);
      run1D(E, KW, N, L);
      std::vector<int> Want(N);
      for (int X = 0; X < N; ++X) {
        int Lo = std::max(0, X - R), Hi = std::min(N - 1, X + R);
        for (int Q = Lo; Q <= Hi; ++Q)
          Want[X] += In[Q] * (Q - Lo + 1);
        int Lid = X % int(L.L), Nb = X - Lid + (Lid + 1) % int(L.L);
        Want[X] += Nb < N ? In[Nb] : 0;
      }
      expectEqual(E.read<int>(DOut, N), Want,
                  "windowAcrossBarrier r=" + std::to_string(R) + " " + L.str());
    }
  }
  for (const Launch1D &L : FewA1D) {
    if (L.O)
      continue;
    size_t Global = 3 * N + 17;
    Global = roundUp(Global, L.L);
    Mem DOut = E.output<int>(Global);
    setArgs(KI, DIn, DOut, N);
    E.run(KI, 1, &Global, &L.L);
    std::vector<int> Want(Global);
    for (size_t G = 0; G < Global; ++G)
      Want[G] = In[G % N] + int(G);
    expectEqual(E.read<int>(DOut, Global), Want, "wrappedIds " + L.str());
  }
  for (const Launch1D &L : Launches1D) {
    if (L.O)
      continue;
    const int T = 20;
    Mem DOut = E.output<int>(N), DCount = inout(E, std::vector<int>{0});
    setArgs(KC, DIn, DOut, DCount, N, T);
    run1D(E, KC, N, L);
    std::vector<int> Want;
    for (int V : In)
      if (V > T)
        Want.push_back(V * 2 + 1);
    int Count = E.read<int>(DCount, 1)[0];
    CLT_EXPECT_MSG(Count == int(Want.size()),
                   "compact count " + std::to_string(Count) + ", want " +
                       std::to_string(Want.size()) + ", " + L.str());
    std::vector<int> Got = E.read<int>(DOut, Want.size());
    std::sort(Got.begin(), Got.end());
    std::sort(Want.begin(), Want.end());
    expectEqual(Got, Want, "compact " + L.str());
  }
}

// Suites build one source several times with different -D options (nw's
// BLOCK_SIZE, sgemm's tiles): the same kernel name and local size must not
// share a compiled work-group function (nor a cache entry) across builds.
CLT_TEST(sameKernelDifferentDefines) {
  static const char *Src = R"CLC(
__kernel void scaled(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  if (i < n)
    out[i] = in[i] * FACTOR + i;
}
)CLC";
  const int N = 100;
  auto In = randomVector<int>(N, -100, 100, 200);
  Mem DIn = E.input(In);
  for (int Round = 0; Round < 2; ++Round)
    for (int F : {3, -7}) {
      Program P = E.build(Src, "-DFACTOR=" + std::to_string(F));
      Kernel K = E.kernel(P, "scaled");
      Mem DOut = E.output<int>(N);
      setArgs(K, DIn, DOut, N);
      run1D(E, K, N, Launch1D{24, 0});
      std::vector<int> Want(N);
      for (int I = 0; I < N; ++I)
        Want[I] = In[I] * F + I;
      expectEqual(E.read<int>(DOut, N), Want,
                  "scaled FACTOR=" + std::to_string(F));
    }
}
