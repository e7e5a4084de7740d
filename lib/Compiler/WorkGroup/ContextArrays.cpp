//===- ContextArrays.cpp - Kernel variables across parallel regions -------===//
// SPDX-License-Identifier: MIT
//
// iss-context (see Passes.h), the pocl paper, section 4.7. Runs on the
// kernel once its barriers are final; iss-wi-loops then copies each
// parallel region into a work-item loop, where a value computed in another
// region is gone. So a value live at a barrier is, in order of preference:
//  - recomputed where it is used, when it is a small expression of the
//    work-item globals (ids, group ids, sizes), the arguments and
//    constants: no context at all (get_local_id, get_global_id);
//  - kept in one scalar when uniform (Uniformity.h): every work-item stores
//    the same value;
//  - kept in a context array with one element per work-item, in the order
//    of the work-item loops and 64-byte aligned, so that the innermost loop
//    reads and writes it with full vectors.
// Only the uses that a barrier separates from the definition load it; the
// others keep the value. The sum of the context arrays' element sizes is
// the context bytes per work-item that POCL_DEBUG=llvm reports.
//
// Private arrays that SROA could not split get one copy per work-item,
// addressed by the linear local id at each use, so that no private address
// lives across a barrier; each copy is aligned as the array was, the copies
// padded to a multiple of its alignment where its size is not one.
//
// All of this lives on the worker's stack while it fits in a budget; past
// it, the largest slots move to the work group's scratch memory, which the
// device allocates per worker thread (iss_wg_context::scratch), so that
// nothing private is ever shared and no stack overflows, whatever the
// local size and the array sizes.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Analysis/Uniformity.h"
#include "Passes.h"

#include "pocl-iss/WorkGroupABI.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

#define DEBUG_TYPE "iss-context"

namespace iss {

const char *const ScratchGlobal = "_iss_scratch";

/// The bytes of slots (private copies, context arrays, uniform values)
/// kept on the stack of a worker thread (WorkerStackSize, 16 MiB, in
/// lib/Device/Pthread/Thread.h); the rest goes to scratch memory. Stack
/// slots are allocas: LLVM knows they alias nothing and promotes scalars.
static const uint64_t StackSlotBudget = 2u << 20;

/// The largest expression recomputed after a barrier instead of saved.
static const unsigned MaxRematInstructions = 12;

/// Context arrays are aligned for the widest vector loads (AVX-512).
static const Align ContextAlign(64);

Value *emitLinearLocalId(IRBuilderBase &B, const WorkGroupConfig &Config) {
  static const char *const Names[3] = {"_local_id_x", "_local_id_y",
                                       "_local_id_z"};
  Module *M = B.GetInsertBlock()->getModule();
  Type *I64 = B.getInt64Ty();
  Value *Lin = nullptr;
  for (unsigned D : Config.loopOrder()) {
    if (Config.LocalSize[D] <= 1)
      continue;
    Value *Id = B.CreateLoad(I64, M->getOrInsertGlobal(Names[D], I64),
                             "local_id");
    Lin = Lin ? B.CreateAdd(B.CreateMul(Lin, B.getInt64(Config.LocalSize[D]),
                                        "", true, true),
                            Id, "wi.linear_id", true, true)
              : Id;
  }
  return Lin ? Lin : B.getInt64(0);
}

static bool isWorkItemGlobalLoad(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L || L->isVolatile())
    return false;
  const Value *P = L->getPointerOperand()->stripPointerCasts();
  for (const char *Name : WorkItemGlobals)
    if (P->getName() == Name && isa<GlobalVariable>(P))
      return true;
  return false;
}

/// Whether \p V can be recomputed anywhere from work-item globals,
/// arguments and constants, within \p Budget instructions.
static bool canRecompute(Value *V, unsigned &Budget) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Budget == 0)
    return false;
  --Budget;
  if (isWorkItemGlobalLoad(I))
    return true;
  if (isa<PHINode>(I) || isa<AllocaInst>(I) || isa<CallBase>(I) ||
      I->mayReadOrWriteMemory() || !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!canRecompute(Op, Budget))
      return false;
  return true;
}

static Value *recompute(Value *V, Instruction *At,
                        DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *D = Done.lookup(V))
    return D;
  Instruction *C = I->clone();
  C->setName(I->getName() + ".re");
  for (Use &Op : C->operands())
    Op.set(recompute(Op.get(), At, Done));
  C->insertBefore(At);
  Done[V] = C;
  return C;
}

/// Where a use is read: before its user, or at the end of the incoming
/// block for a phi.
static Instruction *usePoint(const Use &U) {
  auto *UI = cast<Instruction>(U.getUser());
  if (auto *P = dyn_cast<PHINode>(UI))
    return P->getIncomingBlock(U)->getTerminator();
  return UI;
}

