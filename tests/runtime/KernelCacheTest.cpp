//===- KernelCacheTest.cpp - The on-disk kernel cache, damaged and shared -===//
// SPDX-License-Identifier: MIT
//
// Each case runs kernelcache-child (KernelCacheChild.cpp: two kernels,
// checked against the host) as a fresh process with a cache folder of its
// own, damages or replaces what the run left there, and runs it again.
// Whatever is in the cache, a run must give the right results; a damaged
// or untrusted entry must be compiled again (POCL_DEBUG=llvm says
// "compiled" or "loaded from the cache" per kernel) and the next run must
// load the repaired entry. Covered: a damaged symbol name, an entry
// that is a folder, entries of another user or writable by others, the
// per-user default folder; and the faults: truncated, zero-filled and
// corrupted entries, a folder that cannot be written, four processes
// filling an empty cache at once. And POCL_ISS_STATS's pieces, carried
// through the cache, and entries without them; a mode's entry that names
// vec's code, and one that names another kernel's.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

using namespace clt;

namespace {

/// A fresh folder for one case, removed with everything in it at the end.
struct TempDir {
  std::string Path;
  TempDir() {
    const char *Base = std::getenv("POCL_CACHE_DIR");
    std::string Parent = Base && *Base ? Base : "/tmp";
    mkdir(Parent.c_str(), 0700);
    std::string Templ = Parent + "/kernelcache-test-XXXXXX";
    if (!mkdtemp(&Templ[0]))
      fail(__FILE__, __LINE__,
           "mkdtemp in " + Parent + ": " + std::strerror(errno));
    Path = Templ;
  }
  ~TempDir() {
    nftw(
        Path.c_str(),
        [](const char *P, const struct stat *, int, struct FTW *) {
          return remove(P);
        },
        16, FTW_DEPTH | FTW_PHYS);
  }
};

struct Run {
  int Status = -1; ///< wait status, -1 if it did not finish
  std::string Out; ///< stdout and stderr
  bool ok() const {
    return Status != -1 && WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
  }
  /// Whether this run's log says \p Kernel was loaded from the cache
  /// (true) or compiled (false); fails the test if it says neither.
  bool loaded(const char *Kernel) const {
    std::istringstream Lines(Out);
    std::string L, Want = std::string("kernel ") + Kernel + ", local size";
    while (std::getline(Lines, L))
      if (L.find(Want) != std::string::npos) {
        if (L.find("loaded from the cache") != std::string::npos)
          return true;
        if (L.find(": compiled in") != std::string::npos)
          return false;
      }
    fail(__FILE__, __LINE__,
         std::string("no compile or load of ") + Kernel + " in:\n" + Out);
  }
};

/// A started child: its pid and output file.
struct Child {
  pid_t Pid = -1;
  std::string OutPath;
};

/// Starts the child with POCL_DEBUG=llvm,cache and \p Env; \p Tag names
/// its output file in \p T.
static Child startCacheChild(const TempDir &T, const EnvChanges &Env,
                             const std::string &Tag) {
  EnvChanges All = Env;
  All.insert(All.begin(), {"POCL_DEBUG", "llvm,cache"});
  Child C;
  C.OutPath = T.Path + "/out-" + Tag + ".txt";
  C.Pid = startChild(KERNELCACHE_CHILD, nullptr, All, C.OutPath);
  return C;
}

/// Waits (up to 100 s) for \p C and collects its output.
static Run finishCacheChild(const Child &C) {
  Run R;
  R.Status = waitChild(C.Pid, 100);
  R.Out = readFile(C.OutPath);
  return R;
}

static Run runChild(const TempDir &T, const EnvChanges &Env,
                    const std::string &Tag) {
  return finishCacheChild(startCacheChild(T, Env, Tag));
}

/// The usual environment: the cache in \p Cache.
static EnvChanges inFolder(const std::string &Cache) {
  return {{"POCL_CACHE_DIR", Cache.c_str()}};
}

#define EXPECT_RUN_OK(R)                                                       \
  CLT_EXPECT_MSG((R).ok(), "the child failed (status " +                       \
                               std::to_string((R).Status) + "):\n" + (R).Out)

static std::vector<std::string> filesIn(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (std::strcmp(E->d_name, ".") && std::strcmp(E->d_name, ".."))
        Names.push_back(E->d_name);
    closedir(D);
  }
  return Names;
}

