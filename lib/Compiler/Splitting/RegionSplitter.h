//===- RegionSplitter.h - Split plans from the polyhedral model -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Makes the SplitPlan of each parallel region from the model and the
// splitting predicates (RegionSplitter.cpp); iss-split runs it in the
// `split` and `split+score` modes. print<iss-predicates> shows what it
// decides.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H
#define POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H

#include "Passes.h"
#include "Splitting/SplitPlan.h"

namespace llvm {
class Function;
class PostDominatorTree;
class raw_ostream;
} // namespace llvm

namespace iss {

class WorkItemModel;
struct RegionModel;

/// What the planner makes of one region: a plan, or why the region runs
/// unsplit.
struct RegionPlan {
  std::unique_ptr<SplitPlan> Plan;
  /// Without a plan, why: a refusal (\p Refused; the planner's remark
  /// says it) or a region with nothing to gain, left unsplit silently.
  std::string Why;
  bool Refused = false;
};

/// The decisions of makeSplitPlanner (same arguments) with their reasons,
/// and no remarks: print<iss-predicates> shows them.
using RegionPlanner = std::function<RegionPlan(llvm::BasicBlock *Barrier)>;
RegionPlanner makeRegionPlanner(const WorkItemModel &M, unsigned Dim,
                                unsigned Width, unsigned MaxPieces,
                                bool CheapMasks, bool PartialEdges,
                                llvm::Function &Kernel);

/// The planner for \p Kernel's regions, vectorized along \p Dim with
/// \p Width lanes, at most \p MaxPieces ranges per region. \p M and
/// \p Kernel must outlive it. A region it refuses to split
/// (RegionPlan::Refused) is a remark (iss-split) saying why; one with
/// nothing to gain stays unsplit silently. \p CheapMasks: masked loads and
/// stores cost what plain ones do (WorkGroupConfig::CheapMasks).
/// \p PartialEdges: the plans may have edges (SplitPlan::edgeRanges).
SplitPlanner makeSplitPlanner(const WorkItemModel &M, unsigned Dim,
                              unsigned Width, unsigned MaxPieces,
                              bool CheapMasks, bool PartialEdges,
                              llvm::Function &Kernel);

/// The masked-guard rule as written, the first the planner asks where
/// masked loads and stores cost what plain ones do: \p R is straight-line
/// code whose branches are each the same along \p Dim or a guard (a
/// successor post-dominates it, \p PDT is the kernel's), at least one a
/// guard that is not the same along \p Dim, and whose accesses each step
/// by their size along \p Dim as written (not by the model's checks).
/// Then the vectorizer's masks cover the guards as fast as a split would,
/// and \p R stays unsplit.
bool masksCoverAsWritten(const WorkItemModel &M, const RegionModel &R,
                         unsigned Dim, unsigned Width, unsigned MaxPieces,
                         const llvm::PostDominatorTree &PDT);

/// Whether no split of \p R (a region of \p M) along \p Dim could fold a
/// branch or change the class of an access, decided on the model before
/// any predicate is computed: no branch depends on x_d, every tile is whole
/// (the local size along \p Dim is a multiple of \p Width), and every
/// address is either not affine or one affine expression without floors
/// over the whole of its block and needs no run-time check, so that it
/// steps by the same amount along x_d on every tile. The planner then leaves \p R unsplit,
/// as it would after computing the predicates (box_filter_vertical's eight
/// regions, whose branches are on y).
bool nothingToSplit(const WorkItemModel &M, const RegionModel &R,
                    unsigned Dim, unsigned Width);

/// print<iss-predicates>: for a kernel prepared by iss-prepare, after
/// iss-context, the plan iss-split gets for each region of the model
/// under \p Config (the iss-* options of pocl-iss-opt: mode, local size,
/// width, pieces, cheap masks, partial edges), vectorized along
/// Config.vectorizedDim(): its pieces, ranges and copies
/// (SplitPlan::print), or why the region runs unsplit. iss-split asks
/// only for regions with one exit that the work-items do not all run
/// alike; the others are shown too.
class SplitPlanPrinterPass : public llvm::PassInfoMixin<SplitPlanPrinterPass> {
public:
  SplitPlanPrinterPass(llvm::raw_ostream &OS, WorkGroupConfig Config)
      : OS(OS), Config(std::move(Config)) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  llvm::raw_ostream &OS;
  WorkGroupConfig Config;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H
