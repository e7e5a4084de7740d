//===- KernelCache.cpp - The on-disk kernel cache -------------------------===//
// SPDX-License-Identifier: MIT
//
// One file per entry, named by a hash of the key, holding the full key (a
// hash collision reads as a miss), the subkernel symbols and the object,
// under one checksum that covers all of it: a damaged symbol name is as
// much a miss as a damaged object. A damaged entry is a miss and gets
// rebuilt; entries are written to a temporary file and renamed into place.
//
// Loading an entry runs its code, so the cache trusts only what the user
// could have written: the folder must be a directory owned by the user
// that nobody else may write to (folders we create are 0700), and an entry
// must be a regular file owned by the user and writable by nobody else
// (entries are written 0600). Anything else is a miss, or, for the folder,
// no cache at all.
//
//===----------------------------------------------------------------------===//

#include "KernelCache.h"
#include "CompilerInternal.h"

#include "pocl-iss/Env.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace iss {

static const char *const Magic = "ISSKCACHE2\n";

/// An entry larger than this is not one of ours: objects are kilobytes.
static constexpr off_t MaxEntryBytes = off_t(1) << 30;

std::string cachedKernelPath(const std::string &Dir, const std::string &Key) {
  return Dir + "/" + hashHex(Key) + ".kc";
}

/// Whether \p St, of a cache folder or entry, can only have been written by
/// the user running us.
static bool onlyOurs(const struct stat &St) {
  return St.st_uid == geteuid() && !(St.st_mode & (S_IWGRP | S_IWOTH));
}

/// Whether \p Dir is a folder the cache may use (see the file comment);
/// logs why not.
static bool safeDir(const std::string &Dir) {
  struct stat St;
  if (stat(Dir.c_str(), &St) != 0)
    return false;
  if (!S_ISDIR(St.st_mode) || !onlyOurs(St)) {
    debugLog(DbgCache,
             "%s is not a folder of our own that only we may write to: the "
             "kernel cache is not used",
             Dir.c_str());
    return false;
  }
  return true;
}

