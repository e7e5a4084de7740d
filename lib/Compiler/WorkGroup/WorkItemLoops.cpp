//===- WorkItemLoops.cpp - Work-group functions for barrier-free kernels --===//
// SPDX-License-Identifier: MIT
//
// iss-wi-loops (see Passes.h). For a kernel without barriers the whole
// kernel is one parallel region (the pocl paper, section 4.2): the
// work-group function runs it in a loop nest over the work-item dimensions.
// The loops carry llvm.loop.parallel_accesses so that the loop vectorizer
// needs no dependence checks; work-items are independent between barriers.
//
// The vectorized dimension is placed innermost: in `vec` mode the first
// dimension with at least w work-items (the input-space-splitting paper,
// section 6.3). The compiled kernel already has the shape the splitting
// issue needs: a table of subkernels and a selection function, here with a
// single subkernel.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "iss-wi-loops"

namespace iss {

/// Private arrays that SROA cannot break up get one copy per work-item; past
/// this many bytes per work group they stay shared and their loops scalar.
static const uint64_t MaxPrivatizedBytes = 4u << 20;

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
  CtxPrintfPosition = 6
};

StructType *contextType(LLVMContext &C) {
  Type *I64x3 = ArrayType::get(Type::getInt64Ty(C), 3);
  Type *I32 = Type::getInt32Ty(C);
  Type *Ptr = PointerType::get(C, 0);
  return StructType::get(C, {I64x3, I64x3, I64x3, I32, I32, Ptr, Ptr});
}

struct LoopInfoRec {
  unsigned Dim;
  BasicBlock *Header;
  BasicBlock *Latch;
  PHINode *IV;
};

class WorkGroupBuilder {
public:
  WorkGroupBuilder(Module &M, Function &Kernel, const WorkGroupConfig &C,
                   ModuleAnalysisManager &MAM)
      : M(M), Ctx(M.getContext()), Kernel(Kernel), Config(C), MAM(MAM) {}

  Function *build();

private:
  unsigned vectorizedDim() const;
  void loadArguments(IRBuilder<> &B, Argument *Args,
                     SmallVectorImpl<Value *> &CallArgs);
  void replaceWorkItemGlobals(Function &WG, Value *CtxArg);
  void privatizeAllocas(Function &WG, SmallPtrSetImpl<Value *> &Shared);
  void markParallel(Function &WG, const SmallPtrSetImpl<Value *> &Shared);

  Module &M;
  LLVMContext &Ctx;
  Function &Kernel;
  const WorkGroupConfig &Config;
  ModuleAnalysisManager &MAM;
  SmallVector<LoopInfoRec, 3> Loops; ///< outermost first
  Value *LocalId[3] = {nullptr, nullptr, nullptr};
  BasicBlock *BodyEntry = nullptr; ///< first block of the innermost body
  SmallVector<BasicBlock *, 16> LoopBlocks;
};

} // namespace

unsigned WorkGroupBuilder::vectorizedDim() const {
  for (unsigned D = 0; D < 3; ++D)
    if (Config.LocalSize[D] >= Config.VectorWidth)
      return D;
  return 0;
}

/// Reads each kernel argument from its slot (WorkGroupABI.h): by-value
/// aggregates are passed as the slot itself, everything else is loaded.
void WorkGroupBuilder::loadArguments(IRBuilder<> &B, Argument *Args,
                                     SmallVectorImpl<Value *> &CallArgs) {
  Type *Ptr = PointerType::get(Ctx, 0);
  for (Argument &A : Kernel.args()) {
    Value *SlotAddr = B.CreateConstInBoundsGEP1_64(Ptr, Args, A.getArgNo());
    Value *Slot = B.CreateLoad(Ptr, SlotAddr, "arg.slot");
    if (A.hasByValAttr()) {
      CallArgs.push_back(Slot);
      continue;
    }
    LoadInst *V = B.CreateAlignedLoad(A.getType(), Slot, Align(1),
                                      A.getName() + ".val");
    CallArgs.push_back(V);
  }
}

