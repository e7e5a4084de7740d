//===- PrintfKernels.cpp - printf from kernels, output captured -----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// printf in kernels (OpenCL 1.2 section 6.12.13). The device writes into a
// per-thread buffer that the runtime flushes (DESIGN.md section 3); a
// vectorized work-item loop (the paper's codelets, section 3) must still
// print once per work-item with each work-item's own values. The test
// captures the process's standard output through a temporary file (dup2) and
// compares the lines, sorted, since work-groups run concurrently
// (CaptureStdout.h).
//
//===----------------------------------------------------------------------===//

#include "CaptureStdout.h"

using namespace clt;

static const char *PrintfSource = R"CLC(
__kernel void hello(__global const int *In) {
  size_t I = get_global_id(0);
  printf("wi %u: %d %x %5.2f %s %c\n", (uint)I, In[I], (uint)In[I],
         (float)In[I] / 4.0f, I % 2 ? "odd" : "even", 'A' + (int)(I % 26));
}

__kernel void guarded(__global const int *In) {
  size_t I = get_global_id(0);
  if (In[I] % 5 == 0)
    printf("multiple of five at %lu: %ld\n", (ulong)I, (long)In[I] * 1000000000L);
}

__kernel void vectors(void) {
  int I = get_global_id(0);
  float4 F = (float4)(I, I + 0.5f, -I, 2.0f);
  printf("%d %v4hlf|%e\n", I, F, 1.5e-3f * I);
}
)CLC";

CLT_TEST(printfFormats) {
  const size_t N = 75; // local size 25: three groups, partial vectors
  auto In = randomVector<int>(N, -100000, 100000, 50);
  Program P = E.build(PrintfSource);
  Kernel K = E.kernel(P, "hello");
  Mem DIn = E.input(In);
  setArgs(K, DIn);
  std::string Out = captureStdout([&] { E.run1(K, N, 25); });
  std::vector<std::string> Want;
  for (size_t I = 0; I < N; ++I)
    Want.push_back(format("wi %u: %d %x %5.2f %s %c", unsigned(I), In[I],
                          unsigned(In[I]), double(float(In[I]) / 4.0f),
                          I % 2 ? "odd" : "even", char('A' + I % 26)));
  expectLines(Out, Want, "printf formats");
}

CLT_TEST(printfUnderBranch) {
  const size_t N = 640;
  auto In = randomVector<int>(N, 0, 1000, 51);
  Program P = E.build(PrintfSource);
  Kernel K = E.kernel(P, "guarded");
  Mem DIn = E.input(In);
  setArgs(K, DIn);
  std::string Out = captureStdout([&] { E.run1(K, N, 64); });
  std::vector<std::string> Want;
  for (size_t I = 0; I < N; ++I)
    if (In[I] % 5 == 0)
      Want.push_back(format("multiple of five at %lu: %ld", (unsigned long)I,
                            long(In[I]) * 1000000000L));
  expectLines(Out, Want, "printf under a divergent branch");
}

CLT_TEST(printfVectors) {
  const size_t N = 16;
  Program P = E.build(PrintfSource);
  Kernel K = E.kernel(P, "vectors");
  std::string Out = captureStdout([&] { E.run1(K, N, 16); });
  std::vector<std::string> Want;
  for (int I = 0; I < int(N); ++I)
    Want.push_back(format("%d %f,%f,%f,%f|%e", I, double(float(I)),
                          double(I + 0.5f), double(float(-I)), 2.0,
                          double(1.5e-3f * float(I))));
  expectLines(Out, Want, "printf vector and %e");
}
