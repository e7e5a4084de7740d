//===- ProgramCacheTest.cpp - Program builds from the on-disk cache -------===//
// SPDX-License-Identifier: MIT
//
// Each case runs programcache-child (ProgramCacheChild.cpp) as fresh
// processes sharing a cache folder, with headers on disk in two -I
// folders, and reads POCL_DEBUG=cache's "hit" and "stored" lines for the
// program entries (.pc). A hit must give what the build gave (log, kernel
// names, argument info, binary, results); whatever changed among the
// build's inputs must miss and give the new result: a header's content, a
// header now found in a folder searched earlier, an option or a define,
// an embedded header of clCompileProgram; a torn or damaged entry is a
// miss and is rebuilt; the cached build's kernels are right in every mode.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace clt;

namespace {

/// The program: its kernel keeps the last four items out (a tail guard,
/// which the split modes take apart) and computes VALUE(i) * SCALE, VALUE
/// from inc.h and SCALE from the options.
const char *const Source = R"CLC(#include "inc.h"
#ifndef SCALE
#define SCALE 1
#endif
#warning built by the compiler
__kernel void k(__global int *x) {
  size_t i = get_global_id(0);
  if (i < 60)
    x[i] = VALUE(x[i]) * SCALE;
  else
    x[i] = -1;
}
)CLC";

/// A work folder (src.cl, a/ and b/ for -I) and a cache folder.
struct Case {
  TempFolder T{"programcache-test"};
  std::string Dir = T.Path + "/work", Cache = T.Path + "/cache";
  Case() {
    CLT_EXPECT_MSG(T.Made, "no temporary folder");
    for (const std::string &D : {Dir, Dir + "/a", Dir + "/b"})
      CLT_EXPECT_MSG(mkdir(D.c_str(), 0700) == 0, D);
    write("src.cl", Source);
    write("b/inc.h", "#include \"inner.h\"\n#define VALUE(v) ((v) + INNER)\n");
    write("b/inner.h", "#define INNER 5\n");
  }
  void write(const std::string &Name, const std::string &Text) const {
    std::ofstream Out(Dir + "/" + Name, std::ios::binary | std::ios::trunc);
    Out << Text;
    CLT_EXPECT_MSG(Out.good(), Name);
  }
};

/// What one run printed, and what it says of the program cache.
struct Run {
  int Exit = -1;
  std::string Out;
  /// The build's description: log, kernels, binary hash, argument, results.
  std::string Build;
  unsigned Hits = 0, Stored = 0, Rebuilt = 0;
};

Run run(const Case &C, EnvChanges Env = {}) {
  Env.insert(Env.begin(), {{"POCL_CACHE_DIR", C.Cache.c_str()},
                           {"POCL_DEBUG", "cache"},
                           {"ISS_PC_DIR", C.Dir.c_str()}});
  Run R;
  R.Exit = runChild(PROGRAMCACHE_CHILD, nullptr, Env, 100, R.Out);
  size_t At = R.Out.find("log[");
  R.Build = At == std::string::npos ? "" : R.Out.substr(At);
  std::istringstream Lines(R.Out);
  std::string L;
  while (std::getline(Lines, L)) {
    if (L.find(C.Cache) == std::string::npos)
      continue;
    // "hit <entry>", "stored <entry>", "<entry>: <why>, rebuilding".
    bool Named = L.size() > 3 && L.compare(L.size() - 3, 3, ".pc") == 0;
    R.Hits += Named && L.find("hit ") != std::string::npos;
    R.Stored += Named && L.find("stored ") != std::string::npos;
    R.Rebuilt += L.find(".pc: ") != std::string::npos;
  }
  return R;
}

/// The results the child prints for x[i] = i: VALUE(i) * SCALE below 60.
std::string results(int (*Value)(int), int Scale = 1) {
  std::string S = "x";
  for (int I = 0; I < 64; ++I)
    S += " " + std::to_string(I < 60 ? Value(I) * Scale : -1);
  return S + "\n";
}

int plusFive(int V) { return V + 5; }

#define EXPECT_RESULTS(R, Want)                                                \
  do {                                                                         \
    const Run &Got = (R);                                                      \
    CLT_EXPECT_MSG(Got.Exit == 0, "the child failed:\n" + Got.Out);            \
    CLT_EXPECT_MSG(Got.Out.find(Want) != std::string::npos,                    \
                   std::string("expected ") + (Want) + "in:\n" + Got.Out);     \
  } while (0)

