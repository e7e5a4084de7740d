//===- ProgramTest.cpp - Programs: build, compile, link, binaries ---------===//
// SPDX-License-Identifier: MIT
//
// clCreateProgramWithSource/WithBinary, clBuildProgram, clCompileProgram,
// clLinkProgram, clGetProgramInfo and clGetProgramBuildInfo (OpenCL 3.0,
// section 5.8): build logs on errors, embedded headers, libraries, and
// binaries that are accepted back and still run; the OpenCL C versions and
// build options as Debian's pocl 3.1 takes them (-cl-std=CL1.1 to CL3.0,
// OpenCL C 3.0 by default, the feature macros of the device's features,
// deprecated options with a warning, headers found in the working
// directory and an edited header always seen).
//
//===----------------------------------------------------------------------===//

// clSetProgramReleaseCallback, deprecated by 3.0, is called on purpose.
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include "ClTest.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace clt;

static const char *TwoKernels = R"CLC(
__kernel void scale(__global float *x, float f) {
  size_t i = get_global_id(0);
  x[i] = x[i] * f;
}
__kernel void fill(__global int *x, int v) { x[get_global_id(0)] = v; }
)CLC";

template <typename T>
static T buildInfo(Env &E, cl_program P, cl_program_build_info I) {
  T V{};
  CL_CHECK(clGetProgramBuildInfo(P, E.Device, I, sizeof(T), &V, nullptr));
  return V;
}

/// Runs fill(x, V) over N items and checks the result.
static void checkFill(Env &E, cl_program P, int V) {
  Kernel K = E.kernel(P, "fill");
  const size_t N = 100;
  Mem B = E.buffer(CL_MEM_READ_WRITE, N * sizeof(int));
  setArg(K, 0, B.get());
  setArg(K, 1, V);
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                  nullptr));
  std::vector<int> Out(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, N * sizeof(int), Out.data(),
                               0, nullptr, nullptr));
  for (int X : Out)
    CLT_EXPECT(X == V);
}

CLT_TEST(sourceAndInfo) {
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &TwoKernels, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(programString(P, CL_PROGRAM_SOURCE) == TwoKernels);
  CLT_EXPECT(buildInfo<cl_build_status>(E, P, CL_PROGRAM_BUILD_STATUS) ==
             CL_BUILD_NONE);
  size_t NK;
  CLT_EXPECT_ERR(
      CL_INVALID_PROGRAM_EXECUTABLE,
      clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof(NK), &NK, nullptr));
  CLT_EXPECT(!clCreateKernel(P, "fill", &Err));
  CLT_EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, Err);

  CL_CHECK(clBuildProgram(P, 1, &E.Device, "-cl-mad-enable", nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_build_status>(E, P, CL_PROGRAM_BUILD_STATUS) ==
             CL_BUILD_SUCCESS);
  CLT_EXPECT(buildInfo<cl_program_binary_type>(E, P, CL_PROGRAM_BINARY_TYPE) ==
             CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  size_t N = 0;
  CL_CHECK(clGetProgramBuildInfo(P, E.Device, CL_PROGRAM_BUILD_OPTIONS, 0,
                                 nullptr, &N));
  std::string Opts(N, '\0');
  CL_CHECK(clGetProgramBuildInfo(P, E.Device, CL_PROGRAM_BUILD_OPTIONS, N,
                                 &Opts[0], nullptr));
  CLT_EXPECT(Opts.find("-cl-mad-enable") != std::string::npos);
  CL_CHECK(
      clGetProgramInfo(P, CL_PROGRAM_NUM_KERNELS, sizeof(NK), &NK, nullptr));
  CLT_EXPECT(NK == 2);
  std::string Names = programString(P, CL_PROGRAM_KERNEL_NAMES);
  CLT_EXPECT_MSG(Names == "scale;fill" || Names == "fill;scale", Names);
  cl_uint ND = 0;
  CL_CHECK(
      clGetProgramInfo(P, CL_PROGRAM_NUM_DEVICES, sizeof(ND), &ND, nullptr));
  CLT_EXPECT(ND == 1);
  cl_context C = nullptr;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_CONTEXT, sizeof(C), &C, nullptr));
  CLT_EXPECT(C == E.Ctx.get());
  checkFill(E, P, 42);
}

static void CL_CALLBACK programReleased(cl_program, void *) {}

/// The OpenCL 3.0 program queries of a device without IL or program-scope
/// global constructors, and clSetProgramReleaseCallback, which 3.0 lets
/// such a device refuse (pocl 3.1 does).
CLT_TEST(openCL30Queries) {
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &TwoKernels, nullptr, &Err));
  CL_CHECK(Err);
  cl_bool Present = CL_TRUE;
  // The specification asks for an executable here; pocl 3.1 answers
  // CL_FALSE without one.
  cl_int Unbuilt = clGetProgramInfo(P, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                                    sizeof(Present), &Present, nullptr);
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, Unbuilt);
  CL_CHECK(clBuildProgram(P, 1, &E.Device, nullptr, nullptr, nullptr));
  // Not made from IL: nothing is returned.
  size_t N = 99;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_IL, 0, nullptr, &N));
  CLT_EXPECT(N == 0);
  for (cl_program_info Q : {CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                            CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT}) {
    Present = CL_TRUE;
    CL_CHECK(clGetProgramInfo(P, Q, sizeof(Present), &Present, &N));
    CLT_EXPECT(N == sizeof(cl_bool) && Present == CL_FALSE);
  }
  if (E.deviceValue<size_t>(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) == 0)
    CLT_EXPECT(buildInfo<size_t>(
                   E, P, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) == 0);
  else
    buildInfo<size_t>(E, P, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE);

  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clSetProgramReleaseCallback(P, programReleased, nullptr));
  if (E.IsPoclIss) { // pocl 3.1 checks nothing before refusing
    CLT_EXPECT_ERR(CL_INVALID_PROGRAM, clSetProgramReleaseCallback(
                                           nullptr, programReleased, nullptr));
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clSetProgramReleaseCallback(P, nullptr, nullptr));
  }
}

CLT_TEST(buildLogOnError) {
  const char *Bad = "__kernel void broken(__global int *x) { x[0] = y; }\n";
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Bad, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE,
                 clBuildProgram(P, 1, &E.Device, "", nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_build_status>(E, P, CL_PROGRAM_BUILD_STATUS) ==
             CL_BUILD_ERROR);
  std::string Log = E.buildLog(P);
  CLT_EXPECT_MSG(Log.find("error") != std::string::npos, Log);
  CLT_EXPECT_MSG(Log.find("'y'") != std::string::npos ||
                     Log.find("\"y\"") != std::string::npos ||
                     Log.find(" y") != std::string::npos,
                 Log);
  CLT_EXPECT(!clCreateKernel(P, "broken", &Err));
  CLT_EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, Err);
}

CLT_TEST(invalidBuildOptions) {
  Program P = E.build(TwoKernels);
  cl_int Err;
  Program Q(clCreateProgramWithSource(E.Ctx, 1, &TwoKernels, nullptr, &Err));
  CL_CHECK(Err);
  cl_int R =
      clBuildProgram(Q, 1, &E.Device, "-cl-no-such-option", nullptr, nullptr);
  CLT_EXPECT_MSG(R == CL_INVALID_BUILD_OPTIONS, errorName(R));
}

