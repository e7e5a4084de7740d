//===- IslExprEmitter.cpp - isl expressions as LLVM IR --------------------===//
// SPDX-License-Identifier: MIT
//
// IslExprEmitter (see IslExprEmitter.h): quasi-affine pieces are written
// directly; otherwise isl's AST builder writes the expression and this
// file walks it.
//
//===----------------------------------------------------------------------===//

#include "Splitting/IslExprEmitter.h"

#include "llvm/IR/IRBuilder.h"

#include <limits>
#include <optional>

using namespace llvm;

namespace iss {

static Error fail(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(),
                           "cannot emit the isl expression: " + Why);
}

/// The parameter names the set dimensions are bound to when emitting.
static std::string dimName(unsigned I) { return "__iss_d" + std::to_string(I); }

isl::ast_expr IslExprEmitter::toAst(const isl::pw_aff &PA,
                                    const isl::set &Context,
                                    ArrayRef<std::string> DimNames) {
  if (PA.is_null())
    return isl::ast_expr();
  isl::ctx Ctx = PA.ctx();
  isl::pw_aff P = PA;
  isl::space Dom = PA.domain_space();
  unsigned N = islDim(Dom, isl::dim::set);
  if (N) {
    assert(DimNames.size() >= N && "a name for each set dimension");
    isl::id_list Ids(Ctx, N);
    for (unsigned I = 0; I < N; ++I)
      Ids = Ids.add(isl::id(Ctx, DimNames[I]));
    P = P.bind_domain(isl::multi_id(Dom, Ids));
  }
  isl::set C = Context.is_null() ? isl::set::universe(P.space().params())
                                 : Context.align_params(P.space());
  P = gistParams(P, C);
  return isl::ast_build::from_context(C).expr_from(P);
}

Expected<Value *> IslExprEmitter::emit(const isl::pw_aff &PA,
                                       ArrayRef<Value *> DimValues,
                                       const isl::set &Context) {
  SmallVector<std::string, 3> Names;
  for (unsigned I = 0; I < DimValues.size(); ++I) {
    Names.push_back(dimName(I));
    Dims[Names.back()] = DimValues[I];
  }
  if (islDim(PA.domain_space(), isl::dim::set) != DimValues.size())
    return fail("a value for each set dimension is needed");
  // One affine expression on all its pieces (an offset on the instances of
  // a range, which are a union): its value wherever it is defined.
  if (isl::aff Same = oneExpression(PA); !Same.is_null())
    if (Value *V = emitQuasiAffine(Same, DimValues))
      return V;
  if (Value *V = emitPieces(PA, DimValues))
    return V;
  isl::ast_expr E = toAst(PA, Context, Names);
  if (E.is_null())
    return fail("isl could not build it");
  return emit(E);
}

Expected<Value *> IslExprEmitter::emitCondition(const isl::set &S,
                                                ArrayRef<Value *> DimValues,
                                                const isl::set &Context) {
  if (S.is_null())
    return fail("a null set");
  isl::ctx Ctx = S.ctx();
  unsigned N = islDim(S, isl::dim::set);
  if (N != DimValues.size())
    return fail("a value for each set dimension is needed");
  if (Value *V = emitSet(S, DimValues))
    return V;
  isl::set P = S;
  if (N) {
    isl::id_list Ids(Ctx, N);
    for (unsigned I = 0; I < N; ++I) {
      Ids = Ids.add(isl::id(Ctx, dimName(I)));
      Dims[dimName(I)] = DimValues[I];
    }
    P = S.bind(isl::multi_id(S.space(), Ids));
  }
  isl::set C = Context.is_null() ? isl::set::universe(P.space())
                                 : Context.align_params(P.space());
  isl::ast_expr E = isl::ast_build::from_context(C).expr_from(P.gist(C));
  if (E.is_null())
    return fail("isl could not build it");
  return emit(E);
}

