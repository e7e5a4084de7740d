//===- ManyKernels.h - A generated program of small kernels -----*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// startup-bench's first source: 120 small, distinct kernels in one program,
// the shape of an application that builds its whole kernel file at start and
// then launches a few of them. A quarter each of element-wise float math,
// clamped integer stencils (1D and 2D, borders clamped as in the paper's
// Convolution2D), reductions in __local memory with barriers, and guarded
// tails with short loops; every kernel gets constants of its own. The text is
// generated here, the same on every run, so that a kernel cache keyed by the
// source finds it again.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_STARTUPBENCH_MANYKERNELS_H
#define POCL_ISS_EXAMPLES_STARTUPBENCH_MANYKERNELS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace startup {

/// The number of kernels in the program.
constexpr unsigned ManyKernelCount = 120;

/// The work-group size of the reductions (their __local arrays have as many
/// elements), and the one the launched kernel runs with.
constexpr size_t ReductionLocal = 64;

/// The program's source.
std::string manyKernelsSource();

/// The kernel startup-bench launches: a reduction, `__kernel void
/// <name>(__global uint *out, __global const uint *in, uint n)`, one sum per
/// work group of ReductionLocal work-items, elements from n on left out.
const char *launchedKernel();

/// What the launched kernel writes to out[0 .. Groups - 1] for \p In (its
/// n is In.size()).
std::vector<uint32_t> launchedReference(const std::vector<uint32_t> &In,
                                        size_t Groups);

} // namespace startup

#endif // POCL_ISS_EXAMPLES_STARTUPBENCH_MANYKERNELS_H
