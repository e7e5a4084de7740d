//===- ImageKernels.cpp - Kernels that sample, read and write images ------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Images read and written by kernels through pocl 3.1's kernel library: 1D,
// 1D array, 2D, 2D array and 3D images sampled with every sampler (normalized
// and unnormalized coordinates; addressing NONE, CLAMP_TO_EDGE, CLAMP,
// REPEAT, MIRRORED_REPEAT; filtering NEAREST and LINEAR), each result
// checked against a host reference that follows the OpenCL C
// specification's sampling rules (OpenCL C 3.0, section 8.2: "Addressing
// and filter modes"); samplers given as arguments and as program constants;
// writes with the conversions and saturation of section 8.3; integer reads;
// the image queries; channel orders. Run in every POCL_ISS_MODE: the image
// builtins sit in work-item loops that the modes vectorize and split.
//
// Validated on Debian's pocl 3.1 (ISS_TEST_PLATFORM=Portable
// OCL_ICD_VENDORS=/etc/OpenCL/vendors); where pocl 3.1 departs from the
// specification the case says so.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace clt;

static const char *Source = R"CLC(
kernel void sample1d(read_only image1d_t I, sampler_t S,
                     global const float4 *C, global float4 *Out) {
  size_t G = get_global_id(0);
  Out[G] = read_imagef(I, S, C[G].x);
}
kernel void sample1da(read_only image1d_array_t I, sampler_t S,
                      global const float4 *C, global float4 *Out) {
  size_t G = get_global_id(0);
  Out[G] = read_imagef(I, S, C[G].xy);
}
kernel void sample2d(read_only image2d_t I, sampler_t S,
                     global const float4 *C, global float4 *Out) {
  size_t G = get_global_id(0);
  Out[G] = read_imagef(I, S, C[G].xy);
}
kernel void sample2da(read_only image2d_array_t I, sampler_t S,
                      global const float4 *C, global float4 *Out) {
  size_t G = get_global_id(0);
  Out[G] = read_imagef(I, S, C[G]);
}
kernel void sample3d(read_only image3d_t I, sampler_t S,
                     global const float4 *C, global float4 *Out) {
  size_t G = get_global_id(0);
  Out[G] = read_imagef(I, S, C[G]);
}

// A sampler constant at program scope and one in the kernel.
constant sampler_t Edge = CLK_NORMALIZED_COORDS_TRUE |
                          CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
kernel void constantSamplers(read_only image2d_t I, global const float4 *C,
                             global float4 *Out) {
  const sampler_t Near = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP |
                         CLK_FILTER_NEAREST;
  size_t G = get_global_id(0);
  Out[2 * G] = read_imagef(I, Edge, C[G].xy);
  Out[2 * G + 1] = read_imagef(I, Near, C[G].zw);
}

// Every pixel written from a buffer, in 2D and 3D (one work-item per pixel).
kernel void write2df(write_only image2d_t I, global const float4 *In) {
  int X = get_global_id(0), Y = get_global_id(1);
  write_imagef(I, (int2)(X, Y), In[Y * get_image_width(I) + X]);
}
kernel void write2dui(write_only image2d_t I, global const uint4 *In) {
  int X = get_global_id(0), Y = get_global_id(1);
  write_imageui(I, (int2)(X, Y), In[Y * get_image_width(I) + X]);
}
kernel void write2di(write_only image2d_t I, global const int4 *In) {
  int X = get_global_id(0), Y = get_global_id(1);
  write_imagei(I, (int2)(X, Y), In[Y * get_image_width(I) + X]);
}
kernel void write3df(write_only image3d_t I, global const float4 *In) {
  int X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  int W = get_image_width(I), H = get_image_height(I);
  write_imagef(I, (int4)(X, Y, Z, 0), In[(Z * H + Y) * W + X]);
}
kernel void write1daf(write_only image1d_array_t I, global const float4 *In) {
  int X = get_global_id(0), L = get_global_id(1);
  write_imagef(I, (int2)(X, L), In[L * get_image_width(I) + X]);
}
kernel void write2daf(write_only image2d_array_t I, global const float4 *In) {
  int X = get_global_id(0), Y = get_global_id(1), L = get_global_id(2);
  int W = get_image_width(I), H = get_image_height(I);
  write_imagef(I, (int4)(X, Y, L, 0), In[(L * H + Y) * W + X]);
}

// Reads without a sampler, and integer reads with one.
kernel void readui(read_only image2d_t I, global uint4 *Out) {
  int X = get_global_id(0), Y = get_global_id(1);
  Out[Y * get_global_size(0) + X] = read_imageui(I, (int2)(X, Y));
}
kernel void readiClamp(read_only image2d_t I, sampler_t S, global int4 *Out) {
  // Every work-item one pixel to the left and above: the first row and
  // column read the border.
  int X = get_global_id(0), Y = get_global_id(1);
  Out[Y * get_global_size(0) + X] = read_imagei(I, S, (int2)(X - 1, Y - 1));
}

// A read_write image: each pixel doubled in place.
kernel void doubleInPlace(read_write image2d_t I) {
  int2 P = (int2)(get_global_id(0), get_global_id(1));
  float4 V = read_imagef(I, P);
  write_imagef(I, P, 2.0f * V);
}

// Pixel by pixel through a kernel, in the format's own read and write.
kernel void copyf(read_only image2d_t I, write_only image2d_t O) {
  int2 P = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(O, P, read_imagef(I, P));
}
kernel void copyi(read_only image2d_t I, write_only image2d_t O) {
  int2 P = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(O, P, read_imagei(I, P));
}
kernel void copyui(read_only image2d_t I, write_only image2d_t O) {
  int2 P = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(O, P, read_imageui(I, P));
}

// Each work-item writes its pixel of a read_write image, and after a
// barrier reads its right neighbour's (the last of the group its own),
// also behind a branch on the id: the work-group passes must keep the
// writes of the whole group before the reads.
kernel void shiftThroughBarrier(read_write image2d_t I, global float4 *Out) {
  int X = get_global_id(0), Y = get_global_id(1);
  int L = get_local_id(0), N = get_local_size(0);
  write_imagef(I, (int2)(X, Y), (float4)(X, Y, X * Y, 1.0f));
  barrier(CLK_IMAGE_MEM_FENCE);
  int From = L + 1 < N ? X + 1 : X;
  float4 V = read_imagef(I, (int2)(From, Y));
  if (X % 3 == 0)
    V.w = -V.w;
  Out[Y * get_global_size(0) + X] = V;
}

// A 1D image buffer read and written by kernels: its buffer changes.
kernel void bufferImage(read_only image1d_buffer_t In,
                        write_only image1d_buffer_t Out) {
  int X = get_global_id(0);
  write_imageui(Out, X, read_imageui(In, X) * 2u + (uint4)(X));
}

// CL_R images: the border and missing channels.
kernel void readR(read_only image2d_t F, read_only image2d_t U,
                  read_only image2d_t I, sampler_t S, global float4 *OutF,
                  global uint4 *OutU, global int4 *OutI) {
  OutF[0] = read_imagef(F, S, (float2)(-3.0f, 0.5f)); // the border
  OutF[1] = read_imagef(F, S, (float2)(1.5f, 0.5f));
  OutU[0] = read_imageui(U, (int2)(1, 1));
  OutI[0] = read_imagei(I, S, (int2)(0, 1));
  OutI[1] = read_imagei(I, S, (int2)(5, 1)); // the border
}

