//===- Uniformity.cpp - Which values are the same for every work-item -----===//
// SPDX-License-Identifier: MIT
//
// WorkItemUniformity (see Uniformity.h), the pocl paper, section 4.6: a
// forward propagation of divergence from its roots to a fixed point.
//
//===----------------------------------------------------------------------===//

#include "Uniformity.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace iss {

AnalysisKey WorkItemUniformityAnalysis::Key;

/// The local size from the kernel's "iss-local-size" attribute ("x,y,z");
/// 0 where unknown, which makes that dimension's local id divergent.
static void localSizeOf(const Function &F, unsigned Size[3]) {
  Size[0] = Size[1] = Size[2] = 0;
  StringRef S = F.getFnAttribute("iss-local-size").getValueAsString();
  for (unsigned D = 0; D < 3 && !S.empty(); ++D) {
    auto [Head, Tail] = S.split(',');
    Head.getAsInteger(10, Size[D]);
    S = Tail;
  }
}

/// A private variable only ever loaded and stored, by address: its loads
/// are uniform while every store to it is, in a uniformly executed block
/// (each work-item then holds the same sequence of values in its copy).
static bool isTrackedPrivate(const AllocaInst &A) {
  for (const User *U : A.users()) {
    if (const auto *L = dyn_cast<LoadInst>(U))
      if (L->getPointerOperand() == &A)
        continue;
    if (const auto *S = dyn_cast<StoreInst>(U))
      if (S->getPointerOperand() == &A && S->getValueOperand() != &A)
        continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(U))
      if (II->isLifetimeStartOrEnd())
        continue;
    return false;
  }
  return true;
}

/// Whether \p I starts divergence by itself, whatever its operands.
/// \p Tracked caches isTrackedPrivate per alloca: asked again for each load,
/// it would cost time quadratic in the number of its uses.
static bool isDivergenceRoot(const Instruction &I, const unsigned Size[3],
                             unsigned RootDims,
                             DenseMap<const AllocaInst *, bool> &Tracked) {
  static const char *const LocalIds[3] = {"_local_id_x", "_local_id_y",
                                          "_local_id_z"};
  auto IsTracked = [&](const AllocaInst &A) {
    auto [It, New] = Tracked.try_emplace(&A, false);
    if (New)
      It->second = isTrackedPrivate(A);
    return It->second;
  };
  if (const auto *A = dyn_cast<AllocaInst>(&I))
    return !IsTracked(*A);
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    const Value *P = L->getPointerOperand()->stripPointerCasts();
    if (const auto *A = dyn_cast<AllocaInst>(P))
      return !IsTracked(*A);
    if (L->isVolatile() || L->isAtomic())
      return true;
    if (const auto *GV = dyn_cast<GlobalVariable>(P))
      for (unsigned D = 0; D < 3; ++D)
        if (GV->getName() == LocalIds[D])
          return Size[D] != 1 && (RootDims >> D & 1);
    return false;
  }
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return !CB->getType()->isVoidTy() &&
           (CB->isInlineAsm() || !CB->onlyReadsMemory());
  return false;
}

WorkItemUniformity::WorkItemUniformity(Function &F,
                                       const PostDominatorTree &PDT,
                                       const LoopInfo &LI, unsigned RootDims,
                                       bool AtEqualIterations)
    : F(F), PDT(PDT), LI(LI), AtEqualIterations(AtEqualIterations) {
  unsigned Size[3];
  localSizeOf(F, Size);
  SmallVector<const AllocaInst *, 8> Tracked;
  DenseMap<const AllocaInst *, bool> IsTracked;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isDivergenceRoot(I, Size, RootDims, IsTracked))
        markDivergent(&I);
      else if (const auto *A = dyn_cast<AllocaInst>(&I))
        Tracked.push_back(A);
    }
  bool Changed = true;
  while (Changed) {
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const User *U : V->users()) {
        const auto *I = dyn_cast<Instruction>(U);
        if (!I)
          continue;
        if (isa<BranchInst>(I) || isa<SwitchInst>(I))
          divergentBranch(I);
        else if (!I->getType()->isVoidTy())
          markDivergent(I);
      }
    }
    // A private variable stored a divergent value, or stored by some
    // work-items only, makes its loads divergent.
    Changed = false;
    for (const AllocaInst *A : Tracked) {
      if (Divergent.count(A))
        continue;
      for (const User *U : A->users())
        if (const auto *S = dyn_cast<StoreInst>(U))
          if (Divergent.count(S->getValueOperand()) ||
              DivergentBlocks.count(S->getParent())) {
            Divergent.insert(A);
            for (const User *L : A->users())
              if (isa<LoadInst>(L))
                markDivergent(L);
            Changed = true;
            break;
          }
    }
  }
}

