//===- ProgramCache.cpp - Program builds from the on-disk cache -----------===//
// SPDX-License-Identifier: MIT
//
// One file per build, <identityHex of the key>.pc in the cache folder,
// sealed as CacheFile.h says (the full key inside, so a collision is a
// miss). After the key, as length-prefixed fields: the file probes, the
// process symbols, the working folder if it mattered, the build log, the
// binary's kind, the kernels' descriptions and the binary. A hit needs no
// bitcode parse: the runtime gets the BuildResult as the build made it.
//
// During the build, Clang's file system is a recording proxy of the real
// one: every status and open, found or not, becomes a probe, and every
// file read a content hash. Replaying the probes against today's file
// system (same type, same identity pattern, same content) is what tells a
// stale entry: a changed header, a header now found in a folder searched
// before the one it came from, a folder that now exists.
//
//===----------------------------------------------------------------------===//

#include "ProgramCache.h"
#include "CacheFile.h"
#include "CompilerInternal.h"

#include "pocl-iss/Env.h"

#include "clang/Basic/Version.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace iss {

static const char *const Magic = "ISSPCACHE1\n";

/// Program entries hold megabytes of bitcode: sealed with XXH3, which
/// reads them in a fraction of FNV-1a's time.
static std::string programSum(const char *Data, size_t Size) {
  return identityHex(StringRef(Data, Size));
}

static std::string cachedProgramPath(const std::string &Dir,
                                     const std::string &Key) {
  return Dir + "/" + identityHex(Key) + ".pc";
}

//===----------------------------------------------------------------------===//
// Fields: "<decimal> " for numbers, "<length>:<bytes>" for text.
//===----------------------------------------------------------------------===//

static void putNum(std::string &Out, uint64_t N) {
  Out += std::to_string(N);
  Out += ' ';
}

static void putText(std::string &Out, StringRef S) {
  Out += std::to_string(S.size());
  Out += ':';
  Out.append(S.data(), S.size());
}

namespace {
/// Reads fields back; any malformed field fails this and every later read.
class FieldReader {
public:
  FieldReader(const std::string &Data, size_t Pos) : Data(Data), Pos(Pos) {}

  bool num(uint64_t &N) { return decimal(N, ' '); }
  template <typename T> bool num(T &Out) {
    uint64_t N;
    if (!num(N))
      return false;
    Out = static_cast<T>(N);
    Ok = static_cast<uint64_t>(Out) == N;
    return Ok;
  }
  /// A count of items each at least \p MinBytes long: never more than the
  /// rest of the entry could hold.
  bool count(size_t &N, size_t MinBytes = 2) {
    if (!num(N))
      return false;
    Ok = N <= (Data.size() - Pos) / MinBytes;
    return Ok;
  }
  bool text(std::string &S) {
    uint64_t Len = 0;
    if (!decimal(Len, ':'))
      return false;
    Ok = Len <= Data.size() - Pos;
    if (!Ok)
      return false;
    S.assign(Data, Pos, Len);
    Pos += Len;
    return true;
  }
  bool atEnd() const { return Ok && Pos == Data.size(); }

private:
  /// Digits, then \p End; what they say must fit in 64 bits.
  bool decimal(uint64_t &N, char End) {
    if (!Ok)
      return false;
    N = 0;
    size_t Start = Pos;
    for (; Ok && Pos < Data.size() && Data[Pos] >= '0' && Data[Pos] <= '9';
         ++Pos) {
      uint64_t Digit = uint64_t(Data[Pos] - '0');
      Ok = N <= (UINT64_MAX - Digit) / 10;
      N = N * 10 + Digit;
    }
    Ok = Ok && Pos > Start && Pos < Data.size() && Data[Pos] == End;
    ++Pos;
    return Ok;
  }

  const std::string &Data;
  size_t Pos;
  bool Ok = true;
};
} // namespace

