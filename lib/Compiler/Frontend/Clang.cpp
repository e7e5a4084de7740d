//===- Clang.cpp - Clang in process: OpenCL C to LLVM IR ------------------===//
// SPDX-License-Identifier: MIT
//
// Compiles OpenCL C the way pocl does (DESIGN.md section 3): triple
// x86_64-pc-linux-gnu, the kernel library's target-cpu, forced includes of
// pocl_types.h, _builtin_renames.h, clang's opencl-c headers and _kernel.h,
// -cl-kernel-arg-info and -fno-builtin; OpenCL C 3.0 unless -cl-std says
// otherwise, with the extensions and features the device reports
// (TargetInfo) and __OPENCL_VERSION__ 300; headers are also looked up in
// the working directory. -O2 -disable-llvm-passes keeps
// optnone off and leaves the whole optimisation pipeline to us
// (DESIGN.md section 4). Diagnostics become the program's build log.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;

namespace iss {

/// pocl 3.1's _kernel.h stops with "#error Unsupported Clang/LLVM version"
/// under Clang 19, although nothing in it depends on the version beyond that
/// gate (CLANG_MAJOR stays a reference to __clang_major__). The gate is
/// passed by presenting 16 while the header is read; the real value is
/// restored right after.
static const char *const KernelHeaderShim =
    "#pragma push_macro(\"__clang_major__\")\n"
    "#undef __clang_major__\n"
    "#define __clang_major__ 16\n"
    "#include <_kernel.h>\n"
    "#pragma pop_macro(\"__clang_major__\")\n";

/// pocl_types.h, as pocl includes it first.
static const char *const TypesHeaderShim = "#include <pocl_types.h>\n";

static const char *const VirtualDir = "/pocl-iss-virtual";

/// Splits build options at white space, keeping quoted parts together
/// (-D "NAME=a b").
static bool splitOptions(const std::string &Options,
                         std::vector<std::string> &Out, std::string &Log) {
  std::string Cur;
  bool InToken = false;
  char Quote = 0;
  for (char C : Options) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += C;
      continue;
    }
    if (C == '"' || C == '\'') {
      Quote = C;
      InToken = true;
      continue;
    }
    if (isspace(static_cast<unsigned char>(C))) {
      if (InToken)
        Out.push_back(Cur);
      Cur.clear();
      InToken = false;
      continue;
    }
    Cur += C;
    InToken = true;
  }
  if (Quote) {
    Log += "error: unterminated quote in build options\n";
    return false;
  }
  if (InToken)
    Out.push_back(Cur);
  return true;
}

/// Turns the OpenCL build options into cc1 arguments. Returns false (and
/// explains in \p Log) for an option OpenCL does not define.
static bool translateOptions(const std::vector<std::string> &In,
                             std::vector<std::string> &Out, std::string &Std,
                             std::string &Log) {
  static const char *const PassThrough[] = {
      "-cl-single-precision-constant",
      "-cl-fp32-correctly-rounded-divide-sqrt",
      "-cl-opt-disable",
      "-cl-mad-enable",
      "-cl-no-signed-zeros",
      "-cl-unsafe-math-optimizations",
      "-cl-finite-math-only",
      "-cl-fast-relaxed-math",
      "-w",
      "-Werror",
      "-cl-uniform-work-group-size"};
  for (size_t I = 0; I < In.size(); ++I) {
    const std::string &O = In[I];
    auto TakesValue = [&](const char *Flag) -> bool {
      if (O == Flag) {
        if (I + 1 >= In.size()) {
          Log += std::string("error: option ") + Flag + " needs a value\n";
          return false;
        }
        Out.push_back(Flag);
        Out.push_back(In[++I]);
        return true;
      }
      Out.push_back(O);
      return true;
    };
    if (O.rfind("-D", 0) == 0 || O.rfind("-U", 0) == 0 ||
        O.rfind("-I", 0) == 0) {
      if (!TakesValue(O.substr(0, 2).c_str()))
        return false;
      continue;
    }
    if (O.rfind("-cl-std=", 0) == 0) {
      // The values OpenCL 3.0 defines; clang compiles each as that
      // version, but CL2.0 fails (compileOpenCL).
      std::string V = O.substr(8);
      if (V != "CL1.1" && V != "CL1.2" && V != "CL2.0" && V != "CL3.0") {
        Log += "error: " + O +
               " is not supported; the values are CL1.1, CL1.2, CL2.0 and "
               "CL3.0\n";
        return false;
      }
      Std = V;
      continue;
    }
    if (O == "-cl-kernel-arg-info")
      continue; // always on
    // Hints the specification lets a device ignore: denormals are computed
    // (CL_FP_DENORM), as pocl does on x86, and there are no sub-groups.
    if (O == "-cl-denorms-are-zero" || O == "-cl-no-subgroup-ifp")
      continue;
    if (O == "-cl-strict-aliasing") {
      Log += "warning: -cl-strict-aliasing is deprecated since OpenCL 1.1 "
             "and has no effect\n";
      continue;
    }
    if (O == "-g") {
      Out.push_back("-debug-info-kind=limited");
      continue;
    }
    if (O == "-cl-fast-relaxed-math")
      Out.push_back("-D__FAST_RELAXED_MATH__=1");
    bool Known = false;
    for (const char *P : PassThrough)
      Known |= O == P;
    if (!Known) {
      Log += "error: unknown build option '" + O + "'\n";
      return false;
    }
    Out.push_back(O);
  }
  return true;
}