/// Whether a path from a barrier reaches \p At without passing through
/// \p V's definition: only such uses read \p V from the context.
static bool barrierSeparates(Instruction *V, Instruction *At) {
  BasicBlock *Def = V->getParent();
  BasicBlock *UseBB = At->getParent();
  if (UseBB == Def && (isa<PHINode>(V) || V->comesBefore(At)))
    return false;
  SmallVector<BasicBlock *, 16> Work(pred_begin(UseBB), pred_end(UseBB));
  SmallPtrSet<BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    BasicBlock *B = Work.pop_back_val();
    if (B == Def || !Seen.insert(B).second)
      continue;
    if (isBarrierBlock(*B))
      return true;
    Work.append(pred_begin(B), pred_end(B));
  }
  return false;
}

namespace {

class ContextBuilder {
public:
  ContextBuilder(Function &K, const WorkGroupConfig &Config)
      : K(K), Config(Config), DL(K.getParent()->getDataLayout()),
        N(Config.workItems()) {}

  void privatizeAllocas();
  void saveValuesAcrossBarriers(const WorkItemUniformity &U);
  void moveSlotsToScratch();

  uint64_t BytesPerWorkItem = 0;
  uint64_t UniformBytes = 0;
  /// Scratch memory the work group needs, in bytes.
  uint64_t ScratchBytes = 0;

private:
  SmallVector<Instruction *, 16> valuesLiveAtBarriers();
  void findRegions();
  bool shareRegion(const BasicBlock *A, const BasicBlock *B) const;
  AllocaInst *createSlot(Type *T, const Twine &Name);
  Value *slotAddress(AllocaInst *Slot, bool PerWorkItem, Instruction *At);

  Function &K;
  const WorkGroupConfig &Config;
  const DataLayout &DL;
  uint64_t N;
  /// Per block, the parallel regions it is part of: bit I for the region
  /// that the I-th barrier block starts (a block reachable from several
  /// barriers is in several regions, each of which gets a copy).
  DenseMap<const BasicBlock *, BitVector> RegionsOf;
};

} // namespace

AllocaInst *ContextBuilder::createSlot(Type *T, const Twine &Name) {
  BasicBlock &Entry = K.getEntryBlock();
  auto *A = new AllocaInst(T, DL.getAllocaAddrSpace(), Name,
                           Entry.getFirstNonPHIOrDbgOrAlloca());
  A->setAlignment(std::max(ContextAlign, DL.getPrefTypeAlign(T)));
  return A;
}

Value *ContextBuilder::slotAddress(AllocaInst *Slot, bool PerWorkItem,
                                   Instruction *At) {
  if (!PerWorkItem)
    return Slot;
  IRBuilder<> B(At);
  return B.CreateInBoundsGEP(Slot->getAllocatedType(), Slot,
                             {B.getInt64(0), emitLinearLocalId(B, Config)},
                             Slot->getName() + ".mine");
}

void ContextBuilder::privatizeAllocas() {
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : K.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (A->isStaticAlloca())
        Allocas.push_back(A);
  if (Allocas.empty() || N <= 1)
    return;
  for (AllocaInst *A : Allocas) {
    Type *T = A->getAllocatedType();
    if (A->isArrayAllocation())
      T = ArrayType::get(
          T, cast<ConstantInt>(A->getArraySize())->getZExtValue());
    // The kernel's accesses keep the alignment they state for A (clang
    // aligns a 24-byte float[6] to 16, and a memset or a vector store of
    // it says so): each copy must have it too, so the copies are padded
    // to a multiple of it. Unpadded, the copy of work-item 1 would start
    // at byte 24, and an aligned 16-byte store there faults.
    uint64_t Size = DL.getTypeAllocSize(T);
    uint64_t Stride = alignTo(Size, A->getAlign());
    if (Stride != Size)
      T = StructType::get(
          K.getContext(),
          {T, ArrayType::get(Type::getInt8Ty(K.getContext()), Stride - Size)});
    assert(DL.getTypeAllocSize(T) == Stride && "copies not padded");
    AllocaInst *Copies = createSlot(ArrayType::get(T, N), A->getName() + ".wi");
    Copies->setAlignment(std::max(Copies->getAlign(), A->getAlign()));
    for (Use &U : make_early_inc_range(A->uses())) {
      if (auto *II = dyn_cast<IntrinsicInst>(U.getUser()))
        if (II->isLifetimeStartOrEnd()) {
          II->eraseFromParent();
          continue;
        }
      U.set(slotAddress(Copies, true, usePoint(U)));
    }
    A->eraseFromParent();
  }
}

