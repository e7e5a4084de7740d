//===- ExitTest.cpp - Exiting while a kernel still runs -------------------===//
// SPDX-License-Identifier: MIT
//
// An application may leave main, or call exit(), while a kernel it enqueued
// is still running on the worker threads; the process must then end with
// the status the application chose, as it does on pocl. The static
// destructors that run at exit must not pull anything from under those
// threads (the JIT's code memory above all).
//
// The test runs itself as a child many times (the crash it guards against
// depended on timing), in two ways: returning from main without releasing
// anything, and calling exit(0) after releasing every handle. Each child
// waits until the kernel is running before it leaves.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"

#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

// A kernel that runs for seconds: every work-item spins on a volatile
// flag nobody sets.
static const char *Source = R"CLC(
__kernel void spin(__global volatile int *flag, __global int *out) {
  int i = 0;
  while (flag[0] == 0 && i < 2000000000)
    ++i;
  out[get_global_id(0)] = i;
}
)CLC";

/// 0 on success (the kernel is running), 77 without the platform.
static int child(bool CallExit) {
  cl_platform_id P = clt::childPlatform();
  if (!P)
    return 77;
  cl_device_id D;
  cl_int Err = clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr);
  if (Err != CL_SUCCESS)
    return 2;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
  cl_program Prog = clCreateProgramWithSource(C, 1, &Source, nullptr, &Err);
  if (clBuildProgram(Prog, 0, nullptr, "", nullptr, nullptr) != CL_SUCCESS)
    return 3;
  cl_kernel K = clCreateKernel(Prog, "spin", &Err);
  int Zero = 0;
  cl_mem Flag = clCreateBuffer(C, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               sizeof(int), &Zero, &Err);
  const size_t Global = 64, Local = 1;
  cl_mem Out =
      clCreateBuffer(C, CL_MEM_READ_WRITE, Global * sizeof(int), nullptr, &Err);
  clSetKernelArg(K, 0, sizeof(Flag), &Flag);
  clSetKernelArg(K, 1, sizeof(Out), &Out);
  cl_event Ev;
  if (clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr,
                             &Ev) != CL_SUCCESS)
    return 4;
  clFlush(Q);
  // Leave only once the work-groups run.
  cl_int Status = CL_QUEUED;
  for (int Tries = 0; Tries < 60000 && Status != CL_RUNNING; ++Tries) {
    clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status),
                   &Status, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (Status != CL_RUNNING)
    return 5;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (CallExit) {
    clReleaseEvent(Ev);
    clReleaseMemObject(Flag);
    clReleaseMemObject(Out);
    clReleaseKernel(K);
    clReleaseProgram(Prog);
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
    std::exit(0);
  }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--return") == 0)
    return child(false);
  if (Argc > 1 && std::strcmp(Argv[1], "--exit") == 0)
    return child(true);
  std::string Self = clt::selfPath();
  if (Self.empty())
    return 1;
  // Before the fix about a third of such exits crashed: 24 runs miss it
  // with a probability below 1e-4.
  const int Runs = 24;
  int Failures = 0;
  for (int I = 0; I < Runs; ++I) {
    const char *Arg = I % 2 ? "--exit" : "--return";
    // A child still there after 120 s fails the test: exiting must not
    // wait for the kernel.
    int S = clt::waitChild(clt::startChild(Self.c_str(), Arg), 120);
    if (S != -1 && WIFEXITED(S) && WEXITSTATUS(S) == 77) {
      std::printf("skipped: no pocl-iss platform\n");
      return 77;
    }
    if (S != -1 && WIFEXITED(S) && WEXITSTATUS(S) == 0)
      continue;
    ++Failures;
    if (S != -1 && WIFSIGNALED(S))
      std::printf("FAIL: run %d (%s) died of signal %d (%s)\n", I, Arg,
                  WTERMSIG(S), strsignal(WTERMSIG(S)));
    else if (S != -1 && WIFEXITED(S))
      std::printf("FAIL: run %d (%s) exited with %d\n", I, Arg, WEXITSTATUS(S));
    else
      std::printf("FAIL: run %d (%s) did not end within 120 s\n", I, Arg);
  }
  if (Failures) {
    std::printf("FAIL: %d of %d exits with a running kernel failed\n", Failures,
                Runs);
    return 1;
  }
  std::printf("ok: %d exits with a running kernel, all with status 0\n", Runs);
  return 0;
}
