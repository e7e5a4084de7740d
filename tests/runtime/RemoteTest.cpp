//===- RemoteTest.cpp - What a forwarding server asks of the platform -----===//
// SPDX-License-Identifier: MIT
//
// PoCL-Remote's server, pocld, serves a platform to clients over the
// network with ordinary OpenCL calls, and relies on answers the
// specification leaves to the implementation: it describes the device to
// its clients from some sixty device queries whose errors it does not
// check; it builds every program from source with -cl-kernel-arg-info,
// sends the binaries to the client, builds them again from the binary when
// the client hands one back, and reads each kernel's argument info from
// whichever program it has to decide how to set each argument (a pointer
// by a type name ending in '*', an image by an access qualifier, a sampler
// by "sampler_t"); it creates every queue with profiling and reports the
// four timestamps of each command it ran; it creates its buffers with
// CL_MEM_ALLOC_HOST_PTR, waits on user events standing for other servers'
// commands, and carves its buffers out of regions of host memory as
// sub-buffers of CL_MEM_USE_HOST_PTR buffers; it creates images without a
// host pointer but with the pitches its client computed. Each case here
// makes those calls as pocld makes them and checks the answers against the
// kernels' source and a host reference.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <map>
#include <vector>

using namespace clt;

static const char *Source = R"CLC(
typedef struct { int a; float b; } Pair;

__kernel void scale(__global const float *restrict in, __global float *out,
                    __local float *tmp, __constant float *k, float f, int n) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = in[i] * f;
  if (i < (size_t)n)
    out[i] = tmp[get_local_id(0)] + k[i % 4];
}

__kernel void blur(read_only image2d_t src, write_only image2d_t dst,
                   sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s, p));
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void fixed(volatile __global int *o) {
  o[get_global_id(0)] = (int)get_local_size(0);
}

__kernel void pairs(__global Pair *p, Pair add) {
  size_t i = get_global_id(0);
  p[i].a += add.a;
  p[i].b += add.b;
}
)CLC";

//===-- The device --------------------------------------------------------===//

/// The device queries pocld makes to describe the device to its clients
/// (SharedCLContext::getDeviceInfo), in its order.
static const cl_device_info PocldDeviceQueries[] = {
    CL_DEVICE_NAME,
    CL_DEVICE_OPENCL_C_VERSION,
    CL_DEVICE_VERSION,
    CL_DRIVER_VERSION,
    CL_DEVICE_VENDOR,
    CL_DEVICE_BUILT_IN_KERNELS,
    CL_DEVICE_EXTENSIONS,
    CL_DEVICE_VENDOR_ID,
    CL_DEVICE_ADDRESS_BITS,
    CL_DEVICE_MEM_BASE_ADDR_ALIGN,
    CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHE_TYPE,
    CL_DEVICE_GLOBAL_MEM_SIZE,
    CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
    CL_DEVICE_DOUBLE_FP_CONFIG,
    CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_HALF_FP_CONFIG,
    CL_DEVICE_LOCAL_MEM_SIZE,
    CL_DEVICE_LOCAL_MEM_TYPE,
    CL_DEVICE_MAX_CLOCK_FREQUENCY,
    CL_DEVICE_MAX_COMPUTE_UNITS,
    CL_DEVICE_MAX_CONSTANT_ARGS,
    CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
    CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_MAX_PARAMETER_SIZE,
    CL_DEVICE_MAX_READ_IMAGE_ARGS,
    CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
    CL_DEVICE_MAX_SAMPLERS,
    CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
    CL_DEVICE_MAX_WORK_GROUP_SIZE,
    CL_DEVICE_MAX_WORK_ITEM_SIZES,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
    CL_DEVICE_PROFILING_TIMER_RESOLUTION,
    CL_DEVICE_TYPE,
    CL_DEVICE_AVAILABLE,
    CL_DEVICE_COMPILER_AVAILABLE,
    CL_DEVICE_ENDIAN_LITTLE,
    CL_DEVICE_ERROR_CORRECTION_SUPPORT,
    CL_DEVICE_PROFILE,
    CL_DEVICE_IMAGE_SUPPORT,
    CL_DEVICE_IMAGE2D_MAX_HEIGHT,
    CL_DEVICE_IMAGE2D_MAX_WIDTH,
    CL_DEVICE_IMAGE3D_MAX_HEIGHT,
    CL_DEVICE_IMAGE3D_MAX_WIDTH,
    CL_DEVICE_IMAGE3D_MAX_DEPTH,
    CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
    CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
    CL_DEVICE_SVM_CAPABILITIES};

