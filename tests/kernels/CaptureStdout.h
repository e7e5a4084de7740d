//===- CaptureStdout.h - Capture and compare printf output ------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// printf from kernels goes to the process's standard output, flushed by the
// device (DESIGN.md section 3). These helpers redirect stdout into a
// temporary file around a launch (dup2) and compare the captured lines,
// sorted, since work-groups run concurrently and their order is not defined.
// Shared by PrintfKernels and BarrierKernels (printf between barriers).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_KERNELS_CAPTURESTDOUT_H
#define POCL_ISS_TESTS_KERNELS_CAPTURESTDOUT_H

#include "ClTest.h"

#include <cstdarg>
#include <fcntl.h>
#include <unistd.h>

namespace clt {

/// Runs \p Body with the process's stdout redirected into a temporary file
/// and returns what was written. The runtime may print from its own threads,
/// so the redirection covers everything up to clFinish in \p Body.
template <typename Fn> inline std::string captureStdout(Fn Body) {
  std::fflush(stdout);
  char Path[] = "/tmp/iss-printf-XXXXXX";
  int Fd = mkstemp(Path);
  CLT_EXPECT_MSG(Fd >= 0, "mkstemp failed");
  unlink(Path);
  int Saved = dup(STDOUT_FILENO);
  dup2(Fd, STDOUT_FILENO);
  try {
    Body();
  } catch (...) {
    std::fflush(stdout);
    dup2(Saved, STDOUT_FILENO);
    close(Saved);
    close(Fd);
    throw;
  }
  std::fflush(stdout);
  dup2(Saved, STDOUT_FILENO);
  close(Saved);
  std::string Out;
  lseek(Fd, 0, SEEK_SET);
  char Buf[4096];
  ssize_t N;
  while ((N = read(Fd, Buf, sizeof(Buf))) > 0)
    Out.append(Buf, size_t(N));
  close(Fd);
  return Out;
}

inline std::vector<std::string> sortedLines(const std::string &S) {
  std::vector<std::string> Lines;
  size_t Pos = 0;
  while (Pos < S.size()) {
    size_t End = S.find('\n', Pos);
    if (End == std::string::npos)
      End = S.size();
    Lines.push_back(S.substr(Pos, End - Pos));
    Pos = End + 1;
  }
  std::sort(Lines.begin(), Lines.end());
  return Lines;
}

/// Compares the lines of \p Got with \p Want, both sorted; the message shows
/// the first few differences.
inline void expectLines(const std::string &Got, std::vector<std::string> Want,
                        const std::string &What) {
  auto G = sortedLines(Got);
  std::sort(Want.begin(), Want.end());
  if (G == Want)
    return;
  std::string Msg = What + ": got " + std::to_string(G.size()) +
                    " lines, want " + std::to_string(Want.size());
  size_t Shown = 0;
  for (size_t I = 0; I < std::max(G.size(), Want.size()) && Shown < 5; ++I) {
    std::string A = I < G.size() ? G[I] : "<none>";
    std::string B = I < Want.size() ? Want[I] : "<none>";
    if (A == B)
      continue;
    ++Shown;
    Msg += "\n  got  \"" + A + "\"\n  want \"" + B + "\"";
  }
  fail(Msg);
}

inline std::string format(const char *Fmt, ...)
    __attribute__((format(printf, 1, 2)));
inline std::string format(const char *Fmt, ...) {
  char Buf[512];
  va_list Ap;
  va_start(Ap, Fmt);
  std::vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  return Buf;
}

} // namespace clt

#endif // POCL_ISS_TESTS_KERNELS_CAPTURESTDOUT_H
