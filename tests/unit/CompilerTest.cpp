//===- CompilerTest.cpp - The kernel compiler without the runtime ---------===//
// SPDX-License-Identifier: MIT
//
// Builds kernels through include/pocl-iss/KernelCompiler.h and calls the
// generated subkernels directly with a hand-made work-group context, so a
// compiler fault shows here before it is hidden behind the OpenCL runtime.
//
//===----------------------------------------------------------------------===//

#include "CpuTime.h"
#include "pocl-iss/KernelCompiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace iss;

namespace {

/// Runs every work group of a 1-3D launch of \p CK, serially.
void launch(const CompiledKernel &CK, std::vector<void *> &Slots,
            const size_t Global[3], const size_t Offset[3], unsigned Dim,
            char *Printf = nullptr, uint32_t *Pos = nullptr,
            uint32_t Cap = 0) {
  iss_wg_context Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.num_groups[D] = Global[D] / CK.LocalSize[D];
    Ctx.global_offset[D] = Offset[D];
  }
  Ctx.work_dim = Dim;
  Ctx.printf_buffer = Printf;
  Ctx.printf_buffer_position = Pos;
  Ctx.printf_buffer_capacity = Cap;
  uint32_t Sub = CK.Select(Slots.data(), &Ctx);
  ASSERT_LT(Sub, CK.Subkernels.size());
  for (size_t Z = 0; Z < Ctx.num_groups[2]; ++Z)
    for (size_t Y = 0; Y < Ctx.num_groups[1]; ++Y)
      for (size_t X = 0; X < Ctx.num_groups[0]; ++X) {
        Ctx.group_id[0] = X;
        Ctx.group_id[1] = Y;
        Ctx.group_id[2] = Z;
        CK.Subkernels[Sub](Slots.data(), &Ctx);
      }
}

std::shared_ptr<CompiledKernel> compile(const char *Src, const char *Name,
                                        size_t L0, size_t L1 = 1,
                                        size_t L2 = 1) {
  BuildResult R = buildProgram(Src, "");
  EXPECT_TRUE(R.Success) << R.Log;
  if (!R.Success)
    return nullptr;
  size_t Local[3] = {L0, L1, L2};
  std::string Error;
  auto CK = getCompiledKernel(R.Binary, Name, Local, Error);
  EXPECT_TRUE(CK) << Error;
  return CK;
}

TEST(Compiler, VectorAddOddSize) {
  const char *Src = R"(
    __kernel void add(__global const float *a, __global const float *b,
                      __global float *c, uint n) {
      size_t i = get_global_id(0);
      if (i < n) c[i] = a[i] + b[i];
    })";
  auto CK = compile(Src, "add", 64);
  ASSERT_TRUE(CK);
  const unsigned N = 1001;
  std::vector<float> A(1024), B(1024), C(1024, -1.0f);
  for (unsigned I = 0; I < N; ++I) {
    A[I] = I;
    B[I] = 2.0f * I;
  }
  float *PA = A.data(), *PB = B.data(), *PC = C.data();
  unsigned Nv = N;
  std::vector<void *> Slots = {&PA, &PB, &PC, &Nv};
  size_t G[3] = {1024, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(C[I], 3.0f * I) << I;
  for (unsigned I = N; I < 1024; ++I)
    ASSERT_EQ(C[I], -1.0f) << I;
}

TEST(Compiler, TwoDimensionsWithOffsetAndStruct) {
  const char *Src = R"(
    typedef struct { float scale; int bias; } Params;
    __kernel void k2(__global int *out, Params p, int width) {
      int x = get_global_id(0), y = get_global_id(1);
      out[(y - 1) * width + (x - 2)] = (int)(p.scale * x) + p.bias * y +
          get_local_id(0) * 1000 + get_group_id(1) * 100000;
    })";
  auto CK = compile(Src, "k2", 4, 2);
  ASSERT_TRUE(CK);
  const int W = 8, H = 6;
  std::vector<int> Out(W * H, 0);
  int *P = Out.data();
  struct { float scale; int bias; } Params = {2.0f, 3};
  int Width = W;
  std::vector<void *> Slots = {&P, &Params, &Width};
  size_t G[3] = {W, H, 1}, O[3] = {2, 1, 0};
  launch(*CK, Slots, G, O, 2);
  for (int Y = 1; Y < 1 + H; ++Y)
    for (int X = 2; X < 2 + W; ++X)
      ASSERT_EQ(Out[(Y - 1) * W + (X - 2)],
                2 * X + 3 * Y + ((X - 2) % 4) * 1000 + ((Y - 1) / 2) * 100000);
}

