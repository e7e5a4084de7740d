//===- SvmTest.cpp - Shared virtual memory --------------------------------===//
// SPDX-License-Identifier: MIT
//
// Shared virtual memory (OpenCL 3.0, sections 5.6 and 5.9.2) as Debian's
// pocl 3.1 has it: coarse- and fine-grained buffers with atomics. Checked:
// the capabilities, clSVMAlloc's flags and failures and the context
// reference an allocation holds, clSVMFree and clEnqueueSVMFree (with and
// without a callback), copies, fills, maps, unmaps and migrations as
// commands with events and wait lists and every error code the
// specification lists, kernels reading and writing SVM through
// clSetKernelArgSVMPointer (a pointer into the middle of an allocation,
// pointers stored in SVM and named by CL_KERNEL_EXEC_INFO_SVM_PTRS, a
// cloned kernel), buffers over SVM (CL_MEM_USES_SVM_POINTER), and a
// fine-grained allocation the host and kernels share without maps. Where
// pocl 3.1 departs from the specification (it takes unknown flags, map
// flags and exec info, refuses empty copies and free lists, and knows an
// SVM pointer only by an allocation's first byte) the case checks
// pocl-iss alone and skips on pocl with the reason.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

using namespace clt;

namespace {
/// An SVM allocation freed with its context's clSVMFree.
class SvmAlloc {
public:
  SvmAlloc(cl_context C, size_t Size,
           cl_svm_mem_flags Flags = CL_MEM_READ_WRITE, cl_uint Align = 0)
      : C(C), P(clSVMAlloc(C, Flags, Size, Align)) {
    if (!P)
      fail(__FILE__, __LINE__,
           "clSVMAlloc(" + std::to_string(Size) + " bytes) returned NULL");
  }
  SvmAlloc(const SvmAlloc &) = delete;
  SvmAlloc &operator=(const SvmAlloc &) = delete;
  ~SvmAlloc() {
    if (P)
      clSVMFree(C, P);
  }
  template <typename T = void> T *get() const { return static_cast<T *>(P); }
  /// Gives up ownership (the test frees it itself).
  void *release() { return std::exchange(P, nullptr); }

private:
  cl_context C;
  void *P;
};
} // namespace

static cl_command_type commandType(cl_event Ev) {
  cl_command_type T = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof(T), &T, nullptr));
  return T;
}

static cl_uint contextRefs(cl_context C) {
  cl_uint N = 0;
  CL_CHECK(
      clGetContextInfo(C, CL_CONTEXT_REFERENCE_COUNT, sizeof(N), &N, nullptr));
  return N;
}

static cl_bool usesSvm(cl_mem M) {
  cl_bool B = CL_FALSE;
  CL_CHECK(
      clGetMemObjectInfo(M, CL_MEM_USES_SVM_POINTER, sizeof(B), &B, nullptr));
  return B;
}

/// b[i] = a[i] * s + i over SVM (or any __global) pointers.
static const char *ScaleSrc = R"CLC(
__kernel void scale(__global const float *a, __global float *b, float s) {
  size_t i = get_global_id(0);
  b[i] = a[i] * s + (float)i;
}
__kernel void iota3(__global int *o) {
  o[get_global_id(0)] = 3 * (int)get_global_id(0) + 1;
}
__kernel void args(__global int *g, __local int *l, int v,
                   __constant int *c) {
  l[0] = v;
  g[0] = l[0] + c[0];
}
)CLC";

CLT_TEST(capabilities) {
  auto Caps =
      E.deviceValue<cl_device_svm_capabilities>(CL_DEVICE_SVM_CAPABILITIES);
  CLT_EXPECT(Caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                      CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS));
}

CLT_TEST(allocFlagsAndAlignment) {
  const cl_svm_mem_flags Good[] = {
      0,
      CL_MEM_READ_WRITE,
      CL_MEM_READ_ONLY,
      CL_MEM_WRITE_ONLY,
      CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER,
      CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
      CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS};
  for (cl_svm_mem_flags F : Good) {
    SvmAlloc A(E.Ctx, 1000, F);
    // The default alignment is the largest data type's, long16.
    CLT_EXPECT_MSG(reinterpret_cast<uintptr_t>(A.get()) % 128 == 0,
                   std::to_string(F));
    // The host may use every byte.
    std::memset(A.get(), 0x5a, 1000);
    CLT_EXPECT(A.get<unsigned char>()[999] == 0x5a);
  }
  for (cl_uint Align = 1; Align <= 128; Align *= 2) {
    SvmAlloc A(E.Ctx, 3, CL_MEM_READ_WRITE, Align);
    CLT_EXPECT_MSG(reinterpret_cast<uintptr_t>(A.get()) % Align == 0,
                   std::to_string(Align));
  }
  // Two live allocations do not overlap.
  SvmAlloc A(E.Ctx, 256), B(E.Ctx, 256);
  CLT_EXPECT(A.get<char>() + 256 <= B.get<char>() ||
             B.get<char>() + 256 <= A.get<char>());
}

