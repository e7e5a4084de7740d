//===- UnseenBorderKernels.cpp - Borders and edges never tuned on ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// More kernels in the shapes of benchmark suites pocl-iss was never tuned
// on (our own code, their shapes), about the borders the splitter cuts:
// - image borders other than clamping: reflect-101 indices, zero padding
//   tested inside the mask loops, wrap-around by `(x + w) % w` and by a
//   constant power-of-two mask;
// - a column-major 2D stencil whose consecutive dimension is
//   get_global_id(1); a Parboil-lbm-like 3D stencil with an obstacle flag
//   array, local sizes with z > 1 and guards on all three ids;
// - a Mandelbrot-like per-pixel while loop (fixed point) behind a tail
//   guard; an AMD-SDK RecursiveGaussian-like column pass (a loop over the
//   rows in each work-item, a tail guard on the column);
// - a SHOC Stencil2D-like halo through local memory, barriers and a
//   partial last group; PolyBench 2MM/3MM chains and doitgen (square and
//   triangular); Rodinia lavaMD-like boxes, one group a box, whose
//   neighbour loop count depends on the box; a partial-tile tree
//   reduction for group sizes that are not powers of two;
// - edges: conditions on get_local_id and get_group_id together (first
//   and last group, first and last lane, in 1D and 2D), unsigned and
//   size_t ids where gid - 1 wraps at 0, a 2D interior by one unsigned
//   comparison per id, a guard `gid < a * b + c`, guards with `||` and `!`,
//   a diamond and diagonal blocks, ternaries selecting between two
//   addresses, and kernels whose only divergence is the guard of a store;
// - periodic guards, last: a ring indexed through a power-of-two mask,
//   every fourth and every fifth id, a red-black checkerboard. Scoring them
//   runs into isl's quota (-iss-score-part-ops), which leaves them
//   unscored.
//
// Each runs with several local sizes (multiples of the vector width and
// not), problem sizes that are not multiples of them (a padded global size
// and the kernel's tail guard) and, on some, global offsets; results are
// checked against host references, exactly for integers and small-integer
// floats, with a tolerance for the recursive filter. Every POCL_ISS_MODE
// must match them (and Debian's pocl does, with ISS_TEST_PLATFORM=Portable).
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"
#include "Launches.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

using namespace clt;
using namespace clt::launches;

namespace {

// FewA2D with a 5x3 launch (not vectorized).
const Launch2D FewC2D[] = {{16, 16, 0, 0}, {16, 16, 5, 1}, {5, 3, 0, 0}};
// The second dimension is the consecutive one.
const Launch2D LaunchesY[] = {
    {1, 16, 0, 0}, {3, 17, 0, 0}, {3, 17, 1, 3}, {16, 16, 0, 0}};

} // namespace

//===-- Image borders -----------------------------------------------------===//

static const char *BorderSource = R"CLC(
// OpenCV's BORDER_REFLECT_101: -1 -> 1, w -> w - 2.
__kernel void reflectConv(__global const int *in, __global int *out,
                          __global const int *mask, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int s = 0;
  for (int dy = -r; dy <= r; dy++) {
    int yy = y + dy;
    yy = yy < 0 ? -yy : yy >= h ? 2 * h - yy - 2 : yy;
    for (int dx = -r; dx <= r; dx++) {
      int xx = x + dx;
      xx = xx < 0 ? -xx : xx >= w ? 2 * w - xx - 2 : xx;
      s += mask[(dy + r) * (2 * r + 1) + dx + r] * in[yy * w + xx];
    }
  }
  out[y * w + x] = s;
}

// Zero padding: the bounds are tested inside the mask loops.
__kernel void zeroPadConv(__global const float *in, __global float *out,
                          __global const float *mask, int w, int h, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) {
    float s = 0.0f;
    for (int dy = -r; dy <= r; dy++)
      for (int dx = -r; dx <= r; dx++) {
        int xx = x + dx, yy = y + dy;
        if (xx >= 0 && xx < w && yy >= 0 && yy < h)
          s += mask[(dy + r) * (2 * r + 1) + dx + r] * in[yy * w + xx];
      }
    out[y * w + x] = s;
  }
}

// A torus: neighbours wrap by (x + w) % w.
__kernel void wrapMod(__global const int *in, __global int *out, int w,
                      int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) {
    int l = (x - 1 + w) % w, r = (x + 1) % w;
    int u = (y - 1 + h) % h, d = (y + 2) % h;
    out[y * w + x] = 4 * in[y * w + x] - in[y * w + l] - in[y * w + r] -
                     in[u * w + x] - 3 * in[d * w + x] + 2 * in[u * w + r];
  }
}

// Rings of RING elements: indices wrap by a constant power-of-two mask.
#define RING 32
__kernel void wrapMask(__global const int *in, __global int *out, int n,
                       int shift) {
  int i = get_global_id(0);
  if (i < n) {
    int base = i & ~(RING - 1);
    out[i] = in[base + ((i + shift) & (RING - 1))] -
             2 * in[base + ((i - 1) & (RING - 1))] + in[i];
  }
}
)CLC";

CLT_TEST(reflect101Convolution) {
  Program P = E.build(BorderSource);
  Kernel K = E.kernel(P, "reflectConv");
  const int W = 37, H = 23;
  auto In = randomVector<int>(size_t(W) * H, -100, 100, 1);
  Mem DIn = E.input(In);
  auto Refl = [](int X, int N) {
    return X < 0 ? -X : X >= N ? 2 * N - X - 2 : X;
  };
  for (int R : {1, 2}) {
    int D = 2 * R + 1;
    auto Mask = randomVector<int>(size_t(D) * D, -3, 3, 2 + R);
    Mem DMask = E.input(Mask);
    checkEach2D(
        E, K, W, H, Launches2D, -7,
        [&](Mem &DOut) { setArgs(K, DIn, DOut, DMask, W, H, R); },
        [&](int X, int Y) {
          int S = 0;
          for (int DY = -R; DY <= R; ++DY)
            for (int DX = -R; DX <= R; ++DX)
              S += Mask[(DY + R) * D + DX + R] *
                   In[Refl(Y + DY, H) * W + Refl(X + DX, W)];
          return S;
        },
        "reflectConv r=" + std::to_string(R));
  }
}

