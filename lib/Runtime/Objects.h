//===- Objects.h - The OpenCL objects of the runtime ------------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The structs behind every OpenCL handle and the rules they share. Each one
// starts with the ICD dispatch pointer (cl_khr_icd: the loader reads the
// first word of any handle to find our entry points), then a magic number
// naming its kind and a reference count. Live handles are also kept in a
// registry, so a released or garbage handle is answered with the
// specification's CL_INVALID_* code instead of a crash: validation looks the
// pointer up before ever dereferencing it.
//
// One counter per object holds both the application's references and the
// runtime's own (pending commands, kernels holding their program, ...):
// an object is freed when the last of either goes, as the specification's
// lifetime rules require.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_RUNTIME_OBJECTS_H
#define POCL_ISS_RUNTIME_OBJECTS_H

#include "pocl-iss/Env.h"
#include "pocl-iss/KernelCompiler.h"

#include <CL/cl_icd.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace iss {

class CommandScheduler;
class WorkerPool;

/// The magic numbers of the handle kinds ("IS" + a letter).
enum class ObjKind : uint32_t {
  Platform = 0x49535050,
  Device = 0x49534456,
  Context = 0x49534358,
  Queue = 0x49535155,
  Mem = 0x4953454d,
  Program = 0x49535052,
  Kernel = 0x4953524b,
  Event = 0x49534556,
  Sampler = 0x49535341,
  CommandBuffer = 0x49534342, ///< cl_khr_command_buffer (Command.h)
  Dead = 0x49534458,          ///< a released object's kept storage
};

/// The dispatch table every handle points at (ICD.cpp).
cl_icd_dispatch *dispatchTable();

/// The common head of every handle. Must stay the first base so that the
/// dispatch pointer is the handle's first word.
struct ObjectBase {
  cl_icd_dispatch *Dispatch;
  ObjKind Magic;
  std::atomic<int32_t> RefCount{1};
  explicit ObjectBase(ObjKind K) : Dispatch(dispatchTable()), Magic(K) {}
};

/// Registry of live handles: validation never dereferences an unknown
/// pointer.
void registerObject(const void *Obj, ObjKind K);
void unregisterObject(const void *Obj);
bool isLiveObject(const void *Obj, ObjKind K);

/// The name of an OpenCL error code, for logs ("CL_INVALID_VALUE").
const char *clErrorName(cl_int Err);

/// Logs a failing API call under POCL_DEBUG=runtime and returns \p Err.
cl_int apiError(const char *Func, cl_int Err, const char *Why);
#define ISS_ERR(Err, Why) ::iss::apiError(__func__, (Err), (Why))
/// For entries that return a handle: stores \p Err in \p Ret (if given),
/// logs it and returns null.
#define ISS_ERR_RET(Ret, Err, Why)                                             \
  (::iss::setErrcode((Ret), ::iss::apiError(__func__, (Err), (Why))), nullptr)
inline void setErrcode(cl_int *Ret, cl_int Err) {
  if (Ret)
    *Ret = Err;
}

/// clGet*Info helpers: the size check and copy every query shares.
cl_int returnInfo(size_t Size, void *Value, size_t *SizeRet, const void *Data,
                  size_t DataSize);
template <typename T>
cl_int returnValue(size_t Size, void *Value, size_t *SizeRet, const T &V) {
  return returnInfo(Size, Value, SizeRet, &V, sizeof(T));
}
inline cl_int returnString(size_t Size, void *Value, size_t *SizeRet,
                           const std::string &S) {
  return returnInfo(Size, Value, SizeRet, S.c_str(), S.size() + 1);
}
template <typename T>
cl_int returnArray(size_t Size, void *Value, size_t *SizeRet,
                   const std::vector<T> &V) {
  return returnInfo(Size, Value, SizeRet, V.data(), V.size() * sizeof(T));
}

/// OpenCL 3.0's (name, version) lists: every name with \p Version.
std::vector<cl_name_version> nameVersions(const std::vector<std::string> &Names,
                                          cl_version Version);

/// CL_PLATFORM_HOST_TIMER_RESOLUTION: nanoseconds per tick of nowNs().
cl_ulong hostTimerResolution();

