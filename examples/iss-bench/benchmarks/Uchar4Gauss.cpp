//===- Uchar4Gauss.cpp - A 3x3 Gaussian blur on RGBA8 pixels --------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// A 3x3 Gaussian blur (weights 1 2 1 / 2 4 2 / 1 2 1, over 16) on 4-channel
// 8-bit pixels the way an image library's OpenCL path writes it: a
// `__global uchar4 *` image, each pixel widened with convert_float4,
// weighted in float4 and narrowed with convert_uchar4_sat; the border
// replicated by clamping the neighbours' coordinates; a 2D NDRange in 16x16
// groups over a global size rounded up to whole groups, the work-items past
// the image returning early. The sums are multiples of 1/16 below 256,
// exact in float in any order: the result is checked exactly.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>
#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void gaussian3x3(__global const uchar4 *src, __global uchar4 *dst,
                          int width, int height) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  if (x >= width || y >= height)
    return;

  int x0 = max(x - 1, 0), x2 = min(x + 1, width - 1);
  int y0 = max(y - 1, 0), y2 = min(y + 1, height - 1);
  __global const uchar4 *r0 = src + y0 * width;
  __global const uchar4 *r1 = src + y * width;
  __global const uchar4 *r2 = src + y2 * width;

  float4 corners = convert_float4(r0[x0]) + convert_float4(r0[x2]) +
                   convert_float4(r2[x0]) + convert_float4(r2[x2]);
  float4 edges = convert_float4(r0[x]) + convert_float4(r1[x0]) +
                 convert_float4(r1[x2]) + convert_float4(r2[x]);
  float4 sum = corners * 0.0625f + edges * 0.125f +
               convert_float4(r1[x]) * 0.25f;
  dst[y * width + x] = convert_uchar4_sat(sum + 0.5f);
}
)CLC";

class Uchar4Gauss : public Benchmark {
  int W = 0, H = 0;
  std::vector<uint8_t> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Heights not multiples of 16: the early return cuts the last groups.
    W = S == Size::Full ? 3840 : 1280;
    H = S == Size::Full ? 2160 - 8 : 720 - 8;
    size_t Bytes = size_t(W) * H * 4;
    auto Ints = randomVector<int>(Bytes, 0, 255, 121);
    std::vector<uint8_t> In(Ints.begin(), Ints.end());
    Want.assign(Bytes, 0);
    auto At = [&](int X, int Y, int Ch) {
      X = std::min(std::max(X, 0), W - 1);
      Y = std::min(std::max(Y, 0), H - 1);
      return int(In[(size_t(Y) * W + X) * 4 + Ch]);
    };
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        for (int Ch = 0; Ch < 4; ++Ch) {
          int Sum16 = 0;
          for (int Dy = -1; Dy <= 1; ++Dy)
            for (int Dx = -1; Dx <= 1; ++Dx)
              Sum16 += (2 - std::abs(Dx)) * (2 - std::abs(Dy)) *
                       At(X + Dx, Y + Dy, Ch);
          // (int)(Sum16 / 16 + 0.5), saturated (it never exceeds 255).
          Want[(size_t(Y) * W + X) * 4 + Ch] = uint8_t((Sum16 + 8) / 16);
        }
    K = kernel(E, program(E, Source), "gaussian3x3");
    cl_mem DIn = buffer(E, Bytes);
    DOut = buffer(E, Bytes);
    E.write(DIn, In);
    setArgs(K, DIn, DOut, W, H);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<uint8_t>(Want.size(), 0xAB));
    size_t Local[2] = {16, 16};
    size_t Global[2] = {roundUp(W, Local[0]), roundUp(H, Local[1])};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<uint8_t> Got(Want.size());
    E.read(DOut, Got);
    return compareExact(Got, Want, "blurred");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + " RGBA8, 3x3";
  }
};

ISS_BENCHMARK(Uchar4Gauss, "uchar4-gauss",
              "image library: 3x3 Gaussian on uchar4 pixels");

} // namespace
} // namespace issbench
