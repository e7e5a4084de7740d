//===- GenericIntrinsics.cpp - x86 vector intrinsics as generic IR --------===//
// SPDX-License-Identifier: MIT
//
// iss-generic-intrinsics (see Passes.h). pocl's kernel library for x86 is
// compiled from C that uses SSE and AVX intrinsics: fmin and fmax of
// float4, hypot, the rounding functions and the conversions of the
// vector types reach the work-group function as calls of
// llvm.x86.sse.max.ps, llvm.x86.sse41.round.ps, llvm.x86.sse2.cvttps2dq
// and the like. The Scalarizer cannot split such a call into its lanes and
// the loop vectorizer cannot widen it, so one of them in a work-item loop
// keeps the whole loop scalar: the AMD APP SDK's SobelFilter (hypot of
// float4) ran scalar in every mode. Each call this pass knows becomes the
// generic IR of the same value, lane for lane, which both passes handle
// and which instruction selection turns back into the same instructions:
//  - max (min): a > b ? a : b (a < b ? a : b), the second operand when one
//    is a NaN or both are zeros, as the instructions do;
//  - blendv: the mask's sign bit selects the second operand;
//  - round with an immediate: floor, ceil, trunc, or to nearest even (also
//    for "the current mode", which OpenCL keeps at round to nearest even);
//  - cvtt (cvt): truncation (rounding to nearest even) to int32, with the
//    instructions' 0x80000000 for NaNs and values out of range; from two
//    doubles, the upper two lanes of the result are 0.
// Calls of other intrinsics stay as they are. The library's fabs of a
// vector, which clears the sign bits through a vector of longs (two floats
// per lane), becomes llvm.fabs for the same reason, and a vector's first
// lane read through the integer the x86-64 ABI passes it in (a mask of
// the bitcast) becomes an extractelement.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace iss {

