//===- ClTest.cpp - The runner of the OpenCL tests ------------------------===//
// SPDX-License-Identifier: MIT
//
// main() of every runtime and end-to-end kernel test executable: picks the
// platform (ClTest.h), runs the registered cases, each with a fresh context
// and queue and a watchdog (300 s a case, times ISS_TEST_TIME_SCALE), since
// a broken runtime tends to hang rather than crash. Arguments are filters:
// a case runs when its name contains one of them (all cases without
// arguments).
//
// Exit status: 0 pass, 1 a case failed (or none matched), 77 all skipped.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <csignal>
#include <unistd.h>

static const char *CurrentTest = "";

static void watchdog(int) {
  static const char Msg[] = "watchdog: test case timed out: ";
  (void)!write(2, Msg, sizeof(Msg) - 1);
  (void)!write(2, CurrentTest, std::strlen(CurrentTest));
  (void)!write(2, "\n", 1);
  _exit(1);
}

int main(int Argc, char **Argv) {
  using namespace clt;
  Env Base;
  try {
    Base.choose(testPlatformNeedle());
  } catch (const Failure &F) {
    std::fprintf(stderr, "FAIL: %s\n", F.what());
    return 1;
  }
  const char *Mode = std::getenv("POCL_ISS_MODE");
  std::printf("platform: %s%s%s\n", Base.PlatformName.c_str(),
              Mode ? ", POCL_ISS_MODE=" : "", Mode ? Mode : "");
  std::signal(SIGALRM, watchdog);
  std::vector<std::string> Filters(Argv + 1, Argv + Argc);
  unsigned Passed = 0, Failed = 0, Skips = 0;
  for (const TestCase &T : registry()) {
    bool Selected = Filters.empty();
    for (const std::string &F : Filters)
      Selected |= std::strstr(T.Name, F.c_str()) != nullptr;
    if (!Selected)
      continue;
    CurrentTest = T.Name;
    std::printf("[ RUN      ] %s\n", T.Name);
    std::fflush(stdout);
    alarm(300 * timeScale());
    Env E;
    E.Platform = Base.Platform;
    E.Device = Base.Device;
    E.PlatformName = Base.PlatformName;
    E.IsPoclIss = Base.IsPoclIss;
    try {
      E.connect();
      T.Fn(E);
      std::printf("[       OK ] %s\n", T.Name);
      ++Passed;
    } catch (const Failure &F) {
      std::printf("[  FAILED  ] %s\n  %s\n", T.Name, F.what());
      ++Failed;
    } catch (const Skipped &S) {
      std::printf("[  SKIPPED ] %s: %s\n", T.Name, S.Reason.c_str());
      ++Skips;
    }
    std::fflush(stdout);
    alarm(0);
  }
  std::printf("%u passed, %u failed, %u skipped (platform '%s')\n", Passed,
              Failed, Skips, Base.PlatformName.c_str());
  if (Failed || Passed + Skips == 0)
    return 1;
  if (Passed == 0)
    return 77;
  return 0;
}
