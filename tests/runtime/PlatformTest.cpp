//===- PlatformTest.cpp - Platform and device queries ---------------------===//
// SPDX-License-Identifier: MIT
//
// clGetPlatformInfo, clGetDeviceIDs and clGetDeviceInfo: the values an
// application sizes its work by must be real and consistent (OpenCL 3.0,
// sections 4.1 and 4.2). The platform and device are OpenCL 3.0 as pocl
// 3.1's are: the 3.0 queries answer, each optional feature the same way in
// every query that reports it, and the host timer works when its resolution
// says so. Checks of pocl-iss's own choices (names, image support,
// alignment) only run on pocl-iss; the rest also passes on Debian's pocl.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

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
    CLT_EXPECT_MSG(Version.rfind("OpenCL 3.0 pocl-iss", 0) == 0, Version);
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
  CLT_EXPECT(
      E.deviceString(CL_DEVICE_VERSION).rfind("OpenCL 3.0 pocl-iss ", 0) == 0);
  CLT_EXPECT(
      E.deviceString(CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2", 0) == 0);
  CLT_EXPECT(E.deviceString(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED) == "");
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_SAMPLERS) == 16);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_READ_IMAGE_ARGS) == 128);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) == 2048);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_ADDRESS_BITS) == 64);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) == 1024);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE) == 4096);
  CLT_EXPECT(E.deviceValue<cl_ulong>(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) > 0);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE) >= 16);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_PROFILING_TIMER_RESOLUTION) >= 1);
  CLT_EXPECT(E.deviceString(CL_DEVICE_BUILT_IN_KERNELS).empty());
  CLT_EXPECT(
      E.deviceValue<cl_command_queue_properties>(CL_DEVICE_QUEUE_PROPERTIES) ==
      (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
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

/// The device's name follows pocl's "<driver>-<LLVM CPU>-<model name>",
/// as applications and pocl's tests (test_cl_pocl_content_size) pick a
/// pocl device by its driver's name; the model name is /proc/cpuinfo's.
CLT_TEST(deviceNameAsPocl) {
  std::string Name = E.deviceString(CL_DEVICE_NAME);
  CLT_EXPECT_MSG(Name.rfind("pthread-", 0) == 0, "device name: " + Name);
  std::ifstream CpuInfo("/proc/cpuinfo");
  std::string Line, Model;
  while (Model.empty() && std::getline(CpuInfo, Line))
    if (Line.rfind("model name", 0) == 0 && Line.find(':') != std::string::npos)
      Model = Line.substr(Line.find(':') + 2);
  if (!Model.empty())
    CLT_EXPECT_MSG(Name.size() > Model.size() + 9 &&
                       Name.compare(Name.size() - Model.size(), Model.size(),
                                    Model) == 0 &&
                       Name[Name.size() - Model.size() - 1] == '-',
                   "device name: " + Name + ", model: " + Model);
}

/// CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is a cl_bitfield; pocl 3.1
/// answers it as a cl_uint, and programs written for it (its
/// test_deviceside_enqueue) query it with 4 bytes. Both sizes give 0 (no
/// device-side enqueue); a shorter buffer is CL_INVALID_VALUE on both.
CLT_TEST(deviceEnqueueCapabilitiesQuerySizes) {
  cl_ulong Wide = ~cl_ulong(0);
  size_t Ret = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                           sizeof(Wide), &Wide, &Ret));
  // pocl 3.1 writes (and reports) only a cl_uint.
  CLT_EXPECT(Ret == (E.IsPoclIss ? sizeof(cl_ulong) : sizeof(cl_uint)));
  CLT_EXPECT((E.IsPoclIss ? Wide : (Wide & 0xffffffffu)) == 0);
  cl_uint Narrow = ~0u;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                           sizeof(Narrow), &Narrow, nullptr));
  CLT_EXPECT(Narrow == 0);
  cl_ushort Short = 0;
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetDeviceInfo(E.Device,
                                 CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                                 sizeof(Short), &Short, nullptr));
}