namespace {

enum class Kind { None, Max, Min, Blend, Round, Truncate, Convert };

Kind kindOf(StringRef Name, bool &FromDoublePair) {
  FromDoublePair = false;
  if (!Name.consume_front("llvm.x86."))
    return Kind::None;
  static const struct {
    const char *Name;
    Kind K;
  } Table[] = {
      {"sse.max.ps", Kind::Max},
      {"sse2.max.pd", Kind::Max},
      {"avx.max.ps.256", Kind::Max},
      {"avx.max.pd.256", Kind::Max},
      {"sse.min.ps", Kind::Min},
      {"sse2.min.pd", Kind::Min},
      {"avx.min.ps.256", Kind::Min},
      {"avx.min.pd.256", Kind::Min},
      {"sse41.blendvps", Kind::Blend},
      {"sse41.blendvpd", Kind::Blend},
      {"sse41.pblendvb", Kind::Blend},
      {"avx.blendv.ps.256", Kind::Blend},
      {"avx.blendv.pd.256", Kind::Blend},
      {"avx2.pblendvb", Kind::Blend},
      {"sse41.round.ps", Kind::Round},
      {"sse41.round.pd", Kind::Round},
      {"avx.round.ps.256", Kind::Round},
      {"avx.round.pd.256", Kind::Round},
      {"sse2.cvttps2dq", Kind::Truncate},
      {"avx.cvtt.ps2dq.256", Kind::Truncate},
      {"avx.cvtt.pd2dq.256", Kind::Truncate},
      {"sse2.cvtps2dq", Kind::Convert},
      {"avx.cvt.ps2dq.256", Kind::Convert},
      {"avx.cvt.pd2dq.256", Kind::Convert},
  };
  for (const auto &E : Table)
    if (Name == E.Name)
      return E.K;
  if (Name == "sse2.cvttpd2dq" || Name == "sse2.cvtpd2dq") {
    FromDoublePair = true;
    return Name == "sse2.cvttpd2dq" ? Kind::Truncate : Kind::Convert;
  }
  return Kind::None;
}

/// The generic IR for the call \p CI of kind \p K at \p B; null when the
/// call has a form this pass does not know (a non-constant immediate).
Value *lower(IRBuilderBase &B, CallInst *CI, Kind K, bool FromDoublePair) {
  Value *A = CI->getArgOperand(0);
  switch (K) {
  case Kind::Max:
  case Kind::Min: {
    Value *Bv = CI->getArgOperand(1);
    Value *Take =
        K == Kind::Max ? B.CreateFCmpOGT(A, Bv) : B.CreateFCmpOLT(A, Bv);
    return B.CreateSelect(Take, A, Bv);
  }
  case Kind::Blend: {
    Value *Bv = CI->getArgOperand(1), *Mask = CI->getArgOperand(2);
    auto *VT = cast<FixedVectorType>(Mask->getType());
    Type *IntVT = VectorType::get(B.getIntNTy(VT->getScalarSizeInBits()),
                                  VT->getElementCount());
    Value *Sign = B.CreateICmpSLT(B.CreateBitCast(Mask, IntVT),
                                  Constant::getNullValue(IntVT));
    return B.CreateSelect(Sign, Bv, A);
  }
  case Kind::Round: {
    auto *Imm = dyn_cast<ConstantInt>(CI->getArgOperand(1));
    if (!Imm)
      return nullptr;
    uint64_t Mode = Imm->getZExtValue();
    Intrinsic::ID ID = Intrinsic::roundeven;
    if (!(Mode & 4))
      ID = (Mode & 3) == 1   ? Intrinsic::floor
           : (Mode & 3) == 2 ? Intrinsic::ceil
           : (Mode & 3) == 3 ? Intrinsic::trunc
                             : Intrinsic::roundeven;
    return B.CreateUnaryIntrinsic(ID, A);
  }
  case Kind::Truncate:
  case Kind::Convert: {
    auto *FT = cast<FixedVectorType>(A->getType());
    Value *X = K == Kind::Convert
                   ? B.CreateUnaryIntrinsic(Intrinsic::roundeven, A)
                   : A;
    auto *IT = FixedVectorType::get(B.getInt32Ty(), FT->getNumElements());
    // In range: -2^31 <= x < 2^31 (a NaN is not); elsewhere 0x80000000.
    Value *Lo = ConstantFP::get(FT, -2147483648.0);
    Value *Hi = ConstantFP::get(FT, 2147483648.0);
    Value *In = B.CreateAnd(B.CreateFCmpOGE(X, Lo), B.CreateFCmpOLT(X, Hi));
    Value *R = B.CreateSelect(In, B.CreateFPToSI(X, IT),
                              ConstantInt::get(IT, 0x80000000u));
    if (!FromDoublePair)
      return R;
    // Two doubles: the result's upper lanes are 0.
    return B.CreateShuffleVector(R, Constant::getNullValue(IT),
                                 ArrayRef<int>{0, 1, 2, 3});
  }
  case Kind::None:
    break;
  }
  return nullptr;
}

/// fabs of \p R's source where \p R is `bitcast (and (bitcast X), C)`
/// back to X's floating-point type with C clearing exactly the sign bit of
/// each of X's elements (the library's fabs of float4, through long2);
/// null otherwise.
Value *signBitsCleared(IRBuilderBase &B, BitCastInst *R) {
  auto *And = dyn_cast<BinaryOperator>(R->getOperand(0));
  if (!And || And->getOpcode() != Instruction::And)
    return nullptr;
  auto *In = dyn_cast<BitCastInst>(And->getOperand(0));
  auto *C = dyn_cast<Constant>(And->getOperand(1));
  if (!In || !C || In->getSrcTy() != R->getDestTy() ||
      !R->getDestTy()->isFPOrFPVectorTy())
    return nullptr;
  Type *FT = R->getDestTy();
  unsigned Bits = FT->getScalarSizeInBits();
  Type *AsInts = FT->getWithNewType(Type::getIntNTy(FT->getContext(), Bits));
  auto *Lanes = ConstantFoldCastOperand(Instruction::BitCast, C, AsInts,
                                        R->getModule()->getDataLayout());
  if (!Lanes)
    return nullptr;
  APInt Want = APInt::getSignedMaxValue(Bits);
  auto Clears = [&](Constant *E) {
    auto *CI = dyn_cast_or_null<ConstantInt>(E);
    return CI && CI->getValue() == Want;
  };
  if (FT->isVectorTy()) {
    auto *VT = cast<FixedVectorType>(FT);
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      if (!Clears(Lanes->getAggregateElement(I)))
        return nullptr;
  } else if (!Clears(Lanes)) {
    return nullptr;
  }
  return B.CreateUnaryIntrinsic(Intrinsic::fabs, In->getOperand(0));
}

/// zext (extractelement V, 0) where \p A is `and (bitcast V to iM), 2^K - 1`
/// for a vector V of N integers of K bits, N * K = M, on a little-endian
/// target: V's first lane read through the integer the x86-64 ABI passes
/// a short vector in (the library's convert_int4 of uchar4 gets an i32;
/// InstCombine turns its zext of lane 0 into this mask). The Scalarizer
/// splits V's lanes but would put V together again for the bitcast, and
/// the loop vectorizer does not widen a loop holding that insertelement:
/// the box filter's work-item loops stayed scalar. Null otherwise.
Value *firstLaneMasked(IRBuilderBase &B, BinaryOperator *A) {
  auto *BC = dyn_cast<BitCastInst>(A->getOperand(0));
  auto *Mask = dyn_cast<ConstantInt>(A->getOperand(1));
  if (A->getOpcode() != Instruction::And || !BC || !Mask ||
      !A->getModule()->getDataLayout().isLittleEndian())
    return nullptr;
  auto *VT = dyn_cast<FixedVectorType>(BC->getSrcTy());
  if (!VT || !VT->getElementType()->isIntegerTy() ||
      !BC->getType()->isIntegerTy() ||
      !Mask->getValue().isMask(VT->getScalarSizeInBits()))
    return nullptr;
  return B.CreateZExt(B.CreateExtractElement(BC->getOperand(0), uint64_t(0)),
                      A->getType());
}

} // namespace

PreservedAnalyses GenericIntrinsicsPass::run(Function &F,
                                             FunctionAnalysisManager &) {
  bool Changed = false;
  SmallVector<BitCastInst *, 8> Casts;
  SmallVector<BinaryOperator *, 8> Masks;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      Casts.push_back(BC);
    else if (I.getOpcode() == Instruction::And)
      Masks.push_back(cast<BinaryOperator>(&I));
  // I's value is V, if V is not null.
  auto Replace = [&](Instruction *I, Value *V) {
    if (!V)
      return;
    V->takeName(I);
    I->replaceAllUsesWith(V);
    I->eraseFromParent();
    Changed = true;
  };
  for (BitCastInst *BC : Casts) {
    IRBuilder<> B(BC);
    Replace(BC, signBitsCleared(B, BC));
  }
  for (BinaryOperator *A : Masks) {
    IRBuilder<> B(A);
    Replace(A, firstLaneMasked(B, A));
  }
  SmallVector<std::tuple<CallInst *, Kind, bool>, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction()) {
        bool Pair;
        Kind K = kindOf(Callee->getName(), Pair);
        if (K != Kind::None)
          Calls.push_back({CI, K, Pair});
      }
  for (auto [CI, K, Pair] : Calls) {
    IRBuilder<> B(CI);
    Replace(CI, lower(B, CI, K, Pair));
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