CLT_TEST(everyDeviceQueryPocldMakesIsAnswered) {
  // pocld makes them with the C++ bindings without checking their errors:
  // a refused query leaves the bindings' uninitialized value, which the
  // client then reports.
  for (cl_device_info Q : PocldDeviceQueries) {
    size_t Size = 0;
    cl_int Err = clGetDeviceInfo(E.Device, Q, 0, nullptr, &Size);
    CLT_EXPECT_MSG(Err == CL_SUCCESS && Size > 0,
                   "query " + std::to_string(Q) + ": " + errorName(Err));
    std::vector<unsigned char> V(Size);
    CL_CHECK(clGetDeviceInfo(E.Device, Q, Size, V.data(), nullptr));
  }
  // Without cl_khr_fp16 the half capabilities are none.
  if (!E.hasExtension("cl_khr_fp16"))
    CLT_EXPECT(E.deviceValue<cl_device_fp_config>(CL_DEVICE_HALF_FP_CONFIG) ==
               0);
  // The image formats pocld lists for each type, read-only.
  const cl_mem_object_type Types[] = {
      CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
      CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,
      CL_MEM_OBJECT_IMAGE3D, CL_MEM_OBJECT_IMAGE1D_BUFFER};
  if (E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    for (cl_mem_object_type T : Types) {
      cl_uint N = 0;
      CL_CHECK(clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_ONLY, T, 0,
                                          nullptr, &N));
      CLT_EXPECT_MSG(N > 0, "type " + std::to_string(T));
    }
}

//===-- Programs and kernels ----------------------------------------------===//

/// The options pocld passes: the client's, then " -cl-kernel-arg-info".
static const char *PocldOptions = " -cl-kernel-arg-info";

/// One argument's info, as pocld copies it into the kernel's metadata.
struct ArgInfo {
  cl_kernel_arg_address_qualifier Address;
  cl_kernel_arg_access_qualifier Access;
  cl_kernel_arg_type_qualifier TypeQualifier;
  std::string TypeName, Name;
  bool operator==(const ArgInfo &O) const {
    return Address == O.Address && Access == O.Access &&
           TypeQualifier == O.TypeQualifier && TypeName == O.TypeName &&
           Name == O.Name;
  }
};

/// A kernel's name, attributes and arguments.
struct KernelMeta {
  std::string Attributes;
  std::vector<ArgInfo> Args;
  bool operator==(const KernelMeta &O) const {
    return Attributes == O.Attributes && Args == O.Args;
  }
};

using KernelMetas = std::map<std::string, KernelMeta>;

/// clCreateKernelsInProgram, then per kernel what pocld reads.
static KernelMetas kernelMeta(cl_program P) {
  cl_uint Count = 0;
  CL_CHECK(clCreateKernelsInProgram(P, 0, nullptr, &Count));
  std::vector<cl_kernel> Ks(Count);
  CL_CHECK(clCreateKernelsInProgram(P, Count, Ks.data(), nullptr));
  std::vector<Kernel> Owned;
  for (cl_kernel K : Ks)
    Owned.emplace_back(K);
  KernelMetas Meta;
  for (cl_kernel K : Ks) {
    KernelMeta M;
    M.Attributes = kernelString(K, CL_KERNEL_ATTRIBUTES);
    cl_uint NumArgs = 0;
    CL_CHECK(clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs,
                             nullptr));
    for (cl_uint I = 0; I < NumArgs; ++I)
      M.Args.push_back({argValue<cl_kernel_arg_address_qualifier>(
                            K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
                        argValue<cl_kernel_arg_access_qualifier>(
                            K, I, CL_KERNEL_ARG_ACCESS_QUALIFIER),
                        argValue<cl_kernel_arg_type_qualifier>(
                            K, I, CL_KERNEL_ARG_TYPE_QUALIFIER),
                        argString(K, I, CL_KERNEL_ARG_TYPE_NAME),
                        argString(K, I, CL_KERNEL_ARG_NAME)});
    Meta[kernelString(K, CL_KERNEL_FUNCTION_NAME)] = M;
  }
  return Meta;
}

/// \p Got describes the kernels \p Want does: the same names and
/// arguments, and on pocl-iss the same attributes (Debian's pocl 3.1 drops
/// them from the programs it makes of its binaries).
static bool sameKernels(const Env &E, const KernelMetas &Got,
                        const KernelMetas &Want) {
  if (E.IsPoclIss)
    return Got == Want;
  if (Got.size() != Want.size())
    return false;
  for (const auto &[Name, M] : Want)
    if (!Got.count(Name) || Got.at(Name).Args != M.Args)
      return false;
  return true;
}

/// The kinds pocld tells apart by the argument info alone
/// (SharedCLContext::build in pocld).
enum class PocldArg { Pod, Pointer, Image, Sampler };

static PocldArg pocldKind(const ArgInfo &A) {
  PocldArg K = PocldArg::Pod;
  if (A.Access != CL_KERNEL_ARG_ACCESS_NONE)
    K = PocldArg::Image;
  if (A.TypeName.find("sampler_t") != std::string::npos)
    K = PocldArg::Sampler;
  if (A.Address != CL_KERNEL_ARG_ADDRESS_PRIVATE && !A.TypeName.empty() &&
      A.TypeName.back() == '*')
    K = PocldArg::Pointer;
  return K;
}

