# One bounded fuzz run for ctest: replay the regression inputs (crashes found before), then fuzz SECONDS on a
# scratch copy of the seed corpus (the committed seeds stay untouched). Fails on any crash or sanitizer report.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus" "${WORK}/artifacts")
file(GLOB _seeds "${SEEDS}/*")
file(COPY ${_seeds} DESTINATION "${WORK}/corpus")

file(GLOB _regressions "${REGRESSIONS}/*")
if(_regressions)
  execute_process(COMMAND "${FUZZER}" -runs=0 ${_regressions} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "a regression input under ${REGRESSIONS} fails again (exit ${_rc})")
  endif()
endif()

execute_process(
  COMMAND "${FUZZER}" "${WORK}/corpus" -dict=${DICT} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
          -max_len=65536 -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(GLOB _found "${WORK}/artifacts/*")
  message(FATAL_ERROR "fuzzer failed (exit ${_rc}); reproducer(s): ${_found}")
endif()