TEST(Compiler, PrivateArrayAndAutoLocal) {
  const char *Src = R"(
    __kernel void priv(__global int *out, __global const int *idx) {
      __local int scratch[64];
      int tmp[16];
      int i = get_global_id(0);
      int l = get_local_id(0);
      for (int k = 0; k < 16; ++k) tmp[k] = i * k;
      scratch[l] = tmp[idx[i] & 15];
      out[i] = scratch[l] + 1;
    })";
  BuildResult R = buildProgram(Src, "");
  ASSERT_TRUE(R.Success) << R.Log;
  ASSERT_EQ(R.Kernels.size(), 1u);
  ASSERT_EQ(R.Kernels[0].AutoLocals.size(), 1u);
  EXPECT_EQ(R.Kernels[0].AutoLocals[0].first, 64 * sizeof(int));
  size_t Local[3] = {32, 1, 1};
  std::string Error;
  auto CK = getCompiledKernel(R.Binary, "priv", Local, Error);
  ASSERT_TRUE(CK) << Error;
  std::vector<int> Out(128), Idx(128);
  for (int I = 0; I < 128; ++I)
    Idx[I] = (I * 7) % 16;
  std::vector<int> LocalMem(64);
  int *PO = Out.data(), *PI = Idx.data(), *PL = LocalMem.data();
  std::vector<void *> Slots = {&PO, &PI, &PL};
  size_t G[3] = {128, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  for (int I = 0; I < 128; ++I)
    ASSERT_EQ(Out[I], I * Idx[I] + 1) << I;
}

TEST(Compiler, MathAndPrintf) {
  const char *Src = R"(
    __kernel void m(__global float *out) {
      int i = get_global_id(0);
      out[i] = sqrt((float)i) + sin(0.5f * i);
      if (i == 3) printf("i=%d v=%.2f\n", i, 1.5f);
    })";
  auto CK = compile(Src, "m", 8);
  ASSERT_TRUE(CK);
  std::vector<float> Out(16);
  float *P = Out.data();
  std::vector<void *> Slots = {&P};
  char Buf[256] = {0};
  uint32_t Pos = 0;
  size_t G[3] = {16, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1, Buf, &Pos, sizeof(Buf));
  for (int I = 0; I < 16; ++I)
    ASSERT_NEAR(Out[I], std::sqrt((float)I) + std::sin(0.5f * I), 1e-5) << I;
  EXPECT_EQ(std::string(Buf, Pos), "i=3 v=1.50\n");
}

TEST(Compiler, BuildErrorsGoToTheLog) {
  BuildResult R = buildProgram("__kernel void k(__global int *a) { a[0] = b; }", "");
  EXPECT_FALSE(R.Success);
  EXPECT_NE(R.Log.find("use of undeclared identifier 'b'"), std::string::npos)
      << R.Log;
  BuildResult O = buildProgram("__kernel void k() {}", "-no-such-option");
  EXPECT_FALSE(O.Success);
  EXPECT_TRUE(O.InvalidOptions);
}

/// POCL_ISS_TARGET's choice on made-up hosts: \p Features are what the
/// host has, \p Missing the variants whose file is not installed.
static std::string chooseOn(const std::string &Requested,
                            const std::vector<std::string> &Features,
                            const std::vector<std::string> &Missing,
                            TargetInfo &T) {
  auto In = [](const std::vector<std::string> &List, const std::string &S) {
    return std::find(List.begin(), List.end(), S) != List.end();
  };
  return selectTarget(
      Requested, [&](const std::string &F) { return In(Features, F); },
      [&](const std::string &Path) {
        for (const std::string &V : Missing)
          if (Path.find("-" + V + ".bc") != std::string::npos)
            return false;
        return true;
      },
      T);
}

