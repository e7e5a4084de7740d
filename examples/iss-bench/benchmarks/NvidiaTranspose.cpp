//===- NvidiaTranspose.cpp - NVIDIA OpenCL SDK oclTranspose ---------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The NVIDIA OpenCL SDK's matrix transpose (oclTranspose, the "transpose"
// kernel through local memory), as the SDK writes it: 16x16 groups over a
// global size rounded up to whole groups; each work-item loads one element
// into a padded local tile under the guard `xIndex + offset < width &&
// yIndex < height`, waits at a barrier, and stores the transposed element
// under `xIndex < height && yIndex + offset < width`, with the group ids
// swapped. The matrix is not a multiple of 16 in either dimension, so the
// last groups of each row and column diverge in the middle of a tile. A
// kernel pocl-iss was not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define BLOCK_DIM 16

__kernel void transpose(__global float *odata, __global float *idata,
                        int offset, int width, int height,
                        __local float *block) {
  // read the matrix tile into shared memory
  unsigned int xIndex = get_global_id(0);
  unsigned int yIndex = get_global_id(1);

  if ((xIndex + offset < width) && (yIndex < height)) {
    unsigned int index_in = yIndex * width + xIndex + offset;
    block[get_local_id(1) * (BLOCK_DIM + 1) + get_local_id(0)] =
        idata[index_in];
  }

  barrier(CLK_LOCAL_MEM_FENCE);

  // write the transposed matrix tile to global memory
  xIndex = get_group_id(1) * BLOCK_DIM + get_local_id(0);
  yIndex = get_group_id(0) * BLOCK_DIM + get_local_id(1);
  if ((xIndex < height) && (yIndex + offset < width)) {
    unsigned int index_out = yIndex * height + xIndex;
    odata[index_out] =
        block[get_local_id(0) * (BLOCK_DIM + 1) + get_local_id(1)];
  }
}
)CLC";

constexpr int BlockDim = 16;

class NvidiaTranspose : public Benchmark {
  int Width = 0, Height = 0, Reps = 0;
  std::vector<float> Want;
  cl_mem DOut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of 16: the guards cut the last groups of each row.
    Width = S == Size::Full ? 3000 : 1500;
    Height = S == Size::Full ? 2002 : 1002;
    Reps = 2;
    auto In = randomVector<float>(size_t(Width) * Height, -1.f, 1.f, 931);
    Want.resize(In.size());
    for (int Y = 0; Y < Height; ++Y)
      for (int X = 0; X < Width; ++X)
        Want[size_t(X) * Height + Y] = In[size_t(Y) * Width + X];
    K = kernel(E, program(E, Source), "transpose");
    cl_mem DIn = buffer(E, In.size() * sizeof(float));
    DOut = buffer(E, In.size() * sizeof(float));
    E.write(DIn, In);
    setArgs(K, DOut, DIn, 0, Width, Height,
            LocalMem{size_t(BlockDim + 1) * BlockDim * sizeof(float)});
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DOut, std::vector<float>(Want.size(), 0.f));
    size_t Local[2] = {BlockDim, BlockDim};
    size_t Global[2] = {roundUp(Width, BlockDim), roundUp(Height, BlockDim)};
    // The SDK times several launches of the same transpose.
    for (int R = 0; R < Reps; ++R)
      E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DOut, Got);
    return compareExact(Got, Want, "transposed");
  }

  std::string describe() const override {
    return std::to_string(Width) + "x" + std::to_string(Height) + ", " +
           std::to_string(Reps) + " launches";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(NvidiaTranspose, "nv-transpose",
                            "NVIDIA OpenCL SDK oclTranspose (unseen)");

} // namespace
} // namespace issbench