kernel void readAny(read_only image2d_t I, sampler_t S, global float4 *Out,
                    global int *Q) {
  int X = get_global_id(0), Y = get_global_id(1), W = get_image_width(I);
  int At = Y * W + X;
  Out[2 * At] = read_imagef(I, (int2)(X, Y));
  Out[2 * At + 1] = read_imagef(I, S, (float2)(X + 0.5f, Y + 0.5f));
  if (At == 0) {
    Q[0] = get_image_channel_order(I);
    Q[1] = get_image_channel_data_type(I);
  }
}
kernel void queries(read_only image2d_t A, read_only image3d_t B,
                    read_only image2d_array_t C, read_only image1d_t D,
                    read_only image1d_array_t E, global int *Out) {
  Out[0] = get_image_width(A);
  Out[1] = get_image_height(A);
  Out[2] = get_image_channel_order(A);
  Out[3] = get_image_channel_data_type(A);
  int4 Dim = get_image_dim(B);
  Out[4] = Dim.x;
  Out[5] = Dim.y;
  Out[6] = Dim.z;
  Out[7] = get_image_depth(B);
  Out[8] = get_image_array_size(C);
  int2 CD = get_image_dim(C);
  Out[9] = CD.x;
  Out[10] = CD.y;
  Out[11] = get_image_width(D);
  Out[12] = get_image_array_size(E);
  Out[13] = get_image_width(E);
}
)CLC";

namespace {

/// A host image of RGBA float texels with the geometry the commands use:
/// x, y, z (a 1D array's layer is y, a 2D array's is z).
struct HostImage {
  cl_mem_object_type Type;
  size_t W, H, D; ///< pixels along x, y, z (1 where absent)
  std::vector<float> Texels;
  int coordDims() const {
    switch (Type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return 1;
    case CL_MEM_OBJECT_IMAGE3D:
      return 3;
    default:
      return 2;
    }
  }
  bool isArray() const {
    return Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
           Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  }
  size_t size(int Dim) const { return Dim == 0 ? W : Dim == 1 ? H : D; }
  std::array<float, 4> texel(long X, long Y, long Z) const {
    const float *T = &Texels[4 * ((Z * H + Y) * W + X)];
    return {T[0], T[1], T[2], T[3]};
  }
};

struct SamplerMode {
  bool Normalized;
  cl_addressing_mode Address;
  cl_filter_mode Filter;
  std::string name() const {
    const char *A = Address == CL_ADDRESS_NONE            ? "none"
                    : Address == CL_ADDRESS_CLAMP_TO_EDGE ? "clamp-to-edge"
                    : Address == CL_ADDRESS_CLAMP         ? "clamp"
                    : Address == CL_ADDRESS_REPEAT        ? "repeat"
                                                          : "mirrored-repeat";
    return std::string(Normalized ? "normalized " : "unnormalized ") + A +
           (Filter == CL_FILTER_LINEAR ? " linear" : " nearest");
  }
};

/// Where one coordinate samples: NEAREST's texel I0 (weight 1), or LINEAR's
/// I0 and I1 with weights 1 - A and A; an index outside the image is the
/// border colour.
struct Taps {
  long I0, I1;
  float A;
};

float frac(float X) { return X - std::floor(X); }

/// OpenCL C 3.0, section 8.2, for one dimension of \p N pixels.
Taps taps(float S, long N, const SamplerMode &M) {
  float Nf = static_cast<float>(N);
  bool Linear = M.Filter == CL_FILTER_LINEAR;
  if (M.Address == CL_ADDRESS_REPEAT) {
    float U = (S - std::floor(S)) * Nf;
    if (!Linear) {
      long I = static_cast<long>(std::floor(U));
      return {I > N - 1 ? I - N : I, 0, 0.0f};
    }
    long I0 = static_cast<long>(std::floor(U - 0.5f)), I1 = I0 + 1;
    if (I0 < 0)
      I0 += N;
    if (I1 > N - 1)
      I1 -= N;
    return {I0, I1, frac(U - 0.5f)};
  }
  if (M.Address == CL_ADDRESS_MIRRORED_REPEAT) {
    float SP = 2.0f * std::rint(0.5f * S);
    SP = std::fabs(S - SP);
    float U = SP * Nf;
    if (!Linear)
      return {std::min(static_cast<long>(std::floor(U)), N - 1), 0, 0.0f};
    long I0 = static_cast<long>(std::floor(U - 0.5f)), I1 = I0 + 1;
    return {std::max(I0, 0L), std::min(I1, N - 1), frac(U - 0.5f)};
  }
  float U = M.Normalized ? S * Nf : S;
  long Lo = M.Address == CL_ADDRESS_CLAMP ? -1 : 0;
  long Hi = M.Address == CL_ADDRESS_CLAMP ? N : N - 1;
  auto Clamp = [&](long I) {
    return M.Address == CL_ADDRESS_NONE ? I : std::clamp(I, Lo, Hi);
  };
  if (!Linear)
    return {Clamp(static_cast<long>(std::floor(U))), 0, 0.0f};
  long I0 = static_cast<long>(std::floor(U - 0.5f));
  return {Clamp(I0), Clamp(I0 + 1), frac(U - 0.5f)};
}

/// read_imagef(image, sampler, coord) on the host. The border colour of
/// RGBA is (0, 0, 0, 0).
std::array<float, 4> sampleRef(const HostImage &Im, const SamplerMode &M,
                               const float *Coord) {
  int Dims = Im.coordDims();
  Taps T[3] = {{0, 0, 0.0f}, {0, 0, 0.0f}, {0, 0, 0.0f}};
  for (int D = 0; D < Dims; ++D)
    T[D] = taps(Coord[D], static_cast<long>(Im.size(D)), M);
  if (Im.isArray()) // the layer: rint, clamped, never normalized
    T[Dims] = {std::clamp(static_cast<long>(std::rint(Coord[Dims])), 0L,
                          static_cast<long>(Im.size(Dims)) - 1),
               0, 0.0f};
  bool Linear = M.Filter == CL_FILTER_LINEAR;
  std::array<float, 4> Sum = {0, 0, 0, 0};
  for (int Corner = 0; Corner < (Linear ? 1 << Dims : 1); ++Corner) {
    long Idx[3];
    float Weight = 1.0f;
    for (int D = 0; D < 3; ++D) {
      bool Second = D < Dims && Linear && (Corner >> D & 1);
      Idx[D] = Second ? T[D].I1 : T[D].I0;
      if (D < Dims && Linear)
        Weight *= Second ? T[D].A : 1.0f - T[D].A;
    }
    bool Inside = true;
    for (int D = 0; D < 3; ++D)
      Inside &= Idx[D] >= 0 && Idx[D] < static_cast<long>(Im.size(D));
    if (!Inside)
      continue; // the border colour adds nothing
    std::array<float, 4> V = Im.texel(Idx[0], Idx[1], Idx[2]);
    for (int C = 0; C < 4; ++C)
      Sum[C] += Weight * V[C];
  }
  return Sum;
}

/// Coordinates for \p M along a dimension of \p N pixels, in pixels before
/// normalization: inside for NONE (where leaving the image is undefined),
/// up to two pixels outside for the clamps, over several periods for the
/// repeats; never within 0.1 of a pixel edge, where NEAREST's answer hangs
/// on the last bit of the arithmetic.
float pickCoord(std::mt19937 &Gen, long N, const SamplerMode &M) {
  float Lo = 0.6f, Hi = N - 0.6f;
  if (M.Address == CL_ADDRESS_CLAMP || M.Address == CL_ADDRESS_CLAMP_TO_EDGE)
    Lo = -1.9f, Hi = N + 1.9f;
  else if (M.Address == CL_ADDRESS_REPEAT ||
           M.Address == CL_ADDRESS_MIRRORED_REPEAT)
    Lo = -1.4f * N, Hi = 2.4f * N;
  float V = std::uniform_real_distribution<float>(Lo, Hi)(Gen);
  float F = frac(V);
  if (F < 0.1f)
    V += 0.15f;
  else if (F > 0.9f)
    V -= 0.15f;
  return V;
}

const char *kernelFor(cl_mem_object_type T) {
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "sample1d";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "sample1da";
  case CL_MEM_OBJECT_IMAGE2D:
    return "sample2d";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "sample2da";
  default:
    return "sample3d";
  }
}

HostImage makeHostImage(cl_mem_object_type T, size_t W, size_t H, size_t D,
                        unsigned Seed) {
  HostImage Im{T, W, H, D, {}};
  Im.Texels = randomVector<float>(4 * W * H * D, 0.0f, 1.0f, Seed);
  return Im;
}

