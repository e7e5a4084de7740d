//===- pocl-iss-compile.cpp - The compiler process of tiered launches -----===//
// SPDX-License-Identifier: MIT
//
// Started by libpocl-iss.so, never by hand: loads the library that started
// it (its path is the first argument) and serves that application's
// compiles on the socket given as the second (lib/Compiler/
// CompilerProcess.cpp). Loading the very same library makes its cache keys
// and its code the application's.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    std::fprintf(stderr, "pocl-iss-compile: started by libpocl-iss.so for its "
                         "compiles (arguments: the library, a socket)\n");
    return 2;
  }
  void *Lib = dlopen(Argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    std::fprintf(stderr, "pocl-iss-compile: %s\n", dlerror());
    return 1;
  }
  using ServeFn = int (*)(int);
  auto Serve = reinterpret_cast<ServeFn>(dlsym(Lib, "pocl_iss_compiler_serve"));
  if (!Serve) {
    std::fprintf(stderr, "pocl-iss-compile: %s is not pocl-iss's library\n",
                 Argv[1]);
    return 1;
  }
  return Serve(std::atoi(Argv[2]));
}