TEST(Target, BestOrNamed) {
  const std::vector<std::string> Skylake = {
      "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd", "fma",
      "avx2",    "bmi2",     "f16c",     "avx",      "sse4.1",   "ssse3"};
  TargetInfo T;
  EXPECT_EQ(chooseOn("", Skylake, {}, T), "");
  EXPECT_EQ(T.LibraryVariant, "avx512");
  EXPECT_EQ(T.CPU, "skylake-avx512");
  EXPECT_EQ(T.NativeVectorBits, 512u);
  EXPECT_EQ(chooseOn("avx2", Skylake, {}, T), "");
  EXPECT_EQ(T.LibraryVariant, "avx2");
  EXPECT_EQ(T.CPU, "haswell");
  EXPECT_EQ(T.NativeVectorBits, 256u);
  EXPECT_NE(T.LibraryPath.find("kernel-x86_64-pc-linux-gnu-avx2.bc"),
            std::string::npos);
  EXPECT_EQ(chooseOn("sse41", Skylake, {}, T), "");
  EXPECT_EQ(T.CPU, "penryn");
  EXPECT_EQ(T.NativeVectorBits, 128u);
  // Without its file, the best variant is passed over.
  EXPECT_EQ(chooseOn("", Skylake, {"avx512"}, T), "");
  EXPECT_EQ(T.LibraryVariant, "avx2");
}

TEST(Target, RefusedWithWhatTheHostAllows) {
  const std::vector<std::string> Penryn = {"sse4.1", "ssse3"};
  TargetInfo T;
  EXPECT_EQ(chooseOn("avx2", Penryn, {}, T),
            "POCL_ISS_TARGET='avx2' is not allowed: this CPU lacks avx2, fma, "
            "bmi2, f16c; allowed on this host: sse41, ssse3, sse2");
  EXPECT_EQ(chooseOn("avx", Penryn, {}, T),
            "POCL_ISS_TARGET='avx' is not allowed: this CPU lacks avx; allowed "
            "on this host: sse41, ssse3, sse2");
  EXPECT_EQ(chooseOn("sse4.1", Penryn, {}, T),
            "POCL_ISS_TARGET='sse4.1' is not a target; allowed on this host: "
            "sse41, ssse3, sse2");
  TargetInfo Sse2;
  ASSERT_EQ(chooseOn("sse2", Penryn, {}, Sse2), "");
  std::string Dir = Sse2.LibraryPath.substr(0, Sse2.LibraryPath.rfind('/'));
  EXPECT_EQ(chooseOn("ssse3", Penryn, {"ssse3"}, T),
            "POCL_ISS_TARGET='ssse3' is not allowed: " + Dir +
                "/kernel-x86_64-pc-linux-gnu-ssse3.bc is not installed; "
                "allowed on this host: sse41, sse2");
  const std::vector<std::string> Everything = {
      "avx512", "avx2", "avx_f16c", "avx", "sse41", "ssse3", "sse2"};
  EXPECT_EQ(chooseOn("sse2", Penryn, Everything, T),
            "POCL_ISS_TARGET='sse2' is not allowed: " + Dir +
                "/kernel-x86_64-pc-linux-gnu-sse2.bc is not installed; "
                "allowed on this host: none");
  // No library at all, nothing asked: no variant, which the kernel library
  // reports at the first build.
  TargetInfo None;
  EXPECT_EQ(chooseOn("", Penryn, Everything, None), "");
  EXPECT_TRUE(None.LibraryPath.empty());
}