static int CallbackCalls = 0;
static void CL_CALLBACK buildDone(cl_program, void *Data) {
  ++*static_cast<int *>(Data);
}

CLT_TEST(buildCallbackAndRebuild) {
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &TwoKernels, nullptr, &Err));
  CL_CHECK(Err);
  CallbackCalls = 0;
  CL_CHECK(clBuildProgram(P, 0, nullptr, nullptr, buildDone, &CallbackCalls));
  // The build may be asynchronous; waiting for the status makes it done.
  for (int I = 0;
       I < 1000 && buildInfo<cl_build_status>(E, P, CL_PROGRAM_BUILD_STATUS) ==
                       CL_BUILD_IN_PROGRESS;
       ++I)
    ;
  CLT_EXPECT(CallbackCalls == 1);
  int Dummy = 0;
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clBuildProgram(P, 0, nullptr, nullptr, nullptr, &Dummy));
  {
    Kernel K = E.kernel(P, "fill");
    CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                   clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr));
  }
  CL_CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr));
  checkFill(E, P, 5);
}

CLT_TEST(compileWithHeaderAndLink) {
  const char *HeaderSrc = "#define FILL_VALUE(v) ((v) * 3 + 1)\n";
  const char *Src = R"CLC(
#include "fill_value.h"
__kernel void fill(__global int *x, int v) {
  x[get_global_id(0)] = FILL_VALUE(v);
}
)CLC";
  cl_int Err;
  Program H(clCreateProgramWithSource(E.Ctx, 1, &HeaderSrc, nullptr, &Err));
  CL_CHECK(Err);
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  const char *Name = "fill_value.h";
  cl_program Hs[] = {H};
  CL_CHECK(
      clCompileProgram(P, 1, &E.Device, "", 1, Hs, &Name, nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_program_binary_type>(E, P, CL_PROGRAM_BINARY_TYPE) ==
             CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  CLT_EXPECT(!clCreateKernel(P, "fill", &Err));
  if (E.IsPoclIss) // Debian's pocl answers CL_INVALID_KERNEL_NAME
    CLT_EXPECT_ERR(CL_INVALID_PROGRAM_EXECUTABLE, Err);
  cl_program In[] = {P};
  Program L(
      clLinkProgram(E.Ctx, 1, &E.Device, "", 1, In, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(buildInfo<cl_program_binary_type>(E, L, CL_PROGRAM_BINARY_TYPE) ==
             CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  // A linked program was not made from source, IL or a binary: it cannot
  // be built, and the refusal leaves its executable alone.
  if (E.IsPoclIss) // Debian's pocl 3.1 builds it again
    CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                   clBuildProgram(L, 0, nullptr, "", nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_build_status>(E, L, CL_PROGRAM_BUILD_STATUS) ==
             CL_BUILD_SUCCESS);
  Kernel K = E.kernel(L, "fill");
  const size_t N = 64;
  Mem B = E.buffer(CL_MEM_READ_WRITE, N * sizeof(int));
  setArg(K, 0, B.get());
  setArg(K, 1, 4);
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                  nullptr));
  std::vector<int> Out(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, N * sizeof(int), Out.data(),
                               0, nullptr, nullptr));
  for (int X : Out)
    CLT_EXPECT(X == 13);
  // A compile error is reported as such, with a log.
  const char *Bad = "__kernel void k(void) { undeclared(); }";
  Program PB(clCreateProgramWithSource(E.Ctx, 1, &Bad, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT_ERR(CL_COMPILE_PROGRAM_FAILURE,
                 clCompileProgram(PB, 0, nullptr, "", 0, nullptr, nullptr,
                                  nullptr, nullptr));
  CLT_EXPECT(!E.buildLog(PB).empty());
}

CLT_TEST(linkLibrary) {
  const char *LibSrc = "int twice(int v) { return 2 * v; }\n";
  const char *KernSrc = R"CLC(
int twice(int v);
__kernel void fill(__global int *x, int v) { x[get_global_id(0)] = twice(v); }
)CLC";
  cl_int Err;
  Program Lib(clCreateProgramWithSource(E.Ctx, 1, &LibSrc, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clCompileProgram(Lib, 0, nullptr, "", 0, nullptr, nullptr, nullptr,
                            nullptr));
  cl_program LibIn[] = {Lib};
  Program Library(clLinkProgram(E.Ctx, 0, nullptr, "-create-library", 1, LibIn,
                                nullptr, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(
      buildInfo<cl_program_binary_type>(E, Library, CL_PROGRAM_BINARY_TYPE) ==
      CL_PROGRAM_BINARY_TYPE_LIBRARY);
  if (E.IsPoclIss) // Debian's pocl 3.1 builds it
    CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                   clBuildProgram(Library, 0, nullptr, "", nullptr, nullptr));
  CLT_EXPECT(
      buildInfo<cl_program_binary_type>(E, Library, CL_PROGRAM_BINARY_TYPE) ==
      CL_PROGRAM_BINARY_TYPE_LIBRARY);
  Program K(clCreateProgramWithSource(E.Ctx, 1, &KernSrc, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clCompileProgram(K, 0, nullptr, "", 0, nullptr, nullptr, nullptr,
                            nullptr));
  cl_program In[] = {K, Library};
  Program Exe(
      clLinkProgram(E.Ctx, 0, nullptr, "", 2, In, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  Kernel Kern = E.kernel(Exe, "fill");
  const size_t N = 32;
  Mem B = E.buffer(CL_MEM_READ_WRITE, N * sizeof(int));
  setArg(Kern, 0, B.get());
  setArg(Kern, 1, 21);
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, Kern, 1, nullptr, &N, nullptr, 0,
                                  nullptr, nullptr));
  std::vector<int> Out(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, N * sizeof(int), Out.data(),
                               0, nullptr, nullptr));
  for (int X : Out)
    CLT_EXPECT(X == 42);

  // Linking only the kernel fails (twice is undefined): a program with a
  // log comes back anyway.
  cl_program Alone[] = {K};
  Program Failed(
      clLinkProgram(E.Ctx, 0, nullptr, "", 1, Alone, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_LINK_PROGRAM_FAILURE, Err);
  if (Failed)
    CLT_EXPECT(buildInfo<cl_build_status>(E, Failed, CL_PROGRAM_BUILD_STATUS) ==
               CL_BUILD_ERROR);
  // An executable is not a link input.
  cl_program ExeIn[] = {Exe};
  CLT_EXPECT(
      !clLinkProgram(E.Ctx, 0, nullptr, "", 1, ExeIn, nullptr, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION, Err);
}

CLT_TEST(binaryRoundTrip) {
  Program P = E.build(TwoKernels);
  std::vector<unsigned char> Bin = programBinary(P);
  size_t Size = Bin.size();
  CLT_EXPECT(Size > 0);
  const unsigned char *In[] = {Bin.data()};
  cl_int Status = 1, Err;
  Program B(
      clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &Size, In, &Status, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(Status == CL_SUCCESS);
  CL_CHECK(clBuildProgram(B, 0, nullptr, nullptr, nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_program_binary_type>(E, B, CL_PROGRAM_BINARY_TYPE) ==
             CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  checkFill(E, B, -7);

  // Garbage is refused, with the status set.
  std::vector<unsigned char> Junk(64, 0x5a);
  const unsigned char *JunkIn[] = {Junk.data()};
  size_t JunkSize = Junk.size();
  Status = CL_SUCCESS;
  CLT_EXPECT(!clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &JunkSize, JunkIn,
                                        &Status, &Err));
  CLT_EXPECT_ERR(CL_INVALID_BINARY, Err);
  CLT_EXPECT(Status == CL_INVALID_BINARY);
  CLT_EXPECT(!clCreateProgramWithBinary(E.Ctx, 1, &E.Device, nullptr, In,
                                        nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
}

CLT_TEST(compiledObjectBinary) {
  // A compiled object's binary comes back as one, and links.
  const char *Src = "__kernel void fill(__global int *x, int v) "
                    "{ x[get_global_id(0)] = v + 1; }";
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clCompileProgram(P, 0, nullptr, "", 0, nullptr, nullptr, nullptr,
                            nullptr));
  std::vector<unsigned char> Bin = programBinary(P);
  size_t Size = Bin.size();
  const unsigned char *In[] = {Bin.data()};
  Program B(
      clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &Size, In, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(buildInfo<cl_program_binary_type>(E, B, CL_PROGRAM_BINARY_TYPE) ==
             CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clCompileProgram(B, 0, nullptr, "", 0, nullptr, nullptr,
                                  nullptr, nullptr));
  cl_program LinkIn[] = {B};
  Program L(
      clLinkProgram(E.Ctx, 0, nullptr, "", 1, LinkIn, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  Kernel K = E.kernel(L, "fill");
  const size_t N = 16;
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, N * sizeof(int));
  setArg(K, 0, Buf.get());
  setArg(K, 1, 9);
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                  nullptr));
  std::vector<int> Out(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, Buf, CL_TRUE, 0, N * sizeof(int),
                               Out.data(), 0, nullptr, nullptr));
  for (int X : Out)
    CLT_EXPECT(X == 10);
}

CLT_TEST(createErrors) {
  cl_int Err;
  CLT_EXPECT(!clCreateProgramWithSource(E.Ctx, 0, &TwoKernels, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  const char *Null[] = {nullptr};
  CLT_EXPECT(!clCreateProgramWithSource(E.Ctx, 1, Null, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  if (E.IsPoclIss) { // Debian's pocl 3.1 reads past the strings
    // Lengths whose sum wraps size_t, or that no string can have: refused
    // before anything is read.
    const char *Two[] = {TwoKernels, TwoKernels};
    size_t Wrapping[] = {SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1};
    CLT_EXPECT(!clCreateProgramWithSource(E.Ctx, 2, Two, Wrapping, &Err));
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
    size_t TooLong[] = {SIZE_MAX - 1};
    CLT_EXPECT(!clCreateProgramWithSource(E.Ctx, 1, Two, TooLong, &Err));
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
    // A binary whose length runs past the address space.
    const unsigned char *Bin[] = {
        reinterpret_cast<const unsigned char *>(TwoKernels)};
    size_t BinLength[] = {SIZE_MAX};
    cl_int Status = CL_SUCCESS;
    CLT_EXPECT(!clCreateProgramWithBinary(E.Ctx, 1, &E.Device, BinLength, Bin,
                                          &Status, &Err));
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Status);
  }
  Program P = E.build(TwoKernels);
  CLT_EXPECT(!clCreateKernel(P, "nosuchkernel", &Err));
  CLT_EXPECT_ERR(CL_INVALID_KERNEL_NAME, Err);
  CLT_EXPECT(!clCreateKernel(P, nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  // Sources split into several strings with explicit lengths.
  const char *Parts[] = {"__kernel void fill(__global int *x, int v) ",
                         "{ x[get_global_id(0)] = v; }XXXX"};
  size_t Lengths[] = {0, std::strlen(Parts[1]) - 4};
  Program S(clCreateProgramWithSource(E.Ctx, 2, Parts, Lengths, &Err));
  CL_CHECK(Err);
  CL_CHECK(clBuildProgram(S, 0, nullptr, "", nullptr, nullptr));
  checkFill(E, S, 3);
}

//===-- OpenCL C versions and build options
//---------------------------------===//

/// Builds \p Src with \p Options, runs its kernel "k(global int *out)" on
/// one work-item and returns out[0..N).
static std::vector<int> runOne(Env &E, const char *Src, const char *Options,
                               size_t N) {
  Program P = E.build(Src, Options);
  Kernel K = E.kernel(P, "k");
  Mem Out = E.output<int>(N);
  setArg(K, 0, Out);
  E.run1(K, 1);
  return E.read<int>(Out, N);
}

static const char *VersionKernel = R"CLC(
kernel void k(global int *out) {
  out[0] = __OPENCL_C_VERSION__;
#ifdef __OPENCL_VERSION__
  out[1] = __OPENCL_VERSION__;
#else
  out[1] = -1;
#endif
}
)CLC";

/// The -cl-std values of the versions the device supports each compile as
/// that version of OpenCL C, and __OPENCL_VERSION__ is the device's
/// version; without the option the language is OpenCL C 3.0, as on pocl
/// 3.1.
CLT_TEST(openclCVersions) {
  cl_version Device = E.deviceValue<cl_version>(CL_DEVICE_NUMERIC_VERSION);
  int DeviceVersion =
      CL_VERSION_MAJOR(Device) * 100 + CL_VERSION_MINOR(Device) * 10;
  const std::pair<const char *, int> Cases[] = {{"", 300},
                                                {"-cl-std=CL1.1", 110},
                                                {"-cl-std=CL1.2", 120},
                                                {"-cl-std=CL3.0", 300}};
  for (const auto &[Options, Want] : Cases) {
    std::vector<int> Got = runOne(E, VersionKernel, Options, 2);
    CLT_EXPECT_MSG(Got[0] == Want,
                   std::string(Options) + ": " + std::to_string(Got[0]));
    CLT_EXPECT_MSG(Got[1] == DeviceVersion,
                   std::string(Options) + ": " + std::to_string(Got[1]));
  }
  // Values the specification does not define are refused (pocl 3.1 passes
  // some on to clang, which then fails the build).
  for (const char *Bad :
       {"-cl-std=CL1.0", "-cl-std=CL2.1", "-cl-std=CL4.0", "-cl-std=cl3.0"}) {
    cl_int Err;
    Program P(
        clCreateProgramWithSource(E.Ctx, 1, &VersionKernel, nullptr, &Err));
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &E.Device, Bad, nullptr, nullptr);
    CLT_EXPECT_MSG(Err == CL_INVALID_BUILD_OPTIONS ||
                       (!E.IsPoclIss && Err == CL_BUILD_PROGRAM_FAILURE),
                   std::string(Bad) + ": " + errorName(Err));
  }
}

/// Whether CL_DEVICE_OPENCL_C_ALL_VERSIONS lists OpenCL C \p Major.\p Minor.
static bool listsOpenCLC(const Env &E, unsigned Major, unsigned Minor) {
  size_t Size = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0,
                           nullptr, &Size));
  std::vector<cl_name_version> All(Size / sizeof(cl_name_version));
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, Size,
                           All.data(), nullptr));
  for (const cl_name_version &V : All)
    if (CL_VERSION_MAJOR(V.version) == Major &&
        CL_VERSION_MINOR(V.version) == Minor)
      return true;
  return false;
}

/// A -cl-std value the specification defines, for a version
/// CL_DEVICE_OPENCL_C_ALL_VERSIONS does not list, fails to compile the
/// program (OpenCL 3.0, 5.8.6.5): CL_BUILD_PROGRAM_FAILURE from
/// clBuildProgram, CL_COMPILE_PROGRAM_FAILURE from clCompileProgram, with a
/// log naming the version. The device lists no OpenCL C 2.0 (no pipes,
/// device-side enqueue or generic address space); pocl 3.1 takes
/// -cl-std=CL2.0 all the same.
CLT_TEST(unsupportedOpenCLCVersionFailsTheBuild) {
  const struct {
    const char *Option;
    unsigned Major, Minor;
  } Versions[] = {{"-cl-std=CL1.1", 1, 1},
                  {"-cl-std=CL1.2", 1, 2},
                  {"-cl-std=CL2.0", 2, 0},
                  {"-cl-std=CL3.0", 3, 0}};
  bool AnyUnlisted = false;
  for (const auto &V : Versions) {
    bool Listed = listsOpenCLC(E, V.Major, V.Minor);
    cl_int Err;
    Program P(
        clCreateProgramWithSource(E.Ctx, 1, &VersionKernel, nullptr, &Err));
    CL_CHECK(Err);
    Err = clBuildProgram(P, 1, &E.Device, V.Option, nullptr, nullptr);
    if (Listed) {
      CLT_EXPECT_MSG(Err == CL_SUCCESS,
                     std::string(V.Option) + ": " + errorName(Err));
      continue;
    }
    AnyUnlisted = true;
    if (!E.IsPoclIss && Err == CL_SUCCESS)
      continue; // pocl 3.1 builds OpenCL C 2.0 without listing it
    CLT_EXPECT_MSG(Err == CL_BUILD_PROGRAM_FAILURE,
                   std::string(V.Option) + ": " + errorName(Err));
    std::string Log = E.buildLog(P);
    CLT_EXPECT_MSG(Log.find(V.Option) != std::string::npos, Log);
    cl_build_status Status;
    CL_CHECK(clGetProgramBuildInfo(P, E.Device, CL_PROGRAM_BUILD_STATUS,
                                   sizeof(Status), &Status, nullptr));
    CLT_EXPECT(Status == CL_BUILD_ERROR);
    Program C(
        clCreateProgramWithSource(E.Ctx, 1, &VersionKernel, nullptr, &Err));
    CL_CHECK(Err);
    CLT_EXPECT_ERR(CL_COMPILE_PROGRAM_FAILURE,
                   clCompileProgram(C, 1, &E.Device, V.Option, 0, nullptr,
                                    nullptr, nullptr, nullptr));
    CLT_EXPECT_MSG(E.buildLog(C).find(V.Option) != std::string::npos,
                   E.buildLog(C));
  }
  if (E.IsPoclIss)
    CLT_EXPECT_MSG(AnyUnlisted, "the device lists OpenCL C 2.0");
}

/// The work-item functions OpenCL C 2.0 added are not declared under
/// -cl-std=CL1.1 or CL1.2 (clang's opencl-c.h gates them on
/// __OPENCL_C_VERSION__ >= 200): a 1.x program calling one fails to build
/// with a log naming it, also when it declares the function itself (the
/// kernel library's definition is not linked in then). Under CL3.0 they
/// build.
CLT_TEST(openclC20WorkItemFunctionsNotIn1x) {
  for (const char *Fn : {"get_global_linear_id", "get_local_linear_id",
                         "get_enqueued_local_size"}) {
    std::string Arg = std::string(Fn) == "get_enqueued_local_size" ? "0" : "";
    std::string Call = "kernel void k(global uint *o) { o[0] = (uint)" +
                       std::string(Fn) + "(" + Arg + "); }\n";
    std::string Declared = "size_t " + std::string(Fn) + "(" +
                           (Arg.empty() ? "void" : "uint") + ");\n" + Call;
    for (const std::string &Src : {Call, Declared})
      for (const char *Std : {"-cl-std=CL1.1", "-cl-std=CL1.2"}) {
        try {
          E.build(Src.c_str(), Std);
          fail(std::string(Fn) + " built under " + Std + ":\n" + Src);
        } catch (const BuildFailure &F) {
          CLT_EXPECT_MSG(F.Err == CL_BUILD_PROGRAM_FAILURE, errorName(F.Err));
          CLT_EXPECT_MSG(F.Log.find(Fn) != std::string::npos, F.Log);
        }
      }
    E.build(Call.c_str(), "-cl-std=CL3.0");
  }
}

static const char *PredefinedKernel = R"CLC(
kernel void k(global int *out) {
#ifdef __IMAGE_SUPPORT__
  out[0] = __IMAGE_SUPPORT__;
#else
  out[0] = -1;
#endif
#ifdef __ENDIAN_LITTLE__
  out[1] = __ENDIAN_LITTLE__;
#else
  out[1] = -1;
#endif
#ifdef __kernel_exec
  out[2] = 1;
#else
  out[2] = -1;
#endif
}
)CLC";

/// OpenCL C 3.0, 6.12: __IMAGE_SUPPORT__ and __ENDIAN_LITTLE__ are 1 on a
/// little-endian device with images, whatever the language version, and
/// __kernel_exec is defined (the CTS's kernel_preprocessor_macros and
/// kernel_numeric_constants check them).
CLT_TEST(predefinedMacros) {
  int Images = E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) ? 1 : -1;
  int Little = E.deviceValue<cl_bool>(CL_DEVICE_ENDIAN_LITTLE) ? 1 : -1;
  for (const char *Options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    std::vector<int> Got = runOne(E, PredefinedKernel, Options, 3);
    expectEqual(Got, std::vector<int>{Images, Little, 1},
                std::string("options '") + Options + "'");
  }
}

/// The optional features' macros an OpenCL C 3.0 kernel sees are exactly
/// CL_DEVICE_OPENCL_C_FEATURES; an OpenCL C 1.2 kernel sees none of them
/// but __opencl_c_int64 (clang defines it for the full profile).
CLT_TEST(featureMacrosAreTheDeviceFeatures) {
  static const char *const Known[] = {
      "__opencl_c_3d_image_writes",
      "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_device",
      "__opencl_c_atomic_scope_all_devices",
      "__opencl_c_device_enqueue",
      "__opencl_c_generic_address_space",
      "__opencl_c_fp64",
      "__opencl_c_fp16",
      "__opencl_c_images",
      "__opencl_c_int64",
      "__opencl_c_pipes",
      "__opencl_c_program_scope_global_variables",
      "__opencl_c_read_write_images",
      "__opencl_c_subgroups",
      "__opencl_c_work_group_collective_functions"};
  const size_t N = sizeof(Known) / sizeof(Known[0]);
  std::string Src = "kernel void k(global int *out) {\n";
  for (size_t I = 0; I < N; ++I)
    Src += std::string("#ifdef ") + Known[I] + "\n  out[" + std::to_string(I) +
           "] = 1;\n#else\n  out[" + std::to_string(I) + "] = 0;\n#endif\n";
  Src += "}\n";

  size_t Bytes = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                           &Bytes));
  std::vector<cl_name_version> Features(Bytes / sizeof(cl_name_version));
  CL_CHECK(clGetDeviceInfo(E.Device, CL_DEVICE_OPENCL_C_FEATURES, Bytes,
                           Features.data(), nullptr));
  std::set<std::string> Reported;
  for (const cl_name_version &F : Features)
    Reported.insert(F.name);

  for (const char *Options : {"", "-cl-std=CL3.0"}) {
    std::vector<int> Got = runOne(E, Src.c_str(), Options, N);
    for (size_t I = 0; I < N; ++I)
      CLT_EXPECT_MSG(Got[I] == int(Reported.count(Known[I])),
                     std::string(Options) + " " + Known[I] + " is " +
                         (Got[I] ? "defined" : "not defined"));
  }
  std::vector<int> Got = runOne(E, Src.c_str(), "-cl-std=CL1.2", N);
  for (size_t I = 0; I < N; ++I)
    CLT_EXPECT_MSG(Got[I] == (std::string(Known[I]) == "__opencl_c_int64"),
                   std::string("CL1.2: ") + Known[I]);
}

/// Builtins the kernel library provides beyond OpenCL C 1.2 (ctz, the linear
/// ids, C11 atomics) are callable without -cl-std, as on pocl 3.1, and
/// under -cl-std=CL3.0.
CLT_TEST(builtinsAtDefaultVersion) {
  const char *Src = R"CLC(
kernel void k(global const uint *in, global uint *ctzs, global uint *ids,
              volatile global atomic_uint *count) {
  size_t g = get_global_id(0);
  ctzs[g] = ctz(in[g]);
  ids[g] = (uint)get_global_linear_id() * 1000u + (uint)get_local_linear_id();
#ifdef WITH_ATOMICS
  atomic_fetch_add_explicit(count, 1u, memory_order_relaxed,
                            memory_scope_device);
#else
  if (g == 0)
    *(volatile global uint *)count = (uint)get_global_size(0);
#endif
}
)CLC";
  const size_t N = 64, L = 8;
  std::vector<cl_uint> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = I == 0 ? 0u : cl_uint(1u << (I % 32)) | (I >= 32 ? 0x80000000u : 0);
  const char *Builds[] = {"-DWITH_ATOMICS", "-cl-std=CL3.0 -DWITH_ATOMICS",
                          "-cl-std=CL3.0"};
  for (const char *Options : Builds) {
    Program P = E.build(Src, Options);
    Kernel K = E.kernel(P, "k");
    Mem DIn = E.input(In), DCtz = E.output<cl_uint>(N),
        DIds = E.output<cl_uint>(N);
    cl_uint Zero = 0;
    Mem DCount =
        E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(Zero), &Zero);
    setArgs(K, DIn, DCtz, DIds, DCount);
    E.run1(K, N, L);
    std::vector<cl_uint> WantCtz(N), WantIds(N);
    for (size_t I = 0; I < N; ++I) {
      WantCtz[I] = In[I] ? cl_uint(__builtin_ctz(In[I])) : 32u;
      WantIds[I] = cl_uint(I * 1000 + I % L);
    }
    expectEqual(E.read<cl_uint>(DCtz, N), WantCtz,
                std::string("ctz ") + Options);
    expectEqual(E.read<cl_uint>(DIds, N), WantIds,
                std::string("linear ids ") + Options);
    CLT_EXPECT_MSG(E.read<cl_uint>(DCount, 1)[0] == N, Options);
  }
}

/// A device listed twice would have two binaries: refused, as on pocl.
CLT_TEST(binaryForTheSameDeviceTwice) {
  Program P = E.build(TwoKernels);
  std::vector<unsigned char> Bin = programBinary(P);
  size_t Size = Bin.size();
  cl_device_id Devices[] = {E.Device, E.Device};
  size_t Sizes[] = {Size, Size};
  const unsigned char *In[] = {Bin.data(), Bin.data()};
  cl_int Err = CL_SUCCESS;
  Program B(
      clCreateProgramWithBinary(E.Ctx, 2, Devices, Sizes, In, nullptr, &Err));
  CLT_EXPECT(!B);
  CLT_EXPECT_ERR(CL_INVALID_DEVICE, Err);
  // Once is fine.
  B.reset(
      clCreateProgramWithBinary(E.Ctx, 1, Devices, Sizes, In, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clBuildProgram(B, 0, nullptr, nullptr, nullptr, nullptr));
  checkFill(E, B, 12);
}

/// -cl-strict-aliasing, deprecated since OpenCL 1.1, builds with a warning
/// in the log that names it.
CLT_TEST(deprecatedOptionWarns) {
  for (const char *Options :
       {"-cl-strict-aliasing", "-cl-mad-enable -cl-strict-aliasing"}) {
    Program P = E.build(TwoKernels, Options);
    std::string Log = E.buildLog(P);
    CLT_EXPECT_MSG(Log.find("warning") != std::string::npos &&
                       Log.find("-cl-strict-aliasing") != std::string::npos,
                   Log);
    checkFill(E, P, 5);
  }
  // Without it, no warning.
  Program P = E.build(TwoKernels, "-cl-mad-enable");
  CLT_EXPECT_MSG(E.buildLog(P).find("warning") == std::string::npos,
                 E.buildLog(P));
}

/// -cl-denorms-are-zero and -cl-opt-disable are accepted, alone, together
/// and with -cl-std=CL3.0, and the kernels (a helper function, a barrier,
/// local memory) still compute the right thing. Denormals may be kept: the
/// option is a hint.
CLT_TEST(denormsAndOptDisable) {
  const char *Src = R"CLC(
float scaled(float x, float s) { return x * s; }
kernel void k(global float *out, local float *tmp, float s) {
  size_t l = get_local_id(0), g = get_global_id(0);
  tmp[l] = scaled((float)g, s);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = tmp[get_local_size(0) - 1 - l];
}
)CLC";
  const size_t N = 64, L = 16;
  std::vector<float> Want(N);
  for (size_t G = 0; G < N; ++G)
    Want[G] = float(G / L * L + (L - 1 - G % L)) * 0.5f;
  std::vector<const char *> Builds = {
      "-cl-denorms-are-zero", "-cl-opt-disable",
      "-cl-opt-disable -cl-denorms-are-zero",
      "-cl-std=CL3.0 -cl-denorms-are-zero -cl-opt-disable"};
  // A 2.1 option for sub-groups, which the device does not have (Debian's
  // pocl refuses it).
  if (E.IsPoclIss)
    Builds.push_back("-cl-no-subgroup-ifp");
  for (const char *Options : Builds) {
    Program P = E.build(Src, Options);
    Kernel K = E.kernel(P, "k");
    Mem Out = E.output<float>(N);
    setArgs(K, Out, LocalMem{L * sizeof(float)}, 0.5f);
    E.run1(K, N, L);
    expectEqual(E.read<float>(Out, N), Want, Options);
  }
}

//===-- Headers ---------------------------------------------------------===//

/// A fresh folder made the working directory for one test case, with files
/// written into it; the old working directory comes back at the end.
class WorkingDir {
public:
  WorkingDir() {
    char Old[4096];
    CLT_EXPECT(getcwd(Old, sizeof(Old)) != nullptr);
    OldDir = Old;
    char Tmpl[] = "/tmp/iss-wd-XXXXXX";
    CLT_EXPECT(mkdtemp(Tmpl) != nullptr);
    Dir = Tmpl;
    CLT_EXPECT(chdir(Dir.c_str()) == 0);
  }
  ~WorkingDir() {
    (void)!chdir(OldDir.c_str());
    for (auto It = Files.rbegin(); It != Files.rend(); ++It)
      std::remove((Dir + "/" + *It).c_str());
    std::remove(Dir.c_str());
  }
  WorkingDir(const WorkingDir &) = delete;
  WorkingDir &operator=(const WorkingDir &) = delete;
  /// Writes \p Text to \p Name (a relative path; "sub/" makes a folder).
  void write(const std::string &Name, const std::string &Text) {
    size_t Slash = Name.rfind('/');
    if (Slash != std::string::npos) {
      std::string Sub = Name.substr(0, Slash);
      if (mkdir((Dir + "/" + Sub).c_str(), 0700) == 0)
        Files.push_back(Sub);
    }
    std::ofstream Out(Dir + "/" + Name, std::ios::trunc);
    Out << Text;
    CLT_EXPECT_MSG(Out.good(), Name);
    if (std::find(Files.begin(), Files.end(), Name) == Files.end())
      Files.push_back(Name);
  }

private:
  std::string OldDir, Dir;
  std::vector<std::string> Files; ///< in creation order
};

/// #include "x.h" finds x.h in the working directory, as pocl does (its
/// test_clBuildProgram), and in -I folders given relative to it.
CLT_TEST(includeFromWorkingDirectory) {
  WorkingDir WD;
  WD.write(
      "iss_wd_helper.h",
      "#define WD_VALUE 41\nint wd_helper(int x) { return x + WD_VALUE; }\n");
  WD.write("headers/iss_wd_sub.h", "#define SUB_VALUE 1000\n");
  const char *Src = R"CLC(
#include "iss_wd_helper.h"
#include "iss_wd_sub.h"
kernel void k(global int *out) { out[0] = wd_helper(1) + SUB_VALUE; }
)CLC";
  for (const char *Options : {"-I./headers", "-I headers", "-Iheaders"})
    CLT_EXPECT_MSG(runOne(E, Src, Options, 1)[0] == 1042, Options);
  // Without the -I, the second header is not found.
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE,
                 clBuildProgram(P, 1, &E.Device, "", nullptr, nullptr));
  std::string Log = E.buildLog(P);
  CLT_EXPECT_MSG(Log.find("iss_wd_sub.h") != std::string::npos, Log);
}

