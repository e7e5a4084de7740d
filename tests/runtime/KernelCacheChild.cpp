//===- KernelCacheChild.cpp - One application run for KernelCacheTest -----===//
// SPDX-License-Identifier: MIT
//
// What runtime-kernelcache starts, with the cache folder and POCL_DEBUG of
// each case in its environment: builds a program with two kernels, runs
// each once and checks the results against the host. Exit status: 0 right
// results, 1 wrong results, 2 an OpenCL call failed (printed), 77 no
// platform (pocl-iss, unless ISS_TEST_PLATFORM names another).
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"

#include <cstdio>
#include <cstring>
#include <initializer_list>

static const char *Source = R"CLC(
__kernel void scale(__global int *x) {
  x[get_global_id(0)] = x[get_global_id(0)] * 3 + 1;
}
__kernel void shift(__global int *x) {
  x[get_global_id(0)] = x[get_global_id(0)] + 100;
}
)CLC";

int main() {
  clt::Env E;
  if (!clt::childPlatform())
    return 77;
  try {
    E.open(clt::testPlatformNeedle());
    clt::Program Prog = E.build(Source);
    const size_t Global = 64, Local = 8;
    for (const char *Name : {"scale", "shift"}) {
      clt::Kernel K = E.kernel(Prog, Name);
      std::vector<int> Data(Global);
      for (size_t I = 0; I < Global; ++I)
        Data[I] = static_cast<int>(I);
      clt::Mem B = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            Global * sizeof(int), Data.data());
      clt::setArg(K, 0, B);
      E.run(K, 1, &Global, &Local);
      E.read(B, Data);
      bool IsScale = std::strcmp(Name, "scale") == 0;
      for (size_t I = 0; I < Global; ++I) {
        int Want =
            IsScale ? static_cast<int>(I) * 3 + 1 : static_cast<int>(I) + 100;
        if (Data[I] != Want) {
          std::printf("%s: x[%zu] = %d, expected %d\n", Name, I, Data[I], Want);
          return 1;
        }
      }
    }
  } catch (const clt::Failure &F) {
    std::printf("%s\n", F.what());
    return 2;
  }
  return 0;
}
