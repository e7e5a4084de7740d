//===- ImageTest.cpp - Images, samplers and the image commands ------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The image API without kernels (tests/kernels/ImageKernels.cpp has those):
// the device's image limits, the formats, clCreateImage and the 1.1 calls
// with their error codes (sizes that overflow size_t included), image and
// memory object queries, reads and writes of regions with host pitches,
// copies between images and buffers, fills with the format conversions,
// maps with their pitches, 1D image buffers, samplers, and the argument
// checks of clSetKernelArg for images and samplers. Each expected value is
// the OpenCL 3.0 specification's; the tests were run on Debian's pocl 3.1
// too (ISS_TEST_PLATFORM=Portable OCL_ICD_VENDORS=/etc/OpenCL/vendors),
// and where pocl 3.1 departs from the specification the case says so and
// checks only pocl-iss.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <cstdint>

using namespace clt;

namespace {

cl_image_desc desc(cl_mem_object_type T, size_t W, size_t H = 0, size_t D = 0,
                   size_t A = 0) {
  cl_image_desc Desc = {};
  Desc.image_type = T;
  Desc.image_width = W;
  Desc.image_height = H;
  Desc.image_depth = D;
  Desc.image_array_size = A;
  return Desc;
}

cl_int tryCreate(const Env &E, cl_mem_flags Flags, const cl_image_format *F,
                 const cl_image_desc *D, void *Host = nullptr) {
  cl_int Err = CL_SUCCESS;
  Mem M(clCreateImage(E.Ctx, Flags, F, D, Host, &Err));
  CLT_EXPECT((Err == CL_SUCCESS) == (M.get() != nullptr));
  return Err;
}

Mem image(const Env &E, cl_mem_flags Flags, cl_image_format F,
          const cl_image_desc &D, void *Host = nullptr) {
  cl_int Err;
  Mem M(clCreateImage(E.Ctx, Flags, &F, &D, Host, &Err));
  CL_CHECK(Err);
  return M;
}

template <typename T> T imageInfo(cl_mem M, cl_image_info P) {
  T V{};
  CL_CHECK(clGetImageInfo(M, P, sizeof(T), &V, nullptr));
  return V;
}

template <typename T> T memInfo(cl_mem M, cl_mem_info P) {
  T V{};
  CL_CHECK(clGetMemObjectInfo(M, P, sizeof(T), &V, nullptr));
  return V;
}

std::vector<unsigned char> bytes(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>((I * 131 + Seed * 17 + (I >> 7)) & 0xff);
  return V;
}

const cl_image_format RGBA8 = {CL_RGBA, CL_UNSIGNED_INT8};

} // namespace

CLT_TEST(deviceImageLimits) {
  CLT_EXPECT(E.deviceValue<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
  // OpenCL 3.0, table 5.6: the minimums of a device with images.
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE2D_MAX_WIDTH) >= 16384);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE2D_MAX_HEIGHT) >= 16384);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE3D_MAX_WIDTH) >= 2048);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE3D_MAX_HEIGHT) >= 2048);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE3D_MAX_DEPTH) >= 2048);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE) >= 65536);
  CLT_EXPECT(E.deviceValue<size_t>(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) >= 2048);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_SAMPLERS) >= 16);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_READ_IMAGE_ARGS) >= 128);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_WRITE_IMAGE_ARGS) >= 64);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) >= 64);
  // No cl_khr_image2d_from_buffer: both alignments are 0.
  CLT_EXPECT(!E.hasExtension("cl_khr_image2d_from_buffer"));
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_IMAGE_PITCH_ALIGNMENT) == 0);
  CLT_EXPECT(E.deviceValue<cl_uint>(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT) ==
             0);
  CLT_EXPECT(E.hasExtension("cl_khr_3d_image_writes"));
}

CLT_TEST(supportedFormats) {
  const cl_mem_object_type Types[] = {
      CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
      CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
      CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  for (cl_mem_object_type T : Types) {
    cl_uint N = 0;
    CL_CHECK(clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_WRITE, T, 0, nullptr,
                                        &N));
    CLT_EXPECT(N > 0);
    std::vector<cl_image_format> F(N);
    CL_CHECK(clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_WRITE, T, N,
                                        F.data(), nullptr));
    auto Has = [&](cl_channel_order O, cl_channel_type Ty) {
      for (const cl_image_format &X : F)
        if (X.image_channel_order == O && X.image_channel_data_type == Ty)
          return true;
      return false;
    };
    // OpenCL 1.2's minimum list (3.0 keeps it for devices with images).
    for (cl_channel_type Ty :
         {CL_UNORM_INT8, CL_UNORM_INT16, CL_SIGNED_INT8, CL_SIGNED_INT16,
          CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
          CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT})
      CLT_EXPECT(Has(CL_RGBA, Ty));
    CLT_EXPECT(Has(CL_BGRA, CL_UNORM_INT8));
    // Every format listed can be created, with the pixel size it implies.
    for (const cl_image_format &X : F) {
      cl_int Err;
      Mem Buf = E.buffer(CL_MEM_READ_WRITE, 4096);
      cl_image_desc D = desc(
          T, 4,
          T == CL_MEM_OBJECT_IMAGE2D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                  T == CL_MEM_OBJECT_IMAGE3D
              ? 3
              : 0,
          T == CL_MEM_OBJECT_IMAGE3D ? 2 : 0,
          T == CL_MEM_OBJECT_IMAGE1D_ARRAY || T == CL_MEM_OBJECT_IMAGE2D_ARRAY
              ? 2
              : 0);
      if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        D.buffer = Buf;
      Mem M(clCreateImage(E.Ctx, CL_MEM_READ_WRITE, &X, &D, nullptr, &Err));
      CLT_EXPECT_MSG(Err == CL_SUCCESS,
                     "format " + std::to_string(X.image_channel_order) + "/" +
                         std::to_string(X.image_channel_data_type) + ": " +
                         errorName(Err));
    }
  }
  cl_uint N;
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clGetSupportedImageFormats(
                                       E.Ctx, CL_MEM_READ_WRITE,
                                       CL_MEM_OBJECT_BUFFER, 0, nullptr, &N));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT,
                 clGetSupportedImageFormats(nullptr, CL_MEM_READ_WRITE,
                                            CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                            &N));
}

