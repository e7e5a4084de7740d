//===- SplittingPredicates.cpp - Where a tile runs without divergence -----===//
// SPDX-License-Identifier: MIT
//
// SplittingPredicates (see SplittingPredicates.h), the input-space-
// splitting paper, sections 3.2 and 4.2. Each tile-level predicate is
// computed as the complement of the tiles with a witness of divergence: two
// active lanes of a tile, at equal loop counters, that disagree.
//
//===----------------------------------------------------------------------===//

#include "Splitting/SplittingPredicates.h"
#include "Splitting/IslExprEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>
#include <optional>

using namespace llvm;

// As the model's quota (-iss-model-max-ops): 4 * 10^6 operations were 3.1
// s of a kernel with periodic guards that was then not split; under 10^6
// every other kernel of the tests and benchmarks is split as before, and
// one needs over half of it.
static cl::opt<unsigned long> MaxPredicateOps(
    "iss-predicates-max-ops",
    cl::desc("isl operations allowed for the predicates of one region and "
             "dimension"),
    cl::init(1000000));

namespace iss {

static const char *const DimNames[3] = {"x", "y", "z"};

std::string SplitPiece::name() const {
  std::string S = Full ? "full" : "partial";
  S += Consecutive ? ", consecutive" : ", remainder";
  if (Full && Consecutive)
    S += UniformControl ? ", uniform control" : ", divergent control";
  return S;
}

std::string SplitPiece::name(const RegionModel &R) const {
  std::string S = name();
  for (auto [B, Succ] : Fates) {
    const Instruction *T = R.Branches[B].Term;
    S += ", " + T->getParent()->getName().str() + " to " +
         T->getSuccessor(Succ)->getName().str();
  }
  return S;
}

//===----------------------------------------------------------------------===//
// The mathematics
//===----------------------------------------------------------------------===//

/// The multi_aff on \p Space whose output \p Dim is \p Fn(x_d) and the
/// others the identity.
static isl::multi_aff replaceDim(const isl::space &Space, unsigned Dim,
                                 function_ref<isl::aff(isl::aff)> Fn) {
  unsigned N = islDim(Space, isl::dim::set);
  isl::local_space LS(Space);
  isl::aff_list List(Space.ctx(), N);
  for (unsigned I = 0; I < N; ++I) {
    isl::aff V = isl::aff::var_on_domain(LS, isl::dim::set, I);
    List = List.add(I == Dim ? Fn(V) : V);
  }
  return Space.map_from_set().multi_aff(List);
}

isl::map SplittingPredicates::tileMap(const isl::space &Space, unsigned Dim,
                                      unsigned Width) {
  // p -> (the tile of p, the other dimensions); two points are in the same
  // tile when their images agree.
  isl::multi_aff Tile = replaceDim(Space, Dim, [&](isl::aff V) {
    return V.scale_down(isl::val(Space.ctx(), long(Width))).floor();
  });
  isl::map M = Tile.as_map();
  return M.apply_range(M.reverse());
}

/// { WI[x, y, z] -> Tile[...] }: x_d to its tile index floor(x_d / w).
static isl::multi_aff toTile(const isl::space &WISpace, unsigned Dim,
                             unsigned Width) {
  isl::multi_aff MA = replaceDim(WISpace, Dim, [&](isl::aff V) {
    return V.scale_down(isl::val(WISpace.ctx(), long(Width))).floor();
  });
  return MA.set_range_tuple(isl::id(WISpace.ctx(), "Tile"));
}

isl::set SplittingPredicates::tilesOf(const isl::set &WIDomain, unsigned Dim,
                                      unsigned Width) {
  return WIDomain.apply(toTile(WIDomain.space(), Dim, Width).as_map())
      .coalesce();
}

isl::set SplittingPredicates::workItemsOf(const isl::set &Tiles,
                                          const isl::set &WIDomain,
                                          unsigned Dim, unsigned Width) {
  return WIDomain
      .intersect(Tiles.preimage(toTile(WIDomain.space(), Dim, Width)))
      .coalesce();
}

isl::set SplittingPredicates::fullTileSet(const isl::set &WIDomain,
                                          unsigned Dim, unsigned Width) {
  // The last lane of the tile, w * floor(x_d / w) + w - 1, is in the box.
  isl::ctx Ctx = WIDomain.ctx();
  isl::multi_aff Last = replaceDim(WIDomain.space(), Dim, [&](isl::aff V) {
    return V.scale_down(isl::val(Ctx, long(Width)))
        .floor()
        .scale(isl::val(Ctx, long(Width)))
        .add_constant(isl::val(Ctx, long(Width) - 1));
  });
  return WIDomain.intersect(WIDomain.preimage(Last)).coalesce();
}

isl::set SplittingPredicates::toWorkItems(const isl::set &S,
                                          const isl::set &WIDomain) {
  unsigned N = islDim(S, isl::dim::set);
  isl::set P = S;
  if (N > 3)
    P = P.project_out(isl::dim::set, 3, N - 3);
  return P.set_tuple_id(WIDomain.get_tuple_id());
}

/// The tiles (over Tile) holding points of \p S (over a block's space).
static isl::set tilesHolding(const isl::set &S, unsigned Dim, unsigned Width) {
  unsigned N = islDim(S, isl::dim::set);
  isl::set P = S;
  if (N > 3)
    P = P.project_out(isl::dim::set, 3, N - 3);
  isl::space WIS = P.space();
  return P.apply(toTile(WIS, Dim, Width).as_map()).coalesce();
}

/// The expanded space of a block's space: x_d = w * t + lane, the tile
/// index t where x_d was and the lane last, 0 <= lane < w. In it, the
/// lanes of a tile differ in the last dimension only, and sets of tiles
/// need no floor.
namespace {
struct Expanded {
  isl::multi_aff ToBlock; ///< { E[..., t, ..., k..., lane] -> S[...] }
  isl::set Lanes;         ///< { E[...] : 0 <= lane < w }
  unsigned N;             ///< set dimensions of the block's space
};
} // namespace

static Expanded expand(const isl::space &Block, unsigned Dim, unsigned Width) {
  isl::ctx Ctx = Block.ctx();
  Expanded E;
  E.N = islDim(Block, isl::dim::set);
  isl::space ES = isl::space(Ctx, 0, E.N + 1)
                      .set_tuple_id(isl::dim::set, isl::id(Ctx, "E"))
                      .align_params(Block);
  isl::local_space LS(ES);
  isl::aff_list List(Ctx, E.N);
  for (unsigned I = 0; I < E.N; ++I) {
    isl::aff V = isl::aff::var_on_domain(LS, isl::dim::set, I);
    if (I == Dim)
      V = V.scale(isl::val(Ctx, long(Width)))
              .add(isl::aff::var_on_domain(LS, isl::dim::set, E.N));
    List = List.add(V);
  }
  E.ToBlock = ES.map_from_domain_and_range(Block).multi_aff(List);
  E.Lanes = isl::set::universe(ES)
                .lower_bound_val(isl::dim::set, E.N, 0L)
                .upper_bound_val(isl::dim::set, E.N, long(Width) - 1);
  return E;
}

/// The tiles, over Tile, of the expanded points \p S.
static isl::set tilesOfExpanded(const isl::set &S, const Expanded &E) {
  isl::set P = S.project_out(isl::dim::set, 3, E.N + 1 - 3);
  return P.set_tuple_id(isl::id(S.ctx(), "Tile")).coalesce();
}

/// The pairs of active lanes of one tile at equal counters, expanded.
static isl::map lanePairs(const isl::set &Active, const Expanded &E) {
  isl::map M = isl::map::universe(Active.space().map_from_set());
  for (unsigned I = 0; I < E.N; ++I)
    M = M.equate(isl::dim::in, I, isl::dim::out, I);
  return M.intersect_domain(Active).intersect_range(Active);
}

isl::set SplittingPredicates::divergentValueTiles(const isl::pw_aff &Value,
                                                  const isl::set &Domain,
                                                  unsigned Dim,
                                                  unsigned Width) {
  Expanded E = expand(Domain.space(), Dim, Width);
  isl::set Active = Domain.preimage(E.ToBlock).intersect(E.Lanes);
  // The pairs of a lane and a later one: the same tiles as the pairs of
  // two distinct lanes, half as many pairs to subtract from. Without a
  // value any two active lanes differ, and nothing is subtracted.
  isl::map Pairs =
      lanePairs(Active, E).intersect(isl::map::lex_lt(Active.space()));
  if (Value.is_null())
    return tilesOfExpanded(Pairs.domain(), E);
  isl::map V = isl::map::from_pw_aff(
      Value.pullback(E.ToBlock).intersect_domain(Active));
  isl::map Same = V.apply_range(V.reverse());
  return tilesOfExpanded(Pairs.subtract(Same).domain(), E);
}

isl::set SplittingPredicates::divergentConditionTiles(const isl::set &Taken,
                                                      const isl::set &Domain,
                                                      unsigned Dim,
                                                      unsigned Width) {
  Expanded E = expand(Domain.space(), Dim, Width);
  isl::set Active = Domain.preimage(E.ToBlock).intersect(E.Lanes);
  isl::set T = Taken.preimage(E.ToBlock).intersect(Active);
  isl::map Mixed = lanePairs(Active, E).intersect_domain(T).intersect_range(
      Active.subtract(T));
  return tilesOfExpanded(Mixed.domain(), E);
}

isl::set SplittingPredicates::divergentOffsetTiles(const isl::pw_aff &Offset,
                                                   long Size,
                                                   const isl::set &Domain,
                                                   unsigned Dim,
                                                   unsigned Width) {
  if (Offset.is_null())
    return divergentValueTiles(Offset, Domain, Dim, Width);
  isl::pw_aff X = isl::pw_aff::var_on_domain(isl::local_space(Domain.space()),
                                             isl::dim::set, Dim);
  isl::pw_aff Base = Offset.sub(X.scale(isl::val(Domain.ctx(), Size)));
  return divergentValueTiles(Base, Domain, Dim, Width);
}

isl::set SplittingPredicates::goodTiles(const isl::set &Bad,
                                        const isl::set &WIDomain, unsigned Dim,
                                        unsigned Width) {
  return WIDomain
      .subtract(
          workItemsOf(tilesHolding(Bad, Dim, Width), WIDomain, Dim, Width))
      .coalesce();
}

isl::set SplittingPredicates::uniformValueTiles(const isl::pw_aff &Value,
                                                const isl::set &Domain,
                                                const isl::set &WIDomain,
                                                unsigned Dim, unsigned Width) {
  return WIDomain
      .subtract(workItemsOf(divergentValueTiles(Value, Domain, Dim, Width),
                            WIDomain, Dim, Width))
      .coalesce();
}

isl::set SplittingPredicates::consecutiveTileSet(const isl::pw_aff &Offset,
                                                 long Size,
                                                 const isl::set &Domain,
                                                 const isl::set &WIDomain,
                                                 unsigned Dim, unsigned Width) {
  return WIDomain
      .subtract(
          workItemsOf(divergentOffsetTiles(Offset, Size, Domain, Dim, Width),
                      WIDomain, Dim, Width))
      .coalesce();
}

isl::set SplittingPredicates::uniformConditionTiles(const isl::set &Taken,
                                                    const isl::set &Domain,
                                                    const isl::set &WIDomain,
                                                    unsigned Dim,
                                                    unsigned Width) {
  return WIDomain
      .subtract(workItemsOf(divergentConditionTiles(Taken, Domain, Dim, Width),
                            WIDomain, Dim, Width))
      .coalesce();
}

isl::set SplittingPredicates::pointSet(const isl::pw_aff &Offset, long Step,
                                       const isl::set &Domain,
                                       const isl::set &WIDomain, unsigned Dim) {
  if (Offset.is_null())
    return isl::set::empty(WIDomain.space());
  isl::ctx Ctx = Domain.ctx();
  isl::multi_aff Next = replaceDim(Domain.space(), Dim, [&](isl::aff V) {
    return V.add_constant(isl::val(Ctx, 1L));
  });
  isl::pw_aff AtNext = Offset.pullback(Next);
  isl::pw_aff Want =
      Step ? Offset.add(isl::pw_aff(Domain.universe(Domain.space()),
                                    isl::val(Ctx, Step)))
           : Offset;
  isl::set Bad = AtNext.ne_set(Want).intersect(Domain);
  return WIDomain.subtract(toWorkItems(Bad, WIDomain)).coalesce();
}

isl::set SplittingPredicates::forAll(const isl::set &Good,
                                     const isl::set &WIDomain,
                                     ArrayRef<isl::id> ForAll) {
  isl::set Bad = WIDomain.subtract(Good);
  bool Changed = false;
  for (const isl::id &Id : ForAll)
    if (involvesParam(Bad, Id)) {
      Bad = Bad.project_out_param(Id);
      Changed = true;
    }
  return Changed ? WIDomain.subtract(Bad).coalesce() : Good;
}

/// { Outer[o0, o1] -> [x_d] } for a set over WI.
static isl::map outerToDim(const isl::set &S, unsigned Dim) {
  isl::map M = isl::map::from_range(S);
  // Move the dimensions before and after x_d to the domain, in order.
  if (Dim > 0)
    M = M.move_dims(isl::dim::in, 0, isl::dim::out, 0, Dim);
  if (Dim < 2)
    M = M.move_dims(isl::dim::in, Dim, isl::dim::out, 1, 2 - Dim);
  return resetRangeTuple(M.set_domain_tuple(isl::id(S.ctx(), "Outer")));
}

/// outerToDim's inverse: { Outer[o0, o1] -> [x_d] } as a set over the
/// space \p Target (WI or Tile).
static isl::set fromOuterToDim(const isl::map &M, const isl::space &Target,
                               unsigned Dim) {
  isl::set W = M.wrap().flatten();
  // The flat order is (outer ids, x_d); Target's is x, y, z.
  isl::space From = W.space().align_params(Target);
  isl::map Back = isl::map::universe(
      From.map_from_domain_and_range(Target.align_params(From)));
  unsigned O = 0;
  for (unsigned D = 0; D < 3; ++D)
    Back = Back.equate(isl::dim::in, D == Dim ? 2 : O++, isl::dim::out, D);
  return W.apply(Back);
}

/// The work-item bound w * \p EndTile, at most \p L: where w divides L
/// the tiles end there already, and isl's minimum (a fifth of hotspot's
/// range computation) is not needed.
static isl::pw_aff endOfTiles(const isl::pw_aff &EndTile, unsigned Width,
                              long L, const isl::set &Outer) {
  isl::pw_aff End = EndTile.scale(isl::val(Outer.ctx(), long(Width)));
  if (L % Width)
    End = End.min(isl::pw_aff(Outer, isl::val(Outer.ctx(), L)));
  return End.coalesce();
}

namespace {
struct Component {
  unsigned Piece;
  isl::pw_aff Lo; ///< the first x_d, where not empty (null with cuts)
  isl::map Parts; ///< { Outer[o] -> [x_d] }: intervals that never coexist
  isl::set Dom;   ///< where it is not empty
  SmallVector<isl::basic_map, 2> Basic; ///< Parts' basic maps, with cuts
};
} // namespace

/// The ranges of the intervals \p Comps in \p Order, adjacent ones of a
/// piece one range, whose bounds are computed when the group runs from
/// the intervals' basic maps (\p Cuts, emitCuts).
static void rangesFromCuts(ArrayRef<Component> Comps, ArrayRef<unsigned> Order,
                           const isl::set &TileBox, unsigned Dim,
                           RangeCuts &Cuts, std::vector<SplitRange> &Out) {
  unsigned N = Comps.size();
  // The intervals in order; each range's bounds are computed when the
  // group runs (emitCuts).
  for (unsigned I = 0; I < N; ++I) {
    const Component &C = Comps[Order[I]];
    Cuts.Intervals.push_back(C.Basic);
    isl::set Tiles = fromOuterToDim(C.Parts, TileBox.space(), Dim);
    if (!Out.empty() && Out.back().Piece == C.Piece) {
      Out.back().Tiles = Out.back().Tiles.unite(Tiles);
      Cuts.Last.back() = I;
    } else {
      Out.push_back({C.Piece, isl::pw_aff(), isl::pw_aff(), isl::pw_aff(),
                     isl::pw_aff(), Tiles});
      Cuts.Last.push_back(I);
    }
  }
}

/// The ranges of the intervals \p Comps in \p Order with their bounds:
/// range i ends where the first later interval starts, at w times its tile
/// index, or at L_d (\p L); adjacent intervals of a piece are one range.
static void rangesFromStarts(ArrayRef<Component> Comps,
                             ArrayRef<unsigned> Order, const isl::set &TileBox,
                             const isl::set &Outer, const isl::set &Context,
                             unsigned Dim, unsigned Width, long L,
                             std::vector<SplitRange> &Out) {
  isl::ctx Ctx = Outer.ctx();
  unsigned N = Comps.size();
  // The cuts: range i ends where the first later interval starts, at
  // w times its tile index, or at L_d.
  long NT = (L + Width - 1) / Width;
  // Within the context, as the intervals' starts are: the cuts then have
  // no pieces outside it for the gist below to drop.
  isl::set OuterCtx = Outer.intersect_params(Context);
  isl::pw_aff Cut(OuterCtx, isl::val(Ctx, NT));
  std::vector<isl::pw_aff> Ends(N);
  for (unsigned I = N; I-- > 0;) {
    Ends[I] = Cut;
    // The intervals are in order where they coexist (in the context), so
    // the first later one that is there starts before all the others:
    // its start takes precedence, no minimum to compute.
    const isl::pw_aff &Lo = Comps[Order[I]].Lo;
    Cut = Lo.union_add(Cut.subtract_domain(Lo.domain()));
  }
  isl::pw_aff Begin(Outer, isl::val(Ctx, 0L)), BeginTile = Begin;
  for (unsigned I = 0; I < N; ++I) {
    // Simplified on tile indices, where the cut is smaller: a quarter of
    // the cost of doing it after scaling (Convolution2D's ranges).
    isl::pw_aff EndTile = Ends[I].gist(OuterCtx).coalesce();
    isl::pw_aff End = endOfTiles(EndTile, Width, L, Outer);
    const Component &C = Comps[Order[I]];
    // Within [BeginTile, EndTile), the piece's tiles are the interval's
    // own: another of its intervals that coexists with it is ordered
    // before or after it, and so lies in another range.
    isl::set Tiles = fromOuterToDim(C.Parts, TileBox.space(), Dim);
    if (!Out.empty() && Out.back().Piece == C.Piece) {
      Out.back().End = End; // adjacent intervals of one piece
      Out.back().EndTile = EndTile;
      Out.back().Tiles = Out.back().Tiles.unite(Tiles);
    } else {
      Out.push_back({C.Piece, Begin, End, BeginTile, EndTile, Tiles});
    }
    Begin = End;
    BeginTile = EndTile;
  }
}

/// The intervals \p Comps with those of one piece that never coexist (in
/// \p Context) made one; with \p Fast (cuts computed at run time) their
/// basic maps are kept, not their starts.
static std::vector<Component>
mergeIntervals(ArrayRef<Component> Comps, const isl::set &Context, bool Fast) {
  std::vector<Component> Merged;
  for (const Component &C : Comps) {
    auto It = find_if(Merged, [&](const Component &O) {
      return O.Piece == C.Piece && O.Dom.intersect(C.Dom)
                                       .intersect_params(Context)
                                       .is_empty()
                                       .is_true();
    });
    if (It == Merged.end()) {
      Merged.push_back(C);
      continue;
    }
    if (Fast) {
      It->Dom = It->Dom.unite(C.Dom);
      It->Basic.append(C.Basic.begin(), C.Basic.end());
    } else {
      It->Lo = It->Lo.union_add(C.Lo).coalesce();
      It->Dom = It->Lo.domain();
    }
    It->Parts = It->Parts.unite(C.Parts);
  }
  return Merged;
}

/// Orders the intervals \p Cs: A before B where they coexist (in
/// \p Context); a topological order that keeps the intervals of one
/// piece together where nothing forces another in between (they become one
/// range). \p Ordered is { [a, b] : a >= b }. False where no order holds
/// for every parameter.
static bool orderIntervals(const std::vector<Component> &Cs,
                           const isl::set &Context, const isl::set &Ordered,
                           std::vector<unsigned> &Order) {
  unsigned N = Cs.size();
  std::vector<SmallVector<unsigned, 4>> After(N);
  std::vector<unsigned> InDeg(N, 0);
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = I + 1; J < N; ++J) {
      isl::set Both = Cs[I].Dom.intersect(Cs[J].Dom).intersect_params(Context);
      if (Both.is_empty().is_true())
        continue;
      // I is before J where both are, when no x_d of I is at or after
      // one of J: one pair of intervals at a time, no maxima.
      auto Before = [&](const Component &A, const Component &B) {
        return A.Parts.flat_range_product(B.Parts)
            .intersect_range(Ordered)
            .intersect_params(Context)
            .is_empty()
            .is_true();
      };
      // Where both are, I before J leaves no J before I: one test where
      // it holds.
      bool IBefore = Before(Cs[I], Cs[J]);
      if (!IBefore && !Before(Cs[J], Cs[I]))
        return false;
      unsigned A = IBefore ? I : J, B = IBefore ? J : I;
      After[A].push_back(B);
      ++InDeg[B];
    }
  Order.clear();
  SmallVector<unsigned, 8> Ready;
  for (unsigned I = 0; I < N; ++I)
    if (!InDeg[I])
      Ready.push_back(I);
  while (!Ready.empty()) {
    auto Pick = Ready.begin();
    if (!Order.empty())
      for (auto It = Ready.begin(); It != Ready.end(); ++It)
        if (Cs[*It].Piece == Cs[Order.back()].Piece) {
          Pick = It;
          break;
        }
    unsigned I = *Pick;
    Ready.erase(Pick);
    Order.push_back(I);
    for (unsigned B : After[I])
      if (--InDeg[B] == 0)
        Ready.push_back(B);
  }
  return Order.size() == N;
}