/// Overwrites the file in place, so that its owner and mode stay.
static void rewriteFile(const std::string &Path, const std::string &Data) {
  int Fd = open(Path.c_str(), O_WRONLY | O_TRUNC);
  CLT_EXPECT_MSG(Fd >= 0, Path);
  CLT_EXPECT(write(Fd, Data.data(), Data.size()) ==
             static_cast<ssize_t>(Data.size()));
  close(Fd);
}

/// The entry of \p Kernel in \p Cache (the key, in every entry, names it).
static std::string entryOf(const std::string &Cache, const char *Kernel) {
  std::string Want = std::string("; kernel ") + Kernel + "; ";
  for (const std::string &Path : kernelCacheEntries(Cache))
    if (readFile(Path).find(Want) != std::string::npos)
      return Path;
  fail(__FILE__, __LINE__, std::string("no entry for ") + Kernel);
}

/// A cache folder filled by one run; returns the entry of scale.
static std::string filledCache(const TempDir &T, const std::string &Cache) {
  Run R = runChild(T, inFolder(Cache), "fill");
  EXPECT_RUN_OK(R);
  CLT_EXPECT(!R.loaded("scale"));
  return entryOf(Cache, "scale");
}

/// After the entry of scale was damaged: the next run compiles scale and
/// still loads shift; the one after loads the repaired entry.
static void expectRebuilt(const TempDir &T, const std::string &Cache,
                          const std::string &Tag) {
  Run R = runChild(T, inFolder(Cache), Tag + "-rebuild");
  EXPECT_RUN_OK(R);
  CLT_EXPECT_MSG(!R.loaded("scale"), Tag);
  CLT_EXPECT_MSG(R.loaded("shift"), Tag);
  Run Again = runChild(T, inFolder(Cache), Tag + "-again");
  EXPECT_RUN_OK(Again);
  CLT_EXPECT_MSG(Again.loaded("scale"), Tag);
}

} // namespace

#define CACHE_TEST(Name)                                                       \
  static void Name##Body(Env &E);                                              \
  CLT_TEST(Name) {                                                             \
    if (!E.IsPoclIss)                                                          \
      CLT_SKIP("pocl-iss's kernel cache");                                     \
    Name##Body(E);                                                             \
  }                                                                            \
  static void Name##Body(Env &E [[maybe_unused]])

// The checksum covered only the object: a damaged symbol name was a hit,
// and every later launch failed with CL_OUT_OF_RESOURCES.
CACHE_TEST(damagedSymbolName) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  std::string Data = readFile(Entry);
  size_t At = Data.find("__iss_sub_scale");
  CLT_EXPECT(At != std::string::npos);
  Data[At + 14] = 'f'; // __iss_sub_scalf
  rewriteFile(Entry, Data);
  expectRebuilt(T, Cache, "symbol");
}

/// The checksum of cache entries (FNV-1a 64 with two seeds, in hex), as
/// lib/Compiler/Frontend/ProgramBinary.cpp computes it.
static std::string entryHash(const std::string &Data) {
  auto Fnv = [&](unsigned long long H) {
    for (unsigned char C : Data) {
      H ^= C;
      H *= 1099511628211ull;
    }
    return H;
  };
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%016llx%016llx", Fnv(1469598103934665603ull),
                Fnv(0x9e3779b97f4a7c15ull));
  return Buf;
}

// Knows the entry's layout: "ISSKCACHE2", then "sum <bytes> <hash>" over
// the rest, the body.
static std::string entryBody(const std::string &Data) {
  size_t SumLine = Data.find('\n') + 1, Body = Data.find('\n', SumLine) + 1;
  CLT_EXPECT(Data.compare(0, SumLine, "ISSKCACHE2\n") == 0);
  CLT_EXPECT(Data.compare(SumLine, 4, "sum ") == 0);
  return Data.substr(Body);
}