/// An edited header is seen by the next build of the same source, by a new
/// program and by the old one built again: nothing (the kernel cache
/// included) serves the code compiled with the old header.
CLT_TEST(editedHeaderIsRebuilt) {
  WorkingDir WD;
  const char *Src = R"CLC(
#include "iss_edited.h"
kernel void k(global int *out) { out[get_global_id(0)] = HEADER_VALUE; }
)CLC";
  auto Run = [&](cl_program P) {
    Kernel K = E.kernel(P, "k");
    Mem Out = E.output<int>(4);
    setArg(K, 0, Out);
    E.run1(K, 4, 2);
    return E.read<int>(Out, 4)[3];
  };
  WD.write("iss_edited.h", "#define HEADER_VALUE 1\n");
  Program First = E.build(Src);
  CLT_EXPECT(Run(First) == 1);
  WD.write("iss_edited.h", "#define HEADER_VALUE 2 /* edited */\n");
  Program Second = E.build(Src);
  CLT_EXPECT(Run(Second) == 2);
  CL_CHECK(clBuildProgram(First, 1, &E.Device, "", nullptr, nullptr));
  CLT_EXPECT(Run(First) == 2);
  // Back to the first text: its code again.
  WD.write("iss_edited.h", "#define HEADER_VALUE 1\n");
  Program Third = E.build(Src);
  CLT_EXPECT(Run(Third) == 1);
}

