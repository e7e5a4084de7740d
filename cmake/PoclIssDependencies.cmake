# Finds LLVM, Clang and Polly 19 (Debian's packages), the OpenCL headers, the
# ICD loader, hwloc and pocl's kernel library; see DESIGN.md section 4.

find_package(LLVM 19.1 REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm)
find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/clang)
find_package(Polly REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/polly)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_TOOLS_BINARY_DIR}")

find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)

find_path(OPENCL_INCLUDE_DIR CL/cl_icd.h REQUIRED)
find_library(OPENCL_ICD_LOADER OpenCL REQUIRED)

set(POCL_KERNEL_LIB_DIR "/usr/share/pocl" CACHE PATH
    "Folder of pocl's kernel library (kernel-<triple>-<variant>.bc) and include/")
if(NOT EXISTS "${POCL_KERNEL_LIB_DIR}/include/_kernel.h")
  message(FATAL_ERROR "pocl's kernel headers not found in ${POCL_KERNEL_LIB_DIR}; "
                      "install libpocl2 and libpocl2-common")
endif()

# Everything that includes LLVM, Clang or Polly headers goes through this
# interface target, so the heavy include paths stay on the compiler library.
add_library(pocl-iss-llvm INTERFACE)
target_include_directories(pocl-iss-llvm SYSTEM INTERFACE
  ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS} ${Polly_INCLUDE_DIRS})
target_compile_definitions(pocl-iss-llvm INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(pocl-iss-llvm INTERFACE clang-cpp LLVM)
if(NOT LLVM_ENABLE_RTTI)
  target_compile_options(pocl-iss-llvm INTERFACE -fno-rtti)
endif()

set(POCL_ISS_LIT "/usr/lib/llvm-19/build/utils/lit/lit.py")
set(POCL_ISS_LLVM_BIN "/usr/lib/llvm-19/bin")