/// Rewrites \p Entry with \p Body under a checksum that matches it.
static void resealEntry(const std::string &Entry, const std::string &Body) {
  rewriteFile(Entry, "ISSKCACHE2\nsum " + std::to_string(Body.size()) + " " +
                         entryHash(Body) + "\n" + Body);
}

// An entry whose checksum is right but whose code does not load (a writer
// that stored a wrong symbol name) is a miss too, not an error for ever.
CACHE_TEST(resealedBadSymbol) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  std::string Rest = entryBody(readFile(Entry));
  size_t At = Rest.find("__iss_sub_scale");
  CLT_EXPECT(At != std::string::npos);
  Rest[At + 14] = 'f';
  resealEntry(Entry, Rest);
  expectRebuilt(T, Cache, "resealed");
}

/// The work-items POCL_ISS_STATS's table of pieces gives \p Kernel, summed
/// over its pieces; -1 if it has no line there.
static long long pieceWorkItems(const std::string &Out, const char *Kernel) {
  size_t At = Out.find("work-items per piece");
  if (At == std::string::npos)
    return -1;
  std::istringstream Lines(Out.substr(At));
  std::string L, Name, Local, Sub;
  long long Sum = -1;
  while (std::getline(Lines, L)) {
    std::istringstream W(L);
    unsigned Region;
    long long Items;
    if (W >> Name >> Local >> Sub >> Region >> Items && Name == Kernel)
      Sum = (Sum < 0 ? 0 : Sum) + Items;
  }
  return Sum;
}

// POCL_ISS_STATS in `split` mode: the pieces' counter symbol and their
// descriptions go through the cache; an entry without them (as written
// before they existed) still loads, and its kernel prints no pieces.
CACHE_TEST(statsPieces) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  EnvChanges Env = {{"POCL_CACHE_DIR", Cache.c_str()},
                    {"POCL_ISS_STATS", "1"},
                    {"POCL_ISS_MODE", "split"}};
  Run Fill = runChild(T, Env, "stats-fill");
  EXPECT_RUN_OK(Fill);
  CLT_EXPECT(!Fill.loaded("scale"));
  CLT_EXPECT_MSG(pieceWorkItems(Fill.Out, "scale") == 64, Fill.Out);
  std::string Entry = entryOf(Cache, "scale");
  std::string Body = entryBody(readFile(Entry));
  CLT_EXPECT_MSG(Body.find("\npieces __iss_pieces_scale\n") !=
                     std::string::npos,
                 Body.substr(0, Body.find("\nobj ")));

  Run Hit = runChild(T, Env, "stats-hit");
  EXPECT_RUN_OK(Hit);
  CLT_EXPECT(Hit.loaded("scale"));
  CLT_EXPECT_MSG(pieceWorkItems(Hit.Out, "scale") == 64, Hit.Out);

  std::istringstream Lines(Body.substr(0, Body.find("\nobj ") + 1));
  std::string L, Old;
  while (std::getline(Lines, L))
    if (L.rfind("piece", 0) != 0)
      Old += L + "\n";
  Old += Body.substr(Body.find("\nobj ") + 1);
  resealEntry(Entry, Old);
  Run OldEntry = runChild(T, Env, "stats-old");
  EXPECT_RUN_OK(OldEntry);
  CLT_EXPECT(OldEntry.loaded("scale"));
  CLT_EXPECT_MSG(pieceWorkItems(OldEntry.Out, "scale") == -1, OldEntry.Out);
  CLT_EXPECT_MSG(pieceWorkItems(OldEntry.Out, "shift") == 64, OldEntry.Out);
}

/// The key \p Data is sealed under: its body begins "key <bytes>\n<key>\n".
static std::string entryKey(const std::string &Data) {
  std::string Body = entryBody(Data);
  size_t End = Body.find('\n');
  CLT_EXPECT(Body.compare(0, 4, "key ") == 0 && End != std::string::npos);
  return Body.substr(End + 1, std::stoul(Body.substr(4, End - 4)));
}

