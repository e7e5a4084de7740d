//===- SafeDivision.cpp - Integer divisions that cannot trap --------------===//
// SPDX-License-Identifier: MIT
//
// iss-safe-division (see Passes.h). An integer division by zero, or of the
// minimum value by -1, "does not cause an exception but will result in an
// unspecified value" (OpenCL C 1.2, section 6.3.b). x86's div and idiv
// trap on both, and LLVM's sdiv/udiv/srem/urem are undefined behaviour
// there, so a kernel that divides by a zero it reads from a buffer (the
// conformance suite's integer tests do, for char to ulong) would kill the
// application with SIGFPE. pocl catches the signal and skips the faulting
// instruction; here the generated code never faults instead: each division
// whose divisor is not a constant known to be safe gets a divisor that
// cannot trap, chosen by a compare and a select (signed) or an or
// (unsigned) per element, and the defined results do not change. Vector
// divisions are guarded lane by lane.
//
// The pass runs right after iss-prepare, before any pass that rewrites
// instructions, so no optimization can exploit the undefined behaviour
// first, and on every function of the module, so the kernel library's code
// inlined later (or kept out of line) is covered too. The divisor is frozen: an
// undefined divisor (an uninitialised variable) must be tested and used as
// the same value, once: the divisions by one value share one guard, placed
// at its definition, so a quotient and a remainder by it remain one
// division. The guard depends on the divisor alone, so for a divisor that
// is the same for all work-items (a kernel argument) it is outside the
// work-item loops; where LLVM later proves a divisor non-zero, InstCombine
// folds the guard away.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "iss-safe-division"

