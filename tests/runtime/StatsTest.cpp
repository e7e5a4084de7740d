//===- StatsTest.cpp - POCL_ISS_STATS prints subkernel launches at exit ---===//
// SPDX-License-Identifier: MIT
//
// The table is printed when the process exits, so the test runs itself as a
// child with POCL_ISS_STATS=1 and reads what the child wrote to stderr: one
// line per subkernel of each compiled kernel and local size, whose launch
// counts must add up to the launches made.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <unistd.h>

/// The statistics are ours: the child runs on pocl-iss whatever
/// ISS_TEST_PLATFORM says.
static int child() {
  if (!clt::findPlatform("pocl-iss"))
    return 77;
  try {
    clt::Env E;
    E.open("pocl-iss");
    clt::Program P = E.build("__kernel void stats_kernel(__global float *x) "
                             "{ x[get_global_id(0)] *= 2.0f; }");
    clt::Kernel K = E.kernel(P, "stats_kernel");
    clt::Mem B = E.buffer(CL_MEM_READ_WRITE, 1024 * sizeof(float));
    clt::setArg(K, 0, B);
    size_t G = 1024, L = 64;
    for (int R = 0; R < 3; ++R)
      E.run(K, 1, &G, &L);
  } catch (const clt::Failure &F) {
    std::fprintf(stderr, "%s\n", F.what());
    return 1;
  }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (Len <= 0)
    return 1;
  Self[Len] = '\0';
  std::string Cmd = std::string("POCL_ISS_STATS=1 '") + Self +
                    "' --child 2>&1 >/dev/null; echo \"exit=$?\"";
  FILE *F = popen(Cmd.c_str(), "r");
  if (!F)
    return 1;
  std::string Out;
  char Buf[4096];
  while (size_t N = fread(Buf, 1, sizeof(Buf), F))
    Out.append(Buf, N);
  pclose(F);
  std::printf("%s", Out.c_str());
  if (Out.find("exit=77") != std::string::npos)
    return 77;
  if (Out.find("exit=0") == std::string::npos) {
    std::printf("FAIL: the child failed\n");
    return 1;
  }
  if (Out.find("pocl-iss stats") == std::string::npos) {
    std::printf("FAIL: no stats table on stderr\n");
    return 1;
  }
  // Lines: kernel local mode subkernel launches.
  std::istringstream Lines(Out);
  std::string Line;
  unsigned long long Total = 0;
  while (std::getline(Lines, Line)) {
    std::istringstream W(Line);
    std::string Kernel, Local, Mode, Sub;
    unsigned long long Launches = 0;
    if (W >> Kernel >> Local >> Mode >> Sub >> Launches &&
        Kernel == "stats_kernel" && Local == "64x1x1")
      Total += Launches;
  }
  if (Total != 3) {
    std::printf("FAIL: %llu launches of stats_kernel counted, expected 3\n",
                Total);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
