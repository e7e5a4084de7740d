//===- NoDevicesTest.cpp - POCL_DEVICES=none hides the device -------------===//
// SPDX-License-Identifier: MIT
//
// Run with POCL_DEVICES=none (see CMakeLists.txt): the platform is still
// listed, but has no devices, as pocl does for a device list without ours.
//
//===----------------------------------------------------------------------===//

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main() {
  const char *Devices = std::getenv("POCL_DEVICES");
  if (!Devices || std::string(Devices) != "none") {
    std::printf("needs POCL_DEVICES=none\n");
    return 77;
  }
  cl_uint N = 0;
  if (clGetPlatformIDs(0, nullptr, &N) != CL_SUCCESS || N == 0) {
    std::printf("no platforms\n");
    return 1;
  }
  std::vector<cl_platform_id> Ps(N);
  clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Name[256] = {0};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (std::string(Name).find("pocl-iss") == std::string::npos)
      continue;
    cl_uint ND = 123;
    cl_device_id D = nullptr;
    cl_int Err = clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, &ND);
    if (Err != CL_DEVICE_NOT_FOUND) {
      std::printf("clGetDeviceIDs returned %d, expected CL_DEVICE_NOT_FOUND\n",
                  Err);
      return 1;
    }
    cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)P, 0};
    cl_context C = clCreateContextFromType(Props, CL_DEVICE_TYPE_ALL, nullptr,
                                           nullptr, &Err);
    if (C || Err != CL_DEVICE_NOT_FOUND) {
      std::printf("clCreateContextFromType returned %d, expected "
                  "CL_DEVICE_NOT_FOUND\n",
                  Err);
      return 1;
    }
    std::printf("ok: no devices under POCL_DEVICES=none\n");
    return 0;
  }
  std::printf("no pocl-iss platform\n");
  return 1;
}
