# Finds what fluxview builds with. Required: toml++, CLI11, nlohmann-json, OpenMP.
# Optional, each switched on when found: CUDA, GUI (GLFW, libepoxy, ImGui sources),
# EGL (headless rendering), FFmpeg's libraries (movies), ParaView Catalyst, MPI, HDF5.

find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(PkgConfig REQUIRED)
# toml++ is used header-only (Debian also ships it as a shared library), so the
# executable carries no runtime dependency on it, e.g. on GPU nodes without it.
find_path(TOMLPP_INCLUDE_DIR toml++/toml.h REQUIRED)
add_library(fluxview_tomlpp INTERFACE)
target_include_directories(fluxview_tomlpp SYSTEM INTERFACE ${TOMLPP_INCLUDE_DIR})
target_compile_definitions(fluxview_tomlpp INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3.10 CONFIG REQUIRED)
find_package(PNG REQUIRED)

# --- CUDA -----------------------------------------------------------------
set(FLUXVIEW_HAVE_CUDA OFF)
set(FLUXVIEW_CUDA_SUMMARY "(not found)")
if(FLUXVIEW_WITH_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      include(FluxviewCudaArchitectures)
      fluxview_default_cuda_architectures(CMAKE_CUDA_ARCHITECTURES FLUXVIEW_CUDA_ARCH_WHY)
    else()
      set(FLUXVIEW_CUDA_ARCH_WHY "as given")
    endif()
    enable_language(CUDA)
    # CMake 3.25 does not know nvcc's C++20 dialect flag; nvcc 12+ takes it directly.
    # The shared pointwise code (FLUXVIEW_HD) uses std::array's constexpr accessors on the
    # device; every CUDA target of the project compiles with this.
    string(APPEND CMAKE_CUDA_FLAGS " --expt-relaxed-constexpr")
    # How hard NVVM (cicc) and ptxas optimise device code; empty: as each target's flags say
    # (-O3). The ci preset builds compute_75 PTX only ("75-virtual": no ptxas) and sets
    # "-Xcicc=-O0": CI has no GPU and never runs device code, it only has to compile it.
    # NVVM's -O3 was most of a native build (68 of the 130 s of the fourth-order MHD stage);
    # with native code NVVM's -O0 does not pay, since ptxas then assembles far more PTX
    # (FvDeviceTools_double.cu: 76 s against 46 s at -O1), but without ptxas it does:
    # ModalStage_degree3_double_mhd.cu took 40.8 s as sm_75 code at -Xcicc=-O1 -Xptxas=-O0
    # (NVVM 15.0 s, ptxas 12.3 s) and 19.7 s as PTX at -Xcicc=-O0 (NVVM 6.4 s), on a 2-core
    # machine on 2026-11-29. What ptxas alone refuses, inline PTX an architecture lacks,
    # scripts/check-cuda-archs.sh assembles natively for the oldest architecture.
    # Timings and GPU tests come from builds without it (.devdeps/build.sh, the default and
    # device presets).
    set(FLUXVIEW_CUDA_DEVICE_OPTIMIZATION "" CACHE STRING
        "nvcc flags that lower device code optimisation, for builds that never run it (CI)")
    if(FLUXVIEW_CUDA_DEVICE_OPTIMIZATION)
      string(APPEND CMAKE_CUDA_FLAGS " ${FLUXVIEW_CUDA_DEVICE_OPTIMIZATION}")
    endif()
    # The host side of CUDA sources (kernel launches, the device backends' C++) at -O3; the ci
    # preset asks for -O0 (with CMAKE_CUDA_FLAGS_RELEASE to match, since nvcc warns on two
    # different -O): without a GPU that code never runs, and GCC's -O3 on it was 43 of the
    # 94 s of FvDeviceTools_double.cu (9 s at -O0).
    set(FLUXVIEW_CUDA_HOST_OPTIMIZATION "-O3" CACHE STRING
        "optimisation flag for the host side of the project's CUDA sources")
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(FLUXVIEW_HAVE_CUDA ON)
    set(FLUXVIEW_CUDA_SUMMARY "(nvcc ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}: ${FLUXVIEW_CUDA_ARCH_WHY})")
  endif()
endif()

# --- GUI and rendering ---------------------------------------------------------
set(FLUXVIEW_HAVE_GUI OFF)
set(FLUXVIEW_HAVE_EGL OFF)
set(FLUXVIEW_GUI_SUMMARY "")
# FLUXVIEW_WITH_WINDOW=OFF keeps only headless EGL rendering (GPU nodes without GLFW).
option(FLUXVIEW_WITH_WINDOW "With FLUXVIEW_WITH_GUI: build the windowed GUI (GLFW + ImGui), not only headless EGL" ON)
if(FLUXVIEW_WITH_GUI)
  pkg_check_modules(GLFW IMPORTED_TARGET glfw3)
  pkg_check_modules(EPOXY IMPORTED_TARGET epoxy)
  pkg_check_modules(EGL IMPORTED_TARGET egl)
  # Debian's libimgui-dev ships the core as a library and the backends as sources.
  find_path(IMGUI_INCLUDE_DIR imgui.h PATH_SUFFIXES imgui)
  find_library(IMGUI_LIBRARY imgui)
  find_path(IMGUI_BACKEND_DIR imgui_impl_glfw.cpp
            PATHS /usr/share/doc/libimgui-dev/examples/backends /usr/share/imgui/backends
            PATH_SUFFIXES backends)
  if(EPOXY_FOUND AND EGL_FOUND)
    set(FLUXVIEW_HAVE_EGL ON)
  endif()
  if(NOT FLUXVIEW_WITH_WINDOW)
    set(FLUXVIEW_GUI_SUMMARY "(window off: FLUXVIEW_WITH_WINDOW=OFF)")
  elseif(GLFW_FOUND AND EPOXY_FOUND AND IMGUI_INCLUDE_DIR AND IMGUI_LIBRARY AND IMGUI_BACKEND_DIR)
    set(FLUXVIEW_HAVE_GUI ON)
    set(FLUXVIEW_GUI_SUMMARY "(GLFW ${GLFW_VERSION}, epoxy ${EPOXY_VERSION}, ImGui backends in ${IMGUI_BACKEND_DIR})")
  else()
    set(FLUXVIEW_GUI_SUMMARY "(missing: GLFW=${GLFW_FOUND} epoxy=${EPOXY_FOUND} imgui=${IMGUI_LIBRARY} backends=${IMGUI_BACKEND_DIR})")
  endif()
endif()

# --- FFmpeg's libraries (movies: run --movie, the GUI's record button) ---------------
# Without them a movie goes through the ffmpeg program where one is on PATH. A build for
# a machine that lacks the libraries at run time (a GPU node) passes
# -DFLUXVIEW_WITH_FFMPEG=OFF, or the executable would not start there.
option(FLUXVIEW_WITH_FFMPEG "Encode movies with FFmpeg's libraries when found" ON)
set(FLUXVIEW_HAVE_FFMPEG OFF)
set(FLUXVIEW_FFMPEG_SUMMARY "(not found: movies through the ffmpeg program, if any)")
if(FLUXVIEW_WITH_FFMPEG)
  pkg_check_modules(FFMPEG IMPORTED_TARGET libavcodec libavformat libavutil libswscale)
  if(FFMPEG_FOUND)
    set(FLUXVIEW_HAVE_FFMPEG ON)
    set(FLUXVIEW_FFMPEG_SUMMARY "(libavcodec ${FFMPEG_libavcodec_VERSION}, libavformat ${FFMPEG_libavformat_VERSION}, libswscale ${FFMPEG_libswscale_VERSION})")
  endif()
else()
  set(FLUXVIEW_FFMPEG_SUMMARY "(off: FLUXVIEW_WITH_FFMPEG=OFF; movies through the ffmpeg program, if any)")
endif()

# --- MPI and HDF5 ----------------------------------------------------------------
set(FLUXVIEW_HAVE_MPI OFF)
if(FLUXVIEW_WITH_MPI)
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(FLUXVIEW_HAVE_MPI ON)
  endif()
endif()
set(FLUXVIEW_HAVE_HDF5 OFF)
if(FLUXVIEW_WITH_HDF5)
  find_package(HDF5 COMPONENTS C QUIET)
  if(HDF5_FOUND AND TARGET hdf5::hdf5)
    set(FLUXVIEW_HAVE_HDF5 ON)
  endif()
endif()

# --- ParaView Catalyst ------------------------------------------------------------
# Found in insitu/CMakeLists.txt, which needs the dependency targets Debian's
# ParaView package expects to be defined first.
set(FLUXVIEW_HAVE_CATALYST OFF)
set(FLUXVIEW_CATALYST_SUMMARY "(not found)")

# --- Tests --------------------------------------------------------------------------
if(FLUXVIEW_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    message(WARNING "GoogleTest not found: tests are not built")
    set(FLUXVIEW_BUILD_TESTS OFF)
  endif()
endif()

# Warnings for our own code (not for third-party sources).
add_library(fluxview_warnings INTERFACE)
target_compile_options(fluxview_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-unknown-pragmas>
  # The host loops ask for `omp simd` on rows "where the body allows" (sim/core/ExecHost.hpp)
  # and for unrolling of small fixed loops; clang reports every body it could not vectorise
  # or unroll as a warning (GCC does not), though the code is correct either way.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:-Wno-pass-failed>)
