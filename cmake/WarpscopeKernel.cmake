# ws_add_kernel(<target> OUTPUT <file.elf> SOURCES <src>... [FLAGS <cc flags>...]
#               [DEPENDS <files>...])
# Builds a kernel module with `warpscope cc`. A relative OUTPUT is placed in
# the current binary directory. <target> is an ALL target producing it. The
# module is rebuilt when a source, a header next to a source, the device
# headers, the device library or anything in DEPENDS changes.
function(ws_add_kernel target)
  cmake_parse_arguments(K "" "OUTPUT" "SOURCES;FLAGS;DEPENDS" ${ARGN})
  if(NOT K_OUTPUT OR NOT K_SOURCES)
    message(FATAL_ERROR "ws_add_kernel(${target}): OUTPUT and SOURCES are required")
  endif()
  if(NOT IS_ABSOLUTE ${K_OUTPUT})
    set(K_OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${K_OUTPUT})
  endif()
  set(srcs "")
  set(local_headers "")
  foreach(s ${K_SOURCES})
    if(NOT IS_ABSOLUTE ${s})
      set(s ${CMAKE_CURRENT_SOURCE_DIR}/${s})
    endif()
    list(APPEND srcs ${s})
    get_filename_component(sdir ${s} DIRECTORY)
    file(GLOB hdrs ${sdir}/*.h)
    list(APPEND local_headers ${hdrs})
  endforeach()
  # WS_PREBUILT_KERNELS: another build tree of this source tree (the plain
  # build of scripts/test.sh) whose kernel modules, where it has built them
  # already, are taken as they are:
  # device code does not depend on how the host code is built, and the
  # sanitizer build saves compiling every kernel again (docs/testing.md).
  # (Not a kernel built from generated sources: a host program of this
  # build writes them, and the copy would come from the other's.)
  file(RELATIVE_PATH rel ${CMAKE_BINARY_DIR} ${K_OUTPUT})
  set(generated 0)
  foreach(s ${srcs})
    string(FIND "${s}" "${CMAKE_BINARY_DIR}/" at)
    if(at EQUAL 0)
      set(generated 1)
    endif()
  endforeach()
  if(WS_PREBUILT_KERNELS AND NOT generated AND NOT rel MATCHES "^\\.\\." AND EXISTS ${WS_PREBUILT_KERNELS}/${rel})
    add_custom_command(
      OUTPUT ${K_OUTPUT}
      COMMAND ${CMAKE_COMMAND} -E copy ${WS_PREBUILT_KERNELS}/${rel} ${K_OUTPUT}
      DEPENDS ${WS_PREBUILT_KERNELS}/${rel}
      COMMENT "Copying kernel module ${rel} from ${WS_PREBUILT_KERNELS}"
      VERBATIM)
    add_custom_target(${target} ALL DEPENDS ${K_OUTPUT})
    return()
  endif()
  file(GLOB ws_kernel_headers ${CMAKE_SOURCE_DIR}/kernel/include/warpscope/*.h)
  add_custom_command(
    OUTPUT ${K_OUTPUT}
    COMMAND $<TARGET_FILE:warpscope_cli> cc -o ${K_OUTPUT} ${K_FLAGS} ${srcs}
    DEPENDS ${srcs} ${local_headers} ${K_DEPENDS} warpscope_cli ws_device_lib ${ws_kernel_headers}
            # the archive itself: naming the custom target ws_device_lib only
            # orders the builds, it does not relink a module when the device
            # library changes
            ${CMAKE_BINARY_DIR}/kernel/libwsdevice.a ${CMAKE_BINARY_DIR}/kernel/libwsatomic.a
            ${CMAKE_BINARY_DIR}/kernel/libwsmath.a ${CMAKE_BINARY_DIR}/kernel/libwsgcc.a
            ${CMAKE_SOURCE_DIR}/kernel/warpscope.ld ${CMAKE_SOURCE_DIR}/include/warpscope/abi.h
    COMMENT "Building kernel module ${K_OUTPUT}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${K_OUTPUT})
endfunction()

# ws_kernel_test(<test name> SOURCE <test.c> KERNEL <kernels.c> [TIMEOUT <s>])
# A test program run with the kernel module built from <kernels.c> as its
# one argument (the common shape of the tests/<area> folders).
function(ws_kernel_test test)
  cmake_parse_arguments(T "" "SOURCE;KERNEL;TIMEOUT" "" ${ARGN})
  get_filename_component(stem ${T_SOURCE} NAME_WE)
  get_filename_component(kstem ${T_KERNEL} NAME_WE)
  string(MAKE_C_IDENTIFIER "${test}" tid)
  ws_add_kernel(${tid}_kernels OUTPUT ${kstem}.elf SOURCES ${T_KERNEL})
  add_executable(${stem} ${T_SOURCE})
  target_link_libraries(${stem} PRIVATE warpscope_static)
  add_dependencies(${stem} ${tid}_kernels)
  add_test(NAME ${test} COMMAND ${stem} ${CMAKE_CURRENT_BINARY_DIR}/${kstem}.elf)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  set_tests_properties(${test} PROPERTIES TIMEOUT ${T_TIMEOUT})
endfunction()
