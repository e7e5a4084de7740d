//===- WorkItemKernels.cpp - Work-item functions beyond get_work_dim() ----===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// OpenCL C 1.2, section 6.12.1: for a dimension at or beyond get_work_dim(),
// get_global_size, get_local_size and get_num_groups return 1, and
// get_global_id, get_local_id, get_group_id and get_global_offset return 0.
// That holds for a dimension up to 2 that the launch leaves unused (the
// runtime fills it) and for any dimension of 3 or more, which pocl 3.1's
// library answers with 0 for the sizes (iss-prepare wraps it). Each
// function is called with the constant dimensions 0, 1, 2, 3 and 7, with
// a dimension that is a kernel argument (the same for the whole launch:
// 0 to 3, 7, UINT_MAX), and with one read per work-item from a buffer, in
// 1D and 2D launches with and without global offsets.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

using namespace clt;

static const char *WorkItemSource = R"CLC(
#define ALL(D)                                                                 \
  get_global_size(D), get_local_size(D), get_global_offset(D),                 \
      get_global_id(D), get_local_id(D), get_group_id(D), get_num_groups(D)

// The work-item's index in the launch, from the dimensions it has only.
size_t linearIndex() {
  size_t I = get_global_id(0) - get_global_offset(0);
  if (get_work_dim() > 1)
    I += (get_global_id(1) - get_global_offset(1)) * get_global_size(0);
  return I;
}

void store7(__global ulong *R, size_t A, size_t B, size_t C, size_t D,
            size_t E, size_t F, size_t G) {
  R[0] = A; R[1] = B; R[2] = C; R[3] = D; R[4] = E; R[5] = F; R[6] = G;
}

// The constant dimensions 0, 1, 2, 3 and 7; a barrier in between, so the
// values after it come from another parallel region.
__kernel void constantDims(__global ulong *Out) {
  __global ulong *R = Out + 35 * linearIndex();
  store7(R, ALL(0));
  store7(R + 7, ALL(1));
  store7(R + 14, ALL(2));
  barrier(CLK_GLOBAL_MEM_FENCE);
  store7(R + 21, ALL(3));
  store7(R + 28, ALL(7));
}

// A dimension for the whole launch.
__kernel void argumentDim(__global ulong *Out, uint D) {
  store7(Out + 7 * linearIndex(), ALL(D));
}

// A dimension per work-item.
__kernel void bufferDim(__global ulong *Out, __global const uint *Dims) {
  size_t I = linearIndex();
  store7(Out + 7 * I, ALL(Dims[I]));
}
)CLC";

namespace {
/// One launch: its dimensions, and the global and local sizes and offsets
/// of all three (1, 1 and 0 where the launch has none).
struct Launch {
  cl_uint Dims;
  size_t Global[3], Local[3], Offset[3];
  bool NullOffset;

  size_t items() const { return Global[0] * Global[1]; }
  std::string name() const {
    std::string S =
        std::to_string(Dims) + "D global " + std::to_string(Global[0]);
    if (Dims > 1)
      S += "x" + std::to_string(Global[1]);
    S += " local " + std::to_string(Local[0]);
    if (Dims > 1)
      S += "x" + std::to_string(Local[1]);
    if (!NullOffset)
      S += " offset " + std::to_string(Offset[0]) +
           (Dims > 1 ? "," + std::to_string(Offset[1]) : "");
    return S;
  }

  /// The seven values of work-item \p I (its linear index) for dimension
  /// \p D, in the kernels' order.
  void want(size_t I, cl_uint D, cl_ulong *R) const {
    if (D >= Dims || D >= 3) { // Dims <= 3; the second test tells GCC so
      const cl_ulong Spec[7] = {1, 1, 0, 0, 0, 0, 1};
      std::copy(Spec, Spec + 7, R);
      return;
    }
    size_t Id = D == 0 ? I % Global[0] : I / Global[0];
    R[0] = Global[D];
    R[1] = Local[D];
    R[2] = Offset[D];
    R[3] = Id + Offset[D];
    R[4] = Id % Local[D];
    R[5] = Id / Local[D];
    R[6] = Global[D] / Local[D];
  }
};
} // namespace