bool SplittingPredicates::rangesOf(ArrayRef<isl::set> Pieces,
                                   const isl::set &WIDomain, unsigned Dim,
                                   unsigned Width, const isl::set &RawContext,
                                   unsigned MaxRanges,
                                   std::vector<SplitRange> &Out,
                                   std::string &Why, RangeCuts *Cuts) {
  std::vector<isl::set> Tiles;
  for (const isl::set &P : Pieces)
    Tiles.push_back(tilesOf(P, Dim, Width));
  return rangesOfTiles(Tiles, WIDomain, Dim, Width, RawContext, MaxRanges, Out,
                       Why, Cuts);
}

bool SplittingPredicates::rangesOfTiles(
    ArrayRef<isl::set> Pieces, const isl::set &WIDomain, unsigned Dim,
    unsigned Width, const isl::set &RawContext, unsigned MaxRanges,
    std::vector<SplitRange> &Out, std::string &Why, RangeCuts *Cuts) {
  isl::ctx Ctx = WIDomain.ctx();
  long L = WIDomain.dim_max_val(Dim).get_num_si() + 1;
  if (Cuts)
    *Cuts = RangeCuts();
  // Only the context of the parameters the pieces involve: isl's
  // parametric minima grow with every parameter.
  isl::set Context = RawContext;
  for (unsigned I = islDim(RawContext, isl::dim::param); I-- > 0;) {
    isl::id Id = RawContext.space().dim_id(isl::dim::param, I);
    if (none_of(Pieces,
                [&](const isl::set &P) { return involvesParam(P, Id); }))
      Context = Context.project_out_param(Id);
  }
  Context = Context.coalesce();
  // Whole tiles: on the tile index t = floor(x_d / w) the pieces need no
  // floor; the cuts are scaled back at the end.
  isl::set TileBox = tilesOf(WIDomain, Dim, Width);
  isl::map Box = outerToDim(TileBox, Dim);
  isl::set Outer = Box.domain();
  isl::map AtLeast(Ctx, "{ [a] -> [b] : b >= a }");
  isl::map AtMost(Ctx, "{ [a] -> [b] : b <= a }");
  isl::set Ordered(Ctx, "{ [a, b] : a >= b }");
  // One piece: one range, [0, L_d), as the general path below makes of
  // its intervals, when none of its basic maps has a stride (which could
  // make it no union of intervals).
  if (Pieces.size() == 1) {
    isl::map PM =
        outerToDim(Pieces[0], Dim).intersect_params(Context).coalesce();
    bool Strided = false;
    isl::stat St = PM.foreach_basic_map([&](isl::basic_map BM) {
      Strided |= localDims(BM) > 0;
      return isl::stat::ok();
    });
    if (!St.is_error() && !Strided && PM.is_empty().is_false()) {
      long NT = (L + Width - 1) / Width;
      isl::pw_aff Begin(Outer, isl::val(Ctx, 0L));
      isl::pw_aff EndTile = isl::pw_aff(Outer, isl::val(Ctx, NT))
                                .gist(Outer.intersect_params(Context))
                                .coalesce();
      isl::pw_aff End = endOfTiles(EndTile, Width, L, Outer);
      Out.assign({{0, Begin, End, Begin, EndTile, Pieces[0]}});
      return true;
    }
  }
  std::vector<isl::map> PMs;
  // With cuts where no interval has a stride: no parametric minimum.
  bool Fast = Cuts != nullptr;
  for (unsigned P = 0; P < Pieces.size(); ++P) {
    PMs.push_back(makeDisjoint(
        outerToDim(Pieces[P], Dim).intersect_params(Context).coalesce()));
    if (Fast && PMs.back()
                    .foreach_basic_map([&](isl::basic_map BM) {
                      Fast &= localDims(BM) == 0;
                      return isl::stat::ok();
                    })
                    .is_error())
      Fast = false;
  }
  std::vector<Component> Comps;
  for (unsigned P = 0; P < Pieces.size(); ++P) {
    const isl::map &PM = PMs[P];
    isl::stat St = PM.foreach_basic_map([&](isl::basic_map BM) {
      isl::map B(BM);
      if (Fast) {
        Comps.push_back({P, isl::pw_aff(), B, B.domain(), {BM}});
        return isl::stat::ok();
      }
      isl::pw_aff Lo = B.dim_min(0);
      // Each one an interval of x_d for any parameters and outer ids: a
      // basic map without local dimensions is convex, so its fibres are;
      // with them (a stride), the hull of each fibre must lie within it.
      if (localDims(BM) > 0) {
        isl::pw_aff Hi = B.dim_max(0);
        isl::map Hull =
            isl::map::from_pw_aff(Lo).apply_range(AtLeast).intersect(
                isl::map::from_pw_aff(Hi).apply_range(AtMost));
        if (!Hull.is_subset(B).is_true()) {
          Why = "a piece is not a union of intervals of " +
                std::string(DimNames[Dim]);
          return isl::stat::error();
        }
      }
      if (Lo.is_null() || Lo.involves_nan().is_true())
        return isl::stat::error();
      Comps.push_back({P, Lo, B, Lo.domain(), {}});
      return isl::stat::ok();
    });
    if (St.is_error()) {
      if (Why.empty())
        Why = "isl failed";
      return false;
    }
  }
  // Intervals of one piece that never coexist are one interval, wherever
  // it is: fewer ranges, if the order allows.
  std::vector<Component> Merged = mergeIntervals(Comps, Context, Fast);
  std::vector<unsigned> Order;
  if (orderIntervals(Merged, Context, Ordered, Order)) {
    Comps = std::move(Merged);
  } else if (!orderIntervals(Comps, Context, Ordered, Order)) {
    Why = "the order of the pieces along " + std::string(DimNames[Dim]) +
          " depends on the parameters";
    return false;
  }
  Out.clear();
  if (Fast)
    rangesFromCuts(Comps, Order, TileBox, Dim, *Cuts, Out);
  else
    rangesFromStarts(Comps, Order, TileBox, Outer, Context, Dim, Width, L, Out);
  for (SplitRange &Rg : Out)
    Rg.Tiles = Rg.Tiles.gist_params(Context).coalesce();
  if (Out.size() > MaxRanges) {
    Why = std::to_string(Out.size()) + " ranges, more than " +
          std::to_string(MaxRanges);
    Out.clear();
    if (Cuts)
      *Cuts = RangeCuts();
    return false;
  }
  return true;
}

