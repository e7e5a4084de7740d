//===- StatsTest.cpp - POCL_ISS_STATS prints launches and pieces at exit --===//
// SPDX-License-Identifier: MIT
//
// The tables are printed when the process exits, so the test runs itself as
// a child with POCL_ISS_STATS=1 (in `split` mode) and reads the tables it
// wrote to stderr: one line per subkernel of each compiled kernel and local
// size, whose launch counts must add up to the launches made; and one line
// per piece of each split region (the input-space-splitting paper, Table 3).
// The paper's Convolution2D on a 1024x1024 image in groups of 32x8 runs its
// interior piece on more than 98% of the work-items and its border pieces
// on the rest, every work-item counted once; with partial edges the
// interior runs over 99%, its whole tiles and the tiles the border cuts. A
// second child, in `split+score`, shows which subkernel each launch selected; a
// third, a tail guard split or left to the masks as POCL_ISS_CHEAP_MASKS says.
//
//===----------------------------------------------------------------------===//

#include "ChildProcess.h"
#include "ClTest.h"

#include "Convolution2DKernel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

/// The side of Convolution2D's square image.
static constexpr unsigned long long ConvSize = 1024;

/// The statistics are ours: the child runs on pocl-iss whatever
/// ISS_TEST_PLATFORM says.
static int child() {
  return clt::onPoclIss([](clt::Env &E) {
    clt::Program P = E.build("__kernel void stats_kernel(__global float *x) "
                             "{ x[get_global_id(0)] *= 2.0f; }");
    clt::Kernel K = E.kernel(P, "stats_kernel");
    clt::Mem B = E.buffer(CL_MEM_READ_WRITE, 1024 * sizeof(float));
    clt::setArg(K, 0, B);
    size_t G = 1024, L = 64;
    for (int R = 0; R < 3; ++R)
      E.run(K, 1, &G, &L);

    const int Width = ConvSize, Height = ConvSize, MaskSize = 5;
    std::vector<int> In = conv2d::testImage(Width, Height);
    std::vector<float> Mask = conv2d::boxMask(MaskSize);
    clt::Program CP = E.build(conv2d::Source);
    clt::Kernel CK = E.kernel(CP, "Convolution2D");
    clt::Mem Out = E.output<int>(In.size());
    clt::Mem InB = E.input(In), MaskB = E.input(Mask);
    clt::setArgs(CK, Out, InB, MaskB, Width, Height, MaskSize, MaskSize);
    size_t CG[2] = {size_t(Width), size_t(Height)}, CL[2] = {32, 8};
    E.run(CK, 2, CG, CL);
    std::string Bad;
    if (conv2d::countMismatches(
            E.read<int>(Out, In.size()),
            conv2d::reference(In, Mask, Width, Height, MaskSize, MaskSize),
            &Bad, Width)) {
      std::fprintf(stderr, "Convolution2D: %s\n", Bad.c_str());
      return 1;
    }
    return 0;
  });
}

/// A tail guard over consecutive accesses, in `split` mode: its pieces are
/// what POCL_ISS_CHEAP_MASKS decides (split, or left to the masks).
static int masksChild() {
  return clt::onPoclIss([](clt::Env &E) {
    clt::Program P = E.build("__kernel void guarded(__global float *x, int n) "
                             "{ int i = get_global_id(0); "
                             "if (i < n) x[i] *= 2.0f; }");
    clt::Kernel K = E.kernel(P, "guarded");
    std::vector<float> X(1024, 1.0f);
    clt::Mem B = E.input(X);
    clt::setArgs(K, B, 1000);
    size_t G = 1024, L = 64;
    E.run(K, 1, &G, &L);
    std::vector<float> Got = E.read<float>(B, X.size());
    for (size_t I = 0; I < Got.size(); ++I)
      if (Got[I] != (I < 1000 ? 2.0f : 1.0f)) {
        std::fprintf(stderr, "guarded: x[%zu] = %g\n", I, Got[I]);
        return 1;
      }
    return 0;
  });
}

/// The titles of the two tables, each on the line that heads it.
static const char *const LaunchesTitle =
    "pocl-iss stats: subkernel launches per kernel";
static const char *const PiecesTitle =
    "pocl-iss stats: work-items per piece of each region";

