//===- WorkItemModel.h - Polyhedral model of parallel regions ---*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The polyhedral model of a kernel's parallel regions (the input-space-
// splitting paper, sections 2.1 and 5; DESIGN.md section 6, "Model"): for
// each region, isl sets over the work-item ids and the kernel's own loops
// in the region, with the group offsets, the kernel's integer arguments and
// the group counts as parameters. The splitting predicates
// (SplittingPredicates.h) are computed from it.
//
// Where it runs. On the kernel function after the work-group front half's
// canonical passes (after iss-context, before iss-split). There, the
// local size is a compile-time constant (iss-prepare), the work-item ids
// are loads of _local_id_{x,y,z}, get_global_id(d) is inlined as
// _local_id_d + _group_id_d * L_d + _global_offset_d, and a parallel region
// is what a barrier block reaches before the next barrier blocks, exactly
// the region iss-split copies into a work-item loop nest (formRegion in
// WorkItemLoops.cpp): the split pass asks for the model before it builds the
// work-group function and finds a region by its barrier block, its blocks,
// branches and accesses by the kernel's own IR (map them through the
// ValueToValueMap of the region's copy).
//
// Spaces (the first three set dimensions are always the work-item ids):
//  - a region's work-item domain is
//      { WI[x, y, z] : 0 <= x < Lx and 0 <= y < Ly and 0 <= z < Lz };
//  - a block in the kernel loops L0 (outermost) .. Ln-1 of the region has
//    its instances in { H[x, y, z, k0, ..., kn-1] }, where H is the header
//    of Ln-1 (blocks of the same loop share the space) and ki counts the
//    iterations of Li from 0, so an induction variable {s,+,c}<Li> is
//    s + c * ki; blocks outside kernel loops live in WI itself.
//  - parameters (Table 2): O_d = group_id_d * L_d + global_offset_d, the
//    group offset, so get_global_id(d) = x_d + O_d; G_d = group_id_d (only
//    when the kernel uses the group id otherwise than in the global id);
//    N_d = num_groups_d; work_dim; every integer argument, named after it;
//    a non-linear function of those (a division of an argument by 2, a
//    product of two arguments) is a parameter of its own, named after its
//    instruction, which the split pass recomputes (ModelParam::materialize).
//    A value that is not affine but the same for work-items that differ in
//    some dimensions only (a load from a uniform address; y * width, which
//    only y changes) is an opaque parameter: the lanes of a tile of such a
//    dimension d share its value at equal loop counters, so for d the
//    predicates hold for every value of it (a universal quantifier
//    eliminates it) and it never reaches the split pass; for the
//    dimensions it varies with, what involves it is non-affine.
//
// Exactness. Values are modelled by their signed value. Branch conditions
// (icmp signed and unsigned, and/or/not, select, switch) and accesses whose
// index is affine in the ids, the loop counters and the parameters --
// min/max/clamps (selects, intrinsics, and the kernel library's max, min
// and clamp, which stay calls until the work-item loops exist: their body
// is read with the call's arguments), sext, divisions and remainders by
// constants included -- are exact. Arithmetic with nsw flags (clang's int
// arithmetic), sext, inbounds GEPs and signed divisions need no further
// justification; otherwise (the trunc of a size_t global id to int, a
// zext, an add without nsw) the value is exact where it stays in its type's
// range: when isl proves it over the instances, nothing is assumed; else
// the parameters where it does are added to assumptions() (whatever the
// opaque parameters are), and the split pass must check them at run time
// (a few comparisons, per work group: emitAssumptionCheck) and run the
// unsplit nest where they fail. When no parameters satisfy them, the
// value is treated as non-affine.
// Non-affine conditions over-approximate: both successors get the
// branch's whole domain, and a loop whose exits are not affine gets an
// unbounded counter. A non-affine access is divergent, unless the
// uniformity analysis proves its address uniform. Nothing over-
// approximated ever makes a predicate hold where it does not.
//
// Cost: every value, condition and access is translated once per loop
// scope (memoized); domains are unions of incoming edges, each block once;
// isl work per region is bounded by -iss-model-max-ops (a region past the
// bound is not modelled: nothing is split there).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_WORKITEMMODEL_H
#define POCL_ISS_COMPILER_SPLITTING_WORKITEMMODEL_H

