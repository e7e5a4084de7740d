//===- Pipeline.cpp - From a program binary to runnable subkernels --------===//
// SPDX-License-Identifier: MIT
//
// The enqueue-time half of the compiler (DESIGN.md section 2): for one
// (kernel, local size) it runs the work-group passes, LLVM O3 with the loop
// vectorizer (off in `scalar` mode), code generation to an object file, and
// loads that object with ORC. Objects are kept in the on-disk kernel cache
// (KernelCache.cpp) under a key made of everything that changes the code.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "KernelCache.h"
#include "Passes.h"

#include "pocl-iss/Env.h"
#include "pocl-iss/StackGuard.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <map>
#include <mutex>

using namespace llvm;

namespace iss {

/// The CPU the subkernels are tuned for (iss-codegen-attrs): the host's,
/// asked once.
static const std::string &hostCPU() {
  static const std::string CPU = sys::getHostCPUName().str();
  return CPU;
}

static unsigned defaultVectorWidth() {
  // Lanes of 32 bits in the widest vector register. The subkernels ask for
  // that width (prefer-vector-width below): LLVM's skylake-avx512 tuning
  // stops at 256 bits for fear of frequency drops, but measured on the
  // work-item loops 512 bits was about twice as fast on compute-bound
  // kernels (BlackScholes, README).
  return getTargetInfo().NativeVectorBits / 32;
}

static void initNativeTarget() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    // LLVM's loop vectorizer, given an access whose stride is a value
    // (A[x * n] in a work-item loop), versions the loop on that value
    // being 1 and leaves every other value to the scalar loop, never
    // weighing gathers there (a TODO of LoopAccessAnalysis.cpp's). In a
    // work-item loop such a stride is a kernel argument, a row length,
    // and 1 only by accident: PolyBench's ATAX ran its rows scalar. Off,
    // the cost model chooses between gathers and the scalar loop. The
    // option is LLVM's and the process's, set once before the first
    // compilation (POCL_ISS_STRIDE_VERSIONING=1 leaves LLVM's default).
    auto &Options = cl::getRegisteredOptions();
    auto It = Options.find("enable-mem-access-versioning");
    if (It != Options.end())
      static_cast<cl::opt<bool> *>(It->second)
          ->setValue(settings().StrideVersioning);
  });
}

static std::unique_ptr<TargetMachine> makeTargetMachine(std::string &Error) {
  initNativeTarget();
  const TargetInfo &T = getTargetInfo();
  const Target *Tgt = TargetRegistry::lookupTarget(T.Triple, Error);
  if (!Tgt)
    return nullptr;
  TargetOptions Opts;
  return std::unique_ptr<TargetMachine>(
      Tgt->createTargetMachine(T.Triple, T.CPU, "", Opts, Reloc::PIC_,
                               CodeModel::Small, CodeGenOptLevel::Aggressive));
}

namespace {
/// Keeps the optimiser's remarks and warnings (a forced vectorization that
/// did not happen, say) off the application's stderr: they are printed only
/// with POCL_VECTORIZER_REMARKS=1 and otherwise logged under POCL_DEBUG=llvm.
struct RemarkPrinter : DiagnosticHandler {
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error)
      return false;
    std::string S;
    raw_string_ostream OS(S);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    OS.flush();
    if (settings().VectorizerRemarks)
      fprintf(stderr, "[pocl-iss] remark: %s\n", S.c_str());
    else
      debugLog(DbgLLVM, "%s", S.c_str());
    return true;
  }
  bool isAnalysisRemarkEnabled(StringRef Pass) const override {
    return settings().VectorizerRemarks &&
           (Pass == "loop-vectorize" || Pass == "iss-split");
  }
  bool isAnyRemarkEnabled() const override {
    return settings().VectorizerRemarks;
  }
  bool isMissedOptRemarkEnabled(StringRef Pass) const override {
    return settings().VectorizerRemarks &&
           (Pass == "loop-vectorize" || Pass == "iss-split");
  }
  bool isPassedOptRemarkEnabled(StringRef Pass) const override {
    return settings().VectorizerRemarks &&
           (Pass == "loop-vectorize" || Pass == "iss-split");
  }
};
} // namespace

/// Milliseconds since \p Start.
static double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

/// The pass builder's options for \p Config: the vectorizers are off in
/// `scalar` mode only, so that every other mode's code after the work-group
/// passes decides the rest of its compile alone.
static PipelineTuningOptions tuningFor(const WorkGroupConfig &Config) {
  bool Scalar = Config.IssMode == Mode::Scalar;
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = !Scalar;
  PTO.SLPVectorization = !Scalar;
  PTO.LoopUnrolling = true;
  return PTO;
}

/// The file of POCL_ISS_DUMP_IR for \p Config's \p Stage, written by
/// \p Write; nothing without the setting.
static void dumpFile(const WorkGroupConfig &Config, const char *Stage,
                     const std::function<void(raw_ostream &)> &Write) {
  const std::string &Dir = settings().DumpDir;
  if (Dir.empty())
    return;
  std::string Path =
      Dir + "/" + Config.Kernel + "-" + modeName(Config.IssMode) + Stage;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC)
    Write(OS);
}

