//===- Device.cpp - clGetDeviceIDs, clGetDeviceInfo, sub-devices ----------===//
// SPDX-License-Identifier: MIT
//
// The one CPU device, with the host's real values: cores and caches from
// hwloc, memory from the system, vector widths from the compiler's target
// (iss::getTargetInfo), the extensions and OpenCL C features pocl's kernel
// library implements. It is an OpenCL 3.0 device as pocl 3.1's CPU device
// is: OpenCL C 1.2 plus the 3.0 features, shared virtual memory as pocl
// has it (coarse- and fine-grained buffers with atomics, Svm.cpp), and none
// of the other optional 2.x features (no generic address space, pipes,
// device-side enqueue, sub-groups or non-uniform work-groups); every 3.0
// query answers what we actually have. POCL_DEVICES naming no device of ours
// hides it (CL_DEVICE_NOT_FOUND). Its threads (command scheduler, worker pool)
// start on first use, and again in a child after fork (Fork.cpp).
//
// Sub-devices partition the compute units, which are the worker pool's
// threads, equally or by counts, as pocl 3.1's pthread device does (no
// affinity domains). A sub-device shares its root's scheduler and pool; a
// launch on it uses at most as many threads as it has compute units. As on
// pocl, the root device can always be partitioned, a sub-device of one
// compute unit cannot (CL_DEVICE_PARTITION_FAILED).
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include "Device/Pthread/CommandScheduler.h"
#include "Device/Pthread/HostInfo.h"
#include "Device/Pthread/WorkerPool.h"

#include <algorithm>

using namespace iss;

static cl_device_id makeDevice() {
  auto *D = new _cl_device_id();
  const HostInfo &H = hostInfo();
  const TargetInfo &T = getTargetInfo();
  D->Platform = thePlatform();
  D->Available = settings().Devices != "none";
  // pocl's convention, "<driver>-<LLVM CPU>-<model name>" (pocl 3.1's CPU
  // device is "pthread-skylake-avx512-Intel(R) ..."): applications and
  // pocl's own tests pick pocl's devices by the driver's name in it.
  D->Name = "pthread-" + T.CPU + "-" + H.CPUName;
  D->Vendor = "pocl-iss";
  if (H.CPUName.find("Intel") != std::string::npos)
    D->Vendor = "GenuineIntel";
  else if (H.CPUName.find("AMD") != std::string::npos)
    D->Vendor = "AuthenticAMD";
  D->DriverVersion = POCL_ISS_VERSION;
  D->ComputeUnits = D->numThreads();
  D->MaxClockMHz = H.MaxClockMHz;
  D->GlobalMemSize = H.MemorySize;
  D->MaxAllocSize =
      std::max<cl_ulong>(D->GlobalMemSize / 4, cl_ulong(128) << 20);
  setImageLimits(*D);
  D->L1Size = H.L1Size;
  D->L2Size = H.L2Size;
  D->L3Size = H.L3Size;
  D->GlobalCacheSize = H.L3Size ? H.L3Size : (H.L2Size ? H.L2Size : H.L1Size);
  D->CachelineSize = H.CachelineSize;
  D->VectorWidthInt = std::max(1u, T.NativeVectorBits / 32);
  D->HasFP64 = T.HasFP64;
  D->ExtensionList = T.Extensions;
  D->ExtensionList.push_back("cl_khr_icd");
  D->ExtensionList.push_back("cl_khr_command_buffer");
  for (const std::string &E : D->ExtensionList)
    D->Extensions += (D->Extensions.empty() ? "" : " ") + E;
  D->Features = T.OpenCLCFeatures;
  registerObject(D, ObjKind::Device);
  return D;
}

namespace iss {

cl_device_id theDevice() {
  static cl_device_id D = makeDevice();
  // After D exists: the handlers use it.
  static bool ForkReady = (installForkHandlers(), true);
  (void)ForkReady;
  return D;
}

// The root device lives as long as the process; sub-devices go with their
// last reference.
void destroyObject(_cl_device_id *D) {
  if (D->Parent)
    deleteObject(D);
}

bool deviceIn(const std::vector<cl_device_id> &List, cl_device_id D) {
  for (cl_device_id In : List)
    if (In->covers(D))
      return true;
  return false;
}

} // namespace iss

unsigned _cl_device_id::numThreads() const {
  if (Parent)
    return ComputeUnits;
  unsigned N = settings().MaxThreads;
  return N ? N : hostInfo().Cores;
}

