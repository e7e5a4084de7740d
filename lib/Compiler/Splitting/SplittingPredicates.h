//===- SplittingPredicates.h - Tiles without divergence ---------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The splitting predicates of the input-space-splitting paper (sections
// 3.2 and 4.2, Table 1) for one parallel region of the model
// (WorkItemModel.h), a vectorized dimension d and a vector width w, and the
// pieces the split pass cuts the region's work-item loop into.
//
// Tiles. The vectorized loop over x_d runs w work-items at a time: a tile
// is { x : floor(x_d / w) = t, the other ids fixed }, aligned on multiples
// of w as in the paper's full-tile predicate
//   Full_n(d) := (x_d - (x_d mod w)) + w - 1 < n        (section 3.2.1)
// with n = L_d, a constant. A property holds on a tile when it holds for
// its active lanes (those that execute the statement) at every iteration
// of the kernel loops, compared at equal loop counters (the lanes run the
// loops in lockstep). Every tile-level set is a union of whole tiles, so
// the ranges below start and end on multiples of w, except at L_d.
//  - consecutive access (Cons_F(d), section 3.2.2): the address minus
//    size * x_d is the same for all active lanes (stride one element,
//    the other ids fixed);
//  - uniform access (Uni_F(d)): the same address on all active lanes;
//  - divergent access: neither;
//  - uniform branch: every active lane takes the same successor;
//  - I_C (section 4.2): where every access that is consecutive on some
//    full tile with two active lanes is consecutive; I_T its remainder.
// The paper's pointwise predicates (F(x + v_d) = F(x) + 1, F(x + v_d) =
// F(x)) are given too: they say where neighbours agree, independently of
// tiles (Figure 5: B[max(5, x)] is consecutive from x = 5).
//
// Pieces (Table 1, with the hot cell split by control flow):
//   0  full tiles, I_C, every id-dependent branch uniform on its tiles,
//      split again by the successor such branches take on whole tiles
//      (no more pieces than ranges allowed)
//   1  full tiles, I_C, some branch divergent
//   2  full tiles, I_T
//   3  partial tiles, I_C
//   4  partial tiles, I_T
// (empty ones are left out). Ranges: for given parameters and outer ids
// (the work-item ids other than x_d), the pieces cut [0, L_d) into
// intervals; ranges() lists them in order, each with its tiles. Their
// bounds [Begin, End) are piecewise affine in the parameters and the outer
// ids (empty for the parameters where the piece has no such interval):
// computed in isl where an interval has a stride, otherwise only when the
// group runs, from the intervals' own constraints (RangeCuts, emitCuts).
// The split pass emits the bounds per work group (IslExprEmitter) and runs
// range i with piece Piece's copy of the body: the ranges of piece 0 hold
// whole tiles only.
//
// Opaque parameters of the model are quantified away (the sets hold for
// every value of them). Everything assumes the model's assumptions().
//
// Use in the split pass (SplitPlan.h), for the region a barrier starts:
//   const WorkItemModel &M = FAM.getResult<WorkItemModelAnalysis>(Kernel);
//   const RegionModel *R = M.region(Barrier);  // null: the exit barrier
//   SplittingPredicates SP(M, *R, Config.vectorizedDim(),
//                          Config.VectorWidth, Config.MaxPieces);
//   SP.ranges().empty(): no plan (SP.refusal() says why, for a remark);
//   pieces():       SplitPieceInfo{WholeTiles = Full, Name = name(*R)};
//   rangePieces():  Piece of each of ranges();
//   emitBounds():   SP.emitBounds(...), guarded by
//                   M.emitAssumptionCheck(...) (else the unsplit nest);
//   specialize(P):  takenOn(B, P) >= 0 folds branch B in P's copy (map
//                   the terminator through the copy's VMap); loops whose
//                   exit branches are all uniformAcross may get the
//                   work-item loop inside (horizontal parallelization);
//                   classify() tells consecutive, uniform and divergent
//                   accesses apart (POCL_ISS_STATS, the scores).
// All of it reads the kernel's IR: ask for the model before iss-split
// changes the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_SPLITTINGPREDICATES_H
#define POCL_ISS_COMPILER_SPLITTING_SPLITTINGPREDICATES_H

#include "Splitting/WorkItemModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace llvm {
class IRBuilderBase;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

class IslExprEmitter;

