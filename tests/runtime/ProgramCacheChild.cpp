//===- ProgramCacheChild.cpp - One application run for ProgramCacheTest ---===//
// SPDX-License-Identifier: MIT
//
// What runtime-programcache starts: builds $ISS_PC_DIR/src.cl with the
// options "-I $ISS_PC_DIR/a -I $ISS_PC_DIR/b $ISS_PC_OPTIONS", either with
// clBuildProgram (ISS_PC_HOW=build) or with clCompileProgram, the file
// $ISS_PC_DIR/emb.h embedded as the header "emb.h", and clLinkProgram
// (ISS_PC_HOW=compile). Runs its kernel k(__global int *x) on x[i] = i,
// i < 64, in work-groups of 16, and prints what the build gave (the log,
// the kernels, the first argument's name and type, a hash of
// CL_PROGRAM_BINARIES) and the results, for the test to compare between
// runs. Exit status: 0 done, 2 an OpenCL call failed (printed), 77 no
// platform.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

static std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

static std::string env(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}

static std::string argString(cl_kernel K, cl_kernel_arg_info Param) {
  size_t N = 0;
  CL_CHECK(clGetKernelArgInfo(K, 0, Param, 0, nullptr, &N));
  std::string S(N, '\0');
  CL_CHECK(clGetKernelArgInfo(K, 0, Param, N, &S[0], nullptr));
  if (!S.empty() && S.back() == '\0')
    S.pop_back();
  return S;
}

/// FNV-1a of CL_PROGRAM_BINARIES, in hex.
static std::string binaryHash(cl_program P) {
  unsigned long long H = 1469598103934665603ull;
  for (unsigned char C : clt::programBinary(P)) {
    H ^= C;
    H *= 1099511628211ull;
  }
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "%016llx", H);
  return Buf;
}

/// The program of the run, built as ISS_PC_HOW says.
static clt::Program makeProgram(const clt::Env &E) {
  std::string Dir = env("ISS_PC_DIR");
  std::string Src = readFile(Dir + "/src.cl");
  std::string Options =
      "-I " + Dir + "/a -I " + Dir + "/b " + env("ISS_PC_OPTIONS");
  if (env("ISS_PC_HOW") != "compile")
    return E.build(Src.c_str(), Options);
  cl_int Err;
  const char *S = Src.c_str();
  clt::Program Unlinked(clCreateProgramWithSource(E.Ctx, 1, &S, nullptr, &Err));
  CL_CHECK(Err);
  std::string Emb = readFile(Dir + "/emb.h");
  const char *H = Emb.c_str();
  clt::Program Header(clCreateProgramWithSource(E.Ctx, 1, &H, nullptr, &Err));
  CL_CHECK(Err);
  cl_program Headers[] = {Header};
  const char *Names[] = {"emb.h"};
  Err = clCompileProgram(Unlinked, 1, &E.Device, Options.c_str(), 1, Headers,
                         Names, nullptr, nullptr);
  if (Err != CL_SUCCESS)
    std::printf("compile log[%s]\n", E.buildLog(Unlinked).c_str());
  CL_CHECK(Err);
  cl_program In[] = {Unlinked};
  clt::Program Linked(
      clLinkProgram(E.Ctx, 1, &E.Device, "", 1, In, nullptr, nullptr, &Err));
  CL_CHECK(Err);
  return Linked;
}

int main() {
  clt::Env E;
  if (!clt::childPlatform())
    return 77;
  try {
    E.open(clt::testPlatformNeedle());
    clt::Program P = makeProgram(E);
    std::printf("log[%s]\n", E.buildLog(P).c_str());
    std::printf("kernels %s\n",
                clt::programString(P, CL_PROGRAM_KERNEL_NAMES).c_str());
    std::printf("binary %s\n", binaryHash(P).c_str());
    clt::Kernel K = E.kernel(P, "k");
    std::printf("arg %s %s\n", argString(K, CL_KERNEL_ARG_NAME).c_str(),
                argString(K, CL_KERNEL_ARG_TYPE_NAME).c_str());
    const size_t Global = 64, Local = 16;
    std::vector<int> Data(Global);
    for (size_t I = 0; I < Global; ++I)
      Data[I] = static_cast<int>(I);
    clt::Mem B = E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          Global * sizeof(int), Data.data());
    clt::setArg(K, 0, B);
    E.run(K, 1, &Global, &Local);
    E.read(B, Data);
    std::printf("x");
    for (int V : Data)
      std::printf(" %d", V);
    std::printf("\n");
  } catch (const clt::Failure &F) {
    std::printf("%s\n", F.what());
    return 2;
  }
  return 0;
}