CLT_TEST(zeroPaddedConvolution) {
  Program P = E.build(BorderSource);
  Kernel K = E.kernel(P, "zeroPadConv");
  const int W = 41, H = 19;
  auto In = smallFloats(size_t(W) * H, -20, 20, 5);
  Mem DIn = E.input(In);
  for (int R : {1, 3}) {
    int D = 2 * R + 1;
    auto Mask = smallFloats(size_t(D) * D, -4, 4, 6 + R);
    Mem DMask = E.input(Mask);
    auto SetArgs = [&](Mem &DOut) { setArgs(K, DIn, DOut, DMask, W, H, R); };
    auto Want = [&](int X, int Y) {
      float S = 0;
      for (int DY = -R; DY <= R; ++DY)
        for (int DX = -R; DX <= R; ++DX) {
          int XX = X + DX, YY = Y + DY;
          if (XX >= 0 && XX < W && YY >= 0 && YY < H)
            S += Mask[(DY + R) * D + DX + R] * In[YY * W + XX];
        }
      return S;
    };
    std::string Name = "zeroPadConv r=" + std::to_string(R);
    if (R == 1)
      checkEach2D(E, K, W, H, FewC2D, 0.5f, SetArgs, Want, Name);
    else
      checkEach2D(E, K, W, H, FewB2D, 0.5f, SetArgs, Want, Name);
  }
}

CLT_TEST(wrapAroundModulo) {
  Program P = E.build(BorderSource);
  Kernel K = E.kernel(P, "wrapMod");
  const int W = 29, H = 13;
  auto In = randomVector<int>(size_t(W) * H, -50, 50, 9);
  Mem DIn = E.input(In);
  checkEach2D(
      E, K, W, H, FewB2D, 3, [&](Mem &DOut) { setArgs(K, DIn, DOut, W, H); },
      [&](int X, int Y) {
        int Lf = (X - 1 + W) % W, Rt = (X + 1) % W;
        int U = (Y - 1 + H) % H, Dn = (Y + 2) % H;
        return 4 * In[Y * W + X] - In[Y * W + Lf] - In[Y * W + Rt] -
               In[U * W + X] - 3 * In[Dn * W + X] + 2 * In[U * W + Rt];
      },
      "wrapMod");
}

//===-- Column-major data and 3D ranges -----------------------------------===//

static const char *LayoutSource = R"CLC(
// Column-major: element (x, y) at x * h + y, consecutive along id 1.
__kernel void colMajorStencil(__global const int *in, __global int *out,
                              int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x < w && y < h) {
    int c = x * h + y;
    int v = 2 * in[c];
    if (y > 0)
      v += in[c - 1];
    if (y < h - 1)
      v += 3 * in[c + 1];
    if (x > 0)
      v -= in[c - h];
    if (x < w - 1)
      v -= 5 * in[c + h];
    out[c] = v;
  }
}

// Parboil lbm's shape: a flag array marks obstacle cells, which bounce
// back; fluid cells pull from their six neighbours (periodic in x, walls in
// y and z), an obstacle neighbour giving back the cell's own value.
__kernel void lbmLike(__global const int *src, __global int *dst,
                      __global const uchar *flags, int nx, int ny, int nz) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x < nx && y < ny && z < nz) {
    int c = (z * ny + y) * nx + x;
    int self = src[c];
    if (flags[c]) {
      dst[c] = -self;
      return;
    }
    int n[6];
    n[0] = x > 0 ? c - 1 : c + nx - 1;
    n[1] = x < nx - 1 ? c + 1 : c - nx + 1;
    n[2] = y > 0 ? c - nx : c;
    n[3] = y < ny - 1 ? c + nx : c;
    n[4] = z > 0 ? c - nx * ny : c;
    n[5] = z < nz - 1 ? c + nx * ny : c;
    int s = 0;
    for (int k = 0; k < 6; k++)
      s += (k + 1) * (flags[n[k]] ? self : src[n[k]]);
    dst[c] = s - 2 * self;
  }
}
)CLC";

CLT_TEST(columnMajorStencilAlongY) {
  Program P = E.build(LayoutSource);
  Kernel K = E.kernel(P, "colMajorStencil");
  const int W = 13, H = 51;
  auto In = randomVector<int>(size_t(W) * H, -100, 100, 20);
  Mem DIn = E.input(In);
  checkEach2D(
      E, K, W, H, LaunchesY, -1,
      [&](Mem &DOut) { setArgs(K, DIn, DOut, W, H); },
      [&](int X, int Y) {
        int C = X * H + Y, V = 2 * In[C];
        if (Y > 0)
          V += In[C - 1];
        if (Y < H - 1)
          V += 3 * In[C + 1];
        if (X > 0)
          V -= In[C - H];
        if (X < W - 1)
          V -= 5 * In[C + H];
        return V;
      },
      [H](int X, int Y) { return size_t(X) * H + Y; }, "colMajorStencil");
}

CLT_TEST(parboilLbmObstacles3D) {
  Program P = E.build(LayoutSource);
  Kernel K = E.kernel(P, "lbmLike");
  const int NX = 19, NY = 11, NZ = 7;
  size_t Size = size_t(NX) * NY * NZ;
  auto Src = randomVector<int>(Size, -100, 100, 21);
  auto Flags = randomVector<cl_uchar>(Size, 0, 4, 22);
  for (cl_uchar &F : Flags)
    F = F == 0; // a fifth of the cells are obstacles
  Mem DSrc = E.input(Src), DFlags = E.input(Flags);
  // Local sizes with z > 1; one per global-offset choice (3D compiles are
  // the slow ones).
  const Launch3D Locals[] = {{{8, 4, 2}, {0, 0, 0}}, {{5, 3, 3}, {1, 2, 1}}};
  checkEach3D(
      E, K, NX, NY, NZ, Locals, 99,
      [&](Mem &DOut) { setArgs(K, DSrc, DOut, DFlags, NX, NY, NZ); },
      [&](int X, int Y, int Z) {
        int C = (Z * NY + Y) * NX + X, Self = Src[C];
        if (Flags[C])
          return -Self;
        int Nb[6] = {
            X > 0 ? C - 1 : C + NX - 1, X < NX - 1 ? C + 1 : C - NX + 1,
            Y > 0 ? C - NX : C,         Y < NY - 1 ? C + NX : C,
            Z > 0 ? C - NX * NY : C,    Z < NZ - 1 ? C + NX * NY : C};
        int S = 0;
        for (int Q = 0; Q < 6; ++Q)
          S += (Q + 1) * (Flags[Nb[Q]] ? Self : Src[Nb[Q]]);
        return S - 2 * Self;
      },
      "lbmLike");
}

//===-- Per-pixel and per-column loops ------------------------------------===//

static const char *LoopSource = R"CLC(
// Mandelbrot in Q10 fixed point: each pixel iterates until it escapes.
__kernel void mandelFixed(__global int *out, int w, int h, int x0, int y0,
                          int step, int maxIt) {
  int px = get_global_id(0), py = get_global_id(1);
  if (px < w && py < h) {
    int cx = x0 + px * step, cy = y0 + py * step;
    int zx = 0, zy = 0, it = 0;
    while (it < maxIt && zx * zx + zy * zy <= (4 << 20)) {
      int t = ((zx * zx - zy * zy) >> 10) + cx;
      zy = ((2 * zx * zy) >> 10) + cy;
      zx = t;
      it++;
    }
    out[py * w + px] = it;
  }
}

