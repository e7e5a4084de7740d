//===- AsWritten.cpp - The kernel as written where widening cannot pay ----===//
// SPDX-License-Identifier: MIT
//
// iss-as-written (see Passes.h). Widening across work-items first splits the
// kernel's own vectors into their lanes (the Scalarizer in Pipeline.cpp),
// then runs each lane on a vector of w work-items. Where the kernel's
// vectors already fill the machine's registers, or where a work group has
// too few work-items to widen, that trades the author's vector code for the
// same number of operations or more, plus the shuffles that transpose the
// kernel's vector loads and stores. pocl runs such kernels as written.
//
// The comparison counts register operations per work-item, weighted by the
// blocks' estimated frequencies: an instruction on N lanes of b bits costs
// ceil(N b / R) as written (R: the register's bits), and
// N ceil(V b / R) / V when widened by V work-items; the kernel's shuffles
// and lane inserts and extracts cost as written and nothing widened (they
// become renames of lanes); a load or store of the kernel's vectors of N
// lanes, widened, is an interleaved access of N registers and a transpose
// between lanes and work-items, log2 N stages of shuffles over the N
// registers: (1 + log2 N) times its registers. The values a loop carries
// from one iteration to the next (its header's phis) need their registers
// at once: those past the register file (16 vector registers, 32 with
// AVX-512) cost a store and a load per iteration, and widening multiplies
// them (a uint16 takes 2 registers of 256 bits, 16 widened by 8). Values every
// work-item computes alike are left out: they stay scalar either way. Where
// the widened count is not lower, the kernel is marked as written
// (AsWrittenAttr) and every later pass keeps its vectors: no horizontal
// work-item loops (iss-loop-barriers), one subkernel, unsplit
// (iss-subkernels), no Scalarizer (Pipeline.cpp).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Uniformity.h"
#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/ADT/bit.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace llvm;

#define DEBUG_TYPE "iss-as-written"

namespace iss {

const char *const AsWrittenAttr = "iss-as-written";

/// The lanes the compile would widen the work-item loop by: per dimension
/// that may be vectorized, the vector width, narrowed to the largest power
/// of two within the dimension's work-items; the most of them.
static unsigned widenedLanes(const WorkGroupConfig &Config) {
  unsigned Best = 1;
  for (unsigned D = 0; D < 3; ++D) {
    if (Config.scores() ? !(Config.DimsMask >> D & 1)
                        : D != Config.vectorizedDim())
      continue;
    unsigned L = std::min(Config.LocalSize[D], Config.VectorWidth);
    Best = std::max(Best, L ? unsigned(llvm::bit_floor(L)) : 1u);
  }
  return Best;
}

/// The type whose lanes \p I works on: a comparison's operands', a
/// store's value's, the wider side of a cast; null for what is not an
/// operation on data.
static Type *workType(const Instruction &I) {
  if (isa<PHINode>(I) || I.isTerminator() || isa<AllocaInst>(I))
    return nullptr;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    if (II->isAssumeLikeIntrinsic() || II->isLifetimeStartOrEnd() ||
        isa<DbgInfoIntrinsic>(II))
      return nullptr;
  if (const auto *S = dyn_cast<StoreInst>(&I))
    return S->getValueOperand()->getType();
  if (isa<CmpInst>(I) || isa<ExtractElementInst>(I))
    return I.getOperand(0)->getType();
  if (const auto *C = dyn_cast<CastInst>(&I)) {
    Type *From = C->getSrcTy(), *To = C->getDestTy();
    return From->getPrimitiveSizeInBits() > To->getPrimitiveSizeInBits() ? From
                                                                         : To;
  }
  if (I.getType()->isVoidTy() || I.getType()->isAggregateType())
    return nullptr;
  return I.getType();
}

/// The lanes of \p T and their bits (0 for what is not data).
static std::pair<double, double> lanesOf(Type *T, const DataLayout &DL) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  Type *Elem = T->getScalarType();
  double Bits = Elem->isPointerTy()
                    ? DL.getPointerSizeInBits(Elem->getPointerAddressSpace())
                    : Elem->getPrimitiveSizeInBits().getFixedValue();
  return {VT ? VT->getNumElements() : 1, Bits};
}

