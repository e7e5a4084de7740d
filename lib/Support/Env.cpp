//===- Env.cpp - Environment variables, parsed once and strictly ----------===//
// SPDX-License-Identifier: MIT
//
// Implements Settings (include/pocl-iss/Env.h): pocl's variables where they
// make sense and ours, all prefixed POCL_ISS_ (DESIGN.md section 1).
//
//===----------------------------------------------------------------------===//

#include "pocl-iss/Env.h"

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <vector>
#include <unistd.h>

namespace iss {

static const char *const ModeNames[] = {"scalar", "vec", "split", "score",
                                        "split+score"};

const char *modeName(Mode M) { return ModeNames[static_cast<int>(M)]; }

std::optional<Mode> parseMode(const std::string &Text) {
  for (int I = 0; I < 5; ++I)
    if (Text == ModeNames[I])
      return static_cast<Mode>(I);
  return std::nullopt;
}

std::string parseModeVar(const std::string &Value, Mode &Out) {
  if (auto M = parseMode(Value)) {
    Out = *M;
    return "";
  }
  return "POCL_ISS_MODE='" + Value +
         "' is not a mode; allowed: scalar, vec, split, score, split+score";
}

std::string parseBool(const char *Var, const std::string &Value, bool &Out) {
  if (Value == "1" || Value == "on" || Value == "yes" || Value == "true") {
    Out = true;
    return "";
  }
  if (Value == "0" || Value == "off" || Value == "no" || Value == "false") {
    Out = false;
    return "";
  }
  return std::string(Var) + "='" + Value +
         "' is not a boolean; allowed: 1, 0, on, off, yes, no, true, false";
}

std::string parseUnsigned(const char *Var, const std::string &Value,
                          unsigned Min, unsigned Max, unsigned &Out) {
  const char *S = Value.c_str();
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(S, &End, 10);
  bool Digits = !Value.empty() && Value.find_first_not_of("0123456789") ==
                                      std::string::npos;
  if (!Digits || errno || *End || V < Min || V > Max)
    return std::string(Var) + "='" + Value + "' is not allowed; expected an " +
           "integer from " + std::to_string(Min) + " to " + std::to_string(Max);
  Out = static_cast<unsigned>(V);
  return "";
}

std::string parseDims(const std::string &Value, unsigned &Mask) {
  // A comma-separated list of dimensions, e.g. "0" or "0,1".
  unsigned M = 0;
  std::stringstream SS(Value);
  std::string Item;
  bool Any = false;
  while (std::getline(SS, Item, ',')) {
    if (Item != "0" && Item != "1" && Item != "2")
      return "POCL_ISS_DIMS='" + Value +
             "' is not allowed; expected a comma-separated list of 0, 1, 2";
    M |= 1u << (Item[0] - '0');
    Any = true;
  }
  if (!Any)
    return "POCL_ISS_DIMS='" + Value +
           "' is not allowed; expected a comma-separated list of 0, 1, 2";
  Mask = M;
  return "";
}

std::string parseWeights(const std::string &Value, double &Consecutive,
                         double &Uniform, double &Divergent) {
  // Two or three decimal numbers from 0 to 1000000: "2,1" or "2,1,0.5".
  std::vector<double> W;
  std::stringstream SS(Value);
  std::string Item;
  bool Ok = !Value.empty() && Value.back() != ',';
  while (Ok && std::getline(SS, Item, ',')) {
    char *End = nullptr;
    errno = 0;
    double V = std::strtod(Item.c_str(), &End);
    Ok = !Item.empty() &&
         Item.find_first_not_of("0123456789.") == std::string::npos &&
         !errno && !*End && V >= 0 && V <= 1e6;
    W.push_back(V);
  }
  if (!Ok || W.size() < 2 || W.size() > 3)
    return "POCL_ISS_WEIGHTS='" + Value +
           "' is not allowed; expected two or three numbers from 0 to "
           "1000000, consecutive, uniform and divergent, as in 2,1,0.5";
  Consecutive = W[0];
  Uniform = W[1];
  if (W.size() == 3)
    Divergent = W[2];
  return "";
}

std::string parseDebug(const std::string &Value, unsigned &Mask) {
  // pocl accepts "1"/"all" or a comma-separated list of categories.
  // pocl's other categories (its doc's "err,warn" among them) name what
  // pocl-iss logs under another, or has not: accepted, so that an
  // application's setting for pocl does not stop pocl-iss.
  static const struct {
    const char *Name;
    unsigned Bits;
  } Cats[] = {{"all", DbgAll},
              {"1", DbgAll},
              {"0", 0},
              {"error", DbgError},
              {"warning", DbgWarning},
              {"general", DbgGeneral},
              {"llvm", DbgLLVM},
              {"runtime", DbgRuntime},
              {"device", DbgDevice},
              {"cache", DbgCache},
              {"err", DbgError},
              {"warn", DbgWarning},
              {"memory", 0},
              {"events", 0},
              {"locking", 0},
              {"refcounts", 0},
              {"timing", 0},
              {"remote", 0},
              {"proxy", 0},
              {"mmap", 0},
              {"hsa", 0},
              {"cuda", 0},
              {"tce", 0},
              {"vulkan", 0},
              {"level0", 0},
              {"almaif", 0}};
  unsigned M = 0;
  std::stringstream SS(Value);
  std::string Item;
  while (std::getline(SS, Item, ',')) {
    bool Found = false;
    for (const auto &C : Cats)
      if (Item == C.Name) {
        M |= C.Bits;
        Found = true;
      }
    if (!Found)
      return "POCL_DEBUG='" + Value +
             "' is not allowed; expected 1, 0, all or a comma-separated list "
             "of error, warning, general, llvm, runtime, device, cache "
             "(or another of pocl's categories)";
  }
  Mask = M;
  return "";
}

/// The XDG cache folder; without XDG_CACHE_HOME and HOME, a folder of the
/// user's own in the temporary folder. Never one shared by all users: the
/// cache runs the code it loads, so another user's entries must not be
/// found there (the cache also checks who owns the folder and each entry).
static std::string defaultCacheDir() {
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/pocl-iss/kcache";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/pocl-iss/kcache";
  const char *Tmp = std::getenv("TMPDIR");
  return std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/pocl-iss-kcache-" +
         std::to_string(geteuid());
}

[[noreturn]] void failSetting(const std::string &Message) {
  std::fprintf(stderr, "pocl-iss: %s\n", Message.c_str());
  std::exit(1);
}

static Settings readSettings() {
  Settings S;
  auto Get = [](const char *Var) -> const char * {
    const char *V = std::getenv(Var);
    return (V && *V) ? V : nullptr;
  };
  std::string Err;
  if (const char *V = Get("POCL_ISS_MODE"))
    Err = parseModeVar(V, S.IssMode);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_VECTOR_WIDTH")) {
      Err = parseUnsigned("POCL_ISS_VECTOR_WIDTH", V, 1, 64, S.VectorWidth);
      if (Err.empty() && (S.VectorWidth & (S.VectorWidth - 1)))
        Err = std::string("POCL_ISS_VECTOR_WIDTH='") + V +
              "' is not allowed; expected a power of two from 1 to 64";
    }
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_STATS"))
      Err = parseBool("POCL_ISS_STATS", V, S.Stats);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_HORIZONTAL"))
      Err = parseBool("POCL_ISS_HORIZONTAL", V, S.Horizontal);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_PARTIAL_EDGES"))
      Err = parseBool("POCL_ISS_PARTIAL_EDGES", V, S.PartialEdges);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_TIERED"))
      Err = parseBool("POCL_ISS_TIERED", V, S.Tiered);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_MAX_PIECES"))
      Err = parseUnsigned("POCL_ISS_MAX_PIECES", V, 1, 64, S.MaxPieces);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_SAFE_DIVISION"))
      Err = parseBool("POCL_ISS_SAFE_DIVISION", V, S.SafeDivision);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_CHOICE"))
      Err = parseBool("POCL_ISS_CHOICE", V, S.Choice);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_CHEAP_MASKS")) {
      bool B = false;
      Err = parseBool("POCL_ISS_CHEAP_MASKS", V, B);
      S.CheapMasks = B;
    }
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_STRIDE_VERSIONING"))
      Err = parseBool("POCL_ISS_STRIDE_VERSIONING", V, S.StrideVersioning);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_DIMS"))
      Err = parseDims(V, S.DimsMask);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_WEIGHTS"))
      Err = parseWeights(V, S.WeightConsecutive, S.WeightUniform,
                         S.WeightDivergent);
  if (Err.empty())
    if (const char *V = Get("POCL_MAX_PTHREAD_COUNT"))
      Err = parseUnsigned("POCL_MAX_PTHREAD_COUNT", V, 1, 4096, S.MaxThreads);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_SPIN_US"))
      Err = parseUnsigned("POCL_ISS_SPIN_US", V, 0, 1000000, S.SpinUs);
  if (Err.empty())
    if (const char *V = Get("POCL_AFFINITY"))
      Err = parseBool("POCL_AFFINITY", V, S.Affinity);
  if (Err.empty())
    if (const char *V = Get("POCL_KERNEL_CACHE"))
      Err = parseBool("POCL_KERNEL_CACHE", V, S.KernelCache);
  if (Err.empty())
    if (const char *V = Get("POCL_VECTORIZER_REMARKS"))
      Err = parseBool("POCL_VECTORIZER_REMARKS", V, S.VectorizerRemarks);
  if (Err.empty())
    if (const char *V = Get("POCL_ISS_COMPILER_STACK_MB"))
      Err = parseUnsigned("POCL_ISS_COMPILER_STACK_MB", V, 16, 16384,
                          S.CompilerStackMB);
  if (Err.empty())
    if (const char *V = Get("POCL_DEBUG"))
      Err = parseDebug(V, S.DebugMask);
  if (Err.empty())
    if (const char *V = Get("POCL_DEVICES")) {
      S.Devices = V;
      // We have one device type; pocl's names for it are accepted.
      std::stringstream SS(S.Devices);
      std::string Item;
      bool Ours = false;
      while (SS >> Item)
        if (Item == "pthread" || Item == "cpu" || Item == "basic")
          Ours = true;
      if (!Ours)
        S.Devices = "none";
    }
  if (!Err.empty())
    failSetting(Err);
  if (const char *V = Get("POCL_ISS_DUMP_IR"))
    S.DumpDir = V;
  if (const char *V = Get("POCL_ISS_TARGET"))
    S.Target = V;
  if (const char *V = Get("POCL_PLATFORM_NAME_OVERRIDE"))
    S.PlatformName = V;
  const char *Dir = Get("POCL_CACHE_DIR");
  S.CacheDir = Dir ? Dir : defaultCacheDir();
  return S;
}

