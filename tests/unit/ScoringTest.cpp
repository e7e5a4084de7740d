//===- ScoringTest.cpp - Equation 1 and static elimination on isl sets ----===//
// SPDX-License-Identifier: MIT
//
// The cost heuristic of the input-space-splitting paper (section 4.1) away
// from any kernel: instances seen over a whole launch (the group offsets
// replaced by group counts and global offsets), the extents of their
// bounding boxes, scores as sums of weighted products of extents, their
// lower bounds, the static elimination of Listing 1's dominated subkernel,
// the subkernels it must keep, and the emission of a score as IR (folded
// to a constant and compared with the formula).
//
//===----------------------------------------------------------------------===//

#include "IslTest.h"
#include "Scoring/SubkernelScore.h"

#include "pocl-iss/IslHelpers.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <gtest/gtest.h>

#include <string>

using namespace iss;
using namespace llvm;

namespace {

class ScoringTest : public IslTest {
protected:
  GroupParams groups(bool WithGroupId0 = false) {
    GroupParams P;
    for (unsigned D = 0; D < 3; ++D)
      P.Offset[D] = isl::id(Ctx, "O" + std::to_string(D));
    if (WithGroupId0)
      P.GroupId[0] = isl::id(Ctx, "G0");
    return P;
  }
};

TEST_F(ScoringTest, GlobalViewOfATailGuard) {
  // get_global_id(0) < n with local size 16: over a launch, every global
  // id from the offset up to the global size, cut at n.
  unsigned L[3] = {16, 1, 1};
  isl::set S = set("[O0, O1, O2, n] -> { WI[x, y, z] : 0 <= x < 16 and "
                   "y = 0 and z = 0 and x + O0 < n }");
  expectEqual(globalView(S, L, groups()),
              set("[iss_N0, iss_F0, iss_N1, iss_F1, iss_N2, iss_F2, n] -> "
                  "{ [g, h, k] : iss_F0 >= 0 and iss_F1 >= 0 and iss_F2 >= 0 and "
                  "iss_F0 <= g < iss_F0 + 16 iss_N0 and g < n "
                  "and iss_F1 <= h < iss_F1 + iss_N1 and "
                  "iss_F2 <= k < iss_F2 + iss_N2 }"));
}

TEST_F(ScoringTest, GlobalViewWithTheGroupId) {
  // A kernel that reads get_group_id(0) has G0 in its model, with
  // O0 = 8 G0 + F0; only the first group runs the statement.
  unsigned L[3] = {8, 1, 1};
  isl::set S = set("[O0, G0] -> { [x, y, z, k] : 0 <= x < 8 and y = 0 and "
                   "z = 0 and G0 = 0 and 0 <= k < 3 }");
  expectEqual(globalView(S, L, groups(true)),
              set("[iss_N0, iss_F0, iss_N1, iss_F1, iss_N2, iss_F2] -> "
                  "{ [g, h, k, c] : iss_F0 >= 0 and iss_F1 >= 0 and "
                  "iss_F2 >= 0 and iss_F0 <= g < iss_F0 + 8 and "
                  "iss_N0 >= 1 and iss_F1 <= h < iss_F1 + iss_N1 and "
                  "iss_F2 <= k < iss_F2 + iss_N2 and 0 <= c < 3 }"));
}

TEST_F(ScoringTest, BoxExtents) {
  // A triangle under a parameter: the box is n by n, n >= 1; nothing
  // (extent 0) for n <= 0. The unbounded dimension is left out.
  isl::set S = set("[n] -> { [i, j, u] : 0 <= i < n and 0 <= j <= i and "
                   "u >= 0 }");
  std::vector<isl::pw_aff> E = boxExtents(S, isl::set());
  ASSERT_EQ(E.size(), 2u);
  isl::pw_aff N = pwAff("[n] -> { [(n)] : n >= 1; [(0)] : n <= 0 }");
  expectEqual(E[0], N);
  expectEqual(E[1], N);
}

TEST_F(ScoringTest, ConstantsFold) {
  SubkernelScore S;
  S.add(2, {pwAff("{ [(16)] }"), pwAff("{ [(4)] }")});
  S.add(1, {pwAff("[n] -> { [(n)] }")});
  S.add(3, {pwAff("[n] -> { [(n)] }"), pwAff("{ [(2)] }")});
  EXPECT_EQ(S.constant(), 128);
  ASSERT_EQ(S.terms().size(), 1u);
  EXPECT_EQ(S.terms()[0].Weight, 7);
}

TEST_F(ScoringTest, Listing1Elimination) {
  // Subkernel A scores 2xz + xy, B xz + xy: A dominates B, not the other
  // way round.
  isl::pw_aff X = pwAff("[x, y, z] -> { [(x)] }");
  isl::pw_aff Y = pwAff("[x, y, z] -> { [(y)] }");
  isl::pw_aff Z = pwAff("[x, y, z] -> { [(z)] }");
  SubkernelScore A, B;
  A.add(2, {X, Z});
  A.add(1, {X, Y});
  B.add(1, {Z, X});
  B.add(1, {Y, X});
  isl::set Context = set("[x, y, z] -> { : x >= 1 and y >= 1 and z >= 1 }");
  EXPECT_TRUE(A.dominates(B, Context));
  EXPECT_FALSE(B.dominates(A, Context));
}

TEST_F(ScoringTest, EliminationByLargerBoxes) {
  // Convolution2D's shape: along x, the interior's box (the image less a
  // border of 2 on each side) is consecutive; along y it is the same
  // accesses' gathers over the whole image, at a lower weight. A covers B
  // extent by extent; not the other way round. A term heavier than what
  // covers it is not covered.
  isl::pw_aff W = pwAff("[w] -> { [(w)] : w >= 0; [(0)] : w < 0 }");
  isl::pw_aff Inner =
      pwAff("[w] -> { [(w - 4)] : w >= 4; [(0)] : w < 4 }");
  SubkernelScore A, B, C;
  A.add(2, {Inner, Inner});
  A.add(1, {W, W});
  B.add(0.5, {W, W});
  B.add(1, {Inner, Inner});
  C.add(4, {Inner, Inner});
  isl::set Context = set("[w] -> { : w >= 0 }");
  EXPECT_TRUE(A.dominates(B, Context));
  EXPECT_FALSE(B.dominates(A, Context));
  EXPECT_FALSE(A.dominates(C, Context));
}

TEST_F(ScoringTest, EliminationKeepsIncomparableSubkernels) {
  // One access consecutive along x (score x * y over its box), another
  // along y under a flag: neither subkernel wins for every launch, both
  // must stay.
  isl::pw_aff XY = pwAff("[x, y, f] -> { [(x * 1)] : f = 0; [(0)] : f != 0 }");
  isl::pw_aff YX = pwAff("[x, y, f] -> { [(y)] : f != 0; [(0)] : f = 0 }");
  SubkernelScore A, B;
  A.add(2, {XY});
  B.add(2, {YX});
  isl::set Context = set("[x, y, f] -> { : x >= 1 and y >= 1 }");
  EXPECT_FALSE(A.dominates(B, Context));
  EXPECT_FALSE(B.dominates(A, Context));
}

TEST_F(ScoringTest, ScalarFallback) {
  // The scalar fallback scores 1. A subkernel whose every launch has at
  // least one consecutive instance dominates it; one whose accesses may
  // run nowhere (a guard n - F0 <= 0) does not.
  SubkernelScore Scalar;
  Scalar.addConstant(1);
  isl::set Context = set("[iss_N0, iss_F0, n] -> { : iss_N0 >= 1 and "
                         "iss_F0 >= 0 }");
  SubkernelScore Always, Guarded, Nothing;
  Always.add(2, {pwAff("[iss_N0] -> { [(16 iss_N0)] }")});
  Guarded.add(2, {pwAff("[iss_N0, iss_F0, n] -> { [(n - iss_F0)] : "
                        "n > iss_F0; [(0)] : n <= iss_F0 }")});
  EXPECT_EQ(Always.lowerBound(Context), 32);
  EXPECT_EQ(Guarded.lowerBound(Context), 0);
  EXPECT_TRUE(Always.dominates(Scalar, Context));
  EXPECT_FALSE(Guarded.dominates(Scalar, Context));
  // A subkernel with nothing consecutive or uniform scores 0: the
  // fallback dominates it (a kernel without affine accesses runs scalar).
  EXPECT_TRUE(Scalar.dominates(Nothing, Context));
  EXPECT_FALSE(Nothing.dominates(Scalar, Context));
}

TEST_F(ScoringTest, EmitsTheScore) {
  // 2 * max(0, n - F0) * N1 + 5 at n = 100, F0 = 4, N1 = 3: 581.
  SubkernelScore S;
  S.addConstant(5);
  S.add(2, {pwAff("[n, iss_F0] -> { [(n - iss_F0)] }"),
            pwAff("[iss_N1] -> { [(iss_N1)] }")});
  LLVMContext C;
  Module M("m", C);
  Function *F = Function::Create(
      FunctionType::get(Type::getDoubleTy(C), false),
      GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  auto Value = [&](const isl::id &Id) -> llvm::Value * {
    std::string N = Id.get_name();
    return B.getInt64(N == "n" ? 100 : N == "iss_F0" ? 4 : 3);
  };
  Expected<llvm::Value *> V = S.emit(B, Value, isl::set());
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  auto *K = dyn_cast<ConstantFP>(*V);
  ASSERT_TRUE(K) << "the score of constants folds";
  EXPECT_EQ(K->getValueAPF().convertToDouble(), 581.0);
}

} // namespace
