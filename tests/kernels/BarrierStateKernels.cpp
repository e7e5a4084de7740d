//===- BarrierStateKernels.cpp - Private state across barriers, end to end ===//
// SPDX-License-Identifier: MIT
//
// Kernels whose private variables carry state from one parallel region to
// the next: tree reductions whose active size is a private variable updated
// inside a barrier loop (the shape of the conformance suites' reductions),
// loop-carried uniform values that swap or rotate (a value read in the same
// region that overwrites it), and private arrays that must stay private
// however large they are. Each kernel is checked against a host reference
// for several local sizes, in every POCL_ISS_MODE.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

/// Tree reductions of p[0..get_local_size(0)) to p[0], where the active
/// size and the half are private variables updated inside the barrier
/// loop: in a while loop after the barrier (the conformance shape), in a
/// for loop's increment, before the barrier, with the half recomputed each
/// time, and over global instead of local memory.
static const char *TreeSource = R"CLC(
kernel void treeWhile(global const uint *in, global uint *out,
                      local uint *p) {
  uint t = get_local_id(0);
  p[t] = in[get_global_id(0)];
  uint active = get_local_size(0);
  uint h = (active + 1) / 2;
  while (active > 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + h < active)
      p[t] += p[t + h];
    active = h;
    h = (h + 1) / 2;
  }
  if (t == 0)
    out[get_group_id(0)] = p[0];
}

kernel void treeFor(global const uint *in, global uint *out, local uint *p) {
  uint t = get_local_id(0);
  p[t] = in[get_global_id(0)];
  for (uint active = get_local_size(0), h = (get_local_size(0) + 1) / 2;
       active > 1; active = h, h = (h + 1) / 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + h < active)
      p[t] += p[t + h];
  }
  if (t == 0)
    out[get_group_id(0)] = p[0];
}

kernel void treeUpdateBefore(global const uint *in, global uint *out,
                             local uint *p) {
  uint t = get_local_id(0);
  p[t] = in[get_global_id(0)];
  uint active = get_local_size(0), h = (active + 1) / 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  while (active > 1) {
    if (t + h < active)
      p[t] += p[t + h];
    uint next = h;
    h = (h + 1) / 2;
    active = next;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0)
    out[get_group_id(0)] = p[0];
}

kernel void treeHalfInside(global const uint *in, global uint *out,
                           local uint *p) {
  uint t = get_local_id(0);
  p[t] = in[get_global_id(0)];
  uint active = get_local_size(0);
  do {
    uint h = (active + 1) / 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + h < active)
      p[t] += p[t + h];
    active = h;
  } while (active > 1);
  if (t == 0)
    out[get_group_id(0)] = p[0];
}

kernel void treeGlobal(global const uint *in, global uint *out,
                       global uint *scratch) {
  uint t = get_local_id(0);
  global uint *p = scratch + get_group_id(0) * get_local_size(0);
  p[t] = in[get_global_id(0)];
  uint active = get_local_size(0);
  uint h = (active + 1) / 2;
  while (active > 1) {
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (t + h < active)
      p[t] += p[t + h];
    active = h;
    h = (h + 1) / 2;
  }
  if (t == 0)
    out[get_group_id(0)] = p[0];
}
)CLC";

/// Loop-carried uniform values that swap (a Fibonacci pair), rotate
/// (three values), and a tree reduction nested in an outer loop that
/// accumulates per work-item.
static const char *CarriedSource = R"CLC(
kernel void fibonacciPair(global const uint *in, global uint *out,
                          local uint *p, uint rounds) {
  uint t = get_local_id(0), n = get_local_size(0);
  p[t] = in[get_global_id(0)];
  uint f0 = 0, f1 = 1;
  for (uint r = 0; r < rounds; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = p[(t + 1) % n] + f0;
    barrier(CLK_LOCAL_MEM_FENCE);
    p[t] = v;
    uint f2 = f0 + f1;
    f0 = f1;
    f1 = f2;
  }
  out[get_global_id(0)] = p[t] * 3u + f0 * 5u + f1;
}

kernel void rotateThree(global const uint *in, global uint *out,
                        local uint *p, uint rounds) {
  uint t = get_local_id(0), n = get_local_size(0);
  p[t] = in[get_global_id(0)];
  uint a = 1, b = 2, c = 3;
  for (uint r = 0; r < rounds; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = p[(t + a) % n] * b + c;
    barrier(CLK_LOCAL_MEM_FENCE);
    p[t] = v;
    uint old = a;
    a = b;
    b = c;
    c = old + r;
  }
  out[get_global_id(0)] = p[t] + a * 100u + b * 10u + c;
}

