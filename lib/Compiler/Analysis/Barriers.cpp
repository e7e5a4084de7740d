//===- Barriers.cpp - Work-group barriers in a kernel's IR ----------------===//
// SPDX-License-Identifier: MIT
//
// The helpers of Barriers.h: recognizing, placing and isolating barriers,
// and flattening a kernel so that every barrier it reaches is in its body.
//
//===----------------------------------------------------------------------===//

#include "Barriers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
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

namespace {
/// A call waiting to be inlined, with the inlining that made it: the chain
/// of callees it was copied out of, LLVM's inline history (Inliner.cpp).
struct PendingCall {
  WeakVH Call;
  int History;
};
} // namespace

/// True when \p Callee is on the inline history chain that starts at
/// \p History: inlining it again would unroll a recursion without end.
static bool inHistory(const Function *Callee, int History,
                      ArrayRef<std::pair<const Function *, int>> Histories) {
  for (; History != -1; History = Histories[History].second)
    if (Histories[History].first == Callee)
      return true;
  return false;
}

static bool isInlinable(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  return Callee && !Callee->isDeclaration() &&
         Callee->hasFnAttribute(Attribute::AlwaysInline);
}

bool inlineAlwaysInlineCalls(Function &F, const InlineOptions &Opts) {
  // A work list of call sites, fed by the calls each inlining copies in:
  // every instruction is looked at a constant number of times, where
  // rescanning the function after each inlining would be quadratic in the
  // number of calls. The list is a stack of calls in program order, so a
  // block is split at its last call first and the instructions after a call
  // move to a new block at most once.
  SmallVector<PendingCall, 64> Work;
  SmallVector<std::pair<const Function *, int>, 16> Histories;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (isInlinable(*CB))
          Work.push_back({CB, -1});
  bool Changed = false;
  while (!Work.empty()) {
    PendingCall P = Work.pop_back_val();
    auto *CB = dyn_cast_or_null<CallBase>(P.Call);
    if (!CB || !isInlinable(*CB))
      continue;
    Function *Callee = CB->getCalledFunction();
    // iss-prepare marks no recursive function always_inline; a call that
    // would inline a function into a copy of itself stays a call all the
    // same, whoever marked it.
    if (Callee == &F || inHistory(Callee, P.History, Histories))
      continue;
    InlineFunctionInfo Info;
    if (!InlineFunction(*CB, Info, Opts.MergeAttributes,
                        Opts.CalleeAA ? Opts.CalleeAA(*Callee) : nullptr,
                        Opts.InsertLifetime)
             .isSuccess()) {
      Callee->removeFnAttr(Attribute::AlwaysInline);
      continue;
    }
    Changed = true;
    int History = static_cast<int>(Histories.size());
    Histories.push_back({Callee, P.History});
    for (CallBase *NewCB : Info.InlinedCallSites)
      if (isInlinable(*NewCB))
        Work.push_back({NewCB, History});
  }
  return Changed;
}

void forEachCalleeFirst(Module &M, function_ref<void(Function &)> Visit) {
  // Depth first with a stack of its own (a chain of calls may be as deep
  // as the program makes it); each function's calls are listed once, when
  // it is reached, so the walk is linear in the size of the module.
  struct Frame {
    Function *F;
    SmallVector<Function *, 8> Callees;
  };
  SmallPtrSet<Function *, 32> Reached;
  SmallVector<Frame, 16> Stack;
  auto Reach = [&](Function &F) {
    if (F.isDeclaration() || !Reached.insert(&F).second)
      return;
    Frame Fr{&F, {}};
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (isInlinable(*CB))
            Fr.Callees.push_back(CB->getCalledFunction());
    Stack.push_back(std::move(Fr));
  };
  for (Function &Root : M) {
    Reach(Root);
    while (!Stack.empty()) {
      if (!Stack.back().Callees.empty()) {
        Reach(*Stack.back().Callees.pop_back_val());
        continue;
      }
      Function *F = Stack.pop_back_val().F;
      Visit(*F);
    }
  }
}

} // namespace iss