/// A piece of a region's work-item domain, run by its own copy of the body.
struct SplitPiece {
  /// \p Set is { WI[x, y, z] : ... } with parameters, a union of tiles.
  isl::set Set;
  bool Full = false;           ///< its tiles are full
  bool Consecutive = false;    ///< within I_C
  bool UniformControl = false; ///< all id-dependent branches tile-uniform
  unsigned Index = 0;          ///< 0 to 4, as in the table above
  /// In the hot cell: (branch, successor) for the id-dependent branches
  /// that take that successor on every instance in the piece.
  llvm::SmallVector<std::pair<unsigned, int>, 2> Fates;
  std::string name() const;
  std::string name(const RegionModel &R) const;
};

/// How the ranges' bounds are computed at run time where every interval of
/// the pieces is a basic map without local dimensions (rangesOfTiles): the
/// intervals in order, each as its basic maps { Outer[o0, o1] -> [t_d] }
/// that never coexist; range I ends where the first interval after its
/// last one, Last[I], that is present starts (in tiles), or at the tile
/// count. No parametric minimum, chain or simplification of the bounds is
/// computed for it, only each interval's bounds read off its constraints.
struct RangeCuts {
  std::vector<llvm::SmallVector<isl::basic_map, 2>> Intervals;
  std::vector<unsigned> Last;
  bool empty() const { return Intervals.empty(); }
};

/// A range of the vectorized id: x_d in [Begin, End) runs piece Piece.
struct SplitRange {
  unsigned Piece; ///< an index into pieces()
  /// \p Begin, \p End are [params] -> { Outer[o0, o1] -> [x_d] }, the
  /// outer ids being the other two dimensions in increasing order.
  isl::pw_aff Begin, End;
  /// The same bounds as tile indices: Begin = min(w * BeginTile, L_d),
  /// End = min(w * EndTile, L_d), over the same space (null when the range
  /// was not made by rangesOfTiles).
  isl::pw_aff BeginTile, EndTile;
  /// Its tiles, { Tile[...] : BeginTile <= t_d < EndTile } within its
  /// piece's, in the context the ranges were made in: the intervals of the
  /// piece it was made of, with no bound to compare (null when the range
  /// was not made by rangesOfTiles).
  isl::set Tiles;
};

/// How an access runs on the tiles of a piece.
enum class AccessClass { Consecutive, Uniform, Divergent };

class SplittingPredicates {
public:
  /// \p MaxRanges bounds the ranges (each a copy of the body) a split may
  /// have: WorkGroupConfig::MaxPieces (POCL_ISS_MAX_PIECES). With
  /// \p PointwiseOnly, nothing is computed up front: only the pointwise
  /// predicates (consecutivePoints, uniformPoints) may be asked, as the
  /// scores do (Scoring/SubkernelScore.h).
  SplittingPredicates(const WorkItemModel &M, const RegionModel &R,
                      unsigned Dim, unsigned Width, unsigned MaxRanges = 8,
                      bool PointwiseOnly = false);

  unsigned dim() const { return Dim; }
  unsigned width() const { return Width; }
  const RegionModel &region() const { return R; }

  /// { WI[x, y, z] : x's tile is full } and the rest of the domain.
  isl::set fullTiles() const { return Full; }
  isl::set partialTiles() const { return R.Domain.subtract(Full); }

  /// Per access (an index into RegionModel::Accesses), over WI: the tiles
  /// where it is consecutive, uniform (tiles that never run it included).
  /// Computed over { Tile[...] } (see below) and turned into work-items
  /// when asked.
  isl::set consecutiveTiles(unsigned Access) const;
  isl::set uniformTiles(unsigned Access) const;
  /// The work-items that run it and whose tile is neither.
  isl::set divergentTiles(unsigned Access) const;
  /// The paper's pointwise Cons_F(d) and Uni_F(d): the work-items whose
  /// next neighbour in d accesses the next element (the same address).
  isl::set consecutivePoints(unsigned Access) const;
  isl::set uniformPoints(unsigned Access) const;
  /// Whether the access is consecutive on some full tile with two lanes.
  bool everConsecutive(unsigned Access) const;
  /// Whether the access's address steps by its size along x_d wherever it
  /// runs, as written: one expression, x_d's coefficient its size, its base
  /// the same along d. Then it is consecutive on every tile; no set is
  /// computed (PointwiseOnly will do).
  bool consecutiveAsWritten(unsigned Access) const;

