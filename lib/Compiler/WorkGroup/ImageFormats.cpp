//===- ImageFormats.cpp - Image accesses for the launch's formats ---------===//
// SPDX-License-Identifier: MIT
//
// iss-image-formats (see Passes.h). pocl 3.1's library reads and writes a
// pixel by switching over the image's channel order and type, values of
// the launch. The compile is per launch configuration anyway (the local
// size is a constant of it): the runtime adds to it the channel order and
// type of each image argument (Config.ImageArgs, "<arg>=<order>.<type>"
// in hexadecimal, joined by '#', after the kernel's name in the compile
// request; NDRange.cpp). Each call of the kernel to a read or write of
// such an image gets a copy of the library's function, its helpers
// inlined, with those values constant (and the sampler, where the call
// passes a constant one): the switches fold to the one case. A copy that
// folds small (an unsampled read, a write) is inlined into the kernel;
// one that does not (a filtered read) stays a call, still without the
// switches. The kernel's own queries of the order and type
// (get_image_channel_order) fold too. The samplers given as arguments are
// not part of it: their branches predict well, and a kernel given many
// samplers would be compiled once for each.
//
//===----------------------------------------------------------------------===//

#include "Analysis/Barriers.h"
#include "Passes.h"

#include "pocl-iss/WorkGroupABI.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <cstddef>
#include <map>
#include <optional>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "iss-image-formats"

namespace iss {

namespace {
/// What the launch fixes of one image argument: its CL_* channel order and
/// type.
struct ArgValue {
  uint32_t Order = 0, Type = 0;
};
} // namespace

/// Parses Config.ImageArgs ("0=10b5.10d2#2=10b0.10de"): argument index to
/// format. Ill-formed items are ignored (nothing is specialized for them).
static std::map<unsigned, ArgValue> parseImageArgs(StringRef S) {
  std::map<unsigned, ArgValue> Args;
  SmallVector<StringRef, 8> Items;
  S.split(Items, '#', -1, false);
  for (StringRef Item : Items) {
    auto [Index, Value] = Item.split('=');
    auto [Order, Type] = Value.split('.');
    unsigned I;
    ArgValue V;
    if (Index.getAsInteger(10, I) || Order.getAsInteger(16, V.Order) ||
        Type.getAsInteger(16, V.Type))
      continue;
    Args[I] = V;
  }
  return Args;
}

/// The value of the descriptor's 32-bit field at \p Offset that the launch
/// fixes, if it is one: channel_order, channel_data_type, num_channels,
/// elem_size (iss_image, WorkGroupABI.h).
static std::optional<uint32_t> fieldValue(const ArgValue &V, int64_t Offset) {
  unsigned Channels = 0, Bytes = 0;
  switch (V.Order) {
  case 0x10B0: // CL_R
  case 0x10B1: // CL_A
    Channels = 1;
    break;
  case 0x10B5: // CL_RGBA
  case 0x10B6: // CL_BGRA
  case 0x10B7: // CL_ARGB
    Channels = 4;
    break;
  default:
    break;
  }
  switch (V.Type) {
  case 0x10D0: // CL_SNORM_INT8
  case 0x10D2: // CL_UNORM_INT8
  case 0x10D7: // CL_SIGNED_INT8
  case 0x10DA: // CL_UNSIGNED_INT8
    Bytes = 1;
    break;
  case 0x10D1: // CL_SNORM_INT16
  case 0x10D3: // CL_UNORM_INT16
  case 0x10D8: // CL_SIGNED_INT16
  case 0x10DB: // CL_UNSIGNED_INT16
  case 0x10DD: // CL_HALF_FLOAT
    Bytes = 2;
    break;
  case 0x10D9: // CL_SIGNED_INT32
  case 0x10DC: // CL_UNSIGNED_INT32
  case 0x10DE: // CL_FLOAT
    Bytes = 4;
    break;
  default:
    break;
  }
  if (Offset == offsetof(iss_image, channel_order))
    return V.Order;
  if (Offset == offsetof(iss_image, channel_data_type))
    return V.Type;
  if (Offset == offsetof(iss_image, num_channels) && Channels)
    return Channels;
  if (Offset == offsetof(iss_image, elem_size) && Bytes)
    return Bytes;
  return std::nullopt;
}

/// Replaces the loads in \p F of the fixed fields of the descriptor
/// \p Image points to (32-bit loads, or vectors of them, within the
/// fields) by their values.
static bool foldFields(Function &F, Value *Image, const ArgValue &V) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  bool Changed = false;
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *L = dyn_cast<LoadInst>(&I);
    if (!L || L->isVolatile())
      continue;
    int64_t Offset = 0;
    const Value *Base =
        GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset, DL);
    if (Base != Image)
      continue;
    Type *T = L->getType();
    Type *Elem = T->getScalarType();
    if (!Elem->isIntegerTy(32))
      continue;
    unsigned N =
        T->isVectorTy() ? cast<FixedVectorType>(T)->getNumElements() : 1;
    SmallVector<Constant *, 4> Lanes;
    for (unsigned E = 0; E < N; ++E) {
      std::optional<uint32_t> Field = fieldValue(V, Offset + 4 * E);
      if (!Field)
        break;
      Lanes.push_back(ConstantInt::get(Elem, *Field));
    }
    if (Lanes.size() != N)
      continue;
    L->replaceAllUsesWith(T->isVectorTy() ? ConstantVector::get(Lanes)
                                          : Lanes[0]);
    L->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// Folds what the constants decide in \p F: instructions that simplify,
