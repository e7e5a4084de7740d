//===- ChildProcess.h - Tests that run child processes ----------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// For the runtime tests whose subject is a whole process (its exit, its
// environment, what it leaves on disk): the platform a child uses, and
// starting a child with a changed environment and waiting for it with a
// time limit. Header-only, like the rest of ClTest.h: the children do not
// link the test runner.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_COMMON_CHILDPROCESS_H
#define POCL_ISS_TESTS_COMMON_CHILDPROCESS_H

#include "ClTest.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

extern char **environ;

namespace clt {

/// The platform the tests run on (ClTest.h): ISS_TEST_PLATFORM, or
/// "pocl-iss"; null if there is none.
inline cl_platform_id childPlatform() {
  return findPlatform(testPlatformNeedle());
}

/// Environment changes for a child: a null value unsets the variable.
using EnvChanges = std::vector<std::pair<std::string, const char *>>;

/// Starts \p Argv (Argv[0] is the program's path) with this process's
/// environment changed by \p Env, its stdout on \p OutFd (and its stderr
/// too with \p BothStreams) where that is not -1; with \p Alarm, SIGALRM
/// ends it after that many seconds, so a hung child ends. Everything is
/// prepared before fork: the parent may have threads (the device's), so the
/// child calls only async-signal-safe functions before exec. Returns the
/// pid, or -1.
inline pid_t spawnChild(const std::vector<std::string> &Argv,
                        const EnvChanges &Env, int OutFd, bool BothStreams,
                        unsigned Alarm = 0) {
  std::vector<std::string> Vars;
  for (char **P = environ; *P; ++P) {
    std::string V = *P;
    std::string Name = V.substr(0, V.find('='));
    bool Changed = false;
    for (const auto &Change : Env)
      Changed |= Change.first == Name;
    if (!Changed)
      Vars.push_back(V);
  }
  for (const auto &[Name, Value] : Env)
    if (Value)
      Vars.push_back(Name + "=" + Value);
  std::vector<char *> Envp;
  for (std::string &V : Vars)
    Envp.push_back(&V[0]);
  Envp.push_back(nullptr);
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t Pid = fork();
  if (Pid == 0) {
    if (OutFd >= 0) {
      dup2(OutFd, 1);
      if (BothStreams)
        dup2(OutFd, 2);
    }
    if (Alarm)
      alarm(Alarm);
    execve(Args[0], Args.data(), Envp.data());
    _exit(127);
  }
  return Pid;
}

/// Starts \p Path with the one argument \p Arg (if not null) and this
/// process's environment changed by \p Env; with \p OutPath, its stdout and
/// stderr go to that file (spawnChild). Returns the pid, or -1.
inline pid_t startChild(const char *Path, const char *Arg,
                        const EnvChanges &Env = {},
                        const std::string &OutPath = "") {
  int Fd = -1;
  if (!OutPath.empty()) {
    Fd = open(OutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (Fd < 0)
      return -1;
  }
  std::vector<std::string> Argv = {Path};
  if (Arg)
    Argv.push_back(Arg);
  pid_t Pid = spawnChild(Argv, Env, Fd, true);
  if (Fd >= 0)
    close(Fd);
  return Pid;
}

/// This executable's path (/proc/self/exe), for running itself as a
/// child; empty if it cannot be read.
inline std::string selfPath() {
  char Buf[4096];
  ssize_t Len = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  return Len > 0 ? std::string(Buf, size_t(Len)) : std::string();
}

/// Waits up to \p Seconds (times timeScale()) for \p Pid; its wait status,
/// or -1 when it did not end in time (it is killed then) or could not be
/// waited for.
inline int waitChild(pid_t Pid, int Seconds) {
  if (Pid < 0)
    return -1;
  int Status = 0;
  const long Limit = Seconds * 1000L * timeScale();
  for (long Waited = 0; Waited < Limit; Waited += 10) {
    pid_t R = waitpid(Pid, &Status, WNOHANG);
    if (R == Pid)
      return Status;
    if (R < 0)
      return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(Pid, SIGKILL);
  waitpid(Pid, &Status, 0);
  return -1;
}

/// What a child that checks pocl-iss's own settings runs: \p Body on an Env
/// opened on pocl-iss, whatever ISS_TEST_PLATFORM says. Returns 77 without
/// that platform, 1 after a failure (printed to stderr), else what \p Body
/// returns.
template <typename Fn> int onPoclIss(Fn Body) {
  if (!findPlatform("pocl-iss"))
    return 77;
  try {
    Env E;
    E.open("pocl-iss");
    return Body(E);
  } catch (const Failure &F) {
    std::fprintf(stderr, "%s\n", F.what());
    return 1;
  }
}

/// The content of the file at \p Path; empty when it cannot be read.
inline std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Out;
  Out << In.rdbuf();
  return Out.str();
}

/// The paths of the kernel cache entries (`*.kc`) in \p Dir; none when it
/// cannot be read.
inline std::vector<std::string> kernelCacheEntries(const std::string &Dir) {
  std::vector<std::string> Paths;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name;
      if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".kc") == 0)
        Paths.push_back(Dir + "/" + Name);
    }
    closedir(D);
  }
  return Paths;
}

/// Runs \p Path with \p Arg and this process's environment changed by
/// \p Env, for up to \p Seconds (waitChild), its stdout and stderr
/// collected in \p Text through a temporary file: its exit code, or -1
/// when it was killed, did not end in time or could not be started.
inline int runChild(const char *Path, const char *Arg, const EnvChanges &Env,
                    int Seconds, std::string &Text) {
  char Name[] = "/tmp/pocl-iss-child-XXXXXX";
  int Fd = mkstemp(Name);
  if (Fd < 0)
    return -1;
  close(Fd);
  int Status = waitChild(startChild(Path, Arg, Env, Name), Seconds);
  Text = readFile(Name);
  unlink(Name);
  return Status >= 0 && WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

/// How many times \p Log (a child's output) contains \p Text.
inline int occurrences(const std::string &Log, const std::string &Text) {
  int N = 0;
  for (size_t At = Log.find(Text); At != std::string::npos;
       At = Log.find(Text, At + 1))
    ++N;
  return N;
}

/// A fresh folder under /tmp named after \p Prefix (a kernel cache for
/// children, say), removed with everything in it when it goes; Made is
/// false when it could not be made.
struct TempFolder {
  std::string Path;
  bool Made = false;
  explicit TempFolder(const std::string &Prefix) {
    std::string Templ = "/tmp/" + Prefix + "-XXXXXX";
    Made = mkdtemp(&Templ[0]) != nullptr;
    Path = Templ;
  }
  TempFolder(const TempFolder &) = delete;
  TempFolder &operator=(const TempFolder &) = delete;
  ~TempFolder() {
    if (Made && std::system(("rm -rf '" + Path + "'").c_str()) != 0)
      std::fprintf(stderr, "warning: could not remove %s\n", Path.c_str());
  }
};

} // namespace clt

#endif // POCL_ISS_TESTS_COMMON_CHILDPROCESS_H