/// Arithmetic on the application's sizes, offsets and counts: false when
/// the exact result does not fit in size_t. A wrapped product passes any
/// bounds check after it, so every computation on such numbers goes
/// through these.
inline bool addSize(size_t A, size_t B, size_t &Sum) {
  return !__builtin_add_overflow(A, B, &Sum);
}
inline bool mulSize(size_t A, size_t B, size_t &Product) {
  return !__builtin_mul_overflow(A, B, &Product);
}

/// Checks the properties of clCreateBufferWithProperties and
/// clCreateImageWithProperties: no property is supported, so only NULL or
/// an empty list passes. \p Out gets what CL_MEM_PROPERTIES reports.
cl_int checkMemProperties(const char *Func, const cl_mem_properties *Props,
                          std::vector<cl_mem_properties> &Out);

/// Whether \p Flags is a valid cl_mem_flags set (Buffer.cpp): known bits,
/// at most one access and one host-access flag, USE_HOST_PTR alone among
/// the host-pointer flags.
bool validMemFlags(cl_mem_flags Flags);

/// The alignment of the memory buffers and SVM allocations get
/// (CL_DEVICE_MEM_BASE_ADDR_ALIGN, long16), the largest clSVMAlloc takes.
constexpr size_t DeviceMemAlign = 128;
/// \p Size bytes of device memory (Buffer.cpp), DeviceMemAlign-aligned;
/// null when out of memory. Released with std::free.
char *allocDeviceMemory(size_t Size);

/// Monotonic nanoseconds, the clock of event profiling.
cl_ulong nowNs();

/// An internal (counted) reference to an object; releases it when dropped.
template <typename T> class Ref {
public:
  Ref() = default;
  explicit Ref(T *P) : Ptr(P) {
    if (Ptr)
      retainObject(Ptr);
  }
  Ref(const Ref &O) : Ref(O.Ptr) {}
  Ref(Ref &&O) noexcept : Ptr(O.Ptr) { O.Ptr = nullptr; }
  Ref &operator=(Ref O) noexcept {
    std::swap(Ptr, O.Ptr);
    return *this;
  }
  ~Ref() {
    if (Ptr)
      releaseObject(Ptr);
  }
  T *get() const { return Ptr; }
  T *operator->() const { return Ptr; }
  explicit operator bool() const { return Ptr != nullptr; }

private:
  T *Ptr = nullptr;
};

/// The destructor callbacks of a memory object or context: registered
/// from any thread, run last to first when the object is destroyed.
template <typename Handle> class DestructorCallbacks {
public:
  using Fn = void(CL_CALLBACK *)(Handle, void *);
  void add(Fn F, void *Data) {
    std::lock_guard<std::mutex> L(M);
    List.emplace_back(F, Data);
  }
  void run(Handle H) {
    for (auto It = List.rbegin(); It != List.rend(); ++It)
      It->first(H, It->second);
  }

private:
  std::mutex M;
  std::vector<std::pair<Fn, void *>> List;
};

} // namespace iss

//===----------------------------------------------------------------------===//
// The handle structs.
//===----------------------------------------------------------------------===//

struct _cl_platform_id : iss::ObjectBase {
  _cl_platform_id() : ObjectBase(iss::ObjKind::Platform) {}
};

namespace iss {
/// What a device reports and how it runs: the root device's values, which
/// its sub-devices copy (all but the compute units and the partition).
struct DeviceDesc {
  cl_platform_id Platform = nullptr;
  bool Available = true; ///< false when POCL_DEVICES excludes us
  std::string Name, Vendor, DriverVersion;
  cl_uint ComputeUnits = 1;
  cl_uint MaxClockMHz = 0;
  cl_ulong GlobalMemSize = 0;
  cl_ulong MaxAllocSize = 0;
  cl_ulong LocalMemSize = 4u << 20;
  cl_ulong GlobalCacheSize = 0; ///< the last level
  cl_uint CachelineSize = 64;
  cl_ulong L1Size = 0, L2Size = 0, L3Size = 0;
  cl_uint VectorWidthInt = 4; ///< 32-bit lanes of the widest vector register
  bool HasFP64 = true;
  std::string Extensions; ///< CL_DEVICE_EXTENSIONS, from ExtensionList
  std::vector<std::string> ExtensionList;
  std::vector<std::string> Features; ///< CL_DEVICE_OPENCL_C_FEATURES
  size_t MaxWorkGroupSize = 4096;
  size_t MaxWorkItemSizes[3] = {4096, 4096, 4096};
  size_t PrintfBufferSize = 16u << 20;
  /// Image limits in pixels (setImageLimits, Image.cpp).
  size_t Image2DMax = 8192, Image3DMax = 2048, ImageMaxBuffer = 65536,
         ImageMaxArray = 2048;
};

/// Sets \p D's image limits from its MaxAllocSize as pocl 3.1 does: a 1D
/// image buffer may hold what an allocation holds at 16 bytes a pixel, and
/// the 2D and 3D sides grow from 8192 and 2048 by powers of two while a
/// square or cube of them holds no more pixels than that.
void setImageLimits(DeviceDesc &D);
} // namespace iss