// RecursiveGaussian's column pass: one work-item per column runs a causal
// and an anticausal second-order recursion down and up the rows.
__kernel void recursiveColumns(__global const float *in, __global float *out,
                               int w, int h, float a0, float a1, float a2,
                               float a3, float b1, float b2) {
  int x = get_global_id(0);
  if (x >= w)
    return;
  float xp = 0.0f, yp = 0.0f, yb = 0.0f;
  for (int y = 0; y < h; y++) {
    float xc = in[y * w + x];
    float yc = a0 * xc + a1 * xp - b1 * yp - b2 * yb;
    out[y * w + x] = yc;
    xp = xc;
    yb = yp;
    yp = yc;
  }
  float xn = 0.0f, xa = 0.0f, yn = 0.0f, ya = 0.0f;
  for (int y = h - 1; y >= 0; y--) {
    float xc = in[y * w + x];
    float yc = a2 * xn + a3 * xa - b1 * yn - b2 * ya;
    xa = xn;
    xn = xc;
    ya = yn;
    yn = yc;
    out[y * w + x] += yc;
  }
}
)CLC";

CLT_TEST(mandelbrotFixedPoint) {
  Program P = E.build(LoopSource);
  Kernel K = E.kernel(P, "mandelFixed");
  const int W = 53, H = 37, X0 = -2253, Y0 = -1100, Step = 58, MaxIt = 150;
  std::vector<int> All(size_t(W) * H);
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X) {
      int Cx = X0 + X * Step, Cy = Y0 + Y * Step, Zx = 0, Zy = 0, It = 0;
      while (It < MaxIt && Zx * Zx + Zy * Zy <= (4 << 20)) {
        int T = ((Zx * Zx - Zy * Zy) >> 10) + Cx;
        Zy = ((2 * Zx * Zy) >> 10) + Cy;
        Zx = T;
        ++It;
      }
      All[Y * W + X] = It;
    }
  checkEach2D(
      E, K, W, H, Launches2D, -3,
      [&](Mem &DOut) { setArgs(K, DOut, W, H, X0, Y0, Step, MaxIt); },
      [&](int X, int Y) { return All[Y * W + X]; }, "mandel");
}

CLT_TEST(amdRecursiveGaussianColumns) {
  Program P = E.build(LoopSource);
  Kernel K = E.kernel(P, "recursiveColumns");
  const int W = 77, H = 31;
  const float A0 = 0.3f, A1 = 0.2f, A2 = 0.25f, A3 = -0.1f, B1 = -0.6f,
              B2 = 0.15f;
  auto In = randomVector<float>(size_t(W) * H, 0.0f, 1.0f, 30);
  Mem DIn = E.input(In);
  for (const Launch1D &L : Launches1D) {
    std::vector<float> Want(In.size(), 5.0f);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, W, H, A0, A1, A2, A3, B1, B2);
    run1D(E, K, W, L);
    for (int X = 0; X < W; ++X) {
      if (!launched(X, W, L.L, L.O))
        continue;
      double Xp = 0, Yp = 0, Yb = 0;
      for (int Y = 0; Y < H; ++Y) {
        double Xc = In[Y * W + X];
        double Yc = A0 * Xc + A1 * Xp - B1 * Yp - B2 * Yb;
        Want[Y * W + X] = float(Yc);
        Xp = Xc, Yb = Yp, Yp = Yc;
      }
      double Xn = 0, Xa = 0, Yn = 0, Ya = 0;
      for (int Y = H - 1; Y >= 0; --Y) {
        double Xc = In[Y * W + X];
        double Yc = A2 * Xn + A3 * Xa - B1 * Yn - B2 * Ya;
        Xa = Xn, Xn = Xc, Ya = Yn, Yn = Yc;
        Want[Y * W + X] = float(Want[Y * W + X] + Yc);
      }
    }
    expectNear(E.read<float>(DOut, Want.size()), Want, 1e-4, 1e-5,
               "recursiveColumns " + L.str());
  }
}

//===-- Local halos, matrix chains, boxes, partial tiles ------------------===//

static const char *GroupSource = R"CLC(
// SHOC Stencil2D's shape: a group loads its tile and a one-cell halo into
// local memory (zeros outside the image), then updates its interior cells.
__kernel void stencilLocalHalo(__global const float *in, __global float *out,
                               __local float *tile, int w, int h, float wc,
                               float wa, float wd) {
  int lx = get_local_id(0), ly = get_local_id(1);
  int lw = get_local_size(0), lh = get_local_size(1);
  int x = get_global_id(0), y = get_global_id(1);
  int tw = lw + 2;
  int gx0 = get_group_id(0) * lw + get_global_offset(0) - 1;
  int gy0 = get_group_id(1) * lh + get_global_offset(1) - 1;
  for (int j = ly; j < lh + 2; j += lh)
    for (int i = lx; i < lw + 2; i += lw) {
      int gx = gx0 + i, gy = gy0 + j;
      tile[j * tw + i] =
          (gx >= 0 && gx < w && gy >= 0 && gy < h) ? in[gy * w + gx] : 0.0f;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1) {
    int c = (ly + 1) * tw + lx + 1;
    out[y * w + x] =
        wc * tile[c] +
        wa * (tile[c - 1] + tile[c + 1] + tile[c - tw] + tile[c + tw]) +
        wd * (tile[c - tw - 1] + tile[c - tw + 1] + tile[c + tw - 1] +
              tile[c + tw + 1]);
  }
}

// PolyBench 2MM: tmp = alpha * A * B, then D = beta * D + tmp * C.
__kernel void mm2a(__global const float *a, __global const float *b,
                   __global float *tmp, float alpha, int ni, int nj, int nk) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nj) {
    float s = 0.0f;
    for (int k = 0; k < nk; k++)
      s += alpha * a[i * nk + k] * b[k * nj + j];
    tmp[i * nj + j] = s;
  }
}

__kernel void mm2b(__global const float *tmp, __global const float *c,
                   __global float *d, float beta, int ni, int nl, int nj) {
  int j = get_global_id(0), i = get_global_id(1);
  if (i < ni && j < nl) {
    d[i * nl + j] *= beta;
    for (int k = 0; k < nj; k++)
      d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
  }
}

// PolyBench 3MM's product, used three times: e = a * b.
__kernel void mm3(__global const float *a, __global const float *b,
                  __global float *e, int ni, int nj, int nk) {
  int j = get_global_id(0), i = get_global_id(1);
  if ((i < ni) && (j < nj)) {
    e[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++)
      e[i * nj + j] += a[i * nk + k] * b[k * nj + j];
  }
}

// PolyBench doitgen: a loop over r inside each (p, q) work-item, over s
// below it; tri makes the s loop triangular (s <= p).
__kernel void doitgen1(__global const float *A, __global const float *C4,
                       __global float *sum, int nr, int nq, int np,
                       int tri) {
  int p = get_global_id(0), q = get_global_id(1);
  if (p < np && q < nq)
    for (int r = 0; r < nr; r++) {
      float s = 0.0f;
      int top = tri ? p + 1 : np;
      for (int t = 0; t < top; t++)
        s += A[(r * nq + q) * np + t] * C4[t * np + p];
      sum[(r * nq + q) * np + p] = s;
    }
}