/// Creates \p Path and its missing parents, each 0700.
static bool makeDirs(const std::string &Path) {
  std::string Cur;
  std::stringstream SS(Path);
  std::string Part;
  if (!Path.empty() && Path[0] == '/')
    Cur = "/";
  while (std::getline(SS, Part, '/')) {
    if (Part.empty())
      continue;
    Cur += Part + "/";
    if (mkdir(Cur.c_str(), 0700) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

/// Reads the entry at \p Path into \p Data if it is one we may trust.
static bool readEntryFile(const std::string &Path, std::string &Data) {
  int Fd = open(Path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (Fd < 0) {
    if (errno != ENOENT)
      debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(),
               std::strerror(errno));
    return false;
  }
  struct stat St;
  const char *Why = nullptr;
  if (fstat(Fd, &St) != 0)
    Why = "cannot stat it";
  else if (!S_ISREG(St.st_mode))
    Why = "not a regular file";
  else if (!onlyOurs(St))
    Why = "owned by another user or writable by others";
  else if (St.st_size > MaxEntryBytes)
    Why = "too large";
  if (!Why) {
    Data.resize(static_cast<size_t>(St.st_size));
    size_t Got = 0;
    while (Got < Data.size()) {
      ssize_t N = read(Fd, &Data[Got], Data.size() - Got);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        break;
      Got += static_cast<size_t>(N);
    }
    if (Got != Data.size())
      Why = "read error";
  }
  close(Fd);
  if (Why)
    debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(), Why);
  return !Why;
}

bool decodeCachedKernel(const std::string &Data, const std::string &Key,
                        CachedKernel &Out, std::string &Why) {
  auto Miss = [&](const char *Reason) {
    Why = Reason;
    return false;
  };
  size_t Pos = std::strlen(Magic);
  if (Data.compare(0, Pos, Magic) != 0)
    return Miss("not a kernel cache entry");
  auto Line = [&](std::string &L) {
    size_t End = Data.find('\n', Pos);
    if (End == std::string::npos)
      return false;
    L = Data.substr(Pos, End - Pos);
    Pos = End + 1;
    return true;
  };
  // The checksum line covers every byte after it.
  std::string L;
  if (!Line(L) || L.rfind("sum ", 0) != 0)
    return Miss("truncated");
  char Sum[64] = {0};
  unsigned long long Bytes = 0;
  if (std::sscanf(L.c_str() + 4, "%llu %63s", &Bytes, Sum) != 2)
    return Miss("bad checksum line");
  if (Data.size() - Pos != Bytes)
    return Miss("truncated");
  if (hashHex(llvm::StringRef(Data.data() + Pos, Bytes)) != Sum)
    return Miss("checksum mismatch");
  if (!Line(L) || L.rfind("key ", 0) != 0)
    return Miss("no key");
  size_t KeyLen = std::strtoull(L.c_str() + 4, nullptr, 10);
  if (KeyLen != Key.size() || Data.size() - Pos < KeyLen + 1 ||
      Data.compare(Pos, KeyLen, Key) != 0)
    return Miss("another key");
  Pos += KeyLen + 1;
  CachedKernel K;
  while (true) {
    if (!Line(L))
      return Miss("truncated");
    if (L.rfind("sub ", 0) == 0) {
      size_t Tab = L.find('\t');
      if (Tab == std::string::npos)
        return Miss("bad subkernel line");
      K.Subkernels.push_back({L.substr(4, Tab - 4), L.substr(Tab + 1)});
    } else if (L.rfind("select ", 0) == 0) {
      K.SelectSymbol = L.substr(7);
    } else if (L.rfind("ctx ", 0) == 0) {
      char *End = nullptr;
      K.ContextBytesPerWorkItem = std::strtoull(L.c_str() + 4, &End, 10);
      K.UniformContextBytes = std::strtoull(End, &End, 10);
      K.ScratchBytes = std::strtoull(End, nullptr, 10);
    } else if (L.rfind("pieces ", 0) == 0) {
      K.PiecesSymbol = L.substr(7);
    } else if (L.rfind("piece ", 0) == 0) {
      size_t Tab1 = L.find('\t'), Tab2 = L.find('\t', Tab1 + 1);
      if (Tab2 == std::string::npos)
        return Miss("bad piece line");
      // "piece <region> <subkernel>\t<name>\t<how>"
      char *End = nullptr;
      unsigned Region = unsigned(std::strtoul(L.c_str() + 6, &End, 10));
      unsigned Sub = unsigned(std::strtoul(End, nullptr, 10));
      K.Pieces.push_back({Region, L.substr(Tab1 + 1, Tab2 - Tab1 - 1),
                          L.substr(Tab2 + 1), Sub});
    } else if (L.rfind("obj ", 0) == 0) {
      unsigned long long Size = std::strtoull(L.c_str() + 4, nullptr, 10);
      if (Data.size() - Pos != Size)
        return Miss("truncated object");
      K.Object.assign(Data.begin() + Pos, Data.end());
      break;
    } else {
      return Miss("unknown line");
    }
  }
  if (K.Subkernels.empty() || K.SelectSymbol.empty())
    return Miss("no subkernels");
  if (K.PiecesSymbol.empty())
    K.Pieces.clear();
  Out = std::move(K);
  return true;
}

bool readCachedKernel(const std::string &Dir, const std::string &Key,
                      CachedKernel &Out) {
  if (!safeDir(Dir))
    return false;
  std::string Path = cachedKernelPath(Dir, Key);
  std::string Data, Why;
  if (!readEntryFile(Path, Data))
    return false;
  if (!decodeCachedKernel(Data, Key, Out, Why)) {
    debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(), Why.c_str());
    return false;
  }
  debugLog(DbgCache, "hit %s", Path.c_str());
  return true;
}

/// Writes all of \p Data to \p Fd.
static bool writeAll(int Fd, const std::string &Data) {
  size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t N = write(Fd, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += static_cast<size_t>(N);
  }
  return true;
}

std::string encodeCachedKernel(const std::string &Key, const CachedKernel &K) {
  std::string Body;
  Body += "key " + std::to_string(Key.size()) + "\n" + Key + "\n";
  for (const auto &[Sym, Desc] : K.Subkernels)
    Body += "sub " + Sym + "\t" + Desc + "\n";
  Body += "select " + K.SelectSymbol + "\n";
  Body += "ctx " + std::to_string(K.ContextBytesPerWorkItem) + " " +
          std::to_string(K.UniformContextBytes) + " " +
          std::to_string(K.ScratchBytes) + "\n";
  if (!K.PiecesSymbol.empty()) {
    Body += "pieces " + K.PiecesSymbol + "\n";
    for (const PieceInfo &P : K.Pieces)
      Body += "piece " + std::to_string(P.Region) + " " +
              std::to_string(P.Subkernel) + "\t" + P.Name + "\t" +
              P.Properties + "\n";
  }
  Body += "obj " + std::to_string(K.Object.size()) + "\n";
  Body.append(K.Object.data(), K.Object.size());
  return std::string(Magic) + "sum " + std::to_string(Body.size()) + " " +
         hashHex(Body) + "\n" + Body;
}

void writeCachedKernel(const std::string &Dir, const std::string &Key,
                       const CachedKernel &K) {
  if (!makeDirs(Dir)) {
    debugLog(DbgCache, "cannot create %s: %s", Dir.c_str(),
             std::strerror(errno));
    return;
  }
  if (!safeDir(Dir))
    return;
  std::string Entry = encodeCachedKernel(Key, K);
  std::string Path = cachedKernelPath(Dir, Key);
  std::string Tmp = Path + ".tmp." + std::to_string(getpid()) + "." +
                    std::to_string(reinterpret_cast<uintptr_t>(&K));
  int Fd = open(Tmp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (Fd < 0) {
    debugLog(DbgCache, "cannot write %s: %s", Tmp.c_str(),
             std::strerror(errno));
    return;
  }
  bool Written = writeAll(Fd, Entry);
  if (close(Fd) != 0)
    Written = false;
  if (!Written || std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    debugLog(DbgCache, "cannot store %s: %s", Path.c_str(),
             std::strerror(errno));
    unlink(Tmp.c_str());
    return;
  }
  debugLog(DbgCache, "stored %s", Path.c_str());
}

} // namespace iss
