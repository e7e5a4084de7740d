//===- Passes.h - The kernel compiler's LLVM passes -----------------------===//
// SPDX-License-Identifier: MIT
//
// The kernel compiler's passes in LLVM's new pass manager: the rewrites of
// a program's build around the kernel library's linking (Frontend/), and
// the work-group function generation (pocl's front half, the pocl paper,
// section 4) with input space splitting. PassRegistry.def names each one
// once; the pipelines, pocl-iss-opt and the lit tests read it.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_PASSES_H
#define POCL_ISS_COMPILER_PASSES_H

#include "pocl-iss/Env.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace llvm {
class Argument;
class MDNode;
class IRBuilderBase;
class PassBuilder;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

/// What one compilation of a kernel is for: which kernel, its local size
/// (a compile-time constant, DESIGN.md section 2) and how to vectorize.
struct WorkGroupConfig {
  std::string Kernel;
  /// The formats of the kernel's image arguments at the launch, for
  /// iss-image-formats: the compile request's name after the kernel's,
  /// past a '#' (WorkGroup/ImageFormats.cpp). Empty for none.
  std::string ImageArgs;
  unsigned LocalSize[3] = {1, 1, 1};
  Mode IssMode = Mode::Vec;
  /// Lanes for 32-bit types: the paper's w. Forced on the vectorizer only
  /// when ForceWidth is set (POCL_ISS_VECTOR_WIDTH).
  unsigned VectorWidth = 8;
  bool ForceWidth = false;
  /// The lanes the compilation was given, before a subkernel for a smaller
  /// local size halved them (Subkernels.cpp); 0: VectorWidth.
  unsigned GivenWidth = 0;
  /// Masked vector loads and stores cost about what plain ones do (AVX-512;
  /// -iss-cheap-masks): a split that would only fold a guard over
  /// consecutive accesses gains nothing on the vectorizer's masks.
  bool CheapMasks = false;
  /// Horizontal inner-loop parallelization (POCL_ISS_HORIZONTAL).
  bool Horizontal = true;
  /// The partial tiles beside a vectorized range of uniform control run
  /// that range's copy, with masks, where it holds (POCL_ISS_PARTIAL_EDGES;
  /// SplitPlan::edgeRanges): only where masks are cheap (CheapMasks).
  bool PartialEdges = true;
  /// The most ranges, each a copy of the body, a split region may have
  /// (POCL_ISS_MAX_PIECES).
  unsigned MaxPieces = 8;
  /// Integer divisions guarded against traps (POCL_ISS_SAFE_DIVISION).
  bool SafeDivision = true;
  /// The kernel as written where widening cannot pay (POCL_ISS_CHOICE;
  /// iss-as-written).
  bool Choice = true;
  /// The kernel as written whatever the count says: the measured choice's
  /// candidate of that name (iss-as-written).
  bool AsWrittenOnly = false;
  /// Count the work-items each piece of a split region runs
  /// (POCL_ISS_STATS; iss-split).
  bool Stats = false;
  /// Which work-item dimensions may get subkernels (POCL_ISS_DIMS, bit d).
  unsigned DimsMask = 7;
  /// The weights of the scores (POCL_ISS_WEIGHTS; Scoring/SubkernelScore.h).
  double WeightConsecutive = 2, WeightUniform = 1, WeightDivergent = 0.5;
  /// The CPU the subkernels' code is tuned for (iss-codegen-attrs): the
  /// host's, whatever the kernel library's target CPU.
  std::string TuneCPU;
  /// Set by iss-subkernels for each subkernel it builds: the dimension it
  /// vectorizes (-1: vectorizedDim()'s rule) and its index in the kernel's
  /// table of subkernels (-1: iss-wi-loops builds the only subkernel and
  /// the selection function itself).
  int VecDim = -1;
  int Subkernel = -1;

