//===- WorkItemModel.cpp - Polyhedral model of the parallel regions -------===//
// SPDX-License-Identifier: MIT
//
// WorkItemModel (see WorkItemModel.h), the input-space-splitting paper,
// sections 2.1 and 5 (Table 2 for the OpenCL calls). Values are translated
// to isl piecewise affine functions from the IR where the IR's nsw flags
// and casts say more than ScalarEvolution keeps, and through
// ScalarEvolution for the kernel loops' induction variables and for the
// rest; domains are built block by block, loops bounded by their affine
// exits as Polly bounds them.
//
//===----------------------------------------------------------------------===//

#include "Splitting/WorkItemModel.h"
#include "Analysis/Barriers.h"
#include "Analysis/Uniformity.h"
#include "Passes.h"
#include "Splitting/IslExprEmitter.h"
#include "Splitting/SplittingPredicates.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/SaveAndRestore.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>

using namespace llvm;

#define DEBUG_TYPE "iss-model"

// An isl operation is no fixed time: 4 * 10^6 of them took 3.9 s on an
// image kernel that was then not modelled, 10^6 at most 0.9 s. No region
// of the tests' and benchmarks' kernels is modelled or split otherwise
// under 10^6 (doc/design-notes.md, "isl quotas").
static cl::opt<unsigned long>
    MaxOps("iss-model-max-ops",
           cl::desc("isl operations allowed per parallel region in the model"),
           cl::init(1000000));

static cl::list<unsigned>
    ModelDims("iss-model-dims", cl::CommaSeparated,
              cl::desc("Dimensions print<iss-model> shows predicates for"));

namespace iss {

AnalysisKey WorkItemModelAnalysis::Key;

namespace {

const char *const DimNames[3] = {"x", "y", "z"};

/// The local size from the kernel's "iss-local-size" attribute ("x,y,z").
bool localSizeOf(const Function &F, unsigned Size[3]) {
  Size[0] = Size[1] = Size[2] = 1;
  if (!F.hasFnAttribute("iss-local-size"))
    return false;
  StringRef S = F.getFnAttribute("iss-local-size").getValueAsString();
  for (unsigned D = 0; D < 3 && !S.empty(); ++D) {
    auto [Head, Tail] = S.split(',');
    if (Head.getAsInteger(10, Size[D]) || Size[D] == 0)
      Size[D] = 1;
    S = Tail;
  }
  return true;
}

/// A name isl can print and parse back.
std::string islName(StringRef S) {
  std::string R;
  for (char C : S)
    R += isAlnum(C) || C == '_' ? C : '_';
  if (R.empty() || isDigit(R[0]))
    R = "v" + R;
  return R;
}

/// A value that must lie in [Lo, Hi] for the model to be exact.
struct RangeCheck {
  isl::pw_aff PA;
  isl::val Lo, Hi;
};

/// A translated integer value: exact where its checks hold.
struct Expr {
  isl::pw_aff PA;
  SmallVector<RangeCheck, 1> Checks;
};

/// A translated condition: \p Over holds wherever it may be true, \p Under
/// only where it surely is (both the same when affine).
struct Cond {
  isl::set Over, Under;
  SmallVector<RangeCheck, 1> Checks;
  bool Affine = true;
};

/// The kernel loops around a block and the isl space of its instances.
struct Scope {
  SmallVector<Loop *, 2> Loops; ///< outermost first
  Loop *LLVMLoop = nullptr;     ///< the innermost loop around the block
  isl::space Space;
};

} // namespace

class WorkItemModel::Builder {
public:
  Builder(WorkItemModel &M, Function &F, ScalarEvolution &SE, LoopInfo &LI,
          ArrayRef<const WorkItemUniformity *> Uniform)
      : M(M), F(F), SE(SE), LI(LI), UD(Uniform), Ctx(M.ctx()),
        DL(F.getParent()->getDataLayout()) {}

  void build();

private:
  // Parameters and spaces.
  isl::id paramId(ModelParam::Kind K, unsigned Dim, Value *V);
  isl::pw_aff paramOn(const Scope &S, ModelParam::Kind K, unsigned Dim,
                      Value *V = nullptr);
  isl::pw_aff constant(const Scope &S, int64_t C);
  isl::pw_aff var(const Scope &S, unsigned Pos);
  bool isKernelLoop(Loop *L);
  const Scope &scopeOf(BasicBlock *BB);
  const Scope &scopeFor(Loop *L);
  isl::map projection(const Scope &Inner, const Scope &Outer);

  // Translation.
  std::optional<Expr> value(Value *V, const Scope &S);
  std::optional<Expr> valueImpl(Value *V, const Scope &S);
  std::optional<Expr> loopCounter(PHINode *P, const Scope &S);
  std::optional<Expr> opaque(Value *V, const Scope &S);
  std::optional<Expr> scev(const SCEV *E, const Scope &S);
  std::optional<Expr> scevImpl(const SCEV *E, const Scope &S);
  Cond condition(Value *C, const Scope &S);
  Cond conditionImpl(Value *C, const Scope &S);
  Cond compare(CmpInst::Predicate P, Value *A, Value *B, const Scope &S);
  Cond edgeCondition(Instruction *T, BasicBlock *To, const Scope &S);
  void addToContext(const ModelParam &New);
  void buildOffsetFree();
  bool needInRange(Expr &E, const isl::pw_aff &V, const Scope &S, unsigned Bits,
                   bool NonNegative);
  bool applyChecks(ArrayRef<RangeCheck> Checks, isl::set Domain);
  /// Whether one of \p Checks is on a value with an opaque parameter.
  bool checksOpaque(ArrayRef<RangeCheck> Checks) const {
    for (const RangeCheck &C : Checks)
      for (const isl::id &Id : M.opaqueParams())
        if (C.PA.involves_param(Id).is_true())
          return true;
    return false;
  }
  unsigned uniformDims(Value *V) const;
  unsigned liveDims() const;
  unsigned uniformBase(Value *Base) const;
  bool inCallee(Value *V) const;
  std::optional<Expr> call(CallInst *CI, const Scope &S);

  // Regions.
  void buildRegion(RegionModel &R);
  bool orderRegion(RegionModel &R, ArrayRef<BasicBlock *> Blocks);
  void processScope(RegionModel &R, Loop *L, ArrayRef<BasicBlock *> Blocks);
  isl::set edgeDomain(BasicBlock *From, BasicBlock *To, bool &Exact);
  isl::set toScope(isl::set S, const Scope &From, const Scope &To);
  void collect(RegionModel &R);

  WorkItemModel &M;
  Function &F;
  ScalarEvolution &SE;
  LoopInfo &LI;
  ArrayRef<const WorkItemUniformity *> UD;
  isl::ctx Ctx;
  const DataLayout &DL;
  bool ContextDone = false; ///< whether allocas are work-group homes

  DenseMap<std::pair<int, std::pair<unsigned, Value *>>, isl::id> ParamIds;
  DenseMap<Loop *, bool> KernelLoops;
  DenseMap<Loop *, std::unique_ptr<Scope>> Scopes;
  std::unique_ptr<Scope> TopScope;
  DenseMap<std::pair<Value *, Loop *>, std::optional<Expr>> Values;
  /// Translating an i64 address index (collect): 64-bit additions,
  /// subtractions and multiplications there may wrap (see valueImpl), and
  /// their translations are memoized apart.
  bool Modular = false;
  DenseMap<std::pair<Value *, Loop *>, std::optional<Expr>> ModularValues;
  DenseMap<std::pair<const SCEV *, Loop *>, std::optional<Expr>> Scevs;
  DenseMap<std::pair<Value *, Loop *>, Cond> Conds;
  DenseSet<Value *> Pending;
  /// The parameters where a checked value leaves its range somewhere in
  /// the work-item box, per value.
  struct BoxCheck {
    isl::pw_aff PA;
    isl::val Lo, Hi;
    isl::set Bad;
    /// The same, the opaque parameters kept (their values somewhere).
    isl::set BadOpaque;
    bool Assumed; ///< its Bad is out of the assumptions already
  };
  std::vector<BoxCheck> BoxChecks;
  /// The calls being translated, innermost last: the callee's arguments
  /// and what its values translated to at this call.
  struct Frame {
    DenseMap<Value *, std::optional<Expr>> Values;
  };
  SmallVector<Frame, 2> Frames;

