//===- Convolution2D.cpp - Demo: the paper's Convolution2D kernel ---------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// Runs the paper's running example (Figure 2: 2D convolution of an int image
// with a float mask, borders clamped with MAX/MIN) on one OpenCL platform,
// checks the result against a host reference and prints the median kernel
// time from event profiling. It is the demo that shows input space splitting
// at work (sections 1 and 6.4: the paper's 5.8x comes from vectorizing the
// image centre); run it under each POCL_ISS_MODE, or use iss-bench for the
// whole ablation in one go.
//
//   convolution2d [--platform SUBSTRING] [--width W] [--height H]
//                 [--mask N] [--local LXxLY] [--reps N]
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"
#include "Convolution2DKernel.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace clt;

namespace {

struct Options {
  std::string Platform = "pocl-iss";
  int Width = 2048, Height = 2048, Mask = 5, Reps = 7;
  size_t Local[2] = {32, 8};
};

[[noreturn]] void usage(const char *Msg) {
  std::cerr << "convolution2d: " << Msg
            << "\nusage: convolution2d [--platform SUBSTRING] [--width W] "
               "[--height H] [--mask N(odd)] [--local LXxLY] [--reps N]\n";
  std::exit(2);
}

int parsePositive(const char *S, const char *What) {
  char *End;
  long V = std::strtol(S, &End, 10);
  if (*End || V <= 0 || V > (1 << 20))
    usage((std::string("bad value for ") + What + ": " + S).c_str());
  return int(V);
}

Options parse(int Argc, char **Argv) {
  Options O;
  if (const char *P = std::getenv("ISS_TEST_PLATFORM"))
    O.Platform = P;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> const char * {
      if (I + 1 >= Argc)
        usage(("missing value after " + A).c_str());
      return Argv[++I];
    };
    if (A == "--platform")
      O.Platform = Next();
    else if (A == "--width")
      O.Width = parsePositive(Next(), "--width");
    else if (A == "--height")
      O.Height = parsePositive(Next(), "--height");
    else if (A == "--mask")
      O.Mask = parsePositive(Next(), "--mask");
    else if (A == "--reps")
      O.Reps = parsePositive(Next(), "--reps");
    else if (A == "--local") {
      const char *V = Next();
      unsigned long X, Y;
      if (std::sscanf(V, "%lux%lu", &X, &Y) != 2 || !X || !Y)
        usage("--local wants LXxLY, e.g. 32x8");
      O.Local[0] = X;
      O.Local[1] = Y;
    } else if (A == "--help" || A == "-h")
      usage("runs the paper's Convolution2D kernel and checks it");
    else
      usage(("unknown option " + A).c_str());
  }
  if (O.Mask % 2 == 0)
    usage("--mask must be odd");
  if (O.Width % O.Local[0] || O.Height % O.Local[1])
    usage("the local size must divide the image size");
  return O;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  try {
    Env E;
    E.open(O.Platform);
    const char *Mode = std::getenv("POCL_ISS_MODE");
    std::cout << "platform: " << E.PlatformName
              << "  POCL_ISS_MODE=" << (Mode ? Mode : "(default)") << "\nimage "
              << O.Width << "x" << O.Height << ", mask " << O.Mask << "x"
              << O.Mask << ", local " << O.Local[0] << "x" << O.Local[1]
              << "\n";

    size_t Pixels = size_t(O.Width) * O.Height;
    auto Input = randomVector<int>(Pixels, 0, 255, 1);
    auto Mask = randomVector<float>(size_t(O.Mask) * O.Mask, 0.f,
                                    2.f / (O.Mask * O.Mask), 2);
    auto Want =
        conv2d::reference(Input, Mask, O.Width, O.Height, O.Mask, O.Mask);

    Program P = E.build(conv2d::Source);
    Kernel K = E.kernel(P, "Convolution2D");
    Mem DIn = E.buffer(CL_MEM_READ_ONLY, Pixels * sizeof(int));
    Mem DMask = E.buffer(CL_MEM_READ_ONLY, Mask.size() * sizeof(float));
    Mem DOut = E.buffer(CL_MEM_WRITE_ONLY, Pixels * sizeof(int));
    E.write(DIn, Input);
    E.write(DMask, Mask);
    setArgs(K, DOut, DIn, DMask, O.Width, O.Height, O.Mask, O.Mask);

    size_t Global[2] = {size_t(O.Width), size_t(O.Height)};
    std::vector<double> Times;
    std::vector<int> Got(Pixels);
    size_t TotalBad = 0;
    // Launch 0 is the warm-up (it pays for the kernel compilation at enqueue
    // time); every launch is verified, only the others are timed.
    for (int R = 0; R <= O.Reps; ++R) {
      std::fill(Got.begin(), Got.end(), -1);
      E.write(DOut, Got);
      std::vector<cl_event> Events;
      E.launch(K, 2, Global, O.Local, Events);
      double Ms = kernelMillis(Events);
      E.read(DOut, Got);
      std::string First;
      size_t Bad = conv2d::countMismatches(Got, Want, &First, O.Width);
      if (Bad) {
        std::cerr << "VERIFICATION FAILED (run " << R << "): " << Bad
                  << " pixels differ; first: " << First << "\n";
        TotalBad += Bad;
      }
      if (R > 0)
        Times.push_back(Ms);
    }
    std::sort(Times.begin(), Times.end());
    std::printf("kernel time: median %.3f ms (min %.3f, max %.3f, %d runs)\n",
                Times[Times.size() / 2], Times.front(), Times.back(), O.Reps);
    std::printf("%.1f Mpixel/s\n",
                double(Pixels) / Times[Times.size() / 2] * 1e-3);
    if (TotalBad) {
      std::puts("result: FAILED");
      return 1;
    }
    std::puts("result: verified against the host reference");
    return 0;
  } catch (const std::exception &Ex) {
    std::cerr << "convolution2d: " << Ex.what() << "\n";
    return 1;
  }
}
