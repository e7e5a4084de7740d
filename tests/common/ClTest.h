//===- ClTest.h - The OpenCL host harness of tests and examples -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// What every OpenCL host program of the tree shares: the runtime API tests
// (tests/runtime), the end-to-end kernels (tests/kernels) and the benchmark
// applications (examples). All of them go through the ICD loader and never
// link libpocl-iss, so the same binary runs on pocl-iss and on Debian's pocl.
// This header needs nothing but the OpenCL headers and the loader; the test
// runner (main) is ClTest.cpp, which only the tests link.
//
// - errorName, CL_CHECK and the CLT_EXPECT* checks, which throw
//   clt::Failure with the file, line and symbolic error name; CLT_SKIP.
// - Handle: RAII holders for CL objects (Context, Queue, Mem, ...).
// - The platform: the first whose name contains a needle, case-insensitive,
//   an exact name first. Tests use testPlatformNeedle(): ISS_TEST_PLATFORM,
//   or "pocl-iss" (ISS_TEST_PLATFORM=Portable checks the tests themselves on
//   Debian's pocl). timeScale(): ISS_TEST_TIME_SCALE, for the time limits.
// - Env: a device with its context and profiling in-order queue, and the
//   small steps every program takes (build with the log, buffers, reads,
//   launches).
// - Test cases: CLT_TEST(Name) { ... E ... } registers a case; ClTest.cpp
//   runs each with a fresh Env.
// - Comparisons against host references (exact, relative, ULP) and kernel
//   time from event profiling.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_COMMON_CLTEST_H
#define POCL_ISS_TESTS_COMMON_CLTEST_H

#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace clt {

//===-- Errors ------------------------------------------------------------===//

inline const char *errorName(cl_int Err) {
  switch (Err) {
#define CLT_NAME(E)                                                            \
  case E:                                                                      \
    return #E;
    CLT_NAME(CL_SUCCESS)
    CLT_NAME(CL_DEVICE_NOT_FOUND)
    CLT_NAME(CL_DEVICE_NOT_AVAILABLE)
    CLT_NAME(CL_COMPILER_NOT_AVAILABLE)
    CLT_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CLT_NAME(CL_OUT_OF_RESOURCES)
    CLT_NAME(CL_OUT_OF_HOST_MEMORY)
    CLT_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    CLT_NAME(CL_MEM_COPY_OVERLAP)
    CLT_NAME(CL_IMAGE_FORMAT_MISMATCH)
    CLT_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    CLT_NAME(CL_BUILD_PROGRAM_FAILURE)
    CLT_NAME(CL_MAP_FAILURE)
    CLT_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    CLT_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    CLT_NAME(CL_COMPILE_PROGRAM_FAILURE)
    CLT_NAME(CL_LINKER_NOT_AVAILABLE)
    CLT_NAME(CL_LINK_PROGRAM_FAILURE)
    CLT_NAME(CL_DEVICE_PARTITION_FAILED)
    CLT_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    CLT_NAME(CL_INVALID_VALUE)
    CLT_NAME(CL_INVALID_DEVICE_TYPE)
    CLT_NAME(CL_INVALID_PLATFORM)
    CLT_NAME(CL_INVALID_DEVICE)
    CLT_NAME(CL_INVALID_CONTEXT)
    CLT_NAME(CL_INVALID_QUEUE_PROPERTIES)
    CLT_NAME(CL_INVALID_COMMAND_QUEUE)
    CLT_NAME(CL_INVALID_HOST_PTR)
    CLT_NAME(CL_INVALID_MEM_OBJECT)
    CLT_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    CLT_NAME(CL_INVALID_IMAGE_SIZE)
    CLT_NAME(CL_INVALID_SAMPLER)
    CLT_NAME(CL_INVALID_BINARY)
    CLT_NAME(CL_INVALID_BUILD_OPTIONS)
    CLT_NAME(CL_INVALID_PROGRAM)
    CLT_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    CLT_NAME(CL_INVALID_KERNEL_NAME)
    CLT_NAME(CL_INVALID_KERNEL_DEFINITION)
    CLT_NAME(CL_INVALID_KERNEL)
    CLT_NAME(CL_INVALID_ARG_INDEX)
    CLT_NAME(CL_INVALID_ARG_VALUE)
    CLT_NAME(CL_INVALID_ARG_SIZE)
    CLT_NAME(CL_INVALID_KERNEL_ARGS)
    CLT_NAME(CL_INVALID_WORK_DIMENSION)
    CLT_NAME(CL_INVALID_WORK_GROUP_SIZE)
    CLT_NAME(CL_INVALID_WORK_ITEM_SIZE)
    CLT_NAME(CL_INVALID_GLOBAL_OFFSET)
    CLT_NAME(CL_INVALID_EVENT_WAIT_LIST)
    CLT_NAME(CL_INVALID_EVENT)
    CLT_NAME(CL_INVALID_OPERATION)
    CLT_NAME(CL_INVALID_GL_OBJECT)
    CLT_NAME(CL_INVALID_BUFFER_SIZE)
    CLT_NAME(CL_INVALID_MIP_LEVEL)
    CLT_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    CLT_NAME(CL_INVALID_PROPERTY)
    CLT_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    CLT_NAME(CL_INVALID_COMPILER_OPTIONS)
    CLT_NAME(CL_INVALID_LINKER_OPTIONS)
    CLT_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef CLT_NAME
  // The codes of later versions, whatever CL_TARGET_OPENCL_VERSION is.
  case -69:
    return "CL_INVALID_PIPE_SIZE";
  case -70:
    return "CL_INVALID_DEVICE_QUEUE";
  case -71:
    return "CL_INVALID_SPEC_ID";
  case -72:
    return "CL_MAX_SIZE_RESTRICTION_EXCEEDED";
  default:
    return "CL_<unknown error>";
  }
}

