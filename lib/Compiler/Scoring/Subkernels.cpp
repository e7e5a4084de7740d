//===- Subkernels.cpp - One subkernel per dimension, and the selection ----===//
// SPDX-License-Identifier: MIT
//
// iss-subkernels (see Passes.h): the input-space-splitting paper, section
// 4.1. The kernel arrives after iss-cond-barriers, the same for every
// dimension. Each candidate dimension d (more than one work-item, in
// POCL_ISS_DIMS, at least MinLanes of them) gets a copy of the kernel,
// which iss-context lays out with d innermost and the pipeline's builder
// (iss-wi-loops, or iss-split) turns into the subkernel
// __iss_sub_<kernel>_<i> vectorizing d with
// min(w, the largest power of two <= L_d) lanes; the scalar fallback comes
// last. The scores (SubkernelScore.h) come from the model of the first
// copy: the accesses they count read the kernel's memory, which iss-context
// leaves alone, so one model serves every dimension. Subkernels another
// dominates are not built (static elimination), and __iss_select_<kernel>
// evaluates the scores of the others once per launch and returns the index
// of the highest, the first on ties.
//
// The passes of a subkernel find their kernel by name: the copy takes the
// kernel's name while they run, and the kernel a name of its own.
//
// print<iss-scores> (SubkernelScoresPrinterPass) takes the same steps up
// to the elimination (scoreCandidates) on a copy of the module, and prints
// the candidates with their scores.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"
#include "Scoring/SubkernelScore.h"
#include "Splitting/RegionSplitter.h"
#include "Splitting/WorkItemModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "iss-subkernels"

namespace iss {

/// The narrowest vector a subkernel gets: below four lanes, the work-item
/// loop's overhead eats what vectors gain.
static const unsigned MinLanes = 4;

static const char *const DimNames[3] = {"x", "y", "z"};

namespace {

struct Candidate {
  int Dim = -1; ///< -1: the scalar fallback
  unsigned Width = 1;
  SubkernelScore Score;
  bool Keep = true;
  std::string describe(Mode M) const {
    std::string D = std::string(modeName(M)) + ":";
    if (Dim < 0)
      return D + "scalar";
    return D + DimNames[Dim] + "/" + std::to_string(Width);
  }
};

/// Runs the passes of one subkernel on a copy of the kernel.
class SubkernelBuilder {
public:
  SubkernelBuilder(Module &M, Function &Kernel, ModuleAnalysisManager &MAM)
      : M(M), Kernel(Kernel), Name(Kernel.getName().str()), MAM(MAM) {}

