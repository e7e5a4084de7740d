//===- ImageWarp.cpp - Image reads, writes and samplers -------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// A warp of an RGBA image, the way a vision library's remap runs on images:
// each pixel of the output samples the input at a displaced position with
// a bilinear sampler given as an argument (clamp to edge, unnormalized
// coordinates) and writes it with write_imagef, which rounds to 8 bits;
// then a second kernel mirrors the result with integer reads and writes
// of another format (CL_UNSIGNED_INT8). Every image access goes through
// pocl 3.1's kernel library, which switches over the channel order and
// type on each call unless the compile knows them (iss-image-formats). The
// host reference samples as the OpenCL C specification (8.2.1) says.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>
#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
float2 displaced(int x, int y) {
  return (float2)(x + 5.5f * sin(y * 0.031f) + 0.37f,
                  y + 4.25f * cos(x * 0.023f) - 0.41f);
}

__kernel void warp(read_only image2d_t in, sampler_t s,
                   write_only image2d_t out) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(out, (int2)(x, y), read_imagef(in, s, displaced(x, y)));
}

__kernel void mirror(read_only image2d_t in, write_only image2d_t out) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_image_width(in);
  uint4 p = read_imageui(in, (int2)(w - 1 - x, y));
  write_imageui(out, (int2)(x, y), p.zyxw);
}
)CLC";

class ImageWarp : public Benchmark {
  int W = 0, H = 0;
  std::vector<uint8_t> Warped, Mirrored;
  clt::Mem Src, Mid, SrcU, Dst;
  clt::Sampler S;
  cl_kernel Warp = nullptr, Mirror = nullptr;

  clt::Mem image(const Env &E, cl_channel_type T, const void *Pixels) {
    cl_image_format F = {CL_RGBA, T};
    cl_image_desc D = {};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    cl_int Err;
    clt::Mem M(clCreateImage(
        E.Ctx, CL_MEM_READ_WRITE | (Pixels ? CL_MEM_COPY_HOST_PTR : 0), &F, &D,
        const_cast<void *>(Pixels), &Err));
    CL_CHECK(Err);
    return M;
  }

public:
  void setup(const Env &E, Size Sz) override {
    W = Sz == Size::Full ? 1920 : 960;
    H = Sz == Size::Full ? 1080 : 540;
    size_t N = size_t(W) * H * 4;
    auto Ints = randomVector<int>(N, 0, 255, 37);
    std::vector<uint8_t> In(Ints.begin(), Ints.end());
    // The reference, in double: the device's float arithmetic may land
    // next to a half, one step away.
    Warped.assign(N, 0);
    auto Texel = [&](int X, int Y, int C) {
      X = std::clamp(X, 0, W - 1);
      Y = std::clamp(Y, 0, H - 1);
      return In[(size_t(Y) * W + X) * 4 + C] / 255.0;
    };
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        float U = X + 5.5f * std::sin(Y * 0.031f) + 0.37f;
        float V = Y + 4.25f * std::cos(X * 0.023f) - 0.41f;
        double Fu = U - 0.5, Fv = V - 0.5;
        int I0 = int(std::floor(Fu)), J0 = int(std::floor(Fv));
        double A = Fu - I0, B = Fv - J0;
        for (int C = 0; C < 4; ++C) {
          double T = (1 - A) * (1 - B) * Texel(I0, J0, C) +
                     A * (1 - B) * Texel(I0 + 1, J0, C) +
                     (1 - A) * B * Texel(I0, J0 + 1, C) +
                     A * B * Texel(I0 + 1, J0 + 1, C);
          Warped[(size_t(Y) * W + X) * 4 + C] =
              uint8_t(std::clamp(std::nearbyint(T * 255.0), 0.0, 255.0));
        }
      }
    Mirrored.assign(N, 0);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        const uint8_t *P = &In[(size_t(Y) * W + (W - 1 - X)) * 4];
        uint8_t *Q = &Mirrored[(size_t(Y) * W + X) * 4];
        Q[0] = P[2], Q[1] = P[1], Q[2] = P[0], Q[3] = P[3];
      }
    cl_program P = program(E, Source);
    Warp = kernel(E, P, "warp");
    Mirror = kernel(E, P, "mirror");
    Src = image(E, CL_UNORM_INT8, In.data());
    Mid = image(E, CL_UNORM_INT8, nullptr);
    SrcU = image(E, CL_UNSIGNED_INT8, In.data());
    Dst = image(E, CL_UNSIGNED_INT8, nullptr);
    cl_int Err;
    S = clt::Sampler(clCreateSampler(E.Ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE,
                                     CL_FILTER_LINEAR, &Err));
    CL_CHECK(Err);
    setArgs(Warp, Src, S, Mid);
    setArgs(Mirror, SrcU, Dst);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    size_t Global[2] = {size_t(W), size_t(H)};
    E.launch(Warp, 2, Global, nullptr, Events);
    E.launch(Mirror, 2, Global, nullptr, Events);
  }

  std::string verify(const Env &E) override {
    size_t N = size_t(W) * H * 4;
    size_t Origin[3] = {0, 0, 0}, Region[3] = {size_t(W), size_t(H), 1};
    std::vector<uint8_t> Got(N), GotM(N);
    CL_CHECK(clEnqueueReadImage(E.Q, Mid, CL_TRUE, Origin, Region, 0, 0,
                                Got.data(), 0, nullptr, nullptr));
    CL_CHECK(clEnqueueReadImage(E.Q, Dst, CL_TRUE, Origin, Region, 0, 0,
                                GotM.data(), 0, nullptr, nullptr));
    std::string R = compareNear(Got, Warped, 0.0, 1.0, "warp");
    return R.empty() ? compareExact(GotM, Mirrored, "mirror") : R;
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + " RGBA";
  }
};

ISS_BENCHMARK(ImageWarp, "ImageWarp", "image reads, writes and samplers");

} // namespace
} // namespace issbench