// Recursion: an inliner that inlines a recursive callee never ends, and
// the first enqueue with it. OpenCL C 1.2 does not allow it
// (section 6.9); pocl-iss runs it as real calls, as pocl does, where no
// work-item function, barrier or printf is reached through it, and refuses
// the rest at clBuildProgram with a log naming the functions.

static const char *Recursive = R"CLC(
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int is_odd(uint n);
int is_even(uint n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(uint n) { return n == 0 ? 0 : is_even(n - 1); }
__kernel void rec(__global int *out, __global const int *in) {
  size_t i = get_global_id(0);
  out[i] = fact(in[i] % 10) + 1000000 * is_even(in[i]);
}
__kernel void rec_barrier(__global int *out, __global const int *in,
                          __local int *tmp) {
  size_t l = get_local_id(0), i = get_global_id(0);
  tmp[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = tmp[get_local_size(0) - 1 - l];
  out[i] = fact(n % 10) + 1000000 * is_even(n);
}
)CLC";

static int hostFact(int N) { return N <= 1 ? 1 : N * hostFact(N - 1); }

CLT_TEST(recursionRunsAsCalls) {
  Program P = E.build(Recursive);
  const size_t N = 96, L = 16;
  std::vector<int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = static_cast<int>((I * 37) % 101);
  Mem InB = E.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int),
                     In.data());
  for (const char *Name : {"rec", "rec_barrier"}) {
    Kernel K = E.kernel(P, Name);
    Mem OutB = E.buffer(CL_MEM_WRITE_ONLY, N * sizeof(int));
    setArg(K, 0, OutB.get());
    setArg(K, 1, InB.get());
    bool Barrier = std::string(Name) == "rec_barrier";
    if (Barrier)
      CL_CHECK(clSetKernelArg(K, 2, L * sizeof(int), nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, &L, 0, nullptr,
                                    nullptr));
    std::vector<int> Out(N);
    CL_CHECK(clEnqueueReadBuffer(E.Q, OutB, CL_TRUE, 0, N * sizeof(int),
                                 Out.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < N; ++I) {
      size_t From = Barrier ? I / L * L + (L - 1 - I % L) : I;
      int V = In[From];
      int Want = hostFact(V % 10) + 1000000 * (V % 2 == 0);
      CLT_EXPECT_MSG(Out[I] == Want, std::string(Name) + "[" +
                                         std::to_string(I) +
                                         "] = " + std::to_string(Out[I]) +
                                         ", expected " + std::to_string(Want));
    }
  }
}

