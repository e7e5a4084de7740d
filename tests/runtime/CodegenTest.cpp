//===- CodegenTest.cpp - Switches that reach LLVM's code generation -------===//
// SPDX-License-Identifier: MIT
//
// POCL_ISS_STRIDE_VERSIONING: whether LLVM's loop vectorizer may version a
// loop on a stride that is a value being 1. The setting is the process's,
// so the test runs itself as a child with each value and POCL_ISS_DUMP_IR,
// and reads the optimized code the child's kernel left: a work-item loop
// reading a[i * n] compares n with 1 when versioning is on, and never when
// it is off (the default). The child checks its results either way.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

static const char *Source = R"CLC(
__kernel void strided(__global const float *a, __global float *out, int n) {
  int i = get_global_id(0);
  out[i] = a[i * n] + 1.0f;
}
)CLC";

static int child() {
  if (!clt::findPlatform("pocl-iss"))
    return 77;
  try {
    clt::Env E;
    E.open("pocl-iss");
    const int N = 1024, Stride = 3;
    std::vector<float> A(size_t(N) * Stride);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = float(I % 97);
    clt::Program P = E.build(Source);
    clt::Kernel K = E.kernel(P, "strided");
    clt::Mem DA = E.input(A), DOut = E.output<float>(N);
    clt::setArgs(K, DA, DOut, Stride);
    size_t G = N, L = 64;
    E.run(K, 1, &G, &L);
    std::vector<float> Got = E.read<float>(DOut, N);
    for (int I = 0; I < N; ++I)
      if (Got[I] != A[size_t(I) * Stride] + 1.0f) {
        std::fprintf(stderr, "strided: out[%d] = %g, expected %g\n", I,
                     double(Got[I]), double(A[size_t(I) * Stride] + 1.0f));
        return 1;
      }
  } catch (const clt::Failure &F) {
    std::fprintf(stderr, "%s\n", F.what());
    return 1;
  }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  std::string Self = clt::selfPath();
  if (Self.empty())
    return 1;
  char Dir[] = "/tmp/pocl-iss-codegen-XXXXXX";
  if (!mkdtemp(Dir))
    return 1;
  int Result = 0;
  // The stride's load, maybe frozen, compared with 1.
  std::regex StrideIsOne(R"(icmp (eq|ne) i32 %n\.val[.\w]*, 1\b)");
  for (const char *Value : {"1", "0"}) {
    std::string Sub = std::string(Dir) + "/" + Value;
    mkdir(Sub.c_str(), 0700);
    int Wait = clt::waitChild(
        clt::startChild(Self.c_str(), "--child",
                        {{"POCL_ISS_MODE", "vec"},
                         {"POCL_KERNEL_CACHE", "0"},
                         {"POCL_ISS_DUMP_IR", Sub.c_str()},
                         {"POCL_ISS_STRIDE_VERSIONING", Value}}),
        100);
    int Status = Wait >= 0 && WIFEXITED(Wait) ? WEXITSTATUS(Wait) : 1;
    if (Status == 77) {
      Result = 77;
      break;
    }
    if (Status != 0) {
      std::printf("FAIL: the child failed (POCL_ISS_STRIDE_VERSIONING=%s)\n",
                  Value);
      Result = 1;
      continue;
    }
    std::ifstream F(Sub + "/strided-vec-optimized.ll");
    std::stringstream Code;
    Code << F.rdbuf();
    if (Code.str().empty()) {
      std::printf("FAIL: no optimized code dumped in %s\n", Sub.c_str());
      Result = 1;
      continue;
    }
    bool Versioned = std::regex_search(Code.str(), StrideIsOne);
    if (Versioned != (*Value == '1')) {
      std::printf("FAIL: POCL_ISS_STRIDE_VERSIONING=%s: the loop is%s "
                  "versioned on n == 1\n",
                  Value, Versioned ? "" : " not");
      Result = 1;
    }
  }
  std::system((std::string("rm -rf '") + Dir + "'").c_str());
  if (Result == 0)
    std::printf("ok\n");
  return Result;
}