CLT_TEST(allocFailures) {
  auto Refused = [&](cl_svm_mem_flags F, size_t Size, cl_uint Align) {
    void *P = clSVMAlloc(E.Ctx, F, Size, Align);
    if (P)
      clSVMFree(E.Ctx, P);
    return P == nullptr;
  };
  CLT_EXPECT(Refused(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, 64, 0));
  CLT_EXPECT(Refused(CL_MEM_SVM_ATOMICS, 64, 0));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE, 0, 0));
  auto Max = E.deviceValue<cl_ulong>(CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE, size_t(Max) + 1, 0));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE, 64, 3));
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE, 64, 96));
  // Larger than the largest data type (long16, 128 bytes).
  CLT_EXPECT(Refused(CL_MEM_READ_WRITE, 64, 256));
  CLT_EXPECT(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0) == nullptr);
  // Freeing NULL does nothing.
  clSVMFree(E.Ctx, nullptr);
}

CLT_TEST(allocUnknownFlags) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 takes unknown clSVMAlloc flags");
  for (cl_svm_mem_flags F :
       {cl_svm_mem_flags(CL_MEM_USE_HOST_PTR),
        cl_svm_mem_flags(CL_MEM_HOST_READ_ONLY), cl_svm_mem_flags(1) << 40}) {
    void *P = clSVMAlloc(E.Ctx, F, 64, 0);
    if (P)
      clSVMFree(E.Ctx, P);
    CLT_EXPECT_MSG(P == nullptr, std::to_string(F));
  }
}

static void CL_CALLBACK contextGone(cl_context, void *Flag) {
  static_cast<std::atomic<int> *>(Flag)->store(1);
}

/// An allocation holds a reference to its context (as in pocl 3.1): the
/// context outlives the application's last release until the memory is
/// freed.
CLT_TEST(allocHoldsItsContext) {
  cl_uint Before = contextRefs(E.Ctx);
  void *P = clSVMAlloc(E.Ctx, CL_MEM_READ_WRITE, 64, 0);
  CLT_EXPECT(P != nullptr);
  CLT_EXPECT(contextRefs(E.Ctx) == Before + 1);
  clSVMFree(E.Ctx, P);
  CLT_EXPECT(contextRefs(E.Ctx) == Before);

  cl_int Err;
  cl_context C = clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  std::atomic<int> Gone{0};
  CL_CHECK(clSetContextDestructorCallback(C, contextGone, &Gone));
  void *Q = clSVMAlloc(C, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0);
  CLT_EXPECT(Q != nullptr);
  CL_CHECK(clReleaseContext(C));
  CLT_EXPECT(Gone.load() == 0);
  static_cast<int *>(Q)[15] = 7; // still the application's memory
  clSVMFree(C, Q);
  CLT_EXPECT(Gone.load() == 1);
}

/// Host to coarse SVM, SVM to fine SVM, SVM to host: each a command with
/// its event, ordered by wait lists; a copy held back by a user event has
/// not run.
CLT_TEST(memcpyWithEvents) {
  const size_t N = 1000;
  std::vector<int> Src = randomVector<int>(N, -1000, 1000, 11);
  SvmAlloc A(E.Ctx, N * sizeof(int));
  SvmAlloc B(E.Ctx, N * sizeof(int), CL_MEM_SVM_FINE_GRAIN_BUFFER);
  std::fill_n(B.get<int>(), N, -1);

  Event U = userEvent(E);
  cl_event G = U;
  Event ToA, ToB;
  CL_CHECK(clEnqueueSVMMemcpy(E.Q, CL_FALSE, A.get(), Src.data(),
                              N * sizeof(int), 1, &G, ToA.out()));
  cl_event H = ToA;
  CL_CHECK(clEnqueueSVMMemcpy(E.Q, CL_FALSE, B.get(), A.get(), N * sizeof(int),
                              1, &H, ToB.out()));
  settle();
  CLT_EXPECT(eventStatus(ToA) > CL_COMPLETE);
  CLT_EXPECT(B.get<int>()[0] == -1 && B.get<int>()[N - 1] == -1);
  CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
  waitFor(ToB);
  CLT_EXPECT(commandType(ToA) == CL_COMMAND_SVM_MEMCPY);
  CLT_EXPECT(commandType(ToB) == CL_COMMAND_SVM_MEMCPY);
  expectEqual(std::vector<int>(B.get<int>(), B.get<int>() + N), Src, "B");

  // Blocking, back to the host, part of the allocation at an offset.
  std::vector<int> Out(N / 2, 0);
  CL_CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, Out.data(), B.get<int>() + N / 4,
                              Out.size() * sizeof(int), 0, nullptr, nullptr));
  expectEqual(Out,
              std::vector<int>(Src.begin() + N / 4, Src.begin() + 3 * N / 4),
              "Out");
  // Within one allocation, adjacent ranges do not overlap.
  CL_CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, A.get<int>(), A.get<int>() + 10,
                              10 * sizeof(int), 0, nullptr, nullptr));
  expectEqual(std::vector<int>(A.get<int>(), A.get<int>() + 10),
              std::vector<int>(Src.begin() + 10, Src.begin() + 20), "A");
}