/// IEEE half bits of \p V, a normal half exactly (the texels below).
uint16_t halfBits(float V) {
  if (V == 0.0f)
    return 0;
  int Exp;
  float M = std::frexp(V, &Exp); // V = M * 2^Exp, M in [0.5, 1)
  return static_cast<uint16_t>(((Exp - 1 + 15) << 10) |
                               (static_cast<uint32_t>(M * 2048.0f) & 0x3ff));
}

/// Rounds \p Im's texels to what \p Type holds exactly, so that the host
/// reference samples the values the device stores.
void quantize(HostImage &Im, cl_channel_type Type) {
  for (float &T : Im.Texels)
    if (Type == CL_UNORM_INT8)
      T = std::nearbyint(T * 255.0f) / 255.0f;
    else if (Type == CL_HALF_FLOAT)
      T = std::nearbyint(T * 1024.0f) / 1024.0f;
}

/// The image of \p Im (of \p Type: CL_FLOAT, CL_UNORM_INT8 or
/// CL_HALF_FLOAT), written by clCreateImage's COPY_HOST_PTR. With \p Order
/// CL_R or CL_A it holds only the texels' first or last channel.
Mem deviceImage(const Env &E, const HostImage &Im,
                cl_channel_type Type = CL_FLOAT,
                cl_channel_order Order = CL_RGBA) {
  cl_image_format F = {Order, Type};
  cl_image_desc D = {};
  D.image_type = Im.Type;
  D.image_width = Im.W;
  if (Im.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    D.image_array_size = Im.H;
  else if (Im.Type != CL_MEM_OBJECT_IMAGE1D)
    D.image_height = Im.H;
  if (Im.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    D.image_array_size = Im.D;
  if (Im.Type == CL_MEM_OBJECT_IMAGE3D)
    D.image_depth = Im.D;
  std::vector<unsigned char> Bytes;
  std::vector<float> Channel;
  const std::vector<float> *Texels = &Im.Texels;
  if (Order != CL_RGBA) {
    for (size_t I = Order == CL_R ? 0 : 3; I < Im.Texels.size(); I += 4)
      Channel.push_back(Im.Texels[I]);
    Texels = &Channel;
  }
  const void *Host = Texels->data();
  if (Type == CL_UNORM_INT8) {
    for (float T : *Texels)
      Bytes.push_back(static_cast<unsigned char>(std::nearbyint(T * 255.0f)));
    Host = Bytes.data();
  } else if (Type == CL_HALF_FLOAT) {
    for (float T : *Texels) {
      uint16_t H = halfBits(T);
      Bytes.push_back(static_cast<unsigned char>(H & 0xff));
      Bytes.push_back(static_cast<unsigned char>(H >> 8));
    }
    Host = Bytes.data();
  }
  cl_int Err;
  Mem M(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F, &D,
                      const_cast<void *>(Host), &Err));
  CL_CHECK(Err);
  return M;
}

std::vector<SamplerMode> allSamplers() {
  std::vector<SamplerMode> V;
  for (bool Norm : {false, true})
    for (cl_addressing_mode A :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
          CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
      for (cl_filter_mode F : {CL_FILTER_NEAREST, CL_FILTER_LINEAR})
        if (Norm || (A != CL_ADDRESS_REPEAT &&
                     A != CL_ADDRESS_MIRRORED_REPEAT)) // undefined unnormalized
          V.push_back({Norm, A, F});
  return V;
}

/// Samples \p Im at random coordinates with every sampler and compares
/// with sampleRef.
void checkSampling(const Env &E, HostImage Im, unsigned Seed,
                   cl_channel_type Type = CL_FLOAT,
                   cl_channel_order Order = CL_RGBA) {
  quantize(Im, Type);
  Program P = E.build(Source);
  Kernel K = E.kernel(P, kernelFor(Im.Type));
  Mem Image = deviceImage(E, Im, Type, Order);
  const size_t N = 96; // not a multiple of every vector width
  std::mt19937 Gen(Seed);
  for (const SamplerMode &M : allSamplers()) {
    // pocl 3.1 departs from the specification here: with normalized
    // coordinates its library scales an array's layer by the array size
    // too (read_image.cl, nonrepeat_filter and repeat_filter), where the
    // layer is never normalized (OpenCL C 3.0, 8.2). pocl-iss divides the
    // layer back before the call (iss-array-layers,
    // lib/Compiler/Frontend/ImageArrayLayers.cpp).
    if (!E.IsPoclIss && Im.isArray() && M.Normalized)
      continue;
    cl_int Err;
    Sampler S(clCreateSampler(E.Ctx, M.Normalized, M.Address, M.Filter, &Err));
    CL_CHECK(Err);
    std::vector<float> Coords(4 * N, 0.0f);
    for (size_t I = 0; I < N; ++I) {
      int Dims = Im.coordDims();
      for (int D = 0; D < Dims; ++D) {
        long Size = static_cast<long>(Im.size(D));
        float V = pickCoord(Gen, Size, M);
        Coords[4 * I + D] = M.Normalized ? V / Size : V;
      }
      if (Im.isArray()) // a layer, sometimes outside (clamped)
        Coords[4 * I + Dims] = std::uniform_int_distribution<int>(
                                   -1, static_cast<int>(Im.size(Dims)))(Gen) +
                               (I % 3 == 0 ? 0.3f : -0.2f);
    }
    Mem C = E.input(Coords);
    Mem Out = E.output<float>(4 * N);
    setArgs(K, Image, S, C, Out);
    E.run1(K, N, 16);
    std::vector<float> Got = E.read<float>(Out, 4 * N), Want(4 * N);
    for (size_t I = 0; I < N; ++I) {
      std::array<float, 4> R = sampleRef(Im, M, &Coords[4 * I]);
      // A one-channel image reads as (r, 0, 0, 1) or (0, 0, 0, a), its
      // border colour too (OpenCL C 3.0, 8.3 and 8.2): the channel it
      // has filters as in RGBA, whose border colour has the same 0 there.
      if (Order == CL_R)
        R = {R[0], 0.0f, 0.0f, 1.0f};
      else if (Order == CL_A)
        R = {0.0f, 0.0f, 0.0f, R[3]};
      std::copy(R.begin(), R.end(), &Want[4 * I]);
    }
    // Texels are in [0, 1]; linear filtering's weights may be computed
    // with less precision than the host's (OpenCL C 3.0, 8.2).
    // The library scales UNORM_INT8 by a rounded 1 / 255.
    double Tol = M.Filter == CL_FILTER_LINEAR ? 2e-4
                 : Type == CL_UNORM_INT8      ? 1e-6
                                              : 0.0;
    expectNear(Got, Want, 0.0, Tol,
               std::string(kernelFor(Im.Type)) + " " + M.name());
  }
}

} // namespace

CLT_TEST(sample1D) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE1D, 13, 1, 1, 1), 11);
}

CLT_TEST(sample1DArray) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 4, 1, 2), 12);
}

CLT_TEST(sample2D) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE2D, 7, 5, 1, 3), 13);
}

CLT_TEST(sample2DArray) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 3, 4), 14);
}

CLT_TEST(sample3D) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE3D, 5, 4, 3, 5), 15);
}

CLT_TEST(sample2DUnorm8) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE2D, 9, 7, 1, 8), 16,
                CL_UNORM_INT8);
}

CLT_TEST(sample3DHalf) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE3D, 4, 5, 6, 9), 17,
                CL_HALF_FLOAT);
}

/// Single-channel half images (CL_R is required with read-write images by
/// OpenCL 3.0). pocl 3.1's library reads them as 234.0 (read_image.cl,
/// get_float_pixel has no half case), so these run on pocl-iss only,
/// which adds the case (iss-half-images,
/// lib/Compiler/Frontend/SingleChannelHalf.cpp).
void checkHalfSampling(const Env &E, cl_mem_object_type T, size_t W, size_t H,
                       size_t D, unsigned Seed) {
  if (!E.IsPoclIss)
    return;
  for (cl_channel_order O : {CL_R, CL_A})
    checkSampling(E, makeHostImage(T, W, H, D, Seed), Seed + 1, CL_HALF_FLOAT,
                  O);
}

CLT_TEST(sample1DHalfOneChannel) {
  checkHalfSampling(E, CL_MEM_OBJECT_IMAGE1D, 13, 1, 1, 21);
}