__kernel void doitgen2(__global float *A, __global const float *sum, int nr,
                       int nq, int np) {
  int p = get_global_id(0), q = get_global_id(1);
  if (p < np && q < nq)
    for (int r = 0; r < nr; r++)
      A[(r * nq + q) * np + p] = sum[(r * nq + q) * np + p];
}

// Rodinia lavaMD's shape: one group a box, one work-item a particle of the
// box; the box and each of its neighbours (their count depends on the box)
// go through local memory between barriers.
__kernel void lavaBoxes(__global const int *start, __global const int *count,
                        __global const int *nn, __global const int *nbr,
                        int maxn, __global const int *pos,
                        __global const int *val, __global int *out,
                        __local int *lp, __local int *lv) {
  int b = get_group_id(0), lid = get_local_id(0);
  int mine = lid < count[b];
  int me = start[b] + lid;
  int px = mine ? pos[me] : 0;
  int acc = 0;
  for (int k = 0; k <= nn[b]; k++) {
    int o = k == 0 ? b : nbr[b * maxn + k - 1];
    int oc = count[o];
    if (lid < oc) {
      lp[lid] = pos[start[o] + lid];
      lv[lid] = val[start[o] + lid];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (mine)
      for (int j = 0; j < oc; j++) {
        int d = px - lp[j];
        acc += lv[j] * (d > 0 ? d : -d) + (k == 0 && j == lid ? 1000 : 0);
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (mine)
    out[me] = acc;
}

// A tree over the partial last tile: the group's count bounds the loop, and
// group sizes need not be powers of two. CUDA-style ids (no offset).
__kernel void partialTileSum(__global const int *in, __global int *partial,
                             __local int *s, int n) {
  int lid = get_local_id(0), ls = get_local_size(0), g = get_group_id(0);
  int i = g * ls + lid;
  int count = min(ls, n - g * ls);
  s[lid] = i < n ? in[i] : 12345;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 1; stride < count; stride *= 2) {
    if (lid % (2 * stride) == 0 && lid + stride < count)
      s[lid] += s[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[g] = s[0];
}
)CLC";

CLT_TEST(shocStencil2DLocalHalo) {
  Program P = E.build(GroupSource);
  Kernel K = E.kernel(P, "stencilLocalHalo");
  const int W = 45, H = 26;
  const float Wc = 4, Wa = 2, Wd = -1;
  auto In0 = smallFloats(size_t(W) * H, -30, 30, 40);
  const Launch2D Locals[] = {
      {16, 16, 0, 0}, {8, 4, 3, 2}, {5, 3, 0, 0}, {3, 17, 1, 3}};
  for (const Launch2D &L : Locals) {
    // Two steps ping-ponging between the buffers.
    Mem DA = inout(E, In0), DB = inout(E, In0);
    std::vector<float> A = In0, B = In0;
    for (int Step = 0; Step < 2; ++Step) {
      setArgs(K, Step ? DB : DA, Step ? DA : DB,
              LocalMem{(L.L0 + 2) * (L.L1 + 2) * sizeof(float)}, W, H, Wc, Wa,
              Wd);
      run2D(E, K, W, H, L);
      const std::vector<float> &S = Step ? B : A;
      std::vector<float> &D = Step ? A : B;
      for (int Y = 1; Y < H - 1; ++Y)
        for (int X = 1; X < W - 1; ++X) {
          if (!launched(X, W, L.L0, L.O0) || !launched(Y, H, L.L1, L.O1))
            continue;
          int C = Y * W + X;
          D[C] =
              Wc * S[C] + Wa * (S[C - 1] + S[C + 1] + S[C - W] + S[C + W]) +
              Wd * (S[C - W - 1] + S[C - W + 1] + S[C + W - 1] + S[C + W + 1]);
        }
    }
    expectEqual(E.read<float>(DA, A.size()), A, "stencil2d A " + L.str());
    expectEqual(E.read<float>(DB, B.size()), B, "stencil2d B " + L.str());
  }
}

namespace {
/// e (ni x nj) = a (ni x nk) * b (nk x nj) on the host, on the launched
/// part of the range only.
void hostMm(const std::vector<float> &A, const std::vector<float> &B,
            std::vector<float> &Out, int NI, int NJ, int NK, const Launch2D &L,
            float Alpha = 1) {
  for (int I = 0; I < NI; ++I)
    for (int J = 0; J < NJ; ++J) {
      if (!launched(I, NI, L.L1, L.O1) || !launched(J, NJ, L.L0, L.O0))
        continue;
      float S = 0;
      for (int Q = 0; Q < NK; ++Q)
        S += Alpha * A[I * NK + Q] * B[Q * NJ + J];
      Out[I * NJ + J] = S;
    }
}
} // namespace

CLT_TEST(poly2mm3mmChains) {
  Program P = E.build(GroupSource);
  Kernel KA = E.kernel(P, "mm2a"), KB = E.kernel(P, "mm2b"),
         K3 = E.kernel(P, "mm3");
  const int NI = 21, NJ = 35, NK = 13, NL = 18, NM = 9;
  auto A = smallFloats(size_t(NI) * NK, -3, 3, 50);
  auto B = smallFloats(size_t(NK) * NJ, -3, 3, 51);
  auto C = smallFloats(size_t(NJ) * NL, -3, 3, 52);
  auto D0 = smallFloats(size_t(NI) * NL, -3, 3, 53);
  auto Dm = smallFloats(size_t(NL) * NM, -3, 3, 54); // 3MM's D
  Mem DA = E.input(A), DB = E.input(B), DC = E.input(C), DDm = E.input(Dm);
  const float Alpha = 2, Beta = -3;
  for (const Launch2D &L : FewB2D) {
    // 2MM
    std::vector<float> Tmp(size_t(NI) * NJ, 1.0f), D = D0;
    Mem DTmp = inout(E, Tmp), DD = inout(E, D);
    setArgs(KA, DA, DB, DTmp, Alpha, NI, NJ, NK);
    run2D(E, KA, NJ, NI, L);
    setArgs(KB, DTmp, DC, DD, Beta, NI, NL, NJ);
    run2D(E, KB, NL, NI, L);
    hostMm(A, B, Tmp, NI, NJ, NK, L, Alpha);
    for (int I = 0; I < NI; ++I)
      for (int J = 0; J < NL; ++J) {
        if (!launched(I, NI, L.L1, L.O1) || !launched(J, NL, L.L0, L.O0))
          continue;
        float &V = D[I * NL + J];
        V *= Beta;
        for (int Q = 0; Q < NJ; ++Q)
          V += Tmp[I * NJ + Q] * C[Q * NL + J];
      }
    expectEqual(E.read<float>(DTmp, Tmp.size()), Tmp, "2mm tmp " + L.str());
    expectEqual(E.read<float>(DD, D.size()), D, "2mm d " + L.str());
    // 3MM: E = A * B (NI x NJ), F = C * Dm (NJ x NM), G = E * F (NI x NM).
    std::vector<float> Ee(size_t(NI) * NJ, 2.0f), F(size_t(NJ) * NM, 2.0f),
        G(size_t(NI) * NM, 2.0f);
    Mem DE = inout(E, Ee), DF = inout(E, F), DG = inout(E, G);
    setArgs(K3, DA, DB, DE, NI, NJ, NK);
    run2D(E, K3, NJ, NI, L);
    setArgs(K3, DC, DDm, DF, NJ, NM, NL);
    run2D(E, K3, NM, NJ, L);
    setArgs(K3, DE, DF, DG, NI, NM, NJ);
    run2D(E, K3, NM, NI, L);
    hostMm(A, B, Ee, NI, NJ, NK, L);
    hostMm(C, Dm, F, NJ, NM, NL, L);
    hostMm(Ee, F, G, NI, NM, NJ, L);
    expectEqual(E.read<float>(DE, Ee.size()), Ee, "3mm e " + L.str());
    expectEqual(E.read<float>(DF, F.size()), F, "3mm f " + L.str());
    expectEqual(E.read<float>(DG, G.size()), G, "3mm g " + L.str());
  }
}

CLT_TEST(polyDoitgenSquareAndTriangular) {
  Program P = E.build(GroupSource);
  Kernel K1 = E.kernel(P, "doitgen1"), K2 = E.kernel(P, "doitgen2");
  const int NR = 5, NQ = 11, NP = 27;
  auto A0 = smallFloats(size_t(NR) * NQ * NP, -3, 3, 60);
  auto C4 = smallFloats(size_t(NP) * NP, -3, 3, 61);
  Mem DC4 = E.input(C4);
  for (int Tri = 0; Tri < 2; ++Tri)
    for (const Launch2D &L : Tri ? FewC2D : FewB2D) {
      std::vector<float> A = A0, Sum(A0.size(), 7.0f);
      Mem DA = inout(E, A), DSum = inout(E, Sum);
      setArgs(K1, DA, DC4, DSum, NR, NQ, NP, Tri);
      run2D(E, K1, NP, NQ, L);
      setArgs(K2, DA, DSum, NR, NQ, NP);
      run2D(E, K2, NP, NQ, L);
      for (int Q = 0; Q < NQ; ++Q)
        for (int Pp = 0; Pp < NP; ++Pp) {
          if (!launched(Pp, NP, L.L0, L.O0) || !launched(Q, NQ, L.L1, L.O1))
            continue;
          for (int R = 0; R < NR; ++R) {
            float S = 0;
            for (int T = 0; T < (Tri ? Pp + 1 : NP); ++T)
              S += A0[(R * NQ + Q) * NP + T] * C4[T * NP + Pp];
            Sum[(R * NQ + Q) * NP + Pp] = S;
          }
        }
      for (int Q = 0; Q < NQ; ++Q)
        for (int Pp = 0; Pp < NP; ++Pp)
          if (launched(Pp, NP, L.L0, L.O0) && launched(Q, NQ, L.L1, L.O1))
            for (int R = 0; R < NR; ++R)
              A[(R * NQ + Q) * NP + Pp] = Sum[(R * NQ + Q) * NP + Pp];
      std::string What = std::string(Tri ? "triangular " : "square ") + L.str();
      expectEqual(E.read<float>(DSum, Sum.size()), Sum, "doitgen sum " + What);
      expectEqual(E.read<float>(DA, A.size()), A, "doitgen A " + What);
    }
}

CLT_TEST(rodiniaLavaMDBoxes) {
  Program P = E.build(GroupSource);
  Kernel K = E.kernel(P, "lavaBoxes");
  const int Boxes = 13, MaxN = 6;
  for (const Launch1D &L : {Launch1D{7, 0}, Launch1D{16, 3}, Launch1D{33, 0}}) {
    int Lsz = int(L.L);
    // Box counts in [0, local size], some empty, some full.
    auto Count = randomVector<int>(Boxes, 0, Lsz, 70 + unsigned(Lsz));
    Count[2] = 0;
    Count[5] = Lsz;
    std::vector<int> Start(Boxes);
    int Total = 0;
    for (int B = 0; B < Boxes; ++B)
      Start[B] = Total, Total += Count[B];
    auto Nn = randomVector<int>(Boxes, 0, MaxN, 71);
    auto Nbr = randomVector<int>(size_t(Boxes) * MaxN, 0, Boxes - 1, 72);
    auto Pos = randomVector<int>(std::max(Total, 1), -50, 50, 73);
    auto Val = randomVector<int>(std::max(Total, 1), -9, 9, 74);
    Mem DStart = E.input(Start), DCount = E.input(Count), DNn = E.input(Nn),
        DNbr = E.input(Nbr), DPos = E.input(Pos), DVal = E.input(Val);
    std::vector<int> Want(std::max(Total, 1), -5);
    Mem DOut = inout(E, Want);
    setArgs(K, DStart, DCount, DNn, DNbr, MaxN, DPos, DVal, DOut,
            LocalMem{L.L * sizeof(int)}, LocalMem{L.L * sizeof(int)});
    size_t Global = size_t(Boxes) * L.L, Offset = L.O;
    E.run(K, 1, &Global, &L.L, &Offset);
    for (int B = 0; B < Boxes; ++B)
      for (int I = 0; I < Count[B]; ++I) {
        int Me = Start[B] + I, Acc = 0;
        for (int Q = 0; Q <= Nn[B]; ++Q) {
          int O = Q == 0 ? B : Nbr[B * MaxN + Q - 1];
          for (int J = 0; J < Count[O]; ++J) {
            int D = Pos[Me] - Pos[Start[O] + J];
            Acc +=
                Val[Start[O] + J] * std::abs(D) + (Q == 0 && J == I ? 1000 : 0);
          }
        }
        Want[Me] = Acc;
      }
    expectEqual(E.read<int>(DOut, Want.size()), Want, "lavaBoxes " + L.str());
  }
}

CLT_TEST(partialTileReduction) {
  Program P = E.build(GroupSource);
  Kernel K = E.kernel(P, "partialTileSum");
  const int N = 301;
  auto In = randomVector<int>(N, -1000, 1000, 80);
  Mem DIn = E.input(In);
  const Launch1D Locals[] = {{1, 0},  {7, 0},  {24, 0}, {33, 0},
                             {48, 0}, {64, 0}, {100, 0}};
  for (const Launch1D &L : Locals) {
    size_t Groups = roundUp(N, L.L) / L.L;
    std::vector<int> Want(Groups, 0);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, LocalMem{L.L * sizeof(int)}, N);
    run1D(E, K, N, L);
    for (int I = 0; I < N; ++I)
      Want[I / L.L] += In[I];
    expectEqual(E.read<int>(DOut, Groups), Want, "partialTileSum " + L.str());
  }
}

//===-- Edges of the guards -----------------------------------------------===//

static const char *EdgeSource = R"CLC(
// First and last group, first and last lane.
__kernel void groupLaneEdges(__global const int *in, __global int *out,
                             int n) {
  size_t lid = get_local_id(0), g = get_group_id(0);
  size_t ng = get_num_groups(0), ls = get_local_size(0);
  int i = get_global_id(0);
  if (i >= n)
    return;
  int v = in[i];
  if (g == 0 && lid == 0)
    v = -1000;
  else if (g == ng - 1 && lid == ls - 1)
    v = 1000;
  else if (lid == 0 || lid == ls - 1)
    v += 100 * (int)g;
  else if (g == 0 || g == ng - 1)
    v *= 3;
  out[i] = v;
}

// Unsigned neighbours: i - 1 wraps to UINT_MAX at 0 and fails `< n`.
__kernel void unsignedNeighbours(__global const int *in, __global int *out,
                                 uint n) {
  uint i = get_global_id(0);
  uint l = i - 1, r = i + 1;
  if (i < n) {
    int v = 2 * in[i];
    if (l < n)
      v += in[l];
    if (r < n)
      v -= 3 * in[r];
    out[i] = v;
  }
}

// The bound is computed from the arguments.
__kernel void productGuard(__global const int *in, __global int *out, int a,
                           int b, int c) {
  int i = get_global_id(0);
  int n = a * b + c;
  if (i < n)
    out[i] = in[i] * 3 + a;
  else if (i < a * b + 2 * c)
    out[i] = -in[i];
}

// Guards made of ||, ! and a negated comparison.
__kernel void orNotGuards(__global const int *in, __global int *out, int lo,
                          int hi, int n) {
  int i = get_global_id(0);
  if (!(i < n))
    return;
  if (i < lo || i >= hi || !(i != lo + 5))
    out[i] = in[i] + 7;
  else if (!(i < hi - 9))
    out[i] = in[i] * 2;
}

// With periodic conditions: every fourth id, and every fifth.
__kernel void orNotGuardsPeriodic(__global const int *in, __global int *out,
                                  int lo, int hi, int n) {
  int i = get_global_id(0);
  if (!(i < n))
    return;
  if (i < lo || i >= hi || !(i & 3))
    out[i] = in[i] + 7;
  else if (!(i % 5 != 0))
    out[i] = in[i] * 2;
}

// Ternaries choosing the buffer read and the buffer written.
__kernel void ternaryAddresses(__global const int *a, __global const int *b,
                               __global int *outA, __global int *outB,
                               int split, int n) {
  int i = get_global_id(0);
  if (i < n) {
    __global const int *src = i < split ? a + i : b + (n - 1 - i);
    __global int *dst = (i & 1) ? outA : outB;
    dst[i] = *src * 2 + 1;
  }
}

// Only the stores are guarded: the reads are clamped into range.
__kernel void storeGuardOnly(__global const int *in, __global int *out, int n,
                             int thr) {
  int i = get_global_id(0);
  int j = min(i, n - 1);
  int v = in[j] * in[j] - thr + in[max(j - 1, 0)];
  if (i < n)
    out[i] = v;
}

__kernel void storeGuardData(__global const int *in, __global int *out, int n,
                             int thr) {
  int i = get_global_id(0);
  int j = min(i, n - 1);
  int v = in[j] * in[j] - thr;
  if (i < n && v > 0)
    out[i] = v;
}
)CLC";

CLT_TEST(firstLastGroupAndLane) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "groupLaneEdges");
  const int N = 150;
  auto In = randomVector<int>(N, -50, 50, 90);
  Mem DIn = E.input(In);
  for (const Launch1D &L : Launches1D) {
    std::vector<int> Want(N, 1);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, N);
    run1D(E, K, N, L);
    size_t G = roundUp(N, L.L), Ng = G / L.L;
    for (int I = 0; I < N; ++I) {
      if (!launched(I, N, L.L, L.O))
        continue;
      size_t Lid = (I - L.O) % L.L, Gr = (I - L.O) / L.L;
      int V = In[I];
      if (Gr == 0 && Lid == 0)
        V = -1000;
      else if (Gr == Ng - 1 && Lid == L.L - 1)
        V = 1000;
      else if (Lid == 0 || Lid == L.L - 1)
        V += 100 * int(Gr);
      else if (Gr == 0 || Gr == Ng - 1)
        V *= 3;
      Want[I] = V;
    }
    expectEqual(E.read<int>(DOut, N), Want, "groupLaneEdges " + L.str());
  }
}

