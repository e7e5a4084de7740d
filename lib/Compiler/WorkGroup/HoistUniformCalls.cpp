//===- HoistUniformCalls.cpp - Uniform builtin calls out of WI loops ------===//
// SPDX-License-Identifier: MIT
//
// iss-hoist-uniform (see Passes.h). A work-item-independent computation
// must run once per work group, not once per work-item: uniform values
// stay uniform. LICM does that for plain
// instructions in the work-item loops, but a builtin such as pow() is, once
// inlined, a web of branches that no pass hoists: a uniform pow() in front
// of a per-work-item early return made a kernel about 17 times slower than
// on pocl, which keeps its builtins as calls. So iss-prepare leaves the
// functions that touch no memory out of line (InlineLateAttr); here, with
// the work-item loops built, LICM hoists each such call whose arguments are
// loop invariant out of as many work-item loops as it can (it executes on
// every iteration and cannot trap or fail to return), and then every call
// of them is inlined, hoisted or not, and their locals broken up by SROA,
// so that what follows (the Scalarizer, the loop vectorizer) sees the
// builtins' bodies as before. The inlining goes callees first, each
// function simplified once before it is copied, as LLVM's inliner does.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Passes.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

#define DEBUG_TYPE "iss-hoist-uniform"

namespace iss {

/// Erases the always_inline functions nothing uses any more, as LLVM's
/// always-inliner does once it has inlined a function's calls.
static void eraseDeadInlinables(Module &M, FunctionAnalysisManager &FAM) {
  for (Function &F : make_early_inc_range(M))
    if (F.hasFnAttribute(Attribute::AlwaysInline) && !F.hasComdat() &&
        F.isDefTriviallyDead()) {
      FAM.clear(F, F.getName());
      F.eraseFromParent();
    }
}

PreservedAnalyses HoistUniformCallsPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  SmallVector<Function *, 8> Late;
  for (Function &F : M)
    if (F.hasFnAttribute(InlineLateAttr))
      Late.push_back(&F);
  if (Late.empty())
    return PreservedAnalyses::all();

  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  FunctionPassManager FPM;
  FPM.addPass(LoopSimplifyPass());
  FPM.addPass(LCSSAPass());
  FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()),
                                              /*UseMemorySSA=*/true));
  std::string Prefix = "__iss_sub_" + Config.Kernel + "_";
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(Prefix))
      FPM.run(F, FAM);

  for (Function *F : Late) {
    F->removeFnAttr(InlineLateAttr);
    F->addFnAttr(Attribute::AlwaysInline);
  }
  // The kernel's own function, dead since iss-wi-loops cloned it, needs no
  // copies of anything.
  eraseDeadInlinables(M, FAM);
  // Every call of an always_inline function is inlined, callees before
  // callers; a function is broken up by SROA once before it is copied (the
  // library's and the program's functions arrive unoptimized: clang runs
  // no pass on them, and the Scalarizer would split type-punned vector
  // memory, a uchar3 passed as an i32), and each subkernel once after.
  // Promoting the locals of thousands of inlined copies in the subkernel
  // instead, an iterated dominance frontier per alloca over the whole
  // subkernel, is quadratic in the number of calls.
  auto CalleeAA = [&](Function &Callee) {
    return &FAM.getResult<AAManager>(Callee);
  };
  InlineOptions Opts; // as LLVM's always-inliner, which this pass ran before
  Opts.MergeAttributes = true;
  Opts.InsertLifetime = false;
  Opts.CalleeAA = CalleeAA;
  forEachCalleeFirst(M, [&](Function &F) {
    if (inlineAlwaysInlineCalls(F, Opts))
      FAM.invalidate(F, PreservedAnalyses::none());
    if (F.hasFnAttribute(Attribute::AlwaysInline) ||
        F.getName().starts_with(Prefix))
      FAM.invalidate(F, SROAPass(SROAOptions::ModifyCFG).run(F, FAM));
  });
  eraseDeadInlinables(M, FAM);
  return PreservedAnalyses::none();
}

} // namespace iss
