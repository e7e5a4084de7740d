//===- ImplicitLoopBarriers.cpp - Barriers that make loops lock-step ------===//
// SPDX-License-Identifier: MIT
//
// iss-loop-barriers (see Passes.h), the pocl paper, sections 4.5 and 4.6.
//
// A loop with a barrier (a b-loop) is iterated by all work-items in
// lock-step. Barriers at the end of its preheader, after its header's phis
// and before its latch branch make each piece of an iteration a parallel
// region of its own, and keep the loop's own branches out of the work-item
// loops.
//
// Horizontal inner-loop parallelization treats an innermost loop without
// barriers as a b-loop when the uniformity analysis proves that every
// work-item enters it together and iterates it as often as the others; its
// enclosing loops must then be uniform too, as they become b-loops. The
// work-item loop then runs inside the kernel loop, where it can be
// vectorized: the DCT case of section 4.6. In scalar mode this is done only
// for kernels that have barriers anyway, as pocl does: without
// vectorization, a work-item loop per iteration only adds context traffic;
// so too for a kernel kept as written (iss-as-written).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Analysis/Uniformity.h"
#include "Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "iss-loop-barriers"

namespace iss {

/// Whether \p L and the loops around it are iterated in lock-step by all
/// work-items, so that barriers in them are legal.
static bool isLockStep(const Loop &L, const WorkItemUniformity &U) {
  for (const Loop *P = &L; P; P = P->getParentLoop())
    if (!U.isUniformLoop(*P) || !P->getLoopPreheader() || !P->getLoopLatch())
      return false;
  return true;
}

PreservedAnalyses ImplicitLoopBarriersPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  Function *K = kernelToProcess(M, Config);
  if (!K)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(*K);
  WorkItemUniformity U(*K, FAM.getResult<PostDominatorTreeAnalysis>(*K), LI);

  // The loops around each barrier, found from the barriers up: scanning
  // every loop's blocks costs the kernel's size times its loop depth.
  SmallPtrSet<Loop *, 16> WithBarrier;
  for (BasicBlock &BB : *K)
    for (Instruction &I : BB)
      if (isBarrier(I))
        for (Loop *L = LI.getLoopFor(&BB); L && WithBarrier.insert(L).second;
             L = L->getParentLoop())
          ;
  SetVector<Loop *> BLoops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (WithBarrier.count(L))
      BLoops.insert(L);
  // A kernel kept as written (iss-as-written) is not widened either.
  bool Widened =
      Config.IssMode != Mode::Scalar && !K->hasFnAttribute(AsWrittenAttr);
  bool Horizontal = Config.Horizontal && Config.workItems() > 1 &&
                    (Widened || hasExplicitBarriers(*K));
  if (Horizontal)
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || BLoops.count(L))
        continue;
      if (!isLockStep(*L, U)) {
        LLVM_DEBUG(dbgs() << "iss-loop-barriers: loop " << L->getName()
                          << " is not uniform: no horizontal parallelization\n");
        continue;
      }
      for (Loop *P = L; P; P = P->getParentLoop())
        BLoops.insert(P);
    }

  // The anchors first: inserting barriers splits blocks, but instructions
  // stay where they are.
  SmallVector<Instruction *, 16> Anchors;
  for (Loop *L : BLoops) {
    BasicBlock *Pre = L->getLoopPreheader();
    BasicBlock *Latch = L->getLoopLatch();
    if (!Pre || !Latch) {
      // LoopSimplify gives every natural loop both; a b-loop without them
      // (irreducible control flow) is outside what OpenCL defines.
      LLVM_DEBUG(dbgs() << "iss-loop-barriers: loop " << L->getName()
                        << " is not in simplified form\n");
      continue;
    }
    Anchors.push_back(Pre->getTerminator());
    Anchors.push_back(L->getHeader()->getFirstNonPHI());
    Anchors.push_back(Latch->getTerminator());
    // A header that tests for the exit (a for or while loop) gets its test
    // a region of its own: the region choosing between two barriers runs
    // its first work-item alone (iss-wi-loops' peeling), which should cost
    // the test only, not the first part of the body or what follows the
    // loop. All work-items take the same successor, as for any branch of a
    // lock-step loop's header.
    auto *Test = dyn_cast<BranchInst>(L->getHeader()->getTerminator());
    if (Test && Test->isConditional() && L->isLoopExiting(L->getHeader()))
      for (BasicBlock *Succ : Test->successors())
        if (Succ->getSinglePredecessor() == L->getHeader() &&
            !isBarrier(*Succ->getFirstNonPHI()))
          Anchors.push_back(Succ->getFirstNonPHI());
  }
  bool Changed = false;
  for (Instruction *I : Anchors)
    Changed |= insertBarrier(I);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