CLT_TEST(createErrors) {
  cl_image_desc D2 = desc(CL_MEM_OBJECT_IMAGE2D, 8, 8);
  CLT_EXPECT(tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &D2) == CL_SUCCESS);
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, nullptr, &D2));
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, nullptr));
  CLT_EXPECT_ERR(
      CL_INVALID_VALUE,
      tryCreate(E, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &RGBA8, &D2));
  // BGRA takes 8-bit channels only; CL_RGB the packed types only. pocl
  // 3.1 answers CL_INVALID_OPERATION ("no device supports this image")
  // to all three, where OpenCL 3.0 tells an invalid format descriptor from
  // a valid format the device lacks.
  cl_image_format BadCombo = {CL_BGRA, CL_FLOAT};
  cl_image_format Unknown = {0x1234, CL_FLOAT};
  cl_image_format Packed = {CL_RGB, CL_UNORM_SHORT_565};
  cl_int Formats[3] = {tryCreate(E, CL_MEM_READ_WRITE, &BadCombo, &D2),
                       tryCreate(E, CL_MEM_READ_WRITE, &Unknown, &D2),
                       tryCreate(E, CL_MEM_READ_WRITE, &Packed, &D2)};
  if (E.IsPoclIss) {
    CLT_EXPECT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, Formats[0]);
    CLT_EXPECT_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, Formats[1]);
    CLT_EXPECT_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED, Formats[2]);
  } else {
    for (cl_int Err : Formats)
      CLT_EXPECT(Err != CL_SUCCESS);
  }

  // Past the device's limits; pocl 3.1 answers CL_INVALID_OPERATION ("no
  // device supports this image type + size") for CL_INVALID_IMAGE_SIZE.
  size_t Max2D = E.deviceValue<size_t>(CL_DEVICE_IMAGE2D_MAX_WIDTH);
  cl_image_desc Big = desc(CL_MEM_OBJECT_IMAGE2D, Max2D + 1, 4);
  size_t MaxArray = E.deviceValue<size_t>(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  cl_image_desc BigArray =
      desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, MaxArray + 1);
  const cl_int WantSize =
      E.IsPoclIss ? CL_INVALID_IMAGE_SIZE : CL_INVALID_OPERATION;
  CLT_EXPECT_ERR(WantSize, tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &Big));
  CLT_EXPECT_ERR(WantSize, tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &BigArray));

  std::vector<unsigned char> Host(8 * 8 * 4 * 4);
  CLT_EXPECT_ERR(CL_INVALID_HOST_PTR,
                 tryCreate(E, CL_MEM_COPY_HOST_PTR, &RGBA8, &D2));
  CLT_EXPECT_ERR(CL_INVALID_HOST_PTR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &D2, Host.data()));
  // Pitches: a row pitch below the row (pocl 3.1 takes it), or not a
  // multiple of the pixel.
  cl_image_desc Pitched = D2;
  Pitched.image_row_pitch = 8 * 4 - 4;
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(
        CL_INVALID_IMAGE_DESCRIPTOR,
        tryCreate(E, CL_MEM_COPY_HOST_PTR, &RGBA8, &Pitched, Host.data()));
  // pocl 3.1 answers CL_INVALID_VALUE, not the descriptor error.
  Pitched.image_row_pitch = 8 * 4 + 2;
  CLT_EXPECT_ERR(
      E.IsPoclIss ? CL_INVALID_IMAGE_DESCRIPTOR : CL_INVALID_VALUE,
      tryCreate(E, CL_MEM_COPY_HOST_PTR, &RGBA8, &Pitched, Host.data()));
  Pitched.image_row_pitch = 8 * 4 + 4;
  CLT_EXPECT(tryCreate(E, CL_MEM_COPY_HOST_PTR, &RGBA8, &Pitched,
                       Host.data()) == CL_SUCCESS);
  // A 1D image buffer needs its buffer (pocl 3.1: CL_INVALID_MEM_OBJECT,
  // where the buffer is a field of the descriptor).
  cl_image_desc NoBuffer = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16);
  CLT_EXPECT_ERR(E.IsPoclIss ? CL_INVALID_IMAGE_DESCRIPTOR
                             : CL_INVALID_MEM_OBJECT,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &NoBuffer));

  // A 2D image from a buffer is an optional feature of OpenCL 3.0, which
  // neither device has (CL_DEVICE_IMAGE_PITCH_ALIGNMENT is 0): appendix H
  // says CL_INVALID_OPERATION (the CTS's api
  // consistency_2d_image_from_buffer).
  if (E.deviceValue<cl_uint>(CL_DEVICE_IMAGE_PITCH_ALIGNMENT) == 0) {
    Mem Store = E.buffer(CL_MEM_READ_WRITE, 8 * 8 * 4);
    cl_image_desc FromBuffer = D2;
    FromBuffer.buffer = Store;
    CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                   tryCreate(E, CL_MEM_READ_ONLY, &RGBA8, &FromBuffer));
  }

  if (!E.IsPoclIss)
    return; // the rest pocl 3.1 does not check (each says how it departs)

  // pocl 3.1 answers CL_INVALID_VALUE for an unknown image type.
  cl_image_desc NotImage = desc(CL_MEM_OBJECT_BUFFER, 8, 8);
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &NotImage));
  // pocl 3.1 aborts the process on mipmaps (POCL_ABORT_UNIMPLEMENTED).
  cl_image_desc Mip = D2;
  Mip.num_mip_levels = 2;
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &Mip));
  // pocl 3.1 creates images of width 0.
  cl_image_desc Zero = desc(CL_MEM_OBJECT_IMAGE2D, 0, 8);
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &Zero));
  // pocl 3.1 takes a 1D image buffer larger than its buffer.
  Mem Small = E.buffer(CL_MEM_READ_WRITE, 64);
  cl_image_desc TooWide = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 17);
  TooWide.buffer = Small;
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &TooWide));
  // Sizes whose bytes wrap size_t (pocl 3.1 multiplies without checks):
  // a slice pitch times a depth, with the application's host pointer.
  cl_image_desc Wrap = desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2048);
  Wrap.image_row_pitch = size_t(1) << 62;
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_SIZE,
                 tryCreate(E, CL_MEM_USE_HOST_PTR, &RGBA8, &Wrap, Host.data()));
  Wrap.image_row_pitch = 16;
  Wrap.image_slice_pitch = (SIZE_MAX / 2048 + 1) / 16 * 16;
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_SIZE,
                 tryCreate(E, CL_MEM_USE_HOST_PTR, &RGBA8, &Wrap, Host.data()));
  // The 1.1 calls: zero sizes (and a 3D depth of 1) are a size error.
  cl_int Err;
  Mem M(clCreateImage2D(E.Ctx, CL_MEM_READ_WRITE, &RGBA8, 0, 4, 0, nullptr,
                        &Err));
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_SIZE, Err);
  M.reset(clCreateImage3D(E.Ctx, CL_MEM_READ_WRITE, &RGBA8, 4, 4, 1, 0, 0,
                          nullptr, &Err));
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_SIZE, Err);
}

