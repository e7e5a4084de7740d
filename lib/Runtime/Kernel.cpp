//===- Kernel.cpp - Kernel objects, arguments and their queries -----------===//
// SPDX-License-Identifier: MIT
//
// Kernels take their argument descriptions from the compiler
// (iss::KernelInfo), which always has the argument info of
// -cl-kernel-arg-info, so clGetKernelArgInfo never answers
// CL_KERNEL_ARG_INFO_NOT_AVAILABLE. clSetKernelArg checks each value
// against that description: __local arguments take a size and no value,
// buffers a cl_mem (or NULL), images an image of the argument's type,
// samplers a cl_sampler (its bits are the value), by-value arguments
// exactly their size; __global and __constant pointers also take SVM
// pointers (clSetKernelArgSVMPointer).
// Memory objects set as arguments are not retained (the specification does
// not ask it); enqueued commands take their own references.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>

using namespace iss;

_cl_kernel::~_cl_kernel() {
  if (Program)
    --Program->KernelObjects;
}

namespace iss {
void destroyObject(_cl_kernel *K) { deleteObject(K); }
} // namespace iss

static cl_kernel makeKernel(cl_program P, const KernelInfo &Info) {
  cl_kernel K = makeObject<_cl_kernel>();
  if (!K)
    return nullptr;
  K->Program = Ref<_cl_program>(P);
  ++P->KernelObjects;
  K->Info = Info;
  K->Args.resize(Info.Args.size());
  return K;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program P,
                                                  const char *Name,
                                                  cl_int *Err) {
  if (!isValid(P))
    return ISS_ERR_RET(Err, CL_INVALID_PROGRAM, "invalid program");
  if (!Name)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "kernel_name is NULL");
  std::lock_guard<std::mutex> L(P->M);
  if (!P->isExecutable())
    return ISS_ERR_RET(Err, CL_INVALID_PROGRAM_EXECUTABLE,
                       "no successfully built executable");
  for (const KernelInfo &Info : P->Kernels)
    if (Info.Name == Name) {
      cl_kernel K = makeKernel(P, Info);
      if (!K)
        return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating a kernel");
      setErrcode(Err, CL_SUCCESS);
      return K;
    }
  debugLog(DbgRuntime, "clCreateKernel: no kernel named '%s'", Name);
  return ISS_ERR_RET(Err, CL_INVALID_KERNEL_NAME, "no kernel of that name");
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program P,
                                                         cl_uint Num,
                                                         cl_kernel *Kernels,
                                                         cl_uint *NumRet) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  std::lock_guard<std::mutex> L(P->M);
  if (!P->isExecutable())
    return ISS_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
                   "no successfully built executable");
  cl_uint Count = static_cast<cl_uint>(P->Kernels.size());
  if (Kernels && Num < Count)
    return ISS_ERR(CL_INVALID_VALUE, "num_kernels is too small");
  if (Kernels)
    for (cl_uint I = 0; I < Count; ++I) {
      Kernels[I] = makeKernel(P, P->Kernels[I]);
      if (!Kernels[I]) {
        for (cl_uint J = 0; J < I; ++J)
          releaseObject(Kernels[J]);
        return ISS_ERR(CL_OUT_OF_HOST_MEMORY, "allocating kernels");
      }
    }
  if (NumRet)
    *NumRet = Count;
  return CL_SUCCESS;
}

/// A copy of \p Source with the arguments set so far, SVM pointers
/// included, and its exec info (OpenCL 2.1, core in 3.0); the two are
/// independent afterwards.
CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel Source,
                                                 cl_int *Err) {
  if (!isValid(Source))
    return ISS_ERR_RET(Err, CL_INVALID_KERNEL, "invalid kernel");
  cl_kernel K = makeKernel(Source->Program.get(), Source->Info);
  if (!K)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating a kernel");
  {
    std::lock_guard<std::mutex> L(Source->M);
    K->Args = Source->Args;
    K->ExecSvmPtrs = Source->ExecSvmPtrs;
    K->CompiledLocal = Source->CompiledLocal;
    K->CompiledFormats = Source->CompiledFormats;
    K->Compiled = Source->Compiled;
  }
  setErrcode(Err, CL_SUCCESS);
  return K;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel K) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  retainObject(K);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel K) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  releaseObject(K);
  return CL_SUCCESS;
}

