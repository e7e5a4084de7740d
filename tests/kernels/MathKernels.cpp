//===- MathKernels.cpp - Math builtins against host libm ------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The single-precision math builtins, compared with the host's libm in double
// precision and the ULP bounds of the OpenCL 1.2 specification (section
// 7.4, table 7.1). When a work-item loop is vectorized (the paper's codelets,
// section 3) each scalar call becomes a vector call into pocl's kernel
// library: the vector variants must be as accurate as the scalar ones,
// including in the partial tail and under divergent control flow.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

#include <limits>

using namespace clt;

static const char *MathSource = R"CLC(
#define UNARY(F)                                                              \
  __kernel void k_##F(__global const float *X, __global float *Y) {          \
    size_t I = get_global_id(0);                                              \
    Y[I] = F(X[I]);                                                           \
  }
#define BINARY(F)                                                             \
  __kernel void k_##F(__global const float *X, __global const float *Z,      \
                      __global float *Y) {                                    \
    size_t I = get_global_id(0);                                              \
    Y[I] = F(X[I], Z[I]);                                                     \
  }
UNARY(sin) UNARY(cos) UNARY(tan) UNARY(exp) UNARY(exp2) UNARY(log)
UNARY(log2) UNARY(sqrt) UNARY(rsqrt) UNARY(atan) UNARY(asin) UNARY(tanh)
UNARY(cbrt) UNARY(floor) UNARY(fabs)
BINARY(pow) BINARY(atan2) BINARY(hypot) BINARY(fmin) BINARY(fmod)

__kernel void k_fma(__global const float *A, __global const float *B,
                    __global const float *C, __global float *Y) {
  size_t I = get_global_id(0);
  Y[I] = fma(A[I], B[I], C[I]);
}

// Different builtins on neighbouring work-items: divergent calls.
__kernel void k_divergent(__global const float *X, __global float *Y) {
  size_t I = get_global_id(0);
  float V = X[I];
  if (I % 3 == 0)
    Y[I] = exp(V * 0.125f);
  else if (V > 0.0f)
    Y[I] = log(V);
  else
    Y[I] = sin(V);
}

// Builtins with arguments every work-item shares, before a tail guard and
// under it: computed once per work group (iss-hoist-uniform), the same
// results; with N = 0 no work-item gets past the guard.
__kernel void k_uniform(__global const float *X, __global float *Y,
                        float R, float E, int N) {
  float P = pow(R, E);
  float A = atan2(R, E);
  int G = get_global_id(0);
  if (G >= N)
    return;
  float Q = exp(E * 0.25f);
  float V = X[G];
  Y[G] = V > 0.0f ? V * P + A : V * Q - sin(R);
}
)CLC";

struct MathCase {
  const char *Name;
  int Arity;
  double MaxUlp;
  float Lo, Hi;   // first argument
  float Lo2, Hi2; // second argument
  double (*Ref1)(double);
  double (*Ref2)(double, double);
};

static double refRsqrt(double X) { return 1.0 / std::sqrt(X); }