CLT_TEST(memcpyErrors) {
  SvmAlloc A(E.Ctx, 256);
  char Host[256];
  char *P = A.get<char>();
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(E.Q, CL_TRUE, nullptr, P,
                                                      16, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemcpy(E.Q, CL_TRUE, P, nullptr,
                                                      16, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(E.Q, CL_TRUE, P, P, 16,
                                                         0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_MEM_COPY_OVERLAP,
      clEnqueueSVMMemcpy(E.Q, CL_TRUE, P + 8, P, 16, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_MEM_COPY_OVERLAP,
      clEnqueueSVMMemcpy(E.Q, CL_FALSE, P, P + 15, 16, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_MEM_COPY_OVERLAP,
                 clEnqueueSVMMemcpy(E.Q, CL_FALSE, Host + 1, Host, 2, 0,
                                    nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueSVMMemcpy(nullptr, CL_TRUE, Host, P, 16, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueSVMMemcpy(E.Q, CL_TRUE, Host, P, 16, 1, nullptr, nullptr));
  cl_event Null = nullptr;
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueSVMMemcpy(E.Q, CL_TRUE, Host, P, 16, 1, &Null, nullptr));
  // An event of another context.
  Event Foreign = foreignUserEvent(E);
  cl_event F = Foreign;
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, clEnqueueSVMMemcpy(E.Q, CL_FALSE, Host, P,
                                                        16, 1, &F, nullptr));
  CL_CHECK(clSetUserEventStatus(Foreign, CL_COMPLETE));
}

/// The specification lists no error for an empty copy or fill.
CLT_TEST(emptyCopyAndFill) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 refuses a size of 0");
  SvmAlloc A(E.Ctx, 64);
  int Host = 5, Pattern = 9;
  Event Ev;
  CL_CHECK(clEnqueueSVMMemcpy(E.Q, CL_TRUE, A.get(), &Host, 0, 0, nullptr,
                              Ev.out()));
  CLT_EXPECT(eventStatus(Ev) == CL_COMPLETE);
  CL_CHECK(
      clEnqueueSVMMemFill(E.Q, A.get(), &Pattern, 4, 0, 0, nullptr, nullptr));
  CL_CHECK(clFinish(E.Q));
}

CLT_TEST(blockingCopyAfterFailedEvent) {
  if (!E.IsPoclIss)
    CLT_SKIP("Debian's pocl hangs on commands after a failed user event");
  SvmAlloc A(E.Ctx, 64);
  int Host[16] = {0};
  Event U = userEvent(E);
  CL_CHECK(clSetUserEventStatus(U, -5));
  cl_event G = U;
  CLT_EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                 clEnqueueSVMMemcpy(E.Q, CL_TRUE, Host, A.get(), sizeof(Host),
                                    1, &G, nullptr));
  CLT_EXPECT_ERR(
      CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
      clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, A.get(), 64, 1, &G, nullptr));
}

/// Every pattern size, into the middle of an allocation: the bytes around
/// the range are untouched.
CLT_TEST(fillPatterns) {
  const size_t Bytes = 4096, Off = 256, Size = 1024;
  SvmAlloc A(E.Ctx, Bytes);
  for (size_t PS = 1; PS <= 128; PS *= 2) {
    std::memset(A.get(), 0xee, Bytes);
    std::vector<unsigned char> Pat(PS);
    for (size_t I = 0; I < PS; ++I)
      Pat[I] = static_cast<unsigned char>(I * 7 + PS);
    Event Ev;
    CL_CHECK(clEnqueueSVMMemFill(E.Q, A.get<char>() + Off, Pat.data(), PS, Size,
                                 0, nullptr, Ev.out()));
    Pat.assign(PS, 0); // the pattern was copied at enqueue
    waitFor(Ev);
    CLT_EXPECT(commandType(Ev) == CL_COMMAND_SVM_MEMFILL);
    std::vector<unsigned char> Want(Bytes, 0xee);
    for (size_t I = 0; I < Size; ++I)
      Want[Off + I] = static_cast<unsigned char>((I % PS) * 7 + PS);
    expectEqual(std::vector<unsigned char>(A.get<unsigned char>(),
                                           A.get<unsigned char>() + Bytes),
                Want, "pattern size " + std::to_string(PS));
  }
}

CLT_TEST(fillErrors) {
  SvmAlloc A(E.Ctx, 1024);
  char *P = A.get<char>();
  long long Pat[16] = {0};
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(E.Q, nullptr, Pat, 4, 64,
                                                       0, nullptr, nullptr));
  for (size_t PS : {size_t(0), size_t(3), size_t(12), size_t(256)})
    CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(E.Q, P, Pat, PS, 768,
                                                         0, nullptr, nullptr));
  // svm_ptr not aligned to the pattern, size not a multiple of it.
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(E.Q, P + 2, Pat, 4, 64,
                                                       0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueSVMMemFill(E.Q, P, Pat, 8, 60, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueSVMMemFill(nullptr, P, Pat, 4, 64, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                 clEnqueueSVMMemFill(E.Q, P, Pat, 4, 64, 1, nullptr, nullptr));
  // pocl 3.1 dereferences a NULL pattern.
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueSVMMemFill(E.Q, P, nullptr, 4, 64,
                                                         0, nullptr, nullptr));
}

