# cmake/ManPage.cmake - one man page from a program's real --help (cmake -P,
# run by the man page rules of cmake/Packaging.cmake):
#   cmake -DHELP2MAN=... -DPROG=... -DNAME=... -DSECTION=1 -DSUMMARY=...
#         -DINCLUDE=cmake/man/NAME.h2m -DVERSION=... [-DSUBHELP="live;print"]
#         [-DEMULATOR=...] -DOUT=NAME.SECTION.gz -P cmake/ManPage.cmake
# help2man reads `PROG --help` (the version is given, so scripts without
# --version work too) and adds the hand-written sections of INCLUDE; for
# each word W of SUBHELP the output of `PROG W --help` becomes a section of
# its own, verbatim.  The page is gzip -9n compressed (what Debian wants).
get_filename_component(dir ${OUT} DIRECTORY)
set(page ${dir}/${NAME}.${SECTION})
set(inc ${dir}/${NAME}.h2m)
file(READ ${INCLUDE} text)
foreach(sub ${SUBHELP})
    execute_process(COMMAND ${EMULATOR} ${PROG} ${sub} --help
                    OUTPUT_VARIABLE help ERROR_VARIABLE help
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR help STREQUAL "")
        message(FATAL_ERROR "${PROG} ${sub} --help: exit ${rc}")
    endif()
    # roff: a backslash is \e, a line starting with . or ' is protected
    string(REPLACE "\\" "\\e" help "${help}")
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
    string(TOUPPER "${NAME} ${sub}" title)
    string(APPEND text "[${title}]\n.nf\n${help}.fi\n")
endforeach()
file(WRITE ${inc} "${text}")
set(cmd ${HELP2MAN} --no-info --no-discard-stderr --section=${SECTION}
    --name=${SUMMARY} --version-string=${VERSION} --include=${inc}
    --output=${page})
if(EMULATOR)
    # help2man runs PROG itself: through a wrapper when it is another
    # architecture's binary (qemu)
    set(wrap ${dir}/run/${NAME})
    string(REPLACE ";" " " emu "${EMULATOR}")
    file(WRITE ${wrap} "#!/bin/sh\nexec ${emu} ${PROG} \"$@\"\n")
    file(CHMOD ${wrap} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
    list(APPEND cmd ${wrap})
else()
    list(APPEND cmd ${PROG})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "help2man ${PROG}: ${err}")
endif()
execute_process(COMMAND gzip -9nf ${page} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${page}: exit ${rc}")
endif()