/// Whether \p Type is a 3-component vector type of OpenCL C ("float3").
static bool isThreeVector(const std::string &Type) {
  static const char *const Scalars[] = {"char",  "uchar", "short", "ushort",
                                        "int",   "uint",  "long",  "ulong",
                                        "half",  "float", "double"};
  for (const char *S : Scalars)
    if (Type == std::string(S) + "3")
      return true;
  return false;
}

/// An image argument's type without qualifiers ("image2d_t"), as
/// imageTypeName names an image object's type.
static std::string baseImageType(const std::string &TypeName) {
  size_t At = TypeName.find("image");
  return At == std::string::npos ? TypeName : TypeName.substr(At);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel K, cl_uint Index,
                                               size_t Size, const void *Value) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  if (Index >= K->Info.Args.size())
    return ISS_ERR(CL_INVALID_ARG_INDEX, "arg_index is out of range");
  const KernelArgInfo &A = K->Info.Args[Index];
  KernelArgValue V;
  switch (A.Kind) {
  case ArgKind::Local:
    if (Value)
      return ISS_ERR(CL_INVALID_ARG_VALUE, "a __local argument takes NULL");
    if (Size == 0)
      return ISS_ERR(CL_INVALID_ARG_SIZE, "a __local argument needs a size");
    if (Size > theDevice()->LocalMemSize)
      return ISS_ERR(CL_INVALID_ARG_SIZE, "larger than the local memory");
    V.LocalSize = Size;
    break;
  case ArgKind::Global:
  case ArgKind::Constant:
    if (Size != sizeof(cl_mem))
      return ISS_ERR(CL_INVALID_ARG_SIZE, "a buffer argument takes a cl_mem");
    if (Value && *static_cast<const cl_mem *>(Value)) {
      cl_mem M = *static_cast<const cl_mem *>(Value);
      if (!isValid(M) || M->Type != CL_MEM_OBJECT_BUFFER)
        return ISS_ERR(CL_INVALID_MEM_OBJECT, "not a buffer");
      if (M->Context.get() != K->Program->Context.get())
        return ISS_ERR(CL_INVALID_MEM_OBJECT, "buffer from another context");
      V.Mem = M;
    }
    break;
  case ArgKind::Value:
    if (!Value)
      return ISS_ERR(CL_INVALID_ARG_VALUE, "a by-value argument needs a value");
    // A.Size is OpenCL C's sizeof (a float3 is 16 bytes). Like pocl, a
    // 3-component vector also takes its three elements alone (12 bytes for
    // a float3); the fourth, padding, is then zero.
    if (Size != A.Size && !(isThreeVector(A.TypeName) && A.Size % 4 == 0 &&
                            Size == A.Size / 4 * 3))
      return ISS_ERR(CL_INVALID_ARG_SIZE, "size differs from the type's");
    V.Bytes.assign(static_cast<const unsigned char *>(Value),
                   static_cast<const unsigned char *>(Value) + Size);
    V.Bytes.resize(A.Size, 0);
    break;
  case ArgKind::Image: {
    if (Size != sizeof(cl_mem))
      return ISS_ERR(CL_INVALID_ARG_SIZE, "an image argument takes a cl_mem");
    if (!Value)
      return ISS_ERR(CL_INVALID_ARG_VALUE, "an image argument needs a value");
    cl_mem M = *static_cast<const cl_mem *>(Value);
    if (!isValid(M) || !M->isImage())
      return ISS_ERR(CL_INVALID_MEM_OBJECT, "not an image");
    if (M->Context.get() != K->Program->Context.get())
      return ISS_ERR(CL_INVALID_MEM_OBJECT, "image from another context");
    if (imageTypeName(M->Type) != baseImageType(A.TypeName))
      return ISS_ERR(CL_INVALID_MEM_OBJECT,
                     "the image's type differs from the argument's");
    // OpenCL 3.0, clSetKernelArg: a read_only argument takes no
    // CL_MEM_WRITE_ONLY image and a write_only one no CL_MEM_READ_ONLY one.
    if ((A.AccessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
         (M->Flags & CL_MEM_WRITE_ONLY)) ||
        (A.AccessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
         (M->Flags & CL_MEM_READ_ONLY)))
      return ISS_ERR(CL_INVALID_ARG_VALUE,
                     "the image's flags conflict with the access qualifier");
    V.Mem = M;
    break;
  }
  case ArgKind::Sampler: {
    if (Size != sizeof(cl_sampler))
      return ISS_ERR(CL_INVALID_ARG_SIZE,
                     "a sampler argument takes a cl_sampler");
    if (!Value)
      return ISS_ERR(CL_INVALID_ARG_VALUE, "a sampler argument needs a value");
    cl_sampler S = *static_cast<const cl_sampler *>(Value);
    if (!isValid(S))
      return ISS_ERR(CL_INVALID_SAMPLER, "not a sampler");
    if (S->Context.get() != K->Program->Context.get())
      return ISS_ERR(CL_INVALID_SAMPLER, "sampler from another context");
    // A sampler never changes: its bits are the argument's value.
    uintptr_t Bits = S->deviceBits();
    V.Bytes.assign(reinterpret_cast<const unsigned char *>(&Bits),
                   reinterpret_cast<const unsigned char *>(&Bits) +
                       sizeof(Bits));
    break;
  }
  }
  V.IsSet = true;
  std::lock_guard<std::mutex> L(K->M);
  K->Args[Index] = std::move(V);
  return CL_SUCCESS;
}