#include "pocl-iss/IslHelpers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class BasicBlock;
class IRBuilderBase;
class Function;
class Instruction;
class Loop;
class LoopInfo;
class ScalarEvolution;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

class WorkItemUniformity;

/// What a parameter of the model stands for; the split pass computes it
/// per work group (IslExprEmitter maps each isl parameter to its value).
struct ModelParam {
  enum Kind {
    GroupOffset, ///< O_Dim = group_id * L_Dim + global_offset
    GroupId,     ///< group_id of Dim
    NumGroups,   ///< num_groups of Dim
    WorkDim,     ///< get_work_dim()
    Argument,    ///< the kernel's integer argument V
    Derived,     ///< V, a non-linear function of the above (materialize())
    Opaque       ///< V, not affine, uniform along some dimensions: never
                 ///< in a predicate
  };
  Kind K;
  unsigned Dim = 0;
  llvm::Value *V = nullptr;
  /// Opaque: bit d when work-items that differ in dimension d only may see
  /// different values (by the uniformity analysis rooted at that id).
  unsigned VariesWith = 0;
  /// Opaque: V is computed from the arguments, the work-group values and
  /// the local ids alone, by a few instructions that cannot trap, so that
  /// it can be recomputed for every work-item (an assumption on it is then
  /// checkable: WorkItemModel::opaqueAssumptions).
  bool Recomputable = false;
  isl::id Id; ///< the isl parameter; its user pointer is this struct

  /// For a Derived or Recomputable opaque parameter: a copy of V's
  /// instructions at \p B, their leaves (arguments, loads of work-item
  /// globals) replaced by \p Leaf's values.
  llvm::Value *
  materialize(llvm::IRBuilderBase &B,
              llvm::function_ref<llvm::Value *(llvm::Value *)> Leaf) const;
};

/// A block of a region and its instances.
struct ModelBlock {
  llvm::BasicBlock *BB;
  /// The kernel loops of the region around BB, outermost first.
  llvm::SmallVector<llvm::Loop *, 2> Loops;
  /// \p Domain is { H[x, y, z, k0, ...] : the instances of BB }, H the
  /// space of BB's innermost loop (WI outside loops).
  isl::set Domain;
  /// False when a non-affine condition made Domain an over-approximation.
  bool Exact = true;
};

/// A kernel loop of a region (a loop with no barrier).
struct ModelLoop {
  llvm::Loop *L;
  unsigned Depth; ///< its counter is set dimension 3 + Depth
  /// Whether affine exits bound the counter (else it is unbounded).
  bool Bounded = false;
};

/// A conditional branch or switch of a region.
struct ModelBranch {
  llvm::Instruction *Term;
  /// \p Domain is the instances of Term's block { H[x, y, z, k...] }.
  isl::set Domain;
  /// \p Taken[i] is { H[x, y, z, k...] : successor i is taken }, within
  /// Domain; the whole Domain for each successor when not Affine.
  llvm::SmallVector<isl::set, 2> Taken;
  /// \p Conditions[i] is { H[x, y, z, k...] : the terminator would go to
  /// successor i }, not restricted to Domain (Taken[i] = Domain and it).
  llvm::SmallVector<isl::set, 2> Conditions;
  bool Affine = false;
  /// Bit d: the uniformity analysis proves the condition the same for
  /// work-items that differ in dimension d only (so it is uniform on every
  /// tile of d, affine or not).
  unsigned UniformDims = 0;
};

