# cmake/Packaging.cmake - install rules and CPack DEB packages:
#   tourney-hub   : tourney-hub + tourney CLI, /etc/tourney/hub.conf,
#                   tourney-hub.service; the venue server's brokers
#                   (tourney-venue-setup, gen-config.sh, tourney-broker and
#                   tourney-feed units; depends on mosquitto) and the pages
#                   the feed broker serves (/usr/share/tourney/www); chrony's venue NTP snippet
#   tourney-table : tourney-table, /etc/tourney/table.conf,
#                   tourney-table.service, the first-boot configuration
#                   from the boot partition (tourney-table-firstboot)
# `cpack -G DEB` in a build dir; with cmake/aarch64-linux-gnu.cmake the
# packages are arm64.  Maintainer scripts: cmake/deb/.  /var/lib/tourney and
# the tourney user are made by postinst, never removed (the outbox / hub.db).
include(GNUInstallDirs)
set(TNY_UNITDIR lib/systemd/system)

if(TARGET tourney-hub)
    install(TARGETS tourney-hub tourney RUNTIME DESTINATION bin COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub.conf.example
            DESTINATION /etc/tourney RENAME hub.conf COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub/tourney-hub.service
                  ${PROJECT_SOURCE_DIR}/deploy/broker/tourney-broker.service
                  ${PROJECT_SOURCE_DIR}/deploy/broker/tourney-feed.service
            DESTINATION ${TNY_UNITDIR} COMPONENT hub)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/hub/tourney-venue-setup
            DESTINATION sbin COMPONENT hub)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/broker/gen-config.sh
            DESTINATION share/tourney/broker COMPONENT hub)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/broker/README.md
            DESTINATION share/tourney/broker COMPONENT hub)
    # The pages the feed broker serves (gen-config.sh --http-dir): static
    # files only; vendor/ holds the npm bundles deploy/overlays/install.sh
    # copied (present when the package is built after it, as CI does).
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/deploy/overlays/
            DESTINATION share/tourney/www COMPONENT hub
            FILES_MATCHING PATTERN "*.html" PATTERN "*.js" PATTERN "*.css"
                           PATTERN "*.md"
            PATTERN node_modules EXCLUDE PATTERN package*.json EXCLUDE
            PATTERN install.sh EXCLUDE)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/deploy/overlays/vendor)
        message(STATUS "deploy/overlays/vendor/ missing: run deploy/overlays/install.sh before packaging, or the pages cannot connect")
    endif()
    # NTP for the venue's Pis (docs/protocol.md "Time sync"); chrony is
    # recommended, the file is inert without it.
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/hub/chrony-venue.conf
            DESTINATION /etc/chrony/conf.d RENAME tourney-venue.conf
            COMPONENT hub)
    list(APPEND CPACK_COMPONENTS_ALL hub)
endif()
if(TARGET tourney-table)
    install(TARGETS tourney-table RUNTIME DESTINATION bin COMPONENT table)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/table.conf.example
            DESTINATION /etc/tourney RENAME table.conf COMPONENT table)
    install(FILES ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table.service
                  ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table-firstboot.service
            DESTINATION ${TNY_UNITDIR} COMPONENT table)
    install(PROGRAMS ${PROJECT_SOURCE_DIR}/deploy/pi/tourney-table-firstboot
            DESTINATION sbin COMPONENT table)
    list(APPEND CPACK_COMPONENTS_ALL table)
endif()

foreach(comp hub table)
    string(TOUPPER ${comp} COMP)
    set(PKG tourney-${comp})
    set(UNIT tourney-${comp}.service)
    set(CONF ${comp}.conf)
    # Units enabled beside the main one (the hub's brokers are enabled by
    # tourney-venue-setup, once their configuration exists).
    set(EXTRA_UNITS "")
    if(comp STREQUAL table)
        set(EXTRA_UNITS tourney-table-firstboot.service)
    endif()
    set(dir ${PROJECT_BINARY_DIR}/deb/${comp})
    configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/postinst.in ${dir}/postinst @ONLY)
    configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/prerm.in ${dir}/prerm @ONLY)
    file(WRITE ${dir}/conffiles "/etc/tourney/${CONF}\n")
    if(comp STREQUAL hub)
        file(APPEND ${dir}/conffiles "/etc/chrony/conf.d/tourney-venue.conf\n")
    endif()
    set(CPACK_DEBIAN_${COMP}_PACKAGE_CONTROL_EXTRA
        ${dir}/postinst ${dir}/prerm ${dir}/conffiles)
    set(CPACK_DEBIAN_${COMP}_PACKAGE_NAME ${PKG})
    set(CPACK_DEBIAN_${COMP}_FILE_NAME DEB-DEFAULT)
endforeach()

set(CPACK_PACKAGE_NAME tourney)
set(CPACK_PACKAGE_VENDOR "Tourney")
set(CPACK_PACKAGE_CONTACT "Tourney organisers <tourney@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_HUB_DESCRIPTION "Tourney hub daemon and organiser CLI")
set(CPACK_DEBIAN_TABLE_DESCRIPTION "Tourney table client (Raspberry Pi)")
set(CPACK_COMPONENT_HUB_DESCRIPTION "Tourney hub daemon and organiser CLI")
set(CPACK_COMPONENT_TABLE_DESCRIPTION "Tourney table client (Raspberry Pi)")
# Explicit Debian 12 runtime libraries (dpkg-shlibdeps does not work cross).
# The hub package runs the venue's brokers too: mosquitto (and openssl for
# gen-config.sh --gen-tls).
set(CPACK_DEBIAN_HUB_PACKAGE_DEPENDS
    "libc6, libjansson4, libcsv3, libsqlite3-0, libpaho-mqtt1.3, libprotobuf-c1, libssl3, libncursesw6, passwd, mosquitto (>= 2.0), openssl")
set(CPACK_DEBIAN_TABLE_PACKAGE_DEPENDS
    "libc6, libjansson4, libcsv3, libsqlite3-0, libpaho-mqtt1.3, libprotobuf-c1, libssl3, libncursesw6, passwd")
set(CPACK_DEBIAN_HUB_PACKAGE_RECOMMENDS "chrony")
include(CPack)
