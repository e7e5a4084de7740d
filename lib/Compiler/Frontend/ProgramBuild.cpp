//===- ProgramBuild.cpp - clBuildProgram, clCompileProgram, clLinkProgram -===//
// SPDX-License-Identifier: MIT
//
// The program-level half of the compiler: source to bitcode with clang,
// linking compiled programs and pocl's kernel library, and the descriptions
// of the kernels the runtime needs before any launch (argument kinds and
// sizes, attributes, automatic __local variables).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Recursion.h"
#include "CompilerInternal.h"
#include "ProgramCache.h"

#include "pocl-iss/Env.h"
#include "pocl-iss/StackGuard.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <dlfcn.h>
#include <functional>
#include <sstream>

using namespace llvm;

namespace iss {

/// Kernel printf calls become calls to the library's __pocl_printf with the
/// printf buffer globals as explicit arguments (DESIGN.md section 3); the
/// work-group generator later replaces those globals with the per-thread
/// buffer of the work-group context. Clang declares printf with a generic
/// format pointer while the library's format lives in address space 2.
static void rewritePrintf(Module &M) {
  Function *Printf = M.getFunction("printf");
  if (!Printf || !Printf->isDeclaration())
    return;
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
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Printf->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledFunction() == Printf)
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
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
}

/// A sampler_t constant (`constant sampler_t s = CLK_...;`) reaches the IR
/// as a call of `__translate_sampler_initializer(i32 bits)`, which Clang
/// leaves for the target to define. pocl 3.1's library takes a sampler as
/// its CLK_* bits in a pointer-sized integer (`dev_sampler_t` is uintptr_t,
/// and the runtime passes a sampler argument the same way): each call
/// becomes that integer as a pointer constant.
static void rewriteSamplerInitializers(Module &M) {
  Function *Init = M.getFunction("__translate_sampler_initializer");
  if (!Init || !Init->isDeclaration())
    return;
  Type *I64 = Type::getInt64Ty(M.getContext());
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Init->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledFunction() == Init && CI->arg_size() == 1)
        Calls.push_back(CI);
  for (CallInst *CI : Calls) {
    IRBuilder<> B(CI);
    Value *New = B.CreateIntToPtr(
        B.CreateZExtOrTrunc(CI->getArgOperand(0), I64), CI->getType());
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
  }
  if (Init->use_empty())
    Init->eraseFromParent();
}

/// An image array's layer coordinate is never normalized (OpenCL C 3.0,
/// 8.2), but pocl 3.1's library multiplies the whole coordinate, layer
/// included, by the image's size when the sampler's coordinates are
/// normalized. Before each sampled read of an array with float
/// coordinates, the layer is divided by the array size under such a
/// sampler, so that the library's product gives it back. The 1D array's
/// float2 coordinate is passed as a double (the x86-64 C ABI of 8-byte
/// vectors).
static void unnormalizeArrayLayers(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx), *F32 = Type::getFloatTy(Ctx);
  for (Function &F : M) {
    StringRef N = F.getName();
    if (!F.isDeclaration() || !N.contains("_cl_read_image") ||
        !N.contains("_array_") || !N.contains("11ocl_sampler") ||
        !(N.ends_with("Dv2_f") || N.ends_with("Dv4_f")) || F.arg_size() != 3)
      continue;
    unsigned Layer = N.ends_with("Dv2_f") ? 1 : 2;
    SmallVector<CallInst *, 8> Calls;
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getCalledFunction() == &F)
          Calls.push_back(CI);
    for (CallInst *CI : Calls) {
      IRBuilder<> B(CI);
      Value *Coord = CI->getArgOperand(2);
      Type *CoordTy = Coord->getType();
      Value *Vec = CoordTy->isVectorTy()
                       ? Coord
                       : B.CreateBitCast(Coord, FixedVectorType::get(F32, 2));
      Value *Bits = B.CreatePtrToInt(CI->getArgOperand(1), I64);
      Value *Normalized =
          B.CreateICmpNE(B.CreateAnd(Bits, 1), ConstantInt::get(I64, 0));
      Value *SizeAt = B.CreateConstInBoundsGEP1_64(
          I8, CI->getArgOperand(0), offsetof(iss_image, array_size));
      Value *Size = B.CreateSIToFP(B.CreateLoad(I32, SizeAt), F32);
      Value *L = B.CreateExtractElement(Vec, Layer);
      L = B.CreateSelect(Normalized, B.CreateFDiv(L, Size), L);
      Vec = B.CreateInsertElement(Vec, L, Layer);
      CI->setArgOperand(
          2, CoordTy->isVectorTy() ? Vec : B.CreateBitCast(Vec, CoordTy));
    }
  }
}

