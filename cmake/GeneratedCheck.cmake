# kvcalc_check_generated(NAME <test> TOOL <target> ARGS <args...> COMMITTED <file> REGEN <hint>)
# Adds a ctest that regenerates COMMITTED with TOOL ARGS and fails when the committed copy is stale.
function(kvcalc_check_generated)
  cmake_parse_arguments(G "" "NAME;TOOL;COMMITTED;REGEN" "ARGS" ${ARGN})
  get_filename_component(_base "${G_COMMITTED}" NAME)
  string(REPLACE ";" "|" _args "${G_ARGS}")
  add_test(NAME ${G_NAME}
           COMMAND ${CMAKE_COMMAND}
                   -DTOOL=$<TARGET_FILE:${G_TOOL}>
                   "-DARGS=${_args}"
                   -DCOMMITTED=${G_COMMITTED}
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/${G_NAME}.${_base}
                   "-DREGEN=${G_REGEN}"
                   -P ${PROJECT_SOURCE_DIR}/cmake/check_generated.cmake)
endfunction()
