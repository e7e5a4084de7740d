//===- Buffer.cpp - Buffers, sub-buffers and memory object queries --------===//
// SPDX-License-Identifier: MIT
//
// Device memory is host memory: a buffer's bytes are a 128-byte aligned
// allocation (CL_DEVICE_MEM_BASE_ADDR_ALIGN is 1024 bits), or, with
// CL_MEM_USE_HOST_PTR, the application's own pointer, so reads, writes and
// maps of such buffers see the application's data without copies. A
// sub-buffer is a window of its parent and keeps it alive. A buffer over
// an SVM allocation (CL_MEM_USE_HOST_PTR with a pointer into one) must fit
// in it and reports CL_MEM_USES_SVM_POINTER, its sub-buffers too. No memory
// property is supported, so clCreateBufferWithProperties takes only a NULL
// or empty list, which CL_MEM_PROPERTIES reports back. Destructor
// callbacks run in reverse order of registration when the last reference,
// the application's or a pending command's, is gone.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>
#include <cstdlib>

using namespace iss;

_cl_mem::~_cl_mem() {
  Destructors.run(this);
  if (OwnsData)
    std::free(Data);
}

namespace iss {
// Unregistered before the destructor runs: destructor callbacks must not
// see a live handle that is being freed.
void destroyObject(_cl_mem *M) { deleteObject(M); }
} // namespace iss

static constexpr cl_mem_flags AccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static constexpr cl_mem_flags HostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static int popcount(cl_mem_flags F) { return __builtin_popcountll(F); }

char *iss::allocDeviceMemory(size_t Size) {
  size_t Rounded;
  if (!addSize(Size, DeviceMemAlign - 1, Rounded))
    return nullptr;
  Rounded = Rounded / DeviceMemAlign * DeviceMemAlign;
  return static_cast<char *>(std::aligned_alloc(DeviceMemAlign, Rounded));
}

