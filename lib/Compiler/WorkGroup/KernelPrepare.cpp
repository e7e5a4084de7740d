//===- KernelPrepare.cpp - Ready a linked program for one kernel ----------===//
// SPDX-License-Identifier: MIT
//
// iss-prepare (see Passes.h). pocl inlines everything into the kernel (the
// pocl paper, section 8): the work-item globals must all be read inside the
// work-group function so that they can be replaced there, and calls left in
// a work-item loop keep the loop vectorizer from doing its job. Functions
// that touch no memory are the exception: they stay calls until the
// work-item loops exist, so that a call with uniform arguments is hoisted
// out of them (iss-hoist-uniform), and are inlined then. The image reads
// and writes are the other: each stays one call, as on pocl. The work-item
// functions also learn the specification's answer for a dimension of 3 or
// more, which pocl's library gets wrong for the sizes.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Analysis/Recursion.h"
#include "Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/IPO/FunctionAttrs.h"

#include <set>

using namespace llvm;

#define DEBUG_TYPE "iss-prepare"

namespace iss {

const char *const InlineLateAttr = "iss-inline-late";

const char *const WorkItemGlobals[19] = {
    "_local_id_x",      "_local_id_y",       "_local_id_z",
    "_local_size_x",    "_local_size_y",     "_local_size_z",
    "_group_id_x",      "_group_id_y",       "_group_id_z",
    "_num_groups_x",    "_num_groups_y",     "_num_groups_z",
    "_global_offset_x", "_global_offset_y",  "_global_offset_z",
    "_work_dim",        "_printf_buffer",    "_printf_buffer_position",
    "_printf_buffer_capacity"};

static cl::opt<std::string> KernelName("iss-kernel",
                                       cl::desc("Kernel to compile"),
                                       cl::init(""));
static cl::opt<std::string>
    ImageArgsOpt("iss-image-args",
                 cl::desc("The formats of image arguments: "
                          "<arg>=<order>.<type> in hexadecimal, joined by "
                          "'#'"),
                 cl::init(""));
static cl::list<unsigned> LocalSizeOpt("iss-local-size", cl::CommaSeparated,
                                    cl::desc("Local size x,y,z"));
static cl::opt<std::string> ModeName("iss-mode", cl::desc("POCL_ISS_MODE"),
                                     cl::init("vec"));
static cl::opt<unsigned> Width("iss-vector-width",
                               cl::desc("Force the vector width"),
                               cl::init(0));
static cl::opt<unsigned>
    MaxPiecesOpt("iss-split-pieces",
                 cl::desc("The most ranges of a split region"), cl::init(8));
static cl::opt<bool>
    HorizontalOpt("iss-horizontal",
               cl::desc("Horizontal inner-loop parallelization"),
               cl::init(true));
static cl::opt<bool> PartialEdgesOpt(
    "iss-partial-edges",
    cl::desc("Run the work-items of the partial tile beside a vectorized "
             "range of uniform control with that range's copy where it "
             "holds (POCL_ISS_PARTIAL_EDGES)"),
    cl::init(true));
static cl::opt<bool> CheapMasksOpt(
    "iss-cheap-masks",
    cl::desc("Masked loads and stores cost what plain ones do (AVX-512)"),
    cl::init(false));
static cl::opt<bool>
    StatsOpt("iss-stats",
             cl::desc("Count the work-items each piece runs (POCL_ISS_STATS)"),
             cl::init(false));

static cl::opt<std::string>
    DimsOpt("iss-dims", cl::desc("POCL_ISS_DIMS: dimensions with subkernels"),
            cl::init("0,1,2"));
static cl::opt<std::string>
    WeightsOpt("iss-weights",
               cl::desc("POCL_ISS_WEIGHTS: consecutive,uniform[,divergent]"),
               cl::init("2,1,0.5"));

static cl::opt<bool> SafeDivisionOpt(
    "iss-safe-division",
    cl::desc("POCL_ISS_SAFE_DIVISION: iss-workgroup guards divisions"),
    cl::init(true));

static cl::opt<bool> ChoiceOpt(
    "iss-choice",
    cl::desc("POCL_ISS_CHOICE: iss-workgroup keeps the kernel as written "
             "where widening cannot pay (iss-as-written)"),
    cl::init(true));

static cl::opt<bool> AsWrittenOnlyOpt(
    "iss-as-written-only",
    cl::desc("iss-as-written keeps the kernel as written whatever its count "
             "says (the measured choice's candidate)"),
    cl::init(false));

static cl::opt<std::string> TuneCPUOpt(
    "iss-tune-cpu",
    cl::desc("The CPU iss-codegen-attrs tunes the subkernels for (default: "
             "the host's, as the compile does)"),
    cl::init(""));

WorkGroupConfig WorkGroupConfig::fromCommandLine() {
  WorkGroupConfig C;
  C.Kernel = KernelName;
  C.ImageArgs = ImageArgsOpt;
  for (unsigned D = 0; D < 3 && D < LocalSizeOpt.size(); ++D)
    C.LocalSize[D] = LocalSizeOpt[D];
  if (auto M = parseMode(ModeName))
    C.IssMode = *M;
  if (Width) {
    C.VectorWidth = Width;
    C.ForceWidth = true;
  }
  C.Horizontal = HorizontalOpt;
  C.PartialEdges = PartialEdgesOpt;
  C.CheapMasks = CheapMasksOpt;
  C.MaxPieces = MaxPiecesOpt;
  C.Stats = StatsOpt;
  C.SafeDivision = SafeDivisionOpt;
  C.Choice = ChoiceOpt;
  C.AsWrittenOnly = AsWrittenOnlyOpt;
  C.TuneCPU =
      TuneCPUOpt.empty() ? sys::getHostCPUName().str() : TuneCPUOpt.getValue();
  // Bad values keep the defaults, as a bad -iss-mode does.
  parseDims(DimsOpt, C.DimsMask);
  parseWeights(WeightsOpt, C.WeightConsecutive, C.WeightUniform,
               C.WeightDivergent);
  return C;
}

Function *kernelToProcess(Module &M, const WorkGroupConfig &C) {
  Function *K = M.getFunction(C.Kernel);
  return K && !K->isDeclaration() ? K : nullptr;
}

FunctionAnalysisManager &functionAnalyses(Module &M,
                                          ModuleAnalysisManager &MAM) {
  return MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
}

unsigned WorkGroupConfig::vectorizedDim() const {
  if (VecDim >= 0)
    return unsigned(VecDim);
  for (unsigned D = 0; D < 3; ++D)
    if (LocalSize[D] >= VectorWidth)
      return D;
  return 0;
}

SmallVector<unsigned, 3> WorkGroupConfig::loopOrder() const {
  unsigned VecDim = vectorizedDim();
  SmallVector<unsigned, 3> Order;
  for (int D = 2; D >= 0; --D)
    if (unsigned(D) != VecDim)
      Order.push_back(D);
  Order.push_back(VecDim);
  return Order;
}

/// The work-item functions that take a dimension, and what the OpenCL C
/// specification (1.2, section 6.12.1) has them return for a dimension at
/// or beyond get_work_dim(): sizes and group counts 1, ids and offsets 0.
/// The runtime fills the dimensions up to 3 that way; pocl's library
/// answers dimensions of 3 and more with 0, sizes included.
static const struct {
  const char *Name;
  uint64_t OutOfRange;
} DimensionFunctions[] = {
    {"_Z15get_global_sizej", 1}, {"_Z14get_local_sizej", 1},
    {"_Z14get_num_groupsj", 1},  {"_Z17get_global_offsetj", 0},
    {"_Z13get_global_idj", 0},   {"_Z12get_local_idj", 0},
    {"_Z12get_group_idj", 0}};

/// Puts the library's \p Name behind a wrapper that answers \p OutOfRange
/// for a dimension of 3 or more (an unsigned argument: UINT_MAX too); the
/// library's function answers the others. Once inlined, a constant
/// dimension folds to one of the two.
static void boundDimension(Module &M, StringRef Name, uint64_t OutOfRange) {
  Function *Lib = M.getFunction(Name);
  if (!Lib || Lib->isDeclaration() || Lib->arg_size() != 1 ||
      M.getFunction((Name + ".pocl").str()))
    return;
  Function *W = Function::Create(Lib->getFunctionType(),
                                 GlobalValue::InternalLinkage, "", M);
  Lib->replaceAllUsesWith(W);
  W->takeName(Lib);
  Lib->setName(Name + ".pocl");
  W->addFnAttr(Attribute::NoUnwind);
  W->addFnAttr(Attribute::WillReturn);
  Argument *Dim = W->getArg(0);
  Dim->setName("dim");
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", W));
  Value *V = B.CreateCall(Lib, {Dim});
  Value *InRange = B.CreateICmpULT(Dim, B.getInt32(3), "in.range");
  B.CreateRet(B.CreateSelect(InRange, V,
                             ConstantInt::get(W->getReturnType(), OutOfRange)));
}

/// The printf formatter is large and reads no work-item state: it stays a
/// call rather than being copied into every printf site.
static bool keepOutOfLine(const Function &F) {
  return F.getName().starts_with("__pocl_printf");
}

/// Whether \p F is one of the library's image reads or writes
/// (`_cl_read_image*`, `_cl_write_image*`, Itanium-mangled). Each stays one
/// call, as on pocl: its body switches over every channel order and type
/// (and, sampled, every addressing mode and filter) on values of the image
/// and sampler that only the launch knows, control flow the loop
/// vectorizer gives up on. Copied into every work-item loop and subkernel,
/// a single read of a sampled image made the compile of a kernel take
/// seconds for each local size, for no faster code.
bool isImageAccess(const Function &F) {
  StringRef N = F.getName();
  if (!N.consume_front("_Z"))
    return false;
  N = N.drop_while([](char C) { return C >= '0' && C <= '9'; });
  return N.starts_with("_cl_read_image") || N.starts_with("_cl_write_image");
}

/// Whether a call of \p F stays a call through the work-group passes and is
/// inlined only after iss-hoist-uniform: a function that touches no memory
/// (so reaches no barrier, work-item global or printf buffer) and always
/// returns, a math builtin, say. A work-item loop then holds a call that
/// LICM can hoist when its arguments are uniform, instead of the builtin's
/// inlined control flow, which no pass hoists.
static bool inlineLate(const Function &F) {
  return F.doesNotAccessMemory() && F.doesNotThrow() && F.willReturn() &&
         !F.isVarArg();
}

/// The functions that read a work-item global or reach a barrier, directly
/// or through the functions they call. None may be inlined late: those
/// reads must be inside the work-item loops. The attributes do not tell:
/// opencl-c.h declares the work-item functions `const`, so clang gives a
/// call of get_global_id memory(none), and LLVM's inference then finds a
/// helper that calls it free of memory accesses.
static DenseSet<const Function *> workItemDependent(Module &M) {
  DenseSet<const Function *> Dependent;
  SmallVector<const Function *, 16> Work;
  SmallVector<const User *, 16> Users;
  for (const char *Name : WorkItemGlobals)
    if (const GlobalVariable *G = M.getGlobalVariable(Name))
      Users.append(G->user_begin(), G->user_end());
  if (const Function *B = M.getFunction(BarrierName))
    Users.append(B->user_begin(), B->user_end());
  while (!Users.empty()) {
    const User *U = Users.pop_back_val();
    if (const auto *I = dyn_cast<Instruction>(U)) {
      if (Dependent.insert(I->getFunction()).second)
        Work.push_back(I->getFunction());
    } else if (isa<Constant>(U)) {
      Users.append(U->user_begin(), U->user_end());
    }
  }
  while (!Work.empty())
    for (const User *U : Work.pop_back_val()->users())
      if (const auto *CB = dyn_cast<CallBase>(U))
        if (Dependent.insert(CB->getFunction()).second)
          Work.push_back(CB->getFunction());
  return Dependent;
}

PreservedAnalyses KernelPreparePass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel)
    return PreservedAnalyses::all();

  for (const auto &F : DimensionFunctions)
    boundDimension(M, F.Name, F.OutOfRange);

  // Everything the kernel reaches gets inlined, but for the image accesses
  // and what only they reach: the accesses stay calls, and LLVM's inliner
  // decides what goes into them, as on pocl (a sampled read with every
  // helper forced inline was 19,000 lines of IR).
  std::set<Function *> Reached, InImageAccess;
  for (bool Images : {false, true}) {
    std::vector<Function *> Work;
    if (!Images)
      Work.push_back(Kernel);
    else
      for (Function *F : Reached)
        if (isImageAccess(*F))
          Work.push_back(F);
    std::set<Function *> &Seen = Images ? InImageAccess : Reached;
    while (!Work.empty()) {
      Function *F = Work.back();
      Work.pop_back();
      if (!Seen.insert(F).second || F->isDeclaration() ||
          (!Images && isImageAccess(*F)))
        continue;
      for (BasicBlock &BB : *F)
        for (Instruction &I : BB)
          if (auto *CB = dyn_cast<CallBase>(&I))
            if (Function *Callee = CB->getCalledFunction())
              Work.push_back(Callee);
    }
  }
  // What the image accesses reach and the kernel does not.
  for (Function *F : Reached)
    InImageAccess.erase(F);
  // Recursive functions stay real calls, as on pocl: inlining them into the
  // kernel would never end. clBuildProgram refused those that reach
  // work-item state (Recursion.h); LLVM's inliner may still inline a few
  // levels of the others at O3.
  std::set<Function *> Recursive;
  for (const CallCycle &Cycle : callCycles(M))
    Recursive.insert(Cycle.begin(), Cycle.end());
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
  }
  // What each function reads and writes, whether it returns: LLVM's own
  // inference, bottom-up over the call graph.
  ModulePassManager Attrs;
  Attrs.addPass(
      createModuleToPostOrderCGSCCPassAdaptor(PostOrderFunctionAttrsPass()));
  Attrs.run(M, MAM);
  DenseSet<const Function *> Dependent = workItemDependent(M);
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (Recursive.count(&F)) {
      // Stays a real call (Recursion.h); never inlined.
      F.removeFnAttr(Attribute::AlwaysInline);
    } else if (keepOutOfLine(F)) {
      F.addFnAttr(Attribute::NoInline);
    } else if (InImageAccess.count(&F)) {
      // Left to LLVM's inliner, with the library's own attributes.
    } else if (Reached.count(&F)) {
      if (&F != Kernel && isImageAccess(F) && !Dependent.count(&F)) {
        // One real call; what it calls is inlined into it. Not convergent:
        // it holds no barrier.
        F.removeFnAttr(Attribute::Convergent);
        F.removeFnAttr(Attribute::AlwaysInline);
        F.addFnAttr(Attribute::NoInline);
      } else if (&F != Kernel && inlineLate(F) && !Dependent.count(&F)) {
        // Not convergent either: it holds no barrier.
        F.removeFnAttr(Attribute::Convergent);
        F.addFnAttr(InlineLateAttr);
      } else {
        F.addFnAttr(Attribute::AlwaysInline);
      }
    }
    if (&F != Kernel)
      F.setLinkage(GlobalValue::InternalLinkage);
  }
  for (Function *F : Reached)
    if (F->hasFnAttribute(InlineLateAttr) ||
        (isImageAccess(*F) && F->hasFnAttribute(Attribute::NoInline)))
      for (User *U : F->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          CB->removeFnAttr(Attribute::Convergent);
  Kernel->setCallingConv(CallingConv::C);
  // The uniformity analysis reads the local size from here.
  Kernel->addFnAttr("iss-local-size",
                    std::to_string(Config.LocalSize[0]) + "," +
                        std::to_string(Config.LocalSize[1]) + "," +
                        std::to_string(Config.LocalSize[2]));
  // Calls and callees agree on the C convention (the library's spir_func
  // and the fastcc of its internal helpers): a call that stays a call
  // through the work-group passes must match its callee.
  for (Function *F : Reached) {
    if (!F->isIntrinsic())
      F->setCallingConv(CallingConv::C);
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        CB->setCallingConv(CallingConv::C);
  }

  // The local size is a constant of this compilation.
  static const char *const Sizes[3] = {"_local_size_x", "_local_size_y",
                                       "_local_size_z"};
  for (unsigned D = 0; D < 3; ++D)
    if (GlobalVariable *G = M.getGlobalVariable(Sizes[D])) {
      for (User *U : make_early_inc_range(G->users()))
        if (auto *L = dyn_cast<LoadInst>(U))
          if (L->getType()->isIntegerTy()) {
            L->replaceAllUsesWith(
                ConstantInt::get(L->getType(), Config.LocalSize[D]));
            L->eraseFromParent();
          }
    }
  return PreservedAnalyses::none();
}

} // namespace iss
