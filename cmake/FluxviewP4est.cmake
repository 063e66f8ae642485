# Finds p4est (Debian's libp4est-dev 2.2: libp4est, libsc and their headers) for the
# adaptive mesh of the fv solver (sim/amr). Debian builds p4est with MPI, so its headers
# include mpi.h and its calls need an MPI communicator: the adaptive mesh is built only
# where MPI is found too.
#
# Sets FLUXVIEW_HAVE_AMR and, when ON, defines the target fluxview_p4est (include path,
# libp4est, libsc, MPI's C bindings).

set(FLUXVIEW_HAVE_AMR OFF)
set(FLUXVIEW_AMR_SUMMARY "(p4est not found: apt-get install libp4est-dev)")
option(FLUXVIEW_WITH_AMR "Build the adaptive mesh (p4est) when p4est and MPI are found" ON)
if(FLUXVIEW_WITH_AMR)
  find_path(P4EST_INCLUDE_DIR p8est.h)
  find_library(P4EST_LIBRARY p4est)
  find_library(P4EST_SC_LIBRARY sc)
  if(P4EST_INCLUDE_DIR AND P4EST_LIBRARY AND P4EST_SC_LIBRARY)
    if(NOT FLUXVIEW_HAVE_MPI)
      set(FLUXVIEW_AMR_SUMMARY "(p4est found, but MPI is not: p4est is built with MPI)")
    else()
      find_package(MPI COMPONENTS C REQUIRED)
      add_library(fluxview_p4est INTERFACE)
      target_include_directories(fluxview_p4est SYSTEM INTERFACE ${P4EST_INCLUDE_DIR})
      target_link_libraries(fluxview_p4est INTERFACE ${P4EST_LIBRARY} ${P4EST_SC_LIBRARY}
                                                     MPI::MPI_C)
      set(FLUXVIEW_HAVE_AMR ON)
      set(FLUXVIEW_AMR_SUMMARY "(p4est: ${P4EST_LIBRARY})")
    endif()
  endif()
else()
  set(FLUXVIEW_AMR_SUMMARY "(FLUXVIEW_WITH_AMR=OFF)")
endif()
