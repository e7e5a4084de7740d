//===- Srad.cpp - Rodinia srad --------------------------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's srad (OpenCL, the srad_v1 algorithm), as the suite writes its
// two update kernels: a 1D launch over the column-major image in groups of
// NUMBER_THREADS, a tail guard ei < Ne, the row and column recovered with
// % and / by the row count, and the neighbours clamped at the image's edges
// through the index arrays iN, iS, jW, jE the host fills (so the neighbour
// reads are gathers). srad_kernel computes the derivatives and the clamped
// diffusion coefficient, mixing float with the suite's double literals;
// srad2_kernel applies the divergence. A kernel pocl-iss was not tuned on:
// the guard cuts only the last group, the rest of the kernel is not affine
// in the ids. The suite's extract/prepare/reduce/compress kernels are left
// out: q0sqr, which its reduce kernel and a read-back give each iteration,
// comes from the host reference's image of the same iteration.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <cmath>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
#define fp float
#define NUMBER_THREADS 512

__kernel void srad_kernel(fp d_lambda, int d_Nr, int d_Nc, long d_Ne,
                          __global int *d_iN, __global int *d_iS,
                          __global int *d_jE, __global int *d_jW,
                          __global fp *d_dN, __global fp *d_dS,
                          __global fp *d_dE, __global fp *d_dW, fp d_q0sqr,
                          __global fp *d_c, __global fp *d_I) {
  int bx = get_group_id(0);
  int tx = get_local_id(0);
  int ei = bx * NUMBER_THREADS + tx;
  int row, col;

  fp d_Jc;
  fp d_dN_loc, d_dS_loc, d_dW_loc, d_dE_loc;
  fp d_c_loc;
  fp d_G2, d_L, d_num, d_den, d_qsqr;

  row = (ei + 1) % d_Nr - 1;
  col = (ei + 1) / d_Nr + 1 - 1;
  if ((ei + 1) % d_Nr == 0) {
    row = d_Nr - 1;
    col = col - 1;
  }

  if (ei < d_Ne) {
    d_Jc = d_I[ei];

    d_dN_loc = d_I[d_iN[row] + d_Nr * col] - d_Jc;
    d_dS_loc = d_I[d_iS[row] + d_Nr * col] - d_Jc;
    d_dW_loc = d_I[row + d_Nr * d_jW[col]] - d_Jc;
    d_dE_loc = d_I[row + d_Nr * d_jE[col]] - d_Jc;

    d_G2 = (d_dN_loc * d_dN_loc + d_dS_loc * d_dS_loc +
            d_dW_loc * d_dW_loc + d_dE_loc * d_dE_loc) /
           (d_Jc * d_Jc);
    d_L = (d_dN_loc + d_dS_loc + d_dW_loc + d_dE_loc) / d_Jc;

    d_num = (0.5 * d_G2) - ((1.0 / 16.0) * (d_L * d_L));
    d_den = 1 + (0.25 * d_L);
    d_qsqr = d_num / (d_den * d_den);

    d_den = (d_qsqr - d_q0sqr) / (d_q0sqr * (1 + d_q0sqr));
    d_c_loc = 1.0 / (1.0 + d_den);

    if (d_c_loc < 0) {
      d_c_loc = 0;
    } else if (d_c_loc > 1) {
      d_c_loc = 1;
    }

    d_dN[ei] = d_dN_loc;
    d_dS[ei] = d_dS_loc;
    d_dW[ei] = d_dW_loc;
    d_dE[ei] = d_dE_loc;
    d_c[ei] = d_c_loc;
  }
}

__kernel void srad2_kernel(fp d_lambda, int d_Nr, int d_Nc, long d_Ne,
                           __global int *d_iN, __global int *d_iS,
                           __global int *d_jE, __global int *d_jW,
                           __global fp *d_dN, __global fp *d_dS,
                           __global fp *d_dE, __global fp *d_dW,
                           __global fp *d_c, __global fp *d_I) {
  int bx = get_group_id(0);
  int tx = get_local_id(0);
  int ei = bx * NUMBER_THREADS + tx;
  int row, col;

  fp d_cN, d_cS, d_cW, d_cE;
  fp d_D;

  row = (ei + 1) % d_Nr - 1;
  col = (ei + 1) / d_Nr + 1 - 1;
  if ((ei + 1) % d_Nr == 0) {
    row = d_Nr - 1;
    col = col - 1;
  }

  if (ei < d_Ne) {
    d_cN = d_c[ei];
    d_cS = d_c[d_iS[row] + d_Nr * col];
    d_cW = d_c[ei];
    d_cE = d_c[row + d_Nr * d_jE[col]];

    d_D = d_cN * d_dN[ei] + d_cS * d_dS[ei] + d_cW * d_dW[ei] +
          d_cE * d_dE[ei];

    d_I[ei] = d_I[ei] + 0.25 * d_lambda * d_D;
  }
}
)CLC";

constexpr int Threads = 512;
constexpr float Lambda = 0.5f;

class Srad : public Benchmark {
  int Nr = 0, Nc = 0, Iters = 0;
  long Ne = 0;
  std::vector<float> Image, Want, Q0sqr;
  std::vector<int> IN, IS, JW, JE;
  cl_mem DI = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr;