/// A load or a store of a region.
struct ModelAccess {
  llvm::Instruction *I;
  /// The underlying pointer the offset is taken from: an argument, a
  /// __local variable, a context slot, a uniform value.
  llvm::Value *Base = nullptr;
  /// Bit d: Base is the same for work-items that differ in d only.
  unsigned BaseDims = 0;
  /// \p Domain is the instances of I's block { H[x, y, z, k...] }.
  isl::set Domain;
  /// \p Offset is { H[x, y, z, k...] -> [bytes from Base] }; null when
  /// the address is not affine (then the access is divergent in the
  /// dimensions not in UniformDims).
  isl::pw_aff Offset;
  unsigned Size = 0; ///< bytes read or written per work-item
  bool IsStore = false;
  /// Bit d: the address is the same for work-items that differ in d only.
  unsigned UniformDims = 0;
  /// The offset is exact under run-time checks on values with opaque
  /// parameters (the zext of `x + y * width` in unsigned int): LLVM, which
  /// can version a loop for a wrap of the work-item id but not for one of
  /// such a value, does not see the IR's address as affine; the split's
  /// address (from Offset) is.
  bool Checked = false;
};

/// One parallel region: what its barrier block reaches before the next
/// barrier blocks.
struct RegionModel {
  llvm::BasicBlock *Barrier = nullptr;
  /// \p Domain is { WI[x, y, z] : 0 <= x < Lx and 0 <= y < Ly and ... }.
  isl::set Domain;
  /// False when the region's CFG is irregular or isl ran out of quota:
  /// only Domain is set and nothing may be split.
  bool Modelled = false;
  std::string Why;                ///< why it is not modelled
  std::vector<ModelBlock> Blocks; ///< in a topological order
  std::vector<ModelLoop> Loops;   ///< outer loops before inner ones
  std::vector<ModelBranch> Branches;
  std::vector<ModelAccess> Accesses;

  const ModelBlock *block(const llvm::BasicBlock *BB) const;
  const ModelLoop *loop(const llvm::Loop *L) const;
  /// The branches that leave \p L.
  llvm::SmallVector<unsigned, 2> exitBranches(const ModelLoop &L) const;
};

/// The model of one kernel function.
class WorkItemModel {
public:
  /// \p Uniform[d] is the uniformity analysis rooted at the local id of
  /// dimension d alone (null when L_d = 1).
  WorkItemModel(llvm::Function &F, llvm::ScalarEvolution &SE,
                llvm::LoopInfo &LI,
                llvm::ArrayRef<const WorkItemUniformity *> Uniform);
  WorkItemModel(WorkItemModel &&) = default;
  ~WorkItemModel();

  isl::ctx ctx() const;
  /// The local size the model was built for (the iss-local-size attribute).
  unsigned localSize(unsigned Dim) const { return LocalSize[Dim]; }
  /// \p Context is [params] -> { : what is known of them }: their types'
  /// ranges, O_d >= 0, 0 <= G_d < N_d, 1 <= work_dim <= 3.
  isl::set context() const { return Context; }
  /// The context without the bounds of 64-bit parameters (2^63 makes
  /// isl's arithmetic slow and tells a predicate nothing), within the
  /// assumptions: what the predicates are simplified with.
  isl::set predicateContext() const { return LightContext.intersect(Assumed); }
  /// Of the context, the bounds with small constants on the group offsets
  /// and counts (O_d >= 0, N_d >= 1) and 1 <= work_dim <= 3: cheap to test
  /// a disjunct against (dropDisjunctsOutside).
  isl::set signContext() const { return SignContext; }
  /// The launches without a global offset, within signContext(): O_d =
  /// L_d * G_d (a multiple of L_d where the kernel has no G_d) below
  /// L_d * N_d. What the tests that only choose a faster path are kept for
  /// (keepDisjunctsMeeting).
  isl::set offsetFreeLaunches() const { return OffsetFree; }
  /// The group id, count or offset of dimension \p Dim; null if the
  /// kernel has none.
  const ModelParam *groupParam(ModelParam::Kind K, unsigned Dim) const;
  /// \p Assumed is [params] -> { : where the model is exact } (see the
  /// file comment); the universe when nothing is assumed. Has no opaque
  /// parameters.
  isl::set assumptions() const { return Assumed; }
  /// Assumptions that involve opaque parameters, all Recomputable:
  /// [params] -> { : where the model is exact } for each work-item's values
  /// of them (`x + y * width` in 32-bit unsigned arithmetic, y * width
  /// opaque: no wrap for the work group's rows). The universe when none.
  /// Checked by emitAssumptionCheck for every combination of the local ids
  /// they vary with; the predicates still hold for any value of them.
  isl::set opaqueAssumptions() const { return OpaqueAssumed; }
  llvm::ArrayRef<RegionModel> regions() const { return Regions; }
  /// The region that \p Barrier starts, null if none (the exit barrier).
  const RegionModel *region(const llvm::BasicBlock *Barrier) const;
  const std::vector<std::unique_ptr<ModelParam>> &params() const {
    return Params;
  }
  /// What the isl parameter \p Id stands for; null if it is not ours.
  static const ModelParam *param(const isl::id &Id);
  /// The opaque parameters; with \p VaryingWith, those that vary with
  /// that dimension (bit mask) only.
  llvm::SmallVector<isl::id, 4> opaqueParams(unsigned VaryingWith = 0) const;