/// Any pointer is taken, inside an SVM allocation or not, as pocl 3.1
/// takes it: the kernel gets it as is.
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel K,
                                                         cl_uint Index,
                                                         const void *Value) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  if (Index >= K->Info.Args.size())
    return ISS_ERR(CL_INVALID_ARG_INDEX, "arg_index is out of range");
  ArgKind Kind = K->Info.Args[Index].Kind;
  if (Kind != ArgKind::Global && Kind != ArgKind::Constant)
    return ISS_ERR(CL_INVALID_ARG_VALUE,
                   "not a pointer to __global or __constant memory");
  KernelArgValue V;
  V.IsSet = true;
  V.IsSvm = true;
  V.SvmPtr = const_cast<void *>(Value);
  std::lock_guard<std::mutex> L(K->M);
  K->Args[Index] = std::move(V);
  return CL_SUCCESS;
}

/// The device's memory is the host's, so kernels reach every SVM
/// allocation without being told; the pointers are kept for clCloneKernel.
/// Fine-grained system SVM is not reported, so it cannot be asked for.
CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel K,
                                                    cl_kernel_exec_info Param,
                                                    size_t Size,
                                                    const void *Value) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  switch (Param) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
    if (Size % sizeof(void *) || (Size && !Value))
      return ISS_ERR(CL_INVALID_VALUE,
                     "param_value is not an array of pointers");
    auto *Ptrs = static_cast<void *const *>(Value);
    std::lock_guard<std::mutex> L(K->M);
    K->ExecSvmPtrs.assign(Ptrs, Ptrs + Size / sizeof(void *));
    return CL_SUCCESS;
  }
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (Size != sizeof(cl_bool) || !Value)
      return ISS_ERR(CL_INVALID_VALUE, "param_value is not a cl_bool");
    if (*static_cast<const cl_bool *>(Value))
      return ISS_ERR(CL_INVALID_OPERATION,
                     "the device has no fine-grained system SVM");
    return CL_SUCCESS;
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_kernel_exec_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel K,
                                                cl_kernel_info Param,
                                                size_t Size, void *Value,
                                                size_t *SizeRet) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  switch (Param) {
  case CL_KERNEL_FUNCTION_NAME:
    return returnString(Size, Value, SizeRet, K->Info.Name);
  case CL_KERNEL_NUM_ARGS:
    return returnValue(Size, Value, SizeRet, cl_uint(K->Info.Args.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(K->RefCount.load()));
  case CL_KERNEL_CONTEXT:
    return returnValue(Size, Value, SizeRet, K->Program->Context.get());
  case CL_KERNEL_PROGRAM:
    return returnValue(Size, Value, SizeRet, K->Program.get());
  case CL_KERNEL_ATTRIBUTES:
    return returnString(Size, Value, SizeRet, K->Info.Attributes);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_kernel_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel K, cl_uint Index,
                                                   cl_kernel_arg_info Param,
                                                   size_t Size, void *Value,
                                                   size_t *SizeRet) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  if (Index >= K->Info.Args.size())
    return ISS_ERR(CL_INVALID_ARG_INDEX, "arg_index is out of range");
  const KernelArgInfo &A = K->Info.Args[Index];
  switch (Param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
    cl_kernel_arg_address_qualifier Q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    if (A.Kind == ArgKind::Global || A.Kind == ArgKind::Image)
      Q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    else if (A.Kind == ArgKind::Constant)
      Q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    else if (A.Kind == ArgKind::Local)
      Q = CL_KERNEL_ARG_ADDRESS_LOCAL;
    return returnValue(Size, Value, SizeRet, Q);
  }
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return returnValue(
        Size, Value, SizeRet,
        cl_kernel_arg_access_qualifier(
            A.AccessQualifier ? A.AccessQualifier : CL_KERNEL_ARG_ACCESS_NONE));
  case CL_KERNEL_ARG_TYPE_NAME:
    return returnString(Size, Value, SizeRet, A.TypeName);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return returnValue(Size, Value, SizeRet,
                       cl_kernel_arg_type_qualifier(A.TypeQualifier));
  case CL_KERNEL_ARG_NAME:
    return returnString(Size, Value, SizeRet, A.Name);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_kernel_arg_info");
  }
}

