//===- Program.cpp - Programs: source, binaries, build, compile, link -----===//
// SPDX-License-Identifier: MIT
//
// Programs hand their work to the kernel compiler (KernelCompiler.h):
// builds are synchronous, and a notification callback, if given, is called
// once the build is over, which the specification allows. The binaries we
// return through CL_PROGRAM_BINARIES are the compiler's container and are
// accepted back by clCreateProgramWithBinary; what kind of binary a program
// holds (compiled object, library, executable) decides what may be done
// with it next.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>
#include <sstream>

using namespace iss;

namespace iss {
void destroyObject(_cl_program *P) { deleteObject(P); }
} // namespace iss

using BuildNotify = void(CL_CALLBACK *)(cl_program, void *);

static cl_program_binary_type binaryTypeOf(BinaryKind K) {
  switch (K) {
  case BinaryKind::Compiled:
    return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case BinaryKind::Library:
    return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  case BinaryKind::Executable:
    return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  }
  return CL_PROGRAM_BINARY_TYPE_NONE;
}

/// The device-list checks clBuildProgram and clCompileProgram share.
static cl_int checkDevices(const char *Func, cl_program P, cl_uint Num,
                           const cl_device_id *List) {
  if ((Num == 0) != (List == nullptr))
    return apiError(Func, CL_INVALID_VALUE,
                    "num_devices and device_list disagree");
  for (cl_uint I = 0; I < Num; ++I)
    if (!isValid(List[I]) || !deviceIn(P->Devices, List[I]))
      return apiError(Func, CL_INVALID_DEVICE,
                      "device not associated with the program");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context C, cl_uint Count, const char **Strings,
                          const size_t *Lengths, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (Count == 0 || !Strings)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "no source strings");
  // The total length is a sum of the application's numbers: checked before
  // anything is copied (std::string would throw across the API).
  std::vector<size_t> Len(Count);
  size_t Total = 0;
  for (cl_uint I = 0; I < Count; ++I) {
    if (!Strings[I])
      return ISS_ERR_RET(Err, CL_INVALID_VALUE, "a source string is NULL");
    Len[I] = Lengths && Lengths[I] ? Lengths[I] : std::strlen(Strings[I]);
    if (!addSize(Total, Len[I], Total))
      return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                         "the source lengths add up past SIZE_MAX");
  }
  std::string Source;
  if (Total > Source.max_size())
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "the source is too long");
  for (cl_uint I = 0; I < Count; ++I)
    Source.append(Strings[I], Len[I]);
  cl_program P = makeObject<_cl_program>();
  if (!P)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating the program");
  P->Context = Ref<_cl_context>(C);
  P->Devices = C->Devices;
  P->Source = std::move(Source);
  P->HasSource = true;
  setErrcode(Err, CL_SUCCESS);
  return P;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context C, cl_uint NumDevices, const cl_device_id *Devices,
    const size_t *Lengths, const unsigned char **Binaries, cl_int *Status,
    cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (NumDevices == 0 || !Devices)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "no devices");
  for (cl_uint I = 0; I < NumDevices; ++I) {
    if (!isValid(Devices[I]) || !C->hasDevice(Devices[I]))
      return ISS_ERR_RET(Err, CL_INVALID_DEVICE, "device not in the context");
    // One binary per device: a device named twice has two (as on pocl).
    if (std::find(Devices, Devices + I, Devices[I]) != Devices + I)
      return ISS_ERR_RET(Err, CL_INVALID_DEVICE,
                         "a device is listed more than once");
  }
  if (!Lengths || !Binaries)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "lengths or binaries is NULL");
  for (cl_uint I = 0; I < NumDevices; ++I)
    if (!Lengths[I] || !Binaries[I] || Lengths[I] > size_t(PTRDIFF_MAX) ||
        Lengths[I] > UINTPTR_MAX - reinterpret_cast<uintptr_t>(Binaries[I])) {
      if (Status)
        Status[I] = CL_INVALID_VALUE;
      return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                         "an empty binary, or one past the address space");
    }
  // One device, so one binary.
  BuildResult First;
  bool AllValid = true;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    std::vector<uint8_t> Bytes(Binaries[I], Binaries[I] + Lengths[I]);
    BuildResult R = loadBinary(Bytes);
    if (Status)
      Status[I] = R.Success ? CL_SUCCESS : CL_INVALID_BINARY;
    if (!R.Success) {
      debugLog(DbgRuntime, "clCreateProgramWithBinary: %s", R.Log.c_str());
      AllValid = false;
    }
    if (I == 0) {
      First = std::move(R);
      First.Binary = std::move(Bytes);
    }
  }
  if (!AllValid)
    return ISS_ERR_RET(Err, CL_INVALID_BINARY, "not a pocl-iss binary");
  cl_program P = makeObject<_cl_program>();
  if (!P)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating the program");
  P->Context = Ref<_cl_context>(C);
  P->Devices = C->Devices;
  P->Binary = std::move(First.Binary);
  P->BinaryType = binaryTypeOf(First.Kind);
  P->Kernels = std::move(First.Kernels);
  setErrcode(Err, CL_SUCCESS);
  return P;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context C, cl_uint NumDevices, const cl_device_id *Devices,
    const char *Names, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (NumDevices == 0 || !Devices || !Names)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "no devices or kernel names");
  for (cl_uint I = 0; I < NumDevices; ++I)
    if (!isValid(Devices[I]) || !C->hasDevice(Devices[I]))
      return ISS_ERR_RET(Err, CL_INVALID_DEVICE, "device not in the context");
  return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                     "the device has no built-in kernels");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program P) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  retainObject(P);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program P) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  releaseObject(P);
  return CL_SUCCESS;
}

