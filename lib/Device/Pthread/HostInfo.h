//===- HostInfo.h - What the pthread device knows about the host -*- C++
//-*-===//
// SPDX-License-Identifier: MIT
//
// The facts clGetDeviceInfo reports and the worker pool is sized by: cores
// and caches from hwloc, memory from the system, the CPU's name. Read once;
// hwloc's topology is kept for pinning threads (POCL_AFFINITY).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_DEVICE_PTHREAD_HOSTINFO_H
#define POCL_ISS_DEVICE_PTHREAD_HOSTINFO_H

#include <cstdint>
#include <string>

namespace iss {

struct HostInfo {
  unsigned Cores = 1; ///< physical cores (hwloc), at least 1
  unsigned ProcessingUnits = 1;
  uint64_t L1Size = 0, L2Size = 0, L3Size = 0;
  unsigned CachelineSize = 64;
  uint64_t MemorySize = 0; ///< physical memory in bytes
  unsigned MaxClockMHz = 0;
  std::string CPUName; ///< /proc/cpuinfo "model name"
};

/// Detected on first call.
const HostInfo &hostInfo();

/// Pins the calling thread to core \p Index (modulo the core count); a
/// failure only costs performance, so it is logged and ignored.
void bindThreadToCore(unsigned Index);

} // namespace iss

#endif // POCL_ISS_DEVICE_PTHREAD_HOSTINFO_H
