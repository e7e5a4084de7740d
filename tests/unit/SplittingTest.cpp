//===- SplittingTest.cpp - The splitting predicates on isl sets -----------===//
// SPDX-License-Identifier: MIT
//
// The mathematics of input space splitting (the input-space-splitting
// paper, sections 3.2 and 4.2) on sets and functions written as isl text,
// away from any kernel: full tiles, uniform and consecutive tiles with
// inactive lanes, the paper's pointwise predicates, the universal
// elimination of opaque parameters, the ranges of the vectorized id
// (checked point by point against the pieces), and the emission of isl
// expressions as LLVM IR (folded to constants and compared with the same
// formula in C++).
//
//===----------------------------------------------------------------------===//

#include "IslTest.h"
#include "Passes.h"
#include "Splitting/IslExprEmitter.h"
#include "Splitting/RegionSplitter.h"
#include "Splitting/SplittingPredicates.h"
#include "Splitting/WorkItemModel.h"

#include "pocl-iss/IslHelpers.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

using namespace iss;
using namespace llvm;

namespace {

using SplittingTest = IslTest;

/// A function of its own to emit into: isl expressions over constant
/// values fold to constants as they are built.
struct Scratch {
  LLVMContext C;
  Module M{"m", C};
  Function *F = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                 GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B{BasicBlock::Create(C, "entry", F)};
};

TEST_F(SplittingTest, FullTiles) {
  // Figure 6 with n = 30: the tile from 24 lacks lanes 30 and 31.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 30 and 0 <= y < 4 and z = 0 }");
  expectEqual(SplittingPredicates::fullTileSet(WI, 0, 8),
              set("{ WI[x, y, z] : 0 <= x < 24 and 0 <= y < 4 and z = 0 }"));
  // Along y, 4 lanes make no tile of 8, but one of 4.
  expectEqual(SplittingPredicates::fullTileSet(WI, 1, 8),
              set("{ WI[x, y, z] : false }"));
  expectEqual(SplittingPredicates::fullTileSet(WI, 1, 4), WI);
}

TEST_F(SplittingTest, TileMapRelatesTheLanesOfATile) {
  isl::set S = set("{ S[x, y, z, k] }");
  isl::map T = SplittingPredicates::tileMap(S.space(), 0, 4);
  expectEqual(isl::set(Ctx, "{ S[5, 1, 0, 3] }").apply(T),
              set("{ S[x, 1, 0, 3] : 4 <= x <= 7 }"));
}

TEST_F(SplittingTest, UniformAndConsecutiveTilesOfMax) {
  // Figure 5: B[max(5, x)], 4-byte elements.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  isl::pw_aff F = pwAff("{ WI[x, y, z] -> [(4 * max(5, x))] }");
  expectEqual(SplittingPredicates::uniformValueTiles(F, WI, WI, 0, 4),
              set("{ WI[x, 0, 0] : 0 <= x <= 3 }"));
  expectEqual(SplittingPredicates::consecutiveTileSet(F, 4, WI, WI, 0, 4),
              set("{ WI[x, 0, 0] : 8 <= x <= 15 }"));
  // The paper's pointwise predicates split at x = 5.
  expectEqual(SplittingPredicates::pointSet(F, 4, WI, WI, 0),
              set("{ WI[x, 0, 0] : 5 <= x <= 15 }"));
  expectEqual(SplittingPredicates::pointSet(F, 0, WI, WI, 0),
              set("{ WI[x, 0, 0] : 0 <= x <= 4 }"));
}

TEST_F(SplittingTest, NeighboursDifferByParameters) {
  // A stencil's reads x - 1 and x + width (bytes of 4) differ by the
  // parameters alone: any two lanes' addresses differ alike, so their
  // tiles are the same (the predicates answer for both once).
  isl::set WI = set("[O, n] -> { WI[x, y, z] : 0 <= x < 16 and 0 <= y < 2 "
                    "and z = 0 and -O < x < n - O }");
  isl::pw_aff Left = pwAff("[O, n, w] -> { WI[x, y, z] -> [(4x - 4)] }");
  isl::pw_aff Below = pwAff("[O, n, w] -> { WI[x, y, z] -> [(4x + 4w + 4O)] }");
  EXPECT_TRUE(differByParams(Left, Below));
  EXPECT_TRUE(differByParams(Left, Left));
  expectEqual(SplittingPredicates::consecutiveTileSet(Left, 4, WI, WI, 0, 8),
              SplittingPredicates::consecutiveTileSet(Below, 4, WI, WI, 0, 8));
  expectEqual(SplittingPredicates::uniformValueTiles(Left, WI, WI, 0, 8),
              SplittingPredicates::uniformValueTiles(Below, WI, WI, 0, 8));
  // Not by the parameters alone: another stride, a row's, a tile's
  // index (a local dimension of x).
  EXPECT_FALSE(
      differByParams(Left, pwAff("[O, n, w] -> { WI[x, y, z] -> [(8x)] }")));
  EXPECT_FALSE(differByParams(
      Left, pwAff("[O, n, w] -> { WI[x, y, z] -> [(4x + 4y * 16)] }")));
  EXPECT_FALSE(differByParams(
      Left,
      pwAff("[O, n, w] -> { WI[x, y, z] -> [(4x + 64 * floor(x / 16))] }")));
  // Clamped reads have pieces: not compared, whatever they differ by.
  isl::pw_aff Clamped =
      pwAff("[O, n, w] -> { WI[x, y, z] -> [(4 * min(x, n))] }");
  EXPECT_FALSE(differByParams(
      Clamped, Clamped.add(pwAff("[O, n, w] -> { WI[x, y, z] -> [(4)] }"))));
  EXPECT_TRUE(differByParams(Clamped, Clamped));
  EXPECT_FALSE(differByParams(Left, isl::pw_aff()));
}

TEST_F(SplittingTest, DisjunctsOutsideTheParametersDropped) {
  // Taking away the tiles of x < 16 * N - O (which state N >= 1 and
  // O >= 0) from the box leaves the disjuncts N <= 0 and O < 0 beside the
  // real remainder; the parameters' range drops them and nothing else.
  isl::set Box = set("[N, O] -> { Tile[t] : 0 <= t < 4 }");
  isl::set Below =
      set("[N, O] -> { Tile[t] : N >= 1 and O >= 0 and 16t < 16N - O }");
  isl::set Signs = set("[N, O] -> { : N >= 1 and O >= 0 }");
  isl::set Rest = Box.subtract(Below);
  isl::set Kept = dropDisjunctsOutside(Rest, Signs);
  ASSERT_FALSE(Kept.is_null());
  expectEqual(Kept.intersect_params(Signs), Rest.intersect_params(Signs));
  EXPECT_LT(isl_set_n_basic_set(Kept.get()), isl_set_n_basic_set(Rest.get()))
      << islStr(Rest);
  EXPECT_EQ(isl_set_n_basic_set(Kept.get()), 1) << islStr(Kept);
  EXPECT_TRUE(Kept.intersect_params(set("[N, O] -> { : O < 0 }"))
                  .is_empty()
                  .is_true())
      << islStr(Kept);
  // A disjunct partly within the parameters' range stays whole, and a set
  // with nothing to drop comes back as it was.
  isl::set Partly = set("[N, O] -> { Tile[t] : N <= 5 and 0 <= t < 4 }");
  EXPECT_TRUE(plainIsEqual(dropDisjunctsOutside(Partly, Signs), Partly));
  expectEqual(dropDisjunctsOutside(
                  set("[N, O] -> { Tile[t] : N <= 0 and t = 0; "
                      "Tile[t] : N >= 2 and t = 1 }"),
                  Signs),
              set("[N, O] -> { Tile[t] : N >= 2 and t = 1 }"));
  // Parameters the set does not have, and a null set.
  expectEqual(dropDisjunctsOutside(set("{ Tile[t] : 0 <= t < 4 }"), Signs),
              set("{ Tile[t] : 0 <= t < 4 }"));
  EXPECT_TRUE(dropDisjunctsOutside(isl::set(), Signs).is_null());
}

TEST_F(SplittingTest, FastPathTestsKeptForLaunchesWithoutOffset) {
  // SobelFilter's bounds are the same in every row of a 64x4 group where
  // these hold (its guard compares the ids with the global sizes 64 N_x
  // and 4 N_y). Without a global offset a group starts at O = L * G below
  // L * N: a group past the image's bottom (4 N_y <= 1 + O_y) or whose
  // image edge falls 2 to 49 work-items in (2 + O_x <= 64 N_x <= 49 + O_x)
  // never runs, and only the interior and left-edge disjuncts remain.
  isl::set Same = set(
      "[O_x, O_y, G_x, N_x, G_y, N_y] -> { : (O_x > 0 and 64N_x >= 50 + O_x "
      "and 4N_y <= 1 + O_y) or (O_y > 0 and 64N_x <= 1 + O_x) or (2 + O_x "
      "<= 64N_x <= 49 + O_x and 4N_y <= 1 + O_y) or (O_y > 0 and 2 + O_x <= "
      "64N_x <= 49 + O_x and 4N_y >= 5 + O_y) or (O_x > 0 and O_y > 0 and "
      "64N_x >= 50 + O_x and 4N_y >= 5 + O_y) or (O_x = 0 and G_x = 0 and "
      "N_x > 0 and O_y > 0 and 4N_y >= 5 + O_y) }");
  isl::set Free = set("[O_x, O_y, G_x, N_x, G_y, N_y] -> { : O_x = 64G_x "
                      "and O_y = 4G_y and 0 <= G_x < N_x and 0 <= G_y < N_y "
                      "}");
  isl::set Kept = keepDisjunctsMeeting(Same, Free);
  ASSERT_FALSE(Kept.is_null());
  EXPECT_EQ(isl_set_n_basic_set(Kept.get()), 2) << islStr(Kept);
  // An under-approximation, exact for the launches without an offset.
  EXPECT_TRUE(Kept.is_subset(Same).is_true()) << islStr(Kept);
  expectEqual(Kept.intersect(Free), Same.intersect(Free));
  // With an offset of 1, the group past the image's right edge is no
  // longer tested: it computes its bounds per row, which is always right.
  isl::set PastRight = set("[O_x, O_y, G_x, N_x, G_y, N_y] -> { : O_x = 2049 "
                           "and N_x = 32 and O_y = 8 and N_y = 512 }");
  EXPECT_FALSE(PastRight.intersect(Same).is_empty().is_true());
  EXPECT_TRUE(PastRight.intersect(Kept).is_empty().is_true());
  // An offset is a group's own: the offset-free launches' set of a model
  // without group ids asks O_x to be a multiple of L_x below L_x N_x.
  isl::set Mod = set("[O_x, N_x] -> { : O_x mod 64 = 0 and 0 <= O_x < 64N_x }");
  expectEqual(keepDisjunctsMeeting(
                  set("[O_x, N_x] -> { : 2 + O_x <= 64N_x <= 49 + O_x or "
                      "64N_x >= 65 + O_x }"),
                  Mod),
              set("[O_x, N_x] -> { : 64N_x >= 65 + O_x }"));
  // Nothing to drop, a set with no disjunct, and a null set come back as
  // they were.
  EXPECT_TRUE(plainIsEqual(keepDisjunctsMeeting(Kept, Free), Kept));
  isl::set None = set("[O_x, N_x] -> { : false }");
  EXPECT_TRUE(keepDisjunctsMeeting(None, Mod).is_empty().is_true());
  EXPECT_TRUE(keepDisjunctsMeeting(isl::set(), Free).is_null());
}

TEST_F(SplittingTest, ParamsOutsideOnBoxInClosedForm) {
  // The model's range checks ask where an address leaves its type's range
  // for some work-item of the group: at a corner of the box, so the
  // closed form must equal the projection of the box for every sign of
  // the coefficients, and a loop counter the address does not involve
  // is no matter.
  std::vector<long> Size = {16, 4, 1};
  auto Projected = [&](const isl::pw_aff &PA, long Lo, long Hi) {
    isl::set Box = isl::set::universe(PA.domain_space());
    for (unsigned D = 0; D < 3; ++D)
      Box = Box.lower_bound_val(isl::dim::set, D, 0L)
                .upper_bound_val(isl::dim::set, D, Size[D] - 1);
    isl::val L(Ctx, Lo), H(Ctx, Hi);
    return PA.lt_set(isl::pw_aff(Box, L))
        .unite(PA.gt_set(isl::pw_aff(Box, H)))
        .intersect(Box)
        .params();
  };
  for (const char *F : {"[O, n] -> { WI[x, y, z] -> [(O + x - 1)] }",
                        "[O, n] -> { WI[x, y, z] -> [(O - 3x + n * 0 + 2y)] }",
                        "[O, n] -> { WI[x, y, z] -> [(-O - x - 5y + n)] }",
                        "[O, n] -> { WI[x, y, z] -> [(n)] }",
                        "[O, n] -> { WI[x, y, z] -> [(O + 7z - x)] }",
                        "[O, n] -> { L[x, y, z, k] -> [(O + x + 4y)] }"}) {
    isl::pw_aff PA = pwAff(F);
    for (auto [Lo, Hi] : {std::pair<long, long>{0, 100}, {-20, 20}}) {
      isl::set Out =
          paramsOutsideOnBox(PA, isl::val(Ctx, Lo), isl::val(Ctx, Hi), Size);
      ASSERT_FALSE(Out.is_null()) << F;
      expectEqual(Out, Projected(PA, Lo, Hi));
    }
  }
  // Where it is not one affine piece of the box's dimensions alone the
  // closed form does not answer (the caller projects).
  isl::val Lo(Ctx, 0L), Hi(Ctx, 100L);
  for (const char *F : {"[O] -> { L[x, y, z, k] -> [(O + x + k)] }",
                        "[O] -> { WI[x, y, z] -> [(O + floor(x / 2))] }",
                        "[O] -> { WI[x, y, z] -> [(min(O, x))] }",
                        "[O] -> { WI[x, y, z] -> [(x)] : x <= O }"})
    EXPECT_TRUE(paramsOutsideOnBox(pwAff(F), Lo, Hi, Size).is_null()) << F;
}

TEST_F(SplittingTest, InactiveLanesDoNotCount) {
  // Only the even lanes run the access: a masked consecutive access is
  // still consecutive; B[x / 2] is not, but it is where one lane runs.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  isl::set Even =
      set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 and x % 2 = 0 }");
  isl::pw_aff F = pwAff("{ WI[x, y, z] -> [(4x)] }");
  expectEqual(SplittingPredicates::consecutiveTileSet(F, 4, Even, WI, 0, 8),
              WI);
  isl::pw_aff Half = pwAff("{ WI[x, y, z] -> [(4 * floor(x / 2))] }");
  expectEqual(SplittingPredicates::consecutiveTileSet(Half, 4, WI, WI, 0, 8),
              set("{ WI[x, y, z] : false }"));
  isl::set Lonely = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 and "
                        "x % 8 = 3 }");
  expectEqual(
      SplittingPredicates::consecutiveTileSet(Half, 4, Lonely, WI, 0, 8), WI);
  // No function: the tiles where at most one lane runs.
  expectEqual(
      SplittingPredicates::uniformValueTiles(isl::pw_aff(), Lonely, WI, 0, 8),
      WI);
  expectEqual(
      SplittingPredicates::uniformValueTiles(isl::pw_aff(), Even, WI, 0, 8),
      set("{ WI[x, y, z] : false }"));
}