/// The bounds of the one output dimension of \p BM, a basic map
/// { Outer[o] -> [t] } without local dimensions: its lower bounds rounded
/// up and its upper bounds rounded down (affine in o and the parameters),
/// and \p Rest, its constraints that do not involve t. False where it has
/// no lower or no upper bound.
static bool boundsOfOut(const isl::basic_map &BM,
                        SmallVectorImpl<isl::aff> &Lower,
                        SmallVectorImpl<isl::aff> &Upper, isl::set &Rest) {
  // a t + f(o, p) >= 0 (or = 0): t >= -f / a where a > 0, t <= f / -a where
  // a < 0.
  std::optional<std::vector<OutputConstraint>> Cons = constraintsOnOutput(BM);
  if (!Cons)
    return false;
  for (const OutputConstraint &C : *Cons) {
    // isl scales down by positive values only.
    isl::aff Bound = C.Coef.is_pos() ? C.Rest.neg().scale_down(C.Coef)
                                     : C.Rest.scale_down(C.Coef.neg());
    if (Bound.is_null())
      return false;
    if (C.Equality || C.Coef.is_pos())
      Lower.push_back(Bound.ceil());
    if (C.Equality || C.Coef.is_neg())
      Upper.push_back(Bound.floor());
  }
  if (Lower.empty() || Upper.empty())
    return false;
  Rest = isl::map(dropConstraintsInvolvingOutput(BM, 0, 1)).domain();
  return !Rest.is_null();
}