bool iss::validMemFlags(cl_mem_flags Flags) {
  return !(Flags & ~(AccessFlags | HostAccessFlags | HostPtrFlags)) &&
         popcount(Flags & AccessFlags) <= 1 &&
         popcount(Flags & HostAccessFlags) <= 1 &&
         !((Flags & CL_MEM_USE_HOST_PTR) &&
           (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

cl_int iss::checkMemProperties(const char *Func, const cl_mem_properties *Props,
                               std::vector<cl_mem_properties> &Out) {
  Out.clear();
  if (!Props)
    return CL_SUCCESS;
  // OpenCL 3.0 defines no property of its own for buffers and images; the
  // extensions that do (cl_khr_external_memory, ...) are not supported.
  if (Props[0])
    return apiError(Func, CL_INVALID_PROPERTY,
                    "no memory object property is supported");
  Out.push_back(0);
  return CL_SUCCESS;
}

/// clCreateBuffer and clCreateBufferWithProperties, once the context and
/// the properties are checked.
static cl_mem createBuffer(const char *Func, cl_context C, cl_mem_flags Flags,
                           size_t Size, void *HostPtr, cl_int *Err) {
  if (!validMemFlags(Flags))
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "invalid or conflicting flags")),
           nullptr;
  if (Size == 0 || Size > theDevice()->MaxAllocSize)
    return setErrcode(
               Err,
               apiError(Func, CL_INVALID_BUFFER_SIZE,
                        "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE")),
           nullptr;
  bool NeedsPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (NeedsPtr != (HostPtr != nullptr))
    return setErrcode(Err, apiError(Func, CL_INVALID_HOST_PTR,
                                    NeedsPtr ? "host_ptr is NULL"
                                             : "host_ptr given without "
                                               "USE/COPY_HOST_PTR")),
           nullptr;
  // An SVM pointer's buffer must fit in its allocation (OpenCL 3.0,
  // clCreateBuffer; pocl 3.1 checks it for the allocation's first byte).
  std::optional<_cl_context::SvmRange> Svm;
  if (Flags & CL_MEM_USE_HOST_PTR)
    Svm = C->findSvm(HostPtr);
  if (Svm && Size > Svm->Size - (static_cast<char *>(HostPtr) - Svm->Base))
    return setErrcode(Err, apiError(Func, CL_INVALID_BUFFER_SIZE,
                                    "larger than the rest of the SVM "
                                    "allocation host_ptr points into")),
           nullptr;
  cl_mem M = makeObject<_cl_mem>();
  if (!M)
    return setErrcode(Err, apiError(Func, CL_OUT_OF_HOST_MEMORY,
                                    "allocating the buffer")),
           nullptr;
  M->Context = Ref<_cl_context>(C);
  M->Flags = Flags & AccessFlags ? Flags : Flags | CL_MEM_READ_WRITE;
  M->Size = Size;
  if (Flags & CL_MEM_USE_HOST_PTR) {
    M->Data = static_cast<char *>(HostPtr);
    M->HostPtr = HostPtr;
    M->UsesSvm = Svm.has_value();
  } else {
    M->Data = allocDeviceMemory(Size);
    if (!M->Data) {
      releaseObject(M);
      return setErrcode(Err, apiError(Func, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                      "out of memory for the buffer")),
             nullptr;
    }
    M->OwnsData = true;
    if (Flags & CL_MEM_COPY_HOST_PTR)
      std::memcpy(M->Data, HostPtr, Size);
  }
  setErrcode(Err, CL_SUCCESS);
  return M;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context C, cl_mem_flags Flags,
                                               size_t Size, void *HostPtr,
                                               cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  return createBuffer(__func__, C, Flags, Size, HostPtr, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(
    cl_context C, const cl_mem_properties *Props, cl_mem_flags Flags,
    size_t Size, void *HostPtr, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  std::vector<cl_mem_properties> Copy;
  if (cl_int E = checkMemProperties(__func__, Props, Copy))
    return setErrcode(Err, E), nullptr;
  cl_mem M = createBuffer(__func__, C, Flags, Size, HostPtr, Err);
  if (M)
    M->Properties = std::move(Copy);
  return M;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem Parent,
                                                  cl_mem_flags Flags,
                                                  cl_buffer_create_type Type,
                                                  const void *Info,
                                                  cl_int *Err) {
  if (!isValid(Parent) || Parent->Type != CL_MEM_OBJECT_BUFFER ||
      Parent->Parent)
    return ISS_ERR_RET(Err, CL_INVALID_MEM_OBJECT,
                       "not a buffer, or a sub-buffer");
  if (Flags & ~(AccessFlags | HostAccessFlags) ||
      popcount(Flags & AccessFlags) > 1 ||
      popcount(Flags & HostAccessFlags) > 1)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "invalid flags");
  cl_mem_flags P = Parent->Flags;
  if (((P & CL_MEM_WRITE_ONLY) &&
       (Flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((P & CL_MEM_READ_ONLY) &&
       (Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((P & CL_MEM_HOST_WRITE_ONLY) && (Flags & CL_MEM_HOST_READ_ONLY)) ||
      ((P & CL_MEM_HOST_READ_ONLY) && (Flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((P & CL_MEM_HOST_NO_ACCESS) &&
       (Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                       "flags conflict with the parent buffer's");
  if (Type != CL_BUFFER_CREATE_TYPE_REGION)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "unknown buffer_create_type");
  if (!Info)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "buffer_create_info is NULL");
  const auto *R = static_cast<const cl_buffer_region *>(Info);
  if (R->size == 0)
    return ISS_ERR_RET(Err, CL_INVALID_BUFFER_SIZE, "region size is 0");
  if (R->origin > Parent->Size || R->size > Parent->Size - R->origin)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "region outside the buffer");
  if (R->origin % 128)
    return ISS_ERR_RET(Err, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                       "origin is not a multiple of 128 bytes");
  cl_mem M = makeObject<_cl_mem>();
  if (!M)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating the buffer");
  M->Context = Parent->Context;
  // Access and host-access flags not given are inherited; host-pointer
  // flags always are.
  cl_mem_flags F = Flags;
  if (!(F & AccessFlags))
    F |= P & AccessFlags;
  if (!(F & HostAccessFlags))
    F |= P & HostAccessFlags;
  F |= P & HostPtrFlags;
  M->Flags = F;
  M->Size = R->size;
  M->Data = Parent->Data + R->origin;
  M->Origin = R->origin;
  if (Parent->HostPtr)
    M->HostPtr = static_cast<char *>(Parent->HostPtr) + R->origin;
  M->UsesSvm = Parent->UsesSvm;
  M->Parent = Ref<_cl_mem>(Parent);
  setErrcode(Err, CL_SUCCESS);
  return M;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem M) {
  if (!isValid(M))
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
  retainObject(M);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem M) {
  if (!isValid(M))
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
  releaseObject(M);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem M, void(CL_CALLBACK *Fn)(cl_mem, void *), void *Data) {
  if (!isValid(M))
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
  if (!Fn)
    return ISS_ERR(CL_INVALID_VALUE, "pfn_notify is NULL");
  M->Destructors.add(Fn, Data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem M, cl_mem_info Param,
                                                   size_t Size, void *Value,
                                                   size_t *SizeRet) {
  if (!isValid(M))
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "invalid memory object");
  switch (Param) {
  case CL_MEM_TYPE:
    return returnValue(Size, Value, SizeRet, M->Type);
  case CL_MEM_FLAGS:
    return returnValue(Size, Value, SizeRet, M->Flags);
  case CL_MEM_SIZE:
    return returnValue(Size, Value, SizeRet, M->Size);
  case CL_MEM_HOST_PTR:
    return returnValue(Size, Value, SizeRet, M->HostPtr);
  case CL_MEM_MAP_COUNT:
    return returnValue(Size, Value, SizeRet, M->MapCount.load());
  case CL_MEM_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(M->RefCount.load()));
  case CL_MEM_CONTEXT:
    return returnValue(Size, Value, SizeRet, M->Context.get());
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return returnValue(Size, Value, SizeRet, M->Parent.get());
  case CL_MEM_OFFSET:
    return returnValue(Size, Value, SizeRet, M->Origin);
  case CL_MEM_USES_SVM_POINTER:
    return returnValue(Size, Value, SizeRet, cl_bool(M->UsesSvm));
  case CL_MEM_PROPERTIES:
    return returnArray(Size, Value, SizeRet, M->Properties);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_mem_info");
  }
}

/// cl_pocl_content_size (pocl's extension, as pocl 3.1 checks it): copies
/// from \p M (clEnqueueCopyBuffer) stop at the content size that the first
/// 8 bytes of \p SizeBuffer hold when the copy is enqueued.
cl_int CL_API_CALL iss::setContentSizeBuffer(cl_mem M, cl_mem SizeBuffer) {
  const char *Func = "clSetContentSizeBufferPoCL";
  if (!isValid(M) || M->Type != CL_MEM_OBJECT_BUFFER || !isValid(SizeBuffer) ||
      SizeBuffer->Type != CL_MEM_OBJECT_BUFFER)
    return apiError(Func, CL_INVALID_MEM_OBJECT, "not a buffer");
  if (M->Context.get() != SizeBuffer->Context.get())
    return apiError(Func, CL_INVALID_CONTEXT,
                    "the buffers are from different contexts");
  if (SizeBuffer->Size < sizeof(uint64_t))
    return apiError(Func, CL_INVALID_BUFFER_SIZE,
                    "the size buffer is smaller than 8 bytes");
  if (SizeBuffer->Parent)
    return apiError(Func, CL_INVALID_MEM_OBJECT,
                    "the size buffer is a sub-buffer");
  std::lock_guard<std::mutex> L(M->M);
  M->ContentSize = Ref<_cl_mem>(SizeBuffer);
  return CL_SUCCESS;
}