TEST_F(SplittingTest, CountersAreComparedAtEqualValues) {
  // A[k * 64 + x] in a loop of counter k: consecutive at every k, though
  // lanes of a tile see different addresses at different k.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  isl::set D = set("[n] -> { L[x, y, z, k] : 0 <= x < 16 and y = 0 and "
                   "z = 0 and 0 <= k < n }");
  isl::pw_aff F = pwAff("{ L[x, y, z, k] -> [(4x + 64k)] }");
  expectEqual(SplittingPredicates::consecutiveTileSet(F, 4, D, WI, 0, 8),
              set("[n] -> { WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }"));
  // The loop runs x times: its exit k < x is uniform on no tile with two
  // lanes, unless the loop never runs there.
  isl::set Dx = set("{ L[x, y, z, k] : 0 <= x < 16 and y = 0 and z = 0 and "
                    "0 <= k <= x }");
  isl::set Continue = set("{ L[x, y, z, k] : k < x }");
  expectEqual(
      SplittingPredicates::uniformConditionTiles(Continue, Dx, WI, 0, 8),
      set("{ WI[x, y, z] : false }"));
}

TEST_F(SplittingTest, TailGuard) {
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 32 and y = 0 and z = 0 }");
  isl::set Taken = set("[n] -> { WI[x, y, z] : x < n }");
  isl::set U = SplittingPredicates::uniformConditionTiles(Taken, WI, WI, 0, 8);
  // Uniform unless the tile holds n - 1 and n.
  for (int N = -3; N < 40; ++N)
    for (int X = 0; X < 32; ++X) {
      bool Cut = X / 8 * 8 < N && N < X / 8 * 8 + 8;
      isl::set P = set("[n] -> { WI[" + std::to_string(X) +
                       ", 0, 0] : n = " + std::to_string(N) + " }");
      EXPECT_EQ(P.is_subset(U).is_true(), !Cut) << "n = " << N << ", x = " << X;
    }
}

