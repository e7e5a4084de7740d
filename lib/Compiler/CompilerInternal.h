//===- CompilerInternal.h - Shared pieces of the kernel compiler ----------===//
// SPDX-License-Identifier: MIT
//
// Declarations shared by the files of lib/Compiler. Includes LLVM headers:
// only the compiler's own sources include it, never the runtime's.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_COMPILER_INTERNAL_H
#define POCL_ISS_COMPILER_INTERNAL_H

#include "pocl-iss/KernelCompiler.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class CallInst;
class GlobalVariable;
class Function;
namespace vfs {
class FileSystem;
} // namespace vfs
} // namespace llvm

namespace iss {

struct BuildDependencies;

/// Clang in process: OpenCL C to a one-work-item LLVM module. Diagnostics go
/// to \p Log. Returns null on failure; \p InvalidOptions tells whether the
/// options themselves were the problem. What Clang looks at on disk is
/// noted in \p Deps (ProgramCache.h).
std::unique_ptr<llvm::Module>
compileOpenCL(llvm::LLVMContext &Ctx, const std::string &Source,
              const std::string &Options,
              const std::vector<HeaderSource> &Headers, std::string &Log,
              bool &InvalidOptions, BuildDependencies &Deps);
/// The real file system, with every status, open and read noted in \p Deps.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
recordingFileSystem(BuildDependencies &Deps);

/// What every cache key begins with: pocl-iss's version and build, LLVM's
/// version, the kernel library and the target.
std::string compilerIdentity();

/// Links the definitions \p M needs from pocl's kernel library (lazily, only
/// what is referenced) and relaxes spir_func calls to the C convention.
bool linkKernelLibrary(llvm::Module &M, std::string &Log);

/// A hash of the kernel library file in use, for cache keys.
const std::string &kernelLibraryHash();

/// Serialises \p M into our binary container of kind \p Kind.
std::vector<uint8_t> writeBinary(const llvm::Module &M, BinaryKind Kind);
/// Parses our container; null (and \p Error) when it is damaged or foreign.
std::unique_ptr<llvm::Module> readBinary(llvm::LLVMContext &Ctx,
                                         const std::vector<uint8_t> &Binary,
                                         BinaryKind &Kind, std::string &Error);

/// The kernels of \p M: functions with the spir_kernel convention.
std::vector<llvm::Function *> kernelsOf(llvm::Module &M);
/// The instructions that call \p F (not those that pass it on), gathered
/// first so that the caller may rewrite or erase them.
std::vector<llvm::CallInst *> callsOf(llvm::Function &F);
/// Argument and attribute information from clang's kernel metadata.
KernelInfo describeKernel(llvm::Function &Kernel);
/// Function-scope __local variables of \p Kernel, in slot order: internal,
/// non-constant globals named "<kernel>.<var>" with an undefined initialiser
/// (DESIGN.md section 3).
std::vector<llvm::GlobalVariable *> autoLocalsOf(llvm::Function &Kernel);
/// Whether \p Kernel reaches a work-group barrier.
bool usesBarriers(llvm::Function &Kernel);

/// The compiler process's half of a tiered launch: POCL_ISS_MODE's code
/// (with \p Written, the kernel as written) for \p Kernel and \p Local,
/// from the on-disk cache or compiled, given to \p Send as an encoded
/// cache entry (encodeCachedKernel), then cached.
bool compileModeEntry(const std::vector<uint8_t> &Binary,
                      const std::string &Kernel, const size_t Local[3],
                      bool Written,
                      const std::function<void(const std::string &)> &Send,
                      std::string &Error);
/// The application's half: loads an entry compileModeEntry made into the
/// JIT (or the kernel already loaded under its key).
std::shared_ptr<CompiledKernel>
loadModeEntry(const std::vector<uint8_t> &Binary, const std::string &Kernel,
              const size_t Local[3], bool Written, const std::string &Entry,
              std::string &Error);

/// A 64-bit FNV-1a hash in hex, for cache keys and checksums.
std::string hashHex(llvm::StringRef Data);
/// A 128-bit XXH3 hash in hex: what identifies the kernel library (9 MB),
/// the compiler's own binary and the program in a cache key. Each process
/// hashes the first two at its first launch; hashHex's two FNV-1a passes,
/// a byte at a time, took 35 ms of it.
std::string identityHex(llvm::StringRef Data);
uint64_t hash64(llvm::StringRef Data, uint64_t Seed = 1469598103934665603ull);

} // namespace iss

#endif // POCL_ISS_COMPILER_INTERNAL_H