void ContextBuilder::findRegions() {
  SmallVector<BasicBlock *, 8> Barriers = barrierBlocks(K);
  for (unsigned I = 0; I < Barriers.size(); ++I) {
    SmallVector<BasicBlock *, 16> Work(successors(Barriers[I]));
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (isBarrierBlock(*BB))
        continue;
      BitVector &In = RegionsOf[BB];
      if (In.empty())
        In.resize(Barriers.size());
      if (In.test(I))
        continue;
      In.set(I);
      Work.append(succ_begin(BB), succ_end(BB));
    }
  }
}

bool ContextBuilder::shareRegion(const BasicBlock *A,
                                 const BasicBlock *B) const {
  auto IA = RegionsOf.find(A), IB = RegionsOf.find(B);
  return IA != RegionsOf.end() && IB != RegionsOf.end() &&
         IA->second.anyCommon(IB->second);
}

/// The instructions live at the start of some barrier block. Liveness is
/// computed per value, by walking back from its uses to its definition (the
/// blocks where it is live-in, SSA makes them exactly those), and stops at
/// the first barrier block found. The cost is the size of the values' live
/// ranges: a data-flow analysis with a bit per value and block would cost
/// time and memory quadratic in the size of the kernel.
SmallVector<Instruction *, 16> ContextBuilder::valuesLiveAtBarriers() {
  SmallVector<Instruction *, 16> Result;
  if (barrierBlocks(K).empty())
    return Result;
  // Stamp[B] == Epoch marks B as visited for the value being looked at.
  DenseMap<const BasicBlock *, unsigned> Stamp;
  for (BasicBlock &BB : K)
    Stamp[&BB] = 0;
  unsigned Epoch = 0;
  SmallVector<BasicBlock *, 32> Work;
  BasicBlock *Entry = &K.getEntryBlock();
  for (BasicBlock &BB : K)
    for (Instruction &I : BB) {
      if (I.getType()->isVoidTy() || (&BB == Entry && isa<AllocaInst>(I)))
        continue;
      ++Epoch;
      Work.clear();
      // The blocks where a use needs I live on entry: the user's block, or
      // for a phi the incoming block, which needs it live on exit and so on
      // entry too unless I is defined there.
      for (const Use &U : I.uses()) {
        auto *UI = cast<Instruction>(U.getUser());
        BasicBlock *B = UI->getParent();
        if (auto *P = dyn_cast<PHINode>(UI))
          B = P->getIncomingBlock(U);
        if (B == &BB)
          continue;
        unsigned &S = Stamp[B];
        if (S != Epoch) {
          S = Epoch;
          Work.push_back(B);
        }
      }
      bool Crossing = false;
      while (!Work.empty() && !Crossing) {
        BasicBlock *B = Work.pop_back_val();
        if (isBarrierBlock(*B)) {
          Crossing = true;
          break;
        }
        for (BasicBlock *P : predecessors(B)) {
          if (P == &BB)
            continue;
          unsigned &S = Stamp[P];
          if (S != Epoch) {
            S = Epoch;
            Work.push_back(P);
          }
        }
      }
      if (Crossing)
        Result.push_back(&I);
    }
  return Result;
}

void ContextBuilder::saveValuesAcrossBarriers(const WorkItemUniformity &U) {
  findRegions();
  for (Instruction *V : valuesLiveAtBarriers()) {
    SmallVector<Use *, 8> Separated;
    for (Use &Use : V->uses())
      if (barrierSeparates(V, usePoint(Use)))
        Separated.push_back(&Use);
    if (Separated.empty())
      continue;
    unsigned Budget = MaxRematInstructions;
    if (canRecompute(V, Budget)) {
      LLVM_DEBUG(dbgs() << "iss-context: recomputed:" << *V << "\n");
      for (Use *Use : Separated) {
        DenseMap<Value *, Value *> Done;
        Use->set(recompute(V, usePoint(*Use), Done));
      }
      continue;
    }
    Instruction *After = isa<PHINode>(V)
                             ? &*V->getParent()->getFirstInsertionPt()
                             : V->getNextNode();
    // One scalar serves a uniform value only when no region both stores
    // and reloads it: the work-items of a region run one after the other,
    // so a reload there would see the value that an earlier work-item
    // stored in this round, not the one of the previous region (a tree
    // reduction's `active = h` at the end of a barrier loop, where the
    // phi of h is stored in the region that reloads h for active).
    bool PerWorkItem = !U.isUniform(V) ||
                       any_of(Separated, [&](const Use *Use) {
                         return shareRegion(After->getParent(),
                                            usePoint(*Use)->getParent());
                       });
    // Booleans are kept as bytes, which is what an i1 takes in memory
    // anyway: the loop vectorizer widens a store of i8 lanes into one
    // vector store, where it stores and reloads i1 lanes one by one (a
    // barrier loop's `lid < active`, kept across the barrier).
    Type *T = V->getType();
    Type *Stored = T->isIntOrIntVectorTy(1)
                       ? T->getWithNewType(Type::getInt8Ty(T->getContext()))
                       : T;
    uint64_t Bytes = DL.getTypeAllocSize(Stored);
    AllocaInst *Slot =
        PerWorkItem
            ? createSlot(ArrayType::get(Stored, N), V->getName() + ".ctx")
            : createSlot(Stored, V->getName() + ".uniform");
    (PerWorkItem ? BytesPerWorkItem : UniformBytes) += Bytes;
    LLVM_DEBUG(dbgs() << "iss-context: " << Bytes << " bytes "
                      << (PerWorkItem ? "per work-item" : "uniform") << ":"
                      << *V << "\n");
    Value *Store = V;
    if (Stored != T)
      Store = new ZExtInst(V, Stored, V->getName() + ".byte", After);
    new StoreInst(Store, slotAddress(Slot, PerWorkItem, After), After);
    for (Use *Use : Separated) {
      Instruction *At = usePoint(*Use);
      Value *Reload = new LoadInst(Stored, slotAddress(Slot, PerWorkItem, At),
                                   V->getName() + ".reload", At);
      if (Stored != T)
        Reload = new TruncInst(Reload, T, V->getName() + ".bool", At);
      Use->set(Reload);
    }
  }
}

