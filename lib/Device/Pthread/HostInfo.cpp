//===- HostInfo.cpp - What the pthread device knows about the host --------===//
// SPDX-License-Identifier: MIT
//
// hwloc for cores and caches (as pocl's pthread device does), sysconf for
// memory, /proc/cpuinfo and cpufreq for the name and clock.
//
//===----------------------------------------------------------------------===//

#include "Device/Pthread/HostInfo.h"

#include "pocl-iss/Env.h"

#include <hwloc.h>

#include <fstream>
#include <mutex>
#include <unistd.h>

namespace iss {

static hwloc_topology_t Topology = nullptr;

static uint64_t cacheSize(hwloc_obj_type_t Type, unsigned *Line) {
  hwloc_obj_t Obj = hwloc_get_obj_by_type(Topology, Type, 0);
  if (!Obj || !Obj->attr)
    return 0;
  if (Line && Obj->attr->cache.linesize)
    *Line = Obj->attr->cache.linesize;
  return Obj->attr->cache.size;
}

static HostInfo detect() {
  HostInfo H;
  if (hwloc_topology_init(&Topology) == 0 &&
      hwloc_topology_load(Topology) == 0) {
    int Cores = hwloc_get_nbobjs_by_type(Topology, HWLOC_OBJ_CORE);
    int PUs = hwloc_get_nbobjs_by_type(Topology, HWLOC_OBJ_PU);
    H.Cores = Cores > 0 ? Cores : (PUs > 0 ? PUs : 1);
    H.ProcessingUnits = PUs > 0 ? PUs : H.Cores;
    H.L1Size = cacheSize(HWLOC_OBJ_L1CACHE, &H.CachelineSize);
    H.L2Size = cacheSize(HWLOC_OBJ_L2CACHE, nullptr);
    H.L3Size = cacheSize(HWLOC_OBJ_L3CACHE, nullptr);
  } else {
    debugLog(DbgWarning, "hwloc failed; assuming one core");
    if (Topology)
      hwloc_topology_destroy(Topology);
    Topology = nullptr;
    long N = sysconf(_SC_NPROCESSORS_ONLN);
    H.Cores = H.ProcessingUnits = N > 0 ? static_cast<unsigned>(N) : 1;
  }
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGE_SIZE);
  if (Pages > 0 && PageSize > 0)
    H.MemorySize = static_cast<uint64_t>(Pages) * PageSize;
  else
    H.MemorySize = 1ull << 30;

  std::ifstream CpuInfo("/proc/cpuinfo");
  std::string Line;
  double MHz = 0;
  while (std::getline(CpuInfo, Line)) {
    auto Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Key =
        Line.substr(0, Line.find_last_not_of(" \t", Colon - 1) + 1);
    std::string Val = Line.substr(Colon + 1);
    Val.erase(0, Val.find_first_not_of(' '));
    if (Key == "model name" && H.CPUName.empty())
      H.CPUName = Val;
    else if (Key == "cpu MHz" && MHz == 0)
      MHz = std::atof(Val.c_str());
  }
  std::ifstream MaxFreq(
      "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  unsigned long KHz = 0;
  if (MaxFreq >> KHz && KHz)
    H.MaxClockMHz = static_cast<unsigned>(KHz / 1000);
  else
    H.MaxClockMHz = static_cast<unsigned>(MHz);
  if (H.CPUName.empty())
    H.CPUName = "Unknown CPU";
  return H;
}

const HostInfo &hostInfo() {
  static const HostInfo H = detect();
  return H;
}

void bindThreadToCore(unsigned Index) {
  hostInfo();
  if (!Topology)
    return;
  int Cores = hwloc_get_nbobjs_by_type(Topology, HWLOC_OBJ_CORE);
  hwloc_obj_type_t Type = Cores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
  int N = hwloc_get_nbobjs_by_type(Topology, Type);
  if (N <= 0)
    return;
  hwloc_obj_t Obj = hwloc_get_obj_by_type(Topology, Type, Index % N);
  if (!Obj || hwloc_set_cpubind(Topology, Obj->cpuset, HWLOC_CPUBIND_THREAD))
    debugLog(DbgDevice, "could not pin thread %u to a core", Index);
}

} // namespace iss
