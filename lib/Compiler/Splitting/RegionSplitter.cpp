//===- RegionSplitter.cpp - Split plans from the polyhedral model ---------===//
// SPDX-License-Identifier: MIT
//
// The split itself (the input-space-splitting paper, sections 3 and 5;
// DESIGN.md section 6, "Split"): for each parallel region the model
// covers, the splitting predicates give the ranges of the vectorized id
// and their pieces; this file turns them into a SplitPlan for iss-split.
//  - Bounds: each range's [Begin, End) is a piecewise affine expression of
//    the parameters and the outer ids, emitted per work group and outer
//    ids (IslExprEmitter). Where the model is exact only under assumptions
//    on the parameters (a size_t id truncated to int, say), a check per
//    work group picks the split or the unsplit loops.
//  - Specialisation: in a range's copy of the body, a branch that takes
//    the same successor on every instance of the range is folded, and a
//    load or store that is consecutive or uniform on the range's tiles
//    gets its address recomputed from the model's affine offset restricted
//    to the range, so that min/max and clamps in the index are gone and
//    the loop vectorizer sees unit-stride (or invariant) addresses.
//  - A refused split is an optimization remark (iss-split), with the
//    reason.
//
//===----------------------------------------------------------------------===//

#include "Splitting/RegionSplitter.h"

#include "Splitting/IslExprEmitter.h"
#include "Splitting/SplittingPredicates.h"
#include "Splitting/WorkItemModel.h"
#include "Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "iss-split"

// Whether a loop's exits agree across a range is a projection of pairs of
// instances; on clamped windows whose sizes are arguments (a 9x1 mask in
// groups of 64) isl took minutes on it. Past the bound the loop keeps its
// work-item loop outside (no horizontal parallelization), which is always
// correct.
static cl::opt<unsigned long> MaxLockStepOps(
    "iss-lockstep-max-ops",
    cl::desc("isl operations allowed for deciding whether one kernel loop "
             "runs in lock-step across a range"),
    cl::init(1000000));

static cl::opt<unsigned long> MaxEdgeOps(
    "iss-edge-max-ops",
    cl::desc("isl operations allowed for the partial edges of one region"),
    cl::init(1000000));

namespace iss {

/// Whether \p Bound, an edge's bound as emitRawEdges gives it (-1 where
/// there is none), marks an edge.
static Value *hasEdge(IRBuilderBase &B, Value *Bound) {
  return B.CreateICmpSGE(Bound, B.getInt64(0));
}

SplitPlan::~SplitPlan() = default;

/// Whether \p Acc loads a work-group value (a work-item global, the
/// scratch base): iss-split replaces those loads, the copy has none.
static bool readsWorkGroupValue(const ModelAccess &Acc) {
  auto *G = dyn_cast_or_null<GlobalVariable>(Acc.Base);
  return G && (G->getName() == ScratchGlobal ||
               is_contained(WorkItemGlobals, G->getName()));
}

/// Whether no instance of \p Domain (a block's, over its loops' space)
/// belongs to a work-item of range \p I of \p P.
static isl::boolean noneOnRange(const RegionModel &R,
                                const SplittingPredicates &P,
                                const isl::set &Domain, unsigned I) {
  return SplittingPredicates::toWorkItems(Domain, R.Domain)
      .intersect(P.rangeSetAt(I))
      .is_empty();
}

/// Whether range \p I of \p P reaches a load or a store of \p R: a range
/// that does not (the work-items past a tail guard) does nothing its own
/// copy would do faster.
static bool reachesAccess(const RegionModel &R, const SplittingPredicates &P,
                          unsigned I) {
  return any_of(R.Accesses, [&](const ModelAccess &A) {
    return noneOnRange(R, P, A.Domain, I).is_false();
  });
}

/// How many accesses the kernel loop \p ML has when all are divergent on
/// range \p I of \p P (0 otherwise): across the lanes there it would only
/// gather and scatter, so the loop stays per work-item (makeLoopsUniform).
static unsigned accessesAllDivergent(const RegionModel &R,
                                     const SplittingPredicates &P,
                                     const ModelLoop &ML, unsigned I) {
  unsigned Inside = 0, Divergent = 0;
  for (unsigned A = 0; A < R.Accesses.size(); ++A)
    if (ML.L->contains(R.Accesses[A].I)) {
      ++Inside;
      Divergent += P.classifyRange(A, I) == AccessClass::Divergent;
    }
  return Divergent == Inside ? Inside : 0;
}

/// Why the copy of a range keeps a kernel loop inside the loop over a
/// tile's lanes, which the vectorizer (innermost loops only) then leaves
/// scalar.
enum class KeptLoop {
  No,
  TripCount, ///< the trip count may differ across the lanes
  Accesses,  ///< all divergent, and a trip count the unroller keeps
  Quota,     ///< isl ran out of quota deciding
};

/// Whether and why the copy of range \p I of \p P keeps the kernel loop
/// \p ML per work-item: the range runs the loop, and its trip count may
/// differ across the lanes there, or its accesses are all divergent
/// (makeLoopsUniform leaves it per work-item) and its trip count is not a
/// constant (a constant one the unroller may take away). Under the
/// lock-step quota.
static KeptLoop keptPerWorkItem(const WorkItemModel &M, const RegionModel &R,
                                const SplittingPredicates &P,
                                const ModelLoop &ML, unsigned I, unsigned Dim) {
  SmallVector<unsigned, 2> Exits = R.exitBranches(ML);
  const ModelBlock *Header = R.block(ML.L->getHeader());
  if (Exits.empty() || !Header)
    return KeptLoop::No;
  const isl::set &Where = P.rangeSetAt(I);
  IslQuota Q(M.ctx(), MaxLockStepOps);
  auto Along = [&](unsigned Br) {
    return R.Branches[Br].UniformDims >> Dim & 1;
  };
  KeptLoop Why = KeptLoop::No;
  if (noneOnRange(R, P, Header->Domain, I).is_true())
    Why = KeptLoop::No; // the range never runs it
  else if (!all_of(Exits, Along) &&
           (!ML.Bounded || any_of(Exits, [&](unsigned Br) {
             return !Along(Br) && P.takenOnRange(Br, I) < 0 &&
                    !P.uniformAcross(Br, Where);
           })))
    Why = KeptLoop::TripCount;
  else if (ML.Bounded && accessesAllDivergent(R, P, ML, I)) {
    isl::pw_aff Last = Header->Domain.dim_max(3 + ML.Depth);
    if (Last.is_null() || !Last.is_cst().is_true())
      Why = KeptLoop::Accesses;
  }
  return Q.exceeded() ? KeptLoop::Quota : Why;
}

namespace {

/// A plan made from the splitting predicates of one region.
class ModelSplitPlan : public SplitPlan {
public:
  ModelSplitPlan(const WorkItemModel &M, const RegionModel &R,
                 std::unique_ptr<SplittingPredicates> P,
                 const DominatorTree &KernelDT, bool PartialEdges)
      : M(M), R(R), P(std::move(P)), KernelDT(KernelDT),
        PartialEdges(PartialEdges) {
    for (const SplitPiece &Piece : this->P->pieces())
      Pieces.push_back({Piece.Full, Piece.name()});
    SmallVector<bool, 5> Narrow(Pieces.size(), true);
    for (const SplitRange &Range : this->P->ranges()) {
      RangePieces.push_back(Range.Piece);
      Narrow[Range.Piece] =
          Narrow[Range.Piece] && atMostOneTile(Range, this->P->width());
    }
    // A piece whose branches diverge inside its tiles would need masks;
    // when each of its ranges is a tile at most (the tile a tail guard
    // cuts) beside pieces of uniform control that run the rest, scalar
    // code costs no more to run and much less to compile. Alone (a
    // data-dependent branch in every tile, local size w), it stays vector.
    bool Hot = any_of(this->P->pieces(),
                      [](const SplitPiece &SP) { return SP.UniformControl; });
    for (unsigned I = 0; I < Pieces.size(); ++I)
      if (Hot && Narrow[I] && !this->P->pieces()[I].UniformControl)
        Pieces[I].WholeTiles = false;
    LockStep.assign(RangePieces.size(), -1);
  }

