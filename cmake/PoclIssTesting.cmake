# Test helpers: every test that runs OpenCL code goes through the real ICD
# loader with OCL_ICD_VENDORS pointing at the build tree's vendors/ folder.

set(POCL_ISS_MODES scalar vec split score split+score)
set(POCL_ISS_TEST_ENV
  "OCL_ICD_VENDORS=${PROJECT_BINARY_DIR}/vendors"
  "OCL_ICD_FILENAMES="
  "POCL_CACHE_DIR=${PROJECT_BINARY_DIR}/test-kcache"
  ${POCL_ISS_SANITIZER_ENV})

# add_runtime_test(<name> <sources>...): one executable per API area, linked
# against the ICD loader (never against libpocl-iss directly). Exit code 77
# is a skip.
function(add_runtime_test NAME)
  add_executable(${NAME} ${ARGN})
  target_include_directories(${NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common
                                             ${OPENCL_INCLUDE_DIR})
  target_compile_definitions(${NAME} PRIVATE CL_TARGET_OPENCL_VERSION=300
    CL_USE_DEPRECATED_OPENCL_1_2_APIS CL_USE_DEPRECATED_OPENCL_1_1_APIS
    CL_USE_DEPRECATED_OPENCL_1_0_APIS)
  target_link_libraries(${NAME} PRIVATE ${OPENCL_ICD_LOADER} Threads::Threads)
  add_dependencies(${NAME} pocl-iss)
  add_test(NAME ${NAME} COMMAND ${NAME})
  set_tests_properties(${NAME} PROPERTIES ENVIRONMENT "${POCL_ISS_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 600)
endfunction()

# add_kernel_test(<name> <sources>...): an end-to-end test, registered once
# per POCL_ISS_MODE (all modes must give the host reference's results).
function(add_kernel_test NAME)
  add_executable(${NAME} ${ARGN})
  target_include_directories(${NAME} PRIVATE ${PROJECT_SOURCE_DIR}/tests/common
                                             ${OPENCL_INCLUDE_DIR})
  target_compile_definitions(${NAME} PRIVATE CL_TARGET_OPENCL_VERSION=300
    CL_USE_DEPRECATED_OPENCL_1_2_APIS)
  target_link_libraries(${NAME} PRIVATE ${OPENCL_ICD_LOADER} Threads::Threads m)
  add_dependencies(${NAME} pocl-iss)
  foreach(MODE ${POCL_ISS_MODES})
    add_test(NAME ${NAME}.${MODE} COMMAND ${NAME})
    set_tests_properties(${NAME}.${MODE} PROPERTIES
      ENVIRONMENT "${POCL_ISS_TEST_ENV};POCL_ISS_MODE=${MODE}"
      SKIP_RETURN_CODE 77 TIMEOUT 600)
  endforeach()
endfunction()
