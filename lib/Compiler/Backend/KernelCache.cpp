//===- KernelCache.cpp - The on-disk kernel cache -------------------------===//
// SPDX-License-Identifier: MIT
//
// One file per entry, named by a hash of the key, holding the full key (a
// hash collision reads as a miss), the subkernel symbols and the object,
// under one checksum that covers all of it: a damaged symbol name is as
// much a miss as a damaged object. A damaged entry is a miss and gets
// rebuilt. An entry whose code is another's (a mode's that is `vec`'s)
// holds that entry's key instead; a note of a measured choice holds the
// word "mode", "vec" or "written". How entries are sealed, trusted and
// written: CacheFile.h.
//
//===----------------------------------------------------------------------===//

#include "KernelCache.h"
#include "CacheFile.h"
#include "CompilerInternal.h"

#include "pocl-iss/Env.h"

#include <cstdlib>

namespace iss {

static const char *const Magic = "ISSKCACHE2\n";

/// Kernel entries are sealed with hashHex, which the cache's tests
/// recompute to forge entries; objects are kilobytes.
static std::string kernelSum(const char *Data, size_t Size) {
  return hashHex(llvm::StringRef(Data, Size));
}

std::string cachedKernelPath(const std::string &Dir, const std::string &Key) {
  return Dir + "/" + hashHex(Key) + ".kc";
}

bool decodeCachedKernel(const std::string &Data, const std::string &Key,
                        CachedKernel &Out, std::string &Why) {
  auto Miss = [&](const char *Reason) {
    Why = Reason;
    return false;
  };
  size_t Pos = 0;
  const char *Unsealed = nullptr;
  if (!unsealEntry(Data, Magic, kernelSum, Key, Pos, Unsealed))
    return Miss(Unsealed);
  auto Line = [&](std::string &L) {
    size_t End = Data.find('\n', Pos);
    if (End == std::string::npos)
      return false;
    L = Data.substr(Pos, End - Pos);
    Pos = End + 1;
    return true;
  };
  std::string L;
  CachedKernel K;
  while (true) {
    if (!Line(L))
      return Miss("truncated");
    if (L.rfind("same ", 0) == 0) {
      if (Pos != Data.size() || L.size() == 5)
        return Miss("bad same line");
      Out = CachedKernel();
      Out.SameAs = L.substr(5);
      return true;
    }
    if (L.rfind("choice ", 0) == 0) {
      if (Pos != Data.size() || L.size() == 7)
        return Miss("bad choice line");
      Out = CachedKernel();
      Out.Choice = L.substr(7);
      return true;
    }
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
    } else if (L == "written-candidate") {
      K.WrittenCandidate = true;
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

/// One entry, as it is in the file.
static bool readEntry(const std::string &Dir, const std::string &Key,
                      CachedKernel &Out) {
  std::string Path = cachedKernelPath(Dir, Key);
  std::string Data, Why;
  if (!readEntryFile(Dir, Path, Data))
    return false;
  if (!decodeCachedKernel(Data, Key, Out, Why)) {
    debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(), Why.c_str());
    return false;
  }
  debugLog(DbgCache, "hit %s", Path.c_str());
  return true;
}

bool readCachedNote(const std::string &Dir, const std::string &Key,
                    CachedKernel &Out) {
  return readEntry(Dir, Key, Out);
}

bool readCachedKernel(const std::string &Dir, const std::string &Key,
                      CachedKernel &Out) {
  CachedKernel K;
  if (!readEntry(Dir, Key, K) || !K.Choice.empty())
    return false;
  if (!K.SameAs.empty()) {
    std::string Code = K.SameAs;
    if (!readEntry(Dir, Code, K) || !K.SameAs.empty() || !K.Choice.empty())
      return false;
    K.SameAs = Code;
  }
  Out = std::move(K);
  return true;
}

std::string encodeCachedKernel(const std::string &Key, const CachedKernel &K) {
  if (!K.SameAs.empty())
    return sealEntry(Magic, kernelSum, Key, "same " + K.SameAs + "\n");
  if (!K.Choice.empty())
    return sealEntry(Magic, kernelSum, Key, "choice " + K.Choice + "\n");
  std::string Body;
  for (const auto &[Sym, Desc] : K.Subkernels)
    Body += "sub " + Sym + "\t" + Desc + "\n";
  Body += "select " + K.SelectSymbol + "\n";
  Body += "ctx " + std::to_string(K.ContextBytesPerWorkItem) + " " +
          std::to_string(K.UniformContextBytes) + " " +
          std::to_string(K.ScratchBytes) + "\n";
  if (K.WrittenCandidate)
    Body += "written-candidate\n";
  if (!K.PiecesSymbol.empty()) {
    Body += "pieces " + K.PiecesSymbol + "\n";
    for (const PieceInfo &P : K.Pieces)
      Body += "piece " + std::to_string(P.Region) + " " +
              std::to_string(P.Subkernel) + "\t" + P.Name + "\t" +
              P.Properties + "\n";
  }
  Body += "obj " + std::to_string(K.Object.size()) + "\n";
  Body.append(K.Object.data(), K.Object.size());
  return sealEntry(Magic, kernelSum, Key, Body);
}

void writeCachedKernel(const std::string &Dir, const std::string &Key,
                       const CachedKernel &K) {
  writeEntryFile(Dir, cachedKernelPath(Dir, Key), encodeCachedKernel(Key, K));
}

} // namespace iss