/// Builds \p Src, expects CL_BUILD_PROGRAM_FAILURE and returns the log.
static std::string failedBuildLog(Env &E, const char *Src) {
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT_ERR(CL_BUILD_PROGRAM_FAILURE,
                 clBuildProgram(P, 1, &E.Device, "", nullptr, nullptr));
  CLT_EXPECT(buildInfo<cl_build_status>(E, P, CL_PROGRAM_BUILD_STATUS) ==
             CL_BUILD_ERROR);
  return E.buildLog(P);
}

// pocl 3.1's tests/runtime/test_clGetKernelArgInfo builds a kernel that
// reads an image through a sampler constant: it builds, and the arguments'
// info names images and samplers with their access qualifiers (images are
// global memory objects, OpenCL 3.0, clGetKernelArgInfo).
CLT_TEST(imageKernelsBuildWithArgInfo) {
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  Program P = E.build(R"CLC(
constant sampler_t samp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE |
                          CLK_FILTER_NEAREST;
__kernel void k(__read_only image2d_t in, write_only image3d_t out,
                sampler_t s, read_write image1d_array_t rw) {
  int2 c = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(out, (int4)(c, 0, 0),
               read_imagef(in, samp, c) + read_imagef(in, s, c));
}
)CLC",
                      "-cl-std=CL3.0 -cl-kernel-arg-info");
  CLT_EXPECT(E.buildLog(P).find("error") == std::string::npos);
  Kernel K = E.kernel(P, "k");
  auto Access = [&](cl_uint I) {
    cl_kernel_arg_access_qualifier Q = 0;
    CL_CHECK(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(Q),
                                &Q, nullptr));
    return Q;
  };
  auto Address = [&](cl_uint I) {
    cl_kernel_arg_address_qualifier Q = 0;
    CL_CHECK(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                sizeof(Q), &Q, nullptr));
    return Q;
  };
  auto TypeName = [&](cl_uint I) {
    char Name[64] = {0};
    CL_CHECK(clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_NAME, sizeof(Name) - 1,
                                Name, nullptr));
    return std::string(Name);
  };
  CLT_EXPECT(Access(0) == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CLT_EXPECT(Access(1) == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CLT_EXPECT(Access(2) == CL_KERNEL_ARG_ACCESS_NONE);
  CLT_EXPECT(Access(3) == CL_KERNEL_ARG_ACCESS_READ_WRITE);
  CLT_EXPECT(Address(0) == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CLT_EXPECT(Address(1) == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CLT_EXPECT(Address(2) == CL_KERNEL_ARG_ADDRESS_PRIVATE);
  CLT_EXPECT_MSG(TypeName(0) == "image2d_t", TypeName(0));
  CLT_EXPECT_MSG(TypeName(1) == "image3d_t", TypeName(1));
  CLT_EXPECT_MSG(TypeName(2) == "sampler_t", TypeName(2));
  CLT_EXPECT_MSG(TypeName(3) == "image1d_array_t", TypeName(3));
}

CLT_TEST(recursionReachingWorkItemStateRefused) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl builds these; what they compute is undefined there");
  const char *Direct = R"CLC(
int walk(int n) { return n <= 0 ? (int)get_global_id(0) : walk(n - 1) + 1; }
__kernel void k(__global int *out, __global const int *in) {
  out[get_global_id(0)] = walk(in[0]);
}
)CLC";
  std::string Log = failedBuildLog(E, Direct);
  CLT_EXPECT_MSG(Log.find("recursion") != std::string::npos, Log);
  CLT_EXPECT_MSG(Log.find("'walk' calls itself") != std::string::npos, Log);
  CLT_EXPECT_MSG(Log.find("get_global_id") != std::string::npos, Log);

  const char *Mutual = R"CLC(
int pong(int n);
int ping(int n) {
  if (n > 0)
    printf("ping %d\n", n);
  return n <= 0 ? 0 : pong(n - 1);
}
int pong(int n) { return n <= 0 ? 1 : ping(n - 1); }
__kernel void k(__global int *out, __global const int *in) {
  out[get_global_id(0)] = ping(in[0]);
}
)CLC";
  Log = failedBuildLog(E, Mutual);
  CLT_EXPECT_MSG(
      Log.find("'ping' and 'pong' call each other") != std::string::npos, Log);
  CLT_EXPECT_MSG(Log.find("printf") != std::string::npos, Log);

  const char *WithBarrier = R"CLC(
void sync_down(int n) {
  barrier(CLK_LOCAL_MEM_FENCE);
  if (n > 0)
    sync_down(n - 1);
}
__kernel void k(__global int *out) { sync_down(out[0]); }
)CLC";
  Log = failedBuildLog(E, WithBarrier);
  CLT_EXPECT_MSG(Log.find("'sync_down' calls itself") != std::string::npos,
                 Log);
  CLT_EXPECT_MSG(Log.find("barrier") != std::string::npos, Log);
}