  /// The value of \p P at \p B in the work-group function: \p MapKernelValue
  /// maps a value of the kernel (an argument, a work-item global variable)
  /// to its value there, as SplitPlan::emitBounds does. A Recomputable
  /// opaque parameter has one for given local ids \p LocalIds; without
  /// them, or for other opaque parameters, null (as when a value is
  /// missing).
  llvm::Value *
  paramValue(const ModelParam &P, llvm::IRBuilderBase &B,
             llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue,
             llvm::Value *const *LocalIds = nullptr) const;
  /// Whether the assumptions hold, an i1 at \p B (true when nothing is
  /// assumed); null when a parameter has no value. The split pass runs a
  /// region split only where it is true. With opaque assumptions, \p B
  /// ends in a new block after a loop over the local ids they vary with.
  llvm::Value *emitAssumptionCheck(
      llvm::IRBuilderBase &B,
      llvm::function_ref<llvm::Value *(llvm::Value *)> MapKernelValue) const;

  /// \p S gisted with the context and the assumptions, coalesced, without
  /// unused parameters: for printing.
  isl::set simplify(isl::set S) const;
  isl::pw_aff simplify(isl::pw_aff PA) const;

  /// The model of every region (print<iss-model>).
  void print(llvm::raw_ostream &OS) const;

private:
  class Builder;
  friend class Builder;

  std::unique_ptr<IslContext> Ctx; // first: freed after every isl object
  llvm::Function *Kernel = nullptr;
  unsigned LocalSize[3] = {1, 1, 1};
  std::string Name;
  std::vector<std::unique_ptr<ModelParam>> Params;
  isl::set Context, LightContext, SignContext, OffsetFree;
  isl::set Assumed, OpaqueAssumed;
  std::vector<RegionModel> Regions;
};

/// A block's name for printing: its own, or its number as an operand
/// (%3).
std::string blockName(const llvm::BasicBlock *BB);

/// The analysis-manager wrapper: the model of a kernel prepared by
/// iss-prepare (its iss-local-size attribute); of an empty kernel for
/// other functions.
class WorkItemModelAnalysis
    : public llvm::AnalysisInfoMixin<WorkItemModelAnalysis> {
  friend llvm::AnalysisInfoMixin<WorkItemModelAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = WorkItemModel;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// print<iss-model>: the model, then for each dimension of
/// -iss-model-dims (default: those with more than one work-item) and the
/// vector width of -iss-vector-width (default 8) the splitting predicates,
/// pieces and ranges (SplittingPredicates::print).
class WorkItemModelPrinterPass
    : public llvm::PassInfoMixin<WorkItemModelPrinterPass> {
public:
  explicit WorkItemModelPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  llvm::raw_ostream &OS;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_WORKITEMMODEL_H
