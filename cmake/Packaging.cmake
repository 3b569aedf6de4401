# cmake/Packaging.cmake - install rules and CPack DEB packages:
#   tourney-cli   : the tourney program (offline engine, printouts, the
#                   organiser's `tourney live`), for an organiser's laptop;
#                   depends on a CJK font (names print in any script) and
#                   recommends chromium (print --pdf)
#   tourney-hub   : tourney-hub, /etc/tourney/hub.conf, tourney-hub.service;
#                   the venue server's brokers (tourney-venue-setup,
#                   gen-config.sh, tourney-broker and tourney-feed units;
#                   depends on mosquitto) and the pages the feed broker
#                   serves (/usr/share/tourney/www, with the npm bundles of
#                   deploy/overlays/vendor: packaging fails without them);
#                   chrony's venue NTP snippet; depends on tourney-cli
#   tourney-table : tourney-table, /etc/tourney/table.conf,
#                   tourney-table.service, the first-boot configuration
#                   from the boot partition (tourney-table-firstboot)
# Each has a man page per program (help2man from the real --help plus
# cmake/man/*.h2m), /usr/share/doc/PKG/copyright (DEP-5,
# cmake/deb/copyright.in) and changelog.gz (native package), stripped
# binaries, and passes lintian without errors (e2e test_venue_packages).
# `cpack -G DEB` in a build dir; with cmake/aarch64-linux-gnu.cmake the
# packages are arm64.  Maintainer scripts: cmake/deb/.  /var/lib/tourney and
# the tourney user are made by postinst, never removed (the outbox / hub.db).
include(GNUInstallDirs)
set(TNY_UNITDIR lib/systemd/system)
# The packages' Maintainer, also in their changelog and copyright files: a
# venue that builds its own packages puts its own address here.
set(TNY_PACKAGE_MAINTAINER "Tourney developers <tourney-dev@example.org>"
    CACHE STRING "Maintainer of the .deb packages (Name <address>)")
# The CJK font the printouts and pages name (print.c, deploy/overlays/*.css):
# WenQuanYi Micro Hei, 5 MB installed, covers Chinese, Japanese kana and
# Korean Hangul (fonts-noto-cjk is 91 MB).
set(TNY_CJK_FONT_PACKAGE fonts-wqy-microhei)

# ---- man pages: help2man from each program's real --help --------------------
find_program(TNY_HELP2MAN help2man)
set(TNY_MAN_DIR ${PROJECT_BINARY_DIR}/man)
# tny_man_page(COMPONENT NAME SECTION SUMMARY PROG [TARGET] [SUBHELP ...])
function(tny_man_page comp name section summary prog)
    cmake_parse_arguments(M "" "TARGET" "SUBHELP" ${ARGN})
    set(out ${TNY_MAN_DIR}/${name}.${section}.gz)
    set(inc ${PROJECT_SOURCE_DIR}/cmake/man/${name}.h2m)
    set(emu "")
    if(M_TARGET AND CMAKE_CROSSCOMPILING)
        set(emu "${CMAKE_CROSSCOMPILING_EMULATOR}")
    endif()
    string(REPLACE ";" "\\;" emu "${emu}")
    string(REPLACE ";" "\\;" sub "${M_SUBHELP}")
    add_custom_command(OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${TNY_HELP2MAN} -DPROG=${prog}
                -DNAME=${name} -DSECTION=${section} -DSUMMARY=${summary}
                -DINCLUDE=${inc} -DVERSION=${PROJECT_VERSION}
                -DSUBHELP=${sub} -DEMULATOR=${emu} -DOUT=${out}
                -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
        DEPENDS ${M_TARGET} ${inc} ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
        VERBATIM)
    add_custom_target(man_${name} ALL DEPENDS ${out})
    install(FILES ${out} DESTINATION share/man/man${section} COMPONENT ${comp})