// Huge sources: Clang recurses once per level of an expression, more than
// an application thread's stack holds. The compiler runs on a thread with
// a large stack (POCL_ISS_COMPILER_STACK_MB, 1 GiB by default).

/// The compiler's stack in MiB as this process was started with it.
static unsigned compilerStackMB() {
  const char *V = std::getenv("POCL_ISS_COMPILER_STACK_MB");
  return V && *V ? static_cast<unsigned>(std::atoi(V)) : 1024;
}

/// out[i] = in[0] + ... with \p Terms terms in[t % 64].
static std::string longSum(unsigned Terms) {
  std::string S = "__kernel void k(__global int *out, __global const int *in) "
                  "{\n  out[get_global_id(0)] = ";
  for (unsigned T = 0; T < Terms; ++T)
    S += (T ? " + in[" : "in[") + std::to_string(T % 64) + "]";
  return S + ";\n}\n";
}

/// out[i] = -~-~...in[0], \p Pairs pairs of unary operators (each adds 1).
static std::string deepUnary(unsigned Pairs) {
  std::string S = "__kernel void k(__global int *out, __global const int *in) "
                  "{\n  out[get_global_id(0)] = ";
  for (unsigned P = 0; P < Pairs; ++P)
    S += "-~";
  return S + "in[0];\n}\n";
}

