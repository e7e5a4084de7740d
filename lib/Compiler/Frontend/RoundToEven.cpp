//===- RoundToEven.cpp - The library's rint as one instruction ------------===//
// SPDX-License-Identifier: MIT
//
// iss-rint (see Passes.h). pocl 3.1's library rounds to nearest even with
// SLEEF's old xrintf/xrint, written without the instruction:
//
//   x  = d + 0.5;  fr = x - (int)x;
//   fr = (fr < 0 || (fr == 0 && ((int)x & 1))) ? fr + 1 : fr;
//   x  = d == nextafter(0.5, 1) ? 0 : x;
//   return (isinf(d) || |d| >= 2^23) ? d : copysign(x - fr, d);
//
// (the double one takes the fraction in two steps, and 2^52). Every
// rounding to nearest even of the library is this: rint, each
// convert_*_rte from a float or a double, the rounding of the normalized
// image writes (write_float_pixel), remainder, remquo. In scalar code
// the condition is branches, one of which depends on the parity of the
// value, a misprediction every other pixel (a remap of a vision library
// spent half its time there), and in vector code it is twenty
// instructions. Its result, the phi or select that picks between d and
// the copysign, becomes llvm.rint of d, which x86 has as one instruction
// from SSE 4.1 on (roundss, vrndscaleps) and which rounds to nearest even
// as OpenCL's default rounding mode does; the rest is left dead. Targets
// without SSE 4.1 (the sse2 and ssse3 variants) keep the library's code:
// there llvm.rint is a call of libm's rintf.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace iss {

/// Whether \p C is a floating-point constant (or splat) equal to \p V.
static bool isFP(const Value *C, double V) {
  const APFloat *F;
  if (!match(C, m_APFloatAllowPoison(F)))
    return false;
  APFloat W(V);
  bool Lost;
  W.convert(F->getSemantics(), APFloat::rmNearestTiesToEven, &Lost);
  return F->bitwiseIsEqual(W);
}

/// Whether \p C is nextafter(0.5, 1) of the element type: SLEEF's one
/// value whose d + 0.5 rounds up to 1.
static bool isJustAboveHalf(const Value *C) {
  const APFloat *F;
  if (!match(C, m_APFloatAllowPoison(F)))
    return false;
  APFloat Half(0.5);
  bool Lost;
  Half.convert(F->getSemantics(), APFloat::rmNearestTiesToEven, &Lost);
  Half.next(/*nextDown=*/false);
  return F->bitwiseIsEqual(Half);
}

/// Whether \p C, read as integers of the float lanes of \p FloatTy, is
/// the splat of the sign bit (\p SignBit) or of its complement: the
/// library masks a <4 x float> as <2 x i64>.
static bool isLaneMask(Value *C, Type *FloatTy, bool SignBit,
                       const DataLayout &DL) {
  auto *K = dyn_cast<Constant>(C);
  if (!K)
    return false;
  unsigned Bits = FloatTy->getScalarSizeInBits();
  Type *IntTy =
      FloatTy->getWithNewType(IntegerType::get(C->getContext(), Bits));
  if (K->getType()->getPrimitiveSizeInBits() != IntTy->getPrimitiveSizeInBits())
    return false;
  Constant *Lanes = ConstantFoldCastOperand(Instruction::BitCast, K, IntTy, DL);
  if (!Lanes)
    return false;
  if (IntTy->isVectorTy())
    Lanes = Lanes->getSplatValue();
  auto *I = dyn_cast_or_null<ConstantInt>(Lanes);
  if (!I)
    return false;
  APInt Sign = APInt::getSignMask(Bits);
  return I->getValue() == (SignBit ? Sign : ~Sign);
}

/// Looks through bitcasts.
static Value *stripBitcasts(Value *V) {
  while (auto *BC = dyn_cast<BitCastInst>(V))
    V = BC->getOperand(0);
  return V;
}

/// Whether \p V is Y - (float)(int)Y, the fraction of Y, with the
/// truncation an fptosi or one of x86's cvtt intrinsics; \p Y is then
/// A = d + 0.5, or (the double one's first step) A minus something.
static bool isFraction(Value *V, Value *A) {
  Value *Y, *Int;
  if (!match(V, m_FSub(m_Value(Y), m_SIToFP(m_Value(Int)))))
    return false;
  Value *T = nullptr;
  if (auto *FI = dyn_cast<FPToSIInst>(Int))
    T = FI->getOperand(0);
  else if (auto *II = dyn_cast<IntrinsicInst>(Int))
    if (II->arg_size() == 1 &&
        II->getCalledFunction()->getName().starts_with("llvm.x86.") &&
        II->getCalledFunction()->getName().contains("cvtt"))
      T = II->getArgOperand(0);
  if (T != Y)
    return false;
  return Y == A || match(Y, m_FSub(m_Specific(A), m_Value()));
}

