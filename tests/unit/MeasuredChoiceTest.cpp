//===- MeasuredChoiceTest.cpp - When the measured choice decides ----------===//
// SPDX-License-Identifier: MIT
//
// decideChoice (lib/Device/Pthread/MeasuredChoice.h) on samples written
// out: a clear difference decides after three chunks of each candidate, a
// small one only after enough chunks and time, and then for `vec`'s code
// only when it is faster by more than 3 %; a preempted chunk does not move
// a median.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/MeasuredChoice.h"

#include <gtest/gtest.h>

using namespace iss;

namespace {

/// \p N chunks of \p PerGroup each, taking \p Ns in all.
ChoiceSamples samples(size_t N, uint64_t Mode, uint64_t Vec, uint64_t Ns) {
  ChoiceSamples S;
  S.Mode.assign(N, Mode);
  S.Vec.assign(N, Vec);
  S.ModeNs = S.VecNs = Ns;
  return S;
}

TEST(MeasuredChoiceTest, MedianOfSamples) {
  EXPECT_EQ(medianOf({}), 0u);
  EXPECT_EQ(medianOf({7}), 7u);
  EXPECT_EQ(medianOf({9, 1, 5}), 5u);
  EXPECT_EQ(medianOf({4, 1, 3, 2}), 3u);
}

TEST(MeasuredChoiceTest, ClearDifferenceDecidesEarly) {
  EXPECT_EQ(decideChoice(samples(2, 100, 500, 1000)), ChoiceWinner::None);
  EXPECT_EQ(decideChoice(samples(3, 100, 500, 1000)), ChoiceWinner::Mode);
  EXPECT_EQ(decideChoice(samples(3, 500, 100, 1000)), ChoiceWinner::Vec);
  // 5/4 exactly is clear; a little less is not.
  EXPECT_EQ(decideChoice(samples(3, 400, 500, 1000)), ChoiceWinner::Mode);
  EXPECT_EQ(decideChoice(samples(3, 500, 400, 1000)), ChoiceWinner::Vec);
  EXPECT_EQ(decideChoice(samples(3, 401, 500, 1000)), ChoiceWinner::None);
}

TEST(MeasuredChoiceTest, FewerSamplesOfOneWait) {
  ChoiceSamples S = samples(3, 100, 500, 1000);
  S.Vec.pop_back();
  EXPECT_EQ(decideChoice(S), ChoiceWinner::None);
}

TEST(MeasuredChoiceTest, SmallDifferenceNeedsChunksAndTime) {
  // vec's 10 % faster: not clear, so 16 chunks and 1 ms of each first.
  EXPECT_EQ(decideChoice(samples(15, 1000, 900, 2000000)), ChoiceWinner::None);
  EXPECT_EQ(decideChoice(samples(16, 1000, 900, 999999)), ChoiceWinner::None);
  EXPECT_EQ(decideChoice(samples(16, 1000, 900, 1000000)), ChoiceWinner::Vec);
  // Past 64 chunks of either, the time does not matter.
  EXPECT_EQ(decideChoice(samples(64, 1000, 900, 1000)), ChoiceWinner::Vec);
}

TEST(MeasuredChoiceTest, NoiseKeepsTheModesCode) {
  // vec's faster by 3 % or less: the mode's code stays.
  EXPECT_EQ(decideChoice(samples(16, 1000, 970, 1000000)), ChoiceWinner::Mode);
  EXPECT_EQ(decideChoice(samples(16, 1000, 969, 1000000)), ChoiceWinner::Vec);
  EXPECT_EQ(decideChoice(samples(16, 1000, 1000, 1000000)), ChoiceWinner::Mode);
  EXPECT_EQ(decideChoice(samples(16, 900, 1000, 1000000)), ChoiceWinner::Mode);
}

TEST(MeasuredChoiceTest, PreemptedChunksDoNotDecide) {
  // The mode's code is faster, but two of its five chunks were preempted.
  ChoiceSamples S = samples(5, 100, 150, 1000);
  S.Mode[1] = S.Mode[3] = 100000;
  EXPECT_EQ(decideChoice(S), ChoiceWinner::Mode);
}

} // namespace