TEST(Compiler, BarrierReductionWithoutContext) {
  // A tree reduction: the loop's counter is uniform (one scalar for the
  // group) and the local id is recomputed after each barrier, so no value
  // needs a context array (the pocl paper, section 4.7).
  const char *Src = R"(
    __kernel void red(__global const int *in, __global int *out) {
      __local int tmp[255];
      size_t l = get_local_id(0);
      tmp[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint n = get_local_size(0); n > 1; n = (n + 1) / 2) {
        uint h = (n + 1) / 2;
        if (l + h < n) tmp[l] += tmp[l + h];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = tmp[0];
    })";
  BuildResult R = buildProgram(Src, "");
  ASSERT_TRUE(R.Success) << R.Log;
  EXPECT_TRUE(R.Kernels[0].HasBarriers);
  size_t Local[3] = {255, 1, 1};
  std::string Error;
  auto CK = getCompiledKernel(R.Binary, "red", Local, Error);
  ASSERT_TRUE(CK) << Error;
  EXPECT_EQ(CK->ContextBytesPerWorkItem, 0u);
  EXPECT_GT(CK->UniformContextBytes, 0u);
  std::vector<int> In(255 * 3), Out(3), LocalMem(255);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = int(I * 7 % 31) - 11;
  int *PI = In.data(), *PO = Out.data(), *PL = LocalMem.data();
  std::vector<void *> Slots = {&PI, &PO, &PL};
  size_t G[3] = {In.size(), 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  for (int Grp = 0; Grp < 3; ++Grp) {
    int Sum = 0;
    for (int I = 0; I < 255; ++I)
      Sum += In[Grp * 255 + I];
    EXPECT_EQ(Out[Grp], Sum) << Grp;
  }
}

TEST(Compiler, BinaryRoundTripAndDamage) {
  BuildResult R = buildProgram("__kernel void k(__global int *a) { a[0] = 7; }", "");
  ASSERT_TRUE(R.Success) << R.Log;
  BuildResult L = loadBinary(R.Binary);
  ASSERT_TRUE(L.Success) << L.Log;
  ASSERT_EQ(L.Kernels.size(), 1u);
  EXPECT_EQ(L.Kernels[0].Name, "k");
  std::vector<uint8_t> Bad = R.Binary;
  Bad[Bad.size() / 2] ^= 0x55;
  EXPECT_FALSE(loadBinary(Bad).Success);
  Bad.assign(R.Binary.begin(), R.Binary.begin() + R.Binary.size() / 2);
  EXPECT_FALSE(loadBinary(Bad).Success);
}

TEST(Compiler, CompileAndLink) {
  std::vector<HeaderSource> H = {{"helper.h", "int twice(int x);"}};
  BuildResult A = compileProgram(
      "#include \"helper.h\"\n__kernel void k(__global int *a) { a[0] = twice(21); }",
      "", H);
  ASSERT_TRUE(A.Success) << A.Log;
  BuildResult B = compileProgram("int twice(int x) { return 2 * x; }", "", {});
  ASSERT_TRUE(B.Success) << B.Log;
  BuildResult E = linkPrograms({A.Binary, B.Binary}, "", false);
  ASSERT_TRUE(E.Success) << E.Log;
  size_t Local[3] = {1, 1, 1};
  std::string Error;
  auto CK = getCompiledKernel(E.Binary, "k", Local, Error);
  ASSERT_TRUE(CK) << Error;
  int Out = 0;
  int *P = &Out;
  std::vector<void *> Slots = {&P};
  size_t G[3] = {1, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  EXPECT_EQ(Out, 42);
}

// Recursion stays a real call: an inliner that inlines a recursive callee
// never ends, and the first compilation with it.
TEST(Compiler, RecursionRunsAsCalls) {
  const char *Src = R"(
    int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
    __kernel void k(__global int *out) {
      size_t i = get_global_id(0);
      out[i] = fib((int)i);
    })";
  auto CK = compile(Src, "k", 8);
  ASSERT_TRUE(CK);
  std::vector<int> Out(16, -1);
  int *P = Out.data();
  std::vector<void *> Slots = {&P};
  size_t G[3] = {16, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  int A = 0, B = 1;
  for (int I = 0; I < 16; ++I) {
    EXPECT_EQ(Out[I], A) << I;
    int C = A + B;
    A = B;
    B = C;
  }
}

/// out[i] = a value per case of an N-case switch on in[i]; \p Seed keeps
/// the kernel cache from hiding the compilation.
std::string switchKernel(unsigned N, unsigned Seed) {
  std::string Src = "__kernel void k(__global int *out, __global const int "
                    "*in) {\n  size_t i = get_global_id(0);\n  int v = in[i];"
                    "\n  int r;\n  switch (v) {\n";
  for (unsigned C = 0; C < N; ++C)
    Src += "  case " + std::to_string(C) +
           ": r = " + std::to_string(C * 7 + Seed) + " ^ v; break;\n";
  return Src + "  default: r = -1;\n  }\n  out[i] = r;\n}\n";
}

// A 10,000-case switch compiles in time linear in its cases: every
// SimplifyCFG run of LLVM 19's O3 costs time quadratic in the cases of a
// switch that does not become a lookup table (10 s for this one at its
// first launch). Eight times the cases must cost about eight times the CPU
// time (the fixed costs make it less), not 64. The results are checked
// too.
TEST(Compiler, HugeSwitchCompilesInLinearTime) {
  unsigned Seed = static_cast<unsigned>(
      std::chrono::steady_clock::now().time_since_epoch().count() % 1000);
  const unsigned Small = 1250, Large = 8 * Small;
  std::shared_ptr<CompiledKernel> CK;
  auto Timed = [&](unsigned N) {
    std::string Src = switchKernel(N, Seed);
    double Start = cpuSeconds();
    CK = compile(Src.c_str(), "k", 16);
    return cpuSeconds() - Start;
  };
  double TSmall = Timed(Small);
  ASSERT_TRUE(CK);
  double TLarge = Timed(Large);
  ASSERT_TRUE(CK);
  std::cout << Small << " cases: " << TSmall << " s, " << Large
            << " cases: " << TLarge << " s of CPU time\n";
  EXPECT_LT(TLarge, 16 * TSmall);
  std::vector<int> In(64), Out(64, 0);
  for (int I = 0; I < 64; ++I)
    In[I] = I * 331 - 1000;
  int *PO = Out.data(), *PI = In.data();
  std::vector<void *> Slots = {&PO, &PI};
  size_t G[3] = {64, 1, 1}, O[3] = {0, 0, 0};
  launch(*CK, Slots, G, O, 1);
  for (int I = 0; I < 64; ++I) {
    int V = In[I];
    int Want = V >= 0 && V < static_cast<int>(Large)
                   ? static_cast<int>(V * 7 + Seed) ^ V
                   : -1;
    ASSERT_EQ(Out[I], Want) << I;
  }
}

} // namespace

// The selection function of a kernel with a subkernel per dimension
// (split+score, the default): the launch's argument decides which
// dimension is consecutive, and so which subkernel runs. Also prints what
// a call costs (the scores' closed forms, once per launch).
TEST(Compiler, SelectionPerLaunch) {
  auto CK = compile("__kernel void either(__global int *Out, int N, int F) {\n"
                    "  int X = get_global_id(0), Y = get_global_id(1);\n"
                    "  if (F) Out[X * N + Y] = 1; else Out[Y * N + X] = 2;\n"
                    "}\n",
                    "either", 16, 16);
  ASSERT_TRUE(CK);
  if (CK->Mode != "split+score" && CK->Mode != "score")
    GTEST_SKIP() << "one subkernel in mode " << CK->Mode;
  ASSERT_GE(CK->Subkernels.size(), 2u);
  int N = 64, F = 0;
  void *Out = nullptr;
  std::vector<void *> Slots = {&Out, &N, &F};
  iss_wg_context Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.num_groups[0] = Ctx.num_groups[1] = 4;
  Ctx.num_groups[2] = 1;
  Ctx.work_dim = 2;
  auto Picked = [&] {
    uint32_t Sub = CK->Select(Slots.data(), &Ctx);
    EXPECT_LT(Sub, CK->SubkernelNames.size());
    return Sub < CK->SubkernelNames.size() ? CK->SubkernelNames[Sub] : "";
  };
  EXPECT_NE(Picked().find(":x/"), std::string::npos) << Picked();
  F = 1;
  EXPECT_NE(Picked().find(":y/"), std::string::npos) << Picked();
  const int Calls = 1000000;
  auto Start = std::chrono::steady_clock::now();
  uint32_t Sum = 0;
  for (int I = 0; I < Calls; ++I) {
    F = I & 1;
    Sum += CK->Select(Slots.data(), &Ctx);
  }
  double Ns = std::chrono::duration<double, std::nano>(
                  std::chrono::steady_clock::now() - Start)
                  .count() /
              Calls;
  EXPECT_GT(Sum, 0u);
  std::printf("selection: %.1f ns per call\n", Ns);
}
