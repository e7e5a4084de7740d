//===- ManyKernels.cpp - A generated program of many small kernels --------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The generator of startup-bench's many-kernel source (ManyKernels.h). Kernel
// V is of kind V % 4 (element-wise, stencil, reduction, tail) and takes its
// constants from a hash of V, so that no two kernels are the same code and
// the text depends on nothing but this file.
//
//===----------------------------------------------------------------------===//

#include "ManyKernels.h"

#include <algorithm>
#include <cstdio>

namespace startup {
namespace {

/// A well-mixed 32-bit value of (V, Salt).
uint32_t hash(unsigned V, unsigned Salt) {
  uint32_t X = V * 0x9E3779B1u ^ (Salt + 0x7F4A7C15u) * 0x85EBCA77u;
  X ^= X >> 15;
  X *= 0x2C1B3C6Du;
  X ^= X >> 12;
  X *= 0x297A2D39u;
  X ^= X >> 15;
  return X;
}

/// A whole number in [Lo, Hi] of (V, Salt).
int pick(unsigned V, unsigned Salt, int Lo, int Hi) {
  return Lo + int(hash(V, Salt) % uint32_t(Hi - Lo + 1));
}

/// A float literal with two decimals in [Lo, Hi) of (V, Salt).
std::string floatLiteral(unsigned V, unsigned Salt, int Lo, int Hi) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.2ff",
                Lo + double(hash(V, Salt) % uint32_t((Hi - Lo) * 100)) / 100);
  return Buf;
}

std::string kernelName(const char *Kind, unsigned V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%s_%03u", Kind, V);
  return Buf;
}

/// One step of an element-wise kernel, on \p X and \p Y of type \p Vector4
/// (float4) or float. Template 3 compares, which a float4 cannot do in a
/// conditional expression, so vector kernels skip it.
std::string mapStep(unsigned V, unsigned Salt, const std::string &X,
                    const std::string &Y, bool Vector4) {
  std::string C1 = floatLiteral(V, Salt, 1, 3);
  std::string C2 = floatLiteral(V, Salt + 1, 2, 9);
  int T = pick(V, Salt + 2, 0, 7);
  if (Vector4 && T == 3)
    T = 0;
  switch (T) {
  case 0:
    return X + " * " + C1 + " + " + Y;
  case 1:
    return "fmax(" + X + ", " + Y + ") * " + C1 + " - " + C2;
  case 2:
    return "fabs(" + X + " - " + Y + ") + " + C1 + " * " + Y;
  case 3:
    return X + " > " + C1 + " ? " + X + " * " + Y + " : " + Y + " - " + C2;
  case 4:
    return "sqrt(fabs(" + X + ") + " + C1 + ") * " + Y;
  case 5:
    return "clamp(" + X + " * " + C1 + " + " + Y + ", -" + C2 + ", " + C2 + ")";
  case 6:
    return "exp(-fabs(" + X + ") * " + C1 + ") + " + Y;
  default:
    return "sin(" + X + " * " + C1 + ") * " + C2 + " + " + Y;
  }
}

/// Element-wise float math in three steps, float or float4.
std::string mapKernel(unsigned V) {
  bool Vector4 = pick(V, 10, 0, 2) == 2;
  std::string T = Vector4 ? "float4" : "float";
  return "__kernel void " + kernelName("map", V) + "(__global " + T +
         " *out, __global const " + T + " *a,\n    __global const " + T +
         " *b) {\n  size_t i = get_global_id(0);\n  " + T + " x = a[i];\n  " +
         T + " y = b[i];\n  " + T +
         " t = " + mapStep(V, 20, "x", "y", Vector4) + ";\n  " + T +
         " u = " + mapStep(V, 30, "t", "y", Vector4) +
         ";\n  out[i] = " + mapStep(V, 40, "u", "x", Vector4) + ";\n}\n\n";
}

/// A clamped integer stencil: 1D with radius 1 to 4, or 2D 3x3 or 5x5.
std::string stencilKernel(unsigned V) {
  std::string Name = kernelName("stencil", V);
  std::string A = std::to_string(pick(V, 40, 1, 5));
  std::string B = std::to_string(pick(V, 41, 1, 9));
  std::string R;
  if (pick(V, 42, 0, 1) == 0) {
    R = std::to_string(pick(V, 43, 1, 4));
    return "__kernel void " + Name +
           "(__global int *out, __global const int *in, int n) {\n"
           "  int i = get_global_id(0);\n  int lo = max(0, i - " +
           R + ");\n  int hi = min(n - 1, i + " + R +
           ");\n  int s = " + std::to_string(pick(V, 44, 0, 99)) +
           ";\n  for (int j = lo; j <= hi; ++j)\n    s += in[j] * (" + A +
           " * (j - i) + " + B + ");\n  out[i] = s >> " +
           std::to_string(pick(V, 45, 0, 3)) + ";\n}\n\n";
  }
  R = std::to_string(pick(V, 43, 1, 2));
  return "__kernel void " + Name +
         "(__global int *out, __global const int *in, int w,\n    int h) {\n"
         "  int x = get_global_id(0);\n  int y = get_global_id(1);\n"
         "  int s = 0;\n  for (int dy = -" +
         R + "; dy <= " + R + "; ++dy)\n    for (int dx = -" + R +
         "; dx <= " + R +
         "; ++dx) {\n      int xx = clamp(x + dx, 0, w - 1);\n"
         "      int yy = clamp(y + dy, 0, h - 1);\n"
         "      s += in[yy * w + xx] * (" +
         A + " * dx + " + B + " * dy + " + std::to_string(pick(V, 46, 1, 9)) +
         ");\n    }\n  out[y * w + x] = s;\n}\n\n";
}

