//===- ProgramBinary.cpp - Our program binaries and kernel descriptions ---===//
// SPDX-License-Identifier: MIT
//
// CL_PROGRAM_BINARIES are a small container around LLVM bitcode: a magic, a
// format version, the kind (compiled, library, executable), the bitcode size
// and a checksum, so that clCreateProgramWithBinary can tell ours from
// anything else and refuse a damaged one. Also reads clang's kernel
// argument metadata (-cl-kernel-arg-info) into KernelInfo.
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <CL/cl.h>

#include <cstring>
#include <set>

using namespace llvm;

namespace iss {

static const char Magic[8] = {'P', 'O', 'C', 'L', 'I', 'S', 'S', '\0'};
static const uint32_t FormatVersion = 1;
static const size_t HeaderSize = 8 + 4 + 4 + 8 + 8;

uint64_t hash64(StringRef Data, uint64_t Seed) {
  uint64_t H = Seed;
  for (unsigned char C : Data) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

std::string hashHex(StringRef Data) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%016llx%016llx",
                (unsigned long long)hash64(Data),
                (unsigned long long)hash64(Data, 0x9e3779b97f4a7c15ull));
  return Buf;
}

std::string identityHex(StringRef Data) {
  XXH128_hash_t H = xxh3_128bits(arrayRefFromStringRef(Data));
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%016llx%016llx",
                (unsigned long long)H.high64, (unsigned long long)H.low64);
  return Buf;
}

static void put(std::vector<uint8_t> &Out, const void *P, size_t N) {
  const uint8_t *B = static_cast<const uint8_t *>(P);
  Out.insert(Out.end(), B, B + N);
}

std::vector<uint8_t> writeBinary(const Module &M, BinaryKind Kind) {
  SmallVector<char, 0> Bitcode;
  raw_svector_ostream OS(Bitcode);
  WriteBitcodeToFile(M, OS);
  std::vector<uint8_t> Out;
  Out.reserve(HeaderSize + Bitcode.size());
  put(Out, Magic, 8);
  put(Out, &FormatVersion, 4);
  uint32_t K = static_cast<uint32_t>(Kind);
  put(Out, &K, 4);
  uint64_t Size = Bitcode.size();
  put(Out, &Size, 8);
  uint64_t Sum = hash64(StringRef(Bitcode.data(), Bitcode.size()));
  put(Out, &Sum, 8);
  put(Out, Bitcode.data(), Bitcode.size());
  return Out;
}

std::unique_ptr<Module> readBinary(LLVMContext &Ctx,
                                   const std::vector<uint8_t> &Binary,
                                   BinaryKind &Kind, std::string &Error) {
  if (Binary.size() < HeaderSize || std::memcmp(Binary.data(), Magic, 8)) {
    Error = "not a pocl-iss program binary";
    return nullptr;
  }
  uint32_t Version, K;
  uint64_t Size, Sum;
  std::memcpy(&Version, Binary.data() + 8, 4);
  std::memcpy(&K, Binary.data() + 12, 4);
  std::memcpy(&Size, Binary.data() + 16, 8);
  std::memcpy(&Sum, Binary.data() + 24, 8);
  if (Version != FormatVersion) {
    Error = "program binary format " + std::to_string(Version) +
            " is not the supported format " + std::to_string(FormatVersion);
    return nullptr;
  }
  if (K < 1 || K > 3) {
    Error = "program binary has an unknown kind";
    return nullptr;
  }
  if (Size != Binary.size() - HeaderSize) {
    Error = "program binary is truncated or has trailing bytes";
    return nullptr;
  }
  StringRef Bitcode(reinterpret_cast<const char *>(Binary.data()) + HeaderSize,
                    Size);
  if (hash64(Bitcode) != Sum) {
    Error = "program binary checksum mismatch (damaged binary)";
    return nullptr;
  }
  auto M = parseBitcodeFile(MemoryBufferRef(Bitcode, "binary"), Ctx);
  if (!M) {
    Error = "program binary holds invalid bitcode: " + toString(M.takeError());
    return nullptr;
  }
  // Code for another target (a binary saved under another POCL_ISS_TARGET,
  // or on another host) may use instructions the device's lacks, and the
  // kernel library would not inline into it.
  const std::string &CPU = getTargetInfo().CPU;
  for (const Function &F : **M) {
    Attribute A = F.getFnAttribute("target-cpu");
    if (A.isValid() && A.getValueAsString() != CPU) {
      Error = "program binary is compiled for target-cpu " +
              A.getValueAsString().str() + ", the device's is " + CPU +
              " (POCL_ISS_TARGET)";
      return nullptr;
    }
  }
  Kind = static_cast<BinaryKind>(K);
  return std::move(*M);
}