  /// A copy of the kernel under the kernel's name (the kernel steps aside
  /// until release()).
  Function *copy() {
    ValueToValueMapTy VMap;
    Function *C = CloneFunction(&Kernel, VMap);
    Kernel.setName(Name + ".iss.pristine");
    C->setName(Name);
    Copies.push_back(C);
    return C;
  }
  /// The copy, done, gives the name back.
  void release(Function *C, const Twine &Suffix) {
    C->setName(Name + ".iss." + Suffix);
    Kernel.setName(Name);
  }
  template <typename PassT> void run(PassT P) {
    PreservedAnalyses PA = P.run(M, MAM);
    MAM.invalidate(M, PA);
  }
  /// Runs the pass named \p Builder that builds a work-group function.
  void build(StringRef Builder, const WorkGroupConfig &C) {
    [[maybe_unused]] bool Known = runBuilderPass(Builder, C, M, MAM);
    assert(Known && "iss-subkernels' builder is one of PassRegistry.def's");
  }
  /// Removes the kernel and the copies once their subkernels are built.
  void eraseSources() {
    FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
    Copies.push_back(&Kernel);
    for (Function *F : Copies) {
      FAM.clear(*F, F->getName());
      F->setLinkage(GlobalValue::InternalLinkage);
      if (F->use_empty())
        F->eraseFromParent();
    }
    Copies.clear();
  }

private:
  Module &M;
  Function &Kernel;
  std::string Name;
  ModuleAnalysisManager &MAM;
  SmallVector<Function *, 4> Copies;
};

} // namespace

/// The candidates of \p Config: the dimensions that may get a subkernel
/// and their widths, then the scalar fallback.
static std::vector<Candidate> candidates(const WorkGroupConfig &Config) {
  std::vector<Candidate> Out;
  for (unsigned D = 0; D < 3; ++D) {
    unsigned L = Config.LocalSize[D];
    if (L < 2 || !(Config.DimsMask >> D & 1))
      continue;
    unsigned W = Config.VectorWidth;
    if (!Config.ForceWidth)
      while (W > L)
        W /= 2;
    if (W > L || W < std::min(MinLanes, Config.VectorWidth))
      continue;
    Candidate C;
    C.Dim = D;
    C.Width = W;
    Out.push_back(std::move(C));
  }
  Candidate Scalar;
  Scalar.Score.addConstant(1);
  Out.push_back(std::move(Scalar));
  return Out;
}

/// Static elimination (section 4.1): drops each candidate that a kept one
/// dominates for every launch; of two that dominate each other, the first
/// stays.
static void eliminate(std::vector<Candidate> &Cands, const isl::set &Context) {
  for (unsigned J = 0; J < Cands.size(); ++J)
    for (unsigned I = 0; I < Cands.size() && Cands[J].Keep; ++I)
      if (I != J && Cands[I].Keep &&
          Cands[I].Score.dominates(Cands[J].Score, Context) &&
          (I < J || !Cands[J].Score.dominates(Cands[I].Score, Context)))
        Cands[J].Keep = false;
}

/// Whether the masked-guard rule, as written, leaves every region of
/// \p Kernel unsplit along \p C's dimension (masksCoverAsWritten): then
/// its subkernel is the one `vec` builds there, and each access it scores
/// is consecutive along it.
static bool masksCoverEveryRegion(const WorkItemModel &M, const Candidate &C,
                                  const WorkGroupConfig &Config,
                                  Function &Kernel) {
  if (M.regions().empty() || M.localSize(C.Dim) < C.Width)
    return false;
  PostDominatorTree PDT(Kernel);
  return all_of(M.regions(), [&](const RegionModel &R) {
    return masksCoverAsWritten(M, R, C.Dim, C.Width, Config.MaxPieces, PDT);
  });
}

/// The configuration of candidate \p C's subkernel, index \p Index in the
/// kernel's table.
static WorkGroupConfig configOf(const WorkGroupConfig &Config,
                                const Candidate &C, unsigned Index) {
  WorkGroupConfig SC = Config;
  SC.Subkernel = Index;
  if (C.Dim < 0) {
    SC.IssMode = Mode::Scalar;
  } else {
    SC.VecDim = C.Dim;
    SC.GivenWidth = Config.VectorWidth;
    SC.VectorWidth = C.Width;
  }
  return SC;
}

namespace {

/// The candidates of a kernel with their scores, and which are kept.
struct ScoredCandidates {
  /// Fewer than two: one subkernel, as the builder makes it (the modes
  /// without scores, kernels kept as written, kernels with no dimension
  /// to vectorize); nothing below is set.
  std::vector<Candidate> Cands;
  /// The first candidate's copy of the kernel, after its iss-context, and
  /// the model of it the scores come from, kept in the function analyses:
  /// the builder of the first subkernel takes it from there rather than
  /// build it again.
  Function *First = nullptr;
  const WorkItemModel *Model = nullptr;
  /// What is known of the launch parameters (scoresOf).
  isl::set Context;
  /// Why the first candidate is built alone, not scored; empty if scored.
  std::string Unscored;
  /// Whether that is because the scores could not be computed (a remark)
  /// rather than because the masks cover every region.
  bool ScoresFailed = false;
};

} // namespace

/// iss-subkernels' decision for \p Kernel, a kernel of \p M after
/// iss-cond-barriers: its candidates, the first one's copy (made by \p SB,
/// under the kernel's name until released) with its model, the scores and
/// the static elimination. Shared by the pass and print<iss-scores>.
static ScoredCandidates scoreCandidates(const WorkGroupConfig &Config,
                                        Module &M, Function &Kernel,
                                        SubkernelBuilder &SB,
                                        ModuleAnalysisManager &MAM) {
  ScoredCandidates S;
  if (Config.scores() && !Kernel.hasFnAttribute(AsWrittenAttr))
    S.Cands = candidates(Config);
  if (S.Cands.size() < 2)
    return S;
  std::vector<Candidate> &Cands = S.Cands;
  // The model, on the first candidate's copy after iss-context.
  S.First = SB.copy();
  SB.run(ContextArraysPass(configOf(Config, Cands[0], 0)));
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  FAM.registerPass([] { return WorkItemModelAnalysis(); });
  S.Model = &FAM.getResult<WorkItemModelAnalysis>(*S.First);
  // Where the masks cover every region along the first dimension, its
  // split is refused as written, before any set is computed
  // (RegionSplitter), and every access its score counts is consecutive
  // along it. The scores would still weigh it against the other
  // dimensions and the scalar fallback, which can win only where guards
  // leave little of a tile to run (Parboil's 2DCONV: the scalar fallback,
  // in launches whose image is at most two pixels wide or high, which run
  // nothing). That choice is given up for a compile that costs what
  // `vec`'s does: no scores, one subkernel.
  if (Config.IssMode == Mode::SplitScore && Config.CheapMasks &&
      masksCoverEveryRegion(*S.Model, Cands[0], Config, *S.First)) {
    S.Unscored = "the masks cover every region along it (-iss-cheap-masks)";
  } else {
    ScoreWeights W{Config.WeightConsecutive, Config.WeightUniform,
                   Config.WeightDivergent};
    SmallVector<unsigned, 3> Dims;
    for (const Candidate &C : Cands)
      if (C.Dim >= 0)
        Dims.push_back(C.Dim);
    std::vector<SubkernelScore> Scores =
        scoresOf(*S.Model, Dims, W, &S.Context, &S.Unscored);
    if (!S.Unscored.empty()) {
      S.ScoresFailed = true;
    } else {
      for (unsigned I = 0; I < Dims.size(); ++I)
        Cands[I].Score = std::move(Scores[I]);
      eliminate(Cands, S.Context);
    }
  }
  // Unscored, what `vec` would run: the first subkernel, for every launch.
  if (!S.Unscored.empty())
    for (Candidate &C : drop_begin(Cands))
      C.Keep = false;
  return S;
}

/// Why the first candidate of \p S runs alone, not scored, on one line
/// (the remark, POCL_DEBUG=llvm, print<iss-scores>).
static std::string unscoredLine(const ScoredCandidates &S, Mode M) {
  return "subkernel " + S.Cands[0].describe(M) +
         " alone, not scored: " + S.Unscored;
}

/// A scored candidate on one line: its subkernel, whether it is dominated,
/// its exact parts and its score (POCL_DEBUG=llvm, print<iss-scores>).
static std::string scoreLine(const Candidate &C, Mode M) {
  std::string Score;
  raw_string_ostream SOS(Score);
  C.Score.print(SOS);
  return "subkernel " + C.describe(M) + (C.Keep ? "" : " (dominated)") + ", " +
         std::to_string(C.Score.exactParts()) + " of " +
         std::to_string(C.Score.parts()) + " parts exact, score " + Score;
}

/// One array of POCL_ISS_STATS counters for all subkernels: each
/// subkernel's array becomes a part of the kernel's, and the counters of
/// !iss.pieces are renumbered in order.
static void gatherPieceCounters(Module &M, StringRef Kernel,
                                unsigned Subkernels) {
  NamedMDNode *NMD = M.getNamedMetadata("iss.pieces");
  if (!NMD)
    return;
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<uint64_t, 4> Offset;
  uint64_t Total = 0;
  for (unsigned S = 0; S < Subkernels; ++S) {
    Offset.push_back(Total);
    if (GlobalVariable *G = M.getGlobalVariable(piecesSymbol(Kernel, S)))
      Total += cast<ArrayType>(G->getValueType())->getNumElements();
  }
  if (!Total)
    return;
  auto *ArrTy = ArrayType::get(I64, Total);
  auto *All = new GlobalVariable(M, ArrTy, false, GlobalValue::ExternalLinkage,
                                 ConstantAggregateZero::get(ArrTy),
                                 piecesSymbol(Kernel, -1));
  All->setAlignment(Align(64));
  for (unsigned S = 0; S < Subkernels; ++S)
    if (GlobalVariable *G = M.getGlobalVariable(piecesSymbol(Kernel, S))) {
      Constant *Idx[] = {ConstantInt::get(I64, 0),
                         ConstantInt::get(I64, Offset[S])};
      G->replaceAllUsesWith(
          ConstantExpr::getInBoundsGetElementPtr(ArrTy, All, Idx));
      G->eraseFromParent();
    }
  for (unsigned I = 0; I < NMD->getNumOperands(); ++I) {
    MDNode *N = NMD->getOperand(I);
    if (!isNodeOf(N, Kernel))
      continue;
    SmallVector<Metadata *, 8> Ops(N->op_begin(), N->op_end());
    Ops[1] = ConstantAsMetadata::get(ConstantInt::get(
        Type::getInt32Ty(Ctx), mdInt(N, 1) + Offset[mdInt(N, 7)]));
    NMD->setOperand(I, MDNode::get(Ctx, Ops));
  }
}

/// __iss_select_<kernel>: the index of the highest score among \p Kept,
/// the first on ties; false when a score cannot be emitted.
static bool emitSelect(Module &M, const WorkGroupConfig &Config,
                       const WorkItemModel *Model, const isl::set &Context,
                       ArrayRef<const Candidate *> Kept) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx);
  Function *Sel = Function::Create(FunctionType::get(I32, {Ptr, Ptr}, false),
                                   GlobalValue::ExternalLinkage,
                                   "__iss_select_" + Config.Kernel, M);
  Sel->addFnAttr(Attribute::NoUnwind);
  Argument *Args = Sel->getArg(0), *CtxArg = Sel->getArg(1);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Sel));
  auto Fail = [&] {
    Sel->eraseFromParent();
    return false;
  };
  if (Kept.size() == 1) {
    B.CreateRet(B.getInt32(0));
    return true;
  }
  auto Global = [&](unsigned G) {
    return loadWorkItemGlobal(B, Config, CtxArg, G);
  };
  auto ValueOf = [&](const isl::id &Id) -> Value * {
    std::string Name = Id.get_name();
    for (unsigned D = 0; D < 3; ++D) {
      if (Name == numGroupsParam(D))
        return Global(9 + D);
      if (Name == globalOffsetParam(D))
        return Global(12 + D);
    }
    const ModelParam *P = WorkItemModel::param(Id);
    if (!P || !Model)
      return nullptr;
    return Model->paramValue(*P, B, [&](Value *V) -> Value * {
      return loadKernelInput(B, Config, Args, CtxArg, V);
    });
  };
  Value *Best = nullptr, *BestIndex = nullptr;
  std::map<std::string, Value *> Emitted;
  for (unsigned I = 0; I < Kept.size(); ++I) {
    Expected<Value *> S = Kept[I]->Score.emit(B, ValueOf, Context, &Emitted);
    if (!S) {
      debugLog(DbgLLVM, "%s: a score cannot be emitted: %s",
               Config.Kernel.c_str(), toString(S.takeError()).c_str());
      return Fail();
    }
    if (!Best) {
      Best = *S;
      BestIndex = B.getInt32(0);
      continue;
    }
    Value *Better = B.CreateFCmpOGT(*S, Best);
    Best = B.CreateSelect(Better, *S, Best);
    BestIndex = B.CreateSelect(Better, B.getInt32(I), BestIndex);
  }
  B.CreateRet(BestIndex);
  return true;
}

