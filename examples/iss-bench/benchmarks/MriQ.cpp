//===- MriQ.cpp - Parboil mri-q: ComputePhiMag and ComputeQ ---------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Parboil's MRI reconstruction kernels (section 6.2). ComputePhiMag is a
// guarded element-wise kernel (one consecutive codelet, Table 3);
// ComputeQ loops uniformly over k-space samples held in __constant memory
// (uniform reads) with sin/cos per sample, processed in chunks of
// KERNEL_Q_K_ELEMS_PER_GRID launches as in Parboil.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define PIx2 6.2831853071795864769252867665590058f
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

__kernel void ComputePhiMag_GPU(__global float *phiR, __global float *phiI,
                                __global float *phiMag, int numK) {
  int indexK = get_global_id(0);
  if (indexK < numK) {
    float real = phiR[indexK];
    float imag = phiI[indexK];
    phiMag[indexK] = real * real + imag * imag;
  }
}

__kernel void ComputeQ_GPU(int numK, int kGlobalIndex, __global float *x,
                           __global float *y, __global float *z,
                           __global float *Qr, __global float *Qi,
                           __constant struct kValues *ck) {
  int xIndex = get_global_id(0);
  float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
  float sQr = Qr[xIndex], sQi = Qi[xIndex];
  for (int kIndex = 0; kIndex < KERNEL_Q_K_ELEMS_PER_GRID && kGlobalIndex < numK;
       kIndex++, kGlobalIndex++) {
    float expArg = PIx2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY +
                           ck[kIndex].Kz * sZ);
    sQr += ck[kIndex].PhiMag * cos(expArg);
    sQi += ck[kIndex].PhiMag * sin(expArg);
  }
  Qr[xIndex] = sQr;
  Qi[xIndex] = sQi;
}
)CLC";

class PhiMag : public Benchmark {
  int NumK = 0;
  std::vector<float> Want;
  cl_mem DMag = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    NumK = S == Size::Full ? (1 << 22) + 5 : (1 << 20) + 5;
    auto R = randomVector<float>(NumK, -1.f, 1.f, 15);
    auto I = randomVector<float>(NumK, -1.f, 1.f, 16);
    Want.resize(NumK);
    for (int J = 0; J < NumK; ++J)
      Want[J] = R[J] * R[J] + I[J] * I[J];
    K = kernel(E, program(E, Source), "ComputePhiMag_GPU");
    cl_mem DR = buffer(E, NumK * sizeof(float)),
           DI = buffer(E, NumK * sizeof(float));
    DMag = buffer(E, NumK * sizeof(float));
    E.write(DR, R);
    E.write(DI, I);
    setArgs(K, DR, DI, DMag, NumK);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DMag, std::vector<float>(NumK, -1.f));
    size_t Local = 512, Global = roundUp(NumK, Local);
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(NumK);
    E.read(DMag, Got);
    return compareNear(Got, Want, 1e-6, 1e-7, "phiMag");
  }

  std::string describe() const override {
    return std::to_string(NumK) + " samples";
  }
};

class ComputeQ : public Benchmark {
  static constexpr int Chunk = 1024; // KERNEL_Q_K_ELEMS_PER_GRID
  int NumX = 0, NumK = 0;
  std::vector<float> KVals; // Kx, Ky, Kz, PhiMag per sample
  std::vector<double> WantR, WantI;
  double Scale = 0;
  cl_mem DQr = nullptr, DQi = nullptr, DX = nullptr, DY = nullptr, DZ = nullptr;
  std::vector<cl_mem> DChunks;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    NumX = S == Size::Full ? 8192 : 2048;
    NumK = S == Size::Full ? 1024 : 256;
    auto X = randomVector<float>(NumX, -0.5f, 0.5f, 17);
    auto Y = randomVector<float>(NumX, -0.5f, 0.5f, 18);
    auto Z = randomVector<float>(NumX, -0.5f, 0.5f, 19);
    KVals = randomVector<float>(4 * size_t(NumK), -1.f, 1.f, 20);
    for (int J = 0; J < NumK; ++J)
      KVals[4 * J + 3] = std::fabs(KVals[4 * J + 3]);
    WantR.assign(NumX, 0);
    WantI.assign(NumX, 0);
    for (int I = 0; I < NumX; ++I)
      for (int J = 0; J < NumK; ++J) {
        const float *Kv = &KVals[4 * J];
        double Arg = 2 * M_PI *
                     (double(Kv[0]) * X[I] + double(Kv[1]) * Y[I] +
                      double(Kv[2]) * Z[I]);
        WantR[I] += Kv[3] * std::cos(Arg);
        WantI[I] += Kv[3] * std::sin(Arg);
      }
    Scale = 0;
    for (int J = 0; J < NumK; ++J)
      Scale += KVals[4 * J + 3];
    K = kernel(E, program(E, Source), "ComputeQ_GPU");
    DX = buffer(E, NumX * sizeof(float));
    DY = buffer(E, NumX * sizeof(float));
    DZ = buffer(E, NumX * sizeof(float));
    DQr = buffer(E, NumX * sizeof(float));
    DQi = buffer(E, NumX * sizeof(float));
    E.write(DX, X);
    E.write(DY, Y);
    E.write(DZ, Z);
    for (int Base = 0; Base < NumK; Base += Chunk) {
      int Len = std::min(Chunk, NumK - Base);
      std::vector<float> Part(KVals.begin() + 4 * Base,
                              KVals.begin() + 4 * (Base + Len));
      cl_mem M = buffer(E, Part.size() * sizeof(float));
      E.write(M, Part);
      DChunks.push_back(M);
    }
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DQr, std::vector<float>(NumX, 0.f));
    E.write(DQi, std::vector<float>(NumX, 0.f));
    size_t Local = 256, Global = NumX;
    for (size_t C = 0; C < DChunks.size(); ++C) {
      int Base = int(C) * Chunk;
      setArgs(K, NumK, Base, DX, DY, DZ, DQr, DQi, DChunks[C]);
      E.launch(K, 1, &Global, &Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> R(NumX), I(NumX);
    E.read(DQr, R);
    E.read(DQi, I);
    // Sums of NumK terms bounded by sum |PhiMag|: the float error scales
    // with that bound, not with the (possibly cancelling) result.
    double Abs = 2e-5 * Scale;
    std::string Msg = compareNear(R, WantR, 0.0, Abs, "Qr");
    return Msg.empty() ? compareNear(I, WantI, 0.0, Abs, "Qi") : Msg;
  }

  std::string describe() const override {
    return std::to_string(NumX) + " voxels x " + std::to_string(NumK) +
           " samples";
  }
};

ISS_BENCHMARK(PhiMag, "mri-q-phimag", "Parboil mri-q ComputePhiMag");
ISS_BENCHMARK(ComputeQ, "mri-q-q", "Parboil mri-q ComputeQ");

} // namespace
} // namespace issbench