TEST_F(SplittingTest, ForAllEliminatesOpaqueParameters) {
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  // Uniform tiles of x < u: for every u, only where no u can cut a tile.
  isl::set Taken = set("[u] -> { WI[x, y, z] : x < u }");
  isl::set U = SplittingPredicates::uniformConditionTiles(Taken, WI, WI, 0, 8);
  isl::id Id = U.space().dim_id(isl::dim::param, 0);
  expectEqual(SplittingPredicates::forAll(U, WI, {Id}),
              set("{ WI[x, y, z] : false }"));
  // A[x + u] is consecutive for every u.
  isl::pw_aff F = pwAff("[u] -> { WI[x, y, z] -> [(4u + 4x)] }");
  isl::set C = SplittingPredicates::consecutiveTileSet(F, 4, WI, WI, 0, 8);
  expectEqual(SplittingPredicates::forAll(
                  C, WI, {F.space().dim_id(isl::dim::param, 0)}),
              WI);
}

/// The value of \p PA at outer ids (\p Y, 0), every parameter \p N.
long evalAt(const isl::pw_aff &PA, int N, int Y) {
  Scratch Sc;
  IRBuilder<> &B = Sc.B;
  IslExprEmitter E(B,
                   [&](const isl::id &) -> Value * { return B.getInt64(N); });
  Value *Dims[2] = {B.getInt64(Y), B.getInt64(0)};
  Expected<Value *> V = E.emit(PA, Dims);
  if (!V) {
    ADD_FAILURE() << toString(V.takeError());
    return -1;
  }
  auto *CI = dyn_cast<ConstantInt>(*V);
  if (!CI) {
    ADD_FAILURE() << "not folded";
    return -1;
  }
  return CI->getSExtValue();
}

/// Checks point by point, for each value of n in [Lo, Hi] and each outer
/// id y in [0, Y), that the ranges cut [0, L) in order, that each x of
/// a range lies in its piece, and that a range's tiles of \p W work-items
/// are those its bounds cut.
void checkRanges(isl::ctx Ctx, ArrayRef<isl::set> Pieces,
                 ArrayRef<SplitRange> Ranges, int L, int W, int Y, int Lo,
                 int Hi) {
  auto Eval = evalAt;
  for (int N = Lo; N <= Hi; ++N)
    for (int Yv = 0; Yv < Y; ++Yv) {
      long At = 0;
      for (const SplitRange &R : Ranges) {
        long B = Eval(R.Begin, N, Yv), E = Eval(R.End, N, Yv);
        ASSERT_EQ(B, At) << "n = " << N << ", y = " << Yv;
        ASSERT_LE(B, E) << "n = " << N << ", y = " << Yv;
        for (long X = B; X < E; ++X) {
          isl::set P(Ctx, "[n] -> { WI[" + std::to_string(X) + ", " +
                              std::to_string(Yv) +
                              ", 0] : n = " + std::to_string(N) + " }");
          EXPECT_TRUE(P.is_subset(Pieces[R.Piece]).is_true())
              << "x = " << X << " not in piece " << R.Piece << " for n = " << N
              << ", y = " << Yv;
        }
        // Its tiles (SplitRange::Tiles) are those of [Begin, End), whose
        // bounds are multiples of w or L.
        ASSERT_FALSE(R.Tiles.is_null());
        for (long X = 0; X < L; X += W) {
          isl::set T(Ctx, "[n] -> { Tile[" + std::to_string(X / W) + ", " +
                              std::to_string(Yv) +
                              ", 0] : n = " + std::to_string(N) + " }");
          EXPECT_EQ(T.is_subset(R.Tiles).is_true(), B <= X && X < E)
              << "tile " << X / W << " of range [" << B << ", " << E
              << ") for n = " << N << ", y = " << Yv;
        }
        At = E;
      }
      EXPECT_EQ(At, L) << "n = " << N << ", y = " << Yv;
    }
}

/// The piece of each range, in order.
std::vector<unsigned> piecesInOrder(ArrayRef<SplitRange> Ranges) {
  std::vector<unsigned> Out;
  for (const SplitRange &R : Ranges)
    Out.push_back(R.Piece);
  return Out;
}

/// The ranges of \p Pieces along x in tiles of \p Width; none, and a
/// failure, when rangesOf refuses.
std::vector<SplitRange> rangesAlongX(ArrayRef<isl::set> Pieces,
                                     const isl::set &WI, unsigned Width,
                                     const isl::set &Context) {
  std::vector<SplitRange> Ranges;
  std::string Why;
  if (!SplittingPredicates::rangesOf(Pieces, WI, 0, Width, Context, 8, Ranges,
                                     Why))
    ADD_FAILURE() << Why;
  return Ranges;
}

/// Checks, for each value of n in [Lo, Hi] and each outer id y in [0, Y),
/// that the bounds emitCuts computes for \p Pieces at run time are those
/// of \p Ranges, made without cuts (L work-items along x in tiles of
/// \p Width).
void checkCuts(ArrayRef<isl::set> Pieces, ArrayRef<SplitRange> Ranges,
               const isl::set &WI, unsigned Width, const isl::set &Context,
               int L, int Y, int Lo, int Hi) {
  std::vector<SplitRange> Cut;
  RangeCuts Cuts;
  std::string Why;
  ASSERT_TRUE(SplittingPredicates::rangesOf(Pieces, WI, 0, Width, Context, 8,
                                            Cut, Why, &Cuts))
      << Why;
  ASSERT_FALSE(Cuts.empty());
  ASSERT_EQ(piecesInOrder(Cut), piecesInOrder(Ranges));
  for (const SplitRange &R : Cut)
    EXPECT_TRUE(R.Begin.is_null() && R.End.is_null());
  for (int N = Lo; N <= Hi; ++N)
    for (int Yv = 0; Yv < Y; ++Yv) {
      Scratch Sc;
      IRBuilder<> &B = Sc.B;
      IslExprEmitter E(
          B, [&](const isl::id &) -> Value * { return B.getInt64(N); });
      Value *Outer[2] = {B.getInt64(Yv), B.getInt64(0)};
      SmallVector<std::pair<Value *, Value *>, 8> Bounds;
      ASSERT_TRUE(SplittingPredicates::emitCuts(E, B, Cuts, Outer, Context, L,
                                                Width, Bounds));
      ASSERT_EQ(Bounds.size(), Ranges.size());
      for (unsigned I = 0; I < Ranges.size(); ++I) {
        auto *Bg = dyn_cast<ConstantInt>(Bounds[I].first);
        auto *En = dyn_cast<ConstantInt>(Bounds[I].second);
        ASSERT_TRUE(Bg && En) << "not folded";
        EXPECT_EQ(Bg->getSExtValue(), evalAt(Ranges[I].Begin, N, Yv))
            << "range " << I << ", n = " << N << ", y = " << Yv;
        EXPECT_EQ(En->getSExtValue(), evalAt(Ranges[I].End, N, Yv))
            << "range " << I << ", n = " << N << ", y = " << Yv;
      }
    }
}

/// A tail guard cut at n over \p WI, in tiles of 8 along x: the tiles
/// below n, the tile n cuts, the rest.
std::vector<isl::set> tailGuardPieces(const isl::set &WI) {
  isl::ctx Ctx = WI.ctx();
  isl::set Cut = WI.intersect(isl::set(
      Ctx,
      "[n] -> { WI[x, y, z] : 8 * floor(x / 8) < n < 8 * floor(x / 8) + 8 }"));
  isl::set Below = WI.intersect(
      isl::set(Ctx, "[n] -> { WI[x, y, z] : 8 * floor(x / 8) + 8 <= n }"));
  return {Below, Cut, WI.subtract(Cut).subtract(Below)};
}

/// The ranges of a tail guard over L work-items in 2 rows, tiles of 8,
/// checked point by point for n in [-10, 45]: the tiles below n, the tile
/// n cuts, the rest.
void checkTailGuardRanges(isl::ctx Ctx, int L) {
  isl::set WI(Ctx, "{ WI[x, y, z] : 0 <= x < " + std::to_string(L) +
                       " and 0 <= y < 2 and z = 0 }");
  std::vector<isl::set> Pieces = tailGuardPieces(WI);
  isl::set Context(Ctx, "[n] -> { : }");
  std::vector<SplitRange> Ranges = rangesAlongX(Pieces, WI, 8, Context);
  ASSERT_EQ(piecesInOrder(Ranges), (std::vector<unsigned>{0, 1, 2}));
  checkRanges(Ctx, Pieces, Ranges, L, 8, 2, -10, 45);
  checkCuts(Pieces, Ranges, WI, 8, Context, L, 2, -10, 45);
}

TEST_F(SplittingTest, RangesOfATailGuard) {
  // Three pieces along x: the tiles below n, the tile n cuts, the rest;
  // the first and the last are the same piece where n - O is aligned.
  checkTailGuardRanges(Ctx, 32);
}

TEST_F(SplittingTest, RangesOfATailGuardEndAtAPartialTile) {
  // 28 work-items in tiles of 8: the bounds are multiples of 8 but the
  // last, which stops at 28 (where 8 divides the local size, as above,
  // they need no minimum with it).
  checkTailGuardRanges(Ctx, 28);
}