/// \p Kernel's entries in \p Cache in `split` mode where its code is
/// `vec`'s: the one with the object, and the one naming it.
static std::pair<std::string, std::string> entriesOf(const std::string &Cache,
                                                     const char *Kernel) {
  std::pair<std::string, std::string> E;
  std::string Want = std::string("; kernel ") + Kernel + "; ";
  for (const std::string &Path : kernelCacheEntries(Cache)) {
    std::string Data = readFile(Path);
    if (entryKey(Data).find(Want) != std::string::npos)
      (Data.find("\x7f"
                 "ELF") != std::string::npos
           ? E.first
           : E.second) = Path;
  }
  CLT_EXPECT_MSG(!E.first.empty() && !E.second.empty(),
                 std::string("no entry naming vec's for ") + Kernel);
  return E;
}

// In `split`, a kernel with nothing to split has `vec`'s code: the split's
// entry, which the compiler process of a tiered launch writes, names vec's
// instead of holding a second object, and reads as it. Where it names
// another kernel's entry, or vec's is gone, it is a miss: the split's code
// is compiled (without tiering: no compiler process to race) and cached.
CACHE_TEST(entryNamingVecs) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  EnvChanges Tiered = {{"POCL_CACHE_DIR", Cache.c_str()},
                       {"POCL_ISS_MODE", "split"},
                       {"POCL_ISS_TIERED", "1"}};
  EnvChanges Split = {{"POCL_CACHE_DIR", Cache.c_str()},
                      {"POCL_ISS_MODE", "split"}};
  Run Fill = runChild(T, Tiered, "naming-fill");
  EXPECT_RUN_OK(Fill);
  CLT_EXPECT(!Fill.loaded("scale"));
  // vec's entries by the application, the split's by its compiler process,
  // last.
  for (int Waited = 0; kernelCacheEntries(Cache).size() < 4; Waited += 20) {
    CLT_EXPECT_MSG(Waited < 100000, "the split's entries were not written");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  auto [Vec, Naming] = entriesOf(Cache, "scale");
  auto [ShiftVec, ShiftNaming] = entriesOf(Cache, "shift");
  std::string Key = entryKey(readFile(Naming));
  CLT_EXPECT(entryBody(readFile(Naming)) ==
             "key " + std::to_string(Key.size()) + "\n" + Key + "\nsame " +
                 entryKey(readFile(Vec)) + "\n");

  for (const EnvChanges *Env : {&Tiered, &Split}) {
    Run Hit = runChild(T, *Env, "naming-hit");
    EXPECT_RUN_OK(Hit);
    CLT_EXPECT(Hit.loaded("scale") && Hit.loaded("shift"));
    CLT_EXPECT_MSG(Hit.Out.find("compiling behind it") == std::string::npos,
                   Hit.Out);
  }

  resealEntry(Naming, "key " + std::to_string(Key.size()) + "\n" + Key +
                          "\nsame " + entryKey(readFile(ShiftVec)) + "\n");
  Run Other = runChild(T, Split, "naming-other");
  EXPECT_RUN_OK(Other); // scale's results, not shift's
  CLT_EXPECT(!Other.loaded("scale") && Other.loaded("shift"));
  CLT_EXPECT(unlink(ShiftVec.c_str()) == 0);
  Run Gone = runChild(T, Split, "naming-gone");
  EXPECT_RUN_OK(Gone);
  CLT_EXPECT(Gone.loaded("scale") && !Gone.loaded("shift"));
  Run Again = runChild(T, Split, "naming-again");
  EXPECT_RUN_OK(Again);
  CLT_EXPECT(Again.loaded("scale") && Again.loaded("shift"));
}