/// A coarse-grained allocation written through a map and read by a kernel,
/// then written by the kernel and read through a map; the map held back by
/// a user event completes only after it.
CLT_TEST(mapUnmapAroundKernel) {
  const size_t N = 512;
  SvmAlloc A(E.Ctx, N * sizeof(float), CL_MEM_READ_ONLY);
  SvmAlloc B(E.Ctx, N * sizeof(float), CL_MEM_WRITE_ONLY);
  // Quarters: a * 2.5 + i is exact, contracted to an fma or not.
  std::vector<float> In;
  for (int V : randomVector<int>(N, -40, 40, 3))
    In.push_back(float(V) / 4);

  Event U = userEvent(E);
  cl_event G = U;
  Event Map;
  CL_CHECK(clEnqueueSVMMap(E.Q, CL_FALSE, CL_MAP_WRITE_INVALIDATE_REGION,
                           A.get(), N * sizeof(float), 1, &G, Map.out()));
  settle();
  CLT_EXPECT(eventStatus(Map) > CL_COMPLETE);
  CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
  waitFor(Map);
  CLT_EXPECT(commandType(Map) == CL_COMMAND_SVM_MAP);
  std::copy(In.begin(), In.end(), A.get<float>());
  Event Unmap;
  CL_CHECK(clEnqueueSVMUnmap(E.Q, A.get(), 0, nullptr, Unmap.out()));

  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "scale");
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, A.get()));
  CL_CHECK(clSetKernelArgSVMPointer(K, 1, B.get()));
  setArg(K, 2, 2.5f);
  size_t Global = N;
  cl_event After = Unmap;
  Event Run;
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &Global, nullptr, 1,
                                  &After, Run.out()));
  cl_event R = Run;
  CL_CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, B.get(),
                           N * sizeof(float), 1, &R, nullptr));
  CLT_EXPECT(commandType(Unmap) == CL_COMMAND_SVM_UNMAP);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = In[I] * 2.5f + float(I);
  expectEqual(std::vector<float>(B.get<float>(), B.get<float>() + N), Want,
              "B");
  CL_CHECK(clEnqueueSVMUnmap(E.Q, B.get(), 0, nullptr, nullptr));
  CL_CHECK(clFinish(E.Q));
}

CLT_TEST(mapErrors) {
  SvmAlloc A(E.Ctx, 64);
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, nullptr, 64, 0,
                                 nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, A.get(), 0, 0,
                                 nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clEnqueueSVMMap(nullptr, CL_TRUE, CL_MAP_READ, A.get(), 64, 0,
                                 nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                 clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, A.get(), 64, 1,
                                 nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueSVMUnmap(E.Q, nullptr, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clEnqueueSVMUnmap(nullptr, A.get(), 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                 clEnqueueSVMUnmap(E.Q, A.get(), 1, nullptr, nullptr));
  // pocl 3.1 does not check the map flags.
  if (E.IsPoclIss) {
    CLT_EXPECT_ERR(
        CL_INVALID_VALUE,
        clEnqueueSVMMap(E.Q, CL_TRUE, 0x80, A.get(), 64, 0, nullptr, nullptr));
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clEnqueueSVMMap(E.Q, CL_TRUE,
                                   CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                   A.get(), 64, 0, nullptr, nullptr));
  }
}

/// A pointer into the middle of an allocation is the kernel's base: only
/// the range from it is written.
CLT_TEST(pointerIntoTheMiddle) {
  const size_t N = 300, Off = 37, Total = 400;
  SvmAlloc A(E.Ctx, Total * sizeof(int), CL_MEM_SVM_FINE_GRAIN_BUFFER);
  std::fill_n(A.get<int>(), Total, -7);
  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "iota3");
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, A.get<int>() + Off));
  E.run1(K, N);
  std::vector<int> Want(Total, -7);
  for (size_t I = 0; I < N; ++I)
    Want[Off + I] = 3 * int(I) + 1;
  expectEqual(std::vector<int>(A.get<int>(), A.get<int>() + Total), Want, "A");
}