std::vector<Function *> kernelsOf(Module &M) {
  std::vector<Function *> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::SPIR_KERNEL)
      Kernels.push_back(&F);
  return Kernels;
}

std::vector<CallInst *> callsOf(Function &F) {
  std::vector<CallInst *> Calls;
  for (User *U : F.users())
    if (auto *CI = dyn_cast<CallInst>(U))
      if (CI->getCalledFunction() == &F)
        Calls.push_back(CI);
  return Calls;
}

static std::string mdString(Function &F, StringRef Kind, unsigned I) {
  if (MDNode *N = F.getMetadata(Kind))
    if (I < N->getNumOperands())
      if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(I)))
        return S->getString().str();
  return "";
}

static int64_t mdInt(Function &F, StringRef Kind, unsigned I) {
  if (MDNode *N = F.getMetadata(Kind))
    if (I < N->getNumOperands())
      if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I)))
        return C->getSExtValue();
  return -1;
}

size_t KernelInfo::autoLocalBytes() const {
  size_t Total = 0;
  for (auto &[Size, Align] : AutoLocals)
    Total = (Total + Align - 1) / Align * Align + Size;
  return Total;
}

/// The OpenCL C name of a scalar or vector type of vec_type_hint.
static std::string openCLTypeName(Type *T, bool Signed) {
  unsigned Lanes = 0;
  if (auto *V = dyn_cast<FixedVectorType>(T)) {
    Lanes = V->getNumElements();
    T = V->getElementType();
  }
  std::string Name;
  if (T->isHalfTy())
    Name = "half";
  else if (T->isFloatTy())
    Name = "float";
  else if (T->isDoubleTy())
    Name = "double";
  else if (T->isIntegerTy()) {
    switch (T->getIntegerBitWidth()) {
    case 8:
      Name = "char";
      break;
    case 16:
      Name = "short";
      break;
    case 32:
      Name = "int";
      break;
    default:
      Name = "long";
      break;
    }
    if (!Signed)
      Name = "u" + Name;
  } else {
    raw_string_ostream OS(Name);
    T->print(OS);
  }
  return Lanes ? Name + std::to_string(Lanes) : Name;
}

