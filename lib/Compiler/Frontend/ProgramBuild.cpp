//===- ProgramBuild.cpp - clBuildProgram, clCompileProgram, clLinkProgram -===//
// SPDX-License-Identifier: MIT
//
// The program-level half of the compiler: source to bitcode with clang,
// linking compiled programs and pocl's kernel library (with the program
// build's passes before and after, PassRegistry.def), and the descriptions
// of the kernels the runtime needs before any launch (argument kinds and
// sizes, attributes, automatic __local variables).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Recursion.h"
#include "CompilerInternal.h"
#include "Passes.h"
#include "ProgramCache.h"

#include "pocl-iss/Env.h"
#include "pocl-iss/StackGuard.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <functional>
#include <sstream>

using namespace llvm;

namespace iss {

/// Runs the program build's passes of \p Stage (PassRegistry.def) on \p M.
/// False, with a log, only where the registry's names do not parse.
static bool runProgramPasses(Module &M, ProgramStage Stage, std::string &Log) {
  PassBuilder PB;
  AnalysisManagers AM(PB);
  ModulePassManager MPM;
  if (Error E = addProgramPasses(MPM, Stage)) {
    Log += "error: internal: the program build's pipeline does not parse: " +
           toString(std::move(E)) + "\n";
    return false;
  }
  MPM.run(M, AM.MAM);
  return true;
}

/// Links the library between the program build's two stages of passes,
/// describes the kernels and refuses what cannot run; notes in \p Deps the
/// functions the process is to provide.
static BuildResult finishExecutable(std::unique_ptr<Module> M, BuildResult R,
                                    BuildDependencies &Deps) {
  if (!runProgramPasses(*M, ProgramStage::BeforeLibrary, R.Log) ||
      !linkKernelLibrary(*M, R.Log) ||
      !runProgramPasses(*M, ProgramStage::AfterLibrary, R.Log))
    return R;
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
    R.Log +=
        "error: internal: the linked program does not verify:\n" + VS.str();
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
