//===- SubkernelScore.cpp - Equation 1 and static elimination -------------===//
// SPDX-License-Identifier: MIT
//
// See SubkernelScore.h.
//
//===----------------------------------------------------------------------===//

#include "Scoring/SubkernelScore.h"

#include "Splitting/IslExprEmitter.h"
#include "Splitting/SplittingPredicates.h"
#include "Splitting/WorkItemModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Argument.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace llvm;

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

double SubkernelScore::lowerBound(const isl::set &Context) const {
  double Sum = Constant;
  for (const ScoreTerm &T : Terms) {
    double P = T.Weight;
    for (const isl::pw_aff &E : T.Extents)
      P *= lowestExtent(E, Context);
    Sum += P;
  }
  return Sum;
}

bool SubkernelScore::dominates(const SubkernelScore &Other,
                               const isl::set &Context) const {
  // Lower bound against a constant: the scalar fallback's 1.
  if (Other.Terms.empty())
    return lowerBound(Context) >= Other.Constant;
  // Term by term (the paper's comparison of the linear combinations of
  // volumes): every product of Other appears here with at least its
  // weight; products and the constant only here add to the difference.
  if (Constant < Other.Constant)
    return false;
  for (const ScoreTerm &T : Other.Terms) {
    auto It = std::find_if(Terms.begin(), Terms.end(),
                           [&](const ScoreTerm &U) { return U.Key == T.Key; });
    if (It == Terms.end() || It->Weight < T.Weight)
      return false;
  }
  return true;
}

Expected<Value *>
SubkernelScore::emit(IRBuilderBase &B,
                     std::function<Value *(const isl::id &)> ValueOf,
                     const isl::set &Context) const {
  IslExprEmitter E(B, std::move(ValueOf));
  Type *F64 = B.getDoubleTy();
  Value *Sum = ConstantFP::get(F64, Constant);
  for (const ScoreTerm &T : Terms) {
    Value *P = ConstantFP::get(F64, T.Weight);
    for (const isl::pw_aff &X : T.Extents) {
      Expected<Value *> V = E.emit(X, {}, Context);
      if (!V)
        return V.takeError();
      Value *NonNeg =
          B.CreateSelect(B.CreateICmpSGT(*V, B.getInt64(0)), *V, B.getInt64(0));
      P = B.CreateFMul(P, B.CreateSIToFP(NonNeg, F64));
    }
    Sum = B.CreateFAdd(Sum, P);
  }
  return Sum;
}

void SubkernelScore::print(raw_ostream &OS) const {
  OS << Constant;
  for (const ScoreTerm &T : Terms)
    OS << " + " << T.Weight << " * " << T.Key;
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
    if (!Context.is_null())
      E = gistParams(E, Context);
    Out.push_back(dropUnusedParams(E.coalesce()));
  }
  return Out;
}

/// The model's group parameters.
static GroupParams groupParams(const WorkItemModel &M) {
  GroupParams P;
  for (const auto &MP : M.params()) {
    if (MP->Id.is_null())
      continue;
    if (MP->K == ModelParam::GroupOffset)
      P.Offset[MP->Dim] = MP->Id;
    else if (MP->K == ModelParam::GroupId)
      P.GroupId[MP->Dim] = MP->Id;
    else if (MP->K == ModelParam::NumGroups)
      P.NumGroups[MP->Dim] = MP->Id;
  }
  return P;
}

/// \p WI, a set of work-items { WI[x, y, z] }, as instances of \p Domain
/// (over { H[x, y, z, k...] }): those of Domain whose work-item is in WI.
static isl::set instancesOf(const isl::set &WI, const isl::set &Domain) {
  unsigned Extra = islDim(Domain, isl::dim::set) - 3;
  return Domain.reset_tuple_id().intersect(
      WI.reset_tuple_id().add_dims(isl::dim::set, Extra));
}

SubkernelScore scoreOf(const WorkItemModel &M, unsigned Dim,
                       const ScoreWeights &W, isl::set *ContextOut) {
  SubkernelScore Score;
  unsigned Local[3];
  for (unsigned D = 0; D < 3; ++D)
    Local[D] = M.localSize(D);
  GroupParams GP = groupParams(M);
  SmallVector<isl::id, 4> Opaque = M.opaqueParams();
  // What is known of the launch parameters: the model's context, its group
  // parameters replaced.
  isl::set Known = globalView(
      isl::set::universe(isl::space(M.ctx(), 0, 3)).intersect_params(
          M.context().intersect(M.assumptions())),
      Local, GP).params();
  for (const isl::id &Id : Opaque) {
    int Pos = Known.find_dim_by_id(isl::dim::param, Id);
    if (Pos >= 0)
      Known = Known.project_out(isl::dim::param, Pos, 1);
  }
  Known = Known.coalesce();
  if (ContextOut)
    *ContextOut = Known;
  auto Box = [&](isl::set Instances) {
    for (const isl::id &Id : Opaque) {
      int Pos = Instances.find_dim_by_id(isl::dim::param, Id);
      if (Pos >= 0)
        Instances = Instances.project_out(isl::dim::param, Pos, 1);
    }
    return boxExtents(globalView(Instances, Local, GP), Known);
  };
  for (const RegionModel &R : M.regions()) {
    if (!R.Modelled)
      continue;
    SplittingPredicates SP(M, R, Dim, /*Width=*/1, /*MaxRanges=*/1,
                           /*PointwiseOnly=*/true);
    for (unsigned A = 0; A < R.Accesses.size(); ++A) {
      const ModelAccess &Acc = R.Accesses[A];
      // The kernel's memory: buffers, __local and __constant variables.
      if (!Acc.Base || !(isa<Argument>(Acc.Base) || isa<GlobalVariable>(Acc.Base)))
        continue;
      isl::set Runs = SplittingPredicates::toWorkItems(Acc.Domain, R.Domain);
      isl::set Cons = SP.consecutivePoints(A).intersect(Runs);
      isl::set Uni = SP.uniformPoints(A).intersect(Runs);
      if (!Cons.is_null() && Cons.is_empty().is_false())
        Score.add(W.Consecutive, Box(instancesOf(Cons, Acc.Domain)));
      if (!Uni.is_null() && Uni.is_empty().is_false())
        Score.add(W.Uniform, Box(instancesOf(Uni, Acc.Domain)));
    }
  }
  return Score;
}

} // namespace iss