CLT_TEST(sample2DArrayHalfOneChannel) {
  checkHalfSampling(E, CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 3, 23);
}

CLT_TEST(sample3DHalfOneChannel) {
  checkHalfSampling(E, CL_MEM_OBJECT_IMAGE3D, 5, 4, 3, 25);
}

CLT_TEST(sample1DArrayUnorm8) {
  checkSampling(E, makeHostImage(CL_MEM_OBJECT_IMAGE1D_ARRAY, 10, 5, 1, 10), 18,
                CL_UNORM_INT8);
}

/// Samplers declared in the program: a program-scope constant and a
/// kernel's const variable, both turned into the library's sampler bits.
CLT_TEST(constantSamplers) {
  HostImage Im = makeHostImage(CL_MEM_OBJECT_IMAGE2D, 9, 6, 1, 6);
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "constantSamplers");
  Mem Image = deviceImage(E, Im);
  const SamplerMode Edge = {true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR};
  const SamplerMode Near = {false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
  const size_t N = 40;
  std::mt19937 Gen(7);
  std::vector<float> Coords(4 * N);
  for (size_t I = 0; I < N; ++I) {
    Coords[4 * I] = pickCoord(Gen, 9, Edge) / 9;
    Coords[4 * I + 1] = pickCoord(Gen, 6, Edge) / 6;
    Coords[4 * I + 2] = pickCoord(Gen, 9, Near);
    Coords[4 * I + 3] = pickCoord(Gen, 6, Near);
  }
  Mem C = E.input(Coords);
  Mem Out = E.output<float>(8 * N);
  setArgs(K, Image, C, Out);
  E.run1(K, N);
  std::vector<float> Got = E.read<float>(Out, 8 * N);
  std::vector<float> WantEdge, WantNear, GotEdge, GotNear;
  for (size_t I = 0; I < N; ++I) {
    std::array<float, 4> A = sampleRef(Im, Edge, &Coords[4 * I]);
    std::array<float, 4> B = sampleRef(Im, Near, &Coords[4 * I + 2]);
    WantEdge.insert(WantEdge.end(), A.begin(), A.end());
    WantNear.insert(WantNear.end(), B.begin(), B.end());
    GotEdge.insert(GotEdge.end(), &Got[8 * I], &Got[8 * I + 4]);
    GotNear.insert(GotNear.end(), &Got[8 * I + 4], &Got[8 * I + 8]);
  }
  expectNear(GotEdge, WantEdge, 0.0, 2e-4, "program-scope sampler");
  expectNear(GotNear, WantNear, 0.0, 0.0, "kernel-scope sampler");
}

namespace {

/// write_imagef's conversion to a normalized or float channel (OpenCL C
/// 3.0, 8.3.1.1: saturate, round to nearest even).
float toUnorm8(float V) {
  return std::clamp(std::nearbyint(V * 255.0f), 0.0f, 255.0f);
}

Mem makeImage(const Env &E, cl_mem_flags Flags, cl_image_format F,
              cl_mem_object_type T, size_t W, size_t H = 0, size_t D = 0,
              size_t A = 0) {
  cl_image_desc Desc = {};
  Desc.image_type = T;
  Desc.image_width = W;
  Desc.image_height = H;
  Desc.image_depth = D;
  Desc.image_array_size = A;
  cl_int Err;
  Mem M(clCreateImage(E.Ctx, Flags, &F, &Desc, nullptr, &Err));
  CL_CHECK(Err);
  return M;
}

template <typename T>
std::vector<T> readImage(const Env &E, cl_mem M, size_t Elems, size_t W,
                         size_t H = 1, size_t D = 1) {
  std::vector<T> V(Elems);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {W, H, D};
  CL_CHECK(clEnqueueReadImage(E.Q, M, CL_TRUE, Origin, Region, 0, 0, V.data(),
                              0, nullptr, nullptr));
  return V;
}

} // namespace

CLT_TEST(writeUnorm8Saturates) {
  const size_t W = 13, H = 7;
  std::vector<float> In =
      randomVector<float>(4 * W * H, -0.5f, 1.5f, 21); // some saturate
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "write2df");
  Mem Image = makeImage(E, CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNORM_INT8},
                        CL_MEM_OBJECT_IMAGE2D, W, H);
  Mem Buf = E.input(In);
  setArgs(K, Image, Buf);
  size_t G[2] = {W, H};
  E.run(K, 2, G, nullptr);
  std::vector<unsigned char> Got =
      readImage<unsigned char>(E, Image, 4 * W * H, W, H);
  std::vector<float> GotF(Got.begin(), Got.end()), Want(4 * W * H);
  for (size_t I = 0; I < In.size(); ++I)
    Want[I] = toUnorm8(In[I]);
  // pocl's library scales and rounds in float like the reference; allow
  // one step where V * 255 lands next to a half.
  expectNear(GotF, Want, 0.0, 1.0, "write_imagef to CL_UNORM_INT8");
  size_t Exact = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    Exact += GotF[I] == Want[I];
  CLT_EXPECT_MSG(Exact >= Want.size() - 4,
                 std::to_string(Want.size() - Exact) + " off by one");
}

/// write_imagef to the normalized types rounds v * scale to nearest even
/// (OpenCL C 3.0, 8.3.1.1), exactly, in the vector code of four channels
/// (CL_RGBA) and the scalar code of one (CL_R): values whose product is a
/// tie, the values next to them, and random ones, some saturating. The
/// compiler replaces the library's rounding there (iss-rint).
CLT_TEST(normalizedWritesRoundToEven) {
  struct Case {
    cl_channel_order Order;
    cl_channel_type Type;
    float Scale, Lo, Hi;
    size_t Bytes;
  };
  const Case Cases[] = {
      {CL_RGBA, CL_UNORM_INT8, 255.f, 0.f, 255.f, 1},
      {CL_R, CL_UNORM_INT8, 255.f, 0.f, 255.f, 1},
      {CL_RGBA, CL_SNORM_INT8, 127.f, -128.f, 127.f, 1},
      {CL_RGBA, CL_UNORM_INT16, 65535.f, 0.f, 65535.f, 2},
      {CL_R, CL_SNORM_INT16, 32767.f, -32768.f, 32767.f, 2},
  };
  const size_t W = 37, H = 11, N = W * H;
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "write2df");
  for (const Case &C : Cases) {
    unsigned Channels = C.Order == CL_RGBA ? 4 : 1;
    std::vector<float> In = randomVector<float>(4 * N, -1.25f, 1.25f, 22);
    // Ties first: (k + 0.5) / scale where the product gives k + 0.5 back.
    size_t At = 0;
    for (int Step = 0; At + 3 <= 4 * N / 2; ++Step) {
      float Kf = C.Lo + float(Step * 7 % int(C.Hi - C.Lo));
      float V = (Kf + 0.5f) / C.Scale;
      for (float U : {std::nextafter(V, -2.f), V, std::nextafter(V, 2.f)})
        if (U * C.Scale == Kf + 0.5f || U != V)
          In[At++] = U;
    }
    Mem Image = makeImage(E, CL_MEM_WRITE_ONLY, {C.Order, C.Type},
                          CL_MEM_OBJECT_IMAGE2D, W, H);
    Mem Buf = E.input(In);
    setArgs(K, Image, Buf);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<unsigned char> Raw =
        readImage<unsigned char>(E, Image, Channels * N * C.Bytes, W, H);
    std::vector<float> Got(Channels * N), Want(Channels * N);
    for (size_t I = 0; I < Channels * N; ++I) {
      size_t From = Channels == 4 ? I : 4 * I;
      Want[I] = std::clamp(std::nearbyint(In[From] * C.Scale), C.Lo, C.Hi);
      bool Signed = C.Type == CL_SNORM_INT8 || C.Type == CL_SNORM_INT16;
      if (C.Bytes == 1)
        Got[I] = Signed ? float(cl_char(Raw[I])) : float(Raw[I]);
      else {
        cl_ushort U;
        std::memcpy(&U, &Raw[2 * I], 2);
        Got[I] = Signed ? float(cl_short(U)) : float(U);
      }
    }
    expectEqual(Got, Want,
                std::string("write_imagef to ") +
                    (Channels == 4 ? "CL_RGBA " : "CL_R ") +
                    std::to_string(C.Type));
  }
}