Function *WorkGroupBuilder::build() {
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  std::string KName = Kernel.getName().str();
  FunctionType *SubTy =
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  Function *WG = Function::Create(SubTy, GlobalValue::ExternalLinkage,
                                  "__iss_sub_" + KName + "_0", M);
  for (const char *A : {"target-cpu", "target-features", "tune-cpu",
                        "min-legal-vector-width", "denormal-fp-math",
                        "denormal-fp-math-f32", "no-trapping-math",
                        "unsafe-fp-math", "no-nans-fp-math",
                        "no-infs-fp-math", "no-signed-zeros-fp-math",
                        "approx-func-fp-math"})
    if (Kernel.hasFnAttribute(A))
      WG->addFnAttr(Kernel.getFnAttribute(A));
  WG->addFnAttr(Attribute::NoUnwind);
  Argument *Args = WG->getArg(0);
  Argument *CtxArg = WG->getArg(1);
  Args->setName("args");
  CtxArg->setName("ctx");
  Args->addAttr(Attribute::NoAlias);
  CtxArg->addAttr(Attribute::NoAlias);

  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", WG);
  IRBuilder<> B(Entry);
  SmallVector<Value *, 8> CallArgs;
  loadArguments(B, Args, CallArgs);

  // Loop order: the vectorized dimension innermost, the others outside in
  // z, y, x order; dimensions of size 1 get no loop.
  unsigned VecDim = vectorizedDim();
  SmallVector<unsigned, 3> Order;
  for (int D = 2; D >= 0; --D)
    if (unsigned(D) != VecDim)
      Order.push_back(D);
  Order.push_back(VecDim);

  BasicBlock *Exit = BasicBlock::Create(Ctx, "wg.exit", WG);
  BasicBlock *Pred = Entry;
  for (unsigned D : Order) {
    if (Config.LocalSize[D] <= 1) {
      LocalId[D] = ConstantInt::get(I64, 0);
      continue;
    }
    static const char *const Names[3] = {"x", "y", "z"};
    std::string N = std::string("wi.") + Names[D];
    BasicBlock *Header = BasicBlock::Create(Ctx, N + ".header", WG, Exit);
    BranchInst::Create(Header, Pred);
    PHINode *IV = PHINode::Create(I64, 2, std::string("local_id_") + Names[D],
                                  Header);
    IV->addIncoming(ConstantInt::get(I64, 0), Pred);
    LocalId[D] = IV;
    Loops.push_back({D, Header, nullptr, IV});
    Pred = Header;
  }
  // The body: a call to the kernel, inlined below.
  BasicBlock *Body = BasicBlock::Create(Ctx, "wi.body", WG, Exit);
  BranchInst::Create(Body, Pred);
  B.SetInsertPoint(Body);
  CallInst *Call = B.CreateCall(&Kernel, CallArgs);
  Call->setCallingConv(Kernel.getCallingConv());
  BodyEntry = Body;
  // Latches, innermost first, each closing its loop.
  BasicBlock *Inner = BasicBlock::Create(Ctx, "wi.body.end", WG, Exit);
  B.CreateBr(Inner);
  BasicBlock *Cur = Inner;
  for (auto It = Loops.rbegin(); It != Loops.rend(); ++It) {
    static const char *const Names[3] = {"x", "y", "z"};
    BasicBlock *Latch = BasicBlock::Create(
        Ctx, std::string("wi.") + Names[It->Dim] + ".latch", WG, Exit);
    BranchInst::Create(Latch, Cur);
    IRBuilder<> LB(Latch);
    Value *Next = LB.CreateAdd(It->IV, ConstantInt::get(I64, 1),
                               It->IV->getName() + ".next", true, true);
    It->IV->addIncoming(Next, Latch);
    Value *More = LB.CreateICmpULT(
        Next, ConstantInt::get(I64, Config.LocalSize[It->Dim]));
    BasicBlock *After = BasicBlock::Create(
        Ctx, std::string("wi.") + Names[It->Dim] + ".done", WG, Exit);
    LB.CreateCondBr(More, It->Header, After);
    It->Latch = Latch;
    Cur = After;
  }
  BranchInst::Create(Exit, Cur);
  ReturnInst::Create(Ctx, Exit);

  // Inline the kernel (and, through always_inline, what it calls).
  InlineFunctionInfo IFI;
  InlineResult IR = InlineFunction(*Call, IFI);
  (void)IR;
  assert(IR.isSuccess() && "the kernel could not be inlined");
  // What the kernel called was marked always_inline by iss-prepare. One
  // call at a time: inlining splits blocks under any iterator.
  while (true) {
    CallBase *Next = nullptr;
    for (BasicBlock &BB : *WG) {
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *F = CB->getCalledFunction())
            if (!F->isDeclaration() &&
                F->hasFnAttribute(Attribute::AlwaysInline)) {
              Next = CB;
              break;
            }
      if (Next)
        break;
    }
    if (!Next)
      break;
    InlineFunctionInfo Info;
    if (!InlineFunction(*Next, Info).isSuccess())
      Next->getCalledFunction()->removeFnAttr(Attribute::AlwaysInline);
  }

  replaceWorkItemGlobals(*WG, CtxArg);

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FAM.invalidate(*WG, PreservedAnalyses::none());
  PreservedAnalyses PA = SROAPass(SROAOptions::PreserveCFG).run(*WG, FAM);
  FAM.invalidate(*WG, PA);
  // The blocks of the loop nest: everything but the entry and the exit.
  for (BasicBlock &BB : *WG)
    if (&BB != Entry && &BB != Exit)
      LoopBlocks.push_back(&BB);

  SmallPtrSet<Value *, 8> Shared;
  privatizeAllocas(*WG, Shared);
  markParallel(*WG, Shared);

  // The selection function: one subkernel for now, so always 0.
  FunctionType *SelTy = FunctionType::get(I32, {Ptr, Ptr}, false);
  Function *Sel = Function::Create(SelTy, GlobalValue::ExternalLinkage,
                                   "__iss_select_" + KName, M);
  Sel->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> SB(BasicBlock::Create(Ctx, "entry", Sel));
  SB.CreateRet(ConstantInt::get(I32, 0));

  // Describe the subkernels for the runtime (POCL_ISS_STATS) and the tests.
  static const char *const DimNames[3] = {"x", "y", "z"};
  std::string Desc = std::string(modeName(Config.IssMode)) + ":" +
                     (Config.IssMode == Mode::Scalar ? "scalar"
                                                     : DimNames[VecDim]);
  NamedMDNode *NMD = M.getOrInsertNamedMetadata("iss.subkernels");
  NMD->addOperand(MDNode::get(
      Ctx, {MDString::get(Ctx, KName), MDString::get(Ctx, WG->getName()),
            MDString::get(Ctx, Desc)}));
  Kernel.setLinkage(GlobalValue::InternalLinkage);
  return WG;
}

