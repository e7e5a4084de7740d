//===- Launches.h - Launches of the unseen-kernel tests --------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The local sizes and offsets the kernels of UnseenKernels.cpp and
// UnseenBorderKernels.cpp run with, how they run them over a padded global
// size, the buffers and data they share, and the check of a launch's
// output against a host reference at the ids it ran (and the initial value
// elsewhere), for each launch of a list.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_KERNELS_LAUNCHES_H
#define POCL_ISS_TESTS_KERNELS_LAUNCHES_H

#include "ClTest.h"

#include <string>
#include <vector>

namespace clt {
namespace launches {

/// A 2D local size with a global offset.
struct Launch2D {
  size_t L0, L1, O0, O1;
  std::string str() const {
    return "local " + std::to_string(L0) + "x" + std::to_string(L1) +
           " offset " + std::to_string(O0) + "," + std::to_string(O1);
  }
};

inline const Launch2D Launches2D[] = {{16, 16, 0, 0}, {8, 4, 0, 0},
                                      {5, 3, 0, 0},   {32, 1, 0, 0},
                                      {8, 4, 3, 2},   {16, 16, 5, 1}};

/// A 1D local size with a global offset.
struct Launch1D {
  size_t L, O;
  std::string str() const {
    return "local " + std::to_string(L) + " offset " + std::to_string(O);
  }
};

inline const Launch1D Launches1D[] = {{1, 0},  {7, 0},  {16, 0}, {24, 0},
                                      {33, 0}, {64, 0}, {16, 3}, {7, 10}};

// Compiling a kernel for a local size costs a few tenths of a second in
// split+score: kernels of several launches take one of two subsets, which
// between them cover a partial tile only (7), one tile (16), tiles and a
// partial one (24, 33), several whole tiles (64) and offsets. 5x3 and
// 32x1 (not vectorized, and a single row) are in the full 2D list only.
inline const Launch1D FewA1D[] = {{24, 0}, {24, 5}, {64, 0}};
inline const Launch1D FewB1D[] = {{7, 0}, {16, 0}, {33, 0}, {33, 4}};
inline const Launch2D FewA2D[] = {{16, 16, 0, 0}, {16, 16, 5, 1}};
inline const Launch2D FewB2D[] = {{8, 4, 0, 0}, {8, 4, 3, 2}, {32, 1, 0, 0}};

/// Runs \p K over ids [0, N0) x [0, N1) shifted by the launch's offset, the
/// global size padded to the local size.
inline void run2D(Env &E, cl_kernel K, size_t N0, size_t N1,
                  const Launch2D &L) {
  size_t Global[2] = {roundUp(N0, L.L0), roundUp(N1, L.L1)};
  size_t Local[2] = {L.L0, L.L1}, Offset[2] = {L.O0, L.O1};
  E.run(K, 2, Global, Local, Offset);
}

inline void run1D(Env &E, cl_kernel K, size_t N, const Launch1D &L) {
  size_t Global = roundUp(N, L.L), Local = L.L, Offset = L.O;
  E.run(K, 1, &Global, &Local, &Offset);
}

/// Whether id \p I runs in a launch of \p N ids padded to \p Local, shifted
/// by \p Off.
inline bool launched(long I, size_t N, size_t Local, size_t Off) {
  return I >= long(Off) && I < long(Off + roundUp(N, Local));
}

/// A read-write buffer holding \p V (E.input's are read-only).
template <typename T> Mem inout(Env &E, const std::vector<T> &V) {
  return E.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                  V.size() * sizeof(T), V.data());
}

/// Small integers as floats: sums and products of a few of them are exact.
inline std::vector<float> smallFloats(size_t N, int Lo, int Hi, unsigned Seed) {
  auto I = randomVector<int>(N, Lo, Hi, Seed);
  return std::vector<float>(I.begin(), I.end());
}

/// For each of \p Launches: runs \p K over N ids, \p SetArgs having set
/// its arguments with the output buffer (N elements of T, \p Fill before
/// the launch), and checks it against \p Update(I, Out[I]) at the launched
/// ids (which may leave Out[I] as it was) and \p Fill elsewhere.
template <typename T, size_t M, typename SetArgsFn, typename UpdateFn>
void checkEach1D(Env &E, cl_kernel K, int N, const Launch1D (&Launches)[M],
                 T Fill, SetArgsFn SetArgs, UpdateFn Update,
                 const std::string &Name) {
  for (const Launch1D &L : Launches) {
    std::vector<T> Expected(N, Fill);
    Mem DOut = inout(E, Expected);
    SetArgs(DOut);
    run1D(E, K, N, L);
    for (int I = 0; I < N; ++I)
      if (launched(I, N, L.L, L.O))
        Update(I, Expected[I]);
    expectEqual(E.read<T>(DOut, Expected.size()), Expected,
                Name + " " + L.str());
  }
}

/// For each of \p Launches: runs \p K over a W x H range, \p SetArgs
/// having set its arguments with the output buffer (W * H elements of T,
/// \p Fill before the launch), and checks it against \p Want(X, Y) at
/// the launched ids and \p Fill elsewhere, element (X, Y) at \p At(X, Y).
template <typename T, size_t N, typename SetArgsFn, typename WantFn,
          typename AtFn>
void checkEach2D(Env &E, cl_kernel K, int W, int H,
                 const Launch2D (&Launches)[N], T Fill, SetArgsFn SetArgs,
                 WantFn Want, AtFn At, const std::string &Name) {
  for (const Launch2D &L : Launches) {
    std::vector<T> Expected(size_t(W) * H, Fill);
    Mem DOut = inout(E, Expected);
    SetArgs(DOut);
    run2D(E, K, W, H, L);
    for (int Y = 0; Y < H; ++Y)
      for (int X = 0; X < W; ++X)
        if (launched(X, W, L.L0, L.O0) && launched(Y, H, L.L1, L.O1))
          Expected[At(X, Y)] = Want(X, Y);
    expectEqual(E.read<T>(DOut, Expected.size()), Expected,
                Name + " " + L.str());
  }
}

/// checkEach2D on a row-major image.
template <typename T, size_t N, typename SetArgsFn, typename WantFn>
void checkEach2D(Env &E, cl_kernel K, int W, int H,
                 const Launch2D (&Launches)[N], T Fill, SetArgsFn SetArgs,
                 WantFn Want, const std::string &Name) {
  checkEach2D(
      E, K, W, H, Launches, Fill, SetArgs, Want,
      [W](int X, int Y) { return size_t(Y) * W + X; }, Name);
}

/// A 3D local size with a global offset.
struct Launch3D {
  size_t L[3], O[3];
  std::string str() const {
    return "local " + std::to_string(L[0]) + "x" + std::to_string(L[1]) + "x" +
           std::to_string(L[2]) + " offset " + std::to_string(O[0]) + "," +
           std::to_string(O[1]) + "," + std::to_string(O[2]);
  }
};

/// checkEach2D in 3D: runs \p K over an NX x NY x NZ range, element
/// (X, Y, Z) at (Z * NY + Y) * NX + X, against \p Want(X, Y, Z).
template <typename T, size_t N, typename SetArgsFn, typename WantFn>
void checkEach3D(Env &E, cl_kernel K, int NX, int NY, int NZ,
                 const Launch3D (&Launches)[N], T Fill, SetArgsFn SetArgs,
                 WantFn Want, const std::string &Name) {
  const int Sizes[3] = {NX, NY, NZ};
  for (const Launch3D &L : Launches) {
    std::vector<T> Expected(size_t(NX) * NY * NZ, Fill);
    Mem DOut = inout(E, Expected);
    SetArgs(DOut);
    size_t Global[3];
    for (unsigned D = 0; D < 3; ++D)
      Global[D] = roundUp(Sizes[D], L.L[D]);
    E.run(K, 3, Global, L.L, L.O);
    for (int Z = 0; Z < NZ; ++Z)
      for (int Y = 0; Y < NY; ++Y)
        for (int X = 0; X < NX; ++X)
          if (launched(X, NX, L.L[0], L.O[0]) &&
              launched(Y, NY, L.L[1], L.O[1]) &&
              launched(Z, NZ, L.L[2], L.O[2]))
            Expected[(size_t(Z) * NY + Y) * NX + X] = Want(X, Y, Z);
    expectEqual(E.read<T>(DOut, Expected.size()), Expected,
                Name + " " + L.str());
  }
}

} // namespace launches
} // namespace clt

#endif // POCL_ISS_TESTS_KERNELS_LAUNCHES_H
