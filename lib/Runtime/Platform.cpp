//===- Platform.cpp - clGetPlatformIDs, clGetPlatformInfo -----------------===//
// SPDX-License-Identifier: MIT
//
// Our one platform: OpenCL 3.0, full profile, as pocl 3.1 reports itself,
// named "pocl-iss" so that applications and the tests can pick it out of the
// ICD loader's list (POCL_PLATFORM_NAME_OVERRIDE renames it, as in later
// pocl versions). Its host timer is the clock of event profiling, so it
// supports device and host timer synchronization (Device.cpp).
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

using namespace iss;

namespace iss {

cl_platform_id thePlatform() {
  // Never destroyed: handles stay valid for the whole process.
  static cl_platform_id P = [] {
    auto *Obj = new _cl_platform_id();
    registerObject(Obj, ObjKind::Platform);
    return Obj;
  }();
  return P;
}

void destroyObject(_cl_platform_id *) {}

/// The implementation behind the exported clGetPlatformInfo; the dispatch
/// table points here so that a loader's symbol of the same name can never
/// be called back by mistake.
cl_int getPlatformInfo(cl_platform_id Platform, cl_platform_info Param,
                       size_t Size, void *Value, size_t *SizeRet) {
  if (Platform && Platform != thePlatform())
    return ISS_ERR(CL_INVALID_PLATFORM, "not a pocl-iss platform");
  switch (Param) {
  case CL_PLATFORM_PROFILE:
    return returnString(Size, Value, SizeRet, "FULL_PROFILE");
  case CL_PLATFORM_VERSION:
    return returnString(Size, Value, SizeRet,
                        "OpenCL 3.0 pocl-iss " POCL_ISS_VERSION
                        "  Linux, LLVM " POCL_ISS_LLVM_VERSION);
  case CL_PLATFORM_NUMERIC_VERSION:
    return returnValue(Size, Value, SizeRet,
                       cl_version(CL_MAKE_VERSION(3, 0, 0)));
  case CL_PLATFORM_NAME:
    return returnString(Size, Value, SizeRet, settings().PlatformName);
  case CL_PLATFORM_VENDOR:
    return returnString(Size, Value, SizeRet, "The pocl-iss project");
  // As pocl 3.1: pocl's content-size extension is the platform's
  // (clSetContentSizeBufferPoCL, Buffer.cpp).
  case CL_PLATFORM_EXTENSIONS:
    return returnString(Size, Value, SizeRet,
                        "cl_khr_icd cl_pocl_content_size");
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return returnArray(Size, Value, SizeRet,
                       nameVersions({"cl_khr_icd", "cl_pocl_content_size"},
                                    CL_MAKE_VERSION(1, 0, 0)));
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return returnString(Size, Value, SizeRet, "POCL_ISS");
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return returnValue(Size, Value, SizeRet, hostTimerResolution());
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_platform_info");
  }
}

cl_int getPlatformIDs(cl_uint NumEntries, cl_platform_id *Platforms,
                      cl_uint *NumPlatforms) {
  if ((NumEntries == 0 && Platforms) || (!Platforms && !NumPlatforms))
    return ISS_ERR(CL_INVALID_VALUE, "bad num_entries/platforms");
  if (Platforms)
    Platforms[0] = thePlatform();
  if (NumPlatforms)
    *NumPlatforms = 1;
  return CL_SUCCESS;
}

} // namespace iss

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint NumEntries,
                                                 cl_platform_id *Platforms,
                                                 cl_uint *NumPlatforms) {
  return getPlatformIDs(NumEntries, Platforms, NumPlatforms);
}
