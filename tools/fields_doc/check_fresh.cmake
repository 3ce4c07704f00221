# Regenerates the field tables of one doc (kvcalc_fields_doc DOC) and fails when the committed copy differs.
execute_process(COMMAND "${TOOL}" "${DOC}" OUTPUT_FILE "${OUT}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} ${DOC} failed (${rc})")
endif()
file(READ "${OUT}" generated)
file(READ "${DOC}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${DOC}'s field tables are stale (the table is core/src/scenario_fields.cpp): run "
                      "`${TOOL} --write ${DOC}` and commit it")
endif()
