//===- Unsupported.cpp - Entries of features the device does not have -----===//
// SPDX-License-Identifier: MIT
//
// The ICD dispatch table has a slot for every entry of every OpenCL version
// and of the sharing extensions. The device reports OpenCL 3.0 without most
// of its optional features (pipes, IL, sub-groups, device-side queues,
// program-scope constructors; SVM is there, Svm.cpp): their entries, and the
// GL/EGL sharing ones, exist so that no slot is empty; they check the handle
// they are given (CL_INVALID_CONTEXT, CL_INVALID_COMMAND_QUEUE, ...) and then
// answer CL_INVALID_OPERATION as OpenCL 3.0 says for a device without the
// feature, setting errcode_ret where a handle is returned.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

// The table must name deprecated entries too (clSetProgramReleaseCallback).
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

using namespace iss;

#define ISS_REFUSE(Why) return ISS_ERR(CL_INVALID_OPERATION, Why)
#define ISS_REFUSE_RET(Err, Why)                                               \
  return ISS_ERR_RET(Err, CL_INVALID_OPERATION, Why)

// The handle an entry works on is checked first: an invalid one is its
// CL_INVALID_* code whether or not the feature exists.
#define ISS_CHECK(Obj, Code)                                                   \
  do {                                                                         \
    if (!isValid(Obj))                                                         \
      return ISS_ERR(Code, "invalid " #Obj);                                   \
  } while (0)
#define ISS_CHECK_RET(Obj, Err, Code)                                          \
  do {                                                                         \
    if (!isValid(Obj))                                                         \
      return ISS_ERR_RET(Err, Code, "invalid " #Obj);                          \
  } while (0)

// OpenCL 2.0.
CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context Context, cl_mem_flags,
                                             cl_uint, cl_uint,
                                             const cl_pipe_properties *,
                                             cl_int *Err) {
  ISS_CHECK_RET(Context, Err, CL_INVALID_CONTEXT);
  ISS_REFUSE_RET(Err, "pipes are not supported");
}
/// No memory object is a pipe (CL_PIPE_PROPERTIES and the others included).
CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t,
                                              void *, size_t *) {
  return ISS_ERR(CL_INVALID_MEM_OBJECT, "not a pipe");
}

// OpenCL 2.1 and 2.2.
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context Context,
                                                          const void *, size_t,
                                                          cl_int *Err) {
  ISS_CHECK_RET(Context, Err, CL_INVALID_CONTEXT);
  ISS_REFUSE_RET(Err, "no device in the context takes IL programs");
}
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(
    cl_kernel Kernel, cl_device_id Device, cl_kernel_sub_group_info, size_t,
    const void *, size_t, void *, size_t *) {
  ISS_CHECK(Kernel, CL_INVALID_KERNEL);
  if (Device && !isValid(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "invalid device");
  ISS_REFUSE("sub-groups are not supported");
}
static cl_int CL_API_CALL getKernelSubGroupInfoKHR(cl_kernel Kernel,
                                                   cl_device_id,
                                                   cl_kernel_sub_group_info,
                                                   size_t, const void *, size_t,
                                                   void *, size_t *) {
  ISS_CHECK(Kernel, CL_INVALID_KERNEL);
  ISS_REFUSE("cl_khr_subgroups is not supported");
}
CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(
    cl_context Context, cl_device_id Device, cl_command_queue) {
  ISS_CHECK(Context, CL_INVALID_CONTEXT);
  if (!isValid(Device) || !Context->hasDevice(Device))
    return ISS_ERR(CL_INVALID_DEVICE, "device not in the context");
  ISS_REFUSE("device-side queues are not supported");
}
/// Deprecated by 3.0, which lets a device without program-scope global
/// constructors and destructors refuse it, as pocl 3.1 does (pocl answers
/// CL_INVALID_OPERATION before it checks anything).
CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program Program, void(CL_CALLBACK *Fn)(cl_program, void *), void *) {
  ISS_CHECK(Program, CL_INVALID_PROGRAM);
  if (!Fn)
    return ISS_ERR(CL_INVALID_VALUE, "pfn_notify is NULL");
  ISS_REFUSE("no program-scope global constructors or destructors");
}
CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(
    cl_program Program, cl_uint, size_t, const void *) {
  ISS_CHECK(Program, CL_INVALID_PROGRAM);
  ISS_REFUSE("no device of the program takes IL programs");
}

