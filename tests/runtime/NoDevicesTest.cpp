//===- NoDevicesTest.cpp - POCL_DEVICES=none hides the device -------------===//
// SPDX-License-Identifier: MIT
//
// Run with POCL_DEVICES=none (see CMakeLists.txt): the platform is still
// listed, but has no devices, as pocl does for a device list without ours.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

int main() {
  const char *Devices = std::getenv("POCL_DEVICES");
  if (!Devices || std::string(Devices) != "none") {
    std::printf("needs POCL_DEVICES=none\n");
    return 77;
  }
  std::string Seen;
  if (cl_platform_id P = clt::findPlatform("pocl-iss", &Seen)) {
    cl_uint ND = 123;
    cl_device_id D = nullptr;
    cl_int Err = clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, &ND);
    if (Err != CL_DEVICE_NOT_FOUND) {
      std::printf("clGetDeviceIDs returned %s, expected CL_DEVICE_NOT_FOUND\n",
                  clt::errorName(Err));
      return 1;
    }
    cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)P, 0};
    cl_context C = clCreateContextFromType(Props, CL_DEVICE_TYPE_ALL, nullptr,
                                           nullptr, &Err);
    if (C || Err != CL_DEVICE_NOT_FOUND) {
      std::printf("clCreateContextFromType returned %s, expected "
                  "CL_DEVICE_NOT_FOUND\n",
                  clt::errorName(Err));
      return 1;
    }
    std::printf("ok: no devices under POCL_DEVICES=none\n");
    return 0;
  }
  std::printf("no pocl-iss platform (found: %s)\n", Seen.c_str());
  return 1;
}
