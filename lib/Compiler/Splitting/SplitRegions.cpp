//===- SplitRegions.cpp - Input space splitting of the parallel regions ---===//
// SPDX-License-Identifier: MIT
//
// iss-split (see Passes.h): the work-group function as iss-wi-loops builds
// it (WorkGroup/WorkGroupBuilder.h), but a region that the split plan of
// its barrier (RegionSplitter.h, from the kernel's WorkItemModel) cuts
// into ranges along the vectorized dimension runs one loop per range, each
// with its own copy of the region specialised for it (the
// input-space-splitting paper, sections 3 and 4): a range of whole tiles
// as vector code, with its kernel loops run horizontally where they are
// in lock-step; the partial tiles beside a range of uniform control as
// masked vector code (its edges); the rest as written. Where the plan's
// assumptions on the parameters fail for a work group, the region runs
// unsplit. POCL_ISS_STATS counts the work-items of each piece.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "CompilerInternal.h"
#include "RegionSplitter.h"
#include "SplitPlan.h"
#include "WorkGroup/WorkGroupBuilder.h"
#include "WorkItemModel.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "iss-split"

namespace iss {

namespace {

/// The work-group builder that splits the regions its planner has a plan
/// for.
class SplitBuilder : public WorkGroupBuilder {
public:
  SplitBuilder(Module &M, Function &Kernel, const WorkGroupConfig &C,
               ModuleAnalysisManager &MAM, SplitPlanner PlanFor)
      : WorkGroupBuilder(M, Kernel, C, MAM), PlanFor(std::move(PlanFor)) {
    Splits = true;
  }

private:
  bool emitSplit(const Region &R, BasicBlock *Start) override {
    std::unique_ptr<SplitPlan> Plan = PlanFor(R.Barrier);
    return Plan && emitSplitRegion(R, Start, *Plan);
  }
  bool emitSplitRegion(const Region &R, BasicBlock *Start, SplitPlan &Plan);
  void emitScalarFallback(const Region &R, BasicBlock *Start, BasicBlock *Plain,
                          BasicBlock *After);
  BasicBlock *
  joinWholeGroups(BasicBlock *Start, BasicBlock *General,
                  ArrayRef<std::pair<BasicBlock *, unsigned>> Wholes,
                  SplitPlan &Plan,
                  MutableArrayRef<std::pair<Value *, Value *>> Once,
                  Value *&Same, Value *&EdgesOn);
  void emitRangeClass(const Region &R, BasicBlock *Start, SplitPlan &Plan,
                      function_ref<Value *(Value *)> MapKernelValue,
                      SmallVectorImpl<unsigned> &RangeCounters,
                      ArrayRef<unsigned> Ranges, Nest &N, BasicBlock *Cur,
                      ArrayRef<std::pair<Value *, Value *>> Bounds);
  Value *assumptionsHold(SplitPlan &Plan,
                         function_ref<Value *(Value *)> MapKernelValue);
  /// The loop of one range [\p Begin, \p End) of the vectorized id, from
  /// \p Pre to \p After: over whole tiles (\p WholeTiles), a loop over
  /// the tiles around a loop of w work-items; otherwise a plain scalar
  /// loop. Sets the vectorized id in \p Ids, and in \p Body and
  /// \p BodyEnd the blocks where the region's copy goes; the loops join
  /// \p Loops, their blocks \p Blocks.
  LoopRec buildRangeLoop(BasicBlock *Pre, BasicBlock *After, Value *Begin,
                         Value *End, bool WholeTiles, Value *Ids[3],
                         BasicBlock *&Body, BasicBlock *&BodyEnd,
                         SmallVectorImpl<LoopRec> &Loops,
                         SmallVectorImpl<BasicBlock *> &Blocks);
  /// Horizontal parallelization inside a range: the copy of a region
  /// that runs whole tiles, from \p Body to \p BodyEnd at
  /// N.Blocks[CopyBegin...], becomes a tile function whose regions replace
  /// the tile's loop of w lanes (\p X = tile base + lane); with
  /// \p MaskedLanes its stores are guarded by the lane (an edge).
  void runTileInside(Nest &N, size_t CopyBegin, BasicBlock *Body,
                     BasicBlock *BodyEnd, Value *X, bool MaskedLanes = false);
  /// The edges of a split region (SplitPlan::edgeRanges), from \p Pre to
  /// \p After where \p On holds: per outer ids, over the partial tiles
  /// beside each range that has one, its edges' work-items run as vector
  /// code with masks by a copy of the range's class (specialised alike),
  /// the others scalar by the region as written. \p Once holds the
  /// ranges' bounds where they are the same in every row (empty: computed
  /// per row).
  void emitEdgeTiles(const Region &R, BasicBlock *Start, BasicBlock *Pre,
                     BasicBlock *After, SplitPlan &Plan, Value *On,
                     ArrayRef<std::pair<Value *, Value *>> Once,
                     ArrayRef<SmallVector<unsigned, 4>> Classes,
                     function_ref<Value *(Value *)> MapKernelValue);
  /// The loop over tiles t in [\p First, \p End), entered from \p Pre
  /// where that is not empty and left to \p After, around the loop over
  /// the w lanes of each, whose body goes from \p Body to \p BodyEnd:
  /// \p Tile gives, in the tiles' header, a tile's base and whether it
  /// runs (null: always). Pushes both loops on \p Loops, their blocks
  /// named after \p Name on \p Blocks, and returns the vectorized id,
  /// base + lane.
  Value *buildTileLoops(
      BasicBlock *Pre, BasicBlock *After, Value *First, Value *End,
      const Twine &Name, BasicBlock *Body, BasicBlock *BodyEnd,
      function_ref<std::pair<Value *, Value *>(IRBuilderBase &, Value *)> Tile,
      SmallVectorImpl<LoopRec> &Loops, SmallVectorImpl<BasicBlock *> &Blocks);
  /// Makes the copy of a region that is \p Blocks from \p CopyBegin on,
  /// whose vectorized id is \p X = \p Base + lane, run on the lanes
  /// [\p Lo, \p Hi) only though every lane of the tile enters it: the
  /// others take lane Lo's id, so that they compute what it does (no
  /// access out of its bounds, no trap), and skip what it writes to memory
  /// not their own. The blocks the guards make join \p Blocks.
  void guardLanes(SmallVectorImpl<BasicBlock *> &Blocks, size_t CopyBegin,
                  Value *X, Value *Base, Value *Lo, Value *Hi);