/// A failed check. Tests catch it per case, so one broken case does not
/// hide the others; the examples report it and stop.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// clBuildProgram failed; \p Log is the build log. Kept apart so that a
/// caller can tell a platform's missing feature from a broken run.
struct BuildFailure : Failure {
  BuildFailure(const std::string &What, cl_int Err, std::string Log)
      : Failure(What), Err(Err), Log(std::move(Log)) {}
  cl_int Err;
  std::string Log;
};

/// Thrown by CLT_SKIP: the case does not apply to the device.
struct Skipped {
  std::string Reason;
};

[[noreturn]] inline void fail(const std::string &Msg) { throw Failure(Msg); }

[[noreturn]] inline void fail(const char *File, int Line,
                              const std::string &Msg) {
  const char *Base = std::strrchr(File, '/');
  fail(std::string(Base ? Base + 1 : File) + ":" + std::to_string(Line) + ": " +
       Msg);
}

#define CL_CHECK(Expr)                                                         \
  do {                                                                         \
    cl_int CltErr_ = (Expr);                                                   \
    if (CltErr_ != CL_SUCCESS)                                                 \
      ::clt::fail(__FILE__, __LINE__,                                          \
                  std::string(#Expr " returned ") +                            \
                      ::clt::errorName(CltErr_));                              \
  } while (0)

/// Checks that \p Expr returns exactly the error \p Expected.
#define CLT_EXPECT_ERR(Expected, Expr)                                         \
  do {                                                                         \
    cl_int CltErr_ = (Expr);                                                   \
    if (CltErr_ != (Expected))                                                 \
      ::clt::fail(__FILE__, __LINE__,                                          \
                  std::string(#Expr " returned ") +                            \
                      ::clt::errorName(CltErr_) + ", expected " +              \
                      ::clt::errorName(Expected));                             \
  } while (0)

#define CLT_EXPECT(Cond)                                                       \
  do {                                                                         \
    if (!(Cond))                                                               \
      ::clt::fail(__FILE__, __LINE__, "expected " #Cond);                      \
  } while (0)

#define CLT_EXPECT_MSG(Cond, Msg)                                              \
  do {                                                                         \
    if (!(Cond))                                                               \
      ::clt::fail(__FILE__, __LINE__,                                          \
                  std::string("expected " #Cond ": ") + (Msg));                \
  } while (0)

#define CLT_SKIP(Why)                                                          \
  throw ::clt::Skipped { Why }

//===-- RAII holders ------------------------------------------------------===//

/// A CL handle owned by one C++ object.
template <typename T, cl_int(CL_API_CALL *Release)(T)> class Handle {
public:
  Handle() = default;
  explicit Handle(T H) : H(H) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  Handle &operator=(Handle &&O) noexcept {
    reset(std::exchange(O.H, nullptr));
    return *this;
  }
  ~Handle() { reset(); }
  void reset(T New = nullptr) {
    if (H)
      Release(H);
    H = New;
  }
  /// Gives up ownership (after the test released the handle itself).
  T release() { return std::exchange(H, nullptr); }
  /// For out-parameters: drops the current handle first.
  T *out() {
    reset();
    return &H;
  }
  T get() const { return H; }
  operator T() const { return H; }

private:
  T H = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Mem = Handle<cl_mem, clReleaseMemObject>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Event = Handle<cl_event, clReleaseEvent>;
using Sampler = Handle<cl_sampler, clReleaseSampler>;

//===-- Platforms ---------------------------------------------------------===//

inline std::string lower(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

inline std::string platformName(cl_platform_id P) {
  char Name[256] = {0};
  clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name, nullptr);
  return Name;
}

inline std::vector<cl_platform_id> platforms() {
  cl_uint N = 0;
  if (clGetPlatformIDs(0, nullptr, &N) != CL_SUCCESS || N == 0)
    return {};
  std::vector<cl_platform_id> Ps(N);
  if (clGetPlatformIDs(N, Ps.data(), nullptr) != CL_SUCCESS)
    return {};
  return Ps;
}

/// pocl-iss names itself "pocl-iss"; checks of our own values (and the
/// ablation modes) only mean something there.
inline bool isPoclIss(const std::string &PlatformName) {
  return lower(PlatformName).find("pocl-iss") != std::string::npos;
}

/// The platform the tests run on: ISS_TEST_PLATFORM, or "pocl-iss".
inline std::string testPlatformNeedle() {
  const char *Want = std::getenv("ISS_TEST_PLATFORM");
  return Want && *Want ? Want : "pocl-iss";
}

/// How many times longer than usual the tests' own time limits are (the
/// runner's per-case watchdog, the stress test's hang detector, waiting for
/// a child): ISS_TEST_TIME_SCALE, a whole number, default 1. The sanitizer
/// builds set it for every test (cmake/PoclIssSanitize.cmake), their code
/// being several times slower; a limit is for hangs, not for slowness.
inline int timeScale() {
  const char *V = std::getenv("ISS_TEST_TIME_SCALE");
  int S = V ? std::atoi(V) : 1;
  return S > 0 ? S : 1;
}

/// The platform named exactly \p Needle, else the first whose name contains
/// it (case-insensitive); null if none. \p Seen gets the names there are.
inline cl_platform_id findPlatform(const std::string &Needle,
                                   std::string *Seen = nullptr) {
  std::vector<cl_platform_id> Ps = platforms();
  cl_platform_id Found = nullptr;
  for (cl_platform_id P : Ps)
    if (!Found && platformName(P) == Needle)
      Found = P;
  for (cl_platform_id P : Ps)
    if (!Found &&
        lower(platformName(P)).find(lower(Needle)) != std::string::npos)
      Found = P;
  if (Seen) {
    Seen->clear();
    for (cl_platform_id P : Ps)
      *Seen += (Seen->empty() ? "\"" : ", \"") + platformName(P) + "\"";
    if (Seen->empty())
      *Seen = "none";
  }
  return Found;
}

//===-- The device, its context and queue ---------------------------------===//

/// One device with a context and an in-order queue with profiling.
struct Env {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  std::string PlatformName;
  bool IsPoclIss = false; ///< checks of our own values only then
  Context Ctx;
  Queue Q;

  /// Picks the platform matching \p Needle (findPlatform) and its first
  /// device. Not finding it is a failure: under CTest the build tree's
  /// vendors/ folder always names our library.
  void choose(const std::string &Needle) {
    std::string Seen;
    Platform = findPlatform(Needle, &Seen);
    if (!Platform)
      fail("no OpenCL platform matching \"" + Needle + "\" (found: " + Seen +
           "); set OCL_ICD_VENDORS, and ISS_TEST_PLATFORM for another one");
    PlatformName = platformName(Platform);
    IsPoclIss = isPoclIss(PlatformName);
    cl_int Err =
        clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr);
    if (Err != CL_SUCCESS)
      fail("platform \"" + PlatformName +
           "\" has no devices: " + errorName(Err));
  }

  /// A fresh context and queue for the chosen device.
  void connect() {
    cl_int Err;
    Ctx.reset(clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err));
    CL_CHECK(Err);
    Q.reset(clCreateCommandQueue(Ctx, Device, CL_QUEUE_PROFILING_ENABLE, &Err));
    CL_CHECK(Err);
  }

  /// choose() and connect().
  void open(const std::string &Needle) {
    choose(Needle);
    connect();
  }

  std::string deviceString(cl_device_info Param) const {
    size_t N = 0;
    CL_CHECK(clGetDeviceInfo(Device, Param, 0, nullptr, &N));
    std::string S(N, '\0');
    CL_CHECK(clGetDeviceInfo(Device, Param, N, &S[0], nullptr));
    if (!S.empty() && S.back() == '\0')
      S.pop_back();
    return S;
  }
  template <typename T> T deviceValue(cl_device_info Param) const {
    T V{};
    CL_CHECK(clGetDeviceInfo(Device, Param, sizeof(T), &V, nullptr));
    return V;
  }
  bool hasExtension(const char *Ext) const {
    std::string List = " " + deviceString(CL_DEVICE_EXTENSIONS) + " ";
    return List.find(std::string(" ") + Ext + " ") != std::string::npos;
  }

  std::string buildLog(cl_program P) const {
    size_t N = 0;
    CL_CHECK(
        clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N));
    std::string Log(N, '\0');
    CL_CHECK(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, N, &Log[0],
                                   nullptr));
    if (!Log.empty() && Log.back() == '\0')
      Log.pop_back();
    return Log;
  }
  /// Builds \p Src; a failure (BuildFailure) carries the build log.
  Program build(const char *Src, const std::string &Options = "") const {
    cl_int Err;
    Program P(clCreateProgramWithSource(Ctx, 1, &Src, nullptr, &Err));
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &Device, Options.c_str(), nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      std::string Log = buildLog(P);
      throw BuildFailure(std::string("clBuildProgram returned ") +
                             errorName(Err) + "; log:\n" + Log,
                         Err, Log);
    }
    return P;
  }
  Kernel kernel(cl_program P, const char *Name) const {
    cl_int Err;
    Kernel K(clCreateKernel(P, Name, &Err));
    CL_CHECK(Err);
    return K;
  }

  /// clCreateBuffer with the flags as given.
  Mem buffer(cl_mem_flags Flags, size_t Size,
             const void *Host = nullptr) const {
    cl_int Err;
    Mem M(clCreateBuffer(Ctx, Flags, Size, const_cast<void *>(Host), &Err));
    CL_CHECK(Err);
    return M;
  }
  /// An uninitialized 2D image of \p W x \p H pixels.
  Mem image2D(const cl_image_format &F, size_t W, size_t H,
              cl_mem_flags Flags = CL_MEM_READ_WRITE) const {
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    cl_int Err;
    Mem M(clCreateImage(Ctx, Flags, &F, &D, nullptr, &Err));
    CL_CHECK(Err);
    return M;
  }
  /// A read-only buffer holding \p V.
  template <typename T> Mem input(const std::vector<T> &V) const {
    return buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, V.size() * sizeof(T),
                  V.data());
  }
  template <typename T> Mem output(size_t N) const {
    return buffer(CL_MEM_READ_WRITE, N * sizeof(T));
  }
  template <typename T> void write(cl_mem M, const std::vector<T> &V) const {
    CL_CHECK(clEnqueueWriteBuffer(Q, M, CL_TRUE, 0, V.size() * sizeof(T),
                                  V.data(), 0, nullptr, nullptr));
  }
  /// Reads \p V.size() elements into \p V.
  template <typename T> void read(cl_mem M, std::vector<T> &V) const {
    CL_CHECK(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, V.size() * sizeof(T),
                                 V.data(), 0, nullptr, nullptr));
  }
  template <typename T> std::vector<T> read(cl_mem M, size_t N) const {
    std::vector<T> V(N);
    read(M, V);
    return V;
  }

  /// Enqueues \p K and waits for it: a failure is then attributed to the
  /// launch, not to a later read.
  void run(cl_kernel K, cl_uint Dims, const size_t *Global, const size_t *Local,
           const size_t *Offset = nullptr) const {
    CL_CHECK(clEnqueueNDRangeKernel(Q, K, Dims, Offset, Global, Local, 0,
                                    nullptr, nullptr));
    CL_CHECK(clFinish(Q));
  }
  void run1(cl_kernel K, size_t Global, size_t Local = 0) const {
    run(K, 1, &Global, Local ? &Local : nullptr);
  }
  /// Enqueues \p K without waiting; its event goes to \p Events (for
  /// kernelMillis).
  void launch(cl_kernel K, cl_uint Dims, const size_t *Global,
              const size_t *Local, std::vector<cl_event> &Events,
              const size_t *Offset = nullptr) const {
    cl_event Ev;
    CL_CHECK(clEnqueueNDRangeKernel(Q, K, Dims, Offset, Global, Local, 0,
                                    nullptr, &Ev));
    Events.push_back(Ev);
  }
};