CLT_TEST(writeIntegersSaturate) {
  const size_t W = 9, H = 4;
  Program P = E.build(Source);
  {
    std::vector<cl_uint> In(4 * W * H);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<cl_uint>(I * 2477u % 70001u); // some above 65535
    Kernel K = E.kernel(P, "write2dui");
    Mem Image = makeImage(E, CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNSIGNED_INT16},
                          CL_MEM_OBJECT_IMAGE2D, W, H);
    Mem Buf = E.input(In);
    setArgs(K, Image, Buf);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<cl_ushort> Got =
        readImage<cl_ushort>(E, Image, In.size(), W, H);
    std::vector<cl_ushort> Want(In.size());
    for (size_t I = 0; I < In.size(); ++I)
      Want[I] = static_cast<cl_ushort>(std::min<cl_uint>(In[I], 65535));
    expectEqual(Got, Want, "write_imageui to CL_UNSIGNED_INT16");
  }
  {
    std::vector<cl_int> In(4 * W * H);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = static_cast<cl_int>(I * 37) - 600;
    Kernel K = E.kernel(P, "write2di");
    // CL_R keeps the first channel only.
    Mem Image = makeImage(E, CL_MEM_WRITE_ONLY, {CL_R, CL_SIGNED_INT8},
                          CL_MEM_OBJECT_IMAGE2D, W, H);
    Mem Buf = E.input(In);
    setArgs(K, Image, Buf);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<cl_char> Got = readImage<cl_char>(E, Image, W * H, W, H);
    std::vector<cl_char> Want(W * H);
    for (size_t I = 0; I < W * H; ++I)
      Want[I] = static_cast<cl_char>(std::clamp(In[4 * I], -128, 127));
    expectEqual(Got, Want, "write_imagei to CL_R CL_SIGNED_INT8");
  }
}

/// Float writes to 3D images (cl_khr_3d_image_writes) and to both arrays,
/// read back with clEnqueueReadImage.
CLT_TEST(writeFloat3DAndArrays) {
  Program P = E.build(Source);
  struct Case {
    const char *Kernel;
    cl_mem_object_type Type;
    size_t G[3];
  };
  for (const Case &C :
       {Case{"write3df", CL_MEM_OBJECT_IMAGE3D, {5, 4, 3}},
        Case{"write1daf", CL_MEM_OBJECT_IMAGE1D_ARRAY, {11, 3, 1}},
        Case{"write2daf", CL_MEM_OBJECT_IMAGE2D_ARRAY, {6, 5, 4}}}) {
    size_t Pixels = C.G[0] * C.G[1] * C.G[2];
    std::vector<float> In = randomVector<float>(4 * Pixels, -4.0f, 4.0f, 31);
    Kernel K = E.kernel(P, C.Kernel);
    Mem Image = C.Type == CL_MEM_OBJECT_IMAGE3D
                    ? makeImage(E, CL_MEM_READ_WRITE, {CL_RGBA, CL_FLOAT},
                                C.Type, C.G[0], C.G[1], C.G[2])
                : C.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                    ? makeImage(E, CL_MEM_READ_WRITE, {CL_RGBA, CL_FLOAT},
                                C.Type, C.G[0], 0, 0, C.G[1])
                    : makeImage(E, CL_MEM_READ_WRITE, {CL_RGBA, CL_FLOAT},
                                C.Type, C.G[0], C.G[1], 0, C.G[2]);
    Mem Buf = E.input(In);
    setArgs(K, Image, Buf);
    E.run(K, 3, C.G, nullptr);
    std::vector<float> Got =
        readImage<float>(E, Image, In.size(), C.G[0], C.G[1], C.G[2]);
    expectEqual(Got, In, C.Kernel);
  }
}

CLT_TEST(integerReads) {
  const size_t W = 10, H = 6;
  std::vector<cl_uchar> Pixels(4 * W * H);
  for (size_t I = 0; I < Pixels.size(); ++I)
    Pixels[I] = static_cast<cl_uchar>(I * 7 + 3);
  Program P = E.build(Source);
  cl_image_format F = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  cl_int Err;
  Mem Image(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F,
                          &D, Pixels.data(), &Err));
  CL_CHECK(Err);
  {
    Kernel K = E.kernel(P, "readui");
    Mem Out = E.output<cl_uint>(4 * W * H);
    setArgs(K, Image, Out);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<cl_uint> Got = E.read<cl_uint>(Out, 4 * W * H);
    expectEqual(Got, std::vector<cl_uint>(Pixels.begin(), Pixels.end()),
                "read_imageui without a sampler");
  }
  {
    // A signed image read with a CLAMP sampler one pixel up and left: the
    // first row and column are the border colour, (0, 0, 0, 0).
    std::vector<cl_char> Signed(Pixels.begin(), Pixels.end());
    cl_image_format SF = {CL_RGBA, CL_SIGNED_INT8};
    Mem SImage(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             &SF, &D, Signed.data(), &Err));
    CL_CHECK(Err);
    Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP,
                              CL_FILTER_NEAREST, &Err));
    CL_CHECK(Err);
    Kernel K = E.kernel(P, "readiClamp");
    Mem Out = E.output<cl_int>(4 * W * H);
    setArgs(K, SImage, S, Out);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<cl_int> Got = E.read<cl_int>(Out, 4 * W * H), Want(4 * W * H);
    for (size_t Y = 0; Y < H; ++Y)
      for (size_t X = 0; X < W; ++X)
        for (int C = 0; C < 4; ++C)
          Want[4 * (Y * W + X) + C] =
              X == 0 || Y == 0 ? 0 : Signed[4 * ((Y - 1) * W + X - 1) + C];
    expectEqual(Got, Want, "read_imagei with CLAMP");
  }
}

/// A read_write image argument (OpenCL C 2.0): every pixel read and
/// written by its own work-item.
CLT_TEST(readWriteImage) {
  const size_t W = 12, H = 5;
  std::vector<float> In = randomVector<float>(4 * W * H, -2.0f, 2.0f, 41);
  Program P = E.build(Source, "-cl-std=CL3.0");
  Kernel K = E.kernel(P, "doubleInPlace");
  cl_image_format F = {CL_RGBA, CL_FLOAT};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  cl_int Err;
  Mem Image(clCreateImage(E.Ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &F,
                          &D, In.data(), &Err));
  CL_CHECK(Err);
  setArgs(K, Image);
  size_t G[2] = {W, H};
  E.run(K, 2, G, nullptr);
  std::vector<float> Got = readImage<float>(E, Image, In.size(), W, H);
  std::vector<float> Want(In.size());
  for (size_t I = 0; I < In.size(); ++I)
    Want[I] = 2.0f * In[I];
  expectEqual(Got, Want, "read_write image doubled in place");
}

/// BGRA and ARGB images keep their channels in memory order; the kernel
/// sees RGBA.
CLT_TEST(channelOrders) {
  const size_t W = 8, H = 3;
  std::vector<cl_uchar> Bytes(4 * W * H);
  for (size_t I = 0; I < Bytes.size(); ++I)
    Bytes[I] = static_cast<cl_uchar>(I * 13 + 5);
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "sample2d");
  cl_int Err;
  Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST,
                            &Err));
  CL_CHECK(Err);
  std::vector<float> Coords;
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X)
      Coords.insert(Coords.end(), {X + 0.5f, Y + 0.5f, 0.0f, 0.0f});
  for (cl_channel_order O : {CL_BGRA, CL_ARGB, CL_RGBA}) {
    cl_image_format F = {O, CL_UNORM_INT8};
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    Mem Image(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F,
                            &D, Bytes.data(), &Err));
    CL_CHECK(Err);
    Mem C = E.input(Coords);
    Mem Out = E.output<float>(4 * W * H);
    setArgs(K, Image, S, C, Out);
    E.run1(K, W * H);
    std::vector<float> Got = E.read<float>(Out, 4 * W * H), Want(4 * W * H);
    // Memory channel of R, G, B, A.
    int From[4] = {0, 1, 2, 3};
    if (O == CL_BGRA)
      From[0] = 2, From[2] = 0;
    else if (O == CL_ARGB)
      From[0] = 1, From[1] = 2, From[2] = 3, From[3] = 0;
    for (size_t I = 0; I < W * H; ++I)
      for (int C = 0; C < 4; ++C)
        Want[4 * I + C] = Bytes[4 * I + From[C]] / 255.0f;
    expectNear(Got, Want, 1e-6, 0.0,
               O == CL_BGRA   ? "BGRA"
               : O == CL_ARGB ? "ARGB"
                              : "RGBA");
  }
}