CLT_TEST(retainReleaseRootDevice) {
  CL_CHECK(clRetainDevice(E.Device));
  CL_CHECK(clReleaseDevice(E.Device));
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_REFERENCE_COUNT) == 1);
}

//===-- OpenCL 3.0
//----------------------------------------------------------===//

/// A clGet*Info array of cl_name_version.
template <typename Query>
static std::vector<cl_name_version> nameVersions(Query Q) {
  size_t N = 0;
  CL_CHECK(Q(0, nullptr, &N));
  CLT_EXPECT(N % sizeof(cl_name_version) == 0);
  std::vector<cl_name_version> V(N / sizeof(cl_name_version));
  if (N)
    CL_CHECK(Q(N, V.data(), nullptr));
  return V;
}

static std::vector<cl_name_version> deviceNameVersions(const Env &E,
                                                       cl_device_info I) {
  return nameVersions([&](size_t Size, void *Value, size_t *Ret) {
    return clGetDeviceInfo(E.Device, I, Size, Value, Ret);
  });
}

static std::set<std::string> words(const std::string &S) {
  std::istringstream In(S);
  std::set<std::string> W;
  for (std::string X; In >> X;)
    W.insert(X);
  return W;
}

static std::set<std::string> names(const std::vector<cl_name_version> &V) {
  std::set<std::string> N;
  for (const cl_name_version &X : V)
    N.insert(X.name);
  return N;
}

/// "OpenCL <major>.<minor> ..." against CL_*_NUMERIC_VERSION.
static void expectVersion(const std::string &Text, cl_version Numeric) {
  unsigned Major = 0, Minor = 0;
  CLT_EXPECT_MSG(std::sscanf(Text.c_str(), "OpenCL %u.%u", &Major, &Minor) == 2,
                 Text);
  CLT_EXPECT_MSG(CL_VERSION_MAJOR(Numeric) == Major &&
                     CL_VERSION_MINOR(Numeric) == Minor,
                 Text);
}

CLT_TEST(platformIsOpenCL30) {
  std::string Version = platformString(E.Platform, CL_PLATFORM_VERSION);
  CLT_EXPECT_MSG(Version.rfind("OpenCL 3.0 ", 0) == 0, Version);
  cl_version Numeric = 0;
  CL_CHECK(clGetPlatformInfo(E.Platform, CL_PLATFORM_NUMERIC_VERSION,
                             sizeof(Numeric), &Numeric, nullptr));
  CLT_EXPECT(Numeric == CL_MAKE_VERSION(3, 0, 0));
  expectVersion(Version, Numeric);
  // The extensions with versions are the extension string's.
  auto Ext = nameVersions([&](size_t Size, void *Value, size_t *Ret) {
    return clGetPlatformInfo(E.Platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                             Size, Value, Ret);
  });
  CLT_EXPECT(names(Ext) ==
             words(platformString(E.Platform, CL_PLATFORM_EXTENSIONS)));
  for (const cl_name_version &X : Ext)
    CLT_EXPECT_MSG(X.version >= CL_MAKE_VERSION(1, 0, 0), X.name);
}

CLT_TEST(deviceIsOpenCL30) {
  std::string Version = E.deviceString(CL_DEVICE_VERSION);
  CLT_EXPECT_MSG(Version.rfind("OpenCL 3.0 ", 0) == 0, Version);
  cl_version Numeric = E.deviceValue<cl_version>(CL_DEVICE_NUMERIC_VERSION);
  CLT_EXPECT(Numeric == CL_MAKE_VERSION(3, 0, 0));
  expectVersion(Version, Numeric);
  // The deprecated query says 1.2 (the newest version whose optional
  // features are all there); the list has 1.0 to 1.2 and 3.0.
  CLT_EXPECT(
      E.deviceString(CL_DEVICE_OPENCL_C_VERSION).rfind("OpenCL C 1.2 ", 0) ==
      0);
  std::set<cl_version> C;
  for (const cl_name_version &X :
       deviceNameVersions(E, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
    CLT_EXPECT_MSG(std::string(X.name) == "OpenCL C", X.name);
    C.insert(X.version);
  }
  for (cl_version V : {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
                       CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)})
    CLT_EXPECT_MSG(C.count(V), std::to_string(V));
  CLT_EXPECT(names(deviceNameVersions(E, CL_DEVICE_EXTENSIONS_WITH_VERSION)) ==
             words(E.deviceString(CL_DEVICE_EXTENSIONS)));
  CLT_EXPECT(
      E.deviceValue<size_t>(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) >= 1);
}

