//===- ImplicitConditionalBarriers.cpp - Barriers where paths decide ------===//
// SPDX-License-Identifier: MIT
//
// iss-cond-barriers (see Passes.h), the pocl paper, section 4.4. A barrier
// that not every path reaches is conditional: the region before it has
// several exit barriers, and iss-wi-loops peels its first work-item to pick
// the one all follow. Climbing the dominator tree from the barrier to the
// highest block it post-dominates, in the same loop, finds where the
// decision is already taken: every work-item reaching that block reaches
// the barrier, so by the barrier's semantics all of them do, and a barrier
// there is legal. It leaves only the branch itself in the peeled region.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "iss-cond-barriers"

namespace iss {

PreservedAnalyses
ImplicitConditionalBarriersPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *K = kernelToProcess(M, Config);
  if (!K)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(*K);
  PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(*K);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(*K);
  BasicBlock *Entry = &K->getEntryBlock();

  SetVector<Instruction *> Anchors;
  for (BasicBlock *B : barrierBlocks(*K)) {
    if (!DT.isReachableFromEntry(B) || PDT.dominates(B, Entry))
      continue; // unconditional
    BasicBlock *P = B;
    while (DomTreeNode *N = DT.getNode(P)->getIDom()) {
      BasicBlock *C = N->getBlock();
      if (C == Entry || isBarrierBlock(*C) || !PDT.dominates(B, C) ||
          LI.getLoopFor(C) != LI.getLoopFor(B))
        break;
      P = C;
    }
    if (P != B)
      Anchors.insert(P->getFirstNonPHI());
  }
  bool Changed = false;
  for (Instruction *I : Anchors)
    Changed |= insertBarrier(I);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
