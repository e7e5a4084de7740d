//===- SubkernelScore.cpp - Equation 1 and static elimination -------------===//
// SPDX-License-Identifier: MIT
//
// See SubkernelScore.h.
//
//===----------------------------------------------------------------------===//

#include "Scoring/SubkernelScore.h"

#include "Passes.h"
#include "Splitting/IslExprEmitter.h"
#include "Splitting/SplittingPredicates.h"
#include "Splitting/WorkItemModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <deque>
#include <cmath>
#include <limits>

using namespace llvm;

static cl::opt<unsigned long> MaxCounterBoxOps(
    "iss-score-counter-ops",
    cl::desc("isl operations allowed for the box of one access's loop "
             "counters in the scores"),
    cl::init(100000));

static cl::opt<unsigned long> MaxPartOps(
    "iss-score-part-ops",
    cl::desc("isl operations allowed for one access's parts along one "
             "dimension and their boxes in the scores"),
    cl::init(1000000));

static cl::opt<unsigned> MaxPartBoxes(
    "iss-score-max-parts",
    cl::desc("distinct parts of accesses whose boxes the scores of one "
             "kernel may compute"),
    cl::init(128));

namespace iss {

std::string numGroupsParam(unsigned Dim) {
  return "iss_N" + std::to_string(Dim);
}
std::string globalOffsetParam(unsigned Dim) {
  return "iss_F" + std::to_string(Dim);
}

//===----------------------------------------------------------------------===//
// Scores
//===----------------------------------------------------------------------===//

/// The constant value of \p PA where it is one (a single piece over every
/// parameter), or NaN.
static double constantOf(const isl::pw_aff &PA) {
  isl::aff A = IslExprEmitter::oneExpression(PA);
  isl::set Dom = PA.domain();
  if (A.is_null() || !A.is_cst().is_true() ||
      !Dom.is_equal(isl::set::universe(Dom.space())).is_true())
    return std::nan("");
  isl::val V = A.constant_val();
  return V.is_int().is_true() ? double(V.get_num_si()) : std::nan("");
}

void SubkernelScore::add(double Weight, std::vector<isl::pw_aff> Extents) {
  if (Weight == 0)
    return;
  std::vector<isl::pw_aff> Left;
  for (isl::pw_aff &E : Extents) {
    double C = constantOf(E);
    if (std::isnan(C)) {
      Left.push_back(E);
      continue;
    }
    Weight *= std::max(C, 0.0);
  }
  if (Weight == 0)
    return;
  if (Left.empty()) {
    Constant += Weight;
    return;
  }
  std::vector<std::string> Keys;
  for (const isl::pw_aff &E : Left)
    Keys.push_back(islStr(E));
  std::sort(Keys.begin(), Keys.end());
  std::string Key = join(Keys, " * ");
  for (ScoreTerm &T : Terms)
    if (T.Key == Key) {
      T.Weight += Weight;
      return;
    }
  Terms.push_back({Weight, std::move(Left), std::move(Key)});
}

/// The smallest value \p PA takes for parameters in \p Context where it
/// is defined, clamped at 0; 0 when isl cannot tell.
static double lowestExtent(const isl::pw_aff &PA, const isl::set &Context) {
  isl::pw_aff P = Context.is_null() ? PA : PA.intersect_params(Context);
  // Over a zero-dimensional domain, its values as a set, for any parameters.
  isl::set Values = P.insert_domain(isl::space(P.ctx(), 0, 0))
                        .as_map()
                        .range()
                        .project_out_all_params();
  if (Values.is_null() || Values.is_empty().is_true())
    return 0;
  isl::val V = Values.dim_min_val(0);
  if (V.is_null() || !V.is_int().is_true())
    return 0;
  return std::max(double(V.get_num_si()), 0.0);
}

double SubkernelScore::lowerBound(const isl::set &Context,
                                  double Enough) const {
  // The simplest products first: their bounds are cheap, and often enough.
  std::vector<std::pair<unsigned, const ScoreTerm *>> Order;
  for (const ScoreTerm &T : Terms) {
    unsigned Pieces = 0;
    for (const isl::pw_aff &E : T.Extents) {
      isl::size N = E.n_piece();
      Pieces += N.is_error() ? 1000 : unsigned(N.release());
    }
    Order.push_back({Pieces, &T});
  }
  std::stable_sort(Order.begin(), Order.end(),
                   [](const auto &A, const auto &B) { return A.first < B.first; });
  double Sum = Constant;
  for (const auto &[Pieces, T] : Order) {
    if (Sum >= Enough)
      break;
    double P = T->Weight;
    for (const isl::pw_aff &E : T->Extents)
      if (P > 0)
        P *= lowestExtent(E, Context);
    Sum += P;
  }
  return Sum;
}

/// Whether \p A >= \p B for every parameter in \p Context (null: any).
static bool atLeast(const isl::pw_aff &A, const isl::pw_aff &B,
                    const isl::set &Context) {
  isl::set Where = A.ge_set(B);
  isl::set Need = A.domain().intersect(B.domain());
  if (!Context.is_null())
    Need = Need.intersect_params(Context);
  return !Where.is_null() && Need.is_subset(Where).is_true();
}

/// Whether the product of \p A's extents is at least \p B's for every
/// parameter in \p Context: the same product, or each extent at least
/// the other's, dimension by dimension (the extents are >= 0).
static bool coversTerm(const ScoreTerm &A, const ScoreTerm &B,
                       const isl::set &Context) {
  if (A.Key == B.Key)
    return true;
  if (A.Extents.size() != B.Extents.size())
    return false;
  for (size_t I = 0; I < A.Extents.size(); ++I)
    if (!atLeast(A.Extents[I], B.Extents[I], Context))
      return false;
  return true;
}

bool SubkernelScore::dominates(const SubkernelScore &Other,
                               const isl::set &Context) const {
  // Lower bound against a constant: the scalar fallback's 1.
  if (Other.Terms.empty())
    return lowerBound(Context, Other.Constant) >= Other.Constant;
  // Term by term (the paper's comparison of the linear combinations of
  // volumes, generalized): each product of Other is covered by products
  // here at least as large for every launch, whose weights it uses up.
  if (Constant < Other.Constant)
    return false;
  std::vector<double> Left;
  for (const ScoreTerm &T : Terms)
    Left.push_back(T.Weight);
  for (const ScoreTerm &T : Other.Terms) {
    double Need = T.Weight;
    for (size_t I = 0; I < Terms.size() && Need > 0; ++I)
      if (Left[I] > 0 && coversTerm(Terms[I], T, Context)) {
        double Take = std::min(Left[I], Need);
        Left[I] -= Take;
        Need -= Take;
      }
    if (Need > 0)
      return false;
  }
  return true;
}

Expected<Value *>
SubkernelScore::emit(IRBuilderBase &B,
                     std::function<Value *(const isl::id &)> ValueOf,
                     const isl::set &Context,
                     std::map<std::string, Value *> *Emitted) const {
  IslExprEmitter E(B, std::move(ValueOf));
  Type *F64 = B.getDoubleTy();
  Value *Sum = ConstantFP::get(F64, Constant);
  std::map<std::string, Value *> Local;
  if (!Emitted)
    Emitted = &Local;
  for (const ScoreTerm &T : Terms) {
    Value *P = ConstantFP::get(F64, T.Weight);
    for (const isl::pw_aff &X : T.Extents) {
      // Subkernels share extents (the loop counters' above all): each is
      // computed once.
      Value *&Extent = (*Emitted)[islStr(X)];
      if (!Extent) {
        Expected<Value *> V = E.emit(X, {}, Context);
        if (!V)
          return V.takeError();
        Value *NonNeg = B.CreateSelect(B.CreateICmpSGT(*V, B.getInt64(0)), *V,
                                       B.getInt64(0));
        Extent = B.CreateSIToFP(NonNeg, F64);
      }
      P = B.CreateFMul(P, Extent);
    }
    Sum = B.CreateFAdd(Sum, P);
  }
  return Sum;
}

void SubkernelScore::print(raw_ostream &OS) const {
  OS << format("%g", Constant);
  for (const ScoreTerm &T : Terms)
    OS << " + " << format("%g", T.Weight) << " * " << T.Key;
}

//===----------------------------------------------------------------------===//
// Boxes over a launch
//===----------------------------------------------------------------------===//

isl::set globalView(isl::set S, const unsigned Local[3],
                    const GroupParams &P) {
  isl::ctx Ctx = S.ctx();
  auto Rename = [&](const isl::id &Id, const std::string &Name) {
    if (Id.is_null())
      return;
    int Pos = S.find_dim_by_id(isl::dim::param, Id);
    if (Pos >= 0)
      S = S.set_dim_id(isl::dim::param, Pos, isl::id(Ctx, Name));
  };
  std::string O[3], G[3], N[3], F[3];
  for (unsigned D = 0; D < 3; ++D) {
    O[D] = "iss_O" + std::to_string(D);
    G[D] = "iss_G" + std::to_string(D);
    N[D] = numGroupsParam(D);
    F[D] = globalOffsetParam(D);
    Rename(P.Offset[D], O[D]);
    Rename(P.GroupId[D], G[D]);
    Rename(P.NumGroups[D], N[D]);
  }
  unsigned Dims = islDim(S, isl::dim::set);
  // [O0, O1, O2] -> { [i0, ..., in] -> [i0 + O0, i1 + O1, i2 + O2, i3, ...] }
  std::string In, Out;
  for (unsigned I = 0; I < Dims; ++I) {
    std::string V = "i" + std::to_string(I);
    In += (I ? ", " : "") + V;
    Out += (I ? ", " : "") + V + (I < 3 ? " + " + O[I] : "");
  }
  isl::map Shift(Ctx, "[" + O[0] + ", " + O[1] + ", " + O[2] + "] -> { [" +
                          In + "] -> [" + Out + "] }");
  // Every work group: O_d = L_d * g_d + F_d, 0 <= g_d < N_d, F_d >= 0.
  std::string Groups;
  for (unsigned D = 0; D < 3; ++D) {
    bool HasG = !P.GroupId[D].is_null();
    std::string Gd = HasG ? G[D] : "g" + std::to_string(D);
    std::string Clause = O[D] + " = " + std::to_string(Local[D]) + "*" + Gd +
                         " + " + F[D] + " and 0 <= " + Gd + " < " + N[D];
    Groups += std::string(D ? " and " : "") + F[D] + " >= 0 and " +
              (HasG ? "(" : "exists (" + Gd + " : ") + Clause + ")";
  }
  std::string Params = "[";
  for (unsigned D = 0; D < 3; ++D)
    Params += O[D] + ", " + G[D] + ", " + N[D] + ", " + F[D] +
              (D < 2 ? ", " : "");
  isl::set Launch(Ctx, Params + "] -> { : " + Groups + " }");
  isl::set R = S.reset_tuple_id().apply(Shift).intersect_params(Launch);
  for (unsigned D = 0; D < 3; ++D)
    for (const std::string &Name : {O[D], G[D]}) {
      int Pos = R.find_dim_by_id(isl::dim::param, isl::id(Ctx, Name));
      if (Pos >= 0)
        R = R.project_out(isl::dim::param, Pos, 1);
    }
  return R.coalesce();
}

std::vector<isl::pw_aff> boxExtents(const isl::set &S,
                                    const isl::set &Context) {
  std::vector<isl::pw_aff> Out;
  unsigned Dims = islDim(S, isl::dim::set);
  isl::set Params = S.params();
  isl::pw_aff Zero = isl::pw_aff(isl::set::universe(Params.space()),
                                 isl::val::zero(S.ctx()));
  for (unsigned I = 0; I < Dims; ++I) {
    isl::pw_aff Max = S.dim_max(I), Min = S.dim_min(I);
    if (Max.is_null() || Min.is_null() || Max.involves_nan().is_true() ||
        Min.involves_nan().is_true())
      continue;
    isl::pw_aff E = Max.sub(Min).add(isl::pw_aff(
        isl::set::universe(Params.space()), isl::val::one(S.ctx())));
    E = unionMax(E, Zero);
    // Simplified where that is cheap: a single piece gisted keeps its
    // text canonical for the comparison of products.
    isl::size Pieces = E.n_piece();
    if (!Context.is_null() && !Pieces.is_error() && unsigned(Pieces.release()) <= 2)
      E = gistParams(E, Context);
    Out.push_back(dropUnusedParams(E.coalesce()));
  }
  return Out;
}

/// The model's group parameters.
static GroupParams groupParams(const WorkItemModel &M) {
  GroupParams P;
  for (unsigned D = 0; D < 3; ++D) {
    auto Id = [&](ModelParam::Kind K) {
      const ModelParam *MP = M.groupParam(K, D);
      return MP ? MP->Id : isl::id();
    };
    P.Offset[D] = Id(ModelParam::GroupOffset);
    P.GroupId[D] = Id(ModelParam::GroupId);
    P.NumGroups[D] = Id(ModelParam::NumGroups);
  }
  return P;
}

/// Whether \p A reads or writes the kernel's memory (buffers, __local and
/// __constant variables) rather than private memory: a private variable's
/// copies, a context slot, the scratch memory they may live in.
static bool kernelMemory(const ModelAccess &A) {
  const Value *Ptr = getLoadStorePointerOperand(A.I);
  if (!Ptr)
    return false;
  const Value *Obj = getUnderlyingObject(A.Base ? A.Base : Ptr);
  if (isa<AllocaInst>(Obj))
    return false;
  if (auto *L = dyn_cast<LoadInst>(Obj))
    if (auto *G = dyn_cast<GlobalVariable>(L->getPointerOperand()))
      return G->getName() != ScratchGlobal;
  return true;
}

std::vector<SubkernelScore>
scoresOf(const WorkItemModel &M, ArrayRef<unsigned> Dims, const ScoreWeights &W,
         isl::set *ContextOut, std::string *Unscored) {
  // Without a modelled region every dimension would score 0, and the
  // scalar fallback would run every launch: rather no scores (an image
  // kernel whose model ran out of quota ran scalar).
  auto Regions = M.regions();
  if (!Regions.empty() &&
      none_of(Regions, [](const RegionModel &R) { return R.Modelled; })) {
    if (Unscored)
      *Unscored = "no region is modelled: " + Regions.front().Why;
    return {};
  }
  std::vector<SubkernelScore> Scores(Dims.size());
  unsigned Local[3];
  for (unsigned D = 0; D < 3; ++D)
    Local[D] = M.localSize(D);
  GroupParams GP = groupParams(M);
  SmallVector<isl::id, 4> Opaque = M.opaqueParams();
  auto WithoutOpaque = [&](isl::set S) {
    for (const isl::id &Id : Opaque) {
      int Pos = S.find_dim_by_id(isl::dim::param, Id);
      if (Pos >= 0)
        S = S.project_out(isl::dim::param, Pos, 1);
    }
    return S;
  };
  // What is known of the launch parameters: the model's context (without
  // the bounds of 64-bit parameters, which make isl's arithmetic slow and
  // tell a box nothing) and assumptions, its group parameters replaced.
  isl::set Known =
      WithoutOpaque(globalView(isl::set::universe(isl::space(M.ctx(), 0, 3))
                                   .intersect_params(M.predicateContext()),
                               Local, GP)
                        .params())
          .coalesce();
  if (ContextOut)
    *ContextOut = Known;
  // The box of a part of an access's instances: its work-items' extents
  // over the launch, times the extents of the access's loop counters over
  // all its instances (the same for every part and every dimension: one
  // product to compare and to emit).
  //
  // Accesses of one block share their instances, and often their parts
  // (Convolution2D's input and mask: the same loops, the same interior):
  // each box is computed once per set, and a quota that ran out, once.
  struct KnownBox {
    isl::set S;
    std::vector<isl::pw_aff> Extents;
    bool Exact;
  };
  // Parts' boxes and loop counters' boxes apart: the same set means
  // different things to each. Deques: references stay valid.
  std::deque<KnownBox> PartBoxes, CounterBoxes;
  auto Memo = [](std::deque<KnownBox> &Boxes, const isl::set &S,
                  function_ref<std::vector<isl::pw_aff>(bool &)> Compute)
      -> const KnownBox & {
    for (const KnownBox &K : Boxes)
      if (plainIsEqual(K.S, S))
        return K;
    bool Exact = true;
    std::vector<isl::pw_aff> E = Compute(Exact);
    Boxes.push_back({S, std::move(E), Exact});
    return Boxes.back();
  };
  auto Box = [&](const isl::set &WorkItems, ArrayRef<isl::pw_aff> Counters,
                 SubkernelScore &Score, bool CountersExact) {
    const KnownBox &K = Memo(PartBoxes, WorkItems, [&](bool &Exact) {
      isl::set Global = globalView(WithoutOpaque(WorkItems), Local, GP);
      Exact = isBox(Global);
      return boxExtents(Global, Known);
    });
    Score.countPart(CountersExact && K.Exact);
    std::vector<isl::pw_aff> E = K.Extents;
    E.insert(E.end(), Counters.begin(), Counters.end());
    return E;
  };
  for (const RegionModel &R : M.regions()) {
    if (!R.Modelled)
      continue;
    SmallVector<std::unique_ptr<SplittingPredicates>, 3> SP;
    for (unsigned D : Dims)
      SP.push_back(std::make_unique<SplittingPredicates>(
          M, R, D, /*Width=*/1, /*MaxRanges=*/1, /*PointwiseOnly=*/true));
    for (unsigned A = 0; A < R.Accesses.size(); ++A) {
      const ModelAccess &Acc = R.Accesses[A];
      if (!kernelMemory(Acc))
        continue;
      isl::set Runs = SplittingPredicates::toWorkItems(Acc.Domain, R.Domain);
      std::vector<isl::pw_aff> Counters;
      bool CountersExact = true;
      if (islDim(Acc.Domain, isl::dim::set) > 3) {
        // Bounds of clamped loops take isl long to maximize: past a quota
        // the counters are left out of the access's products (a factor
        // common to all its parts and all dimensions).
        const KnownBox &K = Memo(CounterBoxes, Acc.Domain, [&](bool &Exact) {
          IslQuota Q(M.ctx(), MaxCounterBoxOps);
          isl::set All = globalView(
              WithoutOpaque(Acc.Domain.reset_tuple_id()), Local, GP);
          isl::set Loops = All.project_out(isl::dim::set, 0, 3);
          std::vector<isl::pw_aff> E = boxExtents(Loops, Known);
          Exact = isBox(All);
          if (Q.exceeded()) {
            E.clear();
            Exact = false;
          }
          return E;
        });
        Counters = K.Extents;
        CountersExact = K.Exact;
      }
      for (unsigned I = 0; I < Dims.size(); ++I) {
        // Under a quota: periodic guards (`(i & 3) == 0` beside a tail
        // guard, a checkerboard's `((x + y) & 1) == color`) cut the parts
        // into pieces whose boxes isl's maxima and unions multiply
        // without end. Past it the kernel is not scored at all: a score
        // without some part would favour whichever dimension lost it.
        IslQuota Q(M.ctx(), MaxPartOps);
        isl::set Cons = SP[I]->consecutivePoints(A).intersect(Runs);
        isl::set Uni = SP[I]->uniformPoints(A).intersect(Runs);
        isl::set Div = Runs;
        auto Add = [&](double Weight, const isl::set &Part) {
          if (Part.is_null() || !Part.is_empty().is_false())
            return;
          Scores[I].add(Weight, Box(Part, Counters, Scores[I], CountersExact));
          Div = Div.subtract(Part);
        };
        Add(W.Consecutive, Cons);
        Add(W.Uniform, Uni.subtract(Cons));
        Add(W.Divergent, Div.coalesce());
        if (Q.exceeded()) {
          if (Unscored)
            *Unscored = "the parts of an access in " +
                        Acc.I->getParent()->getName().str() + ": " + Q.error();
          return {};
        }
      }
      // Each part's box costs isl a maximum and a minimum per dimension;
      // a kernel of many accesses with parts of their own (a stencil of
      // many clamped taps: two each) would spend seconds on them.
      if (PartBoxes.size() > MaxPartBoxes) {
        if (Unscored)
          *Unscored = "more than " + std::to_string(MaxPartBoxes) +
                      " parts of accesses to size (-iss-score-max-parts)";
        return {};
      }
    }
  }
  return Scores;
}

} // namespace iss
