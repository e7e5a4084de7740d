//===- SamplerInitializer.cpp - Sampler constants as the library's bits ---===//
// SPDX-License-Identifier: MIT
//
// iss-sampler-init (see Passes.h). A sampler_t constant (`constant
// sampler_t s = CLK_...;`) reaches the IR as a call of
// `__translate_sampler_initializer(i32 bits)`, which Clang leaves for the
// target to define. pocl 3.1's library takes a sampler as its CLK_* bits in
// a pointer-sized integer (`dev_sampler_t` is uintptr_t, and the runtime
// passes a sampler argument the same way): each call becomes that integer
// as a pointer constant.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace iss {

PreservedAnalyses SamplerInitializerPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  Function *Init = M.getFunction("__translate_sampler_initializer");
  if (!Init || !Init->isDeclaration())
    return PreservedAnalyses::all();
  Type *I64 = Type::getInt64Ty(M.getContext());
  std::vector<CallInst *> Calls = callsOf(*Init);
  llvm::erase_if(Calls, [](CallInst *CI) { return CI->arg_size() != 1; });
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    Value *New = B.CreateIntToPtr(
        B.CreateZExtOrTrunc(CI->getArgOperand(0), I64), CI->getType());
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
  bool Erased = Init->use_empty();
  if (Erased)
    Init->eraseFromParent();
  return Calls.empty() && !Erased ? PreservedAnalyses::all()
                                  : PreservedAnalyses::none();
}

} // namespace iss
