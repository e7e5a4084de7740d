//===- FrontHalfTest.cpp - The work-group passes stay linear in time ------===//
// SPDX-License-Identifier: MIT
//
// Compile time linear in the number of calls: an inliner that rescans the
// kernel after each inlined call, or an SROA that promotes the locals of
// every inlined copy at once (an iterated dominance frontier per alloca),
// is quadratic in them, and so is iss-hoist-uniform if it does the same
// with the copies of the functions it inlines late; pocl's
// kernel/test_hadd then takes minutes to compile. Here the work-group
// passes (addWorkGroupPasses, the list Pipeline.cpp runs) compile a kernel
// with N and with 4N helper functions: four times the calls must cost about
// four times the CPU time, not sixteen. CPU time, which a loaded machine
// disturbs little, and a bound of 8 keep it from flaking; quadratic passes
// give 20 to 50. LLVM's own O3, superlinear on such kernels, is left
// out, and so are the passes that ready the subkernels for it
// (ReadyForO3), which run LLVM's InstCombine. Evidence of speed is
// examples/compile-bench; this catches quadratic time. The smaller kernel
// is then compiled completely and its results checked.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "CpuTime.h"
#include "Passes.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

using namespace iss;

namespace {

int hostHadd(int X, int Y) { return (X >> 1) + (Y >> 1) + (X & Y & 1); }
int hostRhadd(int X, int Y) { return (X >> 1) + (Y >> 1) + ((X | Y) & 1); }

/// What helper F of helpersKernel computes, K = F * 7 + Seed.
int hostHelper(int X, int K) {
  int A = hostHadd(X, K), B = hostRhadd(X, K), C = A ^ B, D = C + 1;
  if (A & 1)
    A = hostRhadd(A, B);
  if (B & 2)
    B = hostHadd(B, C);
  if (C & 4)
    C = A - D;
  if (D & 8)
    D = B + C;
  return A ^ B ^ C ^ D;
}

/// N helper functions with locals, branches and builtin calls, all called
/// by the kernel (the shape of test_hadd's safe_* helpers). \p Seed keeps
/// the kernel cache from hiding the work.
std::string helpersKernel(unsigned N, unsigned Seed) {
  std::string Src;
  for (unsigned F = 0; F < N; ++F) {
    std::string K = std::to_string(F * 7 + Seed);
    Src += "int h" + std::to_string(F) + "(int x) {\n  int a = hadd(x, " + K +
           "), b = rhadd(x, " + K + "), c = a ^ b, d = c + 1;\n" +
           "  if (a & 1) a = rhadd(a, b);\n  if (b & 2) b = hadd(b, c);\n" +
           "  if (c & 4) c = a - d;\n  if (d & 8) d = b + c;\n" +
           "  return a ^ b ^ c ^ d;\n}\n";
  }
  Src += "__kernel void k(__global int *out, __global const int *in) {\n"
         "  size_t i = get_global_id(0);\n  int x = in[i];\n  int acc = 0;\n";
  for (unsigned F = 0; F < N; ++F)
    Src += "  acc += h" + std::to_string(F) + "(x);\n";
  return Src + "  out[i] = acc;\n}\n";
}

/// CPU seconds the work-group passes take on kernel k of \p Binary.
double frontHalfSeconds(const std::vector<uint8_t> &Binary) {
  llvm::LLVMContext Ctx;
  BinaryKind Kind;
  std::string Error;
  auto M = readBinary(Ctx, Binary, Kind, Error);
  EXPECT_TRUE(M) << Error;
  if (!M)
    return 0;
  WorkGroupConfig Config;
  Config.Kernel = "k";
  Config.LocalSize[0] = 16;
  Config.IssMode = Mode::Vec;
  llvm::PassBuilder PB;
  AnalysisManagers AM(PB);
  llvm::ModulePassManager Front;
  if (llvm::Error E = addWorkGroupPasses(Front, Config, /*ReadyForO3=*/false)) {
    ADD_FAILURE() << llvm::toString(std::move(E));
    return 0;
  }
  double Start = cpuSeconds();
  Front.run(*M, AM.MAM);
  double Seconds = cpuSeconds() - Start;
  EXPECT_TRUE(M->getFunction("__iss_sub_k_0")) << "no work-group function";
  return Seconds;
}

TEST(FrontHalf, LinearInTheNumberOfCalls) {
  unsigned Seed = static_cast<unsigned>(
      std::chrono::steady_clock::now().time_since_epoch().count() % 1000);
  const unsigned Small = 1000, Large = 4 * Small;
  BuildResult S = buildProgram(helpersKernel(Small, Seed), "");
  ASSERT_TRUE(S.Success) << S.Log;
  BuildResult L = buildProgram(helpersKernel(Large, Seed), "");
  ASSERT_TRUE(L.Success) << L.Log;
  // Once unmeasured: the first run pays for loading the kernel library.
  frontHalfSeconds(S.Binary);
  double TSmall = frontHalfSeconds(S.Binary);
  double TLarge = frontHalfSeconds(L.Binary);
  std::cout << "work-group passes: " << Small << " calls " << TSmall << " s, "
            << Large << " calls " << TLarge << " s of CPU time\n";
  EXPECT_LT(TLarge, 8 * TSmall);

  // The whole compilation of the smaller kernel, and its results.
  size_t Local[3] = {16, 1, 1};
  std::string Error;
  auto CK = getCompiledKernel(S.Binary, "k", Local, Error);
  ASSERT_TRUE(CK) << Error;
  std::vector<int> In(64), Out(64, 0);
  for (int I = 0; I < 64; ++I)
    In[I] = I * 2731 - 40000;
  int *PO = Out.data(), *PI = In.data();
  std::vector<void *> Slots = {&PO, &PI};
  iss_wg_context WG;
  std::memset(&WG, 0, sizeof(WG));
  WG.num_groups[0] = 4;
  WG.num_groups[1] = WG.num_groups[2] = 1;
  WG.work_dim = 1;
  uint32_t Sub = CK->Select(Slots.data(), &WG);
  ASSERT_LT(Sub, CK->Subkernels.size());
  for (size_t G = 0; G < 4; ++G) {
    WG.group_id[0] = G;
    CK->Subkernels[Sub](Slots.data(), &WG);
  }
  for (int I = 0; I < 64; ++I) {
    unsigned Acc = 0;
    for (unsigned F = 0; F < Small; ++F)
      Acc += static_cast<unsigned>(
          hostHelper(In[I], static_cast<int>(F * 7 + Seed)));
    ASSERT_EQ(Out[I], static_cast<int>(Acc)) << I;
  }
}

} // namespace
