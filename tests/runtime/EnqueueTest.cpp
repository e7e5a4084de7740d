//===- EnqueueTest.cpp - clEnqueueNDRangeKernel and clEnqueueTask ---------===//
// SPDX-License-Identifier: MIT
//
// NDRange launches in one to three dimensions with global offsets, the
// validation of work sizes (OpenCL 1.2, section 5.8: the global size must be
// a multiple of the local size), empty launches (a global size of 0, an
// OpenCL 2.1 change), and a NULL local size, whose choice must still run
// every work-item exactly once. Results are checked against the
// work-item functions' definitions computed on the host.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <algorithm>
#include <vector>

using namespace clt;

static const char *Source = R"CLC(
__kernel void ids(__global ulong *out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  // Each work-item records what it sees, packed in 16-bit fields.
  out[4 * i + 0] = get_global_id(0) | get_global_id(1) << 16 |
                   get_global_id(2) << 32 | (ulong)get_work_dim() << 48;
  out[4 * i + 1] = get_local_id(0) | get_local_id(1) << 16 |
                   get_local_id(2) << 32;
  out[4 * i + 2] = get_group_id(0) | get_group_id(1) << 16 |
                   get_group_id(2) << 32;
  out[4 * i + 3] = get_local_size(0) | get_local_size(1) << 16 |
                   get_local_size(2) << 32;
}

__kernel void count(__global int *hits) { atomic_inc(&hits[get_global_id(0)]); }

__kernel void task(__global int *out) { out[0] = 42 + (int)get_global_size(0); }

__kernel void saxpy(__global const float *x, __global float *y, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
)CLC";

/// Launches ids and checks every work-item's record.
static void checkIds(Env &E, cl_kernel K, cl_uint Dims, const size_t *Offset,
                     const size_t *Global, const size_t *Local) {
  size_t G[3] = {1, 1, 1}, O[3] = {0, 0, 0};
  for (cl_uint D = 0; D < Dims; ++D) {
    G[D] = Global[D];
    O[D] = Offset ? Offset[D] : 0;
  }
  size_t N = G[0] * G[1] * G[2];
  Mem Out = E.buffer(CL_MEM_READ_WRITE, N * 4 * sizeof(cl_ulong));
  setArg(K, 0, Out.get());
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, Dims, Offset, Global, Local, 0,
                                  nullptr, nullptr));
  std::vector<cl_ulong> R(N * 4);
  CL_CHECK(clEnqueueReadBuffer(E.Q, Out, CL_TRUE, 0,
                               R.size() * sizeof(cl_ulong), R.data(), 0,
                               nullptr, nullptr));
  // The local size in use (chosen by the runtime when Local is NULL).
  cl_ulong LS = R[3];
  size_t L[3] = {LS & 0xffff, (LS >> 16) & 0xffff, (LS >> 32) & 0xffff};
  for (cl_uint D = 0; D < 3; ++D) {
    CLT_EXPECT(L[D] >= 1 && G[D] % L[D] == 0);
    if (Local && D < Dims)
      CLT_EXPECT(L[D] == Local[D]);
  }
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        size_t I = (Z * G[1] + Y) * G[0] + X;
        size_t Gid[3] = {X + O[0], Y + O[1], Z + O[2]};
        size_t Lid[3] = {X % L[0], Y % L[1], Z % L[2]};
        size_t Grp[3] = {X / L[0], Y / L[1], Z / L[2]};
        cl_ulong Want0 = Gid[0] | Gid[1] << 16 | (cl_ulong)Gid[2] << 32 |
                         (cl_ulong)Dims << 48;
        cl_ulong Want1 = Lid[0] | Lid[1] << 16 | (cl_ulong)Lid[2] << 32;
        cl_ulong Want2 = Grp[0] | Grp[1] << 16 | (cl_ulong)Grp[2] << 32;
        if (R[4 * I] != Want0 || R[4 * I + 1] != Want1 ||
            R[4 * I + 2] != Want2 || R[4 * I + 3] != LS)
          fail(__FILE__, __LINE__,
               "work-item (" + std::to_string(X) + "," + std::to_string(Y) +
                   "," + std::to_string(Z) + ") saw wrong ids");
      }
}

CLT_TEST(oneDimension) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "ids");
  size_t G = 1024, L = 64, O = 5;
  checkIds(E, K, 1, nullptr, &G, &L);
  checkIds(E, K, 1, &O, &G, &L);
  size_t G2 = 100, L2 = 10;
  checkIds(E, K, 1, nullptr, &G2, &L2);
}

CLT_TEST(twoAndThreeDimensions) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "ids");
  const size_t G2[2] = {48, 20}, L2[2] = {16, 5}, O2[2] = {3, 100};
  checkIds(E, K, 2, O2, G2, L2);
  const size_t G3[3] = {12, 6, 10}, L3[3] = {4, 3, 2}, O3[3] = {1, 2, 3};
  checkIds(E, K, 3, O3, G3, L3);
  checkIds(E, K, 3, nullptr, G3, L3);
}

