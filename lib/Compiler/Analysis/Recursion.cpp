//===- Recursion.cpp - Recursive functions in a program -------------------===//
// SPDX-License-Identifier: MIT
//
// The call cycles of a program and the check clBuildProgram makes on them
// (Recursion.h). One walk over the call graph's strongly connected
// components, callees first, tells for every function the first thing it
// reaches that only the work-group function can provide.
//
//===----------------------------------------------------------------------===//

#include "Recursion.h"

#include "Barriers.h"
#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace iss {

std::vector<CallCycle> callCycles(Module &M) {
  std::vector<CallCycle> Cycles;
  CallGraph CG(M);
  for (auto It = scc_begin(&CG); !It.isAtEnd(); ++It) {
    if (!It.hasCycle())
      continue;
    CallCycle Cycle;
    for (CallGraphNode *N : *It)
      if (Function *F = N->getFunction())
        Cycle.push_back(F);
    if (!Cycle.empty())
      Cycles.push_back(std::move(Cycle));
  }
  return Cycles;
}

namespace {
/// What a function needs that only the work-group function has.
struct Need {
  enum Kind { None, WorkItemState, Printf, Barrier, Kernel } What = None;
  /// The function that needs it: reads the global, calls the barrier, or
  /// is the kernel.
  const Function *Where = nullptr;
};
} // namespace

/// The functions whose instructions use \p V, through constant expressions
/// too.
static void addUsingFunctions(Value *V, Need::Kind What,
                              DenseMap<const Function *, Need> &Direct) {
  SmallVector<Value *, 8> Work = {V};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    for (User *UU : U->users()) {
      if (auto *I = dyn_cast<Instruction>(UU)) {
        const Function *F = I->getFunction();
        Direct.try_emplace(F, Need{What, F});
      } else if (isa<ConstantExpr>(UU)) {
        Work.push_back(UU);
      }
    }
  }
}

static std::string displayName(const Function &F) {
  std::string Name = F.getName().str();
  std::string D = demangle(Name);
  // pocl's library renames builtins _cl_<name> (DESIGN.md section 3).
  StringRef Shown(D);
  if (Shown.consume_front("_cl_"))
    return Shown.str();
  return D;
}

static std::string quotedList(const CallCycle &Cycle) {
  std::string S;
  for (size_t I = 0; I < Cycle.size(); ++I) {
    if (I)
      S += I + 1 == Cycle.size() ? " and " : ", ";
    S += "'" + displayName(*Cycle[I]) + "'";
  }
  return S;
}

static std::string describe(const Need &N) {
  switch (N.What) {
  case Need::WorkItemState:
    return "'" + displayName(*N.Where) +
           "', which reads the work-item's ids or sizes";
  case Need::Printf:
    return "printf (in '" + displayName(*N.Where) + "')";
  case Need::Barrier:
    return "a barrier (in '" + displayName(*N.Where) + "')";
  case Need::Kernel:
    return "the kernel '" + displayName(*N.Where) + "'";
  case Need::None:
    break;
  }
  return "nothing";
}

bool checkRecursion(Module &M, std::string &Log) {
  // What each function needs itself.
  DenseMap<const Function *, Need> Direct;
  for (const char *Name : WorkItemGlobals)
    if (GlobalVariable *G = M.getGlobalVariable(Name))
      addUsingFunctions(G,
                        StringRef(Name).starts_with("_printf_")
                            ? Need::Printf
                            : Need::WorkItemState,
                        Direct);
  if (Function *B = M.getFunction(BarrierName))
    addUsingFunctions(B, Need::Barrier, Direct);
  std::vector<Function *> Kernels = kernelsOf(M);
  for (Function *K : Kernels)
    Direct[K] = Need{Need::Kernel, K};

  // What the kernels reach.
  SmallPtrSet<const Function *, 32> Reached;
  SmallVector<const Function *, 32> Work(Kernels.begin(), Kernels.end());
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    if (!Reached.insert(F).second)
      continue;
    for (const BasicBlock &BB : *F)
      for (const Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (const Function *Callee = CB->getCalledFunction())
            Work.push_back(Callee);
  }

  // What each function reaches, callees first: a component needs what one
  // of its functions needs or what a callee outside it reaches.
  DenseMap<const Function *, Need> Reaches;
  bool Ok = true;
  CallGraph CG(M);
  for (auto It = scc_begin(&CG); !It.isAtEnd(); ++It) {
    Need N;
    for (CallGraphNode *CN : *It) {
      const Function *F = CN->getFunction();
      if (!F)
        continue;
      auto D = Direct.find(F);
      if (D != Direct.end() && N.What == Need::None)
        N = D->second;
      for (const auto &Edge : *CN)
        if (const Function *Callee = Edge.second->getFunction()) {
          auto R = Reaches.find(Callee);
          if (R != Reaches.end() && N.What == Need::None)
            N = R->second;
        }
    }
    for (CallGraphNode *CN : *It)
      if (const Function *F = CN->getFunction())
        Reaches[F] = N;
    if (!It.hasCycle() || N.What == Need::None)
      continue;
    CallCycle Cycle;
    bool FromKernel = false;
    for (CallGraphNode *CN : *It)
      if (Function *F = CN->getFunction()) {
        Cycle.push_back(F);
        FromKernel |= Reached.count(F) != 0;
      }
    if (!FromKernel)
      continue;
    llvm::sort(Cycle, [](const Function *A, const Function *B) {
      return A->getName() < B->getName();
    });
    Log += "error: recursion: " + quotedList(Cycle) +
           (Cycle.size() == 1 ? " calls itself" : " call each other") +
           " and reach" + (Cycle.size() == 1 ? "es " : " ") + describe(N) +
           ". OpenCL C 1.2 does not allow recursion (section 6.9); pocl-iss "
           "runs it as real calls, but only where no work-item function, "
           "barrier or printf is reached through it.\n";
    Ok = false;
  }
  return Ok;
}

} // namespace iss
