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
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <thread>

using namespace llvm;

namespace iss {

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
  return std::unique_ptr<TargetMachine>(Tgt->createTargetMachine(
      T.Triple, T.CPU, "", Opts, Reloc::PIC_, CodeModel::Small,
      CodeGenOptLevel::Aggressive));
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

void addWorkGroupPasses(ModulePassManager &MPM, const WorkGroupConfig &Config) {
  // pocl-iss-opt and the lit tests run the same chain as
  // -passes=iss-prepare,iss-safe-division,iss-barriers,...,iss-hoist-uniform.
  // The division guard comes before any pass that could exploit a
  // division's undefined behaviour in LLVM's sense.
  MPM.addPass(KernelPreparePass(Config));
  if (Config.SafeDivision)
    MPM.addPass(SafeDivisionPass());
  MPM.addPass(CanonicalizeBarriersPass(Config));
  MPM.addPass(ImplicitLoopBarriersPass(Config));
  MPM.addPass(ImplicitConditionalBarriersPass(Config));
  // iss-context and iss-wi-loops, once per subkernel.
  MPM.addPass(SubkernelsPass(Config));
  MPM.addPass(HoistUniformCallsPass(Config));
}

/// Switches with at least this many cases are turned into lookup tables
/// before O3 (tableHugeSwitches).
static const unsigned HugeSwitchCases = 1024;

static bool hasHugeSwitch(const Function &F) {
  for (const BasicBlock &BB : F)
    if (const auto *SI = dyn_cast<SwitchInst>(BB.getTerminator()))
      if (SI->getNumCases() >= HugeSwitchCases)
        return true;
  return false;
}

/// LLVM 19's SimplifyCFG and JumpThreading take time linear in a block's
/// predecessors for every empty block they look at that branches to it
/// (TryToSimplifyUncondBranchFromEmptyBlock gathers them in a set first;
/// llvm/llvm-project#110715 fixed it in LLVM 20). A switch whose N cases
/// each compute a value for one phi leaves N empty case blocks after
/// InstCombine, and every one of O3's dozen SimplifyCFG runs costs N^2: a
/// 10,000-case switch took 10 s at the first launch (issue 8), clang-19 -O3
/// as long on the same code in C. InstCombine and one SimplifyCFG run that
/// turns such a switch into a lookup table first, as the end of O3 would,
/// leave O3 nothing of the sort to do: the first launch of the 10,000-case
/// switch takes 0.6 s (pocl 3.1 with LLVM 15: 2 s). Switches that do not
/// become tables stay switches; their cost is LLVM's.
static void tableHugeSwitches(Module &M, FunctionAnalysisManager &FAM) {
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with("__iss_sub_") &&
        hasHugeSwitch(F)) {
      FunctionPassManager FPM;
      FPM.addPass(InstCombinePass());
      FPM.addPass(SimplifyCFGPass(
          SimplifyCFGOptions().convertSwitchToLookupTable(true)));
      FPM.run(F, FAM);
    }
}

/// Milliseconds since \p Start.
static double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

