//===- IslTest.h - A fixture for tests on isl objects written as text -----===//
// SPDX-License-Identifier: MIT
//
// SplittingTest and ScoringTest check the mathematics of input space
// splitting and of the scores on sets and functions written as isl text.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_UNIT_ISLTEST_H
#define POCL_ISS_TESTS_UNIT_ISLTEST_H

#include "pocl-iss/IslHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace iss {

class IslTest : public ::testing::Test {
protected:
  IslContext IC;
  isl::ctx Ctx = IC.get();

  isl::set set(const std::string &S) { return isl::set(Ctx, S); }
  isl::pw_aff pwAff(const std::string &S) { return isl::pw_aff(Ctx, S); }
  /// \p A and \p B are the same set.
  void expectEqual(const isl::set &A, const isl::set &B) {
    ASSERT_FALSE(A.is_null());
    ASSERT_FALSE(B.is_null());
    EXPECT_TRUE(A.is_equal(B).is_true()) << islStr(A) << "\n   is not\n"
                                         << islStr(B);
  }
  /// \p A and \p B are the same function (of the parameters, or of set
  /// dimensions and the parameters).
  void expectEqual(const isl::pw_aff &A, const isl::pw_aff &B) {
    ASSERT_FALSE(A.is_null());
    ASSERT_FALSE(B.is_null());
    isl::space None(Ctx, 0, 0);
    auto AsMap = [&](const isl::pw_aff &P) {
      if (isl_space_is_params(P.domain().space().get()) == isl_bool_true)
        return P.insert_domain(None).as_map();
      return P.as_map();
    };
    EXPECT_TRUE(AsMap(A).is_equal(AsMap(B)).is_true())
        << islStr(A) << "\n   is not\n"
        << islStr(B);
  }
};

} // namespace iss

#endif // POCL_ISS_TESTS_UNIT_ISLTEST_H
