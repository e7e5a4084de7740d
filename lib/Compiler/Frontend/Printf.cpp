//===- Printf.cpp - printf calls to the library's __pocl_printf -----------===//
// SPDX-License-Identifier: MIT
//
// iss-printf (see Passes.h). Kernel printf calls become calls to the
// library's __pocl_printf with the printf buffer globals as explicit
// arguments (DESIGN.md section 3); the work-group generator later replaces
// those globals with the per-thread buffer of the work-group context. Clang
// declares printf with a generic format pointer while the library's format
// lives in address space 2.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace iss {

PreservedAnalyses PrintfPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Printf = M.getFunction("printf");
  if (!Printf || !Printf->isDeclaration())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *ConstPtr = PointerType::get(Ctx, 2);
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee PoclPrintf = M.getOrInsertFunction(
      "__pocl_printf", FunctionType::get(I32, {Ptr, Ptr, I32, ConstPtr}, true));
  auto Global = [&](const char *Name, Type *T) {
    return M.getOrInsertGlobal(Name, T);
  };
  Constant *Buffer = Global("_printf_buffer", Ptr);
  Constant *Position = Global("_printf_buffer_position", Ptr);
  Constant *Capacity = Global("_printf_buffer_capacity", I32);
  for (CallInst *CI : callsOf(*Printf)) {
    IRBuilder<> B(CI);
    SmallVector<Value *, 8> Args = {B.CreateLoad(Ptr, Buffer),
                                    B.CreateLoad(Ptr, Position),
                                    B.CreateLoad(I32, Capacity)};
    Value *Fmt = CI->getArgOperand(0);
    Args.push_back(Fmt->getType() == ConstPtr
                       ? Fmt
                       : B.CreateAddrSpaceCast(Fmt, ConstPtr));
    for (unsigned I = 1; I < CI->arg_size(); ++I)
      Args.push_back(CI->getArgOperand(I));
    CallInst *New = B.CreateCall(PoclPrintf, Args);
    New->setCallingConv(CallingConv::C);
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
  if (Printf->use_empty())
    Printf->eraseFromParent();
  // The declarations and globals are added even where no call is left.
  return PreservedAnalyses::none();
}

} // namespace iss