kernel void nestedTree(global const uint *in, global uint *out,
                       local uint *p, uint reps) {
  uint t = get_local_id(0);
  uint acc = 0;
  for (uint r = 0; r < reps; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    p[t] = in[get_global_id(0)] * (r + 1);
    uint active = get_local_size(0), h = (active + 1) / 2;
    while (active > 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (t + h < active)
        p[t] += p[t + h];
      active = h;
      h = (h + 1) / 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    acc = acc * 7u + p[0] + t;
  }
  out[get_global_id(0)] = acc;
}
)CLC";

/// The same shapes in two dimensions and with vector and conditionally
/// updated state: a tree reduction over a 2D group with a private active
/// size, a float4 pair swapped in a barrier loop, and a uniform value
/// updated under a uniform condition between barriers.
static const char *MoreStateSource = R"CLC(
kernel void tree2d(global const uint *in, global uint *out, local uint *p) {
  uint w = get_local_size(0), h = get_local_size(1);
  uint t = get_local_id(1) * w + get_local_id(0);
  p[t] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
  uint active = w * h;
  uint step = (active + 1) / 2;
  while (active > 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + step < active)
      p[t] += p[t + step];
    active = step;
    step = (step + 1) / 2;
  }
  if (t == 0)
    out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = p[0];
}

kernel void swapVectors(global const float *in, global float *out,
                        local float *p, int rounds) {
  uint t = get_local_id(0), n = get_local_size(0);
  p[t] = in[get_global_id(0)];
  float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  float4 b = (float4)(0.5f, 0.25f, 0.125f, 2.0f);
  for (int r = 0; r < rounds; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = p[(t + 1) % n] * a.x + b.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    p[t] = v;
    float4 c = a;
    a = b;
    b = c + (float4)(1.0f);
  }
  out[get_global_id(0)] = p[t] + a.x + a.y * 2.0f + b.z * 3.0f + b.w;
}

kernel void conditionalState(global const uint *in, global uint *out,
                             local uint *p, uint rounds, uint flags) {
  uint t = get_local_id(0), n = get_local_size(0);
  p[t] = in[get_global_id(0)];
  uint s = 1, k = 2;
  for (uint r = 0; r < rounds; ++r) {
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = p[(t + k) % n] + s;
    if ((flags >> r) & 1) {
      uint old = s;
      s = k * 3u;
      k = old + 1u;
    } else {
      k = k + s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    p[t] = v;
  }
  out[get_global_id(0)] = p[t] * 7u + s * 3u + k;
}
)CLC";

/// Private arrays: filled and summed in loops (no barrier), and kept across
/// a barrier, where each work-item must keep its own copy.
static const char *PrivateSource = R"CLC(
kernel void privateLoops(global const int *in, global int *out, int n) {
  int p[300];
  int g = get_global_id(0);
  for (int i = 0; i < n; ++i)
    p[i] = in[g] * i + (i ^ g);
  int s = 0;
  for (int i = n - 1; i >= 0; --i)
    s = s * 3 + p[(i * 7) % n];
  out[g] = s;
}

kernel void privateAcrossBarrier(global const int *in, global int *out,
                                 local int *l, int n) {
  int p[1024];
  int t = get_local_id(0), g = get_global_id(0);
  for (int i = 0; i < n; ++i)
    p[i] = in[g] + i * t;
  l[t] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = l[(t + 1) % get_local_size(0)];
  for (int i = 0; i < n; ++i)
    s += p[(i * 13) % n] * (i & 3);
  out[g] = s;
}

kernel void hugePrivate(global int *out, int n) {
  int p[4 << 20];
  for (int i = 0; i < n; ++i)
    p[(i * 4099) & ((4 << 20) - 1)] = i;
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += p[(i * 4099) & ((4 << 20) - 1)] ^ i;
  out[get_global_id(0)] = s + n;
}

kernel void tooMuchPrivate(global int *out, int n) {
  int p[16 << 20];
  for (int i = 0; i < n; ++i)
    p[(i * 4099) & ((16 << 20) - 1)] = i;
  out[get_global_id(0)] = p[n & ((16 << 20) - 1)];
}
)CLC";

