//===- Image.cpp - Images, samplers and the image commands ----------------===//
// SPDX-License-Identifier: MIT
//
// Images are host memory like buffers, read and written by kernels through
// pocl 3.1's kernel library (read_image.cl, write_image.cl), which sees an
// image as its dev_image_t (iss_image, WorkGroupABI.h) and a sampler as its
// CLK_* bits. The formats are those the library converts both ways: R, A
// and four-channel RGBA with every channel type, BGRA and ARGB with 8-bit
// ones. pocl 3.1's library has no half case for single-channel images (it
// reads such a pixel as 234.0 and never writes it): the compiler adds one
// (iss-half-images, lib/Compiler/Frontend/SingleChannelHalf.cpp), and CL_R
// and CL_A are listed with CL_HALF_FLOAT as OpenCL 3.0 requires of CL_R.
//
// An image's pixels are packed unless CL_MEM_USE_HOST_PTR gives the
// application's memory and pitches, or pitches come without a host pointer
// (as pocl 3.1 takes them); a 1D image buffer uses its buffer's bytes.
// The commands work on (x, y, z) pixel boxes whose y and z strides are the
// image's row and slice pitches (for a 1D array, y is the array index and
// its stride the slice pitch). Every size computed from the application's
// numbers is overflow-checked.
//
//===----------------------------------------------------------------------===//

#include "Runtime/Command.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace iss;

namespace iss {
void destroyObject(_cl_sampler *S) { deleteObject(S); }

void setImageLimits(DeviceDesc &D) {
  size_t MaxPixels = std::max<size_t>(D.MaxAllocSize / 16, 65536);
  D.ImageMaxBuffer = MaxPixels;
  size_t Side = 8192;
  while (Side <= MaxPixels / Side)
    Side *= 2;
  // OpenCL 3.0's minimum is 16384 (1.2's was 8192); an image that size
  // may still be refused for its bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
  D.Image2DMax = std::max<size_t>(Side / 2, 16384);
  Side = 2048;
  while (Side * Side <= MaxPixels / Side)
    Side *= 2;
  D.Image3DMax = std::max<size_t>(Side / 2, 2048);
  D.ImageMaxArray = 2048;
}

std::string imageTypeName(cl_mem_object_type T) {
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "image1d_t";
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return "image1d_buffer_t";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "image1d_array_t";
  case CL_MEM_OBJECT_IMAGE2D:
    return "image2d_t";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "image2d_array_t";
  case CL_MEM_OBJECT_IMAGE3D:
    return "image3d_t";
  default:
    return "";
  }
}
} // namespace iss

/// OpenCL C's sampler bits (opencl-c-base.h; pocl 3.1's library tests the
/// same values).
enum : uintptr_t {
  CLK_NORMALIZED_COORDS_FALSE = 0,
  CLK_NORMALIZED_COORDS_TRUE = 1,
  CLK_ADDRESS_NONE = 0,
  CLK_ADDRESS_CLAMP_TO_EDGE = 2,
  CLK_ADDRESS_CLAMP = 4,
  CLK_ADDRESS_REPEAT = 6,
  CLK_ADDRESS_MIRRORED_REPEAT = 8,
  CLK_FILTER_NEAREST = 0x10,
  CLK_FILTER_LINEAR = 0x20,
};

uintptr_t _cl_sampler::deviceBits() const {
  uintptr_t Bits =
      Normalized ? CLK_NORMALIZED_COORDS_TRUE : CLK_NORMALIZED_COORDS_FALSE;
  switch (Addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    Bits |= CLK_ADDRESS_CLAMP_TO_EDGE;
    break;
  case CL_ADDRESS_CLAMP:
    Bits |= CLK_ADDRESS_CLAMP;
    break;
  case CL_ADDRESS_REPEAT:
    Bits |= CLK_ADDRESS_REPEAT;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    Bits |= CLK_ADDRESS_MIRRORED_REPEAT;
    break;
  default:
    Bits |= CLK_ADDRESS_NONE;
    break;
  }
  return Bits |
         (Filter == CL_FILTER_LINEAR ? CLK_FILTER_LINEAR : CLK_FILTER_NEAREST);
}

//===----------------------------------------------------------------------===//
// Formats.
//===----------------------------------------------------------------------===//

/// Channels of an order; 0 for an unknown one.
static unsigned channelCount(cl_channel_order O) {
  switch (O) {
  case CL_R:
  case CL_A:
  case CL_Rx:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_RGBx:
  case CL_sRGB:
  case CL_sRGBx:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_sRGBA:
  case CL_sBGRA:
    return 4;
  default:
    return 0;
  }
}

/// Bytes of one channel, or of the whole pixel for the packed types (\p
/// Packed); 0 for an unknown type.
static unsigned channelBytes(cl_channel_type T, bool &Packed) {
  Packed = false;
  switch (T) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    Packed = true;
    return 2;
  case CL_UNORM_INT_101010:
  case CL_UNORM_INT_101010_2:
    Packed = true;
    return 4;
  default:
    return 0;
  }
}

/// Whether \p F names an order and a type the specification allows
/// together (OpenCL 3.0, section 5.3.1.1); 0 when not, else the pixel's
/// bytes.
static size_t pixelBytes(const cl_image_format &F) {
  bool Packed;
  unsigned Channels = channelCount(F.image_channel_order);
  unsigned Bytes = channelBytes(F.image_channel_data_type, Packed);
  if (!Channels || !Bytes)
    return 0;
  cl_channel_type T = F.image_channel_data_type;
  switch (F.image_channel_order) {
  case CL_RGB:
  case CL_RGBx:
    if (T != CL_UNORM_SHORT_565 && T != CL_UNORM_SHORT_555 &&
        T != CL_UNORM_INT_101010)
      return 0;
    break;
  case CL_RGBA:
    if (Packed && T != CL_UNORM_INT_101010_2)
      return 0;
    break;
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
    if (T != CL_UNORM_INT8 && T != CL_SNORM_INT8 && T != CL_SIGNED_INT8 &&
        T != CL_UNSIGNED_INT8)
      return 0;
    break;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    if (T != CL_UNORM_INT8 && T != CL_UNORM_INT16 && T != CL_SNORM_INT8 &&
        T != CL_SNORM_INT16 && T != CL_HALF_FLOAT && T != CL_FLOAT)
      return 0;
    break;
  case CL_DEPTH:
    if (T != CL_UNORM_INT16 && T != CL_FLOAT)
      return 0;
    break;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    if (T != CL_UNORM_INT8)
      return 0;
    break;
  default:
    if (Packed)
      return 0;
    break;
  }
  return Packed ? Bytes : Bytes * Channels;
}