  ArrayRef<SplitPieceInfo> pieces() const override { return Pieces; }
  ArrayRef<unsigned> rangePieces() const override { return RangePieces; }

  Value *emitAssumptionCheck(
      IRBuilderBase &B,
      function_ref<Value *(Value *)> MapKernelValue) override;
  bool emitBounds(IRBuilderBase &B, Value *const OuterIds[3],
                  function_ref<Value *(Value *)> MapKernelValue,
                  SmallVectorImpl<std::pair<Value *, Value *>> &Bounds)
      override;
  void emitWholeGroupTests(
      IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue,
      SmallVectorImpl<std::pair<unsigned, Value *>> &Tests) override;
  bool emitRangeBounds(IRBuilderBase &B, Value *const OuterIds[3],
                       function_ref<Value *(Value *)> MapKernelValue,
                       unsigned Range,
                       std::pair<Value *, Value *> &Bound) override {
    SmallVector<std::pair<Value *, Value *>, 1> Bounds;
    // A range beside an edge ends (starts) where the edge's tile does: all
    // the bounds, once per block and outer ids.
    if (!edgeRanges().empty()) {
      if (RowBlock != B.GetInsertBlock() ||
          !std::equal(OuterIds, OuterIds + 3, RowIds)) {
        RowBounds.clear();
        if (!emitBounds(B, OuterIds, MapKernelValue, RowBounds))
          return false;
        RowBlock = B.GetInsertBlock();
        std::copy(OuterIds, OuterIds + 3, RowIds);
      }
      Bound = RowBounds[Range];
      return true;
    }
    if (!P->emitBounds(B, OuterIds, MapKernelValue, Bounds, Range))
      return false;
    Bound = Bounds.front();
    return true;
  }
  Value *emitBoundsInvariant(
      IRBuilderBase &B,
      function_ref<Value *(Value *)> MapKernelValue) override {
    if (edgeRanges().empty())
      return P->emitBoundsInvariant(B, MapKernelValue);
    return P->emitParamCondition(
        B, MapKernelValue, P->invariantBoundsParams().intersect(EdgeInvariant));
  }
  void copyClasses(SmallVectorImpl<SmallVector<unsigned, 4>> &Classes) override;
  ArrayRef<unsigned> edgeRanges() override {
    computeEdges();
    return EdgeRanges;
  }
  bool emitEdges(IRBuilderBase &B, Value *const OuterIds[3],
                 function_ref<Value *(Value *)> MapKernelValue, unsigned Range,
                 std::pair<Value *, Value *> Bound,
                 std::pair<Value *, Value *> &Edge) override;
  bool specialize(ArrayRef<unsigned> Ranges, ValueToValueMapTy &VMap,
                  Value *const Ids[3],
                  function_ref<Value *(Value *)> MapKernelValue) override;
  std::string describe(unsigned Range) const override;
  void print(raw_ostream &OS) override;
  int unspecializedRange() const override {
    for (unsigned I = 0; I < RangePieces.size(); ++I)
      if (!Pieces[RangePieces[I]].WholeTiles &&
          all_of(seq(unsigned(R.Branches.size())),
                 [&](unsigned Br) { return P->takenOnRange(Br, I) < 0; }))
        return I;
    return -1;
  }

private:
  /// Whether \p Range holds w work-items at most, for all parameters.
  bool atMostOneTile(const SplitRange &Range, unsigned W) const {
    assert(W == P->width());
    (void)W;
    return P->atMostOneTile(&Range - P->ranges().data());
  }
  /// Whether range \p I's copy is the same code as that of the ranges
  /// \p Class (see copyClasses); if so, \p Offsets gets each recomputed
  /// address on them all (offsetWithin; null for the others).
  bool sameCopy(ArrayRef<unsigned> Class, unsigned I,
                std::vector<isl::pw_aff> &Offsets) const;
  /// The classes of copyClasses, computed once (SharedOffsets with them).
  ArrayRef<SmallVector<unsigned, 4>> classes();
  /// Computes Edges, EdgeRanges and EdgeInvariant once.
  void computeEdges();
  /// The work-items of \p Within on which the copy of the class
  /// \p Class computes what the region as written does: no branch it
  /// folds goes elsewhere, no address it recomputes differs, no loop exit
  /// it may make lane-free is taken otherwise. Null past the quota.
  isl::set copyHolds(ArrayRef<unsigned> Class, const isl::set &Within);
  /// At \p B: the edges' bounds of range \p Range as edgeBound gives them
  /// (-1 where there is none; null for a side without an edge); false
  /// when one cannot be emitted.
  bool emitRawEdges(IRBuilderBase &B, Value *const OuterIds[3],
                    function_ref<Value *(Value *)> MapKernelValue,
                    unsigned Range, Value *&Before, Value *&After) const;
  /// The union of the sets of \p Ranges.
  isl::set rangesSet(ArrayRef<unsigned> Ranges) const {
    isl::set Where = P->rangeSetAt(Ranges.front());
    for (unsigned I : Ranges.drop_front())
      Where = Where.unite(P->rangeSetAt(I));
    return Where;
  }
  /// Whether specialize recomputes the address of access \p A in the copy
  /// of range \p Range (before looking at the copy's instructions).
  bool recomputes(unsigned A, unsigned Range) const {
    const ModelAccess &Acc = R.Accesses[A];
    return Pieces[RangePieces[Range]].WholeTiles && !Acc.Offset.is_null() &&
           Acc.Base && !readsWorkGroupValue(Acc) &&
           P->classifyRange(A, Range) != AccessClass::Divergent;
  }
  /// Per block's domain (which its accesses share), its instances within
  /// one set of work-items, and their affine hull.
  using InstancesWithin =
      DenseMap<const isl_set *, std::pair<isl::set, isl::set>>;
  /// The offset of \p Acc on its instances within the work-items \p Where,
  /// where its clamps resolve; null where it has none. \p Instances holds
  /// the instances found within \p Where so far.
  static isl::pw_aff offsetWithin(const ModelAccess &Acc, const isl::set &Where,
                                  unsigned Counts, InstancesWithin &Instances);
  /// The offset specialize computes access \p A at in the copy of the
  /// class \p Ranges, whose work-items are \p Where; null if none.
  isl::pw_aff copyOffset(ArrayRef<unsigned> Ranges, unsigned A,
                         const isl::set &Where,
                         InstancesWithin &Instances) const;
  /// Runs the kernel loops of the copy of \p Range (or of its class, on
  /// the work-items \p Where) in lock-step where their exits are uniform
  /// across it; loops whose header the copy no longer reaches (\p Reached:
  /// its blocks reachable once its branches are folded) are left alone.
  /// Returns how many it made so.
  unsigned
  makeLoopsUniform(unsigned Range, const isl::set &Where,
                   ValueToValueMapTy &VMap, Value *const Ids[3],
                   const SmallPtrSetImpl<const BasicBlock *> &CopyBlocks,
                   const SmallPtrSetImpl<const BasicBlock *> &Reached,
                   DenseMap<Loop *, PHINode *> &Counters,
                   function_ref<Value *(Value *)> MapKernelValue);
  /// The values of the set dimensions of \p MB's space in the copy: the
  /// ids, then the iteration counters of its loops; false if a counter is
  /// missing.
  bool dimValues(const ModelBlock &MB, ValueToValueMapTy &VMap,
                 Value *const Ids[3], DenseMap<Loop *, PHINode *> &Counters,
                 SmallVectorImpl<Value *> &Values);
  /// The value of the isl parameter \p Id in the work-group function.
  Value *paramValue(IRBuilderBase &B, const isl::id &Id,
                    function_ref<Value *(Value *)> MapKernelValue) const {
    const ModelParam *MP = WorkItemModel::param(Id);
    return MP ? M.paramValue(*MP, B, MapKernelValue) : nullptr;
  }
  /// What the model knows of the parameters where the plan runs.
  isl::set context() const {
    return M.context().intersect(M.assumptions());
  }