CLT_TEST(unsignedIdWrapsAtZero) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "unsignedNeighbours");
  for (cl_uint N : {1u, 97u}) {
    auto In = randomVector<int>(N, -50, 50, 91);
    Mem DIn = E.input(In);
    auto SetArgs = [&](Mem &DOut) { setArgs(K, DIn, DOut, N); };
    auto Update = [&](int I, int &Out) {
      Out = 2 * In[I];
      if (I >= 1)
        Out += In[I - 1];
      if (I + 1 < int(N))
        Out -= 3 * In[I + 1];
    };
    std::string Name = "unsignedNeighbours n=" + std::to_string(N);
    if (N == 1)
      checkEach1D(E, K, N, FewA1D, 4, SetArgs, Update, Name);
    else
      checkEach1D(E, K, N, FewB1D, 4, SetArgs, Update, Name);
  }
}

CLT_TEST(guardFromArguments) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "productGuard");
  const int Size = 200;
  auto In = randomVector<int>(Size, -50, 50, 92);
  Mem DIn = E.input(In);
  struct Abc {
    int A, B, C;
  };
  for (Abc X : {Abc{7, 9, 5}, Abc{4, 16, 0}, Abc{3, 11, 40}})
    for (const Launch1D &L : FewA1D) {
      int N = X.A * X.B + X.C, N2 = X.A * X.B + 2 * X.C;
      std::vector<int> Want(Size, 8);
      Mem DOut = inout(E, Want);
      setArgs(K, DIn, DOut, X.A, X.B, X.C);
      run1D(E, K, std::max(N2, 1), L);
      for (int I = 0; I < N2; ++I) {
        if (!launched(I, std::max(N2, 1), L.L, L.O))
          continue;
        Want[I] = I < N ? In[I] * 3 + X.A : -In[I];
      }
      expectEqual(E.read<int>(DOut, Size), Want,
                  "productGuard " + std::to_string(X.A) + "*" +
                      std::to_string(X.B) + "+" + std::to_string(X.C) + " " +
                      L.str());
    }
}