/// \p V as an i64, if it is an integer in its range.
static std::optional<int64_t> toInt64(const isl::val &V) {
  if (!V.is_int().is_true() || V.lt(isl::val(V.ctx(), LONG_MIN)).is_true() ||
      V.gt(isl::val(V.ctx(), LONG_MAX)).is_true())
    return std::nullopt;
  return V.get_num_si();
}

isl::aff IslExprEmitter::oneExpression(const isl::pw_aff &PA) {
  isl::aff Same;
  bool One = true;
  PA.foreach_piece([&](isl::set, isl::aff A) {
    if (Same.is_null())
      Same = A;
    else if (!plainIsEqual(Same, A))
      One = false;
    return isl::stat::ok();
  });
  return One ? Same : isl::aff();
}

/// The terms of the integer N with \p A = N / \p Den, Den > 0: the
/// coefficients and values of A times its denominator (parameters, set
/// dimensions, and local dimensions, the floors of such expressions), and
/// its constant. False when a number is out of the range of i64, a set
/// dimension has no value or isl does not know a local dimension.
bool IslExprEmitter::numeratorTerms(const isl::aff &A,
                                    ArrayRef<Value *> DimValues, Terms &Out,
                                    int64_t &Constant, int64_t &Den) {
  if (A.is_null())
    return false;
  std::optional<int64_t> D = toInt64(A.get_denominator_val());
  if (!D || *D <= 0)
    return false;
  Den = *D;
  isl::aff N = A.scale(isl::val(A.ctx(), *D));
  std::optional<int64_t> C = toInt64(N.get_constant_val());
  if (!C || *C == std::numeric_limits<int64_t>::min())
    return false;
  Constant = *C;
  auto Add = [&](isl::dim Type, unsigned I,
                 function_ref<Value *()> ValueOfDim) {
    isl::val K = coefficient(N, Type, I);
    if (K.is_zero().is_true())
      return true;
    std::optional<int64_t> K64 = toInt64(K);
    // sum() negates negative coefficients.
    if (K64 == std::numeric_limits<int64_t>::min())
      return false;
    Value *V = K64 ? ValueOfDim() : nullptr;
    if (V)
      Out.push_back({V, *K64});
    return V != nullptr;
  };
  isl::space Space = N.space();
  for (unsigned I = 0, E = islDim(Space, isl::dim::param); I < E; ++I)
    if (!Add(isl::dim::param, I,
             [&] { return idValue(Space.dim_id(isl::dim::param, I)); }))
      return false;
  if (islDim(N, isl::dim::in) != DimValues.size())
    return false;
  for (unsigned I = 0; I < DimValues.size(); ++I)
    if (!Add(isl::dim::in, I, [&] { return toI64(DimValues[I]); }))
      return false;
  for (unsigned I = 0, E = islDim(N, isl::dim::div); I < E; ++I)
    if (!Add(isl::dim::div, I, [&]() -> Value * {
          int64_t InnerDen;
          Value *Inner =
              emitNumerator(divExpression(N, I), DimValues, InnerDen);
          return Inner ? floorDiv(Inner, B.getInt64(InnerDen)) : nullptr;
        }))
      return false;
  return true;
}

/// The sum of \p T's terms, each times \p Sign, those of that sign alone,
/// plus \p Constant.
Value *IslExprEmitter::sum(const Terms &T, int Sign, int64_t Constant) {
  Value *R = nullptr;
  for (auto [V, K] : T) {
    if ((K > 0) != (Sign > 0))
      continue;
    int64_t M = Sign > 0 ? K : -K;
    Value *Term = M == 1 ? V : B.CreateMul(V, B.getInt64(M));
    R = R ? B.CreateAdd(R, Term) : Term;
  }
  if (!R)
    return B.getInt64(Constant);
  return Constant ? B.CreateAdd(R, B.getInt64(Constant)) : R;
}

