//===- BinomialOption.cpp - AMD APP SDK binomial option pricing -----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// European call options priced on a Cox-Ross-Rubinstein lattice, after the
// AMD APP SDK sample the paper evaluates (section 6.2): one work-group of
// NumSteps + 1 = 255 work-items per float4 of four options, the lattice in
// two __local float4 arrays passed as kernel arguments, and two barriers in
// every iteration of the backward loop. The guards tid < j shrink the active
// work-items level by level: the control conditions on the work-group size
// that the paper's control-flow simplification removes (section 6.4), and
// the barriers it handles with continuation kernels (section 5.2).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>

using namespace clt;

namespace issbench {
namespace {

constexpr int NumSteps = 254;

const char *Source = R"CLC(
#define RISK_FREE 0.02f
#define VOLATILITY 0.30f

// Work-group G prices the four options of Rand[G]; at expiry work-item I
// owns the lattice node with I up-moves out of NumSteps.
__kernel void binomialOption(int NumSteps, __global const float4 *Rand,
                             __global float4 *Price, __local float4 *CallA,
                             __local float4 *CallB) {
  int I = get_local_id(0);
  int G = get_group_id(0);
  float4 R = Rand[G];
  float4 Spot = 10.0f + 90.0f * R;
  float4 Strike = 100.0f - 80.0f * R;
  float4 Years = 0.25f + 4.75f * R;
  float4 Dt = Years / (float)NumSteps;
  float4 VolSqrtDt = VOLATILITY * sqrt(Dt);
  float4 Growth = exp(RISK_FREE * Dt);
  float4 Up = exp(VolSqrtDt);
  float4 Down = 1.0f / Up;
  float4 PUp = (Growth - Down) / (Up - Down);
  float4 DiscUp = PUp / Growth;
  float4 DiscDown = (1.0f - PUp) / Growth;

  float4 Payoff = Spot * exp(VolSqrtDt * (float)(2 * I - NumSteps)) - Strike;
  CallA[I] = fmax(Payoff, 0.0f);
  barrier(CLK_LOCAL_MEM_FENCE);

  // Two levels back per iteration, from CallA to CallB and back; NumSteps
  // is even, so the root ends in CallA[0].
  for (int J = NumSteps; J > 0; J -= 2) {
    if (I < J)
      CallB[I] = DiscUp * CallA[I + 1] + DiscDown * CallA[I];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (I < J - 1)
      CallA[I] = DiscUp * CallB[I + 1] + DiscDown * CallB[I];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (I == 0)
    Price[G] = CallA[0];
}
)CLC";

/// The same lattice in double, for one option.
double priceRef(double R) {
  const double RiskFree = 0.02, Volatility = 0.30;
  double Spot = 10.0 + 90.0 * R, Strike = 100.0 - 80.0 * R;
  double Years = 0.25 + 4.75 * R;
  double Dt = Years / NumSteps;
  double VolSqrtDt = Volatility * std::sqrt(Dt);
  double Growth = std::exp(RiskFree * Dt);
  double Up = std::exp(VolSqrtDt), Down = 1.0 / Up;
  double PUp = (Growth - Down) / (Up - Down);
  double DiscUp = PUp / Growth, DiscDown = (1.0 - PUp) / Growth;
  std::vector<double> V(NumSteps + 1);
  for (int I = 0; I <= NumSteps; ++I)
    V[I] = std::max(
        Spot * std::exp(VolSqrtDt * double(2 * I - NumSteps)) - Strike, 0.0);
  for (int Level = NumSteps; Level > 0; --Level)
    for (int I = 0; I < Level; ++I)
      V[I] = DiscUp * V[I + 1] + DiscDown * V[I];
  return V[0];
}

class BinomialOption : public Benchmark {
  int NumSamples = 0; ///< options, four per work-group
  std::vector<double> Want;
  cl_mem DPrice = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    NumSamples = S == Size::Full ? 1024 : 256;
    auto Rand = randomVector<float>(size_t(NumSamples), 0.f, 1.f, 23);
    Want.resize(Rand.size());
    for (size_t I = 0; I < Rand.size(); ++I)
      Want[I] = priceRef(Rand[I]);
    K = kernel(E, program(E, Source), "binomialOption");
    cl_mem DRand = buffer(E, Rand.size() * sizeof(float));
    DPrice = buffer(E, Rand.size() * sizeof(float));
    E.write(DRand, Rand);
    setArgs(K, cl_int(NumSteps), DRand, DPrice,
            LocalMem{(NumSteps + 1) * sizeof(cl_float4)},
            LocalMem{(NumSteps + 1) * sizeof(cl_float4)});
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DPrice, std::vector<float>(Want.size(), -1.f));
    size_t Local = NumSteps + 1;
    size_t Global = size_t(NumSamples / 4) * Local;
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Want.size());
    E.read(DPrice, Got);
    // Prices up to ~90; the float lattice rounds once per level on values
    // of that size: 254 levels give up to ~1.5e-3 against the double
    // lattice (measured on Debian's pocl at both sizes).
    return compareNear(Got, Want, 1e-4, 5e-3, "prices");
  }

  std::string describe() const override {
    return std::to_string(NumSamples) + " options, " +
           std::to_string(NumSteps) + " steps";
  }
};

ISS_BENCHMARK_WITH_BARRIERS(BinomialOption, "BinomialOption", "AMD APP SDK");

} // namespace
} // namespace issbench