/// Runs kernel k of \p Src over 4 work-items with in[t] = t + 1.
static std::vector<int> runHuge(Env &E, const std::string &Src) {
  Program P = E.build(Src.c_str());
  Kernel K = E.kernel(P, "k");
  std::vector<int> In(64);
  for (int I = 0; I < 64; ++I)
    In[I] = I + 1;
  Mem InB = E.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     In.size() * sizeof(int), In.data());
  const size_t N = 4;
  Mem OutB = E.buffer(CL_MEM_WRITE_ONLY, N * sizeof(int));
  setArg(K, 0, OutB.get());
  setArg(K, 1, InB.get());
  CL_CHECK(clEnqueueNDRangeKernel(E.Q, K, 1, nullptr, &N, nullptr, 0, nullptr,
                                  nullptr));
  std::vector<int> Out(N);
  CL_CHECK(clEnqueueReadBuffer(E.Q, OutB, CL_TRUE, 0, N * sizeof(int),
                               Out.data(), 0, nullptr, nullptr));
  return Out;
}

CLT_TEST(hugeSumBuilds) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 overflows its stack on this source");
  if (compilerStackMB() < 1024)
    CLT_SKIP("needs the default compiler stack");
  const unsigned Terms = 100000;
  long long Want = 0;
  for (unsigned T = 0; T < Terms; ++T)
    Want += T % 64 + 1;
  for (int X : runHuge(E, longSum(Terms)))
    CLT_EXPECT_MSG(X == static_cast<int>(Want), std::to_string(X));
}

