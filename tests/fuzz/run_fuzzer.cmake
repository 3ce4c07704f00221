# One bounded fuzz run for ctest: replay the regression inputs (crashes found before), then fuzz SECONDS on a
# scratch copy of the seed corpus (the committed seeds stay untouched). Fails on any crash or sanitizer report.
# With KEEP_CORPUS (a folder, e.g. one a scheduled CI job restores from its cache), the run grows that corpus in
# place: the seeds are added to it and what the fuzzer finds stays there for the next run.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/artifacts")
if(KEEP_CORPUS)
  set(_corpus "${KEEP_CORPUS}")
else()
  set(_corpus "${WORK}/corpus")
endif()
file(MAKE_DIRECTORY "${_corpus}")
file(GLOB _seeds "${SEEDS}/*")
file(COPY ${_seeds} DESTINATION "${_corpus}")

file(GLOB _regressions "${REGRESSIONS}/*")
if(_regressions)
  execute_process(COMMAND "${FUZZER}" -runs=0 ${_regressions} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "a regression input under ${REGRESSIONS} fails again (exit ${_rc})")
  endif()
endif()

execute_process(
  COMMAND "${FUZZER}" "${_corpus}" -dict=${DICT} -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048
          -max_len=65536 -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(GLOB _found "${WORK}/artifacts/*")
  message(FATAL_ERROR "fuzzer failed (exit ${_rc}); reproducer(s): ${_found}")
endif()