/// The binary of \p P, after checking it is one binary for one device.
static std::vector<unsigned char> onlyBinary(const Env &E, cl_program P) {
  cl_uint NumDevices = 0;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_NUM_DEVICES, sizeof(NumDevices),
                            &NumDevices, nullptr));
  CLT_EXPECT(NumDevices == 1);
  cl_device_id Dev = nullptr;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_DEVICES, sizeof(Dev), &Dev, nullptr));
  CLT_EXPECT(Dev == E.Device);
  size_t SizesBytes = 0;
  CL_CHECK(
      clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, 0, nullptr, &SizesBytes));
  CLT_EXPECT(SizesBytes == sizeof(size_t));
  size_t PtrsBytes = 0;
  CL_CHECK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, 0, nullptr, &PtrsBytes));
  CLT_EXPECT(PtrsBytes == sizeof(unsigned char *));
  std::vector<unsigned char> Bin = programBinary(P);
  CLT_EXPECT(!Bin.empty());
  return Bin;
}

static Program fromBinary(const Env &E, const std::vector<unsigned char> &Bin,
                          const char *Options) {
  size_t Size = Bin.size();
  const unsigned char *In[] = {Bin.data()};
  cl_int Status = 1, Err;
  Program P(
      clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &Size, In, &Status, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(Status == CL_SUCCESS);
  CL_CHECK(clBuildProgram(P, 1, &E.Device, Options, nullptr, nullptr));
  return P;
}

/// Runs scale from \p P over 64 items and checks it.
static void checkScale(const Env &E, cl_program P) {
  const int N = 60;
  const size_t Global = 64, Local = 16;
  std::vector<float> In(Global), K = {0.5f, 1.0f, 1.5f, 2.0f};
  for (size_t I = 0; I < Global; ++I)
    In[I] = float(I) - 7.0f;
  Mem DIn = E.input(In), DK = E.input(K);
  Mem DOut = E.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                      Global * sizeof(float));
  E.write(DOut, std::vector<float>(Global, -1.0f));
  Kernel Scale = E.kernel(P, "scale");
  setArgs(Scale, DIn, DOut, LocalMem{Local * sizeof(float)}, DK, 3.0f, N);
  E.run1(Scale, Global, Local);
  std::vector<float> Want(Global, -1.0f);
  for (int I = 0; I < N; ++I)
    Want[I] = In[I] * 3.0f + K[I % 4];
  expectEqual(E.read<float>(DOut, Global), Want, "scale");
}

