//===- IslHelpersTest.cpp - The isl helpers on objects written as text ----===//
// SPDX-License-Identifier: MIT
//
// The helpers of lib/Support/IslHelpers.cpp that give the compiler what
// isl's C++ bindings lack (include/pocl-iss/IslHelpers.h), each on sets,
// maps and functions written as isl text, against what isl computes
// otherwise or what the text says.
//
//===----------------------------------------------------------------------===//

#include "IslTest.h"

using namespace iss;

namespace {

class IslHelpersTest : public IslTest {
protected:
  isl::aff aff(const std::string &S) { return isl::aff(Ctx, S); }
  isl::basic_map basicMap(const std::string &S) {
    return isl::basic_map(Ctx, S);
  }
};

TEST_F(IslHelpersTest, ErrorsAreSeenUntilTheQuotaEnds) {
  EXPECT_FALSE(hasIslError(Ctx));
  {
    IslQuota Q(Ctx, 1);
    isl::set S = set("[n] -> { [i, j] : 0 <= i < n and 0 <= j < i and "
                     "(i + j) mod 3 = 0 }");
    isl::set Hull = S.coalesce().detect_equalities().lexmax();
    EXPECT_TRUE(Hull.is_null());
    EXPECT_TRUE(hasIslError(Ctx));
    EXPECT_EQ(hasIslError(Ctx), Q.exceeded());
  }
  // The quota resets the error as it ends.
  EXPECT_FALSE(hasIslError(Ctx));
  EXPECT_FALSE(set("{ [i] : 0 <= i < 4 }").is_null());
  EXPECT_FALSE(hasIslError(Ctx));
}

TEST_F(IslHelpersTest, DimensionsOfAnAffineExpression) {
  isl::aff A = aff("[n, m] -> { [x, y, z] -> [(floor(x / 4) + "
                   "floor((y + n) / 3) + z)] }");
  EXPECT_EQ(islDim(A, isl::dim::param), 2u);
  EXPECT_EQ(islDim(A, isl::dim::in), 3u);
  EXPECT_EQ(islDim(A, isl::dim::div), 2u);
  EXPECT_EQ(islDim(aff("{ [x] -> [(2x + 1)] }"), isl::dim::div), 0u);
  EXPECT_EQ(islDim(isl::aff(), isl::dim::in), 0u);
}

TEST_F(IslHelpersTest, PiecesOfAPiecewiseExpression) {
  EXPECT_EQ(pieceCount(pwAff("[n] -> { [x] -> [(x)] }")), 1u);
  // min(x, n) on two pieces.
  EXPECT_EQ(pieceCount(pwAff("[n] -> { [x] -> [(x)] : x < n; "
                             "[x] -> [(n)] : x >= n }")),
            2u);
  EXPECT_EQ(pieceCount(pwAff("[n] -> { [x] -> [(x)] : x < 0 }")
                           .intersect_domain(set("[n] -> { [x] : x > 0 }"))),
            0u);
  EXPECT_EQ(pieceCount(isl::pw_aff()), 0u);
}

TEST_F(IslHelpersTest, DimensionsInvolvedThroughFloors) {
  isl::aff A = aff("[n] -> { [x, y, z] -> [(floor(y / 2) + n)] }");
  EXPECT_FALSE(involvesInDims(A, 0, 1));
  EXPECT_TRUE(involvesInDims(A, 1, 1));
  EXPECT_TRUE(involvesInDims(A, 0, 3));
  EXPECT_FALSE(involvesInDims(A, 2, 1));
  // Unsure of a null object: involved.
  EXPECT_TRUE(involvesInDims(isl::aff(), 0, 1));

  isl::pw_aff PA = pwAff("[n] -> { [x, y] -> [(n)] : y < n; "
                         "[x, y] -> [(x)] : y >= n }");
  // x occurs in a piece's expression, y in the pieces' domains.
  EXPECT_TRUE(involvesInDims(PA, 0, 1));
  EXPECT_TRUE(involvesInDims(PA, 1, 1));
  EXPECT_FALSE(involvesInDims(pwAff("[n] -> { [x, y] -> [(n + y)] }"), 0, 1));
  EXPECT_TRUE(involvesInDims(isl::pw_aff(), 0, 1));
}

TEST_F(IslHelpersTest, AffineExpressionsPlainlyEqual) {
  isl::aff A = aff("[n] -> { [x] -> [(2x + n)] }");
  EXPECT_TRUE(plainIsEqual(A, aff("[n] -> { [x] -> [(n + 2x)] }")));
  EXPECT_FALSE(plainIsEqual(A, aff("[n] -> { [x] -> [(2x + n + 1)] }")));
  // Another space is another expression.
  EXPECT_FALSE(plainIsEqual(A, aff("[n] -> { S[x] -> [(2x + n)] }")));
  EXPECT_TRUE(plainIsEqual(isl::aff(), isl::aff()));
  EXPECT_FALSE(plainIsEqual(A, isl::aff()));
}

TEST_F(IslHelpersTest, ConstraintsOnTheOutputDimension) {
  // t >= 0 and n - o - 4t >= 0; 0 <= o < 8 does not involve t.
  std::optional<std::vector<OutputConstraint>> Cons = constraintsOnOutput(
      basicMap("[n] -> { [o] -> [t] : t >= 0 and 4t <= n - o and "
               "0 <= o < 8 }"));
  ASSERT_TRUE(Cons.has_value());
  ASSERT_EQ(Cons->size(), 2u);
  bool Lower = false, Upper = false;
  for (const OutputConstraint &C : *Cons) {
    EXPECT_FALSE(C.Equality);
    if (C.Coef.is_one().is_true()) {
      Lower = true;
      expectEqual(isl::pw_aff(C.Rest), pwAff("[n] -> { [o] -> [(0)] }"));
    } else {
      Upper = true;
      EXPECT_EQ(C.Coef.get_num_si(), -4);
      expectEqual(isl::pw_aff(C.Rest), pwAff("[n] -> { [o] -> [(n - o)] }"));
    }
  }
  EXPECT_TRUE(Lower && Upper);

  // An equality, t = 2 o + n: t - 2 o - n = 0 or its negation.
  Cons = constraintsOnOutput(basicMap("[n] -> { [o] -> [t] : t = 2o + n }"));
  ASSERT_TRUE(Cons.has_value());
  ASSERT_EQ(Cons->size(), 1u);
  const OutputConstraint &C = Cons->front();
  EXPECT_TRUE(C.Equality);
  ASSERT_TRUE(C.Coef.abs().is_one().is_true());
  expectEqual(isl::pw_aff(C.Coef.is_one().is_true() ? C.Rest : C.Rest.neg()),
              pwAff("[n] -> { [o] -> [(-2o - n)] }"));

  // Not of the form: a local dimension, two output dimensions, null.
  EXPECT_FALSE(
      constraintsOnOutput(basicMap("{ [o] -> [t] : exists e : t = 2e + o }"))
          .has_value());
  EXPECT_FALSE(
      constraintsOnOutput(basicMap("{ [o] -> [t, u] : t = u }")).has_value());
  EXPECT_FALSE(constraintsOnOutput(isl::basic_map()).has_value());
}

TEST_F(IslHelpersTest, ConstraintsInvolvingTheOutputDropped) {
  isl::basic_map BM =
      basicMap("[n] -> { [o] -> [t] : 0 <= t < n - o and 0 <= o < 8 }");
  isl::basic_map Rest = dropConstraintsInvolvingOutput(BM, 0, 1);
  // What is left says nothing of t.
  expectEqual(isl::set(isl::map(Rest).wrap()),
              set("[n] -> { [[o] -> [t]] : 0 <= o < 8 }"));
  expectEqual(isl::map(Rest).domain(), set("[n] -> { [o] : 0 <= o < 8 }"));
}

} // namespace