/// The table of \p Out titled \p Title, from its title up to the next
/// table's; empty if there is none. The child's stdout shares the file with
/// its stderr, so nothing before the title is taken for a row.
static std::string table(const std::string &Out, const char *Title) {
  size_t At = Out.find(Title);
  if (At == std::string::npos)
    return "";
  size_t End = Out.find("pocl-iss stats: ", At + 1);
  return Out.substr(At, End == std::string::npos ? End : End - At);
}

/// The interior's name: its whole tiles and, with partial edges, the
/// partial tiles beside them.
static const char *const InteriorPiece = "full, consecutive, uniform control";

/// Convolution2D's pieces in the second table: kernel local subkernel
/// region work-items share% piece: how. Every work-item counted once per
/// region; the interior's whole tiles over 98%. Without partial edges
/// (\p Edges false) two border pieces run the rest; with them, the
/// interior's edges run some of it, and its line for all its ranges, their
/// sum, is over 99%.
static int checkPieces(const std::string &Out, bool Edges) {
  std::string Table = table(Out, PiecesTitle);
  if (Table.empty()) {
    std::printf("FAIL: no table of pieces on stderr\n");
    return 1;
  }
  std::istringstream Lines(Table);
  std::string Line;
  std::map<unsigned, unsigned long long> RegionItems;
  std::map<unsigned, double> RegionShares;
  double Interior = 0, AllShare = 0;
  unsigned long long InteriorItems = 0, EdgeItems = 0, AllItems = 0;
  unsigned Pieces = 0, Borders = 0, AllLines = 0;
  const std::string AllSuffix = ": all its ranges";
  while (std::getline(Lines, Line)) {
    std::istringstream W(Line);
    std::string Kernel, Local, Sub, Share;
    unsigned Region = 0;
    unsigned long long Items = 0;
    if (!(W >> Kernel >> Local >> Sub >> Region >> Items >> Share) ||
        Kernel != "Convolution2D" || Local != "32x8x1")
      continue;
    std::string Piece;
    std::getline(W, Piece);
    Piece.erase(0, Piece.find_first_not_of(' '));
    double Pct = std::strtod(Share.c_str(), nullptr);
    std::string Name = Piece.substr(0, Piece.find(':'));
    if (Piece.size() > AllSuffix.size() &&
        Piece.compare(Piece.size() - AllSuffix.size(), AllSuffix.size(),
                      AllSuffix) == 0) {
      // A sum of the lines above, not counted again.
      if (Name == InteriorPiece) {
        ++AllLines;
        AllItems = Items;
        AllShare = Pct;
      }
      continue;
    }
    ++Pieces;
    RegionItems[Region] += Items;
    RegionShares[Region] += Pct;
    if (Name == InteriorPiece) {
      InteriorItems += Items;
      if (Piece.find(": whole tiles") != std::string::npos)
        Interior += Pct;
      else if (Piece.find(": partial tiles") != std::string::npos)
        EdgeItems += Items;
    } else if (Items && Name.rfind("full, ", 0) == 0) {
      ++Borders;
    }
  }
  if (Pieces < 3) {
    std::printf("FAIL: %u pieces of Convolution2D, expected a split\n", Pieces);
    return 1;
  }
  for (auto [Region, Items] : RegionItems)
    if (Items != ConvSize * ConvSize ||
        std::abs(RegionShares[Region] - 100.0) > 0.05) {
      std::printf("FAIL: region %u: %llu work-items counted (%.2f%%), "
                  "expected %llu (100%%)\n",
                  Region, Items, RegionShares[Region], ConvSize * ConvSize);
      return 1;
    }
  if (Interior <= 98.0) {
    std::printf("FAIL: the interior's whole tiles ran %.2f%% of the "
                "work-items, expected over 98%%\n",
                Interior);
    return 1;
  }
  if (!Edges && (Borders < 2 || EdgeItems || AllLines)) {
    std::printf("FAIL: without partial edges, %u border pieces ran the "
                "rest, expected two; %llu work-items in edges, expected "
                "none\n",
                Borders, EdgeItems);
    return 1;
  }
  if (Edges && (!EdgeItems || AllLines != 1 || AllItems != InteriorItems ||
                AllShare <= 99.0)) {
    std::printf("FAIL: with partial edges, %llu work-items in edges, the "
                "interior's %u lines for all its ranges say %llu (%.2f%%) "
                "of %llu; expected some, one line of their sum, over 99%%\n",
                EdgeItems, AllLines, AllItems, AllShare, InteriorItems);
    return 1;
  }
  return 0;
}

