//===- Spawn.h - The child processes of the benchmark drivers ---*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// iss-bench, compile-bench and startup-bench run each measurement in a child
// process, the driver itself again with --child: the runtimes read their
// settings from the environment once per process, a crash or a hang ends the
// child and not the run, and a start-up is only measured in a fresh process.
// The child's stdout comes back whole (its RESULT lines); its stderr is the
// driver's. Errors end the program with one line naming the tool
// (vendors::fail).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_COMMON_SPAWN_H
#define POCL_ISS_EXAMPLES_COMMON_SPAWN_H

#include "ChildProcess.h"
#include "Vendors.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace spawn {

/// Variables to set in a child's environment.
using EnvSet = std::vector<std::pair<std::string, std::string>>;

/// How a child ended.
struct Outcome {
  std::string Stdout; ///< all it wrote to its stdout
  int Status = 0;     ///< its wait status
  double WallMs = 0;  ///< from before its fork to its end, on the clock
  /// Its user and system CPU time, all threads, and that of the processes
  /// it waited for (wait4).
  double CpuMs = 0;
};

/// User and system time of \p Ru in milliseconds.
inline double cpuMillis(const rusage &Ru) {
  return (Ru.ru_utime.tv_sec + Ru.ru_stime.tv_sec) * 1e3 +
         (Ru.ru_utime.tv_usec + Ru.ru_stime.tv_usec) * 1e-3;
}

/// Runs \p Argv (Argv[0] is the program's path) with \p Set set and \p Unset
/// unset in its environment (clt::spawnChild), and waits for it. SIGALRM
/// ends it after \p Timeout seconds: a hung runtime does not hang the
/// driver.
inline Outcome run(const char *Tool, const std::vector<std::string> &Argv,
                   const EnvSet &Set, const std::vector<std::string> &Unset,
                   unsigned Timeout) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    vendors::fail(Tool, std::string("pipe: ") + std::strerror(errno));
  clt::EnvChanges Env;
  for (const auto &[K, V] : Set)
    Env.push_back({K, V.c_str()});
  for (const std::string &K : Unset)
    Env.push_back({K, nullptr});
  auto Start = std::chrono::steady_clock::now();
  pid_t Pid = clt::spawnChild(Argv, Env, Pipe[1], false, Timeout);
  if (Pid < 0)
    vendors::fail(Tool, std::string("fork: ") + std::strerror(errno));
  close(Pipe[1]);
  Outcome R;
  char Buf[4096];
  ssize_t N;
  while ((N = read(Pipe[0], Buf, sizeof(Buf))) > 0 || (N < 0 && errno == EINTR))
    if (N > 0)
      R.Stdout.append(Buf, size_t(N));
  close(Pipe[0]);
  rusage Ru{};
  while (wait4(Pid, &R.Status, 0, &Ru) < 0 && errno == EINTR)
    ;
  R.WallMs = std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - Start)
                 .count();
  R.CpuMs = cpuMillis(Ru);
  return R;
}

/// Makes this process the subreaper of what its children leave running
/// (PR_SET_CHILD_SUBREAPER), so that waitLeftBehind can wait for it and
/// count its CPU time: pocl-iss's compiler process, which goes on
/// compiling after its application has ended.
inline void adoptOrphans(const char *Tool) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
    vendors::fail(Tool, std::string("prctl(PR_SET_CHILD_SUBREAPER): ") +
                            std::strerror(errno));
}

/// What a child left running when it ended, waited for by this process
/// (its subreaper, adoptOrphans).
struct LeftBehind {
  unsigned Processes = 0;
  double WallMs = 0; ///< from the child's end to the last one's
  double CpuMs = 0;  ///< their whole CPU time, while the child ran too
  bool TimedOut = false;
};

/// Waits up to \p Seconds for every process this one has adopted.
inline LeftBehind waitLeftBehind(unsigned Seconds) {
  LeftBehind L;
  auto Start = std::chrono::steady_clock::now();
  auto Ms = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - Start)
        .count();
  };
  for (;;) {
    int Status;
    rusage Ru{};
    pid_t P = wait4(-1, &Status, WNOHANG, &Ru);
    if (P > 0) {
      ++L.Processes;
      L.CpuMs += cpuMillis(Ru);
      L.WallMs = Ms();
      continue;
    }
    if (P < 0 && errno == EINTR)
      continue;
    if (P < 0) // ECHILD: nothing left
      return L;
    if (Ms() > Seconds * 1e3) {
      L.TimedOut = true;
      return L;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

/// The lines of \p Out's stdout that begin with \p Tag ("RESULT\t"), whole;
/// the others (a kernel's printf, a runtime's message) go to stderr.
inline std::vector<std::string> taggedLines(const Outcome &Out,
                                            const std::string &Tag) {
  std::vector<std::string> Tagged;
  std::stringstream SS(Out.Stdout);
  for (std::string Line; std::getline(SS, Line);)
    if (Line.rfind(Tag, 0) == 0)
      Tagged.push_back(Line);
    else if (!Line.empty())
      std::cerr << "  child stdout: " << Line << "\n";
  return Tagged;
}

/// "timed out" (run's SIGALRM), "killed by signal N (name)" or "exit code
/// N", for the reports.
inline std::string describe(int Status) {
  if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    if (Sig == SIGALRM)
      return "timed out";
    return "killed by signal " + std::to_string(Sig) + " (" + strsignal(Sig) +
           ")";
  }
  if (WIFEXITED(Status))
    return "exit code " + std::to_string(WEXITSTATUS(Status));
  return "unknown status";
}

} // namespace spawn

#endif // POCL_ISS_EXAMPLES_COMMON_SPAWN_H