  /// The split of each region.
  SplitPlanner PlanFor;
  /// Whether the model's assumptions hold for this work group (once
  /// checked: assumptionsHold), null where they cannot be checked.
  bool AssumptionsChecked = false;
  Value *Assumptions = nullptr;
};

} // namespace

/// Whether the model's assumptions hold for the work group, checked once,
/// in a block after the entry: they depend on the work-group values (and,
/// per work-item ones, on the local ids) alone, and a region in a barrier
/// loop would check them again at every iteration. Null when they cannot
/// be checked: then no region is split.
Value *
SplitBuilder::assumptionsHold(SplitPlan &Plan,
                              function_ref<Value *(Value *)> MapKernelValue) {
  if (AssumptionsChecked)
    return Assumptions;
  AssumptionsChecked = true;
  auto *Enter = cast<BranchInst>(WG->getEntryBlock().getTerminator());
  BasicBlock *Next = Enter->getSuccessor(0);
  BasicBlock *Check = BasicBlock::Create(Ctx, "iss.assume", WG, Next);
  IRBuilder<> B(Check);
  Assumptions = Plan.emitAssumptionCheck(B, MapKernelValue);
  if (!Assumptions) {
    Check->dropAllReferences();
    Check->eraseFromParent();
    return nullptr;
  }
  B.CreateBr(Next);
  Enter->setSuccessor(0, Check);
  return Assumptions;
}

/// The loops of the ranges \p Ranges (a class of \p Plan) of region \p R
/// (begun at \p Start) within nest \p N, from \p Cur, the bounds of each
/// in \p Bounds, and their copy of the body; \p RangeCounters holds each
/// range's POCL_ISS_STATS counter, ~0u before its first.
void SplitBuilder::emitRangeClass(
    const Region &R, BasicBlock *Start, SplitPlan &Plan,
    function_ref<Value *(Value *)> MapKernelValue,
    SmallVectorImpl<unsigned> &RangeCounters, ArrayRef<unsigned> Ranges,
    Nest &N, BasicBlock *Cur, ArrayRef<std::pair<Value *, Value *>> Bounds) {
  unsigned D = Config.vectorizedDim();
  ArrayRef<unsigned> RangePieces = Plan.rangePieces();
  Value *Ids[3] = {N.Ids[0], N.Ids[1], N.Ids[2]};
  BasicBlock *Body, *BodyEnd;
  const SplitPieceInfo &Info = Plan.pieces()[RangePieces[Ranges.front()]];
  // Counted once per outer ids as the ranges are entered, outside the
  // loops the vectorizer works on.
  if (countsPieces())
    for (unsigned K = 0; K < Ranges.size(); ++K) {
      IRBuilder<> CB(Cur);
      auto [Begin, End] = Bounds[K];
      Value *Top = CB.CreateBinaryIntrinsic(Intrinsic::umax, End, Begin);
      unsigned &Counter = RangeCounters[Ranges[K]];
      Counter =
          countWorkItems(CB, CB.CreateSub(Top, Begin), Start,
                         Plan.pieces()[RangePieces[Ranges[K]]].Name, Counter);
    }
  BasicBlock *From = Cur, *To = N.BodyEnd;
  auto [Begin, End] = Bounds.front();
  if (Ranges.size() > 1) {
    // A loop over the class's ranges, kept a loop: unrolled, it would
    // make the copies again.
    BasicBlock *Header = BasicBlock::Create(Ctx, "wi.ranges", WG, WGExit);
    BasicBlock *Latch = BasicBlock::Create(Ctx, "wi.ranges.latch", WG, WGExit);
    N.Blocks.push_back(Header);
    N.Blocks.push_back(Latch);
    BranchInst::Create(Header, Cur);
    IRBuilder<> KB(Header);
    PHINode *K = KB.CreatePHI(KB.getInt32Ty(), 2, "wi.range.index");
    K->addIncoming(KB.getInt32(0), Cur);
    std::tie(Begin, End) = Bounds.back();
    for (unsigned J = Ranges.size() - 1; J-- > 0;) {
      Value *IsJ = KB.CreateICmpEQ(K, KB.getInt32(J));
      Begin = KB.CreateSelect(IsJ, Bounds[J].first, Begin);
      End = KB.CreateSelect(IsJ, Bounds[J].second, End);
    }
    IRBuilder<> LB(Latch);
    Value *Next = LB.CreateAdd(K, LB.getInt32(1), "wi.range.next", true, true);
    K->addIncoming(Next, Latch);
    auto *Br = LB.CreateCondBr(
        LB.CreateICmpULT(Next, LB.getInt32(Ranges.size())), Header, N.BodyEnd);
    Br->setMetadata(
        LLVMContext::MD_loop,
        makeLoopID(Ctx, {loopHint(Ctx, "llvm.loop.unroll.disable")}));
    From = Header;
    To = Latch;
  }
  buildRangeLoop(From, To, Begin, End, Info.WholeTiles, Ids, Body, BodyEnd,
                 N.Loops, N.Blocks);
  ValueToValueMapTy VMap;
  size_t CopyBegin = N.Blocks.size();
  cloneRegion(
      R, Ids, [&](BasicBlock *) { return BodyEnd; }, Body, N.Blocks, &VMap);
  bool Horizontal = Plan.specialize(Ranges, VMap, Ids, MapKernelValue) &&
                    Info.WholeTiles && Config.Horizontal;
  if (Horizontal)
    runTileInside(N, CopyBegin, Body, BodyEnd, Ids[D]);
  for (unsigned I : Ranges)
    if (RangeCounters[I] != ~0u) {
      PieceCounter &PC = PieceCounters[RangeCounters[I]];
      PC.WholeTiles = Info.WholeTiles;
      PC.Properties = Plan.describe(I);
      PC.Horizontal = Horizontal;
    }
  markParallel(N);
}

/// Region \p R (begun at \p Start) unsplit, from \p Plain to \p After,
/// for the work groups where the split plan's assumptions fail: only
/// those whose offsets come within a group of the int range run it, so
/// it is kept scalar and cold, and costs little to compile.
void SplitBuilder::emitScalarFallback(const Region &R, BasicBlock *Start,
                                      BasicBlock *Plain, BasicBlock *After) {
  Nest N = buildNest(Plain, After, false);
  cloneRegion(
      R, N.Ids, [&](BasicBlock *) { return N.BodyEnd; }, N.Body, N.Blocks);
  if (!N.Loops.empty())
    N.Loops.back().Role = LoopRec::Scalar;
  markParallel(N);
  ColdParts.push_back({Plain, After});
  if (countsPieces()) {
    IRBuilder<> PB(Plain->getTerminator());
    countWorkItems(PB, PB.getInt64(Config.workItems()), Start, "fallback");
  }
}

/// The work groups that one range covers whole, entered at the blocks
/// of \p Wholes (each with its range), join the others at a block after
/// \p General, with their bounds known: the bounds \p Once, whether
/// they are the same in every row (\p Same) and whether the group may have
/// edges (\p EdgesOn) become phis there. Returns the block.
BasicBlock *SplitBuilder::joinWholeGroups(
    BasicBlock *Start, BasicBlock *General,
    ArrayRef<std::pair<BasicBlock *, unsigned>> Wholes, SplitPlan &Plan,
    MutableArrayRef<std::pair<Value *, Value *>> Once, Value *&Same,
    Value *&EdgesOn) {
  unsigned D = Config.vectorizedDim();
  BasicBlock *Join =
      BasicBlock::Create(Ctx, Start->getName() + ".join", WG, WGExit);
  BranchInst::Create(Join, General);
  IRBuilder<> JB(Join);
  auto Phi = [&](Value *InGeneral, function_ref<Value *(unsigned)> InWhole,
                 const Twine &Name) -> Value * {
    if (all_of(Wholes, [&](auto &W) { return InWhole(W.second) == InGeneral; }))
      return InGeneral;
    PHINode *P = JB.CreatePHI(InGeneral->getType(), Wholes.size() + 1, Name);
    P->addIncoming(InGeneral, General);
    for (auto [Whole, Range] : Wholes)
      P->addIncoming(InWhole(Range), Whole);
    return P;
  };
  for (auto [Whole, Range] : Wholes)
    BranchInst::Create(Join, Whole);
  for (unsigned I = 0; I < Once.size(); ++I) {
    Once[I].first = Phi(
        Once[I].first, [&](unsigned) { return JB.getInt64(0); },
        "wi.begin" + Twine(I));
    Once[I].second = Phi(
        Once[I].second,
        [&](unsigned Range) {
          return JB.getInt64(Range == I ? Config.LocalSize[D] : 0);
        },
        "wi.end" + Twine(I));
  }
  if (auto *C = dyn_cast<ConstantInt>(Same); !C || !C->isOne())
    Same = Phi(
        Same, [&](unsigned) { return JB.getTrue(); }, "wi.same");
  if (!Plan.edgeRanges().empty())
    EdgesOn = Phi(
        EdgesOn, [&](unsigned) { return JB.getFalse(); }, "wi.edges");
  return Join;
}

/// A region split by \p Plan: the outer work-item loops as usual, and
/// inside them, instead of one loop over the vectorized id, one loop per
/// range of the plan, each with its own specialised copy of the region.
/// Where the plan's assumptions on the parameters fail for a work group,
/// the region runs unsplit.
bool SplitBuilder::emitSplitRegion(const Region &R, BasicBlock *Start,
                                   SplitPlan &Plan) {
  unsigned D = Config.vectorizedDim();
  ArrayRef<unsigned> RangePieces = Plan.rangePieces();
  if (Config.LocalSize[D] <= 1 || RangePieces.empty())
    return false;
  auto MapKernelValue = [&](Value *V) -> Value * {
    for (auto &[Old, New] : Common)
      if (Old == V)
        return New;
    return GroupValues.lookup(V);
  };
  IRBuilder<> SB(Start);
  Value *Holds = assumptionsHold(Plan, MapKernelValue);
  if (!Holds)
    return false;
  BasicBlock *After = regionStart(R.Exits.front());
  BasicBlock *SplitStart = Start;
  bool HasOuter = any_of(Config.loopOrder(), [&](unsigned Dim) {
    return Dim != D && Config.LocalSize[Dim] > 1;
  });
  bool WholeCopies =
      HasOuter && Config.LocalSize[D] <= 2 * uint64_t(Config.VectorWidth);
  // Where a range's copy is the region as written (a scalar loop, nothing
  // folded or recomputed: SobelFilter's partial tiles), the groups whose
  // assumptions fail run every work-item through it, joining the ranges
  // as a group that lies in that range does, and need no copy of their
  // own (a sixth of SobelFilter's O3 and code generation). Not where
  // whole groups get copies of their own, nor with POCL_ISS_STATS, which
  // counts these groups apart.
  int Written = WholeCopies || countsPieces() ? -1 : Plan.unspecializedRange();
  BasicBlock *Fallback = nullptr; // joins the ranges as range Written
  if (!isa<ConstantInt>(Holds)) {
    SplitStart =
        BasicBlock::Create(Ctx, Start->getName() + ".split", WG, WGExit);
    BasicBlock *Plain = BasicBlock::Create(
        Ctx, Start->getName() + (Written >= 0 ? ".written" : ".plain"), WG,
        WGExit);
    SB.CreateCondBr(Holds, SplitStart, Plain);
    if (Written >= 0) {
      Fallback = Plain;
    } else {
      emitScalarFallback(R, Start, Plain, After);
    }
  }
  // Each class of ranges (SplitPlan::copyClasses: those whose copies are
  // the same code) runs as its own nest of outer loops around a loop over
  // its ranges and, in it, the range's loop of the vectorized id, with one
  // copy of the body: the work-items of a region may run in any order, and
  // a class costs its rows nothing where its ranges are empty.
  //  - A work group that lies in one range (Figure 2's interior groups) is
  //    tested first and enters the nests with that range's bounds [0, L_d)
  //    and every other range empty, no bound computed. Where its rows hold
  //    two tiles at most (2DCONV's 32x8 groups, Fan2's 16x16 at 16 lanes),
  //    what a nest costs a row (the branch and phis of the bounds, the
  //    tiles' division) is a share of the work: there it runs a copy of
  //    that range of its own, with constant bounds.
  //  - Where the bounds are the same in every row of the group (its rows
  //    are all interior, or the guard is on the vectorized id alone), they
  //    are computed once, at outer ids 0, and a class empty there is
  //    skipped as a whole.
  //  - The rows of other groups compute their own.
  SmallVector<std::pair<unsigned, Value *>, 2> Tests;
  IRBuilder<> TB(SplitStart);
  Plan.emitWholeGroupTests(TB, MapKernelValue, Tests);
  SmallVector<std::pair<BasicBlock *, unsigned>, 2> Wholes;
  BasicBlock *General = SplitStart;
  for (auto [Range, Test] : Tests) {
    BasicBlock *Whole = BasicBlock::Create(
        Ctx, "wi.range" + Twine(Range) + ".whole", WG, WGExit);
    BasicBlock *Else =
        BasicBlock::Create(Ctx, Start->getName() + ".ranges", WG, WGExit);
    BranchInst::Create(Whole, Else, Test, General);
    Wholes.push_back({Whole, Range});
    General = Else;
  }
  if (Fallback)
    Wholes.push_back({Fallback, unsigned(Written)});
  IRBuilder<> HB(General);
  Instruction *Before = General->empty() ? nullptr : &General->back();
  Value *Same =
      HasOuter ? Plan.emitBoundsInvariant(HB, MapKernelValue) : HB.getTrue();
  if (!Same)
    Same = HB.getFalse();
  Value *Origin[3] = {HB.getInt64(0), HB.getInt64(0), HB.getInt64(0)};
  SmallVector<std::pair<Value *, Value *>, 8> Once;
  if (!Plan.emitBounds(HB, Origin, MapKernelValue, Once)) {
    // One plain loop over all the work-items, as if unsplit.
    while (!General->empty() && &General->back() != Before)
      General->back().eraseFromParent();
    for (auto [Whole, Range] : Wholes)
      BranchInst::Create(General, Whole);
    Nest N = buildNest(General, After, false, /*OuterOnly=*/true);
    IRBuilder<> B(N.Body);
    Value *Ids[3] = {N.Ids[0], N.Ids[1], N.Ids[2]};
    BasicBlock *Body, *BodyEnd;
    if (countsPieces())
      countWorkItems(B, B.getInt64(Config.LocalSize[D]), Start, "unsplit");
    buildRangeLoop(N.Body, N.BodyEnd, B.getInt64(0),
                   B.getInt64(Config.LocalSize[D]), false, Ids, Body, BodyEnd,
                   N.Loops, N.Blocks);
    N.Loops.back().Role = LoopRec::Innermost;
    cloneRegion(
        R, Ids, [&](BasicBlock *) { return BodyEnd; }, Body, N.Blocks);
    markParallel(N);
    return true;
  }
  assert(Once.size() == RangePieces.size() && "a bound per range");
  // Whether the group may have edges (SplitPlan::edgeRanges): not one that
  // a range covers whole.
  Value *EdgesOn = HB.getTrue();
  if (!Wholes.empty() && !WholeCopies)
    General =
        joinWholeGroups(Start, General, Wholes, Plan, Once, Same, EdgesOn);
  SmallVector<SmallVector<unsigned, 4>, 8> Classes;
  Plan.copyClasses(Classes);
  SmallVector<unsigned, 8> RangeCounters(RangePieces.size(), ~0u);
  auto *Known = dyn_cast<ConstantInt>(Same);
  BasicBlock *Pre = General;
  BasicBlock *Edges =
      Plan.edgeRanges().empty()
          ? After
          : BasicBlock::Create(Ctx, Start->getName() + ".edges", WG, WGExit);
  for (unsigned C = 0; C < Classes.size(); ++C) {
    ArrayRef<unsigned> Ranges = Classes[C];
    unsigned First = Ranges.front();
    BasicBlock *Next =
        C + 1 < Classes.size()
            ? BasicBlock::Create(
                  Ctx, "wi.range" + Twine(Classes[C + 1].front()), WG, WGExit)
            : Edges;
    BasicBlock *Rows = Pre;
    if (HasOuter && !(Known && Known->isZero())) {
      Rows = BasicBlock::Create(Ctx, "wi.range" + Twine(First) + ".rows", WG,
                                WGExit);
      IRBuilder<> PB(Pre);
      Value *Empty = nullptr;
      for (unsigned I : Ranges) {
        Value *E = PB.CreateICmpUGE(Once[I].first, Once[I].second);
        Empty = Empty ? PB.CreateAnd(Empty, E) : E;
      }
      if (!Known)
        Empty = PB.CreateAnd(Same, Empty);
      PB.CreateCondBr(Empty, Next, Rows);
    }
    Nest N = buildNest(Rows, Next, false, /*OuterOnly=*/true);
    SmallVector<std::pair<Value *, Value *>, 4> Bounds;
    for (unsigned I : Ranges)
      Bounds.push_back(Once[I]);
    BasicBlock *Cur = N.Body;
    if (!Known || Known->isZero()) {
      BasicBlock *RowBounds = N.Body;
      if (!Known)
        RowBounds = BasicBlock::Create(Ctx, "wi.bounds", WG, WGExit);
      IRBuilder<> RB(RowBounds);
      SmallVector<std::pair<Value *, Value *>, 4> InRow(Ranges.size());
      for (unsigned K = 0; K < Ranges.size(); ++K) {
        [[maybe_unused]] bool Emitted = Plan.emitRangeBounds(
            RB, N.Ids, MapKernelValue, Ranges[K], InRow[K]);
        assert(Emitted && "a bound emitted once is emitted per row");
      }
      if (Known) {
        Bounds = InRow;
      } else {
        // Per row only where the group's rows may differ.
        Cur = BasicBlock::Create(Ctx, "wi.bounds.done", WG, WGExit);
        BranchInst::Create(Cur, RowBounds);
        BranchInst::Create(Cur, RowBounds, Same, N.Body);
        IRBuilder<> JB(Cur);
        auto Merge = [&](Value *InGroup, Value *PerRow) -> Value * {
          if (InGroup == PerRow)
            return InGroup;
          PHINode *P = JB.CreatePHI(PerRow->getType(), 2, "wi.bound");
          P->addIncoming(InGroup, N.Body);
          P->addIncoming(PerRow, RowBounds);
          return P;
        };
        for (unsigned K = 0; K < Ranges.size(); ++K)
          Bounds[K] = {Merge(Bounds[K].first, InRow[K].first),
                       Merge(Bounds[K].second, InRow[K].second)};
        N.Blocks.push_back(RowBounds);
        N.Blocks.push_back(Cur);
      }
    }
    emitRangeClass(R, Start, Plan, MapKernelValue, RangeCounters, Ranges, N,
                   Cur, Bounds);
    Pre = Next;
  }
  if (Edges != After)
    emitEdgeTiles(R, Start, Edges, After, Plan, EdgesOn,
                  Known && Known->isOne()
                      ? ArrayRef(Once)
                      : ArrayRef<std::pair<Value *, Value *>>(),
                  Classes, MapKernelValue);
  if (WholeCopies)
    for (auto [Whole, Range] : Wholes) {
      Nest N = buildNest(Whole, After, false, /*OuterOnly=*/true);
      IRBuilder<> WB(N.Body);
      std::pair<Value *, Value *> Bound = {WB.getInt64(0),
                                           WB.getInt64(Config.LocalSize[D])};
      emitRangeClass(R, Start, Plan, MapKernelValue, RangeCounters, {Range}, N,
                     N.Body, Bound);
    }
  return true;
}

void SplitBuilder::emitEdgeTiles(
    const Region &R, BasicBlock *Start, BasicBlock *Pre, BasicBlock *After,
    SplitPlan &Plan, Value *On, ArrayRef<std::pair<Value *, Value *>> Once,
    ArrayRef<SmallVector<unsigned, 4>> Classes,
    function_ref<Value *(Value *)> MapKernelValue) {
  unsigned D = Config.vectorizedDim();
  uint64_t W = Config.VectorWidth;
  Type *I64 = Type::getInt64Ty(Ctx);
  ArrayRef<unsigned> Ranges = Plan.edgeRanges();
  // Where the bounds are the same in every row, so are the edges: both
  // once per group, at outer ids 0.
  SmallVector<std::pair<Value *, Value *>, 2> GroupEdges(Ranges.size());
  bool GroupOk = true;
  if (!Once.empty()) {
    IRBuilder<> GB(Pre);
    Value *Origin[3] = {GB.getInt64(0), GB.getInt64(0), GB.getInt64(0)};
    for (auto [K, H] : enumerate(Ranges))
      GroupOk = GroupOk && Plan.emitEdges(GB, Origin, MapKernelValue, H,
                                          Once[H], GroupEdges[K]);
  }
  BasicBlock *Rows =
      BasicBlock::Create(Ctx, Start->getName() + ".edge.rows", WG, WGExit);
  if (auto *C = dyn_cast<ConstantInt>(On); C && C->isOne())
    BranchInst::Create(Rows, Pre);
  else
    BranchInst::Create(Rows, After, On, Pre);
  Nest N = buildNest(Rows, After, false, /*OuterOnly=*/true);
  auto NewBlock = [&](const Twine &Name) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name, WG, WGExit);
    N.Blocks.push_back(BB);
    return BB;
  };
  IRBuilder<> B(N.Body);
  Value *WV = B.getInt64(W);
  Value *Zero = B.getInt64(0);
  // Per range, its two edge tiles (before and after it, to L_d): the
  // tile's base, its lanes [Lo, Hi) in the edge, whether it has one; and
  // the intervals of the tiles' other work-items, (first id, count).
  struct EdgeTile {
    Value *Base, *Lo, *Hi, *Present;
  };
  SmallVector<EdgeTile, 4> Tiles;
  SmallVector<std::pair<Value *, Value *>, 4> Others;
  // POCL_ISS_STATS: per range, the counter of its edges' work-items.
  SmallVector<unsigned, 2> Counters(Ranges.size(), ~0u);
  for (auto [K, H] : enumerate(Ranges)) {
    std::pair<Value *, Value *> Bound, Edge;
    bool Ok = true;
    if (!Once.empty()) {
      Bound = Once[H];
      Edge = GroupEdges[K];
      Ok = GroupOk;
    } else {
      [[maybe_unused]] bool Emitted =
          Plan.emitRangeBounds(B, N.Ids, MapKernelValue, H, Bound);
      assert(Emitted && "a bound emitted once is emitted per row");
      Ok = Plan.emitEdges(B, N.Ids, MapKernelValue, H, Bound, Edge);
    }
    // The expressions emitBounds cut the neighbours with: emitted there,
    // they are here. Without them no tile would be an edge's.
    if (!Ok)
      Edge = Bound;
    auto [Begin, End] = Bound;
    Value *Left = B.CreateICmpULT(Edge.first, Begin);
    Value *Right = B.CreateICmpUGT(Edge.second, End);
    Value *LeftBase = B.CreateSub(Begin, WV, "wi.edge.left");
    Value *RightLanes = B.CreateBinaryIntrinsic(
        Intrinsic::umin, WV, B.CreateSub(B.getInt64(Config.LocalSize[D]), End));
    Value *InLeft = B.CreateSelect(Left, B.CreateSub(Begin, Edge.first), Zero);
    Value *InRight = B.CreateSelect(Right, B.CreateSub(Edge.second, End), Zero);
    Tiles.push_back({LeftBase, B.CreateSub(Edge.first, LeftBase), WV, Left});
    Tiles.push_back({End, Zero, InRight, Right});
    Others.push_back(
        {LeftBase, B.CreateSelect(Left, B.CreateSub(WV, InLeft), Zero)});
    Others.push_back(
        {Edge.second,
         B.CreateSelect(Right, B.CreateSub(RightLanes, InRight), Zero)});
    if (countsPieces()) {
      Counters[K] = countWorkItems(B, B.CreateAdd(InLeft, InRight), Start,
                                   Plan.pieces()[Plan.rangePieces()[H]].Name);
      PieceCounters[Counters[K]].Masked = true;
    }
  }
  // The i-th of \p Values (a loop's index \p I, i64) at \p IB.
  auto Pick = [](IRBuilderBase &IB, Value *I, ArrayRef<Value *> Values) {
    Value *V = Values.back();
    for (unsigned J = Values.size() - 1; J-- > 0;)
      V = IB.CreateSelect(IB.CreateICmpEQ(I, IB.getInt64(J)), Values[J], V);
    return V;
  };

  // Per class, one copy over the edge tiles of its ranges, specialised as
  // its vector copy is: all w lanes, those outside [Lo, Hi) on lane Lo's
  // id with their stores skipped (guardLanes): one vector iteration with
  // masks per tile.
  BasicBlock *Cur = N.Body;
  for (const SmallVector<unsigned, 4> &Class : Classes) {
    SmallVector<unsigned, 4> Own; // indices into Tiles
    for (auto [K, H] : enumerate(Ranges))
      if (is_contained(Class, H))
        Own.append({unsigned(2 * K), unsigned(2 * K + 1)});
    if (Own.empty())
      continue;
    std::string Name = "wi.edge" + std::to_string(Class.front());
    BasicBlock *Body = NewBlock(Name + ".body");
    BasicBlock *BodyEnd = NewBlock(Name + ".body.end");
    BasicBlock *Next = NewBlock(Name + ".done");
    Value *Base, *Lo, *Hi;
    Value *X = buildTileLoops(
        Cur, Next, Zero, B.getInt64(Own.size()), Name, Body, BodyEnd,
        [&](IRBuilderBase &TB, Value *T) -> std::pair<Value *, Value *> {
          auto Field = [&](Value *EdgeTile::*F) {
            SmallVector<Value *, 4> Values;
            for (unsigned I : Own)
              Values.push_back(Tiles[I].*F);
            return Pick(TB, T, Values);
          };
          Base = Field(&EdgeTile::Base);
          Lo = Field(&EdgeTile::Lo);
          Hi = Field(&EdgeTile::Hi);
          return {Base, Field(&EdgeTile::Present)};
        },
        N.Loops, N.Blocks);
    N.Loops.back().Masked = true;
    Value *Ids[3] = {N.Ids[0], N.Ids[1], N.Ids[2]};
    Ids[D] = X;
    ValueToValueMapTy VMap;
    size_t CopyBegin = N.Blocks.size();
    cloneRegion(
        R, Ids, [&](BasicBlock *) { return BodyEnd; }, Body, N.Blocks, &VMap);
    bool Horizontal =
        Plan.specialize(Class, VMap, Ids, MapKernelValue) && Config.Horizontal;
    guardLanes(N.Blocks, CopyBegin, X, Base, Lo, Hi);
    if (Horizontal)
      runTileInside(N, CopyBegin, Body, BodyEnd, X, /*MaskedLanes=*/true);
    for (auto [K, H] : enumerate(Ranges))
      if (Counters[K] != ~0u && is_contained(Class, H)) {
        PieceCounter &PC = PieceCounters[Counters[K]];
        PC.Horizontal = Horizontal;
        PC.Properties = Plan.describe(H);
      }
    Cur = Next;
  }

  // The tiles' other work-items, the region as written, in one loop
  // compiled for size (outlineColdParts): a few per row of the border
  // groups.
  IRBuilder<> CB(Cur);
  SmallVector<Value *, 4> Firsts, Sums;
  Value *Count = Zero;
  for (auto [First, Size] : Others) {
    Firsts.push_back(First);
    Sums.push_back(Count);
    Count = CB.CreateAdd(Count, Size);
  }
  if (countsPieces())
    countWorkItems(CB, Count, Start, "beside an edge, as written");
  BasicBlock *Written = NewBlock("wi.edges.written");
  BasicBlock *Lanes = NewBlock("wi.edges.written.lanes");
  BasicBlock *WrittenBody = NewBlock("wi.edges.written.body");
  BasicBlock *Latch = NewBlock("wi.edges.written.latch");
  BasicBlock *Done = NewBlock("wi.edges.done");
  BranchInst::Create(Written, Cur);
  IRBuilder<> WB(Written);
  WB.CreateCondBr(WB.CreateICmpULT(Zero, Count), Lanes, Done);
  IRBuilder<> HB(Lanes);
  PHINode *V = HB.CreatePHI(I64, 2, "wi.edge.lane");
  V->addIncoming(Zero, Written);
  // The V-th: in the last interval whose running sum it reaches.
  Value *WX = HB.CreateAdd(Firsts.back(), HB.CreateSub(V, Sums.back()));
  for (unsigned I = Firsts.size() - 1; I-- > 0;)
    WX = HB.CreateSelect(HB.CreateICmpULT(V, Sums[I + 1]),
                         HB.CreateAdd(Firsts[I], HB.CreateSub(V, Sums[I])), WX);
  WX->setName(std::string("local_id_") + DimNames[D]);
  HB.CreateBr(WrittenBody);
  IRBuilder<> LB(Latch);
  Value *VNext =
      LB.CreateAdd(V, LB.getInt64(1), "wi.edge.lane.next", true, true);
  V->addIncoming(VNext, Latch);
  LB.CreateCondBr(LB.CreateICmpULT(VNext, Count), Lanes, Done);
  Value *WIds[3] = {N.Ids[0], N.Ids[1], N.Ids[2]};
  WIds[D] = WX;
  cloneRegion(
      R, WIds, [&](BasicBlock *) { return Latch; }, WrittenBody, N.Blocks);
  N.Loops.push_back({D, Lanes, Latch, V, LoopRec::Scalar});
  ColdParts.push_back({Written, Done});
  BranchInst::Create(N.BodyEnd, Done);
  markParallel(N);
}