  /// The suite's two kernels on the host, in the same precisions.
  void reference() {
    std::vector<float> I = Image, DN(Ne), DS(Ne), DW(Ne), DE(Ne), C(Ne);
    for (int It = 0; It < Iters; ++It) {
      // The suite's reduce: mean and variance over the whole image.
      double Sum = 0, Sum2 = 0;
      for (float V : I) {
        Sum += V;
        Sum2 += double(V) * V;
      }
      double Mean = Sum / Ne, Var = Sum2 / Ne - Mean * Mean;
      float Q0 = float(Var / (Mean * Mean));
      Q0sqr.push_back(Q0);
      for (int Col = 0; Col < Nc; ++Col)
        for (int Row = 0; Row < Nr; ++Row) {
          long E = Row + long(Nr) * Col;
          float Jc = I[E];
          float N = I[IN[Row] + Nr * Col] - Jc;
          float S = I[IS[Row] + Nr * Col] - Jc;
          float W = I[Row + Nr * JW[Col]] - Jc;
          float Ea = I[Row + Nr * JE[Col]] - Jc;
          float G2 = (N * N + S * S + W * W + Ea * Ea) / (Jc * Jc);
          float L = (N + S + W + Ea) / Jc;
          float Num = (0.5 * G2) - ((1.0 / 16.0) * (L * L));
          float Den = 1 + (0.25 * L);
          float Qsqr = Num / (Den * Den);
          Den = (Qsqr - Q0) / (Q0 * (1 + Q0));
          float Cl = 1.0 / (1.0 + Den);
          Cl = Cl < 0 ? 0 : Cl > 1 ? 1 : Cl;
          DN[E] = N;
          DS[E] = S;
          DW[E] = W;
          DE[E] = Ea;
          C[E] = Cl;
        }
      for (int Col = 0; Col < Nc; ++Col)
        for (int Row = 0; Row < Nr; ++Row) {
          long E = Row + long(Nr) * Col;
          float CN = C[E], CS = C[IS[Row] + Nr * Col], CW = C[E],
                CE = C[Row + Nr * JE[Col]];
          float D = CN * DN[E] + CS * DS[E] + CW * DW[E] + CE * DE[E];
          I[E] = I[E] + 0.25 * Lambda * D;
        }
    }
    Want = I;
  }

public:
  void setup(const Env &E, Size S) override {
    // Ne is not a multiple of the 512-work-item groups: the guard cuts the
    // last one.
    Nr = S == Size::Full ? 1000 : 502;
    Nc = S == Size::Full ? 1000 : 458;
    Iters = 4;
    Ne = long(Nr) * Nc;
    // The suite's extract kernel: exp(pixel / 255) of an 8-bit image.
    auto Pixels = randomVector<int>(Ne, 0, 255, 53);
    Image.resize(Ne);
    for (long I = 0; I < Ne; ++I)
      Image[I] = std::exp(float(Pixels[I]) / 255.f);
    // The suite's neighbour index arrays, clamped at the borders.
    IN.resize(Nr);
    IS.resize(Nr);
    JW.resize(Nc);
    JE.resize(Nc);
    for (int I = 0; I < Nr; ++I) {
      IN[I] = I - 1;
      IS[I] = I + 1;
    }
    for (int J = 0; J < Nc; ++J) {
      JW[J] = J - 1;
      JE[J] = J + 1;
    }
    IN[0] = 0;
    IS[Nr - 1] = Nr - 1;
    JW[0] = 0;
    JE[Nc - 1] = Nc - 1;
    reference();

    cl_program P = program(E, Source);
    K1 = kernel(E, P, "srad_kernel");
    K2 = kernel(E, P, "srad2_kernel");
    cl_mem DIN = buffer(E, Nr * sizeof(int)), DIS = buffer(E, Nr * sizeof(int));
    cl_mem DJW = buffer(E, Nc * sizeof(int)), DJE = buffer(E, Nc * sizeof(int));
    E.write(DIN, IN);
    E.write(DIS, IS);
    E.write(DJW, JW);
    E.write(DJE, JE);
    size_t Bytes = size_t(Ne) * sizeof(float);
    cl_mem DN = buffer(E, Bytes), DS = buffer(E, Bytes), DE = buffer(E, Bytes),
           DW = buffer(E, Bytes), DC = buffer(E, Bytes);
    DI = buffer(E, Bytes);
    cl_long NeArg = Ne;
    setArgs(K1, Lambda, Nr, Nc, NeArg, DIN, DIS, DJE, DJW, DN, DS, DE, DW,
            Q0sqr[0], DC, DI);
    setArgs(K2, Lambda, Nr, Nc, NeArg, DIN, DIS, DJE, DJW, DN, DS, DE, DW, DC,
            DI);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DI, Image);
    size_t Local = Threads, Global = roundUp(Ne, Threads);
    for (int It = 0; It < Iters; ++It) {
      setArg(K1, 12, Q0sqr[It]);
      E.launch(K1, 1, &Global, &Local, Events);
      E.launch(K2, 1, &Global, &Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(Ne);
    E.read(DI, Got);
    // Divisions and the suite's double literals: the platform may contract
    // or keep float where the host rounds through double.
    return compareNear(Got, Want, 1e-4, 1e-5, "image");
  }

  std::string describe() const override {
    return std::to_string(Nr) + "x" + std::to_string(Nc) + " floats, " +
           std::to_string(Iters) + " iterations";
  }
};

ISS_BENCHMARK(Srad, "srad", "Rodinia srad (not in the paper)");

} // namespace
} // namespace issbench