void _cl_device_id::start() {
  std::lock_guard<std::mutex> L(StartM);
  if (Started.load(std::memory_order_relaxed))
    return;
  if (!Pool)
    Pool = new WorkerPool(numThreads(), settings().Affinity,
                          static_cast<size_t>(LocalMemSize), PrintfBufferSize,
                          uint64_t(settings().SpinUs) * 1000);
  if (!Scheduler)
    Scheduler = new CommandScheduler(uint64_t(settings().SpinUs) * 1000);
  if (!Scheduler->start())
    debugLog(DbgError, "could not start the command scheduler thread");
  Started.store(true, std::memory_order_release);
}

// A sub-device's are its root's.
CommandScheduler &_cl_device_id::scheduler() {
  _cl_device_id *R = root();
  if (!R->Started.load(std::memory_order_acquire))
    R->start();
  return *R->Scheduler;
}

WorkerPool &_cl_device_id::pool() {
  _cl_device_id *R = root();
  if (!R->Started.load(std::memory_order_acquire))
    R->start();
  return *R->Pool;
}

// Lock order: StartM, then the scheduler's lock (nothing takes StartM while
// holding the scheduler's).
void _cl_device_id::prepareFork() {
  StartM.lock();
  if (Scheduler)
    Scheduler->lockForFork();
}

void _cl_device_id::parentAfterFork() {
  if (Scheduler)
    Scheduler->unlockForFork();
  StartM.unlock();
}

// The parent's scheduler and pool stay as they were, locks and all, never
// used again: their threads are not in this process. The queues keep their
// streams in the new scheduler; the new pool and both threads come with
// the child's first command.
void _cl_device_id::childAfterFork() {
  if (Scheduler)
    Scheduler = CommandScheduler::afterFork(*Scheduler);
  Pool = nullptr;
  Started.store(false, std::memory_order_relaxed);
  StartM.unlock();
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id Platform,
                                               cl_device_type Type,
                                               cl_uint NumEntries,
                                               cl_device_id *Devices,
                                               cl_uint *NumDevices) {
  if (Platform && !isValid(Platform))
    return ISS_ERR(CL_INVALID_PLATFORM, "invalid platform");
  const cl_device_type Known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                               CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                               CL_DEVICE_TYPE_CUSTOM;
  if (Type != CL_DEVICE_TYPE_ALL && (Type & ~Known || !Type))
    return ISS_ERR(CL_INVALID_DEVICE_TYPE, "unknown device type bits");
  if ((NumEntries == 0 && Devices) || (!Devices && !NumDevices))
    return ISS_ERR(CL_INVALID_VALUE, "bad num_entries/devices");
  cl_device_id D = theDevice();
  bool Match = Type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT);
  if (!Match || !D->Available) {
    if (NumDevices)
      *NumDevices = 0;
    return ISS_ERR(CL_DEVICE_NOT_FOUND, "no device of that type");
  }
  if (Devices)
    Devices[0] = D;
  if (NumDevices)
    *NumDevices = 1;
  return CL_SUCCESS;
}