static const MathCase Cases[] = {
    {"sin", 1, 4, -100.f, 100.f, 0, 0, [](double X) { return std::sin(X); },
     nullptr},
    {"cos", 1, 4, -100.f, 100.f, 0, 0, [](double X) { return std::cos(X); },
     nullptr},
    {"tan", 1, 5, -3.f, 3.f, 0, 0, [](double X) { return std::tan(X); },
     nullptr},
    {"exp", 1, 3, -80.f, 80.f, 0, 0, [](double X) { return std::exp(X); },
     nullptr},
    {"exp2", 1, 3, -120.f, 120.f, 0, 0, [](double X) { return std::exp2(X); },
     nullptr},
    {"log", 1, 3, 1e-6f, 1e6f, 0, 0, [](double X) { return std::log(X); },
     nullptr},
    {"log2", 1, 3, 1e-6f, 1e6f, 0, 0, [](double X) { return std::log2(X); },
     nullptr},
    {"sqrt", 1, 3, 0.f, 1e8f, 0, 0, [](double X) { return std::sqrt(X); },
     nullptr},
    {"rsqrt", 1, 2, 1e-4f, 1e8f, 0, 0, refRsqrt, nullptr},
    {"atan", 1, 5, -50.f, 50.f, 0, 0, [](double X) { return std::atan(X); },
     nullptr},
    {"asin", 1, 4, -1.f, 1.f, 0, 0, [](double X) { return std::asin(X); },
     nullptr},
    {"tanh", 1, 5, -10.f, 10.f, 0, 0, [](double X) { return std::tanh(X); },
     nullptr},
    {"cbrt", 1, 2, -1e5f, 1e5f, 0, 0, [](double X) { return std::cbrt(X); },
     nullptr},
    {"floor", 1, 0, -1e4f, 1e4f, 0, 0, [](double X) { return std::floor(X); },
     nullptr},
    {"fabs", 1, 0, -1e4f, 1e4f, 0, 0, [](double X) { return std::fabs(X); },
     nullptr},
    {"pow", 2, 16, 0.01f, 10.f, -5.f, 5.f, nullptr,
     [](double X, double Y) { return std::pow(X, Y); }},
    {"atan2", 2, 6, -10.f, 10.f, -10.f, 10.f, nullptr,
     [](double X, double Y) { return std::atan2(X, Y); }},
    {"hypot", 2, 4, -1e3f, 1e3f, -1e3f, 1e3f, nullptr,
     [](double X, double Y) { return std::hypot(X, Y); }},
    {"fmin", 2, 0, -1e3f, 1e3f, -1e3f, 1e3f, nullptr,
     [](double X, double Y) { return std::fmin(X, Y); }},
    {"fmod", 2, 0, -1e3f, 1e3f, 0.5f, 20.f, nullptr,
     [](double X, double Y) { return std::fmod(X, Y); }},
};

/// Checks every element within \p MaxUlp and names the worst offenders.
static void expectUlp(const std::vector<float> &Got,
                      const std::vector<double> &Want, double MaxUlp,
                      const std::vector<float> &Args, const std::string &What) {
  size_t Bad = 0;
  double Worst = 0;
  std::string Msg;
  for (size_t I = 0; I < Got.size(); ++I) {
    double U = ulpError(Got[I], Want[I]);
    Worst = std::max(Worst, U);
    if (U <= MaxUlp)
      continue;
    if (++Bad <= 5) {
      char Buf[160];
      std::snprintf(Buf, sizeof(Buf),
                    "\n  [%zu] x=%.9g got %.9g want %.17g (%.1f ulp)", I,
                    double(Args[I]), double(Got[I]), Want[I], U);
      Msg += Buf;
    }
  }
  if (Bad)
    fail(What + ": " + std::to_string(Bad) + " of " +
         std::to_string(Got.size()) + " results beyond " +
         std::to_string(MaxUlp) + " ulp" + Msg);
}

CLT_TEST(mathBuiltins) {
  // Local size 255: every group ends in a partial vector.
  const size_t N = 255 * 41;
  Program P = E.build(MathSource);
  std::string Failures;
  for (const MathCase &C : Cases) {
    auto X = randomVector<float>(N, C.Lo, C.Hi, 40);
    auto Z = randomVector<float>(N, C.Lo2, C.Hi2, 41);
    // Exact special points matter too: zeros, integers, the domain edge.
    X[0] = C.Lo;
    X[1] = C.Hi;
    X[2] = (C.Lo <= 0 && C.Hi >= 0) ? 0.0f : C.Lo;
    Kernel K = E.kernel(P, (std::string("k_") + C.Name).c_str());
    Mem DX = E.input(X), DZ = E.input(Z), DY = E.output<float>(N);
    if (C.Arity == 1)
      setArgs(K, DX, DY);
    else
      setArgs(K, DX, DZ, DY);
    E.run1(K, N, 255);
    auto Got = E.read<float>(DY, N);
    std::vector<double> Want(N);
    for (size_t I = 0; I < N; ++I)
      Want[I] = C.Arity == 1 ? C.Ref1(X[I]) : C.Ref2(X[I], Z[I]);
    try {
      expectUlp(Got, Want, C.MaxUlp, X, C.Name);
    } catch (const Failure &F) {
      Failures += std::string("\n") + F.what();
    }
  }
  if (!Failures.empty())
    fail("math builtins out of bounds:" + Failures);
}

