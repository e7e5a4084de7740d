//===- KernelCompiler.h - The runtime's view of the kernel compiler -------===//
// SPDX-License-Identifier: MIT
//
// The narrow, LLVM-free interface through which the OpenCL runtime builds
// programs and gets work-group functions. Everything behind it (Clang, the
// pocl kernel library, the work-group passes, O3, the JIT and the on-disk
// cache) lives in lib/Compiler; no LLVM header leaks out of this file.
//
// Program binaries are our own container ("POCLISS" magic, a kind, LLVM
// bitcode); clGetProgramInfo(CL_PROGRAM_BINARIES) returns them and
// clCreateProgramWithBinary accepts them back.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_KERNELCOMPILER_H
#define POCL_ISS_KERNELCOMPILER_H

#include "pocl-iss/WorkGroupABI.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace iss {

/// The address qualifier of a kernel argument, as OpenCL reports it.
enum class ArgKind { Global, Constant, Local, Value, Image, Sampler };

struct KernelArgInfo {
  ArgKind Kind = ArgKind::Value;
  std::string Name;     ///< kernel_arg_name
  std::string TypeName; ///< kernel_arg_type, e.g. "float*", "float4", "S"
  unsigned AccessQualifier = 0; ///< CL_KERNEL_ARG_ACCESS_*
  unsigned TypeQualifier = 0;   ///< CL_KERNEL_ARG_TYPE_* bit field
  size_t Size = 0;  ///< bytes clSetKernelArg expects (pointers: sizeof(void*))
  size_t Align = 1; ///< alignment of the value in the argument slot
};

struct KernelInfo {
  std::string Name;
  std::vector<KernelArgInfo> Args;
  size_t ReqdWorkGroupSize[3] = {0, 0, 0}; ///< all 0 when not given
  size_t WorkGroupSizeHint[3] = {0, 0, 0};
  std::string Attributes; ///< CL_KERNEL_ATTRIBUTES text
  bool HasBarriers = false;
  /// Automatic (function-scope) __local variables: size and alignment of
  /// each, in the order of the trailing argument slots.
  std::vector<std::pair<size_t, size_t>> AutoLocals;
  size_t autoLocalBytes() const;
};

enum class BinaryKind : uint8_t {
  Compiled = 1,   ///< clCompileProgram output, not linked
  Library = 2,    ///< clLinkProgram -create-library output
  Executable = 3, ///< linked with the kernel library, kernels runnable
};

struct BuildResult {
  bool Success = false;
  /// The options themselves were rejected (CL_INVALID_BUILD_OPTIONS or
  /// CL_INVALID_COMPILER/LINKER_OPTIONS rather than a build failure).
  bool InvalidOptions = false;
  std::string Log;              ///< compiler diagnostics, always kept
  std::vector<uint8_t> Binary;  ///< our container, empty on failure
  BinaryKind Kind = BinaryKind::Executable;
  std::vector<KernelInfo> Kernels; ///< for Executable binaries
};

/// An embedded header for clCompileProgram.
struct HeaderSource {
  std::string Name;
  std::string Source;
};

/// The compile-time facts of the device the compiler targets; the runtime
/// reports the same values through clGetDeviceInfo.
struct TargetInfo {
  std::string Triple;  ///< x86_64-pc-linux-gnu
  std::string CPU;     ///< e.g. skylake-avx512, the kernel library's target
  std::string Features;
  std::string LibraryVariant; ///< avx512, avx2, avx, sse41, sse2, ...
  std::string LibraryPath;    ///< the kernel library bitcode in use
  unsigned NativeVectorBits = 128; ///< widest vector register
  bool HasFP64 = true;
  bool HasFP16 = false;
  /// The OpenCL C extensions kernels may use: what the kernel library
  /// implements. CL_DEVICE_EXTENSIONS reports them (and cl_khr_icd).
  std::vector<std::string> Extensions;
  /// The optional OpenCL C 3.0 features (__opencl_c_*) of kernels compiled
  /// as OpenCL C 3.0; CL_DEVICE_OPENCL_C_FEATURES reports them.
  std::vector<std::string> OpenCLCFeatures;
};

/// Chosen once per process: the kernel library variant POCL_ISS_TARGET
/// names, or without it the best one the host CPU runs. A variant that is
/// not one, that the host cannot run or whose file is not installed stops
/// the process with a one-line error (Env.h).
const TargetInfo &getTargetInfo();

/// The choice behind getTargetInfo(), exposed for the unit tests: fills the
/// CPU, the variant, its file and its vector bits of \p T with the variant
/// \p Requested names, or where it is empty with the best one whose
/// features \p Has (LLVM's names: "avx2", "sse4.1") and whose file
/// \p Exists. Returns the error message, empty on success.
std::string selectTarget(const std::string &Requested,
                         const std::function<bool(const std::string &)> &Has,
                         const std::function<bool(const std::string &)> &Exists,
                         TargetInfo &T);

