# cmake/Packaging.cmake - install rules and CPack DEB packages:
#   tourney-hub   : tourney-hub + tourney CLI, /etc/tourney/hub.conf,
#                   tourney-hub.service, chrony's venue NTP snippet
#   tourney-table : tourney-table, /etc/tourney/table.conf,
#                   tourney-table.service
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
            DESTINATION ${TNY_UNITDIR} COMPONENT hub)
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
            DESTINATION ${TNY_UNITDIR} COMPONENT table)
    list(APPEND CPACK_COMPONENTS_ALL table)
endif()

foreach(comp hub table)
    string(TOUPPER ${comp} COMP)
    set(PKG tourney-${comp})
    set(UNIT tourney-${comp}.service)
    set(CONF ${comp}.conf)
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
set(CPACK_DEBIAN_HUB_PACKAGE_DEPENDS
    "libc6, libjansson4, libcsv3, libsqlite3-0, libpaho-mqtt1.3, libprotobuf-c1, libssl3, libncursesw6, passwd")
set(CPACK_DEBIAN_TABLE_PACKAGE_DEPENDS
    "libc6, libjansson4, libcsv3, libsqlite3-0, libpaho-mqtt1.3, libprotobuf-c1, libssl3, libncursesw6, passwd")
set(CPACK_DEBIAN_HUB_PACKAGE_RECOMMENDS "chrony")
include(CPack)
