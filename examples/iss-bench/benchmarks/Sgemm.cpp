//===- Sgemm.cpp - Parboil sgemm (base kernel) ----------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// C = alpha * A * B^T + beta * C after Parboil's base OpenCL sgemm (section
// 6.2). Per work-item a uniform k loop; along dimension 0 the A accesses are
// consecutive and the B accesses uniform, the codelet profile the paper
// reports for sgemm in Table 3.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// A is m x k column-major (lda = m), B is n x k column-major (ldb = n).
__kernel void mysgemmNT(__global const float *A, int Lda,
                        __global const float *B, int Ldb, __global float *C,
                        int Ldc, int K, float Alpha, float Beta) {
  float Sum = 0.0f;
  int M = get_global_id(0);
  int N = get_global_id(1);
  for (int I = 0; I < K; ++I) {
    float Av = A[M + I * Lda];
    float Bv = B[N + I * Ldb];
    Sum += Av * Bv;
  }
  C[M + N * Ldc] = C[M + N * Ldc] * Beta + Alpha * Sum;
}
)CLC";

class Sgemm : public Benchmark {
  int M = 0, N = 0, K = 0;
  const float Alpha = 1.5f, Beta = 0.5f;
  std::vector<float> C0;
  std::vector<double> Want;
  cl_mem DC = nullptr;
  cl_kernel Kern = nullptr;

public:
  void setup(const Env &E, Size S) override {
    M = N = K = S == Size::Full ? 512 : 256;
    auto A = randomVector<float>(size_t(M) * K, -1.f, 1.f, 5);
    auto B = randomVector<float>(size_t(N) * K, -1.f, 1.f, 6);
    C0 = randomVector<float>(size_t(M) * N, -1.f, 1.f, 7);
    Want.assign(size_t(M) * N, 0.0);
    for (int Nn = 0; Nn < N; ++Nn)
      for (int Mm = 0; Mm < M; ++Mm) {
        double Sum = 0;
        for (int I = 0; I < K; ++I)
          Sum += double(A[Mm + size_t(I) * M]) * B[Nn + size_t(I) * N];
        Want[Mm + size_t(Nn) * M] =
            C0[Mm + size_t(Nn) * M] * Beta + Alpha * Sum;
      }
    Kern = kernel(E, program(E, Source), "mysgemmNT");
    cl_mem DA = buffer(E, A.size() * sizeof(float));
    cl_mem DB = buffer(E, B.size() * sizeof(float));
    DC = buffer(E, C0.size() * sizeof(float));
    E.write(DA, A);
    E.write(DB, B);
    setArgs(Kern, DA, M, DB, N, DC, M, K, Alpha, Beta);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DC, C0); // C is read and written: every run starts from C0
    size_t Global[2] = {size_t(M), size_t(N)}, Local[2] = {16, 16};
    E.launch(Kern, 2, Global, Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(C0.size());
    E.read(DC, Got);
    // A float dot product of K terms in [-1, 1]: error grows like K * eps.
    return compareNear(Got, Want, 1e-4, 1e-6 * K, "C");
  }

  std::string describe() const override {
    return std::to_string(M) + "x" + std::to_string(N) + "x" +
           std::to_string(K);
  }
};

ISS_BENCHMARK(Sgemm, "sgemm", "Parboil (base)");

} // namespace
} // namespace issbench
