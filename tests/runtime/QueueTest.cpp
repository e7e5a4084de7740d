//===- QueueTest.cpp - Command queues, flush and finish -------------------===//
// SPDX-License-Identifier: MIT
//
// clCreateCommandQueue(WithProperties), clGetCommandQueueInfo, clFlush and
// clFinish (OpenCL 1.2, section 5.1): in-order execution, and commands that
// still run after the application released their queue.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <vector>

using namespace clt;

CLT_TEST(queryQueue) {
  cl_context C = nullptr;
  CL_CHECK(
      clGetCommandQueueInfo(E.Q, CL_QUEUE_CONTEXT, sizeof(C), &C, nullptr));
  CLT_EXPECT(C == E.Ctx.get());
  cl_device_id D = nullptr;
  CL_CHECK(clGetCommandQueueInfo(E.Q, CL_QUEUE_DEVICE, sizeof(D), &D, nullptr));
  CLT_EXPECT(D == E.Device);
  cl_command_queue_properties P = 0;
  CL_CHECK(
      clGetCommandQueueInfo(E.Q, CL_QUEUE_PROPERTIES, sizeof(P), &P, nullptr));
  CLT_EXPECT(P == CL_QUEUE_PROFILING_ENABLE);
  cl_uint N = 0;
  CL_CHECK(clGetCommandQueueInfo(E.Q, CL_QUEUE_REFERENCE_COUNT, sizeof(N), &N,
                                 nullptr));
  CLT_EXPECT(N == 1);
  CL_CHECK(clRetainCommandQueue(E.Q));
  CL_CHECK(clGetCommandQueueInfo(E.Q, CL_QUEUE_REFERENCE_COUNT, sizeof(N), &N,
                                 nullptr));
  CLT_EXPECT(N == 2);
  CL_CHECK(clReleaseCommandQueue(E.Q));
}

CLT_TEST(badProperties) {
  cl_int Err = CL_SUCCESS;
  CLT_EXPECT(!clCreateCommandQueue(E.Ctx, E.Device, 1ull << 40, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  if (E.IsPoclIss) {
    CLT_EXPECT(!clCreateCommandQueue(
        E.Ctx, E.Device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &Err));
    CLT_EXPECT_ERR(CL_INVALID_QUEUE_PROPERTIES, Err);
  }
}

CLT_TEST(withProperties) {
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 0};
  cl_int Err;
  Queue Q(clCreateCommandQueueWithProperties(E.Ctx, E.Device, Props, &Err));
  CL_CHECK(Err);
  cl_command_queue_properties P = 0;
  CL_CHECK(
      clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof(P), &P, nullptr));
  CLT_EXPECT(P == CL_QUEUE_PROFILING_ENABLE);
  Queue Plain(
      clCreateCommandQueueWithProperties(E.Ctx, E.Device, nullptr, &Err));
  CL_CHECK(Err);
  cl_queue_properties Bad[] = {0x7777, 1, 0};
  CLT_EXPECT(!clCreateCommandQueueWithProperties(E.Ctx, E.Device, Bad, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
}

CLT_TEST(inOrderExecution) {
  // Many small writes to overlapping places: only in-order execution
  // leaves the last value everywhere.
  const size_t N = 1024;
  Mem B = E.buffer(CL_MEM_READ_WRITE, N * sizeof(int));
  std::vector<std::vector<int>> Values(50, std::vector<int>(N));
  for (int I = 0; I < 50; ++I) {
    std::fill(Values[I].begin(), Values[I].end(), I);
    CL_CHECK(clEnqueueWriteBuffer(E.Q, B, CL_FALSE, 0, N * sizeof(int),
                                  Values[I].data(), 0, nullptr, nullptr));
  }
  CL_CHECK(clFlush(E.Q));
  CL_CHECK(clFinish(E.Q));
  std::vector<int> Out(N, -1);
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, N * sizeof(int), Out.data(),
                               0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    CLT_EXPECT(Out[I] == 49);
}

CLT_TEST(releasedQueueStillRuns) {
  cl_int Err;
  cl_command_queue Q = clCreateCommandQueue(E.Ctx, E.Device, 0, &Err);
  CL_CHECK(Err);
  Mem B = E.buffer(CL_MEM_READ_WRITE, 4096);
  std::vector<char> Data(4096, 'x');
  Event Ev;
  CL_CHECK(clEnqueueWriteBuffer(Q, B, CL_FALSE, 0, Data.size(), Data.data(), 0,
                                nullptr, Ev.out()));
  CL_CHECK(clReleaseCommandQueue(Q));
  waitFor(Ev);
  cl_command_queue Back = nullptr;
  CL_CHECK(
      clGetEventInfo(Ev, CL_EVENT_COMMAND_QUEUE, sizeof(Back), &Back, nullptr));
  CLT_EXPECT(Back == Q);
  std::vector<char> Out(4096);
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, Out.size(), Out.data(), 0,
                               nullptr, nullptr));
  CLT_EXPECT(Out == Data);
}

CLT_TEST(twoQueues) {
  cl_int Err;
  Queue Q2(clCreateCommandQueue(E.Ctx, E.Device, 0, &Err));
  CL_CHECK(Err);
  Mem A = E.buffer(CL_MEM_READ_WRITE, 256),
      B = E.buffer(CL_MEM_READ_WRITE, 256);
  std::vector<unsigned char> X(256, 1), Y(256, 2), RX(256), RY(256);
  CL_CHECK(clEnqueueWriteBuffer(E.Q, A, CL_FALSE, 0, 256, X.data(), 0, nullptr,
                                nullptr));
  CL_CHECK(clEnqueueWriteBuffer(Q2, B, CL_FALSE, 0, 256, Y.data(), 0, nullptr,
                                nullptr));
  CL_CHECK(clFinish(Q2));
  CL_CHECK(clFinish(E.Q));
  CL_CHECK(clEnqueueReadBuffer(Q2, A, CL_TRUE, 0, 256, RX.data(), 0, nullptr,
                               nullptr));
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, 256, RY.data(), 0, nullptr,
                               nullptr));
  CLT_EXPECT(RX == X && RY == Y);
}

CLT_TEST(queueErrors) {
  cl_int Err = CL_SUCCESS;
  CLT_EXPECT(!clCreateCommandQueue(nullptr, E.Device, 0, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  CLT_EXPECT(!clCreateCommandQueue(E.Ctx, nullptr, 0, &Err));
  CLT_EXPECT_ERR(CL_INVALID_DEVICE, Err);
  cl_uint N;
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetCommandQueueInfo(E.Q, 0x7777, sizeof(N), &N, nullptr));
}