/// The CPU device, or one of its sub-devices (clCreateSubDevices): a
/// sub-device shares its root's command scheduler and worker pool, and its
/// kernels run on at most ComputeUnits of the pool's threads. Only
/// sub-devices are reference counted, as the specification says.
struct _cl_device_id : iss::ObjectBase, iss::DeviceDesc {
  _cl_device_id() : ObjectBase(iss::ObjKind::Device) {}
  /// Sub-devices: the device partitioned, and the partition as
  /// CL_DEVICE_PARTITION_TYPE reports it (0-terminated).
  iss::Ref<_cl_device_id> Parent;
  std::vector<cl_device_partition_property> PartitionType;
  _cl_device_id *root() { return Parent ? Parent->root() : this; }
  /// Whether this device is \p D or one of its sub-devices.
  bool covers(const _cl_device_id *D) const {
    return D == this || (D->Parent && covers(D->Parent.get()));
  }
  /// The pthread device: command scheduler and worker pool, created on
  /// first use (a program that only queries devices starts no threads),
  /// and again in a child after fork (Fork.cpp).
  iss::CommandScheduler &scheduler();
  iss::WorkerPool &pool();
  /// Threads a launch may use: the pool's, or a sub-device's compute
  /// units.
  unsigned numThreads() const;

  /// fork() on the root device: before, in the parent after, in the child
  /// after (Fork.cpp). The child's threads start on its first use.
  void prepareFork();
  void parentAfterFork();
  void childAfterFork();

private:
  /// Guards the creation of the two below; Started once both exist and
  /// the scheduler's thread runs.
  std::mutex StartM;
  std::atomic<bool> Started{false};
  iss::CommandScheduler *Scheduler = nullptr;
  iss::WorkerPool *Pool = nullptr;
  void start();
};

struct _cl_context : iss::ObjectBase {
  _cl_context() : ObjectBase(iss::ObjKind::Context) {}
  ~_cl_context();
  std::vector<cl_context_properties> Properties; ///< as given, 0-terminated
  std::vector<cl_device_id> Devices;
  void(CL_CALLBACK *Notify)(const char *, const void *, size_t,
                            void *) = nullptr;
  void *NotifyData = nullptr;
  iss::DestructorCallbacks<cl_context> Destructors;
  /// Whether \p D is one of the context's devices or a sub-device of one.
  bool hasDevice(cl_device_id D) const;

  /// An SVM allocation (Svm.cpp): its first byte, its size as requested
  /// and its cl_svm_mem_flags.
  struct SvmRange {
    char *Base;
    size_t Size;
    cl_svm_mem_flags Flags;
  };
  /// The SVM allocation \p P points into, if any (any byte of it, not only
  /// its first).
  std::optional<SvmRange> findSvm(const void *P) const;
  /// The live allocations by start address, guarded by SvmM. Each holds a
  /// reference to the context, as in pocl 3.1: a context outlives its SVM.
  mutable std::mutex SvmM;
  std::map<uintptr_t, SvmRange> Svm;
};

struct _cl_command_queue : iss::ObjectBase {
  _cl_command_queue() : ObjectBase(iss::ObjKind::Queue) {}
  ~_cl_command_queue();
  iss::Ref<_cl_context> Context;
  cl_device_id Device = nullptr;
  cl_command_queue_properties Properties = 0;
  std::vector<cl_queue_properties> PropertyArray; ///< WithProperties only
  unsigned Stream = 0; ///< the scheduler's stream of this queue
};

