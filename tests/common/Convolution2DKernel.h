//===- Convolution2DKernel.h - The paper's running example ------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The Convolution2D kernel of the paper (Figure 2, from the AMD APP SDK) and
// its host reference, shared by the convolution2d demo, the benchmarks and
// the runtime tests (tests/common holds what tests and examples share). Its
// clamped borders (MAX/MIN) make the i and j loops divergent only near the
// image edges; input space splitting separates the regular centre, where the
// loops are uniform and the accesses consecutive (sections 1 and 6.5, Table 3:
// one codelet runs 99.6% of the time).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_TESTS_COMMON_CONVOLUTION2DKERNEL_H
#define POCL_ISS_TESTS_COMMON_CONVOLUTION2DKERNEL_H

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace conv2d {

// As in Figure 2, with the global pointers OpenCL C requires; i walks x
// (vstep from maskWidth) and j walks y (hstep from maskHeight).
inline const char *Source = R"CLC(
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

__kernel void Convolution2D(__global int *output, __global int *input,
                            __global float *mask, int width, int height,
                            int maskWidth, int maskHeight) {
  int x = get_global_id(0);
  int y = get_global_id(1);

  int vstep = (maskWidth - 1) / 2;
  int hstep = (maskHeight - 1) / 2;

  int left = MAX(0, x - vstep);
  int right = MIN(width - 1, x + vstep);
  int top = MAX(0, y - hstep);
  int bottom = MIN(height - 1, y + hstep);

  float sumFX = 0;
  for (int i = left; i <= right; ++i) {
    for (int j = top; j <= bottom; ++j) {
      int maskIndex = (j - (y - hstep)) * maskWidth + (i - (x - vstep));
      int index = j * width + i;

      sumFX += input[index] * mask[maskIndex];
    }
  }
  output[y * width + x] = (int)(sumFX + 0.5);
}
)CLC";

/// A test image of \p Width x \p Height pixels (values 0 to 255) and a
/// box mask of \p MaskSize x \p MaskSize, as the runtime tests use them.
inline std::vector<int> testImage(int Width, int Height) {
  std::vector<int> In(size_t(Width) * Height);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = int(I * 7919 % 256);
  return In;
}
inline std::vector<float> boxMask(int MaskSize) {
  return std::vector<float>(size_t(MaskSize) * MaskSize,
                            1.0f / float(MaskSize * MaskSize));
}

/// The same computation on the host, in the same summation order.
inline std::vector<int> reference(const std::vector<int> &Input,
                                  const std::vector<float> &Mask, int Width,
                                  int Height, int MaskWidth, int MaskHeight) {
  std::vector<int> Out(size_t(Width) * Height);
  int VStep = (MaskWidth - 1) / 2, HStep = (MaskHeight - 1) / 2;
  for (int Y = 0; Y < Height; ++Y)
    for (int X = 0; X < Width; ++X) {
      int Left = std::max(0, X - VStep), Right = std::min(Width - 1, X + VStep);
      int Top = std::max(0, Y - HStep),
          Bottom = std::min(Height - 1, Y + HStep);
      float Sum = 0;
      for (int I = Left; I <= Right; ++I)
        for (int J = Top; J <= Bottom; ++J)
          Sum += float(Input[size_t(J) * Width + I]) *
                 Mask[(J - (Y - HStep)) * MaskWidth + (I - (X - VStep))];
      // 0.5 is a double literal in the kernel too (fp64 devices).
      Out[size_t(Y) * Width + X] = int(double(Sum) + 0.5);
    }
  return Out;
}

/// Counts pixels off by more than one: the device may contract the
/// multiply-add (OpenCL's default FP_CONTRACT), which can move a sum across
/// a rounding boundary of the final conversion, but never by more than one.
inline size_t countMismatches(const std::vector<int> &Got,
                              const std::vector<int> &Want,
                              std::string *FirstBad = nullptr, int Width = 1) {
  size_t Bad = 0;
  for (size_t I = 0; I < Got.size(); ++I)
    if (std::abs(Got[I] - Want[I]) > 1) {
      if (Bad++ == 0 && FirstBad)
        *FirstBad = "pixel (" + std::to_string(I % Width) + ", " +
                    std::to_string(I / Width) + "): got " +
                    std::to_string(Got[I]) + ", want " +
                    std::to_string(Want[I]);
    }
  return Bad;
}

} // namespace conv2d

#endif // POCL_ISS_TESTS_COMMON_CONVOLUTION2DKERNEL_H