/// The local sizes of the reductions: powers of two, odd sizes and sizes
/// that are not multiples of any vector width, 1, and the largest the
/// kernel allows.
static std::vector<size_t> reductionSizes(Env &E, const Kernel &K) {
  std::vector<size_t> Sizes = {1024, 256, 100, 7, 1, 2, 3, 33};
  size_t Max = maxLocalSize1D(E, K);
  Sizes.erase(std::remove_if(Sizes.begin(), Sizes.end(),
                             [&](size_t S) { return S > Max; }),
              Sizes.end());
  Sizes.push_back(Max);
  return Sizes;
}

static std::vector<cl_uint> groupSums(const std::vector<cl_uint> &In,
                                      size_t LS) {
  std::vector<cl_uint> Sums(In.size() / LS, 0);
  for (size_t I = 0; I < In.size(); ++I)
    Sums[I / LS] += In[I];
  return Sums;
}

CLT_TEST(treeReductionsWithPrivateActiveSize) {
  Program P = E.build(TreeSource);
  for (const char *Name : {"treeWhile", "treeFor", "treeUpdateBefore",
                           "treeHalfInside", "treeGlobal"}) {
    Kernel K = E.kernel(P, Name);
    bool Global = std::string(Name) == "treeGlobal";
    for (size_t LS : reductionSizes(E, K)) {
      const size_t N = LS * 5;
      auto In = randomVector<cl_uint>(N, 0, 1 << 20, 300 + LS);
      Mem DIn = E.input(In), DOut = E.output<cl_uint>(N / LS);
      Mem DScratch = E.output<cl_uint>(N);
      if (Global)
        setArgs(K, DIn, DOut, DScratch);
      else {
        setArgs(K, DIn, DOut);
        setLocalArg(K, 2, LS * sizeof(cl_uint));
      }
      E.run1(K, N, LS);
      expectEqual(E.read<cl_uint>(DOut, N / LS), groupSums(In, LS),
                  std::string(Name) + " local " + std::to_string(LS));
    }
  }
}

CLT_TEST(loopCarriedUniformValues) {
  Program P = E.build(CarriedSource);
  for (const char *Name : {"fibonacciPair", "rotateThree"}) {
    Kernel K = E.kernel(P, Name);
    bool Fib = std::string(Name) == "fibonacciPair";
    for (size_t LS : reductionSizes(E, K)) {
      const size_t N = LS * 3;
      auto In = randomVector<cl_uint>(N, 0, 1 << 16, 400 + LS);
      Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
      for (cl_uint Rounds : {0u, 1u, 2u, 9u}) {
        setArgs(K, DIn, DOut);
        setLocalArg(K, 2, LS * sizeof(cl_uint));
        setArg(K, 3, Rounds);
        E.run1(K, N, LS);
        std::vector<cl_uint> Want(N);
        for (size_t Base = 0; Base < N; Base += LS) {
          std::vector<cl_uint> X(In.begin() + Base, In.begin() + Base + LS);
          cl_uint A = Fib ? 0 : 1, B = Fib ? 1 : 2, C = 3;
          for (cl_uint R = 0; R < Rounds; ++R) {
            std::vector<cl_uint> Y(LS);
            for (size_t T = 0; T < LS; ++T)
              Y[T] = Fib ? X[(T + 1) % LS] + A : X[(T + A) % LS] * B + C;
            X = Y;
            if (Fib) {
              cl_uint F2 = A + B;
              A = B;
              B = F2;
            } else {
              cl_uint Old = A;
              A = B;
              B = C;
              C = Old + R;
            }
          }
          for (size_t T = 0; T < LS; ++T)
            Want[Base + T] = Fib ? X[T] * 3u + A * 5u + B
                                 : X[T] + A * 100u + B * 10u + C;
        }
        expectEqual(E.read<cl_uint>(DOut, N), Want,
                    std::string(Name) + " local " + std::to_string(LS) +
                        " rounds " + std::to_string(Rounds));
      }
    }
  }
}

CLT_TEST(treeReductionInOuterLoop) {
  Program P = E.build(CarriedSource);
  Kernel K = E.kernel(P, "nestedTree");
  for (size_t LS : reductionSizes(E, K)) {
    const size_t N = LS * 3;
    auto In = randomVector<cl_uint>(N, 0, 1 << 12, 500 + LS);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    for (cl_uint Reps : {0u, 1u, 3u}) {
      setArgs(K, DIn, DOut);
      setLocalArg(K, 2, LS * sizeof(cl_uint));
      setArg(K, 3, Reps);
      E.run1(K, N, LS);
      std::vector<cl_uint> Want(N);
      for (size_t I = 0; I < N; ++I) {
        size_t Base = I / LS * LS;
        cl_uint Acc = 0;
        for (cl_uint R = 0; R < Reps; ++R) {
          cl_uint Sum = 0;
          for (size_t J = Base; J < Base + LS; ++J)
            Sum += In[J] * (R + 1);
          Acc = Acc * 7u + Sum + cl_uint(I - Base);
        }
        Want[I] = Acc;
      }
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "nestedTree local " + std::to_string(LS) + " reps " +
                      std::to_string(Reps));
    }
  }
}

