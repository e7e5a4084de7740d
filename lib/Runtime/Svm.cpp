//===- Svm.cpp - Shared virtual memory ------------------------------------===//
// SPDX-License-Identifier: MIT
//
// Shared virtual memory as Debian's pocl 3.1 has it on the CPU: coarse- and
// fine-grained buffers with SVM atomics, no fine-grained system sharing
// (CL_DEVICE_SVM_CAPABILITIES). Device memory is host memory, so an SVM
// allocation is a 128-byte aligned host allocation that kernels get as is:
// fine grain and atomics need nothing more (the kernel library's atomics are
// the host's), and maps, unmaps and migrations are ordering points only.
// The context keeps its allocations (start, size, flags), so a pointer
// anywhere inside one finds it (CL_MEM_USES_SVM_POINTER, migration ranges);
// each allocation holds a reference to its context, as in pocl 3.1.
//
// Every clEnqueueSVM* call is a command with an event and a wait list, built
// like the buffer commands (Command.h). The checks are the OpenCL 3.0
// specification's, which pocl 3.1 relaxes in places (unknown allocation
// flags, map flags, migration ranges outside an allocation, exec info) and
// tightens in others (a zero size for copies and fills, an empty free list):
// pocl-iss takes what the specification allows and refuses what it forbids.
// Like pocl, clSetKernelArgSVMPointer (Kernel.cpp) takes any pointer.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include <cstdlib>

using namespace iss;

std::optional<_cl_context::SvmRange> _cl_context::findSvm(const void *P) const {
  const uintptr_t At = reinterpret_cast<uintptr_t>(P);
  std::lock_guard<std::mutex> L(SvmM);
  auto It = Svm.upper_bound(At);
  if (It == Svm.begin())
    return std::nullopt;
  --It;
  if (At - It->first >= It->second.Size)
    return std::nullopt;
  return It->second;
}