Value *IslExprEmitter::emitNumerator(const isl::aff &A,
                                     ArrayRef<Value *> DimValues,
                                     int64_t &Den) {
  Terms T;
  int64_t Constant;
  if (!numeratorTerms(A, DimValues, T, Constant, Den))
    return nullptr;
  // Positive terms first, the others subtracted: no negation.
  Value *Pos = sum(T, 1, Constant);
  bool AnyNeg = any_of(T, [](auto &KV) { return KV.second < 0; });
  return AnyNeg ? B.CreateSub(Pos, sum(T, -1, 0)) : Pos;
}

Value *IslExprEmitter::emitConstraint(const isl::aff &A, bool IsEq,
                                      ArrayRef<Value *> DimValues) {
  Terms T;
  int64_t Constant, Den;
  if (!numeratorTerms(A, DimValues, T, Constant, Den))
    return nullptr;
  // Den * A >= 0 (= 0) as (positive terms) >= (negative terms), the
  // constant on the side where it is positive: the comparison isl's AST
  // would write, with no negation.
  Value *L = sum(T, 1, Constant > 0 ? Constant : 0);
  Value *R = sum(T, -1, Constant < 0 ? -Constant : 0);
  if (IsEq)
    return isa<llvm::Constant>(L) ? B.CreateICmpEQ(R, L) : B.CreateICmpEQ(L, R);
  return isa<llvm::Constant>(L) ? B.CreateICmpSLE(R, L)
                                  : B.CreateICmpSGE(L, R);
}

Value *IslExprEmitter::emitQuasiAffine(const isl::aff &A,
                                       ArrayRef<Value *> DimValues) {
  int64_t Den;
  Value *N = emitNumerator(A, DimValues, Den);
  return N && Den == 1 ? N : nullptr;
}

Value *IslExprEmitter::emitSet(const isl::set &S,
                               ArrayRef<Value *> DimValues) {
  Value *Any = nullptr;
  bool Ok = true;
  S.foreach_basic_set([&](isl::basic_set BS) {
    Value *All = nullptr;
    for (auto &[A, IsEq] : constraintsOf(BS)) {
      Value *C = emitConstraint(A, IsEq, DimValues);
      if (!C) {
        Ok = false;
        return isl::stat::error();
      }
      All = All ? B.CreateAnd(All, C) : C;
    }
    All = All ? All : B.getTrue();
    Any = Any ? B.CreateOr(Any, All) : All;
    return isl::stat::ok();
  });
  if (!Ok)
    return nullptr;
  return Any ? Any : B.getFalse();
}

Value *IslExprEmitter::emitPieces(const isl::pw_aff &PA,
                                  ArrayRef<Value *> DimValues) {
  SmallVector<std::pair<isl::set, isl::aff>, 4> Pieces;
  PA.foreach_piece([&](isl::set S, isl::aff A) {
    Pieces.push_back({S, A});
    return isl::stat::ok();
  });
  // The pieces are disjoint: the last one's value where no other's
  // domain holds (outside every domain the expression is undefined).
  Value *R = nullptr;
  for (unsigned I = Pieces.size(); I-- > 0;) {
    Value *V = emitQuasiAffine(Pieces[I].second, DimValues);
    Value *In = R ? emitSet(Pieces[I].first, DimValues) : B.getTrue();
    if (!V || !In)
      return nullptr;
    R = R ? B.CreateSelect(In, V, R) : V;
  }
  return R;
}

Value *IslExprEmitter::toI64(Value *V) {
  if (V->getType()->isIntegerTy(64) || V->getType()->isIntegerTy(1))
    return V;
  return B.CreateSExtOrTrunc(V, B.getInt64Ty());
}

Value *IslExprEmitter::idValue(const isl::id &Id) {
  if (!Id.get_user()) {
    auto It = Dims.find(Id.get_name());
    if (It != Dims.end())
      return toI64(It->second);
  }
  Value *V = ValueOf(Id);
  return V ? toI64(V) : nullptr;
}

