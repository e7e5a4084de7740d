# POCL_ISS_SANITIZE: builds the whole tree (library, tools, tests, examples)
# with GCC's or Clang's sanitizers, for hunting memory errors, undefined
# behaviour and data races in the runtime, the device and the compiler:
#
#   cmake -S . -B build-asan -DPOCL_ISS_SANITIZE=address,undefined
#   cmake -S . -B build-tsan -DPOCL_ISS_SANITIZE=thread
#
# The tests then run as usual (ctest); any report fails the test that made
# it. Sanitized code runs several times slower: the tests' own time limits
# and CTest's are POCL_ISS_TEST_TIME_SCALE times longer there (4 for
# address and undefined, 8 for thread; ISS_TEST_TIME_SCALE in the tests'
# environment, tests/common/ClTest.h). What stays uninstrumented: LLVM, Clang, the ICD loader and the JIT'd
# kernels. The ICD loader opens libpocl-iss.so without RTLD_DEEPBIND, so the
# sanitizer runtime linked into each test executable serves the library too.

set(POCL_ISS_SANITIZE "" CACHE STRING
    "Sanitizers for the whole tree: address, undefined, address,undefined or thread (empty: none)")

set(POCL_ISS_SANITIZER_ENV "")
set(POCL_ISS_TEST_TIME_SCALE 1)
if(POCL_ISS_SANITIZE)
  string(REPLACE "," ";" _iss_sanitizers "${POCL_ISS_SANITIZE}")
  foreach(_iss_s ${_iss_sanitizers})
    if(NOT _iss_s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "POCL_ISS_SANITIZE='${POCL_ISS_SANITIZE}': "
              "'${_iss_s}' is not one of address, undefined, thread")
    endif()
  endforeach()
  if("thread" IN_LIST _iss_sanitizers AND "address" IN_LIST _iss_sanitizers)
    message(FATAL_ERROR "POCL_ISS_SANITIZE: thread and address cannot be combined")
  endif()
  # Every report is fatal (undefined behaviour included), so that ctest
  # sees it; frame pointers keep the reports' stacks whole, and line tables
  # (-g1) are all their symbolization needs. -O1 (after the build type's
  # -O3, so it wins) is the sanitizers' usual level and halves the build
  # time of the files that include LLVM's headers (CI builds these trees
  # from scratch); the run time is mostly LLVM's and the kernels', which
  # are not instrumented.
  add_compile_options(-fsanitize=${POCL_ISS_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g1 -O1)
  add_link_options(-fsanitize=${POCL_ISS_SANITIZE})
  if("thread" IN_LIST _iss_sanitizers)
    set(POCL_ISS_TEST_TIME_SCALE 8)
  else()
    set(POCL_ISS_TEST_TIME_SCALE 4)
  endif()
  # A ThreadSanitizer report stops the process at once, with status 66.
  set(POCL_ISS_SANITIZER_ENV "UBSAN_OPTIONS=print_stacktrace=1"
      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1"
      "ISS_TEST_TIME_SCALE=${POCL_ISS_TEST_TIME_SCALE}")
  message(STATUS "Sanitizers: ${POCL_ISS_SANITIZE}")
endif()
# CTest's limit per test (TIMEOUT) for the tests that set one.
math(EXPR POCL_ISS_TEST_TIMEOUT "600 * ${POCL_ISS_TEST_TIME_SCALE}")
