//===- WorkGroupBuilder.h - The work-group function, region by region -*- C++
//-*-===//
// SPDX-License-Identifier: MIT
//
// The builder behind iss-wi-loops (WorkItemLoops.cpp): it makes the
// work-group function __iss_sub_<kernel>_<i>(args, ctx) of a kernel after
// iss-context, one parallel region at a time, each region a copy of its
// blocks in a work-item loop nest. Input space splitting (iss-split,
// Splitting/SplitRegions.cpp) builds the same function with some regions
// split: it derives from this builder and takes the regions it splits
// through emitSplit(), building their ranges from the pieces here (nests,
// region copies, parallel loop metadata, the statistics counters).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_WORKGROUP_WORKGROUPBUILDER_H
#define POCL_ISS_COMPILER_WORKGROUP_WORKGROUPBUILDER_H

#include "Analysis/Uniformity.h"
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>
#include <string>

namespace iss {

/// A parallel region: the blocks a barrier block reaches before the next
/// barrier blocks, its exits.
struct Region {
  llvm::BasicBlock *Barrier = nullptr;
  llvm::SmallVector<llvm::BasicBlock *, 16>
      Blocks; ///< the barrier's successor first
  llvm::SmallVector<llvm::BasicBlock *, 2>
      Exits; ///< in the order first reached
};

struct LoopRec {
  unsigned Dim;
  llvm::BasicBlock *Header;
  llvm::BasicBlock *Latch;
  llvm::PHINode *IV;
  /// What the loop vectorizer may do with it: an outer work-item loop, the
  /// innermost one of an unsplit nest, or a loop of a split range (the
  /// loop over the w work-items of a tile, the loop over tiles around it,
  /// a scalar range).
  enum RoleKind { Outer, Innermost, Tile, Tiles, Scalar } Role = Outer;
  /// A Tile loop whose body runs on some of the lanes (an edge of a split
  /// range): the guard becomes a mask.
  bool Masked = false;
};

/// A work-item loop nest of the work-group function.
struct Nest {
  llvm::Value *Ids[3] = {nullptr, nullptr, nullptr};
  llvm::BasicBlock *Body = nullptr;    ///< branches to the region's copy
  llvm::BasicBlock *BodyEnd = nullptr; ///< where the region's copy ends
  llvm::SmallVector<LoopRec, 3> Loops; ///< outermost first
  llvm::SmallVector<llvm::BasicBlock *, 16>
      Blocks; ///< everything inside the loops
};

class WorkGroupBuilder {
public:
  WorkGroupBuilder(llvm::Module &M, llvm::Function &Kernel,
                   const WorkGroupConfig &C, llvm::ModuleAnalysisManager &MAM)
      : M(M), Ctx(M.getContext()), Kernel(Kernel), Config(C), MAM(MAM) {}
  virtual ~WorkGroupBuilder() = default;

  llvm::Function *build();
  /// Builds the regions of a tile function (a kernel whose work-items are
  /// the w lanes of a tile) into \p Host from \p Pre to \p After, its
  /// arguments being \p Args there; with \p MaskedLanes its stores are
  /// guarded by the lane (an edge), and its lane loops are vectorized
  /// whatever the cost model says.
  void buildInto(
      llvm::Function &Host, llvm::BasicBlock *Pre, llvm::BasicBlock *After,
      llvm::ArrayRef<llvm::Value *> Args,
      const llvm::DenseMap<const llvm::Value *, llvm::Value *> &HostGroupValues,
      bool MaskedLanes);

protected:
  static constexpr const char *DimNames[3] = {"x", "y", "z"};

  /// Builds region \p R, which has one exit, from \p Start in some other
  /// way than one loop nest: false to leave it to the nest.
  virtual bool emitSplit(const Region &, llvm::BasicBlock *) { return false; }