void SplitBuilder::guardLanes(SmallVectorImpl<BasicBlock *> &Blocks,
                              size_t CopyBegin, Value *X, Value *Base,
                              Value *Lo, Value *Hi) {
  ArrayRef<BasicBlock *> Copy = ArrayRef(Blocks).drop_front(CopyBegin);
  SmallPtrSet<BasicBlock *, 32> InCopy(Copy.begin(), Copy.end());
  BasicBlock *Entry = Copy.front();
  IRBuilder<> B(Entry, Entry->getFirstInsertionPt());
  Value *Lane = B.CreateSub(X, Base, "wi.lane.of");
  Value *Active = B.CreateAnd(B.CreateICmpUGE(Lane, Lo),
                              B.CreateICmpULT(Lane, Hi), "wi.lane.active");
  auto *Id = cast<Instruction>(B.CreateSelect(
      Active, X, B.CreateAdd(Base, Lo),
      std::string("local_id_") + DimNames[Config.vectorizedDim()] + ".edge"));
  SmallPtrSet<Value *, 4> Own = {Lane, Active, Id};
  X->replaceUsesWithIf(Id, [&](Use &U) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    return I && InCopy.count(I->getParent()) && !Own.count(I);
  });
  // What writes outside the work-item's own memory (its allocas, which
  // become its lane of the context arrays): stores, atomics, calls. What
  // writes its own runs on every lane, so that a lane outside the edge
  // computes all that lane Lo does (a loop bound read back from private
  // memory included).
  auto Private = [](const Value *P) {
    return isa<AllocaInst>(getUnderlyingObject(P));
  };
  SmallVector<Instruction *, 8> Writes;
  for (BasicBlock *BB : Copy)
    for (Instruction &I : *BB) {
      if (!I.mayWriteToMemory())
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      if (auto *S = dyn_cast<StoreInst>(&I))
        if (Private(S->getPointerOperand()))
          continue;
      // memset, memcpy, memmove write their destination alone.
      if (auto *MI = dyn_cast<AnyMemIntrinsic>(&I))
        if (Private(MI->getRawDest()))
          continue;
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->onlyAccessesArgMemory() && all_of(CB->args(), [&](Use &A) {
              return !A->getType()->isPointerTy() || Private(A);
            }))
          continue;
      Writes.push_back(&I);
    }
  for (Instruction *I : Writes) {
    BasicBlock *Pred = I->getParent();
    BasicBlock *Then = SplitBlock(Pred, I);
    BasicBlock *Join = SplitBlock(Then, I->getNextNode());
    Then->setName("wi.lane.write");
    Blocks.push_back(Then);
    Blocks.push_back(Join);
    Pred->getTerminator()->eraseFromParent();
    BranchInst::Create(Then, Join, Active, Pred);
    if (!I->getType()->isVoidTy() && !I->use_empty()) {
      // An atomic's old value, a call's result: lanes that skipped it
      // read a value that is no one's, frozen.
      IRBuilder<> JB(Join, Join->begin());
      PHINode *P = JB.CreatePHI(I->getType(), 2);
      I->replaceAllUsesWith(P);
      P->addIncoming(I, Then);
      IRBuilder<> PB(Pred->getTerminator());
      P->addIncoming(PB.CreateFreeze(PoisonValue::get(I->getType())), Pred);
    }
  }
}

