//===- Uniformity.h - Which values are the same for every work-item -*- C++
//-*-===//
// SPDX-License-Identifier: MIT
//
// The variable uniformity analysis of the pocl paper, section 4.6: a value
// is uniform when every work-item of a work-group computes the same value
// for it, a block when all work-items or none execute it, a loop when every
// work-item that enters it iterates it the same number of times.
// Horizontal inner-loop parallelization (iss-loop-barriers) and the merging
// of uniform values in the context (iss-context) rest on it.
//
// The roots of divergence are the local ids of dimensions with more than one
// work-item, private memory whose address escapes, atomic and volatile
// accesses and calls that write memory; a private variable only loaded and
// stored is uniform while all its stores are; it spreads through operands, and
// through control flow: a divergent branch makes the blocks up to its immediate
// post-dominator divergent, the phis there too, and, when it leaves a loop,
// every value of the loop used outside it (temporal divergence). A load
// from a uniform address is uniform: the kernels are free of data races.
//
// The local size comes from the kernel's "iss-local-size" attribute, which
// iss-prepare sets.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_ANALYSIS_UNIFORMITY_H
#define POCL_ISS_COMPILER_ANALYSIS_UNIFORMITY_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class PostDominatorTree;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

class WorkItemUniformity {
public:
  /// \p RootDims (bit d: dimension d) selects the local ids that are roots
  /// of divergence: with one bit, a value is "uniform" when it is the same
  /// for work-items that differ in that dimension only. With
  /// \p AtEqualIterations, values are compared where the work-items are at
  /// equal iteration counts of the loops around them (the splitting model
  /// compares lanes of a tile so), and divergent control flow around a
  /// loop no longer makes its header's phis divergent: only their incoming
  /// values do.
  WorkItemUniformity(llvm::Function &F, const llvm::PostDominatorTree &PDT,
                     const llvm::LoopInfo &LI, unsigned RootDims = 7,
                     bool AtEqualIterations = false);

  /// Every work-item computes the same value for \p V.
  bool isUniform(const llvm::Value *V) const { return !Divergent.count(V); }
  /// All work-items or none execute \p BB.
  bool isUniformBlock(const llvm::BasicBlock *BB) const {
    return !DivergentBlocks.count(BB);
  }
  /// Every work-item that reaches \p L's header reaches it with all the
  /// others, and leaves \p L after the same number of iterations.
  bool isUniformLoop(const llvm::Loop &L) const;

  void print(llvm::raw_ostream &OS) const;

private:
  void markDivergent(const llvm::Value *V);
  void divergentBranch(const llvm::Instruction *Term);

  llvm::Function &F;
  const llvm::PostDominatorTree &PDT;
  const llvm::LoopInfo &LI;
  llvm::DenseSet<const llvm::Value *> Divergent;
  llvm::DenseSet<const llvm::BasicBlock *> DivergentBlocks;
  llvm::DenseSet<const llvm::Instruction *> DivergentBranches;
  /// Loops whose values used outside were marked for temporal divergence.
  llvm::DenseSet<const llvm::Loop *> TemporallyDivergent;
  llvm::SmallVector<const llvm::Value *, 32> Work;
  bool AtEqualIterations;
};

/// The analysis-manager wrapper.
class WorkItemUniformityAnalysis
    : public llvm::AnalysisInfoMixin<WorkItemUniformityAnalysis> {
  friend llvm::AnalysisInfoMixin<WorkItemUniformityAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = WorkItemUniformity;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<iss-uniformity>: prints the analysis for lit tests.
class WorkItemUniformityPrinterPass
    : public llvm::PassInfoMixin<WorkItemUniformityPrinterPass> {
public:
  explicit WorkItemUniformityPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  llvm::raw_ostream &OS;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_ANALYSIS_UNIFORMITY_H
