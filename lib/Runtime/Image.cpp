//===- Image.cpp - Images and samplers: present, and refused --------------===//
// SPDX-License-Identifier: MIT
//
// The device has no image support (CL_DEVICE_IMAGE_SUPPORT is false), but
// the entries exist and answer as the specification says for such a device:
// creating an image or sampler is CL_INVALID_OPERATION, there are no
// supported formats, and image commands have no valid image to work on.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Objects.h"

using namespace iss;

namespace iss {
void destroyObject(_cl_sampler *S) { deleteObject(S); }
} // namespace iss

static cl_mem refuseImage(const char *Func, cl_context C, cl_int *Err) {
  if (!isValid(C))
    return setErrcode(Err,
                      apiError(Func, CL_INVALID_CONTEXT, "invalid context")),
           nullptr;
  return setErrcode(Err, apiError(Func, CL_INVALID_OPERATION,
                                  "no device in the context supports images")),
         nullptr;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context C, cl_mem_flags,
                                              const cl_image_format *,
                                              const cl_image_desc *, void *,
                                              cl_int *Err) {
  return refuseImage(__func__, C, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context C, const cl_mem_properties *Props, cl_mem_flags,
    const cl_image_format *, const cl_image_desc *, void *, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  std::vector<cl_mem_properties> Copy;
  if (cl_int E = checkMemProperties(__func__, Props, Copy))
    return setErrcode(Err, E), nullptr;
  return refuseImage(__func__, C, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context C, cl_mem_flags,
                                                const cl_image_format *, size_t,
                                                size_t, size_t, void *,
                                                cl_int *Err) {
  return refuseImage(__func__, C, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context C, cl_mem_flags,
                                                const cl_image_format *, size_t,
                                                size_t, size_t, size_t, size_t,
                                                void *, cl_int *Err) {
  return refuseImage(__func__, C, Err);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(
    cl_context C, cl_mem_flags Flags, cl_mem_object_type Type, cl_uint Num,
    cl_image_format *Formats, cl_uint *NumRet) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  if (!validMemFlags(Flags))
    return ISS_ERR(CL_INVALID_VALUE, "invalid or conflicting flags");
  switch (Type) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    break;
  default:
    return ISS_ERR(CL_INVALID_VALUE, "not an image type");
  }
  if (Num == 0 && Formats)
    return ISS_ERR(CL_INVALID_VALUE, "num_entries is 0");
  if (NumRet)
    *NumRet = 0;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem M, cl_image_info, size_t,
                                               void *, size_t *) {
  (void)M;
  return ISS_ERR(CL_INVALID_MEM_OBJECT, "not an image");
}

/// Image commands: the queue is checked, then there is no image.
static cl_int refuseImageCommand(const char *Func, cl_command_queue Q) {
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  return apiError(Func, CL_INVALID_MEM_OBJECT, "not an image");
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue Q, cl_mem, cl_bool, const size_t *, const size_t *, size_t,
    size_t, void *, cl_uint, const cl_event *, cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue Q, cl_mem, cl_bool, const size_t *, const size_t *, size_t,
    size_t, const void *, cl_uint, const cl_event *, cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue Q, cl_mem, cl_mem, const size_t *, const size_t *,
    const size_t *, cl_uint, const cl_event *, cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue Q, cl_mem,
                                                   const void *, const size_t *,
                                                   const size_t *, cl_uint,
                                                   const cl_event *,
                                                   cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue Q, cl_mem, cl_mem, const size_t *, const size_t *, size_t,
    cl_uint, const cl_event *, cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue Q, cl_mem, cl_mem, size_t, const size_t *, const size_t *,
    cl_uint, const cl_event *, cl_event *) {
  return refuseImageCommand(__func__, Q);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue Q, cl_mem,
                                                 cl_bool, cl_map_flags,
                                                 const size_t *, const size_t *,
                                                 size_t *, size_t *, cl_uint,
                                                 const cl_event *, cl_event *,
                                                 cl_int *Err) {
  setErrcode(Err, refuseImageCommand(__func__, Q));
  return nullptr;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context C, cl_bool,
                                                    cl_addressing_mode,
                                                    cl_filter_mode,
                                                    cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  return ISS_ERR_RET(Err, CL_INVALID_OPERATION,
                     "no device in the context supports images");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler S) {
  if (!isValid(S))
    return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
  retainObject(S);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler S) {
  if (!isValid(S))
    return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
  releaseObject(S);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler S, cl_sampler_info,
                                                 size_t, void *, size_t *) {
  (void)S;
  return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
}
