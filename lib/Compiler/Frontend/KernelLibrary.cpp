//===- KernelLibrary.cpp - Linking Debian pocl's kernel library -----------===//
// SPDX-License-Identifier: MIT
//
// The OpenCL C builtins come from pocl's kernel library bitcode for the host
// CPU (DESIGN.md section 3). The file is read once per process and linked
// lazily: each build materialises only the functions its program calls.
// Library functions carry the spir_func convention; calls are relaxed to C
// so that the optimiser does not turn mismatched calls into unreachable.
// OpenCL C 2.0's generic-pointer builtins are bound to the library's
// named-address-space ones.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <mutex>

using namespace llvm;

namespace iss {

static MemoryBuffer *libraryBuffer(std::string &Error) {
  static std::once_flag Once;
  static std::unique_ptr<MemoryBuffer> Buffer;
  static std::string LoadError;
  std::call_once(Once, [] {
    const TargetInfo &T = getTargetInfo();
    if (T.LibraryPath.empty()) {
      LoadError = "no pocl kernel library for this CPU in " +
                  std::string(POCL_KERNEL_LIB_DIR);
      return;
    }
    auto B = MemoryBuffer::getFile(T.LibraryPath);
    if (!B) {
      LoadError =
          "cannot read " + T.LibraryPath + ": " + B.getError().message();
      return;
    }
    Buffer = std::move(*B);
  });
  Error = LoadError;
  return Buffer.get();
}

const std::string &kernelLibraryHash() {
  static std::once_flag Once;
  static std::string Hash;
  std::call_once(Once, [] {
    std::string Error;
    if (MemoryBuffer *B = libraryBuffer(Error))
      Hash = identityHex(B->getBuffer());
    else
      Hash = "none";
  });
  return Hash;
}

/// Library functions use spir_func; our code calls them with the C
/// convention. A mismatch between call and callee is undefined behaviour
/// that the optimiser turns into unreachable, so both sides become C.
static void relaxCallingConventions(Module &M) {
  for (Function &F : M) {
    if (F.getCallingConv() == CallingConv::SPIR_FUNC)
      F.setCallingConv(CallingConv::C);
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (CB->getCallingConv() == CallingConv::SPIR_FUNC)
            CB->setCallingConv(CallingConv::C);
  }
}

/// OpenCL C 2.0 passes generic pointers to builtins such as fract, vload2
/// or atomic_load_explicit, which pocl's library defines for named address
/// spaces only. On this target every address space is address space 0 in
/// the IR, so the generic builtin is the named one: each undefined
/// "...U9CLgeneric..." function becomes the library's private, global or
/// local variant (same mangling otherwise, so the same parameters).
static void bindGenericBuiltins(Module &M, Module &Lib) {
  static const char *const Generic = "U9CLgeneric";
  static const char *const Named[] = {"U9CLprivate", "U8CLglobal", "U7CLlocal"};
  SmallVector<Function *, 8> Undefined;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().contains(Generic) &&
        !Lib.getFunction(F.getName()))
      Undefined.push_back(&F);
  for (Function *F : Undefined) {
    std::string Name = F->getName().str();
    for (const char *N : Named) {
      std::string Candidate = Name;
      for (size_t At; (At = Candidate.find(Generic)) != std::string::npos;)
        Candidate.replace(At, std::strlen(Generic), N);
      if (!Lib.getFunction(Candidate))
        continue;
      if (Function *Existing = M.getFunction(Candidate)) {
        F->replaceAllUsesWith(Existing);
        F->eraseFromParent();
      } else {
        F->setName(Candidate);
      }
      break;
    }
  }
}

bool linkKernelLibrary(Module &M, std::string &Log) {
  std::string Error;
  MemoryBuffer *Buffer = libraryBuffer(Error);
  if (!Buffer) {
    Log += "error: " + Error + "\n";
    return false;
  }
  auto Lib = getLazyBitcodeModule(Buffer->getMemBufferRef(), M.getContext());
  if (!Lib) {
    Log +=
        "error: cannot read the kernel library: " + toString(Lib.takeError()) +
        "\n";
    return false;
  }
  (*Lib)->setDataLayout(M.getDataLayout());
  (*Lib)->setTargetTriple(M.getTargetTriple());
  bindGenericBuiltins(M, **Lib);
  if (Linker::linkModules(M, std::move(*Lib), Linker::LinkOnlyNeeded)) {
    Log += "error: linking the kernel library failed\n";
    return false;
  }
  relaxCallingConventions(M);
  return true;
}

} // namespace iss