  /// Per branch (an index into RegionModel::Branches): the tiles where all
  /// active lanes take the same successor.
  isl::set uniformBranchTiles(unsigned Branch) const;
  /// Whether the branch depends on the work-item ids (or the loop
  /// counters): not decided by the parameters alone.
  bool idDependent(unsigned Branch) const;
  /// The tiles where every id-dependent branch is uniform.
  isl::set uniformControlTiles() const;

  /// I_C and I_T (section 4.2).
  isl::set consecutiveDomain() const;
  isl::set remainderDomain() const {
    return R.Domain.subtract(consecutiveDomain());
  }

  llvm::ArrayRef<SplitPiece> pieces() const { return Pieces; }
  /// The ranges of x_d in order; empty when splitting was refused
  /// (refusal() says why; the region then runs unsplit).
  llvm::ArrayRef<SplitRange> ranges() const { return Ranges; }
  const std::string &refusal() const { return Refusal; }

  /// The work-items of \p R: { WI[x, y, z] : Begin <= x_d < End } within
  /// its piece, in the context (those of its tiles, SplitRange::Tiles).
  isl::set rangeSet(const SplitRange &R) const;
  /// rangeSet, takenOn and classify for the range ranges()[Range] and on
  /// the whole region (takenOnAll), each computed once: the split's gain
  /// check and its specialization ask the same questions. A branch the
  /// same for every x_d is never fixed by a range of x_d alone: it counts
  /// as fixed where it is on the whole region only. takenOnRange and
  /// classifyRange decide on the range's tiles (rangeTilesAt), which gives
  /// the same answers as on rangeSetAt without its floors.
  const isl::set &rangeSetAt(unsigned Range) const;
  /// The tiles of rangeSetAt(Range): SplitRange::Tiles.
  const isl::set &rangeTilesAt(unsigned Range) const;
  /// Whether ranges()[Range] holds w work-items at most, for all
  /// parameters in the context: whether it has one tile at most (two tiles
  /// of the range always reach below L_d), decided on its tiles
  /// (secondTiles) without comparing the pieces of End - Begin with w.
  bool atMostOneTile(unsigned Range) const;
  int takenOnRange(unsigned Branch, unsigned Range) const;
  int takenOnAll(unsigned Branch) const;
  AccessClass classifyRange(unsigned Access, unsigned Range) const;

  /// What the split pass specializes a copy of the body with, for the
  /// work-items \p Where (a piece's Set, a rangeSet(), any subset of the
  /// region's domain): how the access runs on the tiles there.
  AccessClass classify(unsigned Access, const isl::set &Where) const;
  /// The same for the work-items of the tiles \p Tiles (over Tile, within
  /// the region's tiles).
  AccessClass classifyTiles(unsigned Access, const isl::set &Tiles) const;
  /// The successor taken on every instance of the branch in \p Where, -1
  /// if it varies (then the branch stays).
  int takenOn(unsigned Branch, const isl::set &Where) const;
  /// The same on the work-items of the region's domain in the tiles
  /// \p Tiles (over Tile): decided on the block's instances with x_d
  /// written as w * t + lane, where a tile needs no floor.
  int takenOnTiles(unsigned Branch, const isl::set &Tiles) const;
  /// Whether the branch is uniform on each tile of \p Where.
  bool uniformOnTiles(unsigned Branch, const isl::set &Where) const;
  /// Whether the branch takes the same successor for every x_d in
  /// \p Where at each value of the outer ids and the loop counters: a loop
  /// whose exits all are runs as often for every work-item of a range (the
  /// work-item loop may go inside it: horizontal parallelization); a
  /// condition that is can be hoisted out of the range's loop.
  bool uniformAcross(unsigned Branch, const isl::set &Where) const;
  /// For a branch uniformAcross \p Where: the instances of its block in
  /// \p Where that go to successor \p Succ, as a condition on the outer
  /// ids, the loop counters and the parameters, x_d left free (so every
  /// lane evaluates it alike). Null when the branch is not affine or the
  /// condition involves an opaque parameter.
  isl::set uniformCondition(unsigned Branch, unsigned Succ,
                            const isl::set &Where) const;
  AccessClass classify(unsigned Access, const SplitPiece &P) const {
    return classify(Access, P.Set);
  }
  int takenOn(unsigned Branch, const SplitPiece &P) const {
    return takenOn(Branch, P.Set);
  }
  bool uniformOnTiles(unsigned Branch, const SplitPiece &P) const {
    return uniformOnTiles(Branch, P.Set);
  }
  bool uniformAcross(unsigned Branch, const SplitPiece &P) const {
    return uniformAcross(Branch, P.Set);
  }

