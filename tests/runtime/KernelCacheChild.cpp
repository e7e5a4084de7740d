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

#include <CL/cl.h>

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

#define CHECK(Expr)                                                            \
  do {                                                                         \
    cl_int E_ = (Expr);                                                        \
    if (E_ != CL_SUCCESS) {                                                    \
      std::printf("%s returned %d\n", #Expr, E_);                              \
      return 2;                                                                \
    }                                                                          \
  } while (0)

int main() {
  cl_platform_id P = clt::childPlatform();
  if (!P)
    return 77;
  cl_device_id D;
  CHECK(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr));
  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
  CHECK(Err);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
  CHECK(Err);
  cl_program Prog = clCreateProgramWithSource(C, 1, &Source, nullptr, &Err);
  CHECK(Err);
  CHECK(clBuildProgram(Prog, 0, nullptr, "", nullptr, nullptr));
  const size_t Global = 64, Local = 8;
  int Status = 0;
  for (const char *Name : {"scale", "shift"}) {
    cl_kernel K = clCreateKernel(Prog, Name, &Err);
    CHECK(Err);
    int Data[Global];
    for (size_t I = 0; I < Global; ++I)
      Data[I] = static_cast<int>(I);
    cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              sizeof(Data), Data, &Err);
    CHECK(Err);
    CHECK(clSetKernelArg(K, 0, sizeof(B), &B));
    CHECK(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr,
                                 nullptr));
    CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, sizeof(Data), Data, 0, nullptr,
                              nullptr));
    bool IsScale = std::strcmp(Name, "scale") == 0;
    for (size_t I = 0; I < Global; ++I) {
      int Want =
          IsScale ? static_cast<int>(I) * 3 + 1 : static_cast<int>(I) + 100;
      if (Data[I] != Want) {
        std::printf("%s: x[%zu] = %d, expected %d\n", Name, I, Data[I], Want);
        Status = 1;
        break;
      }
    }
    clReleaseMemObject(B);
    clReleaseKernel(K);
  }
  clReleaseProgram(Prog);
  clReleaseCommandQueue(Q);
  clReleaseContext(C);
  return Status;
}
