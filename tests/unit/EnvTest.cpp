//===- EnvTest.cpp - Parsing of the environment variables ------------------===//
// SPDX-License-Identifier: MIT
//
// Every variable's accepted values and the one-line errors for the rest
// (include/pocl-iss/Env.h).
//
//===----------------------------------------------------------------------===//

#include "pocl-iss/Env.h"

#include <gtest/gtest.h>

using namespace iss;

TEST(Env, Modes) {
  Mode M = Mode::Vec;
  for (const char *N : {"scalar", "vec", "split", "score", "split+score"}) {
    EXPECT_EQ(parseModeVar(N, M), "") << N;
    EXPECT_STREQ(modeName(M), N);
  }
  std::string E = parseModeVar("fast", M);
  EXPECT_NE(E.find("POCL_ISS_MODE"), std::string::npos);
  EXPECT_NE(E.find("split+score"), std::string::npos);
  EXPECT_EQ(E.find('\n'), std::string::npos);
}

TEST(Env, Booleans) {
  bool B = false;
  EXPECT_EQ(parseBool("POCL_ISS_STATS", "1", B), "");
  EXPECT_TRUE(B);
  EXPECT_EQ(parseBool("POCL_ISS_STATS", "off", B), "");
  EXPECT_FALSE(B);
  EXPECT_NE(parseBool("POCL_ISS_STATS", "maybe", B).find("POCL_ISS_STATS"),
            std::string::npos);
}

TEST(Env, Unsigned) {
  unsigned U = 0;
  EXPECT_EQ(parseUnsigned("POCL_MAX_PTHREAD_COUNT", "4", 1, 4096, U), "");
  EXPECT_EQ(U, 4u);
  EXPECT_NE(parseUnsigned("POCL_MAX_PTHREAD_COUNT", "0", 1, 4096, U), "");
  EXPECT_NE(parseUnsigned("POCL_MAX_PTHREAD_COUNT", "-2", 1, 4096, U), "");
  EXPECT_NE(parseUnsigned("POCL_MAX_PTHREAD_COUNT", "3x", 1, 4096, U), "");
  EXPECT_NE(parseUnsigned("POCL_MAX_PTHREAD_COUNT", "99999999999999999999", 1,
                          4096, U),
            "");
}

TEST(Env, DimsAndDebug) {
  unsigned M = 0;
  EXPECT_EQ(parseDims("0,2", M), "");
  EXPECT_EQ(M, 5u);
  EXPECT_NE(parseDims("3", M), "");
  EXPECT_NE(parseDims("", M), "");
  EXPECT_EQ(parseDebug("all", M), "");
  EXPECT_EQ(M, unsigned(DbgAll));
  EXPECT_EQ(parseDebug("llvm,cache", M), "");
  EXPECT_EQ(M, unsigned(DbgLLVM | DbgCache));
  // pocl's own names: its doc's short ones, and those we log nothing for.
  EXPECT_EQ(parseDebug("err,warn", M), "");
  EXPECT_EQ(M, unsigned(DbgError | DbgWarning));
  EXPECT_EQ(parseDebug("memory,remote,refcounts,llvm", M), "");
  EXPECT_EQ(M, unsigned(DbgLLVM));
  EXPECT_NE(parseDebug("verbose", M), "");
  EXPECT_NE(parseDebug("llvm,,cache", M), "");
}

TEST(Env, Weights) {
  double C = 0, U = 0, D = 7;
  EXPECT_EQ(parseWeights("2,1", C, U, D), "");
  EXPECT_EQ(C, 2);
  EXPECT_EQ(U, 1);
  EXPECT_EQ(D, 7);
  EXPECT_EQ(parseWeights("0.5,0,0.25", C, U, D), "");
  EXPECT_EQ(C, 0.5);
  EXPECT_EQ(U, 0);
  EXPECT_EQ(D, 0.25);
  for (const char *Bad : {"", "2", "2,", ",1", "-1,1", "1,x", "1,2,3,4",
                          "1,2,", "1e9,1", "nan,1", "inf,1", "1;1"}) {
    std::string E = parseWeights(Bad, C, U, D);
    EXPECT_NE(E.find("POCL_ISS_WEIGHTS"), std::string::npos) << Bad;
  }
}