  const WorkItemModel &M;
  const RegionModel &R;
  std::unique_ptr<SplittingPredicates> P;
  /// The kernel's dominators: an opaque parameter's value in the copy may
  /// stand in for it where it dominates the access.
  const DominatorTree &KernelDT;
  /// Whether the plan may have edges (WorkGroupConfig::PartialEdges).
  bool PartialEdges;
  SmallVector<SplitPieceInfo, 5> Pieces;
  SmallVector<unsigned, 8> RangePieces;
  /// Per range: the kernel loops specialize made lock-step in its copy
  /// (-1 before its class is specialized).
  SmallVector<int, 8> LockStep;
  /// The classes of copyClasses of more than one range, and the
  /// recomputed addresses sameCopy found for each: specialize uses them.
  SmallVector<std::pair<SmallVector<unsigned, 4>, std::vector<isl::pw_aff>>, 2>
      SharedOffsets;
  SmallVector<SmallVector<unsigned, 4>, 8> Classes;
  bool ClassesDone = false;
  /// Per range, the bounds of its edges before and after it (edgeBound;
  /// null for none), the ranges that have one, and the parameters where
  /// the edges' bounds are the same in every row.
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> Edges;
  SmallVector<unsigned, 2> EdgeRanges;
  isl::set EdgeInvariant;
  /// emitRangeBounds's last bounds, and the block and outer ids where it
  /// emitted them.
  SmallVector<std::pair<Value *, Value *>, 8> RowBounds;
  BasicBlock *RowBlock = nullptr;
  Value *RowIds[3] = {nullptr, nullptr, nullptr};
  bool EdgesDone = false;
};

} // namespace

Value *ModelSplitPlan::emitAssumptionCheck(
    IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue) {
  return M.emitAssumptionCheck(B, MapKernelValue);
}

void ModelSplitPlan::emitWholeGroupTests(
    IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue,
    SmallVectorImpl<std::pair<unsigned, Value *>> &Tests) {
  // One test, which costs every group that fails it, and one more copy of
  // the body: for the range of vector code first, of uniform control and
  // consecutive accesses (Figure 2's interior). A range whose copy reaches
  // no load or store (the groups past a tail guard) gains nothing from
  // running alone.
  const unsigned MaxTests = 1;
  // A region with kernel loops does enough per work-item that the bounds
  // cost its groups little, and a copy whose loops run in lock-step costs
  // the front half once more on its tile function (SobelFilter's split
  // took 30% longer): straight-line regions only.
  if (!R.Loops.empty())
    return;
  SmallVector<std::pair<unsigned, unsigned>, 8> Order; // (weight, range)
  for (unsigned I = 0; I < RangePieces.size(); ++I) {
    const SplitPiece &SP = P->pieces()[RangePieces[I]];
    Order.push_back({(Pieces[RangePieces[I]].WholeTiles ? 4u : 0u) +
                         (SP.UniformControl ? 2u : 0u) +
                         (SP.Consecutive ? 1u : 0u),
                     I});
  }
  llvm::stable_sort(Order, [](auto &A, auto &B) { return A.first > B.first; });
  for (auto [Weight, I] : Order) {
    if (Tests.size() == MaxTests)
      break;
    const isl::set &Whole = P->wholeGroupParams(I);
    if (Whole.is_empty().is_true() || !reachesAccess(R, *P, I))
      continue;
    if (Value *T = P->emitParamCondition(B, MapKernelValue, Whole))
      Tests.push_back({I, T});
  }
}

bool ModelSplitPlan::emitBounds(
    IRBuilderBase &B, Value *const OuterIds[3],
    function_ref<Value *(Value *)> MapKernelValue,
    SmallVectorImpl<std::pair<Value *, Value *>> &Bounds) {
  size_t First = Bounds.size();
  if (!P->emitBounds(B, OuterIds, MapKernelValue, Bounds))
    return false;
  // The tile of an edge leaves the range that holds it: the range before
  // an edge that ends where it does ends a tile earlier, the range after
  // one starts a tile later (an empty range stays empty).
  MutableArrayRef<std::pair<Value *, Value *>> Own(Bounds.begin() + First,
                                                   Bounds.end());
  Value *W = B.getInt64(P->width());
  for (unsigned H : edgeRanges()) {
    Value *Before, *After;
    if (!emitRawEdges(B, OuterIds, MapKernelValue, H, Before, After))
      return false;
    auto [Begin, End] = Own[H];
    for (unsigned J = 0; J < Own.size(); ++J) {
      if (J < H && Before) {
        Value *Cut = B.CreateAnd(hasEdge(B, Before),
                                 B.CreateICmpEQ(Own[J].second, Begin));
        Own[J].second = B.CreateSelect(Cut, B.CreateSub(Begin, W),
                                       Own[J].second, "wi.end.cut");
      }
      if (J > H && After) {
        Value *Cut =
            B.CreateAnd(hasEdge(B, After), B.CreateICmpEQ(Own[J].first, End));
        Own[J].first = B.CreateSelect(Cut, B.CreateAdd(End, W), Own[J].first,
                                      "wi.begin.cut");
      }
    }
  }
  return true;
}

/// The number of iterations a loop of the copy has run, from 0: the
/// counter k of the model's spaces; null when the copy's loop is not in
/// simplified form.
static PHINode *iterationCounter(Loop *L, ValueToValueMapTy &VMap,
                                 DenseMap<Loop *, PHINode *> &Counters) {
  if (PHINode *K = Counters.lookup(L))
    return K;
  BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch();
  if (!Pre || !Latch || !VMap.count(Pre) || !VMap.count(Latch) ||
      !VMap.count(L->getHeader()))
    return nullptr;
  auto *Header = cast<BasicBlock>(VMap[L->getHeader()]);
  auto *PreC = cast<BasicBlock>(VMap[Pre]);
  auto *LatchC = cast<BasicBlock>(VMap[Latch]);
  IRBuilder<> B(Header, Header->getFirstInsertionPt());
  PHINode *K = B.CreatePHI(B.getInt64Ty(), 2, "iss.iter");
  K->addIncoming(B.getInt64(0), PreC);
  IRBuilder<> LB(LatchC->getTerminator());
  K->addIncoming(LB.CreateAdd(K, LB.getInt64(1), "iss.iter.next", true, true),
                 LatchC);
  Counters[L] = K;
  return K;
}

/// Deletes \p V and what it leaves unused, within the copy's blocks (the
/// work-group values outside stay, whoever reads them).
static void deleteDeadInCopy(Value *V,
                             const SmallPtrSetImpl<const BasicBlock *> &Copy) {
  SmallVector<WeakTrackingVH, 8> Work = {V};
  while (!Work.empty()) {
    auto *I = dyn_cast_or_null<Instruction>(Work.pop_back_val());
    if (!I || !Copy.count(I->getParent()) || !isInstructionTriviallyDead(I))
      continue;
    for (Value *Op : I->operands())
      Work.push_back(Op);
    I->eraseFromParent();
  }
}

bool ModelSplitPlan::dimValues(const ModelBlock &MB, ValueToValueMapTy &VMap,
                               Value *const Ids[3],
                               DenseMap<Loop *, PHINode *> &Counters,
                               SmallVectorImpl<Value *> &Values) {
  Values.assign({Ids[0], Ids[1], Ids[2]});
  for (Loop *L : MB.Loops) {
    PHINode *K = iterationCounter(L, VMap, Counters);
    if (!K)
      return false;
    Values.push_back(K);
  }
  return true;
}

/// Rewrites the induction variables {s,+,c} of the copy of \p L as
/// s + c * k from its iteration counter \p K, so that no value is carried
/// from one iteration to the next but the counter; a variable nothing else
/// reads any more (its exit test and addresses were rewritten) goes.
static void rewriteInductionVariables(Loop *L, ValueToValueMapTy &VMap,
                                      PHINode *K) {
  auto *Header = cast<BasicBlock>(VMap[L->getHeader()]);
  auto *Pre = cast<BasicBlock>(VMap[L->getLoopPreheader()]);
  auto *Latch = cast<BasicBlock>(VMap[L->getLoopLatch()]);
  for (PHINode &Phi : make_early_inc_range(Header->phis())) {
    if (&Phi == K || !Phi.getType()->isIntegerTy() ||
        Phi.getBasicBlockIndex(Pre) < 0 || Phi.getBasicBlockIndex(Latch) < 0)
      continue;
    auto *Inc = dyn_cast<BinaryOperator>(Phi.getIncomingValueForBlock(Latch));
    auto *Step = Inc ? dyn_cast<ConstantInt>(Inc->getOperand(1)) : nullptr;
    if (!Step || Inc->getOpcode() != Instruction::Add ||
        Inc->getOperand(0) != &Phi)
      continue;
    auto OnlyCycle = [&] {
      return all_of(Phi.users(), [&](User *U) { return U == Inc; }) &&
             all_of(Inc->users(), [&](User *U) { return U == &Phi; });
    };
    if (!OnlyCycle()) {
      IRBuilder<> B(Header, Header->getFirstInsertionPt());
      Value *KT = B.CreateTrunc(K, Phi.getType());
      // s + k cannot wrap where the increments did not; s + c * k may
      // (through c * k) even then.
      bool NSW = Step->isOne() && Inc->hasNoSignedWrap();
      Value *Off = Step->isOne() ? KT : B.CreateMul(KT, Step);
      Value *IV = B.CreateAdd(Phi.getIncomingValueForBlock(Pre), Off,
                              Phi.getName() + ".k", false, NSW);
      Phi.replaceUsesWithIf(IV, [&](Use &U) { return U.getUser() != Inc; });
      if (!OnlyCycle())
        continue; // the increment is read after the loop
    }
    Inc->replaceAllUsesWith(PoisonValue::get(Inc->getType()));
    Inc->eraseFromParent();
    Phi.eraseFromParent();
  }
}

/// Loops that run as often on every lane of the range \p Where: their
/// exits become conditions on the outer ids, the counters and the
/// parameters, which all lanes evaluate alike, and their induction
/// variables functions of the counter. The loops then run in lock-step
/// across the range, and iss-split may move the work-item loop inside
/// them (horizontal parallelization within a range, section 3 of the
/// paper: Convolution2D's mask loops in the centre). Returns how many were.
/// A loop whose accesses all are divergent across the lanes of the range
/// \p Range (Where is its set) is left alone: inside it the loop over
/// lanes would only gather and scatter, which the vectorizer declines
/// (kmeans_swap's transposition ran its tiles scalar, 15 % slower than
/// `vec`), whereas inside each work-item the loop is the vectorizer's to
/// take where its own iterations are consecutive (kmeans_swap's rows).
/// Should another loop of the copy run in lock-step, iss-loop-barriers may
/// still take this one in the tile function where its exits are uniform
/// in the IR itself.
unsigned ModelSplitPlan::makeLoopsUniform(
    unsigned Range, const isl::set &Where, ValueToValueMapTy &VMap,
    Value *const Ids[3], const SmallPtrSetImpl<const BasicBlock *> &CopyBlocks,
    const SmallPtrSetImpl<const BasicBlock *> &Reached,
    DenseMap<Loop *, PHINode *> &Counters,
    function_ref<Value *(Value *)> MapKernelValue) {
  unsigned Made = 0;
  for (const ModelLoop &ML : R.Loops) {
    if (!ML.Bounded || !ML.L->getLoopPreheader() || !ML.L->getLoopLatch())
      continue;
    auto *Header = dyn_cast_or_null<BasicBlock>(VMap.lookup(ML.L->getHeader()));
    if (!Header || !Reached.count(Header))
      continue;
    if (unsigned Inside = accessesAllDivergent(R, *P, ML, Range)) {
      OptimizationRemarkEmitter ORE(KernelDT.getRoot()->getParent());
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotLockStep",
                                        ML.L->getHeader()->getTerminator())
               << "loop at " << ML.L->getHeader()->getName()
               << " keeps the work-item loop outside: its "
               << std::to_string(Inside)
               << " accesses are all divergent across the lanes";
      });
      continue;
    }
    struct Exit {
      BranchInst *BI;
      isl::set Cond;
      const ModelBlock *MB;
    };
    SmallVector<Exit, 2> Exits;
    bool Ok = true;
    IslQuota Q(M.ctx(), MaxLockStepOps);
    for (unsigned Br : R.exitBranches(ML)) {
      auto *BI = dyn_cast_or_null<BranchInst>(VMap.lookup(R.Branches[Br].Term));
      const ModelBlock *MB = R.block(R.Branches[Br].Term->getParent());
      Ok = BI && BI->isConditional() && MB && P->uniformAcross(Br, Where);
      if (Ok) {
        Exits.push_back({BI, P->uniformCondition(Br, 0, Where), MB});
        Ok = !Exits.back().Cond.is_null();
      }
      if (!Ok)
        break;
    }
    if (Q.exceeded()) {
      OptimizationRemarkEmitter ORE(KernelDT.getRoot()->getParent());
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotLockStep",
                                        ML.L->getHeader()->getTerminator())
               << "loop at " << ML.L->getHeader()->getName()
               << " keeps the work-item loop outside: " << Q.error()
               << " deciding whether it runs in lock-step "
                  "(-iss-lockstep-max-ops)";
      });
    }
    if (!Ok || Exits.empty() || Q.exceeded())
      continue;
    SmallVector<Value *, 2> Conds;
    for (const Exit &E : Exits) {
      SmallVector<Value *, 5> Dims;
      if (!dimValues(*E.MB, VMap, Ids, Counters, Dims))
        break;
      IRBuilder<> B(E.BI);
      IslExprEmitter Em(B, [&](const isl::id &Id) {
        return paramValue(B, Id, MapKernelValue);
      });
      Expected<Value *> C = Em.emitCondition(E.Cond, Dims, context());
      if (!C) {
        consumeError(C.takeError());
        break;
      }
      Conds.push_back(*C);
    }
    // Unused conditions are left for later clean-ups: each is correct.
    if (Conds.size() != Exits.size())
      continue;
    for (unsigned I = 0; I < Exits.size(); ++I) {
      Value *Old = Exits[I].BI->getCondition();
      Exits[I].BI->setCondition(Conds[I]);
      deleteDeadInCopy(Old, CopyBlocks);
    }
    if (PHINode *K = iterationCounter(ML.L, VMap, Counters))
      rewriteInductionVariables(ML.L, VMap, K);
    ++Made;
  }
  return Made;
}

