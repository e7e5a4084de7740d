//===- ICD.cpp - cl_khr_icd: the dispatch table and the exported entries --===//
// SPDX-License-Identifier: MIT
//
// The ICD loader (ocl-icd) finds us through clGetExtensionFunctionAddress
// ("clIcdGetPlatformIDsKHR") and then calls every entry through the
// dispatch table each handle starts with. Only four symbols are exported
// (exports.map). The table points at internal functions even for exported
// names: a dlopen()ed library's own references to clGetPlatformInfo could
// otherwise bind to the loader's function of that name and loop.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

// The table must name deprecated entries too (clSetProgramReleaseCallback).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include <cstring>

using namespace iss;

namespace iss {
cl_int getPlatformInfo(cl_platform_id, cl_platform_info, size_t, void *,
                       size_t *);
cl_int getPlatformIDs(cl_uint, cl_platform_id *, cl_uint *);
void fillUnsupportedSlots(cl_icd_dispatch &D);
} // namespace iss

static cl_int CL_API_CALL icdGetPlatformIDs(cl_uint NumEntries,
                                            cl_platform_id *Platforms,
                                            cl_uint *NumPlatforms) {
  return getPlatformIDs(NumEntries, Platforms, NumPlatforms);
}

static cl_int CL_API_CALL platformInfo(cl_platform_id P, cl_platform_info I,
                                       size_t S, void *V, size_t *R) {
  return getPlatformInfo(P, I, S, V, R);
}