/// Stores a build's outcome in \p P (whose lock is held).
static void storeResult(cl_program P, BuildResult &R, const char *Options) {
  P->Options = Options ? Options : "";
  P->Log = R.Log;
  P->Compiled.clear();
  if (R.Success) {
    P->BuildStatus = CL_BUILD_SUCCESS;
    P->Binary = std::move(R.Binary);
    P->BinaryType = binaryTypeOf(R.Kind);
    P->Kernels = std::move(R.Kernels);
  } else {
    P->BuildStatus = CL_BUILD_ERROR;
    P->Binary.clear();
    P->Kernels.clear();
    P->BinaryType = CL_PROGRAM_BINARY_TYPE_NONE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program P, cl_uint NumDevices,
                                               const cl_device_id *Devices,
                                               const char *Options,
                                               BuildNotify Notify,
                                               void *UserData) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  if (cl_int E = checkDevices(__func__, P, NumDevices, Devices))
    return E;
  if (!Notify && UserData)
    return ISS_ERR(CL_INVALID_VALUE, "user_data without pfn_notify");
  if (P->Linked)
    return ISS_ERR(CL_INVALID_OPERATION,
                   "the program was made by clLinkProgram, not from source "
                   "or a binary");
  if (P->KernelObjects.load() > 0)
    return ISS_ERR(CL_INVALID_OPERATION, "kernel objects are attached");
  cl_int Result = CL_SUCCESS;
  {
    std::lock_guard<std::mutex> L(P->M);
    if (!P->HasSource && P->Binary.empty())
      return ISS_ERR(CL_INVALID_PROGRAM, "the program has no source or binary");
    BuildResult R;
    std::string Opts = Options ? Options : "";
    if (P->HasSource) {
      R = buildProgram(P->Source, Opts);
    } else if (P->BinaryType == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
      R.Success = true;
      R.Binary = P->Binary;
      R.Kind = BinaryKind::Executable;
      R.Kernels = P->Kernels;
    } else {
      R = linkPrograms({P->Binary}, Opts, false);
    }
    storeResult(P, R, Options);
    if (R.InvalidOptions)
      Result = ISS_ERR(CL_INVALID_BUILD_OPTIONS, "the options were rejected");
    else if (!R.Success)
      Result = ISS_ERR(CL_BUILD_PROGRAM_FAILURE, "see the build log");
    else if (P->BinaryType != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
      Result = ISS_ERR(CL_BUILD_PROGRAM_FAILURE, "no executable was made");
  }
  if (Notify)
    Notify(P, UserData);
  return Result;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program P, cl_uint NumDevices, const cl_device_id *Devices,
    const char *Options, cl_uint NumHeaders, const cl_program *Headers,
    const char **HeaderNames, BuildNotify Notify, void *UserData) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  if (cl_int E = checkDevices(__func__, P, NumDevices, Devices))
    return E;
  if (!Notify && UserData)
    return ISS_ERR(CL_INVALID_VALUE, "user_data without pfn_notify");
  if ((NumHeaders == 0) != (Headers == nullptr) ||
      (NumHeaders == 0) != (HeaderNames == nullptr))
    return ISS_ERR(CL_INVALID_VALUE,
                   "num_input_headers and the lists disagree");
  std::vector<HeaderSource> Hdrs;
  for (cl_uint I = 0; I < NumHeaders; ++I) {
    if (!isValid(Headers[I]))
      return ISS_ERR(CL_INVALID_PROGRAM, "invalid header program");
    if (!HeaderNames[I])
      return ISS_ERR(CL_INVALID_VALUE, "a header name is NULL");
    Hdrs.push_back({HeaderNames[I], Headers[I]->Source});
  }
  if (!P->HasSource)
    return ISS_ERR(CL_INVALID_OPERATION, "the program has no source");
  if (P->KernelObjects.load() > 0)
    return ISS_ERR(CL_INVALID_OPERATION, "kernel objects are attached");
  cl_int Result = CL_SUCCESS;
  {
    std::lock_guard<std::mutex> L(P->M);
    BuildResult R = compileProgram(P->Source, Options ? Options : "", Hdrs);
    storeResult(P, R, Options);
    if (R.InvalidOptions)
      Result =
          ISS_ERR(CL_INVALID_COMPILER_OPTIONS, "the options were rejected");
    else if (!R.Success)
      Result = ISS_ERR(CL_COMPILE_PROGRAM_FAILURE, "see the build log");
  }
  if (Notify)
    Notify(P, UserData);
  return Result;
}