bool SplittingPredicates::emitCuts(
    IslExprEmitter &E, IRBuilderBase &B, const RangeCuts &Cuts,
    ArrayRef<Value *> Outer, const isl::set &Context, long L, unsigned Width,
    SmallVectorImpl<std::pair<Value *, Value *>> &Out) {
  // Selects rather than min and max intrinsics, which the IRBuilder does
  // not fold (O3 makes them intrinsics again).
  auto Emit = [&](const isl::aff &A) -> Value * {
    Expected<Value *> V = E.emit(isl::pw_aff(A), Outer, Context);
    if (!V) {
      consumeError(V.takeError());
      return nullptr;
    }
    return *V;
  };
  unsigned NI = Cuts.Intervals.size();
  long NT = (L + Width - 1) / Width;
  // From the last interval back: where the first present interval at or
  // after J starts.
  std::vector<Value *> From(NI + 1);
  From[NI] = B.getInt64(NT);
  for (unsigned J = NI; J-- > 0;) {
    Value *Start = From[J + 1];
    // The interval's basic maps never coexist: at most one is present.
    for (const isl::basic_map &BM : Cuts.Intervals[J]) {
      SmallVector<isl::aff, 4> Lower, Upper;
      isl::set Rest;
      if (!boundsOfOut(BM, Lower, Upper, Rest))
        return false;
      Value *Lo = nullptr, *Hi = nullptr;
      for (const isl::aff &A : Lower) {
        Value *V = Emit(A);
        if (!V)
          return false;
        Lo = Lo ? B.CreateSelect(B.CreateICmpSGT(Lo, V), Lo, V) : V;
      }
      for (const isl::aff &A : Upper) {
        Value *V = Emit(A);
        if (!V)
          return false;
        Hi = Hi ? B.CreateSelect(B.CreateICmpSLT(Hi, V), Hi, V) : V;
      }
      Expected<Value *> In = E.emitCondition(Rest, Outer, Context);
      if (!In) {
        consumeError(In.takeError());
        return false;
      }
      Value *Present = B.CreateAnd(*In, B.CreateICmpSLE(Lo, Hi));
      Start = B.CreateSelect(Present, Lo, Start);
    }
    From[J] = Start;
  }
  Value *W = B.getInt64(Width), *LV = B.getInt64(L);
  Value *Begin = B.getInt64(0);
  for (unsigned Last : Cuts.Last) {
    Value *End = B.CreateMul(From[Last + 1], W);
    if (L % Width)
      End = B.CreateSelect(B.CreateICmpSLT(End, LV), End, LV);
    Out.push_back({Begin, End});
    Begin = End;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The predicates of a region
//===----------------------------------------------------------------------===//

SplittingPredicates::SplittingPredicates(const WorkItemModel &M,
                                         const RegionModel &R, unsigned Dim,
                                         unsigned Width, unsigned MaxRanges,
                                         bool PointwiseOnly)
    : M(M), R(R), Dim(Dim), Width(Width ? Width : 1),
      MaxRanges(MaxRanges ? MaxRanges : 1), Context(M.predicateContext()) {
  // Opaque parameters the same along d are quantified away; those that
  // vary along d make what involves them non-affine here.
  for (const auto &P : M.params())
    if (P->K == ModelParam::Opaque && !P->Id.is_null())
      (P->VariesWith >> Dim & 1 ? Varying : Opaque).push_back(P->Id);
  if (!PointwiseOnly)
    compute();
}

bool SplittingPredicates::involvesVarying(const isl::set &S) const {
  for (const isl::id &Id : Varying)
    if (involvesParam(S, Id))
      return true;
  return false;
}

bool SplittingPredicates::involvesVarying(const isl::pw_aff &PA) const {
  for (const isl::id &Id : Varying)
    if (PA.involves_param(Id).is_true())
      return true;
  return false;
}

isl::set SplittingPredicates::contextFor(ArrayRef<isl::set> Sets) const {
  // The context holds every parameter of the model (twenty in hotspot:
  // the opaque ones, the arguments): a test on a set that involves three
  // of them needs the others' bounds no more, and each costs isl a row in
  // every tableau. Projecting them out is exact: the set and the test do
  // not involve them.
  unsigned NP = islDim(Context, isl::dim::param);
  SmallVector<bool, 32> Keep(NP);
  for (unsigned I = 0; I < NP; ++I) {
    isl::id Id = Context.space().dim_id(isl::dim::param, I);
    Keep[I] = any_of(Sets, [&](const isl::set &S) {
      return !S.is_null() && involvesParam(S, Id);
    });
  }
  for (const auto &[K, C] : Contexts)
    if (K == Keep)
      return C;
  isl::set C = Context;
  for (unsigned I = NP; I-- > 0;)
    if (!Keep[I])
      C = C.project_out(isl::dim::param, I, 1);
  C = C.coalesce();
  Contexts.push_back({Keep, C});
  return C;
}

isl::boolean SplittingPredicates::emptyInContext(const isl::set &S) const {
  return S.intersect_params(contextFor({S})).is_empty();
}

isl::set SplittingPredicates::domainView(const isl::set &Domain) const {
  // Constraints that do not involve x_d are the same for all lanes of a
  // tile at equal counters: dropping them over-approximates the instances
  // but leaves which lanes of a tile are active together unchanged where
  // the tile runs at all, and spares isl the case splits of what the
  // other dimensions and the parameters do (empty loops, borders in y).
  isl::set D = dropConstraintsNotInvolving(Domain, Dim, 1).coalesce();
  for (const isl::id &Id : Varying)
    if (involvesParam(D, Id))
      D = D.project_out_param(Id);
  return D;
}

bool SplittingPredicates::affineBranch(unsigned Branch) const {
  const ModelBranch &B = R.Branches[Branch];
  if (!B.Affine)
    return false;
  for (const isl::set &T : B.Taken)
    if (involvesVarying(T))
      return false;
  return true;
}

bool SplittingPredicates::idDependent(unsigned Branch) const {
  const ModelBranch &B = R.Branches[Branch];
  if (B.UniformDims >> Dim & 1)
    return false;
  if (!affineBranch(Branch))
    return true;
  // Decided by the parameters alone when each successor's set is the
  // domain restricted to some parameters.
  for (const isl::set &T : B.Taken) {
    isl::set OnParams = B.Domain.intersect_params(T.params());
    if (!OnParams.is_subset(T).is_true())
      return true;
  }
  return false;
}

/// The step of \p Offset along dimension \p Dim where it is one affine
/// expression on all of \p Domain whose only dependence on that dimension
/// is a constant coefficient (no floor of it): two lanes of a tile at
/// equal counters then differ by the step times their distance.
static std::optional<long> constantStep(const isl::pw_aff &Offset,
                                        const isl::set &Domain, unsigned Dim) {
  isl::aff A = onlyPieceOn(Offset, Domain);
  if (A.is_null())
    return std::nullopt;
  isl::val Step = coefficient(A, Dim);
  if (Step.is_null() || !Step.is_int())
    return std::nullopt;
  isl::aff X = isl::aff::var_on_domain(isl::local_space(A.domain_space()),
                                       isl::dim::set, Dim);
  isl::aff Rest = A.sub(X.scale(Step));
  if (involvesInDims(Rest, Dim, 1))
    return std::nullopt;
  return Step.get_num_si();
}

/// The tiles of \p Bad with the opaque parameters projected out: a
/// witness of divergence for some value of one counts.
isl::set SplittingPredicates::withoutOpaque(isl::set Bad) const {
  for (const isl::id &Id : Opaque)
    if (involvesParam(Bad, Id))
      Bad = Bad.project_out_param(Id);
  return Bad;
}

/// A good set: the tiles without a witness in \p Bad. The disjuncts a
/// subtraction leaves where a group count or offset is out of its range are
/// dropped as they come (dropDisjunctsOutside): carried along, they cost
/// SobelFilter's front half a fifth of its time, with the same result.
isl::set SplittingPredicates::goodTiles(isl::set Bad) const {
  return dropDisjunctsOutside(Tiles.subtract(withoutOpaque(Bad)),
                              M.signContext())
      .coalesce();
}

/// compute()'s accesses: per access, the tiles where it is consecutive and
/// uniform (ConsT, UniT) and their witnesses; then ICT, the tiles where
/// every access that is ever consecutive on a full tile (\p FullT) is.
void SplittingPredicates::accessPredicates(const isl::set &FullT) {
  unsigned NA = R.Accesses.size();
  isl::set BadIC = isl::set::empty(Tiles.space());
  // Accesses of one block share their instances, and many share their
  // offsets too (a context array's slot, stored and loaded) or differ from
  // another's by a uniform amount (a stencil's neighbours, x - 1 and
  // x + width): any two lanes' addresses differ alike, so each distinct
  // question is answered once, with the same isl operations.
  struct View {
    isl::set Domain, D, Multi;
  };
  std::vector<View> Views;
  SmallVector<unsigned, 16> Asked; // accesses computed, not copied
  for (unsigned A = 0; A < NA; ++A) {
    const ModelAccess &Acc = R.Accesses[A];
    int Kind = Acc.UniformDims >> Dim & 1 ? 0 : !affineAccess(A) ? 1 : 2;
    auto Same = find_if(Asked, [&](unsigned B) {
      const ModelAccess &Other = R.Accesses[B];
      int OtherKind = Other.UniformDims >> Dim & 1 ? 0
                      : !affineAccess(B)           ? 1
                                                   : 2;
      return OtherKind == Kind && plainIsEqual(Other.Domain, Acc.Domain) &&
             (Kind != 2 || (Other.Size == Acc.Size &&
                            differByParams(Other.Offset, Acc.Offset)));
    });
    if (Same != Asked.end()) {
      Rep[A] = *Same;
      NotConsT[A] = NotConsT[*Same];
      NotUniT[A] = NotUniT[*Same];
      this->ConsT[A] = this->ConsT[*Same];
      this->UniT[A] = this->UniT[*Same];
      EverCons[A] = EverCons[*Same];
      if (EverCons[A])
        BadIC = BadIC.unite(Tiles.subtract(this->ConsT[A])).coalesce();
      continue;
    }
    Asked.push_back(A);
    auto V = find_if(Views, [&](const View &V) {
      return plainIsEqual(V.Domain, Acc.Domain);
    });
    if (V == Views.end()) {
      isl::set D = domainView(Acc.Domain);
      // The tiles with two active lanes: elsewhere every property holds.
      Views.push_back(
          {Acc.Domain, D, divergentValueTiles(isl::pw_aff(), D, Dim, Width)});
      V = Views.end() - 1;
    }
    const isl::set &D = V->D, &Multi = V->Multi;
    isl::set ConsT, UniT;
    if (Kind == 0) {
      ConsT = Tiles.subtract(Multi);
      UniT = Tiles;
      NotConsT[A] = Multi;
      NotUniT[A] = isl::set::empty(Tiles.space());
    } else if (Kind == 1) {
      ConsT = UniT = Tiles.subtract(Multi);
      NotConsT[A] = NotUniT[A] = Multi;
    } else {
      if (std::optional<long> Step = constantStep(Acc.Offset, D, Dim)) {
        // Two active lanes of a tile differ by a fixed amount: the tiles
        // with two active lanes are the witnesses, of divergence where the
        // step is not 0 and of non-consecutiveness where it is not the
        // size (a quarter of a box filter's predicates went on finding so).
        isl::set Many = withoutOpaque(Multi),
                 None = isl::set::empty(Tiles.space());
        NotConsT[A] = *Step == long(Acc.Size) ? None : Many;
        NotUniT[A] = *Step == 0 ? None : Many;
      } else {
        NotConsT[A] = withoutOpaque(
            divergentOffsetTiles(Acc.Offset, Acc.Size, D, Dim, Width));
        NotUniT[A] =
            withoutOpaque(divergentValueTiles(Acc.Offset, D, Dim, Width));
      }
      ConsT = Tiles.subtract(NotConsT[A]).coalesce();
      UniT = Tiles.subtract(NotUniT[A]).coalesce();
      // Non-trivially consecutive: on a full tile where two lanes run it.
      EverCons[A] =
          emptyInContext(ConsT.intersect(FullT).intersect(Multi)).is_false();
      if (EverCons[A])
        BadIC = BadIC.unite(Tiles.subtract(ConsT)).coalesce();
    }
    this->ConsT[A] = ConsT;
    this->UniT[A] = UniT;
  }
  ICT = Tiles.subtract(BadIC).coalesce();
}

/// compute()'s branches: per branch, the tiles where it is uniform
/// (BranchUniT); returns UniformControlT, the tiles where every
/// id-dependent branch is.
isl::set SplittingPredicates::branchPredicates() {
  unsigned NB = R.Branches.size();
  isl::set BadControl = isl::set::empty(Tiles.space());
  for (unsigned B = 0; B < NB; ++B) {
    const ModelBranch &Br = R.Branches[B];
    isl::set D = domainView(Br.Domain);
    isl::set Bad;
    if (Br.UniformDims >> Dim & 1) {
      Bad = isl::set::empty(Tiles.space());
    } else if (!affineBranch(B)) {
      Bad = divergentValueTiles(isl::pw_aff(), D, Dim, Width);
    } else {
      // Two successors: one set decides; more: each must be uniform.
      Bad = isl::set::empty(Tiles.space());
      unsigned N = Br.Taken.size() == 2 ? 1 : Br.Taken.size();
      for (unsigned I = 0; I < N; ++I)
        Bad = Bad.unite(divergentConditionTiles(Br.Conditions[I].intersect(D),
                                                D, Dim, Width));
    }
    isl::set UniT = goodTiles(Bad);
    BranchUniT[B] = UniT;
    if (idDependent(B))
      BadControl = BadControl.unite(Tiles.subtract(UniT)).coalesce();
  }
  UniformControlT = Tiles.subtract(BadControl).coalesce();
  return UniformControlT;
}

/// compute()'s pieces: Table 1's cells of the tiles (full or partial,
/// consecutive or not, uniform control, \p ControlT, or not), the hot cell
/// refined by the successor each id-dependent branch takes on the whole
/// tile while pieces stay few; each piece joins Pieces, and its tiles the
/// sets returned.
std::vector<isl::set>
SplittingPredicates::cellPieces(const isl::set &FullT,
                                const isl::set &ControlT) {
  unsigned NB = R.Branches.size();
  // Table 1, the hot cell split by control flow: first where every
  // id-dependent branch is uniform on tiles, then, there, by the successor
  // each such branch takes on the whole tile (for all its counters), so that
  // a range is one copy of the body with those branches folded.
  isl::set PartialT = Tiles.subtract(FullT);
  isl::set Cells[5] = {FullT.intersect(ICT).intersect(ControlT),
                       FullT.intersect(ICT).subtract(ControlT),
                       FullT.subtract(ICT), PartialT.intersect(ICT),
                       PartialT.subtract(ICT)};
  std::vector<isl::set> TileSets;
  auto Add = [&](unsigned C, isl::set S,
                 SmallVector<std::pair<unsigned, int>, 2> Fates) {
    if (!emptyInContext(S).is_false())
      return;
    S = dropUnusedParams(S.gist_params(Context).coalesce());
    SplitPiece P;
    P.Set = toWorkItems(S);
    P.Index = C;
    P.Full = C <= 2;
    P.Consecutive = C <= 1 || C == 3;
    P.UniformControl = C == 0;
    P.Fates = std::move(Fates);
    Pieces.push_back(P);
    TileSets.push_back(S);
  };
  // The hot cell, refined branch by branch while pieces stay few.
  std::vector<std::pair<isl::set, SmallVector<std::pair<unsigned, int>, 2>>>
      Hot = {{Cells[0], {}}};
  for (unsigned B = 0; B < NB; ++B) {
    const ModelBranch &Br = R.Branches[B];
    if (!idDependent(B) || !affineBranch(B) || Br.Taken.size() != 2)
      continue;
    // The tiles where every active lane goes to successor I; those that
    // never run the branch are in both: they go with 0.
    isl::set D = domainView(Br.Domain);
    isl::set Always[2];
    for (unsigned I = 0; I < 2; ++I)
      Always[I] = goodTiles(tilesHolding(
          dropDisjunctsOutside(D.subtract(Br.Conditions[I]), M.signContext()),
          Dim, Width));
    Always[1] = Always[1].subtract(Always[0]);
    decltype(Hot) Next;
    for (auto &[Set, Fates] : Hot) {
      isl::set Rest = Set;
      for (int I = 0; I < 2; ++I) {
        isl::set Part = Set.intersect(Always[I]).coalesce();
        Rest = Rest.subtract(Always[I]);
        if (emptyInContext(Part).is_false()) {
          auto F = Fates;
          F.push_back({B, I});
          Next.push_back({Part, F});
        }
      }
      if (emptyInContext(Rest).is_false())
        Next.push_back({Rest.coalesce(), Fates});
    }
    if (Next.size() + 4 > MaxRanges)
      break;
    Hot = std::move(Next);
  }
  for (auto &[Set, Fates] : Hot)
    Add(0, Set, Fates);
  for (unsigned C = 1; C < 5; ++C)
    Add(C, Cells[C], {});
  return TileSets;
}

void SplittingPredicates::compute() {
  isl::set WI = R.Domain;
  Full = fullTileSet(WI, Dim, Width);
  IC = UniformControl = WI;
  unsigned NA = R.Accesses.size(), NB = R.Branches.size();
  Cons.assign(NA, isl::set());
  Uni.assign(NA, isl::set());
  ConsT.assign(NA, isl::set());
  UniT.assign(NA, isl::set());
  NotConsT.assign(NA, isl::set());
  NotUniT.assign(NA, isl::set());
  EverCons.assign(NA, false);
  Rep.resize(NA);
  std::iota(Rep.begin(), Rep.end(), 0u);
  BranchUni.assign(NB, isl::set());
  BranchUniT.assign(NB, isl::set());
  if (!R.Modelled) {
    Refusal = "the region is not modelled: " + R.Why;
    return;
  }
  IC = UniformControl = isl::set();
  IslQuota Q(M.ctx(), MaxPredicateOps);
  // Everything on tile indices (see the header), back to work-items when
  // asked. A good set is the tiles without a witness of divergence; the
  // witnesses for some value of an opaque parameter count.
  Tiles = tilesOf(WI, Dim, Width);
  isl::set FullT = tilesOf(Full, Dim, Width);
  accessPredicates(FullT);
  isl::set ControlT = branchPredicates();
  std::vector<isl::set> TileSets = cellPieces(FullT, ControlT);
  if (Q.exceeded()) {
    Pieces.clear();
    Refusal = Q.error() + " computing the predicates";
    return;
  }
  if (!rangesOfTiles(TileSets, WI, Dim, Width, Context, MaxRanges, Ranges,
                     Refusal, &Cuts))
    Ranges.clear();
  RangeTileSets = std::move(TileSets);
  if (Q.exceeded()) {
    Ranges.clear();
    Cuts = RangeCuts();
    Refusal = Q.error() + " computing the ranges";
  }
}

isl::set SplittingPredicates::toWorkItems(const isl::set &T) const {
  return workItemsOf(T, R.Domain, Dim, Width);
}

isl::set SplittingPredicates::consecutiveTiles(unsigned Access) const {
  Access = Rep[Access];
  if (Cons[Access].is_null() && !ConsT[Access].is_null())
    Cons[Access] = toWorkItems(ConsT[Access]);
  return Cons[Access];
}

isl::set SplittingPredicates::uniformTiles(unsigned Access) const {
  Access = Rep[Access];
  if (Uni[Access].is_null() && !UniT[Access].is_null())
    Uni[Access] = toWorkItems(UniT[Access]);
  return Uni[Access];
}

isl::set SplittingPredicates::uniformControlTiles() const {
  if (UniformControl.is_null() && !UniformControlT.is_null())
    UniformControl = toWorkItems(UniformControlT);
  return UniformControl;
}

isl::set SplittingPredicates::consecutiveDomain() const {
  if (IC.is_null() && !ICT.is_null())
    IC = toWorkItems(ICT);
  return IC;
}

isl::set SplittingPredicates::divergentTiles(unsigned Access) const {
  const ModelAccess &A = R.Accesses[Access];
  isl::set Runs = toWorkItems(A.Domain, R.Domain);
  if (ConsT[Access].is_null())
    return Runs;
  return Runs.subtract(consecutiveTiles(Access))
      .subtract(uniformTiles(Access))
      .coalesce();
}

bool SplittingPredicates::affineAccess(unsigned Access) const {
  const ModelAccess &A = R.Accesses[Access];
  return !A.Offset.is_null() && (A.BaseDims >> Dim & 1) &&
         !involvesVarying(A.Offset);
}

isl::set SplittingPredicates::consecutivePoints(unsigned Access) const {
  const ModelAccess &A = R.Accesses[Access];
  if (!affineAccess(Access))
    return isl::set::empty(R.Domain.space());
  return forAll(pointSet(A.Offset, A.Size, domainView(A.Domain), R.Domain, Dim),
                R.Domain, Opaque);
}

isl::set SplittingPredicates::uniformPoints(unsigned Access) const {
  const ModelAccess &A = R.Accesses[Access];
  if (A.UniformDims >> Dim & 1)
    return R.Domain;
  if (!affineAccess(Access))
    return isl::set::empty(R.Domain.space());
  return forAll(pointSet(A.Offset, 0, domainView(A.Domain), R.Domain, Dim),
                R.Domain, Opaque);
}

bool SplittingPredicates::consecutiveAsWritten(unsigned Access) const {
  const ModelAccess &A = R.Accesses[Access];
  if (!affineAccess(Access) || A.UniformDims >> Dim & 1 ||
      pieceCount(A.Offset) != 1)
    return false;
  isl::pw_aff X = isl::pw_aff::var_on_domain(
      isl::local_space(A.Offset.domain_space()), isl::dim::set, Dim);
  isl::pw_aff Base = A.Offset.sub(X.scale(isl::val(A.Offset.ctx(), A.Size)));
  bool Free = true;
  isl::stat St = Base.foreach_piece([&](isl::set, isl::aff B) {
    Free = !involvesInDims(B, Dim, 1);
    return isl::stat::ok();
  });
  return !St.is_error() && Free;
}

bool SplittingPredicates::everConsecutive(unsigned Access) const {
  return EverCons[Access];
}

isl::set SplittingPredicates::uniformBranchTiles(unsigned Branch) const {
  if (BranchUni[Branch].is_null() && !BranchUniT[Branch].is_null())
    BranchUni[Branch] = toWorkItems(BranchUniT[Branch]);
  return BranchUni[Branch];
}

AccessClass SplittingPredicates::classify(unsigned Access,
                                          const isl::set &Where) const {
  if (UniT[Access].is_null())
    return AccessClass::Divergent;
  // The whole region: its tiles are Tiles.
  if (Where.get() == R.Domain.get())
    return classifyTiles(Access, Tiles);
  isl::set U = uniformTiles(Access), C = consecutiveTiles(Access);
  if (Where.intersect_params(contextFor({Where, U})).is_subset(U).is_true())
    return AccessClass::Uniform;
  if (Where.intersect_params(contextFor({Where, C})).is_subset(C).is_true())
    return AccessClass::Consecutive;
  return AccessClass::Divergent;
}

AccessClass SplittingPredicates::classifyTiles(unsigned Access,
                                               const isl::set &T) const {
  // Where lies within the work-items of UniT (a set of tiles) exactly when
  // its tiles lie within UniT: no floor to eliminate. And tiles within the
  // region's lie within UniT = Tiles - NotUniT exactly when they miss
  // NotUniT: an intersection, not a subtraction.
  if (UniT[Access].is_null())
    return AccessClass::Divergent;
  if (emptyInContext(T.intersect(NotUniT[Access])).is_true())
    return AccessClass::Uniform;
  if (emptyInContext(T.intersect(NotConsT[Access])).is_true())
    return AccessClass::Consecutive;
  return AccessClass::Divergent;
}

isl::set SplittingPredicates::rangeSet(const SplitRange &Rg) const {
  // The work-items of its tiles, in its piece: no bound to compare.
  return Pieces[Rg.Piece]
      .Set.intersect(Rg.Tiles.preimage(toTile(R.Domain.space(), Dim, Width)))
      .coalesce();
}

/// \p Domain's instances whose work-item is in \p Piece.
static isl::set within(const isl::set &Domain, const isl::set &Piece) {
  unsigned N = islDim(Domain, isl::dim::set);
  isl::set Lifted = Piece;
  if (N > 3)
    Lifted = Lifted.insert_dims(isl::dim::set, 3, N - 3);
  return Domain.intersect(Lifted.set_tuple_id(Domain.get_tuple_id()));
}

const isl::set &SplittingPredicates::rangeTilesAt(unsigned Range) const {
  return Ranges[Range].Tiles;
}

/// \p S moved by \p By along \p Dim: { p : p - By * e_Dim in S }.
static isl::set shifted(const isl::set &S, unsigned Dim, long By) {
  return S.preimage(replaceDim(S.space(), Dim, [&](isl::aff V) {
    return V.add_constant(isl::val(S.ctx(), -By));
  }));
}

isl::set SplittingPredicates::secondTiles(const isl::set &Tiles, unsigned Dim) {
  return Tiles.intersect(shifted(Tiles, Dim, -1));
}

isl::set SplittingPredicates::edgeTiles(const isl::set &RangeTiles,
                                        const isl::set &Hot, unsigned Dim,
                                        bool Before) {
  long Step = Before ? -1 : 1;
  return shifted(RangeTiles, Dim, Step)
      .subtract(RangeTiles)
      .subtract(Hot)
      .subtract(shifted(Hot, Dim, -Step))
      .coalesce();
}

isl::set SplittingPredicates::edgeItems(const isl::set &Good,
                                        const isl::set &Edge,
                                        const isl::set &WIDomain, unsigned Dim,
                                        unsigned Width, bool Before) {
  isl::set Tile = workItemsOf(Edge, WIDomain, Dim, Width);
  isl::set Items = Tile.intersect(Good).coalesce();
  if (Items.is_null() || Items.is_empty().is_true())
    return Items;
  // Without those that a work-item outside Good separates from the range:
  // one between them in their tile.
  isl::map Between = tileMap(WIDomain.space(), Dim, Width);
  Between = Before ? Between.order_lt(isl::dim::in, Dim, isl::dim::out, Dim)
                   : Between.order_lt(isl::dim::out, Dim, isl::dim::in, Dim);
  isl::set Bad = Tile.subtract(Good);
  return Items.subtract(Between.intersect_range(Bad).domain()).coalesce();
}

isl::pw_aff SplittingPredicates::edgeBound(const isl::set &Edge,
                                           const isl::set &Outer, unsigned Dim,
                                           bool Before,
                                           const isl::set &Context) {
  // The parametric minimum costs by the constraints: none of the
  // context's, no parameter the edge does not name.
  isl::set E = dropUnusedParams(dropUnusedParams(Edge).gist_params(Context));
  isl::map M = outerToDim(E, Dim).intersect_domain(Outer);
  isl::pw_aff PA =
      (Before ? M.lexmin_pw_multi_aff() : M.lexmax_pw_multi_aff()).at(0);
  if (PA.is_null())
    return PA;
  if (!Before)
    PA = PA.add_constant(1L);
  isl::set None = Outer.subtract(PA.domain());
  return PA.union_add(isl::pw_aff(None, isl::val(Edge.ctx(), -1L))).coalesce();
}

isl::set SplittingPredicates::outerIds() const {
  return outerToDim(R.Domain, Dim).domain();
}

bool SplittingPredicates::atMostOneTile(unsigned Range) const {
  return emptyInContext(secondTiles(rangeTilesAt(Range), Dim)).is_true();
}

const isl::set &SplittingPredicates::rangeSetAt(unsigned Range) const {
  if (RangeSets.empty())
    RangeSets.resize(Ranges.size());
  if (RangeSets[Range].is_null())
    RangeSets[Range] = rangeSet(Ranges[Range]);
  return RangeSets[Range];
}

int SplittingPredicates::takenOnAll(unsigned Branch) const {
  return takenOnRange(Branch, Ranges.size());
}

int SplittingPredicates::takenOnRange(unsigned Branch, unsigned Range) const {
  unsigned Slots = Ranges.size() + 1;
  if (Taken.empty())
    Taken.assign(R.Branches.size() * Slots, -2);
  int &T = Taken[Branch * Slots + Range];
  if (T == -2) {
    if (Range == Ranges.size())
      T = takenOnTiles(Branch, Tiles); // R.Domain's tiles
    else if (R.Branches[Branch].UniformDims >> Dim & 1)
      T = takenOnAll(Branch);
    else
      T = takenOnTiles(Branch, rangeTilesAt(Range));
  }
  return T;
}

AccessClass SplittingPredicates::classifyRange(unsigned Access,
                                               unsigned Range) const {
  if (Classes.empty())
    Classes.assign(R.Accesses.size() * Ranges.size(), -1);
  // Accesses of one class in compute() answer alike.
  Access = Rep[Access];
  int &C = Classes[Access * Ranges.size() + Range];
  if (C < 0)
    C = int(classifyTiles(Access, rangeTilesAt(Range)));
  return AccessClass(C);
}

int SplittingPredicates::takenOn(unsigned Branch, const isl::set &Where) const {
  const ModelBranch &B = R.Branches[Branch];
  if (!B.Affine)
    return -1;
  isl::set D = within(B.Domain, Where);
  for (unsigned I = 0; I < B.Taken.size(); ++I)
    if (D.intersect_params(contextFor({D, B.Taken[I]}))
            .is_subset(B.Taken[I])
            .is_true())
      return I;
  return -1;
}

/// The points of \p S (over a block's space) whose work-item lies in
/// \p WIDomain, expanded as E.
static isl::set expandedIn(const isl::set &S, const isl::set &WIDomain,
                           const Expanded &E) {
  isl::set WIE = WIDomain.insert_dims(isl::dim::set, 3, E.N - 3)
                     .set_tuple_id(S.get_tuple_id())
                     .preimage(E.ToBlock);
  return S.preimage(E.ToBlock).intersect(E.Lanes).intersect(WIE);
}

/// The instances of \p Domain - \p Taken (over a block's space) whose
/// work-item lies in \p WIDomain, expanded: x_d = w * t + lane with
/// 0 <= lane < w, a bijection onto the block's space, so that "the tile of
/// x lies in a set of tiles" is a condition on t alone (liftTiles). Without
/// the disjuncts of the difference outside \p Signs, if given
/// (dropDisjunctsOutside).
static isl::set expandedOutside(const isl::set &Domain, const isl::set &Taken,
                                const isl::set &WIDomain, unsigned Dim,
                                unsigned Width,
                                const isl::set &Signs = isl::set()) {
  return expandedIn(
      dropDisjunctsOutside(Domain.subtract(Taken), Signs).coalesce(),
      WIDomain, expand(Domain.space(), Dim, Width));
}

/// \p Tiles (over Tile) on the expanded space \p Like of expandedOutside.
static isl::set liftTiles(const isl::set &Tiles, const isl::set &Like) {
  unsigned N = islDim(Like, isl::dim::set);
  return Tiles.insert_dims(isl::dim::set, 3, N - 3)
      .set_tuple_id(Like.get_tuple_id());
}

/// The instances of \p Domain (over a block's space) whose work-item lies
/// in \p WIDomain and whose tile lies in \p Tiles (over Tile), expanded as
/// E: on a range's tiles, where the range needs no floor of x_d.
static isl::set expandedOnTiles(const isl::set &Domain,
                                const isl::set &WIDomain, const isl::set &Tiles,
                                const Expanded &E) {
  isl::set D = expandedIn(Domain, WIDomain, E);
  return D.intersect(liftTiles(Tiles, D));
}

bool SplittingPredicates::allTakenOnTiles(const isl::set &Domain,
                                          const isl::set &Taken,
                                          const isl::set &Tiles,
                                          const isl::set &WIDomain,
                                          const isl::set &Context, unsigned Dim,
                                          unsigned Width) {
  // The instances in those tiles lie in Taken exactly when none of them
  // lies in Domain - Taken.
  isl::set Out = expandedOutside(Domain, Taken, WIDomain, Dim, Width);
  return Out.intersect(liftTiles(Tiles, Out))
      .intersect_params(Context)
      .is_empty()
      .is_true();
}

int SplittingPredicates::takenOnTiles(unsigned Branch,
                                      const isl::set &T) const {
  const ModelBranch &B = R.Branches[Branch];
  if (!B.Affine)
    return -1;
  // allTakenOnTiles, with each successor's expanded instances outside it
  // computed once for all the ranges.
  if (Outside.empty())
    Outside.resize(R.Branches.size());
  std::vector<isl::set> &Out = Outside[Branch];
  if (Out.empty())
    for (const isl::set &Taken : B.Taken)
      Out.push_back(expandedOutside(B.Domain, Taken, R.Domain, Dim, Width,
                                    M.signContext()));
  for (unsigned I = 0; I < Out.size(); ++I)
    if (emptyInContext(Out[I].intersect(liftTiles(T, Out[I]))).is_true())
      return I;
  return -1;
}

bool SplittingPredicates::uniformOnTiles(unsigned Branch,
                                         const isl::set &Where) const {
  if (BranchUniT[Branch].is_null())
    return false;
  isl::set U = uniformBranchTiles(Branch);
  return Where.intersect_params(contextFor({Where, U})).is_subset(U).is_true();
}

bool SplittingPredicates::uniformAcross(unsigned Branch,
                                        const isl::set &Where) const {
  const ModelBranch &B = R.Branches[Branch];
  if (B.UniformDims >> Dim & 1)
    return true;
  if (!affineBranch(Branch))
    return false;
  auto Found = find_if(RangeSets, [&](const isl::set &S) {
    return !S.is_null() && S.get() == Where.get();
  });
  if (Found == RangeSets.end())
    return uniformAcross(Branch, Where, -1);
  unsigned Range = Found - RangeSets.begin();
  if (Across.empty())
    Across.assign(R.Branches.size() * Ranges.size(), -1);
  int &Known = Across[Branch * Ranges.size() + Range];
  if (Known >= 0)
    return Known;
  bool Uniform = uniformAcross(Branch, Where, Range);
  if (!hasIslError(M.ctx()))
    Known = Uniform;
  return Uniform;
}

bool SplittingPredicates::uniformAcross(unsigned Branch,
                                        const isl::set &Where,
                                        int Range) const {
  const ModelBranch &B = R.Branches[Branch];
  // Two active instances of the piece that differ in x_d only, and take
  // different successors.
  isl::set D, Conditions[2];
  unsigned Fixed = ~0u; // the dimension the pairs may differ in, besides x_d
  if (Range >= 0) {
    // A range: on its tiles, x_d = w * t + lane (see takenOnTiles), where
    // the range needs no floor; the pairs differ in t and the lane.
    isl::set View = domainView(B.Domain);
    Expanded E = expand(View.space(), Dim, Width);
    D = expandedOnTiles(View, R.Domain, rangeTilesAt(Range), E);
    Fixed = E.N;
    for (unsigned I = 0; I < B.Conditions.size() && I < 2; ++I)
      Conditions[I] = B.Conditions[I].preimage(E.ToBlock);
  } else {
    D = within(domainView(B.Domain), Where);
  }
  // The pairs' relation alone, one basic map: its ends are bounded by T
  // and D \ T below, both within D. Bounded by D first, it had as many
  // pieces as D's squared (a range's tiles of a clamped loop: 18 pieces,
  // 1215 after T, each intersected with D \ T's 70: 78% of the
  // work-group passes for a 1D clamped window in groups of 64). D
  // coalesced first: 18 pieces become 11, and D \ T 13 instead of 18.
  D = D.coalesce();
  isl::map Line = isl::map::universe(D.space().map_from_set());
  for (unsigned I = 0, N = islDim(D, isl::dim::set); I < N; ++I)
    if (I != Dim && I != Fixed)
      Line = Line.equate(isl::dim::in, I, isl::dim::out, I);
  for (unsigned I = 0; I < B.Taken.size(); ++I) {
    isl::set C = B.Conditions[I];
    if (Fixed != ~0u) {
      if (I >= 2)
        C = C.preimage(expand(C.space(), Dim, Width).ToBlock);
      else
        C = Conditions[I];
    }
    isl::set T = C.intersect(D);
    isl::map Mixed = Line.intersect_domain(T).intersect_range(D.subtract(T));
    // Only whether there is one counts: no need to project to work-items.
    isl::set Bad =
        Fixed != ~0u ? Mixed.domain() : toWorkItems(Mixed.domain(), R.Domain);
    for (const isl::id &Id : Opaque)
      if (involvesParam(Bad, Id))
        Bad = Bad.project_out_param(Id);
    if (!emptyInContext(Bad).is_true())
      return false;
  }
  return true;
}

isl::set SplittingPredicates::uniformCondition(unsigned Branch,
                                               unsigned Succ,
                                               const isl::set &Where) const {
  const ModelBranch &B = R.Branches[Branch];
  if (!affineBranch(Branch) || Succ >= B.Conditions.size())
    return {};
  // On a range's tiles, where x_d = w * t + lane needs no floor (see
  // uniformAcross): the same set, at a fraction of the projection's cost
  // (Convolution2D's mask loops: 40% of the front half before).
  auto Range = find_if(RangeSets, [&](const isl::set &S) {
    return !S.is_null() && S.get() == Where.get();
  });
  // Memoized on a range (the split's copies and their edges ask alike),
  // where isl computed it without an error.
  isl::set *Memo = nullptr;
  if (Range != RangeSets.end() && Succ < 8) {
    unsigned Key =
        (Branch * RangeSets.size() + (Range - RangeSets.begin())) * 8 + Succ;
    Memo = &LaneFree[Key];
    if (!Memo->is_null())
      return *Memo;
  }
  isl::set C =
      Range != RangeSets.end()
          ? laneFreeConditionOnTiles(B.Conditions[Succ], B.Domain, R.Domain,
                                     rangeTilesAt(Range - RangeSets.begin()),
                                     Dim, Width, M.predicateContext())
          : laneFreeCondition(B.Conditions[Succ], within(B.Domain, Where), Dim,
                              M.predicateContext());
  for (const isl::id &Id : Opaque)
    if (involvesParam(C, Id))
      return {};
  if (involvesVarying(C))
    return {};
  if (Memo && !hasIslError(M.ctx()))
    *Memo = C;
  return C;
}

isl::set SplittingPredicates::laneFreeCondition(const isl::set &Cond,
                                                const isl::set &Instances,
                                                unsigned Dim,
                                                const isl::set &Context) {
  auto Free = [&](const isl::set &S) {
    return S.project_out(isl::dim::set, Dim, 1)
        .insert_dims(isl::dim::set, Dim, 1);
  };
  return simplifyLaneFree(Free(Cond.intersect(Instances)).coalesce(),
                          Free(Instances),
                          Free(isl::set(Instances.simple_hull())), Context);
}

isl::set SplittingPredicates::laneFreeConditionOnTiles(
    const isl::set &Cond, const isl::set &Domain, const isl::set &WIDomain,
    const isl::set &Tiles, unsigned Dim, unsigned Width,
    const isl::set &Context) {
  Expanded E = expand(Domain.space(), Dim, Width);
  isl::set Instances = expandedOnTiles(Domain, WIDomain, Tiles, E);
  // The tile and the lane projected out, x_d left free in their place.
  auto Free = [&](const isl::set &S) {
    return S.project_out(isl::dim::set, E.N, 1)
        .project_out(isl::dim::set, Dim, 1)
        .insert_dims(isl::dim::set, Dim, 1)
        .reset_tuple_id();
  };
  // The instances only bound the condition's simplification: coalescing
  // their projection cost Convolution2D's front half 8 % and changed
  // nothing in its work-group IR, nor in that of the other kernels.
  return simplifyLaneFree(
      Free(Cond.preimage(E.ToBlock).intersect(Instances)).coalesce(),
      Free(Instances), Free(isl::set(Instances.simple_hull())), Context);
}

isl::set SplittingPredicates::simplifyLaneFree(const isl::set &C,
                                               const isl::set &On,
                                               const isl::set &Hull,
                                               const isl::set &Context) {
  // What only says that there are instances here holds wherever the
  // branch runs: drop it when that changes nothing on the instances (isl's
  // gist keeps it, the instances being a union). Tried first: it is
  // cheaper than the gist, and usually right.
  isl::set Lean =
      dropConstraintsNotInvolving(C, 0, islDim(C, isl::dim::set)).coalesce();
  // C is within Lean and On by construction: one inclusion is left.
  // Gisted on a convex set that holds On: exact on On, the only place
  // where the result is used.
  if (Lean.intersect(On).is_subset(C).is_true())
    return Lean.gist(Hull).gist_params(Context).coalesce();
  return C.gist(Hull).gist_params(Context).coalesce();
}

/// The values of the model's isl parameters at \p B, each computed once,
/// for an IslExprEmitter; \p Missing is set when one has none.
static std::function<Value *(const isl::id &)>
paramValuesAt(const WorkItemModel &M, IRBuilderBase &B,
              function_ref<Value *(Value *)> MapKernelValue,
              DenseMap<const ModelParam *, Value *> &Params, bool &Missing) {
  return [&M, &B, MapKernelValue, &Params,
          &Missing](const isl::id &Id) -> Value * {
    const ModelParam *P = WorkItemModel::param(Id);
    if (!P) {
      Missing = true;
      return nullptr;
    }
    auto It = Params.find(P);
    if (It == Params.end())
      It = Params.insert({P, M.paramValue(*P, B, MapKernelValue)}).first;
    Missing |= !It->second;
    return It->second;
  };
}

bool SplittingPredicates::emitBounds(
    IRBuilderBase &B, Value *const OuterIds[3],
    function_ref<Value *(Value *)> MapKernelValue,
    SmallVectorImpl<std::pair<Value *, Value *>> &Bounds,
    unsigned OnlyRange) const {
  if (Ranges.empty() || (OnlyRange != ~0u && OnlyRange >= Ranges.size()))
    return false;
  // Each parameter once, before the bounds that use it.
  DenseMap<const ModelParam *, Value *> Params;
  bool Missing = false;
  IslExprEmitter E(B, paramValuesAt(M, B, MapKernelValue, Params, Missing));
  SmallVector<Value *, 2> Outer = outerValues(OuterIds);
  isl::set Context = M.predicateContext();
  SmallVector<std::pair<Value *, Value *>, 8> Out;
  if (!Cuts.empty()) {
    long L = R.Domain.dim_max_val(Dim).get_num_si() + 1;
    if (!emitCuts(E, B, Cuts, Outer, Context, L, Width, Out) || Missing)
      return false;
    if (OnlyRange != ~0u)
      Out = {Out[OnlyRange]};
    Bounds.append(Out.begin(), Out.end());
    return true;
  }
  Value *Prev = nullptr;
  for (unsigned I = 0; I < Ranges.size(); ++I) {
    if (OnlyRange != ~0u && I != OnlyRange)
      continue;
    const SplitRange &Rg = Ranges[I];
    // Each range starts where the last ended.
    Value *Begin = Prev;
    if (!Begin) {
      Expected<Value *> V = E.emit(Rg.Begin, Outer, Context);
      if (!V) {
        consumeError(V.takeError());
        return false;
      }
      Begin = *V;
    }
    Expected<Value *> End = E.emit(Rg.End, Outer, Context);
    if (!End) {
      consumeError(End.takeError());
      return false;
    }
    if (Missing)
      return false;
    Out.push_back({Begin, *End});
    Prev = *End;
  }
  Bounds.append(Out.begin(), Out.end());
  return true;
}

bool SplittingPredicates::emitOuterExprs(
    IRBuilderBase &B, Value *const OuterIds[3],
    function_ref<Value *(Value *)> MapKernelValue, ArrayRef<isl::pw_aff> Exprs,
    Value **Out) const {
  DenseMap<const ModelParam *, Value *> Params;
  bool Missing = false;
  IslExprEmitter E(B, paramValuesAt(M, B, MapKernelValue, Params, Missing));
  SmallVector<Value *, 2> Outer = outerValues(OuterIds);
  for (unsigned I = 0; I < Exprs.size(); ++I) {
    Out[I] = nullptr;
    if (Exprs[I].is_null())
      continue;
    Expected<Value *> V = E.emit(Exprs[I], Outer, M.predicateContext());
    if (!V) {
      consumeError(V.takeError());
      return false;
    }
    Out[I] = *V;
  }
  return !Missing;
}

/// The parameters for which some of \p Outer lies outside the pieces of
/// \p PA whose expression does not involve the outer ids (and, with
/// \p Value, is that constant): the intersection over those pieces of
/// the parameters where \p Outer is not within the piece. Linear in the
/// pieces, where comparing \p PA with itself at the origin (ne_set) took
/// a third of Convolution2D's split. An over-approximation where isl
/// splits one expression into several pieces: the bounds are then
/// computed per row, which is always right.
static isl::set paramsNotCovered(const isl::pw_aff &PA,
                                 std::optional<long> Value,
                                 const isl::set &Outer) {
  isl::set Bad = isl::set::universe(Outer.params().space());
  unsigned N = islDim(Outer, isl::dim::set);
  isl::stat St = PA.foreach_piece([&](isl::set Dom, isl::aff A) {
    if (involvesInDims(A, 0, N))
      return isl::stat::ok();
    if (Value && (!A.is_cst().is_true() ||
                  !A.constant_val().eq(isl::val(A.ctx(), *Value))))
      return isl::stat::ok();
    Bad = Bad.intersect(Outer.subtract(Dom).params());
    return Bad.is_null() ? isl::stat::error() : isl::stat::ok();
  });
  if (St.is_error())
    return {};
  return Bad;
}

isl::set SplittingPredicates::invariantParams(ArrayRef<isl::pw_aff> Bounds,
                                              const isl::set &Outer,
                                              const isl::set &Context) {
  isl::set Bad = isl::set::empty(Outer.params().space());
  for (const isl::pw_aff &PA : Bounds) {
    Bad = Bad.unite(paramsNotCovered(PA, std::nullopt, Outer));
    if (Bad.is_null())
      return {};
  }
  return Context.subtract(Bad);
}

/// The parameters \p Compute gives for a test that only chooses a faster
/// path, under the predicates' isl quota (empty where it fails): only its
/// disjuncts that hold in some launch without a global offset
/// (keepDisjunctsMeeting). The others run the general path, which is
/// always right.
static isl::set fastPathParams(const WorkItemModel &M,
                               function_ref<isl::set()> Compute) {
  isl::set S;
  {
    IslQuota Q(M.ctx(), MaxPredicateOps);
    S = keepDisjunctsMeeting(Compute(), M.offsetFreeLaunches());
    if (Q.exceeded())
      S = isl::set();
  }
  return S.is_null() ? isl::set::empty(M.predicateContext().space()) : S;
}

const isl::set &SplittingPredicates::invariantBoundsParams() const {
  if (!InvariantBounds.is_null())
    return InvariantBounds;
  InvariantBounds = fastPathParams(M, [&]() -> isl::set {
    if (Ranges.empty())
      return {};
    if (!Cuts.empty()) {
      // The bounds are the same in every row where each range has the same
      // tiles in every row: no tile of one row's that another row lacks.
      isl::set Bad = isl::set::empty(M.predicateContext().space());
      for (const SplitRange &Rg : Ranges) {
        isl::map In = outerToDim(Rg.Tiles.intersect(Tiles), Dim);
        isl::map Out = outerToDim(Tiles.subtract(Rg.Tiles), Dim);
        Bad = Bad.unite(In.apply_range(Out.reverse()).wrap().params());
      }
      return M.predicateContext().subtract(Bad).coalesce();
    }
    SmallVector<isl::pw_aff, 8> Bounds;
    for (const SplitRange &Rg : Ranges)
      Bounds.push_back(Rg.End); // the next range's Begin; Begin_0 is 0
    return invariantParams(Bounds, outerToDim(R.Domain, Dim).domain(),
                           M.predicateContext());
  });
  return InvariantBounds;
}

isl::set SplittingPredicates::wholeParams(const isl::pw_aff &Begin,
                                          const isl::pw_aff &End, long L,
                                          const isl::set &Outer,
                                          const isl::set &Context) {
  isl::set Bad = paramsNotCovered(Begin, 0L, Outer)
                     .unite(paramsNotCovered(End, L, Outer));
  return Bad.is_null() ? Bad : Context.subtract(Bad).coalesce();
}

const isl::set &SplittingPredicates::wholeGroupParams(unsigned Range) const {
  if (WholeGroup.empty())
    WholeGroup.resize(Ranges.size());
  isl::set &S = WholeGroup[Range];
  if (S.is_null() && !Cuts.empty())
    // Where its tiles are all the tiles of the group, in every row.
    S = fastPathParams(M, [&] {
      return M.predicateContext()
          .subtract(Tiles.subtract(Ranges[Range].Tiles).params())
          .coalesce();
    });
  if (S.is_null())
    S = fastPathParams(M, [&] {
      long L = R.Domain.dim_max_val(Dim).get_num_si() + 1;
      return wholeParams(Ranges[Range].Begin, Ranges[Range].End, L,
                         outerToDim(R.Domain, Dim).domain(),
                         M.predicateContext());
    });
  return S;
}

Value *SplittingPredicates::emitParamCondition(
    IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue,
    const isl::set &S) const {
  isl::set Context = M.predicateContext();
  if (S.is_empty().is_true())
    return B.getFalse();
  if (Context.is_subset(S).is_true())
    return B.getTrue();
  DenseMap<const ModelParam *, Value *> Params;
  bool Missing = false;
  IslExprEmitter E(B, paramValuesAt(M, B, MapKernelValue, Params, Missing));
  // Only what the context does not already say, in the parameters it
  // names: the context's space holds every parameter of the model.
  Expected<Value *> V =
      E.emitCondition(dropUnusedParams(S.gist(Context)), {}, Context);
  if (!V) {
    consumeError(V.takeError());
    return nullptr;
  }
  return Missing ? nullptr : *V;
}

Value *SplittingPredicates::emitBoundsInvariant(
    IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue) const {
  return emitParamCondition(B, MapKernelValue, invariantBoundsParams());
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string SplittingPredicates::rangeBounds(unsigned Range) const {
  isl::set Context = M.predicateContext();
  // Ranges whose bounds are computed at run time (emitCuts) are printed
  // with the bounds rangesOfTiles computes without cuts: the same ranges.
  if (!Cuts.empty() && !PrintedRangesMade) {
    PrintedRangesMade = true;
    std::string Why;
    if (!rangesOfTiles(RangeTileSets, R.Domain, Dim, Width, Context, MaxRanges,
                       PrintedRanges, Why) ||
        PrintedRanges.size() != Ranges.size())
      PrintedRanges.clear();
  }
  const SplitRange &Rg =
      PrintedRanges.empty() ? Ranges[Range] : PrintedRanges[Range];
  if (Rg.Begin.is_null() || Rg.End.is_null())
    return "[bounds computed per group)";
  SmallVector<std::string, 2> Outer;
  for (unsigned D = 0; D < 3; ++D)
    if (D != Dim)
      Outer.push_back(DimNames[D]);
  return "[" + islCStr(IslExprEmitter::toAst(Rg.Begin, Context, Outer)) + ", " +
         islCStr(IslExprEmitter::toAst(Rg.End, Context, Outer)) + ")";
}

void SplittingPredicates::print(raw_ostream &OS) const {
  OS << "  region " << blockName(R.Barrier) << ", dimension " << DimNames[Dim]
     << ", width " << Width << ":\n";
  if (!R.Modelled) {
    OS << "    no split: " << Refusal << "\n";
    return;
  }
  auto Set = [&](const isl::set &S) { return islStr(M.simplify(S)); };
  OS << "    full tiles: " << Set(Full) << "\n";
  for (unsigned B = 0; B < R.Branches.size(); ++B) {
    const ModelBranch &Br = R.Branches[B];
    OS << "    branch " << blockName(Br.Term->getParent()) << ": ";
    if (!idDependent(B))
      OS << "not id-dependent\n";
    else
      OS << "uniform tiles " << Set(uniformBranchTiles(B)) << "\n";
  }
  for (unsigned A = 0; A < R.Accesses.size(); ++A) {
    const ModelAccess &Acc = R.Accesses[A];
    OS << "    " << (Acc.IsStore ? "store " : "load ")
       << blockName(Acc.I->getParent()) << " #" << A << ":";
    if (Acc.UniformDims >> Dim & 1) {
      OS << " uniform address\n";
      continue;
    }
    if (!affineAccess(A)) {
      OS << " non-affine\n";
      continue;
    }
    isl::set Runs = toWorkItems(Acc.Domain, R.Domain);
    OS << "\n      consecutive at " << Set(consecutivePoints(A).intersect(Runs))
       << "\n";
    OS << "      uniform at " << Set(uniformPoints(A).intersect(Runs)) << "\n";
    OS << "      consecutive tiles " << Set(consecutiveTiles(A))
       << (EverCons[A] ? "" : " (never on a full tile)") << "\n";
    OS << "      uniform tiles " << Set(uniformTiles(A)) << "\n";
  }
  OS << "    I_C: " << Set(consecutiveDomain()) << "\n";
  OS << "    pieces:\n";
  for (unsigned P = 0; P < Pieces.size(); ++P)
    OS << "      " << P << " (" << Pieces[P].name(R)
       << "): " << Set(Pieces[P].Set) << "\n";
  if (Ranges.empty()) {
    OS << "    no split: " << Refusal << "\n";
    return;
  }
  OS << "    ranges of " << DimNames[Dim] << ":\n";
  for (unsigned I = 0; I < Ranges.size(); ++I) {
    std::string Bounds = rangeBounds(I); // first: makes PrintedRanges
    const SplitRange &Rg = PrintedRanges.empty() ? Ranges[I] : PrintedRanges[I];
    OS << "      " << Bounds << ": piece " << Rg.Piece << "\n";
    // What a copy of the body for this range may be specialized with.
    isl::set Where = rangeSet(Rg);
    if (!R.Accesses.empty()) {
      OS << "        accesses:";
      for (unsigned A = 0; A < R.Accesses.size(); ++A) {
        AccessClass C = classify(A, Where);
        OS << (C == AccessClass::Consecutive ? " cons"
               : C == AccessClass::Uniform   ? " uni"
                                             : " div");
      }
      OS << "\n";
    }
    for (unsigned B = 0; B < R.Branches.size(); ++B) {
      const ModelBranch &Br = R.Branches[B];
      OS << "        branch " << blockName(Br.Term->getParent()) << ": ";
      int T = takenOn(B, Where);
      if (T >= 0)
        OS << "always to " << blockName(Br.Term->getSuccessor(T)) << "\n";
      else if (uniformAcross(B, Where))
        OS << "uniform across the range\n";
      else if (uniformOnTiles(B, Where))
        OS << "uniform on tiles\n";
      else
        OS << "divergent\n";
    }
  }
  for (unsigned I = 0; I < Ranges.size(); ++I)
    OS << "    range " << I << " is the whole work group where: "
       << islStr(M.simplify(wholeGroupParams(I))) << "\n";
  OS << "    bounds the same in every row where: "
     << islStr(M.simplify(invariantBoundsParams())) << "\n";
}

} // namespace iss
