//===- Target.cpp - The host CPU and the kernel library variant for it ----===//
// SPDX-License-Identifier: MIT
//
// Picks the variant of Debian pocl's kernel library, the best the host CPU
// runs or the one POCL_ISS_TARGET names, and the target-cpu it was built
// for: kernels must be compiled for the same CPU and features or the library
// will not inline into them (DESIGN.md section 3).
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"
#include "pocl-iss/Env.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace iss {

namespace {
/// A variant of the kernel library: the suffix of its file, which is also
/// its POCL_ISS_TARGET name, the target-cpu the Debian pocl 3.1 build gives
/// its functions, the host features its code uses and its widest vector
/// register.
struct Variant {
  const char *Name;
  const char *CPU;
  std::vector<const char *> Needs;
  unsigned VectorBits;
};
} // namespace

// Best first.
static const Variant Variants[] = {
    {"avx512",
     "skylake-avx512",
     {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd", "fma", "avx2",
      "bmi2"},
     512},
    {"avx2", "haswell", {"avx2", "fma", "bmi2", "f16c"}, 256},
    {"avx_f16c", "ivybridge", {"avx", "f16c"}, 256},
    {"avx", "sandybridge", {"avx"}, 256},
    {"sse41", "penryn", {"sse4.1"}, 128},
    {"ssse3", "core2", {"ssse3"}, 128},
    {"sse2", "x86-64", {}, 128},
};

static std::string libraryPath(const Variant &V) {
  return std::string(POCL_KERNEL_LIB_DIR) + "/kernel-x86_64-pc-linux-gnu-" +
         V.Name + ".bc";
}

std::string selectTarget(const std::string &Requested,
                         const std::function<bool(const std::string &)> &Has,
                         const std::function<bool(const std::string &)> &Exists,
                         TargetInfo &T) {
  std::string Allowed, Why;
  const Variant *Chosen = nullptr, *Named = nullptr;
  for (const Variant &V : Variants) {
    std::string Lacks;
    for (const char *F : V.Needs)
      if (!Has(F))
        Lacks += (Lacks.empty() ? "" : ", ") + std::string(F);
    // Why the host cannot run V; empty where it can.
    std::string Path = libraryPath(V);
    std::string Reason = !Lacks.empty()  ? "this CPU lacks " + Lacks
                         : !Exists(Path) ? Path + " is not installed"
                                         : "";
    if (Reason.empty()) {
      Allowed += (Allowed.empty() ? "" : ", ") + std::string(V.Name);
      if (!Chosen && Requested.empty())
        Chosen = &V;
    }
    if (Requested == V.Name) {
      Named = &V;
      Why = Reason;
    }
  }
  if (Named && Why.empty())
    Chosen = Named;
  if (!Requested.empty() && !Chosen)
    return "POCL_ISS_TARGET='" + Requested + "' is " +
           (Named ? "not allowed: " + Why : std::string("not a target")) +
           "; allowed on this host: " + (Allowed.empty() ? "none" : Allowed);
  if (Chosen) {
    T.CPU = Chosen->CPU;
    T.LibraryVariant = Chosen->Name;
    T.LibraryPath = libraryPath(*Chosen);
    T.NativeVectorBits = Chosen->VectorBits;
  }
  return "";
}

static TargetInfo detectTarget() {
  TargetInfo T;
  T.Triple = "x86_64-pc-linux-gnu";
  StringMap<bool> Features = sys::getHostCPUFeatures();
  std::string Error = selectTarget(
      settings().Target,
      [&](const std::string &F) { return Features.lookup(F); },
      [](const std::string &Path) { return sys::fs::exists(Path); }, T);
  if (!Error.empty())
    failSetting(Error);
  T.HasFP64 = true;
  T.HasFP16 = false;
  // What pocl 3.1's library implements for x86-64 (its HOST_DEVICE_
  // EXTENSIONS and _FEATURES_30), less command buffers, which the runtime
  // does not have. Images are the library's read_image.cl and
  // write_image.cl on pocl's dev_image_t (iss_image in WorkGroupABI.h).
  // The library's C11 atomics ignore the scope argument (they are
  // host-wide), so every scope is supported.
  T.Extensions = {"cl_khr_byte_addressable_store",
                  "cl_khr_3d_image_writes",
                  "cl_khr_global_int32_base_atomics",
                  "cl_khr_global_int32_extended_atomics",
                  "cl_khr_local_int32_base_atomics",
                  "cl_khr_local_int32_extended_atomics",
                  "cl_khr_int64_base_atomics",
                  "cl_khr_int64_extended_atomics"};
  T.OpenCLCFeatures = {"__opencl_c_atomic_order_acq_rel",
                       "__opencl_c_atomic_order_seq_cst",
                       "__opencl_c_atomic_scope_device",
                       "__opencl_c_atomic_scope_all_devices",
                       "__opencl_c_int64",
                       "__opencl_c_images",
                       "__opencl_c_3d_image_writes",
                       "__opencl_c_read_write_images"};
  if (T.HasFP64) {
    T.Extensions.push_back("cl_khr_fp64");
    T.OpenCLCFeatures.push_back("__opencl_c_fp64");
  }
  return T;
}

const TargetInfo &getTargetInfo() {
  static const TargetInfo T = detectTarget();
  return T;
}

} // namespace iss