CLT_TEST(treeReductionIn2DGroups) {
  Program P = E.build(MoreStateSource);
  Kernel K = E.kernel(P, "tree2d");
  size_t Max = maxLocalSize1D(E, K);
  for (auto [LX, LY] : {std::pair<size_t, size_t>{16, 16}, {7, 5}, {1, 9},
                        {32, 3}, {64, 16}}) {
    if (LX * LY > Max)
      continue;
    const size_t GX = LX * 3, GY = LY * 2;
    auto In = randomVector<cl_uint>(GX * GY, 0, 1 << 16, 700 + LX);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(6);
    setArgs(K, DIn, DOut);
    setLocalArg(K, 2, LX * LY * sizeof(cl_uint));
    const size_t G[2] = {GX, GY}, L[2] = {LX, LY};
    E.run(K, 2, G, L);
    std::vector<cl_uint> Want(6, 0);
    for (size_t Y = 0; Y < GY; ++Y)
      for (size_t X = 0; X < GX; ++X)
        Want[(Y / LY) * 3 + X / LX] += In[Y * GX + X];
    expectEqual(E.read<cl_uint>(DOut, 6), Want,
                "tree2d local " + std::to_string(LX) + "x" +
                    std::to_string(LY));
  }
}

CLT_TEST(vectorAndConditionalState) {
  Program P = E.build(MoreStateSource);
  Kernel KV = E.kernel(P, "swapVectors");
  Kernel KC = E.kernel(P, "conditionalState");
  for (size_t LS : reductionSizes(E, KV)) {
    const size_t N = LS * 3;
    auto InF = randomVector<float>(N, -1.f, 1.f, 800 + LS);
    Mem DInF = E.input(InF), DOutF = E.output<float>(N);
    for (int Rounds : {0, 1, 4}) {
      setArgs(KV, DInF, DOutF);
      setLocalArg(KV, 2, LS * sizeof(float));
      setArg(KV, 3, Rounds);
      E.run1(KV, N, LS);
      std::vector<float> Want(N);
      for (size_t Base = 0; Base < N; Base += LS) {
        std::vector<float> X(InF.begin() + Base, InF.begin() + Base + LS);
        float A[4] = {1, 2, 3, 4}, B[4] = {0.5f, 0.25f, 0.125f, 2};
        for (int R = 0; R < Rounds; ++R) {
          std::vector<float> Y(LS);
          for (size_t T = 0; T < LS; ++T)
            Y[T] = X[(T + 1) % LS] * A[0] + B[3];
          X = Y;
          for (int C = 0; C < 4; ++C) {
            float Old = A[C];
            A[C] = B[C];
            B[C] = Old + 1.0f;
          }
        }
        for (size_t T = 0; T < LS; ++T)
          Want[Base + T] = X[T] + A[0] + A[1] * 2.0f + B[2] * 3.0f + B[3];
      }
      expectNear(E.read<float>(DOutF, N), Want, 1e-4, 1e-4,
                 "swapVectors local " + std::to_string(LS) + " rounds " +
                     std::to_string(Rounds));
    }
    auto In = randomVector<cl_uint>(N, 0, 1 << 16, 900 + LS);
    Mem DIn = E.input(In), DOut = E.output<cl_uint>(N);
    for (cl_uint Flags : {0u, 0x5u, 0xffu}) {
      const cl_uint Rounds = 6;
      setArgs(KC, DIn, DOut);
      setLocalArg(KC, 2, LS * sizeof(cl_uint));
      setArg(KC, 3, Rounds);
      setArg(KC, 4, Flags);
      E.run1(KC, N, LS);
      std::vector<cl_uint> Want(N);
      for (size_t Base = 0; Base < N; Base += LS) {
        std::vector<cl_uint> X(In.begin() + Base, In.begin() + Base + LS);
        cl_uint S = 1, K = 2;
        for (cl_uint R = 0; R < Rounds; ++R) {
          std::vector<cl_uint> Y(LS);
          for (size_t T = 0; T < LS; ++T)
            Y[T] = X[(T + K) % LS] + S;
          if ((Flags >> R) & 1) {
            cl_uint Old = S;
            S = K * 3u;
            K = Old + 1u;
          } else {
            K = K + S;
          }
          X = Y;
        }
        for (size_t T = 0; T < LS; ++T)
          Want[Base + T] = X[T] * 7u + S * 3u + K;
      }
      expectEqual(E.read<cl_uint>(DOut, N), Want,
                  "conditionalState local " + std::to_string(LS) +
                      " flags " + std::to_string(Flags));
    }
  }
}

