//===- NativeKernelTest.cpp - clEnqueueNativeKernel -----------------------===//
// SPDX-License-Identifier: MIT
//
// Native kernels (OpenCL 3.0, section 5.10): a host function called with a
// copy of an argument block in which each buffer handle named by
// args_mem_loc became the buffer's data pointer. Checked: the device's
// CL_EXEC_NATIVE_KERNEL capability, results through buffers and
// sub-buffers, that the block is copied at enqueue time, events (command
// type, wait lists, a failed dependency) and every error code the
// specification lists.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <vector>

using namespace clt;

namespace {
/// The argument block of addVectors: the cl_mem handles are replaced by
/// data pointers in the copy the function gets.
struct AddArgs {
  const int *A;
  const int *B;
  int *C;
  int N;
  int Bias;
};
} // namespace

static void CL_CALLBACK addVectors(void *P) {
  auto *Args = static_cast<AddArgs *>(P);
  for (int I = 0; I < Args->N; ++I)
    Args->C[I] = Args->A[I] + Args->B[I] + Args->Bias;
}

/// Counts its calls in the int its argument block points at.
static void CL_CALLBACK countCall(void *P) {
  int *Counter = *static_cast<int **>(P);
  ++*Counter;
}

static void CL_CALLBACK noArgs(void *P) {
  if (P)
    std::abort(); // args NULL must reach the function as NULL
}

/// Enqueues countCall on \p Counter with \p M as its one memory object
/// (the block's second pointer).
static cl_int enqueueCount(const Env &E, cl_mem M, int &Counter) {
  struct {
    int *Counter;
    void *Buf;
  } Args = {&Counter, reinterpret_cast<void *>(1)};
  const void *Locs[1] = {&Args.Buf};
  return clEnqueueNativeKernel(E.Q, countCall, &Args, sizeof(Args), 1, &M, Locs,
                               0, nullptr, nullptr);
}

/// Enqueues addVectors on \p A + \p B into \p C.
static cl_int enqueueAdd(const Env &E, cl_mem A, cl_mem B, cl_mem C, int N,
                         int Bias, cl_uint NumWait = 0,
                         const cl_event *Wait = nullptr,
                         cl_event *Ev = nullptr) {
  AddArgs Args = {nullptr, nullptr, nullptr, N, Bias};
  cl_mem Mems[3] = {A, B, C};
  const void *Locs[3] = {&Args.A, &Args.B, &Args.C};
  return clEnqueueNativeKernel(E.Q, addVectors, &Args, sizeof(Args), 3, Mems,
                               Locs, NumWait, Wait, Ev);
}

CLT_TEST(capability) {
  auto Caps = E.deviceValue<cl_device_exec_capabilities>(
      CL_DEVICE_EXECUTION_CAPABILITIES);
  CLT_EXPECT(Caps & CL_EXEC_KERNEL);
  CLT_EXPECT(Caps & CL_EXEC_NATIVE_KERNEL);
}

CLT_TEST(addsThroughBuffers) {
  const int N = 1000;
  std::vector<int> A = randomVector<int>(N, -1000, 1000, 1);
  std::vector<int> B = randomVector<int>(N, -1000, 1000, 2);
  Mem DA = E.input(A), DB = E.input(B), DC = E.output<int>(N);
  CL_CHECK(enqueueAdd(E, DA, DB, DC, N, 7));
  std::vector<int> Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = A[I] + B[I] + 7;
  expectEqual(E.read<int>(DC, N), Want, "native a + b + 7");
}

/// A sub-buffer's pointer is its region of the parent.
CLT_TEST(subBuffers) {
  // Debian's pocl 3.1 crashes running the command (a segmentation fault;
  // its source swaps the sub-buffer for its parent).
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 crashes on a sub-buffer in mem_list");
  const int N = 64;
  std::vector<int> A(2 * N);
  for (int I = 0; I < 2 * N; ++I)
    A[I] = I;
  Mem Parent = E.input(A);
  cl_buffer_region R = {N * sizeof(int), N * sizeof(int)};
  cl_int Err;
  Mem Sub(clCreateSubBuffer(Parent, CL_MEM_READ_ONLY,
                            CL_BUFFER_CREATE_TYPE_REGION, &R, &Err));
  CL_CHECK(Err);
  Mem DC = E.output<int>(N);
  CL_CHECK(enqueueAdd(E, Sub, Sub, DC, N, 0));
  std::vector<int> Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = 2 * (N + I);
  expectEqual(E.read<int>(DC, N), Want, "sub-buffer + sub-buffer");
}