/// One kernel given images of one format after another, at one local size,
/// and back to the first: the compile of each launch makes its images'
/// order and type constants (iss-image-formats), so each format must get
/// code of its own, and a launch must never run another format's. Reads
/// with integer coordinates and with a sampler (nearest, then linear, at
/// the pixels' centres, where both give the pixel), and the queries of
/// the order and type, against the pixels decoded on the host.
CLT_TEST(oneKernelManyFormats) {
  const size_t W = 16, H = 6, N = W * H;
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "readAny");
  cl_int Err;
  Sampler Nearest(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                  CL_FILTER_NEAREST, &Err));
  CL_CHECK(Err);
  Sampler Linear(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                 CL_FILTER_LINEAR, &Err));
  CL_CHECK(Err);
  const cl_image_format Formats[] = {
      {CL_RGBA, CL_UNORM_INT8},  {CL_R, CL_FLOAT},
      {CL_RGBA, CL_UNORM_INT16}, {CL_BGRA, CL_UNORM_INT8},
      {CL_A, CL_UNORM_INT8},     {CL_RGBA, CL_SNORM_INT16},
      {CL_R, CL_UNORM_INT8},     {CL_RGBA, CL_FLOAT},
      {CL_RGBA, CL_UNORM_INT8}};
  unsigned Round = 0;
  for (const cl_image_format &F : Formats) {
    unsigned Channels =
        F.image_channel_order == CL_R || F.image_channel_order == CL_A ? 1 : 4;
    size_t Bytes = F.image_channel_data_type == CL_FLOAT ? 4
                   : F.image_channel_data_type == CL_UNORM_INT16 ||
                           F.image_channel_data_type == CL_SNORM_INT16
                       ? 2
                       : 1;
    // Each channel's value, then its bytes.
    std::vector<float> Value(Channels * N);
    std::vector<unsigned char> Raw(Channels * N * Bytes);
    auto R = randomVector<int>(Channels * N, 0, 65535, 30 + Round);
    for (size_t I = 0; I < Value.size(); ++I) {
      switch (F.image_channel_data_type) {
      case CL_UNORM_INT8:
        Raw[I] = static_cast<unsigned char>(R[I]);
        Value[I] = Raw[I] / 255.0f;
        break;
      case CL_UNORM_INT16: {
        cl_ushort U = static_cast<cl_ushort>(R[I]);
        std::memcpy(&Raw[2 * I], &U, 2);
        Value[I] = U / 65535.0f;
        break;
      }
      case CL_SNORM_INT16: {
        cl_short S = static_cast<cl_short>(R[I] - 32768);
        std::memcpy(&Raw[2 * I], &S, 2);
        Value[I] = std::max(S / 32767.0f, -1.0f);
        break;
      }
      default: {
        float V = (R[I] - 32768) / 8192.0f;
        std::memcpy(&Raw[4 * I], &V, 4);
        Value[I] = V;
        break;
      }
      }
    }
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    Mem Image(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F,
                            &D, Raw.data(), &Err));
    CL_CHECK(Err);
    Mem Out = E.output<float>(8 * N);
    Mem Q = E.output<int>(2);
    setArgs(K, Image, Round % 2 ? Linear : Nearest, Out, Q);
    size_t G[2] = {W, H}, L[2] = {8, 2};
    E.run(K, 2, G, L);
    std::vector<float> Got = E.read<float>(Out, 8 * N), Want(8 * N);
    for (size_t I = 0; I < N; ++I) {
      float Px[4] = {0, 0, 0, 1};
      const float *C = &Value[Channels * I];
      if (F.image_channel_order == CL_R)
        Px[0] = C[0];
      else if (F.image_channel_order == CL_A)
        Px[3] = C[0];
      else if (F.image_channel_order == CL_BGRA)
        Px[0] = C[2], Px[1] = C[1], Px[2] = C[0], Px[3] = C[3];
      else
        std::copy(C, C + 4, Px);
      for (int Ch = 0; Ch < 4; ++Ch)
        Want[8 * I + Ch] = Want[8 * I + 4 + Ch] = Px[Ch];
    }
    std::string What = "format " + std::to_string(F.image_channel_order) + "/" +
                       std::to_string(F.image_channel_data_type) + ", launch " +
                       std::to_string(Round);
    expectNear(Got, Want, 1e-6, 1e-7, What);
    expectEqual(E.read<int>(Q, 2),
                std::vector<int>{int(F.image_channel_order),
                                 int(F.image_channel_data_type)},
                What + ", queries");
    ++Round;
  }
}

CLT_TEST(imageQueries) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "queries");
  Mem A = makeImage(E, CL_MEM_READ_ONLY, {CL_R, CL_UNORM_INT16},
                    CL_MEM_OBJECT_IMAGE2D, 17, 9);
  Mem B = makeImage(E, CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT},
                    CL_MEM_OBJECT_IMAGE3D, 5, 6, 7);
  Mem C = makeImage(E, CL_MEM_READ_ONLY, {CL_RGBA, CL_FLOAT},
                    CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 4, 0, 11);
  Mem D = makeImage(E, CL_MEM_READ_ONLY, {CL_RGBA, CL_UNSIGNED_INT8},
                    CL_MEM_OBJECT_IMAGE1D, 29);
  Mem Arr = makeImage(E, CL_MEM_READ_ONLY, {CL_RGBA, CL_UNSIGNED_INT8},
                      CL_MEM_OBJECT_IMAGE1D_ARRAY, 31, 0, 0, 6);
  Mem Out = E.output<cl_int>(14);
  setArgs(K, A, B, C, D, Arr, Out);
  E.run1(K, 1);
  std::vector<cl_int> Got = E.read<cl_int>(Out, 14);
  std::vector<cl_int> Want = {17, 9, CL_R, CL_UNORM_INT16, 5, 6, 7, 7, 11, 3, 4,
                              29, 6, 31};
  expectEqual(Got, Want, "get_image_* in a kernel");
}

