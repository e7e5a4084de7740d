//===- ContextTest.cpp - Contexts: creation, properties, lifetime ---------===//
// SPDX-License-Identifier: MIT
//
// clCreateContext, clCreateContextFromType and clGetContextInfo (OpenCL
// 1.2, section 4.4): property lists are validated, and a context outlives
// the application's last release while a queue still refers to it;
// destructor callbacks (OpenCL 3.0) run when it is destroyed.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

static cl_uint contextRefs(cl_context C) {
  cl_uint N = 0;
  CL_CHECK(
      clGetContextInfo(C, CL_CONTEXT_REFERENCE_COUNT, sizeof(N), &N, nullptr));
  return N;
}

CLT_TEST(createAndQuery) {
  cl_uint N = 0;
  CL_CHECK(
      clGetContextInfo(E.Ctx, CL_CONTEXT_NUM_DEVICES, sizeof(N), &N, nullptr));
  CLT_EXPECT(N == 1);
  cl_device_id D = nullptr;
  CL_CHECK(clGetContextInfo(E.Ctx, CL_CONTEXT_DEVICES, sizeof(D), &D, nullptr));
  CLT_EXPECT(D == E.Device);
  size_t Size = 123;
  CL_CHECK(clGetContextInfo(E.Ctx, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size));
  CLT_EXPECT(Size == 0); // created without properties
  // A context nothing else refers to (E.Ctx has E.Q).
  cl_int Err;
  Context C(clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(contextRefs(C) == 1);
  CL_CHECK(clRetainContext(C));
  CLT_EXPECT(contextRefs(C) == 2);
  CL_CHECK(clReleaseContext(C));
  CLT_EXPECT(contextRefs(C) == 1);
}

CLT_TEST(platformProperty) {
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)E.Platform, 0};
  cl_int Err;
  Context C(clCreateContext(Props, 1, &E.Device, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  cl_context_properties Back[3] = {0, 0, 1};
  size_t Size = 0;
  CL_CHECK(
      clGetContextInfo(C, CL_CONTEXT_PROPERTIES, sizeof(Back), Back, &Size));
  CLT_EXPECT(Size == sizeof(Back));
  CLT_EXPECT(Back[0] == CL_CONTEXT_PLATFORM);
  CLT_EXPECT(Back[1] == (cl_context_properties)E.Platform);
  CLT_EXPECT(Back[2] == 0);
}

CLT_TEST(badProperties) {
  cl_int Err = CL_SUCCESS;
  cl_context_properties Unknown[] = {0x7777, 1, 0};
  CLT_EXPECT(!clCreateContext(Unknown, 1, &E.Device, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_PROPERTY, Err);
  if (E.IsPoclIss) {
    // A platform handle that is not a platform: the loader would dispatch
    // through it, so only our own runtime can be asked directly.
    cl_context_properties Twice[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)E.Platform,
        CL_CONTEXT_PLATFORM, (cl_context_properties)E.Platform, 0};
    CLT_EXPECT(!clCreateContext(Twice, 1, &E.Device, nullptr, nullptr, &Err));
    CLT_EXPECT_ERR(CL_INVALID_PROPERTY, Err);
  }
}

static void CL_CALLBACK notify(const char *, const void *, size_t, void *) {}

CLT_TEST(badArguments) {
  cl_int Err = CL_SUCCESS;
  CLT_EXPECT(!clCreateContext(nullptr, 0, &E.Device, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  CLT_EXPECT(!clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  int Data = 0;
  CLT_EXPECT(!clCreateContext(nullptr, 1, &E.Device, nullptr, &Data, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  Context C(clCreateContext(nullptr, 1, &E.Device, notify, &Data, &Err));
  CL_CHECK(Err);
}

CLT_TEST(fromType) {
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)E.Platform, 0};
  cl_int Err;
  {
    Context C(clCreateContextFromType(Props, CL_DEVICE_TYPE_CPU, nullptr,
                                      nullptr, &Err));
    CL_CHECK(Err);
    cl_device_id D = nullptr;
    CL_CHECK(clGetContextInfo(C, CL_CONTEXT_DEVICES, sizeof(D), &D, nullptr));
    CLT_EXPECT(D == E.Device);
  }
  {
    Context C(clCreateContextFromType(Props, CL_DEVICE_TYPE_ALL, nullptr,
                                      nullptr, &Err));
    CL_CHECK(Err);
  }
  if (!E.IsPoclIss)
    return; // other platforms may have GPUs or answer differently
  CLT_EXPECT(!clCreateContextFromType(Props, CL_DEVICE_TYPE_GPU, nullptr,
                                      nullptr, &Err));
  CLT_EXPECT_ERR(CL_DEVICE_NOT_FOUND, Err);
  CLT_EXPECT(
      !clCreateContextFromType(Props, 1ull << 20, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_DEVICE_TYPE, Err);
}

CLT_TEST(queueKeepsContextAlive) {
  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  Queue Q(clCreateCommandQueue(C, E.Device, 0, &Err));
  CL_CHECK(Err);
  CL_CHECK(clReleaseContext(C)); // the queue still holds it
  cl_context Back = nullptr;
  CL_CHECK(
      clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof(Back), &Back, nullptr));
  CLT_EXPECT(Back == C);
  cl_uint N = 0;
  CL_CHECK(clGetContextInfo(C, CL_CONTEXT_NUM_DEVICES, sizeof(N), &N, nullptr));
  CLT_EXPECT(N == 1);
  // Still usable for new objects through the queue's context.
  Mem B(clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err));
  CL_CHECK(Err);
  int V = 7, R = 0;
  CL_CHECK(clEnqueueWriteBuffer(Q, B, CL_TRUE, 0, sizeof(V), &V, 0, nullptr,
                                nullptr));
  CL_CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, sizeof(R), &R, 0, nullptr,
                               nullptr));
  CLT_EXPECT(R == 7);
}

static std::vector<int> DestructorOrder;
static void CL_CALLBACK contextDestructor(cl_context, void *Data) {
  DestructorOrder.push_back(*static_cast<int *>(Data));
}

/// OpenCL 3.0's clSetContextDestructorCallback: the callbacks run in
/// reverse order of registration once the context is destroyed, which is
/// after the last object made in it is gone, not at the application's last
/// clReleaseContext.
CLT_TEST(destructorCallbacks) {
  DestructorOrder.clear();
  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  int One = 1, Two = 2, Three = 3;
  CL_CHECK(clSetContextDestructorCallback(C, contextDestructor, &One));
  CL_CHECK(clSetContextDestructorCallback(C, contextDestructor, &Two));
  CL_CHECK(clSetContextDestructorCallback(C, contextDestructor, &Three));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clSetContextDestructorCallback(C, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, clSetContextDestructorCallback(
                                         nullptr, contextDestructor, &One));
  cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, 64, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseContext(C));
  CLT_EXPECT(DestructorOrder.empty()); // the buffer holds the context
  CL_CHECK(clReleaseMemObject(B));
  CLT_EXPECT(DestructorOrder.size() == 3);
  CLT_EXPECT(DestructorOrder == std::vector<int>({3, 2, 1}));
}