static void *extensionFunction(const char *Name) {
  if (!Name)
    return nullptr;
  if (std::strcmp(Name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&icdGetPlatformIDs);
  if (std::strcmp(Name, "clSetContentSizeBufferPoCL") == 0)
    return reinterpret_cast<void *>(&setContentSizeBuffer);
  return commandBufferFunction(Name);
}

static void *CL_API_CALL getExtensionFunctionAddress(const char *Name) {
  return extensionFunction(Name);
}

static void *CL_API_CALL
getExtensionFunctionAddressForPlatform(cl_platform_id P, const char *Name) {
  if (P && !isValid(P))
    return nullptr;
  return extensionFunction(Name);
}

static cl_icd_dispatch makeTable() {
  cl_icd_dispatch D;
  std::memset(&D, 0, sizeof(D));
#define ISS_SLOT(Name) D.Name = Name;
  D.clGetPlatformIDs = icdGetPlatformIDs;
  D.clGetPlatformInfo = platformInfo;
  D.clGetExtensionFunctionAddress = getExtensionFunctionAddress;
  D.clGetExtensionFunctionAddressForPlatform =
      getExtensionFunctionAddressForPlatform;
  // OpenCL 1.0
  ISS_SLOT(clGetDeviceIDs)
  ISS_SLOT(clGetDeviceInfo)
  ISS_SLOT(clCreateContext)
  ISS_SLOT(clCreateContextFromType)
  ISS_SLOT(clRetainContext)
  ISS_SLOT(clReleaseContext)
  ISS_SLOT(clGetContextInfo)
  ISS_SLOT(clCreateCommandQueue)
  ISS_SLOT(clRetainCommandQueue)
  ISS_SLOT(clReleaseCommandQueue)
  ISS_SLOT(clGetCommandQueueInfo)
  ISS_SLOT(clSetCommandQueueProperty)
  ISS_SLOT(clCreateBuffer)
  ISS_SLOT(clCreateImage2D)
  ISS_SLOT(clCreateImage3D)
  ISS_SLOT(clRetainMemObject)
  ISS_SLOT(clReleaseMemObject)
  ISS_SLOT(clGetSupportedImageFormats)
  ISS_SLOT(clGetMemObjectInfo)
  ISS_SLOT(clGetImageInfo)
  ISS_SLOT(clCreateSampler)
  ISS_SLOT(clRetainSampler)
  ISS_SLOT(clReleaseSampler)
  ISS_SLOT(clGetSamplerInfo)
  ISS_SLOT(clCreateProgramWithSource)
  ISS_SLOT(clCreateProgramWithBinary)
  ISS_SLOT(clRetainProgram)
  ISS_SLOT(clReleaseProgram)
  ISS_SLOT(clBuildProgram)
  ISS_SLOT(clUnloadCompiler)
  ISS_SLOT(clGetProgramInfo)
  ISS_SLOT(clGetProgramBuildInfo)
  ISS_SLOT(clCreateKernel)
  ISS_SLOT(clCreateKernelsInProgram)
  ISS_SLOT(clRetainKernel)
  ISS_SLOT(clReleaseKernel)
  ISS_SLOT(clSetKernelArg)
  ISS_SLOT(clGetKernelInfo)
  ISS_SLOT(clGetKernelWorkGroupInfo)
  ISS_SLOT(clWaitForEvents)
  ISS_SLOT(clGetEventInfo)
  ISS_SLOT(clRetainEvent)
  ISS_SLOT(clReleaseEvent)
  ISS_SLOT(clGetEventProfilingInfo)
  ISS_SLOT(clFlush)
  ISS_SLOT(clFinish)
  ISS_SLOT(clEnqueueReadBuffer)
  ISS_SLOT(clEnqueueWriteBuffer)
  ISS_SLOT(clEnqueueCopyBuffer)
  ISS_SLOT(clEnqueueReadImage)
  ISS_SLOT(clEnqueueWriteImage)
  ISS_SLOT(clEnqueueCopyImage)
  ISS_SLOT(clEnqueueCopyImageToBuffer)
  ISS_SLOT(clEnqueueCopyBufferToImage)
  ISS_SLOT(clEnqueueMapBuffer)
  ISS_SLOT(clEnqueueMapImage)
  ISS_SLOT(clEnqueueUnmapMemObject)
  ISS_SLOT(clEnqueueNDRangeKernel)
  ISS_SLOT(clEnqueueTask)
  ISS_SLOT(clEnqueueNativeKernel)
  ISS_SLOT(clEnqueueMarker)
  ISS_SLOT(clEnqueueWaitForEvents)
  ISS_SLOT(clEnqueueBarrier)
  // cl_khr_gl_sharing
  ISS_SLOT(clCreateFromGLBuffer)
  ISS_SLOT(clCreateFromGLTexture2D)
  ISS_SLOT(clCreateFromGLTexture3D)
  ISS_SLOT(clCreateFromGLRenderbuffer)
  ISS_SLOT(clGetGLObjectInfo)
  ISS_SLOT(clGetGLTextureInfo)
  ISS_SLOT(clEnqueueAcquireGLObjects)
  ISS_SLOT(clEnqueueReleaseGLObjects)
  ISS_SLOT(clGetGLContextInfoKHR)
  // OpenCL 1.1
  ISS_SLOT(clSetEventCallback)
  ISS_SLOT(clCreateSubBuffer)
  ISS_SLOT(clSetMemObjectDestructorCallback)
  ISS_SLOT(clCreateUserEvent)
  ISS_SLOT(clSetUserEventStatus)
  ISS_SLOT(clEnqueueReadBufferRect)
  ISS_SLOT(clEnqueueWriteBufferRect)
  ISS_SLOT(clEnqueueCopyBufferRect)
  ISS_SLOT(clCreateEventFromGLsyncKHR)
  // OpenCL 1.2
  ISS_SLOT(clCreateSubDevices)
  ISS_SLOT(clRetainDevice)
  ISS_SLOT(clReleaseDevice)
  ISS_SLOT(clCreateImage)
  ISS_SLOT(clCreateProgramWithBuiltInKernels)
  ISS_SLOT(clCompileProgram)
  ISS_SLOT(clLinkProgram)
  ISS_SLOT(clUnloadPlatformCompiler)
  ISS_SLOT(clGetKernelArgInfo)
  ISS_SLOT(clEnqueueFillBuffer)
  ISS_SLOT(clEnqueueFillImage)
  ISS_SLOT(clEnqueueMigrateMemObjects)
  ISS_SLOT(clEnqueueMarkerWithWaitList)
  ISS_SLOT(clEnqueueBarrierWithWaitList)
  ISS_SLOT(clCreateFromGLTexture)
  // cl_khr_egl_image, cl_khr_egl_event
  ISS_SLOT(clCreateFromEGLImageKHR)
  ISS_SLOT(clEnqueueAcquireEGLObjectsKHR)
  ISS_SLOT(clEnqueueReleaseEGLObjectsKHR)
  ISS_SLOT(clCreateEventFromEGLSyncKHR)
  // OpenCL 2.0
  ISS_SLOT(clCreateCommandQueueWithProperties)
  ISS_SLOT(clCreatePipe)
  ISS_SLOT(clGetPipeInfo)
  ISS_SLOT(clSVMAlloc)
  ISS_SLOT(clSVMFree)
  ISS_SLOT(clEnqueueSVMFree)
  ISS_SLOT(clEnqueueSVMMemcpy)
  ISS_SLOT(clEnqueueSVMMemFill)
  ISS_SLOT(clEnqueueSVMMap)
  ISS_SLOT(clEnqueueSVMUnmap)
  ISS_SLOT(clCreateSamplerWithProperties)
  ISS_SLOT(clSetKernelArgSVMPointer)
  ISS_SLOT(clSetKernelExecInfo)
  // OpenCL 2.1
  ISS_SLOT(clCloneKernel)
  ISS_SLOT(clCreateProgramWithIL)
  ISS_SLOT(clEnqueueSVMMigrateMem)
  ISS_SLOT(clGetDeviceAndHostTimer)
  ISS_SLOT(clGetHostTimer)
  ISS_SLOT(clGetKernelSubGroupInfo)
  ISS_SLOT(clSetDefaultDeviceCommandQueue)
  // OpenCL 2.2
  ISS_SLOT(clSetProgramReleaseCallback)
  ISS_SLOT(clSetProgramSpecializationConstant)
  // OpenCL 3.0
  ISS_SLOT(clCreateBufferWithProperties)
  ISS_SLOT(clCreateImageWithProperties)
  ISS_SLOT(clSetContextDestructorCallback)
#undef ISS_SLOT
  fillUnsupportedSlots(D);
  return D;
}

namespace iss {
cl_icd_dispatch *dispatchTable() {
  static cl_icd_dispatch Table = makeTable();
  return &Table;
}
} // namespace iss

// The exported entries (exports.map).
extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(
    cl_uint NumEntries, cl_platform_id *Platforms, cl_uint *NumPlatforms) {
  return getPlatformIDs(NumEntries, Platforms, NumPlatforms);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *N) {
  return extensionFunction(N);
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id P, const char *N) {
  return getExtensionFunctionAddressForPlatform(P, N);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id P,
                                                  cl_platform_info I, size_t S,
                                                  void *V, size_t *R) {
  return getPlatformInfo(P, I, S, V, R);
}

} // extern "C"