CLT_TEST(imageAndMemInfo) {
  cl_image_format F = {CL_RGBA, CL_FLOAT};
  struct Case {
    cl_image_desc D;
    size_t Row, Slice, Height, Depth, Array;
  };
  const Case Cases[] = {
      {desc(CL_MEM_OBJECT_IMAGE1D, 5), 80, 0, 0, 0, 0},
      {desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 0, 0, 3), 80, 80, 0, 0, 3},
      {desc(CL_MEM_OBJECT_IMAGE2D, 5, 4), 80, 0, 4, 0, 0},
      {desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 5, 4, 0, 3), 80, 320, 4, 0, 3},
      {desc(CL_MEM_OBJECT_IMAGE3D, 5, 4, 2), 80, 320, 4, 2, 0}};
  for (const Case &C : Cases) {
    Mem M = image(E, CL_MEM_READ_ONLY, F, C.D);
    std::string What = "type " + std::to_string(C.D.image_type);
    cl_image_format Got = imageInfo<cl_image_format>(M, CL_IMAGE_FORMAT);
    CLT_EXPECT(Got.image_channel_order == CL_RGBA &&
               Got.image_channel_data_type == CL_FLOAT);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_ELEMENT_SIZE) == 16, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == C.Row, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_SLICE_PITCH) == C.Slice, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_WIDTH) == 5, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_HEIGHT) == C.Height, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_DEPTH) == C.Depth, What);
    CLT_EXPECT_MSG(imageInfo<size_t>(M, CL_IMAGE_ARRAY_SIZE) == C.Array, What);
    CLT_EXPECT(imageInfo<cl_uint>(M, CL_IMAGE_NUM_MIP_LEVELS) == 0);
    CLT_EXPECT(imageInfo<cl_uint>(M, CL_IMAGE_NUM_SAMPLES) == 0);
    CLT_EXPECT(memInfo<cl_mem_object_type>(M, CL_MEM_TYPE) == C.D.image_type);
    CLT_EXPECT(memInfo<cl_mem_flags>(M, CL_MEM_FLAGS) == CL_MEM_READ_ONLY);
    CLT_EXPECT(memInfo<cl_context>(M, CL_MEM_CONTEXT) == E.Ctx.get());
    size_t Bytes = C.Array   ? C.Slice * C.Array
                   : C.Depth ? C.Slice * C.Depth
                             : C.Row * std::max<size_t>(C.Height, 1);
    CLT_EXPECT_MSG(memInfo<size_t>(M, CL_MEM_SIZE) >= Bytes, What);
    size_t Dummy;
    CLT_EXPECT_ERR(
        CL_INVALID_VALUE,
        clGetImageInfo(M, CL_MEM_SIZE, sizeof(Dummy), &Dummy, nullptr));
  }
  // pocl 3.1 answers clGetImageInfo on a buffer.
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, 1024);
  size_t Dummy;
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(
        CL_INVALID_MEM_OBJECT,
        clGetImageInfo(Buf, CL_IMAGE_WIDTH, sizeof(Dummy), &Dummy, nullptr));
}

CLT_TEST(createImageWithProperties) {
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  const cl_mem_properties Empty[] = {0};
  cl_int Err;
  Mem M(clCreateImageWithProperties(E.Ctx, Empty, CL_MEM_READ_WRITE, &RGBA8, &D,
                                    nullptr, &Err));
  CL_CHECK(Err);
  size_t Size = 0;
  CL_CHECK(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Size));
  CLT_EXPECT(Size == sizeof(cl_mem_properties));
  M.reset(clCreateImageWithProperties(E.Ctx, nullptr, CL_MEM_READ_WRITE, &RGBA8,
                                      &D, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Size));
  CLT_EXPECT(Size == 0);
  const cl_mem_properties Unknown[] = {0x7777, 1, 0};
  M.reset(clCreateImageWithProperties(E.Ctx, Unknown, CL_MEM_READ_WRITE, &RGBA8,
                                      &D, nullptr, &Err));
  CLT_EXPECT(!M.get());
  CLT_EXPECT_ERR(CL_INVALID_PROPERTY, Err);
  if (!E.IsPoclIss)
    return;
  // A 1D image buffer has no host pointer, so no pitches (pocl 3.1 takes
  // them).
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, 256);
  cl_image_desc B = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 8);
  B.buffer = Buf;
  B.image_row_pitch = 32;
  CLT_EXPECT_ERR(CL_INVALID_IMAGE_DESCRIPTOR,
                 tryCreate(E, CL_MEM_READ_WRITE, &RGBA8, &B));
}