/// A NULL entry of mem_list (allowed by the specification: "or NULL")
/// becomes a NULL pointer.
CLT_TEST(nullMemEntry) {
  // Debian's pocl 3.1 refuses it with CL_INVALID_MEM_OBJECT.
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 refuses a NULL entry of mem_list");
  int Counter = 0;
  CL_CHECK(enqueueCount(E, nullptr, Counter));
  CL_CHECK(clFinish(E.Q));
  CLT_EXPECT(Counter == 1);
}

/// The block is copied when enqueued: changing it while the command waits
/// changes nothing.
CLT_TEST(argsCopiedAtEnqueue) {
  const int N = 16;
  std::vector<int> A(N, 1), B(N, 2);
  Mem DA = E.input(A), DB = E.input(B), DC = E.output<int>(N);
  Event Gate = userEvent(E);
  cl_event G = Gate.get();
  {
    AddArgs Args = {nullptr, nullptr, nullptr, N, 100};
    cl_mem Mems[3] = {DA, DB, DC};
    const void *Locs[3] = {&Args.A, &Args.B, &Args.C};
    CL_CHECK(clEnqueueNativeKernel(E.Q, addVectors, &Args, sizeof(Args), 3,
                                   Mems, Locs, 1, &G, nullptr));
    Args.Bias = -5;
    Args.N = 1;
  }
  settle();
  CL_CHECK(clSetUserEventStatus(Gate, CL_COMPLETE));
  expectEqual(E.read<int>(DC, N), std::vector<int>(N, 103), "bias as enqueued");
}

CLT_TEST(noArguments) {
  Event Ev;
  CL_CHECK(clEnqueueNativeKernel(E.Q, noArgs, nullptr, 0, 0, nullptr, nullptr,
                                 0, nullptr, Ev.out()));
  waitFor(Ev);
  CLT_EXPECT(eventStatus(Ev) == CL_COMPLETE);
}

/// The event: CL_COMMAND_NATIVE_KERNEL, held back by its wait list, ordered
/// with the queue's other commands, failed when a dependency failed.
CLT_TEST(events) {
  int Counter = 0;
  int *Ptr = &Counter;
  Event Gate = userEvent(E);
  cl_event G = Gate.get();
  Event Ev;
  CL_CHECK(clEnqueueNativeKernel(E.Q, countCall, &Ptr, sizeof(Ptr), 0, nullptr,
                                 nullptr, 1, &G, Ev.out()));
  cl_command_type T = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_TYPE, sizeof(T), &T, nullptr));
  CLT_EXPECT(T == CL_COMMAND_NATIVE_KERNEL);
  settle();
  CLT_EXPECT(Counter == 0);
  CLT_EXPECT(eventStatus(Ev) > CL_COMPLETE);
  CL_CHECK(clSetUserEventStatus(Gate, CL_COMPLETE));
  waitFor(Ev);
  CLT_EXPECT(Counter == 1);
  cl_ulong Start = 0, End = 0;
  CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_START,
                                   sizeof(Start), &Start, nullptr));
  CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_END, sizeof(End),
                                   &End, nullptr));
  CLT_EXPECT(Start > 0 && Start <= End);

  // A kernel's output read by a native kernel in the same in-order queue.
  Program P = E.build("__kernel void fill(__global int *o) {"
                      "  o[get_global_id(0)] = (int)get_global_id(0); }");
  Kernel K = E.kernel(P, "fill");
  const int N = 256;
  Mem DA = E.output<int>(N), DZ = E.input(std::vector<int>(N, 0)),
      DC = E.output<int>(N);
  setArg(K, 0, DA);
  size_t G1 = N;
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &G1, nullptr, 0, nullptr,
                                  nullptr));
  CL_CHECK(enqueueAdd(E, DA, DZ, DC, N, 1));
  std::vector<int> Want(N);
  for (int I = 0; I < N; ++I)
    Want[I] = I + 1;
  expectEqual(E.read<int>(DC, N), Want, "kernel then native kernel");

  // A failed dependency: the native kernel does not run.
  Event Bad = userEvent(E);
  cl_event BadE = Bad.get();
  Event Failed;
  CL_CHECK(clEnqueueNativeKernel(E.Q, countCall, &Ptr, sizeof(Ptr), 0, nullptr,
                                 nullptr, 1, &BadE, Failed.out()));
  CL_CHECK(clSetUserEventStatus(Bad, -1));
  cl_event FailedE = Failed.get();
  CLT_EXPECT(clWaitForEvents(1, &FailedE) ==
             CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CLT_EXPECT(eventStatus(Failed) < 0);
  CLT_EXPECT(Counter == 1);
}

