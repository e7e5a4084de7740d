//===- TargetTest.cpp - POCL_ISS_TARGET, the kernel library variant -------===//
// SPDX-License-Identifier: MIT
//
// The setting is the process's, so the test runs itself as a child with
// each value. A name that is no variant, or one the host cannot run, stops
// the child with one line naming the variable and what the host allows.
// Under avx2 and sse41 (where the host runs them) the child reports the
// device's vector widths and name, checks a kernel's results and leaves
// the kernel's object (POCL_ISS_DUMP_IR), which the test disassembles: no
// 512-bit register under avx2, no 256-bit one under sse41. The two children
// share one cache folder, so the sse41 child compiles afresh only if the
// program and kernel cache keys tell the targets apart; and a program
// binary saved under avx2 is refused under sse41.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <string>
#include <sys/stat.h>

static const char *Source = R"CLC(
__kernel void axpy(__global const float *a, __global const float *b,
                   __global float *out, float s) {
  int i = get_global_id(0);
  out[i] = a[i] * s + b[i];
}
)CLC";

static cl_uint deviceUint(const clt::Env &E, cl_device_info Param) {
  cl_uint V = 0;
  CL_CHECK(clGetDeviceInfo(E.Device, Param, sizeof(V), &V, nullptr));
  return V;
}

/// Prints the device's name and vector widths, runs axpy and checks it;
/// saves its program binary to $ISS_TARGET_SAVE and tries the binary in
/// $ISS_TARGET_LOAD, where they are set.
static int child() {
  return clt::onPoclIss([](clt::Env &E) {
    std::printf("name %s\n", E.deviceString(CL_DEVICE_NAME).c_str());
    std::printf("native %u %u %u %u %u %u\n",
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR),
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT),
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT),
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG),
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT),
                deviceUint(E, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE));
    std::printf("preferred %u %u %u %u %u %u\n",
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR),
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT),
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT),
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG),
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT),
                deviceUint(E, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE));
    const int N = 4096;
    const float S = 3.0f;
    std::vector<float> A = clt::randomVector<float>(N, -10, 10, 1);
    std::vector<float> B = clt::randomVector<float>(N, -10, 10, 2);
    clt::Program P = E.build(Source);
    clt::Kernel K = E.kernel(P, "axpy");
    clt::Mem DA = E.input(A), DB = E.input(B), DOut = E.output<float>(N);
    clt::setArgs(K, DA, DB, DOut, S);
    size_t G = N, L = 64;
    E.run(K, 1, &G, &L);
    std::vector<float> Got = E.read<float>(DOut, N);
    for (int I = 0; I < N; ++I) {
      // -ffp-contract=on may fuse the multiply and the add.
      float Want = A[I] * S + B[I];
      if (std::fabs(Got[I] - Want) > 1e-5f * (1 + std::fabs(Want))) {
        std::printf("axpy: out[%d] = %g, expected %g\n", I, double(Got[I]),
                    double(Want));
        return 1;
      }
    }
    if (const char *Save = std::getenv("ISS_TARGET_SAVE")) {
      std::vector<unsigned char> Bin = clt::programBinary(P);
      std::ofstream(Save, std::ios::binary)
          .write(reinterpret_cast<const char *>(Bin.data()),
                 std::streamsize(Bin.size()));
    }
    if (const char *Load = std::getenv("ISS_TARGET_LOAD")) {
      std::string Bin = clt::readFile(Load);
      const unsigned char *Ptr =
          reinterpret_cast<const unsigned char *>(Bin.data());
      size_t Size = Bin.size();
      cl_int Status = CL_SUCCESS, Err = CL_SUCCESS;
      cl_program Loaded = clCreateProgramWithBinary(E.Ctx, 1, &E.Device, &Size,
                                                    &Ptr, &Status, &Err);
      std::printf("binary %s\n", clt::errorName(Err));
      if (Loaded)
        clReleaseProgram(Loaded);
    }
    return 0;
  });
}

namespace {
struct Variant {
  const char *Name;
  bool Runs;     ///< the host has the features its code uses
  unsigned Bits; ///< its widest vector register
};
} // namespace