/// A 1D image buffer shares its buffer's bytes both ways and names it.
CLT_TEST(image1DBuffer) {
  std::vector<unsigned char> Init = bytes(256, 1);
  Mem Buf =
      E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 256, Init.data());
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 60);
  D.buffer = Buf;
  Mem M = image(E, CL_MEM_READ_ONLY, RGBA8, D);
  CLT_EXPECT(memInfo<cl_mem>(M, CL_MEM_ASSOCIATED_MEMOBJECT) == Buf.get());
  CLT_EXPECT(imageInfo<cl_mem>(M, CL_IMAGE_BUFFER) == Buf.get());
  CLT_EXPECT(imageInfo<size_t>(M, CL_IMAGE_WIDTH) == 60);
  CLT_EXPECT(memInfo<cl_mem_flags>(M, CL_MEM_FLAGS) & CL_MEM_READ_ONLY);
  std::vector<unsigned char> Got(240);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {60, 1, 1};
  CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0, Got.data(),
                              0, nullptr, nullptr));
  expectEqual(Got, std::vector<unsigned char>(Init.begin(), Init.begin() + 240),
              "1D image buffer read");
  std::vector<unsigned char> New = bytes(16, 9);
  size_t At[3] = {10, 0, 0}, Four[3] = {4, 1, 1};
  CL_CHECK(clEnqueueWriteImage(E.Q, M, CL_TRUE, At, Four, 0, 0, New.data(), 0,
                               nullptr, nullptr));
  std::vector<unsigned char> All = E.read<unsigned char>(Buf, 256);
  std::copy(New.begin(), New.end(), Init.begin() + 40);
  expectEqual(All, Init, "buffer after the image write");
}

/// Writes of sub-regions with padded host pitches, read back whole, in
/// every image type; the host model is a plain array per image.
CLT_TEST(readWriteRegions) {
  struct Case {
    cl_image_desc D;
    size_t Dims[3];
  };
  const Case Cases[] = {
      {desc(CL_MEM_OBJECT_IMAGE1D, 23), {23, 1, 1}},
      {desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 13, 0, 0, 5), {13, 5, 1}},
      {desc(CL_MEM_OBJECT_IMAGE2D, 11, 7), {11, 7, 1}},
      {desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 6, 0, 4), {9, 6, 4}},
      {desc(CL_MEM_OBJECT_IMAGE3D, 7, 5, 4), {7, 5, 4}}};
  const size_t PB = 4;
  for (const Case &C : Cases) {
    // pocl 3.1 steps through a 1D array's layers in host memory by the row
    // pitch, where OpenCL 3.0 (clEnqueueWriteImage) says the slice pitch.
    if (!E.IsPoclIss && C.D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
      continue;
    std::string What = "type " + std::to_string(C.D.image_type);
    size_t Total = C.Dims[0] * C.Dims[1] * C.Dims[2] * PB;
    std::vector<unsigned char> Model = bytes(Total, 3);
    Mem M = image(E, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, RGBA8, C.D,
                  Model.data());
    // A region from (1, 1, 1) (where the image has the dimension) of all
    // but the last pixel, written from host memory with pitches padded by
    // one and two pixels.
    size_t Origin[3], Region[3];
    for (int I = 0; I < 3; ++I) {
      Origin[I] = C.Dims[I] > 1 ? 1 : 0;
      Region[I] = C.Dims[I] > 1 ? C.Dims[I] - 2 : 1;
    }
    bool Slices = C.D.image_type == CL_MEM_OBJECT_IMAGE3D ||
                  C.D.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                  C.D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    bool Array1D = C.D.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t Row = (Region[0] + 1) * PB;
    // A 1D array's layers are its slices: the host's y stride is the slice
    // pitch there.
    size_t Slice = Array1D ? Row + 2 * PB : Row * Region[1] + 2 * PB;
    size_t YStride = Array1D ? Slice : Row;
    std::vector<unsigned char> Host =
        bytes(Slice * Region[2] + YStride * Region[1], 5);
    CL_CHECK(clEnqueueWriteImage(E.Q, M, CL_TRUE, Origin, Region, Row,
                                 Slices ? Slice : 0, Host.data(), 0, nullptr,
                                 nullptr));
    for (size_t Z = 0; Z < Region[2]; ++Z)
      for (size_t Y = 0; Y < Region[1]; ++Y)
        for (size_t X = 0; X < Region[0] * PB; ++X)
          Model[((Origin[2] + Z) * C.Dims[1] + Origin[1] + Y) * C.Dims[0] * PB +
                Origin[0] * PB + X] = Host[Z * Slice + Y * YStride + X];
    std::vector<unsigned char> Got(Total);
    size_t Zero[3] = {0, 0, 0};
    CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, C.Dims, 0, 0, Got.data(),
                                0, nullptr, nullptr));
    expectEqual(Got, Model, What + ": write then read");
    // The same region read back with the same pitches.
    std::vector<unsigned char> Back(Host.size(), 0);
    CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, Row,
                                Slices ? Slice : 0, Back.data(), 0, nullptr,
                                nullptr));
    for (size_t Z = 0; Z < Region[2]; ++Z)
      for (size_t Y = 0; Y < Region[1]; ++Y)
        for (size_t X = 0; X < Region[0] * PB; ++X)
          CLT_EXPECT_MSG(Back[Z * Slice + Y * YStride + X] ==
                             Host[Z * Slice + Y * YStride + X],
                         What + ": pitched read");
  }
}