//===-- Programs ----------------------------------------------------------===//

/// A text-valued clGetProgramInfo, without its terminating zero.
inline std::string programString(cl_program P, cl_program_info I) {
  size_t N = 0;
  CL_CHECK(clGetProgramInfo(P, I, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetProgramInfo(P, I, N, &S[0], nullptr));
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

/// A text-valued clGetKernelInfo, without its terminating zero.
inline std::string kernelString(cl_kernel K, cl_kernel_info I) {
  size_t N = 0;
  CL_CHECK(clGetKernelInfo(K, I, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetKernelInfo(K, I, N, &S[0], nullptr));
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

/// A text-valued clGetKernelArgInfo of argument \p A, without its
/// terminating zero.
inline std::string argString(cl_kernel K, cl_uint A, cl_kernel_arg_info I) {
  size_t N = 0;
  CL_CHECK(clGetKernelArgInfo(K, A, I, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetKernelArgInfo(K, A, I, N, &S[0], nullptr));
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

/// A clGetKernelArgInfo of type \p T of argument \p A.
template <typename T> T argValue(cl_kernel K, cl_uint A, cl_kernel_arg_info I) {
  T V{};
  CL_CHECK(clGetKernelArgInfo(K, A, I, sizeof(T), &V, nullptr));
  return V;
}

/// The binary of a program built for one device.
inline std::vector<unsigned char> programBinary(cl_program P) {
  size_t Size = 0;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size,
                            nullptr));
  std::vector<unsigned char> Bin(Size);
  unsigned char *Ptrs[] = {Bin.data()};
  CL_CHECK(
      clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptrs), Ptrs, nullptr));
  return Bin;
}

//===-- Kernel arguments --------------------------------------------------===//

template <typename T> void setArg(cl_kernel K, cl_uint I, const T &V) {
  cl_int Err = clSetKernelArg(K, I, sizeof(T), &V);
  if (Err != CL_SUCCESS)
    fail(__FILE__, __LINE__,
         "clSetKernelArg(" + std::to_string(I) + ") returned " +
             errorName(Err));
}
/// A held object is passed as its handle.
template <typename T, cl_int(CL_API_CALL *R)(T)>
void setArg(cl_kernel K, cl_uint I, const Handle<T, R> &H) {
  setArg(K, I, H.get());
}
/// A __local argument of \p Bytes bytes, for setArgs.
struct LocalMem {
  size_t Bytes;
};
inline void setArg(cl_kernel K, cl_uint I, const LocalMem &L) {
  CL_CHECK(clSetKernelArg(K, I, L.Bytes, nullptr));
}
/// Binds all arguments in order: setArgs(K, A, B, N).
template <typename... Ts> void setArgs(cl_kernel K, const Ts &...As) {
  cl_uint I = 0;
  (setArg(K, I++, As), ...);
}
inline void setLocalArg(cl_kernel K, cl_uint I, size_t Bytes) {
  setArg(K, I, LocalMem{Bytes});
}

/// The largest 1D local size \p K may be launched with on \p E's device:
/// CL_KERNEL_WORK_GROUP_SIZE, bounded by the first work-item dimension.
inline size_t maxLocalSize1D(const Env &E, cl_kernel K) {
  size_t KernelMax = 0;
  CL_CHECK(clGetKernelWorkGroupInfo(K, E.Device, CL_KERNEL_WORK_GROUP_SIZE,
                                    sizeof(KernelMax), &KernelMax, nullptr));
  size_t Items[3] = {0, 0, 0};
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                           sizeof(Items), Items, nullptr));
  CLT_EXPECT_MSG(KernelMax >= 1 && Items[0] >= 1, "no valid work-group size");
  return std::min(KernelMax, Items[0]);
}

