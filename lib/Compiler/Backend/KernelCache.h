//===- KernelCache.h - The on-disk kernel cache ---------------------------===//
// SPDX-License-Identifier: MIT
//
// Compiled kernels keyed by everything that changes their code (DESIGN.md
// section 2). LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_BACKEND_KERNELCACHE_H
#define POCL_ISS_COMPILER_BACKEND_KERNELCACHE_H

#include "pocl-iss/KernelCompiler.h"

#include <string>
#include <utility>
#include <vector>

namespace iss {

struct CachedKernel {
  /// (symbol, description) of each subkernel, in selection order.
  std::vector<std::pair<std::string, std::string>> Subkernels;
  std::string SelectSymbol;
  size_t ContextBytesPerWorkItem = 0;
  size_t UniformContextBytes = 0;
  size_t ScratchBytes = 0;
  /// POCL_ISS_STATS: the array of work-item counters, one per piece of a
  /// region, and their descriptions; empty when not counted.
  std::string PiecesSymbol;
  std::vector<PieceInfo> Pieces;
  /// CompiledKernel::WrittenCandidate.
  bool WrittenCandidate = false;
  std::vector<char> Object; ///< ELF relocatable object
  /// The key of the entry whose code this kernel's is, where it is
  /// another's (a mode's code that is `vec`'s); such an entry holds that
  /// key alone. Read from the cache, the other entry's content with this
  /// set.
  std::string SameAs;
  /// A note of the measured choice between a mode's code and `vec`'s
  /// (MeasuredChoice.h), "mode", "vec" or "written"; such an entry holds it
  /// alone and is read by readCachedNote.
  std::string Choice;
};

/// Reads the entry for \p Key. False when there is none, it is damaged
/// (wrong magic, another key, truncated, bad checksum over the whole entry)
/// or not to be trusted (not a regular file, owned by another user or
/// writable by others, in a folder that is not the user's own): then the
/// caller rebuilds and overwrites it. An entry naming another's code reads
/// as that entry (not one naming a third), or is a miss.
bool readCachedKernel(const std::string &Dir, const std::string &Key,
                      CachedKernel &Out);
/// Reads the entry for \p Key as it is, following nothing: a note.
bool readCachedNote(const std::string &Dir, const std::string &Key,
                    CachedKernel &Out);
/// Writes the entry atomically (a temporary file, mode 0600, renamed into
/// place), so two processes filling the cache at once never leave a partial
/// entry. Creates the folder (0700) if needed; does nothing when it cannot,
/// or when the folder is not the user's own.
void writeCachedKernel(const std::string &Dir, const std::string &Key,
                       const CachedKernel &K);
/// An entry as the cache file holds it: magic, checksum, key, symbols,
/// object. The compiler process sends its results in this form too.
std::string encodeCachedKernel(const std::string &Key, const CachedKernel &K);
/// Reads an entry made by encodeCachedKernel for \p Key; false with \p Why
/// for anything else (another key, truncated, a bad checksum).
bool decodeCachedKernel(const std::string &Data, const std::string &Key,
                        CachedKernel &Out, std::string &Why);
/// The file that holds \p Key's entry.
std::string cachedKernelPath(const std::string &Dir, const std::string &Key);

} // namespace iss

#endif // POCL_ISS_COMPILER_BACKEND_KERNELCACHE_H