CLT_TEST(commandErrors) {
  Mem M = image(E, CL_MEM_READ_WRITE, RGBA8, desc(CL_MEM_OBJECT_IMAGE2D, 8, 4));
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, 1024);
  std::vector<unsigned char> Host(1024);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {8, 4, 1};
  CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0,
                              Host.data(), 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                 clEnqueueReadImage(E.Q, Buf, CL_TRUE, Origin, Region, 0, 0,
                                    Host.data(), 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0,
                                    nullptr, 0, nullptr, nullptr));
  size_t Wide[3] = {9, 4, 1};
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Wide, 0, 0,
                                    Host.data(), 0, nullptr, nullptr));
  size_t Deep[3] = {8, 4, 2};
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueWriteImage(E.Q, M, CL_TRUE, Origin, Deep, 0, 0,
                                     Host.data(), 0, nullptr, nullptr));
  // An origin whose sum with the region wraps size_t: pocl 3.1 adds
  // without checking and reads outside the image.
  size_t Far[3] = {SIZE_MAX - 2, 0, 0}, One[3] = {4, 1, 1};
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clEnqueueReadImage(E.Q, M, CL_TRUE, Far, One, 0, 0,
                                      Host.data(), 0, nullptr, nullptr));
  // A row pitch below the region's row: pocl 3.1 takes it.
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 31, 0,
                                      Host.data(), 0, nullptr, nullptr));
  Mem NoHost = image(E, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, RGBA8,
                     desc(CL_MEM_OBJECT_IMAGE2D, 8, 4));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clEnqueueReadImage(E.Q, NoHost, CL_TRUE, Origin, Region, 0, 0,
                                    Host.data(), 0, nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_OPERATION,
                 clEnqueueWriteImage(E.Q, NoHost, CL_TRUE, Origin, Region, 0, 0,
                                     Host.data(), 0, nullptr, nullptr));
  // Buffers refuse images and the other way round (pocl 3.1 reads an
  // image's bytes as a buffer's).
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                   clEnqueueReadBuffer(E.Q, M, CL_TRUE, 0, 16, Host.data(), 0,
                                       nullptr, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT,
                 clEnqueueCopyImageToBuffer(E.Q, M, M, Origin, Region, 0, 0,
                                            nullptr, nullptr));
  size_t Small[3] = {8, 4, 1};
  Mem Tiny = E.buffer(CL_MEM_READ_WRITE, 64);
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clEnqueueCopyImageToBuffer(E.Q, M, Tiny, Origin, Small, 0, 0,
                                            nullptr, nullptr));
  if (E.IsPoclIss) {
    // pocl 3.1 takes a slice pitch for a 2D image, which OpenCL 3.0 says
    // must be 0 there.
    CLT_EXPECT_ERR(CL_INVALID_VALUE,
                   clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 128,
                                      Host.data(), 0, nullptr, nullptr));
  }
}

CLT_TEST(copyImages) {
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, 10, 6);
  std::vector<unsigned char> A = bytes(240, 1), B = bytes(240, 2);
  Mem Src =
      image(E, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, RGBA8, D, A.data());
  Mem Dst =
      image(E, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, RGBA8, D, B.data());
  size_t SO[3] = {1, 2, 0}, DO[3] = {4, 0, 0}, R[3] = {5, 3, 1};
  CL_CHECK(clEnqueueCopyImage(E.Q, Src, Dst, SO, DO, R, 0, nullptr, nullptr));
  for (size_t Y = 0; Y < 3; ++Y)
    for (size_t X = 0; X < 5 * 4; ++X)
      B[(DO[1] + Y) * 40 + DO[0] * 4 + X] = A[(SO[1] + Y) * 40 + SO[0] * 4 + X];
  std::vector<unsigned char> Got(240);
  size_t Zero[3] = {0, 0, 0}, All[3] = {10, 6, 1};
  CL_CHECK(clEnqueueReadImage(E.Q, Dst, CL_TRUE, Zero, All, 0, 0, Got.data(), 0,
                              nullptr, nullptr));
  expectEqual(Got, B, "clEnqueueCopyImage");
  // A 2D image into a slice of a 3D one.
  Mem Vol =
      image(E, CL_MEM_READ_WRITE, RGBA8, desc(CL_MEM_OBJECT_IMAGE3D, 10, 6, 3));
  size_t Slice2[3] = {0, 0, 2}, Full[3] = {10, 6, 1};
  CL_CHECK(clEnqueueCopyImage(E.Q, Src, Vol, Zero, Slice2, Full, 0, nullptr,
                              nullptr));
  CL_CHECK(clEnqueueReadImage(E.Q, Vol, CL_TRUE, Slice2, Full, 0, 0, Got.data(),
                              0, nullptr, nullptr));
  expectEqual(Got, A, "2D into a 3D slice");

  size_t Near[3] = {2, 2, 0};
  CLT_EXPECT_ERR(
      CL_MEM_COPY_OVERLAP,
      clEnqueueCopyImage(E.Q, Src, Src, SO, Near, R, 0, nullptr, nullptr));
  size_t Apart[3] = {0, 0, 0}, Away[3] = {5, 3, 0};
  CL_CHECK(
      clEnqueueCopyImage(E.Q, Src, Src, Apart, Away, R, 0, nullptr, nullptr));
  cl_image_format Other = {CL_RGBA, CL_UNORM_INT8};
  Mem Diff = image(E, CL_MEM_READ_WRITE, Other, D);
  CLT_EXPECT_ERR(
      CL_IMAGE_FORMAT_MISMATCH,
      clEnqueueCopyImage(E.Q, Src, Diff, Zero, Zero, R, 0, nullptr, nullptr));
  CL_CHECK(clFinish(E.Q));
}

