//===- NearestNeighbor.cpp - Rodinia nn (array of structs) ----------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Rodinia's nearest-neighbour distance kernel (section 6.2): each work-item
// reads one {lat, lng} record of an array of structs, i.e. two stride-2
// (divergent, in the paper's terms: Table 3) loads and one consecutive
// store, under a guard for the rounded-up global size. The paper reports a
// regression of split-only here from over-complex generated conditions.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
typedef struct latLong {
  float lat;
  float lng;
} LatLong;

__kernel void NearestNeighbor(__global LatLong *d_locations,
                              __global float *d_distances,
                              const int numRecords, const float lat,
                              const float lng) {
  int globalId = get_global_id(0);
  if (globalId < numRecords) {
    __global LatLong *latLong = d_locations + globalId;
    __global float *dist = d_distances + globalId;
    *dist = (float)sqrt((lat - latLong->lat) * (lat - latLong->lat) +
                        (lng - latLong->lng) * (lng - latLong->lng));
  }
}
)CLC";

class NearestNeighbor : public Benchmark {
  int N = 0;
  const float Lat = 30.0f, Lng = 90.0f;
  std::vector<double> Want;
  cl_mem DDist = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    N = S == Size::Full ? 4194301 : 1048573;
    auto Loc = randomVector<float>(2 * size_t(N), 0.f, 180.f, 14);
    Want.resize(N);
    for (int I = 0; I < N; ++I) {
      double A = double(Lat) - Loc[2 * I], B = double(Lng) - Loc[2 * I + 1];
      Want[I] = std::sqrt(A * A + B * B);
    }
    K = kernel(E, program(E, Source), "NearestNeighbor");
    cl_mem DLoc = buffer(E, Loc.size() * sizeof(float));
    DDist = buffer(E, size_t(N) * sizeof(float));
    E.write(DLoc, Loc);
    setArgs(K, DLoc, DDist, N, Lat, Lng);
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DDist, std::vector<float>(N, -1.f));
    size_t Local = 256, Global = roundUp(N, Local);
    E.launch(K, 1, &Global, &Local, Events);
  }

  std::string verify(const Env &E) override {
    std::vector<float> Got(N);
    E.read(DDist, Got);
    return compareNear(Got, Want, 1e-5, 1e-5, "distances");
  }

  std::string describe() const override {
    return std::to_string(N) + " records";
  }
};

ISS_BENCHMARK(NearestNeighbor, "nn", "Rodinia nn");

} // namespace
} // namespace issbench