isl::pw_aff ModelSplitPlan::offsetWithin(const ModelAccess &Acc,
                                         const isl::set &Where, unsigned Counts,
                                         InstancesWithin &Within) {
  auto &[Instances, Hull] = Within[Acc.Domain.get()];
  if (Instances.is_null()) {
    isl::set Lifted = Where;
    if (Counts)
      Lifted = Lifted.insert_dims(isl::dim::set, 3, Counts);
    Instances =
        Acc.Domain.intersect(Lifted.set_tuple_id(Acc.Domain.get_tuple_id()));
    if (Instances.is_empty().is_true())
      Instances = isl::set::empty(Instances.space());
    else
      Hull = isl::set(Instances.affine_hull());
  }
  if (Hull.is_null())
    return isl::pw_aff();
  // One expression: what the instances change in it is their equalities
  // (isl substitutes them), which their affine hull has alike.
  if (!IslExprEmitter::oneExpression(Acc.Offset).is_null())
    return Acc.Offset.intersect_domain(Hull);
  isl::pw_aff Offset = Acc.Offset.intersect_domain(Instances);
  if (IslExprEmitter::oneExpression(Offset).is_null())
    Offset = Offset.gist(Instances);
  return Offset;
}

bool ModelSplitPlan::sameCopy(ArrayRef<unsigned> Class, unsigned I,
                              std::vector<isl::pw_aff> &Offsets) const {
  unsigned First = Class.front();
  if (Pieces[RangePieces[First]].WholeTiles !=
      Pieces[RangePieces[I]].WholeTiles)
    return false;
  for (unsigned Br = 0; Br < R.Branches.size(); ++Br)
    if (P->takenOnRange(Br, First) != P->takenOnRange(Br, I))
      return false;
  for (unsigned A = 0; A < R.Accesses.size(); ++A)
    if (P->classifyRange(A, First) != P->classifyRange(A, I))
      return false;
  isl::set Where;
  auto All = [&] {
    if (Where.is_null()) {
      SmallVector<unsigned, 5> Ranges(Class.begin(), Class.end());
      Ranges.push_back(I);
      Where = rangesSet(Ranges);
    }
    return Where;
  };
  // Whether a kernel loop runs in lock-step is decided on the class's
  // ranges together (makeLoopsUniform on their union): a range joins only
  // where every loop exit is as uniform across the class with it as
  // without it. Copies that run no whole tiles never run in lock-step.
  if (Pieces[RangePieces[I]].WholeTiles && !R.Loops.empty()) {
    isl::set Before = rangesSet(Class);
    for (const ModelLoop &ML : R.Loops)
      for (unsigned Br : R.exitBranches(ML))
        if (P->uniformAcross(Br, Before) != P->uniformAcross(Br, All()))
          return false;
  }
  // A recomputed address must be one expression on all the ranges: where
  // the clamps resolve differently (x + s and x + s - n of a wrap-around),
  // a shared copy would compute it piecewise, no longer unit-stride to the
  // vectorizer.
  InstancesWithin Instances;
  std::vector<isl::pw_aff> Found(R.Accesses.size());
  for (unsigned A = 0; A < R.Accesses.size(); ++A) {
    if (!recomputes(A, First))
      continue;
    const ModelAccess &Acc = R.Accesses[A];
    const ModelBlock *MB = R.block(Acc.I->getParent());
    if (!MB)
      continue; // not recomputed in either copy
    isl::pw_aff Offset = offsetWithin(Acc, All(), MB->Loops.size(), Instances);
    if (!Offset.is_null() && IslExprEmitter::oneExpression(Offset).is_null())
      return false;
    Found[A] = Offset;
  }
  Offsets = std::move(Found);
  return true;
}