/// Image to buffer and back, at offsets: the buffer holds the region
/// packed.
CLT_TEST(imageBufferCopies) {
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE3D, 6, 5, 4);
  std::vector<unsigned char> A = bytes(6 * 5 * 4 * 4, 4);
  Mem Src =
      image(E, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, RGBA8, D, A.data());
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, 1024);
  size_t O[3] = {1, 2, 1}, R[3] = {4, 3, 2};
  CL_CHECK(
      clEnqueueCopyImageToBuffer(E.Q, Src, Buf, O, R, 64, 0, nullptr, nullptr));
  std::vector<unsigned char> Got = E.read<unsigned char>(Buf, 1024);
  std::vector<unsigned char> Packed;
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 3; ++Y)
      for (size_t X = 0; X < 16; ++X)
        Packed.push_back(A[((O[2] + Z) * 5 + O[1] + Y) * 24 + O[0] * 4 + X]);
  expectEqual(std::vector<unsigned char>(Got.begin() + 64,
                                         Got.begin() + 64 + Packed.size()),
              Packed, "image to buffer");
  Mem Dst = image(E, CL_MEM_READ_WRITE, RGBA8, D);
  size_t At[3] = {2, 0, 2};
  CL_CHECK(clEnqueueCopyBufferToImage(E.Q, Buf, Dst, 64, At, R, 0, nullptr,
                                      nullptr));
  std::vector<unsigned char> Back(Packed.size());
  CL_CHECK(clEnqueueReadImage(E.Q, Dst, CL_TRUE, At, R, 0, 0, Back.data(), 0,
                              nullptr, nullptr));
  expectEqual(Back, Packed, "buffer to image");
}

CLT_TEST(fillImages) {
  size_t Zero[3] = {0, 0, 0};
  {
    // Floats to UNORM_INT8: saturated, scaled, rounded to nearest.
    Mem M = image(E, CL_MEM_READ_WRITE, {CL_RGBA, CL_UNORM_INT8},
                  desc(CL_MEM_OBJECT_IMAGE2D, 5, 3));
    std::vector<unsigned char> Before(60, 7);
    size_t All[3] = {5, 3, 1};
    CL_CHECK(clEnqueueWriteImage(E.Q, M, CL_TRUE, Zero, All, 0, 0,
                                 Before.data(), 0, nullptr, nullptr));
    float Color[4] = {0.5f, -1.0f, 2.0f, 0.2f};
    size_t O[3] = {1, 1, 0}, R[3] = {3, 2, 1};
    CL_CHECK(clEnqueueFillImage(E.Q, M, Color, O, R, 0, nullptr, nullptr));
    std::vector<unsigned char> Got(60);
    CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, All, 0, 0, Got.data(), 0,
                                nullptr, nullptr));
    std::vector<unsigned char> Want = Before;
    for (size_t Y = 1; Y < 3; ++Y)
      for (size_t X = 1; X < 4; ++X) {
        unsigned char *P = &Want[(Y * 5 + X) * 4];
        // 0.5 * 255 = 127.5 rounds to the even 128 (OpenCL C 3.0,
        // 8.3.1.1); pocl 3.1 truncates it to 127.
        P[0] = E.IsPoclIss ? 128 : 127, P[1] = 0, P[2] = 255, P[3] = 51;
      }
    expectEqual(Got, Want, "float fill of CL_UNORM_INT8");
  }
  {
    // Unsigned integers saturate; a 1D array's layers are filled.
    Mem M = image(E, CL_MEM_READ_WRITE, {CL_RGBA, CL_UNSIGNED_INT16},
                  desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 0, 0, 3));
    cl_uint Color[4] = {1, 70000, 65535, 300};
    size_t R[3] = {4, 3, 1};
    CL_CHECK(clEnqueueFillImage(E.Q, M, Color, Zero, R, 0, nullptr, nullptr));
    std::vector<cl_ushort> Got(48);
    CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, R, 0, 0, Got.data(), 0,
                                nullptr, nullptr));
    std::vector<cl_ushort> Want;
    for (int I = 0; I < 12; ++I)
      Want.insert(Want.end(), {1, 65535, 65535, 300});
    expectEqual(Got, Want, "uint fill of CL_UNSIGNED_INT16");
  }
  {
    // One channel takes the colour's red, BGRA swaps red and blue.
    Mem R8 = image(E, CL_MEM_READ_WRITE, {CL_R, CL_SIGNED_INT8},
                   desc(CL_MEM_OBJECT_IMAGE2D, 3, 2));
    cl_int Color[4] = {-300, 5, 6, 7};
    size_t R[3] = {3, 2, 1};
    CL_CHECK(clEnqueueFillImage(E.Q, R8, Color, Zero, R, 0, nullptr, nullptr));
    std::vector<cl_char> Got(6);
    CL_CHECK(clEnqueueReadImage(E.Q, R8, CL_TRUE, Zero, R, 0, 0, Got.data(), 0,
                                nullptr, nullptr));
    expectEqual(Got, std::vector<cl_char>(6, -128), "int fill of CL_R");
    Mem Bgra = image(E, CL_MEM_READ_WRITE, {CL_BGRA, CL_UNORM_INT8},
                     desc(CL_MEM_OBJECT_IMAGE2D, 3, 2));
    float FColor[4] = {1.0f, 0.0f, 0.2f, 0.6f};
    CL_CHECK(
        clEnqueueFillImage(E.Q, Bgra, FColor, Zero, R, 0, nullptr, nullptr));
    std::vector<unsigned char> GotB(24);
    CL_CHECK(clEnqueueReadImage(E.Q, Bgra, CL_TRUE, Zero, R, 0, 0, GotB.data(),
                                0, nullptr, nullptr));
    std::vector<unsigned char> WantB;
    for (int I = 0; I < 6; ++I)
      WantB.insert(WantB.end(), {51, 0, 255, 153});
    expectEqual(GotB, WantB, "float fill of CL_BGRA");
  }
  Mem M = image(E, CL_MEM_READ_WRITE, RGBA8, desc(CL_MEM_OBJECT_IMAGE2D, 3, 2));
  size_t R[3] = {3, 2, 1};
  CLT_EXPECT_ERR(CL_INVALID_VALUE, clEnqueueFillImage(E.Q, M, nullptr, Zero, R,
                                                      0, nullptr, nullptr));
}

