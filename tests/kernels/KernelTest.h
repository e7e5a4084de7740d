//===- KernelTest.h - Harness for the end-to-end kernel tests ---*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// A small, self-contained harness for tests/kernels: self-registering test
// cases, a CL_CHECK that names the error, RAII holders for CL objects, the
// platform choice and comparison helpers (exact, relative, ULP). It is kept
// apart from tests/common on purpose, so the end-to-end kernels only depend
// on the OpenCL 1.2 API through the ICD loader.
//
// The tests are run once per POCL_ISS_MODE (DESIGN.md section 1; the modes of
// the paper's section 6.3): every mode must reproduce the host reference, so
// the kernels here deliberately exercise what input space splitting cuts
// apart: partial tiles (odd sizes, local sizes that are not multiples of the
// vector width), global offsets, clamped borders, early returns, data
// dependent loops and uniform/consecutive/divergent accesses.
//
// The platform is the first whose name contains "pocl-iss", or the substring
// in ISS_TEST_PLATFORM (e.g. "Portable" for Debian's pocl, the baseline).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_KERNELS_KERNELTEST_H
#define POCL_ISS_TESTS_KERNELS_KERNELTEST_H

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt {

/// Exit codes understood by CTest (SKIP_RETURN_CODE 77).
enum ExitCode { Pass = 0, Fail = 1, Skip = 77 };

inline const char *errorName(cl_int Err) {
  switch (Err) {
#define KT_ERR(E)                                                              \
  case E:                                                                      \
    return #E;
    KT_ERR(CL_SUCCESS)
    KT_ERR(CL_DEVICE_NOT_FOUND)
    KT_ERR(CL_DEVICE_NOT_AVAILABLE)
    KT_ERR(CL_COMPILER_NOT_AVAILABLE)
    KT_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    KT_ERR(CL_OUT_OF_RESOURCES)
    KT_ERR(CL_OUT_OF_HOST_MEMORY)
    KT_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    KT_ERR(CL_BUILD_PROGRAM_FAILURE)
    KT_ERR(CL_MAP_FAILURE)
    KT_ERR(CL_INVALID_VALUE)
    KT_ERR(CL_INVALID_DEVICE_TYPE)
    KT_ERR(CL_INVALID_PLATFORM)
    KT_ERR(CL_INVALID_DEVICE)
    KT_ERR(CL_INVALID_CONTEXT)
    KT_ERR(CL_INVALID_QUEUE_PROPERTIES)
    KT_ERR(CL_INVALID_COMMAND_QUEUE)
    KT_ERR(CL_INVALID_HOST_PTR)
    KT_ERR(CL_INVALID_MEM_OBJECT)
    KT_ERR(CL_INVALID_BINARY)
    KT_ERR(CL_INVALID_BUILD_OPTIONS)
    KT_ERR(CL_INVALID_PROGRAM)
    KT_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    KT_ERR(CL_INVALID_KERNEL_NAME)
    KT_ERR(CL_INVALID_KERNEL_DEFINITION)
    KT_ERR(CL_INVALID_KERNEL)
    KT_ERR(CL_INVALID_ARG_INDEX)
    KT_ERR(CL_INVALID_ARG_VALUE)
    KT_ERR(CL_INVALID_ARG_SIZE)
    KT_ERR(CL_INVALID_KERNEL_ARGS)
    KT_ERR(CL_INVALID_WORK_DIMENSION)
    KT_ERR(CL_INVALID_WORK_GROUP_SIZE)
    KT_ERR(CL_INVALID_WORK_ITEM_SIZE)
    KT_ERR(CL_INVALID_GLOBAL_OFFSET)
    KT_ERR(CL_INVALID_EVENT_WAIT_LIST)
    KT_ERR(CL_INVALID_EVENT)
    KT_ERR(CL_INVALID_OPERATION)
    KT_ERR(CL_INVALID_BUFFER_SIZE)
    KT_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
#undef KT_ERR
  default:
    return "unknown OpenCL error";
  }
}

/// Thrown by CL_CHECK and KT_EXPECT; caught per test case so one broken case
/// does not hide the others.
struct Failure {
  std::string Message;
};

[[noreturn]] inline void fail(const std::string &Msg) { throw Failure{Msg}; }

#define KT_STR2(X) #X
#define KT_STR(X) KT_STR2(X)
#define CL_CHECK(Expr)                                                         \
  do {                                                                         \
    cl_int KtErr_ = (Expr);                                                    \
    if (KtErr_ != CL_SUCCESS)                                                  \
      ::kt::fail(std::string(__FILE__ ":" KT_STR(__LINE__) ": ") + #Expr +     \
                 " returned " + ::kt::errorName(KtErr_));                      \
  } while (0)
#define KT_EXPECT(Cond, Msg)                                                   \
  do {                                                                         \
    if (!(Cond))                                                               \
      ::kt::fail(std::string(__FILE__ ":" KT_STR(__LINE__) ": ") + (Msg));     \
  } while (0)

/// A reference-counted CL handle owned by one C++ object.
template <typename T, cl_int (*Release)(T)> class Handle {
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
  T get() const { return H; }
  operator T() const { return H; }

private:
  T H = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clReleaseMemObject>;
using Event = Handle<cl_event, clReleaseEvent>;

inline bool containsIgnoreCase(std::string Hay, std::string Needle) {
  auto Lower = [](std::string &S) {
    for (char &C : S)
      C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  };
  Lower(Hay);
  Lower(Needle);
  return Hay.find(Needle) != std::string::npos;
}

/// The device under test with its context and an in-order queue.
struct Env {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  std::string PlatformName;
  Context Ctx;
  Queue Q;

  bool hasExtension(const char *Ext) const {
    size_t N = 0;
    clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, 0, nullptr, &N);
    std::string S(N, '\0');
    clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS, N, S.data(), nullptr);
    return S.find(Ext) != std::string::npos;
  }

  /// Builds \p Src; on failure the build log is part of the failure message.
  Program build(const char *Src, const char *Options = "") const {
    cl_int Err;
    Program P(clCreateProgramWithSource(Ctx, 1, &Src, nullptr, &Err));
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &Device, Options, nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      size_t N = 0;
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
      std::string Log(N, '\0');
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, N, Log.data(),
                            nullptr);
      fail(std::string("clBuildProgram: ") + errorName(Err) + "\n" + Log);
    }
    return P;
  }

  Kernel kernel(const Program &P, const char *Name) const {
    cl_int Err;
    Kernel K(clCreateKernel(P, Name, &Err));
    CL_CHECK(Err);
    return K;
  }

  Mem buffer(cl_mem_flags Flags, size_t Bytes,
             const void *Init = nullptr) const {
    cl_int Err;
    Mem M(clCreateBuffer(Ctx, Flags | (Init ? CL_MEM_COPY_HOST_PTR : 0), Bytes,
                         const_cast<void *>(Init), &Err));
    CL_CHECK(Err);
    return M;
  }

  template <typename T> Mem input(const std::vector<T> &V) const {
    return buffer(CL_MEM_READ_ONLY, V.size() * sizeof(T), V.data());
  }
  template <typename T> Mem output(size_t N) const {
    return buffer(CL_MEM_READ_WRITE, N * sizeof(T));
  }

  template <typename T> std::vector<T> read(const Mem &M, size_t N) const {
    std::vector<T> V(N);
    CL_CHECK(clEnqueueReadBuffer(Q, M, CL_TRUE, 0, N * sizeof(T), V.data(), 0,
                                 nullptr, nullptr));
    return V;
  }

  /// Enqueues \p K and waits for it: a failure is then attributed to the
  /// launch, not to a later read.
  void run(const Kernel &K, cl_uint Dims, const size_t *Global,
           const size_t *Local, const size_t *Offset = nullptr) const {
    CL_CHECK(clEnqueueNDRangeKernel(Q, K, Dims, Offset, Global, Local, 0,
                                    nullptr, nullptr));
    CL_CHECK(clFinish(Q));
  }
  void run1(const Kernel &K, size_t Global, size_t Local = 0) const {
    run(K, 1, &Global, Local ? &Local : nullptr);
  }
};

