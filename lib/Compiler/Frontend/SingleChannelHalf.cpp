//===- SingleChannelHalf.cpp - Half floats in one-channel images ----------===//
// SPDX-License-Identifier: MIT
//
// iss-half-images (see Passes.h). Single-channel CL_HALF_FLOAT images (CL_R
// and CL_A; OpenCL 3.0 requires CL_R with read-write images). pocl 3.1's
// read_image.cl reads one channel with get_float_pixel, which has no half
// case (a pixel reads as 234.0), and write_image.cl's write_float_pixel has
// none either (the pixel is left unwritten); its four-channel paths do have
// one. Both are internal functions every sampled and unsampled float read
// and write goes through (filters included), so a half case is put in
// front of each: pocl_read_pixel_fast_f(base, type, order, data) loads the
// half element at data[base] (the library's base index counts elements)
// and gives (h, 0, 0, 1) for CL_R, (0, 0, 0, h) for CL_A;
// write_float_pixel(color, data, base, type) stores color rounded to the
// nearest half (ties to even, OpenCL C 3.0 section 8.3.1.3). It runs once
// the library is linked: the functions it changes are the library's.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace iss {

/// The library function of the linked module named \p Name (internal, so
/// the linker may have suffixed it) with \p Args arguments, or null. A
/// program's own function of that name is external and never taken.
static Function *libraryFunction(Module &M, StringRef Name, unsigned Args) {
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasLocalLinkage() && F.arg_size() == Args &&
        (F.getName() == Name || F.getName().starts_with((Name + ".").str())))
      return &F;
  return nullptr;
}

/// Splits \p F's entry after its allocas so that a test can run first:
/// returns the block holding the rest of the old entry's code; the entry
/// then ends in an unconditional branch to it, for the caller to replace.
static BasicBlock *prependToFunction(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstNonPHIOrDbgOrAlloca();
  return Entry.splitBasicBlock(At, "pocl.path");
}

PreservedAnalyses SingleChannelHalfPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  const uint64_t ClR = 0x10B0, ClA = 0x10B1, ClHalf = 0x10DD;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *F32 = Type::getFloatTy(Ctx);
  Type *Half = Type::getHalfTy(Ctx);
  bool Changed = false;
  if (Function *Read = libraryFunction(M, "pocl_read_pixel_fast_f", 4)) {
    auto *RetTy = dyn_cast<FixedVectorType>(Read->getReturnType());
    if (RetTy && RetTy->getNumElements() == 4 &&
        RetTy->getElementType()->isFloatTy() &&
        Read->getArg(1)->getType() == I32 &&
        Read->getArg(2)->getType() == I32 &&
        Read->getArg(3)->getType()->isPointerTy()) {
      BasicBlock *Rest = prependToFunction(*Read);
      BasicBlock *Entry = &Read->getEntryBlock();
      BasicBlock *HalfBB = BasicBlock::Create(Ctx, "iss.half", Read, Rest);
      Entry->getTerminator()->eraseFromParent();
      IRBuilder<> B(Entry);
      Value *Order = Read->getArg(2);
      Value *IsR = B.CreateICmpEQ(Order, ConstantInt::get(I32, ClR));
      Value *IsA = B.CreateICmpEQ(Order, ConstantInt::get(I32, ClA));
      Value *IsHalf =
          B.CreateICmpEQ(Read->getArg(1), ConstantInt::get(I32, ClHalf));
      B.CreateCondBr(B.CreateAnd(IsHalf, B.CreateOr(IsR, IsA)), HalfBB, Rest);
      B.SetInsertPoint(HalfBB);
      Value *At = B.CreateGEP(Half, Read->getArg(3), Read->getArg(0));
      Value *H = B.CreateFPExt(B.CreateAlignedLoad(Half, At, Align(2)), F32);
      Value *Zero = ConstantFP::get(F32, 0.0);
      Value *V = B.CreateInsertElement(
          ConstantVector::get({cast<Constant>(Zero), cast<Constant>(Zero),
                               cast<Constant>(Zero),
                               ConstantFP::get(F32, 1.0)}),
          H, uint64_t(0));
      Value *AV = B.CreateInsertElement(
          ConstantVector::getSplat(ElementCount::getFixed(4),
                                   cast<Constant>(Zero)),
          H, uint64_t(3));
      B.CreateRet(B.CreateSelect(IsR, V, AV));
      Changed = true;
    }
  }
  if (Function *Write = libraryFunction(M, "write_float_pixel", 4)) {
    if (Write->getArg(0)->getType() == F32 &&
        Write->getArg(1)->getType()->isPointerTy() &&
        Write->getArg(3)->getType() == I32) {
      BasicBlock *Rest = prependToFunction(*Write);
      BasicBlock *Entry = &Write->getEntryBlock();
      BasicBlock *HalfBB = BasicBlock::Create(Ctx, "iss.half", Write, Rest);
      Entry->getTerminator()->eraseFromParent();
      IRBuilder<> B(Entry);
      B.CreateCondBr(
          B.CreateICmpEQ(Write->getArg(3), ConstantInt::get(I32, ClHalf)),
          HalfBB, Rest);
      B.SetInsertPoint(HalfBB);
      Value *At = B.CreateGEP(Half, Write->getArg(1), Write->getArg(2));
      B.CreateAlignedStore(B.CreateFPTrunc(Write->getArg(0), Half), At,
                           Align(2));
      B.CreateRetVoid();
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
