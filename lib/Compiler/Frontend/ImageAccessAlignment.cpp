//===- ImageAccessAlignment.cpp - Element alignment for image accesses ----===//
// SPDX-License-Identifier: MIT
//
// iss-image-align (see Passes.h). pocl 3.1's library reads and writes a
// pixel as one vector (a float4 through a float4 pointer), which LLVM may
// compile to an aligned vector instruction; an image over the
// application's memory (CL_MEM_USE_HOST_PTR) need not be aligned to more
// than its channels, and such an image crashed the kernel (pocl 3.1
// crashes the same way). In the library functions the image builtins
// reach, every vector load and store is given the alignment of its
// element, which costs nothing on x86 where the address is aligned. It
// runs once the library is linked: the functions it changes are the
// library's.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace iss {

PreservedAnalyses ImageAccessAlignmentPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  SmallVector<Function *, 32> Work;
  SmallPtrSet<Function *, 32> Seen;
  for (Function &F : M) {
    StringRef N = F.getName();
    if (!F.isDeclaration() &&
        (N.contains("_cl_read_image") || N.contains("_cl_write_image")) &&
        Seen.insert(&F).second)
      Work.push_back(&F);
  }
  bool Changed = false;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Seen.insert(Callee).second)
            Work.push_back(Callee);
      Type *T = nullptr;
      if (auto *L = dyn_cast<LoadInst>(&I))
        T = L->getType();
      else if (auto *St = dyn_cast<StoreInst>(&I))
        T = St->getValueOperand()->getType();
      auto *VT = dyn_cast_or_null<FixedVectorType>(T);
      if (!VT)
        continue;
      Align Elem(M.getDataLayout().getTypeStoreSize(VT->getElementType()));
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        Changed |= Elem < L->getAlign();
        L->setAlignment(std::min(L->getAlign(), Elem));
      } else {
        auto *St = cast<StoreInst>(&I);
        Changed |= Elem < St->getAlign();
        St->setAlignment(std::min(St->getAlign(), Elem));
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
