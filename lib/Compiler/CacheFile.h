//===- CacheFile.h - The files of the on-disk caches ----------------------===//
// SPDX-License-Identifier: MIT
//
// What the kernel cache and the program cache share: how an entry is
// sealed (a magic line, a checksum over the rest, the full key) and how it
// is read and written. Loading an entry runs its code, so only files the
// user could have written are trusted: the folder must be a directory
// owned by the user that nobody else may write to (folders we create are
// 0700), and an entry must be a regular file owned by the user and
// writable by nobody else (entries are written 0600, to a temporary file
// renamed into place, so two processes filling one cache never leave a
// partial entry). Anything else is a miss, or, for the folder, no cache.
// LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_CACHEFILE_H
#define POCL_ISS_COMPILER_CACHEFILE_H

#include <cstddef>
#include <string>

namespace iss {

/// The checksum an entry is sealed with: hex text of the bytes given.
using EntrySum = std::string (*)(const char *Data, size_t Size);

/// \p Magic (one line), "sum <bytes> <checksum>" over everything after
/// that line, "key <length>", the key, a newline, then \p Rest.
std::string sealEntry(const char *Magic, EntrySum Sum, const std::string &Key,
                      const std::string &Rest);
/// Checks an entry sealEntry made for \p Key; sets \p Rest to the offset of
/// what follows the key. False with \p Why for anything else (another
/// magic or key, truncated, a checksum that does not match).
bool unsealEntry(const std::string &Data, const char *Magic, EntrySum Sum,
                 const std::string &Key, size_t &Rest, const char *&Why);

/// Reads the file \p Path of the cache folder \p Dir into \p Data, if both
/// are ones we may trust (see the file comment); logs why not, except for
/// an entry that does not exist.
bool readEntryFile(const std::string &Dir, const std::string &Path,
                   std::string &Data);
/// Writes \p Data atomically as \p Path in \p Dir, creating the folder
/// (0700) if needed; does nothing when it cannot, or when the folder is not
/// the user's own. Logs "stored <path>" under POCL_DEBUG=cache.
void writeEntryFile(const std::string &Dir, const std::string &Path,
                    const std::string &Data);

} // namespace iss

#endif // POCL_ISS_COMPILER_CACHEFILE_H
