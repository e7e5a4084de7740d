//===- MeasuredChoiceTest.cpp - When the measured choice decides ----------===//
// SPDX-License-Identifier: MIT
//
// decideChoice (lib/Device/Pthread/MeasuredChoice.h) on samples written
// out: a candidate a quarter slower than the fastest drops out after three
// chunks of each, and the last one left is the choice; closer ones decide
// only after enough chunks and time, and then against the mode's code only
// for a candidate faster by more than 3 %; a preempted chunk does not move
// a median.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/MeasuredChoice.h"

#include <gtest/gtest.h>

using namespace iss;

namespace {

/// \p N chunks of each candidate, one time per group each (the mode's,
/// vec's and, where not 0, the kernel as written's), \p Ns in all each.
ChoiceSamples samples(size_t N, uint64_t Mode, uint64_t Vec, uint64_t Ns,
                      uint64_t Written = 0) {
  ChoiceSamples S;
  S.Count = Written ? 3 : 2;
  uint64_t Times[] = {Mode, Vec, Written};
  for (unsigned C = 0; C < S.Count; ++C) {
    S.Of[C].assign(N, Times[C]);
    S.Ns[C] = Ns;
  }
  return S;
}

CodeCandidate decide(ChoiceSamples S) { return decideChoice(S); }

TEST(MeasuredChoiceTest, MedianOfSamples) {
  EXPECT_EQ(medianOf({}), 0u);
  EXPECT_EQ(medianOf({7}), 7u);
  EXPECT_EQ(medianOf({9, 1, 5}), 5u);
  EXPECT_EQ(medianOf({4, 1, 3, 2}), 3u);
}

TEST(MeasuredChoiceTest, ClearDifferenceDecidesEarly) {
  EXPECT_EQ(decide(samples(2, 100, 500, 1000)), CodeCandidate::None);
  EXPECT_EQ(decide(samples(3, 100, 500, 1000)), CodeCandidate::Mode);
  EXPECT_EQ(decide(samples(3, 500, 100, 1000)), CodeCandidate::Vec);
  // 5/4 exactly is clear; a little less is not.
  EXPECT_EQ(decide(samples(3, 400, 500, 1000)), CodeCandidate::Mode);
  EXPECT_EQ(decide(samples(3, 500, 400, 1000)), CodeCandidate::Vec);
  EXPECT_EQ(decide(samples(3, 401, 500, 1000)), CodeCandidate::None);
}

TEST(MeasuredChoiceTest, FewerSamplesOfOneWait) {
  ChoiceSamples S = samples(3, 100, 500, 1000);
  S.Of[1].pop_back();
  EXPECT_EQ(decide(S), CodeCandidate::None);
}

TEST(MeasuredChoiceTest, SmallDifferenceNeedsChunksAndTime) {
  // vec's 10 % faster: not clear, so 16 chunks and 1 ms of each first.
  EXPECT_EQ(decide(samples(15, 1000, 900, 2000000)), CodeCandidate::None);
  EXPECT_EQ(decide(samples(16, 1000, 900, 999999)), CodeCandidate::None);
  EXPECT_EQ(decide(samples(16, 1000, 900, 1000000)), CodeCandidate::Vec);
  // Past 64 chunks of any, the time does not matter.
  EXPECT_EQ(decide(samples(64, 1000, 900, 1000)), CodeCandidate::Vec);
}

TEST(MeasuredChoiceTest, NoiseKeepsTheModesCode) {
  // vec's faster by 3 % or less: the mode's code stays.
  EXPECT_EQ(decide(samples(16, 1000, 970, 1000000)), CodeCandidate::Mode);
  EXPECT_EQ(decide(samples(16, 1000, 969, 1000000)), CodeCandidate::Vec);
  EXPECT_EQ(decide(samples(16, 1000, 1000, 1000000)), CodeCandidate::Mode);
  EXPECT_EQ(decide(samples(16, 900, 1000, 1000000)), CodeCandidate::Mode);
}

TEST(MeasuredChoiceTest, PreemptedChunksDoNotDecide) {
  // The mode's code is faster, but two of its five chunks were preempted.
  ChoiceSamples S = samples(5, 100, 150, 1000);
  S.Of[0][1] = S.Of[0][3] = 100000;
  EXPECT_EQ(decide(S), CodeCandidate::Mode);
}

TEST(MeasuredChoiceTest, ThreeCandidates) {
  // The kernel as written clearly fastest.
  EXPECT_EQ(decide(samples(3, 500, 600, 1000, 100)), CodeCandidate::Written);
  // Clearly slowest: it drops out, and the other two go on.
  ChoiceSamples S = samples(3, 1000, 950, 1000, 2000);
  EXPECT_EQ(decideChoice(S), CodeCandidate::None);
  EXPECT_TRUE(S.Out[2]);
  EXPECT_FALSE(S.Out[0] || S.Out[1]);
  // The mode's code dropped out: the faster of the others, however close.
  S = samples(16, 2000, 1000, 1000000, 990);
  EXPECT_EQ(decideChoice(S), CodeCandidate::Written);
  EXPECT_TRUE(S.Out[0]);
  // All three close: the mode's code unless one is 3 % faster.
  EXPECT_EQ(decide(samples(16, 1000, 990, 1000000, 980)), CodeCandidate::Mode);
  EXPECT_EQ(decide(samples(16, 1000, 990, 1000000, 960)),
            CodeCandidate::Written);
}

TEST(MeasuredChoiceTest, ModesCodeIsVecs) {
  // No vec candidate (the mode's code is vec's): the kernel as written
  // against the mode's alone.
  ChoiceSamples S = samples(3, 1000, 0, 1000, 500);
  S.Out[1] = true;
  S.Of[1].clear();
  EXPECT_EQ(decide(S), CodeCandidate::Written);
  S.Of[2].assign(3, 1000);
  EXPECT_EQ(decide(S), CodeCandidate::None);
}

} // namespace