ArrayRef<SmallVector<unsigned, 4>> ModelSplitPlan::classes() {
  if (ClassesDone)
    return Classes;
  ClassesDone = true;
  // Per class, the addresses sameCopy found on its ranges so far.
  std::vector<std::vector<isl::pw_aff>> Offsets;
  for (unsigned I = 0; I < RangePieces.size(); ++I) {
    unsigned C = 0;
    while (C < Classes.size() && !sameCopy(Classes[C], I, Offsets[C]))
      ++C;
    if (C < Classes.size()) {
      Classes[C].push_back(I);
    } else {
      Classes.push_back({I});
      Offsets.emplace_back();
    }
  }
  for (unsigned C = 0; C < Classes.size(); ++C)
    if (Classes[C].size() > 1)
      SharedOffsets.push_back({Classes[C], std::move(Offsets[C])});
  return Classes;
}

void ModelSplitPlan::copyClasses(
    SmallVectorImpl<SmallVector<unsigned, 4>> &Out) {
  ArrayRef<SmallVector<unsigned, 4>> All = classes();
  Out.assign(All.begin(), All.end());
}

isl::pw_aff ModelSplitPlan::copyOffset(ArrayRef<unsigned> Ranges, unsigned A,
                                       const isl::set &Where,
                                       InstancesWithin &Instances) const {
  for (const auto &[Class, Offsets] : SharedOffsets)
    if (ArrayRef<unsigned>(Class) == Ranges)
      return Offsets[A];
  const ModelAccess &Acc = R.Accesses[A];
  const ModelBlock *MB = R.block(Acc.I->getParent());
  if (!MB)
    return isl::pw_aff();
  return offsetWithin(Acc, Where, MB->Loops.size(), Instances);
}

isl::set ModelSplitPlan::copyHolds(ArrayRef<unsigned> Class,
                                   const isl::set &Within) {
  unsigned First = Class.front();
  isl::set Where = Class.size() == 1 ? P->rangeSetAt(First) : rangesSet(Class);
  isl::set Bad = isl::set::empty(R.Domain.space());
  auto AddBad = [&](const isl::set &Instances) {
    Bad = Bad.unite(SplittingPredicates::toWorkItems(Instances, R.Domain));
  };
  // A folded branch: the instances that may take another successor.
  for (unsigned Br = 0; Br < R.Branches.size(); ++Br) {
    int T = P->takenOnRange(Br, First);
    if (T < 0)
      continue;
    const ModelBranch &MB = R.Branches[Br];
    AddBad(MB.Domain.subtract(MB.Taken[T]));
    for (unsigned S = 0; S < MB.Taken.size(); ++S)
      if (int(S) != T)
        AddBad(MB.Taken[S]);
  }
  // A recomputed address: one expression (any other makes no edge), the
  // instances where the model's offset is another or unknown.
  InstancesWithin Instances;
  for (unsigned A = 0; A < R.Accesses.size(); ++A) {
    if (!recomputes(A, First))
      continue;
    isl::pw_aff Offset = copyOffset(Class, A, Where, Instances);
    if (Offset.is_null())
      continue;
    isl::aff One = IslExprEmitter::oneExpression(Offset);
    if (One.is_null())
      return isl::set::empty(R.Domain.space());
    const ModelAccess &Acc = R.Accesses[A];
    AddBad(Acc.Domain.subtract(Acc.Offset.domain()));
    // Piece by piece: those with the emitted expression (the range's) are
    // right everywhere, the others where they differ from it.
    isl::stat St = Acc.Offset.foreach_piece([&](isl::set Dom, isl::aff A) {
      if (!plainIsEqual(A, One))
        AddBad(isl::pw_aff(A)
                   .intersect_domain(Dom.intersect(Acc.Domain))
                   .ne_set(isl::pw_aff(One)));
      return isl::stat::ok();
    });
    if (St.is_error())
      return isl::set();
  }
  // A loop makeLoopsUniform may run in lock-step (every exit uniform
  // across Where, with a lane-free condition): the instances of an exit
  // where that condition and the branch disagree.
  for (const ModelLoop &ML : R.Loops) {
    if (!ML.Bounded)
      continue;
    SmallVector<std::pair<unsigned, isl::set>, 2> Exits;
    bool LockStep = true;
    for (unsigned Br : R.exitBranches(ML)) {
      isl::set Cond;
      if (P->uniformAcross(Br, Where))
        Cond = P->uniformCondition(Br, 0, Where);
      if (Cond.is_null()) {
        LockStep = false;
        break;
      }
      Exits.push_back({Br, Cond});
    }
    if (!LockStep)
      continue;
    for (auto &[Br, Cond] : Exits) {
      const ModelBranch &MB = R.Branches[Br];
      // The condition is over the block's dimensions, without its name.
      isl::set Named = Cond;
      if (MB.Domain.space().has_tuple_id(isl::dim::set).is_true())
        Named = Named.set_tuple_id(MB.Domain.get_tuple_id());
      isl::set Lifted = Named.intersect(MB.Domain);
      AddBad(MB.Taken[0].subtract(Lifted));
      AddBad(Lifted.subtract(MB.Taken[0]));
    }
  }
  if (Bad.is_null())
    return Bad;
  // Opaque parameters (j * width) stand for any value.
  for (unsigned I = islDim(Bad, isl::dim::param); I-- > 0;) {
    const ModelParam *MP =
        WorkItemModel::param(Bad.get_dim_id(isl::dim::param, I));
    if (MP && MP->K == ModelParam::Opaque)
      Bad = Bad.project_out(isl::dim::param, I, 1);
  }
  return Within.subtract(Bad).coalesce();
}