void WorkGroupBuilder::replaceWorkItemGlobals(Function &WG, Value *CtxArg) {
  StructType *CtxTy = contextType(Ctx);
  IRBuilder<> B(&*WG.getEntryBlock().getFirstInsertionPt());
  auto Field = [&](unsigned F, unsigned Idx, Type *T, const Twine &Name) {
    Value *P = F <= CtxGlobalOffset
                   ? B.CreateConstInBoundsGEP2_32(CtxTy, CtxArg, 0, F)
                   : B.CreateStructGEP(CtxTy, CtxArg, F);
    if (F <= CtxGlobalOffset)
      P = B.CreateConstInBoundsGEP1_64(Type::getInt64Ty(Ctx), P, Idx);
    return B.CreateLoad(T, P, Name);
  };
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::get(Ctx, 0);
  for (unsigned G = 0; G < 19; ++G) {
    GlobalVariable *GV = M.getGlobalVariable(WorkItemGlobals[G]);
    if (!GV)
      continue;
    SmallVector<LoadInst *, 8> Loads;
    for (User *U : GV->users())
      if (auto *L = dyn_cast<LoadInst>(U))
        if (L->getFunction() == &WG)
          Loads.push_back(L);
    if (Loads.empty())
      continue;
    Value *V = nullptr;
    unsigned Dim = G % 3;
    const char *Name = WorkItemGlobals[G] + 1;
    if (G < 3)
      V = LocalId[Dim];
    else if (G < 6)
      V = ConstantInt::get(I64, Config.LocalSize[Dim]);
    else if (G < 9)
      V = Field(CtxGroupId, Dim, I64, Name);
    else if (G < 12)
      V = Field(CtxNumGroups, Dim, I64, Name);
    else if (G < 15)
      V = Field(CtxGlobalOffset, Dim, I64, Name);
    else if (G == 15)
      V = Field(CtxWorkDim, 0, Type::getInt32Ty(Ctx), Name);
    else if (G == 16)
      V = Field(CtxPrintfBuffer, 0, Ptr, Name);
    else if (G == 17)
      V = Field(CtxPrintfPosition, 0, Ptr, Name);
    else
      V = Field(CtxPrintfCapacity, 0, Type::getInt32Ty(Ctx), Name);
    for (LoadInst *L : Loads) {
      Value *R = V;
      if (R->getType() != L->getType()) {
        IRBuilder<> LB(L);
        R = LB.CreateZExtOrTrunc(R, L->getType());
      }
      L->replaceAllUsesWith(R);
      L->eraseFromParent();
    }
  }
  // Function-scope __local variables come from the trailing argument slots.
  Argument *Args = WG.getArg(0);
  unsigned Slot = Kernel.arg_size();
  // The same order as KernelInfo::AutoLocals, which the device follows.
  std::vector<GlobalVariable *> Locals = autoLocalsOf(Kernel);
  for (GlobalVariable *GV : Locals) {
    Value *SlotAddr = B.CreateConstInBoundsGEP1_64(Ptr, Args, Slot++);
    Value *SlotPtr = B.CreateLoad(Ptr, SlotAddr, GV->getName() + ".slot");
    Value *Mem = B.CreateLoad(Ptr, SlotPtr, GV->getName());
    convertUsersOfConstantsToInstructions({GV});
    for (User *U : make_early_inc_range(GV->users()))
      if (auto *I = dyn_cast<Instruction>(U))
        if (I->getFunction() == &WG)
          I->replaceUsesOfWith(GV, Mem);
  }
}

