//===- CheckedConvolution.h - Convolution2D launched and checked -*- C++
//-*-===//
// SPDX-License-Identifier: MIT
//
// The paper's Convolution2D (Convolution2DKernel.h) built on a platform, on
// a test image with a 5x5 box mask, each launch's result checked against
// the host reference: for the runtime tests that launch it again and again
// and read what the runtime did meanwhile.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_COMMON_CHECKEDCONVOLUTION_H
#define POCL_ISS_TESTS_COMMON_CHECKEDCONVOLUTION_H

#include "ClTest.h"
#include "Convolution2DKernel.h"

#include <cstdio>
#include <string>
#include <vector>

namespace clt {

class CheckedConvolution {
public:
  CheckedConvolution(const Env &E, int Width, int Height)
      : E(E), Width(Width), Height(Height),
        In(conv2d::testImage(Width, Height)), Mask(conv2d::boxMask(MaskSize)),
        Want(conv2d::reference(In, Mask, Width, Height, MaskSize, MaskSize)),
        P(E.build(conv2d::Source)), K(E.kernel(P, "Convolution2D")),
        InB(E.input(In)), MaskB(E.input(Mask)) {}

  /// One launch in \p LX x \p LY groups into a fresh output buffer; false,
  /// with a line on stderr naming launch \p Launch, on a wrong result.
  bool run(size_t LX, size_t LY, int Launch) {
    Mem Out = E.output<int>(In.size());
    setArgs(K, Out, InB, MaskB, Width, Height, MaskSize, MaskSize);
    size_t G[2] = {size_t(Width), size_t(Height)}, L[2] = {LX, LY};
    E.run(K, 2, G, L);
    std::string Bad;
    if (conv2d::countMismatches(E.read<int>(Out, In.size()), Want, &Bad,
                                Width)) {
      std::fprintf(stderr, "launch %d in %zux%zu groups: %s\n", Launch, LX, LY,
                   Bad.c_str());
      return false;
    }
    return true;
  }

private:
  static constexpr int MaskSize = 5;
  const Env &E;
  int Width, Height;
  std::vector<int> In;
  std::vector<float> Mask;
  std::vector<int> Want;
  Program P;
  Kernel K;
  Mem InB, MaskB;
};

} // namespace clt

#endif // POCL_ISS_TESTS_COMMON_CHECKEDCONVOLUTION_H
