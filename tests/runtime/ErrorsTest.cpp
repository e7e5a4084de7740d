//===- ErrorsTest.cpp - Invalid handles, sizes, flags; unsupported parts --===//
// SPDX-License-Identifier: MIT
//
// Every entry must answer bad input with the specification's error code,
// never a crash: NULL handles, handles of the wrong kind, handles the
// application already released, sizes and flags out of range. Released and
// wrong-kind handles can only be checked on pocl-iss (other implementations
// may crash on them, which the specification allows). Also the parts the
// device does not support: images, samplers and OpenCL 2.x entries.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <CL/cl_gl.h>

#include <vector>

using namespace clt;

CLT_TEST(nullHandles) {
  cl_uint U;
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof(U),
                                  &U, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr));
  CLT_EXPECT_ERR(CL_INVALID_PROGRAM, clRetainProgram(nullptr));
  CLT_EXPECT_ERR(CL_INVALID_KERNEL, clReleaseKernel(nullptr));
  CLT_EXPECT_ERR(CL_INVALID_EVENT, clReleaseEvent(nullptr));
  CLT_EXPECT_ERR(CL_INVALID_DEVICE,
                 clGetDeviceInfo(nullptr, CL_DEVICE_NAME, 0, nullptr,
                                 &U == nullptr ? nullptr : nullptr));
  cl_int Err;
  CLT_EXPECT(!clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 16, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  Mem B = E.buffer(CL_MEM_READ_WRITE, 16);
  int V = 0;
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                 clEnqueueWriteBuffer(E.Q, nullptr, CL_TRUE, 0, 4, &V, 0,
                                      nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueWriteBuffer(nullptr, B, CL_TRUE, 0, 4, &V, 0, nullptr, nullptr));
}

CLT_TEST(releasedHandles) {
  if (!E.IsPoclIss)
    CLT_SKIP("using released handles is undefined elsewhere");
  cl_int Err;
  cl_uint U;
  cl_mem B = clCreateBuffer(E.Ctx, CL_MEM_READ_WRITE, 16, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseMemObject(B));
  CLT_EXPECT_ERR(
      CL_INVALID_MEM_OBJECT,
      clGetMemObjectInfo(B, CL_MEM_REFERENCE_COUNT, sizeof(U), &U, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, clReleaseMemObject(B));

  cl_context C = clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseContext(C));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, clRetainContext(C));
  CLT_EXPECT(!clCreateBuffer(C, CL_MEM_READ_WRITE, 16, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);

  cl_command_queue Q = clCreateCommandQueue(E.Ctx, E.Device, 0, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseCommandQueue(Q));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE, clFinish(Q));

  const char *Src = "__kernel void k(__global int *p) { p[0] = 1; }";
  cl_program P = clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseProgram(P));
  CLT_EXPECT_ERR(CL_INVALID_PROGRAM,
                 clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr));

  cl_event Ev = clCreateUserEvent(E.Ctx, &Err);
  CL_CHECK(Err);
  CL_CHECK(clSetUserEventStatus(Ev, CL_COMPLETE));
  CL_CHECK(clReleaseEvent(Ev));
  CLT_EXPECT_ERR(CL_INVALID_EVENT, clWaitForEvents(1, &Ev));
  int V = 0;
  Mem Live = E.buffer(CL_MEM_READ_WRITE, 16);
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueWriteBuffer(E.Q, Live, CL_TRUE, 0, 4, &V, 1, &Ev, nullptr));
}

CLT_TEST(releasedKernel) {
  if (!E.IsPoclIss)
    CLT_SKIP("using released handles is undefined elsewhere");
  Program P = E.build("__kernel void k(__global int *p) { p[0] = 1; }");
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "k", &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseKernel(K));
  cl_mem Null = nullptr;
  CLT_EXPECT_ERR(CL_INVALID_KERNEL,
                 clSetKernelArg(K, 0, sizeof(cl_mem), &Null));
  size_t One = 1;
  CLT_EXPECT_ERR(CL_INVALID_KERNEL,
                 clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &One, nullptr, 0,
                                        nullptr, nullptr));
}

CLT_TEST(wrongKindHandles) {
  if (!E.IsPoclIss)
    CLT_SKIP("handles of the wrong kind are undefined elsewhere");
  Mem B = E.buffer(CL_MEM_READ_WRITE, 16);
  cl_uint U;
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 clGetContextInfo(reinterpret_cast<cl_context>(B.get()),
                                  CL_CONTEXT_NUM_DEVICES, sizeof(U), &U,
                                  nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clFinish(reinterpret_cast<cl_command_queue>(E.Ctx.get())));
  CLT_EXPECT_ERR(CL_INVALID_EVENT,
                 clReleaseEvent(reinterpret_cast<cl_event>(B.get())));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                 clRetainMemObject(reinterpret_cast<cl_mem>(E.Q.get())));
}

