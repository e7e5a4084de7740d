//===- ReadBack.cpp - What reading a result back costs the host -----------===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// The host's cost of reading a 16 MiB buffer back: 20 blocking
// clEnqueueReadBuffer calls per run, each into the same host vector, timed
// on the host with a steady clock. On pocl-iss that is a copy out of host
// memory; through a forwarding runtime (PoCL-Remote) it is the transfer
// over the network, which this measures beside direct use. What is
// reported is the time per read in milliseconds; 16 MiB over it is the
// rate. Every read is verified against the pattern the buffer was filled
// with, outside the timed calls. Not one of the paper's benchmarks: run it
// by name.
//
//===----------------------------------------------------------------------===//

#include "Benchmark.h"

#include <chrono>

using namespace clt;

namespace issbench {
namespace {

constexpr size_t Bytes = size_t(16) << 20, Words = Bytes / sizeof(cl_uint);
constexpr int Reads = 20;

class ReadBack : public Benchmark {
  cl_mem DBuf = nullptr;
  std::vector<cl_uint> Want, Got;
  std::string Mismatch;

public:
  void setup(const clt::Env &E, Size) override {
    Want.resize(Words);
    for (size_t I = 0; I < Words; ++I)
      Want[I] = cl_uint(I * 2654435761u) ^ cl_uint(I >> 7);
    DBuf = buffer(E, Bytes);
    E.write(DBuf, Want);
    Got.assign(Words, 0);
  }

  void run(const clt::Env &E, std::vector<cl_event> &) override {
    std::chrono::duration<double, std::milli> Ms{0};
    for (int R = 0; R < Reads; ++R) {
      std::fill(Got.begin(), Got.end(), 0);
      auto Start = std::chrono::steady_clock::now();
      CL_CHECK(clEnqueueReadBuffer(E.Q, DBuf, CL_TRUE, 0, Bytes, Got.data(), 0,
                                   nullptr, nullptr));
      Ms += std::chrono::steady_clock::now() - Start;
      if (Mismatch.empty())
        Mismatch = compareExact(Got, Want, "read " + std::to_string(R));
    }
    reportHostMillis(Ms.count() / Reads);
  }

  std::string verify(const clt::Env &E) override {
    if (!Mismatch.empty())
      return Mismatch;
    E.read(DBuf, Got);
    return compareExact(Got, Want, "buffer");
  }

  std::string describe() const override {
    return "16 MiB read back, " + std::to_string(Reads) +
           " blocking reads; host time, ms per read";
  }
};

ISS_BENCHMARK(ReadBack, "read-back", "pocl-iss: a 16 MiB blocking read");

} // namespace
} // namespace issbench