CLT_TEST(sourceBuildAnswersWhatPocldReads) {
  Program P = E.build(Source, PocldOptions);
  KernelMetas M = kernelMeta(P);
  CLT_EXPECT(M.size() == 4);
  for (const char *Name : {"scale", "blur", "fixed", "pairs"})
    CLT_EXPECT_MSG(M.count(Name), Name);

  const std::vector<ArgInfo> &S = M["scale"].Args;
  CLT_EXPECT(S.size() == 6);
  CLT_EXPECT_MSG(S[0].TypeName == "float*", S[0].TypeName);
  CLT_EXPECT(S[0].Address == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CLT_EXPECT(S[0].TypeQualifier ==
             (CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT));
  CLT_EXPECT(S[0].Name == "in" && S[5].Name == "n");
  CLT_EXPECT(S[2].Address == CL_KERNEL_ARG_ADDRESS_LOCAL);
  CLT_EXPECT(S[3].Address == CL_KERNEL_ARG_ADDRESS_CONSTANT);
  CLT_EXPECT(S[4].Address == CL_KERNEL_ARG_ADDRESS_PRIVATE);
  CLT_EXPECT(S[4].TypeName == "float" && S[5].TypeName == "int");
  const PocldArg ScaleKinds[] = {PocldArg::Pointer, PocldArg::Pointer,
                                 PocldArg::Pointer, PocldArg::Pointer,
                                 PocldArg::Pod,     PocldArg::Pod};
  for (size_t I = 0; I < S.size(); ++I)
    CLT_EXPECT_MSG(pocldKind(S[I]) == ScaleKinds[I], S[I].Name);

  const std::vector<ArgInfo> &B = M["blur"].Args;
  CLT_EXPECT(B.size() == 3);
  CLT_EXPECT(B[0].Access == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CLT_EXPECT(B[1].Access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CLT_EXPECT(B[2].Access == CL_KERNEL_ARG_ACCESS_NONE);
  CLT_EXPECT_MSG(B[0].TypeName == "image2d_t", B[0].TypeName);
  CLT_EXPECT_MSG(B[2].TypeName == "sampler_t", B[2].TypeName);
  CLT_EXPECT(pocldKind(B[0]) == PocldArg::Image &&
             pocldKind(B[1]) == PocldArg::Image &&
             pocldKind(B[2]) == PocldArg::Sampler);

  // The attribute as written, spaces aside (Debian's pocl 3.1 says
  // "__attribute__((reqd_work_group_size(4, 1, 1 )))").
  const KernelMeta &F = M["fixed"];
  std::string Attr = F.Attributes;
  Attr.erase(std::remove(Attr.begin(), Attr.end(), ' '), Attr.end());
  CLT_EXPECT_MSG(Attr.find("reqd_work_group_size(4,1,1)") != std::string::npos,
                 F.Attributes);
  CLT_EXPECT(F.Args.size() == 1 &&
             F.Args[0].TypeQualifier == CL_KERNEL_ARG_TYPE_VOLATILE &&
             pocldKind(F.Args[0]) == PocldArg::Pointer);

  const std::vector<ArgInfo> &Pr = M["pairs"].Args;
  CLT_EXPECT(Pr.size() == 2);
  CLT_EXPECT_MSG(Pr[0].TypeName == "Pair*", Pr[0].TypeName);
  CLT_EXPECT(pocldKind(Pr[0]) == PocldArg::Pointer &&
             pocldKind(Pr[1]) == PocldArg::Pod);
}

CLT_TEST(binaryBuildAnswersAsTheSourceBuild) {
  // pocld's round trip: the client gets the source build's binary and may
  // hand it back; pocld then builds it with the same appended option and
  // reads the argument info from the program made from the binary.
  Program P = E.build(Source, PocldOptions);
  std::vector<unsigned char> Bin = onlyBinary(E, P);
  Program B = fromBinary(E, Bin, PocldOptions);
  CLT_EXPECT(sameKernels(E, kernelMeta(B), kernelMeta(P)));
  checkScale(E, B);
  // Its binary is accepted again.
  Program B2 = fromBinary(E, onlyBinary(E, B), PocldOptions);
  CLT_EXPECT(sameKernels(E, kernelMeta(B2), kernelMeta(P)));
  checkScale(E, B2);
}

CLT_TEST(binaryBuildsWithOtherOptions) {
  // The client's options come first, pocld's after them. On pocl-iss a
  // build without -cl-kernel-arg-info has the argument info too, from
  // source or binary (Debian's pocl 3.1 answers
  // CL_KERNEL_ARG_INFO_NOT_AVAILABLE, as the specification allows).
  Program P = E.build(Source, PocldOptions);
  std::vector<unsigned char> Bin = onlyBinary(E, P);
  std::vector<const char *> Options = {
      "-cl-fast-relaxed-math -cl-kernel-arg-info",
      "  -DUNUSED=1 -cl-kernel-arg-info "};
  if (E.IsPoclIss)
    Options.insert(Options.end(), {"", "-DUNUSED=1"});
  for (const char *O : Options) {
    Program B = fromBinary(E, Bin, O);
    CLT_EXPECT_MSG(sameKernels(E, kernelMeta(B), kernelMeta(P)), O);
    checkScale(E, B);
  }
  if (!E.IsPoclIss)
    return;
  Program Plain = E.build(Source);
  CLT_EXPECT(kernelMeta(Plain) == kernelMeta(P));
  CLT_EXPECT(kernelMeta(fromBinary(E, onlyBinary(E, Plain), "")) ==
             kernelMeta(P));
}

//===-- Event profiling ---------------------------------------------------===//

/// The four timestamps pocld sends back for \p Ev, checked in order.
static void expectTimestamps(cl_event Ev, const char *What) {
  waitFor(Ev);
  CLT_EXPECT_MSG(eventStatus(Ev) == CL_COMPLETE, What);
  std::array<cl_ulong, 4> T = profilingTimes(Ev);
  CLT_EXPECT_MSG(T[0] > 0 && T[0] <= T[1] && T[1] <= T[2] && T[2] <= T[3],
                 std::string(What) + ": " + std::to_string(T[0]) + " " +
                     std::to_string(T[1]) + " " + std::to_string(T[2]) + " " +
                     std::to_string(T[3]));
}

CLT_TEST(profilingOfEveryCommandPocldEnqueues) {
  // pocld's queues are made as cl::QueueProperties::Profiling makes them.
  cl_int Err;
  Queue Q(
      clCreateCommandQueue(E.Ctx, E.Device, CL_QUEUE_PROFILING_ENABLE, &Err));
  CL_CHECK(Err);
  const size_t N = 4096;
  std::vector<cl_uint> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = cl_uint(I * 2654435761u);
  Mem A = E.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * 4);
  Mem B = E.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * 4);
  std::vector<cl_uint> Back(N, 0);
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {64, 4, 1};
  std::vector<Event> Evs;
  auto Next = [&] {
    Evs.emplace_back();
    return Evs.back().out();
  };
  std::vector<const char *> Names;
  Names.push_back("write");
  CL_CHECK(clEnqueueWriteBuffer(Q, A, CL_FALSE, 0, N * 4, Host.data(), 0,
                                nullptr, Next()));
  Names.push_back("copy");
  CL_CHECK(clEnqueueCopyBuffer(Q, A, B, 0, 0, N * 4, 0, nullptr, Next()));
  Names.push_back("read");
  CL_CHECK(clEnqueueReadBuffer(Q, B, CL_FALSE, 0, N * 4, Back.data(), 0,
                               nullptr, Next()));
  Names.push_back("write rect");
  CL_CHECK(clEnqueueWriteBufferRect(Q, A, CL_FALSE, Origin, Origin, Region, 64,
                                    0, 64, 0, Host.data(), 0, nullptr, Next()));
  Names.push_back("copy rect");
  CL_CHECK(clEnqueueCopyBufferRect(Q, A, B, Origin, Origin, Region, 64, 0, 64,
                                   0, 0, nullptr, Next()));
  Names.push_back("read rect");
  CL_CHECK(clEnqueueReadBufferRect(Q, B, CL_FALSE, Origin, Origin, Region, 64,
                                   0, 64, 0, Back.data(), 0, nullptr, Next()));
  Names.push_back("fill");
  cl_ulong2 Pattern = {{7, 9}};
  CL_CHECK(clEnqueueFillBuffer(Q, A, &Pattern, sizeof(Pattern), 0, N * 4, 0,
                               nullptr, Next()));
  Names.push_back("migrate");
  cl_mem Both[] = {A, B};
  CL_CHECK(clEnqueueMigrateMemObjects(Q, 2, Both, 0, 0, nullptr, Next()));
  Program P = E.build(Source, PocldOptions);
  Kernel Pairs = E.kernel(P, "pairs");
  struct {
    cl_int a;
    cl_float b;
  } Add = {1, 2.0f};
  setArgs(Pairs, B, Add);
  size_t Global = N / 2;
  Names.push_back("kernel");
  CL_CHECK(clEnqueueNDRangeKernel(Q, Pairs, 1, nullptr, &Global, nullptr, 0,
                                  nullptr, Next()));
  Names.push_back("marker");
  cl_event Prev = Evs.back();
  CL_CHECK(clEnqueueMarkerWithWaitList(Q, 1, &Prev, Next()));
  CL_CHECK(clFinish(Q));
  for (size_t I = 0; I < Evs.size(); ++I)
    expectTimestamps(Evs[I], Names[I]);
  // The kernel ran after the copies and before the marker.
  cl_ulong KernelStart = 0, MarkerEnd = 0, CopyEnd = 0;
  CL_CHECK(clGetEventProfilingInfo(Evs[8], CL_PROFILING_COMMAND_START,
                                   sizeof(cl_ulong), &KernelStart, nullptr));
  CL_CHECK(clGetEventProfilingInfo(Evs[9], CL_PROFILING_COMMAND_END,
                                   sizeof(cl_ulong), &MarkerEnd, nullptr));
  CL_CHECK(clGetEventProfilingInfo(Evs[4], CL_PROFILING_COMMAND_END,
                                   sizeof(cl_ulong), &CopyEnd, nullptr));
  CLT_EXPECT(CopyEnd <= KernelStart && KernelStart <= MarkerEnd);

  // B is the copy of A with the rectangle written again, then pairs added.
  std::vector<cl_uint> Want = Host;
  for (size_t I = 0; I < N / 2; ++I) {
    Want[2 * I] += 1;
    float F;
    std::memcpy(&F, &Want[2 * I + 1], 4);
    F += 2.0f;
    std::memcpy(&Want[2 * I + 1], &F, 4);
  }
  std::vector<cl_uint> Got(N);
  CL_CHECK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, N * 4, Got.data(), 0, nullptr,
                               nullptr));
  expectEqual(Got, Want, "B");
}