inline cl_ulong localMemSize(const Env &E) {
  return E.deviceValue<cl_ulong>(CL_DEVICE_LOCAL_MEM_SIZE);
}

//===-- Events ------------------------------------------------------------===//

/// clWaitForEvents on one event; fails unless it completed.
inline void waitFor(cl_event Ev) { CL_CHECK(clWaitForEvents(1, &Ev)); }

/// A user event of \p E's context, to hold commands back.
inline Event userEvent(const Env &E) {
  cl_int Err;
  Event U(clCreateUserEvent(E.Ctx, &Err));
  CL_CHECK(Err);
  return U;
}

/// A user event of another context than \p E's (the event keeps its
/// context alive), for the CL_INVALID_CONTEXT checks of wait lists.
/// Complete it before it goes.
inline Event foreignUserEvent(const Env &E) {
  cl_int Err;
  Context Other(clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  Event U(clCreateUserEvent(Other, &Err));
  CL_CHECK(Err);
  return U;
}

/// Gives the device time to (wrongly) run a command that must wait.
inline void settle() {
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

/// An event's four profiling times: queued, submitted, started, ended.
inline std::array<cl_ulong, 4> profilingTimes(cl_event Ev) {
  std::array<cl_ulong, 4> T = {0, 0, 0, 0};
  const cl_profiling_info Which[4] = {
      CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int I = 0; I < 4; ++I)
    CL_CHECK(clGetEventProfilingInfo(Ev, Which[I], sizeof(cl_ulong), &T[I],
                                     nullptr));
  return T;
}

inline cl_int eventStatus(cl_event Ev) {
  cl_int S = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(S), &S,
                          nullptr));
  return S;
}

