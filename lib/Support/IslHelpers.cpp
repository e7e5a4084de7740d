//===- IslHelpers.cpp - What isl's C++ bindings lack ----------------------===//
// SPDX-License-Identifier: MIT
//
// The only file that calls isl's C functions (see IslHelpers.h). Each
// helper takes and returns isl-noexceptions.h objects, so ownership stays
// with the C++ objects.
//
//===----------------------------------------------------------------------===//

#include "pocl-iss/IslHelpers.h"

#include "isl/ast.h"
#include "isl/constraint.h"
#include "isl/ctx.h"
#include "isl/options.h"

#include <cstdlib>

namespace iss {

struct IslContext::Impl {
  isl_ctx *Ctx;
};

IslContext::IslContext() : P(new Impl) {
  P->Ctx = isl_ctx_alloc();
  isl_options_set_on_error(P->Ctx, ISL_ON_ERROR_CONTINUE);
}

IslContext::~IslContext() { isl_ctx_free(P->Ctx); }

isl::ctx IslContext::get() const { return isl::ctx(P->Ctx); }

IslQuota::IslQuota(isl::ctx C, unsigned long MaxOperations) : Ctx(C) {
  Saved = isl_ctx_get_max_operations(Ctx.get());
  isl_ctx_reset_error(Ctx.get());
  isl_ctx_reset_operations(Ctx.get());
  isl_ctx_set_max_operations(Ctx.get(), MaxOperations);
}

IslQuota::~IslQuota() {
  isl_ctx_set_max_operations(Ctx.get(), Saved);
  isl_ctx_reset_operations(Ctx.get());
  isl_ctx_reset_error(Ctx.get());
}

bool IslQuota::exceeded() const { return hasIslError(Ctx); }

std::string IslQuota::error() const {
  isl_ctx *C = isl::ctx(Ctx).get();
  if (isl_ctx_last_error(C) == isl_error_quota)
    return "isl ran out of quota";
  const char *Msg = isl_ctx_last_error_msg(C);
  const char *File = isl_ctx_last_error_file(C);
  return std::string("isl failed: ") + (Msg ? Msg : "?") + " (" +
         (File ? File : "?") + ":" +
         std::to_string(isl_ctx_last_error_line(C)) + ")";
}

bool hasIslError(isl::ctx Ctx) {
  return isl_ctx_last_error(Ctx.get()) != isl_error_none;
}

unsigned islDim(const isl::space &S, isl::dim Type) {
  isl_size N = isl_space_dim(S.get(), static_cast<isl_dim_type>(Type));
  return N < 0 ? 0 : unsigned(N);
}

unsigned islDim(const isl::set &S, isl::dim Type) {
  isl_size N = isl_set_dim(S.get(), static_cast<isl_dim_type>(Type));
  return N < 0 ? 0 : unsigned(N);
}

unsigned islDim(const isl::aff &A, isl::dim Type) {
  isl_size N = isl_aff_dim(A.get(), static_cast<isl_dim_type>(Type));
  return N < 0 ? 0 : unsigned(N);
}

unsigned pieceCount(const isl::pw_aff &PA) {
  isl_size N = isl_pw_aff_n_piece(PA.get());
  return N < 0 ? 0 : unsigned(N);
}

bool involvesInDims(const isl::aff &A, unsigned First, unsigned N) {
  return isl_aff_involves_dims(A.get(), isl_dim_in, First, N) != isl_bool_false;
}

bool involvesInDims(const isl::pw_aff &PA, unsigned First, unsigned N) {
  return isl_pw_aff_involves_dims(PA.get(), isl_dim_in, First, N) !=
         isl_bool_false;
}

isl::pw_aff unionMin(isl::pw_aff A, isl::pw_aff B) {
  return isl::manage(isl_pw_aff_union_min(A.release(), B.release()));
}

isl::pw_aff unionMax(isl::pw_aff A, isl::pw_aff B) {
  return isl::manage(isl_pw_aff_union_max(A.release(), B.release()));
}

isl::set makeDisjoint(isl::set S) {
  return isl::manage(isl_set_make_disjoint(S.release()));
}

isl::map makeDisjoint(isl::map M) {
  return isl::manage(isl_map_make_disjoint(M.release()));
}

isl::set dropUnusedParams(isl::set S) {
  return isl::manage(isl_set_drop_unused_params(S.release()));
}

isl::pw_aff dropUnusedParams(isl::pw_aff PA) {
  return isl::manage(isl_pw_aff_drop_unused_params(PA.release()));
}

isl::set dropConstraintsNotInvolving(isl::set S, unsigned First, unsigned N) {
  return isl::manage(isl_set_drop_constraints_not_involving_dims(
      S.release(), isl_dim_set, First, N));
}

/// \p S without the disjuncts \p Drop says true of; \p S itself if none
/// is dropped, or if \p Drop or isl fails (an error).
template <typename Pred> static isl::set dropDisjuncts(isl::set S, Pred Drop) {
  isl::set Kept = isl::set::empty(S.space());
  bool Dropped = false;
  isl::stat St = S.foreach_basic_set([&](isl::basic_set BS) {
    isl::set One(BS);
    isl_bool Gone = Drop(One);
    if (Gone == isl_bool_error)
      return isl::stat::error();
    if (Gone == isl_bool_true)
      Dropped = true;
    else
      Kept = Kept.unite(One);
    return isl::stat::ok();
  });
  return St.is_error() || Kept.is_null() || !Dropped ? S : Kept;
}

isl::set dropDisjunctsOutside(isl::set S, const isl::set &Params) {
  if (S.is_null() || Params.is_null())
    return S;
  return dropDisjuncts(S, [&](const isl::set &One) {
    // Plainly empty or not: never an error.
    return isl_set_plain_is_empty(One.intersect_params(Params).get()) ==
                   isl_bool_true
               ? isl_bool_true
               : isl_bool_false;
  });
}

isl::set keepDisjunctsMeeting(isl::set S, const isl::set &Params) {
  if (S.is_null() || Params.is_null())
    return S;
  return dropDisjuncts(S, [&](const isl::set &One) {
    return isl_set_is_empty(One.intersect(Params).get());
  });
}

bool involvesParam(const isl::set &S, const isl::id &Id) {
  int Pos = isl_set_find_dim_by_id(S.get(), isl_dim_param, Id.get());
  return Pos >= 0 &&
         isl_set_involves_dims(S.get(), isl_dim_param, Pos, 1) == isl_bool_true;
}

bool plainIsEqual(const isl::set &A, const isl::set &B) {
  if (A.is_null() || B.is_null())
    return A.is_null() && B.is_null();
  return A.get() == B.get() ||
         isl_set_plain_is_equal(A.get(), B.get()) == isl_bool_true;
}

bool plainIsEqual(const isl::pw_aff &A, const isl::pw_aff &B) {
  if (A.is_null() || B.is_null())
    return A.is_null() && B.is_null();
  return A.get() == B.get() ||
         isl_pw_aff_plain_is_equal(A.get(), B.get()) == isl_bool_true;
}

bool plainIsEqual(const isl::aff &A, const isl::aff &B) {
  if (A.is_null() || B.is_null())
    return A.is_null() && B.is_null();
  return isl_aff_plain_is_equal(A.get(), B.get()) == isl_bool_true;
}

bool differByParams(const isl::pw_aff &A, const isl::pw_aff &B) {
  if (A.is_null() || B.is_null())
    return false;
  if (plainIsEqual(A, B))
    return true;
  // Several pieces would be compared piece by piece, a product.
  if (isl_pw_aff_n_piece(A.get()) != 1 || isl_pw_aff_n_piece(B.get()) != 1 ||
      !plainIsEqual(A.domain(), B.domain()))
    return false;
  isl_size N = isl_pw_aff_dim(A.get(), isl_dim_in);
  if (N < 0)
    return false;
  bool Params = true;
  isl::stat St = A.sub(B).foreach_piece([&](isl::set, isl::aff D) {
    // Through the local dimensions too (floor(x / 16), say).
    Params = isl_aff_involves_dims(D.get(), isl_dim_in, 0, N) == isl_bool_false;
    return isl::stat::ok();
  });
  return !St.is_error() && Params;
}

isl::aff onlyPieceOn(const isl::pw_aff &PA, const isl::set &Domain) {
  if (PA.is_null() || isl_pw_aff_n_piece(PA.get()) != 1)
    return isl::aff();
  isl::set Where;
  isl::aff A;
  if (PA.foreach_piece([&](isl::set S, isl::aff Aff) {
          Where = S;
          A = Aff;
          return isl::stat::ok();
        }).is_error() ||
      !Domain.is_subset(Where).is_true())
    return isl::aff();
  return A;
}

isl::set paramsOutsideOnBox(const isl::pw_aff &PA, const isl::val &Lo,
                            const isl::val &Hi, const std::vector<long> &Size) {
  if (PA.is_null() || isl_pw_aff_isa_aff(PA.get()) != isl_bool_true)
    return isl::set();
  isl::aff A = PA.as_aff();
  isl_size N = isl_aff_dim(A.get(), isl_dim_in);
  if (N < 0 || isl_aff_dim(A.get(), isl_dim_div) != 0)
    return isl::set();
  isl::ctx Ctx = A.ctx();
  // Base is A without the box's dimensions, then A at its lowest (Low)
  // and highest (High) corner.
  isl::aff Base = A;
  isl::val Down(Ctx, 0L), Up(Ctx, 0L);
  isl::local_space LS(A.domain_space());
  for (isl_size I = 0; I < N; ++I) {
    isl::val C = coefficient(A, unsigned(I));
    if (C.is_null())
      return isl::set();
    if (C.is_zero())
      continue;
    if (size_t(I) >= Size.size())
      return isl::set();
    Base = Base.sub(isl::aff::var_on_domain(LS, isl::dim::set, I).scale(C));
    isl::val Extent = C.mul(isl::val(Ctx, Size[I] - 1));
    if (Extent.is_neg())
      Down = Down.add(Extent);
    else
      Up = Up.add(Extent);
  }
  isl::aff Low = Base.add_constant(Down), High = Base.add_constant(Up);
  isl::aff LoA(LS, Lo), HiA(LS, Hi);
  return Low.lt_set(LoA).unite(High.gt_set(HiA)).params();
}

unsigned localDims(const isl::basic_map &BM) {
  if (BM.is_null())
    return 0;
  isl_size N = isl_basic_map_dim(BM.get(), isl_dim_div);
  return N < 0 ? 0 : unsigned(N);
}

bool isBox(const isl::set &S) {
  return !S.is_null() && isl_set_is_box(S.get()) == isl_bool_true;
}

isl::map resetRangeTuple(isl::map M) {
  return isl::manage(isl_map_reset_tuple_id(M.release(), isl_dim_out));
}

isl::pw_aff gistParams(isl::pw_aff PA, isl::set Context) {
  return isl::manage(isl_pw_aff_gist_params(PA.release(), Context.release()));
}

isl::set setDimName(isl::set S, unsigned Pos, const std::string &Name) {
  return isl::manage(
      isl_set_set_dim_name(S.release(), isl_dim_set, Pos, Name.c_str()));
}

isl::val coefficient(const isl::aff &A, isl::dim Type, unsigned Pos) {
  return isl::manage(isl_aff_get_coefficient_val(
      A.get(), static_cast<isl_dim_type>(Type), Pos));
}

isl::val coefficient(const isl::aff &A, unsigned Pos) {
  return coefficient(A, isl::dim::in, Pos);
}

isl::aff divExpression(const isl::aff &A, unsigned Pos) {
  isl_aff *D = isl_aff_get_div(A.get(), Pos);
  if (!D || isl_aff_is_nan(D) != isl_bool_false) {
    isl_aff_free(D);
    return isl::aff();
  }
  return isl::manage(D);
}

std::vector<std::pair<isl::aff, bool>> constraintsOf(const isl::basic_set &BS) {
  std::vector<std::pair<isl::aff, bool>> Out;
  isl_basic_set_foreach_constraint(
      BS.get(),
      [](isl_constraint *C, void *User) {
        auto &Out = *static_cast<std::vector<std::pair<isl::aff, bool>> *>(User);
        bool Eq = isl_constraint_is_equality(C) == isl_bool_true;
        Out.push_back({isl::manage(isl_constraint_get_aff(C)), Eq});
        isl_constraint_free(C);
        return isl_stat_ok;
      },
      &Out);
  return Out;
}

std::optional<std::vector<OutputConstraint>>
constraintsOnOutput(const isl::basic_map &BM) {
  if (BM.is_null() || isl_basic_map_dim(BM.get(), isl_dim_out) != 1 ||
      localDims(BM) != 0)
    return std::nullopt;
  struct State {
    isl::local_space LS;
    std::vector<OutputConstraint> Out;
  } St{isl::local_space(BM.space().domain()), {}};
  // C is a t + f(p, i) >= 0 (= 0): f is built on the domain, term by term.
  auto Each = [](isl_constraint *C, void *User) -> isl_stat {
    auto &St = *static_cast<State *>(User);
    isl::constraint Con = isl::manage(C);
    auto Coef = [&](isl_dim_type T, int Pos) {
      return isl::manage(isl_constraint_get_coefficient_val(Con.get(), T, Pos));
    };
    isl::val A = Coef(isl_dim_out, 0);
    if (A.is_null())
      return isl_stat_error;
    if (A.is_zero())
      return isl_stat_ok;
    isl_aff *F = isl_aff_zero_on_domain(St.LS.copy());
    F = isl_aff_set_constant_val(F, isl_constraint_get_constant_val(Con.get()));
    for (isl_dim_type T : {isl_dim_param, isl_dim_in}) {
      isl_size N = isl_constraint_dim(Con.get(), T);
      if (N < 0) {
        isl_aff_free(F);
        return isl_stat_error;
      }
      for (int I = 0; I < N; ++I)
        F = isl_aff_set_coefficient_val(F, T, I, Coef(T, I).release());
    }
    isl::aff Rest = isl::manage(F);
    if (Rest.is_null())
      return isl_stat_error;
    St.Out.push_back(
        {A, Rest, isl_constraint_is_equality(Con.get()) == isl_bool_true});
    return isl_stat_ok;
  };
  if (isl_basic_map_foreach_constraint(BM.get(), Each, &St) < 0)
    return std::nullopt;
  return std::move(St.Out);
}

isl::basic_map dropConstraintsInvolvingOutput(isl::basic_map BM, unsigned First,
                                              unsigned N) {
  return isl::manage(isl_basic_map_drop_constraints_involving_dims(
      BM.release(), isl_dim_out, First, N));
}

template <typename T, char *(*ToStr)(T *)> static std::string toStr(T *Obj) {
  if (!Obj)
    return "<null>";
  char *C = ToStr(Obj);
  if (!C)
    return "<null>";
  std::string S(C);
  free(C);
  return S;
}

std::string islStr(const isl::set &S) {
  return toStr<isl_set, isl_set_to_str>(S.get());
}

std::string islStr(const isl::map &M) {
  return toStr<isl_map, isl_map_to_str>(M.get());
}

std::string islStr(const isl::pw_aff &PA) {
  return toStr<isl_pw_aff, isl_pw_aff_to_str>(PA.get());
}

std::string islCStr(const isl::ast_expr &E) {
  return toStr<isl_ast_expr, isl_ast_expr_to_C_str>(E.get());
}

} // namespace iss