  // Per region.
  BasicBlock *RegionEntry = nullptr;
  DenseSet<BasicBlock *> InRegion;
  DenseMap<BasicBlock *, isl::set> Dom;
  DenseMap<BasicBlock *, bool> Exact;
};

//===----------------------------------------------------------------------===//
// Parameters and spaces
//===----------------------------------------------------------------------===//

isl::id WorkItemModel::Builder::paramId(ModelParam::Kind K, unsigned Dim,
                                        Value *V) {
  auto Key = std::make_pair(int(K), std::make_pair(Dim, V));
  auto It = ParamIds.find(Key);
  if (It != ParamIds.end())
    return It->second;
  auto P = std::make_unique<ModelParam>();
  P->K = K;
  P->Dim = Dim;
  P->V = V;
  std::string Name;
  switch (K) {
  case ModelParam::GroupOffset:
    Name = std::string("O_") + DimNames[Dim];
    break;
  case ModelParam::GroupId:
    Name = std::string("G_") + DimNames[Dim];
    break;
  case ModelParam::NumGroups:
    Name = std::string("N_") + DimNames[Dim];
    break;
  case ModelParam::WorkDim:
    Name = "work_dim";
    break;
  case ModelParam::Argument:
    Name = V->hasName() ? islName(V->getName())
                        : "arg" + std::to_string(cast<Argument>(V)->getArgNo());
    break;
  case ModelParam::Derived:
    Name = V->hasName() ? islName(V->getName())
                        : "p" + std::to_string(M.Params.size());
    break;
  case ModelParam::Opaque:
    Name = "u_" + (V->hasName() ? islName(V->getName())
                                : std::to_string(M.Params.size()));
    break;
  }
  // Names must stay unique: isl tells parameters apart by name and user.
  // A parameter made after the region's isl quota ran out has no id (the
  // region is then dropped and the parameter with it).
  for (const auto &Other : M.Params)
    if (!Other->Id.is_null() && Other->Id.get_name() == Name) {
      Name += "_" + std::to_string(M.Params.size());
      break;
    }
  P->Id = isl::id::alloc(Ctx, Name, P.get());
  isl::id Id = P->Id;
  M.Params.push_back(std::move(P));
  ParamIds[Key] = Id;
  addToContext(*M.Params.back());
  return Id;
}

isl::pw_aff WorkItemModel::Builder::paramOn(const Scope &S, ModelParam::Kind K,
                                            unsigned Dim, Value *V) {
  isl::id Id = paramId(K, Dim, V);
  return isl::pw_aff(S.Space.add_param(Id).param_aff_on_domain(Id));
}

isl::pw_aff WorkItemModel::Builder::constant(const Scope &S, int64_t C) {
  return isl::pw_aff(
      isl::aff(isl::local_space(S.Space), isl::val(Ctx, long(C))));
}

isl::pw_aff WorkItemModel::Builder::var(const Scope &S, unsigned Pos) {
  return isl::pw_aff(
      isl::aff::var_on_domain(isl::local_space(S.Space), isl::dim::set, Pos));
}

/// A kernel loop of a region: one without a barrier (loops with barriers
/// span several regions and are run by the work-group function itself).
bool WorkItemModel::Builder::isKernelLoop(Loop *L) {
  auto It = KernelLoops.find(L);
  if (It != KernelLoops.end())
    return It->second;
  bool Yes = true;
  for (BasicBlock *BB : L->blocks())
    if (isBarrierBlock(*BB)) {
      Yes = false;
      break;
    }
  KernelLoops[L] = Yes;
  return Yes;
}

const Scope &WorkItemModel::Builder::scopeOf(BasicBlock *BB) {
  return scopeFor(LI.getLoopFor(BB));
}

const Scope &WorkItemModel::Builder::scopeFor(Loop *L) {
  std::unique_ptr<Scope> &Slot = L ? Scopes[L] : TopScope;
  if (Slot)
    return *Slot;
  Slot = std::make_unique<Scope>();
  Scope &S = *Slot;
  S.LLVMLoop = L;
  for (Loop *P = L; P && isKernelLoop(P); P = P->getParentLoop())
    S.Loops.insert(S.Loops.begin(), P);
  unsigned N = 3 + S.Loops.size();
  isl::space Sp(Ctx, 0, N);
  std::string Tuple =
      S.Loops.empty() ? "WI" : islName(S.Loops.back()->getHeader()->getName());
  if (S.Loops.size() && Tuple == "WI")
    Tuple = "WI_loop";
  Sp = Sp.set_tuple_id(isl::dim::set, isl::id(Ctx, Tuple));
  for (unsigned I = 0; I < N; ++I)
    Sp = Sp.set_dim_id(isl::dim::set, I,
                       isl::id(Ctx, I < 3 ? std::string(DimNames[I])
                                          : "k" + std::to_string(I - 3)));
  S.Space = Sp;
  return S;
}

/// { Inner[x, y, z, k...] -> Outer[x, y, z, k'...] }, the prefix of the
/// counters that Outer has.
isl::map WorkItemModel::Builder::projection(const Scope &Inner,
                                            const Scope &Outer) {
  unsigned NI = 3 + Inner.Loops.size(), NO = 3 + Outer.Loops.size();
  assert(NO <= NI && "projection to a deeper scope");
  (void)NI;
  isl::map Map =
      isl::map::universe(Inner.Space.map_from_domain_and_range(Outer.Space));
  for (unsigned I = 0; I < NO; ++I)
    Map = Map.equate(isl::dim::in, I, isl::dim::out, I);
  return Map;
}

/// \p S over \p From's space, seen from \p To: the counters of loops left
/// are projected out, those of loops entered are left free.
isl::set WorkItemModel::Builder::toScope(isl::set S, const Scope &From,
                                         const Scope &To) {
  if (&From == &To)
    return S;
  // The common prefix of loops.
  unsigned Common = 0;
  while (Common < From.Loops.size() && Common < To.Loops.size() &&
         From.Loops[Common] == To.Loops[Common])
    ++Common;
  if (Common == From.Loops.size() && Common == To.Loops.size()) {
    // Same loops, other LLVM loop (a loop with a barrier in between).
    return S.set_tuple_id(To.Space.get_tuple_id(isl::dim::set));
  }
  const Scope &Mid = scopeFor(
      Common ? From.Loops[Common - 1]
             : (From.Loops.empty() ? From.LLVMLoop
                                   : From.Loops.front()->getParentLoop()));
  isl::set Down = S;
  if (From.Loops.size() > Common)
    Down = S.apply(projection(From, Mid));
  else
    Down = S.set_tuple_id(Mid.Space.get_tuple_id(isl::dim::set));
  if (To.Loops.size() > Common)
    return Down.apply(projection(To, Mid).reverse());
  return Down.set_tuple_id(To.Space.get_tuple_id(isl::dim::set));
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// Adds to \p E the check that \p V stays within the signed range of
/// \p Bits bits (within [0, max] with \p NonNegative), unless that holds
/// for every instance and parameter whatever the loop counters. False when
/// it can never hold.
bool WorkItemModel::Builder::needInRange(Expr &E, const isl::pw_aff &V,
                                         const Scope &S, unsigned Bits,
                                         bool NonNegative) {
  if (Bits > 64)
    return false;
  long HiV = Bits == 64 ? INT64_MAX : (int64_t(1) << (Bits - 1)) - 1;
  long LoV = NonNegative ? 0 : (Bits == 64 ? INT64_MIN : -HiV - 1);
  isl::val Lo(Ctx, LoV), Hi(Ctx, HiV);
  // An affine value of the ids in closed form (paramsOutsideOnBox).
  isl::set Outside = paramsOutsideOnBox(
      V, Lo, Hi,
      {long(M.LocalSize[0]), long(M.LocalSize[1]), long(M.LocalSize[2])});
  if (!Outside.is_null()) {
    isl::boolean Empty = Outside.intersect(M.Context).is_empty();
    if (Empty.is_error())
      return false;
    if (!Empty.is_true())
      E.Checks.push_back({V, Lo, Hi});
    return true;
  }
  // Where the work-item ids range and the loop counters do not wrap.
  isl::set Where = isl::set::universe(S.Space);
  for (unsigned D = 0; D < 3; ++D)
    Where = Where.lower_bound_val(isl::dim::set, D, 0L)
                .upper_bound_val(isl::dim::set, D, long(M.LocalSize[D] - 1));
  for (unsigned I = 0; I < S.Loops.size(); ++I)
    Where = Where.lower_bound_val(isl::dim::set, 3 + I, 0L);
  isl::pw_aff LoPA(Where, Lo), HiPA(Where, Hi);
  isl::set Out = V.lt_set(LoPA).unite(V.gt_set(HiPA));
  Out = Out.intersect(Where).intersect_params(M.Context);
  isl::boolean Empty = Out.is_empty();
  if (Empty.is_true())
    return true;
  if (Empty.is_error())
    return false;
  E.Checks.push_back({V, Lo, Hi});
  return true;
}

/// Whether the checks of a value used by the instances \p Domain hold, or
/// can be assumed (then they are added to the assumptions).
bool WorkItemModel::Builder::applyChecks(ArrayRef<RangeCheck> Checks,
                                         isl::set Domain) {
  if (Checks.empty())
    return true;
  isl::set Assumed = M.Assumed, OpaqueAssumed = M.OpaqueAssumed;
  SmallVector<isl::id, 4> Opaque = M.opaqueParams();
  // Whether \p B involves opaque parameters, all of them recomputable.
  auto Recomputable = [&](const isl::set &B) {
    bool Any = false;
    for (const isl::id &Id : Opaque)
      if (involvesParam(B, Id)) {
        if (!WorkItemModel::param(Id)->Recomputable)
          return false;
        Any = true;
      }
    return Any;
  };
  bool Changed = false;
  // The assumption per work-item that \p B, parameters where a value
  // overflows, do not hold: taken where its opaque parameters can be
  // recomputed and some parameters satisfy it.
  auto AssumePerWorkItem = [&](const isl::set &B) {
    if (!Recomputable(B))
      return false;
    isl::set With = OpaqueAssumed.subtract(B).coalesce();
    if (!With.intersect(Assumed).intersect(M.Context).is_empty().is_false())
      return false;
    OpaqueAssumed = With;
    Changed = true;
    return true;
  };
  // Where it overflows for some value of the opaque parameters: the
  // assumption must hold whatever they are.
  auto BadParams = [&](isl::set B) {
    B = B.params();
    for (const isl::id &Id : Opaque)
      if (involvesParam(B, Id))
        B = B.project_out_param(Id);
    return B;
  };
  for (const RangeCheck &C : Checks) {
    // First the parameters where it overflows somewhere in the work-item
    // box: the simplest condition to check at run time, and the same for
    // every use of the value, so computed once. Compared by plainIsEqual:
    // the binding's plain_is_equal converts both sides to multi_pw_aff
    // (SobelFilter's 189 lookups took as long as its 24 checks' gists).
    auto Cached = find_if(BoxChecks, [&](const BoxCheck &O) {
      return O.Lo.eq(C.Lo).is_true() && O.Hi.eq(C.Hi).is_true() &&
             plainIsEqual(O.PA, C.PA);
    });
    if (Cached == BoxChecks.end()) {
      // In closed form where the value is affine in the ids (a stencil's
      // neighbours are each a few additions), projected from the box
      // otherwise.
      isl::set Out = paramsOutsideOnBox(
          C.PA, C.Lo, C.Hi,
          {long(M.LocalSize[0]), long(M.LocalSize[1]), long(M.LocalSize[2])});
      bool Closed = !Out.is_null();
      if (!Closed) {
        isl::set Box = isl::set::universe(C.PA.domain_space());
        for (unsigned D = 0; D < 3; ++D)
          Box =
              Box.lower_bound_val(isl::dim::set, D, 0L)
                  .upper_bound_val(isl::dim::set, D, long(M.LocalSize[D] - 1));
        Out = C.PA.lt_set(isl::pw_aff(Box, C.Lo))
                  .unite(C.PA.gt_set(isl::pw_aff(Box, C.Hi)))
                  .intersect(Box)
                  .intersect_params(M.Context)
                  .params();
      } else {
        Out = Out.align_params(M.Context.space());
      }
      // Gisted: the constraints that the context implies stay out of the
      // assumptions (they are as small as the run-time check). Without
      // opaque parameters both sets are the same, gisted once. On the
      // light context, without the 64-bit ranges, a superset of the
      // context: the same set wherever the parameters can be, and a fifth
      // less of SobelFilter's checks' cost.
      isl::set Gisted = Out.gist(M.LightContext).coalesce();
      bool AnyOpaque = any_of(
          Opaque, [&](const isl::id &Id) { return involvesParam(Out, Id); });
      // Projecting the opaque parameters out needs their bounds (the
      // closed form has none).
      BoxChecks.push_back(
          {C.PA, C.Lo, C.Hi,
           AnyOpaque ? BadParams(Closed ? Out.intersect(M.Context) : Out)
                           .gist(M.Context)
                           .coalesce()
                     : Gisted,
           Gisted, false});
      Cached = BoxChecks.end() - 1;
    }
    // The assumptions only grow: once assumed, always.
    if (Cached->Assumed)
      continue;
    // Where it depends on opaque parameters, of the values the work-items
    // have of them (see below) first: whatever they are, it would hold
    // only where they cannot reach the bounds (FloydWarshall's
    // y * n + pass: for pass = 0 alone).
    if (AssumePerWorkItem(Cached->BadOpaque)) {
      Cached->Assumed = true;
      continue;
    }
    // An assumption that leaves only parameters where the instances do not
    // run is of no use: the check would fail wherever they do, and the
    // region would always run unsplit (kmeans' l * n + id, l a loop
    // counter): rather a value that is not affine.
    isl::set Runs = Domain.params().intersect(M.Context);
    auto Vacuous = [&](const isl::set &A) {
      return !A.intersect(Runs).is_empty().is_false();
    };
    isl::set Simple = Assumed.subtract(Cached->Bad);
    if (!Vacuous(Simple)) {
      Assumed = Simple.coalesce();
      Cached->Assumed = true;
      Changed = true;
      continue;
    }
    // The exact condition: where it overflows on these instances.
    // The bounds on the universe: on Domain, the comparison would meet
    // its pieces with the value's, and the result be met with it again
    // (half of kmeans' exact checks).
    isl::set Any = isl::set::universe(Domain.space());
    isl::pw_aff LoPA(Any, C.Lo), HiPA(Any, C.Hi);
    isl::set Bad = C.PA.lt_set(LoPA).unite(C.PA.gt_set(HiPA));
    Bad = Bad.intersect(Domain).intersect_params(M.Context);
    isl::boolean Empty = Bad.is_empty();
    if (Empty.is_true())
      continue;
    if (Empty.is_error())
      return false;
    // Projected to the parameters once, for both uses below.
    isl::set BadP = Bad.params();
    isl::set Without =
        Assumed.subtract(BadParams(BadP).gist(M.Context)).coalesce();
    Changed = true;
    // Overflowing for some values of opaque parameters: assumed of the
    // values the work-items have, when each can be recomputed to check it
    // (whatever they are, the assumption would leave only the parameters
    // where the instances do not run, or none). Gisted only where it may
    // involve one: the gist drops parameters, never adds them.
    if (any_of(Opaque,
               [&](const isl::id &Id) { return involvesParam(BadP, Id); }) &&
        AssumePerWorkItem(BadP.gist(M.Context)))
      continue;
    if (Vacuous(Without))
      return false;
    Assumed = Without;
  }
  if (!Changed)
    return true;
  isl::boolean None =
      Assumed.intersect(OpaqueAssumed).intersect(M.Context).is_empty();
  if (!None.is_false())
    return false;
  M.Assumed = Assumed;
  M.OpaqueAssumed = OpaqueAssumed;
  return true;
}

std::optional<Expr> WorkItemModel::Builder::value(Value *V, const Scope &S) {
  if (!Frames.empty() && inCallee(V)) {
    auto &Memo = Frames.back().Values;
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    if (isa<Argument>(V))
      return std::nullopt;
    std::optional<Expr> R = valueImpl(V, S);
    Memo[V] = R;
    return R;
  }
  auto Key = std::make_pair(V, S.LLVMLoop);
  auto &Memo = Modular ? ModularValues : Values;
  auto It = Memo.find(Key);
  if (It != Memo.end())
    return It->second;
  if (!Pending.insert(V).second)
    return opaque(V, S);
  std::optional<Expr> R = valueImpl(V, S);
  if (!R)
    R = opaque(V, S);
  Pending.erase(V);
  (Modular ? ModularValues : Values)[Key] = R;
  return R;
}

/// The dimensions along which \p V is the same (bit d: for work-items that
/// differ in d only); those of one work-item are always.
unsigned WorkItemModel::Builder::uniformDims(Value *V) const {
  unsigned R = 0;
  for (unsigned D = 0; D < 3; ++D)
    if (M.LocalSize[D] <= 1 || !UD[D] || UD[D]->isUniform(V))
      R |= 1u << D;
  return R;
}

unsigned WorkItemModel::Builder::liveDims() const {
  unsigned R = 0;
  for (unsigned D = 0; D < 3; ++D)
    if (M.LocalSize[D] > 1)
      R |= 1u << D;
  return R;
}

bool WorkItemModel::Builder::inCallee(Value *V) const {
  if (auto *I = dyn_cast<Instruction>(V))
    return I->getFunction() != &F;
  if (auto *A = dyn_cast<Argument>(V))
    return A->getParent() != &F;
  return false;
}

static bool isParameterExpression(const Value *V, const Function &F,
                                  unsigned &Budget, bool LocalIds = false);

/// A value that is not affine but the same along some dimensions: a
/// parameter that the predicates of those dimensions quantify away.
std::optional<Expr> WorkItemModel::Builder::opaque(Value *V, const Scope &S) {
  if (!V->getType()->isIntegerTy() || isa<Constant>(V) || inCallee(V) ||
      V->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned Varies = liveDims() & ~uniformDims(V);
  if (Varies && Varies == liveDims())
    return std::nullopt;
  paramId(ModelParam::Opaque, 0, V);
  unsigned Budget = 16;
  bool Recomputable = isParameterExpression(V, F, Budget, /*LocalIds=*/true);
  for (auto &P : M.Params)
    if (P->K == ModelParam::Opaque && P->V == V) {
      P->VariesWith = Varies;
      P->Recomputable = Recomputable;
    }
  return Expr{paramOn(S, ModelParam::Opaque, 0, V), {}};
}

/// A load of the local id of a dimension.
static bool isLocalIdLoad(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  const auto *GV =
      L ? dyn_cast<GlobalVariable>(L->getPointerOperand()) : nullptr;
  return GV && !L->isVolatile() &&
         is_contained(ArrayRef<const char *>(WorkItemGlobals, 3),
                      GV->getName());
}

/// A load of a work-item global other than a local id.
static bool isWorkGroupGlobalLoad(const Value *V) {
  const auto *L = dyn_cast<LoadInst>(V);
  if (!L || L->isVolatile())
    return false;
  const auto *GV = dyn_cast<GlobalVariable>(L->getPointerOperand());
  if (!GV)
    return false;
  for (unsigned G = 3; G < 16; ++G)
    if (GV->getName() == WorkItemGlobals[G])
      return true;
  return false;
}

/// Whether \p V is computed from the kernel's arguments, constants and
/// work-group values alone (and the local ids, with \p LocalIds), by a few
/// instructions without side effects that cannot trap.
static bool isParameterExpression(const Value *V, const Function &F,
                                  unsigned &Budget, bool LocalIds) {
  if (isa<ConstantInt>(V))
    return true;
  if (const auto *A = dyn_cast<Argument>(V))
    return A->getParent() == &F && A->getType()->isIntegerTy();
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || I->getFunction() != &F || Budget == 0)
    return false;
  --Budget;
  if (isWorkGroupGlobalLoad(I) || (LocalIds && isLocalIdLoad(I)))
    return true;
  if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<CmpInst>(I) &&
      !isa<SelectInst>(I))
    return false;
  if (I->getOpcode() == Instruction::SDiv ||
      I->getOpcode() == Instruction::UDiv ||
      I->getOpcode() == Instruction::SRem ||
      I->getOpcode() == Instruction::URem)
    if (!isa<ConstantInt>(I->getOperand(1)) ||
        cast<ConstantInt>(I->getOperand(1))->isZero())
      return false; // no division by a value that may be 0 moved up
  for (const Value *Op : I->operands())
    if (!isParameterExpression(Op, F, Budget, LocalIds))
      return false;
  return true;
}

std::optional<Expr> WorkItemModel::Builder::valueImpl(Value *V,
                                                      const Scope &S) {
  Type *Ty = V->getType();
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned Bits = Ty->getIntegerBitWidth();
  if (auto *C = dyn_cast<ConstantInt>(V))
    return Expr{constant(S, C->getSExtValue()), {}};
  if (auto *A = dyn_cast<Argument>(V))
    return Expr{paramOn(S, ModelParam::Argument, 0, A), {}};
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return std::nullopt;
  // An address is computed modulo 2^64: where a 64-bit addition,
  // subtraction or multiplication of an index wraps, it changes the index
  // by a multiple of 2^64, and so the address not at all. In an index (and
  // in the ring operations under it, down to the first other operation)
  // they are exact without nsw: `y * width + x` in size_t, y * width an
  // opaque parameter, is consecutive along x.
  unsigned Op = I->getOpcode();
  bool Ring = Bits == 64 && (Op == Instruction::Add || Op == Instruction::Sub ||
                             Op == Instruction::Mul || Op == Instruction::Shl ||
                             Op == Instruction::Freeze);
  SaveAndRestore<bool> InIndex(Modular, Modular && Ring);
  bool Wraps = Modular;

  // A non-linear function of the parameters alone: a parameter of its own,
  // affine where a product is not, simpler for isl than the pieces of a
  // division (the split pass recomputes it).
  switch (I->getOpcode()) {
  case Instruction::Mul:
  case Instruction::Shl:
    if (isa<ConstantInt>(I->getOperand(0)) ||
        isa<ConstantInt>(I->getOperand(1)))
      break;
    [[fallthrough]];
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
  case Instruction::AShr:
  case Instruction::LShr:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor: {
    unsigned Budget = 16;
    if (!inCallee(I) && isParameterExpression(I, F, Budget))
      return Expr{paramOn(S, ModelParam::Derived, 0, I), {}};
    break;
  }
  default:
    break;
  }

  auto Both = [&](Value *A, Value *B) -> std::optional<std::pair<Expr, Expr>> {
    auto EA = value(A, S);
    if (!EA)
      return std::nullopt;
    auto EB = value(B, S);
    if (!EB)
      return std::nullopt;
    return std::make_pair(*EA, *EB);
  };
  auto Merge = [](Expr R, const Expr &A, const Expr &B) {
    R.Checks.append(A.Checks.begin(), A.Checks.end());
    R.Checks.append(B.Checks.begin(), B.Checks.end());
    return R;
  };
  auto ConstOp = [](Value *Op) -> std::optional<int64_t> {
    if (auto *C = dyn_cast<ConstantInt>(Op))
      if (C->getBitWidth() <= 64)
        return C->getSExtValue();
    return std::nullopt;
  };

  switch (I->getOpcode()) {
  case Instruction::Load: {
    auto *GV = dyn_cast<GlobalVariable>(
        cast<LoadInst>(I)->getPointerOperand()->stripPointerCasts());
    if (!GV || cast<LoadInst>(I)->isVolatile())
      break;
    for (unsigned G = 0; G < 15; ++G) {
      if (GV->getName() != WorkItemGlobals[G])
        continue;
      unsigned D = G % 3;
      switch (G / 3) {
      case 0: // _local_id: the set dimension
        return Expr{var(S, D), {}};
      case 1: // _local_size: the compile-time constant
        return Expr{constant(S, M.LocalSize[D]), {}};
      case 2: // _group_id
        return Expr{paramOn(S, ModelParam::GroupId, D), {}};
      case 3: // _num_groups
        return Expr{paramOn(S, ModelParam::NumGroups, D), {}};
      case 4: // _global_offset = O_d - L_d * G_d (Table 2)
        return Expr{paramOn(S, ModelParam::GroupOffset, D)
                        .sub(paramOn(S, ModelParam::GroupId, D)
                                 .scale(isl::val(Ctx, long(M.LocalSize[D])))),
                    {}};
      }
    }
    if (GV->getName() == "_work_dim")
      return Expr{paramOn(S, ModelParam::WorkDim, 0), {}};
    break;
  }
  case Instruction::Add:
  case Instruction::Sub:
    if (cast<BinaryOperator>(I)->hasNoSignedWrap() || Wraps) {
      auto Ops = Both(I->getOperand(0), I->getOperand(1));
      if (!Ops)
        return std::nullopt;
      isl::pw_aff R = I->getOpcode() == Instruction::Add
                          ? Ops->first.PA.add(Ops->second.PA)
                          : Ops->first.PA.sub(Ops->second.PA);
      return Merge(Expr{R, {}}, Ops->first, Ops->second);
    }
    break;
  case Instruction::Mul:
  case Instruction::Shl:
    if (cast<BinaryOperator>(I)->hasNoSignedWrap() || Wraps) {
      Value *A = I->getOperand(0), *B = I->getOperand(1);
      std::optional<int64_t> C = ConstOp(B);
      if (!C && I->getOpcode() == Instruction::Mul) {
        std::swap(A, B);
        C = ConstOp(B);
      }
      if (!C)
        break; // a product of variables: ScalarEvolution may still fold it
      if (I->getOpcode() == Instruction::Shl) {
        if (*C < 0 || *C >= 63)
          break;
        C = int64_t(1) << *C;
      }
      auto EA = value(A, S);
      if (!EA)
        return std::nullopt;
      Expr R = *EA;
      R.PA = R.PA.scale(isl::val(Ctx, long(*C)));
      return R;
    }
    break;
  case Instruction::SDiv:
  case Instruction::SRem:
  case Instruction::AShr:
  case Instruction::And: {
    std::optional<int64_t> C = ConstOp(I->getOperand(1));
    if (!C || *C <= 0)
      break;
    auto EA = value(I->getOperand(0), S);
    if (!EA)
      return std::nullopt;
    Expr R = *EA;
    isl::pw_aff D = constant(S, *C);
    switch (I->getOpcode()) {
    case Instruction::SDiv:
      R.PA = R.PA.tdiv_q(D);
      return R;
    case Instruction::SRem:
      R.PA = R.PA.tdiv_r(D);
      return R;
    case Instruction::AShr:
      // An arithmetic shift is a division rounding down.
      if (*C >= 63)
        break;
      R.PA = R.PA.div(constant(S, int64_t(1) << *C)).floor();
      return R;
    default:
      // x & (2^n - 1) is x mod 2^n in two's complement, for any sign.
      if (!isPowerOf2_64(uint64_t(*C) + 1))
        break;
      R.PA = R.PA.mod(isl::val(Ctx, long(*C + 1)));
      return R;
    }
    break;
  }
  case Instruction::SExt: {
    if (I->getOperand(0)->getType()->isIntegerTy(1))
      break;
    return value(I->getOperand(0), S);
  }
  case Instruction::ZExt: {
    Value *Op = I->getOperand(0);
    if (Op->getType()->isIntegerTy(1)) {
      // A condition as 0 or 1.
      Cond C = condition(Op, S);
      if (!C.Affine)
        return std::nullopt;
      isl::set Univ = isl::set::universe(S.Space);
      Expr R{constant(S, 1).intersect_domain(C.Over).union_add(
                 constant(S, 0).intersect_domain(Univ.subtract(C.Over))),
             C.Checks};
      return R;
    }
    auto EA = value(Op, S);
    if (!EA)
      return std::nullopt;
    Expr R = *EA;
    if (!needInRange(R, R.PA, S, Op->getType()->getIntegerBitWidth(), true))
      return std::nullopt;
    return R;
  }
  case Instruction::Trunc: {
    auto EA = value(I->getOperand(0), S);
    if (!EA)
      return std::nullopt;
    Expr R = *EA;
    auto *TI = cast<TruncInst>(I);
    if (!TI->hasNoSignedWrap() && !needInRange(R, R.PA, S, Bits, false))
      return std::nullopt;
    return R;
  }
  case Instruction::Select: {
    auto *Sel = cast<SelectInst>(I);
    if (!Sel->getCondition()->getType()->isIntegerTy(1))
      break;
    Cond C = condition(Sel->getCondition(), S);
    if (!C.Affine)
      break;
    auto Ops = Both(Sel->getTrueValue(), Sel->getFalseValue());
    if (!Ops)
      return std::nullopt;
    isl::set Univ = isl::set::universe(S.Space);
    Expr R{
        Ops->first.PA.intersect_domain(C.Over)
            .union_add(Ops->second.PA.intersect_domain(Univ.subtract(C.Over)))
            .coalesce(),
        C.Checks};
    return Merge(R, Ops->first, Ops->second);
  }
  case Instruction::Freeze:
    return value(I->getOperand(0), S);
  case Instruction::Call:
    return call(cast<CallInst>(I), S);
  case Instruction::PHI: {
    auto *P = cast<PHINode>(I);
    // A phi with one incoming value (LCSSA) is that value.
    Value *Only = P->getIncomingValue(0);
    for (Value *In : P->incoming_values())
      if (In != Only)
        Only = nullptr;
    if (Only && Only != P)
      return value(Only, S);
    if (std::optional<Expr> R = loopCounter(P, S))
      return R;
    break;
  }
  default:
    break;
  }
  // ScalarEvolution knows more forms (and the loops' exit values).
  if (!SE.isSCEVable(Ty) || inCallee(V))
    return std::nullopt;
  if (std::optional<Expr> R =
          scev(SE.getSCEVAtScope(SE.getSCEV(V), S.LLVMLoop), S))
    return R;
  // An addition without nsw of a term ScalarEvolution cannot model, such as
  // `x + y * width` in unsigned int: the operands' own models (the product
  // an opaque parameter), exact where the sum stays in range.
  if (Op == Instruction::Add || Op == Instruction::Sub) {
    auto Ops = Both(I->getOperand(0), I->getOperand(1));
    if (!Ops)
      return std::nullopt;
    Expr R = Merge(Expr{Op == Instruction::Add
                            ? Ops->first.PA.add(Ops->second.PA)
                            : Ops->first.PA.sub(Ops->second.PA),
                        {}},
                   Ops->first, Ops->second);
    if (needInRange(R, R.PA, S, Bits, false))
      return R;
  }
  return std::nullopt;
}

/// A call: min, max and abs intrinsics; a function that touches no memory
/// and is one block (the kernel library's max, min, clamp, which iss-prepare
/// leaves out of line) is translated with its arguments bound to the
/// call's.
std::optional<Expr> WorkItemModel::Builder::call(CallInst *CI, const Scope &S) {
  unsigned Bits = CI->getType()->getIntegerBitWidth();
  if (auto *II = dyn_cast<IntrinsicInst>(CI)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    bool Unsigned = ID == Intrinsic::umax || ID == Intrinsic::umin;
    if (ID == Intrinsic::smax || ID == Intrinsic::smin || Unsigned) {
      auto A = value(II->getArgOperand(0), S);
      if (!A)
        return std::nullopt;
      auto B = value(II->getArgOperand(1), S);
      if (!B)
        return std::nullopt;
      Expr R = *A;
      R.Checks.append(B->Checks.begin(), B->Checks.end());
      // Unsigned: as signed where both are non-negative.
      if (Unsigned && (!needInRange(R, A->PA, S, Bits, true) ||
                       !needInRange(R, B->PA, S, Bits, true)))
        return std::nullopt;
      bool Max = ID == Intrinsic::smax || ID == Intrinsic::umax;
      R.PA = (Max ? A->PA.max(B->PA) : A->PA.min(B->PA)).coalesce();
      return R;
    }
    if (ID == Intrinsic::abs) {
      auto A = value(II->getArgOperand(0), S);
      if (!A)
        return std::nullopt;
      A->PA = A->PA.max(A->PA.neg()).coalesce();
      return A;
    }
    return std::nullopt;
  }
  Function *Callee = CI->getCalledFunction();
  if (!Callee || Callee->isDeclaration() || !Callee->doesNotAccessMemory() ||
      Callee->size() != 1 || Frames.size() >= 4 ||
      Callee->getFunctionType() != CI->getFunctionType())
    return std::nullopt;
  auto *Ret = dyn_cast<ReturnInst>(Callee->getEntryBlock().getTerminator());
  if (!Ret || !Ret->getReturnValue())
    return std::nullopt;
  Frame Fr;
  for (unsigned I = 0; I < CI->arg_size(); ++I) {
    if (!CI->getArgOperand(I)->getType()->isIntegerTy())
      continue;
    Fr.Values[Callee->getArg(I)] = value(CI->getArgOperand(I), S);
  }
  Frames.push_back(std::move(Fr));
  std::optional<Expr> R = value(Ret->getReturnValue(), S);
  Frames.pop_back();
  return R;
}

/// The induction variable \p P of a kernel loop around the scope, as
/// start + step * k; the start value from the IR, where its nsw flags are.
std::optional<Expr> WorkItemModel::Builder::loopCounter(PHINode *P,
                                                        const Scope &S) {
  Loop *L = LI.getLoopFor(P->getParent());
  if (!L || L->getHeader() != P->getParent())
    return std::nullopt;
  auto Pos = find(S.Loops, L);
  if (Pos == S.Loops.end())
    return std::nullopt; // its exit value, through ScalarEvolution
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(P));
  if (!AR || AR->getLoop() != L || !AR->isAffine())
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().getSignificantBits() > 64)
    return std::nullopt;
  Value *Start = nullptr;
  bool AllNsw = true;
  for (unsigned I = 0; I < P->getNumIncomingValues(); ++I) {
    Value *In = P->getIncomingValue(I);
    if (!L->contains(P->getIncomingBlock(I))) {
      if (Start && Start != In)
        Start = reinterpret_cast<Value *>(-1);
      else
        Start = In;
      continue;
    }
    auto *Inc = dyn_cast<BinaryOperator>(In);
    AllNsw &= Inc &&
              (Inc->getOpcode() == Instruction::Add ||
               Inc->getOpcode() == Instruction::Sub) &&
              Inc->hasNoSignedWrap() &&
              (Inc->getOperand(0) == P || Inc->getOperand(1) == P) &&
              (isa<ConstantInt>(Inc->getOperand(0)) ||
               isa<ConstantInt>(Inc->getOperand(1)));
  }
  std::optional<Expr> E;
  if (Start && Start != reinterpret_cast<Value *>(-1))
    E = value(Start, S);
  else
    E = scev(AR->getStart(), S);
  if (!E)
    return std::nullopt;
  unsigned K = 3 + (Pos - S.Loops.begin());
  E->PA = E->PA.add(
      var(S, K).scale(isl::val(Ctx, long(Step->getAPInt().getSExtValue()))));
  if (!AllNsw && !AR->hasNoSignedWrap() &&
      !needInRange(*E, E->PA, S, P->getType()->getIntegerBitWidth(), false))
    return std::nullopt;
  return E;
}