/// Every optional OpenCL 3.0 feature is answered the same way by the
/// device query that reports it and by CL_DEVICE_OPENCL_C_FEATURES, and an
/// absent feature has the limits the specification requires (section 4.2).
CLT_TEST(optionalFeaturesConsistent) {
  std::set<std::string> F =
      names(deviceNameVersions(E, CL_DEVICE_OPENCL_C_FEATURES));
  for (const cl_name_version &X :
       deviceNameVersions(E, CL_DEVICE_OPENCL_C_FEATURES))
    CLT_EXPECT_MSG(X.version == CL_MAKE_VERSION(3, 0, 0), X.name);
  auto Has = [&](const char *Name) { return F.count(Name) != 0; };
  auto Bool = [&](cl_device_info I) { return E.deviceValue<cl_bool>(I) != 0; };
  std::set<std::string> Ext = words(E.deviceString(CL_DEVICE_EXTENSIONS));

  CLT_EXPECT(Has("__opencl_c_int64")); // FULL_PROFILE
  CLT_EXPECT(Has("__opencl_c_fp64") == (Ext.count("cl_khr_fp64") != 0));
  CLT_EXPECT(Has("__opencl_c_fp16") == (Ext.count("cl_khr_fp16") != 0));
  CLT_EXPECT(Has("__opencl_c_images") == Bool(CL_DEVICE_IMAGE_SUPPORT));

  bool Generic = Bool(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT);
  CLT_EXPECT(Has("__opencl_c_generic_address_space") == Generic);

  bool Pipes = Bool(CL_DEVICE_PIPE_SUPPORT);
  CLT_EXPECT(Has("__opencl_c_pipes") == Pipes);
  if (!Pipes) {
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_PIPE_ARGS) == 0);
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS) ==
               0);
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_PIPE_MAX_PACKET_SIZE) == 0);
  }

  auto Enqueue = E.deviceValue<cl_device_device_enqueue_capabilities>(
      CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
  CLT_EXPECT(Has("__opencl_c_device_enqueue") == (Enqueue != 0));
  if (!Enqueue) {
    CLT_EXPECT(E.deviceValue<cl_command_queue_properties>(
                   CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) == 0);
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE) == 0);
    CLT_EXPECT(
        E.deviceValue<cl_uint>(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE) == 0);
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_ON_DEVICE_QUEUES) == 0);
    CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_ON_DEVICE_EVENTS) == 0);
  }

  CLT_EXPECT(Has("__opencl_c_work_group_collective_functions") ==
             Bool(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT));
  cl_uint SubGroups = E.deviceValue<cl_uint>(CL_DEVICE_MAX_NUM_SUB_GROUPS);
  CLT_EXPECT(Has("__opencl_c_subgroups") == (SubGroups != 0));
  if (!SubGroups)
    CLT_EXPECT(!Bool(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS));
  size_t GlobalVars = E.deviceValue<size_t>(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  CLT_EXPECT(Has("__opencl_c_program_scope_global_variables") ==
             (GlobalVars != 0));
  if (!GlobalVars)
    CLT_EXPECT(E.deviceValue<size_t>(
                   CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE) == 0);

  // No intermediate language: an empty version string and list.
  std::string IL = E.deviceString(CL_DEVICE_IL_VERSION);
  CLT_EXPECT(IL.empty() ==
             deviceNameVersions(E, CL_DEVICE_ILS_WITH_VERSION).empty());
  // Built-in kernels: the same list twice.
  std::string BuiltIns = E.deviceString(CL_DEVICE_BUILT_IN_KERNELS);
  std::replace(BuiltIns.begin(), BuiltIns.end(), ';', ' ');
  CLT_EXPECT(
      names(deviceNameVersions(E, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION)) ==
      words(BuiltIns));

  // Atomics: the mandatory capabilities, and the orders and scopes the
  // features announce.
  auto Mem = E.deviceValue<cl_device_atomic_capabilities>(
      CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  auto Fence = E.deviceValue<cl_device_atomic_capabilities>(
      CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
  CLT_EXPECT(
      (Mem &
       (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
      (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP));
  cl_device_atomic_capabilities FenceMin = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                           CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                           CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  CLT_EXPECT((Fence & FenceMin) == FenceMin);
  CLT_EXPECT(Has("__opencl_c_atomic_order_acq_rel") ==
             ((Mem & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0));
  CLT_EXPECT(Has("__opencl_c_atomic_order_seq_cst") ==
             ((Mem & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0));
  CLT_EXPECT(Has("__opencl_c_atomic_scope_device") ==
             ((Mem & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0));
  // Debian's pocl reports the all-devices scope among the capabilities but
  // not as a feature.
  if (E.IsPoclIss)
    CLT_EXPECT(Has("__opencl_c_atomic_scope_all_devices") ==
               ((Mem & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0));
}

/// What pocl-iss itself supports of the optional features: those of pocl
/// 3.1's CPU device.
CLT_TEST(poclIssOptionalFeatures) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl-iss's own values");
  std::set<std::string> Want = {"__opencl_c_atomic_order_acq_rel",
                                "__opencl_c_atomic_order_seq_cst",
                                "__opencl_c_atomic_scope_device",
                                "__opencl_c_atomic_scope_all_devices",
                                "__opencl_c_int64",
                                "__opencl_c_fp64",
                                "__opencl_c_images",
                                "__opencl_c_3d_image_writes",
                                "__opencl_c_read_write_images"};
  CLT_EXPECT(names(deviceNameVersions(E, CL_DEVICE_OPENCL_C_FEATURES)) == Want);
  CLT_EXPECT(!E.deviceValue<cl_bool>(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT));
  CLT_EXPECT(!E.deviceValue<cl_bool>(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT));
  CLT_EXPECT(!E.deviceValue<cl_bool>(CL_DEVICE_PIPE_SUPPORT));
  CLT_EXPECT(
      E.deviceValue<cl_device_svm_capabilities>(CL_DEVICE_SVM_CAPABILITIES) ==
      (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
       CL_DEVICE_SVM_ATOMICS));
  CLT_EXPECT(
      E.deviceValue<cl_command_queue_properties>(
          CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) ==
      (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  CLT_EXPECT(
      E.deviceValue<cl_device_atomic_capabilities>(
          CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) ==
      (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
       CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
       CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE));
  CLT_EXPECT(
      E.deviceValue<size_t>(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) ==
      E.deviceValue<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT));
}

/// Without cl_khr_fp16 the half queries say so: no vector width, and no
/// CL_DEVICE_HALF_FP_CONFIG capabilities (0, as on Debian's pocl; the
/// query is the extension's, which a stricter reading refuses).
CLT_TEST(halfWithoutFp16) {
  if (E.hasExtension("cl_khr_fp16"))
    CLT_SKIP("the device has cl_khr_fp16");
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) ==
             0);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) == 0);
  cl_device_fp_config Config = 123;
  cl_int Err = clGetDeviceInfo(E.Device, CL_DEVICE_HALF_FP_CONFIG,
                               sizeof(Config), &Config, nullptr);
  if (E.IsPoclIss)
    CLT_EXPECT(Err == CL_SUCCESS && Config == 0);
  else
    CLT_EXPECT(Err == CL_INVALID_VALUE || (Err == CL_SUCCESS && Config == 0));
}

/// Device and host timer synchronization: a resolution of 0 says it is not
/// supported, and the timer entries refuse; otherwise both timers run, and
/// the device timer is the one of event profiling.
CLT_TEST(hostTimer) {
  cl_ulong Resolution = 99;
  CL_CHECK(clGetPlatformInfo(E.Platform, CL_PLATFORM_HOST_TIMER_RESOLUTION,
                             sizeof(Resolution), &Resolution, nullptr));
  cl_ulong Host = 0, Device = 0;
  if (Resolution == 0) {
    CLT_EXPECT(!E.IsPoclIss);
    CLT_EXPECT_ERR(CL_INVALID_OPERATION, clGetHostTimer(E.Device, &Host));
    CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                   clGetDeviceAndHostTimer(E.Device, &Device, &Host));
    return;
  }
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clGetHostTimer(E.Device, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetDeviceAndHostTimer(E.Device, nullptr, &Host));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetDeviceAndHostTimer(E.Device, &Device, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_DEVICE, clGetHostTimer(nullptr, &Host));
  cl_ulong Host0 = 0, Device0 = 0, Host1 = 0, Device1 = 0;
  CL_CHECK(clGetDeviceAndHostTimer(E.Device, &Device0, &Host0));
  Event Ev;
  CL_CHECK(clEnqueueMarkerWithWaitList(E.Q, 0, nullptr, Ev.out()));
  CL_CHECK(clFinish(E.Q));
  CL_CHECK(clGetHostTimer(E.Device, &Host));
  CL_CHECK(clGetDeviceAndHostTimer(E.Device, &Device1, &Host1));
  CLT_EXPECT(Host0 > 0 && Host0 <= Host && Host <= Host1);
  CLT_EXPECT(Device0 > 0 && Device0 <= Device1);
  cl_ulong Queued = 0, End = 0;
  CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_QUEUED,
                                   sizeof(Queued), &Queued, nullptr));
  CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_END, sizeof(End),
                                   &End, nullptr));
  CLT_EXPECT_MSG(Device0 <= Queued && End <= Device1,
                 std::to_string(Device0) + " <= " + std::to_string(Queued) +
                     " .. " + std::to_string(End) +
                     " <= " + std::to_string(Device1));
}