/// clBuildProgram: OpenCL C source to an executable binary.
BuildResult buildProgram(const std::string &Source, const std::string &Options);
/// clCompileProgram: source (with embedded headers) to a compiled binary.
BuildResult compileProgram(const std::string &Source, const std::string &Options,
                           const std::vector<HeaderSource> &Headers);
/// clLinkProgram: compiled binaries and libraries to an executable, or to a
/// library when \p CreateLibrary.
BuildResult linkPrograms(const std::vector<std::vector<uint8_t>> &Inputs,
                         const std::string &Options, bool CreateLibrary);
/// clCreateProgramWithBinary: validates a binary and reads its kernels.
/// Success is false (with a log) for anything that is not ours or is damaged.
BuildResult loadBinary(const std::vector<uint8_t> &Binary);

/// A piece of a parallel region, as POCL_ISS_STATS reports it (the
/// input-space-splitting paper, Table 3).
struct PieceInfo {
  unsigned Region = 0;
  std::string Name;       ///< "full, consecutive, uniform control", "unsplit"
  std::string Properties; ///< how it runs, what its accesses are; may be empty
  unsigned Subkernel = 0; ///< the subkernel whose region it is
};

/// The candidates of the measured choice (lib/Device/Pthread/
/// MeasuredChoice.h), in the order it measures them: POCL_ISS_MODE's code,
/// `vec`'s, and the kernel as written (its own vectors, not widened).
enum class CodeCandidate : uint8_t { Mode, Vec, Written, None };

class MeasuredChoice;

/// A kernel compiled for one local size: its subkernels and the selection
/// function. Immutable once made, but for what its launches measure;
/// shared between launches and threads.
struct CompiledKernel {
  std::string KernelName;
  size_t LocalSize[3] = {1, 1, 1};
  std::vector<iss_subkernel_fn> Subkernels;
  std::vector<std::string> SubkernelNames; ///< for POCL_ISS_STATS
  iss_select_fn Select = nullptr;
  /// Launch counts per subkernel, for POCL_ISS_STATS.
  std::unique_ptr<std::atomic<uint64_t>[]> Launches;
  std::string Mode; ///< POCL_ISS_MODE it was compiled under
  /// POCL_ISS_STATS, in the split modes: the work-items each piece of each
  /// region ran, counted by the compiled code (in the JIT's memory), and
  /// what the pieces are. Null and empty otherwise.
  const std::atomic<uint64_t> *PieceWorkItems = nullptr;
  std::vector<PieceInfo> Pieces;
  /// The JIT's memory that Subkernels, Select and PieceWorkItems point
  /// into, freed with this kernel: when the last program, kernel or
  /// command using it lets it go, never once the process exits.
  /// Opaque here, so that no LLVM header leaks out.
  std::shared_ptr<void> Code;
  /// Context array bytes per work-item (values live across barriers).
  size_t ContextBytesPerWorkItem = 0;
  /// Bytes of uniform values kept once per work-group.
  size_t UniformContextBytes = 0;
  /// The count of iss-as-written found widening across work-items less
  /// than twice as cheap as the kernel as written: the kernel as written
  /// is a candidate of the measured choice.
  bool WrittenCandidate = false;
  /// Scratch memory each thread needs to run a work group
  /// (iss_wg_context::scratch): private and context arrays too big for
  /// its stack.
  size_t ScratchBytes = 0;
  /// What the device measured of this kernel's launches, to run a launch
  /// on one thread when that has been faster (lib/Device/Pthread/
  /// WorkerPool.cpp). Nanoseconds, 0 until measured.
  struct LaunchHistory {
    /// Launches by their estimated single-thread time: one bucket per
    /// power of two from twice WorkerPool::MinParallelNs (8 us) up to
    /// 512 us; bigger launches always use every thread.
    static constexpr unsigned Buckets = 6;
    /// One thread's time per group, as low as recent launches allow.
    std::atomic<uint64_t> NsPerGroup{0};
    /// Wall time per work group of the launches of a bucket, run alone or
    /// with workers, in sixteenths of a nanosecond.
    std::atomic<uint64_t> AloneNs[Buckets] = {};
    std::atomic<uint64_t> ParallelNs[Buckets] = {};
    std::atomic<uint32_t> Count[Buckets] = {};
  };
  mutable LaunchHistory History;