// Any other damaged byte, in the header or in the object.
CACHE_TEST(corruptedEntry) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  const std::string Good = readFile(Entry);
  const size_t Positions[] = {Good.find("; kernel scale;") + 3,
                              Good.find("select ") + 8, Good.find("ctx ") + 4,
                              Good.size() / 2, Good.size() - 1};
  for (size_t At : Positions) {
    std::string Bad = Good;
    Bad[At] ^= 0x01;
    rewriteFile(Entry, Bad);
    expectRebuilt(T, Cache, "byte" + std::to_string(At));
    rewriteFile(Entry, Good);
  }
}

CACHE_TEST(truncatedEntry) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  std::string Data = readFile(Entry);
  rewriteFile(Entry, Data.substr(0, Data.size() / 2));
  expectRebuilt(T, Cache, "half");
  rewriteFile(Entry, "");
  expectRebuilt(T, Cache, "empty");
}

CACHE_TEST(zeroFilledEntry) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  rewriteFile(Entry, std::string(readFile(Entry).size(), '\0'));
  expectRebuilt(T, Cache, "zeros");
}

// Reading a folder as an entry threw std::ios_base::failure out of the
// library: the process aborted.
CACHE_TEST(entryIsFolder) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  CLT_EXPECT(unlink(Entry.c_str()) == 0);
  CLT_EXPECT(mkdir(Entry.c_str(), 0700) == 0);
  for (const char *Tag : {"folder1", "folder2"}) {
    Run R = runChild(T, inFolder(Cache), Tag);
    EXPECT_RUN_OK(R);
    CLT_EXPECT(!R.loaded("scale")); // the folder stays: compiled each time
    CLT_EXPECT(R.loaded("shift"));
  }
}

// Entries someone else could have written are never run.
CACHE_TEST(entryOfAnotherUser) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  if (chown(Entry.c_str(), 65534, 65534) != 0)
    CLT_SKIP("cannot give a file to another user (not root)");
  expectRebuilt(T, Cache, "foreign");
}

CACHE_TEST(entryWritableByOthers) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::string Entry = filledCache(T, Cache);
  CLT_EXPECT(chmod(Entry.c_str(), 0666) == 0);
  expectRebuilt(T, Cache, "writable");
  struct stat St;
  CLT_EXPECT(stat(Entry.c_str(), &St) == 0);
  CLT_EXPECT((St.st_mode & 0777) == 0600); // rewritten as ours alone
}

/// The environment without XDG_CACHE_HOME, HOME and POCL_CACHE_DIR, the
/// temporary folder in \p Tmp.
static EnvChanges noHome(const std::string &Tmp) {
  return {{"XDG_CACHE_HOME", nullptr},
          {"HOME", nullptr},
          {"POCL_CACHE_DIR", nullptr},
          {"TMPDIR", Tmp.c_str()}};
}

// Without HOME the cache was the fixed /tmp/pocl-iss-kcache, a folder every
// user could plant entries in. Now: a folder of the user's own, 0700.
CACHE_TEST(defaultFolderIsPerUser) {
  TempDir T;
  Run R = runChild(T, noHome(T.Path), "first");
  EXPECT_RUN_OK(R);
  std::string Folder = T.Path + "/pocl-iss-kcache-" + std::to_string(geteuid());
  struct stat St;
  CLT_EXPECT_MSG(stat(Folder.c_str(), &St) == 0, Folder + " was not created");
  CLT_EXPECT(S_ISDIR(St.st_mode));
  CLT_EXPECT(St.st_uid == geteuid());
  CLT_EXPECT((St.st_mode & 0777) == 0700);
  // The two kernels' entries and the program's.
  CLT_EXPECT(filesIn(Folder).size() == 3);
  Run Again = runChild(T, noHome(T.Path), "second");
  EXPECT_RUN_OK(Again);
  CLT_EXPECT(Again.loaded("scale"));
  CLT_EXPECT(Again.loaded("shift"));
}