template <typename T>
inline void setArg(const Kernel &K, cl_uint Index, const T &Value) {
  CL_CHECK(clSetKernelArg(K, Index, sizeof(T), &Value));
}
inline void setArg(const Kernel &K, cl_uint Index, const Mem &M) {
  cl_mem Raw = M.get();
  CL_CHECK(clSetKernelArg(K, Index, sizeof(cl_mem), &Raw));
}
/// Binds all arguments in order: setArgs(K, A, B, N).
template <typename... Ts>
inline void setArgs(const Kernel &K, const Ts &...As) {
  cl_uint I = 0;
  (setArg(K, I++, As), ...);
}
/// A __local argument of \p Bytes bytes.
inline void setLocalArg(const Kernel &K, cl_uint Index, size_t Bytes) {
  CL_CHECK(clSetKernelArg(K, Index, Bytes, nullptr));
}

/// The largest 1D local size \p K may be launched with on \p E's device:
/// CL_KERNEL_WORK_GROUP_SIZE, bounded by the first work-item dimension.
inline size_t maxLocalSize1D(const Env &E, const Kernel &K) {
  size_t KernelMax = 0;
  CL_CHECK(clGetKernelWorkGroupInfo(K, E.Device, CL_KERNEL_WORK_GROUP_SIZE,
                                    sizeof(KernelMax), &KernelMax, nullptr));
  size_t Items[3] = {0, 0, 0};
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                           sizeof(Items), Items, nullptr));
  KT_EXPECT(KernelMax >= 1 && Items[0] >= 1, "no valid work-group size");
  return std::min(KernelMax, Items[0]);
}

/// CL_DEVICE_LOCAL_MEM_SIZE of \p E's device.
inline cl_ulong localMemSize(const Env &E) {
  cl_ulong Bytes = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(Bytes),
                           &Bytes, nullptr));
  return Bytes;
}