PreservedAnalyses SubkernelsPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel)
    return PreservedAnalyses::all();
  SubkernelBuilder SB(M, *Kernel, MAM);
  ScoredCandidates S = scoreCandidates(Config, M, *Kernel, SB, MAM);
  std::vector<Candidate> &Cands = S.Cands;
  // One subkernel, as the builder makes it.
  if (Cands.size() < 2) {
    SB.run(ContextArraysPass(Config));
    SB.build(Builder, Config);
    return PreservedAnalyses::none();
  }
  Function *First = S.First;
  const WorkItemModel *Model = S.Model;
  const isl::set &Context = S.Context;
  if (S.ScoresFailed) {
    OptimizationRemarkEmitter ORE(First);
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotScored", First)
             << unscoredLine(S, Config.IssMode);
    });
  } else if (S.Unscored.empty() && debugEnabled(DbgLLVM)) {
    for (const Candidate &C : Cands)
      debugLog(DbgLLVM, "%s: %s", Config.Kernel.c_str(),
               scoreLine(C, Config.IssMode).c_str());
  }
  if (!S.Unscored.empty())
    debugLog(DbgLLVM, "%s: %s", Config.Kernel.c_str(),
             unscoredLine(S, Config.IssMode).c_str());

  SmallVector<const Candidate *, 4> Kept;
  for (const Candidate &C : Cands)
    if (C.Keep)
      Kept.push_back(&C);
  // The selection reads the model's parameters: before the copies change.
  if (!emitSelect(M, Config, Model, Context, Kept)) {
    // Without it, the first subkernel for every launch.
    Kept.resize(1);
    emitSelect(M, Config, nullptr, Context, Kept);
  }
  if (!Cands[0].Keep) {
    functionAnalyses(M, MAM).clear(*First, First->getName());
    SB.release(First, "dominated");
    First = nullptr;
  }

  NamedMDNode *Table = M.getOrInsertNamedMetadata("iss.subkernels");
  LLVMContext &Ctx = M.getContext();
  for (unsigned I = 0; I < Kept.size(); ++I) {
    Function *Copy = First; // its iss-context has run
    if (Kept[I] != &Cands[0]) {
      Copy = SB.copy();
      SB.run(ContextArraysPass(configOf(Config, *Kept[I], I)));
    }
    // The first copy is as the model saw it: its builder finds the model
    // cached.
    SB.build(Builder, configOf(Config, *Kept[I], I));
    SB.release(Copy, "sub" + Twine(I));
    std::string Sub = "__iss_sub_" + Config.Kernel + "_" + std::to_string(I);
    // Beside vector subkernels, the scalar fallback runs only launches that
    // have next to nothing to vectorize: small code, compiled quickly.
    if (Kept[I]->Dim < 0 && Kept.size() > 1)
      if (Function *F = M.getFunction(Sub)) {
        F->addFnAttr(Attribute::OptimizeForSize);
        F->addFnAttr(Attribute::MinSize);
      }
    Table->addOperand(MDNode::get(
        Ctx, {MDString::get(Ctx, Config.Kernel),
              MDString::get(Ctx, Sub),
              MDString::get(Ctx, Kept[I]->describe(Config.IssMode))}));
  }
  gatherPieceCounters(M, Config.Kernel, Kept.size());
  SB.eraseSources();
  return PreservedAnalyses::none();
}