/// Writes \p M to POCL_ISS_DUMP_IR as \p Config's \p Stage.
static void dumpIR(const Module &M, const WorkGroupConfig &Config,
                   const char *Stage) {
  dumpFile(Config, ("-" + std::string(Stage) + ".ll").c_str(),
           [&](raw_ostream &OS) { M.print(OS, nullptr); });
}

/// Runs the work-group pipeline on \p M for \p Config (the work-group
/// passes, then what prepares their subkernels for O3); \p Dump writes the
/// IR before and after.
static bool workGroupStage(Module &M, const WorkGroupConfig &Config,
                           TargetMachine &TM, bool Dump, std::string &Error) {
  PassBuilder PB(&TM, tuningFor(Config));
  AnalysisManagers AM(PB);
  if (Dump)
    dumpIR(M, Config, "linked");
  ModulePassManager Front;
  if (llvm::Error E = addWorkGroupPasses(Front, Config)) {
    Error = "internal: the work-group pipeline does not parse: " +
            toString(std::move(E));
    return false;
  }
  if (Dump)
    debugLog(DbgLLVM, "kernel %s, mode %s: -passes=%s", Config.Kernel.c_str(),
             modeName(Config.IssMode), workGroupPipeline(Config).c_str());
  Front.run(M, AM.MAM);
  if (Dump)
    dumpIR(M, Config, "workgroup");

  // Every read of a work-item global must have been replaced in the
  // work-group function; one left over would read garbage at run time.
  SmallVector<const char *, 20> Globals(std::begin(WorkItemGlobals),
                                        std::end(WorkItemGlobals));
  Globals.push_back(ScratchGlobal);
  for (const char *Name : Globals)
    if (GlobalVariable *G = M.getGlobalVariable(Name))
      for (User *U : G->users())
        if (auto *I = dyn_cast<Instruction>(U))
          if (I->getFunction()->getName().starts_with("__iss_")) {
            Error = std::string("internal: ") + Name +
                    " is still read after work-group generation";
            return false;
          }
  return true;
}

/// Takes out of \p M what two modes' modules of one kernel may differ in
/// without differing in code: the functions go in name order (a mode's
/// selection function comes before or after its subkernel), and unused
/// internal functions (the kernel as written, say), which O3 deletes, go.
static void normalizeForComparison(Module &M) {
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (Function &F : make_early_inc_range(M))
      if (F.hasLocalLinkage() && F.use_empty()) {
        F.eraseFromParent();
        Erased = true;
      }
  }
  SmallVector<Function *, 32> Functions;
  for (Function &F : M)
    Functions.push_back(&F);
  llvm::sort(Functions, [](const Function *A, const Function *B) {
    return A->getName() < B->getName();
  });
  for (Function *F : Functions)
    M.getFunctionList().splice(M.end(), M.getFunctionList(), F->getIterator());
}

/// The text of \p M's code: the module as printed, less the subkernels'
/// descriptions (iss.subkernels), which name the mode.
static std::string codeText(Module &M) {
  NamedMDNode *Subkernels = M.getNamedMetadata("iss.subkernels");
  SmallVector<MDNode *, 8> Nodes;
  if (Subkernels) {
    for (MDNode *N : Subkernels->operands())
      Nodes.push_back(N);
    Subkernels->clearOperands();
  }
  std::string Text;
  raw_string_ostream OS(Text);
  M.print(OS, nullptr);
  OS.flush();
  for (MDNode *N : Nodes)
    Subkernels->addOperand(N);
  return Text;
}

/// The subkernels iss-subkernels made of \p Kernel in \p M.
static unsigned subkernelsOf(Module &M, StringRef Kernel) {
  unsigned N = 0;
  if (NamedMDNode *NMD = M.getNamedMetadata("iss.subkernels"))
    for (MDNode *Node : NMD->operands())
      N += isNodeOf(Node, Kernel);
  return N;
}

/// Whether \p A and \p B, after their work-group stages, are the same code;
/// both are normalized for it (normalizeForComparison) first. The rest of the
/// compile (O3 and code generation) then makes the same object of both, unless
/// one of them is `scalar` (tuningFor).
static bool sameCode(Module &A, Module &B) {
  normalizeForComparison(A);
  normalizeForComparison(B);
  auto Size = [](const Module &M) {
    size_t N = 0;
    for (const Function &F : M)
      N += F.getInstructionCount();
    return std::make_pair(M.size(), N);
  };
  return Size(A) == Size(B) && codeText(A) == codeText(B);
}

namespace {
/// Where a kernel's compile spends its time, in ms, for the log.
struct StageTimes {
  double WorkGroup = 0; ///< the work-group stage
  double VecCheck = -1; ///< vec's work-group stage and the comparison
  double O3 = 0;