  /// SplitPlan::emitBounds: at \p B, inside the outer work-item loops, the
  /// bounds [Begin, End) of every range as i64 values; \p OuterIds are the
  /// ids of the other dimensions (the vectorized one is not read),
  /// \p MapKernelValue maps the kernel's arguments and work-item globals to
  /// the work-group function's values. Right where the model's
  /// assumptions hold (WorkItemModel::emitAssumptionCheck). False when a
  /// parameter has no value. With \p OnlyRange, that range's alone.
  bool
  emitBounds(llvm::IRBuilderBase &B, llvm::Value *const OuterIds[3],
             llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
             llvm::SmallVectorImpl<std::pair<llvm::Value *, llvm::Value *>>
                 &Bounds,
             unsigned OnlyRange = ~0u) const;

  /// Emits, at \p B, each of \p Exprs ({ Outer[o0, o1] -> [...] }, as
  /// SplitRange's bounds) at the outer ids \p OuterIds into \p Out (null
  /// for a null one), each parameter once; false when one has no value.
  bool emitOuterExprs(
      llvm::IRBuilderBase &B, llvm::Value *const OuterIds[3],
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
      llvm::ArrayRef<isl::pw_aff> Exprs, llvm::Value **Out) const;

  /// The parameters, within the model's predicate context, for which
  /// every range's bounds are the same at all outer ids of the region:
  /// each row of such a work group is cut alike (Figure 2's interior rows,
  /// a tail guard on x alone), and the split pass computes the bounds once
  /// per work group instead of once per row. Computed once; empty when
  /// isl runs out of its quota or there are no ranges.
  const isl::set &invariantBoundsParams() const;
  /// Whether the parameters lie in invariantBoundsParams(), as an i1 at
  /// \p B (constant true when the bounds never involve the outer ids,
  /// constant false when they always may); null when a parameter has no
  /// value.
  llvm::Value *emitBoundsInvariant(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue) const;

  /// The parameters, within the model's predicate context, for which
  /// range \p Range is [0, L_d) at every outer id: the whole work group
  /// runs that range's copy (the interior groups of Figure 2). Computed
  /// once per range; empty when isl runs out of its quota.
  const isl::set &wholeGroupParams(unsigned Range) const;
  /// Whether the parameters lie in \p S (a set of parameters, e.g. one of
  /// the two above), as an i1 at \p B; null when a parameter has no value.
  llvm::Value *emitParamCondition(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
      const isl::set &S) const;

  /// The predicates, pieces and ranges (print<iss-model>).
  void print(llvm::raw_ostream &OS) const;
  /// The bounds of ranges()[\p Range] as C expressions of the outer ids
  /// and the parameters, "[Begin, End)", for printing; where they are
  /// computed per group from RangeCuts, those rangesOfTiles makes without
  /// cuts (the same ranges).
  std::string rangeBounds(unsigned Range) const;

  // The mathematics on isl objects alone. \p Domain is over a space whose
  // first three set dimensions are the work-item ids (then loop counters),
  // \p WIDomain over { WI[x, y, z] }.

  // Sets of tiles are over { Tile[t0, t1, t2] }: dimension d holds the tile
  // index floor(x_d / w), the others the ids. On them, the predicates need
  // no floor, and stay small.

