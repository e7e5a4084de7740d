//===- Benchmark.h - One benchmark of the ablation driver -------*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The interface every iss-bench benchmark implements and the registry that
// names them. The set follows the paper's section 6.2 (AMD APP SDK, Rodinia,
// Parboil); kernels are rewritten after the originals. A benchmark whose
// kernels use work-group barriers says so when it registers: on a platform
// that refuses to build it for that reason the driver reports it as not
// supported there, never as passing, and any other build failure stays an
// error. A benchmark registered without an implementation is listed as not
// supported yet instead of silently dropped.
//
// A benchmark sets up its inputs and host reference once, then run() enqueues
// one complete execution (re-uploading what the kernels modify in place) and
// collects the events of its kernel launches only: the reported time is the
// sum of their CL_PROFILING_COMMAND_START..END, as DESIGN.md section 5 asks.
// A benchmark of the host side (what one clEnqueueNDRangeKernel costs the
// application) times itself instead: run() measures wall-clock time around
// its enqueues and waits and reports it with reportHostMillis().
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_ISSBENCH_BENCHMARK_H
#define POCL_ISS_EXAMPLES_ISSBENCH_BENCHMARK_H

#include "ClTest.h"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace issbench {

enum class Size { Small, Full };

class Benchmark {
public:
  virtual ~Benchmark();
  /// Creates inputs, the host reference and the program. Throws on error.
  virtual void setup(const clt::Env &E, Size S) = 0;
  /// Enqueues one execution; kernel launch events go to \p Events.
  virtual void run(const clt::Env &E, std::vector<cl_event> &Events) = 0;
  /// Reads the results back; returns "" if they match the reference, else
  /// what went wrong (first mismatches).
  virtual std::string verify(const clt::Env &E) = 0;
  /// Problem size in words, for the report.
  virtual std::string describe() const = 0;
  /// The host time of the last run() in milliseconds, for benchmarks that
  /// time the host side; negative for the others (kernel time from events).
  double hostMillis() const { return HostMs; }

protected:
  void reportHostMillis(double Ms) { HostMs = Ms; }
  /// The benchmark's objects, released with it.
  cl_mem buffer(const clt::Env &E, size_t Bytes) {
    Mems.push_back(E.buffer(CL_MEM_READ_WRITE, Bytes));
    return Mems.back();
  }
  cl_kernel kernel(const clt::Env &E, cl_program P, const char *Name) {
    Kernels.push_back(E.kernel(P, Name));
    return Kernels.back();
  }
  cl_program program(const clt::Env &E, const char *Src) {
    Programs.push_back(E.build(Src));
    return Programs.back();
  }

private:
  double HostMs = -1.0;
  // Kernels before programs: members are destroyed in reverse order.
  std::vector<clt::Program> Programs;
  std::vector<clt::Kernel> Kernels;
  std::vector<clt::Mem> Mems;
};

struct BenchmarkInfo {
  std::string Name;
  std::string Origin; ///< suite and kernel(s) it follows
  bool Supported;     ///< false: no implementation (not supported yet)
  std::function<std::unique_ptr<Benchmark>()> Make;
  /// Its kernels use work-group barriers: a platform whose build log blames
  /// a barrier does not support it (reported as such, not as a failure).
  bool UsesBarriers = false;
};

std::vector<BenchmarkInfo> &registry();

struct Registrar {
  Registrar(std::string Name, std::string Origin,
            std::function<std::unique_ptr<Benchmark>()> Make,
            bool UsesBarriers = false) {
    registry().push_back({std::move(Name), std::move(Origin), bool(Make),
                          std::move(Make), UsesBarriers});
  }
};

//===-- Verification helpers
//-----------------------------------------------===//

/// "" if every |Got - Want| <= Abs + Rel * |Want|, else the first mismatches.
template <typename T, typename U>
std::string compareNear(const std::vector<T> &Got, const std::vector<U> &Want,
                        double Rel, double Abs, const std::string &What) {
  size_t Bad = 0;
  std::string Msg;
  for (size_t I = 0; I < Got.size(); ++I) {
    double G = double(Got[I]), W = double(Want[I]);
    if (std::fabs(G - W) <= Abs + Rel * std::fabs(W))
      continue;
    if (++Bad <= 3)
      Msg += " [" + std::to_string(I) + "] got " + std::to_string(G) +
             " want " + std::to_string(W) + ";";
  }
  if (!Bad)
    return "";
  return What + ": " + std::to_string(Bad) + " of " +
         std::to_string(Got.size()) + " differ:" + Msg;
}

template <typename T>
std::string compareExact(const std::vector<T> &Got, const std::vector<T> &Want,
                         const std::string &What) {
  return compareNear(Got, Want, 0.0, 0.0, What);
}

} // namespace issbench

#define ISS_BENCHMARK(Class, Name, Origin)                                     \
  static ::issbench::Registrar Class##Registrar_(Name, Origin, [] {            \
    return std::unique_ptr<::issbench::Benchmark>(new Class);                  \
  })

/// A benchmark whose kernels synchronise with work-group barriers.
#define ISS_BENCHMARK_WITH_BARRIERS(Class, Name, Origin)                       \
  static ::issbench::Registrar Class##Registrar_(                              \
      Name, Origin,                                                            \
      [] { return std::unique_ptr<::issbench::Benchmark>(new Class); }, true)

#define ISS_UNSUPPORTED(Id, Name, Origin)                                      \
  static ::issbench::Registrar Id##Registrar_(Name, Origin, nullptr)

#endif // POCL_ISS_EXAMPLES_ISSBENCH_BENCHMARK_H
