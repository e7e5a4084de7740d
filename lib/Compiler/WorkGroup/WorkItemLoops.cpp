//===- WorkItemLoops.cpp - Work-item loops around parallel regions --------===//
// SPDX-License-Identifier: MIT
//
// iss-wi-loops (see Passes.h), the pocl paper, sections 4.2 to 4.4. The
// kernel arrives canonical (iss-barriers): barriers alone in their blocks,
// one at the entry and one at the single exit, and every value that lives
// across a barrier in a context slot (iss-context). A parallel region is
// what a barrier reaches before the next barriers: the work-group function
// runs it for every work-item in a loop nest, then goes on with the region
// of the exit barrier taken.
//
// Each region gets its own copy of its blocks, so a block reachable from
// two barriers is replicated (the tail replication of Algorithm 2) and
// every region has a single entry. A region with several exit barriers,
// the branch to a conditional barrier or a b-loop's test, runs its first
// work-item alone: by the barrier semantics the others take the same exit,
// so they run in a loop nest specialized for it, the other exits
// unreachable and the branch gone (the peeling of section 4.4).
//
// The loops carry llvm.loop.parallel_accesses, so that the loop vectorizer
// needs no dependence checks: work-items are independent between barriers.
// The vectorized dimension is placed innermost: in `vec` mode the first
// dimension with at least w work-items (the input-space-splitting paper,
// section 6.3). The compiled kernel is a table of subkernels and a
// selection function (iss-subkernels makes one subkernel per dimension).
//
//===----------------------------------------------------------------------===//

#include "Barriers.h"
#include "CompilerInternal.h"
#include "Passes.h"
#include "Splitting/RegionSplitter.h"
#include "Splitting/SplitPlan.h"
#include "Splitting/WorkItemModel.h"
#include "Uniformity.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

#define DEBUG_TYPE "iss-wi-loops"

namespace iss {

namespace {

/// The work-group context type, the same layout as iss_wg_context in
/// include/pocl-iss/WorkGroupABI.h.
enum CtxField {
  CtxGroupId = 0,
  CtxNumGroups = 1,
  CtxGlobalOffset = 2,
  CtxWorkDim = 3,
  CtxPrintfCapacity = 4,
  CtxPrintfBuffer = 5,
  CtxPrintfPosition = 6,
  CtxScratch = 7
};

StructType *contextType(LLVMContext &C) {
  Type *I64x3 = ArrayType::get(Type::getInt64Ty(C), 3);
  Type *I32 = Type::getInt32Ty(C);
  Type *Ptr = PointerType::get(C, 0);
  return StructType::get(C, {I64x3, I64x3, I64x3, I32, I32, Ptr, Ptr, Ptr});
}

const char *const DimNames[3] = {"x", "y", "z"};

} // namespace

Value *loadKernelInput(IRBuilderBase &B, const WorkGroupConfig &Config,
                       Argument *Args, Argument *CtxArg, Value *KernelValue) {
  Type *Ptr = PointerType::get(B.getContext(), 0);
  // By-value aggregates are the slot itself (WorkGroupABI.h).
  if (auto *A = dyn_cast<Argument>(KernelValue)) {
    Value *SlotAddr = B.CreateConstInBoundsGEP1_64(Ptr, Args, A->getArgNo());
    Value *Slot = B.CreateLoad(Ptr, SlotAddr, "arg.slot");
    return A->hasByValAttr() ? Slot
                             : B.CreateAlignedLoad(A->getType(), Slot, Align(1),
                                                   A->getName() + ".val");
  }
  auto *GV = dyn_cast<GlobalVariable>(KernelValue);
  if (!GV)
    return nullptr;
  if (GV->getName() == ScratchGlobal)
    return loadWorkItemGlobal(B, Config, CtxArg, 19);
  const char *const *It =
      std::find(std::begin(WorkItemGlobals), std::end(WorkItemGlobals),
                GV->getName());
  unsigned G = It - std::begin(WorkItemGlobals);
  // The local ids are loop counters.
  return G < 3 || G >= 19 ? nullptr : loadWorkItemGlobal(B, Config, CtxArg, G);
}

Value *loadWorkItemGlobal(IRBuilderBase &B, const WorkGroupConfig &Config,
                          Argument *CtxArg, unsigned G) {
  assert(G >= 3 && G <= 19 && "not a work-group value");
  LLVMContext &Ctx = B.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I64 = Type::getInt64Ty(Ctx);
  StructType *CtxTy = contextType(Ctx);
  auto Field = [&](unsigned F, unsigned Idx, Type *T, const Twine &Name) {
    Value *P = F <= CtxGlobalOffset
                   ? B.CreateConstInBoundsGEP2_32(CtxTy, CtxArg, 0, F)
                   : B.CreateStructGEP(CtxTy, CtxArg, F);
    if (F <= CtxGlobalOffset)
      P = B.CreateConstInBoundsGEP1_64(I64, P, Idx);
    LoadInst *L = B.CreateLoad(T, P, Name);
    // The device stores group_id[0] right before each call: a vector load
    // of it with a neighbour (the SLP vectorizer pairs O_x and O_y) could
    // not be forwarded from that store and waits for it, about ten cycles
    // per work group. Volatile, each is loaded on its own.
    L->setVolatile(F == CtxGroupId);
    return L;
  };
  if (G == 19)
    return Field(CtxScratch, 0, Ptr, "scratch");
  unsigned Dim = G % 3;
  const char *Name = WorkItemGlobals[G] + 1;
  if (G < 6)
    return ConstantInt::get(I64, Config.LocalSize[Dim]);
  if (G < 9)
    return Field(CtxGroupId, Dim, I64, Name);
  if (G < 12)
    return Field(CtxNumGroups, Dim, I64, Name);
  if (G < 15)
    return Field(CtxGlobalOffset, Dim, I64, Name);
  if (G == 15)
    return Field(CtxWorkDim, 0, Type::getInt32Ty(Ctx), Name);
  if (G == 16)
    return Field(CtxPrintfBuffer, 0, Ptr, Name);
  if (G == 17)
    return Field(CtxPrintfPosition, 0, Ptr, Name);
  return Field(CtxPrintfCapacity, 0, Type::getInt32Ty(Ctx), Name);
}

std::string piecesSymbol(StringRef Kernel, int Subkernel) {
  return ("__iss_pieces_" + Kernel +
          (Subkernel >= 0 ? "_" + Twine(Subkernel) : Twine()))
      .str();
}

bool isNodeOf(const MDNode *N, StringRef Kernel) {
  return cast<MDString>(N->getOperand(0))->getString() == Kernel;
}

uint64_t mdInt(const MDNode *N, unsigned Op) {
  return mdconst::extract<ConstantInt>(N->getOperand(Op))->getZExtValue();
}

const char *const VectorWidthAttr = "iss-vector-width";
const char *const ScalarAttr = "iss-scalar";

namespace {

/// A parallel region: the blocks a barrier block reaches before the next
/// barrier blocks, its exits.
struct Region {
  BasicBlock *Barrier = nullptr;
  SmallVector<BasicBlock *, 16> Blocks; ///< the barrier's successor first
  SmallVector<BasicBlock *, 2> Exits;   ///< in the order first reached
};

struct LoopRec {
  unsigned Dim;
  BasicBlock *Header;
  BasicBlock *Latch;
  PHINode *IV;
  /// What the loop vectorizer may do with it: an outer work-item loop, the
  /// innermost one of an unsplit nest, or a loop of a split range (the
  /// loop over the w work-items of a tile, the loop over tiles around it,
  /// a scalar range).
  enum RoleKind { Outer, Innermost, Tile, Tiles, Scalar } Role = Outer;
  /// A Tile loop whose body runs on some of the lanes (an edge,
  /// SplitPlan::edgeRanges): the guard becomes a mask.
  bool Masked = false;
};

/// A work-item loop nest of the work-group function.
struct Nest {
  Value *Ids[3] = {nullptr, nullptr, nullptr};
  BasicBlock *Body = nullptr;    ///< branches to the region's copy
  BasicBlock *BodyEnd = nullptr; ///< where the region's copy ends
  SmallVector<LoopRec, 3> Loops; ///< outermost first
  SmallVector<BasicBlock *, 16> Blocks; ///< everything inside the loops
};

class WorkGroupBuilder {
public:
  WorkGroupBuilder(Module &M, Function &Kernel, const WorkGroupConfig &C,
                   ModuleAnalysisManager &MAM, SplitPlanner PlanFor = nullptr)
      : M(M), Ctx(M.getContext()), Kernel(Kernel), Config(C), MAM(MAM),
        PlanFor(std::move(PlanFor)) {}