/// A fine-grained allocation is shared without maps: the host writes it,
/// a kernel reads and writes it, the host reads it once the kernel is done;
/// with atomics, every work-item's atomic increment counts.
CLT_TEST(fineGrainWithoutMaps) {
  const size_t N = 1024;
  SvmAlloc A(E.Ctx, N * sizeof(float), CL_MEM_SVM_FINE_GRAIN_BUFFER);
  SvmAlloc B(E.Ctx, N * sizeof(float), CL_MEM_SVM_FINE_GRAIN_BUFFER);
  std::vector<float> In = randomVector<float>(N, 0.f, 1.f, 5);
  std::copy(In.begin(), In.end(), A.get<float>());
  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "scale");
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, A.get()));
  CL_CHECK(clSetKernelArgSVMPointer(K, 1, B.get()));
  setArg(K, 2, -1.0f);
  E.run1(K, N);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = -In[I] + float(I);
  expectEqual(std::vector<float>(B.get<float>(), B.get<float>() + N), Want,
              "first launch");
  // The host changes the input in place; the next launch sees it.
  for (size_t I = 0; I < N; ++I)
    A.get<float>()[I] = float(I % 13);
  E.run1(K, N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = -float(I % 13) + float(I);
  expectEqual(std::vector<float>(B.get<float>(), B.get<float>() + N), Want,
              "after the host's writes");

  SvmAlloc C(E.Ctx, sizeof(int),
             CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS);
  *C.get<int>() = 100;
  Program PA =
      E.build("__kernel void count(__global int *c) { atomic_inc(c); }");
  Kernel KA = E.kernel(PA, "count");
  CL_CHECK(clSetKernelArgSVMPointer(KA, 0, C.get()));
  size_t Global = 4096, Local = 64;
  E.run(KA, 1, &Global, &Local);
  CLT_EXPECT_MSG(*C.get<int>() == 100 + 4096, std::to_string(*C.get<int>()));
}

/// A buffer over an allocation's first byte uses SVM (both
/// implementations agree there) and shares its bytes; one larger than the
/// allocation is refused.
CLT_TEST(svmBackedBuffer) {
  const size_t N = 256;
  SvmAlloc A(E.Ctx, N * sizeof(int));
  std::fill_n(A.get<int>(), N, 0);
  Mem B = E.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(int),
                   A.get());
  CLT_EXPECT(usesSvm(B) == CL_TRUE);
  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "iota3");
  setArg(K, 0, B);
  E.run1(K, N);
  CL_CHECK(clEnqueueSVMMap(E.Q, CL_TRUE, CL_MAP_READ, A.get(), N * sizeof(int),
                           0, nullptr, nullptr));
  std::vector<int> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = 3 * int(I) + 1;
  expectEqual(std::vector<int>(A.get<int>(), A.get<int>() + N), Want, "A");
  CL_CHECK(clEnqueueSVMUnmap(E.Q, A.get(), 0, nullptr, nullptr));
  // Reading through the buffer sees what the SVM pointer wrote.
  A.get<int>()[5] = 12345;
  CLT_EXPECT(E.read<int>(B, N)[5] == 12345);

  std::vector<int> Plain(N);
  Mem H = E.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * sizeof(int),
                   Plain.data());
  CLT_EXPECT(usesSvm(H) == CL_FALSE);
  cl_int Err;
  Mem Big(clCreateBuffer(E.Ctx, CL_MEM_USE_HOST_PTR, N * sizeof(int) + 1,
                         A.get(), &Err));
  CLT_EXPECT_ERR(CL_INVALID_BUFFER_SIZE, Err);
  CLT_EXPECT(!Big);
}

