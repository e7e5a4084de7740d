//===- ClUtil.h - Small OpenCL host helpers for the examples ----*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// What every example needs around the OpenCL 1.2 API: error names, a
// CL_CHECK that throws, choosing a platform by name, building programs with
// their log, buffers and kernel-time from event profiling. The examples link
// only the ICD loader, so the same binary measures pocl-iss and Debian's pocl
// side by side, as the paper's evaluation compares drivers (section 6.3).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_COMMON_CLUTIL_H
#define POCL_ISS_EXAMPLES_COMMON_CLUTIL_H

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace clutil {

inline const char *errorName(cl_int Err) {
  switch (Err) {
#define CLU_ERR(E)                                                             \
  case E:                                                                      \
    return #E;
    CLU_ERR(CL_SUCCESS)
    CLU_ERR(CL_DEVICE_NOT_FOUND)
    CLU_ERR(CL_COMPILER_NOT_AVAILABLE)
    CLU_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    CLU_ERR(CL_OUT_OF_RESOURCES)
    CLU_ERR(CL_OUT_OF_HOST_MEMORY)
    CLU_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
    CLU_ERR(CL_BUILD_PROGRAM_FAILURE)
    CLU_ERR(CL_INVALID_VALUE)
    CLU_ERR(CL_INVALID_PLATFORM)
    CLU_ERR(CL_INVALID_DEVICE)
    CLU_ERR(CL_INVALID_CONTEXT)
    CLU_ERR(CL_INVALID_QUEUE_PROPERTIES)
    CLU_ERR(CL_INVALID_COMMAND_QUEUE)
    CLU_ERR(CL_INVALID_MEM_OBJECT)
    CLU_ERR(CL_INVALID_BUILD_OPTIONS)
    CLU_ERR(CL_INVALID_PROGRAM)
    CLU_ERR(CL_INVALID_PROGRAM_EXECUTABLE)
    CLU_ERR(CL_INVALID_KERNEL_NAME)
    CLU_ERR(CL_INVALID_KERNEL)
    CLU_ERR(CL_INVALID_ARG_INDEX)
    CLU_ERR(CL_INVALID_ARG_VALUE)
    CLU_ERR(CL_INVALID_ARG_SIZE)
    CLU_ERR(CL_INVALID_KERNEL_ARGS)
    CLU_ERR(CL_INVALID_WORK_DIMENSION)
    CLU_ERR(CL_INVALID_WORK_GROUP_SIZE)
    CLU_ERR(CL_INVALID_WORK_ITEM_SIZE)
    CLU_ERR(CL_INVALID_GLOBAL_OFFSET)
    CLU_ERR(CL_INVALID_EVENT_WAIT_LIST)
    CLU_ERR(CL_INVALID_EVENT)
    CLU_ERR(CL_INVALID_OPERATION)
    CLU_ERR(CL_INVALID_BUFFER_SIZE)
    CLU_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
#undef CLU_ERR
  default:
    return "unknown OpenCL error";
  }
}

struct ClError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// clBuildProgram failed: the program does not build on this platform. Kept
/// apart from other errors so that a caller can tell a platform's missing
/// feature from a broken run; \p Log is the build log.
struct ClBuildError : ClError {
  ClBuildError(const std::string &What, std::string Log)
      : ClError(What), Log(std::move(Log)) {}
  std::string Log;
};

#define CLU_STR2(X) #X
#define CLU_STR(X) CLU_STR2(X)
#define CL_CHECK(Expr)                                                         \
  do {                                                                         \
    cl_int CluErr_ = (Expr);                                                   \
    if (CluErr_ != CL_SUCCESS)                                                 \
      throw ::clutil::ClError(std::string(#Expr) + " returned " +              \
                              ::clutil::errorName(CluErr_) +                   \
                              " (" __FILE__ ":" CLU_STR(__LINE__) ")");        \
  } while (0)

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
  clGetPlatformIDs(N, Ps.data(), nullptr);
  return Ps;
}

/// pocl-iss names itself "pocl-iss ..."; the ablation modes only mean
/// something there.
inline bool isPoclIss(const std::string &PlatformName) {
  return lower(PlatformName).find("pocl-iss") != std::string::npos;
}

/// One device, its context and a profiling, in-order queue. Owns them.
class ClEnv {
public:
  ClEnv() = default;
  ClEnv(const ClEnv &) = delete;
  ClEnv &operator=(const ClEnv &) = delete;
  ~ClEnv() {
    if (Queue)
      clReleaseCommandQueue(Queue);
    if (Context)
      clReleaseContext(Context);
  }

  /// Opens the first platform whose name contains \p Needle (case
  /// insensitive; an exact name matches first).
  void open(const std::string &Needle) {
    std::vector<cl_platform_id> Ps = platforms();
    std::string Seen;
    for (int Pass = 0; Pass < 2 && !Platform; ++Pass)
      for (cl_platform_id P : Ps) {
        std::string Name = platformName(P);
        bool Match = Pass == 0
                         ? Name == Needle
                         : lower(Name).find(lower(Needle)) != std::string::npos;
        if (Match) {
          Platform = P;
          PlatformName = Name;
          break;
        }
      }
    for (cl_platform_id P : Ps)
      Seen += (Seen.empty() ? "\"" : ", \"") + platformName(P) + "\"";
    if (!Platform)
      throw ClError("no OpenCL platform matching \"" + Needle +
                    "\" (found: " + (Seen.empty() ? "none" : Seen) + ")");
    CL_CHECK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr));
    cl_int Err;
    Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
    CL_CHECK(Err);
    Queue =
        clCreateCommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE, &Err);
    CL_CHECK(Err);
  }

  cl_program build(const char *Src, const std::string &Options = "") const {
    cl_int Err;
    cl_program P = clCreateProgramWithSource(Context, 1, &Src, nullptr, &Err);
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &Device, Options.c_str(), nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      size_t N = 0;
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &N);
      std::string Log(N, '\0');
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, N, Log.data(),
                            nullptr);
      clReleaseProgram(P);
      throw ClBuildError(std::string("clBuildProgram returned ") +
                             errorName(Err) + ":\n" + Log,
                         Log);
    }
    return P;
  }

  cl_kernel kernel(cl_program P, const char *Name) const {
    cl_int Err;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    CL_CHECK(Err);
    return K;
  }

  cl_mem buffer(size_t Bytes, cl_mem_flags Flags = CL_MEM_READ_WRITE) const {
    cl_int Err;
    cl_mem M = clCreateBuffer(Context, Flags, Bytes, nullptr, &Err);
    CL_CHECK(Err);
    return M;
  }

  template <typename T> void write(cl_mem M, const std::vector<T> &V) const {
    CL_CHECK(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, V.size() * sizeof(T),
                                  V.data(), 0, nullptr, nullptr));
  }
  template <typename T> void read(cl_mem M, std::vector<T> &V) const {
    CL_CHECK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, V.size() * sizeof(T),
                                 V.data(), 0, nullptr, nullptr));
  }

  /// Enqueues \p K and records its event in \p Events (for kernel time).
  void launch(cl_kernel K, cl_uint Dims, const size_t *Global,
              const size_t *Local, std::vector<cl_event> &Events,
              const size_t *Offset = nullptr) const {
    cl_event Ev;
    CL_CHECK(clEnqueueNDRangeKernel(Queue, K, Dims, Offset, Global, Local, 0,
                                    nullptr, &Ev));
    Events.push_back(Ev);
  }

  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  std::string PlatformName;
};