/// The variants, best first, and whether this CPU runs them: the test's own
/// reading of the features, independent of the compiler's.
static std::vector<Variant> variants() {
  __builtin_cpu_init();
  auto Has = [](std::initializer_list<bool> Features) {
    for (bool F : Features)
      if (!F)
        return false;
    return true;
  };
  bool Avx2 = Has({__builtin_cpu_supports("avx2") != 0,
                   __builtin_cpu_supports("fma") != 0,
                   __builtin_cpu_supports("bmi2") != 0,
                   __builtin_cpu_supports("f16c") != 0});
  bool Avx512 = Has({Avx2, __builtin_cpu_supports("avx512f") != 0,
                     __builtin_cpu_supports("avx512bw") != 0,
                     __builtin_cpu_supports("avx512vl") != 0,
                     __builtin_cpu_supports("avx512dq") != 0,
                     __builtin_cpu_supports("avx512cd") != 0});
  bool Avx = __builtin_cpu_supports("avx") != 0;
  bool F16c = __builtin_cpu_supports("f16c") != 0;
  return {{"avx512", Avx512, 512},
          {"avx2", Avx2, 256},
          {"avx_f16c", Avx && F16c, 256},
          {"avx", Avx, 256},
          {"sse41", __builtin_cpu_supports("sse4.1") != 0, 128},
          {"ssse3", __builtin_cpu_supports("ssse3") != 0, 128},
          {"sse2", true, 128}};
}

static int Failures = 0;

static void check(bool Ok, const std::string &What) {
  if (!Ok) {
    std::printf("FAIL: %s\n", What.c_str());
    ++Failures;
  }
}

/// A value that must stop the child with exactly one line matching \p Line.
static void expectRefused(const std::string &Self, const char *Value,
                          const std::string &Line) {
  std::string Text;
  int Status = clt::runChild(Self.c_str(), "--child",
                             {{"POCL_ISS_TARGET", Value}}, 60, Text);
  check(Status == 1, std::string("POCL_ISS_TARGET=") + Value +
                         ": exit status " + std::to_string(Status) +
                         ", expected 1");
  check(std::regex_match(Text, std::regex(Line + "\n")),
        std::string("POCL_ISS_TARGET=") + Value + ": the child said\n" + Text +
            "expected one line matching\n" + Line);
}

/// The disassembly of the object at \p Path; empty when there is none.
static std::string disassemble(const std::string &Path) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0)
    return "";
  std::string Text;
  std::string Cmd =
      std::string(LLVM_OBJDUMP) + " -d --no-show-raw-insn '" + Path + "'";
  if (FILE *P = popen(Cmd.c_str(), "r")) {
    char Buf[4096];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof(Buf), P)) > 0)
      Text.append(Buf, N);
    pclose(P);
  }
  return Text;
}

