//===- Vendors.h - The ICD vendors folder of the benchmark drivers -*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// iss-bench and compile-bench measure pocl-iss and Debian's pocl in one run
// through the same ICD loader: their children run with OCL_ICD_VENDORS set
// to a folder that holds pocl-iss.icd (found next to the build's binaries
// unless named) and every .icd of /etc/OpenCL/vendors. Errors end the
// program with one line naming the tool, as its own die() does.
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_COMMON_VENDORS_H
#define POCL_ISS_EXAMPLES_COMMON_VENDORS_H

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <iostream>
#include <limits.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace vendors {

[[noreturn]] inline void fail(const char *Tool, const std::string &Msg) {
  std::cerr << Tool << ": " << Msg << "\n";
  std::exit(2);
}

inline bool exists(const std::string &P) {
  struct stat St;
  return stat(P.c_str(), &St) == 0;
}

/// This executable's path, to run children of it.
inline std::string selfPath(const char *Tool) {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    fail(Tool, "cannot find my own executable (/proc/self/exe)");
  Buf[N] = 0;
  return Buf;
}

/// The OCL_ICD_VENDORS folder: \p Vendors (--vendors) when given, or a
/// temporary folder with links to \p IssIcd (--iss-icd; by default
/// <build>/vendors/pocl-iss.icd, found up from this executable) and every
/// system .icd, so that Debian's pocl is the baseline in the same run.
/// Without a pocl-iss.icd it is an error when \p RequireIss, else a warning
/// and the system's platforms alone. Returns the folder and whether it is
/// temporary (removeVendors).
inline std::pair<std::string, bool>
prepareVendors(const char *Tool, const std::string &Vendors,
               const std::string &IssIcd, bool RequireIss) {
  if (!Vendors.empty()) {
    if (!exists(Vendors))
      fail(Tool, "--vendors folder '" + Vendors + "' does not exist");
    return {Vendors, false};
  }
  std::string Icd = IssIcd;
  if (Icd.empty()) {
    // <build>/examples/<tool> -> <build>/vendors/pocl-iss.icd
    std::string Dir = selfPath(Tool);
    for (int Up = 0; Up < 3 && Icd.empty(); ++Up) {
      Dir = Dir.substr(0, Dir.rfind('/'));
      if (exists(Dir + "/vendors/pocl-iss.icd"))
        Icd = Dir + "/vendors/pocl-iss.icd";
    }
  } else if (!exists(Icd)) {
    fail(Tool, "--iss-icd file '" + Icd + "' does not exist");
  }
  if (Icd.empty()) {
    if (RequireIss)
      fail(Tool, "no pocl-iss.icd (use --iss-icd or --vendors)");
    std::cerr << Tool
              << ": warning: no pocl-iss.icd found (use --iss-icd); "
                 "measuring /etc/OpenCL/vendors only\n";
  }
  std::string Tmpl = std::string("/tmp/") + Tool + "-vendors-XXXXXX";
  if (!mkdtemp(Tmpl.data()))
    fail(Tool, std::string("mkdtemp: ") + std::strerror(errno));
  std::string Dir = Tmpl;
  if (!Icd.empty()) {
    char Real[PATH_MAX];
    if (symlink(realpath(Icd.c_str(), Real) ? Real : Icd.c_str(),
                (Dir + "/pocl-iss.icd").c_str()) != 0)
      fail(Tool, "cannot link " + Icd);
  }
  if (DIR *D = opendir("/etc/OpenCL/vendors")) {
    while (dirent *Ent = readdir(D)) {
      std::string N = Ent->d_name;
      if (N.size() > 4 && N.substr(N.size() - 4) == ".icd" &&
          N != "pocl-iss.icd" &&
          symlink(("/etc/OpenCL/vendors/" + N).c_str(),
                  (Dir + "/" + N).c_str()) != 0)
        std::cerr << Tool << ": cannot link " << N << "\n";
    }
    closedir(D);
  }
  return {Dir, true};
}

/// Removes a folder prepareVendors made.
inline void removeVendors(const std::string &Dir) {
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *Ent = readdir(D))
      if (Ent->d_name[0] != '.')
        unlink((Dir + "/" + Ent->d_name).c_str());
    closedir(D);
  }
  rmdir(Dir.c_str());
}

} // namespace vendors

#endif // POCL_ISS_EXAMPLES_COMMON_VENDORS_H
