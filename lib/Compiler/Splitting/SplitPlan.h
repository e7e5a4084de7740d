//===- SplitPlan.h - How iss-split runs a split region ----------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The interface between the split regions' loops (SplitRegions.cpp) and
// the rest of input space splitting (the input-space-splitting paper, sections
// 3 and 5; DESIGN.md section 6, "Split"). For a parallel region, a plan cuts
// the vectorized work-item loop into consecutive ranges of the vectorized
// id, whose bounds are computed per work group (and per outer work-item
// ids) from the parameters; each range runs its own copy of the region's
// body, specialised to the piece of the work-item space it covers.
//
// iss-split builds the loops: each range its own nest of the outer
// work-item loops around a loop of the vectorized id; a range of a piece
// made of whole tiles is a loop over tiles around a loop of exactly w
// work-items, which the loop vectorizer turns into straight vector code
// (no epilogue, no runtime checks: the loops are parallel); any other
// range is a scalar loop. A work group that one range covers whole runs
// that range alone (emitWholeGroupTests); where the bounds are the same in
// every row (emitBoundsInvariant) they are computed once per group.
// Ranges whose copies would be the same code share one (copyClasses). The
// plan computes the bounds and specialises each copy; it knows nothing of
// how the loops are built.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_SPLITPLAN_H
#define POCL_ISS_COMPILER_SPLITTING_SPLITPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <functional>
#include <memory>
#include <string>

namespace llvm {
class BasicBlock;
class IRBuilderBase;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

/// A piece of a region's work-item space and how its range runs.
struct SplitPieceInfo {
  /// Its ranges hold whole tiles of w work-items (their bounds are
  /// multiples of w) and its copy is meant for vector code.
  bool WholeTiles = false;
  /// For POCL_ISS_STATS and remarks: "interior", "border", ...
  std::string Name;
};

/// How one parallel region is split. Made per region by the splitter;
/// iss-split calls it while it builds the region's loops.
class SplitPlan {
public:
  virtual ~SplitPlan();

  /// The pieces; ranges refer to them by index.
  virtual llvm::ArrayRef<SplitPieceInfo> pieces() const = 0;
  /// The piece of each range, in the order of the vectorized id.
  virtual llvm::ArrayRef<unsigned> rangePieces() const = 0;

  /// Emits, at \p B (at the region's start, once per work group), whether
  /// the parameters satisfy what the plan assumes (an i1); null when that
  /// cannot be computed (the region then runs unsplit). \p MapKernelValue
  /// maps a value of the kernel (an argument, a work-item global) to its
  /// value in the work-group function, or null.
  virtual llvm::Value *emitAssumptionCheck(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue) = 0;

  /// Emits, at \p B (inside the outer work-item loops, once per outer
  /// ids), the bounds [Begin_i, End_i) of every range as i64 values in
  /// 0..L_d, Begin_0 = 0, End_i = Begin_i+1 and End_last = L_d; the bounds
  /// of a range of whole tiles are multiples of w. \p OuterIds holds the
  /// ids of the dimensions other than the vectorized one (that one is
  /// null). False when a bound cannot be emitted: the caller then runs
  /// the region's work-items in one plain loop.
  virtual bool emitBounds(
      llvm::IRBuilderBase &B, llvm::Value *const OuterIds[3],
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
      llvm::SmallVectorImpl<std::pair<llvm::Value *, llvm::Value *>>
          &Bounds) = 0;

  /// Emits, at \p B (first at the region's start), for some ranges the
  /// test that the range is [0, L_d) at every outer id in this work group
  /// (then it runs alone, none of the bounds computed): \p Tests gets
  /// (range, i1) pairs, in the order to test them.
  virtual void emitWholeGroupTests(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
      llvm::SmallVectorImpl<std::pair<unsigned, llvm::Value *>> &Tests) = 0;
  /// emitBounds for range \p Range alone: its [Begin, End) in \p Bound.
  virtual bool emitRangeBounds(
      llvm::IRBuilderBase &B, llvm::Value *const OuterIds[3],
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
      unsigned Range, std::pair<llvm::Value *, llvm::Value *> &Bound) = 0;
  /// Emits, at \p B (at the region's start, before the outer work-item
  /// loops), whether emitBounds gives the same bounds for every value of
  /// the outer ids in this work group (an i1; constant true when it always
  /// does). The caller then computes them once, at outer ids 0, instead of
  /// once per row. Null when that cannot be computed.
  virtual llvm::Value *emitBoundsInvariant(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue) = 0;