/// Whether \p V is the adjusted fraction: a phi or select whose values
/// are each the fraction of A or it plus 1.
static bool isAdjustedFraction(Value *V, Value *A) {
  SmallVector<Value *, 2> Values;
  if (auto *Phi = dyn_cast<PHINode>(V))
    Values.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
  else if (auto *Sel = dyn_cast<SelectInst>(V))
    Values = {Sel->getTrueValue(), Sel->getFalseValue()};
  else
    return false;
  Value *Fr = nullptr;
  bool Plain = false, PlusOne = false;
  for (Value *W : Values) {
    Value *X, *One;
    if (match(W, m_FAdd(m_Value(X), m_Value(One))) && isFP(One, 1.0) &&
        isFraction(X, A)) {
      PlusOne = true;
    } else if (isFraction(W, A)) {
      X = W;
      Plain = true;
    } else {
      return false;
    }
    if (Fr && X != Fr)
      return false;
    Fr = X;
  }
  return Plain && PlusOne;
}

/// Whether \p V is copysign(S - F, D), written with integer masks or as
/// the intrinsic, with S = (D == nextafter(0.5, 1)) ? 0 : D + 0.5 and F
/// the adjusted fraction of D + 0.5.
static bool isRoundedMagnitude(Value *V, Value *D) {
  Value *Diff = nullptr;
  if (!match(V,
             m_Intrinsic<Intrinsic::copysign>(m_Value(Diff), m_Specific(D)))) {
    auto *Cast = dyn_cast<BitCastInst>(V);
    if (!Cast || Cast->getType() != D->getType())
      return false;
    Value *Mag, *Sign, *M1, *M2;
    if (!match(Cast->getOperand(0), m_c_Or(m_And(m_Value(Mag), m_Value(M1)),
                                           m_And(m_Value(Sign), m_Value(M2)))))
      return false;
    const DataLayout &DL = Cast->getModule()->getDataLayout();
    if (stripBitcasts(Sign) != D || !isLaneMask(M2, D->getType(), true, DL)) {
      std::swap(Mag, Sign);
      std::swap(M1, M2);
    }
    if (stripBitcasts(Sign) != D || !isLaneMask(M2, D->getType(), true, DL) ||
        !isLaneMask(M1, D->getType(), false, DL))
      return false;
    Diff = stripBitcasts(Mag);
  }
  Value *S, *F;
  if (!Diff || Diff->getType() != D->getType() ||
      !match(Diff, m_FSub(m_Value(S), m_Value(F))))
    return false;
  Value *Cmp, *Zero, *A;
  if (!match(S, m_Select(m_Value(Cmp), m_Value(Zero), m_Value(A))) ||
      !isFP(Zero, 0.0))
    return false;
  FCmpInst::Predicate P;
  Value *C;
  if (!match(Cmp, m_FCmp(P, m_Specific(D), m_Value(C))) ||
      P != FCmpInst::FCMP_OEQ || !isJustAboveHalf(C))
    return false;
  Value *Half;
  if (!match(A, m_FAdd(m_Specific(D), m_Value(Half))) || !isFP(Half, 0.5))
    return false;
  return isAdjustedFraction(F, A);
}

/// If \p I is the library's rounding of some D to nearest even (a phi or
/// select whose values are D and the rounded magnitude), D; else null.
static Value *roundedValue(Instruction &I) {
  if (!I.getType()->isFPOrFPVectorTy())
    return nullptr;
  SmallVector<Value *, 3> Values;
  if (auto *Phi = dyn_cast<PHINode>(&I))
    Values.append(Phi->incoming_values().begin(), Phi->incoming_values().end());
  else if (auto *Sel = dyn_cast<SelectInst>(&I))
    Values = {Sel->getTrueValue(), Sel->getFalseValue()};
  else
    return nullptr;
  Value *A = Values[0], *B = nullptr;
  for (Value *V : Values)
    if (V != A) {
      if (B && V != B)
        return nullptr;
      B = V;
    }
  if (!B)
    return nullptr;
  if (isRoundedMagnitude(B, A))
    return A;
  if (isRoundedMagnitude(A, B))
    return B;
  return nullptr;
}

static bool hasRoundInstruction(const Function &F) {
  Attribute A = F.getFnAttribute("target-features");
  return A.isValid() && A.getValueAsString().contains("+sse4.1");
}

PreservedAnalyses RoundToEvenPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || !hasRoundInstruction(F))
      continue;
    SmallVector<std::pair<Instruction *, Value *>, 8> Found;
    std::optional<DominatorTree> DT;
    for (Instruction &I : instructions(F))
      if (Value *D = roundedValue(I)) {
        // D is an operand of the computation on every path; still, it
        // must be available where llvm.rint goes: at the select, or at
        // the start of the phi's block.
        if (auto *DI = dyn_cast<Instruction>(D)) {
          if (!DT)
            DT.emplace(F);
          if (isa<PHINode>(I) ? !DT->dominates(DI, I.getParent())
                              : !DT->dominates(DI, &I))
            continue;
        }
        Found.push_back({&I, D});
      }
    for (auto [I, D] : Found) {
      IRBuilder<> B(I->getParent(), I->getParent()->getFirstInsertionPt());
      if (!isa<PHINode>(I))
        B.SetInsertPoint(I);
      Value *R = B.CreateUnaryIntrinsic(Intrinsic::rint, D);
      R->takeName(I);
      I->replaceAllUsesWith(R);
      I->eraseFromParent();
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace iss