/// Runs platformnames-child, which lists the platforms' names, with \p Env
/// changed: its exit code (-1 if it did not exit), and in \p Text what it
/// printed to stdout and stderr.
static int runNamesChild(const EnvChanges &Env, std::string &Text) {
  return runChild(PLATFORM_NAMES_CHILD, nullptr, Env, 60, Text);
}

/// POCL_PLATFORM_NAME_OVERRIDE renames the platform (a later pocl's
/// variable, for applications that look for a vendor's name): a child
/// process lists the platforms' names with it set.
CLT_TEST(platformNameOverride) {
  if (!E.IsPoclIss)
    CLT_SKIP("POCL_PLATFORM_NAME_OVERRIDE came after pocl 3.1");
  const char *Name = "Some Vendor's OpenCL (pocl-iss renamed)";
  std::string Names;
  int Exit = runNamesChild({{"POCL_PLATFORM_NAME_OVERRIDE", Name}}, Names);
  CLT_EXPECT_MSG(Exit == 0, Names);
  CLT_EXPECT_MSG(Names.find(std::string(Name) + "\n") != std::string::npos,
                 Names);
  CLT_EXPECT_MSG(Names.find("pocl-iss\n") == std::string::npos, Names);
  // Without the variable (as this process runs) the name is ours.
  CLT_EXPECT(platformString(E.Platform, CL_PLATFORM_NAME) == "pocl-iss");
}

/// A bad value stops the process with one line naming the variable, also
/// where a later variable is good (POCL_ISS_SAFE_DIVISION's good value
/// must not clear POCL_ISS_MAX_PIECES's error and run the default).
CLT_TEST(badEnvironmentValue) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl-iss's variables");
  std::string Text;
  int Exit = runNamesChild(
      {{"POCL_ISS_MAX_PIECES", "lots"}, {"POCL_ISS_SAFE_DIVISION", "1"}}, Text);
  CLT_EXPECT_MSG(Exit == 1, Text);
  CLT_EXPECT_MSG(Text.find("pocl-iss: POCL_ISS_MAX_PIECES='lots'") !=
                     std::string::npos,
                 Text);
}
