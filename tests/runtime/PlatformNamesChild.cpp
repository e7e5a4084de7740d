//===- PlatformNamesChild.cpp - Lists the platforms' names ----------------===//
// SPDX-License-Identifier: MIT
//
// What runtime-platform starts with POCL_PLATFORM_NAME_OVERRIDE set (the
// settings are read once per process): prints CL_PLATFORM_NAME of every
// platform the ICD loader finds, one per line.
//
//===----------------------------------------------------------------------===//

#include "ClTest.h"

int main() {
  std::vector<cl_platform_id> Ps = clt::platforms();
  for (cl_platform_id P : Ps)
    std::printf("%s\n", clt::platformName(P).c_str());
  return Ps.empty() ? 1 : 0;
}
