//===- Passes.h - The kernel compiler's LLVM passes -----------------------===//
// SPDX-License-Identifier: MIT
//
// The passes of the work-group function generation (pocl's front half, the
// pocl paper, section 4) in LLVM's new pass manager. PassRegistry.def names
// each one once; the pipeline, pocl-iss-opt and the lit tests read it.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_PASSES_H
#define POCL_ISS_COMPILER_PASSES_H

#include "pocl-iss/Env.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class PassBuilder;
}

namespace iss {

/// What one compilation of a kernel is for: which kernel, its local size
/// (a compile-time constant, DESIGN.md section 2) and how to vectorize.
struct WorkGroupConfig {
  std::string Kernel;
  unsigned LocalSize[3] = {1, 1, 1};
  Mode IssMode = Mode::Vec;
  /// Lanes for 32-bit types: the paper's w. Forced on the vectorizer only
  /// when ForceWidth is set (POCL_ISS_VECTOR_WIDTH).
  unsigned VectorWidth = 8;
  bool ForceWidth = false;

  /// The configuration from the iss-* command-line options (pocl-iss-opt).
  static WorkGroupConfig fromCommandLine();
};

/// iss-prepare: readies the linked program for one kernel. Library
/// functions lose `noinline optnone` (get_global_id ships with them), every
/// function the kernel reaches is marked always_inline, other kernels and
/// library functions become internal, and loads of _local_size_{x,y,z}
/// become the compile-time local size.
class KernelPreparePass : public llvm::PassInfoMixin<KernelPreparePass> {
public:
  explicit KernelPreparePass(WorkGroupConfig C) : Config(std::move(C)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  WorkGroupConfig Config;
};

/// iss-wi-loops: the work-group function for a kernel without barriers.
/// Builds the subkernel __iss_sub_<kernel>_0(args, ctx) with one loop per
/// work-item dimension around the inlined kernel body (the vectorized
/// dimension innermost), replaces the work-item globals with the loop
/// counters and the fields of the work-group context, gives every work-item
/// its own copy of private arrays, marks the loops parallel
/// (llvm.loop.parallel_accesses) and builds the per-launch selection
/// function __iss_select_<kernel>.
class WorkItemLoopsPass : public llvm::PassInfoMixin<WorkItemLoopsPass> {
public:
  explicit WorkItemLoopsPass(WorkGroupConfig C) : Config(std::move(C)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  WorkGroupConfig Config;
};

/// The four analysis managers of the new pass manager, registered with a
/// PassBuilder and cross-linked the way opt sets them up.
struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  explicit AnalysisManagers(llvm::PassBuilder &PB);
};

/// Lets \p PB parse the names in PassRegistry.def in pipelines.
void registerIssPasses(llvm::PassBuilder &PB);

/// The names of the 19 work-item globals of pocl's kernel library.
extern const char *const WorkItemGlobals[19];

} // namespace iss

#endif // POCL_ISS_COMPILER_PASSES_H
