//===- Barriers.cpp - Work-group barriers in a kernel's IR ----------------===//
// SPDX-License-Identifier: MIT
//
// The helpers of Barriers.h: recognizing, placing and isolating barriers,
// and flattening a kernel so that every barrier it reaches is in its body.
//
//===----------------------------------------------------------------------===//

#include "Barriers.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace iss {

bool isBarrier(const Instruction &I) {
  if (const auto *C = dyn_cast<CallInst>(&I))
    if (const Function *F = C->getCalledFunction())
      return F->getName() == BarrierName;
  return false;
}

bool isBarrierBlock(const BasicBlock &BB) {
  const Instruction &First = BB.front();
  const Instruction *T = BB.getTerminator();
  return isBarrier(First) && First.getNextNode() == T &&
         (isa<ReturnInst>(T) || T->getNumSuccessors() == 1);
}

SmallVector<BasicBlock *, 8> barrierBlocks(Function &F) {
  SmallVector<BasicBlock *, 8> Blocks;
  for (BasicBlock &BB : F)
    if (isBarrierBlock(BB))
      Blocks.push_back(&BB);
  return Blocks;
}

bool hasExplicitBarriers(Function &F) {
  unsigned N = 0;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      N += isBarrier(I);
  return N > 2;
}

BasicBlock *isolateBarrier(CallInst *Barrier) {
  BasicBlock *BB = Barrier->getParent();
  if (isBarrierBlock(*BB) && !BB->isEntryBlock()) {
    BasicBlock *Succ = BB->getSingleSuccessor();
    if (!Succ || (Succ->getSinglePredecessor() == BB && Succ->phis().empty()))
      return BB; // the exit barrier, or one isolated already
  }
  if (&BB->front() != Barrier || BB->isEntryBlock())
    BB = BB->splitBasicBlock(Barrier, BB->getName() + ".barrier");
  Instruction *Next = Barrier->getNextNode();
  // The exit barrier keeps its return; every other barrier block branches
  // to a block of its own, which cannot have phis.
  if (!isa<ReturnInst>(Next))
    BB->splitBasicBlock(Next, BB->getName() + ".next");
  return BB;
}

/// True when a barrier executes right before \p I: in the same block, or
/// in the single predecessor \p I's block begins with.
static bool precededByBarrier(Instruction *I) {
  if (Instruction *Prev = I->getPrevNode())
    return isBarrier(*Prev);
  BasicBlock *Pred = I->getParent()->getSinglePredecessor();
  return Pred && Pred->getTerminator()->getNumSuccessors() == 1 &&
         isBarrierBlock(*Pred);
}

bool insertBarrier(Instruction *Before) {
  if (precededByBarrier(Before))
    return false;
  Module *M = Before->getModule();
  FunctionCallee Callee = M->getOrInsertFunction(
      BarrierName, FunctionType::get(Type::getVoidTy(M->getContext()), false));
  if (auto *F = dyn_cast<Function>(Callee.getCallee()))
    F->addFnAttr(Attribute::NoDuplicate);
  CallInst *C = CallInst::Create(Callee, "", Before);
  isolateBarrier(C);
  return true;
}

void inlineAlwaysInlineCalls(Function &F) {
  // One call at a time: inlining splits blocks under any iterator.
  while (true) {
    CallBase *Next = nullptr;
    for (BasicBlock &BB : F) {
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() &&
                Callee->hasFnAttribute(Attribute::AlwaysInline)) {
              Next = CB;
              break;
            }
      if (Next)
        break;
    }
    if (!Next)
      return;
    InlineFunctionInfo Info;
    if (!InlineFunction(*Next, Info).isSuccess())
      Next->getCalledFunction()->removeFnAttr(Attribute::AlwaysInline);
  }
}

} // namespace iss