void ModelSplitPlan::computeEdges() {
  if (EdgesDone)
    return;
  EdgesDone = true;
  auto Hot = [&](unsigned I) {
    return Pieces[RangePieces[I]].WholeTiles &&
           P->pieces()[RangePieces[I]].UniformControl;
  };
  // An edge's tile recurs in every row of a group only where the region
  // has rows (outer work-item ids): in one dimension it is a tile at each
  // end of the launch, a share of the work-items too small for the copies
  // it costs (cfd, fir-tail: 40 % more compile time, no faster).
  bool Rows = any_of(
      seq(3u), [&](unsigned D) { return D != P->dim() && M.localSize(D) > 1; });
  if (!PartialEdges || !Rows || none_of(seq(unsigned(RangePieces.size())), Hot))
    return;
  std::vector<std::pair<isl::pw_aff, isl::pw_aff>> Found(RangePieces.size());
  isl::set Invariant;
  {
    IslQuota Q(M.ctx(), MaxEdgeOps);
    // The tiles of the vector ranges, those of uniform control (hot) and
    // the others: an edge takes its tile from one of the others, whose
    // copy runs it with divergent control at w lanes. A tile of a scalar
    // range (a tail guard's last one) stays there: one more copy of the
    // body, vector, for a tile per row of groups would double many
    // kernels' compile time for a share of a percent of their work-items.
    isl::set HotTiles, VectorTiles;
    auto Unite = [](isl::set &S, const isl::set &T) {
      S = S.is_null() ? T : S.unite(T);
    };
    for (unsigned I = 0; I < RangePieces.size(); ++I)
      if (Hot(I))
        Unite(HotTiles, P->rangeTilesAt(I));
      else if (Pieces[RangePieces[I]].WholeTiles)
        Unite(VectorTiles, P->rangeTilesAt(I));
    if (VectorTiles.is_null())
      return;
    isl::set Outer = P->outerIds();
    SmallVector<isl::pw_aff, 4> Bounds;
    for (ArrayRef<unsigned> Class : classes()) {
      if (!Hot(Class.front()))
        continue;
      // The tiles beside the class's ranges ([1] before, [0] after), and
      // where its copy holds on their work-items.
      SmallVector<std::array<isl::set, 2>, 2> Tiles;
      isl::set Within = isl::set::empty(R.Domain.space());
      for (unsigned I : Class) {
        Tiles.emplace_back();
        for (bool Before : {true, false}) {
          isl::set T = SplittingPredicates::edgeTiles(
                           P->rangeTilesAt(I), HotTiles, P->dim(), Before)
                           .intersect(VectorTiles);
          Tiles.back()[Before] = T;
          Within = Within.unite(SplittingPredicates::workItemsOf(
              T, R.Domain, P->dim(), P->width()));
        }
      }
      if (Within.is_null() || Within.is_empty().is_true())
        continue;
      isl::set Good = copyHolds(Class, Within.coalesce());
      if (Good.is_null() || Good.is_empty().is_true())
        continue;
      for (auto [K, I] : enumerate(Class))
        for (bool Before : {true, false}) {
          isl::set Edge = SplittingPredicates::edgeItems(
              Good, Tiles[K][Before], R.Domain, P->dim(), P->width(), Before);
          if (Edge.is_null() || Edge.is_empty().is_true())
            continue;
          isl::pw_aff B = SplittingPredicates::edgeBound(
              Edge, Outer, P->dim(), Before, P->contextFor({Edge}));
          (Before ? Found[I].first : Found[I].second) = B;
          Bounds.push_back(B);
        }
    }
    if (!Bounds.empty())
      Invariant = SplittingPredicates::invariantParams(Bounds, Outer,
                                                       M.predicateContext());
    if (Q.exceeded() || (!Bounds.empty() && Invariant.is_null())) {
      OptimizationRemarkEmitter ORE(KernelDT.getRoot()->getParent());
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NoEdges",
                                        R.Barrier->getTerminator())
               << "partial tiles beside the vectorized ranges run apart: "
               << (Q.exceeded() ? Q.error() : std::string("no bound"))
               << " computing where their copies hold "
                  "(-iss-edge-max-ops)";
      });
      return;
    }
  }
  Edges = std::move(Found);
  EdgeInvariant = Invariant;
  for (unsigned I = 0; I < Edges.size(); ++I)
    if (!Edges[I].first.is_null() || !Edges[I].second.is_null())
      EdgeRanges.push_back(I);
}

bool ModelSplitPlan::emitRawEdges(IRBuilderBase &B, Value *const OuterIds[3],
                                  function_ref<Value *(Value *)> MapKernelValue,
                                  unsigned Range, Value *&Before,
                                  Value *&After) const {
  Value *Out[2];
  if (!P->emitOuterExprs(B, OuterIds, MapKernelValue,
                         {Edges[Range].first, Edges[Range].second}, Out))
    return false;
  Before = Out[0];
  After = Out[1];
  return true;
}

bool ModelSplitPlan::emitEdges(IRBuilderBase &B, Value *const OuterIds[3],
                               function_ref<Value *(Value *)> MapKernelValue,
                               unsigned Range,
                               std::pair<Value *, Value *> Bound,
                               std::pair<Value *, Value *> &Edge) {
  Value *Before, *After;
  if (!emitRawEdges(B, OuterIds, MapKernelValue, Range, Before, After))
    return false;
  Edge = Bound;
  if (Before)
    Edge.first = B.CreateSelect(hasEdge(B, Before), Before, Bound.first,
                                "wi.edge.begin");
  if (After)
    Edge.second =
        B.CreateSelect(hasEdge(B, After), After, Bound.second, "wi.edge.end");
  return true;
}

bool ModelSplitPlan::specialize(ArrayRef<unsigned> Ranges,
                                ValueToValueMapTy &VMap, Value *const Ids[3],
                                function_ref<Value *(Value *)> MapKernelValue) {
  // The ranges of a class fold the same branches and classify the
  // accesses alike (sameCopy): the first one answers for all.
  unsigned RangeIndex = Ranges.front();
  const SplitRange &Range = P->ranges()[RangeIndex];
  const isl::set Where =
      Ranges.size() == 1 ? P->rangeSetAt(RangeIndex) : rangesSet(Ranges);
  bool WholeTiles = Pieces[Range.Piece].WholeTiles;

  SmallPtrSet<const BasicBlock *, 32> CopyBlocks;
  for (const ModelBlock &MB : R.Blocks)
    if (auto *C = dyn_cast_or_null<BasicBlock>(VMap.lookup(MB.BB)))
      CopyBlocks.insert(C);
  // Addresses first: the branches folded below may delete blocks.
  DenseMap<Loop *, PHINode *> Counters;
  InstancesWithin Instances;
  for (unsigned A = 0; A < R.Accesses.size(); ++A) {
    const ModelAccess &Acc = R.Accesses[A];
    if (!recomputes(A, RangeIndex))
      continue;
    auto *I = dyn_cast_or_null<Instruction>(VMap.lookup(Acc.I));
    if (!I || !CopyBlocks.count(I->getParent()))
      continue;
    Value *Base = MapKernelValue(Acc.Base);
    if (!Base)
      Base = VMap.lookup(Acc.Base);
    if (!Base || !Base->getType()->isPointerTy())
      continue;
    const ModelBlock *MB = R.block(Acc.I->getParent());
    SmallVector<Value *, 5> DimValues;
    if (!MB || !dimValues(*MB, VMap, Ids, Counters, DimValues))
      continue;
    // The offset on the range's instances only, where its clamps resolve
    // (a class's, computed on all its ranges when it was formed).
    isl::pw_aff Offset = copyOffset(Ranges, A, Where, Instances);
    if (Offset.is_null())
      continue;
    IRBuilder<> B(I);
    // An opaque parameter (j * width, uniform along x_d) is the copy's
    // own value, where it is computed before the access.
    IslExprEmitter E(B, [&](const isl::id &Id) -> Value * {
      const ModelParam *MP = WorkItemModel::param(Id);
      if (!MP || MP->K != ModelParam::Opaque)
        return paramValue(B, Id, MapKernelValue);
      auto *Def = dyn_cast_or_null<Instruction>(MP->V);
      if (!Def || !KernelDT.dominates(Def, Acc.I))
        return nullptr;
      return VMap.lookup(Def);
    });
    Expected<Value *> Bytes = E.emit(Offset, DimValues, context());
    if (!Bytes) {
      consumeError(Bytes.takeError());
      continue;
    }
    Value *Ptr = B.CreateInBoundsGEP(B.getInt8Ty(), Base, *Bytes,
                                     Acc.I->getName() + ".addr");
    Value *Old;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      Old = L->getPointerOperand();
      L->setOperand(L->getPointerOperandIndex(), Ptr);
    } else {
      auto *S = cast<StoreInst>(I);
      Old = S->getPointerOperand();
      S->setOperand(S->getPointerOperandIndex(), Ptr);
    }
    deleteDeadInCopy(Old, CopyBlocks);
  }
  // Branches taken the same way on every instance of the range.
  for (unsigned Br = 0; Br < R.Branches.size(); ++Br) {
    int Taken = P->takenOnRange(Br, RangeIndex);
    if (Taken < 0)
      continue;
    auto *T = dyn_cast_or_null<Instruction>(VMap.lookup(R.Branches[Br].Term));
    if (!T)
      continue;
    if (auto *BI = dyn_cast<BranchInst>(T)) {
      if (!BI->isConditional())
        continue;
      BI->setCondition(ConstantInt::getBool(BI->getContext(), Taken == 0));
    } else if (auto *SI = dyn_cast<SwitchInst>(T)) {
      BasicBlock *Succ = SI->getSuccessor(Taken);
      ConstantInt *Case = nullptr;
      for (auto &C : SI->cases())
        if (C.getCaseSuccessor() == Succ)
          Case = C.getCaseValue();
      if (!Case)
        continue;
      SI->setCondition(Case);
    } else {
      continue;
    }
    ConstantFoldTerminator(T->getParent(), /*DeleteDeadConditions=*/true);
  }
  // The blocks the copy still reaches: a loop its folded branches cut off
  // (a box filter's window, in the apron that returns first) would make
  // the copy a tile function for nothing.
  SmallPtrSet<const BasicBlock *, 32> Reached;
  SmallVector<const BasicBlock *, 16> Work;
  for (const BasicBlock *BB : CopyBlocks)
    if (any_of(predecessors(BB),
               [&](const BasicBlock *P) { return !CopyBlocks.count(P); }))
      Work.push_back(BB);
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Reached.insert(BB).second)
      continue;
    for (const BasicBlock *S : successors(BB))
      if (CopyBlocks.count(S))
        Work.push_back(S);
  }
  unsigned Uniform =
      WholeTiles ? makeLoopsUniform(RangeIndex, Where, VMap, Ids, CopyBlocks,
                                    Reached, Counters, MapKernelValue)
                 : 0;
  for (unsigned I : Ranges)
    LockStep[I] = Uniform;
  return Uniform > 0;
}

