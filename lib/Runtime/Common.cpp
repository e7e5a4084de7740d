//===- Common.cpp - Handle registry, error names, info queries ------------===//
// SPDX-License-Identifier: MIT
//
// What every API file shares: the registry that makes released or garbage
// handles detectable (Objects.h), the symbolic names of error codes for
// POCL_DEBUG logs, the size checks of clGet*Info and the profiling clock.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <deque>
#include <new>
#include <unordered_map>

namespace iss {

namespace {
struct Registry {
  std::mutex M;
  std::unordered_map<const void *, ObjKind> Live;
};
} // namespace

// Never destroyed: handles may be released from static destructors of the
// application after ours would have run.
static Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

void registerObject(const void *Obj, ObjKind K) {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  R.Live[Obj] = K;
}

void unregisterObject(const void *Obj) {
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  R.Live.erase(Obj);
}

bool isLiveObject(const void *Obj, ObjKind K) {
  if (!Obj)
    return false;
  Registry &R = registry();
  std::lock_guard<std::mutex> L(R.M);
  auto It = R.Live.find(Obj);
  if (It == R.Live.end() || It->second != K)
    return false;
  // Registered objects are ours, so reading the head is safe; a count of
  // zero means it is being destroyed right now.
  auto *Base = static_cast<const ObjectBase *>(Obj);
  return Base->Magic == K && Base->RefCount.load() > 0;
}

static std::mutex &gravesLock() {
  static std::mutex *M = new std::mutex;
  return *M;
}

void buryObject(void *Storage) {
  // Bounded, so that programs making millions of events do not grow: only
  // the most recently released handles stay detectable.
  static constexpr size_t Keep = 16384;
  std::mutex &M = gravesLock();
  static std::deque<void *> *Graves = new std::deque<void *>;
  new (Storage) ObjectBase(ObjKind::Dead);
  static_cast<ObjectBase *>(Storage)->RefCount.store(0);
  void *Oldest = nullptr;
  {
    std::lock_guard<std::mutex> L(M);
    Graves->push_back(Storage);
    if (Graves->size() > Keep) {
      Oldest = Graves->front();
      Graves->pop_front();
    }
  }
  if (Oldest) {
    static_cast<ObjectBase *>(Oldest)->~ObjectBase();
    ::operator delete(Oldest);
  }
}

// Both locks are taken by the device's threads too (releasing a command's
// event), so a child whose fork caught one held would hang in every call.
void lockRegistryForFork() {
  registry().M.lock();
  gravesLock().lock();
}

void unlockRegistryAfterFork() {
  gravesLock().unlock();
  registry().M.unlock();
}

const char *clErrorName(cl_int Err) {
  switch (Err) {
#define ISS_NAME(E)                                                            \
  case E:                                                                      \
    return #E;
    ISS_NAME(CL_SUCCESS)
    ISS_NAME(CL_DEVICE_NOT_FOUND)
    ISS_NAME(CL_DEVICE_NOT_AVAILABLE)
    ISS_NAME(CL_COMPILER_NOT_AVAILABLE)
    ISS_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    ISS_NAME(CL_OUT_OF_RESOURCES)
    ISS_NAME(CL_OUT_OF_HOST_MEMORY)
    ISS_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    ISS_NAME(CL_MEM_COPY_OVERLAP)
    ISS_NAME(CL_IMAGE_FORMAT_MISMATCH)
    ISS_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    ISS_NAME(CL_BUILD_PROGRAM_FAILURE)
    ISS_NAME(CL_MAP_FAILURE)
    ISS_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    ISS_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    ISS_NAME(CL_COMPILE_PROGRAM_FAILURE)
    ISS_NAME(CL_LINKER_NOT_AVAILABLE)
    ISS_NAME(CL_LINK_PROGRAM_FAILURE)
    ISS_NAME(CL_DEVICE_PARTITION_FAILED)
    ISS_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    ISS_NAME(CL_INVALID_VALUE)
    ISS_NAME(CL_INVALID_DEVICE_TYPE)
    ISS_NAME(CL_INVALID_PLATFORM)
    ISS_NAME(CL_INVALID_DEVICE)
    ISS_NAME(CL_INVALID_CONTEXT)
    ISS_NAME(CL_INVALID_QUEUE_PROPERTIES)
    ISS_NAME(CL_INVALID_COMMAND_QUEUE)
    ISS_NAME(CL_INVALID_HOST_PTR)
    ISS_NAME(CL_INVALID_MEM_OBJECT)
    ISS_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    ISS_NAME(CL_INVALID_IMAGE_SIZE)
    ISS_NAME(CL_INVALID_SAMPLER)
    ISS_NAME(CL_INVALID_BINARY)
    ISS_NAME(CL_INVALID_BUILD_OPTIONS)
    ISS_NAME(CL_INVALID_PROGRAM)
    ISS_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    ISS_NAME(CL_INVALID_KERNEL_NAME)
    ISS_NAME(CL_INVALID_KERNEL_DEFINITION)
    ISS_NAME(CL_INVALID_KERNEL)
    ISS_NAME(CL_INVALID_ARG_INDEX)
    ISS_NAME(CL_INVALID_ARG_VALUE)
    ISS_NAME(CL_INVALID_ARG_SIZE)
    ISS_NAME(CL_INVALID_KERNEL_ARGS)
    ISS_NAME(CL_INVALID_WORK_DIMENSION)
    ISS_NAME(CL_INVALID_WORK_GROUP_SIZE)
    ISS_NAME(CL_INVALID_WORK_ITEM_SIZE)
    ISS_NAME(CL_INVALID_GLOBAL_OFFSET)
    ISS_NAME(CL_INVALID_EVENT_WAIT_LIST)
    ISS_NAME(CL_INVALID_EVENT)
    ISS_NAME(CL_INVALID_OPERATION)
    ISS_NAME(CL_INVALID_GL_OBJECT)
    ISS_NAME(CL_INVALID_BUFFER_SIZE)
    ISS_NAME(CL_INVALID_MIP_LEVEL)
    ISS_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    ISS_NAME(CL_INVALID_PROPERTY)
    ISS_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    ISS_NAME(CL_INVALID_COMPILER_OPTIONS)
    ISS_NAME(CL_INVALID_LINKER_OPTIONS)
    ISS_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
    ISS_NAME(CL_INVALID_PIPE_SIZE)
    ISS_NAME(CL_INVALID_DEVICE_QUEUE)
    ISS_NAME(CL_INVALID_SPEC_ID)
    ISS_NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef ISS_NAME
  default:
    return "CL_UNKNOWN_ERROR";
  }
}

cl_int apiError(const char *Func, cl_int Err, const char *Why) {
  debugLog(DbgRuntime, "%s: %s (%d): %s", Func, clErrorName(Err), Err, Why);
  return Err;
}

cl_int returnInfo(size_t Size, void *Value, size_t *SizeRet, const void *Data,
                  size_t DataSize) {
  if (Value) {
    if (Size < DataSize)
      return apiError("clGet*Info", CL_INVALID_VALUE,
                      "param_value_size is smaller than the value");
    if (DataSize)
      std::memcpy(Value, Data, DataSize);
  }
  if (SizeRet)
    *SizeRet = DataSize;
  return CL_SUCCESS;
}

std::vector<cl_name_version> nameVersions(const std::vector<std::string> &Names,
                                          cl_version Version) {
  std::vector<cl_name_version> Out;
  for (const std::string &N : Names) {
    cl_name_version NV{};
    NV.version = Version;
    std::strncpy(NV.name, N.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    Out.push_back(NV);
  }
  return Out;
}

cl_ulong hostTimerResolution() {
  // steady_clock is CLOCK_MONOTONIC on Linux.
  struct timespec Res = {0, 1};
  clock_getres(CLOCK_MONOTONIC, &Res);
  return std::max<cl_ulong>(1, cl_ulong(Res.tv_sec) * 1000000000u +
                                   cl_ulong(Res.tv_nsec));
}

cl_ulong nowNs() {
  return static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

} // namespace iss