std::optional<Expr> WorkItemModel::Builder::scev(const SCEV *E,
                                                 const Scope &S) {
  auto Key = std::make_pair(E, S.LLVMLoop);
  auto It = Scevs.find(Key);
  if (It != Scevs.end())
    return It->second;
  std::optional<Expr> R = scevImpl(E, S);
  Scevs[Key] = R;
  return R;
}

std::optional<Expr> WorkItemModel::Builder::scevImpl(const SCEV *E,
                                                     const Scope &S) {
  Type *Ty = E->getType();
  if (!Ty->isIntegerTy() || Ty->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned Bits = Ty->getIntegerBitWidth();
  auto Operands =
      [&](const SCEVNAryExpr *N) -> std::optional<SmallVector<Expr, 4>> {
    SmallVector<Expr, 4> Ops;
    for (const SCEV *Op : N->operands()) {
      auto EO = scev(Op, S);
      if (!EO)
        return std::nullopt;
      Ops.push_back(*EO);
    }
    return Ops;
  };
  auto Fold = [&](const SCEVNAryExpr *N,
                  function_ref<isl::pw_aff(isl::pw_aff, isl::pw_aff)> Op,
                  bool NonNegative) -> std::optional<Expr> {
    auto Ops = Operands(N);
    if (!Ops)
      return std::nullopt;
    Expr R = (*Ops)[0];
    if (NonNegative && !needInRange(R, R.PA, S, Bits, true))
      return std::nullopt;
    for (unsigned I = 1; I < Ops->size(); ++I) {
      Expr &O = (*Ops)[I];
      if (NonNegative && !needInRange(R, O.PA, S, Bits, true))
        return std::nullopt;
      R.PA = Op(R.PA, O.PA);
      R.Checks.append(O.Checks.begin(), O.Checks.end());
    }
    R.PA = R.PA.coalesce();
    return R;
  };

  switch (E->getSCEVType()) {
  case scConstant: {
    const APInt &C = cast<SCEVConstant>(E)->getAPInt();
    return Expr{constant(S, C.getSExtValue()), {}};
  }
  case scTruncate: {
    auto EO = scev(cast<SCEVCastExpr>(E)->getOperand(), S);
    if (!EO || !needInRange(*EO, EO->PA, S, Bits, false))
      return std::nullopt;
    return EO;
  }
  case scZeroExtend: {
    const SCEV *Op = cast<SCEVCastExpr>(E)->getOperand();
    auto EO = scev(Op, S);
    if (!EO ||
        !needInRange(*EO, EO->PA, S, Op->getType()->getIntegerBitWidth(), true))
      return std::nullopt;
    return EO;
  }
  case scSignExtend:
    return scev(cast<SCEVCastExpr>(E)->getOperand(), S);
  case scAddExpr: {
    auto R = Fold(
        cast<SCEVNAryExpr>(E),
        [](isl::pw_aff A, isl::pw_aff B) { return A.add(B); }, false);
    if (R && !cast<SCEVNAryExpr>(E)->hasNoSignedWrap() &&
        !needInRange(*R, R->PA, S, Bits, false))
      return std::nullopt;
    return R;
  }
  case scMulExpr: {
    auto Ops = Operands(cast<SCEVNAryExpr>(E));
    if (!Ops)
      return std::nullopt;
    Expr R = (*Ops)[0];
    for (unsigned I = 1; I < Ops->size(); ++I) {
      Expr &O = (*Ops)[I];
      // isl multiplies affine functions only by constants.
      if (!R.PA.is_cst().is_true() && !O.PA.is_cst().is_true())
        return std::nullopt;
      R.PA = R.PA.mul(O.PA);
      R.Checks.append(O.Checks.begin(), O.Checks.end());
    }
    if (!cast<SCEVNAryExpr>(E)->hasNoSignedWrap() &&
        !needInRange(R, R.PA, S, Bits, false))
      return std::nullopt;
    return R;
  }
  case scUDivExpr: {
    auto *D = cast<SCEVUDivExpr>(E);
    auto *C = dyn_cast<SCEVConstant>(D->getRHS());
    if (!C || !C->getAPInt().isStrictlyPositive() ||
        C->getAPInt().getActiveBits() > 62)
      return std::nullopt;
    auto EO = scev(D->getLHS(), S);
    if (!EO || !needInRange(*EO, EO->PA, S, Bits, true))
      return std::nullopt;
    EO->PA = EO->PA.div(constant(S, C->getAPInt().getSExtValue())).floor();
    return EO;
  }
  case scAddRecExpr: {
    auto *AR = cast<SCEVAddRecExpr>(E);
    auto Pos = find(S.Loops, AR->getLoop());
    if (Pos == S.Loops.end() || !AR->isAffine())
      return std::nullopt;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step)
      return std::nullopt;
    auto EO = scev(AR->getStart(), S);
    if (!EO)
      return std::nullopt;
    EO->PA = EO->PA.add(
        var(S, 3 + (Pos - S.Loops.begin()))
            .scale(isl::val(Ctx, long(Step->getAPInt().getSExtValue()))));
    if (!AR->hasNoSignedWrap() && !needInRange(*EO, EO->PA, S, Bits, false))
      return std::nullopt;
    return EO;
  }
  case scSMaxExpr:
    return Fold(
        cast<SCEVNAryExpr>(E),
        [](isl::pw_aff A, isl::pw_aff B) { return A.max(B); }, false);
  case scSMinExpr:
    return Fold(
        cast<SCEVNAryExpr>(E),
        [](isl::pw_aff A, isl::pw_aff B) { return A.min(B); }, false);
  case scUMaxExpr:
    // Unsigned: as signed where both operands are non-negative.
    return Fold(
        cast<SCEVNAryExpr>(E),
        [](isl::pw_aff A, isl::pw_aff B) { return A.max(B); }, true);
  case scUMinExpr:
  case scSequentialUMinExpr:
    return Fold(
        cast<SCEVNAryExpr>(E),
        [](isl::pw_aff A, isl::pw_aff B) { return A.min(B); }, true);
  case scUnknown:
    return value(cast<SCEVUnknown>(E)->getValue(), S);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

Cond WorkItemModel::Builder::condition(Value *C, const Scope &S) {
  if (!Frames.empty() && inCallee(C))
    return conditionImpl(C, S);
  auto Key = std::make_pair(C, S.LLVMLoop);
  auto It = Conds.find(Key);
  if (It != Conds.end())
    return It->second;
  Cond R = conditionImpl(C, S);
  Conds[Key] = R;
  return R;
}

Cond WorkItemModel::Builder::compare(CmpInst::Predicate P, Value *A, Value *B,
                                     const Scope &S) {
  isl::set Univ = isl::set::universe(S.Space);
  Cond NonAffine{Univ, isl::set::empty(S.Space), {}, false};
  if (!A->getType()->isIntegerTy())
    return NonAffine;
  auto EA = value(A, S);
  if (!EA)
    return NonAffine;
  auto EB = value(B, S);
  if (!EB)
    return NonAffine;
  isl::pw_aff X = EA->PA, Y = EB->PA;
  auto Signed = [&](CmpInst::Predicate SP) {
    switch (SP) {
    case CmpInst::ICMP_EQ:
      return X.eq_set(Y);
    case CmpInst::ICMP_NE:
      return X.ne_set(Y);
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_ULT:
      return X.lt_set(Y);
    case CmpInst::ICMP_SLE:
    case CmpInst::ICMP_ULE:
      return X.le_set(Y);
    case CmpInst::ICMP_SGT:
    case CmpInst::ICMP_UGT:
      return X.gt_set(Y);
    default:
      return X.ge_set(Y);
    }
  };
  isl::set Result = Signed(P);
  if (CmpInst::isUnsigned(P)) {
    // Unsigned order on signed values, exactly: the signed order when the
    // signs agree; a non-negative value is below a negative one.
    isl::pw_aff Z = constant(S, 0);
    // An operand of the parameters alone (a size argument, `gid < (uint)n`)
    // is assumed non-negative, checked once per group: its sign cases
    // would double every set built on the condition, for launches with a
    // negative size. An operand of the ids or the loop counters keeps
    // them: a border test `(uint)(gid - 1) < w` is exact in every group.
    unsigned Bits = A->getType()->getIntegerBitWidth();
    unsigned NDims = islDim(S.Space, isl::dim::set);
    auto NonNegative = [&](Expr &E) {
      return !involvesInDims(E.PA, 0, NDims) && E.PA.is_cst().is_false() &&
             needInRange(E, E.PA, S, Bits, true);
    };
    isl::set XNeg = NonNegative(*EA) ? isl::set::empty(S.Space) : X.lt_set(Z);
    isl::set YNeg = NonNegative(*EB) ? isl::set::empty(S.Space) : Y.lt_set(Z);
    isl::set XPos = Univ.subtract(XNeg), YPos = Univ.subtract(YNeg);
    isl::set SameSign = XNeg.intersect(YNeg).unite(XPos.intersect(YPos));
    Result = Result.intersect(SameSign);
    if (P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_ULE)
      Result = Result.unite(XPos.intersect(YNeg));
    else
      Result = Result.unite(XNeg.intersect(YPos));
  }
  Result = Result.coalesce();
  Cond R{Result, Result, EA->Checks, true};
  R.Checks.append(EB->Checks.begin(), EB->Checks.end());
  return R;
}

Cond WorkItemModel::Builder::conditionImpl(Value *C, const Scope &S) {
  isl::set Univ = isl::set::universe(S.Space);
  isl::set Empty = isl::set::empty(S.Space);
  Cond NonAffine{Univ, Empty, {}, false};
  if (auto *CI = dyn_cast<ConstantInt>(C))
    return CI->isOne() ? Cond{Univ, Univ, {}, true}
                       : Cond{Empty, Empty, {}, true};
  auto *I = dyn_cast<Instruction>(C);
  if (!I)
    return NonAffine;
  auto Not = [&](Cond A) {
    return Cond{Univ.subtract(A.Under), Univ.subtract(A.Over), A.Checks,
                A.Affine};
  };
  auto And = [&](Cond A, const Cond &B) {
    A.Over = A.Over.intersect(B.Over).coalesce();
    A.Under = A.Under.intersect(B.Under).coalesce();
    A.Checks.append(B.Checks.begin(), B.Checks.end());
    A.Affine &= B.Affine;
    return A;
  };
  auto Or = [&](Cond A, const Cond &B) {
    A.Over = A.Over.unite(B.Over).coalesce();
    A.Under = A.Under.unite(B.Under).coalesce();
    A.Checks.append(B.Checks.begin(), B.Checks.end());
    A.Affine &= B.Affine;
    return A;
  };
  if (auto *Cmp = dyn_cast<ICmpInst>(I))
    return compare(Cmp->getPredicate(), Cmp->getOperand(0), Cmp->getOperand(1),
                   S);
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    Value *A = BO->getOperand(0), *B = BO->getOperand(1);
    switch (BO->getOpcode()) {
    case Instruction::And:
      return And(condition(A, S), condition(B, S));
    case Instruction::Or:
      return Or(condition(A, S), condition(B, S));
    case Instruction::Xor:
      if (auto *K = dyn_cast<ConstantInt>(B); K && K->isOne())
        return Not(condition(A, S));
      if (auto *K = dyn_cast<ConstantInt>(A); K && K->isOne())
        return Not(condition(B, S));
      return NonAffine;
    default:
      return NonAffine;
    }
  }
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    Cond Cd = condition(Sel->getCondition(), S);
    return Or(And(Cd, condition(Sel->getTrueValue(), S)),
              And(Not(Cd), condition(Sel->getFalseValue(), S)));
  }
  if (isa<FreezeInst>(I))
    return condition(I->getOperand(0), S);
  if (auto *P = dyn_cast<PHINode>(I)) {
    Value *Only = P->getIncomingValue(0);
    for (Value *In : P->incoming_values())
      if (In != Only)
        return NonAffine;
    return condition(Only, S);
  }
  return NonAffine;
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// The dimensions along which \p Base is the same pointer: all for
/// arguments and globals (__local variables) and for allocas once
/// iss-context made them the work group's homes; what the uniformity
/// analysis proves otherwise.
unsigned WorkItemModel::Builder::uniformBase(Value *Base) const {
  if (isa<Argument>(Base) || isa<GlobalValue>(Base))
    return 7;
  if (isa<AllocaInst>(Base))
    return ContextDone ? 7 : liveDims() ^ 7;
  return uniformDims(Base);
}

/// Where the terminator \p T goes to \p To, over its block's scope \p S.
Cond WorkItemModel::Builder::edgeCondition(Instruction *T, BasicBlock *To,
                                           const Scope &S) {
  isl::set Univ = isl::set::universe(S.Space);
  isl::set Empty = isl::set::empty(S.Space);
  auto Not = [&](const Cond &C) {
    return Cond{Univ.subtract(C.Under), Univ.subtract(C.Over), C.Checks,
                C.Affine};
  };
  if (auto *BI = dyn_cast<BranchInst>(T)) {
    if (!BI->isConditional() || BI->getSuccessor(0) == BI->getSuccessor(1))
      return Cond{Univ, Univ, {}, true};
    Cond C = condition(BI->getCondition(), S);
    return BI->getSuccessor(0) == To ? C : Not(C);
  }
  if (auto *SI = dyn_cast<SwitchInst>(T)) {
    // The cases that lead to To; for the default, none of the others.
    bool IsDefault = SI->getDefaultDest() == To;
    Cond Any{Empty, Empty, {}, true};
    for (auto Case : SI->cases()) {
      if ((Case.getCaseSuccessor() == To) == IsDefault)
        continue;
      Cond Eq =
          compare(CmpInst::ICMP_EQ, SI->getCondition(), Case.getCaseValue(), S);
      Any.Over = Any.Over.unite(Eq.Over).coalesce();
      Any.Under = Any.Under.unite(Eq.Under).coalesce();
      Any.Checks.append(Eq.Checks.begin(), Eq.Checks.end());
      Any.Affine &= Eq.Affine;
    }
    return IsDefault ? Not(Any) : Any;
  }
  return Cond{Univ, Empty, {}, false};
}

/// The instances that take the edge \p From -> \p To, in To's scope: a
/// loop entered has its counter at 0, a loop left its counter dropped.
isl::set WorkItemModel::Builder::edgeDomain(BasicBlock *From, BasicBlock *To,
                                            bool &EdgeExact) {
  const Scope &SF = scopeOf(From);
  const Scope &ST = scopeOf(To);
  isl::set D = Dom.lookup(From);
  Cond C = edgeCondition(From->getTerminator(), To, SF);
  if (C.Affine && !applyChecks(C.Checks, D))
    C = Cond{
        isl::set::universe(SF.Space), isl::set::empty(SF.Space), {}, false};
  EdgeExact = Exact.lookup(From) && C.Affine;
  isl::set R = toScope(D.intersect(C.Over).coalesce(), SF, ST);
  unsigned Common = 0;
  while (Common < SF.Loops.size() && Common < ST.Loops.size() &&
         SF.Loops[Common] == ST.Loops[Common])
    ++Common;
  for (unsigned I = Common; I < ST.Loops.size(); ++I)
    R = R.fix_si(isl::dim::set, 3 + I, 0);
  return R;
}

/// Checks that every cycle of the region is a kernel loop entered by its
/// header, and records the region's loops.
bool WorkItemModel::Builder::orderRegion(RegionModel &R,
                                         ArrayRef<BasicBlock *> Blocks) {
  for (BasicBlock *BB : Blocks) {
    Loop *L = LI.getLoopFor(BB);
    for (; L && isKernelLoop(L); L = L->getParentLoop())
      if (!R.loop(L)) {
        for (BasicBlock *LB : L->blocks())
          if (!InRegion.count(LB)) {
            R.Why = "a kernel loop partly outside the region";
            return false;
          }
        R.Loops.push_back({L, L->getLoopDepth(), false});
      }
  }
  // Depth within the region: the kernel loops around it.
  for (ModelLoop &ML : R.Loops) {
    unsigned D = 0;
    for (Loop *P = ML.L->getParentLoop(); P && isKernelLoop(P);
         P = P->getParentLoop())
      ++D;
    ML.Depth = D;
  }
  llvm::stable_sort(R.Loops, [](const ModelLoop &A, const ModelLoop &B) {
    return A.Depth < B.Depth;
  });
  // An irreducible cycle: a block reaching itself other than through a
  // kernel loop's back edge.
  DenseMap<BasicBlock *, unsigned> State; // 1 on the stack, 2 done
  SmallVector<std::pair<BasicBlock *, unsigned>, 16> Stack;
  Stack.push_back({Blocks.front(), 0});
  State[Blocks.front()] = 1;
  while (!Stack.empty()) {
    auto &[BB, Next] = Stack.back();
    Instruction *T = BB->getTerminator();
    if (Next == T->getNumSuccessors()) {
      State[BB] = 2;
      Stack.pop_back();
      continue;
    }
    BasicBlock *Succ = T->getSuccessor(Next++);
    if (!InRegion.count(Succ))
      continue;
    unsigned St = State.lookup(Succ);
    if (St == 1) {
      Loop *L = LI.getLoopFor(Succ);
      if (!L || L->getHeader() != Succ || !L->contains(BB)) {
        R.Why = "an irreducible cycle";
        return false;
      }
      continue;
    }
    if (St == 0) {
      State[Succ] = 1;
      Stack.push_back({Succ, 0});
    }
  }
  return true;
}

/// Computes the domains of the blocks of scope \p L (the region's top
/// level when null) in a topological order where each inner loop is one
/// node, then bounds \p L by its affine exits.
void WorkItemModel::Builder::processScope(RegionModel &R, Loop *L,
                                          ArrayRef<BasicBlock *> Blocks) {
  // The node of a block in this scope: itself, or the outermost inner
  // kernel loop around it.
  auto NodeOf = [&](BasicBlock *BB) -> BasicBlock * {
    Loop *In = LI.getLoopFor(BB);
    Loop *Outermost = nullptr;
    for (; In && In != L && isKernelLoop(In); In = In->getParentLoop())
      Outermost = In;
    if (In != L && !(L == nullptr && (!In || !isKernelLoop(In))))
      return nullptr; // outside this scope
    return Outermost ? Outermost->getHeader() : BB;
  };
  SmallVector<BasicBlock *, 16> Nodes;
  DenseMap<BasicBlock *, SmallVector<BasicBlock *, 4>> Members;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *N = NodeOf(BB);
    if (!N)
      continue;
    if (!Members.count(N))
      Nodes.push_back(N);
    Members[N].push_back(BB);
  }
  // Kahn's algorithm over the edges between nodes (back edges of L out).
  DenseMap<BasicBlock *, unsigned> InDegree;
  DenseMap<BasicBlock *, SmallVector<BasicBlock *, 4>> Succs;
  for (BasicBlock *N : Nodes)
    for (BasicBlock *BB : Members[N])
      for (BasicBlock *Succ : successors(BB)) {
        if (!InRegion.count(Succ) || (L && Succ == L->getHeader()))
          continue;
        BasicBlock *SN = NodeOf(Succ);
        if (!SN || SN == N)
          continue;
        Succs[N].push_back(SN);
        ++InDegree[SN];
      }
  SmallVector<BasicBlock *, 16> Ready;
  for (BasicBlock *N : reverse(Nodes))
    if (!InDegree.lookup(N))
      Ready.push_back(N);
  const Scope &SL = scopeFor(L);
  // Exactness inside L is first relative to an iteration of L.
  bool HeaderExact = L ? Exact[L->getHeader()] : true;
  if (L)
    Exact[L->getHeader()] = true;
  while (!Ready.empty()) {
    BasicBlock *N = Ready.pop_back_val();
    for (BasicBlock *Next : Succs[N])
      if (--InDegree[Next] == 0)
        Ready.push_back(Next);
    if (L && N == L->getHeader())
      continue; // set by the caller: the entries, the counter unbounded
    const Scope &SN = scopeOf(N);
    Loop *Inner = LI.getLoopFor(N);
    bool IsInnerLoop =
        Inner && Inner != L && Inner->getHeader() == N && isKernelLoop(Inner);
    // The domain from the edges into N (into an inner loop: from outside).
    isl::set D = isl::set::empty(SN.Space);
    bool DExact = true;
    if (N == RegionEntry)
      D = R.Domain.set_tuple_id(SN.Space.get_tuple_id(isl::dim::set));
    for (BasicBlock *Pred : predecessors(N)) {
      if (!InRegion.count(Pred) || !Dom.count(Pred) ||
          (IsInnerLoop && Inner->contains(Pred)))
        continue;
      bool EdgeExact;
      D = D.unite(edgeDomain(Pred, N, EdgeExact));
      DExact &= EdgeExact;
    }
    D = D.coalesce();
    if (!IsInnerLoop) {
      Dom[N] = D;
      Exact[N] = DExact;
      continue;
    }
    // An inner loop: its counter goes from 0 up, until its exits bound it.
    unsigned K = 3 + SN.Loops.size() - 1;
    isl::map Up = isl::map::universe(SN.Space.map_from_set());
    for (unsigned I = 0; I < K; ++I)
      Up = Up.equate(isl::dim::in, I, isl::dim::out, I);
    Up = Up.order_lt(isl::dim::in, K, isl::dim::out, K)
             .unite(Up.equate(isl::dim::in, K, isl::dim::out, K));
    Dom[N] = D.apply(Up).coalesce();
    Exact[N] = DExact;
    SmallVector<BasicBlock *, 16> InnerBlocks;
    for (BasicBlock *BB : Blocks)
      if (Inner->contains(BB))
        InnerBlocks.push_back(BB);
    processScope(R, Inner, InnerBlocks);
  }
  if (!L)
    return;

  // Bound the counter of L: after an iteration where the loop surely
  // exits, there is none.
  BasicBlock *H = L->getHeader();
  unsigned K = 3 + SL.Loops.size() - 1;
  isl::set Exits = isl::set::empty(SL.Space);
  bool AllExits = true;
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> ExitEdges;
  L->getExitEdges(ExitEdges);
  for (auto [From, To] : ExitEdges) {
    if (LI.getLoopFor(From) != L || !Exact.lookup(From)) {
      AllExits = false; // from an inner loop, or not surely reached
      continue;
    }
    const Scope &SF = scopeOf(From);
    isl::set D = Dom.lookup(From);
    Cond C = edgeCondition(From->getTerminator(), To, SF);
    if (!C.Affine || !applyChecks(C.Checks, D)) {
      AllExits = false;
      continue;
    }
    isl::set Taken = D.intersect(C.Under);
    Exits = Exits.unite(Taken);
  }
  isl::map After = isl::map::universe(SL.Space.map_from_set());
  for (unsigned I = 0; I < K; ++I)
    After = After.equate(isl::dim::in, I, isl::dim::out, I);
  After = After.order_lt(isl::dim::in, K, isl::dim::out, K);
  isl::set Bounded = Dom[H].subtract(Exits.apply(After)).coalesce();
  Dom[H] = Bounded;
  Exact[H] = HeaderExact && AllExits;
  for (ModelLoop &ML : R.Loops)
    if (ML.L == L)
      ML.Bounded = AllExits;
  for (BasicBlock *BB : Blocks) {
    if (BB == H || !Dom.count(BB))
      continue;
    const Scope &SB = scopeOf(BB);
    isl::set Lifted = Bounded;
    if (&SB != &SL)
      Lifted = Bounded.apply(projection(SB, SL).reverse());
    // Not coalesced: the counter's bound only cuts the pieces short
    // (Convolution2D's front half 2 % cheaper, the same IR).
    Dom[BB] = Dom[BB].intersect(Lifted);
    Exact[BB] = Exact[BB] && Exact[H];
  }
}