/// Runs the work-group passes and O3 on \p M for \p Config; \p FrontMs gets
/// the time of the work-group passes (and the scalarization after them),
/// \p O3Ms that of O3.
static bool optimize(Module &M, const WorkGroupConfig &Config,
                     TargetMachine &TM, double &FrontMs, double &O3Ms,
                     std::string &Error) {
  auto Start = std::chrono::steady_clock::now();
  bool Scalar = Config.IssMode == Mode::Scalar;
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = !Scalar;
  PTO.SLPVectorization = !Scalar;
  PTO.LoopUnrolling = true;
  PassBuilder PB(&TM, PTO);
  AnalysisManagers AM(PB);
  FunctionAnalysisManager &FAM = AM.FAM;
  ModuleAnalysisManager &MAM = AM.MAM;

  auto Dump = [&](const char *Stage) {
    const std::string &Dir = settings().DumpDir;
    if (Dir.empty())
      return;
    std::string Path = Dir + "/" + Config.Kernel + "-" +
                       modeName(Config.IssMode) + "-" + Stage + ".ll";
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    if (!EC)
      M.print(OS, nullptr);
  };
  Dump("linked");
  ModulePassManager Front;
  addWorkGroupPasses(Front, Config);
  Front.run(M, MAM);
  // The kernel library fixes the target CPU (its features); the cost models
  // are tuned for the CPU we run on: on AMD Zen, say, gathers are slow and
  // the vectorizer must know it.
  std::string TuneCPU = sys::getHostCPUName().str();
  for (Function &F : M)
    if (F.getName().starts_with("__iss_sub_")) {
      // A subkernel for a dimension shorter than the native vector asks
      // for the width it was built for (iss-subkernels).
      unsigned Bits = getTargetInfo().NativeVectorBits;
      unsigned Lanes = 0;
      if (!F.getFnAttribute(VectorWidthAttr)
               .getValueAsString()
               .getAsInteger(10, Lanes) &&
          Lanes && !Config.ForceWidth)
        Bits = std::min(Bits, std::max(128u, Lanes * 32));
      F.addFnAttr("prefer-vector-width", std::to_string(Bits));
      if (!TuneCPU.empty() && TuneCPU != "generic")
        F.addFnAttr("tune-cpu", TuneCPU);
      // LLVM 19 tunes AMD Zen 4 and 5 as if gathers were cheap; measured on
      // Zen 5, the gathers of the array-of-struct kernel nn made it twice
      // slower than scalar code. Scalar loads it is, there.
      if (StringRef(TuneCPU).starts_with("znver")) {
        std::string Features =
            F.getFnAttribute("target-features").getValueAsString().str();
        F.addFnAttr("target-features",
                    Features + (Features.empty() ? "" : ",") +
                        "+prefer-no-gather,+prefer-no-scatter");
      }
    }
  if (!Scalar) {
    // The loop vectorizer widens scalar instructions only. pocl's library
    // computes some builtins with short vectors and kernels use float4 and
    // friends: scalarizing the work-group function first lets the work-item
    // loop be vectorized across work-items (each component one lane vector);
    // the SLP vectorizer regroups what the loop vectorizer leaves. The
    // library's x86 intrinsics first become generic IR: neither pass
    // splits or widens them.
    ScalarizerPassOptions SO;
    SO.ScalarizeLoadStore = true;
    FunctionPassManager FPM;
    FPM.addPass(GenericIntrinsicsPass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(ScalarizerPass(SO));
    for (Function &F : M)
      if (!F.isDeclaration() && F.getName().starts_with("__iss_sub_") &&
          !F.hasFnAttribute(ScalarAttr))
        FPM.run(F, FAM);
  }
  tableHugeSwitches(M, FAM);
  FrontMs = msSince(Start);
  Dump("workgroup");

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

  Start = std::chrono::steady_clock::now();
  ModulePassManager O3 = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  O3.run(M, MAM);
  O3Ms = msSince(Start);
  Dump("optimized");

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
/// the JIT among the static destructors unmapped that code under them
/// (issue 12); the operating system reclaims it at exit instead.
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
  return true;
}

/// Compiles \p Kernel to an object: the cache miss path.
static bool compileKernel(const std::vector<uint8_t> &Binary,
                          const WorkGroupConfig &Config, CachedKernel &Out,
                          std::string &Error) {
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
  double FrontMs = 0, O3Ms = 0;
  if (!optimize(*M, Config, *TM, FrontMs, O3Ms, Error))
    return false;
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
  if (NamedMDNode *NMD = M->getNamedMetadata("iss.pieces")) {
    // kernel, counter, region, piece, how (scalar, whole tiles, masked
    // partial tiles), properties, horizontal, subkernel (iss-wi-loops,
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
  debugLog(DbgLLVM,
           "kernel %s: work-group passes %.1f ms, O3 %.1f ms, code "
           "generation %.1f ms",
           Config.Kernel.c_str(), FrontMs, O3Ms, msSince(Start));
  Out.Object.assign(Obj.begin(), Obj.end());
  return true;
}

/// compileKernel on a thread with a large stack (StackGuard.h), as
/// clBuildProgram runs Clang: a kernel built from a very deep expression
/// is a very deep chain of instructions, and an overflow becomes an error.
static bool compileKernelGuarded(const std::vector<uint8_t> &Binary,
                                 const WorkGroupConfig &Config,
                                 CachedKernel &Out, std::string &Error) {
  // Out and Error are written by the guarded function's last step only.
  unsigned MB = settings().CompilerStackMB;
  bool Ok = false;
  StackRun Run = runOnLargeStack(
      [&] {
        CachedKernel CK;
        std::string E;
        bool R = compileKernel(Binary, Config, CK, E);
        Out = std::move(CK);
        Error = std::move(E);
        Ok = R;
      },
      static_cast<size_t>(MB) << 20);
  if (Run == StackRun::NoThread)
    return compileKernel(Binary, Config, Out, Error);
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

std::shared_ptr<CompiledKernel>
getCompiledKernel(const std::vector<uint8_t> &Binary, const std::string &Kernel,
                  const size_t Local[3], std::string &Error, CompileTier Tier) {
  const Settings &S = settings();
  WorkGroupConfig Config;
  Config.Kernel = Kernel;
  for (unsigned D = 0; D < 3; ++D)
    Config.LocalSize[D] = static_cast<unsigned>(Local[D] ? Local[D] : 1);
  Config.IssMode = Tier == CompileTier::Vec ? Mode::Vec : S.IssMode;
  Config.VectorWidth = S.VectorWidth ? S.VectorWidth : defaultVectorWidth();
  Config.ForceWidth = S.VectorWidth != 0;
  Config.CheapMasks = S.CheapMasks >= 0
                          ? S.CheapMasks != 0
                          : getTargetInfo().NativeVectorBits >= 512;
  Config.Horizontal = S.Horizontal;
  Config.PartialEdges = S.PartialEdges;
  Config.MaxPieces = S.MaxPieces;
  Config.SafeDivision = S.SafeDivision;
  Config.Stats = S.Stats;
  Config.DimsMask = S.DimsMask;
  Config.WeightConsecutive = S.WeightConsecutive;
  Config.WeightUniform = S.WeightUniform;
  Config.WeightDivergent = S.WeightDivergent;
  const TargetInfo &T = getTargetInfo();
  std::string Key;
  raw_string_ostream KS(Key);
  KS << "pocl-iss " << POCL_ISS_VERSION << ' ' << compilerBuildId() << "; llvm "
     << POCL_ISS_LLVM_VERSION << "; lib " << T.LibraryVariant << ' '
     << kernelLibraryHash() << "; target " << T.Triple << ' ' << T.CPU
     << "; mode " << modeName(Config.IssMode) << "; width "
     << Config.VectorWidth << (Config.ForceWidth ? " forced" : "")
     << (Config.Horizontal ? "; horizontal" : "")
     << (Config.PartialEdges ? "" : "; no partial edges")
     << (Config.CheapMasks ? "; cheap masks" : "")
     << (S.StrideVersioning ? "; stride versioning" : "") << "; pieces "
     << Config.MaxPieces << (Config.SafeDivision ? "" : "; unguarded division")
     << (Config.Stats ? "; stats" : "") << "; dims " << S.DimsMask
     << "; weights " << S.WeightConsecutive << ',' << S.WeightUniform << ','
     << S.WeightDivergent << "; local " << Config.LocalSize[0] << ','
     << Config.LocalSize[1] << ',' << Config.LocalSize[2] << "; kernel "
     << Kernel << "; program "
     << identityHex(StringRef(reinterpret_cast<const char *>(Binary.data()),
                              Binary.size()));
  KS.flush();

  // Kernels already loaded in this process are shared.
  static std::mutex Mutex;
  static std::map<std::string, std::weak_ptr<CompiledKernel>> Loaded;
  {
    std::lock_guard<std::mutex> L(Mutex);
    if (auto P = Loaded[Key].lock())
      return P;
  }

  auto Start = std::chrono::steady_clock::now();
  auto Load = [&](const CachedKernel &CK, std::string &Message) {
    auto R = std::make_shared<CompiledKernel>();
    R->KernelName = Kernel;
    for (unsigned D = 0; D < 3; ++D)
      R->LocalSize[D] = Config.LocalSize[D];
    R->Mode = modeName(Config.IssMode);
    if (!loadObject(CK, *R, Message))
      R.reset();
    return R;
  };
  std::shared_ptr<CompiledKernel> Result;
  CachedKernel CK;
  bool FromCache = S.KernelCache && readCachedKernel(S.CacheDir, Key, CK);
  if (FromCache) {
    // An entry that passed every check but does not load is a miss too:
    // compiled again and overwritten, never an error for good (issue 12).
    std::string Why;
    Result = Load(CK, Why);
    if (!Result) {
      debugLog(DbgCache, "%s: does not load (%s), rebuilding",
               cachedKernelPath(S.CacheDir, Key).c_str(), Why.c_str());
      FromCache = false;
      CK = CachedKernel();
    }
  }
  if (!FromCache) {
    if (Tier == CompileTier::CachedOnly)
      return nullptr;
    if (!compileKernelGuarded(Binary, Config, CK, Error))
      return nullptr;
    if (S.KernelCache)
      writeCachedKernel(S.CacheDir, Key, CK);
    Result = Load(CK, Error);
    if (!Result) {
      Error = "loading the compiled kernel failed: " + Error;
      return nullptr;
    }
  }
  double Ms = msSince(Start);
  debugLog(DbgLLVM, "kernel %s, local size %u,%u,%u, mode %s: %s in %.1f ms",
           Kernel.c_str(), Config.LocalSize[0], Config.LocalSize[1],
           Config.LocalSize[2], Result->Mode.c_str(),
           FromCache ? "loaded from the cache" : "compiled", Ms);
  debugLog(DbgLLVM,
           "kernel %s: context bytes per work-item: %zu, uniform: %zu, "
           "scratch per work group: %zu",
           Kernel.c_str(), Result->ContextBytesPerWorkItem,
           Result->UniformContextBytes, Result->ScratchBytes);
  std::lock_guard<std::mutex> L(Mutex);
  Loaded[Key] = Result;
  // Released kernels leave their keys behind: sweep them whenever the table
  // has doubled, so that it stays as big as what is alive.
  static size_t SweepAt = 64;
  if (Loaded.size() >= SweepAt) {
    for (auto It = Loaded.begin(); It != Loaded.end();)
      It = It->second.expired() ? Loaded.erase(It) : std::next(It);
    SweepAt = std::max<size_t>(64, 2 * Loaded.size());
  }
  return Result;
}

bool tieredLaunches() {
  const Settings &S = settings();
  return S.Tiered && !S.Stats &&
         (S.IssMode == Mode::Split || S.IssMode == Mode::Score ||
          S.IssMode == Mode::SplitScore);
}

namespace {
/// The compiler's background thread (BackgroundCompile). Made by the first
/// tiered launch, after the JIT that launch loaded its code into: gone at
/// exit before the JIT's exit handler and LLVM's own statics run.
class BackgroundThread {
public:
  void push(std::shared_ptr<BackgroundCompile> C) {
    std::lock_guard<std::mutex> L(M);
    if (!Worker.joinable())
      Worker = std::thread([this] { loop(); });
    Queue.push_back(std::move(C));
    CV.notify_one();
  }
  ~BackgroundThread() {
    {
      std::lock_guard<std::mutex> L(M);
      Stopping = true;
      Queue.clear();
    }
    CV.notify_one();
    if (Worker.joinable())
      Worker.join();
  }

private:
  void loop() {
    for (;;) {
      std::shared_ptr<BackgroundCompile> C;
      {
        std::unique_lock<std::mutex> L(M);
        CV.wait(L, [&] { return Stopping || !Queue.empty(); });
        if (Stopping)
          return;
        C = std::move(Queue.front());
        Queue.pop_front();
      }
      C->runIfQueued();
    }
  }

  std::mutex M;
  std::condition_variable CV;
  std::deque<std::shared_ptr<BackgroundCompile>> Queue;
  bool Stopping = false;
  std::thread Worker;
};

BackgroundThread &backgroundThread() {
  static BackgroundThread T;
  return T;
}
} // namespace

std::shared_ptr<BackgroundCompile>
BackgroundCompile::start(std::shared_ptr<const std::vector<uint8_t>> Binary,
                         const std::string &Kernel, const size_t Local[3]) {
  auto C = std::make_shared<BackgroundCompile>();
  C->Binary = std::move(Binary);
  C->Kernel = Kernel;
  for (unsigned D = 0; D < 3; ++D)
    C->Local[D] = Local[D];
  debugLog(DbgLLVM,
           "kernel %s, local size %zu,%zu,%zu: the first launch runs vec's "
           "code, mode %s compiling behind it",
           Kernel.c_str(), Local[0], Local[1], Local[2],
           modeName(settings().IssMode));
  backgroundThread().push(C);
  return C;
}

void BackgroundCompile::runIfQueued() {
  {
    std::lock_guard<std::mutex> L(M);
    if (St != State::Queued)
      return;
    St = State::Running;
  }
  std::string E;
  std::shared_ptr<CompiledKernel> R =
      getCompiledKernel(*Binary, Kernel, Local, E, CompileTier::Mode);
  {
    std::lock_guard<std::mutex> L(M);
    Result = std::move(R);
    Error = std::move(E);
    Binary.reset();
    St = State::Done;
  }
  CV.notify_all();
}

std::shared_ptr<CompiledKernel> BackgroundCompile::wait(std::string &Err) {
  runIfQueued();
  std::unique_lock<std::mutex> L(M);
  CV.wait(L, [&] { return St == State::Done; });
  Err = Error;
  return Result;
}

} // namespace iss
