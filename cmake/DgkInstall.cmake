include(CMakePackageConfigHelpers)
get_property(DGK_COMPONENT_TARGETS GLOBAL PROPERTY DGK_COMPONENTS)
install(TARGETS ${DGK_COMPONENT_TARGETS} dgk_dgk dgk_build_options EXPORT dgkTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT dgkTargets NAMESPACE dgk:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dgk)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dgkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dgkConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dgk)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dgkConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dgkConfig.cmake ${PROJECT_BINARY_DIR}/dgkConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/dgk)