void WorkItemModel::Builder::buildRegion(RegionModel &R) {
  // The blocks, as formRegion in WorkItemLoops.cpp finds them.
  SmallVector<BasicBlock *, 16> Blocks;
  SmallVector<BasicBlock *, 16> Stack = {R.Barrier->getSingleSuccessor()};
  InRegion.clear();
  Dom.clear();
  Exact.clear();
  while (!Stack.empty()) {
    BasicBlock *BB = Stack.pop_back_val();
    if (!BB || isBarrierBlock(*BB) || !InRegion.insert(BB).second)
      continue;
    Blocks.push_back(BB);
    Instruction *T = BB->getTerminator();
    for (unsigned I = T->getNumSuccessors(); I-- > 0;)
      Stack.push_back(T->getSuccessor(I));
  }
  if (Blocks.empty()) {
    R.Modelled = true;
    return;
  }
  if (!orderRegion(R, Blocks))
    return;
  RegionEntry = Blocks.front();
  processScope(R, nullptr, Blocks);
  // The blocks in a reverse post-order of the region.
  DenseSet<BasicBlock *> Seen;
  SmallVector<BasicBlock *, 16> Post;
  SmallVector<std::pair<BasicBlock *, unsigned>, 16> DFS;
  DFS.push_back({Blocks.front(), 0});
  Seen.insert(Blocks.front());
  while (!DFS.empty()) {
    auto &[BB, Next] = DFS.back();
    Instruction *T = BB->getTerminator();
    if (Next == T->getNumSuccessors()) {
      Post.push_back(BB);
      DFS.pop_back();
      continue;
    }
    BasicBlock *Succ = T->getSuccessor(Next++);
    if (InRegion.count(Succ) && Seen.insert(Succ).second)
      DFS.push_back({Succ, 0});
  }
  for (BasicBlock *BB : reverse(Post)) {
    ModelBlock MB;
    MB.BB = BB;
    const Scope &S = scopeOf(BB);
    MB.Loops.assign(S.Loops.begin(), S.Loops.end());
    MB.Domain = Dom.lookup(BB);
    if (MB.Domain.is_null())
      MB.Domain = isl::set::empty(S.Space);
    MB.Exact = Exact.lookup(BB);
    R.Blocks.push_back(std::move(MB));
  }
  collect(R);
  R.Modelled = true;
}