  /// The tiles of the work-items \p S (over WI), and back.
  static isl::set tilesOf(const isl::set &S, unsigned Dim, unsigned Width);
  /// The tiles t of \p Tiles (an interval of t_d for each outer ids)
  /// whose next tile t + 1 is in it too: empty exactly where the interval
  /// holds one tile at most.
  static isl::set secondTiles(const isl::set &Tiles, unsigned Dim);
  /// takenOnTiles's isl part: whether the instances of \p Domain (over a
  /// block's space) whose work-item lies in \p WIDomain and whose tile
  /// lies in \p Tiles, all lie in \p Taken, within \p Context.
  static bool allTakenOnTiles(const isl::set &Domain, const isl::set &Taken,
                              const isl::set &Tiles, const isl::set &WIDomain,
                              const isl::set &Context, unsigned Dim,
                              unsigned Width);
  /// uniformCondition's isl part: \p Cond on \p Instances with dimension
  /// \p Dim projected out and left free, gisted with \p Context and
  /// without the constraints on the parameters alone that the instances
  /// imply.
  static isl::set laneFreeCondition(const isl::set &Cond,
                                    const isl::set &Instances, unsigned Dim,
                                    const isl::set &Context);
  /// laneFreeCondition on the instances of \p Domain (over a block's space)
  /// whose work-items lie in \p WIDomain and whose tiles of \p Width lie
  /// in \p Tiles (over Tile): the same set as on those instances, computed
  /// with x_d = w * t + lane, without floors of x_d.
  static isl::set laneFreeConditionOnTiles(const isl::set &Cond,
                                           const isl::set &Domain,
                                           const isl::set &WIDomain,
                                           const isl::set &Tiles, unsigned Dim,
                                           unsigned Width,
                                           const isl::set &Context);
  /// The rest of both: \p C (x_d free), the condition on the instances
  /// \p On (x_d free), gisted with \p Hull, a convex set that holds them,
  /// and \p Context. The callers take the instances' hull before they
  /// project x_d out: the hull of the projection first aligns the
  /// existentials the projection leaves in each disjunct, six times the
  /// cost (Convolution2D's front half: 80 of 927 million instructions).
  static isl::set simplifyLaneFree(const isl::set &C, const isl::set &On,
                                   const isl::set &Hull,
                                   const isl::set &Context);
  static isl::set workItemsOf(const isl::set &Tiles, const isl::set &WIDomain,
                              unsigned Dim, unsigned Width);
  /// The tiles with two active lanes (instances of \p Domain at equal
  /// counters) where \p Value differs; with a null Value, the tiles with
  /// two active lanes.
  static isl::set divergentValueTiles(const isl::pw_aff &Value,
                                      const isl::set &Domain, unsigned Dim,
                                      unsigned Width);
  /// The tiles where \p Offset - Size * x_d differs on two active lanes.
  static isl::set divergentOffsetTiles(const isl::pw_aff &Offset, long Size,
                                       const isl::set &Domain, unsigned Dim,
                                       unsigned Width);
  /// The tiles where one active lane is in \p Taken and another is not.
  static isl::set divergentConditionTiles(const isl::set &Taken,
                                          const isl::set &Domain, unsigned Dim,
                                          unsigned Width);

  /// invariantBoundsParams's isl part: the parameters of \p Context for
  /// which each of \p Bounds (over { Outer[o0, o1] }, defined on all of
  /// \p Outer) takes at every point of \p Outer its value at the origin.
  static isl::set invariantParams(llvm::ArrayRef<isl::pw_aff> Bounds,
                                  const isl::set &Outer,
                                  const isl::set &Context);

  /// wholeGroupParams's isl part: the parameters of \p Context for which
  /// \p Begin is 0 and \p End is \p L at every point of \p Outer.
  static isl::set wholeParams(const isl::pw_aff &Begin, const isl::pw_aff &End,
                              long L, const isl::set &Outer,
                              const isl::set &Context);

  /// The tile just before (\p Before) or after the interval \p RangeTiles
  /// of a range of whole tiles (over Tile), where it is not in \p Hot (the
  /// tiles of the vectorized ranges of uniform control) and its other
  /// neighbour is not in \p Hot either: a tile is the edge of one range at
  /// most (SplitPlan::edgeRanges).
  static isl::set edgeTiles(const isl::set &RangeTiles, const isl::set &Hot,
                            unsigned Dim, bool Before);
  /// The range's partial edge in the tiles \p Edge (from edgeTiles): their
  /// work-items that lie in \p Good together with every work-item between
  /// them and the range, over WI. Good matters within the tiles only.
  static isl::set edgeItems(const isl::set &Good, const isl::set &Edge,
                            const isl::set &WIDomain, unsigned Dim,
                            unsigned Width, bool Before);
  /// Where \p Edge (over WI, from edgeItems) starts (\p Before: its least
  /// x_d) or ends (its greatest x_d + 1), as { Outer[o0, o1] -> [x_d] }
  /// defined on all of \p Outer (a set over Outer): -1 where the edge is
  /// empty; simplified within \p Context (parameters only: contextFor's
  /// for the edge, whose parameters alone matter to the minimum).
  static isl::pw_aff edgeBound(const isl::set &Edge, const isl::set &Outer,
                               unsigned Dim, bool Before,
                               const isl::set &Context);
  /// The context without the parameters that none of \p Sets involves
  /// (memoized per choice of parameters).
  isl::set contextFor(llvm::ArrayRef<isl::set> Sets) const;
  /// { Outer[o0, o1] } of the region's work-items.
  isl::set outerIds() const;

