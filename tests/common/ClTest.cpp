//===- ClTest.cpp - The runner of the runtime API tests -------------------===//
// SPDX-License-Identifier: MIT
//
// main() of every runtime test executable: picks the platform (ClTest.h),
// runs the registered cases (all, or those whose name contains argv[1]),
// each with a fresh context and queue and a watchdog, since a broken
// runtime tends to hang rather than crash.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <csignal>
#include <cstdlib>
#include <unistd.h>

namespace clt {

const char *errorName(cl_int Err) {
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
  default:
    return "CL_<unknown error>";
  }
}

void fail(const char *File, int Line, const std::string &Msg) {
  const char *Base = std::strrchr(File, '/');
  throw Failure{std::string(Base ? Base + 1 : File) + ":" +
                std::to_string(Line) + ": " + Msg};
}

std::vector<TestCase> &registry() {
  static std::vector<TestCase> R;
  return R;
}

Mem Env::buffer(cl_mem_flags Flags, size_t Size, void *Host) const {
  cl_int Err;
  Mem M(clCreateBuffer(Ctx, Flags, Size, Host, &Err));
  CL_CHECK(Err);
  return M;
}

std::string Env::buildLog(cl_program P) const {
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

Program Env::build(const char *Src, const char *Options) const {
  cl_int Err;
  Program P(clCreateProgramWithSource(Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  Err = clBuildProgram(P, 1, &Device, Options, nullptr, nullptr);
  if (Err != CL_SUCCESS)
    fail(__FILE__, __LINE__,
         std::string("clBuildProgram returned ") + errorName(Err) + "; log:\n" +
             buildLog(P));
  return P;
}

Kernel Env::kernel(cl_program P, const char *Name) const {
  cl_int Err;
  Kernel K(clCreateKernel(P, Name, &Err));
  CL_CHECK(Err);
  return K;
}

std::string Env::deviceString(cl_device_info Param) const {
  size_t N = 0;
  CL_CHECK(clGetDeviceInfo(Device, Param, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetDeviceInfo(Device, Param, N, &S[0], nullptr));
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

cl_int eventStatus(cl_event Ev) {
  cl_int S = 0;
  CL_CHECK(clGetEventInfo(Ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(S), &S,
                          nullptr));
  return S;
}

void waitFor(cl_event Ev) { CL_CHECK(clWaitForEvents(1, &Ev)); }

static const char *CurrentTest = "";

static void watchdog(int) {
  static const char Msg[] = "watchdog: test case timed out: ";
  (void)!write(2, Msg, sizeof(Msg) - 1);
  (void)!write(2, CurrentTest, std::strlen(CurrentTest));
  (void)!write(2, "\n", 1);
  _exit(1);
}

static bool findPlatform(Env &E) {
  const char *Want = std::getenv("ISS_TEST_PLATFORM");
  std::string Needle = Want && *Want ? Want : "pocl-iss";
  cl_uint N = 0;
  if (clGetPlatformIDs(0, nullptr, &N) != CL_SUCCESS || N == 0) {
    std::fprintf(stderr, "no OpenCL platforms (is OCL_ICD_VENDORS set?)\n");
    return false;
  }
  std::vector<cl_platform_id> Ps(N);
  clGetPlatformIDs(N, Ps.data(), nullptr);
  for (cl_platform_id P : Ps) {
    char Name[256] = {0};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (std::string(Name).find(Needle) == std::string::npos)
      continue;
    E.Platform = P;
    E.PlatformName = Name;
    E.IsPoclIss = E.PlatformName.find("pocl-iss") != std::string::npos;
    cl_uint ND = 0;
    if (clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &E.Device, &ND) !=
            CL_SUCCESS ||
        ND == 0) {
      std::fprintf(stderr, "platform '%s' has no devices\n", Name);
      return false;
    }
    return true;
  }
  std::fprintf(stderr, "no platform whose name contains '%s'\n",
               Needle.c_str());
  return false;
}

} // namespace clt

int main(int Argc, char **Argv) {
  using namespace clt;
  Env Base;
  if (!findPlatform(Base))
    return 1;
  std::signal(SIGALRM, watchdog);
  const char *Filter = Argc > 1 ? Argv[1] : nullptr;
  unsigned Passed = 0, Failed = 0, Skips = 0;
  for (const TestCase &T : registry()) {
    if (Filter && !std::strstr(T.Name, Filter))
      continue;
    CurrentTest = T.Name;
    std::printf("[ RUN      ] %s\n", T.Name);
    std::fflush(stdout);
    alarm(120);
    Env E;
    E.Platform = Base.Platform;
    E.Device = Base.Device;
    E.PlatformName = Base.PlatformName;
    E.IsPoclIss = Base.IsPoclIss;
    try {
      cl_int Err;
      E.Ctx.reset(
          clCreateContext(nullptr, 1, &E.Device, nullptr, nullptr, &Err));
      CL_CHECK(Err);
      E.Q.reset(clCreateCommandQueue(E.Ctx, E.Device, CL_QUEUE_PROFILING_ENABLE,
                                     &Err));
      CL_CHECK(Err);
      T.Fn(E);
      std::printf("[       OK ] %s\n", T.Name);
      ++Passed;
    } catch (const Failure &F) {
      std::printf("[  FAILED  ] %s\n  %s\n", T.Name, F.Message.c_str());
      ++Failed;
    } catch (const Skipped &S) {
      std::printf("[  SKIPPED ] %s: %s\n", T.Name, S.Reason.c_str());
      ++Skips;
    }
    std::fflush(stdout);
    alarm(0);
  }
  std::printf("%u passed, %u failed, %u skipped (platform '%s')\n", Passed,
              Failed, Skips, Base.PlatformName.c_str());
  if (Failed)
    return 1;
  if (Passed == 0 && Skips)
    return 77;
  return 0;
}