CLT_TEST(nullLocalSize) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "ids");
  for (size_t G : {1, 7, 64, 997, 1000, 4096 * 3}) {
    checkIds(E, K, 1, nullptr, &G, nullptr);
  }
  const size_t G2[2] = {30, 17};
  checkIds(E, K, 2, nullptr, G2, nullptr);
  const size_t G3[3] = {9, 5, 7}, O3[3] = {10, 20, 30};
  checkIds(E, K, 3, O3, G3, nullptr);
}

CLT_TEST(everyItemOnce) {
  // A big launch over all threads: each work-item exactly once.
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "count");
  const size_t N = 1 << 20;
  std::vector<int> Zero(N, 0);
  Mem Hits = E.buffer(CL_MEM_COPY_HOST_PTR, N * sizeof(int), Zero.data());
  setArg(K, 0, Hits.get());
  for (int Rep = 0; Rep < 3; ++Rep) {
    const size_t L = 256;
    CL_CHECK(clEnqueueNDRangeKernel(
        E.Q, K, 1, nullptr, &N, Rep == 1 ? nullptr : &L, 0, nullptr, nullptr));
  }
  std::vector<int> R(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, Hits, CL_TRUE, 0, N * sizeof(int), R.data(),
                               0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    if (R[I] != 3)
      fail(__FILE__, __LINE__,
           "item " + std::to_string(I) + " ran " + std::to_string(R[I]) +
               " times");
}

CLT_TEST(saxpyRepeated) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "saxpy");
  const size_t N = 10007;
  std::vector<float> X(N), Y(N), Ref(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = static_cast<float>(I % 100) * 0.5f;
    Y[I] = static_cast<float>(I % 7);
  }
  Ref = Y;
  Mem BX = E.buffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), X.data());
  Mem BY = E.buffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), Y.data());
  setArg(K, 0, BX.get());
  setArg(K, 1, BY.get());
  for (int Rep = 0; Rep < 5; ++Rep) {
    float A = 1.5f + Rep;
    setArg(K, 2, A);
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                    nullptr));
    for (size_t I = 0; I < N; ++I)
      Ref[I] = A * X[I] + Ref[I];
  }
  CL_CHECK(clEnqueueReadBuffer(E.Q, BY, CL_TRUE, 0, N * sizeof(float), Y.data(),
                               0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    CLT_EXPECT(Y[I] == Ref[I]);
}

CLT_TEST(task) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "task");
  Mem Out = E.buffer(CL_MEM_READ_WRITE, sizeof(int));
  setArg(K, 0, Out.get());
  Event Ev;
  CL_CHECK(clEnqueueTask(E.Q, K, 0, nullptr, Ev.out()));
  int R = 0;
  CL_CHECK(clEnqueueReadBuffer(E.Q, Out, CL_TRUE, 0, sizeof(R), &R, 0, nullptr,
                               nullptr));
  CLT_EXPECT(R == 43);
  cl_command_type T = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof(T), &T, nullptr));
  // Debian's pocl reports tasks as NDRange commands.
  CLT_EXPECT(T == CL_COMMAND_TASK ||
             (!E.IsPoclIss && T == CL_COMMAND_NDRANGE_KERNEL));
}