TEST_F(SplittingTest, RangesFollowTheOuterIds) {
  // A triangle: x <= y, tiles of 4 along x, y the outer id.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 16 and z = 0 }");
  isl::set Lower = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 16 and "
                       "z = 0 and 4 * floor(x / 4) + 3 <= y }");
  isl::set Upper = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 16 and "
                       "z = 0 and 4 * floor(x / 4) > y }");
  isl::set Diagonal = WI.subtract(Lower).subtract(Upper);
  std::vector<isl::set> Pieces = {Upper, Diagonal, Lower};
  std::vector<SplitRange> Ranges =
      rangesAlongX(Pieces, WI, 4, isl::set(Ctx, "{ : }"));
  // Lower triangle first, then the diagonal tile, then the upper part.
  ASSERT_EQ(piecesInOrder(Ranges), (std::vector<unsigned>{2, 1, 0}));
  checkRanges(Ctx, Pieces, Ranges, 16, 4, 16, 0, 0);
  checkCuts(Pieces, Ranges, WI, 4, isl::set(Ctx, "{ : }"), 16, 16, 0, 0);
}

TEST_F(SplittingTest, BoundsTheSameInEveryRow) {
  // Rows below n run piece A whole, the others piece B (Figure 2's border
  // rows): every row of the group is cut alike when all its 4 rows are
  // below n, or none is; and range 0 (A) is the whole group when all are.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 4 and z = 0 }");
  isl::set A = set("[n] -> { WI[x, y, z] : 0 <= x < 16 and 0 <= y < 4 and "
                   "z = 0 and y < n }");
  std::vector<isl::set> Pieces = {A, WI.subtract(A)};
  isl::set Context(Ctx, "[n] -> { : }");
  std::vector<SplitRange> Ranges = rangesAlongX(Pieces, WI, 8, Context);
  ASSERT_EQ(Ranges.size(), 2u);
  isl::set Outer = set("{ Outer[y, z] : 0 <= y < 4 and z = 0 }");
  isl::set Same = SplittingPredicates::invariantParams(
      {Ranges[0].End, Ranges[1].End}, Outer, Context);
  expectEqual(Same, set("[n] -> { : n >= 4 or n <= 0 }"));
  isl::set Whole0 = SplittingPredicates::wholeParams(
      Ranges[0].Begin, Ranges[0].End, 16, Outer, Context);
  isl::set Whole1 = SplittingPredicates::wholeParams(
      Ranges[1].Begin, Ranges[1].End, 16, Outer, Context);
  expectEqual(Whole0, set("[n] -> { : n >= 4 }"));
  expectEqual(Whole1, set("[n] -> { : n <= 0 }"));
  // Point by point: the bounds of every row against row 0's.
  for (int N = -3; N <= 8; ++N) {
    bool Alike = true, All0 = true;
    for (int Y = 0; Y < 4; ++Y)
      for (const SplitRange &R : Ranges) {
        Alike &= evalAt(R.Begin, N, Y) == evalAt(R.Begin, N, 0) &&
                 evalAt(R.End, N, Y) == evalAt(R.End, N, 0);
        All0 &= R.Piece != 0 || (evalAt(R.Begin, N, Y) == 0 &&
                                 evalAt(R.End, N, Y) == 16);
      }
    isl::set P(Ctx, "[n] -> { : n = " + std::to_string(N) + " }");
    EXPECT_EQ(P.is_subset(Same).is_true(), Alike) << "n = " << N;
    EXPECT_EQ(P.is_subset(Whole0).is_true(), All0) << "n = " << N;
  }
}

TEST_F(SplittingTest, BoundsThatFollowTheRowsDiffer) {
  // The triangle x <= y: no two rows are cut alike, no range is a whole
  // group.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 16 and z = 0 }");
  isl::set Lower = set("{ WI[x, y, z] : 0 <= x < 16 and 0 <= y < 16 and "
                       "z = 0 and 4 * floor(x / 4) + 3 <= y }");
  std::vector<isl::set> Pieces = {WI.subtract(Lower), Lower};
  isl::set Context(Ctx, "{ : }");
  std::vector<SplitRange> Ranges = rangesAlongX(Pieces, WI, 4, Context);
  ASSERT_FALSE(Ranges.empty());
  isl::set Outer = set("{ Outer[y, z] : 0 <= y < 16 and z = 0 }");
  SmallVector<isl::pw_aff, 4> Ends;
  for (const SplitRange &R : Ranges)
    Ends.push_back(R.End);
  EXPECT_TRUE(SplittingPredicates::invariantParams(Ends, Outer, Context)
                  .is_empty()
                  .is_true());
  for (const SplitRange &R : Ranges)
    EXPECT_TRUE(
        SplittingPredicates::wholeParams(R.Begin, R.End, 16, Outer, Context)
            .is_empty()
            .is_true());
}