// A default folder that another user made, or that others may write to, is
// not used at all, even with valid entries in it.
CACHE_TEST(foreignDefaultFolder) {
  TempDir T;
  std::string Good = T.Path + "/good";
  filledCache(T, Good);
  std::string Folder = T.Path + "/pocl-iss-kcache-" + std::to_string(geteuid());
  CLT_EXPECT(mkdir(Folder.c_str(), 0700) == 0);
  for (const std::string &Name : filesIn(Good)) {
    std::string To = Folder + "/" + Name;
    int Fd = open(To.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    CLT_EXPECT(Fd >= 0);
    close(Fd);
    rewriteFile(To, readFile(Good + "/" + Name));
  }
  // First as our own folder: the planted copies load.
  Run Ours = runChild(T, noHome(T.Path), "ours");
  EXPECT_RUN_OK(Ours);
  CLT_EXPECT(Ours.loaded("scale"));
  // Writable by everyone: not used, and nothing is written there.
  CLT_EXPECT(chmod(Folder.c_str(), 0777) == 0);
  Run Open = runChild(T, noHome(T.Path), "open");
  EXPECT_RUN_OK(Open);
  CLT_EXPECT(!Open.loaded("scale"));
  CLT_EXPECT(!Open.loaded("shift"));
  CLT_EXPECT(filesIn(Folder).size() == 3);
  // Another user's, writable only by them.
  CLT_EXPECT(chmod(Folder.c_str(), 0755) == 0);
  if (chown(Folder.c_str(), 65534, 65534) != 0)
    return; // not root: the case above stands
  Run Theirs = runChild(T, noHome(T.Path), "theirs");
  EXPECT_RUN_OK(Theirs);
  CLT_EXPECT(!Theirs.loaded("scale"));
  CLT_EXPECT(filesIn(Folder).size() == 3);
}

// A cache folder that cannot be created or written: every run compiles,
// and runs.
CACHE_TEST(unwritableFolder) {
  TempDir T;
  std::string File = T.Path + "/file";
  close(open(File.c_str(), O_WRONLY | O_CREAT, 0600));
  std::string Cache = File + "/kcache"; // below a regular file
  for (const char *Tag : {"nofolder1", "nofolder2"}) {
    Run R = runChild(T, inFolder(Cache), Tag);
    EXPECT_RUN_OK(R);
    CLT_EXPECT(!R.loaded("scale"));
  }
  // A read-only folder still serves what is in it.
  std::string RO = T.Path + "/readonly";
  std::string Entry = filledCache(T, RO);
  CLT_EXPECT(chmod(RO.c_str(), 0500) == 0);
  Run R = runChild(T, inFolder(RO), "readonly");
  EXPECT_RUN_OK(R);
  CLT_EXPECT(R.loaded("scale"));
  if (geteuid() != 0) { // root writes anyway
    chmod(RO.c_str(), 0700);
    unlink(Entry.c_str());
    chmod(RO.c_str(), 0500);
    Run Missing = runChild(T, inFolder(RO), "readonly-missing");
    EXPECT_RUN_OK(Missing);
    CLT_EXPECT(!Missing.loaded("scale"));
    CLT_EXPECT(filesIn(RO).size() == 2); // shift's and the program's
  }
  chmod(RO.c_str(), 0700);
}

// Four processes compile the same kernels into an empty cache at once:
// all run, and they leave exactly one whole entry per kernel.
CACHE_TEST(fourProcessesAtOnce) {
  TempDir T;
  std::string Cache = T.Path + "/cache";
  std::vector<Child> Racers;
  for (int I = 0; I < 4; ++I)
    Racers.push_back(
        startCacheChild(T, inFolder(Cache), "racer" + std::to_string(I)));
  std::vector<Run> Runs;
  for (const Child &C : Racers)
    Runs.push_back(finishCacheChild(C));
  for (const Run &R : Runs)
    EXPECT_RUN_OK(R);
  std::vector<std::string> Files = filesIn(Cache);
  std::string Listing;
  for (const std::string &F : Files)
    Listing += F + " ";
  // The kernels' entries and the program's, no temporary files left.
  CLT_EXPECT_MSG(Files.size() == 3, Listing);
  Run After = runChild(T, inFolder(Cache), "after");
  EXPECT_RUN_OK(After);
  CLT_EXPECT(After.loaded("scale"));
  CLT_EXPECT(After.loaded("shift"));
}