/// Runs the child under \p V with the cache \p Cache, and checks what it
/// reports and the code it compiled.
static void runUnder(const std::string &Self, const Variant &V,
                     const std::string &Cache, const std::string &Dump,
                     const clt::EnvChanges &More, std::string &Text) {
  clt::EnvChanges Env = {{"POCL_ISS_TARGET", V.Name},
                         {"POCL_ISS_MODE", "vec"},
                         {"POCL_KERNEL_CACHE", "1"},
                         {"POCL_CACHE_DIR", Cache.c_str()},
                         {"POCL_ISS_DUMP_IR", Dump.c_str()}};
  Env.insert(Env.end(), More.begin(), More.end());
  std::string Name = std::string("POCL_ISS_TARGET=") + V.Name + ": ";
  int Status = clt::runChild(Self.c_str(), "--child", Env, 120, Text);
  check(Status == 0, Name + "the child failed (status " +
                         std::to_string(Status) + "):\n" + Text);
  unsigned W = V.Bits / 32;
  std::string Widths = std::to_string(W * 4) + " " + std::to_string(W * 2) +
                       " " + std::to_string(W) + " " + std::to_string(W / 2) +
                       " " + std::to_string(W) + " " + std::to_string(W / 2);
  for (const char *Kind : {"native", "preferred"})
    check(Text.find(std::string(Kind) + " " + Widths + "\n") !=
              std::string::npos,
          Name + Kind + " vector widths are not " + Widths + ":\n" + Text);
  static const std::pair<const char *, const char *> CPUs[] = {
      {"avx2", "haswell"}, {"sse41", "penryn"}};
  for (const auto &[Variant, CPU] : CPUs)
    if (std::strcmp(Variant, V.Name) == 0) {
      check(Text.find(std::string("name pthread-") + CPU + "-") !=
                std::string::npos,
            Name + "the device is not named after " + CPU + ":\n" + Text);
      // What Clang made for the target, not what a cache held for another.
      std::string Linked = clt::readFile(Dump + "/axpy-vec-linked.ll");
      std::regex OtherCPU("\"target-cpu\"=\"(?!" + std::string(CPU) + "\")");
      check(!Linked.empty() && !std::regex_search(Linked, OtherCPU),
            Name + "the linked kernel is not all target-cpu " + CPU);
    }
  std::string Code = disassemble(Dump + "/axpy-vec.o");
  check(!Code.empty(), Name + "no object dumped in " + Dump +
                           " (compiled before, for another target?)");
  if (Code.empty())
    return;
  bool Zmm = Code.find("%zmm") != std::string::npos;
  bool Ymm = Code.find("%ymm") != std::string::npos;
  bool Xmm = Code.find("%xmm") != std::string::npos;
  if (V.Bits == 256) {
    check(!Zmm, Name + "the code uses 512-bit registers");
    check(Ymm, Name + "the code is not vectorized at 256 bits");
  } else if (V.Bits == 128) {
    check(!Zmm && !Ymm, Name + "the code uses registers wider than 128 bits");
    check(Xmm, Name + "the code is not vectorized");
  }
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  if (!clt::findPlatform("pocl-iss"))
    return 77;
  std::string Self = clt::selfPath();
  if (Self.empty())
    return 1;
  std::vector<Variant> Vs = variants();
  std::string Allowed;
  for (const Variant &V : Vs)
    if (V.Runs)
      Allowed += (Allowed.empty() ? "" : ", ") + std::string(V.Name);

  expectRefused(Self, "avx3",
                "pocl-iss: POCL_ISS_TARGET='avx3' is not a target; allowed on "
                "this host: " +
                    Allowed);
  expectRefused(Self, "AVX2",
                "pocl-iss: POCL_ISS_TARGET='AVX2' is not a target; allowed on "
                "this host: " +
                    Allowed);
  bool Unrunnable = false;
  for (const Variant &V : Vs)
    if (!V.Runs && !Unrunnable) {
      Unrunnable = true;
      expectRefused(Self, V.Name,
                    std::string("pocl-iss: POCL_ISS_TARGET='") + V.Name +
                        "' is not allowed: this CPU lacks [a-z0-9., ]+; "
                        "allowed on this host: " +
                        Allowed);
    }
  if (!Unrunnable)
    std::printf("note: this CPU runs every variant; no refusal for a "
                "missing feature checked\n");

  clt::TempFolder Dir("pocl-iss-target");
  if (!Dir.Made)
    return 1;
  std::string Cache = Dir.Path + "/cache", Binary = Dir.Path + "/avx2.bin";
  mkdir(Cache.c_str(), 0700);
  bool Saved = false, Ran = false;
  for (const Variant &V : Vs) {
    if (std::strcmp(V.Name, "avx2") && std::strcmp(V.Name, "sse41"))
      continue;
    if (!V.Runs) {
      std::printf("note: this CPU does not run %s\n", V.Name);
      continue;
    }
    Ran = true;
    std::string Dump = Dir.Path + "/" + V.Name;
    mkdir(Dump.c_str(), 0700);
    bool Avx2 = std::strcmp(V.Name, "avx2") == 0;
    clt::EnvChanges More;
    if (Avx2)
      More.push_back({"ISS_TARGET_SAVE", Binary.c_str()});
    else if (Saved)
      More.push_back({"ISS_TARGET_LOAD", Binary.c_str()});
    std::string Text;
    runUnder(Self, V, Cache, Dump, More, Text);
    if (Avx2)
      Saved = !clt::readFile(Binary).empty();
    else if (Saved)
      check(Text.find("binary CL_INVALID_BINARY\n") != std::string::npos,
            "POCL_ISS_TARGET=sse41: a binary built under avx2 is not "
            "refused:\n" +
                Text);
  }
  if (!Ran)
    return 77;
  if (Failures)
    return 1;
  std::printf("ok\n");
  return 0;
}