void ContextBuilder::moveSlotsToScratch() {
  SmallVector<AllocaInst *, 16> Slots;
  uint64_t StackBytes = 0;
  for (Instruction &I : K.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (std::optional<TypeSize> Size = A->getAllocationSize(DL)) {
        Slots.push_back(A);
        StackBytes += Size->getFixedValue();
      }
  if (StackBytes <= StackSlotBudget)
    return;
  // The largest slots leave first: the fewest accesses pay for the
  // indirection, and the small scalars stay promotable.
  llvm::stable_sort(Slots, [&](AllocaInst *A, AllocaInst *B) {
    return A->getAllocationSize(DL)->getFixedValue() >
           B->getAllocationSize(DL)->getFixedValue();
  });
  Module &M = *K.getParent();
  Type *Ptr = PointerType::get(K.getContext(), 0);
  GlobalVariable *Base = cast<GlobalVariable>(M.getOrInsertGlobal(
      ScratchGlobal, Ptr));
  for (AllocaInst *A : Slots) {
    if (StackBytes <= StackSlotBudget)
      break;
    // Scratch memory is aligned to a page: a slot that asks for more keeps
    // the stack, which LLVM realigns for it.
    if (A->getAlign() > Align(ISS_SCRATCH_ALIGN))
      continue;
    uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
    uint64_t Offset = alignTo(ScratchBytes, std::max(ContextAlign, A->getAlign()));
    ScratchBytes = Offset + Size;
    StackBytes -= Size;
    LLVM_DEBUG(dbgs() << "iss-context: " << Size << " bytes at scratch offset "
                      << Offset << ":" << *A << "\n");
    // iss-wi-loops keeps the entry block's allocas only: the address is
    // computed where it is used.
    for (Use &U : make_early_inc_range(A->uses())) {
      if (auto *II = dyn_cast<IntrinsicInst>(U.getUser()))
        if (II->isLifetimeStartOrEnd()) {
          II->eraseFromParent();
          continue;
        }
      IRBuilder<> B(usePoint(U));
      Value *Mem = B.CreateLoad(Ptr, Base, "scratch");
      U.set(B.CreateInBoundsGEP(B.getInt8Ty(), Mem, B.getInt64(Offset),
                                A->getName() + ".scratch"));
    }
    A->eraseFromParent();
  }
}

PreservedAnalyses ContextArraysPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  Function *K = kernelToProcess(M, Config);
  if (!K)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  ContextBuilder CB(*K, Config);
  CB.privatizeAllocas();
  FAM.invalidate(*K, PreservedAnalyses::none());
  {
    WorkItemUniformity U(*K, FAM.getResult<PostDominatorTreeAnalysis>(*K),
                         FAM.getResult<LoopAnalysis>(*K));
    CB.saveValuesAcrossBarriers(U);
  }
  CB.moveSlotsToScratch();
  FAM.invalidate(*K, PreservedAnalyses::none());

  LLVMContext &C = M.getContext();
  Type *I64 = Type::getInt64Ty(C);
  M.getOrInsertNamedMetadata("iss.context")
      ->addOperand(MDNode::get(
          C, {MDString::get(C, Config.Kernel),
              ConstantAsMetadata::get(
                  ConstantInt::get(I64, CB.BytesPerWorkItem)),
              ConstantAsMetadata::get(ConstantInt::get(I64, CB.UniformBytes)),
              ConstantAsMetadata::get(
                  ConstantInt::get(I64, CB.ScratchBytes))}));
  return PreservedAnalyses::none();
}

} // namespace iss
