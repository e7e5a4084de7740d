//===- SimpleConvolution.cpp - AMD APP SDK SimpleConvolution --------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The AMD APP SDK's SimpleConvolution (3.0), non-separable and separable, in
// the SDK's form: a 1D NDRange over the pixels in 256-work-item groups, each
// work-item finding its pixel by `x = tid % width`, `y = tid / width` (32-bit
// unsigned), returning early when it lies past the image (the global size
// is rounded up to whole groups), and reading an input the host has padded
// with zeros by the mask's size less one, so the window always fits and
// there is no border test in the loop; float weights times uint pixels,
// rounded to int. The separable form runs a row pass over the padded rows,
// which stores its sums transposed (the work-items' stores are strided by
// the padded height), then a column pass, linearized over the transposed
// image, that reads rows of it and stores transposed back. The image sizes
// are not multiples of 256: the early return cuts the last group.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void simpleNonSeparableConvolution(__global uint *input,
                                            __global float *mask,
                                            __global int *output,
                                            const uint2 inputDimensions,
                                            const uint2 maskDimensions,
                                            const uint nExWidth) {
  uint tid = get_global_id(0);
  uint width = inputDimensions.x;
  uint height = inputDimensions.y;
  uint x = tid % width;
  uint y = tid / width;
  uint maskWidth = maskDimensions.x;
  uint maskHeight = maskDimensions.y;

  if (x >= width || y >= height)
    return;

  float sumFX = 0.0f;
  int m = 0, n = 0;
  for (uint j = y; j < y + maskHeight; ++j, ++m) {
    n = 0;
    for (uint i = x; i < x + maskWidth; ++i, ++n) {
      uint maskIndex = m * maskWidth + n;
      uint index = j * nExWidth + i;
      sumFX += (float)input[index] * mask[maskIndex];
    }
  }
  sumFX += 0.5f;
  output[tid] = (int)sumFX;
}

// Rows: over the padded height, the sum stored transposed.
__kernel void simpleSeparableConvolutionPass1(__global uint *input,
                                              __global float *rowFilter,
                                              __global float *tmpOutput,
                                              const uint2 inputDimensions,
                                              const uint filterSize,
                                              const uint2 exInputDimensions) {
  uint width = inputDimensions.x;
  uint height = inputDimensions.y;
  uint tid = get_global_id(0);
  uint x = tid % width;
  uint y = tid / width;

  if (x >= width || y >= height + filterSize - 1)
    return;

  float sum = 0.0f;
  int cnt = 0;
  for (uint i = x; i < x + filterSize; ++i)
    sum = mad((float)input[y * exInputDimensions.x + i], rowFilter[cnt++],
              sum);
  tmpOutput[x * exInputDimensions.y + y] = sum;
}

// Columns: rows of the transposed sums, stored transposed back.
__kernel void simpleSeparableConvolutionPass2(__global float *input,
                                              __global float *colFilter,
                                              __global int *output,
                                              const uint2 inputDimensions,
                                              const uint filterSize,
                                              const uint2 exInputDimensions) {
  uint width = inputDimensions.x;
  uint height = inputDimensions.y;
  uint tid = get_global_id(0);
  uint x = tid % height;
  uint y = tid / height;

  if (y >= width || x >= height)
    return;

  float sum = 0.0f;
  int cnt = 0;
  for (uint i = x; i < x + filterSize; ++i)
    sum = mad(input[y * exInputDimensions.y + i], colFilter[cnt++], sum);
  sum += 0.5f;
  output[x * width + y] = (int)sum;
}
)CLC";

/// The image, its zero-padded copy and the filters both forms share; the
/// 2D mask is the outer product of the column and row filters.
struct ConvolutionData {
  unsigned W = 0, H = 0, MaskW = 5, MaskH = 5, ExW = 0, ExH = 0;
  std::vector<cl_uint> Padded;
  std::vector<float> Row, Col, Mask;

  void make(Size S) {
    // Not multiples of 256 (nor is the padded height times W).
    W = S == Size::Full ? 2000 : 400;
    H = S == Size::Full ? 1999 : 399;
    ExW = W + MaskW - 1;
    ExH = H + MaskH - 1;
    auto In = randomVector<int>(size_t(W) * H, 0, 255, 71);
    Padded.assign(size_t(ExW) * ExH, 0);
    for (unsigned Y = 0; Y < H; ++Y)
      for (unsigned X = 0; X < W; ++X)
        Padded[size_t(Y + MaskH / 2) * ExW + X + MaskW / 2] =
            cl_uint(In[size_t(Y) * W + X]);
    Row = randomVector<float>(MaskW, 0.05f, 0.35f, 72);
    Col = randomVector<float>(MaskH, 0.05f, 0.35f, 73);
    Mask.resize(size_t(MaskW) * MaskH);
    for (unsigned M = 0; M < MaskH; ++M)
      for (unsigned N = 0; N < MaskW; ++N)
        Mask[size_t(M) * MaskW + N] = Col[M] * Row[N];
  }