/// The branches and accesses of the region's blocks.
void WorkItemModel::Builder::collect(RegionModel &R) {
  for (const ModelBlock &MB : R.Blocks) {
    BasicBlock *BB = MB.BB;
    const Scope &S = scopeOf(BB);
    Instruction *T = BB->getTerminator();
    if (T->getNumSuccessors() > 1) {
      ModelBranch Br;
      Br.Term = T;
      Br.Domain = MB.Domain;
      Value *CondV = nullptr;
      if (auto *BI = dyn_cast<BranchInst>(T))
        CondV = BI->getCondition();
      else if (auto *SI = dyn_cast<SwitchInst>(T))
        CondV = SI->getCondition();
      Br.UniformDims = CondV ? uniformDims(CondV) : 0;
      Br.Affine = true;
      for (BasicBlock *Succ : successors(BB)) {
        Cond C = edgeCondition(T, Succ, S);
        Br.Affine &= C.Affine && applyChecks(C.Checks, MB.Domain);
        // Not coalesced: its uses test inclusions, subtract it or
        // project it, and coalesce what they keep (the same IR of every
        // kernel, 5 % less of Convolution2D's front half).
        Br.Taken.push_back(MB.Domain.intersect(C.Over));
        Br.Conditions.push_back(C.Over);
      }
      if (!Br.Affine) {
        for (isl::set &Tk : Br.Taken)
          Tk = MB.Domain;
        for (isl::set &Cd : Br.Conditions)
          Cd = isl::set::universe(S.Space);
      }
      R.Branches.push_back(std::move(Br));
    }
    for (Instruction &I : *BB) {
      Value *Ptr = nullptr;
      Type *AccTy = nullptr;
      bool IsStore = false;
      if (auto *LdI = dyn_cast<LoadInst>(&I)) {
        Ptr = LdI->getPointerOperand();
        AccTy = LdI->getType();
      } else if (auto *StI = dyn_cast<StoreInst>(&I)) {
        Ptr = StI->getPointerOperand();
        AccTy = StI->getValueOperand()->getType();
        IsStore = true;
      } else {
        continue;
      }
      // The work-item globals are no memory of the kernel's.
      if (auto *GV = dyn_cast<GlobalVariable>(Ptr->stripPointerCasts()))
        if (is_contained(ArrayRef<const char *>(WorkItemGlobals),
                         GV->getName()))
          continue;
      ModelAccess A;
      A.I = &I;
      A.Domain = MB.Domain;
      A.Size = DL.getTypeStoreSize(AccTy).getFixedValue();
      A.IsStore = IsStore;
      A.UniformDims = uniformDims(Ptr);
      // The address as base + offset: inbounds GEPs from the IR (exact),
      // anything else through ScalarEvolution.
      Value *P = Ptr;
      isl::pw_aff Off = constant(S, 0);
      SmallVector<RangeCheck, 2> Checks;
      bool Ok = true;
      while (Ok) {
        P = P->stripPointerCasts();
        auto *GEP = dyn_cast<GEPOperator>(P);
        if (!GEP)
          break;
        if (!GEP->isInBounds()) {
          Ok = false;
          break;
        }
        // Each index times the size of what it steps over.
        for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
             GTI != E && Ok; ++GTI) {
          Value *Idx = GTI.getOperand();
          if (StructType *ST = GTI.getStructTypeOrNull()) {
            unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
            Off = Off.add(
                constant(S, DL.getStructLayout(ST)->getElementOffset(Field)));
            continue;
          }
          if (Idx->getType()->isVectorTy()) {
            Ok = false;
            break;
          }
          int64_t Stride = GTI.getSequentialElementStride(DL);
          std::optional<Expr> EI;
          {
            SaveAndRestore<bool> InIndex(Modular,
                                         Idx->getType()->isIntegerTy(64));
            EI = value(Idx, S);
          }
          if (!EI) {
            Ok = false;
            break;
          }
          Off = Off.add(EI->PA.scale(isl::val(Ctx, long(Stride))));
          Checks.append(EI->Checks.begin(), EI->Checks.end());
        }
        P = GEP->getPointerOperand();
      }
      // A base that varies along every dimension: try ScalarEvolution
      // (pointer induction variables, say).
      if (Ok && !uniformBase(P->stripPointerCasts()))
        Ok = false;
      if (Ok && applyChecks(Checks, MB.Domain)) {
        A.Base = P->stripPointerCasts();
        A.BaseDims = uniformBase(A.Base);
        A.Offset = Off.coalesce();
        A.Checked = checksOpaque(Checks);
      } else if (SE.isSCEVable(Ptr->getType())) {
        const SCEV *PS = SE.getSCEVAtScope(SE.getSCEV(Ptr), S.LLVMLoop);
        const SCEV *Base = SE.getPointerBase(PS);
        if (auto *BU = dyn_cast<SCEVUnknown>(Base);
            BU && uniformBase(BU->getValue())) {
          const SCEV *OffS = SE.getMinusSCEV(PS, Base);
          if (!isa<SCEVCouldNotCompute>(OffS))
            if (auto EO = scev(OffS, S);
                EO && applyChecks(EO->Checks, MB.Domain)) {
              A.Base = BU->getValue();
              A.BaseDims = uniformBase(A.Base);
              A.Offset = EO->PA.coalesce();
              A.Checked = checksOpaque(EO->Checks);
            }
        }
      }
      R.Accesses.push_back(std::move(A));
    }
  }
}