  /// The dimension the vectorizer works on: VecDim when set, else the
  /// first with at least VectorWidth work-items (dimension 0 if none has
  /// as many).
  unsigned vectorizedDim() const;
  /// The work-item loops from outermost to innermost: z, y, x with the
  /// vectorized dimension moved innermost. Context arrays and private
  /// copies are laid out in this order, so the innermost loop walks them
  /// consecutively.
  llvm::SmallVector<unsigned, 3> loopOrder() const;
  /// The mode scores one subkernel per dimension (`score`, `split+score`).
  bool scores() const {
    return IssMode == Mode::Score || IssMode == Mode::SplitScore;
  }
  /// The mode splits the work-item space (`split`, `split+score`).
  bool splits() const {
    return IssMode == Mode::Split || IssMode == Mode::SplitScore;
  }
  /// The number of work-items in a work-group.
  uint64_t workItems() const {
    return uint64_t(LocalSize[0]) * LocalSize[1] * LocalSize[2];
  }

  /// The configuration from the iss-* command-line options (pocl-iss-opt).
  static WorkGroupConfig fromCommandLine();
};

/// Declares a module pass that works on the kernel Config names.
#define ISS_KERNEL_PASS(CLASS)                                                 \
  class CLASS : public llvm::PassInfoMixin<CLASS> {                            \
  public:                                                                      \
    explicit CLASS(WorkGroupConfig C) : Config(std::move(C)) {}                \
    llvm::PreservedAnalyses run(llvm::Module &M,                               \
                                llvm::ModuleAnalysisManager &MAM);             \
                                                                               \
  private:                                                                     \
    WorkGroupConfig Config;                                                    \
  }

/// iss-prepare: readies the linked program for one kernel. Library
/// functions lose `noinline optnone` (get_global_id ships with them), every
/// function the kernel reaches is marked always_inline but those on a call
/// cycle, which stay real calls (Recursion.h), other kernels and
/// library functions become internal, and loads of _local_size_{x,y,z}
/// become the compile-time local size. The work-item functions with a
/// dimension argument answer a dimension of 3 or more as the specification
/// says (1 for sizes and group counts, 0 otherwise), through a wrapper
/// around the library's function.
ISS_KERNEL_PASS(KernelPreparePass);

/// iss-barriers: barrier canonicalization (the pocl paper, section 4.3,
/// Algorithm 1, step 1). Inlines everything into the kernel (each callee
/// simplified by SROA first, as LLVM's inliner does), so that every
/// barrier it reaches is in its body; puts barriers around async copies
/// (work-item 0 copies, DESIGN.md section 3); runs SROA; gives the kernel a
/// single exit; adds the implicit barriers at entry and exit; isolates every
/// barrier in a block of its own; puts loops in simplified form.
ISS_KERNEL_PASS(CanonicalizeBarriersPass);

/// iss-image-formats: after iss-barriers, where the launch fixes the
/// formats of image arguments (Config.ImageArgs), each call of the kernel
/// to the library's read or write of such an image goes to a copy of it
/// with the channel order and type constant and folded, inlined where it
/// folds small (WorkGroup/ImageFormats.cpp).
ISS_KERNEL_PASS(ImageFormatsPass);

/// Whether \p F is one of the library's image reads or writes
/// (`_cl_read_image*`, `_cl_write_image*`), which iss-prepare keeps calls.
bool isImageAccess(const llvm::Function &F);

/// iss-as-written: after iss-barriers, the choice between the kernel as
/// written (its own vector types kept, the work-item loop not widened:
/// what pocl runs) and the widened work-item loop, by register operations
/// per work-item (wideningCost): where widening does not lower them, the
/// kernel gets AsWrittenAttr, and iss-loop-barriers, iss-subkernels and the
/// pipeline keep it as written (and always with Config.AsWrittenOnly).
/// Where widening is less than twice as cheap, the module's
/// `iss.written.candidate` names the kernel: the kernel as written is then
/// a candidate of the measured choice. Not in `scalar` mode, which widens
/// nothing.
ISS_KERNEL_PASS(AsWrittenPass);

/// iss-loop-barriers: implicit barriers for loops (sections 4.5 and 4.6).
/// Innermost loops without barriers whose trip count, and the path to
/// them, are uniform get the loop barriers when Config.Horizontal is set, so
/// that the work-item loop moves inside them (horizontal inner-loop
/// parallelization); then every loop holding a barrier (a b-loop) gets
/// barriers at the end of its preheader, after its header's phis and
/// before its latch branch.
ISS_KERNEL_PASS(ImplicitLoopBarriersPass);

