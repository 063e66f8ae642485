# Finds ParaView's legacy Catalyst ("Catalyst 1") API and sets, in the caller's scope:
#   FLUXVIEW_PARAVIEW_FOUND   ON when the Catalyst targets can be linked
#   FLUXVIEW_PARAVIEW_SUMMARY one line for the configure summary
#
# Debian's ParaView 5.11 CMake package names imported targets of its dependencies in
# the link interfaces of its own (VTK::netcdf -> NetCDF::NetCDF, VTK::glew -> GLEW::GLEW,
# VTK::hdf5 -> hdf5::hdf5, ...) without finding them itself, so they are found here
# right after it with the Find modules ParaView ships in its vtk/ folder (and CMake's own). Where a
# -dev package is not installed (Debian's paraview-dev does not pull libglew-dev or
# libnetcdf-dev), an empty placeholder target is defined instead: we never include
# those libraries' headers, and the VTK shared libraries that need them carry their own
# DT_NEEDED entries, so the link does not need them either.
#
# Targets are made global so that app/ and tests/ can link the static fluxview_catalyst
# whose link interface names them.

set(FLUXVIEW_PARAVIEW_FOUND OFF)
set(FLUXVIEW_PARAVIEW_SUMMARY "(ParaView 5.11 not found)")

set(_fluxview_targets_global ${CMAKE_FIND_PACKAGE_TARGETS_GLOBAL})
set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ON)
find_package(ParaView 5.11 CONFIG QUIET COMPONENTS Catalyst PythonCatalyst)
if(NOT ParaView_FOUND)
  set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ${_fluxview_targets_global})
  return()
endif()

# Link interfaces are checked when the build files are generated, so defining the
# dependency targets right after the package is read is early enough.
list(APPEND CMAKE_MODULE_PATH "${ParaView_DIR}/vtk")
find_package(Freetype QUIET)
find_package(X11 QUIET)
find_package(GLEW QUIET)
find_package(LibXml2 QUIET)
find_package(MPI COMPONENTS C QUIET)
find_package(NetCDF QUIET)
find_package(HDF5 COMPONENTS C HL QUIET)
find_package(Boost QUIET)
if(TARGET HDF5::HDF5 AND NOT TARGET hdf5::hdf5)
  add_library(hdf5::hdf5 INTERFACE IMPORTED GLOBAL)
  target_link_libraries(hdf5::hdf5 INTERFACE HDF5::HDF5)
endif()
set(_placeholders "")
foreach(t Freetype::Freetype X11::X11 GLEW::GLEW LibXml2::LibXml2 NetCDF::NetCDF hdf5::hdf5 hdf5::hdf5_hl
          Boost::boost)
  if(NOT TARGET ${t})
    add_library(${t} INTERFACE IMPORTED GLOBAL)
    list(APPEND _placeholders ${t})
  endif()
endforeach()
set(CMAKE_FIND_PACKAGE_TARGETS_GLOBAL ${_fluxview_targets_global})

set(FLUXVIEW_PARAVIEW_FOUND ON)
set(FLUXVIEW_PARAVIEW_SUMMARY "(ParaView ${ParaView_VERSION} legacy Catalyst API, ${ParaView_DIR})")
if(_placeholders)
  string(REPLACE ";" ", " _placeholders "${_placeholders}")
  string(APPEND FLUXVIEW_PARAVIEW_SUMMARY " [link-only placeholders: ${_placeholders}]")
endif()
