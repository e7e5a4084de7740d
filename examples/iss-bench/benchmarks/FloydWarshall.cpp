//===- FloydWarshall.cpp - AMD APP SDK Floyd-Warshall ---------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// All-pairs shortest paths, one 2D launch per pass k, after the AMD APP SDK
// kernel (section 6.2). So regular that full-tile splitting alone gives the
// best result (section 6.4); the row k / column k reads are uniform along
// one dimension and consecutive along the other (Table 3). Pass k never
// changes row or column k, so the in-place update is race free.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
__kernel void floydWarshallPass(__global uint *Dist, __global uint *Path,
                                uint NumNodes, uint Pass) {
  int X = get_global_id(0);
  int Y = get_global_id(1);
  uint Old = Dist[Y * NumNodes + X];
  uint Through = Dist[Y * NumNodes + Pass] + Dist[Pass * NumNodes + X];
  if (Through < Old) {
    Dist[Y * NumNodes + X] = Through;
    Path[Y * NumNodes + X] = Pass;
  }
}
)CLC";

class FloydWarshall : public Benchmark {
  cl_uint N = 0;
  std::vector<cl_uint> Dist0, WantDist, WantPath;
  cl_mem DDist = nullptr, DPath = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 512 : 256;
    Dist0 = randomVector<cl_uint>(size_t(N) * N, 1, 1000, 10);
    for (cl_uint I = 0; I < N; ++I)
      Dist0[I * N + I] = 0;
    WantDist = Dist0;
    WantPath.assign(size_t(N) * N, 0);
    for (cl_uint P = 0; P < N; ++P)
      for (cl_uint Y = 0; Y < N; ++Y)
        for (cl_uint X = 0; X < N; ++X) {
          cl_uint T = WantDist[Y * N + P] + WantDist[P * N + X];
          if (T < WantDist[Y * N + X]) {
            WantDist[Y * N + X] = T;
            WantPath[Y * N + X] = P;
          }
        }
    K = kernel(E, program(E, Source), "floydWarshallPass");
    DDist = buffer(E, Dist0.size() * sizeof(cl_uint));
    DPath = buffer(E, Dist0.size() * sizeof(cl_uint));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DDist, Dist0);
    E.write(DPath, std::vector<cl_uint>(Dist0.size(), 0));
    size_t Global[2] = {N, N}, Local[2] = {16, 16};
    for (cl_uint P = 0; P < N; ++P) {
      setArgs(K, DDist, DPath, N, P);
      E.launch(K, 2, Global, Local, Events);
    }
  }

  std::string verify(const Env &E) override {
    std::vector<cl_uint> Dist(Dist0.size()), Path(Dist0.size());
    E.read(DDist, Dist);
    E.read(DPath, Path);
    std::string Msg = compareExact(Dist, WantDist, "distances");
    return Msg.empty() ? compareExact(Path, WantPath, "paths") : Msg;
  }

  std::string describe() const override {
    return std::to_string(N) + " nodes, " + std::to_string(N) + " passes";
  }
};

ISS_BENCHMARK(FloydWarshall, "FloydWarshall", "AMD APP SDK");

} // namespace
} // namespace issbench