  llvm::BasicBlock *regionStart(llvm::BasicBlock *Barrier);
  /// A loop per dimension with more than one work-item, the vectorized one
  /// innermost, from \p Pre to \p After (only the outer ones with
  /// \p OuterOnly). With \p SkipFirst the nest leaves out work-item
  /// (0,0,0), which a peeled copy has run.
  Nest buildNest(llvm::BasicBlock *Pre, llvm::BasicBlock *After, bool SkipFirst,
                 bool OuterOnly = false);
  /// Copies \p R's blocks into the work-group function, entered from
  /// \p From, with the work-item ids \p Ids; a branch to an exit barrier E
  /// goes to ExitTarget(E). The copies join \p Out; \p VMapOut, if given,
  /// receives the map from the kernel's values to the copy's.
  void cloneRegion(
      const Region &R, llvm::Value *const Ids[3],
      llvm::function_ref<llvm::BasicBlock *(llvm::BasicBlock *)> ExitTarget,
      llvm::BasicBlock *From, llvm::SmallVectorImpl<llvm::BasicBlock *> &Out,
      llvm::ValueToValueMapTy *VMapOut = nullptr);
  void markParallel(const Nest &N);
  /// POCL_ISS_STATS: whether this builder counts the work-items of each
  /// piece (split modes; a tile function's lanes are counted by its range).
  bool countsPieces() const { return Config.Stats && Splits && !Lanes; }
  /// Adds \p N to the group's sum of a new counter for \p Piece, or of
  /// counter \p Existing; returns the counter.
  unsigned countWorkItems(llvm::IRBuilderBase &B, llvm::Value *N,
                          llvm::BasicBlock *Start, llvm::StringRef Piece,
                          unsigned Existing = ~0u);

  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  llvm::Function &Kernel;
  const WorkGroupConfig &Config;
  llvm::ModuleAnalysisManager &MAM;
  /// Regions may be split (a builder of Splitting/ says so).
  bool Splits = false;
  /// Building a tile function's regions: its work-items are the w lanes
  /// of a tile, whose loops are the vector ones.
  bool Lanes = false;
  /// A tile function whose stores are guarded by the lane (an edge):
  /// its lane loops are vectorized whatever the cost model says.
  bool MaskedLanes = false;
  llvm::Function *WG = nullptr;
  llvm::BasicBlock *WGExit = nullptr;
  /// What every region's copy maps: arguments, allocas, automatic locals.
  llvm::SmallVector<std::pair<llvm::Value *, llvm::Value *>, 16> Common;
  /// The work-item globals other than the local ids, read once per group.
  llvm::DenseMap<const llvm::Value *, llvm::Value *> GroupValues;
  /// The parts of the work-group function rarely run, from their first
  /// block to where they rejoin (the unsplit fallbacks of split regions):
  /// outlined as cold functions once the function is complete.
  llvm::SmallVector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>, 2>
      ColdParts;
  /// POCL_ISS_STATS: a counter of work-items per piece of each region. The
  /// work group sums in Local what its ranges run, and adds the sums to the
  /// module's counters as it ends (emitPieceCounters).
  struct PieceCounter {
    unsigned Region;
    std::string Piece;
    llvm::AllocaInst *Local;
    bool WholeTiles = false;
    /// Partial tiles run as vector code with masks (an edge).
    bool Masked = false;
    std::string Properties;
    bool Horizontal = false;
  };
  llvm::SmallVector<PieceCounter, 8> PieceCounters;

private:
  void mapWorkGroupValues(llvm::IRBuilder<> &B, llvm::Argument *Args,
                          llvm::Argument *CtxArg);
  void cloneEntryAllocas(llvm::IRBuilderBase &B);
  Region formRegion(llvm::BasicBlock *Barrier) const;
  void emitRegion(const Region &R, llvm::BasicBlock *Start);
  bool runsAlike(const Region &R);
  void emitRegions(llvm::BasicBlock *EntryBarrier, llvm::BasicBlock *Into);
  void emitSelection();
  void outlineColdParts();
  void emitPieceCounters();

  /// The uniformity of the kernel's values, once a region asks (runsAlike).
  std::optional<WorkItemUniformity> Uniform;
  /// What every region's copy maps: the local ids' globals.
  const llvm::Value *LocalIdGlobals[3] = {nullptr, nullptr, nullptr};
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> Starts;
  llvm::SmallVector<llvm::BasicBlock *, 8> Pending;
  unsigned Regions = 0;
  /// The index of the region each start block begins (its name's number).
  llvm::DenseMap<llvm::BasicBlock *, unsigned> RegionIndex;
  /// The loads and stores of the sums, outside the parallel accesses.
  llvm::SmallPtrSet<llvm::Instruction *, 16> CounterAccesses;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_WORKGROUP_WORKGROUPBUILDER_H