/// Any pointer inside an allocation is an SVM pointer, and a sub-buffer of
/// an SVM buffer uses one too (OpenCL 3.0, CL_MEM_USES_SVM_POINTER).
CLT_TEST(svmBackedBufferInside) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 knows an SVM pointer only by its first byte");
  SvmAlloc A(E.Ctx, 1024);
  Mem Mid = E.buffer(CL_MEM_USE_HOST_PTR, 512, A.get<char>() + 256);
  CLT_EXPECT(usesSvm(Mid) == CL_TRUE);
  cl_int Err;
  Mem Over(clCreateBuffer(E.Ctx, CL_MEM_USE_HOST_PTR, 769, A.get<char>() + 256,
                          &Err));
  CLT_EXPECT_ERR(CL_INVALID_BUFFER_SIZE, Err);
  Mem Whole = E.buffer(CL_MEM_USE_HOST_PTR, 1024, A.get());
  cl_buffer_region R = {128, 128};
  Mem Sub(clCreateSubBuffer(Whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(usesSvm(Sub) == CL_TRUE);
  // Just past the allocation is not SVM.
  std::vector<char> Host(64);
  Mem Past = E.buffer(CL_MEM_USE_HOST_PTR, 64, Host.data());
  CLT_EXPECT(usesSvm(Past) == CL_FALSE);
}

namespace {
struct FreeRecord {
  std::atomic<int> Calls{0};
  cl_command_queue Queue = nullptr;
  std::vector<void *> Ptrs;
  cl_context Ctx = nullptr;
};
} // namespace

static void CL_CALLBACK freeCallback(cl_command_queue Q, cl_uint N,
                                     void *Ptrs[], void *Data) {
  auto *R = static_cast<FreeRecord *>(Data);
  R->Queue = Q;
  R->Ptrs.assign(Ptrs, Ptrs + N);
  for (cl_uint I = 0; I < N; ++I)
    clSVMFree(R->Ctx, Ptrs[I]);
  R->Calls.fetch_add(1);
}

/// The callback gets the queue, a copy of the list and the user data, once,
/// after the wait list; the implementation frees nothing itself then.
CLT_TEST(enqueueSvmFreeCallback) {
  FreeRecord Rec;
  Rec.Ctx = E.Ctx;
  void *Ptrs[2] = {clSVMAlloc(E.Ctx, CL_MEM_READ_WRITE, 64, 0),
                   clSVMAlloc(E.Ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0)};
  CLT_EXPECT(Ptrs[0] && Ptrs[1]);
  std::vector<void *> Want(Ptrs, Ptrs + 2);
  Event U = userEvent(E);
  cl_event G = U;
  Event Ev;
  CL_CHECK(clEnqueueSVMFree(E.Q, 2, Ptrs, freeCallback, &Rec, 1, &G, Ev.out()));
  Ptrs[0] = Ptrs[1] = nullptr;       // the list was copied at enqueue
  cl_uint Held = contextRefs(E.Ctx); // the allocations' references included
  settle();
  CLT_EXPECT(Rec.Calls.load() == 0);
  CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
  waitFor(Ev);
  CLT_EXPECT(commandType(Ev) == CL_COMMAND_SVM_FREE);
  CLT_EXPECT(Rec.Calls.load() == 1);
  CLT_EXPECT(Rec.Queue == E.Q.get());
  CLT_EXPECT(Rec.Ptrs == Want);
  // The callback's clSVMFree calls freed both.
  CLT_EXPECT(contextRefs(E.Ctx) == Held - 2);
}

/// Without a callback the allocations are freed when the command runs:
/// their references to the context go then.
CLT_TEST(enqueueSvmFree) {
  Event U = userEvent(E);
  cl_uint Before = contextRefs(E.Ctx);
  void *Ptrs[2] = {clSVMAlloc(E.Ctx, CL_MEM_READ_WRITE, 64, 0),
                   clSVMAlloc(E.Ctx, CL_MEM_READ_WRITE, 4096, 0)};
  CLT_EXPECT(Ptrs[0] && Ptrs[1]);
  CLT_EXPECT(contextRefs(E.Ctx) == Before + 2);
  cl_event G = U;
  Event Ev;
  CL_CHECK(clEnqueueSVMFree(E.Q, 2, Ptrs, nullptr, nullptr, 1, &G, Ev.out()));
  cl_uint Held = contextRefs(E.Ctx); // the command's event's, if any
  settle();
  CLT_EXPECT(contextRefs(E.Ctx) == Held);
  CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
  waitFor(Ev);
  CLT_EXPECT(commandType(Ev) == CL_COMMAND_SVM_FREE);
  CLT_EXPECT(contextRefs(E.Ctx) == Held - 2);
}

CLT_TEST(enqueueSvmFreeErrors) {
  void *Ptrs[1] = {nullptr};
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clEnqueueSVMFree(E.Q, 0, Ptrs, nullptr, nullptr, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clEnqueueSVMFree(E.Q, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clEnqueueSVMFree(nullptr, 1, Ptrs, nullptr, nullptr, 0,
                                  nullptr, nullptr));
  SvmAlloc A(E.Ctx, 64);
  void *Real[1] = {A.get()};
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueSVMFree(E.Q, 1, Real, nullptr, nullptr, 1, nullptr, nullptr));
  // OpenCL 3.0: an empty list (0 and NULL) is no error; pocl 3.1 refuses it.
  if (E.IsPoclIss) {
    Event Ev;
    CL_CHECK(clEnqueueSVMFree(E.Q, 0, nullptr, nullptr, nullptr, 0, nullptr,
                              Ev.out()));
    waitFor(Ev);
  }
}

CLT_TEST(migrate) {
  SvmAlloc A(E.Ctx, 1024), B(E.Ctx, 512, CL_MEM_SVM_FINE_GRAIN_BUFFER);
  const void *Ptrs[2] = {A.get<char>() + 100, B.get()};
  const size_t Sizes[2] = {900, 0};
  for (cl_mem_migration_flags F :
       {cl_mem_migration_flags(0),
        cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST),
        cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
        cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                               CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)}) {
    Event Ev;
    CL_CHECK(
        clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, Sizes, F, 0, nullptr, Ev.out()));
    waitFor(Ev);
    CLT_EXPECT(commandType(Ev) == CL_COMMAND_SVM_MIGRATE_MEM);
  }
  CL_CHECK(
      clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, nullptr, 0, 0, nullptr, nullptr));
  // Migrating keeps the contents.
  std::memset(A.get(), 0x11, 1024);
  CL_CHECK(clEnqueueSVMMigrateMem(
      E.Q, 1, Ptrs, nullptr, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
  CL_CHECK(clFinish(E.Q));
  CLT_EXPECT(A.get<unsigned char>()[1023] == 0x11);

  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clEnqueueSVMMigrateMem(E.Q, 0, Ptrs, Sizes, 0, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clEnqueueSVMMigrateMem(E.Q, 2, nullptr, Sizes, 0, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, Sizes, 0x100, 0, nullptr, nullptr));
  const void *WithNull[2] = {A.get(), nullptr};
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueSVMMigrateMem(E.Q, 2, WithNull, nullptr, 0, 0,
                                        nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_COMMAND_QUEUE,
      clEnqueueSVMMigrateMem(nullptr, 2, Ptrs, Sizes, 0, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, Sizes, 0, 1, nullptr, nullptr));
  // A range must lie in one allocation; pocl 3.1 does not check.
  if (E.IsPoclIss) {
    const size_t TooLong[2] = {925, 0};
    CLT_EXPECT_ERR(
        CL_INVALID_VALUE,
        clEnqueueSVMMigrateMem(E.Q, 2, Ptrs, TooLong, 0, 0, nullptr, nullptr));
    char Host[16];
    const void *NotSvm[1] = {Host};
    const size_t Sixteen[1] = {16};
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clEnqueueSVMMigrateMem(E.Q, 1, NotSvm, Sixteen, 0, 0,
                                          nullptr, nullptr));
  }
}