// cl_ext_device_fission (the pre-1.2 sub-devices).
static cl_int CL_API_CALL
createSubDevicesEXT(cl_device_id, const cl_device_partition_property_ext *,
                    cl_uint, cl_device_id *, cl_uint *) {
  ISS_REFUSE("cl_ext_device_fission is not supported");
}
static cl_int CL_API_CALL retainDeviceEXT(cl_device_id) {
  ISS_REFUSE("cl_ext_device_fission is not supported");
}

// cl_khr_gl_sharing and cl_khr_egl_*: no GL or EGL context can be ours.
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context, cl_mem_flags,
                                                     cl_GLuint, cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture(cl_context, cl_mem_flags,
                                                      cl_GLenum, cl_GLint,
                                                      cl_GLuint, cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context,
                                                        cl_mem_flags, cl_GLenum,
                                                        cl_GLint, cl_GLuint,
                                                        cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context,
                                                        cl_mem_flags, cl_GLenum,
                                                        cl_GLint, cl_GLuint,
                                                        cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context,
                                                           cl_mem_flags,
                                                           cl_GLuint,
                                                           cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_int CL_API_CALL clGetGLObjectInfo(cl_mem, cl_gl_object_type *,
                                                  cl_GLuint *) {
  return ISS_ERR(CL_INVALID_MEM_OBJECT, "not a GL object");
}
CL_API_ENTRY cl_int CL_API_CALL clGetGLTextureInfo(cl_mem, cl_gl_texture_info,
                                                   size_t, void *, size_t *) {
  return ISS_ERR(CL_INVALID_MEM_OBJECT, "not a GL object");
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue Queue, cl_uint, const cl_mem *,
                          cl_uint, const cl_event *, cl_event *) {
  ISS_CHECK(Queue, CL_INVALID_COMMAND_QUEUE);
  return ISS_ERR(CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue Queue, cl_uint, const cl_mem *,
                          cl_uint, const cl_event *, cl_event *) {
  ISS_CHECK(Queue, CL_INVALID_COMMAND_QUEUE);
  return ISS_ERR(CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *, cl_gl_context_info, size_t,
                      void *, size_t *) {
  ISS_REFUSE("cl_khr_gl_sharing is not supported");
}
CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context,
                                                             cl_GLsync,
                                                             cl_int *Err) {
  return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "not a GL-sharing context");
}
CL_API_ENTRY cl_mem CL_API_CALL clCreateFromEGLImageKHR(
    cl_context Context, CLeglDisplayKHR, CLeglImageKHR, cl_mem_flags,
    const cl_egl_image_properties_khr *, cl_int *Err) {
  ISS_CHECK_RET(Context, Err, CL_INVALID_CONTEXT);
  ISS_REFUSE_RET(Err, "cl_khr_egl_image is not supported");
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireEGLObjectsKHR(cl_command_queue Queue, cl_uint, const cl_mem *,
                              cl_uint, const cl_event *, cl_event *) {
  ISS_CHECK(Queue, CL_INVALID_COMMAND_QUEUE);
  ISS_REFUSE("cl_khr_egl_image is not supported");
}
CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseEGLObjectsKHR(cl_command_queue Queue, cl_uint, const cl_mem *,
                              cl_uint, const cl_event *, cl_event *) {
  ISS_CHECK(Queue, CL_INVALID_COMMAND_QUEUE);
  ISS_REFUSE("cl_khr_egl_image is not supported");
}
CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(
    cl_context Context, CLeglSyncKHR, CLeglDisplayKHR, cl_int *Err) {
  ISS_CHECK_RET(Context, Err, CL_INVALID_CONTEXT);
  ISS_REFUSE_RET(Err, "cl_khr_egl_event is not supported");
}

namespace iss {
/// The slots of this file whose entries have no public name of their own.
void fillUnsupportedSlots(cl_icd_dispatch &D) {
  D.clGetKernelSubGroupInfoKHR = getKernelSubGroupInfoKHR;
  D.clCreateSubDevicesEXT = createSubDevicesEXT;
  D.clRetainDeviceEXT = retainDeviceEXT;
  D.clReleaseDeviceEXT = retainDeviceEXT;
}
} // namespace iss
