//===- StatsTest.cpp - POCL_ISS_STATS prints subkernel launches at exit ---===//
// SPDX-License-Identifier: MIT
//
// The table is printed when the process exits, so the test runs itself as a
// child with POCL_ISS_STATS=1 and reads what the child wrote to stderr: one
// line per subkernel of each compiled kernel and local size, whose launch
// counts must add up to the launches made.
//
//===----------------------------------------------------------------------===//

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <unistd.h>

static int child() {
  cl_platform_id Ps[8];
  cl_uint N = 0;
  clGetPlatformIDs(8, Ps, &N);
  for (cl_uint I = 0; I < N; ++I) {
    char Name[128] = {0};
    clGetPlatformInfo(Ps[I], CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (!std::strstr(Name, "pocl-iss"))
      continue;
    cl_device_id D;
    cl_int Err = clGetDeviceIDs(Ps[I], CL_DEVICE_TYPE_ALL, 1, &D, nullptr);
    cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
    cl_command_queue Q = clCreateCommandQueue(C, D, 0, &Err);
    const char *Src = "__kernel void stats_kernel(__global float *x) "
                      "{ x[get_global_id(0)] *= 2.0f; }";
    cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, &Err);
    if (clBuildProgram(P, 0, nullptr, "", nullptr, nullptr) != CL_SUCCESS)
      return 1;
    cl_kernel K = clCreateKernel(P, "stats_kernel", &Err);
    cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, 1024 * sizeof(float),
                              nullptr, &Err);
    clSetKernelArg(K, 0, sizeof(B), &B);
    size_t G = 1024, L = 64;
    for (int R = 0; R < 3; ++R)
      if (clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, &L, 0, nullptr,
                                 nullptr) != CL_SUCCESS)
        return 1;
    clFinish(Q);
    clReleaseMemObject(B);
    clReleaseKernel(K);
    clReleaseProgram(P);
    clReleaseCommandQueue(Q);
    clReleaseContext(C);
    return 0;
  }
  return 77;
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