/// A read from an image whose format has no alpha channel gives an alpha
/// of 1 (OpenCL C 3.0, 8.3: CL_R reads as (r, 0, 0, 1), and so does its
/// border colour). pocl 3.1's library gives 1 only to in-bounds float
/// reads: 0 to integer reads and to the border colour. Of the formats the
/// device supports only CL_R lacks alpha, so after every read_image* the
/// last element becomes 1 when the image's order is CL_R.
static void completeMissingAlpha(Module &M) {
  const uint64_t ClR = 0x10B0; // CL_R
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  for (Function &F : M) {
    auto *RetTy = dyn_cast<FixedVectorType>(F.getReturnType());
    if (!F.isDeclaration() || !F.getName().contains("_cl_read_image") ||
        !RetTy || RetTy->getNumElements() != 4 || F.arg_size() < 2)
      continue;
    Constant *One = RetTy->getElementType()->isFloatTy()
                        ? ConstantFP::get(RetTy->getElementType(), 1.0)
                        : ConstantInt::get(RetTy->getElementType(), 1);
    SmallVector<CallInst *, 8> Calls;
    for (User *U : F.users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getCalledFunction() == &F)
          Calls.push_back(CI);
    for (CallInst *CI : Calls) {
      SmallVector<Use *, 4> Uses;
      for (Use &U : CI->uses())
        Uses.push_back(&U);
      IRBuilder<> B(CI->getNextNode());
      Value *OrderAt = B.CreateConstInBoundsGEP1_64(
          I8, CI->getArgOperand(0), offsetof(iss_image, channel_order));
      Value *IsR = B.CreateICmpEQ(B.CreateLoad(I32, OrderAt),
                                  ConstantInt::get(I32, ClR));
      Value *Alpha = B.CreateSelect(IsR, One, B.CreateExtractElement(CI, 3));
      Value *New = B.CreateInsertElement(CI, Alpha, 3);
      for (Use *U : Uses)
        U->set(New);
    }
  }
}

/// pocl 3.1's library reads and writes a pixel as one vector (a float4
/// through a float4 pointer), which LLVM may compile to an aligned vector
/// instruction; an image over the application's memory
/// (CL_MEM_USE_HOST_PTR) need not be aligned to more than its channels,
/// and such an image crashed the kernel (pocl 3.1 crashes the same way).
/// In the library functions the image builtins reach, every vector load
/// and store is given the alignment of its element, which costs nothing
/// on x86 where the address is aligned.
static void relaxImageAccessAlignment(Module &M) {
  SmallVector<Function *, 32> Work;
  SmallPtrSet<Function *, 32> Seen;
  for (Function &F : M) {
    StringRef N = F.getName();
    if (!F.isDeclaration() &&
        (N.contains("_cl_read_image") || N.contains("_cl_write_image")) &&
        Seen.insert(&F).second)
      Work.push_back(&F);
  }
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    for (Instruction &I : instructions(*F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() && Seen.insert(Callee).second)
            Work.push_back(Callee);
      Type *T = nullptr;
      if (auto *L = dyn_cast<LoadInst>(&I))
        T = L->getType();
      else if (auto *St = dyn_cast<StoreInst>(&I))
        T = St->getValueOperand()->getType();
      auto *VT = dyn_cast_or_null<FixedVectorType>(T);
      if (!VT)
        continue;
      Align Elem(M.getDataLayout().getTypeStoreSize(VT->getElementType()));
      if (auto *L = dyn_cast<LoadInst>(&I))
        L->setAlignment(std::min(L->getAlign(), Elem));
      else
        cast<StoreInst>(&I)->setAlignment(
            std::min(cast<StoreInst>(&I)->getAlign(), Elem));
    }
  }
}

/// The library function of the linked module named \p Name (internal, so
/// the linker may have suffixed it) with \p Args arguments, or null. A
/// program's own function of that name is external and never taken.
static Function *libraryFunction(Module &M, StringRef Name, unsigned Args) {
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasLocalLinkage() && F.arg_size() == Args &&
        (F.getName() == Name || F.getName().starts_with((Name + ".").str())))
      return &F;
  return nullptr;
}