/// iss-cond-barriers: for each conditional barrier, a barrier at the start
/// of the highest block that it post-dominates and that dominates it, in
/// the same loop (section 4.4): the region before ends at the branch that
/// decides, so only that small region needs its first work-item peeled.
ISS_KERNEL_PASS(ImplicitConditionalBarriersPass);

/// iss-context: the kernel variables of section 4.7. Private arrays get one
/// copy per work-item. Values live across a barrier are recomputed after it
/// when they are cheap functions of the work-item ids and arguments, kept
/// in one scalar when uniform, and otherwise in a context array with one
/// element per work-item, 64-byte aligned. Records the bytes per
/// work-item in the module's !iss.context metadata.
ISS_KERNEL_PASS(ContextArraysPass);

/// iss-wi-loops: the work-group function __iss_sub_<kernel>_0(args, ctx).
/// Each parallel region (from a barrier to the next ones, section 4.3) is
/// copied into a work-item loop nest, the vectorized dimension innermost;
/// a block reached from several barriers gets one copy per region, which is
/// the tail replication of Algorithm 2. A region with several exit
/// barriers runs the first work-item alone (peeling); the rest follow the
/// exit it took, in a loop nest where the other exits are unreachable.
/// Work-item globals become loop counters and fields of the work-group
/// context; the loops are marked parallel (llvm.loop.parallel_accesses).
/// Also builds the per-launch selection function __iss_select_<kernel>.
ISS_KERNEL_PASS(WorkItemLoopsPass);

/// iss-split: input space splitting (the input-space-splitting paper,
/// sections 3 and 4), in `split` and `split+score`: the work-group function
/// as iss-wi-loops builds it, but each region with a split plan
/// (Splitting/RegionSplitter.h) runs one loop per range of the vectorized
/// dimension, with a copy of the region specialised for that range
/// (Splitting/SplitRegions.cpp). In the other modes, and for a kernel kept
/// as written, what iss-wi-loops builds. The kernel's WorkItemModel is
/// taken from the function analyses where they hold it (iss-subkernels
/// computed it for the scores).
ISS_KERNEL_PASS(SplitPass);

