//===- Context.cpp - clCreateContext and friends --------------------------===//
// SPDX-License-Identifier: MIT
//
// Contexts: property lists are validated as the specification lists them
// (CL_CONTEXT_PLATFORM must name our platform, no duplicates, no unknown
// keys); the notification callback is kept and reported through
// clGetContextInfo's properties. A context holds the devices it was given,
// sub-devices included, and retains them: CL_CONTEXT_DEVICES lists them
// (pocl 3.1 lists their root device instead). Destructor callbacks (OpenCL
// 3.0) run in reverse order of registration when the last reference, the
// application's or one of the objects made in the context, is gone.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

#include <algorithm>

using namespace iss;

using NotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t,
                                     void *);

bool _cl_context::hasDevice(cl_device_id D) const {
  return deviceIn(Devices, D);
}

_cl_context::~_cl_context() {
  Destructors.run(this);
  for (cl_device_id D : Devices)
    releaseObject(D);
}

namespace iss {
void destroyObject(_cl_context *C) { deleteObject(C); }
} // namespace iss

/// Checks a context property list; stores a copy (0-terminated) in \p Out.
static cl_int checkProperties(const char *Func,
                              const cl_context_properties *Props,
                              std::vector<cl_context_properties> &Out) {
  Out.clear();
  if (!Props)
    return CL_SUCCESS;
  bool HavePlatform = false, HaveSync = false;
  for (const cl_context_properties *P = Props; *P; P += 2) {
    switch (P[0]) {
    case CL_CONTEXT_PLATFORM:
      if (HavePlatform)
        return apiError(Func, CL_INVALID_PROPERTY,
                        "CL_CONTEXT_PLATFORM given twice");
      HavePlatform = true;
      if (!isValid(reinterpret_cast<cl_platform_id>(P[1])))
        return apiError(Func, CL_INVALID_PLATFORM,
                        "CL_CONTEXT_PLATFORM is not a pocl-iss platform");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (HaveSync)
        return apiError(Func, CL_INVALID_PROPERTY,
                        "CL_CONTEXT_INTEROP_USER_SYNC given twice");
      HaveSync = true;
      break;
    default:
      return apiError(Func, CL_INVALID_PROPERTY, "unknown context property");
    }
    Out.push_back(P[0]);
    Out.push_back(P[1]);
  }
  Out.push_back(0);
  return CL_SUCCESS;
}

/// A context of \p Devices (valid, without duplicates), which it retains.
static cl_context makeContext(std::vector<cl_context_properties> Props,
                              const std::vector<cl_device_id> &Devices,
                              NotifyFn Notify, void *Data, cl_int *Err) {
  cl_context C = makeObject<_cl_context>();
  if (!C)
    return ISS_ERR_RET(Err, CL_OUT_OF_HOST_MEMORY, "allocating the context");
  C->Properties = std::move(Props);
  for (cl_device_id D : Devices) {
    retainObject(D);
    C->Devices.push_back(D);
  }
  C->Notify = Notify;
  C->NotifyData = Data;
  setErrcode(Err, CL_SUCCESS);
  return C;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *Properties, cl_uint NumDevices,
    const cl_device_id *Devices, NotifyFn Notify, void *UserData, cl_int *Err) {
  if (!Devices || NumDevices == 0)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "no devices given");
  if (!Notify && UserData)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "user_data without pfn_notify");
  std::vector<cl_context_properties> Props;
  if (cl_int E = checkProperties(__func__, Properties, Props))
    return setErrcode(Err, E), nullptr;
  // The devices as given, root or sub-devices; duplicates are ignored.
  std::vector<cl_device_id> List;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    if (!isValid(Devices[I]))
      return ISS_ERR_RET(Err, CL_INVALID_DEVICE, "invalid device in list");
    if (std::find(List.begin(), List.end(), Devices[I]) == List.end())
      List.push_back(Devices[I]);
  }
  if (!theDevice()->Available)
    return ISS_ERR_RET(Err, CL_DEVICE_NOT_AVAILABLE,
                       "the device is disabled by POCL_DEVICES");
  return makeContext(std::move(Props), List, Notify, UserData, Err);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *Properties, cl_device_type Type,
    NotifyFn Notify, void *UserData, cl_int *Err) {
  if (!Notify && UserData)
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "user_data without pfn_notify");
  std::vector<cl_context_properties> Props;
  if (cl_int E = checkProperties(__func__, Properties, Props))
    return setErrcode(Err, E), nullptr;
  const cl_device_type Known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                               CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                               CL_DEVICE_TYPE_CUSTOM;
  if (Type != CL_DEVICE_TYPE_ALL && (Type & ~Known || !Type))
    return ISS_ERR_RET(Err, CL_INVALID_DEVICE_TYPE, "unknown device type");
  if (!(Type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)) ||
      !theDevice()->Available)
    return ISS_ERR_RET(Err, CL_DEVICE_NOT_FOUND, "no device of that type");
  return makeContext(std::move(Props), {theDevice()}, Notify, UserData, Err);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context C) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  retainObject(C);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context C) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  releaseObject(C);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context C,
                                                 cl_context_info Param,
                                                 size_t Size, void *Value,
                                                 size_t *SizeRet) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  switch (Param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(C->RefCount.load()));
  case CL_CONTEXT_NUM_DEVICES:
    return returnValue(Size, Value, SizeRet, cl_uint(C->Devices.size()));
  case CL_CONTEXT_DEVICES:
    return returnArray(Size, Value, SizeRet, C->Devices);
  case CL_CONTEXT_PROPERTIES:
    return returnArray(Size, Value, SizeRet, C->Properties);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_context_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context C, void(CL_CALLBACK *Fn)(cl_context, void *), void *Data) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  if (!Fn)
    return ISS_ERR(CL_INVALID_VALUE, "pfn_notify is NULL");
  C->Destructors.add(Fn, Data);
  return CL_SUCCESS;
}