/// The context grows with each parameter: its range, and once a group id,
/// count or offset of a dimension is made, its relations with the others
/// of that dimension, 0 <= G_d < N_d and the global offset O_d - L_d * G_d
/// >= 0. Rebuilt whole for every parameter, it took a quarter of hotspot's
/// front half (twenty parameters, each an intersection of all of them).
void WorkItemModel::Builder::addToContext(const ModelParam &New) {
  isl::space PS = M.Context.space().add_param(New.Id);
  isl::set C = M.Context.align_params(PS),
           Light = M.LightContext.align_params(PS),
           Signs = M.SignContext.align_params(PS);
  auto Param = [&](const ModelParam &P) {
    return isl::pw_aff(PS.param_aff_on_domain(P.Id));
  };
  auto Const = [&](long V) {
    return isl::pw_aff(isl::aff(isl::local_space(PS), isl::val(Ctx, V)));
  };
  long Lo = INT64_MIN, Hi = INT64_MAX;
  switch (New.K) {
  case ModelParam::Argument:
  case ModelParam::Derived:
  case ModelParam::Opaque: {
    unsigned Bits = New.V->getType()->getIntegerBitWidth();
    if (Bits < 64) {
      Hi = (int64_t(1) << (Bits - 1)) - 1;
      Lo = -Hi - 1;
    }
    break;
  }
  case ModelParam::GroupOffset:
  case ModelParam::GroupId:
    Lo = 0;
    break;
  case ModelParam::NumGroups:
    Lo = 1;
    break;
  case ModelParam::WorkDim:
    Lo = 1;
    Hi = 3;
    break;
  }
  isl::set Range =
      Param(New).ge_set(Const(Lo)).intersect(Param(New).le_set(Const(Hi)));
  C = C.intersect(Range);
  if (Hi < INT64_MAX)
    Light = Light.intersect(Range);
  else if (Lo > INT64_MIN)
    Light = Light.intersect(Param(New).ge_set(Const(Lo)));
  if (New.K == ModelParam::GroupOffset || New.K == ModelParam::NumGroups ||
      New.K == ModelParam::WorkDim)
    Signs = Signs.intersect(Hi < INT64_MAX ? Range
                                           : Param(New).ge_set(Const(Lo)));
  if (New.K == ModelParam::GroupId || New.K == ModelParam::NumGroups ||
      New.K == ModelParam::GroupOffset) {
    const ModelParam *G = M.groupParam(ModelParam::GroupId, New.Dim),
                     *N = M.groupParam(ModelParam::NumGroups, New.Dim),
                     *O = M.groupParam(ModelParam::GroupOffset, New.Dim);
    isl::set Rel = isl::set::universe(PS);
    if (G && N && (&New == G || &New == N))
      Rel = Rel.intersect(Param(*G).lt_set(Param(*N)));
    if (G && O && (&New == G || &New == O))
      Rel = Rel.intersect(Param(*O).ge_set(
          Param(*G).scale(isl::val(Ctx, long(M.LocalSize[New.Dim])))));
    C = C.intersect(Rel);
    Light = Light.intersect(Rel);
  }
  M.Context = C.coalesce();
  M.LightContext = Light.coalesce();
  M.SignContext = Signs.coalesce();
}

