//===- BlackScholes.cpp - AMD APP SDK BlackScholes (scalar kernel) --------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// European option pricing over a 2D NDRange, after the AMD APP SDK kernel
// the paper evaluates (section 6.2). Straight-line code with consecutive
// accesses and many math builtins: one codelet runs 100% of the time in the
// paper's Table 3, so the gain is plain vectorization across work-items.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define S_LOWER_LIMIT 10.0f
#define S_UPPER_LIMIT 100.0f
#define K_LOWER_LIMIT 10.0f
#define K_UPPER_LIMIT 100.0f
#define T_LOWER_LIMIT 1.0f
#define T_UPPER_LIMIT 10.0f
#define R_LOWER_LIMIT 0.01f
#define R_UPPER_LIMIT 0.05f
#define SIGMA_LOWER_LIMIT 0.01f
#define SIGMA_UPPER_LIMIT 0.10f

// Cumulative normal distribution, Abramowitz-Stegun polynomial.
float phi(float X) {
  const float A1 = 0.319381530f, A2 = -0.356563782f, A3 = 1.781477937f;
  const float A4 = -1.821255978f, A5 = 1.330274429f;
  const float OneBySqrt2Pi = 0.398942280f;
  float T = 1.0f / (1.0f + 0.2316419f * fabs(X));
  float Y = 1.0f - OneBySqrt2Pi * exp(-X * X / 2.0f) * T *
                       (A1 + T * (A2 + T * (A3 + T * (A4 + T * A5))));
  return X < 0.0f ? 1.0f - Y : Y;
}

__kernel void blackScholes(__global const float *RandA,
                           __global const float *RandB, int Width,
                           __global float *Call, __global float *Put) {
  size_t X = get_global_id(0);
  size_t Y = get_global_id(1);
  float A = RandA[Y * Width + X], B = RandB[Y * Width + X];
  float S = S_LOWER_LIMIT * A + S_UPPER_LIMIT * (1.0f - A);
  float K = K_LOWER_LIMIT * B + K_UPPER_LIMIT * (1.0f - B);
  float T = T_LOWER_LIMIT * A + T_UPPER_LIMIT * (1.0f - A);
  float R = R_LOWER_LIMIT * B + R_UPPER_LIMIT * (1.0f - B);
  float Sigma = SIGMA_LOWER_LIMIT * A + SIGMA_UPPER_LIMIT * (1.0f - A);
  float SigmaSqrtT = Sigma * sqrt(T);
  float D1 = (log(S / K) + (R + Sigma * Sigma / 2.0f) * T) / SigmaSqrtT;
  float D2 = D1 - SigmaSqrtT;
  float KExpMinusRT = K * exp(-R * T);
  Call[Y * Width + X] = S * phi(D1) - KExpMinusRT * phi(D2);
  Put[Y * Width + X] = KExpMinusRT * phi(-D2) - S * phi(-D1);
}
)CLC";

double phiRef(double X) {
  const double A1 = 0.319381530, A2 = -0.356563782, A3 = 1.781477937;
  const double A4 = -1.821255978, A5 = 1.330274429;
  double T = 1.0 / (1.0 + 0.2316419 * std::fabs(X));
  double Y = 1.0 - 0.398942280 * std::exp(-X * X / 2.0) * T *
                       (A1 + T * (A2 + T * (A3 + T * (A4 + T * A5))));
  return X < 0 ? 1.0 - Y : Y;
}

class BlackScholes : public Benchmark {
  int Width = 0, Height = 0;
  std::vector<double> WantCall, WantPut;
  cl_mem DCall = nullptr, DPut = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Width = Height = S == Size::Full ? 2048 : 512;
    size_t N = size_t(Width) * Height;
    auto A = randomVector<float>(N, 0.f, 1.f, 3);
    auto B = randomVector<float>(N, 0.f, 1.f, 4);
    WantCall.resize(N);
    WantPut.resize(N);
    for (size_t I = 0; I < N; ++I) {
      double Sv = 10.0 * A[I] + 100.0 * (1 - A[I]);
      double Kv = 10.0 * B[I] + 100.0 * (1 - B[I]);
      double T = 1.0 * A[I] + 10.0 * (1 - A[I]);
      double R = 0.01 * B[I] + 0.05 * (1 - B[I]);
      double Sigma = 0.01 * A[I] + 0.10 * (1 - A[I]);
      double SigmaSqrtT = Sigma * std::sqrt(T);
      double D1 =
          (std::log(Sv / Kv) + (R + Sigma * Sigma / 2) * T) / SigmaSqrtT;
      double D2 = D1 - SigmaSqrtT;
      double KE = Kv * std::exp(-R * T);
      WantCall[I] = Sv * phiRef(D1) - KE * phiRef(D2);
      WantPut[I] = KE * phiRef(-D2) - Sv * phiRef(-D1);
    }
    K = kernel(E, program(E, Source), "blackScholes");
    cl_mem DA = buffer(E, N * sizeof(float)), DB = buffer(E, N * sizeof(float));
    DCall = buffer(E, N * sizeof(float));
    DPut = buffer(E, N * sizeof(float));
    E.write(DA, A);
    E.write(DB, B);
    setArgs(K, DA, DB, Width, DCall, DPut);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DCall, std::vector<float>(WantCall.size(), -1.f));
    size_t Global[2] = {size_t(Width), size_t(Height)}, Local[2] = {16, 16};
    E.launch(K, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Call(WantCall.size()), Put(WantPut.size());
    E.read(DCall, Call);
    E.read(DPut, Put);
    // Prices are up to ~100 and computed in float with polynomial
    // cancellation near the money: 2e-3 absolute is a few float ULPs of the
    // inputs, far below any real error.
    std::string Msg = compareNear(Call, WantCall, 1e-4, 2e-3, "call");
    return Msg.empty() ? compareNear(Put, WantPut, 1e-4, 2e-3, "put") : Msg;
  }

  std::string describe() const override {
    return std::to_string(Width) + "x" + std::to_string(Height) + " options";
  }
};

ISS_BENCHMARK(BlackScholes, "BlackScholes", "AMD APP SDK");

} // namespace
} // namespace issbench