/// Splits \p F's entry after its allocas so that a test can run first:
/// returns the block holding the rest of the old entry's code; the entry
/// then ends in an unconditional branch to it, for the caller to replace.
static BasicBlock *prependToFunction(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstNonPHIOrDbgOrAlloca();
  return Entry.splitBasicBlock(At, "pocl.path");
}

/// Single-channel CL_HALF_FLOAT images (CL_R and CL_A; OpenCL 3.0 requires
/// CL_R with read-write images). pocl 3.1's read_image.cl reads one
/// channel with get_float_pixel, which has no half case (a pixel reads as
/// 234.0), and write_image.cl's write_float_pixel has none either (the
/// pixel is left unwritten); its four-channel paths do have one. Both are
/// internal functions every sampled and unsampled float read and write
/// goes through (filters included), so a half case is put in front of
/// each: pocl_read_pixel_fast_f(base, type, order, data) loads the half
/// element at data[base] (the library's base index counts elements) and
/// gives (h, 0, 0, 1) for CL_R, (0, 0, 0, h) for CL_A;
/// write_float_pixel(color, data, base, type) stores color rounded to the
/// nearest half (ties to even, OpenCL C 3.0 section 8.3.1.3).
static void addSingleChannelHalf(Module &M) {
  const uint64_t ClR = 0x10B0, ClA = 0x10B1, ClHalf = 0x10DD;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *F32 = Type::getFloatTy(Ctx);
  Type *Half = Type::getHalfTy(Ctx);
  if (Function *Read = libraryFunction(M, "pocl_read_pixel_fast_f", 4)) {
    auto *RetTy = dyn_cast<FixedVectorType>(Read->getReturnType());
    if (RetTy && RetTy->getNumElements() == 4 &&
        RetTy->getElementType()->isFloatTy() &&
        Read->getArg(1)->getType() == I32 &&
        Read->getArg(2)->getType() == I32 &&
        Read->getArg(3)->getType()->isPointerTy()) {
      BasicBlock *Rest = prependToFunction(*Read);
      BasicBlock *Entry = &Read->getEntryBlock();
      BasicBlock *HalfBB = BasicBlock::Create(Ctx, "iss.half", Read, Rest);
      Entry->getTerminator()->eraseFromParent();
      IRBuilder<> B(Entry);
      Value *Order = Read->getArg(2);
      Value *IsR = B.CreateICmpEQ(Order, ConstantInt::get(I32, ClR));
      Value *IsA = B.CreateICmpEQ(Order, ConstantInt::get(I32, ClA));
      Value *IsHalf =
          B.CreateICmpEQ(Read->getArg(1), ConstantInt::get(I32, ClHalf));
      B.CreateCondBr(B.CreateAnd(IsHalf, B.CreateOr(IsR, IsA)), HalfBB, Rest);
      B.SetInsertPoint(HalfBB);
      Value *At = B.CreateGEP(Half, Read->getArg(3), Read->getArg(0));
      Value *H = B.CreateFPExt(B.CreateAlignedLoad(Half, At, Align(2)), F32);
      Value *Zero = ConstantFP::get(F32, 0.0);
      Value *V = B.CreateInsertElement(
          ConstantVector::get({cast<Constant>(Zero), cast<Constant>(Zero),
                               cast<Constant>(Zero),
                               ConstantFP::get(F32, 1.0)}),
          H, uint64_t(0));
      Value *AV = B.CreateInsertElement(
          ConstantVector::getSplat(ElementCount::getFixed(4),
                                   cast<Constant>(Zero)),
          H, uint64_t(3));
      B.CreateRet(B.CreateSelect(IsR, V, AV));
    }
  }
  if (Function *Write = libraryFunction(M, "write_float_pixel", 4)) {
    if (Write->getArg(0)->getType() == F32 &&
        Write->getArg(1)->getType()->isPointerTy() &&
        Write->getArg(3)->getType() == I32) {
      BasicBlock *Rest = prependToFunction(*Write);
      BasicBlock *Entry = &Write->getEntryBlock();
      BasicBlock *HalfBB = BasicBlock::Create(Ctx, "iss.half", Write, Rest);
      Entry->getTerminator()->eraseFromParent();
      IRBuilder<> B(Entry);
      B.CreateCondBr(
          B.CreateICmpEQ(Write->getArg(3), ConstantInt::get(I32, ClHalf)),
          HalfBB, Rest);
      B.SetInsertPoint(HalfBB);
      Value *At = B.CreateGEP(Half, Write->getArg(1), Write->getArg(2));
      B.CreateAlignedStore(B.CreateFPTrunc(Write->getArg(0), Half), At,
                           Align(2));
      B.CreateRetVoid();
    }
  }
}