const ModelParam *WorkItemModel::groupParam(ModelParam::Kind K,
                                            unsigned Dim) const {
  for (const auto &P : Params)
    if (P->K == K && P->Dim == Dim && !P->Id.is_null())
      return P.get();
  return nullptr;
}

/// The launches without a global offset (offsetFreeLaunches), once the
/// parameters are all made.
void WorkItemModel::Builder::buildOffsetFree() {
  isl::set Free = M.SignContext;
  isl::space PS = Free.space();
  auto Param = [&](const ModelParam &P) {
    return isl::pw_aff(PS.param_aff_on_domain(P.Id));
  };
  isl::pw_aff Zero(isl::aff(isl::local_space(PS), isl::val(Ctx, 0L)));
  for (unsigned D = 0; D < 3; ++D) {
    const ModelParam *G = M.groupParam(ModelParam::GroupId, D),
                     *N = M.groupParam(ModelParam::NumGroups, D),
                     *O = M.groupParam(ModelParam::GroupOffset, D);
    if (!O)
      continue;
    isl::val L(Ctx, long(M.LocalSize[D]));
    isl::pw_aff Off = Param(*O);
    if (G)
      Free = Free.intersect(Off.eq_set(Param(*G).scale(L)));
    else
      Free = Free.intersect(Off.mod(L).eq_set(Zero));
    if (N)
      Free = Free.intersect(Off.lt_set(Param(*N).scale(L)));
  }
  M.OffsetFree = Free.coalesce();
}

void WorkItemModel::Builder::build() {
  M.Kernel = &F;
  localSizeOf(F, M.LocalSize);
  M.Name = F.getName().str();
  if (NamedMDNode *NMD = F.getParent()->getNamedMetadata("iss.context"))
    for (MDNode *N : NMD->operands())
      if (auto *S = dyn_cast<MDString>(N->getOperand(0)))
        ContextDone |= S->getString() == F.getName();
  M.Context = isl::set::universe(isl::space(Ctx, 0, 0).params());
  M.LightContext = M.SignContext = M.Context;
  M.Assumed = M.Context; // kept free of the context's constraints
  M.OpaqueAssumed = isl::set::universe(M.Context.space());
  // The group offsets and the arguments first: their ranges decide which
  // values need no check.
  for (unsigned D = 0; D < 3; ++D)
    paramId(ModelParam::GroupOffset, D, nullptr);
  for (Argument &A : F.args())
    if (A.getType()->isIntegerTy() && A.getType()->getIntegerBitWidth() <= 64)
      paramId(ModelParam::Argument, 0, &A);

  for (BasicBlock *B : barrierBlocks(F)) {
    if (isa<ReturnInst>(B->getTerminator()) || !B->getSingleSuccessor())
      continue;
    RegionModel R;
    R.Barrier = B;
    isl::space WI =
        isl::space(Ctx, 0, 3).set_tuple_id(isl::dim::set, isl::id(Ctx, "WI"));
    for (unsigned D = 0; D < 3; ++D)
      WI = WI.set_dim_id(isl::dim::set, D, isl::id(Ctx, DimNames[D]));
    R.Domain = isl::set::universe(WI);
    for (unsigned D = 0; D < 3; ++D)
      R.Domain =
          R.Domain.lower_bound_val(isl::dim::set, D, 0L)
              .upper_bound_val(isl::dim::set, D, long(M.LocalSize[D] - 1));
    bool Failed = false;
    isl::set SavedAssumed = M.Assumed, SavedOpaque = M.OpaqueAssumed,
             SavedContext = M.Context, SavedLight = M.LightContext,
             SavedSigns = M.SignContext;
    size_t SavedParams = M.Params.size();
    {
      IslQuota Q(Ctx, MaxOps);
      buildRegion(R);
      if (Q.exceeded()) {
        R = RegionModel{B, R.Domain, false, Q.error(), {}, {}, {}, {}};
        Failed = true;
      }
    }
    if (Failed) {
      // Back to the model before the region: what the quota cut short
      // may be cached half-done, parameters without their isl ids.
      M.Assumed = SavedAssumed;
      M.OpaqueAssumed = SavedOpaque;
      M.Context = SavedContext;
      M.LightContext = SavedLight;
      M.SignContext = SavedSigns;
      M.Params.resize(SavedParams);
      ParamIds.clear();
      for (const auto &P : M.Params)
        ParamIds[{int(P->K), {P->Dim, P->V}}] = P->Id;
      Values.clear();
      Scevs.clear();
      Conds.clear();
      BoxChecks.clear();
      Scopes.clear();
      TopScope.reset();
    }
    LLVM_DEBUG(dbgs() << "iss-model: region " << B->getName() << ": "
                      << (R.Modelled ? "modelled" : R.Why) << "\n");
    M.Regions.push_back(std::move(R));
  }
  // Opaque parameters never reach the assumptions (applyChecks), the
  // others are simplified against the context.
  M.Assumed = M.Assumed.gist(M.Context).coalesce();
  if (M.Assumed.is_null())
    M.Assumed = isl::set::universe(M.Context.space());
  M.OpaqueAssumed = M.OpaqueAssumed.gist(M.Context).coalesce();
  if (M.OpaqueAssumed.is_null())
    M.OpaqueAssumed = isl::set::universe(M.Context.space());
  buildOffsetFree();
}

//===----------------------------------------------------------------------===//
// WorkItemModel
//===----------------------------------------------------------------------===//

WorkItemModel::WorkItemModel(Function &F, ScalarEvolution &SE, LoopInfo &LI,
                             ArrayRef<const WorkItemUniformity *> Uniform)
    : Ctx(std::make_unique<IslContext>()) {
  assert(Uniform.size() == 3 && "a uniformity analysis per dimension");
  Builder(*this, F, SE, LI, Uniform).build();
}

// Members go in reverse order: every isl object before the context.
WorkItemModel::~WorkItemModel() = default;

isl::ctx WorkItemModel::ctx() const { return Ctx->get(); }

const RegionModel *WorkItemModel::region(const BasicBlock *Barrier) const {
  for (const RegionModel &R : Regions)
    if (R.Barrier == Barrier)
      return &R;
  return nullptr;
}

const ModelParam *WorkItemModel::param(const isl::id &Id) {
  if (Id.is_null())
    return nullptr;
  return static_cast<const ModelParam *>(Id.get_user());
}

SmallVector<isl::id, 4>
WorkItemModel::opaqueParams(unsigned VaryingWith) const {
  SmallVector<isl::id, 4> R;
  for (const auto &P : Params)
    if (P->K == ModelParam::Opaque &&
        (!VaryingWith || (P->VariesWith & VaryingWith)))
      R.push_back(P->Id);
  return R;
}

isl::set WorkItemModel::simplify(isl::set S) const {
  if (S.is_null())
    return S;
  isl::set C = predicateContext();
  return dropUnusedParams(S.gist_params(C).coalesce());
}

isl::pw_aff WorkItemModel::simplify(isl::pw_aff PA) const {
  if (PA.is_null())
    return PA;
  isl::set C = predicateContext();
  return dropUnusedParams(gistParams(PA, C).coalesce());
}

Value *ModelParam::materialize(IRBuilderBase &B,
                               function_ref<Value *(Value *)> Leaf) const {
  assert((K == Derived || (K == Opaque && Recomputable)) &&
         "only derived and recomputable parameters are recomputed");
  DenseMap<Value *, Value *> Done;
  std::function<Value *(Value *)> Copy = [&](Value *X) -> Value * {
    if (isa<Constant>(X))
      return X;
    if (isa<llvm::Argument>(X) || isWorkGroupGlobalLoad(X) || isLocalIdLoad(X))
      return Leaf(X);
    if (Value *D = Done.lookup(X))
      return D;
    auto *I = cast<Instruction>(X);
    Instruction *C = I->clone();
    for (Use &Op : C->operands())
      Op.set(Copy(Op.get()));
    // Recomputed for work-items and groups that may not run it (under a
    // guard, say): no flag may make it poison there.
    C->dropPoisonGeneratingFlags();
    B.Insert(C, I->getName());
    Done[X] = C;
    return C;
  };
  return Copy(V);
}