CLT_TEST(hugeNestingBuilds) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 overflows its stack on this source");
  if (compilerStackMB() < 1024)
    CLT_SKIP("needs the default compiler stack");
  // 100,000 nested operators.
  for (int X : runHuge(E, deepUnary(50000)))
    CLT_EXPECT_MSG(X == 1 + 50000, std::to_string(X));
}

CLT_TEST(stackExhaustionIsABuildFailure) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 overflows its stack on these sources");
  if (compilerStackMB() > 64)
    CLT_SKIP("runs with POCL_ISS_COMPILER_STACK_MB=16 "
             "(ctest: runtime-program-small-stack)");
  // A macro that expands to 2^17 terms, and 100,000 nested operators: far
  // more than 16 MiB of stack for Clang.
  std::string Macro = "#define T0 in[0]\n";
  for (int I = 1; I <= 17; ++I)
    Macro += "#define T" + std::to_string(I) + " T" + std::to_string(I - 1) +
             " + T" + std::to_string(I - 1) + "\n";
  Macro += "__kernel void k(__global int *out, __global const int *in) {\n"
           "  out[get_global_id(0)] = T17;\n}\n";
  std::string Nested = deepUnary(50000);
  // Twice each: a failure leaves the compiler usable.
  for (int Round = 0; Round < 2; ++Round)
    for (const std::string *Src : {&Macro, &Nested}) {
      std::string Log = failedBuildLog(E, Src->c_str());
      CLT_EXPECT_MSG(Log.find("ran out of stack") != std::string::npos, Log);
      CLT_EXPECT_MSG(
          Log.find("POCL_ISS_COMPILER_STACK_MB") != std::string::npos, Log);
    }
  // And the process goes on building and running programs.
  Program P = E.build(TwoKernels);
  checkFill(E, P, 11);
  int Want = 0;
  for (unsigned T = 0; T < 100; ++T)
    Want += T % 64 + 1;
  for (int X : runHuge(E, longSum(100)))
    CLT_EXPECT_MSG(X == Want, std::to_string(X));
}

/// Resident memory of this process in bytes (/proc/self/statm).
static size_t residentBytes() {
  std::ifstream Statm("/proc/self/statm");
  size_t Pages = 0, Resident = 0;
  Statm >> Pages >> Resident;
  return Resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// Some code per compiled kernel: a branch on the id and a loop, in two
// kernels, so that every mode compiles subkernels of some size.
static const char *CodeKernels = R"CLC(
__kernel void stencil(__global float *out, __global const float *in, int n) {
  int i = get_global_id(0);
  float s = 0.0f;
  for (int k = -3; k <= 3; ++k) {
    int j = clamp(i + k, 0, n - 1);
    s += in[j] * (float)(k + 4);
  }
  out[i] = i < n / 2 ? s : -s;
}
__kernel void twice(__global float *out, __global const float *in) {
  int i = get_global_id(0);
  out[i] = 2.0f * in[i] + (float)get_local_id(0);
}
)CLC";

/// Builds \p Bin, runs both kernels of CodeKernels at two local sizes,
/// checks the results and releases everything.
static void buildRunRelease(Env &E, const std::vector<unsigned char> &Bin) {
  size_t Size = Bin.size();
  const unsigned char *In[] = {Bin.data()};
  cl_int Err;
  Program P(
      clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &Size, In, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clBuildProgram(P, 0, nullptr, nullptr, nullptr, nullptr));
  const int N = 64;
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = static_cast<float>(I % 7);
  Mem Src = E.input(Host), Dst = E.output<float>(N);
  Kernel Stencil = E.kernel(P, "stencil"), Twice = E.kernel(P, "twice");
  setArgs(Stencil, Dst, Src, N);
  setArgs(Twice, Dst, Src);
  for (size_t Local : {size_t(8), size_t(16)}) {
    E.run1(Stencil, N, Local);
    std::vector<float> Got = E.read<float>(Dst, N);
    for (int I = 0; I < N; ++I) {
      float S = 0;
      for (int K = -3; K <= 3; ++K)
        S += Host[std::min(std::max(I + K, 0), N - 1)] * float(K + 4);
      CLT_EXPECT_MSG(Got[I] == (I < N / 2 ? S : -S), std::to_string(I));
    }
    E.run1(Twice, N, Local);
    Got = E.read<float>(Dst, N);
    for (int I = 0; I < N; ++I)
      CLT_EXPECT(Got[I] == 2 * Host[I] + float(I % Local));
  }
}

// An application that builds, runs and releases programs for as long as it
// lives must not keep their compiled code: the JIT's memory of a kernel
// goes with the last kernel, program or command using it. Each
// round loads four compiled kernels (two kernels, two local sizes; from
// the kernel cache after the first round); kept, they grew this process by
// about 175 KiB a round. What may grow is a few KiB a round: the runtime
// keeps the storage of its last 16384 released handles to recognise them.
CLT_TEST(releasedProgramsFreeTheirCode) {
  std::vector<unsigned char> Bin = programBinary(E.build(CodeKernels));
  // The first rounds fill what stays (the JIT, the caches, the pools).
  for (int Round = 0; Round < 40; ++Round)
    buildRunRelease(E, Bin);
  size_t Before = residentBytes();
  const int Rounds = 400;
  for (int Round = 0; Round < Rounds; ++Round)
    buildRunRelease(E, Bin);
  size_t After = residentBytes();
  long Growth = static_cast<long>(After) - static_cast<long>(Before);
  std::printf("  resident: %zu KiB before, %zu KiB after %d rounds "
              "(%ld bytes a round)\n",
              Before >> 10, After >> 10, Rounds, Growth / Rounds);
#ifdef __SANITIZE_ADDRESS__
  // Under AddressSanitizer the process grows by 85 to 135 KiB a round all
  // the same: the sanitizer's own mappings (strace: the kernels' code is
  // unmapped as often as in the plain build; purging its allocator or
  // keeping no allocation stacks changes nothing). There the case checks
  // the results, under the sanitizer's eyes.
  return;
#endif
  CLT_EXPECT_MSG(Growth < Rounds * 32 * 1024,
                 "grew by " + std::to_string(Growth >> 10) + " KiB");
}
