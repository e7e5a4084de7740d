//===- DriverOptions.h - The benchmark drivers' shared options --*- C++ -*-===//
//
// SPDX-License-Identifier: MIT
//
//===----------------------------------------------------------------------===//
//
// iss-bench, compile-bench and startup-bench take options with a value (whole
// numbers within bounds, lists as a,b,c: --platforms and the like), pick
// platforms by a case-insensitive part of their name, and name them in their
// reports by a short label: pocl-iss, pocl for Debian's pocl (the baseline),
// the name for any other. A bad option ends the program with one line naming
// the tool (vendors::fail).
//
//===----------------------------------------------------------------------===//

#ifndef POCL_ISS_EXAMPLES_COMMON_DRIVEROPTIONS_H
#define POCL_ISS_EXAMPLES_COMMON_DRIVEROPTIONS_H

#include "ClTest.h"
#include "Vendors.h"

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace driver {

/// The value of option Argv[I], Argv[I + 1]; I moves on to it.
inline std::string optionValue(const char *Tool, int Argc, char **Argv,
                               int &I) {
  if (I + 1 >= Argc)
    vendors::fail(Tool, std::string("missing value after ") + Argv[I]);
  return Argv[++I];
}

/// \p S as a whole number from \p Lo to \p Hi, the value of option \p What.
inline int parseInt(const char *Tool, const std::string &S, const char *What,
                    int Lo, int Hi) {
  char *End;
  long V = std::strtol(S.c_str(), &End, 10);
  if (S.empty() || *End || V < Lo || V > Hi)
    vendors::fail(Tool, std::string("bad value for ") + What + ": '" + S +
                            "' (" + std::to_string(Lo) + " to " +
                            std::to_string(Hi) + ")");
  return int(V);
}

/// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> V;
  std::stringstream SS(S);
  std::string Item;
  while (std::getline(SS, Item, ','))
    if (!Item.empty())
      V.push_back(Item);
  return V;
}

/// Whether --platforms \p Filter wants the platform \p Name: an empty
/// filter wants every platform, else one of its parts must be in the name.
inline bool wantedPlatform(const std::string &Name,
                           const std::vector<std::string> &Filter) {
  bool Wanted = Filter.empty();
  for (const std::string &F : Filter)
    Wanted |= clt::lower(Name).find(clt::lower(F)) != std::string::npos;
  return Wanted;
}

/// The short name of a platform in the reports: "pocl-iss", "pocl" for
/// Debian's, else the name with characters other than letters and digits
/// as '-' (it names columns and files).
inline std::string platformLabel(const std::string &Name) {
  if (clt::isPoclIss(Name))
    return "pocl-iss";
  if (Name == "Portable Computing Language")
    return "pocl";
  std::string L;
  for (char C : Name)
    L += std::isalnum(static_cast<unsigned char>(C)) ? C : '-';
  return L;
}

} // namespace driver

#endif // POCL_ISS_EXAMPLES_COMMON_DRIVEROPTIONS_H
