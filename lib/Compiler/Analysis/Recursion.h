//===- Recursion.h - Recursive functions in a program -----------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// OpenCL C 1.2 does not allow recursion (section 6.9), but pocl runs it: it
// inlines only what reaches a barrier or a work-item function and leaves
// the rest to LLVM's inliner, so a recursive function that reaches neither
// stays a real call. pocl-iss does the same. A recursion that reaches a
// work-item function, a barrier, printf or a kernel cannot be inlined into
// the work-group function and cannot stay a call either (the work-item
// state exists only inside the work-group function): clBuildProgram
// refuses it with a log that names the functions.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_ANALYSIS_RECURSION_H
#define POCL_ISS_COMPILER_ANALYSIS_RECURSION_H

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace iss {

/// The functions of one cycle of direct calls: a strongly connected
/// component of the call graph that has a cycle (several functions, or one
/// that calls itself).
using CallCycle = llvm::SmallVector<llvm::Function *, 4>;

/// Every cycle of direct calls among the functions \p M defines, callees
/// before their callers. Linear in the size of \p M.
std::vector<CallCycle> callCycles(llvm::Module &M);

/// Checks that every recursion a kernel of \p M reaches can run as real
/// calls: nothing reached through it reads a work-item global (work-item
/// functions, printf), calls a barrier or is a kernel. For each one that
/// cannot, appends an error naming its functions and what they reach to
/// \p Log. Returns false when there was one.
bool checkRecursion(llvm::Module &M, std::string &Log);

} // namespace iss

#endif // POCL_ISS_COMPILER_ANALYSIS_RECURSION_H