PreservedAnalyses SubkernelScoresPrinterPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  if (!kernelToProcess(M, Config))
    return PreservedAnalyses::all();
  OS << "iss-scores of @" << Config.Kernel << ", local size "
     << Config.LocalSize[0] << "x" << Config.LocalSize[1] << "x"
     << Config.LocalSize[2] << ", " << modeName(Config.IssMode) << "\n";
  // On a copy of the module: the pass's copy of the kernel and its
  // iss-context change the module.
  std::unique_ptr<Module> Copy = CloneModule(M);
  Function *Kernel = kernelToProcess(*Copy, Config);
  {
    SubkernelBuilder SB(*Copy, *Kernel, MAM);
    ScoredCandidates S = scoreCandidates(Config, *Copy, *Kernel, SB, MAM);
    if (S.Cands.size() < 2)
      OS << "  one subkernel, not scored: "
         << (!Config.scores() ? "the mode has no scores"
             : Kernel->hasFnAttribute(AsWrittenAttr)
                 ? "the kernel runs as written (iss-as-written)"
                 : "no dimension to vectorize")
         << "\n";
    else if (!S.Unscored.empty())
      OS << "  " << unscoredLine(S, Config.IssMode) << "\n";
    else
      for (const Candidate &C : S.Cands)
        OS << "  " << scoreLine(C, Config.IssMode) << "\n";
  }
  // The copy's analyses go before it does.
  MAM.clear(*Copy, Copy->getName());
  return PreservedAnalyses::all();
}

} // namespace iss