/// clSetKernelArgSVMPointer: __global and __constant pointers only, any
/// pointer value (pocl 3.1 takes host pointers and NULL too); a later
/// clSetKernelArg replaces it.
CLT_TEST(setKernelArgSvmPointer) {
  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "args");
  SvmAlloc G(E.Ctx, 64), C(E.Ctx, 64);
  CLT_EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(K, 1, G.get()));
  CLT_EXPECT_ERR(CL_INVALID_ARG_VALUE, clSetKernelArgSVMPointer(K, 2, G.get()));
  CLT_EXPECT_ERR(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(K, 4, G.get()));
  CLT_EXPECT_ERR(CL_INVALID_KERNEL,
                 clSetKernelArgSVMPointer(nullptr, 0, G.get()));
  int Host[4];
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, Host));
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, nullptr));

  CL_CHECK(clSetKernelArgSVMPointer(K, 0, G.get()));
  setLocalArg(K, 1, sizeof(int));
  setArg(K, 2, 40);
  CL_CHECK(clSetKernelArgSVMPointer(K, 3, C.get()));
  *C.get<int>() = 2;
  G.get<int>()[0] = 0;
  size_t One = 1;
  E.run(K, 1, &One, &One);
  CLT_EXPECT_MSG(G.get<int>()[0] == 42, std::to_string(G.get<int>()[0]));

  // A buffer set afterwards takes the argument's place.
  Mem B = E.buffer(CL_MEM_READ_WRITE, sizeof(int));
  setArg(K, 0, B);
  setArg(K, 2, 50);
  E.run(K, 1, &One, &One);
  CLT_EXPECT(E.read<int>(B, 1)[0] == 52);
  CLT_EXPECT(G.get<int>()[0] == 42);
}