/// `split+score`: one kernel consecutive along y where F is set and along
/// x where it is not, launched once each way in groups of 16x16, and once
/// with F set in groups of 2x16, where only y has a vector's worth of
/// work-items.
static int scoresChild() {
  return clt::onPoclIss([](clt::Env &E) {
    clt::Program P = E.build(
        "__kernel void either(__global int *Out, int N, int F) {\n"
        "  int X = get_global_id(0), Y = get_global_id(1);\n"
        "  if (F) Out[X * N + Y] = X - Y; else Out[Y * N + X] = X + Y;\n"
        "}\n");
    clt::Kernel K = E.kernel(P, "either");
    const int N = 64;
    clt::Mem Out = E.output<int>(size_t(N) * N);
    size_t G[2] = {size_t(N), size_t(N)};
    const size_t Locals[][2] = {{16, 16}, {2, 16}};
    for (const auto &L : Locals)
      for (int F = 0; F < 2; ++F) {
        if (!F && L[0] == 2)
          continue;
        clt::setArgs(K, Out, N, F);
        E.run(K, 2, G, L);
        std::vector<int> Got = E.read<int>(Out, size_t(N) * N);
        for (int Y = 0; Y < N; ++Y)
          for (int X = 0; X < N; ++X)
            if (Got[F ? X * N + Y : Y * N + X] != (F ? X - Y : X + Y)) {
              std::fprintf(stderr, "either: wrong at %d, %d\n", X, Y);
              return 1;
            }
      }
    return 0;
  });
}

/// How a child ended and what it wrote.
struct ChildRun {
  int Exit = -1; ///< its exit code; -1 if it was killed or did not end in time
  std::string Out; ///< its stderr and stdout
};

/// Runs this test as a child with \p Flag and \p Env, for up to 100 s
/// (Convolution2D's child takes about one), and shows what it wrote.
static ChildRun runChild(const char *Self, const char *Flag,
                         const clt::EnvChanges &Env) {
  ChildRun R;
  R.Exit = clt::runChild(Self, Flag, Env, 100, R.Out);
  std::printf("%s%s: exit=%d\n", R.Out.c_str(), Flag, R.Exit);
  return R;
}

/// The launches of \p Kernel's subkernel \p Sub (of all its subkernels
/// when null) in groups of \p Local, from the first table; ~0 when it has
/// no line there. Lines: kernel local mode subkernel launches.
static unsigned long long launches(const std::string &Out, const char *Kernel,
                                   const char *Local, const char *Sub) {
  std::istringstream Lines(table(Out, LaunchesTitle));
  std::string Line;
  unsigned long long Total = ~0ull;
  while (std::getline(Lines, Line)) {
    std::istringstream W(Line);
    std::string K, L, Mode, S;
    unsigned long long N = 0;
    if (W >> K >> L >> Mode >> S >> N && K == Kernel && L == Local &&
        (!Sub || S == Sub))
      Total = (Total == ~0ull ? 0 : Total) + N;
  }
  return Total;
}

/// Subkernels by dimension: each launch of `either` picks the dimension its
/// argument makes consecutive (the scores, evaluated per launch), and with
/// groups of 2x16 the y subkernel is the only one.
static int checkScores(const char *Self) {
  ChildRun C = runChild(Self, "--scores-child",
                        {{"POCL_ISS_STATS", "1"},
                         {"POCL_ISS_MODE", "split+score"},
                         {"POCL_ISS_VECTOR_WIDTH", "8"}});
  if (C.Exit != 0) {
    std::printf("FAIL: the scores child failed\n");
    return 1;
  }
  const std::string &Out = C.Out;
  struct {
    const char *Local, *Sub;
    unsigned long long Want;
  } Expected[] = {{"16x16x1", "split+score:x/8", 1},
                  {"16x16x1", "split+score:y/8", 1},
                  {"2x16x1", "split+score:y/8", 1}};
  for (const auto &X : Expected) {
    unsigned long long N = launches(Out, "either", X.Local, X.Sub);
    if (N != X.Want) {
      std::printf("FAIL: either, local %s: subkernel %s launched %llu "
                  "times, expected %llu\n",
                  X.Local, X.Sub, N, X.Want);
      return 1;
    }
  }
  if (launches(Out, "either", "2x16x1", "split+score:x/8") != ~0ull) {
    std::printf("FAIL: an x subkernel for groups of 2x16\n");
    return 1;
  }
  return 0;
}

