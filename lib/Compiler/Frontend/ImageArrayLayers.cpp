//===- ImageArrayLayers.cpp - The layer of a normalized array read --------===//
// SPDX-License-Identifier: MIT
//
// iss-array-layers (see Passes.h). An image array's layer coordinate is
// never normalized (OpenCL C 3.0, 8.2), but pocl 3.1's library multiplies
// the whole coordinate, layer included, by the image's size when the
// sampler's coordinates are normalized. Before each sampled read of an
// array with float coordinates, the layer is divided by the array size
// under such a sampler, so that the library's product gives it back. The
// 1D array's float2 coordinate is passed as a double (the x86-64 C ABI of
// 8-byte vectors). The array size is read from the image's descriptor
// (iss_image, WorkGroupABI.h), the sampler is its CLK_* bits.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"

#include "pocl-iss/WorkGroupABI.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>

using namespace llvm;

namespace iss {

PreservedAnalyses ImageArrayLayersPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx), *F32 = Type::getFloatTy(Ctx);
  bool Changed = false;
  for (Function &F : M) {
    StringRef N = F.getName();
    if (!F.isDeclaration() || !N.contains("_cl_read_image") ||
        !N.contains("_array_") || !N.contains("11ocl_sampler") ||
        !(N.ends_with("Dv2_f") || N.ends_with("Dv4_f")) || F.arg_size() != 3)
      continue;
    unsigned Layer = N.ends_with("Dv2_f") ? 1 : 2;
    for (CallInst *CI : callsOf(F)) {
      IRBuilder<> B(CI);
      Value *Coord = CI->getArgOperand(2);
      Type *CoordTy = Coord->getType();
      Value *Vec = CoordTy->isVectorTy()
                       ? Coord
                       : B.CreateBitCast(Coord, FixedVectorType::get(F32, 2));
      Value *Bits = B.CreatePtrToInt(CI->getArgOperand(1), I64);
      Value *Normalized =
          B.CreateICmpNE(B.CreateAnd(Bits, 1), ConstantInt::get(I64, 0));
      Value *SizeAt = B.CreateConstInBoundsGEP1_64(
          I8, CI->getArgOperand(0), offsetof(iss_image, array_size));
      Value *Size = B.CreateSIToFP(B.CreateLoad(I32, SizeAt), F32);
      Value *L = B.CreateExtractElement(Vec, Layer);
      L = B.CreateSelect(Normalized, B.CreateFDiv(L, Size), L);
      Vec = B.CreateInsertElement(Vec, L, Layer);
      CI->setArgOperand(
          2, CoordTy->isVectorTy() ? Vec : B.CreateBitCast(Vec, CoordTy));
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