/// branches and switches on constants, the blocks no longer reached.
static void foldConstants(Function &F) {
  const SimplifyQuery SQ(F.getParent()->getDataLayout());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : F)
      Changed |= ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
    Changed |= removeUnreachableBlocks(F);
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      if (isInstructionTriviallyDead(&I)) {
        I.eraseFromParent();
        Changed = true;
      } else if (Value *S =
                     simplifyInstruction(&I, SQ.getWithInstruction(&I))) {
        I.replaceAllUsesWith(S);
        if (isInstructionTriviallyDead(&I))
          I.eraseFromParent();
        Changed = true;
      }
    }
  }
}

/// Inlines every call of a function \p F's module defines into \p F, as
/// deep as they go: the library's pixel helpers, which read the fields
/// from the descriptor they are handed. False where a call stays (a
/// recursion, which the image builtins never have).
static bool inlineHelpers(Function &F) {
  for (unsigned Round = 0; Round < 16; ++Round) {
    SmallVector<CallBase *, 16> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Callee != &F)
            Calls.push_back(CB);
    if (Calls.empty())
      return true;
    for (CallBase *CB : Calls) {
      InlineFunctionInfo Info;
      if (!InlineFunction(*CB, Info).isSuccess())
        return false;
    }
  }
  return false;
}

/// Instructions of \p F, a measure of what inlining it copies.
static size_t size(const Function &F) {
  size_t N = 0;
  for (const BasicBlock &BB : F)
    N += BB.size();
  return N;
}

PreservedAnalyses ImageFormatsPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Kernel = kernelToProcess(M, Config);
  if (!Kernel || Config.ImageArgs.empty())
    return PreservedAnalyses::all();
  std::map<unsigned, ArgValue> Args = parseImageArgs(Config.ImageArgs);
  bool Changed = false;
  // A copy per function, format and constant sampler: the reads of images
  // of one format share theirs.
  std::map<std::tuple<Function *, uint32_t, uint32_t, Constant *>, Function *>
      Copies;
  for (auto &[I, V] : Args) {
    if (I >= Kernel->arg_size())
      continue;
    Argument *Image = Kernel->getArg(I);
    Changed |= foldFields(*Kernel, Image, V);
    SmallVector<CallBase *, 8> Calls;
    for (User *U : Image->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getFunction() == Kernel && CB->arg_size() >= 1 &&
            CB->getArgOperand(0) == Image && CB->getCalledFunction() &&
            !CB->getCalledFunction()->isDeclaration() &&
            isImageAccess(*CB->getCalledFunction()))
          Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      Function *F = CB->getCalledFunction();
      // A sampled read's second argument, where it is a constant.
      Constant *Sampler = nullptr;
      if (CB->arg_size() >= 2 && CB->getArgOperand(1)->getType()->isPointerTy())
        Sampler = dyn_cast<Constant>(CB->getArgOperand(1));
      Function *&Copy = Copies[{F, V.Order, V.Type, Sampler}];
      if (!Copy) {
        ValueToValueMapTy VMap;
        Function *C = CloneFunction(F, VMap);
        C->setName(F->getName() + ".iss." + utohexstr(V.Order) + "." +
                   utohexstr(V.Type));
        C->setLinkage(GlobalValue::InternalLinkage);
        bool Folded = inlineHelpers(*C);
        if (Sampler)
          C->getArg(1)->replaceAllUsesWith(Sampler);
        foldFields(*C, C->getArg(0), V);
        foldConstants(*C);
        // Small once folded: inlined into the kernel. A copy that stays
        // big (a format the folding does not reach) keeps the call.
        if (Folded && size(*C) <= 400) {
          C->removeFnAttr(Attribute::NoInline);
          C->addFnAttr(Attribute::AlwaysInline);
        }
        Copy = C;
      }
      CB->setCalledFunction(Copy);
      Changed = true;
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  inlineAlwaysInlineCalls(*Kernel);
  for (auto &[Key, Copy] : Copies)
    if (Copy->use_empty())
      Copy->eraseFromParent();
  // The descriptor is made with the image and never changes (Image.cpp),
  // and no kernel writes it: its loads, now in the kernel, are invariant.
  // Said so, LICM hoists them out of the work-item loops, where the
  // image's stores through the data pointer (bytes, which may alias
  // anything) otherwise made every work-item load the sizes, pitches and
  // data pointer again, and the loop vectorizer give up on the loop.
  const DataLayout &DL = M.getDataLayout();
  MDNode *Empty = MDNode::get(M.getContext(), {});
  for (auto &[I, V] : Args) {
    if (I >= Kernel->arg_size())
      continue;
    Argument *Image = Kernel->getArg(I);
    for (Instruction &Inst : instructions(*Kernel))
      if (auto *L = dyn_cast<LoadInst>(&Inst)) {
        int64_t Offset;
        if (!L->isVolatile() &&
            GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset,
                                             DL) == Image &&
            Offset >= 0 && Offset < int64_t(sizeof(iss_image)))
          L->setMetadata(LLVMContext::MD_invariant_load, Empty);
      }
  }
  return PreservedAnalyses::none();
}

} // namespace iss