/// CL_DEVICE_PARTITION_MAX_SUB_DEVICES: one per compute unit, none for a
/// sub-device of one compute unit (as pocl 3.1).
static cl_uint maxSubDevices(cl_device_id D) {
  return D->Parent && D->ComputeUnits == 1 ? 0 : D->ComputeUnits;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id Device,
                                                cl_device_info Param,
                                                size_t Size, void *Value,
                                                size_t *SizeRet) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  cl_device_id D = Device;
  auto U = [&](cl_uint V) { return returnValue(Size, Value, SizeRet, V); };
  auto UL = [&](cl_ulong V) { return returnValue(Size, Value, SizeRet, V); };
  auto SZ = [&](size_t V) { return returnValue(Size, Value, SizeRet, V); };
  auto B = [&](cl_bool V) { return returnValue(Size, Value, SizeRet, V); };
  auto S = [&](const std::string &V) {
    return returnString(Size, Value, SizeRet, V);
  };
  const cl_uint W = D->VectorWidthInt; // lanes of 32 bits
  auto Caps = [&](cl_device_atomic_capabilities V) {
    return returnValue(Size, Value, SizeRet, V);
  };
  auto Versions = [&](const std::vector<cl_name_version> &V) {
    return returnArray(Size, Value, SizeRet, V);
  };
  const cl_device_fp_config FP = CL_FP_DENORM | CL_FP_INF_NAN |
                                 CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                 CL_FP_ROUND_TO_INF | CL_FP_FMA;
  const cl_version V300 = CL_MAKE_VERSION(3, 0, 0);
  switch (Param) {
  case CL_DEVICE_TYPE:
    return returnValue(Size, Value, SizeRet,
                       cl_device_type(CL_DEVICE_TYPE_CPU));
  case CL_DEVICE_VENDOR_ID:
    return U(D->Vendor == "GenuineIntel"   ? 0x8086
             : D->Vendor == "AuthenticAMD" ? 0x1022
                                           : 0x6c636f70);
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return U(D->ComputeUnits);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return U(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    return returnInfo(Size, Value, SizeRet, D->MaxWorkItemSizes,
                      sizeof(D->MaxWorkItemSizes));
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return SZ(D->MaxWorkGroupSize);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return U(W * 4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return U(W * 2);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return U(W);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return U(std::max(1u, W / 2));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return U(D->HasFP64 ? std::max(1u, W / 2) : 0);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return U(0);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return U(D->MaxClockMHz);
  case CL_DEVICE_ADDRESS_BITS:
    return U(64);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return U(128); // pocl 3.1's numbers; nothing limits them here
  case CL_DEVICE_MAX_SAMPLERS:
    return U(16);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    // Only for 2D images from buffers (cl_khr_image2d_from_buffer), which
    // the device does not have.
    return U(0);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return UL(D->MaxAllocSize);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return SZ(D->Image2DMax);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return SZ(D->Image3DMax);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return SZ(D->ImageMaxBuffer);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return SZ(D->ImageMaxArray);
  case CL_DEVICE_IMAGE_SUPPORT:
    return B(CL_TRUE);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return SZ(1024);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return U(1024); // bits: buffers are 128-byte aligned
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return U(128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return returnValue(Size, Value, SizeRet, FP);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return returnValue(Size, Value, SizeRet,
                       D->HasFP64 ? FP : cl_device_fp_config(0));
  case CL_DEVICE_HALF_FP_CONFIG:
    // A query of cl_khr_fp16, which the device does not have: no
    // capabilities, as pocl 3.1 answers. Callers that ask every device
    // query without checking the error (PoCL-Remote's server) need a value.
    return returnValue(Size, Value, SizeRet, cl_device_fp_config(0));
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return returnValue(Size, Value, SizeRet,
                       cl_device_mem_cache_type(CL_READ_WRITE_CACHE));
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return U(D->CachelineSize);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return UL(D->GlobalCacheSize);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return UL(D->GlobalMemSize);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return UL(D->MaxAllocSize);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return U(8);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return returnValue(Size, Value, SizeRet,
                       cl_device_local_mem_type(CL_GLOBAL));
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return UL(D->LocalMemSize);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return B(CL_FALSE);
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return B(CL_TRUE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return SZ(1);
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return B(CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    // Native kernels run on the host, which is the device (as on pocl).
    return returnValue(
        Size, Value, SizeRet,
        cl_device_exec_capabilities(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL));
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: // CL_DEVICE_QUEUE_PROPERTIES
    return returnValue(
        Size, Value, SizeRet,
        cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE |
                                    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return returnValue(Size, Value, SizeRet, cl_command_queue_properties(0));
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return U(0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    // A cl_bitfield (8 bytes); pocl 3.1 answers a cl_uint and its programs
    // (tests/runtime/test_deviceside_enqueue) query with 4 bytes. The
    // value is 0 either way: a cl_uint-sized query gets it, as on pocl,
    // and any other short buffer is CL_INVALID_VALUE.
    if (Value && Size == sizeof(cl_uint))
      return returnValue(Size, Value, SizeRet, cl_uint(0));
    return returnValue(Size, Value, SizeRet,
                       cl_device_device_enqueue_capabilities(0));
  case CL_DEVICE_PIPE_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    return B(CL_FALSE);
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return U(0);
  case CL_DEVICE_SVM_CAPABILITIES:
    // As pocl 3.1's CPU device: host memory is coherent, and the library's
    // atomics are the host's (Svm.cpp).
    return returnValue(
        Size, Value, SizeRet,
        cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                   CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                                   CL_DEVICE_SVM_ATOMICS));
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return SZ(0);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return SZ(preferredMultiple(D));
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    // The library's C11 atomics are host-wide whatever the scope.
    return Caps(
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
        CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return Caps(
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE);
  case CL_DEVICE_NUMERIC_VERSION:
    return returnValue(Size, Value, SizeRet, V300);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    // Not OpenCL C 2.0, whose generic address space, pipes and device-side
    // enqueue the device does not have: -cl-std=CL2.0 fails the build
    // (Compiler/Frontend/Clang.cpp), where pocl 3.1 takes it without
    // listing it.
    std::vector<cl_name_version> All;
    const cl_version Known[] = {CL_MAKE_VERSION(1, 0, 0),
                                CL_MAKE_VERSION(1, 1, 0),
                                CL_MAKE_VERSION(1, 2, 0), V300};
    for (cl_version V : Known)
      All.push_back(nameVersions({"OpenCL C"}, V)[0]);
    return Versions(All);
  }
  case CL_DEVICE_OPENCL_C_FEATURES:
    return Versions(nameVersions(D->Features, V300));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    std::vector<cl_name_version> All =
        nameVersions(D->ExtensionList, CL_MAKE_VERSION(1, 0, 0));
    // The provisional version pocl 3.1 implements, as it reports it.
    for (cl_name_version &NV : All)
      if (std::strcmp(NV.name, "cl_khr_command_buffer") == 0)
        NV.version = CL_MAKE_VERSION(0, 9, 0);
    return Versions(All);
  }
  case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
    // As pocl 3.1's CPU device: printf in recorded kernels, enqueues of a
    // pending command buffer (CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR) and
    // out-of-order queues.
    return returnValue(Size, Value, SizeRet,
                       cl_device_command_buffer_capabilities_khr(
                           CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
                           CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR |
                           CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR));
  case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    return returnValue(Size, Value, SizeRet, cl_command_queue_properties(0));
  case CL_DEVICE_ILS_WITH_VERSION:
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return Versions({});
  case CL_DEVICE_IL_VERSION:
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    return S(""); // no IL; the conformance suite has not been passed
  case CL_DEVICE_PLATFORM:
    return returnValue(Size, Value, SizeRet, D->Platform);
  case CL_DEVICE_NAME:
    return S(D->Name);
  case CL_DEVICE_VENDOR:
    return S(D->Vendor);
  case CL_DRIVER_VERSION:
    return S(D->DriverVersion);
  case CL_DEVICE_PROFILE:
    return S("FULL_PROFILE");
  case CL_DEVICE_VERSION:
    return S("OpenCL 3.0 pocl-iss HSTR: pthread-" + getTargetInfo().Triple +
             "-" + getTargetInfo().CPU);
  case CL_DEVICE_OPENCL_C_VERSION:
    // Deprecated by 3.0: the newest version whose optional features are
    // all supported (CL_DEVICE_OPENCL_C_ALL_VERSIONS has the others).
    return S("OpenCL C 1.2 pocl-iss");
  case CL_DEVICE_EXTENSIONS:
    return S(D->Extensions);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return S("");
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return SZ(D->PrintfBufferSize);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return B(CL_TRUE);
  case CL_DEVICE_PARENT_DEVICE:
    return returnValue(Size, Value, SizeRet, D->Parent.get());
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return U(maxSubDevices(D));
  case CL_DEVICE_PARTITION_PROPERTIES:
    // The schemes, not 0-terminated; a single 0 when there is none.
    if (!maxSubDevices(D))
      return returnValue(Size, Value, SizeRet, cl_device_partition_property(0));
    return returnArray(
        Size, Value, SizeRet,
        std::vector<cl_device_partition_property>(
            {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS}));
  case CL_DEVICE_PARTITION_TYPE:
    if (D->PartitionType.empty()) // the root: no partition
      return returnValue(Size, Value, SizeRet, cl_device_partition_property(0));
    return returnArray(Size, Value, SizeRet, D->PartitionType);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return returnValue(Size, Value, SizeRet, cl_device_affinity_domain(0));
  case CL_DEVICE_REFERENCE_COUNT:
    // The root device is not counted.
    return U(D->Parent ? cl_uint(D->RefCount.load()) : 1);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown or unsupported cl_device_info");
  }
}

/// The device timer is the clock of event profiling (CL_PROFILING_COMMAND_*),
/// and the host timer the same clock: the pair is exactly synchronized.
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id Device,
                                                        cl_ulong *DeviceTime,
                                                        cl_ulong *HostTime) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  if (!DeviceTime || !HostTime)
    return ISS_ERR(CL_INVALID_VALUE, "a timestamp pointer is NULL");
  *DeviceTime = *HostTime = nowNs();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id Device,
                                               cl_ulong *HostTime) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  if (!HostTime)
    return ISS_ERR(CL_INVALID_VALUE, "host_timestamp is NULL");
  *HostTime = nowNs();
  return CL_SUCCESS;
}

/// The compute units of each sub-device \p Props asks of \p D (valid,
/// partitionable), in order; \p Type gets the partition as
/// CL_DEVICE_PARTITION_TYPE reports it. The checks and their codes are
/// pocl 3.1's: an unknown or unsupported scheme, or a bad EQUALLY count, is
/// CL_INVALID_VALUE; BY_COUNTS asking no unit, more units than the device
/// has or a negative count is CL_INVALID_DEVICE_PARTITION_COUNT.
static cl_int partitionCounts(cl_device_id D,
                              const cl_device_partition_property *Props,
                              std::vector<cl_uint> &Counts,
                              std::vector<cl_device_partition_property> &Type) {
  const char *Func = "clCreateSubDevices";
  const cl_device_partition_property Units = D->ComputeUnits;
  switch (Props[0]) {
  case CL_DEVICE_PARTITION_EQUALLY: {
    if (Props[1] <= 0 || Props[1] > Units)
      return apiError(Func, CL_INVALID_VALUE,
                      "EQUALLY needs 1 to CL_DEVICE_MAX_COMPUTE_UNITS units");
    if (Props[2] != 0)
      return apiError(Func, CL_INVALID_VALUE,
                      "EQUALLY's list does not end after its count");
    // As many as fit: leftover units stay unused.
    Counts.assign(size_t(Units / Props[1]), cl_uint(Props[1]));
    Type = {Props[0], Props[1], 0};
    return CL_SUCCESS;
  }
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    cl_device_partition_property Total = 0;
    Type = {Props[0]};
    for (const cl_device_partition_property *P = Props + 1;
         *P != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++P) {
      if (*P < 0 || *P > Units || (Total += *P) > Units)
        return apiError(Func, CL_INVALID_DEVICE_PARTITION_COUNT,
                        "BY_COUNTS asks more compute units than there are, "
                        "or a negative count");
      Counts.push_back(cl_uint(*P));
      Type.push_back(*P);
    }
    if (Total == 0)
      return apiError(Func, CL_INVALID_DEVICE_PARTITION_COUNT,
                      "BY_COUNTS asks no compute unit");
    // The list up to its first 0, which is the counts' LIST_END, as pocl
    // 3.1 reports it and its test_clCreateSubDevices checks: the final 0
    // of the properties as given is left out.
    Type.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    return CL_SUCCESS;
  }
  default:
    return apiError(Func, CL_INVALID_VALUE,
                    "the device partitions EQUALLY or BY_COUNTS only");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id Device, const cl_device_partition_property *Props,
    cl_uint NumDevices, cl_device_id *OutDevices, cl_uint *NumRet) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  if (!Props)
    return ISS_ERR(CL_INVALID_VALUE, "properties is NULL");
  if ((NumDevices == 0) != (OutDevices == nullptr))
    return ISS_ERR(CL_INVALID_VALUE, "num_devices and out_devices disagree");
  if (!maxSubDevices(Device))
    return ISS_ERR(CL_DEVICE_PARTITION_FAILED,
                   "a sub-device of one compute unit cannot be partitioned");
  std::vector<cl_uint> Counts;
  std::vector<cl_device_partition_property> Type;
  if (cl_int E = partitionCounts(Device, Props, Counts, Type))
    return E;
  cl_uint N = cl_uint(Counts.size());
  if (OutDevices && NumDevices < N)
    return ISS_ERR(CL_INVALID_VALUE, "num_devices is below the sub-devices");
  if (OutDevices) {
    std::vector<cl_device_id> Made;
    for (cl_uint Units : Counts) {
      cl_device_id Sub = makeObject<_cl_device_id>();
      if (!Sub) {
        for (cl_device_id M : Made)
          releaseObject(M);
        return ISS_ERR(CL_OUT_OF_HOST_MEMORY, "allocating a sub-device");
      }
      static_cast<DeviceDesc &>(*Sub) =
          static_cast<const DeviceDesc &>(*Device);
      Sub->ComputeUnits = Units;
      Sub->Parent = Ref<_cl_device_id>(Device);
      Sub->PartitionType = Type;
      Made.push_back(Sub);
    }
    std::copy(Made.begin(), Made.end(), OutDevices);
  }
  if (NumRet)
    *NumRet = N;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id Device) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  if (Device->Parent) // root devices are not counted
    retainObject(Device);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id Device) {
  if (!isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  if (Device->Parent)
    releaseObject(Device);
  return CL_SUCCESS;
}