void WorkItemUniformity::markDivergent(const Value *V) {
  if (Divergent.insert(V).second)
    Work.push_back(V);
}

void WorkItemUniformity::divergentBranch(const Instruction *Term) {
  if (!DivergentBranches.insert(Term).second)
    return;
  const BasicBlock *X = Term->getParent();
  const DomTreeNodeBase<BasicBlock> *N = PDT.getNode(X);
  const BasicBlock *Join =
      N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
  // The blocks between the branch and its join run for some work-items
  // only; phis there and at the join merge values of different paths.
  SmallVector<const BasicBlock *, 16> Stack(succ_begin(X), succ_end(X));
  DenseSet<const BasicBlock *> Seen;
  while (!Stack.empty()) {
    const BasicBlock *B = Stack.pop_back_val();
    if (B == Join || !Seen.insert(B).second)
      continue;
    DivergentBlocks.insert(B);
    const Loop *L = LI.getLoopFor(B);
    if (!AtEqualIterations || !L || L->getHeader() != B)
      for (const PHINode &P : B->phis())
        markDivergent(&P);
    for (const BasicBlock *S : successors(B))
      Stack.push_back(S);
  }
  if (Join)
    for (const PHINode &P : Join->phis())
      markDivergent(&P);
  // Temporal divergence: work-items leave the loop after different
  // numbers of iterations, so what the loop computes differs after it.
  // What that marks depends on the loop only: each loop is done once.
  for (const Loop *L = LI.getLoopFor(X); L; L = L->getParentLoop()) {
    if (Join && L->contains(Join))
      break;
    if (!TemporallyDivergent.insert(L).second)
      continue;
    for (const BasicBlock *B : L->blocks())
      for (const Instruction &I : *B)
        for (const User *U : I.users())
          if (const auto *UI = dyn_cast<Instruction>(U))
            if (!L->contains(UI->getParent())) {
              markDivergent(&I);
              break;
            }
  }
}

bool WorkItemUniformity::isUniformLoop(const Loop &L) const {
  if (!isUniformBlock(L.getHeader()))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *E : Exiting)
    if (!isUniformBlock(E) || DivergentBranches.count(E->getTerminator()))
      return false;
  return true;
}

void WorkItemUniformity::print(raw_ostream &OS) const {
  OS << "Work-item uniformity of '" << F.getName() << "':\n";
  for (const BasicBlock &BB : F) {
    OS << "block ";
    BB.printAsOperand(OS, false);
    OS << (isUniformBlock(&BB) ? ": uniform\n" : ": divergent\n");
    for (const Instruction &I : BB)
      if (!I.getType()->isVoidTy())
        OS << (isUniform(&I) ? "  uniform:  " : "  divergent:") << I << "\n";
  }
  for (const Loop *L : LI.getLoopsInPreorder()) {
    OS << "loop ";
    L->getHeader()->printAsOperand(OS, false);
    OS << (isUniformLoop(*L) ? ": uniform\n" : ": divergent\n");
  }
}

WorkItemUniformity
WorkItemUniformityAnalysis::run(Function &F, FunctionAnalysisManager &FAM) {
  return WorkItemUniformity(F, FAM.getResult<PostDominatorTreeAnalysis>(F),
                            FAM.getResult<LoopAnalysis>(F));
}

PreservedAnalyses
WorkItemUniformityPrinterPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!F.isDeclaration() && F.hasFnAttribute("iss-local-size"))
    FAM.getResult<WorkItemUniformityAnalysis>(F).print(OS);
  return PreservedAnalyses::all();
}

} // namespace iss