static void putKernel(std::string &Out, const KernelInfo &K) {
  putText(Out, K.Name);
  putNum(Out, K.Args.size());
  for (const KernelArgInfo &A : K.Args) {
    putNum(Out, static_cast<uint64_t>(A.Kind));
    putText(Out, A.Name);
    putText(Out, A.TypeName);
    putNum(Out, A.AccessQualifier);
    putNum(Out, A.TypeQualifier);
    putNum(Out, A.Size);
    putNum(Out, A.Align);
  }
  for (size_t D = 0; D < 3; ++D)
    putNum(Out, K.ReqdWorkGroupSize[D]);
  for (size_t D = 0; D < 3; ++D)
    putNum(Out, K.WorkGroupSizeHint[D]);
  putText(Out, K.Attributes);
  putNum(Out, K.HasBarriers);
  putNum(Out, K.AutoLocals.size());
  for (const auto &[Size, Align] : K.AutoLocals) {
    putNum(Out, Size);
    putNum(Out, Align);
  }
}

static bool getKernel(FieldReader &R, KernelInfo &K) {
  size_t Args = 0, Locals = 0;
  if (!R.text(K.Name) || !R.count(Args))
    return false;
  K.Args.resize(Args);
  for (KernelArgInfo &A : K.Args) {
    unsigned Kind = 0;
    if (!R.num(Kind) || Kind > static_cast<unsigned>(ArgKind::Sampler) ||
        !R.text(A.Name) || !R.text(A.TypeName) || !R.num(A.AccessQualifier) ||
        !R.num(A.TypeQualifier) || !R.num(A.Size) || !R.num(A.Align))
      return false;
    A.Kind = static_cast<ArgKind>(Kind);
  }
  for (size_t D = 0; D < 3; ++D)
    if (!R.num(K.ReqdWorkGroupSize[D]))
      return false;
  for (size_t D = 0; D < 3; ++D)
    if (!R.num(K.WorkGroupSizeHint[D]))
      return false;
  if (!R.text(K.Attributes) || !R.num(K.HasBarriers) || !R.count(Locals))
    return false;
  K.AutoLocals.resize(Locals);
  for (auto &[Size, Align] : K.AutoLocals)
    if (!R.num(Size) || !R.num(Align))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// The key
//===----------------------------------------------------------------------===//

std::string programKey(BinaryKind Kind, const std::string &Options,
                       const std::string &Source,
                       const std::vector<HeaderSource> &Headers,
                       const std::vector<std::vector<uint8_t>> &Inputs) {
  const TargetInfo &T = getTargetInfo();
  std::string Key = compilerIdentity() + "; " + clang::getClangFullVersion() +
                    "; features " + T.Features + "; extensions";
  for (const std::string &E : T.Extensions)
    Key += " " + E;
  Key += "; opencl c features";
  for (const std::string &F : T.OpenCLCFeatures)
    Key += " " + F;
  Key += "; makes " + std::to_string(static_cast<unsigned>(Kind)) + "\n";
  putText(Key, Options);
  putText(Key, Source);
  putNum(Key, Headers.size());
  for (const HeaderSource &H : Headers) {
    putText(Key, H.Name);
    putText(Key, H.Source);
  }
  putNum(Key, Inputs.size());
  for (const std::vector<uint8_t> &In : Inputs)
    putText(Key, identityHex(StringRef(
                     reinterpret_cast<const char *>(In.data()), In.size())));
  return Key;
}

//===----------------------------------------------------------------------===//
// Checking what the build depended on
//===----------------------------------------------------------------------===//

using FileType = BuildDependencies::FileType;

static FileType typeOf(const struct stat &St) {
  if (S_ISREG(St.st_mode))
    return FileType::Regular;
  if (S_ISDIR(St.st_mode))
    return FileType::Directory;
  return FileType::Other;
}

/// Whether every probe of \p Deps finds today what it found at the build;
/// \p Why names the first that does not.
static bool unchanged(const BuildDependencies &Deps, std::string &Why) {
  // The first probe of each file (device, inode).
  std::map<std::pair<uint64_t, uint64_t>, size_t> FirstOf;
  for (size_t I = 0; I < Deps.Probes.size(); ++I) {
    const BuildDependencies::Probe &P = Deps.Probes[I];
    struct stat St;
    FileType Now =
        stat(P.Path.c_str(), &St) == 0 ? typeOf(St) : FileType::Missing;
    if (Now != P.Type) {
      Why = P.Path + (P.Type == FileType::Missing ? " now exists"
                                                  : " is gone or changed type");
      return false;
    }
    if (Now == FileType::Missing)
      continue;
    auto Id = std::make_pair(uint64_t(St.st_dev), uint64_t(St.st_ino));
    if (FirstOf.emplace(Id, I).first->second != P.SameAs) {
      Why = P.Path + " is another file than it was";
      return false;
    }
    if (P.Content.empty())
      continue;
    auto Buf = MemoryBuffer::getFile(P.Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Buf || identityHex((*Buf)->getBuffer()) != P.Content) {
      Why = P.Path + " changed";
      return false;
    }
  }
  for (const std::string &Sym : Deps.ProcessSymbols)
    if (!dlsym(RTLD_DEFAULT, Sym.c_str())) {
      Why = "the process has no " + Sym;
      return false;
    }
  if (Deps.UsesWorkingDir) {
    char Buf[4096];
    if (!getcwd(Buf, sizeof(Buf)) || Deps.WorkingDir != Buf) {
      Why = "another working folder";
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Recording what Clang looks at
//===----------------------------------------------------------------------===//

namespace {
/// Notes a probe of \p Path that found \p S (or nothing).
void noteProbe(BuildDependencies &D, const std::string &Path,
               const ErrorOr<vfs::Status> &S) {
  if (!D.ProbeOf.emplace(Path, D.Probes.size()).second)
    return;
  BuildDependencies::Probe P;
  P.Path = Path;
  P.SameAs = D.Probes.size();
  if (S) {
    P.Type = S->isRegularFile() ? FileType::Regular
             : S->isDirectory() ? FileType::Directory
                                : FileType::Other;
    // The first probe of the same file, by its identity.
    llvm::sys::fs::UniqueID Id = S->getUniqueID();
    P.SameAs = D.FirstOfFile
                   .emplace(std::make_pair(Id.getDevice(), Id.getFile()),
                            D.Probes.size())
                   .first->second;
  }
  D.Probes.push_back(std::move(P));
}

/// A file Clang opened: what it reads is hashed into its probe.
class RecordedFile : public vfs::File {
public:
  RecordedFile(std::unique_ptr<vfs::File> F, BuildDependencies &D, size_t Probe)
      : F(std::move(F)), D(D), Probe(Probe) {}
  ErrorOr<vfs::Status> status() override { return F->status(); }
  ErrorOr<std::string> getName() override { return F->getName(); }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name,
                                                   int64_t FileSize,
                                                   bool RequiresNullTerminator,
                                                   bool IsVolatile) override {
    auto B = F->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (!B) {
      D.Cacheable = false;
      return B;
    }
    std::string &Content = D.Probes[Probe].Content;
    std::string Hash = identityHex((*B)->getBuffer());
    // Read twice with different bytes: changed during the build.
    if (!Content.empty() && Content != Hash)
      D.Cacheable = false;
    Content = Hash;
    return B;
  }
  std::error_code close() override { return F->close(); }

private:
  std::unique_ptr<vfs::File> F;
  BuildDependencies &D;
  size_t Probe;
};

/// The real file system, every question Clang asks of it noted in \p D.
class RecordingFileSystem : public vfs::ProxyFileSystem {
public:
  explicit RecordingFileSystem(BuildDependencies &D)
      : ProxyFileSystem(vfs::getRealFileSystem()), D(D) {}

  ErrorOr<vfs::Status> status(const Twine &Path) override {
    auto S = ProxyFileSystem::status(Path);
    noteProbe(D, Path.str(), S);
    return S;
  }
  bool exists(const Twine &Path) override { return bool(status(Path)); }
  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &Path) override {
    std::string P = Path.str();
    auto F = ProxyFileSystem::openFileForRead(P);
    if (!F) {
      noteProbe(D, P, F.getError());
      return F;
    }
    noteProbe(D, P, (*F)->status());
    return std::unique_ptr<vfs::File>(
        new RecordedFile(std::move(*F), D, D.ProbeOf[P]));
  }
  vfs::directory_iterator dir_begin(const Twine &Dir,
                                    std::error_code &EC) override {
    D.Cacheable = false;
    return ProxyFileSystem::dir_begin(Dir, EC);
  }
  ErrorOr<std::string> getCurrentWorkingDirectory() const override {
    auto Cwd = ProxyFileSystem::getCurrentWorkingDirectory();
    D.UsesWorkingDir = true;
    if (Cwd)
      D.WorkingDir = *Cwd;
    else
      D.Cacheable = false;
    return Cwd;
  }
  std::error_code setCurrentWorkingDirectory(const Twine &) override {
    return std::make_error_code(std::errc::operation_not_permitted);
  }
  std::error_code getRealPath(const Twine &Path,
                              SmallVectorImpl<char> &Output) override {
    D.Cacheable = false;
    return ProxyFileSystem::getRealPath(Path, Output);
  }

private:
  BuildDependencies &D;
};
} // namespace

IntrusiveRefCntPtr<vfs::FileSystem>
recordingFileSystem(BuildDependencies &Deps) {
  return makeIntrusiveRefCnt<RecordingFileSystem>(Deps);
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

bool readCachedProgram(const std::string &Dir, const std::string &Key,
                       BuildResult &Out) {
  std::string Path = cachedProgramPath(Dir, Key);
  std::string Data;
  if (!readEntryFile(Dir, Path, Data))
    return false;
  auto Miss = [&](const std::string &Why) {
    debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(), Why.c_str());
    return false;
  };
  size_t Pos = 0;
  const char *Unsealed = nullptr;
  if (!unsealEntry(Data, Magic, programSum, Key, Pos, Unsealed))
    return Miss(Unsealed);
  FieldReader R(Data, Pos);
  BuildDependencies Deps;
  size_t Probes = 0, Symbols = 0, Kernels = 0;
  unsigned Kind = 0;
  bool Ok = R.count(Probes);
  Deps.Probes.resize(Ok ? Probes : 0);
  for (size_t I = 0; Ok && I < Probes; ++I) {
    BuildDependencies::Probe &P = Deps.Probes[I];
    unsigned Type = 0;
    Ok = R.text(P.Path) && R.num(Type) && Type <= 3 && R.num(P.SameAs) &&
         P.SameAs <= I && R.text(P.Content);
    P.Type = static_cast<FileType>(Type);
  }
  Ok = Ok && R.count(Symbols);
  Deps.ProcessSymbols.resize(Ok ? Symbols : 0);
  for (size_t I = 0; Ok && I < Symbols; ++I)
    Ok = R.text(Deps.ProcessSymbols[I]);
  Ok = Ok && R.num(Deps.UsesWorkingDir) && R.text(Deps.WorkingDir);
  BuildResult B;
  std::string Binary;
  Ok = Ok && R.text(B.Log) && R.num(Kind) &&
       Kind >= static_cast<unsigned>(BinaryKind::Compiled) &&
       Kind <= static_cast<unsigned>(BinaryKind::Executable) &&
       R.count(Kernels);
  B.Kernels.resize(Ok ? Kernels : 0);
  for (size_t I = 0; Ok && I < Kernels; ++I)
    Ok = getKernel(R, B.Kernels[I]);
  Ok = Ok && R.text(Binary) && R.atEnd();
  if (!Ok)
    return Miss("malformed");
  std::string Why;
  if (!unchanged(Deps, Why))
    return Miss(Why);
  B.Success = true;
  B.Kind = static_cast<BinaryKind>(Kind);
  B.Binary.assign(Binary.begin(), Binary.end());
  Out = std::move(B);
  debugLog(DbgCache, "hit %s", Path.c_str());
  return true;
}

void writeCachedProgram(const std::string &Dir, const std::string &Key,
                        const BuildDependencies &Deps, const BuildResult &R) {
  std::string Rest;
  putNum(Rest, Deps.Probes.size());
  for (const BuildDependencies::Probe &P : Deps.Probes) {
    putText(Rest, P.Path);
    putNum(Rest, static_cast<unsigned>(P.Type));
    putNum(Rest, P.SameAs);
    putText(Rest, P.Content);
  }
  putNum(Rest, Deps.ProcessSymbols.size());
  for (const std::string &S : Deps.ProcessSymbols)
    putText(Rest, S);
  putNum(Rest, Deps.UsesWorkingDir);
  putText(Rest, Deps.WorkingDir);
  putText(Rest, R.Log);
  putNum(Rest, static_cast<unsigned>(R.Kind));
  putNum(Rest, R.Kernels.size());
  for (const KernelInfo &K : R.Kernels)
    putKernel(Rest, K);
  putText(Rest, StringRef(reinterpret_cast<const char *>(R.Binary.data()),
                          R.Binary.size()));
  writeEntryFile(Dir, cachedProgramPath(Dir, Key),
                 sealEntry(Magic, programSum, Key, Rest));
}

} // namespace iss