  /// "work-group passes 12.3 ms[, compared with vec's in 1.2 ms]".
  std::string front() const {
    char Buf[96];
    int N =
        std::snprintf(Buf, sizeof(Buf), "work-group passes %.1f ms", WorkGroup);
    if (VecCheck >= 0)
      std::snprintf(Buf + N, sizeof(Buf) - N,
                    ", compared with vec's in %.1f ms", VecCheck);
    return Buf;
  }
};
} // namespace

/// Runs the work-group passes and O3 on \p M for \p Config, timed in \p Ms.
/// With \p Vec, \p M's code after the work-group passes is compared with
/// what they make of it for \p Vec (`vec`): where the two are the same,
/// \p SameAsVec is set and O3 is not run, for `vec`'s object is that
/// code's already. The comparison costs `vec`'s work-group stage, a small
/// part of `vec`'s compile (Convolution2D: 4.6 of 49 ms), which a mode's
/// compile that it spares saves the rest of; it is not made where the
/// mode's code has several subkernels (scores), for `vec` makes one.
static bool optimize(Module &M, const WorkGroupConfig &Config,
                     const WorkGroupConfig *Vec, TargetMachine &TM,
                     bool &SameAsVec, StageTimes &Ms, std::string &Error) {
  auto Start = std::chrono::steady_clock::now();
  std::unique_ptr<Module> VecM = Vec ? CloneModule(M) : nullptr;
  if (!workGroupStage(M, Config, TM, true, Error))
    return false;
  Ms.WorkGroup = msSince(Start);
  SameAsVec = false;
  if (VecM && subkernelsOf(M, Config.Kernel) == 1) {
    assert(Config.IssMode != Mode::Scalar && "tuningFor differs");
    Start = std::chrono::steady_clock::now();
    std::string VecError;
    SameAsVec =
        workGroupStage(*VecM, *Vec, TM, false, VecError) && sameCode(M, *VecM);
    Ms.VecCheck = msSince(Start);
    if (SameAsVec)
      return true;
    VecM.reset();
  }

  Start = std::chrono::steady_clock::now();
  PassBuilder PB(&TM, tuningFor(Config));
  AnalysisManagers AM(PB);
  ModulePassManager O3 =
      PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  O3.run(M, AM.MAM);
  Ms.O3 = msSince(Start);
  dumpIR(M, Config, "optimized");

  std::string VerifyErrors;
  raw_string_ostream VS(VerifyErrors);
  if (verifyModule(M, &VS)) {
    Error = "internal: the compiled kernel does not verify: " + VS.str();
    return false;
  }
  for (const char *Name : WorkItemGlobals)
    if (GlobalVariable *G = M.getGlobalVariable(Name))
      if (!G->use_empty()) {
        Error = std::string("the kernel reads ") + Name +
                " from a function that could not be inlined (recursion?)";
        return false;
      }
  return true;
}

static bool emitObject(Module &M, TargetMachine &TM, SmallVectorImpl<char> &Obj,
                       std::string &Error) {
  M.setDataLayout(TM.createDataLayout());
  raw_svector_ostream OS(Obj);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile)) {
    Error = "the target cannot emit object files";
    return false;
  }
  PM.run(M);
  return true;
}

/// The process's JIT: each compiled kernel gets its own JITDylib so that
/// kernels of the same name from different programs never clash, and so
/// that its code can be freed alone (removeCode).
///
/// Never destroyed, like the worker pool: an application may return from
/// main while a kernel still runs, and the worker threads keep executing
/// code that lives in the JIT's memory until the process is gone. Destroying
/// the JIT among the static destructors would unmap that code under them;
/// the operating system reclaims it at exit instead.
struct ProcessJit {
  orc::LLJIT *J = nullptr;
  std::string InitError;
  /// Held while a kernel's code is freed; exit() takes it to stop that.
  std::mutex RemoveM;
  bool Exiting = false;
};

static ProcessJit &processJit() {
  static ProcessJit *P = new ProcessJit;
  return *P;
}

static orc::LLJIT *jit(std::string &Error) {
  static std::once_flag Once;
  ProcessJit &P = processJit();
  std::call_once(Once, [&P] {
    initNativeTarget();
    auto Built = orc::LLJITBuilder().create();
    if (!Built) {
      P.InitError = toString(Built.takeError());
      return;
    }
    P.J = Built->release();
    // Registered after LLVM's statics were made, so it runs before they
    // go: a command finishing on a worker thread during exit must not free
    // code (or touch the JIT) while exit tears the process down.
    std::atexit([] {
      ProcessJit &P = processJit();
      std::lock_guard<std::mutex> L(P.RemoveM);
      P.Exiting = true;
    });
  });
  Error = P.InitError;
  return P.J;
}

/// Frees a kernel's code and symbols, unless the process is exiting.
static void removeCode(orc::JITDylib &JD) {
  ProcessJit &P = processJit();
  std::lock_guard<std::mutex> L(P.RemoveM);
  if (P.Exiting)
    return;
  consumeError(P.J->getExecutionSession().removeJITDylib(JD));
}