/// The loop of one range [Begin, End) of the vectorized id, from \p Pre to
/// \p After: over whole tiles, a loop over the tiles around a loop of w
/// work-items; otherwise a plain scalar loop. Sets the vectorized id in
/// \p Ids and returns the blocks where the region's copy goes.
LoopRec SplitBuilder::buildRangeLoop(BasicBlock *Pre, BasicBlock *After,
                                     Value *Begin, Value *End, bool WholeTiles,
                                     Value *Ids[3], BasicBlock *&Body,
                                     BasicBlock *&BodyEnd,
                                     SmallVectorImpl<LoopRec> &Loops,
                                     SmallVectorImpl<BasicBlock *> &Blocks) {
  unsigned D = Config.vectorizedDim();
  std::string Name = std::string("wi.") + DimNames[D];
  Type *I64 = Type::getInt64Ty(Ctx);
  auto NewBlock = [&](const Twine &Suffix) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name + Suffix, WG, WGExit);
    Blocks.push_back(BB);
    return BB;
  };
  IRBuilder<> B(Pre);
  Body = NewBlock(".body");
  BodyEnd = NewBlock(".body.end");
  if (!WholeTiles) {
    BasicBlock *Header = NewBlock(".range.header");
    BasicBlock *Latch = NewBlock(".range.latch");
    B.CreateCondBr(B.CreateICmpULT(Begin, End), Header, After);
    IRBuilder<> HB(Header);
    PHINode *IV = HB.CreatePHI(I64, 2, std::string("local_id_") + DimNames[D]);
    IV->addIncoming(Begin, Pre);
    HB.CreateBr(Body);
    BranchInst::Create(Latch, BodyEnd);
    IRBuilder<> LB(Latch);
    Value *Next =
        LB.CreateAdd(IV, LB.getInt64(1), IV->getName() + ".next", true, true);
    IV->addIncoming(Next, Latch);
    LB.CreateCondBr(LB.CreateICmpULT(Next, End), Header, After);
    Ids[D] = IV;
    LoopRec L = {D, Header, Latch, IV, LoopRec::Scalar};
    Loops.push_back(L);
    return L;
  }
  uint64_t W = Config.VectorWidth;
  Value *First = B.CreateUDiv(Begin, B.getInt64(W), "wi.tiles.first", true);
  Value *Last = B.CreateUDiv(End, B.getInt64(W), "wi.tiles.end", true);
  Ids[D] = buildTileLoops(
      Pre, After, First, Last, Name, Body, BodyEnd,
      [&](IRBuilderBase &TB, Value *T) -> std::pair<Value *, Value *> {
        return {TB.CreateMul(T, TB.getInt64(W), "wi.tile.base", true, true),
                nullptr};
      },
      Loops, Blocks);
  return Loops.back();
}