Value *IslExprEmitter::floorDiv(Value *N, Value *D) {
  if (auto *C = dyn_cast<ConstantInt>(D); C && C->getValue().isPowerOf2())
    return B.CreateAShr(N, C->getValue().logBase2());
  // Rounding down: one less than the truncated quotient when the remainder
  // is not zero and its sign differs from the divisor's.
  Value *Q = B.CreateSDiv(N, D);
  Value *R = B.CreateSRem(N, D);
  Value *Zero = B.getInt64(0);
  Value *Adjust = B.CreateAnd(
      B.CreateICmpNE(R, Zero),
      B.CreateICmpNE(B.CreateICmpSLT(R, Zero), B.CreateICmpSLT(D, Zero)));
  return B.CreateSub(Q, B.CreateZExt(Adjust, B.getInt64Ty()));
}

Expected<Value *> IslExprEmitter::emit(const isl::ast_expr &E) {
  if (E.isa<isl::ast_expr_int>().is_true()) {
    std::optional<int64_t> V = toInt64(E.as<isl::ast_expr_int>().val());
    if (!V)
      return fail("a constant out of the range of i64");
    return B.getInt64(*V);
  }
  if (E.isa<isl::ast_expr_id>().is_true()) {
    isl::id Id = E.as<isl::ast_expr_id>().id();
    if (Value *V = idValue(Id))
      return V;
    return fail("no value for parameter " + Id.get_name());
  }
  if (!E.isa<isl::ast_expr_op>().is_true())
    return fail("an unknown expression");
  isl::ast_expr_op Op = E.as<isl::ast_expr_op>();
  int N = Op.n_arg().release();
  SmallVector<Value *, 4> Args;
  for (int I = 0; I < N; ++I) {
    Expected<Value *> A = emit(Op.arg(I));
    if (!A)
      return A.takeError();
    Args.push_back(*A);
  }
  auto Is = [&](auto Tag) { return Op.isa<decltype(Tag)>().is_true(); };
  auto Chain = [&](CmpInst::Predicate P) {
    Value *R = Args[0];
    for (int I = 1; I < N; ++I)
      R = B.CreateSelect(B.CreateICmp(P, R, Args[I]), R, Args[I]);
    return R;
  };
  if (Is(isl::ast_expr_op_add()))
    return B.CreateAdd(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_sub()))
    return B.CreateSub(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_mul()))
    return B.CreateMul(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_minus()))
    return B.CreateNeg(Args[0]);
  if (Is(isl::ast_expr_op_max()))
    return Chain(CmpInst::ICMP_SGT);
  if (Is(isl::ast_expr_op_min()))
    return Chain(CmpInst::ICMP_SLT);
  if (Is(isl::ast_expr_op_div()) || Is(isl::ast_expr_op_pdiv_q()))
    return B.CreateSDiv(Args[0], Args[1]); // exact, or both non-negative
  if (Is(isl::ast_expr_op_pdiv_r()) || Is(isl::ast_expr_op_zdiv_r()))
    return B.CreateSRem(Args[0], Args[1]); // non-negative, or tested for 0
  if (Is(isl::ast_expr_op_fdiv_q()))
    return floorDiv(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_cond()) || Is(isl::ast_expr_op_select()))
    return B.CreateSelect(Args[0], Args[1], Args[2]);
  if (Is(isl::ast_expr_op_and()) || Is(isl::ast_expr_op_and_then()))
    return B.CreateAnd(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_or()) || Is(isl::ast_expr_op_or_else()))
    return B.CreateOr(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_eq()))
    return B.CreateICmpEQ(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_le()))
    return B.CreateICmpSLE(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_lt()))
    return B.CreateICmpSLT(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_ge()))
    return B.CreateICmpSGE(Args[0], Args[1]);
  if (Is(isl::ast_expr_op_gt()))
    return B.CreateICmpSGT(Args[0], Args[1]);
  return fail("an operation other than arithmetic, min, max, select and "
              "comparisons");
}

} // namespace iss