static bool loadObject(const CachedKernel &CK, CompiledKernel &Out,
                       std::string &Message) {
  orc::LLJIT *J = jit(Message);
  if (!J)
    return false;
  static std::atomic<unsigned> Counter{0};
  auto JD = J->createJITDylib("kernel" + std::to_string(Counter++));
  if (!JD) {
    Message = toString(JD.takeError());
    return false;
  }
  // From here on the kernel owns the JITDylib: a kernel that does not load
  // leaves nothing behind in the JIT (the caller may compile it again under
  // the same symbols), and a kernel released frees its code.
  Out.Code = std::shared_ptr<void>(
      &*JD, [](void *D) { removeCode(*static_cast<orc::JITDylib *>(D)); });
  auto Fail = [&](Error Err) {
    Message = toString(std::move(Err));
    Out.Code.reset();
    return false;
  };
  auto Gen = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      J->getDataLayout().getGlobalPrefix());
  if (!Gen)
    return Fail(Gen.takeError());
  JD->addGenerator(std::move(*Gen));
  if (Error Err = J->addObjectFile(
          *JD, MemoryBuffer::getMemBufferCopy(
                   StringRef(CK.Object.data(), CK.Object.size()), "kernel")))
    return Fail(std::move(Err));
  // The subkernels' addresses, then the selection function's.
  std::vector<std::string> Names;
  for (const auto &Sub : CK.Subkernels)
    Names.push_back(Sub.first);
  Names.push_back(CK.SelectSymbol);
  if (!CK.PiecesSymbol.empty())
    Names.push_back(CK.PiecesSymbol);
  std::vector<void *> Addrs;
  for (const std::string &Name : Names) {
    auto Addr = J->lookup(*JD, Name);
    if (!Addr)
      return Fail(Addr.takeError());
    Addrs.push_back(Addr->toPtr<void *>());
  }
  for (size_t I = 0; I < CK.Subkernels.size(); ++I) {
    Out.Subkernels.push_back(reinterpret_cast<iss_subkernel_fn>(Addrs[I]));
    Out.SubkernelNames.push_back(CK.Subkernels[I].second);
  }
  Out.Select = reinterpret_cast<iss_select_fn>(Addrs[CK.Subkernels.size()]);
  if (!CK.PiecesSymbol.empty()) {
    // The compiled code adds to them with `atomicrmw add monotonic`.
    static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t) &&
                      std::atomic<uint64_t>::is_always_lock_free,
                  "the counters are plain i64 in the compiled code");
    Out.PieceWorkItems =
        reinterpret_cast<const std::atomic<uint64_t> *>(Addrs.back());
    Out.Pieces = CK.Pieces;
  }
  Out.Launches.reset(new std::atomic<uint64_t>[Out.Subkernels.size()]);
  for (size_t I = 0; I < Out.Subkernels.size(); ++I)
    Out.Launches[I] = 0;
  Out.ContextBytesPerWorkItem = CK.ContextBytesPerWorkItem;
  Out.UniformContextBytes = CK.UniformContextBytes;
  Out.ScratchBytes = CK.ScratchBytes;
  Out.WrittenCandidate = CK.WrittenCandidate;
  return true;
}

