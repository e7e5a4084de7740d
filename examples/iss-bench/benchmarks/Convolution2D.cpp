//===- Convolution2D.cpp - The paper's running example as a benchmark -----===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// AMD APP SDK Convolution2D as printed in the paper (Figure 2), the kernel
// that "can only be beneficially vectorized if both full tile splitting as
// well as memory splitting is performed" (section 6.4). Int image, float
// mask, clamped borders.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"
#include "Convolution2DKernel.h"

using namespace clt;

namespace issbench {
namespace {

class Convolution2D : public Benchmark {
  int Width = 0, Height = 0, MaskSize = 5;
  std::vector<int> Input, Want;
  std::vector<float> Mask;
  cl_mem DIn = nullptr, DMask = nullptr, DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Width = Height = S == Size::Full ? 2048 : 1024;
    size_t N = size_t(Width) * Height;
    Input = randomVector<int>(N, 0, 255, 1);
    Mask = randomVector<float>(size_t(MaskSize) * MaskSize, 0.f,
                               2.f / (MaskSize * MaskSize), 2);
    Want = conv2d::reference(Input, Mask, Width, Height, MaskSize, MaskSize);
    K = kernel(E, program(E, conv2d::Source), "Convolution2D");
    DIn = buffer(E, N * sizeof(int));
    DMask = buffer(E, Mask.size() * sizeof(float));
    DOut = buffer(E, N * sizeof(int));
    E.write(DIn, Input);
    E.write(DMask, Mask);
    setArgs(K, DOut, DIn, DMask, Width, Height, MaskSize, MaskSize);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<int>(size_t(Width) * Height, -1));
    size_t Global[2] = {size_t(Width), size_t(Height)}, Local[2] = {32, 8};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<int> Got(Want.size());
    E.read(DOut, Got);
    std::string First;
    size_t Bad = conv2d::countMismatches(Got, Want, &First, Width);
    return Bad ? std::to_string(Bad) + " pixels differ by more than 1; " + First
               : "";
  }

  std::string describe() const override {
    return std::to_string(Width) + "x" + std::to_string(Height) + " int, " +
           std::to_string(MaskSize) + "x" + std::to_string(MaskSize) + " mask";
  }
};

ISS_BENCHMARK(Convolution2D, "Convolution2D", "AMD APP SDK, paper Figure 2");

} // namespace
} // namespace issbench