endfunction()
# (not in the sanitizer and fuzzer builds: nobody packages those)
set(TNY_MAN OFF)
if(TNY_SANITIZE OR TNY_FUZZ)
elseif(TNY_HELP2MAN AND (NOT CMAKE_CROSSCOMPILING OR CMAKE_CROSSCOMPILING_EMULATOR))
    set(TNY_MAN ON)
else()
    message(STATUS "no man pages: help2man (deploy/install-deps.sh) or, cross, an emulator missing")
endif()

# ---- cli: the tourney program --------------------------------------------------
if(TARGET tourney)
    install(TARGETS tourney RUNTIME DESTINATION bin COMPONENT cli)
    if(TNY_MAN)
        tny_man_page(cli tourney 1 "tournament engine and organiser's command line"
                     $<TARGET_FILE:tourney> TARGET tourney
                     SUBHELP live print demo)
    endif()
    list(APPEND CPACK_COMPONENTS_ALL cli)
endif()

# ---- hub: the daemon and the venue server ---------------------------------------
if(TARGET tourney-hub)
    install(TARGETS tourney-hub RUNTIME DESTINATION bin COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub.conf.example
            DESTINATION /etc/tourney RENAME hub.conf COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub/tourney-hub.service
                  ${PROJECT_SOURCE_DIR}/deploy/broker/tourney-broker.service
                  ${PROJECT_SOURCE_DIR}/deploy/broker/tourney-feed.service
                  ${PROJECT_SOURCE_DIR}/deploy/broker/tourney-feed-front.service
            DESTINATION ${TNY_UNITDIR} COMPONENT hub)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/hub/tourney-venue-setup
            DESTINATION sbin COMPONENT hub)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/broker/gen-config.sh
            DESTINATION share/tourney/broker COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/broker/README.md
                  ${PROJECT_SOURCE_DIR}/deploy/broker/feed-front.js
            DESTINATION share/tourney/broker COMPONENT hub)
    # The pages the feed broker serves (gen-config.sh --http-dir): static
    # files only; their npm bundles (vendor/) below.
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/deploy/overlays/
            DESTINATION share/tourney/www COMPONENT hub
            FILES_MATCHING PATTERN "*.html" PATTERN "*.js" PATTERN "*.css"
                           PATTERN "*.md"
            PATTERN node_modules EXCLUDE PATTERN vendor EXCLUDE PATTERN locale EXCLUDE
            PATTERN package*.json EXCLUDE PATTERN install.sh EXCLUDE)
    # The bundles deploy/overlays/install.sh copies from npm into vendor/
    # (not in git): without them the hall, phone and overlay pages load but
    # never connect, so installing or packaging the hub fails instead.
    # TNY_PAGES_VENDOR (environment, at install/cpack time) takes them from
    # another directory, e.g. one copied from a machine with npm.
    install(CODE "
        set(vendor \"\$ENV{TNY_PAGES_VENDOR}\")
        if(vendor STREQUAL \"\")
            set(vendor \"${PROJECT_SOURCE_DIR}/deploy/overlays/vendor\")
        endif()
        foreach(f mqtt.min.js mqtt.LICENSE.md qrcode.js protobuf.min.js
                  protobuf.LICENSE.md tourney-proto.js)
            if(NOT EXISTS \"\${vendor}/\${f}\")
                message(FATAL_ERROR \"the pages' npm bundle \${vendor}/\${f} is missing: run deploy/overlays/install.sh before packaging (without it the hall, phone and overlay pages cannot connect)\")
            endif()
        endforeach()
        file(INSTALL \"\${vendor}/mqtt.min.js\" \"\${vendor}/mqtt.LICENSE.md\"
             \"\${vendor}/qrcode.js\" \"\${vendor}/protobuf.min.js\"
             \"\${vendor}/protobuf.LICENSE.md\" \"\${vendor}/tourney-proto.js\"
             DESTINATION \"\${CMAKE_INSTALL_PREFIX}/share/tourney/www/vendor\")
        # the pages' words, converted from today's po/tourney-pages/*.po
        # (deploy/overlays/po2js.mjs, needs install.sh's node_modules)
        execute_process(COMMAND node \"${PROJECT_SOURCE_DIR}/deploy/overlays/po2js.mjs\"
                        --po \"${PROJECT_SOURCE_DIR}/po/tourney-pages\"
                        --out \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/tourney/www/locale/catalogues.js\"
                        RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR \"the pages' catalogues (po/tourney-pages) could not be converted: run deploy/overlays/install.sh first\")
        endif()
        # play.html's result forms: the engine's result schema (issue 20)
        execute_process(COMMAND \"$<TARGET_FILE:tourney>\" result-schema --js
                        OUTPUT_FILE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/tourney/www/vendor/result-schema.js\"
                        RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR \"tourney result-schema --js failed: play.html has no result form\")
        endif()
        " COMPONENT hub)
    # NTP for the venue's Pis (docs/protocol.md "Time sync"); chrony is
    # recommended, the file is inert without it.
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub/chrony-venue.conf
            DESTINATION /etc/chrony/conf.d RENAME tourney-venue.conf
            COMPONENT hub)
    if(TNY_MAN)
        tny_man_page(hub tourney-hub 1 "tournament hub daemon"
                     $<TARGET_FILE:tourney-hub> TARGET tourney-hub)
        tny_man_page(hub tourney-venue-setup 8 "set up the venue server's brokers"
                     ${PROJECT_SOURCE_DIR}/deploy/hub/tourney-venue-setup)
    endif()
    list(APPEND CPACK_COMPONENTS_ALL hub)
endif()

# ---- table: the client at every table ---------------------------------------------
if(TARGET tourney-table)
    install(TARGETS tourney-table RUNTIME DESTINATION bin COMPONENT table)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/table.conf.example
            DESTINATION /etc/tourney RENAME table.conf COMPONENT table)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table.service
                  ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table-firstboot.service
            DESTINATION ${TNY_UNITDIR} COMPONENT table)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table-firstboot
            DESTINATION sbin COMPONENT table)
    if(TNY_MAN)
        tny_man_page(table tourney-table 1 "tournament table client"
                     $<TARGET_FILE:tourney-table> TARGET tourney-table)
        tny_man_page(table tourney-table-firstboot 8
                     "configure a table from its SD card's boot partition"
                     ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table-firstboot)
    endif()
    list(APPEND CPACK_COMPONENTS_ALL table)
endif()

# ---- per package: copyright, changelog, maintainer scripts ----------------------
set(TNY_DEB_DIR ${PROJECT_BINARY_DIR}/deb)
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.in
               ${TNY_DEB_DIR}/changelog @ONLY)
execute_process(COMMAND gzip -9nc ${TNY_DEB_DIR}/changelog
                OUTPUT_FILE ${TNY_DEB_DIR}/changelog.gz RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip of the package changelog failed")
endif()
foreach(comp ${CPACK_COMPONENTS_ALL})
    string(TOUPPER ${comp} COMP)
    set(PKG tourney-${comp})
    set(TNY_COPYRIGHT_EXTRA "")
    if(comp STREQUAL hub)
        file(READ ${PROJECT_SOURCE_DIR}/cmake/deb/copyright-pages.in TNY_COPYRIGHT_EXTRA)
    endif()
    configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/copyright.in
                   ${TNY_DEB_DIR}/${comp}/copyright @ONLY)
    install(FILES ${TNY_DEB_DIR}/${comp}/copyright ${TNY_DEB_DIR}/changelog.gz
            DESTINATION share/doc/${PKG} COMPONENT ${comp})
    set(CPACK_DEBIAN_${COMP}_PACKAGE_NAME ${PKG})
    set(CPACK_DEBIAN_${COMP}_FILE_NAME DEB-DEFAULT)
    if(comp STREQUAL cli)
        continue()
    endif()
    set(UNIT tourney-${comp}.service)
    set(CONF ${comp}.conf)
    # Units enabled beside the main one (the hub's brokers are enabled by
    # tourney-venue-setup, once their configuration exists).
    set(EXTRA_UNITS "")
    if(comp STREQUAL table)
        set(EXTRA_UNITS tourney-table-firstboot.service)
    endif()
    set(dir ${TNY_DEB_DIR}/${comp})
    configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/postinst.in ${dir}/postinst @ONLY)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/prerm.in ${dir}/prerm @ONLY)
    file(WRITE ${dir}/conffiles "/etc/tourney/${CONF}\n")
    if(comp STREQUAL hub)
        file(APPEND ${dir}/conffiles "/etc/chrony/conf.d/tourney-venue.conf\n")
    endif()
    set(CPACK_DEBIAN_${COMP}_PACKAGE_CONTROL_EXTRA
        ${dir}/postinst ${dir}/prerm ${dir}/conffiles)
endforeach()

set(CPACK_PACKAGE_NAME tourney)
set(CPACK_PACKAGE_VENDOR "Tourney")
set(CPACK_PACKAGE_CONTACT "${TNY_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Summary line, then the extended description (lintian wants both).
set(CPACK_DEBIAN_CLI_DESCRIPTION "tournament engine and organiser's command line
The tourney program of Tourney, for an organiser's laptop: the rules
engine of five board and card games on event files (standings, pairings,
tiebreaks, cuts), printouts of pairings, result slips and standings, imports
from ListFortress, Cryodex and Cobra, and `tourney live`, which drives a
Tourney hub over MQTT (the dashboard included).  No service is installed.")
set(CPACK_DEBIAN_HUB_DESCRIPTION "tournament hub daemon and venue server
The Tourney hub keeps every event of a venue in SQLite, runs the rules
engine, takes the results the tables send over MQTT and publishes
pairings, clocks and the public feed.  The package also sets up the venue's
brokers (mosquitto) and serves the hall screen, phone and stream overlay
pages.  The organiser's tourney command comes from tourney-cli.")
set(CPACK_DEBIAN_TABLE_DESCRIPTION "tournament table client (Raspberry Pi)
The client at a Tourney table: it shows who plays there, runs the table's
clock, takes the result and has every player confirm it, and keeps
unsent results in an outbox until the hub acknowledges them.  Includes the
first-boot configuration of a table from its SD card's boot partition.")
# Explicit Debian 12 runtime libraries (dpkg-shlibdeps does not work cross;
# Paho is loaded with dlopen, so its packages are named here).
set(TNY_LIB_DEPENDS
    "libc6, libjansson4, libyajl2, libcsv3, libsqlite3-0, libpaho-mqtt1.3, libprotobuf-c1, libssl3, libncursesw6")
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "${TNY_LIB_DEPENDS}, libqrencode4, ${TNY_CJK_FONT_PACKAGE}")
set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "chromium")
# The hub package runs the venue's brokers too: mosquitto (and openssl for
# gen-config.sh --gen-tls), and the feed's WebSocket front
# (feed-front.js: node with Debian's ws and serve-static; the versions
# Debian 12 has, node 18, ws 8.11, serve-static 1.15, are what the front's
# tests ran on: tests/e2e/lib.sh, TNY_FRONT_NODE and TNY_FRONT_NODE_PATH;
# ws 8 is where WebSocketServer is named).
set(CPACK_DEBIAN_HUB_PACKAGE_DEPENDS
    "${TNY_LIB_DEPENDS}, passwd, mosquitto (>= 2.0), openssl, nodejs (>= 18), node-ws (>= 8.11), node-serve-static (>= 1.15), tourney-cli (= ${PROJECT_VERSION}), ${TNY_CJK_FONT_PACKAGE}")
set(CPACK_DEBIAN_TABLE_PACKAGE_DEPENDS "${TNY_LIB_DEPENDS}, passwd")
set(CPACK_DEBIAN_HUB_PACKAGE_RECOMMENDS "chrony")
include(CPack)