Value *SplitBuilder::buildTileLoops(
    BasicBlock *Pre, BasicBlock *After, Value *First, Value *End,
    const Twine &Name, BasicBlock *Body, BasicBlock *BodyEnd,
    function_ref<std::pair<Value *, Value *>(IRBuilderBase &, Value *)> Tile,
    SmallVectorImpl<LoopRec> &Loops, SmallVectorImpl<BasicBlock *> &Blocks) {
  unsigned D = Config.vectorizedDim();
  Type *I64 = Type::getInt64Ty(Ctx);
  auto NewBlock = [&](const char *Suffix) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name + Suffix, WG, WGExit);
    Blocks.push_back(BB);
    return BB;
  };
  BasicBlock *TilesHeader = NewBlock(".tiles.header");
  BasicBlock *TileHeader = NewBlock(".tile.header");
  BasicBlock *TileLatch = NewBlock(".tile.latch");
  BasicBlock *TilesLatch = NewBlock(".tiles.latch");
  IRBuilder<> B(Pre);
  B.CreateCondBr(B.CreateICmpULT(First, End), TilesHeader, After);
  IRBuilder<> TB(TilesHeader);
  PHINode *T = TB.CreatePHI(I64, 2, "wi.tile");
  T->addIncoming(First, Pre);
  auto [Base, Runs] = Tile(TB, T);
  if (Runs)
    TB.CreateCondBr(Runs, TileHeader, TilesLatch);
  else
    TB.CreateBr(TileHeader);
  IRBuilder<> IB(TileHeader);
  PHINode *J = IB.CreatePHI(I64, 2, "wi.lane");
  J->addIncoming(IB.getInt64(0), TilesHeader);
  Value *X =
      IB.CreateAdd(Base, J, std::string("local_id_") + DimNames[D], true, true);
  IB.CreateBr(Body);
  BranchInst::Create(TileLatch, BodyEnd);
  IRBuilder<> JL(TileLatch);
  Value *JNext = JL.CreateAdd(J, JL.getInt64(1), "wi.lane.next", true, true);
  J->addIncoming(JNext, TileLatch);
  JL.CreateCondBr(JL.CreateICmpULT(JNext, JL.getInt64(Config.VectorWidth)),
                  TileHeader, TilesLatch);
  IRBuilder<> TL(TilesLatch);
  Value *TNext = TL.CreateAdd(T, TL.getInt64(1), "wi.tile.next", true, true);
  T->addIncoming(TNext, TilesLatch);
  TL.CreateCondBr(TL.CreateICmpULT(TNext, End), TilesHeader, After);
  Loops.push_back({D, TilesHeader, TilesLatch, T, LoopRec::Tiles});
  Loops.push_back({D, TileHeader, TileLatch, J, LoopRec::Tile});
  return X;
}