/// The ranges along x, in tiles of \p W, of the piece \p A of 16 work-items
/// in one row (a set over WI with the parameter n) and of the rest,
/// checked point by point for n in [-5, 5].
std::vector<SplitRange> twoPieceRanges(isl::ctx Ctx, const char *A,
                                       unsigned W) {
  isl::set WI(Ctx, "{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  isl::set P(Ctx, A);
  std::vector<isl::set> Pieces = {P, WI.subtract(P)};
  isl::set Context(Ctx, "[n] -> { : }");
  std::vector<SplitRange> Ranges = rangesAlongX(Pieces, WI, W, Context);
  checkRanges(Ctx, Pieces, Ranges, 16, W, 1, -5, 5);
  checkCuts(Pieces, Ranges, WI, W, Context, 16, 1, -5, 5);
  return Ranges;
}

TEST_F(SplittingTest, RangesOfIntervalsThatNeverCoexist) {
  // Piece 0 is [0, 8) when n >= 0 and [0, 4) otherwise, in tiles of 4:
  // two intervals that never coexist, one range (with the tiles of both),
  // and so is the rest.
  EXPECT_EQ(piecesInOrder(twoPieceRanges(
                Ctx,
                "[n] -> { WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 "
                "and ((n >= 0 and x < 8) or (n < 0 and x < 4)) }",
                4)),
            (std::vector<unsigned>{0, 1}));
}

TEST_F(SplittingTest, RangesOfPiecesThatSwapPlaces) {
  // Piece 0 is left of piece 1 when n >= 0 and right of it otherwise: each
  // is two intervals that never coexist. One piece's intervals merge into
  // one slot, the other's take two, one of them empty for any n.
  EXPECT_EQ(twoPieceRanges(
                Ctx,
                "[n] -> { WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 "
                "and ((n >= 0 and x < 8) or (n < 0 and x >= 8)) }",
                8)
                .size(),
            3u);
}

TEST_F(SplittingTest, RangeTilesAreTheTilesOfTheRange) {
  // The tail guard of RangesOfATailGuard with L = 30, not a multiple of
  // w: each range's bounds in tiles give its tiles (within its piece's),
  // and its bounds in work-items are w times those, cut at L.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 30 and 0 <= y < 2 and z = 0 }");
  std::vector<isl::set> Pieces = tailGuardPieces(WI);
  std::vector<SplitRange> Ranges =
      rangesAlongX(Pieces, WI, 8, isl::set(Ctx, "[n] -> { : }"));
  ASSERT_EQ(Ranges.size(), 3u);
  for (const SplitRange &R : Ranges) {
    ASSERT_FALSE(R.BeginTile.is_null());
    ASSERT_FALSE(R.EndTile.is_null());
    // The same values wherever either is defined.
    auto ExpectSame = [&](const isl::pw_aff &A, const isl::pw_aff &B) {
      EXPECT_TRUE(A.domain().is_equal(B.domain()).is_true());
      EXPECT_TRUE(A.ne_set(B).is_empty().is_true())
          << islStr(A) << "\n   is not\n"
          << islStr(B);
    };
    isl::pw_aff L(R.End.domain(), isl::val(Ctx, 30L));
    ExpectSame(R.End, R.EndTile.scale(isl::val(Ctx, 8L)).min(L));
    ExpectSame(R.Begin, R.BeginTile.scale(isl::val(Ctx, 8L)).min(L));
    ASSERT_FALSE(R.Tiles.is_null());
    const isl::set &T = R.Tiles;
    // Point by point: a tile is in T exactly when one of its work-items
    // is in [Begin, End) and in the piece.
    for (int N : {-1, 0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 25, 29, 30, 31, 40})
      for (int Y = 0; Y < 2; ++Y)
        for (int Tx = 0; Tx < 4; ++Tx) {
          bool Any = false;
          for (int X = 8 * Tx; X < std::min(8 * Tx + 8, 30); ++X) {
            std::string At = "[n] -> { WI[" + std::to_string(X) + ", " +
                             std::to_string(Y) +
                             ", 0] : n = " + std::to_string(N) + " }";
            isl::set P = set(At);
            isl::set Outer = set("[n] -> { Outer[" + std::to_string(Y) +
                                 ", 0] : n = " + std::to_string(N) + " }");
            isl::set InRange =
                R.Begin.intersect_domain(Outer)
                    .le_set(isl::pw_aff(Outer, isl::val(Ctx, long(X))))
                    .intersect(R.End.intersect_domain(Outer).gt_set(
                        isl::pw_aff(Outer, isl::val(Ctx, long(X)))));
            Any |= !InRange.is_empty().is_true() &&
                   P.is_subset(Pieces[R.Piece]).is_true();
          }
          isl::set Tile =
              set("[n] -> { Tile[" + std::to_string(Tx) + ", " +
                  std::to_string(Y) + ", 0] : n = " + std::to_string(N) + " }");
          EXPECT_EQ(Tile.is_subset(T).is_true(), Any)
              << "piece " << R.Piece << ", n = " << N << ", y = " << Y
              << ", tile " << Tx;
        }
  }
}

TEST_F(SplittingTest, RangesOfOneTileAreDecidedOnTheTileBounds) {
  // A tail guard cut at n on 30 work-items in tiles of 8: a range holds
  // more than w work-items exactly where its tile interval holds two.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 30 and y = 0 and z = 0 }");
  std::vector<isl::set> Pieces = tailGuardPieces(WI);
  isl::set Context = set("[n] -> { : -100 <= n <= 100 }");
  std::vector<SplitRange> Ranges = rangesAlongX(Pieces, WI, 8, Context);
  ASSERT_FALSE(Ranges.empty());
  std::vector<bool> Narrow;
  for (const SplitRange &R : Ranges) {
    isl::pw_aff Width = R.End.sub(R.Begin);
    bool Wide = !Width.gt_set(isl::pw_aff(Width.domain(), isl::val(Ctx, 8L)))
                     .params()
                     .intersect(Context)
                     .is_empty()
                     .is_true();
    bool TwoTiles =
        !SplittingPredicates::secondTiles(R.Tiles, 0)
             .intersect_params(Context)
             .is_empty()
             .is_true();
    EXPECT_EQ(TwoTiles, Wide) << "piece " << R.Piece;
    Narrow.push_back(!Wide);
  }
  // The tiles below n and above it may be wide; the tile n cuts is not.
  ASSERT_EQ(Narrow.size(), 3u);
  EXPECT_FALSE(Narrow[0]);
  EXPECT_TRUE(Narrow[1]);
  EXPECT_FALSE(Narrow[2]);
}

TEST_F(SplittingTest, EdgeTilesBesideARangeOfUniformControl) {
  // Rows of 32 work-items in tiles of 8 (tiles 0 to 3). The range holds
  // tiles 1 and 2; in odd rows tile 0 is hot too (another range of
  // uniform control), so tile 0 is no edge there, nor is a tile whose
  // other neighbour is hot.
  isl::set Range = set("{ Tile[t, y, 0] : 1 <= t <= 2 and 0 <= y <= 3 }");
  isl::set Hot = Range.unite(set("{ Tile[0, y, 0] : 0 <= y <= 3 and "
                                 "y mod 2 = 1 }"));
  expectEqual(SplittingPredicates::edgeTiles(Range, Hot, 0, true),
              set("{ Tile[0, y, 0] : 0 <= y <= 3 and y mod 2 = 0 }"));
  expectEqual(SplittingPredicates::edgeTiles(Range, Hot, 0, false),
              set("{ Tile[3, y, 0] : 0 <= y <= 3 }"));
  // Tile 4 is no edge of a range ending at tile 2 with hot tile 4 after
  // the edge tile 3: its other neighbour is hot.
  isl::set Beyond = Hot.unite(set("{ Tile[4, y, 0] : 0 <= y <= 3 }"));
  expectEqual(SplittingPredicates::edgeTiles(Range, Beyond, 0, false),
              set("{ Tile[t, y, z] : false }"));
}

TEST_F(SplittingTest, EdgeItemsAreTheGoodOnesNextToTheRange) {
  // Convolution2D's left border at offset O with radius r: the range's
  // copy holds from x = r - O (its clamps resolve there); its tiles start
  // at 8, the edge tile is 0. A work-item outside Good between a good one
  // and the range cuts the good one off (x = 5 in the second set).
  isl::set WI = set("[O, r] -> { WI[x, y, z] : 0 <= x < 32 and 0 <= y < 2 "
                    "and z = 0 }");
  isl::set Good = WI.intersect(set("[O, r] -> { WI[x, y, z] : x >= r - O }"));
  isl::set Edge = set("[O, r] -> { Tile[0, y, 0] : 0 <= y < 2 and "
                      "0 < r - O < 8 }");
  isl::set Items =
      SplittingPredicates::edgeItems(Good, Edge, WI, 0, 8, /*Before=*/true);
  expectEqual(Items, set("[O, r] -> { WI[x, y, 0] : 0 <= y < 2 and "
                         "0 < r - O <= x < 8 }"));
  isl::set Holed = Good.subtract(set("[O, r] -> { WI[5, y, z] }"));
  expectEqual(SplittingPredicates::edgeItems(Holed, Edge, WI, 0, 8, true),
              set("[O, r] -> { WI[x, y, 0] : 0 <= y < 2 and 0 < r - O and "
                  "r - O <= x < 8 and x > 5 }"));
  // Where it starts, per row: r - O where there is an edge, -1 elsewhere.
  isl::set Outer = set("{ Outer[y, z] : 0 <= y < 2 and z = 0 }");
  isl::set Context = set("[O, r] -> { : O >= 0 and r >= 0 }");
  expectEqual(SplittingPredicates::edgeBound(Items, Outer, 0, true, Context),
              pwAff("[O, r] -> { Outer[y, z] -> [(r - O)] : 0 <= y < 2 and "
                    "z = 0 and 0 < r - O < 8; Outer[y, z] -> [(-1)] : "
                    "0 <= y < 2 and z = 0 and (r - O <= 0 or r - O >= 8) }"));
  // The right edge of a range ending at tile 2 where x < n - O holds: it
  // ends at n - O.
  isl::set Right = WI.intersect(set("[O, n] -> { WI[x, y, z] : x < n - O }"));
  isl::set RightTile = set("[O, n] -> { Tile[3, y, 0] : 0 <= y < 2 }");
  isl::set RightItems =
      SplittingPredicates::edgeItems(Right, RightTile, WI, 0, 8, false);
  expectEqual(SplittingPredicates::edgeBound(RightItems, Outer, 0, false,
                                             set("[O, n] -> { : O >= 0 }")),
              pwAff("[O, n] -> { Outer[y, z] -> [(n - O)] : 0 <= y < 2 and "
                    "z = 0 and 24 < n - O <= 32; Outer[y, z] -> [(32)] : "
                    "0 <= y < 2 and z = 0 and n - O > 32; Outer[y, z] -> "
                    "[(-1)] : 0 <= y < 2 and z = 0 and n - O <= 24 }"));
}

TEST_F(SplittingTest, TakenOnTilesMatchesTheWorkItemsOfTheTiles) {
  // A branch k < n in a loop over k < x, on 30 work-items in tiles of 8:
  // decided on the expanded instances (x = 8t + lane), the answer is the
  // one on the work-items of the tiles, with their floors.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 30 and y = 0 and z = 0 }");
  isl::set Domain =
      set("{ H[x, y, z, k] : 0 <= x < 30 and y = 0 and z = 0 and 0 <= k < x }");
  isl::set Context = set("[n, m] -> { : 0 <= n <= 40 and 0 <= m <= 3 }");
  std::vector<isl::set> Taken = {set("[n] -> { H[x, y, z, k] : k < n }"),
                                 set("[n] -> { H[x, y, z, k] : k < x - n }"),
                                 set("{ H[x, y, z, k] : k < 22 }"),
                                 set("[n] -> { H[x, y, z, k] : x >= n }")};
  std::vector<isl::set> TileSets = {
      set("{ Tile[t, y, z] : t = 0 }"),
      set("{ Tile[t, y, z] : t = 2 }"),
      set("{ Tile[t, y, z] : t = 3 }"),
      set("{ Tile[t, y, z] : 0 <= t <= 3 }"),
      set("[m] -> { Tile[t, y, z] : t = m }"),
      set("[n] -> { Tile[t, y, z] : 8t + 8 <= n }"),
      set("{ Tile[t, y, z] : false }")};
  for (const isl::set &T : Taken)
    for (const isl::set &Tiles : TileSets) {
      isl::set W = SplittingPredicates::workItemsOf(Tiles, WI, 0, 8);
      isl::set D = Domain.intersect(W.insert_dims(isl::dim::set, 3, 1)
                                        .set_tuple_id(Domain.get_tuple_id()));
      bool Want = D.intersect_params(Context).is_subset(T).is_true();
      EXPECT_EQ(SplittingPredicates::allTakenOnTiles(Domain, T, Tiles, WI,
                                                     Context, 0, 8),
                Want)
          << islStr(T) << " on " << islStr(Tiles);
    }
}

TEST_F(SplittingTest, RangesRefuseAStridedPiece) {
  // The even x and the odd x: each piece is convex but for its stride,
  // and neither is a union of intervals of x.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 }");
  isl::set Even = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 and "
                      "x mod 2 = 0 }");
  std::vector<SplitRange> Ranges;
  std::string Why;
  EXPECT_FALSE(SplittingPredicates::rangesOf({Even, WI.subtract(Even)}, WI, 0,
                                             1, isl::set(Ctx, "{ : }"), 8,
                                             Ranges, Why));
  EXPECT_NE(Why.find("not a union of intervals"), std::string::npos) << Why;
}

