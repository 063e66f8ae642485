# The CUDA architectures a build compiles for when CMAKE_CUDA_ARCHITECTURES is not given.
#
# Where this machine has NVIDIA GPUs (nvidia-smi answers), the build is for exactly those:
# one compile per architecture, the quickest build and the best code for the machine it
# runs on. Where it has none (a CI runner, a login node, a laptop), nothing built now can
# run here on a GPU, so the build is the quickest that still runs on any GPU later: PTX for
# compute_75 alone ("75-virtual"), which the driver compiles for the GPU it meets at the
# first launch of each kernel and keeps in its cache (~/.nv/ComputeCache). That build
# takes the sm_75 code paths everywhere (no cp.async, no programmatic launch), so it is
# slower on newer GPUs than a build for them; scripts/gpu-arch-check.sh runs it on the GPU
# machine. Measured on a 2-core machine without a GPU, the `fluxview` target alone: 327 s
# for 75-virtual against about 1200 s for the portable list below.
#
# -DFLUXVIEW_CUDA_PORTABLE=ON (the `portable` preset) builds native code for the portable
# list instead, to carry one binary to every GPU CUDA 13 supports (a package, a cluster's
# shared install):
#   75-real 80-real 90-real 100-real 120
# one compile each:
#   sm_75  Turing (RTX 20xx, T4)                   sm_80  Ampere (A100; its code also runs
#   sm_90  Hopper (H100, H200)                            on sm_86/87/88/89: RTX 30xx, 40xx,
#   sm_100 Blackwell data centre (B200; also sm_103)     A10, L4, L40)
#   sm_120 Blackwell RTX 50xx, plus PTX for compute_120 that the driver compiles for any newer GPU.
# sm_75 is the floor because CUDA 13 compiles nothing older. Kernels that use a feature an
# architecture lacks (cp.async before sm_80, programmatic launch before sm_90) carry a
# fallback chosen at compile time, and scripts/check-cuda-archs.sh compiles every .cu file
# for the oldest and newest entries in CI. A GPU older than every entry is refused at start-up
# with its compute capability named (sim/core/cuda/CudaRuntime.cu).
option(FLUXVIEW_CUDA_PORTABLE
       "Without CMAKE_CUDA_ARCHITECTURES: native code for every supported GPU (the portable list) instead of the machine's GPU, or compute_75 PTX where there is none"
       OFF)
set(FLUXVIEW_PORTABLE_CUDA_ARCHITECTURES 75-real 80-real 90-real 100-real 120)

function(fluxview_default_cuda_architectures out_list out_why)
  set(portable ${FLUXVIEW_PORTABLE_CUDA_ARCHITECTURES})
  if(FLUXVIEW_CUDA_PORTABLE)
    set(${out_list} ${portable} PARENT_SCOPE)
    set(${out_why} "FLUXVIEW_CUDA_PORTABLE: the portable list" PARENT_SCOPE)
    return()
  endif()
  set(ptx 75-virtual)
  find_program(FLUXVIEW_NVIDIA_SMI nvidia-smi)
  set(caps "")
  if(FLUXVIEW_NVIDIA_SMI)
    execute_process(COMMAND ${FLUXVIEW_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 20)
    if(NOT rc EQUAL 0)
      set(caps "")
    endif()
  endif()
  string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
  if(NOT caps)
    set(${out_list} ${ptx} PARENT_SCOPE)
    set(${out_why} "no NVIDIA GPU at configure time: compute_75 PTX, compiled by the driver for any GPU; -DFLUXVIEW_CUDA_PORTABLE=ON for native code" PARENT_SCOPE)
    return()
  endif()
  # What this nvcc can compile for (compute_XX), to catch GPUs newer or older than it knows.
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-arch OUTPUT_VARIABLE known
                  RESULT_VARIABLE rc ERROR_QUIET)
  string(REGEX MATCHALL "compute_[0-9]+" known "${known}")
  string(REPLACE "compute_" "" known "${known}")
  set(newest 0)
  foreach(k IN LISTS known)
    if(k GREATER newest)
      set(newest ${k})
    endif()
  endforeach()
  set(archs "")
  set(notes "")
  foreach(cap IN LISTS caps)
    string(REPLACE "." "" a "${cap}")
    if(a IN_LIST known)
      list(APPEND archs ${a})
    elseif(known AND a GREATER newest)
      # Newer than this nvcc: PTX of the newest it knows, which the driver compiles.
      list(APPEND archs ${newest}-virtual)
      list(APPEND notes "GPU ${cap} newer than nvcc knows: PTX ${newest}")
    else()
      message(WARNING "fluxview: this machine's GPU has compute capability ${cap}; CUDA "
              "${CMAKE_CUDA_COMPILER_VERSION} compiles for 7.5 and newer only, so the GPU "
              "cannot be used (the CPU backend runs); building compute_75 PTX")
      set(${out_list} ${ptx} PARENT_SCOPE)
      set(${out_why} "GPU ${cap} too old for this CUDA: compute_75 PTX" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES archs)
  list(JOIN caps "," caps_text)
  set(${out_list} ${archs} PARENT_SCOPE)
  set(${out_why} "the GPU found at configure time (compute capability ${caps_text}) ${notes}"
      PARENT_SCOPE)
endfunction()
