//===- PassRegistry.cpp - Parsing our pass names in pipelines -------------===//
// SPDX-License-Identifier: MIT
//
// Registers every pass of PassRegistry.def with a PassBuilder, so that
// pocl-iss-opt -passes=iss-... runs them as opt runs LLVM's, and builds the
// compile's work-group pipeline from the same list (-passes=iss-workgroup
// in pocl-iss-opt).
//
//===----------------------------------------------------------------------===//

#include "Passes.h"
#include "Splitting/WorkItemModel.h"
#include "WorkGroup/Uniformity.h"

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

std::string workGroupPipeline(const WorkGroupConfig &Config) {
  std::string Pipeline;
#define ISS_MODULE_PASS(NAME, CREATE, IN_PIPELINE)                             \
  if (IN_PIPELINE)                                                             \
    Pipeline += Pipeline.empty() ? NAME : "," NAME;
#include "PassRegistry.def"
  return Pipeline;
}

Error addWorkGroupPasses(ModulePassManager &MPM,
                         const WorkGroupConfig &Config) {
  PassBuilder PB;
  registerIssPasses(PB, Config);
  return PB.parsePassPipeline(MPM, workGroupPipeline(Config));
}

void registerIssPasses(PassBuilder &PB) {
  registerIssPasses(PB, WorkGroupConfig::fromCommandLine());
}

void registerIssPasses(PassBuilder &PB, const WorkGroupConfig &Config) {
  PB.registerPipelineParsingCallback(
      [Config, &PB](StringRef Name, ModulePassManager &MPM,
                    ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "iss-workgroup") {
          if (Error E = PB.parsePassPipeline(MPM, workGroupPipeline(Config))) {
            errs() << "iss-workgroup: " << toString(std::move(E)) << "\n";
            return false;
          }
          return true;
        }
#define ISS_MODULE_PASS(NAME, CREATE, IN_PIPELINE)                             \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#include "PassRegistry.def"
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
#define ISS_FUNCTION_PASS(NAME, CREATE)                                        \
  if (Name == NAME) {                                                          \
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
