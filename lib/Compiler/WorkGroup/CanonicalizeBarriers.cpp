//===- CanonicalizeBarriers.cpp - Barriers at entry, exit and alone -------===//
// SPDX-License-Identifier: MIT
//
// iss-barriers (see Passes.h), step 1 of the pocl paper's Algorithm 1
// (section 4.3): implicit barriers at the entry and the single exit, which
// do not change what the kernel may do, and every barrier in a block of its
// own so that the later passes see parallel regions as plain subgraphs.
//
// pocl's library implements async_work_group_copy as a blocking copy by
// work-item 0 and wait_group_events as nothing (DESIGN.md section 3). The
// copy must be encountered by all work-items with the same arguments, so
// barriers around it are legal, and they give it its meaning: the others
// wait for the copy before they read, and it sees what they wrote.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Passes.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

#define DEBUG_TYPE "iss-barriers"

namespace iss {

static bool isAsyncCopy(const Function &F) {
  return F.getName().contains("async_work_group_copy") ||
         F.getName().contains("async_work_group_strided_copy");
}

/// Inlines everything into \p K except the async copies, puts barriers
/// around each async copy and then inlines the copies too.
static void flatten(Module &M, Function &K, FunctionAnalysisManager &FAM) {
  SmallVector<Function *, 4> Async;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::AlwaysInline))
      continue;
    // Each function gets SROA once before it is copied into the kernel, as
    // LLVM's inliner simplifies callees before their callers: promoting the
    // allocas of one small function is cheap, while promoting those of
    // thousands of inlined copies at once costs time quadratic in the size
    // of the kernel (an iterated dominance frontier per alloca).
    FAM.invalidate(F, SROAPass(SROAOptions::PreserveCFG).run(F, FAM));
    if (isAsyncCopy(F)) {
      F.removeFnAttr(Attribute::AlwaysInline);
      Async.push_back(&F);
    }
  }
  inlineAlwaysInlineCalls(K);
  if (Async.empty())
    return;
  SmallVector<CallBase *, 4> Copies;
  for (BasicBlock &BB : K)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->getCalledFunction() && isAsyncCopy(*CB->getCalledFunction()))
          Copies.push_back(CB);
  for (CallBase *CB : Copies) {
    insertBarrier(CB->getNextNode());
    insertBarrier(CB);
  }
  for (Function *F : Async)
    F->addFnAttr(Attribute::AlwaysInline);
  inlineAlwaysInlineCalls(K);
}

/// Replaces every return of \p K with a branch to one return block.
static ReturnInst *unifyReturns(Function &K) {
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : K)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(R);
  assert(!Returns.empty() && "a kernel without a return");
  if (Returns.size() == 1)
    return Returns.front();
  BasicBlock *Exit = BasicBlock::Create(K.getContext(), "kernel.exit", &K);
  ReturnInst *Ret = ReturnInst::Create(K.getContext(), Exit);
  for (ReturnInst *R : Returns) {
    BranchInst::Create(Exit, R);
    R->eraseFromParent();
  }
  return Ret;
}

PreservedAnalyses CanonicalizeBarriersPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  Function *K = kernelToProcess(M, Config);
  if (!K)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  flatten(M, *K, FAM);
  removeUnreachableBlocks(*K);
  FAM.invalidate(*K, PreservedAnalyses::none());
  // SROA, and a first clean-up: each value left is one that may have to be
  // saved across a barrier (the library's get_global_id, say, is a switch
  // on a constant dimension until folded).
  FAM.invalidate(*K, SROAPass(SROAOptions::PreserveCFG).run(*K, FAM));
  FAM.invalidate(*K, SimplifyCFGPass().run(*K, FAM));
  FAM.invalidate(*K, EarlyCSEPass().run(*K, FAM));

  ReturnInst *Ret = unifyReturns(*K);
  // The entry block keeps only the static allocas, which the work-group
  // function hoists out of every region; the entry barrier follows them.
  BasicBlock &Entry = K->getEntryBlock();
  BasicBlock::iterator It = Entry.begin();
  while (isa<AllocaInst>(*It) && cast<AllocaInst>(*It).isStaticAlloca())
    ++It;
  Entry.splitBasicBlock(It, "kernel.body");
  insertBarrier(Entry.getTerminator());
  insertBarrier(Ret);
  SmallVector<CallInst *, 8> Barriers;
  for (BasicBlock &BB : *K)
    for (Instruction &I : BB)
      if (isBarrier(I))
        Barriers.push_back(cast<CallInst>(&I));
  for (CallInst *B : Barriers)
    isolateBarrier(B);

  FAM.invalidate(*K, PreservedAnalyses::none());
  FAM.invalidate(*K, LoopSimplifyPass().run(*K, FAM));
  return PreservedAnalyses::none();
}

} // namespace iss