void WorkGroupBuilder::privatizeAllocas(Function &WG,
                                        SmallPtrSetImpl<Value *> &Shared) {
  const DataLayout &DL = M.getDataLayout();
  uint64_t N = uint64_t(Config.LocalSize[0]) * Config.LocalSize[1] *
               Config.LocalSize[2];
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : WG.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (A->isStaticAlloca())
        Allocas.push_back(A);
  if (Allocas.empty() || N <= 1)
    return;
  uint64_t Total = 0;
  for (AllocaInst *A : Allocas)
    Total += DL.getTypeAllocSize(A->getAllocatedType()) * N;
  if (Total > MaxPrivatizedBytes) {
    for (AllocaInst *A : Allocas)
      Shared.insert(A);
    return;
  }
  // The linear local id, computed where every work-item's body begins.
  IRBuilder<> B(&*BodyEntry->getFirstInsertionPt());
  Type *I64 = Type::getInt64Ty(Ctx);
  Value *Lin = B.CreateAdd(
      B.CreateMul(B.CreateAdd(B.CreateMul(LocalId[2],
                                          ConstantInt::get(I64, Config.LocalSize[1])),
                              LocalId[1]),
                  ConstantInt::get(I64, Config.LocalSize[0])),
      LocalId[0], "wi.linear_id");
  for (AllocaInst *A : Allocas) {
    Type *T = A->getAllocatedType();
    if (A->isArrayAllocation())
      T = ArrayType::get(T, cast<ConstantInt>(A->getArraySize())->getZExtValue());
    IRBuilder<> AB(A);
    AllocaInst *Copies =
        AB.CreateAlloca(ArrayType::get(T, N), nullptr, A->getName() + ".wi");
    Copies->setAlignment(std::max(A->getAlign(), Align(64)));
    Value *Mine = B.CreateInBoundsGEP(ArrayType::get(T, N), Copies,
                                      {ConstantInt::get(I64, 0), Lin},
                                      A->getName() + ".mine");
    for (User *U : make_early_inc_range(A->users()))
      if (auto *II = dyn_cast<IntrinsicInst>(U))
        if (II->isLifetimeStartOrEnd()) {
          II->eraseFromParent();
          continue;
        }
    A->replaceAllUsesWith(Mine);
    A->eraseFromParent();
  }
}

void WorkGroupBuilder::markParallel(Function &WG,
                                    const SmallPtrSetImpl<Value *> &Shared) {
  MDNode *Group = MDNode::getDistinct(Ctx, {});
  for (BasicBlock *BB : LoopBlocks)
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      Value *Ptr = getLoadStorePointerOperand(&I);
      if (Ptr && Shared.count(getUnderlyingObject(Ptr)))
        continue;
      I.setMetadata(LLVMContext::MD_access_group, Group);
    }
  bool Scalar = Config.IssMode == Mode::Scalar;
  for (LoopInfoRec &L : Loops) {
    bool Innermost = &L == &Loops.back();
    SmallVector<Metadata *, 4> Ops;
    Ops.push_back(nullptr); // self reference
    Ops.push_back(MDNode::get(
        Ctx, {MDString::get(Ctx, "llvm.loop.parallel_accesses"), Group}));
    auto Flag = [&](const char *Name, Constant *V) {
      Ops.push_back(MDNode::get(
          Ctx, {MDString::get(Ctx, Name), ConstantAsMetadata::get(V)}));
    };
    Type *I32 = Type::getInt32Ty(Ctx);
    if (Scalar) {
      Flag("llvm.loop.vectorize.width", ConstantInt::get(I32, 1));
      Flag("llvm.loop.interleave.count", ConstantInt::get(I32, 1));
    } else if (Innermost && Config.ForceWidth) {
      // Otherwise the vectorizer's cost model decides: forcing vectorization
      // made array-of-struct kernels (nn) twice slower than scalar code.
      Flag("llvm.loop.vectorize.width",
           ConstantInt::get(I32, Config.VectorWidth));
    }
    MDNode *LoopID = MDNode::getDistinct(Ctx, Ops);
    LoopID->replaceOperandWith(0, LoopID);
    L.Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, LoopID);
  }
}

PreservedAnalyses WorkItemLoopsPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  Function *Kernel = M.getFunction(Config.Kernel);
  if (!Kernel || Kernel->isDeclaration())
    return PreservedAnalyses::all();
  WorkGroupBuilder(M, *Kernel, Config, MAM).build();
  return PreservedAnalyses::none();
}

} // namespace iss