CLT_TEST(infoSizes) {
  Mem B = E.buffer(CL_MEM_READ_WRITE, 16);
  char Small[1];
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clGetMemObjectInfo(B, CL_MEM_SIZE, sizeof(Small), Small, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetMemObjectInfo(B, 0x7777, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clGetContextInfo(E.Ctx, CL_CONTEXT_DEVICES,
                                                    1, Small, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clGetCommandQueueInfo(E.Q, CL_QUEUE_CONTEXT,
                                                         1, Small, nullptr));
  // A NULL value with a size query is always fine.
  size_t N = 0;
  CL_CHECK(clGetMemObjectInfo(B, CL_MEM_SIZE, 0, nullptr, &N));
  CLT_EXPECT(N == sizeof(size_t));
}

/// Image entries given buffers, and image format queries given flags that
/// are not a valid cl_mem_flags set.
CLT_TEST(imageEntriesRefuseBuffersAndBadFlags) {
  cl_uint N = 99;
  if (E.IsPoclIss) { // pocl 3.1 does not check the flags here
    CLT_EXPECT_ERR(
        CL_INVALID_VALUE,
        clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_ONLY | (1ull << 40),
                                   CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &N));
    CLT_EXPECT_ERR(
        CL_INVALID_VALUE,
        clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                   CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &N));
  }
  Mem B = E.buffer(CL_MEM_READ_WRITE, 64);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {1, 1, 1};
  char Data[64];
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                 clEnqueueReadImage(E.Q, B, CL_TRUE, Origin, Region, 0, 0, Data,
                                    0, nullptr, nullptr));
  // pocl 3.1 answers clGetImageInfo on a buffer (it checks no type).
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(
        CL_INVALID_MEM_OBJECT,
        clGetImageInfo(B, CL_IMAGE_WIDTH, sizeof(size_t), Data, nullptr));
}

/// OpenCL 3.0's optional features the device does not have: their entries
/// answer CL_INVALID_OPERATION.
CLT_TEST(optionalFeaturesUnsupported) {
  if (!E.IsPoclIss)
    CLT_SKIP("the optional features differ between implementations");
  cl_int Err;
  CLT_EXPECT(!clCreateProgramWithIL(E.Ctx, "x", 1, &Err));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION, Err);
  CLT_EXPECT(!clCreatePipe(E.Ctx, CL_MEM_READ_WRITE, 4, 4, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION, Err);
  CLT_EXPECT(clGetExtensionFunctionAddressForPlatform(
                 E.Platform, "clNoSuchFunction") == nullptr);
}

/// The entries of optional features check the handle they are given before
/// they refuse: a handle of the wrong kind (which reaches our entry, as the
/// loader dispatches on its first word) is that handle's CL_INVALID_* code,
/// a valid one CL_INVALID_OPERATION.
CLT_TEST(unsupportedEntriesCheckHandles) {
  if (!E.IsPoclIss)
    CLT_SKIP("wrong-kind handles are undefined elsewhere");
  cl_int Err;
  Mem B = E.buffer(CL_MEM_READ_WRITE, 64);
  auto *NotQueue = reinterpret_cast<cl_command_queue>(B.get());
  auto *NotContext = reinterpret_cast<cl_context>(B.get());
  auto *NotKernel = reinterpret_cast<cl_kernel>(B.get());
  auto *NotProgram = reinterpret_cast<cl_program>(B.get());
  CLT_EXPECT(!clCreatePipe(NotContext, CL_MEM_READ_WRITE, 4, 4, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  CLT_EXPECT(!clCreateProgramWithIL(NotContext, "x", 1, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 clSetDefaultDeviceCommandQueue(NotContext, E.Device, E.Q));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clSetDefaultDeviceCommandQueue(E.Ctx, E.Device, E.Q));
  size_t V = 0;
  CLT_EXPECT_ERR(CL_INVALID_KERNEL,
                 clGetKernelSubGroupInfo(NotKernel, E.Device,
                                         CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                         nullptr, sizeof(V), &V, nullptr));
  Program P = E.build("__kernel void k(__global int *o) { o[0] = 1; }");
  Kernel K = E.kernel(P, "k");
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clGetKernelSubGroupInfo(K, E.Device,
                                         CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                         nullptr, sizeof(V), &V, nullptr));
  cl_mem Mems[] = {B.get()};
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueAcquireGLObjects(NotQueue, 1, Mems, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 clEnqueueAcquireGLObjects(E.Q, 1, Mems, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueReleaseGLObjects(NotQueue, 1, Mems, 0, nullptr, nullptr));
  // A bad property list on a context that is not one: the context first.
  const cl_queue_properties BadProps[] = {0x7777, 1, 0};
  CLT_EXPECT(!clCreateCommandQueueWithProperties(NotContext, E.Device, BadProps,
                                                 &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  int One = 1;
  CLT_EXPECT_ERR(CL_INVALID_PROGRAM,
                 clSetProgramSpecializationConstant(NotProgram, 0, 4, &One));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clSetProgramSpecializationConstant(P, 0, 4, &One));
}

/// OpenCL 3.0 on a device without pipes (both implementations): no pipe
/// can be made, and no memory object is one, whatever the query.
CLT_TEST(pipesRefused) {
  if (E.deviceValue<cl_bool>(CL_DEVICE_PIPE_SUPPORT))
    CLT_SKIP("the device has pipes");
  cl_int Err;
  CLT_EXPECT(!clCreatePipe(E.Ctx, CL_MEM_READ_WRITE, 4, 16, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION, Err);
  Mem B = E.buffer(CL_MEM_READ_WRITE, 64);
  size_t N = 0;
  for (cl_pipe_info Q :
       {CL_PIPE_PACKET_SIZE, CL_PIPE_MAX_PACKETS, CL_PIPE_PROPERTIES})
    CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, clGetPipeInfo(B, Q, 0, nullptr, &N));
}

CLT_TEST(localMemoryLimit) {
  Program P = E.build("__kernel void k(__local int *l, __global int *o) "
                      "{ l[0] = 1; o[0] = l[0]; }");
  Kernel K = E.kernel(P, "k");
  cl_ulong LocalSize = E.deviceValue<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE);
  CLT_EXPECT(clSetKernelArg(K, 0, LocalSize + 1, nullptr) != CL_SUCCESS ||
             !E.IsPoclIss);
  CL_CHECK(clSetKernelArg(K, 0, 64, nullptr));
  Mem B = E.buffer(CL_MEM_READ_WRITE, 4);
  setArg(K, 1, B.get());
  size_t One = 1;
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &One, &One, 0, nullptr,
                                  nullptr));
  CL_CHECK(clFinish(E.Q));
}