CLT_TEST(errors) {
  const int N = 4;
  Mem DA = E.output<int>(N);
  AddArgs Args = {nullptr, nullptr, nullptr, N, 0};
  cl_mem Mems[3] = {DA, DA, DA};
  const void *Locs[3] = {&Args.A, &Args.B, &Args.C};
  const size_t Size = sizeof(Args);
  auto Enqueue = [&](cl_command_queue Q, void(CL_CALLBACK * Fn)(void *),
                     void *A, size_t S, cl_uint NM, const cl_mem *ML,
                     const void **L, cl_uint NW = 0,
                     const cl_event *W = nullptr) {
    return clEnqueueNativeKernel(Q, Fn, A, S, NM, ML, L, NW, W, nullptr);
  };
  CLT_EXPECT_ERR(CL_INVALID_COMMAND_QUEUE,
                 Enqueue(nullptr, addVectors, &Args, Size, 3, Mems, Locs));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, nullptr, &Args, Size, 3, Mems, Locs));
  // args NULL with cb_args > 0, or with memory objects.
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, nullptr, Size, 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, nullptr, 0, 3, Mems, Locs));
  // args with cb_args 0.
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, &Args, 0, 0, nullptr, nullptr));
  // num_mem_objects > 0 with mem_list or args_mem_loc NULL, and 0 with
  // either given.
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, &Args, Size, 3, nullptr, Locs));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, &Args, Size, 3, Mems, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, &Args, Size, 0, Mems, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 Enqueue(E.Q, addVectors, &Args, Size, 0, nullptr, Locs));
  // The wait list.
  CLT_EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                 Enqueue(E.Q, addVectors, &Args, Size, 3, Mems, Locs, 1));
  Event U = userEvent(E);
  cl_event UE = U.get();
  CLT_EXPECT_ERR(CL_INVALID_EVENT_WAIT_LIST,
                 Enqueue(E.Q, addVectors, &Args, Size, 3, Mems, Locs, 0, &UE));
  cl_event NullEvent = nullptr;
  CLT_EXPECT_ERR(
      CL_INVALID_EVENT_WAIT_LIST,
      Enqueue(E.Q, addVectors, &Args, Size, 3, Mems, Locs, 1, &NullEvent));
  // An event of another context.
  Event OtherU = foreignUserEvent(E);
  cl_event OE = OtherU.get();
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 Enqueue(E.Q, addVectors, &Args, Size, 3, Mems, Locs, 1, &OE));
  CL_CHECK(clSetUserEventStatus(OtherU, CL_COMPLETE));
  CL_CHECK(clSetUserEventStatus(U, CL_COMPLETE));
  CL_CHECK(clFinish(E.Q));
}

/// An image in mem_list is not a buffer object: CL_INVALID_MEM_OBJECT.
/// Debian's pocl 3.1 takes it (and the command then crashes).
CLT_TEST(imageRefused) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 takes an image in mem_list");
  if (!E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    CLT_SKIP("no images");
  Mem Img = E.image2D({CL_RGBA, CL_UNSIGNED_INT8}, 4, 4);
  int Counter = 0;
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, enqueueCount(E, Img, Counter));
}

/// A released buffer in mem_list is CL_INVALID_MEM_OBJECT. Debian's pocl
/// 3.1 reads the freed object and aborts ("PTHREAD ERROR in
/// can_run_command"): a case for pocl-iss only.
CLT_TEST(releasedBufferRefused) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 aborts on a released buffer in mem_list");
  cl_int Err;
  cl_mem Gone = clCreateBuffer(E.Ctx, CL_MEM_READ_WRITE, 16, nullptr, &Err);
  CL_CHECK(Err);
  CL_CHECK(clReleaseMemObject(Gone));
  int Counter = 0;
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, enqueueCount(E, Gone, Counter));
  CL_CHECK(clFinish(E.Q));
  CLT_EXPECT(Counter == 0);
}

/// An args_mem_loc entry outside the argument block would make the runtime
/// write outside its copy. The specification lists no error for it; pocl-iss
/// answers CL_INVALID_VALUE. Debian's pocl 3.1 asserts (aborts) on a
/// location below args, so this case runs on pocl-iss only.
CLT_TEST(memLocOutsideArgs) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 aborts on an args_mem_loc outside args (an assert)");
  Mem DA = E.output<int>(4);
  AddArgs Args[2] = {};
  cl_mem Mems[1] = {DA};
  const void *Below[1] = {&Args[0].A};
  // 4 bytes before the block's end: no room for a pointer.
  const void *Past[1] = {&Args[0].Bias};
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueNativeKernel(E.Q, addVectors, &Args[1],
                                       sizeof(AddArgs), 1, Mems, Below, 0,
                                       nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueNativeKernel(E.Q, addVectors, &Args[0],
                                       sizeof(AddArgs), 1, Mems, Past, 0,
                                       nullptr, nullptr));
}