CLT_TEST(fmaCorrectlyRounded) {
  const size_t N = 64 * 100 + 13;
  auto A = randomVector<float>(N, -1e3f, 1e3f, 42);
  auto B = randomVector<float>(N, -1e3f, 1e3f, 43);
  auto C = randomVector<float>(N, -1e6f, 1e6f, 44);
  // A case where a separate multiply and add would lose everything.
  A[0] = 1.0f + 0x1p-23f;
  B[0] = 1.0f - 0x1p-23f;
  C[0] = -1.0f;
  Program P = E.build(MathSource);
  Kernel K = E.kernel(P, "k_fma");
  Mem DA = E.input(A), DB = E.input(B), DC = E.input(C),
      DY = E.output<float>(N);
  setArgs(K, DA, DB, DC, DY);
  E.run1(K, N);
  std::vector<float> Want(N);
  for (size_t I = 0; I < N; ++I)
    Want[I] = std::fmaf(A[I], B[I], C[I]);
  expectEqual(E.read<float>(DY, N), Want, "fma");
}

CLT_TEST(divergentBuiltinCalls) {
  const size_t N = 64 * 33 + 7;
  auto X = randomVector<float>(N, -20.f, 20.f, 45);
  Program P = E.build(MathSource);
  Kernel K = E.kernel(P, "k_divergent");
  Mem DX = E.input(X), DY = E.output<float>(N);
  setArgs(K, DX, DY);
  E.run1(K, N, 1);
  auto Got = E.read<float>(DY, N);
  std::vector<double> Want(N);
  for (size_t I = 0; I < N; ++I) {
    double V = X[I];
    Want[I] = I % 3 == 0 ? std::exp(double(X[I] * 0.125f))
                         : (V > 0 ? std::log(V) : std::sin(V));
  }
  expectUlp(Got, Want, 4, X, "divergent exp/log/sin");
}

CLT_TEST(uniformBuiltinCalls) {
  Program P = E.build(MathSource);
  Kernel K = E.kernel(P, "k_uniform");
  const size_t Local = 64, Global = Local * 9;
  auto X = randomVector<float>(Global, -2.f, 2.f, 46);
  Mem DX = E.input(X), DY = E.output<float>(Global);
  const float R = 1.5f, Ex = 2.25f;
  for (int N : {int(Global) - 5, 100, 0}) {
    std::vector<float> Init(Global, -7.f);
    CL_CHECK(clEnqueueWriteBuffer(E.Q, DY, CL_TRUE, 0,
                                  Global * sizeof(float), Init.data(), 0,
                                  nullptr, nullptr));
    setArgs(K, DX, DY, R, Ex, N);
    E.run1(K, Global, Local);
    auto Got = E.read<float>(DY, Global);
    std::vector<double> Want(Global, -7.0);
    double Pw = std::pow(double(R), double(Ex)), A = std::atan2(R, Ex);
    double Q = std::exp(double(Ex * 0.25f)), S = std::sin(double(R));
    for (int G = 0; G < N; ++G)
      Want[G] = X[G] > 0 ? X[G] * Pw + A : X[G] * Q - S;
    expectNear(Got, std::vector<float>(Want.begin(), Want.end()), 1e-5, 1e-5,
               "uniform builtins, n " + std::to_string(N));
  }
}

//===-- Rounding to nearest even
//-------------------------------------------===//
//
// rint and the convert_*_rte conversions, scalar and vector, float and
// double: exactly the host's nearbyint in its default rounding mode (to
// nearest even), saturated as the _sat conversions say (NaN gives 0). The
// compiler replaces the library's own rounding (SLEEF's, with branches) by
// the instruction (iss-rint): the ties, the value just above 0.5 that
// SLEEF treats apart, the edges 2^23 and 2^52 where every float (double)
// is an integer, the saturation bounds, the infinities and NaN must come
// out as before.

