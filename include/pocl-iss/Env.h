//===- Env.h - Environment variables, parsed once and strictly ------------===//
// SPDX-License-Identifier: MIT
//
// Settings come from environment variables in pocl's style (DESIGN.md
// section 1). A bad value is a one-line error that names the variable and
// what is allowed; the process does not go on with a guess.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_ENV_H
#define POCL_ISS_ENV_H

#include <cstdint>
#include <optional>
#include <string>

namespace iss {

/// POCL_ISS_MODE, the ablation switch (the input-space-splitting paper,
/// section 6.3).
enum class Mode { Scalar, Vec, Split, Score, SplitScore };

const char *modeName(Mode M);
/// Parses a POCL_ISS_MODE value; std::nullopt when it is not one of them.
std::optional<Mode> parseMode(const std::string &Text);

/// The validated settings of this process, read on first use.
struct Settings {
  Mode IssMode = Mode::SplitScore;
  unsigned VectorWidth = 0;        ///< POCL_ISS_VECTOR_WIDTH, 0: from target
  bool Stats = false;              ///< POCL_ISS_STATS
  bool Horizontal = true;          ///< POCL_ISS_HORIZONTAL
  bool PartialEdges = true;        ///< POCL_ISS_PARTIAL_EDGES
  bool Tiered = true;              ///< POCL_ISS_TIERED
  unsigned MaxPieces = 8;          ///< POCL_ISS_MAX_PIECES, ranges per region
  bool SafeDivision = true;        ///< POCL_ISS_SAFE_DIVISION
  bool Choice = true;              ///< POCL_ISS_CHOICE
  int CheapMasks = -1;             ///< POCL_ISS_CHEAP_MASKS, -1: from target
  bool StrideVersioning = false;   ///< POCL_ISS_STRIDE_VERSIONING
  unsigned DimsMask = 7;           ///< POCL_ISS_DIMS, bit d: dimension d
  double WeightConsecutive = 2;    ///< POCL_ISS_WEIGHTS, first
  double WeightUniform = 1;        ///< POCL_ISS_WEIGHTS, second
  double WeightDivergent = 0.5;    ///< POCL_ISS_WEIGHTS, third (optional)
  unsigned MaxThreads = 0;         ///< POCL_MAX_PTHREAD_COUNT, 0: all cores
  bool Affinity = false;           ///< POCL_AFFINITY
  unsigned SpinUs = 100;           ///< POCL_ISS_SPIN_US: busy wait first
  bool KernelCache = true;         ///< POCL_KERNEL_CACHE
  std::string CacheDir;            ///< POCL_CACHE_DIR or the XDG default
  bool VectorizerRemarks = false;  ///< POCL_VECTORIZER_REMARKS
  std::string Devices;             ///< POCL_DEVICES, empty: all
  unsigned DebugMask = 0;          ///< POCL_DEBUG categories
  std::string DumpDir;             ///< POCL_ISS_DUMP_IR: write kernels' IR
  /// POCL_ISS_TARGET: the kernel library variant, empty: the best the host
  /// runs. Checked where the variants are known (getTargetInfo).
  std::string Target;
  std::string PlatformName = "pocl-iss"; ///< POCL_PLATFORM_NAME_OVERRIDE
  /// POCL_ISS_COMPILER_STACK_MB: the stack of the compiler's thread, MiB.
  unsigned CompilerStackMB = 1024;
};

/// Reads and validates every variable once. On a bad value, prints one line
/// naming the variable and the allowed values to stderr and exits with
/// status 1: a silently ignored setting would falsify an ablation study.
const Settings &settings();

/// What settings() does with a bad value, for the settings checked where
/// their allowed values are known (POCL_ISS_TARGET): prints
/// "pocl-iss: <Message>" to stderr and exits with status 1.
[[noreturn]] void failSetting(const std::string &Message);

/// The checks behind settings(), exposed for the unit tests: each returns
/// an error message (empty when \p Value is valid) and stores the result.
std::string parseBool(const char *Var, const std::string &Value, bool &Out);
std::string parseUnsigned(const char *Var, const std::string &Value,
                          unsigned Min, unsigned Max, unsigned &Out);
std::string parseModeVar(const std::string &Value, Mode &Out);
std::string parseDims(const std::string &Value, unsigned &Mask);
std::string parseWeights(const std::string &Value, double &Consecutive,
                         double &Uniform, double &Divergent);
std::string parseDebug(const std::string &Value, unsigned &Mask);

/// POCL_DEBUG categories.
enum DebugCategory : unsigned {
  DbgError = 1u << 0,
  DbgWarning = 1u << 1,
  DbgGeneral = 1u << 2,
  DbgLLVM = 1u << 3,
  DbgRuntime = 1u << 4, ///< API calls that fail, with the error's name
  DbgDevice = 1u << 5,
  DbgCache = 1u << 6,
  DbgAll = ~0u,
};

/// Prints one "[pocl-iss] <category>: ..." line to stderr when \p Cat is
/// enabled by POCL_DEBUG.
void debugLog(DebugCategory Cat, const char *Fmt, ...)
    __attribute__((format(printf, 2, 3)));
bool debugEnabled(DebugCategory Cat);
/// Holds debugLog's lock across fork(), so that a child whose fork caught
/// another thread logging can still log; unlocked in parent and child.
void lockDebugLogForFork();
void unlockDebugLogAfterFork();

} // namespace iss

#endif // POCL_ISS_ENV_H
