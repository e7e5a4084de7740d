# Compiler warnings for our own code: -Wall -Wextra everywhere, and with
# POCL_ISS_WERROR=ON (CI turns it on, .ci/run) every warning fails the
# build. LLVM's, Clang's and Polly's headers come in as system headers
# (the pocl-iss-llvm target in PoclIssDependencies.cmake), so their
# warnings do not count.

option(POCL_ISS_WERROR "Make compiler warnings errors" OFF)

add_compile_options(-Wall -Wextra)
if(POCL_ISS_WERROR)
  add_compile_options(-Werror)
endif()