CLT_TEST(privateArraysStayPrivate) {
  Program P = E.build(PrivateSource);
  {
    // A NULL local size: the runtime picks the group, up to its maximum.
    Kernel K = E.kernel(P, "privateLoops");
    const size_t N = 65536;
    auto In = randomVector<int>(N, -1000, 1000, 600);
    Mem DIn = E.input(In), DOut = E.output<int>(N);
    for (int Len : {300, 17}) {
      setArgs(K, DIn, DOut, Len);
      E.run1(K, N);
      std::vector<int> Want(N);
      for (size_t G = 0; G < N; ++G) {
        std::vector<int> Priv(static_cast<size_t>(Len));
        for (int I = 0; I < Len; ++I)
          Priv[size_t(I)] = In[G] * I + (I ^ int(G));
        unsigned S = 0;
        for (int I = Len - 1; I >= 0; --I)
          S = S * 3u + unsigned(Priv[size_t((I * 7) % Len)]);
        Want[G] = int(S);
      }
      expectEqual(E.read<int>(DOut, N), Want,
                  "privateLoops n " + std::to_string(Len));
    }
  }
  {
    Kernel K = E.kernel(P, "privateAcrossBarrier");
    for (size_t LS : {size_t(2048), size_t(64), size_t(7)}) {
      if (LS > maxLocalSize1D(E, K))
        continue;
      const size_t N = LS * 4;
      auto In = randomVector<int>(N, -1000, 1000, 601);
      Mem DIn = E.input(In), DOut = E.output<int>(N);
      const int Len = 1024;
      setArgs(K, DIn, DOut);
      setLocalArg(K, 2, LS * sizeof(int));
      setArg(K, 3, Len);
      E.run1(K, N, LS);
      std::vector<int> Want(N);
      for (size_t G = 0; G < N; ++G) {
        size_t T = G % LS, Base = G - T;
        unsigned S = unsigned(In[Base + (T + 1) % LS]);
        for (int I = 0; I < Len; ++I)
          S += unsigned(In[G] + ((I * 13) % Len) * int(T)) * unsigned(I & 3);
        Want[G] = int(S);
      }
      expectEqual(E.read<int>(DOut, N), Want,
                  "privateAcrossBarrier local " + std::to_string(LS));
    }
  }
}

CLT_TEST(sixteenMiBPrivateArray) {
  Program P = E.build(PrivateSource);
  Kernel K = E.kernel(P, "hugePrivate");
  const size_t N = 3;
  Mem DOut = E.output<int>(N);
  const int Len = 100000;
  setArgs(K, DOut, Len);
  cl_int Err = clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr);
  if (Err == CL_OUT_OF_RESOURCES)
    return; // refused at enqueue: allowed, never a crash
  CL_CHECK(Err);
  CL_CHECK(clFinish(E.Q));
  expectEqual(E.read<int>(DOut, N), std::vector<int>(N, Len),
              "16 MiB private array");
}

CLT_TEST(privateMemoryBeyondTheHostIsRefused) {
  // 64 MiB per work-item in groups of 4096 (or the kernel's maximum) is
  // far beyond the host: CL_OUT_OF_RESOURCES at enqueue, never a shared
  // copy, a crash or a silent success; the context stays usable.
  Program P = E.build(PrivateSource);
  Kernel K = E.kernel(P, "tooMuchPrivate");
  const size_t LS = maxLocalSize1D(E, K);
  if (LS < 1024)
    CLT_SKIP("the kernel's maximum local size is below 1024");
  Mem DOut = E.output<int>(LS);
  setArgs(K, DOut, 5);
  cl_int Err = clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &LS, &LS, 0,
                                      nullptr, nullptr);
  CLT_EXPECT_MSG(Err == CL_OUT_OF_RESOURCES,
                 std::string("enqueue returned ") + errorName(Err));
  Kernel Small = E.kernel(P, "hugePrivate");
  const size_t One = 1;
  setArgs(Small, DOut, 7);
  E.run1(Small, One);
  expectEqual(E.read<int>(DOut, 1), std::vector<int>{7},
              "a launch after the refusal");
}
