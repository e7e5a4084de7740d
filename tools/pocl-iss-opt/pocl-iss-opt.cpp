//===- pocl-iss-opt.cpp - An opt-like driver for pocl-iss's passes --------===//
// SPDX-License-Identifier: MIT
//
// Reads LLVM IR, runs a -passes= pipeline that may name our passes
// (PassRegistry.def) beside LLVM's, and writes the result. The lit tests use
// it the way LLVM's own tests use opt. Pass parameters come from -iss-kernel,
// -iss-local-size, -iss-mode and -iss-vector-width.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<input>"),
                                      cl::init("-"));
static cl::opt<std::string> OutputFile("o", cl::desc("Output file"),
                                       cl::init("-"));
static cl::opt<std::string> Passes("passes", cl::desc("Pass pipeline"),
                                   cl::Required);
static cl::opt<bool> TextOutput("S", cl::desc("Write IR as text"));
static cl::opt<bool> NoVerify("disable-verify",
                              cl::desc("Do not verify the result"));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  cl::ParseCommandLineOptions(argc, argv, "pocl-iss pass driver\n");

  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(InputFile, Err, Ctx);
  if (!M) {
    Err.print(argv[0], errs());
    return 1;
  }
  std::unique_ptr<TargetMachine> TM;
  if (!M->getTargetTriple().empty()) {
    std::string Error;
    if (const Target *T = TargetRegistry::lookupTarget(M->getTargetTriple(), Error))
      TM.reset(T->createTargetMachine(M->getTargetTriple(), "", "",
                                      TargetOptions(), std::nullopt));
  }
  PassBuilder PB(TM.get());
  iss::registerIssPasses(PB);
  iss::AnalysisManagers AM(PB);
  ModulePassManager MPM;
  if (auto E = PB.parsePassPipeline(MPM, Passes)) {
    errs() << argv[0] << ": " << toString(std::move(E)) << "\n";
    return 1;
  }
  MPM.run(*M, AM.MAM);
  if (!NoVerify && verifyModule(*M, &errs())) {
    errs() << argv[0] << ": the result does not verify\n";
    return 1;
  }
  std::error_code EC;
  ToolOutputFile Out(OutputFile, EC, sys::fs::OF_None);
  if (EC) {
    errs() << argv[0] << ": " << EC.message() << "\n";
    return 1;
  }
  if (TextOutput)
    M->print(Out.os(), nullptr);
  else
    WriteBitcodeToFile(*M, Out.os());
  Out.keep();
  return 0;
}