/// Sum of (END - START) over \p Events, in milliseconds (DESIGN.md
/// section 5); releases them.
inline double kernelMillis(std::vector<cl_event> &Events) {
  double Ns = 0;
  std::vector<Event> Owned;
  for (cl_event Ev : Events)
    Owned.emplace_back(Ev);
  Events.clear();
  for (const Event &Ev : Owned) {
    cl_ulong Start = 0, End = 0;
    waitFor(Ev);
    CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_START,
                                     sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(Ev, CL_PROFILING_COMMAND_END, sizeof(End),
                                     &End, nullptr));
    Ns += double(End - Start);
  }
  return Ns * 1e-6;
}

//===-- Test cases --------------------------------------------------------===//

struct TestCase {
  const char *Name;
  void (*Fn)(Env &);
};
inline std::vector<TestCase> &registry() {
  static std::vector<TestCase> R;
  return R;
}
struct Registrar {
  Registrar(const char *Name, void (*Fn)(Env &)) {
    registry().push_back({Name, Fn});
  }
};

/// Defines a test case: CLT_TEST(vectorAddOddSize) { ... uses E ... }.
#define CLT_TEST(Name)                                                         \
  static void Name(::clt::Env &);                                              \
  static ::clt::Registrar CltReg_##Name(#Name, Name);                          \
  static void Name(::clt::Env &E [[maybe_unused]])