/// Opens the platform chosen by ISS_TEST_PLATFORM (default "pocl-iss").
/// Not finding it is a failure, not a skip: under CTest the build tree's
/// vendors/ folder always names our library.
inline Env openEnv() {
  const char *Want = std::getenv("ISS_TEST_PLATFORM");
  std::string Needle = Want && *Want ? Want : "pocl-iss";
  cl_uint NumPlatforms = 0;
  clGetPlatformIDs(0, nullptr, &NumPlatforms);
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  if (NumPlatforms)
    clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr);
  Env E;
  std::string Seen;
  for (cl_platform_id P : Platforms) {
    char Name[256] = {0};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name, nullptr);
    Seen += std::string(Seen.empty() ? "" : ", ") + "\"" + Name + "\"";
    if (!E.Platform && containsIgnoreCase(Name, Needle)) {
      E.Platform = P;
      E.PlatformName = Name;
    }
  }
  if (!E.Platform)
    fail("no OpenCL platform matching \"" + Needle +
         "\" (found: " + (Seen.empty() ? "none" : Seen) +
         "); set OCL_ICD_VENDORS and ISS_TEST_PLATFORM");
  CL_CHECK(
      clGetDeviceIDs(E.Platform, CL_DEVICE_TYPE_ALL, 1, &E.Device, nullptr));
  cl_int Err;
  E.Ctx =
      Context(clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  E.Q = Queue(clCreateCommandQueue(E.Ctx, E.Device, 0, &Err));
  CL_CHECK(Err);
  return E;
}

/// Thrown by a case that does not apply to the device (e.g. no fp64).
struct SkipCase {
  std::string Reason;
};

struct TestCase {
  const char *Name;
  std::function<void(Env &)> Body;
};

inline std::vector<TestCase> &registry() {
  static std::vector<TestCase> Cases;
  return Cases;
}

struct Registrar {
  Registrar(const char *Name, std::function<void(Env &)> Body) {
    registry().push_back({Name, std::move(Body)});
  }
};

#define KT_CAT2(A, B) A##B
#define KT_CAT(A, B) KT_CAT2(A, B)
/// Defines a test case: TEST_CASE(vectorAddOddSize) { ... uses E ... }
#define TEST_CASE(Name)                                                        \
  static void Name(::kt::Env &E);                                              \
  static ::kt::Registrar KT_CAT(Reg_, Name)(#Name, Name);                      \
  static void Name(::kt::Env &E)

/// Runs every registered case (or those named on the command line). The
/// executable fails if any case fails; it is a skip only if every case was.
inline int runAll(int Argc, char **Argv) {
  std::vector<std::string> Only(Argv + 1, Argv + Argc);
  Env E;
  try {
    E = openEnv();
  } catch (const Failure &F) {
    std::fprintf(stderr, "FAIL: %s\n", F.Message.c_str());
    return Fail;
  }
  const char *Mode = std::getenv("POCL_ISS_MODE");
  std::printf("platform: %s, POCL_ISS_MODE=%s\n", E.PlatformName.c_str(),
              Mode ? Mode : "(unset)");
  int Failed = 0, Skipped = 0, Ran = 0;
  for (const TestCase &C : registry()) {
    if (!Only.empty() &&
        std::find(Only.begin(), Only.end(), C.Name) == Only.end())
      continue;
    ++Ran;
    try {
      C.Body(E);
      std::printf("PASS %s\n", C.Name);
    } catch (const SkipCase &S) {
      ++Skipped;
      std::printf("SKIP %s: %s\n", C.Name, S.Reason.c_str());
    } catch (const Failure &F) {
      ++Failed;
      std::printf("FAIL %s: %s\n", C.Name, F.Message.c_str());
    }
    std::fflush(stdout);
  }
  if (Ran == 0) {
    std::fprintf(stderr, "FAIL: no test case matched\n");
    return Fail;
  }
  std::printf("%d case(s): %d failed, %d skipped\n", Ran, Failed, Skipped);
  if (Failed)
    return Fail;
  return Skipped == Ran ? Skip : Pass;
}

//===-- Comparisons
//--------------------------------------------------------===//

/// Compares element by element with \p Equal; the message names the first
/// few mismatches, which is what one needs to see a split gone wrong (a
/// border column, a partial tile...).
template <typename T, typename Eq, typename Show>
inline void expectAll(const std::vector<T> &Got, const std::vector<T> &Want,
                      const std::string &What, Eq Equal, Show ToString) {
  KT_EXPECT(Got.size() == Want.size(), What + ": size mismatch");
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
inline void expectEqual(const std::vector<T> &Got, const std::vector<T> &Want,
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
inline void expectNear(const std::vector<T> &Got, const std::vector<T> &Want,
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
inline std::vector<T> randomVector(size_t N, T Lo, T Hi, unsigned Seed) {
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

} // namespace kt

#define KERNEL_TEST_MAIN()                                                     \
  int main(int Argc, char **Argv) { return ::kt::runAll(Argc, Argv); }

#endif // POCL_ISS_TESTS_KERNELS_KERNELTEST_H