TEST_F(SplittingTest, OnePieceIsOneRange) {
  // One piece: one range, [0, L), L not a multiple of w; a strided one
  // is still refused.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 30 and 0 <= y < 2 and z = 0 }");
  std::vector<SplitRange> Ranges;
  std::string Why;
  ASSERT_TRUE(SplittingPredicates::rangesOf({WI}, WI, 0, 8, set("[n] -> { : }"),
                                            1, Ranges, Why))
      << Why;
  ASSERT_EQ(piecesInOrder(Ranges), (std::vector<unsigned>{0}));
  checkRanges(Ctx, {WI}, Ranges, 30, 8, 2, 0, 0);
  isl::set Even = set("{ WI[x, y, z] : 0 <= x < 16 and y = 0 and z = 0 and "
                      "x mod 2 = 0 }");
  EXPECT_FALSE(SplittingPredicates::rangesOf(
      {Even}, Even, 0, 1, isl::set(Ctx, "{ : }"), 8, Ranges, Why));
}

TEST_F(SplittingTest, RangesOrderPiecesByWhereTheyMeet) {
  // Left of m, the interior, right of n: where all three exist they come
  // in that order, and only two of them for other m and n.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 32 and y = 0 and z = 0 }");
  isl::set Left = set("[m, n] -> { WI[x, y, z] : 0 <= x < 32 and y = 0 and "
                      "z = 0 and 4 * floor(x / 4) + 4 <= m }");
  isl::set Right = set("[m, n] -> { WI[x, y, z] : 0 <= x < 32 and y = 0 and "
                       "z = 0 and 4 * floor(x / 4) >= n and "
                       "4 * floor(x / 4) + 4 > m }");
  isl::set Mid = WI.subtract(Left).subtract(Right);
  std::vector<isl::set> Pieces = {Mid, Right, Left};
  std::vector<SplitRange> Ranges =
      rangesAlongX(Pieces, WI, 4, isl::set(Ctx, "[m, n] -> { : m <= n }"));
  ASSERT_EQ(piecesInOrder(Ranges), (std::vector<unsigned>{2, 0, 1}));
}

TEST_F(SplittingTest, RangesRefuseAnOrderThatDependsOnParameters) {
  // One convex piece each, swapping places with n: no fixed order.
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 2 and y = 0 and z = 0 }");
  isl::set A = set("[n] -> { WI[x, y, z] : 0 <= n <= 1 and x = n and "
                   "y = 0 and z = 0 }");
  isl::set B = set("[n] -> { WI[x, y, z] : 0 <= n <= 1 and x = 1 - n and "
                   "y = 0 and z = 0 }");
  std::vector<SplitRange> Ranges;
  std::string Why;
  EXPECT_FALSE(SplittingPredicates::rangesOf(
      {A, B}, WI, 0, 1, isl::set(Ctx, "[n] -> { : 0 <= n <= 1 }"), 8, Ranges,
      Why));
  EXPECT_NE(Why.find("depends on the parameters"), std::string::npos) << Why;
}

/// The same formula in C++: floor division rounding down.
long floorDiv(long A, long B) {
  return A / B - (A % B != 0 && (A < 0) != (B < 0));
}

TEST_F(SplittingTest, EmitterMatchesIsl) {
  // Pieces, max, min, floor divisions and remainders, as the AST builder
  // writes them (select, fdiv_q, pdiv_r, ...), folded by the IRBuilder.
  isl::pw_aff PA = pwAff(
      "[n, m] -> { [y] -> [(8 * floor((n + y) / 8) + max(n, 3 - y))] : y >= 0; "
      "[y] -> [(min(-n, m) + (m mod 5))] : y < 0 }");
  auto Ref = [](long N, long Mv, long Y) {
    if (Y >= 0)
      return 8 * floorDiv(N + Y, 8) + std::max(N, 3 - Y);
    long Mod = ((Mv % 5) + 5) % 5;
    return std::min(-N, Mv) + Mod;
  };
  for (long N = -13; N <= 13; N += 2)
    for (long Mv = -7; Mv <= 7; Mv += 3)
      for (long Y = -4; Y <= 12; ++Y) {
        Scratch Sc;
        IRBuilder<> &B = Sc.B;
        IslExprEmitter E(B, [&](const isl::id &Id) -> Value * {
          return B.getInt64(Id.get_name() == "n" ? N : Mv);
        });
        Value *Dims[1] = {B.getInt64(Y)};
        Expected<Value *> V = E.emit(PA, Dims);
        ASSERT_TRUE(bool(V)) << toString(V.takeError());
        auto *CI = dyn_cast<ConstantInt>(*V);
        ASSERT_TRUE(CI);
        EXPECT_EQ(CI->getSExtValue(), Ref(N, Mv, Y))
            << "n = " << N << ", m = " << Mv << ", y = " << Y;
      }
}

TEST_F(SplittingTest, EmitterBuildsInstructionsForValues) {
  // With values that are not constants, the expression is instructions of
  // i64 over the parameters (sign-extended) and the dimension; a parameter
  // without a value is an error, not a guess.
  LLVMContext C;
  Module M("m", C);
  Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
  Function *F = Function::Create(FunctionType::get(I64, {I32, I64}, false),
                                 GlobalValue::ExternalLinkage, "f", M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  isl::pw_aff PA = pwAff("[n] -> { [y] -> [(max(n, y) - floor(y / 4))] }");
  IslExprEmitter E(B, [&](const isl::id &) -> Value * { return F->getArg(0); });
  Value *Dims[1] = {F->getArg(1)};
  Expected<Value *> V = E.emit(PA, Dims);
  ASSERT_TRUE(bool(V)) << toString(V.takeError());
  EXPECT_TRUE((*V)->getType()->isIntegerTy(64));
  B.CreateRet(*V);
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(M, &OS)) << OS.str();

  IslExprEmitter NoValue(B, [](const isl::id &) -> Value * { return nullptr; });
  Expected<Value *> Bad = NoValue.emit(PA, Dims);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(toString(Bad.takeError()).find("no value for parameter n"),
            std::string::npos);
}

TEST_F(SplittingTest, ConditionOnParameters) {
  // An assumption as the split pass checks it: O <= 2^31 - 32.
  isl::set S = set("[O] -> { : O <= 2147483616 }");
  for (long O : {0L, 2147483616L, 2147483617L, 5000000000L}) {
    Scratch Sc;
    IRBuilder<> &B = Sc.B;
    IslExprEmitter E(B,
                     [&](const isl::id &) -> Value * { return B.getInt64(O); });
    Expected<Value *> V = E.emitCondition(S, {});
    ASSERT_TRUE(bool(V)) << toString(V.takeError());
    auto *CI = dyn_cast<ConstantInt>(*V);
    ASSERT_TRUE(CI);
    EXPECT_EQ(CI->isOne(), O <= 2147483616L) << O;
  }
}

/// The value of \p V folded by the IRBuilder, or a failure.
static std::optional<long> folded(Expected<Value *> V) {
  if (!V) {
    ADD_FAILURE() << toString(V.takeError());
    return std::nullopt;
  }
  auto *CI = dyn_cast<ConstantInt>(*V);
  if (!CI) {
    ADD_FAILURE() << "not folded";
    return std::nullopt;
  }
  // A condition (i1) is 0 or 1.
  return CI->getBitWidth() == 1 ? long(CI->getZExtValue()) : CI->getSExtValue();
}

TEST_F(SplittingTest, EmitterDivisionsInEveryPiece) {
  // One expression on both pieces, with floors of floors (the single
  // expression route must keep the local dimensions, not drop them), and a
  // two-piece bound whose domains are modulo conditions, as the ranges of
  // a tail guard have them.
  isl::pw_aff Same = pwAff("[n] -> { [y] -> [(16 * floor((n - floor(y / 3)) "
                           "/ 16) + 1)] : y >= 0; [y] -> [(16 * floor((n - "
                           "floor(y / 3)) / 16) + 1)] : y < 0 }");
  isl::pw_aff Mod = pwAff("[n, m] -> { [y] -> [(n - (n mod 16))] : (n + y) "
                          "mod 3 = 0 and m >= 2n; [y] -> [(2m - y)] : (n + "
                          "y) mod 3 > 0 or m < 2n }");
  for (long N = -20; N <= 20; ++N)
    for (long Mv = -9; Mv <= 9; Mv += 3)
      for (long Y = -7; Y <= 7; ++Y) {
        Scratch Sc;
        IRBuilder<> &B = Sc.B;
        IslExprEmitter E(B, [&](const isl::id &Id) -> Value * {
          return B.getInt64(Id.get_name() == "n" ? N : Mv);
        });
        Value *Dims[1] = {B.getInt64(Y)};
        long FloorY3 = floorDiv(Y, 3);
        EXPECT_EQ(folded(E.emit(Same, Dims)),
                  16 * floorDiv(N - FloorY3, 16) + 1)
            << "n = " << N << ", y = " << Y;
        long NMod3 = ((N + Y) % 3 + 3) % 3;
        long Want = NMod3 == 0 && Mv >= 2 * N ? N - ((N % 16) + 16) % 16
                                              : 2 * Mv - Y;
        EXPECT_EQ(folded(E.emit(Mod, Dims)), Want)
            << "n = " << N << ", m = " << Mv << ", y = " << Y;
      }
}