struct _cl_mem : iss::ObjectBase {
  _cl_mem() : ObjectBase(iss::ObjKind::Mem) {}
  ~_cl_mem();
  iss::Ref<_cl_context> Context;
  cl_mem_object_type Type = CL_MEM_OBJECT_BUFFER;
  cl_mem_flags Flags = 0;
  size_t Size = 0;
  /// The bytes kernels and transfers use: host memory, 128-byte aligned
  /// unless the application's CL_MEM_USE_HOST_PTR pointer is used as is.
  char *Data = nullptr;
  bool OwnsData = false;
  void *HostPtr = nullptr;  ///< CL_MEM_HOST_PTR
  /// CL_MEM_USES_SVM_POINTER: HostPtr (CL_MEM_USE_HOST_PTR) lies in an
  /// SVM allocation of the context; sub-buffers inherit it.
  bool UsesSvm = false;
  iss::Ref<_cl_mem> Parent; ///< sub-buffers
  /// cl_pocl_content_size: the buffer whose first 8 bytes say how many
  /// bytes of this one are content (clSetContentSizeBufferPoCL); guarded by
  /// M.
  iss::Ref<_cl_mem> ContentSize;
  size_t Origin = 0;
  std::mutex M;
  std::atomic<cl_uint> MapCount{0};
  std::vector<void *> Mappings; ///< pointers handed out by map calls
  iss::DestructorCallbacks<cl_mem> Destructors;
  /// CL_MEM_PROPERTIES: the list given to clCreate*WithProperties with its
  /// terminating 0; empty otherwise (and for a NULL list).
  std::vector<cl_mem_properties> Properties;

  /// Images (Image.cpp): the format and description as created, pitches
  /// filled in; Parent is a 1D image buffer's buffer. DevImage is what
  /// kernels get (WorkGroupABI.h), fixed for the image's lifetime.
  cl_image_format ImageFormat = {0, 0};
  cl_image_desc ImageDesc = {};
  size_t PixelBytes = 0;
  iss_image DevImage = {};
  bool isImage() const {
    return Type != CL_MEM_OBJECT_BUFFER && Type != CL_MEM_OBJECT_PIPE;
  }
};