namespace iss {

/// Whether \p D, a constant divisor, is safe in every lane: not zero, and
/// for a signed division not -1 either (the minimum value over -1
/// overflows). Undefined and poison lanes are not safe.
static bool isSafeConstantDivisor(const Value *D, bool Signed) {
  const auto *C = dyn_cast<Constant>(D);
  if (!C)
    return false;
  auto SafeLane = [Signed](const Constant *Lane) {
    const auto *CI = dyn_cast_or_null<ConstantInt>(Lane);
    return CI && !CI->isZero() && !(Signed && CI->isMinusOne());
  };
  if (const auto *VT = dyn_cast<FixedVectorType>(C->getType())) {
    for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
      if (!SafeLane(C->getAggregateElement(I)))
        return false;
    return true;
  }
  return SafeLane(C);
}

namespace {
/// A divisor frozen (the value it is tested as) and made safe.
struct GuardedDivisor {
  Value *Frozen;
  Value *Safe;
};
/// The guards of a module's divisors, one per divisor and signedness: the
/// divisions by one value share its guard, so that a quotient and a
/// remainder by it stay one division (a freeze is a choice of its own
/// each time, which no pass may merge with another).
struct DivisorGuards : DenseMap<std::pair<Value *, unsigned>, GuardedDivisor> {
  /// Per function, the last guard put at its entry.
  DenseMap<Function *, Instruction *> LastAtEntry;
};
} // namespace

/// \p Div's divisor, guarded: right after its definition (an argument's
/// at its function's entry), so that the guard dominates every division
/// by it. Unsigned: zero becomes one. Signed: zero and -1 become one.
static GuardedDivisor guardedDivisor(BinaryOperator &Div, bool Signed,
                                     DivisorGuards &Guards) {
  Value *V = Div.getOperand(1);
  // Where the guard goes: a constant's (one with an unsafe lane) is the
  // division's own, as constants belong to no function.
  IRBuilder<> B(&Div);
  std::optional<BasicBlock::iterator> At;
  if (isa<Argument>(V))
    At = Div.getFunction()->getEntryBlock().getFirstInsertionPt();
  else if (auto *I = dyn_cast<Instruction>(V))
    At = I->getInsertionPointAfterDef();
  if (At) {
    auto It = Guards.find({V, unsigned(Signed)});
    if (It != Guards.end())
      return It->second;
    B.SetInsertPoint(*At);
    // Arguments' guards at the entry in the order of their divisions.
    if (isa<Argument>(V))
      if (Instruction *&Last = Guards.LastAtEntry[Div.getFunction()])
        B.SetInsertPoint(Last->getNextNode());
  }
  Value *D = B.CreateFreeze(V, "div.d");
  Type *T = D->getType();
  Constant *One = ConstantInt::get(T, 1);
  Value *Unsafe =
      Signed ? B.CreateICmpULT(B.CreateAdd(D, One), ConstantInt::get(T, 2),
                               "div.unsafe") // D is 0 or -1
             : B.CreateICmpEQ(D, Constant::getNullValue(T), "div.unsafe");
  // Unsigned: d | (d == 0), the same value as a select of 1, but opaque
  // to scalar evolution, which reads the select as umax(d, 1) and then
  // expands quotients by that afresh where it rewrites a loop's addresses
  // (a third division per work-item for SimpleConvolution's x = tid % w,
  // y = tid / w); by an opaque divisor it reuses the quotient there is.
  Value *Safe = Signed ? B.CreateSelect(Unsafe, One, D, "div.safe")
                       : B.CreateOr(D, B.CreateZExt(Unsafe, T), "div.safe");
  GuardedDivisor G = {D, Safe};
  if (At)
    Guards[{V, unsigned(Signed)}] = G;
  if (At && isa<Argument>(V))
    Guards.LastAtEntry[Div.getFunction()] = cast<Instruction>(G.Safe);
  return G;
}

/// Gives \p Div a divisor that cannot trap (guardedDivisor). x / -1 is
/// then -x, wrapping (the minimum value over -1 gives the minimum value),
/// and x % -1 is x % 1 = 0, the defined results. x / 0 gives x and x % 0
/// gives 0 (any value is allowed there). A remainder is computed from its
/// quotient.
static void guard(BinaryOperator &Div, DivisorGuards &Guards) {
  bool Signed = Div.getOpcode() == Instruction::SDiv ||
                Div.getOpcode() == Instruction::SRem;
  auto [D, Safe] = guardedDivisor(Div, Signed, Guards);
  Type *T = D->getType();
  IRBuilder<> B(&Div);
  if (Div.getOpcode() == Instruction::SRem ||
      Div.getOpcode() == Instruction::URem) {
    // x % d as x - (x / d) * d, the same value for a divisor that cannot
    // trap (|(x / d) * d| <= |x|): LLVM's loop vectorizer left the whole
    // tiles of Rodinia's srad scalar for its row = i % n by this guarded
    // divisor, while it vectorizes the quotient by it (and the remainder
    // by the unguarded argument, and the remainder under a tail guard,
    // predicated, in `vec`). DivRemPairs makes it one remainder again
    // where that is cheaper.
    Value *X = Div.getOperand(0);
    Value *Q = B.CreateBinOp(Signed ? Instruction::SDiv : Instruction::UDiv, X,
                             Safe, "rem.q");
    Value *Rem = B.CreateSub(X, B.CreateMul(Q, Safe, "rem.qd"));
    Rem->takeName(&Div);
    Div.replaceAllUsesWith(Rem);
    Div.eraseFromParent();
    return;
  }
  Div.setOperand(1, Safe);
  if (Div.getOpcode() != Instruction::SDiv)
    return;
  B.SetInsertPoint(Div.getNextNode());
  Value *MinusOne =
      B.CreateICmpEQ(D, Constant::getAllOnesValue(T), "div.minus.one");
  Value *Neg =
      B.CreateSub(Constant::getNullValue(T), Div.getOperand(0), "div.neg");
  Value *Result = B.CreateSelect(MinusOne, Neg, &Div, "div.result");
  Div.replaceUsesWithIf(Result, [&](Use &U) { return U.getUser() != Result; });
}

PreservedAnalyses SafeDivisionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<BinaryOperator *, 16> Divisions;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *BO = dyn_cast<BinaryOperator>(&I))
        switch (BO->getOpcode()) {
        case Instruction::UDiv:
        case Instruction::URem:
          if (!isSafeConstantDivisor(BO->getOperand(1), false))
            Divisions.push_back(BO);
          break;
        case Instruction::SDiv:
        case Instruction::SRem:
          if (!isSafeConstantDivisor(BO->getOperand(1), true))
            Divisions.push_back(BO);
          break;
        default:
          break;
        }
  DivisorGuards Guards;
  for (BinaryOperator *Div : Divisions) {
    LLVM_DEBUG(dbgs() << "iss-safe-division: guarding " << *Div << " in "
                      << Div->getFunction()->getName() << "\n");
    guard(*Div, Guards);
  }
  return Divisions.empty() ? PreservedAnalyses::all()
                           : PreservedAnalyses::none();
}

} // namespace iss