//===-- Comparisons with host references ----------------------------------===//

/// Compares element by element with \p Equal; the message names the first
/// few mismatches, which is what one needs to see a split gone wrong (a
/// border column, a partial tile...).
template <typename T, typename Eq, typename Show>
void expectAll(const std::vector<T> &Got, const std::vector<T> &Want,
               const std::string &What, Eq Equal, Show ToString) {
  CLT_EXPECT_MSG(Got.size() == Want.size(), What + ": size mismatch");
  size_t Bad = 0;
  std::string Msg;
  for (size_t I = 0; I < Got.size(); ++I) {
    if (Equal(Got[I], Want[I]))
      continue;
    if (++Bad <= 5)
      Msg += "\n  [" + std::to_string(I) + "] got " + ToString(Got[I]) +
             ", want " + ToString(Want[I]);
  }
  if (Bad)
    fail(What + ": " + std::to_string(Bad) + " of " +
         std::to_string(Got.size()) + " elements differ" + Msg);
}

template <typename T>
void expectEqual(const std::vector<T> &Got, const std::vector<T> &Want,
                 const std::string &What) {
  expectAll(
      Got, Want, What, [](const T &A, const T &B) { return A == B; },
      [](const T &V) {
        if constexpr (std::is_floating_point_v<T>) {
          char Buf[64];
          std::snprintf(Buf, sizeof(Buf), "%.9g", static_cast<double>(V));
          return std::string(Buf);
        } else {
          return std::to_string(V);
        }
      });
}

