//===- KernelCache.cpp - The on-disk kernel cache -------------------------===//
// SPDX-License-Identifier: MIT
//
// One file per entry, named by a hash of the key, holding the full key (a
// hash collision reads as a miss), the subkernel symbols, and the object
// with its size and checksum. A damaged entry is a miss and gets rebuilt;
// entries are written to a temporary file and renamed into place.
//
//===----------------------------------------------------------------------===//

#include "KernelCache.h"
#include "CompilerInternal.h"

#include "pocl-iss/Env.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace iss {

static const char *const Magic = "ISSKCACHE1\n";

std::string cachedKernelPath(const std::string &Dir, const std::string &Key) {
  return Dir + "/" + hashHex(Key) + ".kc";
}

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
    if (mkdir(Cur.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

bool readCachedKernel(const std::string &Dir, const std::string &Key,
                      CachedKernel &Out) {
  std::string Path = cachedKernelPath(Dir, Key);
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::string Data((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  auto Miss = [&](const char *Why) {
    debugLog(DbgCache, "%s: %s, rebuilding", Path.c_str(), Why);
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
  std::string L;
  if (!Line(L) || L.rfind("key ", 0) != 0)
    return Miss("truncated");
  size_t KeyLen = std::strtoull(L.c_str() + 4, nullptr, 10);
  if (Pos + KeyLen + 1 > Data.size() || Data.compare(Pos, KeyLen, Key) != 0 ||
      KeyLen != Key.size())
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
    } else if (L.rfind("obj ", 0) == 0) {
      char Sum[64] = {0};
      unsigned long long Size = 0;
      if (std::sscanf(L.c_str() + 4, "%llu %63s", &Size, Sum) != 2)
        return Miss("bad object line");
      if (Data.size() - Pos != Size)
        return Miss("truncated object");
      if (hashHex(llvm::StringRef(Data.data() + Pos, Size)) != Sum)
        return Miss("checksum mismatch");
      K.Object.assign(Data.begin() + Pos, Data.end());
      break;
    } else {
      return Miss("unknown line");
    }
  }
  if (K.Subkernels.empty() || K.SelectSymbol.empty())
    return Miss("no subkernels");
  debugLog(DbgCache, "hit %s", Path.c_str());
  Out = std::move(K);
  return true;
}

void writeCachedKernel(const std::string &Dir, const std::string &Key,
                       const CachedKernel &K) {
  if (!makeDirs(Dir)) {
    debugLog(DbgCache, "cannot create %s: %s", Dir.c_str(),
             std::strerror(errno));
    return;
  }
  std::string Path = cachedKernelPath(Dir, Key);
  std::string Tmp = Path + ".tmp." + std::to_string(getpid()) + "." +
                    std::to_string(reinterpret_cast<uintptr_t>(&K));
  {
    std::ofstream OutF(Tmp, std::ios::binary | std::ios::trunc);
    if (!OutF)
      return;
    OutF << Magic << "key " << Key.size() << "\n" << Key << "\n";
    for (const auto &[Sym, Desc] : K.Subkernels)
      OutF << "sub " << Sym << "\t" << Desc << "\n";
    OutF << "select " << K.SelectSymbol << "\n";
    OutF << "ctx " << K.ContextBytesPerWorkItem << " "
         << K.UniformContextBytes << " " << K.ScratchBytes << "\n";
    OutF << "obj " << K.Object.size() << " "
         << hashHex(llvm::StringRef(K.Object.data(), K.Object.size())) << "\n";
    OutF.write(K.Object.data(), K.Object.size());
    if (!OutF.good()) {
      OutF.close();
      unlink(Tmp.c_str());
      return;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0)
    unlink(Tmp.c_str());
  else
    debugLog(DbgCache, "stored %s", Path.c_str());
}

} // namespace iss