/// Compiles \p Kernel to an object: the cache miss path. With \p Vec, no
/// object where the code would be `vec`'s (optimize): \p SameAsVec then.
static bool compileKernel(const std::vector<uint8_t> &Binary,
                          const WorkGroupConfig &Config,
                          const WorkGroupConfig *Vec, CachedKernel &Out,
                          bool &SameAsVec, std::string &Error) {
  LLVMContext Ctx;
  Ctx.setDiagnosticHandler(std::make_unique<RemarkPrinter>());
  BinaryKind Kind;
  auto M = readBinary(Ctx, Binary, Kind, Error);
  if (!M)
    return false;
  if (Kind != BinaryKind::Executable) {
    Error = "the program is not linked";
    return false;
  }
  Function *K = M->getFunction(Config.Kernel);
  if (!K || K->isDeclaration()) {
    Error = "no kernel named '" + Config.Kernel + "' in the program";
    return false;
  }
  auto TM = makeTargetMachine(Error);
  if (!TM)
    return false;
  StageTimes Ms;
  if (!optimize(*M, Config, Vec, *TM, SameAsVec, Ms, Error))
    return false;
  if (SameAsVec) {
    debugLog(DbgLLVM, "kernel %s: %s: the same code", Config.Kernel.c_str(),
             Ms.front().c_str());
    return true;
  }
  if (NamedMDNode *NMD = M->getNamedMetadata("iss.subkernels"))
    for (MDNode *N : NMD->operands())
      if (isNodeOf(N, Config.Kernel))
        Out.Subkernels.push_back(
            {cast<MDString>(N->getOperand(1))->getString().str(),
             cast<MDString>(N->getOperand(2))->getString().str()});
  if (NamedMDNode *NMD = M->getNamedMetadata("iss.context"))
    for (MDNode *N : NMD->operands())
      if (isNodeOf(N, Config.Kernel)) {
        // One node per subkernel: the device provides for the largest.
        Out.ContextBytesPerWorkItem =
            std::max<size_t>(Out.ContextBytesPerWorkItem, mdInt(N, 1));
        Out.UniformContextBytes =
            std::max<size_t>(Out.UniformContextBytes, mdInt(N, 2));
        Out.ScratchBytes = std::max<size_t>(Out.ScratchBytes, mdInt(N, 3));
      }
  Out.SelectSymbol = "__iss_select_" + Config.Kernel;
  if (NamedMDNode *NMD = M->getNamedMetadata("iss.written.candidate"))
    for (MDNode *N : NMD->operands())
      Out.WrittenCandidate |= isNodeOf(N, Config.Kernel);
  if (NamedMDNode *NMD = M->getNamedMetadata("iss.pieces")) {
    // kernel, counter, region, piece, how (scalar, whole tiles, masked
    // partial tiles), properties, horizontal, subkernel (iss-split,
    // emitPieceCounters), counters in order.
    static const char *const Runs[] = {"scalar", "whole tiles",
                                       "partial tiles beside its whole ones, "
                                       "masked"};
    for (MDNode *N : NMD->operands()) {
      if (!isNodeOf(N, Config.Kernel))
        continue;
      assert(mdInt(N, 1) == Out.Pieces.size() && "counters in order");
      StringRef Props = cast<MDString>(N->getOperand(5))->getString();
      std::string How;
      if (!Props.empty())
        How = std::string(Runs[std::min<uint64_t>(mdInt(N, 4), 2)]) +
              (mdInt(N, 6) ? ", horizontal" : "") + "; " + Props.str();
      // One line each in the cache manifest: names of blocks are the user's.
      std::string Name = cast<MDString>(N->getOperand(3))->getString().str();
      for (std::string *Text : {&Name, &How})
        std::replace_if(
            Text->begin(), Text->end(),
            [](char C) { return C == '\t' || C == '\n' || C == '\r'; }, ' ');
      Out.Pieces.push_back(
          {unsigned(mdInt(N, 2)), Name, How, unsigned(mdInt(N, 7))});
    }
    if (!Out.Pieces.empty())
      Out.PiecesSymbol = piecesSymbol(Config.Kernel, -1);
  }
  SmallVector<char, 0> Obj;
  auto Start = std::chrono::steady_clock::now();
  if (!emitObject(*M, *TM, Obj, Error))
    return false;
  dumpFile(Config, ".o",
           [&](raw_ostream &OS) { OS.write(Obj.data(), Obj.size()); });
  debugLog(DbgLLVM, "kernel %s: %s, O3 %.1f ms, code generation %.1f ms",
           Config.Kernel.c_str(), Ms.front().c_str(), Ms.O3, msSince(Start));
  Out.Object.assign(Obj.begin(), Obj.end());
  return true;
}

/// compileKernel on a thread with a large stack (StackGuard.h), as
/// clBuildProgram runs Clang: a kernel built from a very deep expression
/// is a very deep chain of instructions, and an overflow becomes an error.
static bool compileKernelGuarded(const std::vector<uint8_t> &Binary,
                                 const WorkGroupConfig &Config,
                                 const WorkGroupConfig *Vec, CachedKernel &Out,
                                 bool &SameAsVec, std::string &Error) {
  // Out, SameAsVec and Error are written by the guarded function's last
  // step only.
  unsigned MB = settings().CompilerStackMB;
  bool Ok = false;
  StackRun Run = runOnLargeStack(
      [&] {
        CachedKernel CK;
        bool Same = false;
        std::string E;
        bool R = compileKernel(Binary, Config, Vec, CK, Same, E);
        Out = std::move(CK);
        SameAsVec = Same;
        Error = std::move(E);
        Ok = R;
      },
      static_cast<size_t>(MB) << 20);
  if (Run == StackRun::NoThread)
    return compileKernel(Binary, Config, Vec, Out, SameAsVec, Error);
  if (Run == StackRun::Exhausted)
    Error = "the kernel compiler ran out of stack (" + std::to_string(MB) +
            " MiB, POCL_ISS_COMPILER_STACK_MB)";
  return Ok;
}

/// Identifies the compiler's own code for cache keys: a hash of the binary
/// it is linked into (libpocl-iss.so, or a test), so that a rebuilt compiler
/// never loads kernels an older one compiled under the same version number.
static const std::string &compilerBuildId() {
  static const std::string Id = [] {
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&compilerBuildId), &Info) &&
        Info.dli_fname)
      if (auto B = MemoryBuffer::getFile(Info.dli_fname))
        return identityHex((*B)->getBuffer());
    return std::string("unknown");
  }();
  return Id;
}

std::string compilerIdentity() {
  const TargetInfo &T = getTargetInfo();
  return std::string("pocl-iss ") + POCL_ISS_VERSION + " " + compilerBuildId() +
         "; llvm " + POCL_ISS_LLVM_VERSION + "; lib " + T.LibraryVariant + " " +
         kernelLibraryHash() + "; target " + T.Triple + " " + T.CPU;
}