/// |Got - Want| <= Abs + Rel * |Want|.
template <typename T>
void expectNear(const std::vector<T> &Got, const std::vector<T> &Want,
                double Rel, double Abs, const std::string &What) {
  expectAll(
      Got, Want, What,
      [&](T A, T B) {
        double D = std::fabs(double(A) - double(B));
        return D <= Abs + Rel * std::fabs(double(B));
      },
      [](T V) {
        char Buf[64];
        std::snprintf(Buf, sizeof(Buf), "%.9g", double(V));
        return std::string(Buf);
      });
}

/// Distance in units in the last place of \p Got (float) from the exact value
/// \p Want (computed in double), as the OpenCL specification measures
/// builtin accuracy (section 7.4 of the OpenCL 1.2 specification).
inline double ulpError(float Got, double Want) {
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : INFINITY;
  if (std::isinf(Want))
    return (std::isinf(Got) && (Got > 0) == (Want > 0)) ? 0 : INFINITY;
  if (std::isnan(Got) || std::isinf(Got))
    return INFINITY;
  float Rounded = static_cast<float>(Want);
  // The ULP of the reference, not of the result: at a power of two the
  // result's ULP would halve the tolerance.
  float Next = std::nextafter(std::fabs(Rounded), INFINITY);
  double Ulp = double(Next) - double(std::fabs(Rounded));
  if (Rounded == 0 || Ulp == 0)
    Ulp = std::ldexp(1.0, -149);
  return std::fabs(double(Got) - Want) / Ulp;
}

/// A reproducible random vector: tests must fail the same way every run.
template <typename T>
std::vector<T> randomVector(size_t N, T Lo, T Hi, unsigned Seed) {
  std::mt19937 Gen(Seed);
  std::vector<T> V(N);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> D(Lo, Hi);
    for (T &X : V)
      X = D(Gen);
  } else {
    std::uniform_int_distribution<long long> D(Lo, Hi);
    for (T &X : V)
      X = static_cast<T>(D(Gen));
  }
  return V;
}

inline size_t roundUp(size_t X, size_t M) { return (X + M - 1) / M * M; }

} // namespace clt

#endif // POCL_ISS_TESTS_COMMON_CLTEST_H