  Function *build();
  /// Builds the regions of a tile function (runTileInside) into \p Host
  /// from \p Pre to \p After, its arguments being \p Args there.
  void buildInto(Function &Host, BasicBlock *Pre, BasicBlock *After,
                 ArrayRef<Value *> Args,
                 const DenseMap<const Value *, Value *> &HostGroupValues);

private:
  void mapWorkGroupValues(IRBuilder<> &B, Argument *Args, Argument *CtxArg);
  void cloneEntryAllocas(IRBuilderBase &B);
  BasicBlock *regionStart(BasicBlock *Barrier);
  Region formRegion(BasicBlock *Barrier) const;
  void emitRegion(const Region &R, BasicBlock *Start);
  bool runsAlike(const Region &R);
  Nest buildNest(BasicBlock *Pre, BasicBlock *After, bool SkipFirst,
                 bool OuterOnly = false);
  bool emitSplitRegion(const Region &R, BasicBlock *Start, SplitPlan &Plan);
  llvm::Value *
  assumptionsHold(SplitPlan &Plan,
                  function_ref<Value *(Value *)> MapKernelValue);
  LoopRec buildRangeLoop(BasicBlock *Pre, BasicBlock *After, Value *Begin,
                         Value *End, bool WholeTiles, Value *Ids[3],
                         BasicBlock *&Body, BasicBlock *&BodyEnd,
                         SmallVectorImpl<LoopRec> &Loops,
                         SmallVectorImpl<BasicBlock *> &Blocks);
  void cloneRegion(const Region &R, Value *const Ids[3],
                   function_ref<BasicBlock *(BasicBlock *)> ExitTarget,
                   BasicBlock *From, SmallVectorImpl<BasicBlock *> &Out,
                   ValueToValueMapTy *VMapOut = nullptr);
  void runTileInside(Nest &N, size_t CopyBegin, BasicBlock *Body,
                     BasicBlock *BodyEnd, Value *X, bool MaskedLanes = false);
  void emitRegions(BasicBlock *EntryBarrier, BasicBlock *Into);
  void markParallel(const Nest &N);
  void emitSelection();
  void outlineColdParts();
  /// POCL_ISS_STATS: whether this builder counts the work-items of each
  /// piece (split modes; a tile function's lanes are counted by its range).
  bool countsPieces() const { return Config.Stats && PlanFor && !Lanes; }
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
  /// Adds \p N to the group's sum of a new counter for \p Piece, or of
  /// counter \p Existing; returns the counter.
  unsigned countWorkItems(IRBuilderBase &B, Value *N, BasicBlock *Start,
                          StringRef Piece, unsigned Existing = ~0u);
  void emitPieceCounters();