namespace {
/// What decides one kernel's code: how it is compiled and the cache key
/// made of all of it.
struct KernelJob {
  WorkGroupConfig Config;
  std::string Key;
  /// The key of the same job in `vec` mode.
  std::string VecKey;
};
} // namespace

/// The job of compiling \p Kernel for \p Local in \p M, under the
/// process's settings; with \p Written, the kernel as written (in `vec`'s
/// pipeline), a candidate of the measured choice.
static KernelJob kernelJob(const std::vector<uint8_t> &Binary,
                           const std::string &Kernel, const size_t Local[3],
                           Mode M, bool Written = false) {
  const Settings &S = settings();
  KernelJob Job;
  WorkGroupConfig &Config = Job.Config;
  // A launch's image formats and samplers follow the name (NDRange.cpp).
  size_t Hash = Kernel.find('#');
  Config.Kernel = Kernel.substr(0, Hash);
  if (Hash != std::string::npos)
    Config.ImageArgs = Kernel.substr(Hash + 1);
  for (unsigned D = 0; D < 3; ++D)
    Config.LocalSize[D] = static_cast<unsigned>(Local[D] ? Local[D] : 1);
  Config.IssMode = Written ? Mode::Vec : M;
  Config.AsWrittenOnly = Written;
  Config.VectorWidth = S.VectorWidth ? S.VectorWidth : defaultVectorWidth();
  Config.ForceWidth = S.VectorWidth != 0;
  Config.CheapMasks = S.CheapMasks >= 0
                          ? S.CheapMasks != 0
                          : getTargetInfo().NativeVectorBits >= 512;
  Config.Horizontal = S.Horizontal;
  Config.PartialEdges = S.PartialEdges;
  Config.MaxPieces = S.MaxPieces;
  Config.SafeDivision = S.SafeDivision;
  Config.Choice = S.Choice;
  Config.Stats = S.Stats;
  Config.DimsMask = S.DimsMask;
  Config.WeightConsecutive = S.WeightConsecutive;
  Config.WeightUniform = S.WeightUniform;
  Config.WeightDivergent = S.WeightDivergent;
  Config.TuneCPU = hostCPU();
  std::string Rest;
  raw_string_ostream KS(Rest);
  KS << "; width " << Config.VectorWidth << (Config.ForceWidth ? " forced" : "")
     << (Config.Horizontal ? "; horizontal" : "")
     << (Config.PartialEdges ? "" : "; no partial edges")
     << (Config.CheapMasks ? "; cheap masks" : "")
     << (S.StrideVersioning ? "; stride versioning" : "") << "; pieces "
     << Config.MaxPieces << (Config.SafeDivision ? "" : "; unguarded division")
     << (Config.Choice ? "" : "; no choice") << (Config.Stats ? "; stats" : "")
     << "; dims " << S.DimsMask << "; weights " << S.WeightConsecutive << ','
     << S.WeightUniform << ',' << S.WeightDivergent << "; local "
     << Config.LocalSize[0] << ',' << Config.LocalSize[1] << ','
     << Config.LocalSize[2] << "; kernel " << Kernel << "; program "
     << identityHex(StringRef(reinterpret_cast<const char *>(Binary.data()),
                              Binary.size()));
  KS.flush();
  std::string Head = compilerIdentity() + "; mode ";
  Job.Key =
      Head + modeName(Config.IssMode) + (Written ? " as written" : "") + Rest;
  Job.VecKey = Head + modeName(Mode::Vec) + Rest;
  return Job;
}

namespace {
/// The kernels loaded in this process, by key: a kernel two programs (or a
/// launch and the compiler process) bring twice is loaded once. Never
/// destroyed, as the JIT is not: a launch may look it up during exit.
struct LoadedKernels {
  std::mutex M;
  std::map<std::string, std::weak_ptr<CompiledKernel>> ByKey;
  size_t SweepAt = 64;

  std::shared_ptr<CompiledKernel> find(const std::string &Key) {
    std::lock_guard<std::mutex> L(M);
    auto It = ByKey.find(Key);
    return It == ByKey.end() ? nullptr : It->second.lock();
  }
  /// Records \p K under \p Key, or returns the kernel another thread
  /// recorded there meanwhile.
  std::shared_ptr<CompiledKernel> add(const std::string &Key,
                                      std::shared_ptr<CompiledKernel> K) {
    std::lock_guard<std::mutex> L(M);
    std::weak_ptr<CompiledKernel> &Slot = ByKey[Key];
    if (auto Other = Slot.lock())
      return Other;
    Slot = K;
    // Released kernels leave their keys behind: sweep them whenever the
    // table has doubled, so that it stays as big as what is alive.
    if (ByKey.size() >= SweepAt) {
      for (auto It = ByKey.begin(); It != ByKey.end();)
        It = It->second.expired() ? ByKey.erase(It) : std::next(It);
      SweepAt = std::max<size_t>(64, 2 * ByKey.size());
    }
    return K;
  }
};
} // namespace

static LoadedKernels &loadedKernels() {
  static LoadedKernels *L = new LoadedKernels;
  return *L;
}

