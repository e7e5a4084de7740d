//===- IslExprEmitter.h - isl expressions as LLVM IR ------------*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// Emits isl piecewise affine expressions and parameter sets as LLVM IR
// through an IRBuilder, so that the split pass computes per work group the
// bounds of the ranges of the vectorized work-item id
// (SplitRange::Begin/End) and the run-time check of the model's
// assumptions (DESIGN.md section 6, "Split"; the input-space-splitting
// paper, section 3.1, where Polly's code generator does the same for its
// AST).
//
// A quasi-affine piece (sums of products and floors of such sums) is
// written directly, a piecewise expression as a chain of selects over its
// pieces, a set as the constraints of its basic sets. What cannot be (a
// local dimension isl does not know, a number out of the range of i64)
// goes through isl's AST builder (isl_ast_build_expr_from_pw_aff), which
// turns pieces into selects and min/max, and floor divisions into
// fdiv_q/pdiv_q; each AST operation becomes i64 arithmetic.
// The expression's set dimensions (the outer work-item ids of a range
// bound) take the values the caller gives; each isl parameter takes the
// value of a callback, usually from WorkItemModel::param(Id):
//   O_d        group_id_d * L_d + global_offset_d
//   G_d, N_d   group_id_d, num_groups_d
//   work_dim   the work dimension
//   arguments  the kernel argument's value in the work-group function
// Values narrower than i64 are sign-extended (the model reads them as
// signed). Opaque parameters never reach a predicate or a range bound.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SPLITTING_ISLEXPREMITTER_H
#define POCL_ISS_COMPILER_SPLITTING_ISLEXPREMITTER_H

#include "pocl-iss/IslHelpers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace llvm {
class IRBuilderBase;
class Value;
} // namespace llvm

namespace iss {

class IslExprEmitter {
public:
  /// \p ValueOf returns the value of an isl parameter, or null when it has
  /// none (the emission then fails).
  IslExprEmitter(llvm::IRBuilderBase &B,
                 std::function<llvm::Value *(const isl::id &)> ValueOf)
      : B(B), ValueOf(std::move(ValueOf)) {}

  /// \p PA (any parameters, set dimensions bound to \p DimValues in order)
  /// as an i64; \p Context (parameters only, may be null) is what is known
  /// of the parameters: the expression may be wrong outside it.
  llvm::Expected<llvm::Value *> emit(const isl::pw_aff &PA,
                                     llvm::ArrayRef<llvm::Value *> DimValues,
                                     const isl::set &Context = isl::set());
  /// Whether the point (parameters, \p DimValues) lies in \p S, as an i1.
  llvm::Expected<llvm::Value *>
  emitCondition(const isl::set &S, llvm::ArrayRef<llvm::Value *> DimValues,
                const isl::set &Context = isl::set());
  /// The affine expression all pieces of \p PA share, or null.
  static isl::aff oneExpression(const isl::pw_aff &PA);
  /// An AST expression (i64 for values, i1 for conditions).
  llvm::Expected<llvm::Value *> emit(const isl::ast_expr &E);

  /// \p PA as an AST expression over parameters, its set dimensions turned
  /// into parameters named \p DimNames; for printing and for emit().
  static isl::ast_expr toAst(const isl::pw_aff &PA, const isl::set &Context,
                             llvm::ArrayRef<std::string> DimNames);

private:
  llvm::Value *idValue(const isl::id &Id);
  // Without isl's AST builder, which can take hundreds of milliseconds on
  // a few pieces with divisions: each returns null when a number is out
  // of the range of i64 or a local dimension is unknown (the caller then
  // asks the AST builder).
  using Terms = llvm::SmallVector<std::pair<llvm::Value *, int64_t>, 8>;
  bool numeratorTerms(const isl::aff &A,
                      llvm::ArrayRef<llvm::Value *> DimValues, Terms &Out,
                      int64_t &Constant, int64_t &Den);
  llvm::Value *sum(const Terms &T, int Sign, int64_t Constant);
  /// \p A's numerator: \p A = it / \p Den.
  llvm::Value *emitNumerator(const isl::aff &A,
                             llvm::ArrayRef<llvm::Value *> DimValues,
                             int64_t &Den);
  /// \p A as sums of products and floor divisions, if it is integral.
  llvm::Value *emitQuasiAffine(const isl::aff &A,
                               llvm::ArrayRef<llvm::Value *> DimValues);
  /// Whether \p A = 0 (\p IsEq) or \p A >= 0 at the point.
  llvm::Value *emitConstraint(const isl::aff &A, bool IsEq,
                              llvm::ArrayRef<llvm::Value *> DimValues);
  /// Whether the point lies in \p S: its basic sets' constraints.
  llvm::Value *emitSet(const isl::set &S,
                       llvm::ArrayRef<llvm::Value *> DimValues);
  /// \p PA as a chain of selects over its pieces.
  llvm::Value *emitPieces(const isl::pw_aff &PA,
                          llvm::ArrayRef<llvm::Value *> DimValues);
  /// floor(\p N / \p D).
  llvm::Value *floorDiv(llvm::Value *N, llvm::Value *D);
  llvm::Value *toI64(llvm::Value *V);

  llvm::IRBuilderBase &B;
  std::function<llvm::Value *(const isl::id &)> ValueOf;
  /// The set dimensions, bound to parameters of these names.
  llvm::StringMap<llvm::Value *> Dims;
};

} // namespace iss

#endif // POCL_ISS_COMPILER_SPLITTING_ISLEXPREMITTER_H
