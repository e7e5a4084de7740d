//===- DwtHaar1D.cpp - AMD APP SDK DwtHaar1D ------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The AMD APP SDK's one-dimensional Haar wavelet decomposition, in the SDK's
// form: each 256-work-item group loads 512 samples into `__local` memory
// (scaled by 1/sqrt(length) on the first pass), then runs up to 9 levels in
// a loop with two barriers per level; on each level only the first
// `activeThreads` work-items work (halved each level: the active set
// shrinks from the whole group to one work-item), reading a pair of the
// previous level's averages at stride 2 from `__local` memory, writing the
// average back and the detail coefficient to global memory. The host runs
// passes until every level is done, each on the previous pass's averages
// (one per group) with a smaller launch, as the SDK does.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>
#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void dwtHaar1D(__global float *inSignal, __global float *coefsSignal,
                        __global float *AverageSignal,
                        __local float *sharedArray, uint tLevels,
                        uint signalLength, uint levelsDone, uint mLevels) {
  size_t localId = get_local_id(0);
  size_t groupId = get_group_id(0);
  size_t localSize = get_local_size(0);

  float t0 = inSignal[groupId * localSize * 2 + localId];
  float t1 = inSignal[groupId * localSize * 2 + localSize + localId];
  // The first pass normalises the decomposition.
  if (0 == levelsDone) {
    float r = rsqrt((float)signalLength);
    t0 *= r;
    t1 *= r;
  }
  sharedArray[localId] = t0;
  sharedArray[localSize + localId] = t1;
  barrier(CLK_LOCAL_MEM_FENCE);

  uint levels = tLevels > mLevels ? mLevels : tLevels;
  uint activeThreads = (1 << levels) / 2;
  uint midOutPos = signalLength / 2;
  float rsqrt_two = rsqrt(2.0f);
  for (uint i = 0; i < levels; ++i) {
    float data0, data1;
    if (localId < activeThreads) {
      data0 = sharedArray[2 * localId];
      data1 = sharedArray[2 * localId + 1];
    }
    // Every pair read before any average overwrites it.
    barrier(CLK_LOCAL_MEM_FENCE);
    if (localId < activeThreads) {
      sharedArray[localId] = (data0 + data1) * rsqrt_two;
      uint globalPos = midOutPos + groupId * activeThreads + localId;
      coefsSignal[globalPos] = (data0 - data1) * rsqrt_two;
      midOutPos >>= 1;
    }
    activeThreads >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (0 == localId)
    AverageSignal[groupId] = sharedArray[0];
}
)CLC";

class DwtHaar1D : public Benchmark {
  unsigned Levels = 0, Length = 0;
  const unsigned GroupSize = 256, MaxLevels = 9; // 2 * 256 = 2^9 samples
  std::vector<float> Signal;
  std::vector<double> WantCoefs;
  double WantAverage = 0, Scale = 0;
  cl_mem DSignal = nullptr, DCoefs = nullptr, DAvg[2] = {nullptr, nullptr};
  cl_mem DLast = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Levels = S == Size::Full ? 22 : 18;
    Length = 1u << Levels;
    // Zero mean: the averages stay as small as the details, so float
    // rounding in the sums is small beside both.
    Signal = randomVector<float>(Length, -1.f, 1.f, 101);
    Scale = 1.0 / std::sqrt(double(Length));
    std::vector<double> A(Signal.begin(), Signal.end());
    for (double &V : A)
      V *= Scale;
    WantCoefs.assign(Length, 0.0);
    for (unsigned N = Length; N > 1; N /= 2) {
      for (unsigned K = 0; K < N / 2; ++K) {
        WantCoefs[N / 2 + K] = (A[2 * K] - A[2 * K + 1]) / std::sqrt(2.0);
        A[K] = (A[2 * K] + A[2 * K + 1]) / std::sqrt(2.0);
      }
    }
    WantAverage = A[0];
    K = kernel(E, program(E, Source), "dwtHaar1D");
    DSignal = buffer(E, size_t(Length) * sizeof(float));
    DCoefs = buffer(E, size_t(Length) * sizeof(float));
    for (cl_mem &M : DAvg)
      M = buffer(E, size_t(Length / (2 * GroupSize)) * sizeof(float));
    E.write(DSignal, Signal);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DCoefs, std::vector<float>(Length, 0.f));
    cl_mem In = DSignal;
    unsigned Pass = 0;
    for (unsigned Done = 0; Done < Levels; Done += MaxLevels, ++Pass) {
      unsigned Remaining = Levels - Done;
      cl_uint CurLength = 1u << Remaining;
      size_t Global = CurLength / 2;
      size_t Local = std::min<size_t>(Global, GroupSize);
      cl_mem Out = DAvg[Pass % 2];
      setArgs(K, In, DCoefs, Out, LocalMem{2 * Local * sizeof(float)},
              cl_uint(Remaining), CurLength, cl_uint(Done), cl_uint(MaxLevels));
      E.launch(K, 1, &Global, &Local, Events);
      In = DLast = Out;
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Coefs(Length), Avg(1);
    E.read(DCoefs, Coefs);
    E.read(DLast, Avg);
    // The host puts the last average where no detail goes.
    Coefs[0] = Avg[0];
    std::vector<double> Want = WantCoefs;
    Want[0] = WantAverage;
    // Every value is of the order of the scaled samples.
    return compareNear(Coefs, Want, 1e-3, 1e-4 * Scale, "coefficients");
  }

  std::string describe() const override {
    return "2^" + std::to_string(Levels) + " floats, " +
           std::to_string((Levels + MaxLevels - 1) / MaxLevels) + " passes";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(DwtHaar1D, "DwtHaar1D", "AMD APP SDK DwtHaar1D");

} // namespace
} // namespace issbench
