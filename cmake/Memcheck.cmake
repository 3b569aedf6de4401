# cmake/Memcheck.cmake - the unit tests again under valgrind memcheck
# (issue 22 item 12): every ctest entry labelled `unit` whose command is
# one of our executables gets a twin `memcheck_NAME` (label `memcheck`)
# that runs the same binary under
#   valgrind --error-exitcode=1 --track-origins=yes
# so a read of uninitialised memory, an invalid read or write or a bad
# free fails the test.  Leaks are left to LeakSanitizer (the ASan build).
# Property tests run at most TNY_MEMCHECK_CASES random cases each
# (TNY_PROPERTY_CASES_MAX; the plain run keeps the full count; fewer than
# 200 starve the tests that check a lot is fair), so the whole label stays
# within a few minutes on 2 cores.
#
# -DTNY_MEMCHECK=ON (deploy/test.sh's release build) requires valgrind;
# the default AUTO adds the tests when valgrind is found; OFF, and every
# sanitizer, fuzzer or cross build, adds none (valgrind cannot run ASan
# code, nor another architecture's).
set(TNY_MEMCHECK AUTO CACHE STRING "Unit tests under valgrind memcheck: ON, OFF or AUTO")
set(TNY_MEMCHECK_CASES 200 CACHE STRING "TNY_PROPERTY_CASES_MAX for the memcheck runs")
# test_gorn's every case seats a whole event with the Gorn search (CT-2):
# over 4 CPU minutes under valgrind at its 120 cases
set(TNY_MEMCHECK_CASES_test_gorn 12)
# test_service: steps of each issue-17 random console session (each step
# loads the event again to compare).
set(TNY_MEMCHECK_CASES_test_service 40)

find_program(TNY_VALGRIND valgrind)
if(NOT (TNY_SANITIZE OR TNY_FUZZ OR CMAKE_CROSSCOMPILING OR TNY_MEMCHECK STREQUAL "OFF"))
    if(TNY_VALGRIND)
        message(STATUS "memcheck: unit tests also under ${TNY_VALGRIND} (label memcheck)")
    elseif(TNY_MEMCHECK STREQUAL "ON")
        message(FATAL_ERROR "TNY_MEMCHECK=ON: valgrind not found (deploy/install-deps.sh installs it)")
    else()
        message(STATUS "valgrind not found: no memcheck_* tests")
    endif()
endif()

# tny_memcheck_twins(): in a directory that adds tests, after them (the
# top-level tny_sanitizer_env() calls it): a twin for every test of this
# directory labelled `unit` that is named after an executable target
# (add_test(NAME x COMMAND x), i.e. a cmocka program; scripts are left out).
function(tny_memcheck_twins)
    if(TNY_SANITIZE OR TNY_FUZZ OR CMAKE_CROSSCOMPILING OR TNY_MEMCHECK STREQUAL "OFF"
       OR NOT TNY_VALGRIND)
        return()
    endif()
    get_property(tests DIRECTORY PROPERTY TESTS)
    foreach(t ${tests})
        if(NOT TARGET ${t})
            continue()
        endif()
        get_target_property(type ${t} TYPE)
        get_test_property(${t} LABELS labels)
        if(NOT type STREQUAL "EXECUTABLE" OR NOT "unit" IN_LIST labels)
            continue()
        endif()
        set(cases ${TNY_MEMCHECK_CASES})
        if(DEFINED TNY_MEMCHECK_CASES_${t})
            set(cases ${TNY_MEMCHECK_CASES_${t}})
        endif()
        add_test(NAME memcheck_${t}
                 COMMAND ${TNY_VALGRIND} -q --error-exitcode=1
                         --track-origins=yes --leak-check=no
                         $<TARGET_FILE:${t}>)
        set_tests_properties(memcheck_${t} PROPERTIES LABELS memcheck
            TIMEOUT 1800
            ENVIRONMENT "TNY_PROPERTY_CASES_MAX=${cases}")
    endforeach()
    # The e2e scripts' message builder (tests/table/wiretool.c) filled a
    # clock's table extensions only in part: the encoder read stack
    # garbage and refused one run in two (e2e_test_table_headless).
    if(TARGET wiretool AND "${CMAKE_CURRENT_SOURCE_DIR}" STREQUAL "${PROJECT_SOURCE_DIR}/table-client")
        add_test(NAME memcheck_wiretool_clock
                 COMMAND sh -c "\"$0\" -q --error-exitcode=1 --track-origins=yes --leak-check=no \"$1\" clock version=1 event=ev1 round=1 clock=running:600000 ext=2:1000,5:60000 >/dev/null"
                         ${TNY_VALGRIND} $<TARGET_FILE:wiretool>)
        set_tests_properties(memcheck_wiretool_clock PROPERTIES
            LABELS memcheck TIMEOUT 120)
    endif()
endfunction()