CLT_TEST(profilingOfImageCommands) {
  if (!E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    CLT_SKIP("no images");
  cl_int Err;
  Queue Q(
      clCreateCommandQueue(E.Ctx, E.Device, CL_QUEUE_PROFILING_ENABLE, &Err));
  CL_CHECK(Err);
  const size_t W = 16, H = 8;
  cl_image_format F = {CL_RGBA, CL_FLOAT};
  Mem Src = E.image2D(F, W, H), Dst = E.image2D(F, W, H);
  std::vector<float> Pix(W * H * 4);
  for (size_t I = 0; I < Pix.size(); ++I)
    Pix[I] = float(I) * 0.25f;
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, Pix.size() * sizeof(float));
  Program P = E.build(Source, PocldOptions);
  Kernel Blur = E.kernel(P, "blur");
  Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                            CL_FILTER_NEAREST, &Err));
  CL_CHECK(Err);
  setArgs(Blur, Src, Dst, S);
  std::vector<float> Back(Pix.size(), -1.0f);
  cl_float4 Zero = {{0, 0, 0, 0}};
  std::vector<Event> Evs(7);
  CL_CHECK(clEnqueueFillImage(Q, Dst, &Zero, Origin, Region, 0, nullptr,
                              Evs[0].out()));
  CL_CHECK(clEnqueueWriteImage(Q, Src, CL_FALSE, Origin, Region, 0, 0,
                               Pix.data(), 0, nullptr, Evs[1].out()));
  size_t Global[2] = {W, H};
  CL_CHECK(clEnqueueNDRangeKernel(Q, Blur, 2, nullptr, Global, nullptr, 0,
                                  nullptr, Evs[2].out()));
  CL_CHECK(clEnqueueCopyImageToBuffer(Q, Dst, Buf, Origin, Region, 0, 0,
                                      nullptr, Evs[3].out()));
  CL_CHECK(clEnqueueCopyBufferToImage(Q, Buf, Src, 0, Origin, Region, 0,
                                      nullptr, Evs[4].out()));
  CL_CHECK(clEnqueueCopyImage(Q, Src, Dst, Origin, Origin, Region, 0, nullptr,
                              Evs[5].out()));
  CL_CHECK(clEnqueueReadImage(Q, Dst, CL_FALSE, Origin, Region, 0, 0,
                              Back.data(), 0, nullptr, Evs[6].out()));
  CL_CHECK(clFinish(Q));
  const char *Names[] = {"fill image",      "write image",     "kernel",
                         "image to buffer", "buffer to image", "copy image",
                         "read image"};
  for (size_t I = 0; I < Evs.size(); ++I)
    expectTimestamps(Evs[I], Names[I]);
  expectEqual(Back, Pix, "image");
}