const Settings &settings() {
  // Never destroyed: the device's threads read it (debugLog) while they
  // finish commands during the application's exit.
  static const Settings &S = *new Settings(readSettings());
  return S;
}

bool debugEnabled(DebugCategory Cat) { return settings().DebugMask & Cat; }

// Never destroyed: threads may log during exit.
static std::mutex &debugLogLock() {
  static std::mutex *M = new std::mutex;
  return *M;
}

void debugLog(DebugCategory Cat, const char *Fmt, ...) {
  if (!debugEnabled(Cat))
    return;
  static const char *Names[] = {"error",  "warning", "general", "llvm",
                                "runtime", "device", "cache"};
  const char *Name = "debug";
  for (unsigned I = 0; I < 7; ++I)
    if (Cat == (1u << I))
      Name = Names[I];
  // Whole, however long (a subkernel's score, an LLVM remark).
  va_list Ap, Copy;
  va_start(Ap, Fmt);
  va_copy(Copy, Ap);
  int N = std::vsnprintf(nullptr, 0, Fmt, Copy);
  va_end(Copy);
  std::string Buf(N > 0 ? size_t(N) + 1 : 1, '\0');
  std::vsnprintf(&Buf[0], Buf.size(), Fmt, Ap);
  va_end(Ap);
  Buf.resize(N > 0 ? size_t(N) : 0);
  std::lock_guard<std::mutex> L(debugLogLock());
  std::fprintf(stderr, "[pocl-iss] %s: %s\n", Name, Buf.c_str());
}

void lockDebugLogForFork() { debugLogLock().lock(); }

void unlockDebugLogAfterFork() { debugLogLock().unlock(); }

} // namespace iss
