//===- Barriers.h - Work-group barriers in a kernel's IR --------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Helpers the work-group passes share. A barrier is a call to pocl.barrier
// (DESIGN.md section 3). After iss-barriers every barrier sits alone in a
// block of its own, a barrier block, whose successor has no phis: parallel
// regions start at the successor and end at the next barrier blocks (the
// pocl paper, section 4.3).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_ANALYSIS_BARRIERS_H
#define POCL_ISS_COMPILER_ANALYSIS_BARRIERS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class AAResults;
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace iss {

/// The name of the library's work-group barrier.
constexpr const char *BarrierName = "pocl.barrier";

/// True for a call to pocl.barrier.
bool isBarrier(const llvm::Instruction &I);

/// True for a block that holds a barrier and its terminator only, a return
/// or an unconditional branch.
bool isBarrierBlock(const llvm::BasicBlock &BB);

/// The barrier blocks of \p F, in layout order.
llvm::SmallVector<llvm::BasicBlock *, 8> barrierBlocks(llvm::Function &F);

/// True when the barrier blocks of \p F are more than the implicit ones at
/// the entry and the exit.
bool hasExplicitBarriers(llvm::Function &F);

/// Gives the barrier call \p Barrier a block of its own, ended by a branch
/// to a new block that has no phis (or by the return of the exit barrier).
/// Returns the barrier block.
llvm::BasicBlock *isolateBarrier(llvm::CallInst *Barrier);

/// Inserts an isolated barrier before \p Before, unless a barrier already
/// precedes it with nothing in between. Returns true if one was inserted.
bool insertBarrier(llvm::Instruction *Before);

/// How inlineAlwaysInlineCalls calls LLVM's InlineFunction. The defaults
/// are iss-barriers'; iss-hoist-uniform inlines as LLVM's always-inliner
/// does (the callee's attributes merged into the caller's, its alias
/// analysis for noalias scopes, no lifetime markers).
struct InlineOptions {
  bool MergeAttributes = false;
  bool InsertLifetime = true;
  /// The alias analysis of a callee, or null.
  llvm::function_ref<llvm::AAResults *(llvm::Function &)> CalleeAA;
};

/// Inlines, one call at a time, every call in \p F to a defined function
/// marked always_inline (iss-prepare marks everything a kernel reaches).
/// Returns true if it inlined anything.
bool inlineAlwaysInlineCalls(llvm::Function &F, const InlineOptions &Opts = {});

/// Calls \p Visit once on every defined function of \p M, each after the
/// always_inline functions it calls (a post-order of the call graph's
/// always_inline edges; iss-prepare marks no recursive function
/// always_inline, and a cycle would be cut where it closes). Inlining and
/// simplifying in this order copies each callee already simplified, as
/// LLVM's inliner does, instead of simplifying its copies one by one.
/// \p Visit may change functions but not add or erase any.
void forEachCalleeFirst(llvm::Module &M,
                        llvm::function_ref<void(llvm::Function &)> Visit);

} // namespace iss

#endif // POCL_ISS_COMPILER_ANALYSIS_BARRIERS_H