std::string ModelSplitPlan::describe(unsigned RangeIndex) const {
  unsigned Count[3] = {0, 0, 0};
  for (unsigned A = 0; A < R.Accesses.size(); ++A)
    if (!readsWorkGroupValue(R.Accesses[A]))
      ++Count[unsigned(P->classifyRange(A, RangeIndex))];
  unsigned Folded = 0;
  for (unsigned Br = 0; Br < R.Branches.size(); ++Br)
    Folded += P->takenOnRange(Br, RangeIndex) >= 0;
  std::string S = "accesses " + std::to_string(Count[0]) + " consecutive, " +
                  std::to_string(Count[1]) + " uniform, " +
                  std::to_string(Count[2]) + " divergent; branches " +
                  std::to_string(Folded) + " of " +
                  std::to_string(R.Branches.size()) + " folded";
  // Which loops run in lock-step is decided on the copy, as it is
  // specialized.
  if (!R.Loops.empty() && LockStep[RangeIndex] >= 0)
    S += "; loops " + std::to_string(LockStep[RangeIndex]) + " of " +
         std::to_string(R.Loops.size()) + " uniform";
  return S;
}

void ModelSplitPlan::print(raw_ostream &OS) {
  OS << RangePieces.size() << " ranges of " << Pieces.size() << " pieces\n";
  for (unsigned I = 0; I < Pieces.size(); ++I)
    OS << "    piece " << I << " (" << P->pieces()[I].name(R)
       << "): " << (Pieces[I].WholeTiles ? "whole tiles" : "scalar") << ", "
       << islStr(M.simplify(P->pieces()[I].Set)) << "\n";
  for (unsigned I = 0; I < RangePieces.size(); ++I)
    OS << "    range " << I << " " << P->rangeBounds(I) << ": piece "
       << RangePieces[I] << "; " << describe(I) << "\n";
  auto List = [&](ArrayRef<unsigned> L) {
    OS << "{";
    ListSeparator Comma;
    for (unsigned I : L)
      OS << Comma << I;
    OS << "}";
  };
  OS << "    copies:";
  for (ArrayRef<unsigned> Class : classes()) {
    OS << " ";
    List(Class);
  }
  OS << "\n    edges: ";
  List(edgeRanges());
  int Plain = unspecializedRange();
  OS << "\n    unspecialized range: "
     << (Plain < 0 ? std::string("none") : std::to_string(Plain)) << "\n";
}

/// Whether a successor of branch \p Br of \p R post-dominates it: the
/// branch only guards code.
static bool isGuard(const RegionModel &R, unsigned Br,
                    const PostDominatorTree &PDT) {
  const BasicBlock *BB = R.Branches[Br].Term->getParent();
  return any_of(successors(BB),
                [&](const BasicBlock *S) { return PDT.dominates(S, BB); });
}

bool masksCoverAsWritten(const WorkItemModel &M, const RegionModel &R,
                         unsigned Dim, unsigned Width, unsigned MaxPieces,
                         const PostDominatorTree &PDT) {
  if (!R.Modelled || !R.Loops.empty())
    return false;
  auto Along = [&](unsigned Br) -> bool {
    return R.Branches[Br].UniformDims >> Dim & 1;
  };
  auto Branches = seq(unsigned(R.Branches.size()));
  if (none_of(Branches,
              [&](unsigned Br) { return !Along(Br) && isGuard(R, Br, PDT); }))
    return false;
  SplittingPredicates Written(M, R, Dim, Width, MaxPieces,
                              /*PointwiseOnly=*/true);
  return all_of(
             Branches,
             [&](unsigned Br) { return Along(Br) || isGuard(R, Br, PDT); }) &&
         all_of(seq(unsigned(R.Accesses.size())), [&](unsigned A) {
           return !R.Accesses[A].Checked && Written.consecutiveAsWritten(A);
         });
}

bool nothingToSplit(const WorkItemModel &M, const RegionModel &R,
                    unsigned Dim, unsigned Width) {
  if (!R.Modelled || M.localSize(Dim) % (Width ? Width : 1))
    return false;
  if (any_of(R.Branches,
             [&](const ModelBranch &B) { return !(B.UniformDims >> Dim & 1); }))
    return false;
  return all_of(R.Accesses, [&](const ModelAccess &A) {
    if (A.Checked)
      return false;
    if (A.Offset.is_null())
      return true;
    isl::aff Aff = onlyPieceOn(A.Offset, A.Domain);
    return !Aff.is_null() && islDim(Aff, isl::dim::div) == 0;
  });
}