/// Horizontal parallelization inside a range (the split's section 3): the
/// copy of a region that runs whole tiles, from \p Body to \p BodyEnd at
/// N.Blocks[CopyBegin...], has kernel loops that run in lock-step on every
/// lane (SplitPlan::specialize made them so). Its blocks become a tile
/// function, a kernel whose work-items are the w lanes of one tile
/// (x = tile base + lane), the front half makes its loops b-loops with
/// context arrays of w elements (iss-loop-barriers, iss-cond-barriers,
/// iss-context), and its regions replace the tile's loop of w lanes: the
/// loop over lanes goes inside the kernel loops, where it is the vector
/// loop.
void SplitBuilder::runTileInside(Nest &N, size_t CopyBegin, BasicBlock *Body,
                                 BasicBlock *BodyEnd, Value *X,
                                 bool MaskedLanes) {
  unsigned D = Config.vectorizedDim();
  LoopRec Tile = N.Loops.back();
  assert(Tile.Role == LoopRec::Tile && "a range of whole tiles");
  auto *Base = cast<Instruction>(X)->getOperand(0);
  SmallVector<BasicBlock *, 16> Copy(N.Blocks.begin() + CopyBegin,
                                     N.Blocks.end());
  N.Blocks.truncate(CopyBegin);
  DenseSet<BasicBlock *> InCopy(Copy.begin(), Copy.end());

  // What the copy reads from the work-group function becomes arguments.
  SetVector<Value *> Outside;
  for (BasicBlock *BB : Copy)
    for (Instruction &I : *BB)
      for (Value *Op : I.operands()) {
        auto *OI = dyn_cast<Instruction>(Op);
        if (Op != X &&
            (isa<Argument>(Op) || (OI && !InCopy.count(OI->getParent()))))
          Outside.insert(Op);
      }
  Outside.insert(Base);
  SmallVector<Type *, 16> Types;
  for (Value *V : Outside)
    Types.push_back(V->getType());
  Function *TK = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), Types, false),
      GlobalValue::InternalLinkage, Kernel.getName() + ".tile", M);
  std::string Size;
  for (unsigned I = 0; I < 3; ++I)
    Size += (I ? "," : "") + std::to_string(I == D ? Config.VectorWidth : 1);
  TK->addFnAttr("iss-local-size", Size);
  auto InCopyUse = [&](Use &U) {
    auto *UI = dyn_cast<Instruction>(U.getUser());
    return UI && InCopy.count(UI->getParent());
  };
  for (unsigned I = 0; I < Outside.size(); ++I)
    Outside[I]->replaceUsesWithIf(TK->getArg(I), InCopyUse);

  // entry -> barrier -> the copy -> barrier and return: iss-barriers' form.
  FunctionCallee Barrier = M.getOrInsertFunction(
      BarrierName, FunctionType::get(Type::getVoidTy(Ctx), false));
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", TK);
  BasicBlock *First = BasicBlock::Create(Ctx, "tile.barrier", TK);
  BranchInst::Create(First, Entry);
  CallInst::Create(Barrier, "", First);
  BranchInst::Create(Copy.front(), First);
  for (BasicBlock *BB : Copy)
    TK->splice(TK->end(), WG, BB->getIterator());
  BasicBlock *Last = BasicBlock::Create(Ctx, "tile.exit", TK);
  CallInst::Create(Barrier, "", Last);
  ReturnInst::Create(Ctx, Last);
  BodyEnd->replaceUsesWithIf(Last, InCopyUse);
  IRBuilder<> TB(&*Copy.front()->getFirstInsertionPt());
  Value *Lane = TB.CreateLoad(
      TB.getInt64Ty(), M.getOrInsertGlobal(WorkItemGlobals[D], TB.getInt64Ty()),
      std::string("lane_") + DimNames[D]);
  Value *TX = TB.CreateAdd(TK->getArg(find(Outside, Base) - Outside.begin()),
                           Lane, X->getName(), true, true);
  X->replaceUsesWithIf(TX, InCopyUse);
  removeUnreachableBlocks(*TK);

  // The front half on the tile function, then its regions in place of the
  // tile's lane loop.
  WorkGroupConfig TC = Config;
  TC.Kernel = TK->getName().str();
  TC.LocalSize[0] = TC.LocalSize[1] = TC.LocalSize[2] = 1;
  TC.LocalSize[D] = Config.VectorWidth;
  ImplicitLoopBarriersPass(TC).run(M, MAM);
  ImplicitConditionalBarriersPass(TC).run(M, MAM);
  ContextArraysPass(TC).run(M, MAM);

  BasicBlock *Pre = BasicBlock::Create(Ctx, "wi.lanes", WG, WGExit);
  BasicBlock *After = BasicBlock::Create(Ctx, "wi.lanes.end", WG, WGExit);
  LoopRec &Tiles = N.Loops[N.Loops.size() - 2];
  Tiles.Header->getTerminator()->replaceSuccessorWith(Tile.Header, Pre);
  BranchInst::Create(Tile.Latch->getTerminator()->getSuccessor(1), After);
  for (BasicBlock *Dead : {Tile.Header, Body, BodyEnd, Tile.Latch})
    Dead->dropAllReferences();
  for (BasicBlock *Dead : {Tile.Header, Body, BodyEnd, Tile.Latch}) {
    erase(N.Blocks, Dead);
    Dead->eraseFromParent();
  }
  N.Loops.pop_back();
  DenseSet<BasicBlock *> Before;
  for (BasicBlock &BB : *WG)
    Before.insert(&BB);
  WorkGroupBuilder Sub(M, *TK, TC, MAM);
  Sub.buildInto(*WG, Pre, After, Outside.getArrayRef(), GroupValues,
                MaskedLanes);
  N.Blocks.push_back(Pre);
  N.Blocks.push_back(After);
  for (BasicBlock &BB : *WG)
    if (!Before.count(&BB))
      N.Blocks.push_back(&BB);

  NamedMDNode *Contexts = M.getNamedMetadata("iss.context");
  for (unsigned I = Contexts ? Contexts->getNumOperands() : 0; I-- > 0;)
    if (isNodeOf(Contexts->getOperand(I), TC.Kernel)) {
      assert(mdInt(Contexts->getOperand(I), 3) == 0 &&
             "a tile's context arrays fit on the stack");
      SmallVector<MDNode *, 8> Keep;
      for (unsigned J = 0; J < Contexts->getNumOperands(); ++J)
        if (J != I)
          Keep.push_back(Contexts->getOperand(J));
      Contexts->clearOperands();
      for (MDNode *K : Keep)
        Contexts->addOperand(K);
    }
  functionAnalyses(M, MAM).clear(*TK, TK->getName());
  TK->eraseFromParent();
}