/// Pointers stored in SVM, reached by a kernel through
/// CL_KERNEL_EXEC_INFO_SVM_PTRS; a clone keeps the SVM argument.
CLT_TEST(execInfoAndClone) {
  Program P = E.build(R"CLC(
typedef struct Node { __global struct Node *next; int value; } Node;
__kernel void sum(__global Node *head, __global int *out) {
  int s = 0;
  for (__global Node *n = head; n; n = n->next)
    s += n->value;
  out[get_global_id(0)] = s + (int)get_global_id(0);
}
)CLC");
  Kernel K = E.kernel(P, "sum");
  struct Node {
    Node *Next;
    int Value;
  };
  const int Len = 5;
  std::vector<std::unique_ptr<SvmAlloc>> Nodes;
  for (int I = 0; I < Len; ++I)
    Nodes.push_back(std::make_unique<SvmAlloc>(E.Ctx, sizeof(Node),
                                               CL_MEM_SVM_FINE_GRAIN_BUFFER));
  std::vector<void *> Extra;
  for (int I = 0; I < Len; ++I) {
    Node *N = Nodes[I]->get<Node>();
    N->Value = (I + 1) * 10;
    N->Next = I + 1 < Len ? Nodes[I + 1]->get<Node>() : nullptr;
    if (I)
      Extra.push_back(Nodes[I]->get());
  }
  SvmAlloc Out(E.Ctx, 8 * sizeof(int), CL_MEM_SVM_FINE_GRAIN_BUFFER);
  CL_CHECK(clSetKernelArgSVMPointer(K, 0, Nodes[0]->get()));
  CL_CHECK(clSetKernelArgSVMPointer(K, 1, Out.get()));
  CL_CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                               Extra.size() * sizeof(void *), Extra.data()));
  cl_bool False = CL_FALSE;
  CL_CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                               sizeof(False), &False));
  E.run1(K, 8);
  for (int I = 0; I < 8; ++I)
    CLT_EXPECT_MSG(Out.get<int>()[I] == 150 + I,
                   std::to_string(Out.get<int>()[I]));

  cl_int Err;
  Kernel Clone(clCloneKernel(K, &Err));
  CL_CHECK(Err);
  Nodes[2]->get<Node>()->Value = 1000;
  std::fill_n(Out.get<int>(), 8, 0);
  E.run1(Clone, 8);
  for (int I = 0; I < 8; ++I)
    CLT_EXPECT_MSG(Out.get<int>()[I] == 1120 + I,
                   std::to_string(Out.get<int>()[I]));
  // An empty set is allowed.
  CL_CHECK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
}

/// The exec info errors the specification lists; pocl 3.1 takes anything.
CLT_TEST(execInfoErrors) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 takes any exec info");
  Program P = E.build(ScaleSrc);
  Kernel K = E.kernel(P, "iota3");
  cl_bool True = CL_TRUE;
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clSetKernelExecInfo(K,
                                     CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                     sizeof(True), &True));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clSetKernelExecInfo(
                     K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &True));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, nullptr));
  void *Ptrs[2] = {nullptr, nullptr};
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 12, Ptrs));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clSetKernelExecInfo(K, 0x7777, sizeof(True), &True));
  CLT_EXPECT_ERR(
      CL_INVALID_KERNEL,
      clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
}

/// Handles of the wrong kind reach our entries (the loader dispatches on
/// their first word): each answers its handle's CL_INVALID_* code.
CLT_TEST(wrongKindHandles) {
  if (!E.IsPoclIss)
    CLT_SKIP("wrong-kind handles are undefined elsewhere");
  Mem B = E.buffer(CL_MEM_READ_WRITE, 64);
  auto *NotQueue = reinterpret_cast<cl_command_queue>(B.get());
  auto *NotKernel = reinterpret_cast<cl_kernel>(B.get());
  auto *NotContext = reinterpret_cast<cl_context>(B.get());
  char Host[64];
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clEnqueueSVMMemcpy(NotQueue, CL_TRUE, Host, Host + 32, 4, 0,
                                    nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 clEnqueueSVMUnmap(NotQueue, Host, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_KERNEL,
                 clSetKernelArgSVMPointer(NotKernel, 0, Host));
  CLT_EXPECT_ERR(
      CL_INVALID_KERNEL,
      clSetKernelExecInfo(NotKernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
  CLT_EXPECT(clSVMAlloc(NotContext, CL_MEM_READ_WRITE, 64, 0) == nullptr);
  clSVMFree(NotContext, Host); // ignored
}