//===-- Events from elsewhere ---------------------------------------------===//

CLT_TEST(userEventsStandForOtherServersCommands) {
  // pocld makes a user event for each command of another server (or of
  // the client) that a command waits for, and completes it, or fails it,
  // when that command's server says so; commands of its other queues are
  // waited for by their events.
  cl_int Err;
  Queue Q2(
      clCreateCommandQueue(E.Ctx, E.Device, CL_QUEUE_PROFILING_ENABLE, &Err));
  CL_CHECK(Err);
  Event Remote = userEvent(E);
  Mem B = E.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64);
  cl_int One = 1, Two = 2, Got = 0;
  Event W1, W2, M;
  CL_CHECK(
      clEnqueueWriteBuffer(E.Q, B, CL_FALSE, 0, 4, &One, 0, nullptr, W1.out()));
  cl_event Deps[] = {Remote, W1};
  CL_CHECK(
      clEnqueueWriteBuffer(Q2, B, CL_FALSE, 0, 4, &Two, 2, Deps, W2.out()));
  CL_CHECK(clFlush(Q2));
  settle();
  CLT_EXPECT(eventStatus(W2) > CL_COMPLETE);
  CL_CHECK(clSetUserEventStatus(Remote, CL_COMPLETE));
  cl_event Last = W2;
  CL_CHECK(clEnqueueMarkerWithWaitList(E.Q, 1, &Last, M.out()));
  expectTimestamps(M, "marker after another queue's write");
  CL_CHECK(
      clEnqueueReadBuffer(E.Q, B, CL_TRUE, 0, 4, &Got, 0, nullptr, nullptr));
  CLT_EXPECT(Got == 2);

  // A failed command elsewhere fails what waits for it here.
  Event Failed = userEvent(E);
  Event W3;
  cl_event FailedDep = Failed;
  CL_CHECK(clEnqueueWriteBuffer(Q2, B, CL_FALSE, 0, 4, &One, 1, &FailedDep,
                                W3.out()));
  CL_CHECK(clSetUserEventStatus(Failed, CL_INVALID_OPERATION));
  cl_event Waited = W3;
  CLT_EXPECT_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                 clWaitForEvents(1, &Waited));
  CLT_EXPECT(eventStatus(W3) < 0);
}

//===-- Buffers -----------------------------------------------------------===//

