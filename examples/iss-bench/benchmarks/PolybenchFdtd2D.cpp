//===- PolybenchFdtd2D.cpp - PolyBench/GPU FDTD-2D ------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// PolyBench/GPU's FDTD-2D (OpenCL), as the suite writes it: per time step
// three 2D kernels in 32x8 groups over a global size rounded up to whole
// groups, updating the fields ey, ex and hz. Their guards differ: the first
// cuts the padding (`i < nx && j < ny`) and branches on the first row
// (`i == 0` takes the source term), the second also skips the first column
// (`j > 0`), the third stops one short of each end (`i < nx-1 && j < ny-1`).
// ex has ny+1 columns, so its rows are not aligned with the others'. The
// suite's 0.5 and 0.7 are taken as float constants. A kernel pocl-iss was
// not tuned on (unseen).
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef float DATA_TYPE;

__kernel void fdtd_kernel1(__global DATA_TYPE *_fict_, __global DATA_TYPE *ex,
                           __global DATA_TYPE *ey, __global DATA_TYPE *hz,
                           int t, int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < nx) && (j < ny)) {
    if (i == 0) {
      ey[i * ny + j] = _fict_[t];
    } else {
      ey[i * ny + j] =
          ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
  }
}

__kernel void fdtd_kernel2(__global DATA_TYPE *ex, __global DATA_TYPE *ey,
                           __global DATA_TYPE *hz, int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < nx) && (j < ny) && (j > 0)) {
    ex[i * (ny + 1) + j] =
        ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
  }
}

__kernel void fdtd_kernel3(__global DATA_TYPE *ex, __global DATA_TYPE *ey,
                           __global DATA_TYPE *hz, int nx, int ny) {
  int j = get_global_id(0);
  int i = get_global_id(1);

  if ((i < (nx - 1)) && (j < (ny - 1))) {
    hz[i * ny + j] =
        hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] -
                                 ex[i * (ny + 1) + j] +
                                 ey[(i + 1) * ny + j] - ey[i * ny + j]);
  }
}
)CLC";

class PolybenchFdtd2D : public Benchmark {
  int NX = 0, NY = 0, TMax = 0;
  std::vector<float> Fict, Ex0, Ey0, Hz0, WantEx, WantEy, WantHz;
  cl_mem DEx = nullptr, DEy = nullptr, DHz = nullptr;
  cl_kernel K1 = nullptr, K2 = nullptr, K3 = nullptr;

public:
  void setup(const Env &E, Size S) override {
    // Not multiples of the 32x8 groups: the guards cut the padding too.
    NX = S == Size::Full ? 2000 : 1000;
    NY = S == Size::Full ? 2010 : 1010;
    TMax = 3;
    Fict.resize(TMax);
    for (int T = 0; T < TMax; ++T)
      Fict[T] = float(T);
    Ex0 = randomVector<float>(size_t(NX) * (NY + 1), -1.f, 1.f, 911);
    Ey0 = randomVector<float>(size_t(NX + 1) * NY, -1.f, 1.f, 912);
    Hz0 = randomVector<float>(size_t(NX) * NY, -1.f, 1.f, 913);
    WantEx = Ex0;
    WantEy = Ey0;
    WantHz = Hz0;
    float *Ex = WantEx.data(), *Ey = WantEy.data(), *Hz = WantHz.data();
    for (int T = 0; T < TMax; ++T) {
      for (int I = 0; I < NX; ++I)
        for (int J = 0; J < NY; ++J)
          Ey[I * NY + J] =
              I == 0 ? Fict[T]
                     : Ey[I * NY + J] -
                           0.5f * (Hz[I * NY + J] - Hz[(I - 1) * NY + J]);
      for (int I = 0; I < NX; ++I)
        for (int J = 1; J < NY; ++J)
          Ex[I * (NY + 1) + J] = Ex[I * (NY + 1) + J] -
                                 0.5f * (Hz[I * NY + J] - Hz[I * NY + (J - 1)]);
      for (int I = 0; I < NX - 1; ++I)
        for (int J = 0; J < NY - 1; ++J)
          Hz[I * NY + J] =
              Hz[I * NY + J] -
              0.7f * (Ex[I * (NY + 1) + (J + 1)] - Ex[I * (NY + 1) + J] +
                      Ey[(I + 1) * NY + J] - Ey[I * NY + J]);
    }
    cl_program P = program(E, Source);
    K1 = kernel(E, P, "fdtd_kernel1");
    K2 = kernel(E, P, "fdtd_kernel2");
    K3 = kernel(E, P, "fdtd_kernel3");
    cl_mem DFict = buffer(E, Fict.size() * sizeof(float));
    DEx = buffer(E, Ex0.size() * sizeof(float));
    DEy = buffer(E, Ey0.size() * sizeof(float));
    DHz = buffer(E, Hz0.size() * sizeof(float));
    E.write(DFict, Fict);
    setArgs(K1, DFict, DEx, DEy, DHz, 0, NX, NY);
    setArgs(K2, DEx, DEy, DHz, NX, NY);
    setArgs(K3, DEx, DEy, DHz, NX, NY);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DEx, Ex0);
    E.write(DEy, Ey0);
    E.write(DHz, Hz0);
    size_t Local[2] = {32, 8};
    size_t Global[2] = {roundUp(NY, Local[0]), roundUp(NX, Local[1])};
    for (int T = 0; T < TMax; ++T) {
      clt::setArg(K1, 4, T);
      E.launch(K1, 2, Global, Local, Events);
      E.launch(K2, 2, Global, Local, Events);
      E.launch(K3, 2, Global, Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<float> Ex(WantEx.size()), Ey(WantEy.size()), Hz(WantHz.size());
    E.read(DEx, Ex);
    E.read(DEy, Ey);
    E.read(DHz, Hz);
    std::string Msg = compareNear(Ey, WantEy, 1e-5, 1e-5, "ey");
    if (Msg.empty())
      Msg = compareNear(Ex, WantEx, 1e-5, 1e-5, "ex");
    if (Msg.empty())
      Msg = compareNear(Hz, WantHz, 1e-5, 1e-5, "hz");
    return Msg;
  }

  std::string describe() const override {
    return std::to_string(NX) + "x" + std::to_string(NY) + ", " +
           std::to_string(TMax) + " steps of 3 kernels";
  }
};

ISS_BENCHMARK(PolybenchFdtd2D, "pb-FDTD-2D", "PolyBench/GPU FDTD-2D (unseen)");

} // namespace
} // namespace issbench
