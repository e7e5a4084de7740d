//===- KernelPrepare.cpp - Ready a linked program for one kernel ----------===//
// SPDX-License-Identifier: MIT
//
// iss-prepare (see Passes.h). pocl inlines everything into the kernel (the
// pocl paper, section 8): the work-item globals must all be read inside the
// work-group function so that they can be replaced there, and calls left in
// a work-item loop keep the loop vectorizer from doing its job.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"
#include "Recursion.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"

#include <set>

using namespace llvm;

#define DEBUG_TYPE "iss-prepare"

namespace iss {

const char *const WorkItemGlobals[19] = {
    "_local_id_x",      "_local_id_y",       "_local_id_z",
    "_local_size_x",    "_local_size_y",     "_local_size_z",
    "_group_id_x",      "_group_id_y",       "_group_id_z",
    "_num_groups_x",    "_num_groups_y",     "_num_groups_z",
    "_global_offset_x", "_global_offset_y",  "_global_offset_z",
    "_work_dim",        "_printf_buffer",    "_printf_buffer_position",
    "_printf_buffer_capacity"};

static cl::opt<std::string> KernelName("iss-kernel",
                                       cl::desc("Kernel to compile"),
                                       cl::init(""));
static cl::list<unsigned> LocalSizeOpt("iss-local-size", cl::CommaSeparated,
                                    cl::desc("Local size x,y,z"));
static cl::opt<std::string> ModeName("iss-mode", cl::desc("POCL_ISS_MODE"),
                                     cl::init("vec"));
static cl::opt<unsigned> Width("iss-vector-width",
                               cl::desc("Force the vector width"),
                               cl::init(0));
static cl::opt<bool>
    HorizontalOpt("iss-horizontal",
               cl::desc("Horizontal inner-loop parallelization"),
               cl::init(true));

WorkGroupConfig WorkGroupConfig::fromCommandLine() {
  WorkGroupConfig C;
  C.Kernel = KernelName;
  for (unsigned D = 0; D < 3 && D < LocalSizeOpt.size(); ++D)
    C.LocalSize[D] = LocalSizeOpt[D];
  if (auto M = parseMode(ModeName))
    C.IssMode = *M;
  if (Width) {
    C.VectorWidth = Width;
    C.ForceWidth = true;
  }
  C.Horizontal = HorizontalOpt;
  return C;
}

Function *kernelToProcess(Module &M, const WorkGroupConfig &C) {
  Function *K = M.getFunction(C.Kernel);
  return K && !K->isDeclaration() ? K : nullptr;
}

FunctionAnalysisManager &functionAnalyses(Module &M,
                                          ModuleAnalysisManager &MAM) {
  return MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
}

unsigned WorkGroupConfig::vectorizedDim() const {
  for (unsigned D = 0; D < 3; ++D)
    if (LocalSize[D] >= VectorWidth)
      return D;
  return 0;
}

SmallVector<unsigned, 3> WorkGroupConfig::loopOrder() const {
  unsigned VecDim = vectorizedDim();
  SmallVector<unsigned, 3> Order;
  for (int D = 2; D >= 0; --D)
    if (unsigned(D) != VecDim)
      Order.push_back(D);
  Order.push_back(VecDim);
  return Order;
}

/// The printf formatter is large and reads no work-item state: it stays a
/// call rather than being copied into every printf site.
static bool keepOutOfLine(const Function &F) {
  return F.getName().starts_with("__pocl_printf");
}

PreservedAnalyses KernelPreparePass::run(Module &M, ModuleAnalysisManager &) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel)
    return PreservedAnalyses::all();

  // Everything the kernel reaches gets inlined.
  std::set<Function *> Reached;
  std::vector<Function *> Work = {Kernel};
  while (!Work.empty()) {
    Function *F = Work.back();
    Work.pop_back();
    if (!Reached.insert(F).second || F->isDeclaration())
      continue;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            Work.push_back(Callee);
  }
  // Recursive functions stay real calls, as on pocl: inlining them into the
  // kernel would never end. clBuildProgram refused those that reach
  // work-item state (Recursion.h); LLVM's inliner may still inline a few
  // levels of the others at O3.
  std::set<Function *> Recursive;
  for (const CallCycle &Cycle : callCycles(M))
    Recursive.insert(Cycle.begin(), Cycle.end());
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
    if (Recursive.count(&F))
      F.removeFnAttr(Attribute::AlwaysInline);
    else if (keepOutOfLine(F))
      F.addFnAttr(Attribute::NoInline);
    else if (Reached.count(&F))
      F.addFnAttr(Attribute::AlwaysInline);
    if (&F != Kernel)
      F.setLinkage(GlobalValue::InternalLinkage);
  }
  Kernel->setCallingConv(CallingConv::C);
  // The uniformity analysis reads the local size from here.
  Kernel->addFnAttr("iss-local-size",
                    std::to_string(Config.LocalSize[0]) + "," +
                        std::to_string(Config.LocalSize[1]) + "," +
                        std::to_string(Config.LocalSize[2]));
  for (Function *F : Reached)
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        CB->setCallingConv(CallingConv::C);

  // The local size is a constant of this compilation.
  static const char *const Sizes[3] = {"_local_size_x", "_local_size_y",
                                       "_local_size_z"};
  for (unsigned D = 0; D < 3; ++D)
    if (GlobalVariable *G = M.getGlobalVariable(Sizes[D])) {
      for (User *U : make_early_inc_range(G->users()))
        if (auto *L = dyn_cast<LoadInst>(U))
          if (L->getType()->isIntegerTy()) {
            L->replaceAllUsesWith(
                ConstantInt::get(L->getType(), Config.LocalSize[D]));
            L->eraseFromParent();
          }
    }
  return PreservedAnalyses::none();
}

} // namespace iss