static const Launch Launches[] = {
    {1, {40, 1, 1}, {8, 1, 1}, {5, 0, 0}, false},
    {1, {37, 1, 1}, {37, 1, 1}, {0, 0, 0}, true},
    {1, {64, 1, 1}, {16, 1, 1}, {1000, 0, 0}, false},
    {2, {24, 6, 1}, {8, 3, 1}, {3, 11, 0}, false},
    {2, {16, 5, 1}, {16, 1, 1}, {0, 0, 0}, true},
    {2, {9, 8, 1}, {3, 4, 1}, {7, 2, 0}, false},
};

static void run(Env &E, const Kernel &K, const Launch &L) {
  E.run(K, L.Dims, L.Global, L.Local, L.NullOffset ? nullptr : L.Offset);
}

static std::string dimName(cl_uint D) {
  return D == 0xffffffffu ? "UINT_MAX" : std::to_string(D);
}

CLT_TEST(workItemFunctionsConstantDims) {
  Program P = E.build(WorkItemSource);
  Kernel K = E.kernel(P, "constantDims");
  const cl_uint Dims[5] = {0, 1, 2, 3, 7};
  for (const Launch &L : Launches) {
    size_t N = L.items();
    Mem Out = E.output<cl_ulong>(35 * N);
    setArgs(K, Out);
    run(E, K, L);
    auto Got = E.read<cl_ulong>(Out, 35 * N);
    std::vector<cl_ulong> Want(35 * N);
    for (size_t I = 0; I < N; ++I)
      for (int J = 0; J < 5; ++J)
        L.want(I, Dims[J], &Want[35 * I + 7 * J]);
    expectEqual(Got, Want,
                "constantDims, " + L.name() +
                    " (per work-item: dimensions 0, 1, 2, 3, 7 x global size, "
                    "local size, offset, global id, local id, group id, "
                    "groups)");
  }
}

CLT_TEST(workItemFunctionsArgumentDim) {
  Program P = E.build(WorkItemSource);
  Kernel K = E.kernel(P, "argumentDim");
  for (const Launch &L : Launches)
    for (cl_uint D : {0u, 1u, 2u, 3u, 7u, 0xffffffffu}) {
      size_t N = L.items();
      Mem Out = E.output<cl_ulong>(7 * N);
      setArgs(K, Out, D);
      run(E, K, L);
      std::vector<cl_ulong> Want(7 * N);
      for (size_t I = 0; I < N; ++I)
        L.want(I, D, &Want[7 * I]);
      expectEqual(E.read<cl_ulong>(Out, 7 * N), Want,
                  "argumentDim " + dimName(D) + ", " + L.name());
    }
}

CLT_TEST(workItemFunctionsBufferDim) {
  Program P = E.build(WorkItemSource);
  Kernel K = E.kernel(P, "bufferDim");
  const cl_uint Choices[] = {0, 1, 2, 3, 7, 0xffffffffu, 1, 0, 4};
  for (const Launch &L : Launches) {
    size_t N = L.items();
    std::vector<cl_uint> Dims(N);
    for (size_t I = 0; I < N; ++I)
      Dims[I] = Choices[(I * 5 + I / 7) % 9];
    Mem DDims = E.input(Dims);
    Mem Out = E.output<cl_ulong>(7 * N);
    setArgs(K, Out, DDims);
    run(E, K, L);
    std::vector<cl_ulong> Want(7 * N);
    for (size_t I = 0; I < N; ++I)
      L.want(I, Dims[I], &Want[7 * I]);
    expectEqual(E.read<cl_ulong>(Out, 7 * N), Want, "bufferDim, " + L.name());
  }
}
