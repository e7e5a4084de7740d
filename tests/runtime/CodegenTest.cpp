//===- CodegenTest.cpp - Switches that reach LLVM's code generation -------===//
// SPDX-License-Identifier: MIT
//
// Settings whose effect is in the code, not the results. Each is the
// process's, so the test runs itself as a child with each value and
// POCL_ISS_DUMP_IR, and reads the code the child's kernel left; the child
// checks its results either way.
// - POCL_ISS_STRIDE_VERSIONING: whether LLVM's loop vectorizer may version
//   a loop on a stride that is a value being 1: a work-item loop reading
//   a[i * n] compares n with 1 when versioning is on, and never when it is
//   off (the default).
// - POCL_ISS_CHOICE: a kernel whose own uint8 vectors run in work groups of
//   one work-item keeps them (iss-as-written): its work-group function
//   rotates <8 x i32> vectors, where with the setting off the Scalarizer
//   has split them into lanes before O3.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

static const char *Source = R"CLC(
__kernel void strided(__global const float *a, __global float *out, int n) {
  int i = get_global_id(0);
  out[i] = a[i * n] + 1.0f;
}

__kernel void rounds(__global const uint8 *in, __global uint8 *out, int n) {
  size_t i = get_global_id(0);
  uint8 v = in[i];
  for (int r = 0; r < n; ++r)
    v = rotate(v, (uint8)5) + v;
  out[i] = v;
}
)CLC";

static uint32_t rotl(uint32_t V, unsigned S) {
  return (V << S) | (V >> (32 - S));
}

/// Runs \p Kernel of Source with \p Local work-items per group and checks
/// its results.
static int child(const std::string &Kernel, size_t Local) {
  return clt::onPoclIss([&](clt::Env &E) {
    clt::Program P = E.build(Source);
    clt::Kernel K = E.kernel(P, Kernel.c_str());
    const int N = 1024, Stride = 3, Rounds = 9;
    size_t G = N;
    std::vector<float> A(size_t(N) * Stride);
    std::vector<uint32_t> U(size_t(N) * 8);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = float(I % 97);
    for (size_t I = 0; I < U.size(); ++I)
      U[I] = uint32_t(I * 2654435761u);
    if (Kernel == "strided") {
      clt::Mem DA = E.input(A), DOut = E.output<float>(N);
      clt::setArgs(K, DA, DOut, Stride);
      E.run(K, 1, &G, &Local);
      std::vector<float> Got = E.read<float>(DOut, N);
      for (int I = 0; I < N; ++I)
        if (Got[I] != A[size_t(I) * Stride] + 1.0f) {
          std::fprintf(stderr, "strided: out[%d] = %g, expected %g\n", I,
                       double(Got[I]), double(A[size_t(I) * Stride] + 1.0f));
          return 1;
        }
      return 0;
    }
    clt::Mem DIn = E.input(U), DOut = E.output<uint32_t>(U.size());
    clt::setArgs(K, DIn, DOut, Rounds);
    E.run(K, 1, &G, &Local);
    std::vector<uint32_t> Got = E.read<uint32_t>(DOut, U.size());
    for (size_t I = 0; I < U.size(); ++I) {
      uint32_t V = U[I];
      for (int R = 0; R < Rounds; ++R)
        V = rotl(V, 5) + V;
      if (Got[I] != V) {
        std::fprintf(stderr, "rounds: out[%zu] = %u, expected %u\n", I,
                     unsigned(Got[I]), unsigned(V));
        return 1;
      }
    }
    return 0;
  });
}

namespace {
/// A setting, the kernel that shows it, the dumped file to read and what
/// in it says that the setting is on.
struct Case {
  const char *Setting;
  const char *Kernel;
  const char *Local;
  const char *Mode;
  const char *Dump;
  const char *On;
};
} // namespace

int main(int Argc, char **Argv) {
  if (Argc > 3 && std::strcmp(Argv[1], "--child") == 0)
    return child(Argv[2], std::strtoul(Argv[3], nullptr, 10));
  std::string Self = clt::selfPath();
  if (Self.empty())
    return 1;
  clt::TempFolder Dir("pocl-iss-codegen");
  if (!Dir.Made)
    return 1;
  const Case Cases[] = {
      // The stride's load, maybe frozen, compared with 1.
      {"POCL_ISS_STRIDE_VERSIONING", "strided", "64", "vec",
       "strided-vec-optimized.ll", R"(icmp (eq|ne) i32 %n\.val[.\w]*, 1\b)"},
      // After the work-group passes and the Scalarizer, before O3 (whose
      // SLP vectorizer may regroup lanes either way).
      {"POCL_ISS_CHOICE", "rounds", "1", "split+score",
       "rounds-split+score-workgroup.ll",
       R"(= call [ \w]*<8 x i32> @llvm\.fshl\.v8i32)"},
  };
  int Result = 0;
  for (const Case &C : Cases)
    for (const char *Value : {"1", "0"}) {
      std::string Sub = Dir.Path + "/" + C.Kernel + Value;
      mkdir(Sub.c_str(), 0700);
      int Wait =
          clt::waitChild(clt::spawnChild({Self, "--child", C.Kernel, C.Local},
                                         {{"POCL_ISS_MODE", C.Mode},
                                          {"POCL_KERNEL_CACHE", "0"},
                                          {"POCL_ISS_TIERED", "0"},
                                          {"POCL_ISS_DUMP_IR", Sub.c_str()},
                                          {C.Setting, Value}},
                                         -1, false),
                         100);
      int Status = Wait >= 0 && WIFEXITED(Wait) ? WEXITSTATUS(Wait) : 1;
      if (Status == 77)
        return 77;
      if (Status != 0) {
        std::printf("FAIL: the child failed (%s=%s)\n", C.Setting, Value);
        Result = 1;
        continue;
      }
      std::string Code = clt::readFile(Sub + "/" + C.Dump);
      if (Code.empty()) {
        std::printf("FAIL: no %s dumped in %s\n", C.Dump, Sub.c_str());
        Result = 1;
        continue;
      }
      bool On = std::regex_search(Code, std::regex(C.On));
      if (On != (*Value == '1')) {
        std::printf("FAIL: %s=%s, but %s %s /%s/\n", C.Setting, Value, C.Dump,
                    On ? "matches" : "does not match", C.On);
        Result = 1;
      }
    }
  if (Result == 0)
    std::printf("ok\n");
  return Result;
}
