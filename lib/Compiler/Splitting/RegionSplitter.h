//===- RegionSplitter.h - Split plans from the polyhedral model -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Makes the SplitPlan of each parallel region from the model and the
// splitting predicates (RegionSplitter.cpp); iss-wi-loops runs it in the
// `split`, `score` and `split+score` modes.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H
#define POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H

#include "Splitting/SplitPlan.h"

namespace llvm {
class Function;
}

namespace iss {

class WorkItemModel;

/// The planner for \p Kernel's regions, vectorized along \p Dim with
/// \p Width lanes, at most \p MaxPieces ranges per region. \p M and
/// \p Kernel must outlive it. A region it does not split is a remark
/// (iss-split) saying why. \p CheapMasks: masked loads and stores cost
/// what plain ones do (WorkGroupConfig::CheapMasks).
SplitPlanner makeSplitPlanner(const WorkItemModel &M, unsigned Dim,
                              unsigned Width, unsigned MaxPieces,
                              bool CheapMasks, llvm::Function &Kernel);

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_REGIONSPLITTER_H