  /// { S[p, k] -> S[t, k] : t in p's tile } on \p Space.
  static isl::map tileMap(const isl::space &Space, unsigned Dim,
                          unsigned Width);
  /// { WI : x_d's tile lies within WIDomain } (WIDomain a box).
  static isl::set fullTileSet(const isl::set &WIDomain, unsigned Dim,
                              unsigned Width);
  /// The work-item points of \p S: loop counters projected out.
  static isl::set toWorkItems(const isl::set &S, const isl::set &WIDomain);
  /// WIDomain without the tiles of the points of \p Bad (over any space).
  static isl::set goodTiles(const isl::set &Bad, const isl::set &WIDomain,
                            unsigned Dim, unsigned Width);
  /// The tiles where \p Value (defined on \p Domain) is the same on all
  /// active lanes at equal counters; with a null Value, the tiles with at
  /// most one active lane.
  static isl::set uniformValueTiles(const isl::pw_aff &Value,
                                    const isl::set &Domain,
                                    const isl::set &WIDomain, unsigned Dim,
                                    unsigned Width);
  /// The tiles where \p Offset - Size * x_d is the same on active lanes.
  static isl::set consecutiveTileSet(const isl::pw_aff &Offset, long Size,
                                     const isl::set &Domain,
                                     const isl::set &WIDomain, unsigned Dim,
                                     unsigned Width);
  /// The tiles where \p Taken (within Domain) holds on all active lanes or
  /// on none.
  static isl::set uniformConditionTiles(const isl::set &Taken,
                                        const isl::set &Domain,
                                        const isl::set &WIDomain, unsigned Dim,
                                        unsigned Width);
  /// Pointwise: the work-items p all of whose instances have
  /// Offset(p + v_d) = Offset(p) + Step.
  static isl::set pointSet(const isl::pw_aff &Offset, long Step,
                           const isl::set &Domain, const isl::set &WIDomain,
                           unsigned Dim);
  /// \p Good for every value of the parameters \p ForAll.
  static isl::set forAll(const isl::set &Good, const isl::set &WIDomain,
                         llvm::ArrayRef<isl::id> ForAll);
  /// The ranges of x_d that \p Pieces, disjoint unions of tiles of
  /// \p Width that cover WIDomain, cut it into, in order, simplified
  /// within \p Context; false (and \p Why) when the order of the pieces
  /// along x_d depends on the parameters, a piece is not a union of
  /// intervals, or there would be more than \p MaxRanges.
  static bool rangesOf(llvm::ArrayRef<isl::set> Pieces,
                       const isl::set &WIDomain, unsigned Dim, unsigned Width,
                       const isl::set &Context, unsigned MaxRanges,
                       std::vector<SplitRange> &Out, std::string &Why,
                       RangeCuts *Cuts = nullptr);
  /// The same with the pieces as sets of tiles. With \p Cuts, where every
  /// interval is a basic map without local dimensions, the ranges' Begin,
  /// End, BeginTile and EndTile are left null and \p Cuts says how to
  /// compute them (emitCuts); \p Cuts stays empty otherwise.
  static bool rangesOfTiles(llvm::ArrayRef<isl::set> Pieces,
                            const isl::set &WIDomain, unsigned Dim,
                            unsigned Width, const isl::set &Context,
                            unsigned MaxRanges, std::vector<SplitRange> &Out,
                            std::string &Why, RangeCuts *Cuts = nullptr);
  /// The bounds [Begin, End) in work-items of every range of \p Cuts, at the
  /// outer ids \p Outer, for a dimension of \p L work-items in tiles of
  /// \p Width: each interval's first tile is the greatest of its lower
  /// bounds rounded up, and it is present where its other constraints hold
  /// and that is at most the least of its upper bounds rounded down. False
  /// when \p E cannot emit a bound.
  static bool
  emitCuts(IslExprEmitter &E, llvm::IRBuilderBase &B, const RangeCuts &Cuts,
           llvm::ArrayRef<llvm::Value *> Outer, const isl::set &Context, long L,
           unsigned Width,
           llvm::SmallVectorImpl<std::pair<llvm::Value *, llvm::Value *>> &Out);

private:
  /// The ids of \p OuterIds other than the vectorized one, in order: the
  /// values of the set dimensions of a range's bounds.
  llvm::SmallVector<llvm::Value *, 2>
  outerValues(llvm::Value *const OuterIds[3]) const {
    llvm::SmallVector<llvm::Value *, 2> Outer;
    for (unsigned D = 0; D < 3; ++D)
      if (D != Dim)
        Outer.push_back(OuterIds[D]);
    return Outer;
  }
  /// uniformAcross, where \p Where is range \p Range's set (-1: none).
  bool uniformAcross(unsigned Branch, const isl::set &Where, int Range) const;
  void compute();
  isl::set withoutOpaque(isl::set Bad) const;
  isl::set goodTiles(isl::set Bad) const;
  void accessPredicates(const isl::set &FullT);
  isl::set branchPredicates();
  std::vector<isl::set> cellPieces(const isl::set &FullT,
                                   const isl::set &ControlT);
  bool involvesVarying(const isl::set &S) const;
  bool involvesVarying(const isl::pw_aff &PA) const;
  /// Whether \p S is empty for the parameters in the context.
  isl::boolean emptyInContext(const isl::set &S) const;
  /// \p Domain with the opaque parameters that vary along d projected out.
  isl::set domainView(const isl::set &Domain) const;
  bool affineAccess(unsigned Access) const;
  bool affineBranch(unsigned Branch) const;