RegionPlanner makeRegionPlanner(const WorkItemModel &M, unsigned Dim,
                                unsigned Width, unsigned MaxPieces,
                                bool CheapMasks, bool PartialEdges,
                                Function &Kernel) {
  auto DT = std::make_shared<DominatorTree>(Kernel);
  // Only the masked-guard rule asks which successors post-dominate.
  auto PDT = CheapMasks ? std::make_shared<PostDominatorTree>(Kernel) : nullptr;
  return [&M, Dim, Width, MaxPieces, CheapMasks, PartialEdges, DT,
          PDT](BasicBlock *Barrier) -> RegionPlan {
    auto Refuse = [](const Twine &Why) {
      return RegionPlan{nullptr, Why.str(), /*Refused=*/true};
    };
    auto Unsplit = [](const Twine &Why) {
      return RegionPlan{nullptr, Why.str(), /*Refused=*/false};
    };
    const RegionModel *R = M.region(Barrier);
    if (!R)
      return Unsplit("no region");
    if (!R->Modelled)
      return Refuse(R->Why.empty() ? "not modelled" : R->Why);
    // The vectorizer's own masks do better.
    if (M.localSize(Dim) < Width)
      return Unsplit("fewer work-items than lanes, no whole tile");
    // What the gain check below would find, at no cost.
    if (nothingToSplit(M, *R, Dim, Width))
      return Unsplit("nothing a split could fold or mend, as the model shows "
                     "before any predicate");
    // Where masked loads and stores cost what plain ones do, a straight-line
    // region whose accesses are all consecutive (and not so only by the
    // model's checks) runs as fast on the vectorizer's masks: a branch
    // that only guards code there (a tail guard) gains nothing from a
    // split, which adds its ranges' bounds to every group (Parboil's
    // stencil ran 10% slower split). A uniform access under the guard
    // would become a masked gather, and a loop would not run in lock-step.
    auto Guard = [&](unsigned Br) { return isGuard(*R, Br, *PDT); };
    const char *MasksCover = "its branches only guard consecutive accesses, "
                             "which the vectorizer's masks cover as fast "
                             "(-iss-cheap-masks)";
    bool StraightLine = CheapMasks && R->Loops.empty();
    // Decided as written first, before any set is computed.
    if (CheapMasks && masksCoverAsWritten(M, *R, Dim, Width, MaxPieces, *PDT))
      return Refuse(MasksCover);
    auto P =
        std::make_unique<SplittingPredicates>(M, *R, Dim, Width, MaxPieces);
    if (P->ranges().empty())
      return Refuse(P->refusal() +
                    (StringRef(P->refusal()).contains("more than")
                         ? " (POCL_ISS_MAX_PIECES)"
                         : ""));
    // The same on the predicates' classes, which clamps that never clamp
    // may pass.
    bool Masked =
        StraightLine &&
        all_of(seq(unsigned(R->Accesses.size())), [&](unsigned A) {
          return !R->Accesses[A].Checked &&
                 P->classify(A, R->Domain) == AccessClass::Consecutive;
        });
    bool GuardFolds = false;
    // A range gains only where its copy runs vector code and does
    // something. One that keeps a kernel loop per work-item (keptPerWorkItem)
    // runs its tiles scalar whatever it folds or mends: that saves a few
    // instructions per work-item, for one more copy of the region to
    // compile (kmeans_swap's transposing loop, per work-item in every mode:
    // its split compiled 2.8 times as long as `vec` for the same run). One
    // that reaches no load or store (the tiles past uniformPow's tail
    // guard, those without lane 0 at binomialOption's `lid == 0`) has
    // nothing to do faster.
    struct Kept {
      const ModelLoop *ML = nullptr;
      KeptLoop Why = KeptLoop::No;
    };
    SmallVector<std::optional<Kept>, 8> KeptMemo(P->ranges().size());
    Kept Blocked; // the first loop that kept a gain scalar, for the remark
    auto Scalar = [&](unsigned I) {
      std::optional<Kept> &K = KeptMemo[I];
      if (!K) {
        K = Kept();
        for (const ModelLoop &ML : R->Loops)
          if (KeptLoop Why = keptPerWorkItem(M, *R, *P, ML, I, Dim);
              Why != KeptLoop::No) {
            K = Kept{&ML, Why};
            break;
          }
      }
      if (K->ML && !Blocked.ML)
        Blocked = *K;
      return K->ML != nullptr;
    };
    auto Gains = [&] {
      unsigned NumRanges = P->ranges().size();
      for (unsigned Br = 0; Br < R->Branches.size(); ++Br) {
        if (P->takenOnAll(Br) >= 0 || none_of(seq(NumRanges), [&](unsigned I) {
              return P->takenOnRange(Br, I) >= 0 &&
                     reachesAccess(*R, *P, I) && !Scalar(I);
            }))
          continue;
        if (!Masked || !Guard(Br))
          return true;
        GuardFolds = true;
      }
      for (unsigned A = 0; A < R->Accesses.size(); ++A) {
        if (!R->Accesses[A].Checked &&
            P->classify(A, R->Domain) != AccessClass::Divergent)
          continue;
        // On a range where it runs: one it never reaches is vacuously
        // consecutive there.
        for (unsigned I = 0; I < NumRanges; ++I)
          if (P->pieces()[P->ranges()[I].Piece].Full &&
              P->classifyRange(A, I) != AccessClass::Divergent &&
              noneOnRange(*R, *P, R->Accesses[A].Domain, I).is_false() &&
              !Scalar(I))
            return true;
      }
      // A kernel loop whose trip count diverges across the lanes of a tile
      // somewhere (so that no mode runs it in lock-step unsplit) but is the
      // same for every work-item of a range of whole tiles that runs it:
      // there the lanes go inside it (horizontal parallelization).
      for (const ModelLoop &ML : R->Loops) {
        SmallVector<unsigned, 2> Exits = R->exitBranches(ML);
        if (!ML.Bounded || Exits.empty() || all_of(Exits, [&](unsigned Br) {
              return R->Branches[Br].UniformDims >> Dim & 1;
            }))
          continue;
        for (unsigned I = 0; I < NumRanges; ++I) {
          if (!P->pieces()[P->ranges()[I].Piece].Full)
            continue;
          // Under the lock-step test's own quota: out of it, no gain.
          IslQuota Q(M.ctx(), MaxLockStepOps);
          isl::set Where = P->rangeSetAt(I);
          // Taken both ways on the range: the loop runs there.
          if (all_of(Exits,
                     [&](unsigned Br) {
                       return P->takenOnRange(Br, I) < 0 &&
                              P->uniformAcross(Br, Where);
                     }) &&
              !Q.exceeded() && !Scalar(I))
            return true;
        }
      }
      return false;
    };
    if (!Gains()) {
      if (GuardFolds)
        return Refuse(MasksCover);
      if (!Blocked.ML)
        return Unsplit("no range's copy would fold a branch, mend an access "
                       "or run a loop in lock-step");
      const char *Why =
          Blocked.Why == KeptLoop::TripCount
              ? "its trip count may differ across the lanes"
          : Blocked.Why == KeptLoop::Accesses
              ? "its accesses are all divergent across the lanes"
              : "isl ran out of quota deciding whether it runs in lock-step "
                "(-iss-lockstep-max-ops)";
      return Refuse(Twine("what it would fold or mend lies in ranges whose "
                          "tiles stay scalar, the loop at ") +
                    Blocked.ML->L->getHeader()->getName() +
                    " kept per work-item there: " + Why);
    }
    return RegionPlan{std::make_unique<ModelSplitPlan>(M, *R, std::move(P), *DT,
                                                       PartialEdges),
                      "", false};
  };
}

SplitPlanner makeSplitPlanner(const WorkItemModel &M, unsigned Dim,
                              unsigned Width, unsigned MaxPieces,
                              bool CheapMasks, bool PartialEdges,
                              Function &Kernel) {
  RegionPlanner Plan = makeRegionPlanner(M, Dim, Width, MaxPieces, CheapMasks,
                                         PartialEdges, Kernel);
  return [Plan, &Kernel](BasicBlock *Barrier) -> std::unique_ptr<SplitPlan> {
    RegionPlan RP = Plan(Barrier);
    if (RP.Refused) {
      OptimizationRemarkEmitter ORE(&Kernel);
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotSplit",
                                        &Barrier->front())
               << "region after " << Barrier->getName()
               << " not split: " << RP.Why;
      });
    }
    return std::move(RP.Plan);
  };
}

PreservedAnalyses SplitPlanPrinterPass::run(Function &F,
                                            FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !F.hasFnAttribute("iss-local-size"))
    return PreservedAnalyses::all();
  static const char *const DimNames[3] = {"x", "y", "z"};
  unsigned Dim = Config.vectorizedDim();
  OS << "iss-predicates of @" << F.getName() << ", local size "
     << Config.LocalSize[0] << "x" << Config.LocalSize[1] << "x"
     << Config.LocalSize[2] << ", " << modeName(Config.IssMode) << ", "
     << DimNames[Dim] << " with " << Config.VectorWidth << " lanes\n";
  // What iss-split checks before it asks for plans.
  const char *Whole = nullptr;
  if (Config.IssMode != Mode::Split && Config.IssMode != Mode::SplitScore)
    Whole = "the mode does not split";
  else if (F.hasFnAttribute(AsWrittenAttr))
    Whole = "the kernel runs as written (iss-as-written)";
  else if (Config.MaxPieces <= 1)
    Whole = "one piece at most (POCL_ISS_MAX_PIECES)";
  else if (Config.LocalSize[Dim] <= 1)
    Whole = "one work-item along the vectorized dimension";
  if (Whole) {
    OS << "  not split: " << Whole << "\n";
    return PreservedAnalyses::all();
  }
  const WorkItemModel &M = FAM.getResult<WorkItemModelAnalysis>(F);
  RegionPlanner Plan = makeRegionPlanner(
      M, Dim, Config.VectorWidth, Config.MaxPieces, Config.CheapMasks,
      Config.PartialEdges && Config.CheapMasks, F);
  for (const RegionModel &R : M.regions()) {
    OS << "  region " << blockName(R.Barrier) << ": ";
    RegionPlan RP = Plan(R.Barrier);
    if (RP.Plan)
      RP.Plan->print(OS);
    else
      OS << "not split: " << RP.Why << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace iss