CLT_TEST(orAndNotGuards) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "orNotGuards");
  const int N = 130, Lo = 21, Hi = 101;
  auto In = randomVector<int>(N, -50, 50, 93);
  Mem DIn = E.input(In);
  checkEach1D(
      E, K, N, FewB1D, 6, [&](Mem &DOut) { setArgs(K, DIn, DOut, Lo, Hi, N); },
      [&](int I, int &Out) {
        if (I < Lo || I >= Hi || I == Lo + 5)
          Out = In[I] + 7;
        else if (I >= Hi - 9)
          Out = In[I] * 2;
      },
      "orNotGuards");
}

CLT_TEST(ternaryAddressSelection) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "ternaryAddresses");
  const int N = 111, Split = 43;
  auto A = randomVector<int>(N, -50, 50, 94);
  auto B = randomVector<int>(N, -50, 50, 95);
  Mem DA = E.input(A), DB = E.input(B);
  for (const Launch1D &L : Launches1D) {
    std::vector<int> WantA(N, 2), WantB(N, 3);
    Mem DOA = inout(E, WantA), DOB = inout(E, WantB);
    setArgs(K, DA, DB, DOA, DOB, Split, N);
    run1D(E, K, N, L);
    for (int I = 0; I < N; ++I) {
      if (!launched(I, N, L.L, L.O))
        continue;
      int Src = I < Split ? A[I] : B[N - 1 - I];
      ((I & 1) ? WantA : WantB)[I] = Src * 2 + 1;
    }
    expectEqual(E.read<int>(DOA, N), WantA, "ternary outA " + L.str());
    expectEqual(E.read<int>(DOB, N), WantB, "ternary outB " + L.str());
  }
}