struct _cl_program : iss::ObjectBase {
  _cl_program() : ObjectBase(iss::ObjKind::Program) {}
  iss::Ref<_cl_context> Context;
  std::vector<cl_device_id> Devices;
  std::string Source; ///< empty unless created with source
  bool HasSource = false;
  /// Made by clLinkProgram: neither source nor a binary the application
  /// gave, so clBuildProgram refuses it.
  bool Linked = false;
  std::mutex M;
  cl_build_status BuildStatus = CL_BUILD_NONE;
  std::string Options, Log;
  std::vector<uint8_t> Binary;
  cl_program_binary_type BinaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  std::vector<iss::KernelInfo> Kernels;
  std::atomic<int> KernelObjects{0}; ///< live cl_kernels (no rebuild then)
  /// Compiled work-group functions per kernel and local size: the second
  /// launch with the same local size never calls the compiler again (a
  /// tiered first launch's: only to ask whether the mode's code came).
  struct CompiledSlot {
    std::shared_ptr<iss::CompiledKernel> Code;
    /// POCL_ISS_MODE's code compiling in the compiler process behind a
    /// tiered first launch (Code is `vec`'s until it arrives).
    std::shared_ptr<iss::BackgroundCompile> Pending;
    /// The measured choice's candidates while they come, until the choice
    /// is attached to the mode's code (POCL_ISS_CHOICE): `vec`'s code, and
    /// the kernel as written, compiled or compiling in the compiler process.
    bool ChoiceOpen = false;
    std::shared_ptr<iss::CompiledKernel> ChoiceVec, ChoiceWritten;
    std::shared_ptr<iss::BackgroundCompile> PendingWritten;
  };
  std::mutex CompiledM;
  std::map<std::pair<std::string, std::array<size_t, 3>>, CompiledSlot>
      Compiled;
  bool isExecutable() const {
    return BuildStatus == CL_BUILD_SUCCESS &&
           BinaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
};

/// The value of one kernel argument as clSetKernelArg left it.
struct KernelArgValue {
  bool IsSet = false;
  std::vector<unsigned char> Bytes; ///< by-value arguments
  cl_mem Mem = nullptr;             ///< buffers (may be null)
  size_t LocalSize = 0;             ///< __local arguments
  /// clSetKernelArgSVMPointer: the pointer a __global or __constant
  /// argument gets as is (any pointer, as pocl 3.1 takes it).
  bool IsSvm = false;
  void *SvmPtr = nullptr;
};

struct _cl_kernel : iss::ObjectBase {
  _cl_kernel() : ObjectBase(iss::ObjKind::Kernel) {}
  ~_cl_kernel();
  iss::Ref<_cl_program> Program;
  iss::KernelInfo Info;
  std::mutex M;
  std::vector<KernelArgValue> Args;
  /// CL_KERNEL_EXEC_INFO_SVM_PTRS as last set (guarded by M): nothing
  /// needs them on a device whose memory is the host's, but a clone keeps
  /// them as the specification says.
  std::vector<void *> ExecSvmPtrs;
  /// The work-group functions of the last launch, their local size and
  /// the image formats they were compiled for (the suffix of the name they
  /// were compiled under, NDRange.cpp): launches with the same skip the
  /// program's table.
  std::array<size_t, 3> CompiledLocal = {0, 0, 0};
  std::string CompiledFormats;
  std::shared_ptr<iss::CompiledKernel> Compiled;
};

struct _cl_event : iss::ObjectBase {
  _cl_event() : ObjectBase(iss::ObjKind::Event) {}
  ~_cl_event();
  iss::Ref<_cl_context> Context;
  cl_command_queue Queue = nullptr; ///< retained; null for user events
  cl_command_type Type = 0;
  std::atomic<cl_int> Status{CL_QUEUED};
  cl_ulong Times[4] = {0, 0, 0, 0}; ///< queued, submit, start, end
  std::mutex M;
  std::condition_variable CV;
  bool Finished = false; ///< terminal status reached
  struct Callback {
    cl_int Status;
    void(CL_CALLBACK *Fn)(cl_event, cl_int, void *);
    void *Data;
  };
  std::vector<Callback> Callbacks;
};

struct _cl_sampler : iss::ObjectBase {
  _cl_sampler() : ObjectBase(iss::ObjKind::Sampler) {}
  iss::Ref<_cl_context> Context;
  cl_bool Normalized = CL_TRUE;
  cl_addressing_mode Addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode Filter = CL_FILTER_NEAREST;
  /// CL_SAMPLER_PROPERTIES: as given to clCreateSamplerWithProperties,
  /// 0-terminated; empty otherwise.
  std::vector<cl_sampler_properties> Properties;
  /// The CLK_* bits kernels get (pocl 3.1's dev_sampler_t).
  uintptr_t deviceBits() const;
};

namespace iss {

/// Frees an object whose count reached zero (per kind, in their files).
void destroyObject(_cl_platform_id *);
void destroyObject(_cl_device_id *);
void destroyObject(_cl_context *);
void destroyObject(_cl_command_queue *);
void destroyObject(_cl_mem *);
void destroyObject(_cl_program *);
void destroyObject(_cl_kernel *);
void destroyObject(_cl_event *);
void destroyObject(_cl_sampler *);
void destroyObject(_cl_command_buffer_khr *);

template <typename T> void retainObject(T *Obj) {
  Obj->RefCount.fetch_add(1, std::memory_order_relaxed);
}
template <typename T> void releaseObject(T *Obj) {
  if (Obj->RefCount.fetch_sub(1, std::memory_order_acq_rel) == 1)
    destroyObject(Obj);
}

/// Validity checks: registered, right kind.
inline bool isValid(cl_platform_id P) {
  return isLiveObject(P, ObjKind::Platform);
}
inline bool isValid(cl_device_id D) { return isLiveObject(D, ObjKind::Device); }
inline bool isValid(cl_context C) { return isLiveObject(C, ObjKind::Context); }
inline bool isValid(cl_command_queue Q) {
  return isLiveObject(Q, ObjKind::Queue);
}
inline bool isValid(cl_mem M) { return isLiveObject(M, ObjKind::Mem); }
inline bool isValid(cl_program P) { return isLiveObject(P, ObjKind::Program); }
inline bool isValid(cl_kernel K) { return isLiveObject(K, ObjKind::Kernel); }
inline bool isValid(cl_event E) { return isLiveObject(E, ObjKind::Event); }
inline bool isValid(cl_sampler S) { return isLiveObject(S, ObjKind::Sampler); }

/// Our one platform and device.
cl_platform_id thePlatform();
cl_device_id theDevice();

/// Whether \p D (valid) is in \p List or is a sub-device of a device
/// there: what a context, program or kernel may be used with, as pocl 3.1
/// counts it (a queue on a sub-device of a context's device is taken).
bool deviceIn(const std::vector<cl_device_id> &List, cl_device_id D);

/// Creates and registers an object (count 1).
template <typename T> T *makeObject() {
  T *Obj = new (std::nothrow) T();
  if (Obj)
    registerObject(Obj, Obj->Magic);
  return Obj;
}
/// Keeps a destroyed object's storage for a while, with the dispatch
/// pointer intact: the ICD loader reads the first word of any handle before
/// we can check it, so a recently released handle must still lead to our
/// entry points, which then answer CL_INVALID_*.
void buryObject(void *Storage);

/// Unregisters, destroys and buries (the destroyObject of most kinds).
template <typename T> void deleteObject(T *Obj) {
  unregisterObject(Obj);
  Obj->~T();
  buryObject(Obj);
}

//===----------------------------------------------------------------------===//
// Commands (Event.cpp).
//===----------------------------------------------------------------------===//

/// Validates an event wait list against a queue's context.
cl_int checkWaitList(const char *Func, cl_context Ctx, cl_uint Num,
                     const cl_event *List);

// The checks buffer and image commands share (BufferCommands.cpp).
/// The queue, and \p M a buffer of its context.
cl_int checkQueueMem(const char *Func, cl_command_queue Q, cl_mem M);
/// The host access flags forbid reading (writing) \p M.
bool hostCannotRead(cl_mem M);
bool hostCannotWrite(cl_mem M);
/// Known map flags, CL_MAP_WRITE_INVALIDATE_REGION alone.
bool validMapFlags(cl_map_flags Flags);
/// The checks clEnqueueMigrateMemObjects and clEnqueueSVMMigrateMem start
/// with: the queue, a non-empty \p List of \p Num entries, known flags.
cl_int checkMigration(const char *Func, cl_command_queue Q, cl_uint Num,
                      const void *List, cl_mem_migration_flags Flags);
/// Whether [A, A + Size) and [B, B + Size) share a byte.
inline bool rangesOverlap(uintptr_t A, uintptr_t B, size_t Size) {
  return A < B ? B - A < Size : A - B < Size;
}
/// Map flags that \p M's host access flags forbid.
bool mapConflictsWithHostAccess(cl_mem M, cl_map_flags Flags);

/// Sets an event's terminal or intermediate status, wakes waiters and the
/// scheduler, and queues the callbacks that became due. \p When is the
/// profiling time of the change (0: now).
void setEventStatus(cl_event E, cl_int Status, cl_ulong When = 0);
/// Blocks until \p E is finished (complete or failed); its callbacks may
/// still be running.
void waitEvent(cl_event E);

/// A callback with the status it reports.
struct DueCallback {
  void(CL_CALLBACK *Fn)(cl_event, cl_int, void *);
  void *Data;
  cl_int Status;
};
/// Calls \p Calls on a callback thread, never on the caller's
/// (EventCallbacks.cpp): callbacks may call blocking OpenCL functions.
void queueCallbacks(cl_event E, std::vector<DueCallback> Calls);

/// fork() support (Fork.cpp): installs the pthread_atfork handlers, once.
void installForkHandlers();
/// The callback threads across fork (EventCallbacks.cpp): locked before,
/// unlocked in the parent after, made anew in the child.
void prepareForkCallbacks();
void parentAfterForkCallbacks();
void childAfterForkCallbacks();
/// The handle registry's locks (Common.cpp), held across fork.
void lockRegistryForFork();
void unlockRegistryAfterFork();

/// The __local bytes a launch of \p K needs with its current arguments
/// (Kernel.cpp); the device's layout: each block 64-byte aligned.
size_t kernelLocalBytes(cl_kernel K);
/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE of \p D.
size_t preferredMultiple(cl_device_id D);

/// The OpenCL C type of an image of type \p T ("image2d_array_t"), empty
/// for what is not an image (Image.cpp).
std::string imageTypeName(cl_mem_object_type T);

/// clSetContentSizeBufferPoCL (Buffer.cpp).
cl_int CL_API_CALL setContentSizeBuffer(cl_mem M, cl_mem SizeBuffer);

/// The cl_khr_command_buffer entry named \p Name, or null
/// (CommandBuffer.cpp).
void *commandBufferFunction(const char *Name);

/// Prints the POCL_ISS_STATS table at exit; called for each compiled kernel.
void recordCompiledKernel(const std::shared_ptr<CompiledKernel> &K);

} // namespace iss

#endif // POCL_ISS_RUNTIME_OBJECTS_H
