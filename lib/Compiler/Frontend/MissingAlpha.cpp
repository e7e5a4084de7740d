//===- MissingAlpha.cpp - An alpha of 1 for images without one ------------===//
// SPDX-License-Identifier: MIT
//
// iss-missing-alpha (see Passes.h). A read from an image whose format has
// no alpha channel gives an alpha of 1 (OpenCL C 3.0, 8.3: CL_R reads as
// (r, 0, 0, 1), and so does its border colour). pocl 3.1's library gives 1
// only to in-bounds float reads: 0 to integer reads and to the border
// colour. Of the formats the device supports only CL_R lacks alpha, so
// once the library is linked, every read_image* of four elements returns
// its last element as 1 when the image's order (iss_image's
// channel_order, WorkGroupABI.h) is CL_R. In the read, not after each call
// of it: the reads stay calls (iss-prepare), and a mend at each call site
// stood between the read and every use of its pixel, a load, a compare
// and lane shuffles on the kernel's path (5 % of a copy kernel's time),
// where inside the read the order is at hand.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "pocl-iss/WorkGroupABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>

using namespace llvm;

namespace iss {

PreservedAnalyses MissingAlphaPass::run(Module &M, ModuleAnalysisManager &) {
  const uint64_t ClR = 0x10B0; // CL_R
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  bool Changed = false;
  for (Function &F : M) {
    auto *RetTy = dyn_cast<FixedVectorType>(F.getReturnType());
    if (F.isDeclaration() || !F.getName().contains("_cl_read_image") ||
        !RetTy || RetTy->getNumElements() != 4 || F.arg_size() < 2 ||
        !F.getArg(0)->getType()->isPointerTy())
      continue;
    Constant *One = RetTy->getElementType()->isFloatTy()
                        ? ConstantFP::get(RetTy->getElementType(), 1.0)
                        : ConstantInt::get(RetTy->getElementType(), 1);
    SmallVector<ReturnInst *, 4> Returns;
    for (BasicBlock &BB : F)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
        Returns.push_back(R);
    for (ReturnInst *R : Returns) {
      IRBuilder<> B(R);
      Value *V = R->getReturnValue();
      Value *OrderAt = B.CreateConstInBoundsGEP1_64(
          I8, F.getArg(0), offsetof(iss_image, channel_order));
      Value *IsR = B.CreateICmpEQ(B.CreateLoad(I32, OrderAt),
                                  ConstantInt::get(I32, ClR));
      Value *Alpha = B.CreateSelect(IsR, One, B.CreateExtractElement(V, 3));
      R->setOperand(0, B.CreateInsertElement(V, Alpha, 3));
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
