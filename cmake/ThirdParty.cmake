# Third-party code comes from Debian packages (header-only nlohmann/json and doctest) and, for the
# WebAssembly build, from Debian source packages unpacked by scripts/setup.sh (SDL2, Dear ImGui).
# emcc must never see /usr/include itself (glibc headers break the wasm build), so the two header-only
# libraries are exposed through a build-tree folder holding only links to them.

set(KVCALC_DEPS_DIR "$ENV{HOME}/.cache/kvcalc" CACHE PATH "Where scripts/setup.sh keeps third-party sources and the SDL2 wasm build")

set(_hdr_dir "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${_hdr_dir}")
foreach(_lib nlohmann doctest)
  if(NOT EXISTS "${_hdr_dir}/${_lib}")
    if(NOT EXISTS "/usr/include/${_lib}")
      message(FATAL_ERROR "/usr/include/${_lib} is missing: run scripts/setup.sh (installs nlohmann-json3-dev and doctest-dev)")
    endif()
    file(CREATE_LINK "/usr/include/${_lib}" "${_hdr_dir}/${_lib}" SYMBOLIC)
  endif()
endforeach()

add_library(kvcalc_third_party INTERFACE)
target_include_directories(kvcalc_third_party SYSTEM INTERFACE "${_hdr_dir}")