CLT_TEST(subBuffersOfAHostRegion) {
  // pocld's shared virtual memory: one CL_MEM_USE_HOST_PTR buffer over a
  // clSVMAlloc region, and one sub-buffer per client buffer at 128-byte
  // aligned offsets, flags limited to the access ones.
  cl_uint AlignBits = E.deviceValue<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  CLT_EXPECT(AlignBits <= 128 * 8);
  const size_t RegionBytes = 1 << 20;
  void *Svm =
      clSVMAlloc(E.Ctx, CL_MEM_READ_WRITE, RegionBytes, sizeof(cl_uint16));
  if (!Svm)
    CLT_SKIP("no clSVMAlloc");
  cl_int Err;
  Mem Shadow(clCreateBuffer(E.Ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                            RegionBytes, Svm, &Err));
  CL_CHECK(Err);
  const size_t Items = 100;
  struct Pair {
    cl_int a;
    cl_float b;
  };
  Pair *Host = static_cast<Pair *>(Svm);
  // 800 bytes each, 7 * 128 apart at least; the last ends 96 bytes before
  // the region's end.
  const size_t Offsets[] = {0, 128 * 7, 4096 + 128, RegionBytes - 128 * 7};
  const size_t Bytes = Items * sizeof(Pair);
  for (size_t Off : Offsets)
    for (size_t I = 0; I < Items; ++I)
      Host[Off / sizeof(Pair) + I] = {cl_int(I + Off), float(I) * 0.5f};
  Program P = E.build(Source, PocldOptions);
  Kernel Pairs = E.kernel(P, "pairs");
  std::vector<Mem> Subs;
  for (size_t Off : Offsets) {
    cl_buffer_region R = {Off, Bytes};
    Subs.emplace_back(clCreateSubBuffer(
        Shadow, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &R, &Err));
    CL_CHECK(Err);
    size_t Got = 0;
    CL_CHECK(clGetMemObjectInfo(Subs.back(), CL_MEM_OFFSET, sizeof(Got), &Got,
                                nullptr));
    CLT_EXPECT(Got == Off);
    void *HostPtr = nullptr;
    CL_CHECK(clGetMemObjectInfo(Subs.back(), CL_MEM_HOST_PTR, sizeof(HostPtr),
                                &HostPtr, nullptr));
    CLT_EXPECT(HostPtr == static_cast<char *>(Svm) + Off);
    Pair Add = {1000, 8.0f};
    setArgs(Pairs, Subs.back(), Add);
    E.run1(Pairs, Items);
    // Through the buffer commands, as pocld reads its buffers back.
    std::vector<Pair> Back(Items);
    CL_CHECK(clEnqueueReadBuffer(E.Q, Subs.back(), CL_TRUE, 0, Bytes,
                                 Back.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < Back.size(); ++I) {
      CLT_EXPECT_MSG(Back[I].a == cl_int(I + Off + 1000) &&
                         Back[I].b == float(I) * 0.5f + 8.0f,
                     "offset " + std::to_string(Off) + " item " +
                         std::to_string(I));
      // The host region is the buffer's memory.
      CLT_EXPECT(Host[Off / sizeof(Pair) + I].a == Back[I].a);
    }
  }
  Subs.clear();
  Shadow.reset();
  clSVMFree(E.Ctx, Svm);
}

//===-- Images ------------------------------------------------------------===//

template <typename T> static T imageInfo(cl_mem M, cl_image_info P) {
  T V{};
  CL_CHECK(clGetImageInfo(M, P, sizeof(T), &V, nullptr));
  return V;
}

CLT_TEST(imagesWithTheClientsPitches) {
  // pocld creates each image without a host pointer but with the pitches
  // its client computed (cl::Image1DArray, Image2DArray, Image3D): packed,
  // or the application's own for CL_MEM_USE_HOST_PTR. They lay the image
  // out, as on pocl 3.1.
  if (!E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT))
    CLT_SKIP("no images");
  const cl_image_format F = {CL_RGBA, CL_UNSIGNED_INT8};
  const size_t W = 10, H = 6, N = 3, Pixel = 4;
  struct Case {
    cl_mem_object_type Type;
    size_t Row, Slice; ///< as given; the reported ones are the same
  };
  const Case Cases[] = {{CL_MEM_OBJECT_IMAGE3D, W * Pixel, W * Pixel * H},
                        {CL_MEM_OBJECT_IMAGE3D, 64, 64 * H + 128},
                        {CL_MEM_OBJECT_IMAGE2D_ARRAY, W * Pixel, W * Pixel * H},
                        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 48, 48 * H},
                        {CL_MEM_OBJECT_IMAGE1D_ARRAY, W * Pixel, 0},
                        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 64, 0},
                        {CL_MEM_OBJECT_IMAGE2D, W * Pixel, 0},
                        {CL_MEM_OBJECT_IMAGE2D, 96, 0}};
  for (const Case &C : Cases) {
    bool Is1DArray = C.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    bool Is3D = C.Type == CL_MEM_OBJECT_IMAGE3D;
    bool HasLayers = Is3D || C.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    std::string What = "type " + std::to_string(C.Type) + ", row pitch " +
                       std::to_string(C.Row);
    cl_image_desc D = {};
    D.image_type = C.Type;
    D.image_width = W;
    D.image_height = Is1DArray ? 0 : H;
    D.image_depth = Is3D ? N : 0;
    D.image_array_size = Is1DArray || (HasLayers && !Is3D) ? N : 0;
    D.image_row_pitch = C.Row;
    D.image_slice_pitch = C.Slice;
    cl_int Err;
    Mem M(clCreateImage(E.Ctx, CL_MEM_READ_WRITE, &F, &D, nullptr, &Err));
    CLT_EXPECT_MSG(Err == CL_SUCCESS, What + ": " + errorName(Err));
    // A 1D array's rows are its slices: the slice pitch, or the row pitch.
    size_t WantSlice = Is1DArray ? (C.Slice ? C.Slice : C.Row) : C.Slice;
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == C.Row, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_SLICE_PITCH) == WantSlice,
                   What);

    // Every pixel written packed, then read back, copied through a buffer
    // and another image of the same type, packed.
    size_t Lines = Is1DArray ? N : H, Layers = HasLayers ? N : 1;
    const size_t Origin[3] = {0, 0, 0}, Region[3] = {W, Lines, Layers};
    std::vector<cl_uchar> Pix(W * Lines * Layers * Pixel);
    for (size_t I = 0; I < Pix.size(); ++I)
      Pix[I] = cl_uchar(I * 7 + C.Row);
    CL_CHECK(clEnqueueWriteImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0,
                                 Pix.data(), 0, nullptr, nullptr));
    std::vector<cl_uchar> Back(Pix.size());
    CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0,
                                Back.data(), 0, nullptr, nullptr));
    expectEqual(Back, Pix, What + ": read");
    Mem Buf = E.buffer(CL_MEM_READ_WRITE, Pix.size());
    CL_CHECK(clEnqueueCopyImageToBuffer(E.Q, M, Buf, Origin, Region, 0, 0,
                                        nullptr, nullptr));
    expectEqual(E.read<cl_uchar>(Buf, Pix.size()), Pix, What + ": to buffer");
    cl_image_desc Packed = D;
    Packed.image_row_pitch = Packed.image_slice_pitch = 0;
    Mem Other(
        clCreateImage(E.Ctx, CL_MEM_READ_WRITE, &F, &Packed, nullptr, &Err));
    CL_CHECK(Err);
    CL_CHECK(clEnqueueCopyImage(E.Q, M, Other, Origin, Origin, Region, 0,
                                nullptr, nullptr));
    std::fill(Back.begin(), Back.end(), 0);
    CL_CHECK(clEnqueueReadImage(E.Q, Other, CL_TRUE, Origin, Region, 0, 0,
                                Back.data(), 0, nullptr, nullptr));
    expectEqual(Back, Pix, What + ": copied");

    // A map shows the layout: rows at the row pitch (a 1D array's at the
    // slice pitch), layers at the slice pitch.
    size_t MapRow = 0, MapSlice = 0;
    cl_uchar *P = static_cast<cl_uchar *>(
        clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_READ, Origin, Region, &MapRow,
                          &MapSlice, 0, nullptr, nullptr, &Err));
    CL_CHECK(Err);
    CLT_EXPECT_MSG(MapRow == C.Row && MapSlice == WantSlice, What);
    size_t RowStep = Is1DArray ? WantSlice : C.Row;
    for (size_t L = 0; L < Layers; ++L)
      for (size_t Y = 0; Y < Lines; ++Y)
        CLT_EXPECT_MSG(std::equal(Pix.begin() + (L * Lines + Y) * W * Pixel,
                                  Pix.begin() + (L * Lines + Y + 1) * W * Pixel,
                                  P + L * MapSlice + Y * RowStep),
                       What + ": mapped row " + std::to_string(Y));
    CL_CHECK(clEnqueueUnmapMemObject(E.Q, M, P, 0, nullptr, nullptr));
    CL_CHECK(clFinish(E.Q));
  }

  // A kernel reads and writes a 2D image laid out by the pitch given.
  Program Prog = E.build(Source, PocldOptions);
  Kernel Blur = E.kernel(Prog, "blur");
  const cl_image_format FF = {CL_RGBA, CL_FLOAT};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  D.image_row_pitch = W * 16 + 64;
  cl_int Err;
  Mem Src(clCreateImage(E.Ctx, CL_MEM_READ_ONLY, &FF, &D, nullptr, &Err));
  CL_CHECK(Err);
  Mem Dst(clCreateImage(E.Ctx, CL_MEM_WRITE_ONLY, &FF, &D, nullptr, &Err));
  CL_CHECK(Err);
  std::vector<float> Pix(W * H * 4);
  for (size_t I = 0; I < Pix.size(); ++I)
    Pix[I] = float(I) * 0.5f;
  const size_t Origin[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  CL_CHECK(clEnqueueWriteImage(E.Q, Src, CL_TRUE, Origin, Region, 0, 0,
                               Pix.data(), 0, nullptr, nullptr));
  Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                            CL_FILTER_NEAREST, &Err));
  CL_CHECK(Err);
  setArgs(Blur, Src, Dst, S);
  size_t Global[2] = {W, H};
  E.run(Blur, 2, Global, nullptr);
  std::vector<float> Back(Pix.size(), -1.0f);
  CL_CHECK(clEnqueueReadImage(E.Q, Dst, CL_TRUE, Origin, Region, 0, 0,
                              Back.data(), 0, nullptr, nullptr));
  expectEqual(Back, Pix, "kernel over pitched images");
}
