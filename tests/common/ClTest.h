//===- ClTest.h - Shared harness of the runtime API tests -------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// What every runtime test executable shares: self-registering test cases
// (CLT_TEST), CL_CHECK and CLT_EXPECT_ERR that print the symbolic name of an
// OpenCL error, RAII holders for CL handles, and the choice of platform
// through the ICD loader: the first platform whose name contains "pocl-iss",
// or the substring in ISS_TEST_PLATFORM (e.g. "Portable" for Debian's pocl,
// to check the tests themselves against another implementation).
//
// A failing check throws clt::Failure, caught per test case, so one broken
// case does not hide the others. Exit status: 0 pass, 1 fail, 77 all skipped.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_COMMON_CLTEST_H
#define POCL_ISS_TESTS_COMMON_CLTEST_H

#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace clt {

const char *errorName(cl_int Err);

struct Failure {
  std::string Message;
};
struct Skipped {
  std::string Reason;
};

[[noreturn]] void fail(const char *File, int Line, const std::string &Msg);

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

/// The platform and device under test, with a fresh context and in-order
/// queue (profiling enabled) for each test case.
struct Env {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  std::string PlatformName;
  bool IsPoclIss = false; ///< checks of our own values only then
  Context Ctx;
  Queue Q;

  Mem buffer(cl_mem_flags Flags, size_t Size, void *Host = nullptr) const;
  /// Builds \p Src; failure messages include the build log.
  Program build(const char *Src, const char *Options = "") const;
  Kernel kernel(cl_program P, const char *Name) const;
  std::string buildLog(cl_program P) const;
  std::string deviceString(cl_device_info Param) const;
  template <typename T> T deviceValue(cl_device_info Param) const {
    T V{};
    CL_CHECK(clGetDeviceInfo(Device, Param, sizeof(T), &V, nullptr));
    return V;
  }
};

/// A registered test case.
struct TestCase {
  const char *Name;
  void (*Fn)(Env &);
};
std::vector<TestCase> &registry();
struct Registrar {
  Registrar(const char *Name, void (*Fn)(Env &)) {
    registry().push_back({Name, Fn});
  }
};

#define CLT_TEST(Name)                                                         \
  static void Name(::clt::Env &);                                              \
  static ::clt::Registrar CltReg_##Name(#Name, Name);                          \
  static void Name(::clt::Env &E [[maybe_unused]])

/// Sets a kernel argument of any type.
template <typename T> void setArg(cl_kernel K, cl_uint I, const T &V) {
  cl_int Err = clSetKernelArg(K, I, sizeof(T), &V);
  if (Err != CL_SUCCESS)
    fail(__FILE__, __LINE__,
         "clSetKernelArg(" + std::to_string(I) + ") returned " +
             errorName(Err));
}

/// clWaitForEvents on one event; fails the test unless it completed.
void waitFor(cl_event Ev);

/// Reads an event's execution status.
cl_int eventStatus(cl_event Ev);

} // namespace clt

#endif // POCL_ISS_TESTS_COMMON_CLTEST_H