/// The formats the kernel library reads and writes (the file comment says
/// which); the same for every image type and access.
static const std::vector<cl_image_format> &supportedFormats() {
  static const std::vector<cl_image_format> Formats = [] {
    std::vector<cl_image_format> V;
    const cl_channel_type All[] = {
        CL_SNORM_INT8,     CL_SNORM_INT16,    CL_UNORM_INT8,   CL_UNORM_INT16,
        CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
    for (cl_channel_order O : {CL_A, CL_R, CL_RGBA})
      for (cl_channel_type T : All)
        V.push_back({O, T});
    for (cl_channel_order O : {CL_ARGB, CL_BGRA})
      for (cl_channel_type T :
           {CL_SNORM_INT8, CL_UNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8})
        V.push_back({O, T});
    return V;
  }();
  return Formats;
}

static bool isSupported(const cl_image_format &F) {
  for (const cl_image_format &S : supportedFormats())
    if (S.image_channel_order == F.image_channel_order &&
        S.image_channel_data_type == F.image_channel_data_type)
      return true;
  return false;
}

static bool isImageType(cl_mem_object_type T) {
  return !imageTypeName(T).empty();
}

//===----------------------------------------------------------------------===//
// Creating images.
//===----------------------------------------------------------------------===//

static constexpr cl_mem_flags AccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static constexpr cl_mem_flags HostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// The pixels of an image as the commands see them: Dims[d] pixels along
/// x, y and z, Stride[d] bytes between neighbours (Stride[0] is the
/// pixel's size).
struct Geometry {
  size_t Dims[3];
  size_t Stride[3];
};

static Geometry geometryOf(cl_mem M) {
  const cl_image_desc &D = M->ImageDesc;
  Geometry G = {{D.image_width, 1, 1},
                {M->PixelBytes, D.image_row_pitch, D.image_slice_pitch}};
  switch (M->Type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    G.Dims[1] = D.image_array_size;
    G.Stride[1] = D.image_slice_pitch;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    G.Dims[1] = D.image_height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    G.Dims[1] = D.image_height;
    G.Dims[2] = D.image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    G.Dims[1] = D.image_height;
    G.Dims[2] = D.image_depth;
    break;
  default:
    break;
  }
  return G;
}

/// clCreateImage and the calls made of it, once the context is checked.
static cl_mem createImage(const char *Func, cl_context C, cl_mem_flags Flags,
                          const cl_image_format *Format,
                          const cl_image_desc *DescIn, void *HostPtr,
                          cl_int *Err) {
  auto Fail = [&](cl_int E, const char *Why) -> cl_mem {
    setErrcode(Err, apiError(Func, E, Why));
    return nullptr;
  };
  if (!validMemFlags(Flags))
    return Fail(CL_INVALID_VALUE, "invalid or conflicting flags");
  if (!Format)
    return Fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  size_t PB = pixelBytes(*Format);
  if (!PB)
    return Fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                "unknown channel order or type, or not allowed together");
  if (!DescIn)
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  cl_image_desc D = *DescIn;
  cl_mem_object_type T = D.image_type;
  if (!isImageType(T))
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR, "not an image type");
  if (D.num_mip_levels || D.num_samples)
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "mipmaps and multisampling are not supported");
  bool Has2D = T == CL_MEM_OBJECT_IMAGE2D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               T == CL_MEM_OBJECT_IMAGE3D;
  bool IsArray =
      T == CL_MEM_OBJECT_IMAGE1D_ARRAY || T == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  // Dimensions a type does not have are ignored and reported as 0.
  if (!Has2D)
    D.image_height = 0;
  if (T != CL_MEM_OBJECT_IMAGE3D)
    D.image_depth = 0;
  if (!IsArray)
    D.image_array_size = 0;
  if (D.image_width == 0 || (Has2D && D.image_height == 0) ||
      (T == CL_MEM_OBJECT_IMAGE3D && D.image_depth == 0) ||
      (IsArray && D.image_array_size == 0))
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR, "a dimension is 0");
  cl_mem Buffer = D.buffer;
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (!isValid(Buffer) || Buffer->Type != CL_MEM_OBJECT_BUFFER)
      return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "a 1D image buffer needs a buffer");
    if (Buffer->Context.get() != C)
      return Fail(CL_INVALID_CONTEXT, "the buffer is from another context");
  } else if (Buffer && T == CL_MEM_OBJECT_IMAGE2D) {
    // OpenCL 3.0, appendix H (Creating 2D Images From Buffers): a device
    // without the optional feature (CL_DEVICE_IMAGE_PITCH_ALIGNMENT 0, no
    // cl_khr_image2d_from_buffer) answers CL_INVALID_OPERATION.
    return Fail(CL_INVALID_OPERATION,
                "2D images from buffers or images are not supported");
  } else if (Buffer) {
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "images from buffers are 1D image buffers only");
  }

  const DeviceDesc &Dev = *theDevice();
  size_t MaxW = T == CL_MEM_OBJECT_IMAGE1D_BUFFER ? Dev.ImageMaxBuffer
                : T == CL_MEM_OBJECT_IMAGE3D      ? Dev.Image3DMax
                                                  : Dev.Image2DMax;
  size_t MaxH = T == CL_MEM_OBJECT_IMAGE3D ? Dev.Image3DMax : Dev.Image2DMax;
  if (D.image_width > MaxW || D.image_height > MaxH ||
      D.image_depth > Dev.Image3DMax || D.image_array_size > Dev.ImageMaxArray)
    return Fail(CL_INVALID_IMAGE_SIZE, "larger than the device's image limits");

  // Host pointer and pitches.
  bool NeedsPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (Flags & HostPtrFlags)
      return Fail(CL_INVALID_VALUE,
                  "a 1D image buffer inherits its buffer's host flags");
    if (HostPtr)
      return Fail(CL_INVALID_HOST_PTR, "a 1D image buffer takes no host_ptr");
  } else if (NeedsPtr != (HostPtr != nullptr)) {
    return Fail(CL_INVALID_HOST_PTR,
                NeedsPtr ? "host_ptr is NULL"
                         : "host_ptr given without USE/COPY_HOST_PTR");
  }
  size_t Packed = 0, Row = 0, Slice = 0;
  if (!mulSize(D.image_width, PB, Packed))
    return Fail(CL_INVALID_IMAGE_SIZE, "the row's size overflows");
  // Pitches without a host pointer are taken, as pocl 3.1 takes them (the
  // specification asks for 0): PoCL-Remote's server passes its client's
  // pitches with none. A 1D image buffer's layout is its buffer's.
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER &&
      (D.image_row_pitch || D.image_slice_pitch))
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "pitches given for a 1D image buffer");
  Row = D.image_row_pitch ? D.image_row_pitch : Packed;
  if (Row < Packed || Row % PB)
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "row pitch below the row or not a multiple of the pixel");
  if (T == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    Slice = D.image_slice_pitch ? D.image_slice_pitch : Row;
    if (Slice < Row || Slice % Row)
      return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "slice pitch below the row pitch or not a multiple of it");
  } else if (T == CL_MEM_OBJECT_IMAGE2D_ARRAY || T == CL_MEM_OBJECT_IMAGE3D) {
    size_t Plane;
    if (!mulSize(Row, D.image_height, Plane))
      return Fail(CL_INVALID_IMAGE_SIZE, "the slice's size overflows");
    Slice = D.image_slice_pitch ? D.image_slice_pitch : Plane;
    if (Slice < Plane || Slice % Row)
      return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                  "slice pitch below a slice or not a multiple of the row "
                  "pitch");
  }
  size_t Bytes = 0;
  bool Fits = true;
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    Bytes = Packed;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    Fits = mulSize(Row, D.image_height - 1, Bytes) &&
           addSize(Bytes, Packed, Bytes);
    break;
  case CL_MEM_OBJECT_IMAGE3D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: {
    size_t Last =
        T == CL_MEM_OBJECT_IMAGE3D ? D.image_depth : D.image_array_size;
    size_t Rows;
    Fits = mulSize(Slice, Last - 1, Bytes) &&
           mulSize(Row, D.image_height - 1, Rows) &&
           addSize(Bytes, Rows, Bytes) && addSize(Bytes, Packed, Bytes);
    break;
  }
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    Fits = mulSize(Slice, D.image_array_size - 1, Bytes) &&
           addSize(Bytes, Packed, Bytes);
    break;
  }
  // The library holds pitches in 32-bit ints.
  if (!Fits || Bytes > Dev.MaxAllocSize || Row > INT32_MAX || Slice > INT32_MAX)
    return Fail(CL_INVALID_IMAGE_SIZE,
                "larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE or than the kernel "
                "library's 32-bit pitches");
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER && Bytes > Buffer->Size)
    return Fail(CL_INVALID_IMAGE_DESCRIPTOR,
                "the image is larger than its buffer");

  cl_mem_flags F = Flags;
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    // OpenCL 3.0, 5.3.1: access flags may narrow the buffer's, host access
    // flags too; host pointer flags are the buffer's.
    cl_mem_flags P = Buffer->Flags;
    if (((P & CL_MEM_WRITE_ONLY) &&
         (F & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((P & CL_MEM_READ_ONLY) &&
         (F & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((P & CL_MEM_HOST_WRITE_ONLY) && (F & CL_MEM_HOST_READ_ONLY)) ||
        ((P & CL_MEM_HOST_READ_ONLY) && (F & CL_MEM_HOST_WRITE_ONLY)) ||
        ((P & CL_MEM_HOST_NO_ACCESS) &&
         (F & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      return Fail(CL_INVALID_VALUE, "flags conflict with the buffer's");
    if (!(F & AccessFlags))
      F |= P & AccessFlags;
    if (!(F & HostAccessFlags))
      F |= P & HostAccessFlags;
    F |= P & HostPtrFlags;
  }
  if (!isSupported(*Format))
    return Fail(CL_IMAGE_FORMAT_NOT_SUPPORTED, "format not supported");

  cl_mem M = makeObject<_cl_mem>();
  if (!M)
    return Fail(CL_OUT_OF_HOST_MEMORY, "allocating the image");
  M->Context = Ref<_cl_context>(C);
  M->Type = T;
  M->Flags = F & AccessFlags ? F : F | CL_MEM_READ_WRITE;
  M->Size = Bytes;
  M->ImageFormat = *Format;
  M->PixelBytes = PB;
  if (T == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    M->Parent = Ref<_cl_mem>(Buffer);
    M->Data = Buffer->Data;
    M->HostPtr = Buffer->HostPtr;
  } else if (Flags & CL_MEM_USE_HOST_PTR) {
    M->Data = static_cast<char *>(HostPtr);
    M->HostPtr = HostPtr;
  } else {
    // Packed, whatever pitches a COPY_HOST_PTR source has; without a host
    // pointer, laid out by the pitches given, as on pocl 3.1.
    size_t OldRow = Row, OldSlice = Slice;
    if (HostPtr) {
      Row = Packed;
      if (T == CL_MEM_OBJECT_IMAGE1D_ARRAY)
        Slice = Row;
      else if (Slice)
        Slice = Row * D.image_height;
    }
    size_t Count = std::max<size_t>(D.image_array_size, 1) *
                   std::max<size_t>(D.image_depth, 1);
    size_t Lines = std::max<size_t>(D.image_height, 1);
    Bytes = Slice ? Slice * Count : Row * Lines;
    M->Size = Bytes;
    M->Data = allocDeviceMemory(Bytes);
    if (!M->Data) {
      releaseObject(M);
      return Fail(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                  "out of memory for the image");
    }
    M->OwnsData = true;
    if (Flags & CL_MEM_COPY_HOST_PTR) {
      const char *Src = static_cast<const char *>(HostPtr);
      for (size_t S = 0; S < Count; ++S)
        for (size_t L = 0; L < Lines; ++L)
          std::memcpy(M->Data + S * Slice + L * Row,
                      Src + S * OldSlice + L * OldRow, Packed);
    }
  }
  D.image_row_pitch = Row;
  D.image_slice_pitch = Slice;
  D.buffer = T == CL_MEM_OBJECT_IMAGE1D_BUFFER ? Buffer : nullptr;
  M->ImageDesc = D;

  iss_image &I = M->DevImage;
  I.data = M->Data;
  I.width = static_cast<int32_t>(D.image_width);
  I.height = static_cast<int32_t>(D.image_height);
  I.depth = static_cast<int32_t>(D.image_depth);
  I.array_size = static_cast<int32_t>(D.image_array_size);
  I.row_pitch =
      static_cast<int32_t>(T == CL_MEM_OBJECT_IMAGE1D_ARRAY ? Slice : Row);
  I.slice_pitch = static_cast<int32_t>(Slice);
  I.channel_order = static_cast<int32_t>(Format->image_channel_order);
  I.channel_data_type = static_cast<int32_t>(Format->image_channel_data_type);
  I.num_channels =
      static_cast<int32_t>(channelCount(Format->image_channel_order));
  I.elem_size = static_cast<int32_t>(PB / I.num_channels);
  setErrcode(Err, CL_SUCCESS);
  return M;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context C, cl_mem_flags Flags,
                                              const cl_image_format *Format,
                                              const cl_image_desc *Desc,
                                              void *HostPtr, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  return createImage(__func__, C, Flags, Format, Desc, HostPtr, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context C, const cl_mem_properties *Props, cl_mem_flags Flags,
    const cl_image_format *Format, const cl_image_desc *Desc, void *HostPtr,
    cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  std::vector<cl_mem_properties> Copy;
  if (cl_int E = checkMemProperties(__func__, Props, Copy))
    return setErrcode(Err, E), nullptr;
  cl_mem M = createImage(__func__, C, Flags, Format, Desc, HostPtr, Err);
  if (M)
    M->Properties = std::move(Copy);
  return M;
}

/// The OpenCL 1.1 calls: zero sizes (and a depth below 2) are
/// CL_INVALID_IMAGE_SIZE there, not a bad descriptor.
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(
    cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
    size_t Width, size_t Height, size_t RowPitch, void *HostPtr, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (Format && pixelBytes(*Format) && (Width == 0 || Height == 0))
    return ISS_ERR_RET(Err, CL_INVALID_IMAGE_SIZE, "a dimension is 0");
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = Width;
  D.image_height = Height;
  D.image_row_pitch = RowPitch;
  return createImage(__func__, C, Flags, Format, &D, HostPtr, Err);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
                size_t Width, size_t Height, size_t Depth, size_t RowPitch,
                size_t SlicePitch, void *HostPtr, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  if (Format && pixelBytes(*Format) && (Width == 0 || Height == 0 || Depth < 2))
    return ISS_ERR_RET(Err, CL_INVALID_IMAGE_SIZE,
                       "a dimension is 0, or the depth below 2");
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE3D;
  D.image_width = Width;
  D.image_height = Height;
  D.image_depth = Depth;
  D.image_row_pitch = RowPitch;
  D.image_slice_pitch = SlicePitch;
  return createImage(__func__, C, Flags, Format, &D, HostPtr, Err);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(
    cl_context C, cl_mem_flags Flags, cl_mem_object_type Type, cl_uint Num,
    cl_image_format *Formats, cl_uint *NumRet) {
  if (!isValid(C))
    return ISS_ERR(CL_INVALID_CONTEXT, "invalid context");
  // CL_MEM_KERNEL_READ_AND_WRITE exists for this query only.
  if (!validMemFlags(Flags & ~cl_mem_flags(CL_MEM_KERNEL_READ_AND_WRITE)))
    return ISS_ERR(CL_INVALID_VALUE, "invalid or conflicting flags");
  if (!isImageType(Type))
    return ISS_ERR(CL_INVALID_VALUE, "not an image type");
  if (Num == 0 && Formats)
    return ISS_ERR(CL_INVALID_VALUE, "num_entries is 0");
  const std::vector<cl_image_format> &All = supportedFormats();
  if (Formats)
    std::copy_n(All.begin(), std::min<size_t>(Num, All.size()), Formats);
  if (NumRet)
    *NumRet = static_cast<cl_uint>(All.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem M, cl_image_info Param,
                                               size_t Size, void *Value,
                                               size_t *SizeRet) {
  if (!isValid(M) || !M->isImage())
    return ISS_ERR(CL_INVALID_MEM_OBJECT, "not an image");
  const cl_image_desc &D = M->ImageDesc;
  auto SZ = [&](size_t V) { return returnValue(Size, Value, SizeRet, V); };
  bool HasSlices = M->Type == CL_MEM_OBJECT_IMAGE3D ||
                   M->Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   M->Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (Param) {
  case CL_IMAGE_FORMAT:
    return returnValue(Size, Value, SizeRet, M->ImageFormat);
  case CL_IMAGE_ELEMENT_SIZE:
    return SZ(M->PixelBytes);
  case CL_IMAGE_ROW_PITCH:
    return SZ(D.image_row_pitch);
  case CL_IMAGE_SLICE_PITCH:
    return SZ(HasSlices ? D.image_slice_pitch : 0);
  case CL_IMAGE_WIDTH:
    return SZ(D.image_width);
  case CL_IMAGE_HEIGHT:
    return SZ(D.image_height);
  case CL_IMAGE_DEPTH:
    return SZ(D.image_depth);
  case CL_IMAGE_ARRAY_SIZE:
    return SZ(D.image_array_size);
  case CL_IMAGE_BUFFER:
    return returnValue(Size, Value, SizeRet, D.buffer);
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return returnValue(Size, Value, SizeRet, cl_uint(0));
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_image_info");
  }
}

//===----------------------------------------------------------------------===//
// Image commands.
//===----------------------------------------------------------------------===//

/// A box of pixels in an image or in host or buffer memory: its first
/// byte, the bytes of one row and the y and z strides.
struct Box {
  size_t Begin, RowBytes, YStride, ZStride;
  size_t Region[3];
};

static void copyBox(char *Dst, const Box &D, const char *Src, const Box &S) {
  for (size_t Z = 0; Z < S.Region[2]; ++Z)
    for (size_t Y = 0; Y < S.Region[1]; ++Y)
      std::memmove(Dst + D.Begin + Z * D.ZStride + Y * D.YStride,
                   Src + S.Begin + Z * S.ZStride + Y * S.YStride, S.RowBytes);
}

/// Checks \p Origin and \p Region against \p M as the image commands'
/// specification says (unused dimensions: origin 0, region 1) and in
/// bounds, and makes the box.
static bool imageBox(cl_mem M, const size_t *Origin, const size_t *Region,
                     Box &B) {
  if (!Origin || !Region)
    return false;
  Geometry G = geometryOf(M);
  for (int I = 0; I < 3; ++I) {
    size_t End;
    if (Region[I] == 0 || !addSize(Origin[I], Region[I], End) ||
        End > G.Dims[I])
      return false;
  }
  B.RowBytes = Region[0] * G.Stride[0];
  B.YStride = G.Stride[1];
  B.ZStride = G.Stride[2];
  B.Begin = Origin[0] * G.Stride[0] + Origin[1] * G.Stride[1] +
            Origin[2] * G.Stride[2];
  std::copy_n(Region, 3, B.Region);
  return true;
}

/// The host (or buffer) side of a read or write: pitches as
/// clEnqueueReadImage defines them for \p M's type.
static bool hostBox(cl_mem M, const void *Ptr, const size_t *Region,
                    size_t RowPitch, size_t SlicePitch, Box &B) {
  size_t RowBytes = Region[0] * M->PixelBytes; // bounded by the image
  bool Array1D = M->Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  bool Slices = M->Type == CL_MEM_OBJECT_IMAGE3D ||
                M->Type == CL_MEM_OBJECT_IMAGE2D_ARRAY || Array1D;
  if (!Slices && SlicePitch)
    return false;
  size_t Row = RowPitch ? RowPitch : RowBytes;
  if (Row < RowBytes)
    return false;
  size_t Plane;
  if (!mulSize(Row, Array1D ? 1 : Region[1], Plane))
    return false;
  size_t Slice = SlicePitch ? SlicePitch : Plane;
  if (Slice < Plane)
    return false;
  B = {0,
       RowBytes,
       Array1D ? Slice : Row,
       Slice,
       {Region[0], Region[1], Region[2]}};
  size_t Z, Y, End;
  if (!mulSize(Region[2] - 1, B.ZStride, Z) ||
      !mulSize(Region[1] - 1, B.YStride, Y) || !addSize(Z, Y, End) ||
      !addSize(End, RowBytes, End))
    return false;
  return End <= UINTPTR_MAX - reinterpret_cast<uintptr_t>(Ptr);
}

static cl_int checkQueueImage(const char *Func, cl_command_queue Q, cl_mem M) {
  if (!isValid(Q))
    return apiError(Func, CL_INVALID_COMMAND_QUEUE, "invalid queue");
  if (!isValid(M) || !M->isImage())
    return apiError(Func, CL_INVALID_MEM_OBJECT, "not an image");
  if (M->Context.get() != Q->Context.get())
    return apiError(Func, CL_INVALID_CONTEXT,
                    "image and queue are from different contexts");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *Origin,
    const size_t *Region, size_t RowPitch, size_t SlicePitch, void *Ptr,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkQueueImage(__func__, Q, M))
    return E;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  Box I, H;
  if (!Ptr || !imageBox(M, Origin, Region, I) ||
      !hostBox(M, Ptr, Region, RowPitch, SlicePitch, H))
    return ISS_ERR(CL_INVALID_VALUE, "bad pointer, region, pitch or bounds");
  if (hostCannotRead(M))
    return ISS_ERR(CL_INVALID_OPERATION, "image is not host-readable");
  Ref<_cl_mem> Keep(M);
  return enqueueCommand(Q, CL_COMMAND_READ_IMAGE, NumWait, Wait, Event,
                        Blocking, [Keep, I, H, Ptr] {
                          copyBox(static_cast<char *>(Ptr), H, Keep->Data, I);
                          return CL_SUCCESS;
                        });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, const size_t *Origin,
    const size_t *Region, size_t RowPitch, size_t SlicePitch, const void *Ptr,
    cl_uint NumWait, const cl_event *Wait, cl_event *Event) {
  if (cl_int E = checkQueueImage(__func__, Q, M))
    return E;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return E;
  Box I, H;
  if (!Ptr || !imageBox(M, Origin, Region, I) ||
      !hostBox(M, Ptr, Region, RowPitch, SlicePitch, H))
    return ISS_ERR(CL_INVALID_VALUE, "bad pointer, region, pitch or bounds");
  if (hostCannotWrite(M))
    return ISS_ERR(CL_INVALID_OPERATION, "image is not host-writable");
  Ref<_cl_mem> Keep(M);
  return enqueueCommand(Q, CL_COMMAND_WRITE_IMAGE, NumWait, Wait, Event,
                        Blocking, [Keep, I, H, Ptr] {
                          copyBox(Keep->Data, I, static_cast<const char *>(Ptr),
                                  H);
                          return CL_SUCCESS;
                        });
}

static bool sameFormat(cl_mem A, cl_mem B) {
  return A->ImageFormat.image_channel_order ==
             B->ImageFormat.image_channel_order &&
         A->ImageFormat.image_channel_data_type ==
             B->ImageFormat.image_channel_data_type;
}

/// clEnqueueCopyImage and clCommandCopyImageKHR.
cl_int iss::copyImageCommand(const char *Func, const CommandTarget &T,
                             cl_mem Src, cl_mem Dst, const size_t *SrcOrigin,
                             const size_t *DstOrigin, const size_t *Region) {
  if (cl_int E = checkQueueImage(Func, T.Q, Src))
    return E;
  if (cl_int E = checkQueueImage(Func, T.Q, Dst))
    return E;
  if (cl_int E = T.checkWaits(Func))
    return E;
  if (!sameFormat(Src, Dst))
    return apiError(Func, CL_IMAGE_FORMAT_MISMATCH,
                    "the images' formats differ");
  Box S, D;
  if (!imageBox(Src, SrcOrigin, Region, S) ||
      !imageBox(Dst, DstOrigin, Region, D))
    return apiError(Func, CL_INVALID_VALUE, "bad region or out of bounds");
  if (Src == Dst) {
    bool Disjoint = false;
    for (int I = 0; I < 3; ++I)
      Disjoint |= SrcOrigin[I] + Region[I] <= DstOrigin[I] ||
                  DstOrigin[I] + Region[I] <= SrcOrigin[I];
    if (!Disjoint)
      return apiError(Func, CL_MEM_COPY_OVERLAP,
                      "source and destination overlap");
  }
  Ref<_cl_mem> KeepSrc(Src), KeepDst(Dst);
  return T.run(CL_COMMAND_COPY_IMAGE, [KeepSrc, KeepDst, S, D] {
    copyBox(KeepDst->Data, D, KeepSrc->Data, S);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue Q, cl_mem Src, cl_mem Dst, const size_t *SrcOrigin,
    const size_t *DstOrigin, const size_t *Region, cl_uint NumWait,
    const cl_event *Wait, cl_event *Event) {
  return copyImageCommand(__func__,
                          CommandTarget::queue(Q, NumWait, Wait, Event), Src,
                          Dst, SrcOrigin, DstOrigin, Region);
}

/// A buffer's side of an image-buffer copy: the region packed from \p
/// Offset, inside the buffer.
static bool bufferBox(cl_mem Buf, cl_mem Image, size_t Offset,
                      const size_t *Region, Box &B) {
  size_t RowBytes = Region[0] * Image->PixelBytes, Plane, Total, End;
  if (!mulSize(RowBytes, Region[1], Plane) ||
      !mulSize(Plane, Region[2], Total) || !addSize(Offset, Total, End) ||
      End > Buf->Size)
    return false;
  B = {Offset, RowBytes, RowBytes, Plane, {Region[0], Region[1], Region[2]}};
  return true;
}

/// A copy between \p Image's box at \p Origin and \p Buffer from
/// \p Offset, into the image for CL_COMMAND_COPY_BUFFER_TO_IMAGE; the
/// source is checked first.
cl_int iss::imageBufferCopyCommand(const char *Func, const CommandTarget &T,
                                   cl_command_type Type, cl_mem Image,
                                   cl_mem Buffer, const size_t *Origin,
                                   const size_t *Region, size_t Offset) {
  bool ToImage = Type == CL_COMMAND_COPY_BUFFER_TO_IMAGE;
  cl_int E = ToImage ? checkQueueMem(Func, T.Q, Buffer)
                     : checkQueueImage(Func, T.Q, Image);
  if (!E)
    E = ToImage ? checkQueueImage(Func, T.Q, Image)
                : checkQueueMem(Func, T.Q, Buffer);
  if (!E)
    E = T.checkWaits(Func);
  if (E)
    return E;
  Box I, B;
  if (!imageBox(Image, Origin, Region, I) ||
      !bufferBox(Buffer, Image, Offset, Region, B))
    return apiError(Func, CL_INVALID_VALUE, "bad region or out of bounds");
  Ref<_cl_mem> KeepImage(Image), KeepBuffer(Buffer);
  return T.run(Type, [KeepImage, KeepBuffer, I, B, ToImage] {
    if (ToImage)
      copyBox(KeepImage->Data, I, KeepBuffer->Data, B);
    else
      copyBox(KeepBuffer->Data, B, KeepImage->Data, I);
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue Q, cl_mem Src, cl_mem Dst, const size_t *SrcOrigin,
    const size_t *Region, size_t DstOffset, cl_uint NumWait,
    const cl_event *Wait, cl_event *Event) {
  return imageBufferCopyCommand(
      __func__, CommandTarget::queue(Q, NumWait, Wait, Event),
      CL_COMMAND_COPY_IMAGE_TO_BUFFER, Src, Dst, SrcOrigin, Region, DstOffset);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue Q, cl_mem Src, cl_mem Dst, size_t SrcOffset,
    const size_t *DstOrigin, const size_t *Region, cl_uint NumWait,
    const cl_event *Wait, cl_event *Event) {
  return imageBufferCopyCommand(
      __func__, CommandTarget::queue(Q, NumWait, Wait, Event),
      CL_COMMAND_COPY_BUFFER_TO_IMAGE, Dst, Src, DstOrigin, Region, SrcOffset);
}

/// IEEE half from float, rounding to nearest even (CL_HALF_FLOAT fills).
static uint16_t toHalf(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000, Abs = X & 0x7fffffff;
  if (Abs >= 0x7f800000) // Inf or NaN
    return Sign | 0x7c00 | (Abs > 0x7f800000 ? 0x200 : 0);
  if (Abs >= 0x477ff000) // rounds to above the largest half
    return Sign | 0x7c00;
  if (Abs < 0x38800000) { // a subnormal half, or 0
    float A;
    std::memcpy(&A, &Abs, 4);
    return Sign | static_cast<uint16_t>(std::nearbyint(A * 16777216.0f));
  }
  uint32_t H = ((Abs - 0x38000000) >> 13);
  uint32_t Rest = Abs & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (H & 1)))
    ++H;
  return Sign | H;
}

/// One channel of a fill colour in the image's type (OpenCL 3.0, section
/// 8.3: the conversions of write_image{f,i,ui}: saturation, and rounding to
/// nearest even for the normalized types).
static void convertChannel(cl_channel_type T, const void *Color, int C,
                           unsigned char *Out) {
  float F;
  int32_t I;
  uint32_t U;
  std::memcpy(&F, static_cast<const char *>(Color) + 4 * C, 4);
  std::memcpy(&I, static_cast<const char *>(Color) + 4 * C, 4);
  std::memcpy(&U, static_cast<const char *>(Color) + 4 * C, 4);
  auto Norm = [&](float Scale, float Lo, float Hi) {
    float V = std::isnan(F) ? 0.0f : std::nearbyint(F * Scale);
    return std::min(std::max(V, Lo), Hi);
  };
  auto Put = [&](auto V) { std::memcpy(Out, &V, sizeof(V)); };
  switch (T) {
  case CL_SNORM_INT8:
    return Put(int8_t(Norm(127.0f, -128.0f, 127.0f)));
  case CL_UNORM_INT8:
    return Put(uint8_t(Norm(255.0f, 0.0f, 255.0f)));
  case CL_SNORM_INT16:
    return Put(int16_t(Norm(32767.0f, -32768.0f, 32767.0f)));
  case CL_UNORM_INT16:
    return Put(uint16_t(Norm(65535.0f, 0.0f, 65535.0f)));
  case CL_HALF_FLOAT:
    return Put(toHalf(F));
  case CL_FLOAT:
    return Put(F);
  case CL_SIGNED_INT8:
    return Put(int8_t(std::clamp<int32_t>(I, INT8_MIN, INT8_MAX)));
  case CL_SIGNED_INT16:
    return Put(int16_t(std::clamp<int32_t>(I, INT16_MIN, INT16_MAX)));
  case CL_SIGNED_INT32:
    return Put(I);
  case CL_UNSIGNED_INT8:
    return Put(uint8_t(std::min<uint32_t>(U, UINT8_MAX)));
  case CL_UNSIGNED_INT16:
    return Put(uint16_t(std::min<uint32_t>(U, UINT16_MAX)));
  case CL_UNSIGNED_INT32:
    return Put(U);
  default:
    return;
  }
}

/// The pixel a fill colour (RGBA, as float4, int4 or uint4) makes in \p M's
/// format, channels in memory order.
static std::vector<unsigned char> fillPixel(cl_mem M, const void *Color) {
  std::vector<unsigned char> Pixel(M->PixelBytes);
  const cl_image_format &F = M->ImageFormat;
  size_t Bytes = M->PixelBytes / channelCount(F.image_channel_order);
  // The colour channel stored in each memory channel.
  int Order[4] = {0, 1, 2, 3};
  switch (F.image_channel_order) {
  case CL_A:
    Order[0] = 3;
    break;
  case CL_BGRA:
    Order[0] = 2, Order[2] = 0;
    break;
  case CL_ARGB:
    Order[0] = 3, Order[1] = 0, Order[2] = 1, Order[3] = 2;
    break;
  default:
    break;
  }
  for (unsigned C = 0; C < channelCount(F.image_channel_order); ++C)
    convertChannel(F.image_channel_data_type, Color, Order[C],
                   Pixel.data() + C * Bytes);
  return Pixel;
}

/// clEnqueueFillImage and clCommandFillImageKHR.
cl_int iss::fillImageCommand(const char *Func, const CommandTarget &T, cl_mem M,
                             const void *Color, const size_t *Origin,
                             const size_t *Region) {
  if (cl_int E = checkQueueImage(Func, T.Q, M))
    return E;
  if (cl_int E = T.checkWaits(Func))
    return E;
  Box B;
  if (!Color || !imageBox(M, Origin, Region, B))
    return apiError(Func, CL_INVALID_VALUE,
                    "fill_color is NULL, or bad region or bounds");
  Ref<_cl_mem> Keep(M);
  std::vector<unsigned char> Pixel = fillPixel(M, Color);
  return T.run(CL_COMMAND_FILL_IMAGE, [Keep, B, Pixel] {
    for (size_t Z = 0; Z < B.Region[2]; ++Z)
      for (size_t Y = 0; Y < B.Region[1]; ++Y) {
        char *Row = Keep->Data + B.Begin + Z * B.ZStride + Y * B.YStride;
        for (size_t X = 0; X < B.RowBytes; X += Pixel.size())
          std::memcpy(Row + X, Pixel.data(), Pixel.size());
      }
    return CL_SUCCESS;
  });
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillImage(cl_command_queue Q, cl_mem M, const void *Color,
                   const size_t *Origin, const size_t *Region, cl_uint NumWait,
                   const cl_event *Wait, cl_event *Event) {
  return fillImageCommand(__func__,
                          CommandTarget::queue(Q, NumWait, Wait, Event), M,
                          Color, Origin, Region);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue Q, cl_mem M, cl_bool Blocking, cl_map_flags Flags,
    const size_t *Origin, const size_t *Region, size_t *RowPitch,
    size_t *SlicePitch, cl_uint NumWait, const cl_event *Wait, cl_event *Event,
    cl_int *Err) {
  if (cl_int E = checkQueueImage(__func__, Q, M))
    return setErrcode(Err, E), nullptr;
  if (cl_int E = checkWaitList(__func__, Q->Context.get(), NumWait, Wait))
    return setErrcode(Err, E), nullptr;
  if (!validMapFlags(Flags))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "invalid map flags");
  Box B;
  if (!imageBox(M, Origin, Region, B))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE, "bad region or out of bounds");
  bool Slices = M->Type == CL_MEM_OBJECT_IMAGE3D ||
                M->Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                M->Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (!RowPitch || (Slices && !SlicePitch))
    return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                       "image_row_pitch (or image_slice_pitch) is NULL");
  if (mapConflictsWithHostAccess(M, Flags))
    return ISS_ERR_RET(Err, CL_INVALID_OPERATION,
                       "map flags conflict with the host access flags");
  // The image's own bytes: no copy to make, none to write back.
  void *Ptr = M->Data + B.Begin;
  *RowPitch = M->ImageDesc.image_row_pitch;
  if (SlicePitch)
    *SlicePitch = Slices ? M->ImageDesc.image_slice_pitch : 0;
  {
    std::lock_guard<std::mutex> L(M->M);
    M->Mappings.push_back(Ptr);
    ++M->MapCount;
  }
  Ref<_cl_mem> Keep(M);
  cl_int E = enqueueCommand(Q, CL_COMMAND_MAP_IMAGE, NumWait, Wait, Event,
                            Blocking, [Keep] { return CL_SUCCESS; });
  if (E != CL_SUCCESS) {
    std::lock_guard<std::mutex> L(M->M);
    auto It = std::find(M->Mappings.begin(), M->Mappings.end(), Ptr);
    if (It != M->Mappings.end()) {
      M->Mappings.erase(It);
      --M->MapCount;
    }
  }
  setErrcode(Err, E);
  return E == CL_SUCCESS ? Ptr : nullptr;
}

//===----------------------------------------------------------------------===//
// Samplers.
//===----------------------------------------------------------------------===//

static cl_sampler createSampler(const char *Func, cl_context C,
                                cl_bool Normalized, cl_addressing_mode Address,
                                cl_filter_mode Filter, cl_int *Err) {
  if (Normalized != CL_TRUE && Normalized != CL_FALSE)
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "normalized_coords is not a cl_bool")),
           nullptr;
  switch (Address) {
  case CL_ADDRESS_NONE:
  case CL_ADDRESS_CLAMP_TO_EDGE:
  case CL_ADDRESS_CLAMP:
  case CL_ADDRESS_REPEAT:
  case CL_ADDRESS_MIRRORED_REPEAT:
    break;
  default:
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "unknown addressing mode")),
           nullptr;
  }
  // OpenCL C 3.0, 8.2: the repeats need normalized coordinates, an
  // invalid combination for clCreateSampler.
  if (!Normalized &&
      (Address == CL_ADDRESS_REPEAT || Address == CL_ADDRESS_MIRRORED_REPEAT))
    return setErrcode(Err, apiError(Func, CL_INVALID_VALUE,
                                    "repeat addressing needs normalized "
                                    "coordinates")),
           nullptr;
  if (Filter != CL_FILTER_NEAREST && Filter != CL_FILTER_LINEAR)
    return setErrcode(Err,
                      apiError(Func, CL_INVALID_VALUE, "unknown filter mode")),
           nullptr;
  cl_sampler S = makeObject<_cl_sampler>();
  if (!S)
    return setErrcode(Err, apiError(Func, CL_OUT_OF_HOST_MEMORY,
                                    "allocating a sampler")),
           nullptr;
  S->Context = Ref<_cl_context>(C);
  S->Normalized = Normalized;
  S->Addressing = Address;
  S->Filter = Filter;
  setErrcode(Err, CL_SUCCESS);
  return S;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context C,
                                                    cl_bool Normalized,
                                                    cl_addressing_mode Address,
                                                    cl_filter_mode Filter,
                                                    cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  return createSampler(__func__, C, Normalized, Address, Filter, Err);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context C, const cl_sampler_properties *Props, cl_int *Err) {
  if (!isValid(C))
    return ISS_ERR_RET(Err, CL_INVALID_CONTEXT, "invalid context");
  // The defaults of OpenCL 2.0, 5.7.1.
  cl_bool Normalized = CL_TRUE;
  cl_addressing_mode Address = CL_ADDRESS_CLAMP;
  cl_filter_mode Filter = CL_FILTER_NEAREST;
  std::vector<cl_sampler_properties> Copy;
  if (Props) {
    bool Seen[3] = {false, false, false};
    size_t I = 0;
    for (; Props[I]; I += 2) {
      int Which = Props[I] == CL_SAMPLER_NORMALIZED_COORDS ? 0
                  : Props[I] == CL_SAMPLER_ADDRESSING_MODE ? 1
                  : Props[I] == CL_SAMPLER_FILTER_MODE     ? 2
                                                           : -1;
      if (Which < 0)
        return ISS_ERR_RET(Err, CL_INVALID_VALUE, "unknown sampler property");
      if (Seen[Which])
        return ISS_ERR_RET(Err, CL_INVALID_VALUE, "a property given twice");
      Seen[Which] = true;
      cl_sampler_properties V = Props[I + 1];
      if (Which == 0)
        Normalized = static_cast<cl_bool>(V);
      else if (Which == 1)
        Address = static_cast<cl_addressing_mode>(V);
      else
        Filter = static_cast<cl_filter_mode>(V);
      if (Which == 0 && V != CL_TRUE && V != CL_FALSE)
        return ISS_ERR_RET(Err, CL_INVALID_VALUE,
                           "normalized_coords is not a cl_bool");
    }
    Copy.assign(Props, Props + I + 1);
  }
  cl_sampler S = createSampler(__func__, C, Normalized, Address, Filter, Err);
  if (S)
    S->Properties = std::move(Copy);
  return S;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler S) {
  if (!isValid(S))
    return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
  retainObject(S);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler S) {
  if (!isValid(S))
    return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
  releaseObject(S);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler S,
                                                 cl_sampler_info Param,
                                                 size_t Size, void *Value,
                                                 size_t *SizeRet) {
  if (!isValid(S))
    return ISS_ERR(CL_INVALID_SAMPLER, "invalid sampler");
  switch (Param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return returnValue(Size, Value, SizeRet, cl_uint(S->RefCount.load()));
  case CL_SAMPLER_CONTEXT:
    return returnValue(Size, Value, SizeRet, S->Context.get());
  case CL_SAMPLER_NORMALIZED_COORDS:
    return returnValue(Size, Value, SizeRet, S->Normalized);
  case CL_SAMPLER_ADDRESSING_MODE:
    return returnValue(Size, Value, SizeRet, S->Addressing);
  case CL_SAMPLER_FILTER_MODE:
    return returnValue(Size, Value, SizeRet, S->Filter);
  case CL_SAMPLER_PROPERTIES:
    return returnArray(Size, Value, SizeRet, S->Properties);
  default:
    return ISS_ERR(CL_INVALID_VALUE, "unknown cl_sampler_info");
  }
}