/// The pieces of `guarded` in the second table, by their descriptions.
static std::vector<std::string> guardedPieces(const std::string &Out) {
  std::vector<std::string> Pieces;
  std::istringstream Lines(table(Out, PiecesTitle));
  std::string Line;
  while (std::getline(Lines, Line))
    if (Line.rfind("guarded ", 0) == 0)
      Pieces.push_back(Line);
  return Pieces;
}

/// POCL_ISS_CHEAP_MASKS=1 leaves the tail guard to the vectorizer's masks
/// (one piece, unsplit); =0 splits it, whatever the machine.
static int checkCheapMasks(const char *Self) {
  for (const char *Value : {"1", "0"}) {
    ChildRun C = runChild(Self, "--masks-child",
                          {{"POCL_ISS_STATS", "1"},
                           {"POCL_ISS_MODE", "split"},
                           {"POCL_ISS_VECTOR_WIDTH", "8"},
                           {"POCL_ISS_CHEAP_MASKS", Value}});
    if (C.Exit != 0) {
      std::printf("FAIL: the masks child failed (POCL_ISS_CHEAP_MASKS=%s)\n",
                  Value);
      return 1;
    }
    std::vector<std::string> Pieces = guardedPieces(C.Out);
    bool Unsplit = Pieces.size() == 1 &&
                   Pieces[0].find("unsplit") != std::string::npos;
    if (Unsplit != (*Value == '1') || Pieces.empty()) {
      std::printf("FAIL: POCL_ISS_CHEAP_MASKS=%s: %zu pieces of guarded%s\n",
                  Value, Pieces.size(), Unsplit ? ", unsplit" : "");
      return 1;
    }
  }
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && std::strcmp(Argv[1], "--child") == 0)
    return child();
  if (Argc > 1 && std::strcmp(Argv[1], "--scores-child") == 0)
    return scoresChild();
  if (Argc > 1 && std::strcmp(Argv[1], "--masks-child") == 0)
    return masksChild();
  std::string SelfPath = clt::selfPath();
  if (SelfPath.empty())
    return 1;
  const char *Self = SelfPath.c_str();
  // Tiles of 8 on every machine: the border pieces of a group are its
  // first and last tile along x. Without partial edges first (the
  // launches' table is read from this run), then with them (cheap masks
  // on every machine: masked code runs anywhere, however fast).
  ChildRun C = runChild(Self, "--child",
                        {{"POCL_ISS_STATS", "1"},
                         {"POCL_ISS_MODE", "split"},
                         {"POCL_ISS_VECTOR_WIDTH", "8"},
                         {"POCL_ISS_PARTIAL_EDGES", "0"}});
  if (C.Exit == 77)
    return 77;
  if (C.Exit != 0) {
    std::printf("FAIL: the child failed\n");
    return 1;
  }
  const std::string &Out = C.Out;
  if (table(Out, LaunchesTitle).empty()) {
    std::printf("FAIL: no stats table on stderr\n");
    return 1;
  }
  unsigned long long Total = launches(Out, "stats_kernel", "64x1x1", nullptr);
  if (Total != 3) {
    std::printf("FAIL: %llu launches of stats_kernel counted, expected 3\n",
                Total);
    return 1;
  }
  if (int R = checkPieces(Out, /*Edges=*/false))
    return R;
  ChildRun CE = runChild(Self, "--child",
                         {{"POCL_ISS_STATS", "1"},
                          {"POCL_ISS_MODE", "split"},
                          {"POCL_ISS_VECTOR_WIDTH", "8"},
                          {"POCL_ISS_CHEAP_MASKS", "1"}});
  if (CE.Exit != 0) {
    std::printf("FAIL: the child with partial edges failed\n");
    return 1;
  }
  if (int R = checkPieces(CE.Out, /*Edges=*/true))
    return R;
  if (int R = checkScores(Self))
    return R;
  if (int R = checkCheapMasks(Self))
    return R;
  std::printf("ok\n");
  return 0;
}
