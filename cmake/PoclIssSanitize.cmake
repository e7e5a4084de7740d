# POCL_ISS_SANITIZE: builds the whole tree (library, tools, tests, examples)
# with GCC's or Clang's sanitizers, for hunting memory errors, undefined
# behaviour and data races in the runtime, the device and the compiler:
#
#   cmake -S . -B build-asan -DPOCL_ISS_SANITIZE=address,undefined
#   cmake -S . -B build-tsan -DPOCL_ISS_SANITIZE=thread
#
# The tests then run as usual (ctest); any report fails the test that made
# it. What stays uninstrumented: LLVM, Clang, the ICD loader and the JIT'd
# kernels. The ICD loader opens libpocl-iss.so without RTLD_DEEPBIND, so the
# sanitizer runtime linked into each test executable serves the library too.

set(POCL_ISS_SANITIZE "" CACHE STRING
    "Sanitizers for the whole tree: address, undefined, address,undefined or thread (empty: none)")

set(POCL_ISS_SANITIZER_ENV "")
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
  # sees it; frame pointers keep the reports' stacks whole.
  add_compile_options(-fsanitize=${POCL_ISS_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${POCL_ISS_SANITIZE})
  set(POCL_ISS_SANITIZER_ENV "UBSAN_OPTIONS=print_stacktrace=1")
  message(STATUS "Sanitizers: ${POCL_ISS_SANITIZE}")
endif()