/// A run that built and stored its program, and one that took it from
/// the cache.
#define EXPECT_MISS(R)                                                         \
  do {                                                                         \
    const Run &Got = (R);                                                      \
    CLT_EXPECT_MSG(Got.Hits == 0 && Got.Stored >= 1,                           \
                   "expected a miss:\n" + Got.Out);                            \
  } while (0)
#define EXPECT_HIT(R)                                                          \
  do {                                                                         \
    const Run &Got = (R);                                                      \
    CLT_EXPECT_MSG(Got.Hits >= 1 && Got.Stored == 0,                           \
                   "expected a hit:\n" + Got.Out);                             \
  } while (0)

/// The program entries in \p Cache.
std::vector<std::string> programEntries(const std::string &Cache) {
  std::vector<std::string> Paths;
  if (DIR *D = opendir(Cache.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string N = E->d_name;
      if (N.size() > 3 && N.compare(N.size() - 3, 3, ".pc") == 0)
        Paths.push_back(Cache + "/" + N);
    }
    closedir(D);
  }
  return Paths;
}

} // namespace

#define CACHE_TEST(Name)                                                       \
  static void Name##Body();                                                    \
  CLT_TEST(Name) {                                                             \
    if (!E.IsPoclIss)                                                          \
      CLT_SKIP("pocl-iss's program cache");                                    \
    Name##Body();                                                              \
  }                                                                            \
  static void Name##Body()

// The second start takes the build from the cache, and the build it gives
// is the one the compiler gave: the same log (the #warning), kernels,
// argument info, binary and results.
CACHE_TEST(warmStartIsTheSameBuild) {
  Case C;
  Run Cold = run(C), Warm = run(C);
  EXPECT_RESULTS(Cold, results(plusFive));
  EXPECT_MISS(Cold);
  EXPECT_HIT(Warm);
  CLT_EXPECT(Cold.Build.find("built by the compiler") != std::string::npos);
  CLT_EXPECT(Cold.Build.find("arg x int*") != std::string::npos);
  CLT_EXPECT_MSG(Warm.Build == Cold.Build,
                 "cold:\n" + Cold.Build + "\nwarm:\n" + Warm.Build);
  CLT_EXPECT(programEntries(C.Cache).size() == 1);
}

// A header's content decides the build, down to one it includes itself.
CACHE_TEST(changedHeaderMisses) {
  Case C;
  EXPECT_MISS(run(C));
  C.write("b/inner.h", "#define INNER 9\n");
  Run R = run(C);
  EXPECT_RESULTS(R, results([](int V) { return V + 9; }));
  EXPECT_MISS(R);
  C.write("b/inc.h", "#define VALUE(v) ((v) - 1)\n");
  R = run(C);
  EXPECT_RESULTS(R, results([](int V) { return V - 1; }));
  EXPECT_MISS(R);
  EXPECT_HIT(run(C));
}

// A header that appears in a folder searched before the one the build
// took it from decides the next build, though no file it read changed.
CACHE_TEST(headerNewlyFoundEarlierMisses) {
  Case C;
  EXPECT_MISS(run(C));
  C.write("a/inc.h", "#define VALUE(v) ((v) * 7)\n");
  Run R = run(C);
  EXPECT_RESULTS(R, results([](int V) { return V * 7; }));
  EXPECT_MISS(R);
  // And gone again: back to b's. The key has one entry, the last build's,
  // so this is a miss too.
  CLT_EXPECT(unlink((C.Dir + "/a/inc.h").c_str()) == 0);
  R = run(C);
  EXPECT_RESULTS(R, results(plusFive));
  EXPECT_MISS(R);
  EXPECT_HIT(run(C));
}