  Module &M;
  LLVMContext &Ctx;
  Function &Kernel;
  const WorkGroupConfig &Config;
  ModuleAnalysisManager &MAM;
  /// Building a tile function's regions: its work-items are the w lanes
  /// of a tile, whose loops are the vector ones.
  bool Lanes = false;
  /// A tile function whose stores are guarded by the lane (an edge,
  /// emitEdgeTiles): its lane loops are vectorized whatever the cost
  /// model says.
  bool MaskedLanes = false;
  /// Whether the model's assumptions hold for this work group (once
  /// checked: assumptionsHold), null where they cannot be checked.
  bool AssumptionsChecked = false;
  Value *Assumptions = nullptr;
  /// The split of each region, in the split modes; null otherwise.
  SplitPlanner PlanFor;
  /// The uniformity of the kernel's values, once a region asks (runsAlike).
  std::optional<WorkItemUniformity> Uniform;
  Function *WG = nullptr;
  BasicBlock *WGExit = nullptr;
  /// What every region's copy maps: arguments, allocas, automatic locals.
  SmallVector<std::pair<Value *, Value *>, 16> Common;
  /// The work-item globals other than the local ids, read once per group.
  DenseMap<const Value *, Value *> GroupValues;
  const Value *LocalIdGlobals[3] = {nullptr, nullptr, nullptr};
  DenseMap<BasicBlock *, BasicBlock *> Starts;
  SmallVector<BasicBlock *, 8> Pending;
  unsigned Regions = 0;
  /// The unsplit fallbacks of split regions, from their first block to
  /// where they rejoin: outlined as cold functions once the work-group
  /// function is complete.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> ColdParts;
  /// The index of the region each start block begins (its name's number).
  DenseMap<BasicBlock *, unsigned> RegionIndex;
  /// POCL_ISS_STATS: a counter of work-items per piece of each region. The
  /// work group sums in Local what its ranges run, and adds the sums to the
  /// module's counters as it ends (emitPieceCounters).
  struct PieceCounter {
    unsigned Region;
    std::string Piece;
    AllocaInst *Local;
    bool WholeTiles = false;
    /// Partial tiles run as vector code with masks (an edge).
    bool Masked = false;
    std::string Properties;
    bool Horizontal = false;
  };
  SmallVector<PieceCounter, 8> PieceCounters;
  /// The loads and stores of the sums, outside the parallel accesses.
  SmallPtrSet<Instruction *, 16> CounterAccesses;
};

} // namespace

Function *WorkGroupBuilder::build() {
  Type *Ptr = PointerType::get(Ctx, 0);
  std::string KName = Kernel.getName().str();
  FunctionType *SubTy =
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  WG = Function::Create(
      SubTy, GlobalValue::ExternalLinkage,
      "__iss_sub_" + KName + "_" + std::to_string(std::max(Config.Subkernel, 0)),
      M);
  for (const char *A : {"target-cpu", "target-features", "tune-cpu",
                        "min-legal-vector-width", "denormal-fp-math",
                        "denormal-fp-math-f32", "no-trapping-math",
                        "unsafe-fp-math", "no-nans-fp-math",
                        "no-infs-fp-math", "no-signed-zeros-fp-math",
                        "approx-func-fp-math"})
    if (Kernel.hasFnAttribute(A))
      WG->addFnAttr(Kernel.getFnAttribute(A));
  WG->addFnAttr(Attribute::NoUnwind);
  // For the code generation options of Pipeline.cpp.
  WG->addFnAttr(VectorWidthAttr, std::to_string(Config.VectorWidth));
  if (Config.IssMode == Mode::Scalar)
    WG->addFnAttr(ScalarAttr);
  if (Kernel.hasFnAttribute(AsWrittenAttr))
    WG->addFnAttr(AsWrittenAttr);
  Argument *Args = WG->getArg(0);
  Argument *CtxArg = WG->getArg(1);
  Args->setName("args");
  CtxArg->setName("ctx");
  Args->addAttr(Attribute::NoAlias);
  CtxArg->addAttr(Attribute::NoAlias);

  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", WG);
  WGExit = BasicBlock::Create(Ctx, "wg.exit", WG);
  ReturnInst::Create(Ctx, WGExit);
  IRBuilder<> B(Entry);
  mapWorkGroupValues(B, Args, CtxArg);

  emitRegions(Kernel.getEntryBlock().getSingleSuccessor(), Entry);
  WGExit->moveAfter(&WG->back());
  if (Config.Subkernel < 0)
    emitSelection();
  emitPieceCounters();
  outlineColdParts();
  Kernel.setLinkage(GlobalValue::InternalLinkage);
  return WG;
}

/// Every region, from the entry barrier's, entered from the end of \p Into.
void WorkGroupBuilder::emitRegions(BasicBlock *EntryBarrier,
                                   BasicBlock *Into) {
  assert(EntryBarrier && isBarrierBlock(*EntryBarrier) &&
         "iss-wi-loops needs the canonical form of iss-barriers");
  BranchInst::Create(regionStart(EntryBarrier), Into);
  while (!Pending.empty()) {
    BasicBlock *Barrier = Pending.pop_back_val();
    emitRegion(formRegion(Barrier), Starts[Barrier]);
  }
}

void WorkGroupBuilder::buildInto(
    Function &Host, BasicBlock *Pre, BasicBlock *After, ArrayRef<Value *> Args,
    const DenseMap<const Value *, Value *> &HostGroupValues) {
  WG = &Host;
  WGExit = After;
  Lanes = true;
  BasicBlock &HostEntry = Host.getEntryBlock();
  IRBuilder<> AB(&HostEntry, HostEntry.getFirstInsertionPt());
  cloneEntryAllocas(AB);
  for (Argument &A : Kernel.args())
    Common.push_back({&A, Args[A.getArgNo()]});
  GroupValues = HostGroupValues;
  for (unsigned D = 0; D < 3; ++D)
    LocalIdGlobals[D] = M.getGlobalVariable(WorkItemGlobals[D]);
  emitRegions(Kernel.getEntryBlock().getSingleSuccessor(), Pre);
}

/// Gives the kernel's allocas one home at \p B for all regions.
void WorkGroupBuilder::cloneEntryAllocas(IRBuilderBase &B) {
  for (Instruction &I : Kernel.getEntryBlock())
    if (isa<AllocaInst>(I)) {
      Instruction *C = I.clone();
      B.Insert(C, I.getName());
      Common.push_back({&I, C});
    }
}

/// Reads the kernel arguments from their slots, the work-group values from
/// the context, the automatic __local variables from the trailing slots,
/// and gives the kernel's allocas one home for all regions.
void WorkGroupBuilder::mapWorkGroupValues(IRBuilder<> &B, Argument *Args,
                                          Argument *CtxArg) {
  Type *Ptr = PointerType::get(Ctx, 0);
  cloneEntryAllocas(B);
  for (Argument &A : Kernel.args())
    Common.push_back({&A, loadKernelInput(B, Config, Args, CtxArg, &A)});
  for (unsigned G = 0; G < 19; ++G) {
    GlobalVariable *GV = M.getGlobalVariable(WorkItemGlobals[G]);
    if (!GV)
      continue;
    if (G < 3)
      LocalIdGlobals[G] = GV;
    else
      GroupValues[GV] = loadKernelInput(B, Config, Args, CtxArg, GV);
  }
  if (GlobalVariable *GV = M.getGlobalVariable(ScratchGlobal))
    GroupValues[GV] = loadKernelInput(B, Config, Args, CtxArg, GV);

  // Function-scope __local variables, in the order of
  // KernelInfo::AutoLocals, which the device follows.
  unsigned Slot = Kernel.arg_size();
  for (GlobalVariable *GV : autoLocalsOf(Kernel)) {
    Value *SlotAddr = B.CreateConstInBoundsGEP1_64(Ptr, Args, Slot++);
    Value *SlotPtr = B.CreateLoad(Ptr, SlotAddr, GV->getName() + ".slot");
    Value *Mem = B.CreateLoad(Ptr, SlotPtr, GV->getName());
    convertUsersOfConstantsToInstructions({GV});
    Common.push_back({GV, Mem});
  }
}

BasicBlock *WorkGroupBuilder::regionStart(BasicBlock *Barrier) {
  auto It = Starts.find(Barrier);
  if (It != Starts.end())
    return It->second;
  BasicBlock *Start = WGExit;
  if (!isa<ReturnInst>(Barrier->getTerminator())) {
    Start = BasicBlock::Create(Ctx, "region" + Twine(Regions), WG, WGExit);
    RegionIndex[Start] = Regions++;
    Pending.push_back(Barrier);
  }
  Starts[Barrier] = Start;
  return Start;
}

Region WorkGroupBuilder::formRegion(BasicBlock *Barrier) const {
  Region R;
  R.Barrier = Barrier;
  SmallVector<BasicBlock *, 16> Stack = {Barrier->getSingleSuccessor()};
  DenseSet<BasicBlock *> Seen;
  while (!Stack.empty()) {
    BasicBlock *BB = Stack.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (isBarrierBlock(*BB)) {
      R.Exits.push_back(BB);
      continue;
    }
    R.Blocks.push_back(BB);
    Instruction *T = BB->getTerminator();
    for (unsigned I = T->getNumSuccessors(); I-- > 0;)
      Stack.push_back(T->getSuccessor(I));
  }
  return R;
}

void WorkGroupBuilder::emitRegion(const Region &R, BasicBlock *Start) {
  if (R.Blocks.empty()) {
    BranchInst::Create(regionStart(R.Exits.front()), Start);
    return;
  }
  Value *Zero = ConstantInt::get(Type::getInt64Ty(Ctx), 0);
  Value *const First[3] = {Zero, Zero, Zero};
  SmallVector<BasicBlock *, 16> Unused;
  auto CountUnsplit = [&] {
    if (!countsPieces())
      return;
    IRBuilder<> B(Start);
    countWorkItems(B, B.getInt64(Config.workItems()), Start, "unsplit");
  };
  // One work-item, or all doing what the first does: it runs the region
  // alone, to the exit it takes.
  if (Config.workItems() == 1 || runsAlike(R)) {
    CountUnsplit();
    cloneRegion(
        R, First, [&](BasicBlock *E) { return regionStart(E); }, Start,
        Unused);
    return;
  }
  if (R.Exits.size() == 1) {
    if (PlanFor)
      if (std::unique_ptr<SplitPlan> Plan = PlanFor(R.Barrier))
        if (emitSplitRegion(R, Start, *Plan))
          return;
    CountUnsplit();
    Nest N = buildNest(Start, regionStart(R.Exits.front()), false);
    cloneRegion(
        R, N.Ids, [&](BasicBlock *) { return N.BodyEnd; }, N.Body, N.Blocks);
    markParallel(N);
    return;
  }
  // The first work-item picks the exit; the others follow it.
  CountUnsplit();
  DenseMap<BasicBlock *, BasicBlock *> Follow;
  for (BasicBlock *E : R.Exits)
    Follow[E] = BasicBlock::Create(Ctx, Start->getName() + ".follow", WG,
                                   WGExit);
  cloneRegion(
      R, First, [&](BasicBlock *E) { return Follow[E]; }, Start, Unused);
  for (BasicBlock *Taken : R.Exits) {
    Nest N = buildNest(Follow[Taken], regionStart(Taken), true);
    BasicBlock *Unreachable =
        BasicBlock::Create(Ctx, "wi.unreachable", WG, WGExit);
    new UnreachableInst(Ctx, Unreachable);
    cloneRegion(
        R, N.Ids,
        [&](BasicBlock *E) { return E == Taken ? N.BodyEnd : Unreachable; },
        N.Body, N.Blocks);
    markParallel(N);
  }
}

/// Whether every work-item would do what the first one does in region
/// \p R, which then runs it alone: all that the region writes is uniform
/// values to uniform addresses (iss-context's uniform slots), in blocks
/// that every work-item or none runs. The regions of a kernel loop run in
/// lock-step, between the implicit barriers around it, often are: its
/// test, its counter's update, a uniform value before it. Each got a
/// loop over the work-items, and a peeled test one more per exit that
/// only checked the others agree, for O3 to delete (ten in
/// Convolution2D's tile function).
bool WorkGroupBuilder::runsAlike(const Region &R) {
  if (!Uniform) {
    FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
    Uniform.emplace(Kernel, FAM.getResult<PostDominatorTreeAnalysis>(Kernel),
                    FAM.getResult<LoopAnalysis>(Kernel));
  }
  return all_of(R.Blocks, [&](BasicBlock *BB) {
    return all_of(*BB, [&](Instruction &I) {
      if (!I.mayWriteToMemory() && !I.mayHaveSideEffects())
        return true;
      auto *SI = dyn_cast<StoreInst>(&I);
      return SI && SI->isSimple() && Uniform->isUniformBlock(BB) &&
             Uniform->isUniform(SI->getPointerOperand()) &&
             Uniform->isUniform(SI->getValueOperand());
    });
  });
}

/// A loop per dimension with more than one work-item, the vectorized one
/// innermost, from \p Pre to \p After. With \p SkipFirst the nest leaves
/// out work-item (0,0,0), which a peeled copy has run.
Nest WorkGroupBuilder::buildNest(BasicBlock *Pre, BasicBlock *After,
                                 bool SkipFirst, bool OuterOnly) {
  Type *I64 = Type::getInt64Ty(Ctx);
  Nest N;
  BasicBlock *Pred = Pre;
  unsigned VecDim = Config.vectorizedDim();
  for (unsigned D : Config.loopOrder()) {
    if (OuterOnly && D == VecDim)
      continue;
    if (Config.LocalSize[D] <= 1) {
      N.Ids[D] = ConstantInt::get(I64, 0);
      continue;
    }
    std::string Name = std::string("wi.") + DimNames[D];
    BasicBlock *Header = BasicBlock::Create(Ctx, Name + ".header", WG, WGExit);
    BranchInst::Create(Header, Pred);
    PHINode *IV = PHINode::Create(
        I64, 2, std::string("local_id_") + DimNames[D], Header);
    N.Ids[D] = IV;
    N.Loops.push_back({D, Header, nullptr, IV});
    N.Blocks.push_back(Header);
    Pred = Header;
  }
  if (!N.Loops.empty() && !OuterOnly) {
    N.Loops.back().Role = Lanes ? LoopRec::Tile : LoopRec::Innermost;
    N.Loops.back().Masked = Lanes && MaskedLanes;
  }
  for (LoopRec &L : N.Loops) {
    BasicBlock *From = L.Header->getSinglePredecessor();
    Value *Start = ConstantInt::get(I64, 0);
    if (SkipFirst && &L == &N.Loops.back()) {
      // The innermost loop starts at 1 when all outer counters are 0.
      IRBuilder<> B(From->getTerminator());
      Value *AllZero = nullptr;
      for (LoopRec &Outer : N.Loops)
        if (&Outer != &L) {
          Value *IsZero = B.CreateICmpEQ(Outer.IV, B.getInt64(0));
          AllZero = AllZero ? B.CreateAnd(AllZero, IsZero) : IsZero;
        }
      if (!AllZero)
        AllZero = B.getTrue();
      Start = B.CreateZExt(AllZero, I64, "wi.first");
    }
    L.IV->addIncoming(Start, From);
  }
  N.Body = BasicBlock::Create(Ctx, "wi.body", WG, WGExit);
  BranchInst::Create(N.Body, Pred);
  N.BodyEnd = BasicBlock::Create(Ctx, "wi.body.end", WG, WGExit);
  N.Blocks.push_back(N.Body);
  N.Blocks.push_back(N.BodyEnd);
  BasicBlock *Cur = N.BodyEnd;
  for (auto It = N.Loops.rbegin(); It != N.Loops.rend(); ++It) {
    std::string Name = std::string("wi.") + DimNames[It->Dim];
    BasicBlock *Latch = BasicBlock::Create(Ctx, Name + ".latch", WG, WGExit);
    BranchInst::Create(Latch, Cur);
    IRBuilder<> LB(Latch);
    Value *Next = LB.CreateAdd(It->IV, ConstantInt::get(I64, 1),
                               It->IV->getName() + ".next", true, true);
    It->IV->addIncoming(Next, Latch);
    Value *More =
        LB.CreateICmpULT(Next, ConstantInt::get(I64, Config.LocalSize[It->Dim]));
    BasicBlock *Done = BasicBlock::Create(Ctx, Name + ".done", WG, WGExit);
    LB.CreateCondBr(More, It->Header, Done);
    It->Latch = Latch;
    N.Blocks.push_back(Latch);
    Cur = Done;
    if (std::next(It) != N.Loops.rend())
      N.Blocks.push_back(Done);
  }
  BranchInst::Create(After, Cur);
  return N;
}

/// Whether the model's assumptions hold for the work group, checked once,
/// in a block after the entry: they depend on the work-group values (and,
/// per work-item ones, on the local ids) alone, and a region in a barrier
/// loop would check them again at every iteration. Null when they cannot
/// be checked: then no region is split.
Value *WorkGroupBuilder::assumptionsHold(
    SplitPlan &Plan, function_ref<Value *(Value *)> MapKernelValue) {
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

/// A region split by \p Plan: the outer work-item loops as usual, and
/// inside them, instead of one loop over the vectorized id, one loop per
/// range of the plan, each with its own specialised copy of the region.
/// Where the plan's assumptions on the parameters fail for a work group,
/// the region runs unsplit.
bool WorkGroupBuilder::emitSplitRegion(const Region &R, BasicBlock *Start,
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
  int Written =
      WholeCopies || countsPieces() ? -1 : Plan.unspecializedRange();
  BasicBlock *Fallback = nullptr; // joins the ranges as range Written
  if (!isa<ConstantInt>(Holds)) {
    SplitStart = BasicBlock::Create(Ctx, Start->getName() + ".split", WG,
                                    WGExit);
    BasicBlock *Plain = BasicBlock::Create(
        Ctx, Start->getName() + (Written >= 0 ? ".written" : ".plain"), WG,
        WGExit);
    SB.CreateCondBr(Holds, SplitStart, Plain);
    if (Written >= 0) {
      Fallback = Plain;
    } else {
      // Only work groups whose offsets come within a group of the int
      // range run this: kept scalar, it costs little to compile.
      Nest N = buildNest(Plain, After, false);
      cloneRegion(
          R, N.Ids, [&](BasicBlock *) { return N.BodyEnd; }, N.Body, N.Blocks);
      if (!N.Loops.empty())
        N.Loops.back().Role = LoopRec::Scalar;
      markParallel(N);
      ColdParts.push_back({Plain, After});
      if (countsPieces()) {
        IRBuilder<> PB(Plain->getTerminator());
        countWorkItems(PB, PB.getInt64(Config.workItems()), Start,
                       "fallback");
      }
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
  Value *Same = HasOuter ? Plan.emitBoundsInvariant(HB, MapKernelValue)
                         : HB.getTrue();
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
                   B.getInt64(Config.LocalSize[D]), false, Ids, Body,
                   BodyEnd, N.Loops, N.Blocks);
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
  if (!Wholes.empty() && !WholeCopies) {
    // The whole groups join the others with their bounds known.
    BasicBlock *Join =
        BasicBlock::Create(Ctx, Start->getName() + ".join", WG, WGExit);
    BranchInst::Create(Join, General);
    IRBuilder<> JB(Join);
    auto Phi = [&](Value *InGeneral, function_ref<Value *(unsigned)> InWhole,
                   const Twine &Name) -> Value * {
      if (all_of(Wholes,
                 [&](auto &W) { return InWhole(W.second) == InGeneral; }))
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
    General = Join;
  }
  SmallVector<SmallVector<unsigned, 4>, 8> Classes;
  Plan.copyClasses(Classes);
  SmallVector<unsigned, 8> RangeCounters(RangePieces.size(), ~0u);
  // The loops of the ranges \p Ranges (a class) within nest N, from Cur,
  // the bounds of each in \p Bounds, and their copy of the body.
  auto EmitClass = [&](ArrayRef<unsigned> Ranges, Nest &N, BasicBlock *Cur,
                       ArrayRef<std::pair<Value *, Value *>> Bounds) {
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
      BasicBlock *Latch =
          BasicBlock::Create(Ctx, "wi.ranges.latch", WG, WGExit);
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
      Value *Next =
          LB.CreateAdd(K, LB.getInt32(1), "wi.range.next", true, true);
      K->addIncoming(Next, Latch);
      auto *Br =
          LB.CreateCondBr(LB.CreateICmpULT(Next, LB.getInt32(Ranges.size())),
                          Header, N.BodyEnd);
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
  };
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
    EmitClass(Ranges, N, Cur, Bounds);
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
      EmitClass({Range}, N, N.Body, Bound);
    }
  return true;
}

void WorkGroupBuilder::emitEdgeTiles(
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

void WorkGroupBuilder::guardLanes(SmallVectorImpl<BasicBlock *> &Blocks,
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
LoopRec WorkGroupBuilder::buildRangeLoop(
    BasicBlock *Pre, BasicBlock *After, Value *Begin, Value *End,
    bool WholeTiles, Value *Ids[3], BasicBlock *&Body, BasicBlock *&BodyEnd,
    SmallVectorImpl<LoopRec> &Loops, SmallVectorImpl<BasicBlock *> &Blocks) {
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
    Value *Next = LB.CreateAdd(IV, LB.getInt64(1), IV->getName() + ".next",
                               true, true);
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

Value *WorkGroupBuilder::buildTileLoops(
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
  Value *X = IB.CreateAdd(Base, J, std::string("local_id_") + DimNames[D],
                          true, true);
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

/// Copies \p R's blocks into the work-group function, entered from
/// \p From, with the work-item ids \p Ids; a branch to an exit barrier E
/// goes to ExitTarget(E).
void WorkGroupBuilder::cloneRegion(
    const Region &R, Value *const Ids[3],
    function_ref<BasicBlock *(BasicBlock *)> ExitTarget, BasicBlock *From,
    SmallVectorImpl<BasicBlock *> &Out, ValueToValueMapTy *VMapOut) {
  ValueToValueMapTy LocalVMap;
  ValueToValueMapTy &VMap = VMapOut ? *VMapOut : LocalVMap;
  for (auto &[Old, New] : Common)
    VMap[Old] = New;
  for (BasicBlock *E : R.Exits)
    VMap[E] = ExitTarget(E);
  DenseSet<BasicBlock *> InRegion(R.Blocks.begin(), R.Blocks.end());
  SmallVector<BasicBlock *, 16> Copies;
  for (BasicBlock *BB : R.Blocks) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, "", WG);
    C->setName(BB->getName());
    C->moveBefore(WGExit);
    VMap[BB] = C;
    Copies.push_back(C);
  }
  for (BasicBlock *C : Copies) {
    // Edges from outside the region belong to other regions' copies.
    for (PHINode &P : C->phis())
      for (unsigned I = P.getNumIncomingValues(); I-- > 0;)
        if (!InRegion.count(P.getIncomingBlock(I)))
          P.removeIncomingValue(I, false);
    for (Instruction &I : *C)
      RemapInstruction(&I, VMap,
                       RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  }
  for (BasicBlock *C : Copies)
    for (Instruction &I : make_early_inc_range(*C)) {
      auto *L = dyn_cast<LoadInst>(&I);
      if (!L)
        continue;
      const Value *P = L->getPointerOperand();
      Value *V = GroupValues.lookup(P);
      for (unsigned D = 0; D < 3; ++D)
        if (P == LocalIdGlobals[D])
          V = Ids[D];
      if (!V)
        continue;
      if (V->getType() != L->getType()) {
        IRBuilder<> B(L);
        V = B.CreateZExtOrTrunc(V, L->getType());
      }
      L->replaceAllUsesWith(V);
      L->eraseFromParent();
    }
  BranchInst::Create(Copies.front(), From);
  Out.append(Copies.begin(), Copies.end());
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
void WorkGroupBuilder::runTileInside(Nest &N, size_t CopyBegin,
                                     BasicBlock *Body, BasicBlock *BodyEnd,
                                     Value *X, bool MaskedLanes) {
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
        if (Op != X && (isa<Argument>(Op) || (OI && !InCopy.count(OI->getParent()))))
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
  Value *Lane = TB.CreateLoad(TB.getInt64Ty(),
                              M.getOrInsertGlobal(WorkItemGlobals[D],
                                                  TB.getInt64Ty()),
                              std::string("lane_") + DimNames[D]);
  Value *TX = TB.CreateAdd(TK->getArg(find(Outside, Base) - Outside.begin()),
                           Lane,
                           X->getName(), true, true);
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
  Sub.MaskedLanes = MaskedLanes;
  Sub.buildInto(*WG, Pre, After, Outside.getArrayRef(), GroupValues);
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

MDNode *makeLoopID(LLVMContext &C, ArrayRef<Metadata *> Hints) {
  SmallVector<Metadata *, 6> Ops = {nullptr};
  Ops.append(Hints.begin(), Hints.end());
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

MDNode *loopHint(LLVMContext &C, StringRef Name) {
  return MDNode::get(C, {MDString::get(C, Name)});
}

void appendVectorizeBeforeUnroll(LLVMContext &C,
                                 SmallVectorImpl<Metadata *> &Hints) {
  auto Followup = [&](StringRef Name, ArrayRef<StringRef> Own) {
    SmallVector<Metadata *, 3> Ops = {MDString::get(C, Name)};
    for (StringRef H : Own)
      Ops.push_back(loopHint(C, H));
    Hints.push_back(MDNode::get(C, Ops));
  };
  Hints.push_back(loopHint(C, "llvm.loop.unroll.disable"));
  Followup("llvm.loop.vectorize.followup_vectorized",
           {"llvm.loop.isvectorized"});
  Followup("llvm.loop.vectorize.followup_epilogue",
           {"llvm.loop.isvectorized", "llvm.loop.unroll.runtime.disable"});
}

/// The most tiles an unsplit work-item loop keeps rolled for the loop
/// vectorizer (markParallel). LLVM's full unroller at O3 takes a trip count
/// times a body size up to 1200 (300 with its largest boost): 4 tiles of 16
/// lanes leave bodies of 18 instructions.
static constexpr uint64_t MaxTilesKeptRolled = 4;

void WorkGroupBuilder::markParallel(const Nest &N) {
  MDNode *Group = MDNode::getDistinct(Ctx, {});
  for (BasicBlock *BB : N.Blocks)
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      // A POCL_ISS_STATS sum carries from one outer id to the next.
      if (CounterAccesses.count(&I))
        continue;
      // The scalar slots of uniform values stay in the group: every
      // work-item stores the same value there, and iss-context never
      // reloads one in the region that stores it.
      // A tile function's lane loops have their own group already.
      MDNode *Old = I.getMetadata(LLVMContext::MD_access_group);
      I.setMetadata(LLVMContext::MD_access_group,
                    Old ? uniteAccessGroups(Old, Group) : Group);
    }
  bool Scalar = Config.IssMode == Mode::Scalar;
  Type *I32 = Type::getInt32Ty(Ctx);
  // The lanes of the vectorized dimension go to the full unroller and the
  // SLP vectorizer where its innermost loop has fewer work-items than the
  // lanes (below).
  uint64_t Lanes = std::max(Config.VectorWidth, Config.GivenWidth);
  bool LanesUnrolled = any_of(N.Loops, [&](const LoopRec &L) {
    return L.Role == LoopRec::Innermost && Config.LocalSize[L.Dim] < Lanes;
  });
  for (const LoopRec &L : N.Loops) {
    bool Innermost =
        L.Role == LoopRec::Innermost || L.Role == LoopRec::Tile;
    SmallVector<Metadata *, 6> Ops;
    Ops.push_back(MDNode::get(
        Ctx, {MDString::get(Ctx, "llvm.loop.parallel_accesses"), Group}));
    auto Flag = [&](const char *Name, Constant *V) {
      Ops.push_back(MDNode::get(
          Ctx, {MDString::get(Ctx, Name), ConstantAsMetadata::get(V)}));
    };
    if (Scalar || L.Role == LoopRec::Scalar) {
      Flag("llvm.loop.vectorize.width", ConstantInt::get(I32, 1));
      Flag("llvm.loop.interleave.count", ConstantInt::get(I32, 1));
    } else if (L.Role == LoopRec::Outer && LanesUnrolled) {
      // Once the innermost loop is unrolled, an outer one is innermost: the
      // loop vectorizer would take another dimension than the subkernel's,
      // whose context arrays are laid out for the subkernel's, at the
      // width its cost model picks. NVIDIA's convolutionSeparable columns
      // in 16x8 groups, scored for y at 8 lanes, had their x loops
      // vectorized at 4 lanes, every context slot a gather or a scatter:
      // 2.5x slower than `vec`, and slower than scalar code.
      Flag("llvm.loop.vectorize.width", ConstantInt::get(I32, 1));
    } else if (L.Role == LoopRec::Tiles) {
      // The tile loop inside is the one for vectors; this one may be
      // unrolled once it is innermost.
      Flag("llvm.loop.vectorize.width", ConstantInt::get(I32, 1));
    } else if (L.Role == LoopRec::Tile) {
      // Its w iterations are one vector iteration: the full unroller, which
      // runs before the loop vectorizer, must leave it alone.
      Ops.push_back(loopHint(Ctx, "llvm.loop.unroll.disable"));
      // With a guard on its lanes (an edge), the cost model would keep it
      // scalar, a branch per lane: one vector iteration with masks
      // (AVX-512's are cheap) is what the guard is for.
      if (Config.ForceWidth || L.Masked)
        Flag("llvm.loop.vectorize.width",
             ConstantInt::get(I32, Config.VectorWidth));
    } else if (Innermost) {
      // Otherwise the vectorizer's cost model decides: forcing vectorization
      // made array-of-struct kernels (nn) twice slower than scalar code.
      if (Config.ForceWidth)
        Flag("llvm.loop.vectorize.width",
             ConstantInt::get(I32, Config.VectorWidth));
      // A few whole tiles (a local size of w or 2w) would be unrolled whole
      // before the vectorizer sees them, as a tile would: sgemm and
      // FloydWarshall in 16x16 groups ran scalar, five times slower. What
      // the vectorizer makes of the loop may be unrolled as without these
      // hints (its followups; a remainder is rarely run), but a loop it
      // leaves is not unrolled at all: only up to MaxTilesKeptRolled tiles,
      // where LLVM's full unroller takes a body of any use (binomialOption's
      // 255 work-items ran 1.6 times slower rolled; a bound on the body's
      // size here, before O3 simplifies it, kept hotspot's 16 unrolled).
      // Fewer iterations than the lanes the compilation was given are left
      // to the unroller and the SLP vectorizer, in a subkernel of fewer
      // lanes too (DCT's 8x8 groups: the vectorizer's cost model refuses
      // half its loops at 8 lanes, which then ran 3x slower rolled).
      uint64_t Trips = Config.LocalSize[L.Dim];
      if (Trips >= Lanes && Trips <= MaxTilesKeptRolled * Lanes)
        appendVectorizeBeforeUnroll(Ctx, Ops);
    }
    L.Latch->getTerminator()->setMetadata(LLVMContext::MD_loop,
                                          makeLoopID(Ctx, Ops));
  }
}

/// Moves each unsplit fallback into a function of its own, cold and
/// optimized for size: only work groups whose offsets come within a group
/// of the int range run it, and so O3 and the code generator spend little
/// on a copy of the region that would otherwise cost as much to compile as
/// the split ones.
void WorkGroupBuilder::outlineColdParts() {
  for (auto [First, After] : ColdParts) {
    SetVector<BasicBlock *> Blocks;
    SmallVector<BasicBlock *, 16> Stack = {First};
    while (!Stack.empty()) {
      BasicBlock *BB = Stack.pop_back_val();
      if (BB == After || !Blocks.insert(BB))
        continue;
      append_range(Stack, successors(BB));
    }
    CodeExtractor CE(Blocks.getArrayRef());
    CodeExtractorAnalysisCache CEAC(*WG);
    if (!CE.isEligible())
      continue;
    if (Function *F = CE.extractCodeRegion(CEAC)) {
      F->addFnAttr(Attribute::Cold);
      F->addFnAttr(Attribute::MinSize);
      F->addFnAttr(Attribute::OptimizeForSize);
      F->addFnAttr(Attribute::NoInline);
    }
  }
}

/// The selection function of a single-subkernel work-group function (it
/// always picks subkernel 0; iss-subkernels makes the scored ones) and the
/// description of the subkernels for the runtime (POCL_ISS_STATS).
void WorkGroupBuilder::emitSelection() {
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  std::string KName = Kernel.getName().str();
  FunctionType *SelTy = FunctionType::get(I32, {Ptr, Ptr}, false);
  Function *Sel = Function::Create(SelTy, GlobalValue::ExternalLinkage,
                                   "__iss_select_" + KName, M);
  Sel->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> SB(BasicBlock::Create(Ctx, "entry", Sel));
  SB.CreateRet(ConstantInt::get(I32, 0));
  std::string Desc = std::string(modeName(Config.IssMode)) + ":" +
                     (Config.IssMode == Mode::Scalar ? "scalar"
                      : Kernel.hasFnAttribute(AsWrittenAttr)
                          ? "written"
                          : DimNames[Config.vectorizedDim()]);
  NamedMDNode *NMD = M.getOrInsertNamedMetadata("iss.subkernels");
  NMD->addOperand(MDNode::get(
      Ctx, {MDString::get(Ctx, KName), MDString::get(Ctx, WG->getName()),
            MDString::get(Ctx, Desc)}));
}

/// Adds \p N work-items, at \p B, to the work group's sum of a new counter
/// for piece \p Piece of the region \p Start begins; returns the
/// counter's index. The sum lives in an alloca that SROA makes a register.
unsigned WorkGroupBuilder::countWorkItems(IRBuilderBase &B, Value *N,
                                          BasicBlock *Start, StringRef Piece,
                                          unsigned Existing) {
  Type *I64 = B.getInt64Ty();
  unsigned Index = Existing;
  if (Index == ~0u) {
    BasicBlock &Entry = WG->getEntryBlock();
    IRBuilder<> EB(&Entry, Entry.begin());
    AllocaInst *Local = EB.CreateAlloca(I64, nullptr, "iss.piece");
    EB.CreateStore(EB.getInt64(0), Local);
    Index = PieceCounters.size();
    PieceCounter C;
    C.Region = RegionIndex.lookup(Start);
    C.Piece = Piece.str();
    C.Local = Local;
    PieceCounters.push_back(std::move(C));
  }
  AllocaInst *Local = PieceCounters[Index].Local;
  auto *Old = B.CreateLoad(I64, Local, "iss.piece.sum");
  auto *New = B.CreateStore(B.CreateAdd(Old, N), Local);
  CounterAccesses.insert(Old);
  CounterAccesses.insert(New);
  return Index;
}

/// POCL_ISS_STATS: the counters as an array the runtime finds by its name,
/// `__iss_pieces_<kernel>`, to which each work group adds its sums as it
/// ends (one atomic add per counter and group: per range entry, the adds
/// cost Convolution2D a quarter of its time), and their descriptions in the
/// module's `iss.pieces` metadata, one node per counter: kernel, counter,
/// region, piece, how its ranges run (0 scalar, 1 whole tiles, 2 partial
/// tiles with masks), properties (SplitPlan::describe), horizontal,
/// subkernel (iss-subkernels gathers the counters of all subkernels into
/// one array, piecesSymbol(kernel, -1), and renumbers them).
void WorkGroupBuilder::emitPieceCounters() {
  if (PieceCounters.empty())
    return;
  Type *I64 = Type::getInt64Ty(Ctx);
  auto *ArrTy = ArrayType::get(I64, PieceCounters.size());
  auto *Array = new GlobalVariable(
      M, ArrTy, false, GlobalValue::ExternalLinkage,
      ConstantAggregateZero::get(ArrTy),
      piecesSymbol(Kernel.getName(), Config.Subkernel));
  Array->setAlignment(Align(64));
  IRBuilder<> B(WGExit->getTerminator());
  for (unsigned I = 0; I < PieceCounters.size(); ++I)
    B.CreateAtomicRMW(AtomicRMWInst::Add,
                      B.CreateConstInBoundsGEP2_64(ArrTy, Array, 0, I),
                      B.CreateLoad(I64, PieceCounters[I].Local), MaybeAlign(8),
                      AtomicOrdering::Monotonic);
  NamedMDNode *NMD = M.getOrInsertNamedMetadata("iss.pieces");
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I1 = Type::getInt1Ty(Ctx);
  auto Const = [&](Type *T, uint64_t V) {
    return ConstantAsMetadata::get(ConstantInt::get(T, V));
  };
  for (unsigned I = 0; I < PieceCounters.size(); ++I) {
    const PieceCounter &PC = PieceCounters[I];
    NMD->addOperand(MDNode::get(
        Ctx, {MDString::get(Ctx, Kernel.getName()), Const(I32, I),
              Const(I32, PC.Region), MDString::get(Ctx, PC.Piece),
              Const(I32, PC.Masked ? 2 : PC.WholeTiles),
              MDString::get(Ctx, PC.Properties), Const(I1, PC.Horizontal),
              Const(I32, std::max(Config.Subkernel, 0))}));
  }
}

PreservedAnalyses WorkItemLoopsPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel)
    return PreservedAnalyses::all();
  // `vec` and `score` keep full-tile splitting only (what the loop
  // vectorizer does with the constant local size); `split` and
  // `split+score` split (the input-space-splitting paper, section 6.3); a
  // kernel kept as written (iss-as-written) is not.
  bool Split =
      (Config.IssMode == Mode::Split || Config.IssMode == Mode::SplitScore) &&
      !Kernel->hasFnAttribute(AsWrittenAttr);
  std::optional<WorkItemModel> Built;
  SplitPlanner Planner;
  // One work-item along the vectorized dimension leaves nothing to split:
  // no model (an image kernel's took 4 s of isl work in 1x1x1 groups).
  if (Split && Config.MaxPieces > 1 &&
      Config.LocalSize[Config.vectorizedDim()] > 1) {
    const WorkItemModel *Used = Model;
    if (!Used) {
      FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
      Used = &Built.emplace(WorkItemModelAnalysis().run(*Kernel, FAM));
    }
    // Partial edges are masked code: only where masks are cheap.
    Planner = makeSplitPlanner(
        *Used, Config.vectorizedDim(), Config.VectorWidth, Config.MaxPieces,
        Config.CheapMasks, Config.PartialEdges && Config.CheapMasks, *Kernel);
  }
  WorkGroupBuilder(M, *Kernel, Config, MAM, Planner).build();
  return PreservedAnalyses::none();
}

} // namespace iss
