//===- SubkernelTuning.cpp - The subkernels readied for O3 ----------------===//
// SPDX-License-Identifier: MIT
//
// The last three passes of the work-group pipeline (see Passes.h), which
// work on the subkernels __iss_sub_* the work-item loops made and prepare
// them for LLVM's O3 and the x86 back end:
//  - iss-codegen-attrs: the vector width each was built for, the host CPU
//    to tune for, and on AMD Zen no gathers;
//  - iss-scalarize: the kernel's own short vectors split into lanes, so
//    that the loop vectorizer widens them across work-items;
//  - iss-switch-tables: switches of a thousand cases or more made lookup
//    tables, before O3's SimplifyCFG runs take quadratic time on them.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

namespace iss {

/// The work-group functions of \p M, which the work-item loops made.
static SmallVector<Function *, 4> subkernels(Module &M) {
  SmallVector<Function *, 4> Out;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with("__iss_sub_"))
      Out.push_back(&F);
  return Out;
}

/// Runs \p FPM on each subkernel of \p M that \p Runs accepts; what
/// the runs preserve.
static PreservedAnalyses
runOnSubkernels(Module &M, ModuleAnalysisManager &MAM, FunctionPassManager &FPM,
                function_ref<bool(const Function &)> Runs) {
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  PreservedAnalyses PA = PreservedAnalyses::all();
  for (Function *F : subkernels(M))
    if (Runs(*F)) {
      PreservedAnalyses FPA = FPM.run(*F, FAM);
      FAM.invalidate(*F, FPA);
      PA.intersect(std::move(FPA));
    }
  PA.preserveSet<AllAnalysesOn<Function>>();
  PA.preserve<FunctionAnalysisManagerModuleProxy>();
  return PA;
}

PreservedAnalyses CodegenAttributesPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  for (Function *F : subkernels(M)) {
    // A subkernel for a dimension shorter than the native vector asks
    // for the width it was built for (iss-subkernels).
    unsigned Bits = getTargetInfo().NativeVectorBits;
    unsigned Lanes = 0;
    if (!F->getFnAttribute(VectorWidthAttr)
             .getValueAsString()
             .getAsInteger(10, Lanes) &&
        Lanes && !Config.ForceWidth)
      Bits = std::min(Bits, std::max(128u, Lanes * 32));
    F->addFnAttr("prefer-vector-width", std::to_string(Bits));
    // The kernel library fixes the target CPU (its features); the cost
    // models are tuned for the CPU we run on: on AMD Zen, say, gathers are
    // slow and the vectorizer must know it. Tuning adds no instructions:
    // the code of a narrower POCL_ISS_TARGET than the host's stays within
    // its features.
    StringRef TuneCPU = Config.TuneCPU;
    if (!TuneCPU.empty() && TuneCPU != "generic")
      F->addFnAttr("tune-cpu", TuneCPU);
    // LLVM 19 tunes AMD Zen 4 and 5 as if gathers were cheap; measured on
    // Zen 5, the gathers of the array-of-struct kernel nn made it twice
    // slower than scalar code. Scalar loads it is, there.
    if (TuneCPU.starts_with("znver")) {
      std::string Features =
          F->getFnAttribute("target-features").getValueAsString().str();
      F->addFnAttr("target-features",
                   Features + (Features.empty() ? "" : ",") +
                       "+prefer-no-gather,+prefer-no-scatter");
    }
  }
  // Attributes for O3 and the code generator, which run with analyses of
  // their own; the ones cached here stay, as before these passes existed.
  return PreservedAnalyses::all();
}

PreservedAnalyses ScalarizeSubkernelsPass::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  // The loop vectorizer widens scalar instructions only. pocl's library
  // computes some builtins with short vectors and kernels use float4 and
  // friends: scalarizing the work-group function first lets the work-item
  // loop be vectorized across work-items (each component one lane vector);
  // the SLP vectorizer regroups what the loop vectorizer leaves. The
  // library's x86 intrinsics first become generic IR: neither pass splits
  // or widens them. A subkernel that is scalar, or kept as written, keeps
  // its vectors.
  ScalarizerPassOptions SO;
  SO.ScalarizeLoadStore = true;
  FunctionPassManager FPM;
  FPM.addPass(GenericIntrinsicsPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(ScalarizerPass(SO));
  return runOnSubkernels(M, MAM, FPM, [](const Function &F) {
    return !F.hasFnAttribute(ScalarAttr) && !F.hasFnAttribute(AsWrittenAttr);
  });
}

/// Switches with at least this many cases are turned into lookup tables
/// before O3.
static const unsigned HugeSwitchCases = 1024;

static bool hasHugeSwitch(const Function &F) {
  for (const BasicBlock &BB : F)
    if (const auto *SI = dyn_cast<SwitchInst>(BB.getTerminator()))
      if (SI->getNumCases() >= HugeSwitchCases)
        return true;
  return false;
}

/// LLVM 19's SimplifyCFG and JumpThreading take time linear in a block's
/// predecessors for every empty block they look at that branches to it
/// (TryToSimplifyUncondBranchFromEmptyBlock gathers them in a set first;
/// llvm/llvm-project#110715 fixed it in LLVM 20). A switch whose N cases
/// each compute a value for one phi leaves N empty case blocks after
/// InstCombine, and every one of O3's dozen SimplifyCFG runs costs N^2: a
/// 10,000-case switch took 10 s at the first launch, clang-19 -O3
/// as long on the same code in C. InstCombine and one SimplifyCFG run that
/// turns such a switch into a lookup table first, as the end of O3 would,
/// leave O3 nothing of the sort to do: the first launch of the 10,000-case
/// switch takes 0.6 s (pocl 3.1 with LLVM 15: 2 s). Switches that do not
/// become tables stay switches; their cost is LLVM's.
PreservedAnalyses HugeSwitchTablesPass::run(Module &M,
                                            ModuleAnalysisManager &MAM) {
  FunctionPassManager FPM;
  FPM.addPass(InstCombinePass());
  FPM.addPass(
      SimplifyCFGPass(SimplifyCFGOptions().convertSwitchToLookupTable(true)));
  return runOnSubkernels(M, MAM, FPM, hasHugeSwitch);
}

} // namespace iss