  /// The ranges whose specialised copies are the same code, as classes:
  /// each class runs as one nest of rows with one copy of the body, over
  /// its ranges in turn (fewer copies for the back half to compile; 2DCONV
  /// has the interior on both sides of a border tile). Every range is in
  /// one class; a class lists its ranges in increasing order, and the
  /// classes come in the order of their first ranges.
  virtual void copyClasses(
      llvm::SmallVectorImpl<llvm::SmallVector<unsigned, 4>> &Classes) = 0;

  /// Specialises the copy of the region's body that runs the ranges
  /// \p Ranges (a class of copyClasses): \p VMap maps the kernel's blocks
  /// and values to the copy's; \p Ids are the copy's work-item ids. True
  /// when kernel loops of the copy now run in lock-step on every lane of
  /// the ranges (their exits and induction variables depend on the outer
  /// ids, counters and parameters only): the work-item loop of its tiles
  /// may then go inside them.
  virtual bool specialize(
      llvm::ArrayRef<unsigned> Ranges, llvm::ValueToValueMapTy &VMap,
      llvm::Value *const Ids[3],
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue) = 0;

  /// The ranges of whole tiles that have an edge: work-items of the
  /// partial tile beside them (the tile of another piece next to their
  /// first or last one) on which their copy computes what the region as
  /// written does (Convolution2D's interior beside the image's border,
  /// which the tile's border lanes cut). emitBounds leaves such a tile out
  /// of the range that holds it; iss-split runs it apart: those
  /// work-items with a copy of the range's class as one vector iteration
  /// with masks, the tile's others with the region as written, scalar.
  virtual llvm::ArrayRef<unsigned> edgeRanges() = 0;
  /// Emits, at \p B (inside the outer work-item loops), the edges of range
  /// \p Range, whose bounds there are \p Bound: the work-items
  /// [Edge.first, Bound.first) and [Bound.second, Edge.second) run its
  /// copy (Edge = Bound on a side without one). False when they cannot be
  /// emitted.
  virtual bool
  emitEdges(llvm::IRBuilderBase &B, llvm::Value *const OuterIds[3],
            llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
            unsigned Range, std::pair<llvm::Value *, llvm::Value *> Bound,
            std::pair<llvm::Value *, llvm::Value *> &Edge) = 0;

  /// A range whose copy is the region as written, whatever the
  /// parameters: it runs as a scalar loop, specialize folds no branch and
  /// recomputes no address there (SobelFilter's partial tiles at the
  /// image's edges). -1 if none. Its copy may then run every work-item of
  /// a group where the plan's assumptions fail.
  virtual int unspecializedRange() const = 0;

  /// What the plan knows of range \p Range's copy, for POCL_ISS_STATS
  /// (the paper's Table 3), on one line: its accesses by class
  /// (consecutive, uniform, divergent on the range's tiles), the branches
  /// folded, and how many of its kernel loops run in lock-step (uniform;
  /// the others are divergent). Call it after specializing the class of
  /// \p Range; every range of a class gives the same line.
  virtual std::string describe(unsigned Range) const = 0;

  /// The plan as print<iss-predicates> shows it: the pieces with their
  /// work-items, the ranges with their bounds and what describe() says of
  /// them before any copy is specialized (so without its loops), the copy
  /// classes, the ranges with edges and the unspecialized range. Computes
  /// the classes and the edges as iss-split would.
  virtual void print(llvm::raw_ostream &OS) = 0;
};

/// The plan for the region a barrier block starts, or null to run it
/// unsplit.
using SplitPlanner =
    std::function<std::unique_ptr<SplitPlan>(llvm::BasicBlock *Barrier)>;

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_SPLITPLAN_H
