//===- IslHelpers.h - What isl's C++ bindings lack --------------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The compiler uses isl (inside libLLVM, through Polly's headers) by the C++
// objects of isl-noexceptions.h only. The few operations those bindings do
// not offer (or offer only through a conversion to another kind of object),
// and the ownership, errors and operation quota of an isl context, are
// here: lib/Support/IslHelpers.cpp is the only file that calls isl's C
// functions (STYLE.md). Used by the polyhedral model of input space
// splitting and the scores (lib/Compiler/Splitting and Scoring, the
// input-space-splitting paper, sections 3 to 5).
//
// The bindings return null objects after an error (a quota exceeded, say)
// and their `boolean` aborts when converted to bool in that state: callers
// ask `.is_true()` / `.is_false()` and check `is_null()`.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_ISLHELPERS_H
#define POCL_ISS_ISLHELPERS_H

#include "isl/isl-noexceptions.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace iss {

/// Owns an isl context whose errors do not print or abort: operations
/// return null objects instead, which callers check.
class IslContext {
public:
  IslContext();
  ~IslContext();
  IslContext(const IslContext &) = delete;
  IslContext &operator=(const IslContext &) = delete;

  isl::ctx get() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Bounds the isl operations done while it lives (isl's max_operations);
/// past the bound every isl operation returns null. exceeded() tells.
class IslQuota {
public:
  IslQuota(isl::ctx Ctx, unsigned long MaxOperations);
  ~IslQuota();
  IslQuota(const IslQuota &) = delete;
  IslQuota &operator=(const IslQuota &) = delete;

  /// Whether the quota ran out (or another isl error happened).
  bool exceeded() const;
  /// What went wrong, for a remark.
  std::string error() const;

private:
  isl::ctx Ctx;
  unsigned long Saved;
};

/// Whether an isl operation on \p Ctx failed (a quota ran out, say) since
/// its error was last reset, as an IslQuota does when it starts and ends.
bool hasIslError(isl::ctx Ctx);

/// The number of dimensions of \p Type in \p S; 0 on error.
unsigned islDim(const isl::space &S, isl::dim Type);
unsigned islDim(const isl::set &S, isl::dim Type);
/// The same for \p A: isl::dim::param, isl::dim::in (its domain's set
/// dimensions) or isl::dim::div (the local dimensions of its floors; the
/// binding's aff::dim asks a multi_aff, which has none).
unsigned islDim(const isl::aff &A, isl::dim Type);

/// The number of pieces of \p PA; 0 on error. (The binding's n_piece
/// converts \p PA to a pw_multi_aff first.)
unsigned pieceCount(const isl::pw_aff &PA);

/// Whether \p A (\p PA) involves the set dimensions First to First + N - 1
/// of its domain, through its local dimensions too; true when isl cannot
/// tell (an error): callers rely on a dimension that is surely absent.
bool involvesInDims(const isl::aff &A, unsigned First, unsigned N);
bool involvesInDims(const isl::pw_aff &PA, unsigned First, unsigned N);

/// The minimum (maximum) of \p A and \p B where both are defined, and
/// whichever is defined elsewhere (isl_pw_aff_union_min/max).
isl::pw_aff unionMin(isl::pw_aff A, isl::pw_aff B);
isl::pw_aff unionMax(isl::pw_aff A, isl::pw_aff B);

/// \p S as a union of pairwise disjoint basic sets (basic maps).
isl::set makeDisjoint(isl::set S);
isl::map makeDisjoint(isl::map M);

/// \p S, \p PA without the parameters they do not involve.
isl::set dropUnusedParams(isl::set S);
isl::pw_aff dropUnusedParams(isl::pw_aff PA);

/// \p S without the constraints that involve none of the set dimensions
/// First to First + N - 1: a superset.
isl::set dropConstraintsNotInvolving(isl::set S, unsigned First, unsigned N);

/// \p S without its disjuncts that plainly contradict \p Params (a set of
/// parameters, what is known of them): the same set wherever \p Params
/// holds. A subtraction makes a disjunct of each constraint of the set it
/// takes away: taking away a set that states N >= 1 from one that does
/// not leaves a disjunct N <= 0, which every later operation then carries.
isl::set dropDisjunctsOutside(isl::set S, const isl::set &Params);

/// The disjuncts of the parameter set \p S that hold somewhere in
/// \p Params: an under-approximation of \p S, exact within \p Params,
/// for a condition that only chooses a faster path. \p S itself if that
/// keeps them all or an isl call fails.
isl::set keepDisjunctsMeeting(isl::set S, const isl::set &Params);

/// Whether \p S constrains the parameter \p Id.
bool involvesParam(const isl::set &S, const isl::id &Id);

/// Whether \p A and \p B are written alike (isl's plain equality: a cheap
/// test, false when unsure). A null object equals only a null one.
bool plainIsEqual(const isl::set &A, const isl::set &B);
bool plainIsEqual(const isl::pw_aff &A, const isl::pw_aff &B);
/// The same for affine expressions, where NaN equals nothing, itself
/// included. (The binding's aff::plain_is_equal converts both to
/// multi_aff.)
bool plainIsEqual(const isl::aff &A, const isl::aff &B);

/// Whether \p A and \p B differ by an expression of the parameters alone
/// (a stencil's neighbours, x + 1 and x + width): plainly equal, or each
/// one piece on the same domain whose difference involves no set
/// dimension. Then any two points' values differ alike in both. False
/// when unsure, or for a null object.
bool differByParams(const isl::pw_aff &A, const isl::pw_aff &B);

/// The affine expression of \p PA where it is one piece defined on all of
/// \p Domain; null otherwise.
isl::aff onlyPieceOn(const isl::pw_aff &PA, const isl::set &Domain);

/// The parameters where \p PA leaves [\p Lo, \p Hi] somewhere in the box
/// 0 <= x_d < Size[d] of its first Size.size() set dimensions (over the
/// parameters of \p PA, not intersected with any context). Closed form, no
/// projection: the extremes of an affine function on a box lie at its
/// corners, so the parameters are those where PA with each x_d at the end
/// its coefficient points away from [Lo, Hi] is outside. Null unless \p PA
/// is one affine piece on its whole space, without integer divisions,
/// that involves the box's dimensions alone (the others are unbounded).
/// \p PA is [p] -> { S[x0, ..., k...] -> [f] } and the result [p] -> { : }.
isl::set paramsOutsideOnBox(const isl::pw_aff &PA, const isl::val &Lo,
                            const isl::val &Hi, const std::vector<long> &Size);

/// The local (existentially quantified) dimensions of \p BM; 0 on error.
/// (basic_map::dim(isl::dim::div) asks the map, which has none.)
unsigned localDims(const isl::basic_map &BM);

/// Whether \p S is one box: every constraint bounds one set dimension
/// (by the parameters), so its bounding box is \p S itself.
bool isBox(const isl::set &S);

/// \p M with the tuple of its range (domain) anonymous.
isl::map resetRangeTuple(isl::map M);

/// \p PA simplified where the parameters lie in \p Context.
isl::pw_aff gistParams(isl::pw_aff PA, isl::set Context);

/// \p S with its set dimension \p Pos named \p Name.
isl::set setDimName(isl::set S, unsigned Pos, const std::string &Name);

/// The coefficient of set dimension \p Pos in \p A, and its constant.
isl::val coefficient(const isl::aff &A, unsigned Pos);
/// The coefficient of dimension \p Pos of kind \p Type (isl::dim::param,
/// isl::dim::in or isl::dim::div) in \p A.
isl::val coefficient(const isl::aff &A, isl::dim Type, unsigned Pos);
/// The expression whose floor is the local dimension \p Pos of \p A (over
/// the same local space); null when isl does not know it.
isl::aff divExpression(const isl::aff &A, unsigned Pos);
/// The constraints of \p BS, each as an affine expression over its local
/// space and whether it is an equality (A = 0) or an inequality (A >= 0).
std::vector<std::pair<isl::aff, bool>> constraintsOf(const isl::basic_set &BS);

/// A constraint of a basic map { D[i] -> [t] } on its output dimension t:
/// Coef * t + Rest = 0 (Equality) or >= 0, Coef not zero, Rest affine in
/// the parameters and the input dimensions (over the map's domain).
struct OutputConstraint {
  isl::val Coef;
  isl::aff Rest;
  bool Equality = false;
};
/// The constraints of \p BM ([p] -> { D[i] -> [t] }: one output dimension,
/// no local dimensions) that involve t, in isl's order, each written as an
/// OutputConstraint. None when \p BM is not of that form or isl fails.
std::optional<std::vector<OutputConstraint>>
constraintsOnOutput(const isl::basic_map &BM);
/// \p BM without the constraints that involve its output dimensions First
/// to First + N - 1: a superset.
isl::basic_map dropConstraintsInvolvingOutput(isl::basic_map BM, unsigned First,
                                              unsigned N);

/// isl's text for an object (isl_*_to_str), "<null>" for a null one.
std::string islStr(const isl::set &S);
std::string islStr(const isl::map &M);
std::string islStr(const isl::pw_aff &PA);
/// An AST expression as C (isl_ast_expr_to_C_str).
std::string islCStr(const isl::ast_expr &E);

} // namespace iss

#endif // POCL_ISS_ISLHELPERS_H
