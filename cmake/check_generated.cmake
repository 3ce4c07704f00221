# Runs a generator and fails when a committed generated file differs from its output (ctest -P script).
#   -DTOOL=exe  -DARGS="a|b" (arguments joined by |, so paths may hold spaces)  -DCOMMITTED=path  -DOUT=scratch path  -DREGEN="command that rewrites it"
# Shared by every "docs/X.md is generated" test so they report staleness the same way.
string(REPLACE "|" ";" _args "${ARGS}")
execute_process(COMMAND "${TOOL}" ${_args} OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${ARGS} failed (exit ${rc})")
endif()
file(READ "${OUT}" generated)
file(READ "${COMMITTED}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${COMMITTED} is stale (regenerated copy: ${OUT}): run `${REGEN}` and commit it")
endif()
