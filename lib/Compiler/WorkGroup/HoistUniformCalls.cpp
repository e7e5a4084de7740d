//===- HoistUniformCalls.cpp - Uniform builtin calls out of WI loops ------===//
// SPDX-License-Identifier: MIT
//
// iss-hoist-uniform (see Passes.h). A work-item-independent computation
// must run once per work group, not once per work-item (the splitting
// issue's "uniform values stay uniform"). LICM does that for plain
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
// builtins' bodies as before.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/IR/Module.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

#define DEBUG_TYPE "iss-hoist-uniform"

namespace iss {

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
  PreservedAnalyses Inlined =
      AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false).run(M, MAM);
  // The inliner changed the subkernels behind the analysis managers' back.
  MAM.invalidate(M, Inlined);
  // The library's and the program's functions arrive unoptimized (clang
  // runs no pass on them): SROA breaks up their inlined locals here, as
  // iss-barriers did for everything inlined before, or the Scalarizer
  // would split type-punned vector memory (a uchar3 passed as an i32).
  FunctionPassManager Clean;
  Clean.addPass(SROAPass(SROAOptions::ModifyCFG));
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(Prefix))
      Clean.run(F, FAM);
  return PreservedAnalyses::none();
}

} // namespace iss
