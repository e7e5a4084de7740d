//===- SobelFilter.cpp - AMD APP SDK SobelFilter --------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The AMD APP SDK's Sobel edge filter on an RGBA image, as the SDK writes
// it: a 2D NDRange over the whole image, whose work-items skip the one-pixel
// border with a test on the ids against the global sizes. A kernel
// pocl-iss was not tuned on: the border test diverges only on the tiles at
// the image's left and right edges (and whole rows at the top and bottom),
// which input space splitting separates from the interior. The only change
// from the SDK is convert_uchar4_sat for the result (the SDK's plain
// conversion is undefined above 255, where implementations differ).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void sobel_filter(__global uchar4 *inputImage,
                           __global uchar4 *outputImage) {
  uint x = get_global_id(0);
  uint y = get_global_id(1);
  uint width = get_global_size(0);
  uint height = get_global_size(1);
  float4 Gx = (float4)(0);
  float4 Gy = Gx;
  int c = x + y * width;
  if (x >= 1 && x < (width - 1) && y >= 1 && y < height - 1) {
    float4 i00 = convert_float4(inputImage[c - 1 - width]);
    float4 i10 = convert_float4(inputImage[c - width]);
    float4 i20 = convert_float4(inputImage[c + 1 - width]);
    float4 i01 = convert_float4(inputImage[c - 1]);
    float4 i11 = convert_float4(inputImage[c]);
    float4 i21 = convert_float4(inputImage[c + 1]);
    float4 i02 = convert_float4(inputImage[c - 1 + width]);
    float4 i12 = convert_float4(inputImage[c + width]);
    float4 i22 = convert_float4(inputImage[c + 1 + width]);
    Gx = i00 + (float4)(2) * i10 + i20 - i02 - (float4)(2) * i12 - i22;
    Gy = i00 - i20 + (float4)(2) * i01 - (float4)(2) * i21 + i02 - i22;
    outputImage[c] = convert_uchar4_sat(hypot(Gx, Gy) / (float4)(2));
  }
}
)CLC";

class SobelFilter : public Benchmark {
  int W = 0, H = 0;
  std::vector<uint8_t> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    W = S == Size::Full ? 2048 : 1024;
    H = W;
    size_t Bytes = size_t(W) * H * 4;
    auto Ints = randomVector<int>(Bytes, 0, 255, 31);
    std::vector<uint8_t> In(Ints.begin(), Ints.end());
    Want.assign(Bytes, 0);
    auto At = [&](int X, int Y, int Ch) {
      return float(In[(size_t(Y) * W + X) * 4 + Ch]);
    };
    for (int Y = 1; Y < H - 1; ++Y)
      for (int X = 1; X < W - 1; ++X)
        for (int Ch = 0; Ch < 4; ++Ch) {
          float Gx = At(X - 1, Y - 1, Ch) + 2 * At(X, Y - 1, Ch) +
                     At(X + 1, Y - 1, Ch) - At(X - 1, Y + 1, Ch) -
                     2 * At(X, Y + 1, Ch) - At(X + 1, Y + 1, Ch);
          float Gy = At(X - 1, Y - 1, Ch) - At(X + 1, Y - 1, Ch) +
                     2 * At(X - 1, Y, Ch) - 2 * At(X + 1, Y, Ch) +
                     At(X - 1, Y + 1, Ch) - At(X + 1, Y + 1, Ch);
          float V = std::hypot(Gx, Gy) / 2;
          Want[(size_t(Y) * W + X) * 4 + Ch] =
              uint8_t(std::min(255.0f, std::max(0.0f, std::rint(V))));
        }
    K = kernel(E, program(E, Source), "sobel_filter");
    cl_mem DIn = buffer(E, Bytes);
    DOut = buffer(E, Bytes);
    E.write(DIn, In);
    setArgs(K, DIn, DOut);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<uint8_t>(size_t(W) * H * 4, 0));
    size_t Global[2] = {size_t(W), size_t(H)}, Local[2] = {64, 4};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<uint8_t> Got(size_t(W) * H * 4);
    E.read(DOut, Got);
    // hypot and the rounding of the conversion may differ by one step.
    return compareNear(Got, Want, 0.0, 1.0, "edges");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + " RGBA";
  }
};

ISS_BENCHMARK(SobelFilter, "SobelFilter", "AMD APP SDK (not in the paper)");

} // namespace
} // namespace issbench