namespace iss {
/// The __local bytes a launch of \p K needs: its __local arguments and its
/// automatic __local variables, each 64-byte aligned as the device lays
/// them out.
size_t kernelLocalBytes(cl_kernel K) {
  size_t Bytes = 0;
  std::lock_guard<std::mutex> L(K->M);
  for (size_t I = 0; I < K->Args.size(); ++I)
    if (K->Info.Args[I].Kind == ArgKind::Local)
      Bytes += (K->Args[I].LocalSize + 63) / 64 * 64;
  for (const auto &[Size, Align] : K->Info.AutoLocals)
    Bytes = (Bytes + std::max<size_t>(Align, 64) - 1) /
                std::max<size_t>(Align, 64) * std::max<size_t>(Align, 64) +
            Size;
  return Bytes;
}

/// CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: the vector width, which
/// POCL_ISS_VECTOR_WIDTH may override.
size_t preferredMultiple(cl_device_id D) {
  unsigned W = settings().VectorWidth;
  return W ? W : D->VectorWidthInt;
}
} // namespace iss

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel K, cl_device_id D, cl_kernel_work_group_info Param, size_t Size,
    void *Value, size_t *SizeRet) {
  if (!isValid(K))
    return ISS_ERR(CL_INVALID_KERNEL, "invalid kernel");
  const auto &Devs = K->Program->Devices;
  if (D ? (!isValid(D) || !deviceIn(Devs, D)) : Devs.size() != 1)
    return ISS_ERR(CL_INVALID_DEVICE, "device not associated with the kernel");
  cl_device_id Dev = D ? D : Devs[0];
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE: {
    // With reqd_work_group_size, that is the only size that can run.
    const size_t *R = K->Info.ReqdWorkGroupSize;
    size_t WG = Dev->MaxWorkGroupSize;
    if (R[0] || R[1] || R[2])
      WG = std::max<size_t>(R[0], 1) * std::max<size_t>(R[1], 1) *
           std::max<size_t>(R[2], 1);
    return returnValue(Size, Value, SizeRet, WG);
  }
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return returnInfo(Size, Value, SizeRet, K->Info.ReqdWorkGroupSize,
                      sizeof(K->Info.ReqdWorkGroupSize));
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return returnValue(Size, Value, SizeRet, cl_ulong(kernelLocalBytes(K)));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return returnValue(Size, Value, SizeRet, preferredMultiple(Dev));
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return returnValue(Size, Value, SizeRet, cl_ulong(0));
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return ISS_ERR(CL_INVALID_VALUE,
                   "only for custom devices and built-in kernels");
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_kernel_work_group_info");
  }
}
