/* iss_kernel.h - pocl-iss's entry to pocl's kernel headers.
 * SPDX-License-Identifier: MIT
 *
 * Debian's pocl 3.1 _kernel.h accepts Clang 10 to 16 only and stops with
 * "#error Unsupported Clang/LLVM version" under Clang 19. Its contents do not
 * depend on the version beyond that gate (CLANG_MAJOR stays a reference to
 * __clang_major__), so the gate alone is passed by presenting 16 while the
 * header is read, and the real value is restored right after. */
#pragma push_macro("__clang_major__")
#undef __clang_major__
#define __clang_major__ 16
#include <_kernel.h>
#pragma pop_macro("__clang_major__")
