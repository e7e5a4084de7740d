//===- RodiniaBackprop.cpp - Rodinia backprop -----------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's backprop (OpenCL), its two kernels as the suite writes them, in
// 16x16 groups stacked along the second dimension over the input layer.
// bpnn_layerforward_ocl loads a node per row (`tx == 0`, one lane), weighs
// the block of weights in local memory and sums its columns by a tree
// reduction over the rows (`ty % power_two == 0`, starting with the suite's
// power_two = 1 step, which doubles every element), with barriers between
// the steps; it writes the block back into the weights, as the suite does,
// and one lane per row (`tx == 0`) stores the partial sums.
// bpnn_adjust_weights_ocl updates the weights and their previous values;
// after a barrier the first row of the first group (`ty == 0 && by == 0`)
// also updates the bias weights. The host's step between them (hidden and
// output layers, the deltas) is taken as a fixed delta vector. A kernel
// pocl-iss was not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define HEIGHT 16
#define WIDTH 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__kernel void bpnn_layerforward_ocl(__global float *input_cuda,
                                    __global float *output_hidden_cuda,
                                    __global float *input_hidden_cuda,
                                    __global float *hidden_partial_sum,
                                    __local float *input_node,
                                    __local float *weight_matrix, int in,
                                    int hid) {
  int by = get_group_id(1);
  int tx = get_local_id(0);
  int ty = get_local_id(1);

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);

  int index_in = HEIGHT * by + ty + 1;

  if (tx == 0)
    input_node[ty] = input_cuda[index_in];
  barrier(CLK_LOCAL_MEM_FENCE);

  weight_matrix[ty * WIDTH + tx] = input_hidden_cuda[index];
  barrier(CLK_LOCAL_MEM_FENCE);

  weight_matrix[ty * WIDTH + tx] =
      weight_matrix[ty * WIDTH + tx] * input_node[ty];
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int i = 1; i <= HEIGHT; i = i * 2) {
    int power_two = i;

    if (ty % power_two == 0)
      weight_matrix[ty * WIDTH + tx] =
          weight_matrix[ty * WIDTH + tx] +
          weight_matrix[(ty + power_two / 2) * WIDTH + tx];

    barrier(CLK_LOCAL_MEM_FENCE);
  }

  input_hidden_cuda[index] = weight_matrix[ty * WIDTH + tx];

  barrier(CLK_LOCAL_MEM_FENCE);

  if (tx == 0) {
    hidden_partial_sum[by * hid + ty] = weight_matrix[tx * WIDTH + ty];
  }
}

__kernel void bpnn_adjust_weights_ocl(__global float *delta, int hid,
                                      __global float *ly, int in,
                                      __global float *w,
                                      __global float *oldw) {
  int by = get_group_id(1);
  int tx = get_local_id(0);
  int ty = get_local_id(1);

  int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  int index_y = HEIGHT * by + ty + 1;
  int index_x = tx + 1;

  w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
  oldw[index] =
      ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));

  barrier(CLK_LOCAL_MEM_FENCE);

  if (ty == 0 && by == 0) {
    w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
    oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
  }
}
)CLC";

constexpr int Hid = 16, Height = 16;
constexpr float Eta = 0.3f, Momentum = 0.3f;

class RodiniaBackprop : public Benchmark {
  int In = 0, Blocks = 0;
  std::vector<float> W0, OldW0, WantPartial, WantW, WantOldW;
  cl_mem DW = nullptr, DOldW = nullptr, DPartial = nullptr;
  cl_kernel KF = nullptr, KA = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Rodinia's layer size is a multiple of 16; its default is 65536.
    In = S == Size::Full ? (1 << 18) : (1 << 16);
    Blocks = In / Height;
    const int Row = Hid + 1;
    auto Input = randomVector<float>(size_t(In) + 1, 0.f, 1.f, 971);
    W0 = randomVector<float>(size_t(In + 1) * Row, -1.f, 1.f, 972);
    OldW0 = randomVector<float>(size_t(In + 1) * Row, -0.1f, 0.1f, 973);
    auto Delta = randomVector<float>(Row, -0.5f, 0.5f, 974);