/// iss-subkernels(B): in the `score` and `split+score` modes (the
/// input-space-splitting paper, section 4.1), each work-item dimension with
/// enough work-items for a vector (and allowed by POCL_ISS_DIMS) gets a
/// subkernel __iss_sub_<kernel>_<i> vectorizing it, and a scalar fallback
/// comes last: iss-context and then the pass B of PassRegistry.def that
/// builds a work-group function (iss-wi-loops, or iss-split to split it
/// for that dimension) run on a copy of the kernel per subkernel, made for
/// its dimension and width. Each gets the score of equation 1
/// (Scoring/SubkernelScore.h) from the model of the first copy after
/// iss-context, subkernels another one dominates for every launch are not
/// built, and __iss_select_<kernel> returns the index of the highest score
/// at each launch. A dimension shorter than the vector width gets a
/// narrower vector (at least 4 lanes). A kernel kept as written, or with no
/// dimension to vectorize, gets one subkernel, as B builds it.
class SubkernelsPass : public llvm::PassInfoMixin<SubkernelsPass> {
public:
  SubkernelsPass(WorkGroupConfig C, std::string Builder)
      : Config(std::move(C)), Builder(std::move(Builder)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

private:
  WorkGroupConfig Config;
  std::string Builder;
};

/// print<iss-scores>: what iss-subkernels decides for the kernel Config
/// names, in its place (after iss-cond-barriers), computed by the pass's
/// own steps on a copy of the module: each candidate subkernel's score
/// (SubkernelScore::print), how many of its parts are exact and whether
/// another dominates it, or why the first one runs alone.
class SubkernelScoresPrinterPass
    : public llvm::PassInfoMixin<SubkernelScoresPrinterPass> {
public:
  SubkernelScoresPrinterPass(llvm::raw_ostream &OS, WorkGroupConfig C)
      : OS(OS), Config(std::move(C)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

private:
  llvm::raw_ostream &OS;
  WorkGroupConfig Config;
};

/// iss-hoist-uniform: once the work-group function is built, calls of functions
/// that touch no memory (iss-prepare left them out of line, InlineLateAttr) are
/// hoisted out of the work-item loops when their arguments are the same for
/// every work-item (LICM on the subkernels), so that a uniform pow() before a
/// divergent branch runs once per work group, not once per work-item; then
/// every call of those functions is inlined.
ISS_KERNEL_PASS(HoistUniformCallsPass);

/// iss-codegen-attrs: each subkernel asks the back end for the vector width
/// it was built for (prefer-vector-width; a subkernel narrower than the
/// native vector, iss-subkernels, for its own) and to tune for
/// Config.TuneCPU; on AMD Zen, whose gathers LLVM 19 believes cheap, it
/// prefers scalar loads to gathers (Backend/SubkernelTuning.cpp).
ISS_KERNEL_PASS(CodegenAttributesPass);

/// iss-scalarize: in the subkernels that are neither scalar nor kept as
/// written, the library's x86 intrinsics become generic IR
/// (iss-generic-intrinsics), then InstCombine and the Scalarizer (loads and
/// stores too) split every vector into its lanes, for the loop vectorizer
/// to widen across work-items. Not in `scalar` mode.
ISS_KERNEL_PASS(ScalarizeSubkernelsPass);

/// iss-switch-tables: a subkernel's switches of 1024 cases or more become
/// lookup tables (InstCombine, then SimplifyCFG), before O3's many
/// SimplifyCFG runs, each quadratic in such a switch in LLVM 19.
ISS_KERNEL_PASS(HugeSwitchTablesPass);

#undef ISS_KERNEL_PASS

/// iss-safe-division: integer divisions that cannot trap (OpenCL C 1.2,
/// section 6.3.b: a division by zero, or of the minimum value by -1, gives
/// an unspecified value, never an exception). In every function of the
/// module, each sdiv, udiv, srem and urem, scalar or vector, whose divisor
/// is not a constant without a zero (or, signed, a -1) lane gets the
/// divisor 1 where it was 0 (or -1); a signed quotient by -1 becomes the
/// wrapping negation. Runs before any other transformation of the kernel.
class SafeDivisionPass : public llvm::PassInfoMixin<SafeDivisionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

/// iss-generic-intrinsics: the x86 vector intrinsics that pocl's kernel
/// library calls (max, min, blendv, round, cvtt and cvt of SSE and AVX)
/// become generic IR of the same value, lane for lane, which the Scalarizer
/// splits and the loop vectorizer widens (GenericIntrinsics.cpp).
class GenericIntrinsicsPass
    : public llvm::PassInfoMixin<GenericIntrinsicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

/// Where a pass of the program build (PassRegistry.def's ISS_PROGRAM_PASS)
/// runs: on the program as Clang made it (or clLinkProgram linked it), or
/// once pocl's kernel library is linked into it.
enum class ProgramStage { BeforeLibrary, AfterLibrary };

/// Declares a module pass without parameters.
#define ISS_PLAIN_MODULE_PASS(CLASS)                                           \
  class CLASS : public llvm::PassInfoMixin<CLASS> {                            \
  public:                                                                      \
    llvm::PreservedAnalyses run(llvm::Module &M,                               \
                                llvm::ModuleAnalysisManager &);                \
  }

/// iss-printf: each call of printf becomes a call of the kernel library's
/// __pocl_printf(buffer, position, capacity, format, ...), the first three
/// loaded from the printf-buffer globals, the format in address space 2
/// (DESIGN.md section 3); printf's declaration goes.
ISS_PLAIN_MODULE_PASS(PrintfPass);

/// iss-sampler-init: each call of __translate_sampler_initializer(bits),
/// Clang's form of a sampler_t constant, becomes the bits as a pointer
/// constant, the library's dev_sampler_t (Frontend/SamplerInitializer.cpp).
ISS_PLAIN_MODULE_PASS(SamplerInitializerPass);

/// iss-array-layers: before each sampled read of an image array with float
/// coordinates, the layer is divided by the array size when the sampler's
/// coordinates are normalized, which pocl 3.1's library undoes by scaling
/// the whole coordinate (Frontend/ImageArrayLayers.cpp).
ISS_PLAIN_MODULE_PASS(ImageArrayLayersPass);

/// iss-missing-alpha: once the library is linked, each read_image* of four
/// elements returns an alpha of 1 when the image's order is CL_R, which the
/// library leaves 0 at the border and in integer reads
/// (Frontend/MissingAlpha.cpp).
ISS_PLAIN_MODULE_PASS(MissingAlphaPass);

/// iss-image-align: once the library is linked, every vector load and
/// store of the functions the image builtins reach gets the alignment of
/// its element, which an image over the application's memory may have
/// only (Frontend/ImageAccessAlignment.cpp).
ISS_PLAIN_MODULE_PASS(ImageAccessAlignmentPass);

/// iss-half-images: once the library is linked, its one-channel float
/// pixel read and write (pocl_read_pixel_fast_f, write_float_pixel) get
/// the CL_HALF_FLOAT case pocl 3.1 lacks, in front
/// (Frontend/SingleChannelHalf.cpp).
ISS_PLAIN_MODULE_PASS(SingleChannelHalfPass);

/// iss-rint: once the library is linked, its rounding to nearest even
/// (SLEEF's rint, inlined into rint, the convert_*_rte and the image
/// writes) becomes llvm.rint on targets with SSE 4.1
/// (Frontend/RoundToEven.cpp).
ISS_PLAIN_MODULE_PASS(RoundToEvenPass);

#undef ISS_PLAIN_MODULE_PASS

/// The kernel \p C names, or null when \p M does not define it (the passes
/// then leave \p M alone).
llvm::Function *kernelToProcess(llvm::Module &M, const WorkGroupConfig &C);

/// A distinct loop ID for a latch's llvm.loop: the self reference, then
/// \p Hints.
llvm::MDNode *makeLoopID(llvm::LLVMContext &C,
                         llvm::ArrayRef<llvm::Metadata *> Hints);
/// The loop hint !{!"Name"}.
llvm::MDNode *loopHint(llvm::LLVMContext &C, llvm::StringRef Name);
/// Appends to \p Hints what keeps LLVM's full unroller, which runs before
/// the loop vectorizer, off a loop of a few vector iterations, and leaves
/// what the vectorizer makes of it to the unroller as without them:
/// llvm.loop.unroll.disable, and followups with the vectorized loop's and
/// its remainder's own hints (a remainder is rarely run).
void appendVectorizeBeforeUnroll(
    llvm::LLVMContext &C, llvm::SmallVectorImpl<llvm::Metadata *> &Hints);

/// The function analyses of \p M's functions.
llvm::FunctionAnalysisManager &functionAnalyses(llvm::Module &M,
                                                llvm::ModuleAnalysisManager &MAM);

/// The linear local id of the calling work-item in loopOrder(), from loads
/// of _local_id_{x,y,z} that iss-wi-loops replaces with the loop counters.
llvm::Value *emitLinearLocalId(llvm::IRBuilderBase &B,
                               const WorkGroupConfig &Config);

/// In a function of the work-group ABI (WorkGroupABI.h) whose arguments are
/// \p Args and \p CtxArg, at \p B: the value of the kernel's argument
/// \p KernelValue (from its slot) or of a work-item global other than the
/// local ids, or of the scratch global (from the context); null for
/// anything else.
llvm::Value *loadKernelInput(llvm::IRBuilderBase &B,
                             const WorkGroupConfig &Config,
                             llvm::Argument *Args, llvm::Argument *CtxArg,
                             llvm::Value *KernelValue);

/// The same for the work-item global WorkItemGlobals[\p G] (3 <= G < 19),
/// or the scratch global (G = 19).
llvm::Value *loadWorkItemGlobal(llvm::IRBuilderBase &B,
                                const WorkGroupConfig &Config,
                                llvm::Argument *CtxArg, unsigned G);

/// The array of POCL_ISS_STATS counters of a kernel's pieces, of subkernel
/// \p Subkernel while iss-subkernels builds it (-1: the kernel's).
std::string piecesSymbol(llvm::StringRef Kernel, int Subkernel);

/// The named metadata the work-group passes leave for the pipeline
/// (iss.subkernels, iss.context, iss.pieces) has one node per kernel (or
/// per subkernel, piece) whose first operand is the kernel's name: whether
/// \p N is one of \p Kernel's, and its integer operand \p Op.
bool isNodeOf(const llvm::MDNode *N, llvm::StringRef Kernel);
uint64_t mdInt(const llvm::MDNode *N, unsigned Op);

/// Attributes of the subkernels for Pipeline.cpp: the vector width (lanes
/// of 32 bits) they were built for, and whether they are scalar.
extern const char *const VectorWidthAttr;
extern const char *const ScalarAttr;
/// The kernel, and then its one subkernel, run as written (iss-as-written).
extern const char *const AsWrittenAttr;

/// A work-item's register operations (of Config.VectorWidth * 32 bits),
/// weighted by the blocks' estimated frequencies, as the kernel is written
/// and with the work-item loop widened by Lanes work-items (AsWritten.cpp).
struct WideningCost {
  double Written = 0, Widened = 0;
  unsigned Lanes = 1;
};
WideningCost wideningCost(llvm::Function &F, const WorkGroupConfig &Config,
                          llvm::FunctionAnalysisManager &FAM);

/// The four analysis managers of the new pass manager, registered with a
/// PassBuilder and cross-linked the way opt sets them up.
struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  explicit AnalysisManagers(llvm::PassBuilder &PB);
};

/// The work-group passes (the front half, then input space splitting and
/// the subkernels, then, with \p ReadyForO3, their preparation for O3)
/// for \p Config as a textual pipeline: the passes of PassRegistry.def in
/// its order, those its third column selects. The compile runs it, then
/// O3. `-passes=iss-workgroup` names it in pocl-iss-opt, with \p Config
/// from the iss-* options.
std::string workGroupPipeline(const WorkGroupConfig &Config,
                              bool ReadyForO3 = true);
/// Adds workGroupPipeline(\p Config, \p ReadyForO3) to \p MPM, as the
/// compile runs it; FrontHalfTest runs the same. An error only where the
/// registry's names do not parse.
llvm::Error addWorkGroupPasses(llvm::ModulePassManager &MPM,
                               const WorkGroupConfig &Config,
                               bool ReadyForO3 = true);

/// Runs on \p M the pass named \p Name of those of PassRegistry.def that
/// build a work-group function (ISS_BUILDER_PASS), made for \p Config, and
/// invalidates what it changed; false if \p Name is none of them.
bool runBuilderPass(llvm::StringRef Name, const WorkGroupConfig &Config,
                    llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
/// The program build's passes of \p Stage as a textual pipeline: the
/// ISS_PROGRAM_PASS entries of PassRegistry.def of that stage, in its
/// order. `-passes=iss-before-library` and `iss-after-library` name them
/// in pocl-iss-opt.
std::string programPipeline(ProgramStage Stage);
/// Adds programPipeline(\p Stage) to \p MPM, as the program build runs
/// it. An error only where the registry's names do not parse.
llvm::Error addProgramPasses(llvm::ModulePassManager &MPM, ProgramStage Stage);

/// Lets \p PB parse the names in PassRegistry.def in pipelines, their
/// passes made for \p Config (and `iss-workgroup`, the whole work-group
/// pipeline, `iss-before-library` and `iss-after-library`, the program
/// build's two); \p PB must outlive its parses.
void registerIssPasses(llvm::PassBuilder &PB, const WorkGroupConfig &Config);
/// The same, \p Config from the iss-* command-line options (pocl-iss-opt).
void registerIssPasses(llvm::PassBuilder &PB);

/// The names of the 19 work-item globals of pocl's kernel library.
extern const char *const WorkItemGlobals[19];

/// The attribute iss-prepare gives the functions inlined only after the
/// work-item loops exist (see HoistUniformCallsPass).
extern const char *const InlineLateAttr;

/// The global iss-context reads the work group's scratch memory from, for
/// private arrays and context arrays too big for the worker's stack;
/// iss-wi-loops replaces its loads by the context's `scratch` field.
extern const char *const ScratchGlobal;

} // namespace iss

#endif // POCL_ISS_COMPILER_PASSES_H
