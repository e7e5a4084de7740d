//===- ProgramCache.h - Program builds from the on-disk cache -------------===//
// SPDX-License-Identifier: MIT
//
// clBuildProgram, clCompileProgram and clLinkProgram results kept in the
// cache folder, so that an application's second start skips Clang. The key
// holds everything given to the build (the source, the options, the
// embedded headers or the input binaries) and everything of ours that
// decides it (pocl-iss's build, LLVM's and Clang's versions, the kernel
// library, the target). What the build found on its own is recorded beside
// the result and checked at every hit: each path Clang looked at on disk
// (a header that now exists where it did not, in any folder searched
// earlier, is a miss), the content of each file it read, and each symbol
// of the process the program calls. LLVM-free.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_FRONTEND_PROGRAMCACHE_H
#define POCL_ISS_COMPILER_FRONTEND_PROGRAMCACHE_H

#include "pocl-iss/KernelCompiler.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace iss {

/// What a build depended on besides its key.
struct BuildDependencies {
  enum class FileType : uint8_t { Missing, Regular, Directory, Other };
  struct Probe {
    std::string Path; ///< as Clang asked for it
    FileType Type = FileType::Missing;
    /// The probe of the same file (device and inode) seen first: Clang
    /// tells a header included twice by two names by its identity.
    size_t SameAs = 0;
    std::string Content; ///< identityHex of what was read; empty if unread
  };
  std::vector<Probe> Probes;
  std::map<std::string, size_t> ProbeOf; ///< path -> index in Probes
  /// (device, inode) -> index of the file's first probe, while recording.
  std::map<std::pair<uint64_t, uint64_t>, size_t> FirstOfFile;
  /// Functions the program calls that the JIT takes from the process.
  std::vector<std::string> ProcessSymbols;
  /// The working directory, if Clang asked for it (-g records it).
  bool UsesWorkingDir = false;
  std::string WorkingDir;
  /// False when the build did something a replay cannot check (it listed
  /// a folder, or a file changed while it was read).
  bool Cacheable = true;
};

/// The key of a build: \p Kind is what it makes, \p Inputs the binaries
/// of a link (empty for a build from source).
std::string programKey(BinaryKind Kind, const std::string &Options,
                       const std::string &Source,
                       const std::vector<HeaderSource> &Headers,
                       const std::vector<std::vector<uint8_t>> &Inputs);
/// The entry for \p Key, if there is one, it is whole and ours, and what
/// it depended on is unchanged; POCL_DEBUG=cache says why not.
bool readCachedProgram(const std::string &Dir, const std::string &Key,
                       BuildResult &Out);
/// Stores a successful build under \p Key.
void writeCachedProgram(const std::string &Dir, const std::string &Key,
                        const BuildDependencies &Deps, const BuildResult &R);

} // namespace iss

#endif // POCL_ISS_COMPILER_FRONTEND_PROGRAMCACHE_H