PreservedAnalyses SplitPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel)
    return PreservedAnalyses::all();
  // `split` and `split+score` split (the input-space-splitting paper,
  // section 6.3); the other modes build what iss-wi-loops builds, as does
  // a kernel kept as written (iss-as-written). One work-item along the
  // vectorized dimension leaves nothing to split: no model (an image
  // kernel's took 4 s of isl work in 1x1x1 groups).
  bool Split =
      (Config.IssMode == Mode::Split || Config.IssMode == Mode::SplitScore) &&
      !Kernel->hasFnAttribute(AsWrittenAttr) && Config.MaxPieces > 1 &&
      Config.LocalSize[Config.vectorizedDim()] > 1;
  if (!Split) {
    WorkGroupBuilder(M, *Kernel, Config, MAM).build();
    return PreservedAnalyses::none();
  }
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  FAM.registerPass([] { return WorkItemModelAnalysis(); });
  std::optional<WorkItemModel> Built;
  const WorkItemModel *Used =
      FAM.getCachedResult<WorkItemModelAnalysis>(*Kernel);
  if (!Used)
    Used = &Built.emplace(WorkItemModelAnalysis().run(*Kernel, FAM));
  // Partial edges are masked code: only where masks are cheap.
  SplitPlanner Planner = makeSplitPlanner(
      *Used, Config.vectorizedDim(), Config.VectorWidth, Config.MaxPieces,
      Config.CheapMasks, Config.PartialEdges && Config.CheapMasks, *Kernel);
  SplitBuilder(M, *Kernel, Config, MAM, std::move(Planner)).build();
  return PreservedAnalyses::none();
}

} // namespace iss