/// Every format clGetSupportedImageFormats lists is read and written by
/// kernels: a copy through read_image{f,i,ui} and write_image{f,i,ui}
/// gives the same bytes (values chosen to survive the conversions: no
/// NaNs, no SNORM minimum, which reads as -1.0 and writes back as -127).
CLT_TEST(everyListedFormatRoundTrips) {
  cl_uint N = 0;
  CL_CHECK(clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_WRITE,
                                      CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &N));
  std::vector<cl_image_format> Formats(N);
  CL_CHECK(clGetSupportedImageFormats(E.Ctx, CL_MEM_READ_WRITE,
                                      CL_MEM_OBJECT_IMAGE2D, N, Formats.data(),
                                      nullptr));
  Program P = E.build(Source);
  const size_t W = 11, H = 3;
  for (const cl_image_format &F : Formats) {
    cl_channel_type T = F.image_channel_data_type;
    cl_channel_order O = F.image_channel_order;
    // pocl 3.1 lists single-channel CL_HALF_FLOAT but its library reads
    // such pixels as 234.0 and never writes them (read_image.cl,
    // get_float_pixel; write_image.cl, write_float_pixel); pocl-iss adds
    // the half case (iss-half-images,
    // lib/Compiler/Frontend/SingleChannelHalf.cpp).
    if (!E.IsPoclIss && T == CL_HALF_FLOAT && (O == CL_R || O == CL_A))
      continue;
    unsigned Channels = O == CL_R || O == CL_A ? 1 : 4;
    unsigned Size =
        T == CL_SIGNED_INT32 || T == CL_UNSIGNED_INT32 || T == CL_FLOAT ? 4
        : T == CL_SNORM_INT16 || T == CL_UNORM_INT16 || T == CL_SIGNED_INT16 ||
                T == CL_UNSIGNED_INT16 || T == CL_HALF_FLOAT
            ? 2
            : 1;
    std::vector<unsigned char> Bytes(W * H * Channels * Size);
    std::mt19937 Gen(O * 31 + T);
    for (size_t I = 0; I < Bytes.size(); I += Size) {
      uint32_t V = Gen();
      if (T == CL_FLOAT) // a finite normal float
        V = (V & 0x807fffffu) | ((64 + V % 128) << 23);
      else if (T == CL_HALF_FLOAT) // a finite normal half
        V = (V & 0x83ffu) | ((1 + V % 30) << 10);
      else if (T == CL_SNORM_INT8 && (V & 0xff) == 0x80)
        V ^= 1;
      else if (T == CL_SNORM_INT16 && (V & 0xffff) == 0x8000)
        V ^= 1;
      std::memcpy(&Bytes[I], &V, Size);
    }
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    cl_int Err;
    Mem In(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F, &D,
                         Bytes.data(), &Err));
    CL_CHECK(Err);
    Mem Out(clCreateImage(E.Ctx, CL_MEM_WRITE_ONLY, &F, &D, nullptr, &Err));
    CL_CHECK(Err);
    bool Signed =
        T == CL_SIGNED_INT8 || T == CL_SIGNED_INT16 || T == CL_SIGNED_INT32;
    bool Unsigned = T == CL_UNSIGNED_INT8 || T == CL_UNSIGNED_INT16 ||
                    T == CL_UNSIGNED_INT32;
    Kernel K = E.kernel(P, Signed ? "copyi" : Unsigned ? "copyui" : "copyf");
    setArgs(K, In, Out);
    size_t G[2] = {W, H};
    E.run(K, 2, G, nullptr);
    std::vector<unsigned char> Got =
        readImage<unsigned char>(E, Out, Bytes.size(), W, H);
    expectEqual(Got, Bytes,
                "format " + std::to_string(O) + "/" + std::to_string(T));
  }
}

/// IEEE half bits of \p F rounded to the nearest, ties to even (what
/// write_imagef stores in a CL_HALF_FLOAT image, OpenCL C 3.0 8.3.1.3).
static uint16_t halfRoundedBits(float F) {
  uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  float A = std::fabs(F);
  if (A >= 65520.0f) // rounds to infinity
    return Sign | 0x7c00;
  if (A < 6.103515625e-05f) // a subnormal half: a multiple of 2^-24
    return Sign | static_cast<uint16_t>(std::nearbyint(A * 16777216.0f));
  int Exp;
  float M = std::frexp(A, &Exp); // A = M * 2^Exp, M in [0.5, 1)
  // A carry out of the mantissa (2048) moves to the next exponent.
  uint32_t Bits = ((Exp - 1 + 15) << 10) +
                  (static_cast<uint32_t>(std::nearbyint(M * 2048.0f)) - 1024);
  return Sign | static_cast<uint16_t>(Bits);
}

/// write_imagef to single-channel half images (CL_R takes the colour's x,
/// CL_A its w), with values that round: ties, subnormal halves, overflow to
/// infinity, negatives. pocl 3.1's library leaves such pixels unwritten
/// (write_image.cl, write_float_pixel has no half case), so this runs on
/// pocl-iss only.
CLT_TEST(writeHalfOneChannel) {
  if (!E.IsPoclIss)
    return;
  static const char *Src = R"CLC(
kernel void writeHalf(write_only image2d_t R, write_only image2d_t A,
                      global const float *In) {
  int X = get_global_id(0), Y = get_global_id(1);
  float V = In[Y * get_image_width(R) + X];
  write_imagef(R, (int2)(X, Y), (float4)(V, -1.0f, -1.0f, -1.0f));
  write_imagef(A, (int2)(X, Y), (float4)(-1.0f, -1.0f, -1.0f, V));
}
)CLC";
  const size_t W = 37, H = 5;
  std::vector<float> In = randomVector<float>(W * H, -70000.0f, 70000.0f, 31);
  std::mt19937 Gen(32);
  for (size_t I = 0; I < In.size(); ++I) {
    float Scale = std::ldexp(1.0f, static_cast<int>(Gen() % 40) - 36);
    switch (I % 4) {
    case 0: // a tie between two halves: 1 + (2k + 1) * 2^-11
      In[I] = std::ldexp(1.0f + (2 * (Gen() % 1024) + 1) / 2048.0f,
                         static_cast<int>(Gen() % 20) - 10);
      break;
    case 1: // anything from the subnormal halves to the normal ones
      In[I] = In[I] / 70000.0f * Scale;
      break;
    default:
      break;
    }
  }
  In[0] = 0.0f;
  In[1] = -0.0f;
  In[2] = 65519.0f; // rounds down to 65504
  In[3] = 65520.0f; // rounds to infinity
  In[5] = 4.0e-08f; // rounds up to the smallest subnormal half
  Program P = E.build(Src);
  Kernel K = E.kernel(P, "writeHalf");
  Mem R = E.image2D({CL_R, CL_HALF_FLOAT}, W, H, CL_MEM_WRITE_ONLY);
  Mem A = E.image2D({CL_A, CL_HALF_FLOAT}, W, H, CL_MEM_WRITE_ONLY);
  Mem Buf = E.input(In);
  setArgs(K, R, A, Buf);
  size_t G[2] = {W, H};
  E.run(K, 2, G, nullptr);
  std::vector<uint16_t> Want(W * H);
  for (size_t I = 0; I < In.size(); ++I)
    Want[I] = halfRoundedBits(In[I]);
  CLT_EXPECT(Want[2] == 0x7bff && Want[3] == 0x7c00 && Want[5] == 1);
  expectEqual(readImage<uint16_t>(E, R, W * H, W, H), Want, "CL_R half");
  expectEqual(readImage<uint16_t>(E, A, W * H, W, H), Want, "CL_A half");
}

/// A format without alpha reads with an alpha of 1, its border colour too
/// (OpenCL C 3.0, 8.3 and 8.2). pocl 3.1's library departs from this: its
/// border colour is (0, 0, 0, 0) for every format and its integer reads of
/// CL_R give an alpha of 0; pocl-iss sets the alpha after each read
/// (iss-missing-alpha, lib/Compiler/Frontend/MissingAlpha.cpp).
CLT_TEST(missingAlphaIsOne) {
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "readR");
  float FPx[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  cl_uchar UPx[4] = {1, 2, 3, 4};
  cl_short IPx[4] = {-5, 6, -7, 8};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = 2;
  D.image_height = 2;
  cl_int Err;
  cl_image_format FF = {CL_R, CL_FLOAT}, UF = {CL_R, CL_UNSIGNED_INT8},
                  IF = {CL_R, CL_SIGNED_INT16};
  Mem F(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &FF, &D,
                      FPx, &Err));
  CL_CHECK(Err);
  Mem U(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &UF, &D,
                      UPx, &Err));
  CL_CHECK(Err);
  Mem I(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &IF, &D,
                      IPx, &Err));
  CL_CHECK(Err);
  Sampler S(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP,
                            CL_FILTER_NEAREST, &Err));
  CL_CHECK(Err);
  Mem OutF = E.output<float>(8), OutU = E.output<cl_uint>(4),
      OutI = E.output<cl_int>(8);
  setArgs(K, F, U, I, S, OutF, OutU, OutI);
  E.run1(K, 1);
  std::vector<float> GotF = E.read<float>(OutF, 8);
  std::vector<cl_uint> GotU = E.read<cl_uint>(OutU, 4);
  std::vector<cl_int> GotI = E.read<cl_int>(OutI, 8);
  std::vector<float> WantF = {0, 0, 0, 1, 0.5f, 0, 0, 1};
  std::vector<cl_uint> WantU = {4, 0, 0, 1};
  std::vector<cl_int> WantI = {-7, 0, 0, 1, 0, 0, 0, 1};
  if (!E.IsPoclIss) { // pocl 3.1's alphas, as above
    WantF[3] = 0;
    WantU[3] = 0;
    WantI[3] = WantI[7] = 0;
  }
  expectEqual(GotF, WantF, "read_imagef of CL_R, border and inside");
  expectEqual(GotU, WantU, "read_imageui of CL_R");
  expectEqual(GotI, WantI, "read_imagei of CL_R, inside and border");
}