    // layerforward, one column of a block at a time, as its lanes run.
    WantW = W0;
    WantPartial.assign(size_t(Blocks) * Hid, 0.f);
    for (int By = 0; By < Blocks; ++By)
      for (int Tx = 0; Tx < Hid; ++Tx) {
        float M[Height];
        for (int Ty = 0; Ty < Height; ++Ty)
          M[Ty] = W0[size_t(Row) * (Height * By + Ty + 1) + Tx + 1] *
                  Input[size_t(Height) * By + Ty + 1];
        for (int P = 1; P <= Height; P *= 2)
          for (int Ty = 0; Ty < Height; Ty += P)
            M[Ty] = M[Ty] + M[Ty + P / 2];
        for (int Ty = 0; Ty < Height; ++Ty)
          WantW[size_t(Row) * (Height * By + Ty + 1) + Tx + 1] = M[Ty];
        WantPartial[size_t(By) * Hid + Tx] = M[0];
      }
    // adjust_weights on the weights layerforward wrote back.
    WantOldW = OldW0;
    for (int By = 0; By < Blocks; ++By)
      for (int Ty = 0; Ty < Height; ++Ty)
        for (int Tx = 0; Tx < Hid; ++Tx) {
          size_t At = size_t(Row) * (Height * By + Ty + 1) + Tx + 1;
          float New =
              Eta * Delta[Tx + 1] * Input[size_t(Height) * By + Ty + 1] +
              Momentum * OldW0[At];
          WantW[At] += New;
          WantOldW[At] = New;
        }
    for (int Tx = 0; Tx < Hid; ++Tx) {
      float New = Eta * Delta[Tx + 1] + Momentum * OldW0[Tx + 1];
      WantW[Tx + 1] += New;
      WantOldW[Tx + 1] = New;
    }

    cl_program P = program(E, Source);
    KF = kernel(E, P, "bpnn_layerforward_ocl");
    KA = kernel(E, P, "bpnn_adjust_weights_ocl");
    cl_mem DInput = buffer(E, Input.size() * sizeof(float));
    cl_mem DHidden = buffer(E, size_t(Row) * sizeof(float));
    cl_mem DDelta = buffer(E, Delta.size() * sizeof(float));
    DW = buffer(E, W0.size() * sizeof(float));
    DOldW = buffer(E, OldW0.size() * sizeof(float));
    DPartial = buffer(E, WantPartial.size() * sizeof(float));
    E.write(DInput, Input);
    E.write(DDelta, Delta);
    setArgs(KF, DInput, DHidden, DW, DPartial,
            LocalMem{size_t(Height) * sizeof(float)},
            LocalMem{size_t(Height) * Hid * sizeof(float)}, In, Hid);
    setArgs(KA, DDelta, Hid, DInput, In, DW, DOldW);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DW, W0);
    E.write(DOldW, OldW0);
    E.write(DPartial, std::vector<float>(WantPartial.size(), 0.f));
    size_t Local[2] = {Hid, Height};
    size_t Global[2] = {Hid, size_t(Height) * Blocks};
    E.launch(KF, 2, Global, Local, Events);
    E.launch(KA, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Partial(WantPartial.size()), W(WantW.size()),
        OldW(WantOldW.size());
    E.read(DPartial, Partial);
    E.read(DW, W);
    E.read(DOldW, OldW);
    // The device may contract a * b + c into one fma.
    std::string Msg = compareNear(Partial, WantPartial, 1e-5, 1e-5, "partial");
    if (Msg.empty())
      Msg = compareNear(W, WantW, 1e-5, 1e-5, "w");
    if (Msg.empty())
      Msg = compareNear(OldW, WantOldW, 1e-5, 1e-5, "oldw");
    return Msg;
  }

  std::string describe() const override {
    return std::to_string(In) + " inputs, " + std::to_string(Hid) +
           " hidden, 2 kernels";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(RodiniaBackprop, "rd-backprop",
                            "Rodinia backprop (unseen)");

} // namespace
} // namespace issbench
