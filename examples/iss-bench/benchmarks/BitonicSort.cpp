//===- BitonicSort.cpp - AMD APP SDK bitonic sort -------------------------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Sorts uint keys with the bitonic network, after the AMD APP SDK sample the
// paper evaluates (section 6.2): one launch of N/2 work-items per (stage,
// pass), each a compare-exchange, no barriers. The paper takes it as the
// representative of the kernels whose accesses are not affine (shifts and
// masks of the work-item id): scoring leaves it to the scalar fallback
// (section 6.4), and the conditional swap is divergent.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <algorithm>
#include <climits>

using namespace clt;

namespace issbench {
namespace {

const char *Source = R"CLC(
// After stage Stage, runs of 2^(Stage+1) keys are sorted, alternately up
// and down; pass Pass of that stage compares keys 2^(Stage-Pass) apart.
// Work-item I owns the I-th compared pair.
__kernel void bitonicStep(__global uint *Keys, uint Stage, uint Pass,
                          uint Ascending) {
  uint I = get_global_id(0);
  uint Shift = Stage - Pass;
  uint Dist = 1u << Shift;
  uint Left = ((I >> Shift) << (Shift + 1)) | (I & (Dist - 1));
  uint Right = Left + Dist;
  // A run of 2^(Stage+1) keys holds 2^Stage pairs.
  uint Up = ((I >> Stage) & 1u) ? !Ascending : Ascending;
  uint A = Keys[Left];
  uint B = Keys[Right];
  if (Up ? A > B : A < B) {
    Keys[Left] = B;
    Keys[Right] = A;
  }
}
)CLC";

class BitonicSort : public Benchmark {
  cl_uint Log2N = 0;
  size_t N = 0;
  std::vector<cl_uint> Input, Want;
  cl_mem DKeys = nullptr;
  cl_kernel K = nullptr;

public:
  void setup(const Env &E, Size S) override {
    Log2N = S == Size::Full ? 20 : 16;
    N = size_t(1) << Log2N;
    Input = randomVector<cl_uint>(N, 0, UINT_MAX, 22);
    Want = Input;
    std::sort(Want.begin(), Want.end());
    K = kernel(E, program(E, Source), "bitonicStep");
    DKeys = buffer(E, N * sizeof(cl_uint));
  }

  void run(const Env &E, std::vector<cl_event> &Events) override {
    E.write(DKeys, Input);
    size_t Global = N / 2, Local = 256;
    for (cl_uint Stage = 0; Stage < Log2N; ++Stage)
      for (cl_uint Pass = 0; Pass <= Stage; ++Pass) {
        setArgs(K, DKeys, Stage, Pass, cl_uint(1));
        E.launch(K, 1, &Global, &Local, Events);
      }
  }

  std::string verify(const Env &E) override {
    std::vector<cl_uint> Got(N);
    E.read(DKeys, Got);
    return compareExact(Got, Want, "sorted keys");
  }

  std::string describe() const override {
    return std::to_string(N) + " keys, " +
           std::to_string(Log2N * (Log2N + 1) / 2) + " passes";
  }
};

ISS_BENCHMARK(BitonicSort, "BitonicSort", "AMD APP SDK");

} // namespace
} // namespace issbench