  /// The weighted sum at (X, Y) plus one half, in double.
  double sum(unsigned X, unsigned Y) const {
    double S = 0;
    for (unsigned M = 0; M < MaskH; ++M)
      for (unsigned N = 0; N < MaskW; ++N)
        S += double(Padded[size_t(Y + M) * ExW + X + N]) *
             Mask[size_t(M) * MaskW + N];
    return S + 0.5;
  }

  std::vector<double> reference() const {
    std::vector<double> Want(size_t(W) * H);
    for (unsigned Y = 0; Y < H; ++Y)
      for (unsigned X = 0; X < W; ++X)
        Want[size_t(Y) * W + X] = sum(X, Y);
    return Want;
  }

  /// "" if every pixel is the truncation of its exact sum, give or take
  /// one where float rounding may cross an integer.
  std::string verify(const std::vector<cl_int> &Got,
                     const std::vector<double> &Want) const {
    size_t Bad = 0;
    std::string Msg;
    for (size_t I = 0; I < Got.size(); ++I) {
      double Lo = std::floor(Want[I] - 1e-3), Hi = std::floor(Want[I] + 1e-3);
      if (Got[I] >= Lo && Got[I] <= Hi)
        continue;
      if (++Bad <= 3)
        Msg += " [" + std::to_string(I) + "] got " + std::to_string(Got[I]) +
               " want " + std::to_string(Want[I]) + ";";
    }
    return Bad ? "output: " + std::to_string(Bad) + " of " +
                     std::to_string(Got.size()) + " differ:" + Msg
               : "";
  }

  std::string describe(const char *Form) const {
    return std::to_string(W) + "x" + std::to_string(H) + " uint, " +
           std::to_string(MaskW) + "x" + std::to_string(MaskH) + " mask, " +
           Form;
  }
};

class SimpleConvolution : public Benchmark {
  ConvolutionData D;
  std::vector<double> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    D.make(S);
    Want = D.reference();
    K = kernel(E, program(E, Source), "simpleNonSeparableConvolution");
    cl_mem DIn = buffer(E, D.Padded.size() * sizeof(cl_uint));
    cl_mem DMask = buffer(E, D.Mask.size() * sizeof(float));
    DOut = buffer(E, Want.size() * sizeof(cl_int));
    E.write(DIn, D.Padded);
    E.write(DMask, D.Mask);
    cl_uint2 Dims = {{D.W, D.H}}, MaskDims = {{D.MaskW, D.MaskH}};
    setArgs(K, DIn, DMask, DOut, Dims, MaskDims, cl_uint(D.ExW));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<cl_int>(Want.size(), -1));
    size_t Local = 256, Global = roundUp(Want.size(), Local);
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<cl_int> Got(Want.size());
    E.read(DOut, Got);
    return D.verify(Got, Want);
  }

  std::string describe() const override { return D.describe("non-separable"); }
};

class SimpleConvolutionSeparable : public Benchmark {
  ConvolutionData D;
  std::vector<double> Want;
  cl_mem DTmp = nullptr, DOut = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    D.make(S);
    Want = D.reference();
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "simpleSeparableConvolutionPass1");
    K2 = kernel(E, P, "simpleSeparableConvolutionPass2");
    cl_mem DIn = buffer(E, D.Padded.size() * sizeof(cl_uint));
    cl_mem DRow = buffer(E, D.Row.size() * sizeof(float));
    cl_mem DCol = buffer(E, D.Col.size() * sizeof(float));
    DTmp = buffer(E, size_t(D.W) * D.ExH * sizeof(float));
    DOut = buffer(E, Want.size() * sizeof(cl_int));
    E.write(DIn, D.Padded);
    E.write(DRow, D.Row);
    E.write(DCol, D.Col);
    cl_uint2 Dims = {{D.W, D.H}}, ExDims = {{D.ExW, D.ExH}};
    setArgs(K1, DIn, DRow, DTmp, Dims, cl_uint(D.MaskW), ExDims);
    setArgs(K2, DTmp, DCol, DOut, Dims, cl_uint(D.MaskH), ExDims);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DTmp, std::vector<float>(size_t(D.W) * D.ExH, -1.f));
    E.write(DOut, std::vector<cl_int>(Want.size(), -1));
    size_t Local = 256;
    size_t Global1 = roundUp(size_t(D.W) * D.ExH, Local);
    size_t Global2 = roundUp(Want.size(), Local);
    E.launch(K1, 1, &Global1, &Local, Events);
    E.launch(K2, 1, &Global2, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<cl_int> Got(Want.size());
    E.read(DOut, Got);
    return D.verify(Got, Want);
  }

  std::string describe() const override {
    return D.describe("separable, 2 passes");
  }
};

ISS_BENCHMARK(SimpleConvolution, "SimpleConvolution",
              "AMD APP SDK SimpleConvolution (unseen)");
ISS_BENCHMARK(SimpleConvolutionSeparable, "SimpleConvolution-sep",
              "AMD APP SDK SimpleConvolution, separable");

} // namespace
} // namespace issbench
