//===- FloatStencil.cpp - A clamped float stencil with computed weights ---===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Convolution2D's shape (a 2D NDRange, the window's coordinates clamped to
// the image with clamp(x + dx, 0, W - 1) and clamp(y + dy, 0, H - 1), 32x8
// groups) on a float image, with a weight the kernel computes from the
// window offset, w = 1 / (1 + dx^2 + dy^2), instead of reading a mask: the
// weight is the same on every work-item (uniform) but changes with each tap,
// and the radius is an argument, so the window loops keep their trip count
// at run time.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void floatStencil(__global const float *in, __global float *out,
                           int width, int height, int radius) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  float sum = 0.0f;
  for (int dy = -radius; dy <= radius; ++dy) {
    int yy = clamp(y + dy, 0, height - 1);
    for (int dx = -radius; dx <= radius; ++dx) {
      int xx = clamp(x + dx, 0, width - 1);
      float w = 1.0f / (float)(1 + dx * dx + dy * dy);
      sum += w * in[yy * width + xx];
    }
  }
  out[y * width + x] = sum;
}
)CLC";

class FloatStencil : public Benchmark {
  int W = 0, H = 0, Radius = 2;
  std::vector<double> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    W = H = S == Size::Full ? 1024 : 512;
    auto In = randomVector<float>(size_t(W) * H, 0.f, 1.f, 81);
    Want.assign(In.size(), 0.0);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X) {
        double Sum = 0;
        for (int Dy = -Radius; Dy <= Radius; ++Dy)
          for (int Dx = -Radius; Dx <= Radius; ++Dx) {
            int Yy = std::min(std::max(Y + Dy, 0), H - 1);
            int Xx = std::min(std::max(X + Dx, 0), W - 1);
            Sum += In[size_t(Yy) * W + Xx] / double(1 + Dx * Dx + Dy * Dy);
          }
        Want[size_t(Y) * W + X] = Sum;
      }
    K = kernel(E, program(E, Source), "floatStencil");
    cl_mem DIn = buffer(E, In.size() * sizeof(float));
    DOut = buffer(E, In.size() * sizeof(float));
    E.write(DIn, In);
    setArgs(K, DIn, DOut, W, H, Radius);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<float>(Want.size(), -1.f));
    size_t Global[2] = {size_t(W), size_t(H)}, Local[2] = {32, 8};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DOut, Got);
    // 25 float products summed in order, against double.
    return compareNear(Got, Want, 1e-4, 1e-5, "stencil");
  }

  std::string describe() const override {
    return std::to_string(W) + "x" + std::to_string(H) + " float, radius " +
           std::to_string(Radius);
  }
};

ISS_BENCHMARK(FloatStencil, "float-stencil",
              "pocl-iss: clamped window, computed weights");

} // namespace
} // namespace issbench