/// Links the library, describes the kernels and refuses what cannot run;
/// notes in \p Deps the functions the process is to provide.
static BuildResult finishExecutable(std::unique_ptr<Module> M, BuildResult R,
                                    BuildDependencies &Deps) {
  rewritePrintf(*M);
  rewriteSamplerInitializers(*M);
  unnormalizeArrayLayers(*M);
  completeMissingAlpha(*M);
  if (!linkKernelLibrary(*M, R.Log))
    return R;
  relaxImageAccessAlignment(*M);
  addSingleChannelHalf(*M);
  // What neither the program nor the library defines cannot run, unless
  // the JIT finds it in the process (the library formats floats for printf
  // with the C library's snprintf).
  bool Undefined = false;
  for (Function &F : *M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty() ||
        F.getName() == "pocl.barrier")
      continue;
    std::string Name = F.getName().str();
    Deps.ProcessSymbols.push_back(Name);
    if (!dlsym(RTLD_DEFAULT, Name.c_str())) {
      R.Log += "error: undefined function '" + Name + "'\n";
      Undefined = true;
    }
  }
  if (Undefined)
    return R;
  if (!checkRecursion(*M, R.Log))
    return R;
  std::string VerifyErrors;
  raw_string_ostream VS(VerifyErrors);
  if (verifyModule(*M, &VS)) {
    R.Log += "error: internal: the linked program does not verify:\n" +
             VS.str();
    return R;
  }
  for (Function *K : kernelsOf(*M)) {
    KernelInfo Info = describeKernel(*K);
    R.Kernels.push_back(std::move(Info));
  }
  R.Binary = writeBinary(*M, BinaryKind::Executable);
  R.Kind = BinaryKind::Executable;
  R.Success = true;
  return R;
}

/// Runs \p Build, which runs Clang, on a thread with a large stack
/// (StackGuard.h): Clang recurses once per level of an expression, and an
/// application thread's stack overflows on sources with 100,000-term
/// expressions or operators nested as deeply. Running out of even
/// that stack is a build failure with a log; the process goes on.
static BuildResult runClangGuarded(const std::function<BuildResult()> &Build) {
  // Written only by the last step of the guarded function: an overflow
  // abandons Build's frames (their memory, the LLVMContext and Clang's
  // state included, is leaked, not destroyed half-way) and leaves R alone.
  BuildResult R;
  unsigned MB = settings().CompilerStackMB;
  StackRun Run =
      runOnLargeStack([&] { R = Build(); }, static_cast<size_t>(MB) << 20);
  if (Run == StackRun::Completed)
    return R;
  if (Run == StackRun::NoThread) {
    debugLog(DbgWarning, "no thread for the compiler: it runs on the "
                         "caller's stack");
    return Build();
  }
  BuildResult Failed;
  Failed.Log = "error: the compiler ran out of stack (" + std::to_string(MB) +
               " MiB, POCL_ISS_COMPILER_STACK_MB) on this program: an "
               "expression, or what a macro expands to, is nested too deeply "
               "(Clang needs stack for every level of an expression). Split "
               "it up, or give the compiler a larger stack.\n";
  return Failed;
}

/// \p Build's result, from the program cache when an entry for \p Key is
/// there and what it depended on is unchanged; a successful build is
/// stored. \p Build notes what it depends on in its argument.
static BuildResult
cachedBuild(const std::string &Key,
            const std::function<BuildResult(BuildDependencies &)> &Build) {
  const Settings &S = settings();
  BuildResult R;
  if (S.KernelCache && readCachedProgram(S.CacheDir, Key, R))
    return R;
  BuildDependencies Deps;
  R = Build(Deps);
  if (R.Success && S.KernelCache && Deps.Cacheable)
    writeCachedProgram(S.CacheDir, Key, Deps, R);
  return R;
}