template <typename T> inline void setArg(cl_kernel K, cl_uint I, const T &V) {
  CL_CHECK(clSetKernelArg(K, I, sizeof(T), &V));
}
/// A __local kernel argument of \p Bytes bytes, for setArgs.
struct LocalMem {
  size_t Bytes;
};
inline void setArg(cl_kernel K, cl_uint I, const LocalMem &L) {
  CL_CHECK(clSetKernelArg(K, I, L.Bytes, nullptr));
}
template <typename... Ts> inline void setArgs(cl_kernel K, const Ts &...As) {
  cl_uint I = 0;
  (setArg(K, I++, As), ...);
}

/// Sum of (END - START) over \p Events, in milliseconds; releases them.
inline double kernelMillis(std::vector<cl_event> &Events) {
  double Ns = 0;
  for (cl_event E : Events) {
    cl_ulong Start = 0, End = 0;
    CL_CHECK(clWaitForEvents(1, &E));
    CL_CHECK(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_START,
                                     sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_END, sizeof(End),
                                     &End, nullptr));
    Ns += double(End - Start);
    clReleaseEvent(E);
  }
  Events.clear();
  return Ns * 1e-6;
}

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

inline size_t roundUp(size_t X, size_t M) { return (X + M - 1) / M * M; }

} // namespace clutil

#endif // POCL_ISS_EXAMPLES_COMMON_CLUTIL_H