CLT_TEST(onlyTheStoreIsGuarded) {
  Program P = E.build(EdgeSource);
  Kernel KId = E.kernel(P, "storeGuardOnly"),
         KData = E.kernel(P, "storeGuardData");
  const int N = 123, Thr = 400;
  auto In = randomVector<int>(N, -40, 40, 96);
  Mem DIn = E.input(In);
  for (const Launch1D &L : Launches1D) {
    for (int Data = 0; Data < 2; ++Data) {
      std::vector<int> Want(N, -9);
      Mem DOut = inout(E, Want);
      cl_kernel K = Data ? KData.get() : KId.get();
      setArgs(K, DIn, DOut, N, Thr);
      run1D(E, K, N, L);
      for (int I = 0; I < N; ++I) {
        if (!launched(I, N, L.L, L.O))
          continue;
        int V = In[I] * In[I] - Thr;
        if (!Data)
          Want[I] = V + In[std::max(I - 1, 0)];
        else if (V > 0)
          Want[I] = V;
      }
      expectEqual(E.read<int>(DOut, N), Want,
                  std::string(Data ? "storeGuardData " : "storeGuardOnly ") +
                      L.str());
    }
  }
}

//===-- Checkerboards, unsigned interiors, diamonds, 2D group edges -------===//

static const char *Edge2DSource = R"CLC(
// Red-black SOR: one colour of the interior per sweep, in place.
__kernel void redBlack(__global int *a, int w, int h, int color) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1 && ((x + y) & 1) == color)
    a[y * w + x] = (a[y * w + x - 1] + a[y * w + x + 1] + a[(y - 1) * w + x] +
                    a[(y + 1) * w + x]) / 4 - a[y * w + x] / 2;
}

// The interior by one unsigned comparison per dimension; the border and the
// padding take the other branch (the padding fails `< w`).
__kernel void unsignedInterior(__global const int *in, __global int *out,
                               int w, int h) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x - 1 < (uint)(w - 2) && y - 1 < (uint)(h - 2))
    out[y * w + x] = in[y * w + x - 1] - in[y * w + x + 1] +
                     2 * in[(y - 1) * w + x] - in[(y + 1) * w + x];
  else if (x < (uint)w && y < (uint)h)
    out[y * w + x] = -in[y * w + x];
}

// A diamond around (cx, cy) and diagonal blocks.
__kernel void diamondBlocks(__global const int *in, __global int *out, int w,
                            int h, int cx, int cy, int r) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int v = in[y * w + x];
  if (abs(x - cx) + abs(y - cy) <= r)
    v += 1000;
  if (x / 8 == y / 8)
    v = -v;
  else if ((x >> 2) == (y >> 2) + 1)
    v *= 3;
  out[y * w + x] = v;
}

// Group and lane edges in 2D: the last group column's first row of lanes,
// the first group row's last lane column, and a group-id parity.
__kernel void groupEdges2D(__global const int *in, __global int *out, int w,
                           int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0), gy = get_group_id(1);
  int v = in[y * w + x];
  if (gx == (int)get_num_groups(0) - 1 && ly == 0)
    v += 100;
  else if (gy == 0 && lx == (int)get_local_size(0) - 1)
    v -= 100;
  else if (((gx + gy) & 1) && lx != ly)
    v *= 2;
  out[y * w + x] = v;
}

// size_t ids: i - 1 and i + 1 against an unsigned bound that is 0 for
// n == 0 (n - 1 wraps).
__kernel void sizeTNeighbours(__global const int *in, __global int *out,
                              uint n) {
  size_t i = get_global_id(0);
  size_t m = (size_t)n - 1;
  if (i < n) {
    int v = in[i];
    if (i - 1 < m)
      v += 10 * in[i - 1];
    if (i < m)
      v += 100 * in[i + 1];
    out[i] = v;
  }
}
)CLC";

CLT_TEST(unsignedInteriorTest) {
  Program P = E.build(Edge2DSource);
  Kernel K = E.kernel(P, "unsignedInterior");
  const int W = 38, H = 21;
  auto In = randomVector<int>(size_t(W) * H, -100, 100, 101);
  Mem DIn = E.input(In);
  checkEach2D(
      E, K, W, H, Launches2D, 13,
      [&](Mem &DOut) { setArgs(K, DIn, DOut, W, H); },
      [&](int X, int Y) {
        if (X > 0 && X < W - 1 && Y > 0 && Y < H - 1)
          return In[Y * W + X - 1] - In[Y * W + X + 1] +
                 2 * In[(Y - 1) * W + X] - In[(Y + 1) * W + X];
        return -In[Y * W + X];
      },
      "unsignedInterior");
}

CLT_TEST(diamondAndDiagonalBlocks) {
  Program P = E.build(Edge2DSource);
  Kernel K = E.kernel(P, "diamondBlocks");
  const int W = 43, H = 30, Cx = 20, Cy = 13, R = 11;
  auto In = randomVector<int>(size_t(W) * H, -100, 100, 102);
  Mem DIn = E.input(In);
  checkEach2D(
      E, K, W, H, FewC2D, 17,
      [&](Mem &DOut) { setArgs(K, DIn, DOut, W, H, Cx, Cy, R); },
      [&](int X, int Y) {
        int V = In[Y * W + X];
        if (std::abs(X - Cx) + std::abs(Y - Cy) <= R)
          V += 1000;
        if (X / 8 == Y / 8)
          V = -V;
        else if ((X >> 2) == (Y >> 2) + 1)
          V *= 3;
        return V;
      },
      "diamondBlocks");
}

