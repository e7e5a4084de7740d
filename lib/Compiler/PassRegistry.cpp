//===- PassRegistry.cpp - Parsing our pass names in pipelines -------------===//
// SPDX-License-Identifier: MIT
//
// Registers every pass of PassRegistry.def with a PassBuilder, so that
// pocl-iss-opt -passes=iss-... runs them as opt runs LLVM's, and builds the
// compile's work-group pipeline and the program build's two from the same
// list (-passes=iss-workgroup, iss-before-library and iss-after-library in
// pocl-iss-opt).
//
//===----------------------------------------------------------------------===//

#include "Analysis/Uniformity.h"
#include "Passes.h"
#include "Splitting/RegionSplitter.h"
#include "Splitting/WorkItemModel.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"

using namespace llvm;

namespace iss {

AnalysisManagers::AnalysisManagers(PassBuilder &PB) {
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
}

/// The pass that builds the work-group function in \p Config's compile.
static std::string builderPass(const WorkGroupConfig &Config) {
  std::string Name;
#define ISS_BUILDER_PASS(NAME, CREATE, BUILDS)                                 \
  if (BUILDS)                                                                  \
    Name = NAME;
#include "PassRegistry.def"
  return Name;
}

std::string workGroupPipeline(const WorkGroupConfig &Config, bool ReadyForO3) {
  std::string Pipeline;
  auto Add = [&](StringRef Name) {
    Pipeline += (Pipeline.empty() ? "" : ",") + Name.str();
  };
#define ISS_MODULE_PASS(NAME, CREATE, IN_PIPELINE)                             \
  if (IN_PIPELINE)                                                             \
    Add(StringRef(NAME) == "iss-subkernels"                                    \
            ? NAME "(" + builderPass(Config) + ")"                             \
            : std::string(NAME));
#define ISS_BUILDER_PASS(NAME, CREATE, BUILDS)                                 \
  if (BUILDS && !Config.scores())                                              \
    Add(NAME);
#define ISS_BACKEND_PASS(NAME, CREATE, IN_PIPELINE)                            \
  if (ReadyForO3 && (IN_PIPELINE))                                             \
    Add(NAME);
#include "PassRegistry.def"
  return Pipeline;
}

bool runBuilderPass(StringRef Name, const WorkGroupConfig &Config, Module &M,
                    ModuleAnalysisManager &MAM) {
#define ISS_BUILDER_PASS(NAME, CREATE, BUILDS)                                 \
  if (Name == NAME) {                                                          \
    MAM.invalidate(M, CREATE.run(M, MAM));                                     \
    return true;                                                               \
  }
#include "PassRegistry.def"
  return false;
}

Error addWorkGroupPasses(ModulePassManager &MPM, const WorkGroupConfig &Config,
                         bool ReadyForO3) {
  PassBuilder PB;
  registerIssPasses(PB, Config);
  return PB.parsePassPipeline(MPM, workGroupPipeline(Config, ReadyForO3));
}

/// Whether \p Name is a pass that builds a work-group function.
static bool isBuilderPass(StringRef Name) {
#define ISS_BUILDER_PASS(NAME, CREATE, BUILDS)                                 \
  if (Name == NAME)                                                            \
    return true;
#include "PassRegistry.def"
  return false;
}

std::string programPipeline(ProgramStage Stage) {
  std::string Pipeline;
#define ISS_PROGRAM_PASS(NAME, CREATE, STAGE)                                  \
  if (Stage == STAGE)                                                          \
    Pipeline += Pipeline.empty() ? NAME : "," NAME;
#include "PassRegistry.def"
  return Pipeline;
}

Error addProgramPasses(ModulePassManager &MPM, ProgramStage Stage) {
  PassBuilder PB;
  registerIssPasses(PB, WorkGroupConfig());
  return PB.parsePassPipeline(MPM, programPipeline(Stage));
}

void registerIssPasses(PassBuilder &PB) {
  registerIssPasses(PB, WorkGroupConfig::fromCommandLine());
}

void registerIssPasses(PassBuilder &PB, const WorkGroupConfig &Config) {
  PB.registerPipelineParsingCallback(
      [Config, &PB](StringRef Name, ModulePassManager &MPM,
                    ArrayRef<PassBuilder::PipelineElement> Inner) {
        if (Name == "iss-subkernels") {
          // Its argument: the pass that builds each subkernel.
          if (Inner.size() != 1 || !Inner[0].InnerPipeline.empty() ||
              !isBuilderPass(Inner[0].Name)) {
            errs() << "iss-subkernels(B): B is the pass that builds each "
                      "subkernel's work-group function, iss-wi-loops or "
                      "iss-split\n";
            return false;
          }
          MPM.addPass(SubkernelsPass(Config, Inner[0].Name.str()));
          return true;
        }
        if (Name == "iss-workgroup") {
          if (Error E = PB.parsePassPipeline(MPM, workGroupPipeline(Config))) {
            errs() << "iss-workgroup: " << toString(std::move(E)) << "\n";
            return false;
          }
          return true;
        }
        if (Name == "iss-before-library" || Name == "iss-after-library") {
          ProgramStage Stage = Name == "iss-before-library"
                                   ? ProgramStage::BeforeLibrary
                                   : ProgramStage::AfterLibrary;
          if (Error E = PB.parsePassPipeline(MPM, programPipeline(Stage))) {
            errs() << Name << ": " << toString(std::move(E)) << "\n";
            return false;
          }
          return true;
        }
#define ISS_MODULE_PASS(NAME, CREATE, IN_PIPELINE)                             \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define ISS_BUILDER_PASS(NAME, CREATE, BUILDS) ISS_MODULE_PASS(NAME, CREATE, )
#define ISS_BACKEND_PASS(NAME, CREATE, IN_PIPELINE)                            \
  ISS_MODULE_PASS(NAME, CREATE, )
#define ISS_PROGRAM_PASS(NAME, CREATE, STAGE) ISS_MODULE_PASS(NAME, CREATE, )
#define ISS_MODULE_PRINTER(NAME, CREATE)                                       \
  if (Name == "print<" NAME ">") {                                             \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#include "PassRegistry.def"
        return false;
      });
  PB.registerPipelineParsingCallback(
      [Config](StringRef Name, FunctionPassManager &FPM,
               ArrayRef<PassBuilder::PipelineElement>) {
#define ISS_FUNCTION_PASS(NAME, CREATE)                                        \
  if (Name == NAME) {                                                          \
    FPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define ISS_FUNCTION_PRINTER(NAME, CREATE)                                     \
  if (Name == "print<" NAME ">") {                                             \
    FPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define ISS_FUNCTION_ANALYSIS(NAME, CREATE, PRINTER)                           \
  if (Name == "print<" NAME ">") {                                             \
    FPM.addPass(PRINTER);                                                      \
    return true;                                                               \
  }                                                                            \
  if (Name == "require<" NAME ">") {                                           \
    FPM.addPass(RequireAnalysisPass<decltype(CREATE), Function>());            \
    return true;                                                               \
  }
#include "PassRegistry.def"
        return false;
      });
  PB.registerAnalysisRegistrationCallback([](FunctionAnalysisManager &FAM) {
#define ISS_FUNCTION_ANALYSIS(NAME, CREATE, PRINTER)                           \
  FAM.registerPass([] { return CREATE; });
#include "PassRegistry.def"
  });
}

} // namespace iss