TEST_F(SplittingTest, EmitterConditionsWithLocalDimensions) {
  // A union of basic sets with existentially quantified (floor) variables
  // and an equality, checked against isl point by point.
  isl::set S = set("[n] -> { [y] : exists (e : n = 4e + 1 and y <= e) or "
                   "(y >= n and (y - 2n) mod 5 = 3) }");
  for (long N = -12; N <= 12; ++N)
    for (long Y = -12; Y <= 12; ++Y) {
      Scratch Sc;
      IRBuilder<> &B = Sc.B;
      IslExprEmitter E(B,
                       [&](const isl::id &) -> Value * { return B.getInt64(N); });
      Value *Dims[1] = {B.getInt64(Y)};
      isl::set P(S.ctx(), "[n] -> { [" + std::to_string(Y) + "] : n = " +
                              std::to_string(N) + " }");
      EXPECT_EQ(folded(E.emitCondition(S, Dims)),
                long(P.is_subset(S).is_true()))
          << "n = " << N << ", y = " << Y;
    }
}

TEST_F(SplittingTest, LaneFreeConditionOfAClampedWindow) {
  // The test of a box filter's loop, i = max(0, X - r) + k <= min(n - 1,
  // X + r) with X = O + x, on the header's instances in the centre, where
  // no clamp applies: the same for every lane, k <= 2r, whatever x, and
  // without the constraints that only say the centre has work-items.
  // Whole tiles of 8 of the centre: a union, as the model's ranges are.
  isl::set Instances = set(
      "[r, O, n] -> { H[x, y, z, k] : 0 <= x < 64 and y = 0 and z = 0 and "
      "r >= 0 and 0 <= k <= 2r + 1 and exists (t : 8t <= x <= 8t + 7 and "
      "O + 8t >= r and O + 8t + 7 + r <= n - 1) }");
  isl::set Cond = set("[r, O, n] -> { H[x, y, z, k] : "
                      "O + x - r + k <= O + x + r }");
  isl::set C = SplittingPredicates::laneFreeCondition(
      Cond, Instances, 0, set("[r, O, n] -> { : }"));
  ASSERT_FALSE(C.is_null());
  EXPECT_FALSE(C.involves_dims(isl::dim::set, 0, 1)) << islStr(C);
  EXPECT_FALSE(involvesParam(C, isl::id(Ctx, "n"))) << islStr(C);
  EXPECT_FALSE(involvesParam(C, isl::id(Ctx, "O"))) << islStr(C);
  // Right on every instance, whatever the lane.
  isl::set OnInstances = C.set_tuple_id(Instances.get_tuple_id())
                             .intersect(Instances);
  expectEqual(OnInstances, Cond.intersect(Instances));
  expectEqual(C.intersect(set("[r, O, n] -> { [x, y, z, k] : r = 2 }")),
              set("[r, O, n] -> { [x, y, z, k] : r = 2 and k <= 4 }"));
}

TEST_F(SplittingTest, LaneFreeConditionOnTilesIsTheSame) {
  // The clamped window above, its instances given as the range's tiles
  // (x = 8t + lane, no floor of x): the same condition, k <= 2r, on every
  // instance of those tiles, whatever the lane.
  isl::set Domain = set("[r, O, n] -> { H[x, y, z, k] : 0 <= x < 64 and "
                        "y = 0 and z = 0 and r >= 0 and 0 <= k <= 2r + 1 }");
  isl::set WI = set("{ WI[x, y, z] : 0 <= x < 64 and y = 0 and z = 0 }");
  isl::set Tiles = set("[r, O, n] -> { Tile[t, y, z] : O + 8t >= r and "
                       "O + 8t + 7 + r <= n - 1 }");
  isl::set Cond = set("[r, O, n] -> { H[x, y, z, k] : "
                      "O + x - r + k <= O + x + r }");
  isl::set C = SplittingPredicates::laneFreeConditionOnTiles(
      Cond, Domain, WI, Tiles, 0, 8, set("[r, O, n] -> { : }"));
  ASSERT_FALSE(C.is_null());
  EXPECT_FALSE(C.involves_dims(isl::dim::set, 0, 1)) << islStr(C);
  EXPECT_FALSE(involvesParam(C, isl::id(Ctx, "n"))) << islStr(C);
  EXPECT_FALSE(involvesParam(C, isl::id(Ctx, "O"))) << islStr(C);
  isl::set Instances =
      set("[r, O, n] -> { H[x, y, z, k] : 0 <= x < 64 and y = 0 and z = 0 and "
          "r >= 0 and 0 <= k <= 2r + 1 and exists (t : 8t <= x <= 8t + 7 and "
          "O + 8t >= r and O + 8t + 7 + r <= n - 1) }");
  expectEqual(C.set_tuple_id(Instances.get_tuple_id()).intersect(Instances),
              Cond.intersect(Instances));
  expectEqual(C.intersect(set("[r, O, n] -> { [x, y, z, k] : r = 2 }")),
              set("[r, O, n] -> { [x, y, z, k] : r = 2 and k <= 4 }"));
  // And what laneFreeCondition gives on the same instances.
  isl::set Same = SplittingPredicates::laneFreeCondition(
      Cond, Instances, 0, set("[r, O, n] -> { : }"));
  expectEqual(C.set_tuple_id(Instances.get_tuple_id()).intersect(Instances),
              Same.set_tuple_id(Instances.get_tuple_id()).intersect(Instances));
}

TEST_F(SplittingTest, LaneFreeConditionKeepsWhatTheInstancesDoNotImply) {
  // A loop that runs only when n >= 100: the instances do not say so, so
  // the condition keeps it.
  isl::set Instances = set("[r, n] -> { H[x, y, z, k] : 0 <= x < 8 and "
                           "y = 0 and z = 0 and 0 <= k <= 2r + 1 }");
  isl::set Cond = set("[r, n] -> { H[x, y, z, k] : k <= 2r and n >= 100 }");
  isl::set C = SplittingPredicates::laneFreeCondition(
      Cond, Instances, 0, set("[r, n] -> { : }"));
  ASSERT_FALSE(C.is_null());
  EXPECT_TRUE(involvesParam(C, isl::id(Ctx, "n"))) << islStr(C);
  expectEqual(C.set_tuple_id(Instances.get_tuple_id()).intersect(Instances),
              Cond.intersect(Instances));
}

TEST(SplittingModelTest, DerivedParameterIsRecomputed) {
  // vstep = (maskWidth - 1) / 2 is a parameter of its own; the split pass
  // recomputes it from the argument's value in the work-group function.
  LLVMContext C;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(R"IR(
    define void @k(i32 %maskWidth) {
      %sub = sub nsw i32 %maskWidth, 1
      %div = sdiv i32 %sub, 2
      ret void
    }
    define i32 @wg(i32 %mw) {
      ret i32 0
    }
  )IR",
                                                  Diag, C);
  ASSERT_TRUE(M);
  Function *K = M->getFunction("k"), *WG = M->getFunction("wg");
  ModelParam P;
  P.K = ModelParam::Derived;
  P.V = &*std::next(K->getEntryBlock().begin());
  IRBuilder<> B(WG->getEntryBlock().getTerminator());
  Value *V = P.materialize(B, [&](Value *Leaf) -> Value * {
    EXPECT_EQ(Leaf, K->getArg(0));
    return WG->getArg(0);
  });
  cast<ReturnInst>(WG->getEntryBlock().getTerminator())->setOperand(0, V);
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(*M, &OS)) << OS.str();
  auto *Div = dyn_cast<BinaryOperator>(V);
  ASSERT_TRUE(Div);
  EXPECT_EQ(Div->getOpcode(), Instruction::SDiv);
  EXPECT_EQ(Div->getFunction(), WG);
  auto *Sub = dyn_cast<BinaryOperator>(Div->getOperand(0));
  ASSERT_TRUE(Sub);
  EXPECT_EQ(Sub->getOperand(0), WG->getArg(0));
}