static const char *RoundSource = R"CLC(
__kernel void rte(__global const float *X, __global float *R,
                  __global int *I, __global int *IS, __global uchar *U,
                  __global short *S) {
  size_t G = get_global_id(0);
  float V = X[G];
  R[G] = rint(V);
  I[G] = convert_int_rte(V);
  IS[G] = convert_int_sat_rte(V);
  U[G] = convert_uchar_sat_rte(V);
  S[G] = convert_short_sat_rte(V);
}

__kernel void rte4(__global const float4 *X, __global float4 *R,
                   __global int4 *IS, __global uchar4 *U) {
  size_t G = get_global_id(0);
  float4 V = X[G];
  R[G] = rint(V);
  IS[G] = convert_int4_sat_rte(V);
  U[G] = convert_uchar4_sat_rte(V);
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void rted(__global const double *X, __global double *R,
                   __global long *L, __global int *IS) {
  size_t G = get_global_id(0);
  double V = X[G];
  R[G] = rint(V);
  L[G] = convert_long_sat_rte(V);
  IS[G] = convert_int_sat_rte(V);
}
)CLC";

/// The values a rounding gets wrong first, then random ones in \p Range
/// and in a wider range, \p N in all.
template <typename T> static std::vector<T> roundingCases(size_t N, T Range) {
  std::vector<T> V;
  for (int K = -300; K <= 300; ++K) {
    T Tie = T(K) + T(0.5);
    V.insert(V.end(), {Tie, std::nextafter(Tie, T(-1e9)),
                       std::nextafter(Tie, T(1e9)), T(K)});
  }
  const T Big = std::is_same_v<T, float> ? T(8388608) : T(4503599627370496.0);
  for (T B : {Big, T(2) * Big})
    for (T S : {T(1), T(-1)})
      V.insert(V.end(), {S * (B - T(0.5)), S * (B - T(1.5)), S * B,
                         S * (B + T(1)), S * std::nextafter(B, T(0))});
  T AboveHalf = std::nextafter(T(0.5), T(1));
  T BelowHalf = std::nextafter(T(0.5), T(0));
  V.insert(V.end(), {AboveHalf,
                     -AboveHalf,
                     BelowHalf,
                     -BelowHalf,
                     T(0),
                     T(-0.0),
                     std::numeric_limits<T>::denorm_min(),
                     T(-1e-40),
                     T(255.5),
                     T(254.5),
                     T(256),
                     T(-0.5),
                     T(32767.5),
                     T(-32768.5),
                     T(32766.5),
                     T(2147483520.0),
                     T(-2147483648.0),
                     T(2147483648.0),
                     T(3e9),
                     T(-3e9),
                     T(1e20),
                     T(-1e20),
                     std::numeric_limits<T>::infinity(),
                     -std::numeric_limits<T>::infinity(),
                     std::numeric_limits<T>::quiet_NaN()});
  auto Near = randomVector<T>((N - V.size()) / 2, -Range, Range, 47);
  auto Far = randomVector<T>(N - V.size() - Near.size(), T(-4e9), T(4e9), 48);
  V.insert(V.end(), Near.begin(), Near.end());
  V.insert(V.end(), Far.begin(), Far.end());
  return V;
}

/// The _sat conversion of the rounded \p X to an integer of [Lo, Hi].
template <typename I, typename T> static I saturate(T X, double Lo, double Hi) {
  if (std::isnan(X))
    return 0;
  double R = std::nearbyint(double(X));
  return R <= Lo ? I(Lo) : R >= Hi ? I(Hi) : I(R);
}

/// Floats compared by their bits, every NaN alike.
template <typename T>
static std::vector<uint64_t> bits(const std::vector<T> &V) {
  std::vector<uint64_t> B(V.size());
  for (size_t I = 0; I < V.size(); ++I) {
    if (std::isnan(V[I]))
      B[I] = 0x7ff8;
    else
      std::memcpy(&B[I], &V[I], sizeof(T));
  }
  return B;
}

