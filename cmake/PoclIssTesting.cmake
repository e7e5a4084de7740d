# Helpers for the OpenCL host programs (tests and examples): every test that
# runs OpenCL code goes through the real ICD loader with OCL_ICD_VENDORS
# pointing at the build tree's vendors/ folder.

set(POCL_ISS_MODES scalar vec split score split+score)
# POCL_ISS_TIERED=0: each mode's tests run that mode's code from the first
# launch. add_kernel_test registers the tiered runs too (what users get).
set(POCL_ISS_TEST_ENV
  "OCL_ICD_VENDORS=${PROJECT_BINARY_DIR}/vendors"
  "OCL_ICD_FILENAMES="
  "POCL_CACHE_DIR=${PROJECT_BINARY_DIR}/test-kcache"
  "POCL_ISS_TIERED=0"
  ${POCL_ISS_SANITIZER_ENV})

# pocl_iss_opencl_host(<target> <CL_TARGET_OPENCL_VERSION>): an OpenCL host
# program of the tree (test or example) with the shared harness
# tests/common/ClTest.h, linked against the ICD loader only, never against
# libpocl-iss directly.
function(pocl_iss_opencl_host TARGET VERSION)
  target_include_directories(${TARGET} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common
                                               ${OPENCL_INCLUDE_DIR})
  target_compile_definitions(${TARGET} PRIVATE CL_TARGET_OPENCL_VERSION=${VERSION}
    CL_USE_DEPRECATED_OPENCL_1_2_APIS CL_USE_DEPRECATED_OPENCL_1_1_APIS
    CL_USE_DEPRECATED_OPENCL_1_0_APIS)
  target_link_libraries(${TARGET} PRIVATE ${OPENCL_ICD_LOADER} Threads::Threads m)
endfunction()

# add_runtime_test(<name> <sources>...): one executable per API area. With
# ClTest.cpp among the sources, the harness's runner is its main. Exit code
# 77 is a skip.
function(add_runtime_test NAME)
  add_executable(${NAME} ${ARGN})
  pocl_iss_opencl_host(${NAME} 300)
  add_dependencies(${NAME} pocl-iss)
  add_test(NAME ${NAME} COMMAND ${NAME})
  set_tests_properties(${NAME} PROPERTIES ENVIRONMENT "${POCL_ISS_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT ${POCL_ISS_TEST_TIMEOUT})
endfunction()

# A command prefix that skips (77) on a host without the features the avx2
# kernel library variant needs (lib/Compiler/Target.cpp).
set(POCL_ISS_IF_AVX2 ${PROJECT_SOURCE_DIR}/cmake/if-cpu-has.sh avx2 fma bmi2 f16c --)

# add_kernel_test(<name> <sources>...): an end-to-end test run by the
# harness's runner, registered once per POCL_ISS_MODE (all modes must give
# the host reference's results); the default mode's carries the label
# default-mode (CI's sanitizer runs take those, scripts/test-sanitizers.sh).
# Each mode runs once more with POCL_ISS_TARGET=avx2 (<name>.<mode>-avx2,
# label target): the AVX2 code path, whatever the host's best; skipped on a
# host without AVX2.
function(add_kernel_test NAME)
  add_executable(${NAME} ${ARGN} ${PROJECT_SOURCE_DIR}/tests/common/ClTest.cpp)
  pocl_iss_opencl_host(${NAME} 300)
  add_dependencies(${NAME} pocl-iss)
  foreach(MODE ${POCL_ISS_MODES})
    add_test(NAME ${NAME}.${MODE} COMMAND ${NAME})
    set(_iss_labels kernel)
    if(MODE STREQUAL "split+score")
      list(APPEND _iss_labels default-mode)
    endif()
    set_tests_properties(${NAME}.${MODE} PROPERTIES
      ENVIRONMENT "${POCL_ISS_TEST_ENV};POCL_ISS_MODE=${MODE}"
      SKIP_RETURN_CODE 77 TIMEOUT ${POCL_ISS_TEST_TIMEOUT}
      LABELS "${_iss_labels}")
    add_test(NAME ${NAME}.${MODE}-avx2
             COMMAND ${POCL_ISS_IF_AVX2} $<TARGET_FILE:${NAME}>)
    set_tests_properties(${NAME}.${MODE}-avx2 PROPERTIES
      ENVIRONMENT "${POCL_ISS_TEST_ENV};POCL_ISS_MODE=${MODE};POCL_ISS_TARGET=avx2"
      SKIP_RETURN_CODE 77 TIMEOUT ${POCL_ISS_TEST_TIMEOUT}
      LABELS "kernel;target")
    # The modes that tier, as users run them: `vec`'s code first, the
    # mode's once the compiler process has it, every result checked either
    # way. Without a kernel cache, so that each run takes the tiered path
    # and its compiler process ends with it.
    if(MODE MATCHES "^(split|score|split\\+score)$")
      add_test(NAME ${NAME}.${MODE}.tiered COMMAND ${NAME})
      set_tests_properties(${NAME}.${MODE}.tiered PROPERTIES
        ENVIRONMENT "${POCL_ISS_TEST_ENV};POCL_ISS_MODE=${MODE};POCL_ISS_TIERED=1;POCL_KERNEL_CACHE=0"
        SKIP_RETURN_CODE 77 TIMEOUT ${POCL_ISS_TEST_TIMEOUT}
        LABELS "kernel;tiered")
    endif()
  endforeach()
endfunction()