/// What a reduction computes: out[group] = (v[0] op ... op v[63]) ^ X,
/// v[l] = in[g] * M + A for the work-items g < n, Identity beyond.
struct Reduction {
  uint32_t M, A, X;
  unsigned Op; ///< 0: +, 1: ^, 2: max, 3: min
  uint32_t identity() const { return Op == 3 ? 0xFFFFFFFFu : 0u; }
  uint32_t combine(uint32_t L, uint32_t R) const {
    switch (Op) {
    case 0:
      return L + R;
    case 1:
      return L ^ R;
    case 2:
      return std::max(L, R);
    default:
      return std::min(L, R);
    }
  }
};

Reduction reduction(unsigned V) {
  return {hash(V, 50) | 1u, hash(V, 51) % 1000u, hash(V, 52) % 65536u,
          unsigned(pick(V, 53, 0, 3))};
}

/// A tree reduction in __local memory, a barrier per level, a guarded
/// load for the tail (ReductionLocal work-items per group).
std::string reduceKernel(unsigned V) {
  Reduction R = reduction(V);
  static const char *const Combine[4] = {
      "tmp[l] + tmp[l + s]", "tmp[l] ^ tmp[l + s]", "max(tmp[l], tmp[l + s])",
      "min(tmp[l], tmp[l + s])"};
  return "__kernel void " + kernelName("reduce", V) +
         "(__global uint *out, __global const uint *in, uint n) {\n"
         "  __local uint tmp[" +
         std::to_string(ReductionLocal) +
         "];\n  uint l = get_local_id(0);\n  uint g = get_global_id(0);\n"
         "  tmp[l] = g < n ? in[g] * " +
         std::to_string(R.M) + "u + " + std::to_string(R.A) +
         "u : " + std::to_string(R.identity()) +
         "u;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  for (uint s = " +
         std::to_string(ReductionLocal / 2) +
         "; s > 0; s >>= 1) {\n    if (l < s)\n      tmp[l] = " +
         Combine[R.Op] +
         ";\n    barrier(CLK_LOCAL_MEM_FENCE);\n  }\n  if (l == 0)\n"
         "    out[get_group_id(0)] = tmp[0] ^ " +
         std::to_string(R.X) + "u;\n}\n\n";
}

/// A guarded tail (an early return or an if around the body) and a short
/// loop that stops at n, float or int.
std::string tailKernel(unsigned V) {
  bool Int = pick(V, 60, 0, 3) == 0;
  std::string T = Int ? "int" : "float";
  std::string K =
      Int ? std::to_string(pick(V, 61, 2, 9)) : floatLiteral(V, 61, 0, 2);
  std::string C =
      Int ? std::to_string(pick(V, 62, 1, 99)) : floatLiteral(V, 62, 1, 5);
  std::string Lo = Int ? "-100000" : "-1.0e4f", Hi = Int ? "100000" : "1.0e4f";
  std::string Body = "  " + T + " acc = in[i];\n  for (int t = 1; t <= " +
                     std::to_string(pick(V, 63, 1, 4)) +
                     " && i + t < n; ++t)\n    acc += in[i + t] * " + K +
                     ";\n  out[i] = clamp(acc * k + " + C + ", " + Lo + ", " +
                     Hi + ");\n";
  std::string Head = "__kernel void " + kernelName("tail", V) + "(__global " +
                     T + " *out, __global const " + T + " *in, int n,\n    " +
                     T + " k) {\n  int i = get_global_id(0);\n";
  if (pick(V, 64, 0, 1) == 0)
    return Head + "  if (i >= n)\n    return;\n" + Body + "}\n\n";
  std::string Indented;
  for (size_t P = 0; P < Body.size(); ++P) {
    if (P == 0 || Body[P - 1] == '\n')
      Indented += "  ";
    Indented += Body[P];
  }
  return Head + "  if (i < n) {\n" + Indented + "  }\n}\n\n";
}

/// The launched kernel: a reduction (an exclusive or, as it happens).
constexpr unsigned Launched = 42;

} // namespace

std::string manyKernelsSource() {
  std::string S = "// startup-bench: " + std::to_string(ManyKernelCount) +
                  " generated kernels\n\n";
  for (unsigned V = 0; V < ManyKernelCount; ++V)
    switch (V % 4) {
    case 0:
      S += mapKernel(V);
      break;
    case 1:
      S += stencilKernel(V);
      break;
    case 2:
      S += reduceKernel(V);
      break;
    default:
      S += tailKernel(V);
      break;
    }
  return S;
}

const char *launchedKernel() {
  static const std::string Name = kernelName("reduce", Launched);
  return Name.c_str();
}

std::vector<uint32_t> launchedReference(const std::vector<uint32_t> &In,
                                        size_t Groups) {
  static_assert(Launched % 4 == 2, "the launched kernel is a reduction");
  Reduction R = reduction(Launched);
  std::vector<uint32_t> Out(Groups);
  for (size_t G = 0; G < Groups; ++G) {
    uint32_t Acc = R.identity();
    for (size_t I = G * ReductionLocal; I < (G + 1) * ReductionLocal; ++I)
      Acc = R.combine(Acc, I < In.size() ? In[I] * R.M + R.A : R.identity());
    Out[G] = Acc ^ R.X;
  }
  return Out;
}

} // namespace startup