/// A build from source of \p Kind through the cache: Clang, then \p Finish
/// on the module it made.
static BuildResult buildFromSource(
    BinaryKind Kind, const std::string &Source, const std::string &Options,
    const std::vector<HeaderSource> &Headers,
    const std::function<BuildResult(std::unique_ptr<Module>, BuildResult,
                                    BuildDependencies &)> &Finish) {
  std::string Key = programKey(Kind, Options, Source, Headers, {});
  return cachedBuild(Key, [&](BuildDependencies &Deps) {
    return runClangGuarded([&] {
      BuildResult R;
      LLVMContext Ctx;
      auto M = compileOpenCL(Ctx, Source, Options, Headers, R.Log,
                             R.InvalidOptions, Deps);
      if (!M)
        return R;
      return Finish(std::move(M), std::move(R), Deps);
    });
  });
}

BuildResult buildProgram(const std::string &Source,
                         const std::string &Options) {
  return buildFromSource(BinaryKind::Executable, Source, Options, {},
                         finishExecutable);
}

BuildResult compileProgram(const std::string &Source,
                           const std::string &Options,
                           const std::vector<HeaderSource> &Headers) {
  return buildFromSource(
      BinaryKind::Compiled, Source, Options, Headers,
      [](std::unique_ptr<Module> M, BuildResult R, BuildDependencies &) {
        R.Binary = writeBinary(*M, BinaryKind::Compiled);
        R.Kind = BinaryKind::Compiled;
        R.Success = true;
        return R;
      });
}

/// clLinkProgram's work, on options already checked.
static BuildResult linkChecked(const std::vector<std::vector<uint8_t>> &Inputs,
                               bool CreateLibrary, BuildDependencies &Deps) {
  BuildResult R;
  LLVMContext Ctx;
  std::unique_ptr<Module> Dest;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    BinaryKind Kind;
    std::string Error;
    auto M = readBinary(Ctx, Inputs[I], Kind, Error);
    if (!M) {
      R.Log += "error: input " + std::to_string(I) + ": " + Error + "\n";
      return R;
    }
    if (Kind == BinaryKind::Executable) {
      R.Log += "error: input " + std::to_string(I) +
               " is an executable, not a compiled program or library\n";
      return R;
    }
    if (!Dest) {
      Dest = std::move(M);
      continue;
    }
    if (Linker::linkModules(*Dest, std::move(M))) {
      R.Log += "error: input " + std::to_string(I) +
               " defines a symbol that an earlier input also defines\n";
      return R;
    }
  }
  if (CreateLibrary) {
    R.Binary = writeBinary(*Dest, BinaryKind::Library);
    R.Kind = BinaryKind::Library;
    R.Success = true;
    return R;
  }
  return finishExecutable(std::move(Dest), std::move(R), Deps);
}

BuildResult linkPrograms(const std::vector<std::vector<uint8_t>> &Inputs,
                         const std::string &Options, bool CreateLibrary) {
  BuildResult R;
  std::istringstream SS(Options);
  std::string Opt;
  while (SS >> Opt) {
    static const char *const Allowed[] = {"-create-library",
                                          "-enable-link-options",
                                          "-cl-denorms-are-zero",
                                          "-cl-no-signed-zeros",
                                          "-cl-unsafe-math-optimizations",
                                          "-cl-finite-math-only",
                                          "-cl-fast-relaxed-math",
                                          "-cl-no-subgroup-ifp"};
    bool Ok = false;
    for (const char *A : Allowed)
      Ok |= Opt == A;
    if (!Ok) {
      R.Log += "error: unknown link option '" + Opt + "'\n";
      R.InvalidOptions = true;
      return R;
    }
  }
  if (Inputs.empty()) {
    R.Log += "error: nothing to link\n";
    return R;
  }
  std::string Key =
      programKey(CreateLibrary ? BinaryKind::Library : BinaryKind::Executable,
                 Options, "", {}, Inputs);
  return cachedBuild(Key, [&](BuildDependencies &Deps) {
    return linkChecked(Inputs, CreateLibrary, Deps);
  });
}

BuildResult loadBinary(const std::vector<uint8_t> &Binary) {
  BuildResult R;
  LLVMContext Ctx;
  std::string Error;
  auto M = readBinary(Ctx, Binary, R.Kind, Error);
  if (!M) {
    R.Log = "error: " + Error + "\n";
    return R;
  }
  if (R.Kind == BinaryKind::Executable)
    for (Function *K : kernelsOf(*M))
      R.Kernels.push_back(describeKernel(*K));
  R.Binary = Binary;
  R.Success = true;
  return R;
}

} // namespace iss