KernelInfo describeKernel(Function &F) {
  KernelInfo K;
  K.Name = F.getName().str();
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (Argument &A : F.args()) {
    unsigned I = A.getArgNo();
    KernelArgInfo Arg;
    Arg.Name = mdString(F, "kernel_arg_name", I);
    Arg.TypeName = mdString(F, "kernel_arg_type", I);
    std::string Access = mdString(F, "kernel_arg_access_qual", I);
    Arg.AccessQualifier =
        Access == "read_only"    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
        : Access == "write_only" ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
        : Access == "read_write" ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                 : CL_KERNEL_ARG_ACCESS_NONE;
    std::string Qual = mdString(F, "kernel_arg_type_qual", I);
    if (Qual.find("const") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (Qual.find("restrict") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (Qual.find("volatile") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
    int64_t AS = mdInt(F, "kernel_arg_addr_space", I);
    std::string Base = mdString(F, "kernel_arg_base_type", I);
    if (Base.find("image") != std::string::npos &&
        Base.find("_t") != std::string::npos)
      Arg.Kind = ArgKind::Image;
    else if (Base == "sampler_t")
      Arg.Kind = ArgKind::Sampler;
    else if (AS == 1)
      Arg.Kind = ArgKind::Global;
    else if (AS == 2)
      Arg.Kind = ArgKind::Constant;
    else if (AS == 3)
      Arg.Kind = ArgKind::Local;
    else
      Arg.Kind = ArgKind::Value;
    if (Arg.Kind == ArgKind::Value) {
      Type *T = A.hasByValAttr() ? A.getParamByValType() : A.getType();
      // sizeof in OpenCL C: a float3 takes 16 bytes, a struct its padding.
      Arg.Size = DL.getTypeAllocSize(T);
      Arg.Align = DL.getABITypeAlign(T).value();
    } else {
      Arg.Size = sizeof(void *);
      Arg.Align = alignof(void *);
    }
    K.Args.push_back(std::move(Arg));
  }
  std::string Attrs;
  if (MDNode *N = F.getMetadata("reqd_work_group_size")) {
    for (unsigned D = 0; D < 3 && D < N->getNumOperands(); ++D)
      K.ReqdWorkGroupSize[D] = mdInt(F, "reqd_work_group_size", D);
    Attrs += "reqd_work_group_size(" + std::to_string(K.ReqdWorkGroupSize[0]) +
             "," + std::to_string(K.ReqdWorkGroupSize[1]) + "," +
             std::to_string(K.ReqdWorkGroupSize[2]) + ")";
  }
  if (MDNode *N = F.getMetadata("work_group_size_hint")) {
    for (unsigned D = 0; D < 3 && D < N->getNumOperands(); ++D)
      K.WorkGroupSizeHint[D] = mdInt(F, "work_group_size_hint", D);
    if (!Attrs.empty())
      Attrs += " ";
    Attrs += "work_group_size_hint(" + std::to_string(K.WorkGroupSizeHint[0]) +
             "," + std::to_string(K.WorkGroupSizeHint[1]) + "," +
             std::to_string(K.WorkGroupSizeHint[2]) + ")";
  }
  if (MDNode *N = F.getMetadata("vec_type_hint")) {
    if (N->getNumOperands() > 0)
      if (auto *VT = mdconst::dyn_extract_or_null<Constant>(N->getOperand(0))) {
        // clang records the type as a value of it and, apart, whether it is
        // a signed integer: <2 x i8>, 0 -> uchar2.
        bool Signed = mdInt(F, "vec_type_hint", 1) == 1;
        if (!Attrs.empty())
          Attrs += " ";
        Attrs += "vec_type_hint(" + openCLTypeName(VT->getType(), Signed) + ")";
      }
  }
  K.Attributes = Attrs;
  for (GlobalVariable *G : autoLocalsOf(F)) {
    Type *T = G->getValueType();
    size_t Align = std::max<size_t>(G->getAlign().valueOrOne().value(),
                                    DL.getABITypeAlign(T).value());
    K.AutoLocals.push_back({DL.getTypeAllocSize(T), Align});
  }
  K.HasBarriers = usesBarriers(F);
  return K;
}

std::vector<GlobalVariable *> autoLocalsOf(Function &Kernel) {
  std::vector<GlobalVariable *> Locals;
  std::string Prefix = Kernel.getName().str() + ".";
  for (GlobalVariable &G : Kernel.getParent()->globals())
    if (G.hasInitializer() && !G.isConstant() &&
        isa<UndefValue>(G.getInitializer()) && G.hasLocalLinkage() &&
        G.getName().starts_with(Prefix))
      Locals.push_back(&G);
  return Locals;
}

bool usesBarriers(Function &Kernel) {
  std::set<Function *> Seen;
  std::vector<Function *> Work = {&Kernel};
  while (!Work.empty()) {
    Function *F = Work.back();
    Work.pop_back();
    if (!Seen.insert(F).second)
      continue;
    StringRef N = F->getName();
    if (N == "pocl.barrier" || N == "_Z7barrierj" ||
        N == "_Z18work_group_barrierj" ||
        N == "_Z18work_group_barrierj12memory_scope")
      return true;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            Work.push_back(Callee);
  }
  return false;
}

} // namespace iss
