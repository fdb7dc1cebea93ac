# Finds dgk's dependencies. Kokkos is never owned here: a parent project may provide it.

# A CUDA build meant to be carried to another machine links the CUDA runtime statically: the
# CUDA::cudart target that Kokkos's package would import (the shared library) is defined first,
# pointing at the static archive.
option(DGK_CUDA_STATIC_RUNTIME "Link the CUDA runtime statically (CUDA builds)" OFF)
if(DGK_CUDA_STATIC_RUNTIME AND NOT TARGET CUDA::cudart)
  find_library(DGK_CUDART_STATIC cudart_static REQUIRED)
  find_package(Threads REQUIRED)
  add_library(CUDA::cudart STATIC IMPORTED)
  set_target_properties(CUDA::cudart PROPERTIES IMPORTED_LOCATION ${DGK_CUDART_STATIC}
                        INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS};rt")
endif()

if(NOT TARGET Kokkos::kokkos)
  find_package(Kokkos 3.4 REQUIRED)
endif()
if(NOT TARGET Kokkos::kokkoskernels)
  find_package(KokkosKernels REQUIRED)
endif()
find_package(Eigen3 3.3 REQUIRED NO_MODULE)

if(Kokkos_ENABLE_CUDA)
  kokkos_check(OPTIONS CUDA_LAMBDA)
  set(DGK_ENABLE_CUDA ON)
  # Which ptxas assembles the device code: scripts/deps.sh's compiler wrapper answers
  # --dgk-codegen (another compiler leaves it unknown). Recorded in the reports and in the key of
  # tuned choices on the GPU.
  if(NOT DEFINED DGK_CUDA_CODEGEN)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} --dgk-codegen OUTPUT_VARIABLE _dgk_codegen
                    RESULT_VARIABLE _dgk_codegen_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_dgk_codegen_rc EQUAL 0 AND _dgk_codegen MATCHES "^ptxas [0-9.]+$")
      set(DGK_CUDA_CODEGEN "${_dgk_codegen}" CACHE STRING "The ptxas that assembles the device code")
    else()
      set(DGK_CUDA_CODEGEN "" CACHE STRING "The ptxas that assembles the device code")
    endif()
  endif()
  if(DGK_CUDA_CODEGEN)
    message(STATUS "dgk: device code assembled by ${DGK_CUDA_CODEGEN}")
  endif()
else()
  set(DGK_ENABLE_CUDA OFF)
endif()

if(DGK_ENABLE_GMSH)
  find_path(DGK_GMSH_INCLUDE_DIR gmsh.h REQUIRED)
  find_library(DGK_GMSH_LIBRARY gmsh REQUIRED)
endif()

if(DGK_ENABLE_HDF5)
  # FindHDF5 test-compiles a C file.
  enable_language(C)
  if(DGK_HDF5_STATIC)
    set(HDF5_USE_STATIC_LIBRARIES ON)
  endif()
  find_package(HDF5 REQUIRED COMPONENTS C)
  if(DGK_HDF5_STATIC)
    # FindHDF5 lists the compression filters as shared libraries, and libraries only the S3 file
    # driver (unused by dgk) needs: keep the static HDF5 and link its filters statically too.
    set(dgk_hdf5_static "")
    foreach(lib IN LISTS HDF5_C_LIBRARIES)
      if(lib MATCHES "libhdf5\\.a$")
        list(APPEND dgk_hdf5_static "${lib}")
      endif()
    endforeach()
    if(NOT dgk_hdf5_static)
      message(FATAL_ERROR "DGK_HDF5_STATIC: no static HDF5 library among '${HDF5_C_LIBRARIES}' (Debian: libhdf5-dev)")
    endif()
    foreach(filter sz aec z)
      find_library(DGK_HDF5_FILTER_${filter} NAMES lib${filter}.a)
      if(NOT DGK_HDF5_FILTER_${filter})
        message(FATAL_ERROR "DGK_HDF5_STATIC: no static lib${filter}.a for HDF5's filters (Debian: libaec-dev, zlib1g-dev)")
      endif()
      list(APPEND dgk_hdf5_static "${DGK_HDF5_FILTER_${filter}}")
    endforeach()
    set(HDF5_C_LIBRARIES ${dgk_hdf5_static} ${CMAKE_DL_LIBS} m)
  endif()
endif()

if(DGK_ENABLE_MPI)
  find_package(MPI REQUIRED COMPONENTS CXX)
endif()
if(DGK_ENABLE_METIS)
  find_path(DGK_METIS_INCLUDE_DIR metis.h REQUIRED)
  find_library(DGK_METIS_LIBRARY metis REQUIRED)
endif()

# Warnings and sanitizers are applied per target through this interface library, which is
# not installed (it is linked with BUILD_INTERFACE only).
add_library(dgk_build_options INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT DGK_ENABLE_CUDA)
  target_compile_options(dgk_build_options INTERFACE -Wall -Wextra -Wno-unused-parameter)
endif()
if(DGK_ENABLE_CUDA)
  # A host function called from device code compiles with a warning and does not work on the
  # GPU: make it an error.
  target_compile_options(dgk_build_options INTERFACE "SHELL:-Xcudafe --diag_error=20011")
endif()
if(DGK_ENABLE_SANITIZERS)
  target_compile_options(dgk_build_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(dgk_build_options INTERFACE -fsanitize=address,undefined)
endif()

# dgk_add_component(<name> [SOURCES ...] [DEPENDS ...] [PRIVATE ...])
# A static library dgk_<name>, exported as dgk::<name>, with headers in <name>/include.
function(dgk_add_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS;PRIVATE" ${ARGN})
  add_library(dgk_${name} STATIC ${ARG_SOURCES})
  add_library(dgk::${name} ALIAS dgk_${name})
  set_target_properties(dgk_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_compile_features(dgk_${name} PUBLIC cxx_std_17)
  target_include_directories(dgk_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(dgk_${name} PUBLIC ${ARG_DEPENDS} PRIVATE ${ARG_PRIVATE}
                        $<BUILD_INTERFACE:dgk_build_options>)
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set_property(GLOBAL APPEND PROPERTY DGK_COMPONENTS dgk_${name})
endfunction()