/// Loads \p CK, compiled for \p Job, into the JIT; null with \p Message
/// when that fails.
static std::shared_ptr<CompiledKernel>
loadKernel(const KernelJob &Job, const CachedKernel &CK, std::string &Message) {
  auto R = std::make_shared<CompiledKernel>();
  R->KernelName = Job.Config.Kernel;
  for (unsigned D = 0; D < 3; ++D)
    R->LocalSize[D] = Job.Config.LocalSize[D];
  R->Mode =
      Job.Config.AsWrittenOnly ? "as written" : modeName(Job.Config.IssMode);
  if (!loadObject(CK, *R, Message))
    return nullptr;
  debugLog(DbgLLVM,
           "kernel %s: context bytes per work-item: %zu, uniform: %zu, "
           "scratch per work group: %zu",
           R->KernelName.c_str(), R->ContextBytesPerWorkItem,
           R->UniformContextBytes, R->ScratchBytes);
  return loadedKernels().add(Job.Key, R);
}

static void logCompiled(const KernelJob &Job, const char *How, double Ms) {
  const WorkGroupConfig &C = Job.Config;
  debugLog(DbgLLVM, "kernel %s, local size %u,%u,%u, mode %s: %s in %.1f ms",
           C.Kernel.c_str(), C.LocalSize[0], C.LocalSize[1], C.LocalSize[2],
           modeName(C.IssMode), How, Ms);
}

/// \p Job's entry in the on-disk cache. An entry that names another's code
/// must name `vec`'s (compileModeEntry), or it is a miss.
static bool readCached(const KernelJob &Job, CachedKernel &CK) {
  const Settings &S = settings();
  if (S.KernelCache && readCachedKernel(S.CacheDir, Job.Key, CK) &&
      (CK.SameAs.empty() || CK.SameAs == Job.VecKey))
    return true;
  CK = CachedKernel();
  return false;
}

/// Compiles \p Job and stores it in the on-disk cache.
static bool compileAndCache(const std::vector<uint8_t> &Binary,
                            const KernelJob &Job, CachedKernel &CK,
                            std::string &Error) {
  bool SameAsVec = false;
  if (!compileKernelGuarded(Binary, Job.Config, nullptr, CK, SameAsVec, Error))
    return false;
  if (settings().KernelCache)
    writeCachedKernel(settings().CacheDir, Job.Key, CK);
  return true;
}

/// \p Job's code from the on-disk cache, compiled and cached where it is
/// not there (or, with \p CachedOnly, false and no error then).
static bool cachedOrCompiled(const std::vector<uint8_t> &Binary,
                             const KernelJob &Job, bool CachedOnly,
                             CachedKernel &CK, bool &FromCache,
                             std::string &Error) {
  FromCache = readCached(Job, CK);
  if (FromCache || CachedOnly)
    return FromCache;
  return compileAndCache(Binary, Job, CK, Error);
}

std::shared_ptr<CompiledKernel>
getCompiledKernel(const std::vector<uint8_t> &Binary, const std::string &Kernel,
                  const size_t Local[3], std::string &Error, CompileTier Tier) {
  bool Vec = Tier == CompileTier::Vec || Tier == CompileTier::VecCachedOnly;
  KernelJob Job =
      kernelJob(Binary, Kernel, Local, Vec ? Mode::Vec : settings().IssMode,
                Tier == CompileTier::WrittenCachedOnly);
  if (auto P = loadedKernels().find(Job.Key))
    return P;
  auto Start = std::chrono::steady_clock::now();
  CachedKernel CK;
  bool FromCache = false;
  bool CachedOnly = Tier == CompileTier::CachedOnly ||
                    Tier == CompileTier::VecCachedOnly ||
                    Tier == CompileTier::WrittenCachedOnly;
  if (!cachedOrCompiled(Binary, Job, CachedOnly, CK, FromCache, Error))
    return nullptr;
  // The mode's entry that is vec's code: vec's kernel, loaded once under
  // both keys (so that it is one candidate, not two).
  if (!CK.SameAs.empty()) {
    if (auto P = loadedKernels().find(CK.SameAs)) {
      logCompiled(Job, "vec's, loaded", msSince(Start));
      return loadedKernels().add(Job.Key, P);
    }
    KernelJob VecJob = kernelJob(Binary, Kernel, Local, Mode::Vec);
    std::string Why;
    if (auto P = loadKernel(VecJob, CK, Why)) {
      logCompiled(Job, "loaded from the cache", msSince(Start));
      return loadedKernels().add(Job.Key, P);
    }
  }
  std::string Why;
  std::shared_ptr<CompiledKernel> Result = loadKernel(Job, CK, Why);
  if (!Result && FromCache) {
    // An entry that passed every check but does not load is a miss too:
    // compiled again and overwritten, never an error for good.
    debugLog(DbgCache, "%s: does not load (%s), rebuilding",
             cachedKernelPath(settings().CacheDir, Job.Key).c_str(),
             Why.c_str());
    if (CachedOnly)
      return nullptr;
    CK = CachedKernel();
    if (!compileAndCache(Binary, Job, CK, Error))
      return nullptr;
    FromCache = false;
    Result = loadKernel(Job, CK, Why);
  }
  if (!Result) {
    Error = "loading the compiled kernel failed: " + Why;
    return nullptr;
  }
  logCompiled(Job, FromCache ? "loaded from the cache" : "compiled",
              msSince(Start));
  return Result;
}