Value *
WorkItemModel::paramValue(const ModelParam &P, IRBuilderBase &B,
                          function_ref<Value *(Value *)> MapKernelValue,
                          Value *const *LocalIds) const {
  Module *Mod = Kernel ? Kernel->getParent() : nullptr;
  auto Global = [&](unsigned G) -> Value * {
    GlobalVariable *GV =
        Mod ? Mod->getGlobalVariable(WorkItemGlobals[G]) : nullptr;
    return GV ? MapKernelValue(GV) : nullptr;
  };
  switch (P.K) {
  case ModelParam::GroupOffset: {
    // O_d = group_id_d * L_d + global_offset_d.
    Value *G = Global(6 + P.Dim), *O = Global(12 + P.Dim);
    if (!G || !O)
      return nullptr;
    Value *L = ConstantInt::get(G->getType(), LocalSize[P.Dim]);
    return B.CreateAdd(B.CreateMul(G, L), B.CreateSExtOrTrunc(O, G->getType()),
                       P.Id.get_name());
  }
  case ModelParam::GroupId:
    return Global(6 + P.Dim);
  case ModelParam::NumGroups:
    return Global(9 + P.Dim);
  case ModelParam::WorkDim:
    return Global(15);
  case ModelParam::Argument:
    return MapKernelValue(P.V);
  case ModelParam::Opaque:
    if (!LocalIds || !P.Recomputable)
      return nullptr;
    [[fallthrough]];
  case ModelParam::Derived: {
    bool Missing = false;
    Value *V = P.materialize(B, [&](Value *Leaf) -> Value * {
      Value *From = isa<llvm::Argument>(Leaf)
                        ? Leaf
                        : cast<LoadInst>(Leaf)->getPointerOperand();
      Value *To = nullptr;
      for (unsigned D = 0; D < 3 && LocalIds; ++D)
        if (From->getName() == WorkItemGlobals[D])
          To = LocalIds[D];
      if (!To)
        To = MapKernelValue(From);
      if (!To) {
        Missing = true;
        return UndefValue::get(Leaf->getType());
      }
      return B.CreateZExtOrTrunc(To, Leaf->getType());
    });
    return Missing ? nullptr : V;
  }
  }
  return nullptr;
}

Value *WorkItemModel::emitAssumptionCheck(
    IRBuilderBase &B, function_ref<Value *(Value *)> MapKernelValue) const {
  isl::set A = dropUnusedParams(Assumed);
  isl::set O = dropUnusedParams(OpaqueAssumed);
  if (A.is_null() || O.is_null())
    return nullptr;
  // Each parameter's value once per condition (IslExprEmitter asks for it
  // at each use), for the local ids \p Ids where given.
  bool Missing = false;
  auto ParamsAt = [&](DenseMap<const ModelParam *, Value *> &Memo,
                      Value *const *Ids) {
    return [&, Ids](const isl::id &Id) -> Value * {
      const ModelParam *P = param(Id);
      Value *V = nullptr;
      if (P) {
        auto [It, New] = Memo.try_emplace(P, nullptr);
        if (New)
          It->second = paramValue(*P, B, MapKernelValue, Ids);
        V = It->second;
      }
      Missing |= !V;
      return V;
    };
  };
  Value *Holds = B.getTrue();
  if (!A.is_equal(isl::set::universe(A.space())).is_true()) {
    DenseMap<const ModelParam *, Value *> Memo;
    IslExprEmitter E(B, ParamsAt(Memo, nullptr));
    Expected<Value *> V = E.emitCondition(A, {}, Context);
    if (!V) {
      consumeError(V.takeError());
      return nullptr;
    }
    if (Missing)
      return nullptr;
    Holds = *V;
  }
  if (O.is_equal(isl::set::universe(O.space())).is_true())
    return Holds;

  // The opaque assumptions, for the values of every combination of the
  // local ids they vary with: a loop over those combinations, each one
  // recomputing the opaque parameters.
  unsigned Dims = 0;
  for (const auto &P : Params)
    if (P->K == ModelParam::Opaque && involvesParam(O, P->Id))
      Dims |= P->VariesWith;
  uint64_t N = 1, Stride[3];
  for (unsigned D = 0; D < 3; ++D) {
    Stride[D] = N;
    if (Dims >> D & 1)
      N *= LocalSize[D];
  }
  LLVMContext &C = B.getContext();
  BasicBlock *Pre = B.GetInsertBlock();
  Function *F = Pre->getParent();
  BasicBlock *Loop = BasicBlock::Create(C, "iss.assume.loop", F);
  BasicBlock *Done = BasicBlock::Create(C, "iss.assume.done", F);
  BranchInst *Enter = B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Idx = B.CreatePHI(B.getInt64Ty(), 2, "iss.assume.wi");
  PHINode *All = B.CreatePHI(B.getInt1Ty(), 2, "iss.assume.all");
  Idx->addIncoming(B.getInt64(0), Pre);
  All->addIncoming(B.getTrue(), Pre);
  Value *Ids[3];
  for (unsigned D = 0; D < 3; ++D)
    Ids[D] = Dims >> D & 1
                 ? B.CreateURem(B.CreateUDiv(Idx, B.getInt64(Stride[D])),
                                B.getInt64(LocalSize[D]))
                 : B.getInt64(0);
  DenseMap<const ModelParam *, Value *> Memo;
  IslExprEmitter E(B, ParamsAt(Memo, Ids));
  Expected<Value *> Here = E.emitCondition(O, {}, Context);
  if (!Here || Missing) {
    if (!Here)
      consumeError(Here.takeError());
    // Nothing of it stays: the caller runs the region unsplit.
    Enter->eraseFromParent();
    Loop->dropAllReferences();
    Loop->eraseFromParent();
    Done->eraseFromParent();
    B.SetInsertPoint(Pre);
    return nullptr;
  }
  Value *AllNext = B.CreateAnd(All, B.CreateFreeze(*Here));
  Value *Next = B.CreateAdd(Idx, B.getInt64(1), "", true, true);
  BranchInst *Latch =
      B.CreateCondBr(B.CreateICmpULT(Next, B.getInt64(N)), Loop, Done);
  // The full unroller would take a loop of a few work-items (16 rows)
  // before the vectorizer, and the unrolled checks kept their flags on the
  // stack (FloydWarshall's split ran 1.6x slower than its checks as one
  // vector and-reduction).
  SmallVector<Metadata *, 3> Hints;
  appendVectorizeBeforeUnroll(C, Hints);
  Latch->setMetadata(LLVMContext::MD_loop, makeLoopID(C, Hints));
  Idx->addIncoming(Next, B.GetInsertBlock());
  All->addIncoming(AllNext, B.GetInsertBlock());
  B.SetInsertPoint(Done);
  return B.CreateAnd(Holds, AllNext, "iss.assumed");
}

const ModelBlock *RegionModel::block(const BasicBlock *BB) const {
  for (const ModelBlock &B : Blocks)
    if (B.BB == BB)
      return &B;
  return nullptr;
}

const ModelLoop *RegionModel::loop(const Loop *L) const {
  for (const ModelLoop &ML : Loops)
    if (ML.L == L)
      return &ML;
  return nullptr;
}

SmallVector<unsigned, 2> RegionModel::exitBranches(const ModelLoop &L) const {
  SmallVector<unsigned, 2> R;
  for (unsigned I = 0; I < Branches.size(); ++I) {
    BasicBlock *BB = Branches[I].Term->getParent();
    if (!L.L->contains(BB))
      continue;
    for (BasicBlock *Succ : successors(BB))
      if (!L.L->contains(Succ)) {
        R.push_back(I);
        break;
      }
  }
  return R;
}

static std::string valueName(const Value *V) {
  if (V->hasName())
    return "%" + V->getName().str();
  std::string S;
  raw_string_ostream OS(S);
  V->printAsOperand(OS, false);
  return OS.str();
}

std::string blockName(const BasicBlock *BB) {
  return BB->hasName() ? BB->getName().str() : valueName(BB);
}

void WorkItemModel::print(raw_ostream &OS) const {
  OS << "iss-model of @" << Name << ", local size " << LocalSize[0] << "x"
     << LocalSize[1] << "x" << LocalSize[2] << "\n";
  OS << "  assumed: " << islStr(dropUnusedParams(Assumed)) << "\n";
  if (!OpaqueAssumed.is_equal(isl::set::universe(OpaqueAssumed.space()))
           .is_true())
    OS << "  assumed per work-item: "
       << islStr(dropUnusedParams(OpaqueAssumed)) << "\n";
  for (const RegionModel &R : Regions) {
    OS << "  region " << blockName(R.Barrier);
    if (!R.Modelled) {
      OS << ": not modelled (" << R.Why << ")\n";
      continue;
    }
    OS << ": " << R.Blocks.size() << " blocks, " << R.Loops.size() << " loops, "
       << R.Branches.size() << " branches, " << R.Accesses.size()
       << " accesses\n";
    OS << "    domain: " << islStr(R.Domain) << "\n";
    for (const ModelLoop &L : R.Loops)
      OS << "    loop " << blockName(L.L->getHeader()) << " (k" << L.Depth
         << "): " << (L.Bounded ? "bounded" : "unbounded") << "\n";
    for (const ModelBlock &B : R.Blocks)
      OS << "    block " << blockName(B.BB)
         << (B.Exact ? "" : " (over-approximated)") << ": "
         << islStr(simplify(B.Domain)) << "\n";
    for (const ModelBranch &B : R.Branches) {
      OS << "    branch " << blockName(B.Term->getParent()) << ": "
         << (B.Affine ? "affine" : "non-affine") << "\n";
      if (B.Affine)
        for (unsigned I = 0; I < B.Taken.size(); ++I)
          OS << "      to " << blockName(B.Term->getSuccessor(I)) << ": "
             << islStr(simplify(B.Taken[I])) << "\n";
    }
    for (const ModelAccess &A : R.Accesses) {
      OS << "    " << (A.IsStore ? "store" : "load") << " "
         << blockName(A.I->getParent()) << " " << A.Size << " bytes";
      if (A.Base)
        OS << " at " << valueName(A.Base) << " + " << islStr(simplify(A.Offset))
           << "\n";
      else
        OS << ": non-affine\n";
    }
  }
}

WorkItemModel WorkItemModelAnalysis::run(Function &F,
                                         FunctionAnalysisManager &FAM) {
  // Uniformity along each dimension alone: roots at that local id only.
  unsigned Size[3];
  localSizeOf(F, Size);
  auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  std::unique_ptr<WorkItemUniformity> Along[3];
  const WorkItemUniformity *Ptrs[3] = {nullptr, nullptr, nullptr};
  for (unsigned D = 0; D < 3; ++D)
    if (Size[D] > 1) {
      Along[D] =
          std::make_unique<WorkItemUniformity>(F, PDT, LI, 1u << D, true);
      Ptrs[D] = Along[D].get();
    }
  return WorkItemModel(F, FAM.getResult<ScalarEvolutionAnalysis>(F), LI, Ptrs);
}

PreservedAnalyses WorkItemModelPrinterPass::run(Function &F,
                                                FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || !F.hasFnAttribute("iss-local-size"))
    return PreservedAnalyses::all();
  const WorkItemModel &M = FAM.getResult<WorkItemModelAnalysis>(F);
  M.print(OS);
  WorkGroupConfig Config = WorkGroupConfig::fromCommandLine();
  unsigned Width = Config.VectorWidth;
  SmallVector<unsigned, 3> Dims;
  if (!ModelDims.empty()) {
    for (unsigned D : ModelDims)
      if (D < 3)
        Dims.push_back(D);
  } else {
    for (unsigned D = 0; D < 3; ++D)
      if (M.localSize(D) > 1)
        Dims.push_back(D);
  }
  for (const RegionModel &R : M.regions())
    for (unsigned D : Dims)
      SplittingPredicates(M, R, D, Width, Config.MaxPieces).print(OS);
  return PreservedAnalyses::all();
}

} // namespace iss