/// The front half and the model of a kernel
///   __kernel void k(__global float *y, int n) { int i = get_global_id(0);
///   BODY }
/// in groups of \p L work-items along x, BODY being LLVM IR from after
/// the computation of %i (an i32): null Model if it does not parse.
struct KernelModel {
  LLVMContext C;
  std::unique_ptr<Module> M;
  PassBuilder PB;
  std::unique_ptr<AnalysisManagers> AM;
  const WorkItemModel *Model = nullptr;

  KernelModel(StringRef Body, unsigned L) {
    SMDiagnostic Diag;
    M = parseAssemblyString(R"IR(
      target triple = "x86_64-pc-linux-gnu"
      @_local_id_x = external global i64
      @_local_size_x = external global i64
      @_group_id_x = external global i64
      @_global_offset_x = external global i64
      declare i32 @llvm.smax.i32(i32, i32)
      define spir_kernel void @k(ptr %y, i32 %n) {
      entry:
        %off = load i64, ptr @_global_offset_x
        %gid = load i64, ptr @_group_id_x
        %ls = load i64, ptr @_local_size_x
        %base = mul i64 %ls, %gid
        %g0 = add i64 %off, %base
        %lid = load i64, ptr @_local_id_x
        %g = add i64 %g0, %lid
        %i = trunc i64 %g to i32
    )IR" + Body.str() + "}\n",
                            Diag, C);
    if (!M) {
      ADD_FAILURE() << Diag.getMessage().str();
      return;
    }
    WorkGroupConfig Config;
    Config.Kernel = "k";
    Config.LocalSize[0] = L;
    registerIssPasses(PB);
    AM = std::make_unique<AnalysisManagers>(PB);
    ModulePassManager MPM;
    MPM.addPass(KernelPreparePass(Config));
    MPM.addPass(CanonicalizeBarriersPass(Config));
    MPM.addPass(ImplicitLoopBarriersPass(Config));
    MPM.addPass(ImplicitConditionalBarriersPass(Config));
    MPM.addPass(ContextArraysPass(Config));
    MPM.run(*M, AM->MAM);
    Model = &AM->FAM.getResult<WorkItemModelAnalysis>(*M->getFunction("k"));
  }
};

/// KernelModel bodies: y[i] = 0 under the condition \p Cond (%c), and
/// y[j] = 0 for the i32 %j that \p Compute defines.
std::string guardedStore(StringRef Cond) {
  return ("  %c = " + Cond + R"IR(
      br i1 %c, label %then, label %end
    then:
      %ii = sext i32 %i to i64
      %p = getelementptr inbounds float, ptr %y, i64 %ii
      store float 0.0, ptr %p
      br label %end
    end:
      ret void
  )IR")
      .str();
}
std::string storeAt(StringRef Compute) {
  return ("  " + Compute + R"IR(
      %jj = sext i32 %j to i64
      %p = getelementptr inbounds float, ptr %y, i64 %jj
      store float 0.0, ptr %p
      ret void
  )IR")
      .str();
}

TEST(SplittingModelTest, NothingToSplitDecidedOnTheModel) {
  // nothingToSplit(R, x, 8) on the region of k, in groups of L along x:
  // only where no split could fold a branch or change an access's class.
  auto Nothing = [](const std::string &Body, unsigned L) {
    KernelModel KM(Body, L);
    if (!KM.Model || KM.Model->regions().size() != 1) {
      ADD_FAILURE() << "no model of one region";
      return false;
    }
    const RegionModel &R = KM.Model->regions().front();
    EXPECT_TRUE(R.Modelled) << R.Why;
    return nothingToSplit(*KM.Model, R, 0, 8);
  };
  // y[i] under a branch on n alone: the same for every x.
  EXPECT_TRUE(Nothing(guardedStore("icmp sgt i32 %n, 0"), 64));
  // The same in groups of 60: the last tile is partial, and the whole
  // tiles may be worth a range of their own.
  EXPECT_FALSE(Nothing(guardedStore("icmp sgt i32 %n, 0"), 60));
  // A tail guard: the branch depends on x.
  EXPECT_FALSE(Nothing(guardedStore("icmp slt i32 %i, %n"), 64));
  // y[max(i, 5)] (Figure 5): consecutive from x = 5 - O on, uniform below.
  EXPECT_FALSE(
      Nothing(storeAt("%j = call i32 @llvm.smax.i32(i32 %i, i32 5)"), 64));
  // y[2 * i]: divergent on every tile alike.
  EXPECT_TRUE(Nothing(storeAt("%j = shl nsw i32 %i, 1"), 64));
  // y[i / 2]: a floor, not decided on the model.
  EXPECT_FALSE(Nothing(storeAt("%j = sdiv i32 %i, 2"), 64));
}

TEST(SplittingModelTest, BoundsOfATailGuardPerWorkGroup) {
  // The whole chain on a kernel: the front half, the model, the predicates
  // for x and tiles of 8, the bounds emitted as the split pass does (the
  // kernel's values mapped to constants, so the IRBuilder folds them),
  // checked against what each work-item does.
  //   __kernel void k(__global float *y, int n) {
  //     int i = get_global_id(0);
  //     if (i < n) y[i] = 0;
  //   }
  KernelModel KM(guardedStore("icmp slt i32 %i, %n"), 64);
  ASSERT_TRUE(KM.Model);
  LLVMContext &C = KM.C;
  Module *M = KM.M.get();
  Function *K = M->getFunction("k");
  const WorkItemModel &Model = *KM.Model;
  ASSERT_EQ(Model.regions().size(), 1u);
  const RegionModel &R = Model.regions().front();
  ASSERT_TRUE(R.Modelled) << R.Why;
  ASSERT_EQ(R.Branches.size(), 1u);
  SplittingPredicates SP(Model, R, 0, 8, 8);
  ASSERT_EQ(SP.ranges().size(), 3u) << SP.refusal();
  GlobalVariable *GroupId = M->getGlobalVariable("_group_id_x");
  GlobalVariable *Offset = M->getGlobalVariable("_global_offset_x");
  Argument *N = K->getArg(1);
  for (long Goff : {0L, 5L})
    for (long G : {0L, 1L, 3L})
      for (long Nv : {-3L, 0L, 7L, 64L, 70L, 100L, 131L, 192L, 300L}) {
        Function *WG =
            Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                             GlobalValue::ExternalLinkage, "wg", *M);
        IRBuilder<> B(BasicBlock::Create(C, "entry", WG));
        auto Map = [&](Value *V) -> Value * {
          if (V == N)
            return B.getInt32(Nv);
          if (V == GroupId)
            return B.getInt64(G);
          if (V == Offset)
            return B.getInt64(Goff);
          return nullptr;
        };
        Value *Check = Model.emitAssumptionCheck(B, Map);
        ASSERT_TRUE(Check && isa<ConstantInt>(Check));
        EXPECT_TRUE(cast<ConstantInt>(Check)->isOne());
        Value *Outer[3] = {nullptr, B.getInt64(0), B.getInt64(0)};
        SmallVector<std::pair<Value *, Value *>, 4> Bounds;
        ASSERT_TRUE(SP.emitBounds(B, Outer, Map, Bounds));
        ASSERT_EQ(Bounds.size(), 3u);
        long At = 0, O = 64 * G + Goff;
        for (unsigned I = 0; I < 3; ++I) {
          auto *Bg = dyn_cast<ConstantInt>(Bounds[I].first);
          auto *En = dyn_cast<ConstantInt>(Bounds[I].second);
          ASSERT_TRUE(Bg && En);
          ASSERT_EQ(Bg->getSExtValue(), At);
          const SplitPiece &P = SP.pieces()[SP.ranges()[I].Piece];
          for (long X = At; X < En->getSExtValue(); ++X) {
            bool Taken = O + X < Nv;
            long Tile = X / 8 * 8;
            bool Mixed = O + Tile < Nv && Nv < O + Tile + 8;
            if (P.Fates.empty()) {
              EXPECT_TRUE(Mixed) << "x = " << X << ", n = " << Nv;
            } else {
              EXPECT_FALSE(Mixed) << "x = " << X << ", n = " << Nv;
              EXPECT_EQ(Taken, P.Fates.front().second == 0)
                  << "x = " << X << ", n = " << Nv;
            }
            // The bounds of ranges of full tiles are whole tiles.
            EXPECT_TRUE(!P.Full || (At % 8 == 0));
          }
          At = En->getSExtValue();
        }
        EXPECT_EQ(At, 64);
        WG->eraseFromParent();
      }
  // Past 2^31 - 64 the trunc of the global id wraps: not assumed.
  Function *WG = Function::Create(FunctionType::get(Type::getVoidTy(C), false),
                                  GlobalValue::ExternalLinkage, "wg", *M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", WG));
  Value *Check = Model.emitAssumptionCheck(B, [&](Value *V) -> Value * {
    if (V == GroupId)
      return B.getInt64(1L << 26);
    if (V == Offset || V == N)
      return B.getInt64(0);
    return nullptr;
  });
  ASSERT_TRUE(Check && isa<ConstantInt>(Check));
  EXPECT_TRUE(cast<ConstantInt>(Check)->isZero());
}

} // namespace