CLT_TEST(sizeValidation) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "ids");
  Mem Out = E.buffer(CL_MEM_READ_WRITE, 1 << 20);
  setArg(K, 0, Out.get());
  const size_t G[3] = {64, 64, 4}, L[3] = {8, 8, 1};
  auto Launch = [&](cl_uint D, const size_t *Gl, const size_t *Lo) {
    return clEnqueueNDRangeKernel(E.Q, K, D, nullptr, Gl, Lo, 0, nullptr,
                                  nullptr);
  };
  CLT_EXPECT_ERR(CL_INVALID_WORK_DIMENSION, Launch(0, G, L));
  CLT_EXPECT_ERR(CL_INVALID_WORK_DIMENSION, Launch(4, G, L));
  const size_t NotDividing[1] = {7};
  CLT_EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, Launch(1, G, NotDividing));
  const size_t ZeroLocal[2] = {8, 0};
  if (E.IsPoclIss) // Debian's pocl runs it
    CLT_EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, Launch(2, G, ZeroLocal));
  size_t MaxWG = E.deviceValue<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t Items[3];
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                           sizeof(Items), Items, nullptr));
  const size_t BigG[1] = {Items[0] * 2}, BigL[1] = {Items[0] * 2};
  cl_int R = Launch(1, BigG, BigL);
  // Above the work-group limit too, when the item limit equals it: either
  // error describes the launch.
  CLT_EXPECT_MSG(R == CL_INVALID_WORK_ITEM_SIZE ||
                     (BigL[0] > MaxWG && R == CL_INVALID_WORK_GROUP_SIZE),
                 errorName(R));
  size_t Side = 1;
  while (Side * Side <= MaxWG)
    Side *= 2;
  const size_t SqG[2] = {Side, Side}, SqL[2] = {Side, Side};
  if (Side <= Items[0] && Side <= Items[1])
    CLT_EXPECT_ERR(CL_INVALID_WORK_GROUP_SIZE, Launch(2, SqG, SqL));
  // 2^22 * 2^21 * 2^21 work-items (and, with local size 1, work groups)
  // wrap a 64-bit count to 0: refused, with either local size.
  const size_t Wrap[3] = {size_t(1) << 22, size_t(1) << 21, size_t(1) << 21};
  const size_t Ones[3] = {1, 1, 1}, Wide[3] = {64, 1, 1};
  if (E.IsPoclIss) { // Debian's pocl 3.1 accepts it
    CLT_EXPECT_ERR(CL_INVALID_GLOBAL_WORK_SIZE, Launch(3, Wrap, Ones));
    CLT_EXPECT_ERR(CL_INVALID_GLOBAL_WORK_SIZE, Launch(3, Wrap, Wide));
    CLT_EXPECT_ERR(CL_INVALID_GLOBAL_WORK_SIZE, Launch(3, Wrap, nullptr));
  }
  // A product that wraps to a small number: 2^32 * (2^32 + 1) = 2^32 mod
  // 2^64.
  const size_t Small[2] = {size_t(1) << 32, (size_t(1) << 32) + 1};
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_GLOBAL_WORK_SIZE, Launch(2, Small, nullptr));
  // Local sizes each past CL_DEVICE_MAX_WORK_ITEM_SIZES, whose product
  // wraps to 0, with a global size whose product wraps too: the
  // specification's CL_INVALID_WORK_ITEM_SIZE, not our limit on the global
  // size nor a work-group size the wrapped product would let through.
  const size_t Huge[3] = {size_t(1) << 32, size_t(1) << 32, 1};
  CLT_EXPECT_ERR(CL_INVALID_WORK_ITEM_SIZE, Launch(3, Huge, Huge));
  const size_t HugeL[2] = {size_t(1) << 32, size_t(1) << 32};
  CLT_EXPECT_ERR(CL_INVALID_WORK_ITEM_SIZE, Launch(2, Small, HugeL));
  const size_t Off[1] = {~size_t(0) - 10}, Sixteen[1] = {16};
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_GLOBAL_OFFSET,
                   clEnqueueNDRangeKernel(E.Q, K, 1, Off, Sixteen, nullptr, 0,
                                          nullptr, nullptr));
  CL_CHECK(clFinish(E.Q));
}

// A NULL global size or a 0 in any dimension is an empty launch on an
// OpenCL 2.1 or newer device (OpenCL 3.0, clEnqueueNDRangeKernel): it
// succeeds, runs no work-item, and its event completes once its wait list
// has (the CTS's api zero_sized_enqueue).
CLT_TEST(emptyLaunches) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "count");
  Kernel Unset = E.kernel(P, "count");
  const size_t N = 64;
  Mem Hits = E.buffer(CL_MEM_READ_WRITE, N * sizeof(cl_int));
  std::vector<cl_int> Zeros(N, 0);
  CL_CHECK(clEnqueueWriteBuffer(E.Q, Hits, CL_TRUE, 0, N * sizeof(cl_int),
                                Zeros.data(), 0, nullptr, nullptr));
  setArg(K, 0, Hits.get());
  const size_t Shapes[][3] = {{0, 8, 8}, {8, 0, 8}, {8, 8, 0}, {0, 0, 0}};
  const size_t Local[3] = {1, 1, 1};
  for (cl_uint Dims = 1; Dims <= 3; ++Dims)
    for (const size_t *G : Shapes) {
      if (std::find(G, G + Dims, size_t(0)) == G + Dims)
        continue; // the 0 is in a dimension the launch does not have
      CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, Dims, nullptr, G, nullptr, 0,
                                      nullptr, nullptr));
      CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, Dims, nullptr, G, Local, 0,
                                      nullptr, nullptr));
    }
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, nullptr, nullptr, 0,
                                  nullptr, nullptr));
  CLT_EXPECT(E.read<cl_int>(Hits, N) == Zeros);

  // Held back by a user event: queued until it completes, then complete.
  Event Gate = userEvent(E);
  Event Ev;
  cl_event Wait = Gate.get();
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 3, nullptr, Shapes[3], nullptr, 1,
                                  &Wait, Ev.out()));
  settle();
  cl_int S = eventStatus(Ev);
  CLT_EXPECT_MSG(S == CL_QUEUED || S == CL_SUBMITTED, std::to_string(S));
  cl_command_type T = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof(T), &T, nullptr));
  CLT_EXPECT(T == CL_COMMAND_NDRANGE_KERNEL);
  CL_CHECK(clSetUserEventStatus(Gate, CL_COMPLETE));
  CL_CHECK(clFinish(E.Q));
  CLT_EXPECT(eventStatus(Ev) == CL_COMPLETE);
  CLT_EXPECT(E.read<cl_int>(Hits, N) == Zeros);

  // What is not about the size is still checked.
  const size_t Zero[1] = {0};
  CLT_EXPECT_ERR(CL_INVALID_WORK_DIMENSION,
                 clEnqueueNDRangeKernel(E.Q, K, 4, nullptr, Zero, nullptr, 0,
                                        nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_KERNEL_ARGS,
                 clEnqueueNDRangeKernel(E.Q, Unset, 1, nullptr, Zero, nullptr,
                                        0, nullptr, nullptr));
}