CLT_TEST(groupAndLaneEdges2D) {
  Program P = E.build(Edge2DSource);
  Kernel K = E.kernel(P, "groupEdges2D");
  const int W = 37, H = 19;
  auto In = randomVector<int>(size_t(W) * H, -100, 100, 103);
  Mem DIn = E.input(In);
  for (const Launch2D &L : Launches2D) {
    std::vector<int> Want(In.size(), 19);
    Mem DOut = inout(E, Want);
    setArgs(K, DIn, DOut, W, H);
    run2D(E, K, W, H, L);
    int Ngx = int(roundUp(W, L.L0) / L.L0);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        if (!launched(X, W, L.L0, L.O0) || !launched(Y, H, L.L1, L.O1))
          continue;
        int Lx = int((X - L.O0) % L.L0), Ly = int((Y - L.O1) % L.L1);
        int Gx = int((X - L.O0) / L.L0), Gy = int((Y - L.O1) / L.L1);
        int V = In[Y * W + X];
        if (Gx == Ngx - 1 && Ly == 0)
          V += 100;
        else if (Gy == 0 && Lx == int(L.L0) - 1)
          V -= 100;
        else if (((Gx + Gy) & 1) && Lx != Ly)
          V *= 2;
        Want[Y * W + X] = V;
      }
    expectEqual(E.read<int>(DOut, Want.size()), Want,
                "groupEdges2D " + L.str());
  }
}

CLT_TEST(sizeTIdsWrap) {
  Program P = E.build(Edge2DSource);
  Kernel K = E.kernel(P, "sizeTNeighbours");
  const cl_uint Size = 90;
  auto In = randomVector<int>(Size, -9, 9, 104);
  Mem DIn = E.input(In);
  for (cl_uint N : {0u, 1u, 2u, 90u})
    for (const Launch1D &L : FewB1D) {
      std::vector<int> Want(Size, 21);
      Mem DOut = inout(E, Want);
      setArgs(K, DIn, DOut, N);
      run1D(E, K, std::max<cl_uint>(N, 1), L);
      for (cl_uint I = 0; I < N; ++I) {
        if (!launched(I, std::max<cl_uint>(N, 1), L.L, L.O))
          continue;
        int V = In[I];
        if (I >= 1 && I - 1 < N - 1)
          V += 10 * In[I - 1];
        if (I + 1 < N)
          V += 100 * In[I + 1];
        Want[I] = V;
      }
      expectEqual(E.read<int>(DOut, Size), Want,
                  "sizeTNeighbours n=" + std::to_string(N) + " " + L.str());
    }
}

//===-- Periodic guards ---------------------------------------------------===//

// In score and split+score these kernels' scores did not end (the 300 s
// watchdog): the boxes of their accesses' parts grew without bound in
// isl's maxima and unions (scoresOf -> boxExtents -> unionMax). Each case
// is on its own, last in the file, so that a watchdog on one does not
// hide the others.
//
// wrapMask: the ring's index `(i & ~(RING - 1)) + ((i + shift) & (RING -
// 1))` behind the `i < n` guard.
CLT_TEST(wrapAroundPowerOfTwoMask) {
  Program P = E.build(BorderSource);
  Kernel KMask = E.kernel(P, "wrapMask");
  {
    const int N = 151, Ring = 32;
    auto In = randomVector<int>(roundUp(N, Ring), -50, 50, 10);
    Mem DIn = E.input(In);
    for (int Shift : {1, 31, 37})
      for (const Launch1D &L : FewB1D) {
        std::vector<int> Want(N, 11);
        Mem DOut = inout(E, Want);
        setArgs(KMask, DIn, DOut, N, Shift);
        run1D(E, KMask, N, L);
        for (int I = 0; I < N; ++I)
          if (launched(I, N, L.L, L.O)) {
            int Base = I & ~(Ring - 1);
            Want[I] = In[Base + ((I + Shift) & (Ring - 1))] -
                      2 * In[Base + ((I - 1) & (Ring - 1))] + In[I];
          }
        expectEqual(E.read<int>(DOut, N), Want,
                    "wrapMask shift " + std::to_string(Shift) + " " + L.str());
      }
  }
}

// orNotGuardsPeriodic: a tail guard over the two periodic conditions
// `(i & 3) == 0` and `i % 5 == 0`. Its split reaches the predicates' quota
// too (a second per launch): four launches.
CLT_TEST(orNotPeriodicGuards) {
  Program P = E.build(EdgeSource);
  Kernel K = E.kernel(P, "orNotGuardsPeriodic");
  const int N = 130, Lo = 21, Hi = 101;
  auto In = randomVector<int>(N, -50, 50, 93);
  Mem DIn = E.input(In);
  checkEach1D(
      E, K, N, FewB1D, 6, [&](Mem &DOut) { setArgs(K, DIn, DOut, Lo, Hi, N); },
      [&](int I, int &Out) {
        if (I < Lo || I >= Hi || !(I & 3))
          Out = In[I] + 7;
        else if (I % 5 == 0)
          Out = In[I] * 2;
      },
      "orNotGuardsPeriodic");
}

// redBlack (score only): the interior guard on both ids with the parity
// `((x + y) & 1) == color`.
CLT_TEST(redBlackCheckerboard) {
  Program P = E.build(Edge2DSource);
  Kernel K = E.kernel(P, "redBlack");
  const int W = 35, H = 22;
  auto A0 = randomVector<int>(size_t(W) * H, -1000, 1000, 100);
  const Launch2D Locals[] = {
      {8, 4, 0, 0}, {8, 4, 3, 2}, {5, 3, 0, 0}, {16, 16, 1, 0}};
  for (const Launch2D &L : Locals) {
    Mem DA = inout(E, A0);
    std::vector<int> A = A0;
    for (int Sweep = 0; Sweep < 4; ++Sweep) {
      int Color = Sweep & 1;
      setArgs(K, DA, W, H, Color);
      run2D(E, K, W, H, L);
      for (int Y = 1; Y < H - 1; ++Y)
        for (int X = 1; X < W - 1; ++X)
          if (((X + Y) & 1) == Color && launched(X, W, L.L0, L.O0) &&
              launched(Y, H, L.L1, L.O1))
            A[Y * W + X] = (A[Y * W + X - 1] + A[Y * W + X + 1] +
                            A[(Y - 1) * W + X] + A[(Y + 1) * W + X]) /
                               4 -
                           A[Y * W + X] / 2;
    }
    expectEqual(E.read<int>(DA, A.size()), A, "redBlack " + L.str());
  }
}
