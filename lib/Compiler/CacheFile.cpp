//===- CacheFile.cpp - The files of the on-disk caches --------------------===//
// SPDX-License-Identifier: MIT
//
// Sealing, reading and writing the entries of the kernel cache and of the
// program cache (CacheFile.h says what is trusted and why).
//
//===----------------------------------------------------------------------===//

#include "CacheFile.h"

#include "pocl-iss/Env.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

namespace iss {

/// An entry larger than this is not one of ours: objects are kilobytes,
/// programs megabytes.
static constexpr off_t MaxEntryBytes = off_t(1) << 30;

std::string sealEntry(const char *Magic, EntrySum Sum, const std::string &Key,
                      const std::string &Rest) {
  std::string Body = "key " + std::to_string(Key.size()) + "\n" + Key + "\n";
  Body += Rest;
  return std::string(Magic) + "sum " + std::to_string(Body.size()) + " " +
         Sum(Body.data(), Body.size()) + "\n" + Body;
}

bool unsealEntry(const std::string &Data, const char *Magic, EntrySum Sum,
                 const std::string &Key, size_t &Rest, const char *&Why) {
  auto Miss = [&](const char *Reason) {
    Why = Reason;
    return false;
  };
  size_t Pos = std::strlen(Magic);
  if (Data.compare(0, Pos, Magic) != 0)
    return Miss("not an entry of this cache");
  size_t End = Data.find('\n', Pos);
  if (End == std::string::npos || Data.compare(Pos, 4, "sum ") != 0)
    return Miss("truncated");
  // The checksum line covers every byte after it.
  std::string L = Data.substr(Pos + 4, End - Pos - 4);
  Pos = End + 1;
  char Hash[64] = {0};
  unsigned long long Bytes = 0;
  if (std::sscanf(L.c_str(), "%llu %63s", &Bytes, Hash) != 2)
    return Miss("bad checksum line");
  if (Data.size() - Pos != Bytes)
    return Miss("truncated");
  if (Sum(Data.data() + Pos, Bytes) != Hash)
    return Miss("checksum mismatch");
  End = Data.find('\n', Pos);
  if (End == std::string::npos || Data.compare(Pos, 4, "key ") != 0)
    return Miss("no key");
  size_t KeyLen = std::strtoull(Data.c_str() + Pos + 4, nullptr, 10);
  Pos = End + 1;
  if (KeyLen != Key.size() || Data.size() - Pos < KeyLen + 1 ||
      Data.compare(Pos, KeyLen, Key) != 0 || Data[Pos + KeyLen] != '\n')
    return Miss("another key");
  Rest = Pos + KeyLen + 1;
  return true;
}

/// Whether \p St, of a cache folder or entry, can only have been written by
/// the user running us.
static bool onlyOurs(const struct stat &St) {
  return St.st_uid == geteuid() && !(St.st_mode & (S_IWGRP | S_IWOTH));
}

/// Whether \p Dir is a folder the cache may use (see CacheFile.h); logs why
/// not.
static bool safeDir(const std::string &Dir) {
  struct stat St;
  if (stat(Dir.c_str(), &St) != 0)
    return false;
  if (!S_ISDIR(St.st_mode) || !onlyOurs(St)) {
    debugLog(DbgCache,
             "%s is not a folder of our own that only we may write to: the "
             "cache is not used",
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

bool readEntryFile(const std::string &Dir, const std::string &Path,
                   std::string &Data) {
  if (!safeDir(Dir))
    return false;
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

void writeEntryFile(const std::string &Dir, const std::string &Path,
                    const std::string &Data) {
  if (!makeDirs(Dir)) {
    debugLog(DbgCache, "cannot create %s: %s", Dir.c_str(),
             std::strerror(errno));
    return;
  }
  if (!safeDir(Dir))
    return;
  // Unique among the processes and threads writing the folder at once.
  static std::atomic<unsigned long> Writes{0};
  std::string Tmp = Path + ".tmp." + std::to_string(getpid()) + "." +
                    std::to_string(Writes.fetch_add(1));
  int Fd = open(Tmp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (Fd < 0) {
    debugLog(DbgCache, "cannot write %s: %s", Tmp.c_str(),
             std::strerror(errno));
    return;
  }
  bool Written = writeAll(Fd, Data);
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