  /// \p T (over Tile) as work-items of the region.
  isl::set toWorkItems(const isl::set &T) const;

  const WorkItemModel &M;
  const RegionModel &R;
  unsigned Dim, Width, MaxRanges;
  llvm::SmallVector<isl::id, 4> Opaque, Varying;
  /// M.predicateContext(), once, and projected for contextFor.
  isl::set Context;
  mutable std::vector<std::pair<llvm::SmallVector<bool, 32>, isl::set>>
      Contexts;
  isl::set Full;
  /// Over Tile: the region's tiles, and the sets below before they are
  /// turned into work-items (lazily, in the mutable members after them).
  isl::set Tiles, UniformControlT, ICT;
  std::vector<isl::set> ConsT, UniT, BranchUniT;
  /// Per access, the tiles (over Tile) with a witness that it is not
  /// consecutive (uniform): ConsT = Tiles - NotConsT, UniT likewise.
  std::vector<isl::set> NotConsT, NotUniT;
  mutable isl::set UniformControl, IC;
  mutable std::vector<isl::set> Cons, Uni, BranchUni;
  std::vector<bool> EverCons;
  /// Per access, the first access whose sets it shares (itself if none):
  /// the same domain and kind, and for an affine one the same size and an
  /// offset that differs by parameters alone (differByParams).
  std::vector<unsigned> Rep;
  std::vector<SplitPiece> Pieces;
  /// Memos of rangeSetAt, takenOnRange/takenOnAll (-2: not yet known) and
  /// classifyRange (-1: not yet known).
  mutable std::vector<isl::set> RangeSets;
  /// Per branch and successor, the instances outside the successor with
  /// x_d = w * t + lane (takenOnTiles), once.
  mutable std::vector<std::vector<isl::set>> Outside;
  /// Memos of invariantBoundsParams and wholeGroupParams.
  mutable isl::set InvariantBounds;
  mutable std::vector<isl::set> WholeGroup;
  mutable std::vector<int> Taken;
  mutable std::vector<int> Classes;
  /// uniformAcross on each branch and range (-1: not yet known), kept
  /// only when isl computed it without an error: an answer cut short by
  /// one caller's quota is not another's.
  mutable std::vector<int> Across;
  /// uniformCondition on a range, per (branch, range, successor), kept as
  /// Across is.
  mutable llvm::DenseMap<unsigned, isl::set> LaneFree;
  std::vector<SplitRange> Ranges;
  /// Where not empty, how Ranges' bounds are computed (they are null);
  /// the tile sets they were made from, and, for printing, the same ranges
  /// with their bounds (lazily).
  RangeCuts Cuts;
  std::vector<isl::set> RangeTileSets;
  mutable std::vector<SplitRange> PrintedRanges;
  mutable bool PrintedRangesMade = false;
  std::string Refusal;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_SPLITTINGPREDICATES_H