bool compileModeEntry(const std::vector<uint8_t> &Binary,
                      const std::string &Kernel, const size_t Local[3],
                      bool Written,
                      const std::function<void(const std::string &)> &Send,
                      std::string &Error) {
  const Settings &S = settings();
  KernelJob Job = kernelJob(Binary, Kernel, Local, S.IssMode, Written);
  WorkGroupConfig Vec = Job.Config;
  Vec.IssMode = Mode::Vec;
  Vec.AsWrittenOnly = false;
  auto Start = std::chrono::steady_clock::now();
  CachedKernel CK;
  bool FromCache = readCached(Job, CK);
  bool SameAsVec = FromCache && !CK.SameAs.empty();
  // The kernel as written is compared with nothing: it exists to differ.
  if (!FromCache &&
      !compileKernelGuarded(Binary, Job.Config, Written ? nullptr : &Vec, CK,
                            SameAsVec, Error))
    return false;
  logCompiled(Job,
              SameAsVec   ? "the same code as vec's, not compiled again"
              : FromCache ? "found in the cache"
                          : "compiled",
              msSince(Start));
  // The application has vec's code: the entry names it.
  if (SameAsVec) {
    CK = CachedKernel();
    CK.SameAs = Job.VecKey;
  }
  // Sent before it is stored: whoever finds the entry in the cache knows
  // that the application has it whole, read or in its socket.
  Send(encodeCachedKernel(Job.Key, CK));
  if (!FromCache && S.KernelCache)
    writeCachedKernel(S.CacheDir, Job.Key, CK);
  return true;
}

std::shared_ptr<CompiledKernel>
loadModeEntry(const std::vector<uint8_t> &Binary, const std::string &Kernel,
              const size_t Local[3], bool Written, const std::string &Entry,
              std::string &Error) {
  KernelJob Job = kernelJob(Binary, Kernel, Local, settings().IssMode, Written);
  if (auto P = loadedKernels().find(Job.Key))
    return P;
  CachedKernel CK;
  std::string Why;
  if (!decodeCachedKernel(Entry, Job.Key, CK, Why)) {
    Error = "the compiler process sent a damaged kernel: " + Why;
    return nullptr;
  }
  if (!CK.SameAs.empty()) {
    // The mode's code is vec's, which the first launch compiled.
    if (CK.SameAs != Job.VecKey) {
      Error = "the compiler process named another kernel's code";
      return nullptr;
    }
    std::shared_ptr<CompiledKernel> R =
        getCompiledKernel(Binary, Kernel, Local, Error, CompileTier::Vec);
    return R ? loadedKernels().add(Job.Key, R) : nullptr;
  }
  std::shared_ptr<CompiledKernel> R = loadKernel(Job, CK, Why);
  if (!R)
    Error = "loading the compiled kernel failed: " + Why;
  return R;
}

/// The kernel cache's key of the note of \p Job's measured choice.
static std::string choiceNoteKey(const KernelJob &Job) {
  return Job.Key + "; measured choice";
}

bool measuredChoices() { return settings().Choice && tieredLaunches(); }

CodeCandidate rememberedChoice(const std::vector<uint8_t> &Binary,
                               const std::string &Kernel,
                               const size_t Local[3]) {
  const Settings &S = settings();
  CachedKernel Note;
  if (!S.KernelCache ||
      !readCachedNote(
          S.CacheDir,
          choiceNoteKey(kernelJob(Binary, Kernel, Local, S.IssMode)), Note))
    return CodeCandidate::None;
  return Note.Choice == "mode"      ? CodeCandidate::Mode
         : Note.Choice == "vec"     ? CodeCandidate::Vec
         : Note.Choice == "written" ? CodeCandidate::Written
                                    : CodeCandidate::None;
}

std::function<void(CodeCandidate)>
choiceRememberer(const std::vector<uint8_t> &Binary, const std::string &Kernel,
                 const size_t Local[3]) {
  const Settings &S = settings();
  if (!S.KernelCache)
    return nullptr;
  std::string Key = choiceNoteKey(kernelJob(Binary, Kernel, Local, S.IssMode));
  return [Key, Dir = S.CacheDir](CodeCandidate W) {
    static const char *const Names[] = {"mode", "vec", "written"};
    CachedKernel Note;
    Note.Choice = Names[std::min(unsigned(W), 2u)];
    writeCachedKernel(Dir, Key, Note);
  };
}

bool tieredLaunches() {
  const Settings &S = settings();
  return S.Tiered && !S.Stats &&
         (S.IssMode == Mode::Split || S.IssMode == Mode::Score ||
          S.IssMode == Mode::SplitScore);
}

} // namespace iss