WideningCost wideningCost(Function &F, const WorkGroupConfig &Config,
                          FunctionAnalysisManager &FAM) {
  WideningCost Cost;
  Cost.Lanes = widenedLanes(Config);
  const unsigned RegisterBits = Config.VectorWidth * 32;
  const DataLayout &DL = F.getParent()->getDataLayout();
  WorkItemUniformity U(F, FAM.getResult<PostDominatorTreeAnalysis>(F),
                       FAM.getResult<LoopAnalysis>(F));
  BlockFrequencyInfo &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  double Entry = double(BFI.getEntryFreq().getFrequency());
  auto WeightOf = [&](const BasicBlock *BB) {
    return double(BFI.getBlockFreq(BB).getFrequency()) / Entry;
  };
  const double V = Cost.Lanes;
  // The registers N lanes of Bits bits take, as written and widened by V.
  auto WrittenRegisters = [&](double N, double Bits) {
    return std::max(1.0, std::ceil(N * Bits / RegisterBits));
  };
  auto WidenedRegisters = [&](double N, double Bits) {
    return N * std::ceil(V * Bits / RegisterBits);
  };
  for (BasicBlock &BB : F) {
    double Weight = WeightOf(&BB);
    for (Instruction &I : BB) {
      Type *T = workType(I);
      if (!T)
        continue;
      bool Uniform = isa<StoreInst>(I) ? U.isUniform(I.getOperand(0)) &&
                                             U.isUniform(I.getOperand(1))
                                       : U.isUniform(&I);
      if (Uniform)
        continue;
      auto [N, Bits] = lanesOf(T, DL);
      if (!Bits)
        continue;
      double Written = WrittenRegisters(N, Bits);
      double Widened = WidenedRegisters(N, Bits) / V;
      if (isa<ShuffleVectorInst>(I) || isa<InsertElementInst>(I) ||
          isa<ExtractElementInst>(I))
        Widened = 0;
      else if (T->isVectorTy() && (isa<LoadInst>(I) || isa<StoreInst>(I)))
        Widened *= 1 + std::log2(N);
      Cost.Written += Weight * Written;
      Cost.Widened += Weight * Widened;
    }
  }
  // The values a loop carries live in registers across its iterations:
  // those past the register file are stored and loaded again in each.
  const double Registers = RegisterBits >= 512 ? 32 : 16;
  for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder()) {
    double Written = 0, Widened = 0;
    for (PHINode &Phi : L->getHeader()->phis()) {
      auto [N, Bits] = lanesOf(Phi.getType(), DL);
      if (!Bits || U.isUniform(&Phi))
        continue;
      Written += WrittenRegisters(N, Bits);
      Widened += WidenedRegisters(N, Bits);
    }
    double Weight = WeightOf(L->getHeader());
    Cost.Written += Weight * 2 * std::max(0.0, Written - Registers);
    Cost.Widened += Weight * 2 * std::max(0.0, Widened - Registers) / V;
  }
  return Cost;
}

PreservedAnalyses AsWrittenPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel || Config.IssMode == Mode::Scalar)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = functionAnalyses(M, MAM);
  WideningCost Cost = wideningCost(*Kernel, Config, FAM);
  bool Written = Config.AsWrittenOnly || !(Cost.Widened < Cost.Written);
  // A count that finds widening less than twice as cheap may be wrong
  // either way: the measured choice runs both.
  bool Candidate = !Written && 2 * Cost.Widened > Cost.Written;
  std::string Text;
  raw_string_ostream OS(Text);
  OS << format("%.6g", Cost.Written)
     << " register operations per work-item as written, "
     << format("%.6g", Cost.Widened) << " widened by " << Cost.Lanes << ": "
     << (Config.AsWrittenOnly ? "as written (the candidate)"
         : Written            ? "as written"
         : Candidate          ? "widened, the kernel as written a candidate"
                              : "widened");
  OS.flush();
  debugLog(DbgLLVM, "%s: %s", Config.Kernel.c_str(), Text.c_str());
  OptimizationRemarkEmitter ORE(Kernel);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Choice", Kernel) << Text;
  });
  if (Candidate) {
    LLVMContext &Ctx = M.getContext();
    M.getOrInsertNamedMetadata("iss.written.candidate")
        ->addOperand(MDNode::get(Ctx, MDString::get(Ctx, Kernel->getName())));
  }
  if (!Written)
    return Candidate ? PreservedAnalyses::none() : PreservedAnalyses::all();
  Kernel->addFnAttr(AsWrittenAttr);
  return PreservedAnalyses::none();
}

} // namespace iss
