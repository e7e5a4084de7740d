//===- TieredTest.cpp - POCL_ISS_TIERED: vec's code first, the mode's next
//-===//
// SPDX-License-Identifier: MIT
//
// With POCL_ISS_TIERED (the default), the first launch of a kernel not yet
// compiled for its local size runs `vec`'s code, compiled at enqueue, while
// POCL_ISS_MODE's compiles behind it; the next launch waits for that, and
// every later one runs it. The test runs itself as a child in `split` mode
// with POCL_DEBUG=llvm and reads what the compiler logged: Convolution2D in
// 32x8 groups launched three times (each result checked against the host
// reference: the first launch is `vec`'s code, the others the split's),
// compiled once in each mode; then once in 16x16 groups, the process
// exiting with that split compile under way, which it must do cleanly.
// POCL_ISS_TIERED=0 and POCL_ISS_STATS=1 compile the mode's code first;
// with the kernel cache, a second process loads the split's code and
// compiles nothing.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include "../../examples/common/Convolution2DKernel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

static int child() {
  if (!clt::findPlatform("pocl-iss"))
    return 77;
  try {
    clt::Env E;
    E.open("pocl-iss");
    const int Width = 256, Height = 128, MaskSize = 5;
    std::vector<int> In = conv2d::testImage(Width, Height);
    std::vector<float> Mask = conv2d::boxMask(MaskSize);
    std::vector<int> Want =
        conv2d::reference(In, Mask, Width, Height, MaskSize, MaskSize);
    clt::Program P = E.build(conv2d::Source);
    clt::Kernel K = E.kernel(P, "Convolution2D");
    clt::Mem InB = E.input(In), MaskB = E.input(Mask);
    size_t G[2] = {size_t(Width), size_t(Height)};
    auto Run = [&](size_t LX, size_t LY, int Launch) {
      clt::Mem Out = E.output<int>(In.size());
      clt::setArgs(K, Out, InB, MaskB, Width, Height, MaskSize, MaskSize);
      size_t L[2] = {LX, LY};
      E.run(K, 2, G, L);
      std::string Bad;
      if (conv2d::countMismatches(E.read<int>(Out, In.size()), Want, &Bad,
                                  Width)) {
        std::fprintf(stderr, "launch %d in %zux%zu groups: %s\n", Launch, LX,
                     LY, Bad.c_str());
        return false;
      }
      return true;
    };
    for (int Launch = 1; Launch <= 3; ++Launch)
      if (!Run(32, 8, Launch))
        return 1;
    // The last thing the process does: its split compile runs at exit.
    if (!Run(16, 16, 1))
      return 1;
  } catch (const clt::Failure &F) {
    std::fprintf(stderr, "%s\n", F.what());
    return 1;
  }
  return 0;
}

/// How many lines of \p Log contain \p Text.
static int count(const std::string &Log, const std::string &Text) {
  int N = 0;
  for (size_t At = Log.find(Text); At != std::string::npos;
       At = Log.find(Text, At + 1))
    ++N;
  return N;
}

struct Expect {
  int VecCompiles;   ///< "mode vec: compiled" for 32x8
  int SplitCompiles; ///< "mode split: compiled" for 32x8
  int SplitLoads;    ///< "mode split: loaded from the cache" for 32x8
  int Behind;        ///< tiered first launches, both local sizes (-1: any)
};

static int check(const char *Self, const char *What, const clt::EnvChanges &Env,
                 const Expect &X) {
  std::string Log;
  int Exit = clt::runChild(Self, "--child", Env, 600, Log);
  if (Exit == 77)
    return 77;
  if (Exit != 0) {
    std::printf("FAIL: %s: the child exited with %d:\n%s\n", What, Exit,
                Log.c_str());
    return 1;
  }
  const std::string Conv = "kernel Convolution2D, local size 32,8,1";
  int Vec = count(Log, Conv + ", mode vec: compiled");
  int Split = count(Log, Conv + ", mode split: compiled");
  int Loads = count(Log, Conv + ", mode split: loaded from the cache");
  int Behind = count(Log, "the first launch runs vec's code, mode split "
                          "compiling behind it");
  if (Vec != X.VecCompiles || Split != X.SplitCompiles ||
      Loads != X.SplitLoads || (X.Behind >= 0 && Behind != X.Behind)) {
    std::printf("FAIL: %s: 32x8 compiled %d times in vec, %d in split, "
                "loaded %d times; %d tiered first launches; expected %d, %d, "
                "%d, %d:\n%s\n",
                What, Vec, Split, Loads, Behind, X.VecCompiles, X.SplitCompiles,
                X.SplitLoads, X.Behind, Log.c_str());
    return 1;
  }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  std::string SelfPath = clt::selfPath();
  if (SelfPath.empty())
    return 1;
  const char *Self = SelfPath.c_str();
  clt::EnvChanges Base = {{"POCL_ISS_MODE", "split"},
                          {"POCL_DEBUG", "llvm"},
                          {"POCL_KERNEL_CACHE", "0"}};
  auto With = [&](clt::EnvChanges More) {
    clt::EnvChanges Env = Base;
    for (auto &KV : More)
      Env.push_back(KV);
    return Env;
  };
  if (int R =
          check(Self, "tiered", With({{"POCL_ISS_TIERED", "1"}}), {1, 1, 0, 2}))
    return R;
  if (int R = check(Self, "not tiered", With({{"POCL_ISS_TIERED", "0"}}),
                    {0, 1, 0, 0}))
    return R;
  if (int R = check(Self, "with stats",
                    With({{"POCL_ISS_TIERED", "1"}, {"POCL_ISS_STATS", "1"}}),
                    {0, 1, 0, 0}))
    return R;
  // A cache of its own: the first process leaves the split's code there
  // (the 32x8 compile was waited for), the second loads it.
  char Dir[] = "/tmp/pocl-iss-tiered-XXXXXX";
  if (!mkdtemp(Dir)) {
    std::printf("FAIL: no temporary folder\n");
    return 1;
  }
  clt::EnvChanges Cached = {{"POCL_ISS_MODE", "split"},
                            {"POCL_DEBUG", "llvm"},
                            {"POCL_ISS_TIERED", "1"},
                            {"POCL_KERNEL_CACHE", "1"},
                            {"POCL_CACHE_DIR", Dir}};
  int R = check(Self, "cache, first process", Cached, {1, 1, 0, 2});
  if (!R)
    R = check(Self, "cache, second process", Cached, {0, 0, 1, -1});
  std::string Rm = std::string("rm -rf '") + Dir + "'";
  if (std::system(Rm.c_str()) != 0)
    std::printf("warning: could not remove %s\n", Dir);
  if (R)
    return R;
  std::printf("PASS\n");
  return 0;
}