  /// The measured choice between this code, POCL_ISS_MODE's, and `vec`'s,
  /// where both are at hand (POCL_ISS_CHOICE): attached once by the
  /// runtime, followed by every launch of this code from then on. Null
  /// until attached, and where there is nothing to choose.
  MeasuredChoice *choice() const {
    return ChoicePtr.load(std::memory_order_acquire);
  }
  /// Attaches \p C unless a choice is attached already; returns the one
  /// attached.
  MeasuredChoice *attachChoice(std::shared_ptr<MeasuredChoice> C) const {
    std::lock_guard<std::mutex> L(ChoiceM);
    if (!ChoiceOwner) {
      ChoiceOwner = std::move(C);
      ChoicePtr.store(ChoiceOwner.get(), std::memory_order_release);
    }
    return ChoiceOwner.get();
  }

private:
  mutable std::mutex ChoiceM;
  mutable std::shared_ptr<MeasuredChoice> ChoiceOwner;
  mutable std::atomic<MeasuredChoice *> ChoicePtr{nullptr};
};

/// Which code getCompiledKernel gets.
enum class CompileTier {
  Mode,          ///< POCL_ISS_MODE's, compiled if need be
  Vec,           ///< `vec`'s, compiled if need be (a tiered first launch)
  CachedOnly,    ///< POCL_ISS_MODE's if loaded or on disk already, else null
  VecCachedOnly, ///< `vec`'s if loaded or on disk already, else null
  WrittenCachedOnly, ///< the kernel as written, if loaded or on disk
};

/// Compiles (or loads from the on-disk cache) the work-group functions of
/// \p Kernel in the executable binary \p Binary for the local size \p Local.
/// Returns null and fills \p Error when that fails (with CompileTier::
/// CachedOnly, null and no error where nothing is compiled yet).
std::shared_ptr<CompiledKernel>
getCompiledKernel(const std::vector<uint8_t> &Binary, const std::string &Kernel,
                  const size_t Local[3], std::string &Error,
                  CompileTier Tier = CompileTier::Mode);

/// Whether a kernel's first launch for a local size runs `vec`'s code while
/// POCL_ISS_MODE's compiles behind it (POCL_ISS_TIERED): in the modes that
/// split or score, without POCL_ISS_STATS (which counts the mode's pieces).
bool tieredLaunches();

/// Whether a launch may measure POCL_ISS_MODE's code against `vec`'s
/// (POCL_ISS_CHOICE): where the launches are tiered, so that `vec`'s code
/// is compiled anyway.
bool measuredChoices();
/// The measured choice for \p Kernel at \p Local that an earlier process
/// remembered in the kernel cache; CodeCandidate::None where there is none.
CodeCandidate rememberedChoice(const std::vector<uint8_t> &Binary,
                               const std::string &Kernel,
                               const size_t Local[3]);
/// Where the choice is remembered: a note in the kernel cache, written by
/// the function returned, which holds what it needs (not the binary); an
/// empty function without a kernel cache.
std::function<void(CodeCandidate)>
choiceRememberer(const std::vector<uint8_t> &Binary, const std::string &Kernel,
                 const size_t Local[3]);

/// The compile of POCL_ISS_MODE's code behind a tiered first launch. It
/// runs in the compiler process (pocl-iss-compile, one per application
/// process, at a lower priority), never in the application: a compile
/// shares no state with the application's threads, the application's
/// exit, or a compile that crashes, and exit never waits for one. Launches
/// run `vec`'s code until poll() finds the mode's arrived; none waits.
class BackgroundCompile {
public:
  /// Hands the compile to the compiler process, started if need be; null
  /// when no compiler process can run here (the caller compiles the
  /// mode's code itself then). With \p Written, the compile of the kernel
  /// as written, a candidate of the measured choice.
  static std::shared_ptr<BackgroundCompile>
  start(std::shared_ptr<const std::vector<uint8_t>> Binary,
        const std::string &Kernel, const size_t Local[3], bool Written = false);
  enum class Status { Running, Done, Failed };
  /// Never blocks. Done: \p Result is the mode's code, loaded; Failed:
  /// \p Error says why (the launches keep `vec`'s code).
  Status poll(std::shared_ptr<CompiledKernel> &Result, std::string &Error);

  /// The compiler process's side, for pocl-iss-compile's main: serves the
  /// requests coming on \p Fd until the application is gone and, with the
  /// kernel cache on, every compile it asked for is in the cache.
  static int serve(int Fd);

  // The compiler process's reply, filled in by poll() (CompilerProcess.cpp).
  std::shared_ptr<const std::vector<uint8_t>> Binary;
  std::string Kernel;
  size_t Local[3] = {1, 1, 1};
  bool Written = false;
  Status St = Status::Running;
  std::string Reply; ///< the encoded entry, or the error
  std::shared_ptr<CompiledKernel> Result;
};

} // namespace iss

#endif // POCL_ISS_KERNELCOMPILER_H
