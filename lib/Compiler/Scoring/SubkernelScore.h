//===- SubkernelScore.h - Equation 1: which subkernel a launch runs -*- C++ -*-===//
// SPDX-License-Identifier: MIT
//
// The cost heuristic of the input-space-splitting paper, section 4.1
// (DESIGN.md section 6, "Subkernels and scores"). A kernel gets one
// subkernel per work-item dimension d it may vectorize, and a scalar
// fallback whose score is 1. The score of subkernel d is equation 1,
//
//   Score(d) = sum over accesses F of  w_cons * |Box(Cons_F(d))|
//                                    + w_uni  * |Box(Uni_F(d))|
//                                    + w_div  * |Box(Div_F(d))|
//
// where Cons_F(d) and Uni_F(d) are the paper's pointwise predicates (the
// instances whose next neighbour along d reads the next element, the
// same element: SplittingPredicates::consecutivePoints/uniformPoints) and
// |Box(S)| the volume of the bounding box of S's instances, loop counters
// included. The last term is ours: Div_F(d) is the rest of F's instances
// (gathers and scatters, and every instance of an access the model cannot
// read). With the paper's w_div = 0, a kernel whose addresses the model
// does not understand scores 0 in every dimension and runs the scalar
// fallback: BlackScholes, whose size_t indices y * width + x the model
// cannot prove free of wrapping, ran 11 times slower than in `vec`. Its
// vector subkernel is what `vec` runs, where LLVM's cost model declines
// vectors that would not pay; a small w_div keeps it, and leaves the
// fallback to launches with next to nothing to run. The paper's zero below one full tile (n < w) is decided at
// compile time here: the local size is a constant, and a dimension with
// fewer work-items than the narrowest vector gets no subkernel.
//
// Boxes are taken over the whole launch, not one work group: the model's
// group offsets O_d (and group ids G_d) are replaced by the launch's group
// counts N_d and global offsets F_d, O_d = L_d * g + F_d with 0 <= g < N_d,
// so a box's extent along d is a global size, or the part of it a border
// or a guard leaves. Each extent is a piecewise quasi-affine function of the
// launch parameters (iss_N<d>, iss_F<d>, the kernel's integer arguments,
// work_dim), and a score a sum of weighted products of extents, evaluated
// once per launch by __iss_select_<kernel> (emitScore).
//
// Only accesses to the memory of the kernel's arguments and of __local and
// __constant variables count: private variables and context slots are
// laid out so that every subkernel reads them consecutively (iss-context),
// and they would favour whichever dimension the model was built for.
//
// Static elimination (dominates): a subkernel is dropped only when another
// scores at least as much for every feasible launch. Two sufficient tests:
// the paper's, term by term, generalized (each product of the dominated
// score is covered by products of the other, with their weight to spare,
// whose extents are at least its own for every launch: the same product,
// or dimension by dimension), and a lower bound against a constant (the
// scalar fallback's 1).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_SCORING_SUBKERNELSCORE_H
#define POCL_ISS_COMPILER_SCORING_SUBKERNELSCORE_H

#include "pocl-iss/IslHelpers.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class IRBuilderBase;
class Value;
class raw_ostream;
} // namespace llvm

namespace iss {

class WorkItemModel;

/// The weights of equation 1 (POCL_ISS_WEIGHTS), and of the term beyond
/// the paper for the accesses that are neither consecutive nor uniform.
struct ScoreWeights {
  double Consecutive = 2;
  double Uniform = 1;
  double Divergent = 0.5;
};

/// Weight * the product of max(0, Extents[i]).
struct ScoreTerm {
  double Weight = 0;
  /// Over the launch parameters only, defined everywhere.
  std::vector<isl::pw_aff> Extents;
  /// The extents as isl text, sorted: equal keys, equal products.
  std::string Key;
};

/// A subkernel's score: Constant plus its terms.
class SubkernelScore {
public:
  /// Adds Weight * prod(Extents); products of constants fold into
  /// Constant, products with equal keys into one term.
  void add(double Weight, std::vector<isl::pw_aff> Extents);
  void addConstant(double C) { Constant += C; }

  const std::vector<ScoreTerm> &terms() const { return Terms; }
  /// Of the parts of accesses that went into the score, how many are
  /// boxes over the launch: their box volume is their exact size (the
  /// paper's boxes lose nothing there).
  unsigned parts() const { return Parts; }
  unsigned exactParts() const { return ExactParts; }
  void countPart(bool Exact) {
    ++Parts;
    ExactParts += Exact;
  }
  double constant() const { return Constant; }

  /// A lower bound of the score over the launches in \p Context (a
  /// parameter set; null: any parameters); once it reaches \p Enough, the
  /// products left are not bounded.
  double lowerBound(const isl::set &Context,
                    double Enough = std::numeric_limits<double>::infinity()) const;
  /// Whether this scores at least as much as \p Other for every launch in
  /// \p Context (a sufficient test; false when it cannot tell).
  bool dominates(const SubkernelScore &Other, const isl::set &Context) const;

  /// The score as a double at \p B; \p ValueOf gives each parameter's
  /// value (null: the emission fails). \p Emitted, when given, holds the
  /// extents emitted so far at B's block, by their text, for scores that
  /// share them.
  llvm::Expected<llvm::Value *>
  emit(llvm::IRBuilderBase &B,
       std::function<llvm::Value *(const isl::id &)> ValueOf,
       const isl::set &Context,
       std::map<std::string, llvm::Value *> *Emitted = nullptr) const;

  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<ScoreTerm> Terms;
  double Constant = 0;
  unsigned Parts = 0, ExactParts = 0;
};

/// The model's parameters that stand for a work group, per dimension
/// (null ids where the model has none).
struct GroupParams {
  isl::id Offset[3], GroupId[3], NumGroups[3];
};

/// The names of the launch parameters that replace them: iss_N<d>, the
/// number of groups, and iss_F<d>, the global offset.
std::string numGroupsParam(unsigned Dim);
std::string globalOffsetParam(unsigned Dim);

/// \p Instances, { [x0, x1, x2, k...] } with the group parameters \p P, as
/// global ids over every work group of a launch with local size \p Local:
/// { [x0 + O0, x1 + O1, x2 + O2, k...] : O_d = L_d * g_d + F_d,
///   0 <= g_d < N_d }, the group parameters replaced by iss_N<d>, iss_F<d>.
isl::set globalView(isl::set Instances, const unsigned Local[3],
                    const GroupParams &P);

/// The extents of the bounding box of \p S along each set dimension
/// (max - min + 1, 0 for parameters where \p S is empty), simplified
/// within \p Context (parameters only, may be null); dimensions along
/// which \p S is unbounded are left out.
std::vector<isl::pw_aff> boxExtents(const isl::set &S, const isl::set &Context);

/// Equation 1 for the subkernels vectorizing each of \p Dims, from every
/// modelled region of \p M; \p Context receives what is known of the
/// launch parameters (the model's context with the group parameters
/// replaced). None, and why in \p Unscored, where isl ran out of quota
/// (-iss-score-part-ops) for the parts of some access, or where no region
/// is modelled.
std::vector<SubkernelScore> scoresOf(const WorkItemModel &M,
                                     llvm::ArrayRef<unsigned> Dims,
                                     const ScoreWeights &W,
                                     isl::set *Context = nullptr,
                                     std::string *Unscored = nullptr);

} // namespace iss

#endif // POCL_ISS_COMPILER_SCORING_SUBKERNELSCORE_H
