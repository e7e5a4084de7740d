//===- IslExprEmitter.cpp - isl expressions as LLVM IR --------------------===//
// SPDX-License-Identifier: MIT
//
// IslExprEmitter (see IslExprEmitter.h): isl's AST builder writes the
// expression, this file walks it.
//
//===----------------------------------------------------------------------===//

#include "Splitting/IslExprEmitter.h"

#include "llvm/IR/IRBuilder.h"

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
    if (Value *V = emitAffine(Same, DimValues))
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
    else if (isl_aff_plain_is_equal(Same.get(), A.get()) != isl_bool_true)
      One = false;
    return isl::stat::ok();
  });
  return One ? Same : isl::aff();
}

Value *IslExprEmitter::emitAffine(const isl::aff &A,
                                  ArrayRef<Value *> DimValues) {
  if (A.is_null() || islDim(A.space(), isl::dim::div) != 0 ||
      !A.get_denominator_val().is_one())
    return nullptr;
  std::optional<int64_t> Constant = toInt64(A.get_constant_val());
  if (!Constant)
    return nullptr;
  SmallVector<std::pair<Value *, int64_t>, 8> Terms;
  auto Coefficient = [&](isl_dim_type T, unsigned I) {
    return isl::manage(isl_aff_get_coefficient_val(A.get(), T, I));
  };
  auto Add = [&](isl_dim_type T, unsigned I, Value *V) {
    std::optional<int64_t> K = toInt64(Coefficient(T, I));
    if (!K)
      return false;
    if (*K)
      Terms.push_back({V, *K});
    return true;
  };
  for (unsigned I = 0, N = islDim(A.space(), isl::dim::param); I < N; ++I) {
    if (Coefficient(isl_dim_param, I).is_zero().is_true())
      continue;
    Value *V =
        idValue(isl::manage(
            isl_space_get_dim_id(A.space().get(), isl_dim_param, I)));
    if (!V || !Add(isl_dim_param, I, V))
      return nullptr;
  }
  for (unsigned I = 0; I < DimValues.size(); ++I)
    if (!Add(isl_dim_in, I, toI64(DimValues[I])))
      return nullptr;
  Value *R = nullptr;
  for (auto [V, K] : Terms) {
    Value *T = K == 1 ? V : B.CreateMul(V, B.getInt64(K));
    R = R ? B.CreateAdd(R, T) : T;
  }
  if (!R)
    return B.getInt64(*Constant);
  return *Constant ? B.CreateAdd(R, B.getInt64(*Constant)) : R;
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
  if (Is(isl::ast_expr_op_fdiv_q())) {
    // Rounding down: one less than the truncated quotient when the
    // remainder is not zero and its sign differs from the divisor's.
    Value *Q = B.CreateSDiv(Args[0], Args[1]);
    Value *R = B.CreateSRem(Args[0], Args[1]);
    Value *Zero = B.getInt64(0);
    Value *Adjust = B.CreateAnd(B.CreateICmpNE(R, Zero),
                                B.CreateICmpNE(B.CreateICmpSLT(R, Zero),
                                               B.CreateICmpSLT(Args[1], Zero)));
    return B.CreateSub(Q, B.CreateZExt(Adjust, B.getInt64Ty()));
  }
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