std::unique_ptr<Module> compileOpenCL(LLVMContext &Ctx,
                                      const std::string &Source,
                                      const std::string &Options,
                                      const std::vector<HeaderSource> &Headers,
                                      std::string &Log, bool &InvalidOptions,
                                      BuildDependencies &Deps) {
  InvalidOptions = false;
  const TargetInfo &T = getTargetInfo();
  std::string LibInclude = std::string(POCL_KERNEL_LIB_DIR) + "/include";
  std::string Resource = POCL_ISS_CLANG_RESOURCE_DIR;

  std::vector<std::string> UserArgs, Args;
  // pocl 3.1 compiles as OpenCL C 3.0 unless told otherwise: the language
  // of an OpenCL C 1.2 device plus the 3.0 features it reports.
  std::string Std = "CL3.0";
  if (!splitOptions(Options, UserArgs, Log) ||
      !translateOptions(UserArgs, Args, Std, Log)) {
    InvalidOptions = true;
    return nullptr;
  }
  // A valid value, but a version the device does not support: OpenCL 3.0
  // (5.8.6.5) says the program then fails to compile. OpenCL C 2.0 makes
  // the generic address space, pipes and device-side enqueue mandatory,
  // and CL_DEVICE_OPENCL_C_ALL_VERSIONS does not list it.
  if (Std == "CL2.0") {
    Log += "error: -cl-std=CL2.0: the device does not support OpenCL C 2.0 "
           "(CL_DEVICE_OPENCL_C_ALL_VERSIONS: 1.0, 1.1, 1.2, 3.0; it has no "
           "generic address space, pipes or device-side enqueue); use "
           "-cl-std=CL3.0, with the optional features the device reports\n";
    return nullptr;
  }

  std::string Input = std::string(VirtualDir) + "/input.cl";
  std::vector<std::string> CC1 = {
      "-triple", T.Triple, "-target-cpu", T.CPU, "-O2", "-disable-llvm-passes",
      "-x", "cl", "-cl-std=" + Std, "-cl-kernel-arg-info", "-fno-builtin",
      "-ffp-contract=on", "-Dinline=", "-D__USE_CLANG_OPENCL_C_H",
      "-DPOCL_DEVICE_ADDRESS_BITS=64", "-D__ENDIAN_LITTLE__=1",
      "-D__OPENCL_VERSION__=300", "-Dcl_khr_int64",
      "-DCL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE=0",
      // The working directory is searched for headers, as pocl does, after
      // pocl's folder (our shims include from there).
      "-internal-isystem", Resource + "/include", "-I", VirtualDir, "-I",
      LibInclude, "-I", ".", "-include",
      std::string(VirtualDir) + "/iss_types.h", "-include",
      LibInclude + "/_builtin_renames.h", "-include",
      Resource + "/include/opencl-c-base.h", "-include",
      Resource + "/include/opencl-c.h", "-include",
      std::string(VirtualDir) + "/iss_kernel.h", "-fno-common",
      "-fgnuc-version=0", "-Wno-typedef-redefinition"};
  // The extensions, and under OpenCL C 3.0 the optional features, the
  // device reports: nothing else is enabled or defined.
  std::string Ext = "-cl-ext=-all";
  auto Enable = [&](const std::string &Name) {
    Ext += ",+" + Name;
    CC1.push_back("-D" + Name + "=1");
  };
  for (const std::string &E : T.Extensions)
    Enable(E);
  // OpenCL C 3.0, 6.12: 1 where the device supports images, whatever the
  // language version (pocl defines it too).
  if (std::find(T.OpenCLCFeatures.begin(), T.OpenCLCFeatures.end(),
                "__opencl_c_images") != T.OpenCLCFeatures.end())
    CC1.push_back("-D__IMAGE_SUPPORT__=1");
  if (Std == "CL3.0") {
    for (const std::string &F : T.OpenCLCFeatures)
      Enable(F);
  }
  CC1.push_back(Ext);
  CC1.insert(CC1.end(), Args.begin(), Args.end());
  CC1.push_back(Input);

  std::vector<const char *> Argv;
  for (const std::string &A : CC1)
    Argv.push_back(A.c_str());

  raw_string_ostream LogStream(Log);
  // The options are parsed with a diagnostics engine of their own; the
  // compilation's engine is made from the parsed warning options (-w,
  // -Werror, -Wno-...), which only then take effect.
  auto ArgDiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  ArgDiagOpts->ShowColors = false;
  clang::TextDiagnosticPrinter ArgPrinter(LogStream, &*ArgDiagOpts);
  clang::DiagnosticsEngine ArgDiags(
      llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), &*ArgDiagOpts,
      &ArgPrinter, /*ShouldOwnClient=*/false);
  auto Invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*Invocation, Argv, ArgDiags) ||
      ArgDiags.hasErrorOccurred()) {
    LogStream.flush();
    InvalidOptions = true;
    return nullptr;
  }
  clang::CompilerInstance CI;
  CI.setInvocation(Invocation);
  CI.createFileManager(recordingFileSystem(Deps));
  CI.getDiagnosticOpts().ShowColors = false;
  CI.createDiagnostics(
      new clang::TextDiagnosticPrinter(LogStream, &CI.getDiagnosticOpts()),
      /*ShouldOwnClient=*/true);
  // "N warnings generated." belongs in the build log, not on stderr.
  CI.setVerboseOutputStream(LogStream);
  clang::PreprocessorOptions &PP = CI.getPreprocessorOpts();
  PP.addRemappedFile(Input,
                     MemoryBuffer::getMemBufferCopy(Source, Input).release());
  PP.addRemappedFile(
      std::string(VirtualDir) + "/iss_kernel.h",
      MemoryBuffer::getMemBufferCopy(KernelHeaderShim).release());
  PP.addRemappedFile(std::string(VirtualDir) + "/iss_types.h",
                     MemoryBuffer::getMemBufferCopy(TypesHeaderShim).release());
  for (const HeaderSource &H : Headers) {
    std::string Name = std::string(VirtualDir) + "/" + H.Name;
    PP.addRemappedFile(
        Name, MemoryBuffer::getMemBufferCopy(H.Source, Name).release());
  }
  PP.RetainRemappedFileBuffers = false;
  CI.getLangOpts().CharIsSigned = true;
  CI.getLangOpts().MathErrno = false;

  clang::EmitLLVMOnlyAction Action(&Ctx);
  bool Ok = CI.ExecuteAction(Action);
  LogStream.flush();
  if (!Ok || CI.getDiagnostics().hasErrorOccurred())
    return nullptr;
  std::unique_ptr<Module> M = Action.takeModule();
  if (M)
    M->setModuleIdentifier("program");
  return M;
}

} // namespace iss
