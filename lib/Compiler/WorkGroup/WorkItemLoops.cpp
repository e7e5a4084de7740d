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

#include "Analysis/Barriers.h"
#include "CompilerInternal.h"
#include "WorkGroupBuilder.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"
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
    const DenseMap<const Value *, Value *> &HostGroupValues, bool MaskedTile) {
  WG = &Host;
  WGExit = After;
  Lanes = true;
  MaskedLanes = MaskedTile;
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
    if (emitSplit(R, Start))
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
  WorkGroupBuilder(M, *Kernel, Config, MAM).build();
  return PreservedAnalyses::none();
}

} // namespace iss