CLT_TEST(roundToNearestEven) {
  // Local size 255: every group ends in a partial vector.
  const size_t N = 255 * 12;
  auto X = roundingCases<float>(N, 1000.f);
  Program P = E.build(RoundSource);
  Kernel K = E.kernel(P, "rte");
  Mem DX = E.input(X), DR = E.output<float>(N), DI = E.output<int>(N),
      DIS = E.output<int>(N), DU = E.output<uint8_t>(N),
      DS = E.output<int16_t>(N);
  setArgs(K, DX, DR, DI, DIS, DU, DS);
  E.run1(K, N, 255);
  std::vector<float> R(N);
  std::vector<int> IS(N), I(N), IWant(N);
  std::vector<uint8_t> U(N);
  std::vector<int16_t> S(N);
  auto GotI = E.read<int>(DI, N);
  for (size_t J = 0; J < N; ++J) {
    R[J] = std::nearbyint(X[J]);
    IS[J] = saturate<int>(X[J], -2147483648.0, 2147483647.0);
    U[J] = saturate<uint8_t>(X[J], 0, 255);
    S[J] = saturate<int16_t>(X[J], -32768, 32767);
    // Without _sat, only what fits is defined.
    bool Fits = std::fabs(X[J]) < 2147483520.f;
    I[J] = Fits ? int(R[J]) : 0;
    IWant[J] = Fits ? GotI[J] : 0;
  }
  expectEqual(bits(E.read<float>(DR, N)), bits(R), "rint");
  expectEqual(IWant, I, "convert_int_rte");
  expectEqual(E.read<int>(DIS, N), IS, "convert_int_sat_rte");
  expectEqual(E.read<uint8_t>(DU, N), U, "convert_uchar_sat_rte");
  expectEqual(E.read<int16_t>(DS, N), S, "convert_short_sat_rte");

  Kernel K4 = E.kernel(P, "rte4");
  Mem DR4 = E.output<float>(N), DIS4 = E.output<int>(N),
      DU4 = E.output<uint8_t>(N);
  setArgs(K4, DX, DR4, DIS4, DU4);
  E.run1(K4, N / 4, 51);
  expectEqual(bits(E.read<float>(DR4, N)), bits(R), "rint of float4");
  expectEqual(E.read<int>(DIS4, N), IS, "convert_int4_sat_rte");
  expectEqual(E.read<uint8_t>(DU4, N), U, "convert_uchar4_sat_rte");
}

CLT_TEST(roundToNearestEvenDouble) {
  if (!E.hasExtension("cl_khr_fp64"))
    CLT_SKIP("device has no cl_khr_fp64");
  const size_t N = 255 * 12;
  auto X = roundingCases<double>(N, 1e6);
  Program P = E.build(RoundSource);
  Kernel K = E.kernel(P, "rted");
  Mem DX = E.input(X), DR = E.output<double>(N), DL = E.output<int64_t>(N),
      DIS = E.output<int>(N);
  setArgs(K, DX, DR, DL, DIS);
  E.run1(K, N, 255);
  std::vector<double> R(N);
  std::vector<int64_t> L(N);
  std::vector<int> IS(N);
  for (size_t J = 0; J < N; ++J) {
    R[J] = std::nearbyint(X[J]);
    // 2^63 is the first double above the long range.
    L[J] = std::isnan(X[J])                 ? 0
           : R[J] >= 9223372036854775808.0  ? INT64_MAX
           : R[J] <= -9223372036854775808.0 ? INT64_MIN
                                            : int64_t(R[J]);
    IS[J] = saturate<int>(X[J], -2147483648.0, 2147483647.0);
  }
  expectEqual(bits(E.read<double>(DR, N)), bits(R), "rint of double");
  expectEqual(E.read<int64_t>(DL, N), L, "convert_long_sat_rte");
  expectEqual(E.read<int>(DIS, N), IS, "convert_int_sat_rte of double");
}