// Options and defines are part of the key: each value its own entry.
CACHE_TEST(changedOptionMisses) {
  Case C;
  Run Two = run(C, {{"ISS_PC_OPTIONS", "-DSCALE=2"}});
  EXPECT_RESULTS(Two, results(plusFive, 2));
  EXPECT_MISS(Two);
  Run Three = run(C, {{"ISS_PC_OPTIONS", "-DSCALE=3"}});
  EXPECT_RESULTS(Three, results(plusFive, 3));
  EXPECT_MISS(Three);
  Run Fast = run(C, {{"ISS_PC_OPTIONS", "-DSCALE=3 -cl-fast-relaxed-math"}});
  EXPECT_RESULTS(Fast, results(plusFive, 3));
  EXPECT_MISS(Fast);
  Run Again = run(C, {{"ISS_PC_OPTIONS", "-DSCALE=2"}});
  EXPECT_RESULTS(Again, results(plusFive, 2));
  EXPECT_HIT(Again);
}

// A torn entry (a writer that died half-way, a disk that filled) and a
// damaged one are misses, rebuilt and stored whole again.
CACHE_TEST(tornOrDamagedEntryMisses) {
  Case C;
  Run Cold = run(C);
  EXPECT_MISS(Cold);
  std::vector<std::string> Entries = programEntries(C.Cache);
  CLT_EXPECT(Entries.size() == 1);
  struct stat St;
  CLT_EXPECT(stat(Entries[0].c_str(), &St) == 0 && St.st_size > 1000);
  CLT_EXPECT(truncate(Entries[0].c_str(), St.st_size / 2) == 0);
  Run Torn = run(C);
  EXPECT_RESULTS(Torn, results(plusFive));
  EXPECT_MISS(Torn);
  CLT_EXPECT_MSG(Torn.Rebuilt >= 1, Torn.Out);
  CLT_EXPECT(Torn.Build == Cold.Build);
  // One byte of the binary changed, the size kept.
  int Fd = open(Entries[0].c_str(), O_RDWR);
  CLT_EXPECT(Fd >= 0);
  char B = 0;
  off_t At = St.st_size - 100;
  CLT_EXPECT(pread(Fd, &B, 1, At) == 1);
  B ^= 0x40;
  CLT_EXPECT(pwrite(Fd, &B, 1, At) == 1);
  close(Fd);
  Run Damaged = run(C);
  EXPECT_RESULTS(Damaged, results(plusFive));
  EXPECT_MISS(Damaged);
  CLT_EXPECT(Damaged.Build == Cold.Build);
  EXPECT_HIT(run(C));
}

// clCompileProgram with an embedded header and clLinkProgram: both from the
// cache on the second start; a changed embedded header misses both.
CACHE_TEST(compileAndLink) {
  Case C;
  C.write("src.cl", std::string("#include \"emb.h\"\n") + Source);
  C.write("emb.h", "#define SCALE 4\n");
  EnvChanges Compile = {{"ISS_PC_HOW", "compile"}};
  Run Cold = run(C, Compile);
  EXPECT_RESULTS(Cold, results(plusFive, 4));
  CLT_EXPECT_MSG(Cold.Hits == 0 && Cold.Stored == 2, Cold.Out);
  Run Warm = run(C, Compile);
  CLT_EXPECT_MSG(Warm.Hits == 2 && Warm.Stored == 0, Warm.Out);
  CLT_EXPECT(Warm.Build == Cold.Build);
  C.write("emb.h", "#define SCALE 6\n");
  Run Changed = run(C, Compile);
  EXPECT_RESULTS(Changed, results(plusFive, 6));
  CLT_EXPECT_MSG(Changed.Hits == 0 && Changed.Stored == 2, Changed.Out);
}

// The cached build's kernels give the host's results in every mode, each
// mode starting from the same program entry.
CACHE_TEST(cachedBuildInEveryMode) {
  Case C;
  EXPECT_MISS(run(C));
  for (const char *Mode : {"scalar", "vec", "split", "score", "split+score"}) {
    Run R = run(C, {{"POCL_ISS_MODE", Mode}});
    EXPECT_RESULTS(R, results(plusFive));
    CLT_EXPECT_MSG(R.Hits >= 1, std::string(Mode) + ":\n" + R.Out);
  }
}

// POCL_KERNEL_CACHE=0 keeps no program either.
CACHE_TEST(cacheOffStoresNothing) {
  Case C;
  Run R = run(C, {{"POCL_KERNEL_CACHE", "0"}});
  EXPECT_RESULTS(R, results(plusFive));
  CLT_EXPECT_MSG(R.Hits == 0 && R.Stored == 0, R.Out);
  CLT_EXPECT(programEntries(C.Cache).empty());
}