CLT_TEST(mapImages) {
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE3D, 7, 5, 3);
  std::vector<unsigned char> A = bytes(7 * 5 * 3 * 4, 6);
  Mem M =
      image(E, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, RGBA8, D, A.data());
  size_t O[3] = {2, 1, 1}, R[3] = {3, 2, 2};
  size_t Row = 0, Slice = 0;
  cl_int Err;
  auto *P = static_cast<unsigned char *>(
      clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, O, R, &Row,
                        &Slice, 0, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(Row >= 3 * 4 && Slice >= Row * 2);
  CLT_EXPECT(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 1);
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 2; ++Y)
      for (size_t X = 0; X < 12; ++X) {
        size_t At = ((O[2] + Z) * 5 + O[1] + Y) * 28 + O[0] * 4 + X;
        CLT_EXPECT(P[Z * Slice + Y * Row + X] == A[At]);
        P[Z * Slice + Y * Row + X] = static_cast<unsigned char>(X + 1);
        A[At] = static_cast<unsigned char>(X + 1);
      }
  CL_CHECK(clEnqueueUnmapMemObject(E.Q, M, P, 0, nullptr, nullptr));
  std::vector<unsigned char> Got(A.size());
  size_t Zero[3] = {0, 0, 0}, All[3] = {7, 5, 3};
  CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, All, 0, 0, Got.data(), 0,
                              nullptr, nullptr));
  expectEqual(Got, A, "written through a map");
  CLT_EXPECT(memInfo<cl_uint>(M, CL_MEM_MAP_COUNT) == 0);

  // A 2D map may leave the slice pitch out; a 3D one may not.
  Mem Flat =
      image(E, CL_MEM_READ_WRITE, RGBA8, desc(CL_MEM_OBJECT_IMAGE2D, 4, 4));
  size_t R2[3] = {4, 4, 1};
  void *Q = clEnqueueMapImage(E.Q, Flat, CL_TRUE, CL_MAP_READ, Zero, R2, &Row,
                              nullptr, 0, nullptr, nullptr, &Err);
  CL_CHECK(Err);
  CLT_EXPECT(Row >= 16);
  CL_CHECK(clEnqueueUnmapMemObject(E.Q, Flat, Q, 0, nullptr, nullptr));
  CLT_EXPECT(clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_READ, O, R, &Row,
                               nullptr, 0, nullptr, nullptr, &Err) == nullptr);
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  CLT_EXPECT(clEnqueueMapImage(E.Q, M, CL_TRUE, CL_MAP_READ, O, R, nullptr,
                               &Slice, 0, nullptr, nullptr, &Err) == nullptr);
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  CL_CHECK(clFinish(E.Q));
}

/// CL_MEM_USE_HOST_PTR with padded pitches: the image is the application's
/// memory, with its pitches.
CLT_TEST(useHostPtrPitches) {
  const size_t W = 5, H = 3, Row = 7 * 4;
  std::vector<unsigned char> Host = bytes(Row * H, 8);
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, W, H);
  D.image_row_pitch = Row;
  Mem M =
      image(E, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, RGBA8, D, Host.data());
  CLT_EXPECT(imageInfo<size_t>(M, CL_IMAGE_ROW_PITCH) == Row);
  CLT_EXPECT(memInfo<void *>(M, CL_MEM_HOST_PTR) == Host.data());
  std::vector<unsigned char> Got(W * H * 4), Want;
  size_t Zero[3] = {0, 0, 0}, All[3] = {W, H, 1};
  CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Zero, All, 0, 0, Got.data(), 0,
                              nullptr, nullptr));
  for (size_t Y = 0; Y < H; ++Y)
    Want.insert(Want.end(), Host.begin() + Y * Row,
                Host.begin() + Y * Row + W * 4);
  expectEqual(Got, Want, "image over the application's memory");
}