static bool hasOption(const std::string &Options, const char *Name) {
  std::istringstream SS(Options);
  std::string Word;
  while (SS >> Word)
    if (Word == Name)
      return true;
  return false;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context C, cl_uint NumDevices, const cl_device_id *Devices,
              const char *Options, cl_uint NumInputs, const cl_program *Inputs,
              BuildNotify Notify, void *UserData, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if ((NumDevices == 0) != (Devices == nullptr))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                       "num_devices and device_list disagree");
  for (cl_uint I = 0; I < NumDevices; ++I)
    if (!isValid(Devices[I]) || !C->hasDevice(Devices[I]))
      return ISS_ERR_RET(Err, CL_INVALID_DEVICE, "device not in the context");
  if (!Notify && UserData)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "user_data without pfn_notify");
  if (NumInputs == 0 || !Inputs)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "no input programs");
  std::vector<std::vector<uint8_t>> Bins;
  for (cl_uint I = 0; I < NumInputs; ++I) {
    if (!isValid(Inputs[I]))
      return ISS_ERR_RET(Err, CL_INVALID_PROGRAM, "invalid input program");
    if (Inputs[I]->Context.get() != C)
      return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "input from another context");
    std::lock_guard<std::mutex> L(Inputs[I]->M);
    cl_program_binary_type T = Inputs[I]->BinaryType;
    if (T != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
        T != CL_PROGRAM_BINARY_TYPE_LIBRARY)
      return ISS_ERR_RET(Err, CL_INVALID_OPERATION,
                         "an input is not a compiled object or library");
    Bins.push_back(Inputs[I]->Binary);
  }
  std::string Opts = Options ? Options : "";
  BuildResult R = linkPrograms(Bins, Opts, hasOption(Opts, "-create-library"));
  if (R.InvalidOptions)
    return ISS_ERR_RET(Err, CL_INVALID_LINKER_OPTIONS,
                       "the options were rejected");
  cl_program P = makeObject<_cl_program>();
  if (!P)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating the program");
  P->Context = Ref<_cl_context>(C);
  P->Devices = C->Devices;
  P->Linked = true;
  {
    std::lock_guard<std::mutex> L(P->M);
    storeResult(P, R, Options);
  }
  // A failed link still returns the program, for its build log.
  setErrcode(Err, R.Success ? CL_SUCCESS
                            : apiError(__func__, CL_LINK_PROGRAM_FAILURE,
                                       "see the build log"));
  if (Notify)
    Notify(P, UserData);
  return P;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id Pl) {
  if (!isValid(Pl))
    return ISS_ERR(CL_INVALID_PLATFORM, "invalid platform");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program P,
                                                 cl_program_info Param,
                                                 size_t Size, void *Value,
                                                 size_t *SizeRet) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  std::lock_guard<std::mutex> L(P->M);
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(P->RefCount.load()));
  case CL_PROGRAM_CONTEXT:
    return returnValue(Size, Value, SizeRet, P->Context.get());
  case CL_PROGRAM_NUM_DEVICES:
    return returnValue(Size, Value, SizeRet, cl_uint(P->Devices.size()));
  case CL_PROGRAM_DEVICES:
    return returnArray(Size, Value, SizeRet, P->Devices);
  case CL_PROGRAM_SOURCE:
    return returnString(Size, Value, SizeRet, P->Source);
  case CL_PROGRAM_BINARY_SIZES:
    return returnArray(
        Size, Value, SizeRet,
        std::vector<size_t>(P->Devices.size(), P->Binary.size()));
  case CL_PROGRAM_BINARIES: {
    size_t Need = P->Devices.size() * sizeof(unsigned char *);
    if (Value) {
      if (Size < Need)
        return ISS_ERR(CL_INVALID_VALUE, "param_value_size too small");
      auto **Out = static_cast<unsigned char **>(Value);
      for (size_t I = 0; I < P->Devices.size(); ++I)
        if (Out[I] && !P->Binary.empty())
          std::memcpy(Out[I], P->Binary.data(), P->Binary.size());
    }
    if (SizeRet)
      *SizeRet = Need;
    return CL_SUCCESS;
  }
  case CL_PROGRAM_IL:
    // Programs are never made from IL: nothing to return.
    return returnInfo(Size, Value, SizeRet, nullptr, 0);
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES:
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
    // The specification asks an executable for all four; pocl 3.1 answers
    // CL_FALSE to the last two without one.
    if (!P->isExecutable())
      return ISS_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
                     "no successfully built executable");
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return returnValue(Size, Value, SizeRet, size_t(P->Kernels.size()));
    if (Param != CL_PROGRAM_KERNEL_NAMES)
      return returnValue(Size, Value, SizeRet, cl_bool(CL_FALSE));
    std::string Names;
    for (const KernelInfo &K : P->Kernels)
      Names += (Names.empty() ? "" : ";") + K.Name;
    return returnString(Size, Value, SizeRet, Names);
  }
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_program_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program P, cl_device_id D, cl_program_build_info Param,
                      size_t Size, void *Value, size_t *SizeRet) {
  if (!isValid(P))
    return ISS_ERR(CL_INVALID_PROGRAM, "invalid program");
  if (!isValid(D) || !deviceIn(P->Devices, D))
    return ISS_ERR(CL_INVALID_DEVICE, "device not associated with the program");
  std::lock_guard<std::mutex> L(P->M);
  switch (Param) {
  case CL_PROGRAM_BUILD_STATUS:
    return returnValue(Size, Value, SizeRet, P->BuildStatus);
  case CL_PROGRAM_BUILD_OPTIONS:
    return returnString(Size, Value, SizeRet, P->Options);
  case CL_PROGRAM_BUILD_LOG:
    return returnString(Size, Value, SizeRet, P->Log);
  case CL_PROGRAM_BINARY_TYPE:
    return returnValue(Size, Value, SizeRet, P->BinaryType);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    // No program-scope global variables (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE
    // is 0).
    return returnValue(Size, Value, SizeRet, size_t(0));
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_program_build_info");
  }
}
