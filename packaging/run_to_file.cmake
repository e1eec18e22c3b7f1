# Runs PROGRAM with ARGS (a ;-list) and writes its stdout to OUTPUT; fails on a non-zero exit.
# cmake -DPROGRAM=... -DARGS=... -DOUTPUT=... -P run_to_file.cmake (add_custom_command has no redirection).
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_FILE ${OUTPUT}.tmp RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUTPUT}.tmp)
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: exit ${status}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