CLT_TEST(imageWritesBeforeBarrier) {
  const size_t W = 24, H = 3, L[2] = {8, 1};
  Program P = E.build(Source, "-cl-std=CL3.0");
  Kernel K = E.kernel(P, "shiftThroughBarrier");
  Mem Image = E.image2D({CL_RGBA, CL_FLOAT}, W, H);
  Mem Out = E.output<float>(4 * W * H);
  setArgs(K, Image, Out);
  size_t G[2] = {W, H};
  E.run(K, 2, G, L);
  std::vector<float> Got = E.read<float>(Out, 4 * W * H), Want;
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X) {
      size_t From = X % L[0] + 1 < L[0] ? X + 1 : X;
      Want.insert(Want.end(), {float(From), float(Y), float(From * Y),
                               X % 3 == 0 ? -1.0f : 1.0f});
    }
  expectEqual(Got, Want, "neighbours read after the barrier");
}

CLT_TEST(image1DBuffers) {
  const size_t W = 37;
  std::vector<cl_ushort> Init(4 * W);
  for (size_t I = 0; I < Init.size(); ++I)
    Init[I] = static_cast<cl_ushort>(I * 3 + 1);
  Mem InBuf = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       Init.size() * 2, Init.data());
  Mem OutBuf = E.buffer(CL_MEM_READ_WRITE, Init.size() * 2);
  cl_image_format F = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  D.image_width = W;
  D.buffer = InBuf;
  cl_int Err;
  Mem In(clCreateImage(E.Ctx, CL_MEM_READ_ONLY, &F, &D, nullptr, &Err));
  CL_CHECK(Err);
  D.buffer = OutBuf;
  Mem Out(clCreateImage(E.Ctx, CL_MEM_WRITE_ONLY, &F, &D, nullptr, &Err));
  CL_CHECK(Err);
  Program P = E.build(Source);
  Kernel K = E.kernel(P, "bufferImage");
  setArgs(K, In, Out);
  E.run1(K, W);
  std::vector<cl_ushort> Got = E.read<cl_ushort>(OutBuf, Init.size()),
                         Want(Init.size());
  for (size_t I = 0; I < Init.size(); ++I)
    Want[I] = static_cast<cl_ushort>(Init[I] * 2 + I / 4);
  expectEqual(Got, Want, "1D image buffers through a kernel");
}

/// A program-scope sampler through clCompileProgram and clLinkProgram,
/// reading a 2D array with normalized coordinates and REPEAT: x and y wrap,
/// the layer is rint(1.2) = 1 and not normalized.
CLT_TEST(samplerThroughCompileAndLink) {
  const char *Src = R"CLC(
constant sampler_t S = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |
                       CLK_FILTER_NEAREST;
kernel void k(read_only image2d_array_t I, global float4 *Out) {
  Out[0] = read_imagef(I, S, (float4)(1.25f, -0.75f, 1.2f, 0.0f));
}
)CLC";
  cl_int Err;
  Program P(clCreateProgramWithSource(E.Ctx, 1, &Src, nullptr, &Err));
  CL_CHECK(Err);
  CL_CHECK(clCompileProgram(P, 1, &E.Device, "", 0, nullptr, nullptr, nullptr,
                            nullptr));
  cl_program Compiled = P;
  Program Linked(clLinkProgram(E.Ctx, 1, &E.Device, "", 1, &Compiled, nullptr,
                               nullptr, &Err));
  CL_CHECK(Err);
  Kernel K = E.kernel(Linked, "k");
  cl_image_format F = {CL_RGBA, CL_FLOAT};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  D.image_width = 2;
  D.image_height = 2;
  D.image_array_size = 3;
  std::vector<float> Pixels(4 * 12);
  for (size_t I = 0; I < Pixels.size(); ++I)
    Pixels[I] = float(I);
  Mem Image(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &F,
                          &D, Pixels.data(), &Err));
  CL_CHECK(Err);
  Mem Out = E.output<float>(4);
  setArgs(K, Image, Out);
  E.run1(K, 1);
  // x: frac(1.25) * 2 = 0.5 -> 0; y: frac(-0.75) * 2 = 0.5 -> 0; layer 1:
  // pixel (0, 0, 1), the fifth. pocl 3.1 scales the layer by the array
  // size (3.6, clamped to 2) and reads the ninth.
  float First = E.IsPoclIss ? 16.0f : 32.0f;
  expectEqual(E.read<float>(Out, 4),
              std::vector<float>{First, First + 1, First + 2, First + 3},
              "read through a linked program's sampler");
}

/// Images over the application's memory (CL_MEM_USE_HOST_PTR) aligned to
/// their channels only: read, sampled and written by a kernel. pocl 3.1's
/// library accesses pixels with aligned vector instructions and crashes
/// (SIGSEGV) on these; the case does not run there.
CLT_TEST(unalignedHostImages) {
  if (!E.IsPoclIss)
    CLT_SKIP("pocl 3.1 crashes on images not aligned to their pixels");
  const size_t W = 8, H = 5;
  // One float past a 16-byte boundary: aligned to the channel, not to the
  // pixel.
  std::vector<float> RawIn(4 * W * H + 8), RawOut(4 * W * H + 8, 0.0f);
  float *In = RawIn.data() + 1, *Out = RawOut.data() + 1;
  if (reinterpret_cast<uintptr_t>(In) % 16 == 0) {
    In += 1;
    Out += 1;
  }
  for (size_t I = 0; I < 4 * W * H; ++I)
    In[I] = float(I) / 4.0f;
  Program P = E.build(Source);
  cl_image_format F = {CL_RGBA, CL_FLOAT};
  cl_image_desc D = {};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  cl_int Err;
  Mem InImage(clCreateImage(E.Ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &F,
                            &D, In, &Err));
  CL_CHECK(Err);
  Mem OutImage(clCreateImage(E.Ctx, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, &F,
                             &D, Out, &Err));
  CL_CHECK(Err);
  Kernel Copy = E.kernel(P, "copyf");
  setArgs(Copy, InImage, OutImage);
  size_t G[2] = {W, H};
  E.run(Copy, 2, G, nullptr);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  float *Mapped = static_cast<float *>(
      clEnqueueMapImage(E.Q, OutImage, CL_TRUE, CL_MAP_READ, Origin, Region,
                        &Region[0], nullptr, 0, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  expectEqual(std::vector<float>(Mapped, Mapped + 4 * W * H),
              std::vector<float>(In, In + 4 * W * H), "unaligned copy");
  CL_CHECK(clEnqueueUnmapMemObject(E.Q, OutImage, Mapped, 0, nullptr, nullptr));
  // Linear sampling reads four pixels at a time.
  HostImage Im{CL_MEM_OBJECT_IMAGE2D, W, H, 1,
               std::vector<float>(In, In + 4 * W * H)};
  const SamplerMode M = {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR};
  Sampler S(clCreateSampler(E.Ctx, M.Normalized, M.Address, M.Filter, &Err));
  CL_CHECK(Err);
  std::vector<float> Coords;
  for (size_t I = 0; I < 16; ++I)
    Coords.insert(Coords.end(), {I * 0.55f - 0.3f, I * 0.37f, 0.0f, 0.0f});
  Mem C = E.input(Coords);
  Mem Samples = E.output<float>(4 * 16);
  Kernel K = E.kernel(P, "sample2d");
  setArgs(K, InImage, S, C, Samples);
  E.run1(K, 16);
  std::vector<float> Want;
  for (size_t I = 0; I < 16; ++I) {
    std::array<float, 4> R = sampleRef(Im, M, &Coords[4 * I]);
    Want.insert(Want.end(), R.begin(), R.end());
  }
  expectNear(E.read<float>(Samples, 4 * 16), Want, 1e-5, 1e-4,
             "unaligned linear sampling");
}