/// Frees the allocation starting at \p P (clSVMFree, clEnqueueSVMFree):
/// anything else is an application error, logged and ignored as pocl does.
static void freeSvm(const char *Func, cl_context C, void *P) {
  {
    std::lock_guard<std::mutex> L(C->SvmM);
    auto It = C->Svm.find(reinterpret_cast<uintptr_t>(P));
    if (It == C->Svm.end()) {
      apiError(Func, CL_INVALID_VALUE,
               "not the start of an SVM allocation of the context");
      return;
    }
    C->Svm.erase(It);
  }
  std::free(P);
  releaseObject(C); // the allocation's reference: may destroy the context
}

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context C, cl_svm_mem_flags Flags,
                                          size_t Size, cl_uint Alignment) {
  // clSVMAlloc has no error code: a failure is NULL, logged with the code
  // its reason has elsewhere.
  auto Fail = [](cl_int Err, const char *Why) -> void * {
    apiError("clSVMAlloc", Err, Why);
    return nullptr;
  };
  if (!isValid(C))
    return Fail(CL_INVALID_CONTEXT, "invalid context");
  const cl_svm_mem_flags Access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  if (Flags & ~(Access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS))
    return Fail(CL_INVALID_VALUE, "unknown flags");
  if (__builtin_popcountll(Flags & Access) > 1)
    return Fail(CL_INVALID_VALUE,
                "more than one of READ_WRITE, WRITE_ONLY and READ_ONLY");
  if ((Flags & CL_MEM_SVM_ATOMICS) && !(Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return Fail(CL_INVALID_VALUE,
                "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
  if (Size == 0)
    return Fail(CL_INVALID_BUFFER_SIZE, "size is 0");
  for (cl_device_id D : C->Devices)
    if (Size > D->MaxAllocSize)
      return Fail(CL_INVALID_BUFFER_SIZE,
                  "size above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  // Up to the largest data type, long16, as CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE
  // says (pocl 3.1 takes no more either); 0 asks for that much.
  if (Alignment & (Alignment - 1))
    return Fail(CL_INVALID_VALUE, "alignment is not a power of two");
  if (Alignment > DeviceMemAlign)
    return Fail(CL_INVALID_VALUE, "alignment above 128 bytes (long16)");
  char *P = allocDeviceMemory(Size);
  if (!P)
    return Fail(CL_OUT_OF_HOST_MEMORY, "out of memory for the allocation");
  {
    std::lock_guard<std::mutex> L(C->SvmM);
    C->Svm.emplace(reinterpret_cast<uintptr_t>(P),
                   _cl_context::SvmRange{P, Size, Flags});
  }
  retainObject(C);
  debugLog(DbgRuntime, "clSVMAlloc: %p, %zu bytes, flags 0x%llx",
           static_cast<void *>(P), Size,
           static_cast<unsigned long long>(Flags));
  return P;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context C, void *P) {
  if (!isValid(C)) {
    ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
    return;
  }
  if (P)
    freeSvm(__func__, C, P);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue Q, cl_uint Num, void *Ptrs[],
    void(CL_CALLBACK *Fn)(cl_command_queue, cl_uint, void *[], void *),
    void *Data, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if ((Num == 0) != (Ptrs == nullptr))
    return ISS_ERR(CL_INVALID_VALUE,
                   "num_svm_pointers and svm_pointers disagree");
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  // The list is copied: the application may reuse its array at once. The
  // queue, and with it its context, stays valid while the command runs (its
  // event holds it).
  std::vector<void *> List(Ptrs, Ptrs + Num);
  return T.run(CL_COMMAND_SVM_FREE, [Q, List, Fn, Data]() mutable {
    if (Fn)
      Fn(Q, cl_uint(List.size()), List.data(), Data);
    else
      for (void *P : List)
        if (P)
          freeSvm("clEnqueueSVMFree", Q->Context.get(), P);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(
    cl_command_queue Q, cl_bool Blocking, void *Dst, const void *Src,
    size_t Size, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!Dst || !Src)
    return ISS_ERR(CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
  if (rangesOverlap(reinterpret_cast<uintptr_t>(Dst),
                    reinterpret_cast<uintptr_t>(Src), Size))
    return ISS_ERR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event, Blocking);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  return T.run(CL_COMMAND_SVM_MEMCPY, [Dst, Src, Size] {
    std::memcpy(Dst, Src, Size);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(
    cl_command_queue Q, void *Ptr, const void *Pattern, size_t PatternSize,
    size_t Size, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!Ptr)
    return ISS_ERR(CL_INVALID_VALUE, "svm_ptr is NULL");
  if (!Pattern || !FillPattern::validSize(PatternSize))
    return ISS_ERR(CL_INVALID_VALUE,
                   "pattern is NULL or its size is not 1, 2, 4, ..., 128");
  if (reinterpret_cast<uintptr_t>(Ptr) % PatternSize || Size % PatternSize)
    return ISS_ERR(CL_INVALID_VALUE,
                   "svm_ptr not aligned to, or size not a multiple of, the "
                   "pattern size");
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  FillPattern Pat(Pattern, PatternSize);
  return T.run(CL_COMMAND_SVM_MEMFILL, [Ptr, Pat, Size] {
    Pat.fill(static_cast<char *>(Ptr), Size);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(
    cl_command_queue Q, cl_bool Blocking, cl_map_flags Flags, void *Ptr,
    size_t Size, cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!Ptr || Size == 0)
    return ISS_ERR(CL_INVALID_VALUE, "svm_ptr is NULL or size is 0");
  if (!validMapFlags(Flags))
    return ISS_ERR(CL_INVALID_VALUE, "invalid map flags");
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event, Blocking);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  // The host sees the allocation's bytes already: the map orders only.
  return T.run(CL_COMMAND_SVM_MAP, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue Q, void *Ptr,
                                                  cl_uint NumWait,
                                                  const cl_event *Wait,
                                                  cl_event *Event) {
  if (!isValid(Q))
    return ISS_ERR(CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!Ptr)
    return ISS_ERR(CL_INVALID_VALUE, "svm_ptr is NULL");
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  return T.run(CL_COMMAND_SVM_UNMAP, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue Q, cl_uint Num, const void **Ptrs,
                       const size_t *Sizes, cl_mem_migration_flags Flags,
                       cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkMigration(__func__, Q, Num, Ptrs, Flags))
    return E;
  for (cl_uint I = 0; I < Num; ++I) {
    if (!Ptrs[I])
      return ISS_ERR(CL_INVALID_VALUE, "an SVM pointer is NULL");
    // A range must lie in one allocation; a size of 0 (or no sizes) names
    // the whole allocation, which pocl 3.1 does not look up either.
    if (!Sizes || !Sizes[I])
      continue;
    auto R = Q->Context->findSvm(Ptrs[I]);
    if (!R || Sizes[I] > R->Size - (static_cast<const char *>(Ptrs[I]) -
                                    static_cast<const char *>(R->Base)))
      return ISS_ERR(CL_INVALID_VALUE,
                     "a range is not inside an SVM allocation of the context");
  }
  CommandTarget T = CommandTarget::queue(Q, NumWait, Wait, Event);
  if (cl_int E = T.checkWaits(__func__))
    return E;
  // One memory for host and device: migrating is only an ordering point.
  return T.run(CL_COMMAND_SVM_MIGRATE_MEM, nullptr);
}