CLT_TEST(samplers) {
  cl_int Err;
  Sampler S(clCreateSampler(E.Ctx, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT,
                            CL_FILTER_LINEAR, &Err));
  CL_CHECK(Err);
  auto Info = [&](cl_sampler X, cl_sampler_info P) {
    cl_uint V = 0;
    CL_CHECK(clGetSamplerInfo(X, P, sizeof(V), &V, nullptr));
    return V;
  };
  CLT_EXPECT(Info(S, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);
  CLT_EXPECT(Info(S, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_MIRRORED_REPEAT);
  CLT_EXPECT(Info(S, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  CLT_EXPECT(Info(S, CL_SAMPLER_REFERENCE_COUNT) == 1);
  CL_CHECK(clRetainSampler(S));
  CLT_EXPECT(Info(S, CL_SAMPLER_REFERENCE_COUNT) == 2);
  CL_CHECK(clReleaseSampler(S));
  cl_context Ctx = nullptr;
  CL_CHECK(clGetSamplerInfo(S, CL_SAMPLER_CONTEXT, sizeof(Ctx), &Ctx, nullptr));
  CLT_EXPECT(Ctx == E.Ctx.get());
  size_t PropsSize = 99;
  CL_CHECK(clGetSamplerInfo(S, CL_SAMPLER_PROPERTIES, 0, nullptr, &PropsSize));
  CLT_EXPECT(PropsSize == 0);

  const cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE,
                                         CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_LINEAR, 0};
  Sampler P(clCreateSamplerWithProperties(E.Ctx, Props, &Err));
  CL_CHECK(Err);
  CLT_EXPECT(Info(P, CL_SAMPLER_NORMALIZED_COORDS) == CL_TRUE);
  CLT_EXPECT(Info(P, CL_SAMPLER_ADDRESSING_MODE) == CL_ADDRESS_CLAMP);
  CLT_EXPECT(Info(P, CL_SAMPLER_FILTER_MODE) == CL_FILTER_LINEAR);
  cl_sampler_properties Back[5] = {};
  CL_CHECK(clGetSamplerInfo(P, CL_SAMPLER_PROPERTIES, sizeof(Back), Back,
                            &PropsSize));
  CLT_EXPECT(PropsSize == sizeof(Props));
  CLT_EXPECT(std::equal(Back, Back + 5, Props));

  // An unknown addressing mode: pocl 3.1 creates the sampler.
  Sampler Bad(clCreateSampler(E.Ctx, CL_TRUE, 0x1234, CL_FILTER_NEAREST, &Err));
  if (E.IsPoclIss)
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  // The repeats with unnormalized coordinates: an invalid combination
  // (OpenCL C 3.0, 8.2 allows them only with normalized ones).
  for (cl_addressing_mode A : {CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
    Bad.reset(clCreateSampler(E.Ctx, CL_FALSE, A, CL_FILTER_NEAREST, &Err));
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  }
  Bad.reset(clCreateSampler(E.Ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &Err));
  if (E.IsPoclIss) // pocl 3.1 takes an unknown filter mode too
    CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  Bad.reset(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP,
                            CL_FILTER_NEAREST, &Err));
  CLT_EXPECT_ERR(CL_INVALID_CONTEXT, Err);
  const cl_sampler_properties Twice[] = {
      CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
      CL_FILTER_NEAREST, 0};
  Bad.reset(clCreateSamplerWithProperties(E.Ctx, Twice, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  const cl_sampler_properties Unknown[] = {0x7777, 1, 0};
  Bad.reset(clCreateSamplerWithProperties(E.Ctx, Unknown, &Err));
  CLT_EXPECT_ERR(CL_INVALID_VALUE, Err);
  cl_uint V;
  CLT_EXPECT_ERR(CL_INVALID_SAMPLER,
                 clGetSamplerInfo(nullptr, CL_SAMPLER_FILTER_MODE, sizeof(V),
                                  &V, nullptr));
  CLT_EXPECT_ERR(CL_INVALID_VALUE,
                 clGetSamplerInfo(S, 0x7777, sizeof(V), &V, nullptr));
}

CLT_TEST(kernelArgumentChecks) {
  Program P = E.build(R"CLC(
kernel void k(read_only image2d_t In, write_only image2d_t Out, sampler_t S,
              global float4 *Buf) {
  int2 C = (int2)(get_global_id(0), get_global_id(1));
  float4 V = read_imagef(In, S, C);
  write_imagef(Out, C, V);
  Buf[0] = V;
}
)CLC");
  Kernel K = E.kernel(P, "k");
  cl_image_desc D = desc(CL_MEM_OBJECT_IMAGE2D, 4, 4);
  Mem In = image(E, CL_MEM_READ_ONLY, RGBA8, D);
  Mem Out = image(E, CL_MEM_WRITE_ONLY, RGBA8, D);
  Mem Buf = E.buffer(CL_MEM_READ_WRITE, 64);
  cl_int Err;
  Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP,
                            CL_FILTER_NEAREST, &Err));
  CL_CHECK(Err);
  auto Set = [&](cl_uint I, auto H, size_t Size = sizeof(cl_mem)) {
    auto Raw = H;
    return clSetKernelArg(K, I, Size, &Raw);
  };
  CL_CHECK(Set(0, In.get()));
  CL_CHECK(Set(1, Out.get()));
  CL_CHECK(Set(2, S.get()));
  CL_CHECK(Set(3, Buf.get()));
  size_t G[2] = {4, 4};
  E.run(K, 2, G, nullptr);
  if (!E.IsPoclIss)
    return;
  // pocl 3.1 checks none of the below: it takes a buffer for an image and
  // the other way round, anything for a sampler, any size, an image of
  // another type, and images whose flags contradict the argument's access
  // qualifier, all of which OpenCL 3.0's clSetKernelArg refuses.
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, Set(0, Buf.get()));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, Set(3, In.get()));
  CLT_EXPECT_ERR(CL_INVALID_SAMPLER, Set(2, Buf.get()));
  CLT_EXPECT_ERR(CL_INVALID_ARG_SIZE, Set(2, S.get(), sizeof(cl_sampler) / 2));
  CLT_EXPECT_ERR(CL_INVALID_ARG_SIZE, Set(0, In.get(), sizeof(cl_mem) / 2));
  Mem Vol =
      image(E, CL_MEM_READ_ONLY, RGBA8, desc(CL_MEM_OBJECT_IMAGE3D, 4, 4, 2));
  CLT_EXPECT_ERR(CL_INVALID_MEM_OBJECT, Set(0, Vol.get()));
  CLT_EXPECT_ERR(CL_INVALID_ARG_VALUE, Set(0, Out.get()));
  CLT_EXPECT_ERR(CL_INVALID_ARG_VALUE, Set(1, In.get()));
}
