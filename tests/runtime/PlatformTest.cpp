//===- PlatformTest.cpp - Platform and device queries ---------------------===//
// SPDX-License-Identifier: MIT
//
// clGetPlatformInfo, clGetDeviceIDs and clGetDeviceInfo: the values an
// application sizes its work by must be real and consistent (OpenCL 1.2,
// sections 4.1 and 4.2). Checks of pocl-iss's own choices (names, image
// support, alignment) only run on pocl-iss.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <CL/cl_ext.h>

#include <algorithm>

using namespace clt;

static std::string platformString(cl_platform_id P, cl_platform_info I) {
  size_t N = 0;
  CL_CHECK(clGetPlatformInfo(P, I, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetPlatformInfo(P, I, N, &S[0], nullptr));
  CLT_EXPECT(!S.empty() && S.back() == '\0');
  S.pop_back();
  return S;
}

CLT_TEST(platformStrings) {
  std::string Version = platformString(E.Platform, CL_PLATFORM_VERSION);
  CLT_EXPECT_MSG(Version.rfind("OpenCL ", 0) == 0, Version);
  CLT_EXPECT(platformString(E.Platform, CL_PLATFORM_PROFILE) == "FULL_PROFILE");
  CLT_EXPECT(!platformString(E.Platform, CL_PLATFORM_VENDOR).empty());
  std::string Ext = platformString(E.Platform, CL_PLATFORM_EXTENSIONS);
  CLT_EXPECT_MSG(Ext.find("cl_khr_icd") != std::string::npos, Ext);
  if (E.IsPoclIss) {
    CLT_EXPECT(platformString(E.Platform, CL_PLATFORM_NAME) == "pocl-iss");
    CLT_EXPECT_MSG(Version.rfind("OpenCL 1.2 pocl-iss", 0) == 0, Version);
    CLT_EXPECT(platformString(E.Platform, CL_PLATFORM_ICD_SUFFIX_KHR) ==
               "POCL_ISS");
  }
}

CLT_TEST(platformInfoErrors) {
  char Small[2];
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetPlatformInfo(E.Platform, CL_PLATFORM_VERSION,
                                   sizeof(Small), Small, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetPlatformInfo(E.Platform, 0x7fff, 0, nullptr, nullptr));
}

CLT_TEST(deviceIDs) {
  cl_uint N = 0;
  CL_CHECK(clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &N));
  CLT_EXPECT(N >= 1);
  cl_device_id D = nullptr;
  CL_CHECK(clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_CPU, 1, &D, nullptr));
  CLT_EXPECT(D != nullptr);
  CL_CHECK(clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_DEFAULT, 1, &D, &N));
  CLT_EXPECT(N == 1);
  CLT_EXPECT_ERR(CL_DEVICE_NOT_FOUND,
                 clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_GPU, 1, &D, &N));
  if (E.IsPoclIss) // Debian's pocl answers CL_DEVICE_NOT_FOUND
    CLT_EXPECT_ERR(CL_INVALID_DEVICE_TYPE,
                   clGetDeviceIDs(E.Platform, 1ull << 20, 1, &D, &N));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_ALL, 0, &D, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr));
}

CLT_TEST(deviceLimits) {
  cl_device_type Type = E.deviceValue<cl_device_type>(CL_DEVICE_TYPE);
  CLT_EXPECT(Type & CL_DEVICE_TYPE_CPU);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) == 3);
  size_t WG = E.deviceValue<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  CLT_EXPECT(WG >= 1);
  size_t Items[3];
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                           sizeof(Items), Items, nullptr));
  CLT_EXPECT(Items[0] >= 1 && Items[0] <= WG);
  cl_ulong Global = E.deviceValue<cl_ulong>(CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong MaxAlloc = E.deviceValue<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CLT_EXPECT(Global > 0);
  CLT_EXPECT(MaxAlloc >= std::min<cl_ulong>(Global / 4, 128ull << 20));
  CLT_EXPECT(E.deviceValue<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE) >= 32 * 1024);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) >= 1024);
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_ENDIAN_LITTLE) == CL_TRUE);
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_AVAILABLE) == CL_TRUE);
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT) >=
             1);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT) >= 1);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_PRINTF_BUFFER_SIZE) >=
             1024 * 1024);
  CLT_EXPECT(E.deviceValue<cl_platform_id>(CL_DEVICE_PLATFORM) == E.Platform);
  cl_device_fp_config SP =
      E.deviceValue<cl_device_fp_config>(CL_DEVICE_SINGLE_FP_CONFIG);
  CLT_EXPECT((SP & CL_FP_ROUND_TO_NEAREST) && (SP & CL_FP_INF_NAN));
  std::string Ext = E.deviceString(CL_DEVICE_EXTENSIONS);
  cl_device_fp_config DP =
      E.deviceValue<cl_device_fp_config>(CL_DEVICE_DOUBLE_FP_CONFIG);
  CLT_EXPECT((DP != 0) == (Ext.find("cl_khr_fp64") != std::string::npos));
  CLT_EXPECT(Ext.find("cl_khr_global_int32_base_atomics") != std::string::npos);
  CLT_EXPECT(Ext.find("cl_khr_byte_addressable_store") != std::string::npos);
  CLT_EXPECT(!E.deviceString(CL_DEVICE_NAME).empty());
  CLT_EXPECT(E.deviceString(CL_DEVICE_VERSION).rfind("OpenCL ", 0) == 0);
  CLT_EXPECT(E.deviceString(CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C ", 0) ==
             0);
}

CLT_TEST(poclIssDeviceValues) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl-iss's own values");
  CLT_EXPECT(E.deviceString(CL_DEVICE_VERSION) == "OpenCL 1.2 pocl-iss");
  CLT_EXPECT(
      E.deviceString(CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2", 0) == 0);
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_FALSE);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_ADDRESS_BITS) == 64);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) == 1024);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE) == 4096);
  CLT_EXPECT(E.deviceValue<cl_ulong>(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) > 0);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE) >= 16);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1);
  CLT_EXPECT(E.deviceString(CL_DEVICE_BUILT_IN_KERNELS).empty());
  CLT_EXPECT(E.deviceValue<cl_command_queue_properties>(
                 CL_DEVICE_QUEUE_PROPERTIES) == CL_QUEUE_PROFILING_ENABLE);
  cl_uint W = E.deviceValue<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
  CLT_EXPECT(W >= 4 && (W & (W - 1)) == 0);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR) ==
             4 * W);
}

CLT_TEST(deviceInfoErrors) {
  cl_uint Small;
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetDeviceInfo(E.Device, CL_DEVICE_GLOBAL_MEM_SIZE,
                                 sizeof(Small), &Small, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetDeviceInfo(E.Device, 0x7fff, 0, nullptr, nullptr));
  size_t N = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_NAME, 0, nullptr, &N));
  CLT_EXPECT(N > 1);
}

CLT_TEST(retainReleaseRootDevice) {
  CL_CHECK(clRetainDevice(E.Device));
  CL_CHECK(clReleaseDevice(E.Device));
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_REFERENCE_COUNT) == 1);
}
