# Third-party code comes from Debian packages (header-only nlohmann/json and doctest) and, for the
# WebAssembly build, from Debian source packages unpacked by scripts/setup.sh (SDL2, Dear ImGui).
# emcc must never see /usr/include itself (glibc headers break the wasm build), so the two header-only
# libraries are exposed through a build-tree folder holding only links to them.

if(DEFINED ENV{KVCALC_DEPS_DIR})
  set(_deps_default "$ENV{KVCALC_DEPS_DIR}")
else()
  set(_deps_default "$ENV{HOME}/.cache/kvcalc")
endif()
set(KVCALC_DEPS_DIR "${_deps_default}" CACHE PATH "Where scripts/setup.sh keeps third-party sources and the SDL2 wasm build")

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

# ---- Dear ImGui (+ SDL2) for the app --------------------------------------------------------------------
# scripts/setup.sh unpacks Debian's source packages under ${KVCALC_DEPS_DIR}/src and installs SDL2 for wasm
# under ${KVCALC_DEPS_DIR}/sdl2-wasm-<version>; take the newest of each unless given explicitly.
function(kvcalc_newest_dir out_var pattern)
  if(NOT ${out_var})
    file(GLOB _dirs LIST_DIRECTORIES true "${pattern}")
    if(_dirs)
      list(SORT _dirs)
      list(GET _dirs -1 _newest)
      set(${out_var} "${_newest}" PARENT_SCOPE)
    endif()
  endif()
endfunction()
kvcalc_newest_dir(KVCALC_IMGUI_SRC "${KVCALC_DEPS_DIR}/src/imgui-*")
kvcalc_newest_dir(KVCALC_SDL2_WASM_PREFIX "${KVCALC_DEPS_DIR}/sdl2-wasm-[0-9]*")

if(KVCALC_UI)
  if(NOT KVCALC_IMGUI_SRC OR NOT EXISTS "${KVCALC_IMGUI_SRC}/imgui.cpp")
    message(FATAL_ERROR "Dear ImGui sources not found (KVCALC_IMGUI_SRC='${KVCALC_IMGUI_SRC}'): run scripts/setup.sh")
  endif()
  # Dear ImGui renamed its SDL2 backend file in 1.87 (imgui_impl_sdl → imgui_impl_sdl2); accept both.
  set(_imgui_sdl_backend "${KVCALC_IMGUI_SRC}/backends/imgui_impl_sdl2.cpp")
  if(NOT EXISTS "${_imgui_sdl_backend}")
    set(_imgui_sdl_backend "${KVCALC_IMGUI_SRC}/backends/imgui_impl_sdl.cpp")
  endif()
  set(_imgui_draw "${KVCALC_IMGUI_SRC}/imgui_draw.cpp")
  if(EMSCRIPTEN)
    # The page adds its own font (imgui_ui/ui_font.h) before the atlas is built, so ImFontAtlas::Build never takes
    # its fallback to the built-in ProggyClean font; that one call keeps 12 KB of base85 font data in the wasm. The
    # web build compiles a copy of imgui_draw.cpp without it (the linker then drops AddFontDefault and the data).
    file(READ "${_imgui_draw}" _draw_text)
    string(REPLACE "    if (ConfigData.Size == 0)\n        AddFontDefault();\n" "" _draw_cut "${_draw_text}")
    if(_draw_cut STREQUAL _draw_text)
      message(STATUS "imgui_draw.cpp: ImFontAtlas::Build's AddFontDefault() fallback not found; the built-in font stays")
    else()
      file(WRITE "${CMAKE_BINARY_DIR}/imgui_draw_web.cpp.new" "${_draw_cut}")
      configure_file("${CMAKE_BINARY_DIR}/imgui_draw_web.cpp.new" "${CMAKE_BINARY_DIR}/imgui_draw_web.cpp" COPYONLY)
      set(_imgui_draw "${CMAKE_BINARY_DIR}/imgui_draw_web.cpp")
    endif()
  endif()
  add_library(kvcalc_imgui STATIC
    "${KVCALC_IMGUI_SRC}/imgui.cpp" "${_imgui_draw}" "${KVCALC_IMGUI_SRC}/imgui_tables.cpp"
    "${KVCALC_IMGUI_SRC}/imgui_widgets.cpp"
    "${_imgui_sdl_backend}" "${KVCALC_IMGUI_SRC}/backends/imgui_impl_opengl3.cpp"
    "${KVCALC_IMGUI_SRC}/misc/cpp/imgui_stdlib.cpp")
  target_include_directories(kvcalc_imgui SYSTEM PUBLIC "${KVCALC_IMGUI_SRC}" "${KVCALC_IMGUI_SRC}/backends"
                                                        "${KVCALC_IMGUI_SRC}/misc/cpp")
  # IMGUI_ENABLE_TEST_ENGINE: Dear ImGui reports every item's id, label and state to hooks the app defines
  # (imgui_ui/keyboard_nav.cpp), which Tab order and the screen-reader mirror are built from. PUBLIC: the library and
  # the app must agree on ImGuiContext's layout.
  target_compile_definitions(kvcalc_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_ENABLE_TEST_ENGINE)
  target_compile_options(kvcalc_imgui PRIVATE -w)  # third-party code: its warnings are not ours to fix
  if(EMSCRIPTEN)
    if(NOT EXISTS "${KVCALC_SDL2_WASM_PREFIX}/lib/libSDL2.a")
      message(FATAL_ERROR "SDL2 for wasm not found under '${KVCALC_SDL2_WASM_PREFIX}': run scripts/setup.sh")
    endif()
    add_library(kvcalc_sdl2 INTERFACE)
    target_include_directories(kvcalc_sdl2 SYSTEM INTERFACE "${KVCALC_SDL2_WASM_PREFIX}/include/SDL2"
                                                            "${KVCALC_SDL2_WASM_PREFIX}/include")
    target_link_libraries(kvcalc_sdl2 INTERFACE "${KVCALC_SDL2_WASM_PREFIX}/lib/libSDL2.a")
    # The OpenGL3 backend assumes WebGL1 under emscripten unless told it is ES3 (WebGL2). The page never opens
    # Dear ImGui's metrics/debug window and has no file system (-sFILESYSTEM=0, no imgui.ini): both compiled out.
    target_compile_definitions(kvcalc_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_METRICS_WINDOW
                                                   IMGUI_DISABLE_FILE_FUNCTIONS)
  else()
    find_package(SDL2 REQUIRED)
    find_package(OpenGL REQUIRED)
    add_library(kvcalc_sdl2 INTERFACE)
    target_link_libraries(kvcalc_sdl2 INTERFACE SDL2::SDL2 OpenGL::GL ${CMAKE_DL_LIBS})
  endif()
  target_link_libraries(kvcalc_imgui PUBLIC kvcalc_sdl2)
endif()
