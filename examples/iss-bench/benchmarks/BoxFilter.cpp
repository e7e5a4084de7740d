//===- BoxFilter.cpp - AMD APP SDK BoxFilter (separable) ------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The AMD APP SDK's separable box filter on an RGBA image, as the SDK
// writes its two global-memory kernels: a horizontal then a vertical pass,
// each a 2D NDRange over the whole image whose work-items in the apron
// (k = (filterWidth - 1) / 2 pixels at the left and right, then top and
// bottom) write zero and return early; the others sum filterWidth pixels in
// a loop unrolled by two over a uniform trip count and divide the int4 sum
// by filterWidth. A kernel pocl-iss was not tuned on: an early return
// under the border test, a loop bounded by an argument, and an integer
// division by a uniform vector.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void box_filter_horizontal(__global uchar4 *inputImage,
                                    __global uchar4 *outputImage,
                                    int filterWidth) {
  int x = get_global_id(0);
  int y = get_global_id(1);

  int width = get_global_size(0);
  int height = get_global_size(1);

  int pos = x + y * width;
  int k = (filterWidth - 1) / 2;

  /* Discard pixels in apron */
  if (x < k || x >= (width - k)) {
    outputImage[pos] = (uchar4)(0);
    return;
  }

  int4 size = (int4)(filterWidth);

  int4 sum = 0;
  /* Read values from (filterWidth x filterWidth) sized kernel */
  for (int X = -k; X < k; X = X + 2) {
    sum += convert_int4(inputImage[pos + X]);
    sum += convert_int4(inputImage[pos + X + 1]);
  }
  sum += convert_int4(inputImage[pos + k]);
  outputImage[pos] = convert_uchar4(sum / size);
}

__kernel void box_filter_vertical(__global uchar4 *inputImage,
                                  __global uchar4 *outputImage,
                                  int filterWidth) {
  int x = get_global_id(0);
  int y = get_global_id(1);

  int width = get_global_size(0);
  int height = get_global_size(1);

  int pos = x + y * width;
  int k = (filterWidth - 1) / 2;

  /* Discard pixels in apron */
  if (y < k || y >= (height - k)) {
    outputImage[pos] = (uchar4)(0);
    return;
  }

  int4 size = (int4)(filterWidth);

  int4 sum = 0;
  /* Read values from (filterWidth x filterWidth) sized kernel */
  for (int Y = -k; Y < k; Y = Y + 2) {
    sum += convert_int4(inputImage[pos + Y * width]);
    sum += convert_int4(inputImage[pos + (Y + 1) * width]);
  }
  sum += convert_int4(inputImage[pos + k * width]);
  outputImage[pos] = convert_uchar4(sum / size);
}
)CLC";

class BoxFilter : public Benchmark {
  int W = 0, H = 0, FilterWidth = 0;
  std::vector<uint8_t> Want;
  cl_mem DTmp = nullptr, DOut = nullptr;
  cl_kernel KH = nullptr, KV = nullptr;

public:
  void setup(const Env &E, Size S) override {
    W = S == Size::Full ? 1024 : 512;
    H = W;
    FilterWidth = 7;
    size_t Bytes = size_t(W) * H * 4;
    auto Ints = randomVector<int>(Bytes, 0, 255, 61);
    std::vector<uint8_t> In(Ints.begin(), Ints.end()), Tmp(Bytes, 0);
    Want.assign(Bytes, 0);
    int K = (FilterWidth - 1) / 2;
    for (int Y = 0; Y < H; ++Y)
      for (int X = K; X < W - K; ++X)
        for (int Ch = 0; Ch < 4; ++Ch) {
          int Sum = 0;
          for (int D = -K; D <= K; ++D)
            Sum += In[(size_t(Y) * W + X + D) * 4 + Ch];
          Tmp[(size_t(Y) * W + X) * 4 + Ch] = uint8_t(Sum / FilterWidth);
        }
    for (int Y = K; Y < H - K; ++Y)
      for (int X = 0; X < W; ++X)
        for (int Ch = 0; Ch < 4; ++Ch) {
          int Sum = 0;
          for (int D = -K; D <= K; ++D)
            Sum += Tmp[(size_t(Y + D) * W + X) * 4 + Ch];
          Want[(size_t(Y) * W + X) * 4 + Ch] = uint8_t(Sum / FilterWidth);
        }
    cl_program P = program(E, Source);
    KH = kernel(E, P, "box_filter_horizontal");
    KV = kernel(E, P, "box_filter_vertical");
    cl_mem DIn = buffer(E, Bytes);
    DTmp = buffer(E, Bytes);
    DOut = buffer(E, Bytes);
    E.write(DIn, In);
    setArgs(KH, DIn, DTmp, FilterWidth);
    setArgs(KV, DTmp, DOut, FilterWidth);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    // Poison both outputs: the apron's zeros must come from the kernels.
    std::vector<uint8_t> Poison(size_t(W) * H * 4, 0xAB);
    E.write(DTmp, Poison);
    E.write(DOut, Poison);
    size_t Global[2] = {size_t(W), size_t(H)}, Local[2] = {256, 1};
    E.launch(KH, 2, Global, Local, Events);
    E.launch(KV, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<uint8_t> Got(size_t(W) * H * 4);
    E.read(DOut, Got);
    // Integer sums and divisions: exact.
    return compareExact(Got, Want, "filtered");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + " RGBA, width " +
           std::to_string(FilterWidth);
  }
};

ISS_BENCHMARK(BoxFilter, "BoxFilter",
              "AMD APP SDK BoxFilter (not in the paper)");

} // namespace
} // namespace issbench
