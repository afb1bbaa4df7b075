# ws_qemu_program(<target> OUTPUT <file> COMPILE <compiler and flags...>
#                 SOURCES <files...> DEPENDS <headers...>)
# A bare-metal rv32imafc program for qemu-riscv32, as the differential tests
# build theirs (tests/qemu_diff, tests/cfdiff): each source compiled with
# COMPILE, linked at 0x10000 with the toolchain's libgcc; <target> builds it.
include_guard(GLOBAL)
find_program(WS_QEMU_PROGRAM_LLD NAMES ld.lld ld.lld-14 REQUIRED)

function(ws_qemu_program target)
  cmake_parse_arguments(Q "" "OUTPUT" "COMPILE;SOURCES;DEPENDS" ${ARGN})
  file(GLOB libgcc /usr/lib/gcc/riscv64-unknown-elf/*/rv32imafc/ilp32f/libgcc.a) # (the 64-bit divisions)
  get_filename_component(stem_out ${Q_OUTPUT} NAME_WE)
  get_filename_component(dir ${Q_OUTPUT} DIRECTORY)
  set(objs "")
  foreach(src ${Q_SOURCES})
    get_filename_component(stem ${src} NAME_WE)
    set(obj ${dir}/${stem_out}_${stem}.o)
    add_custom_command(OUTPUT ${obj} COMMAND ${Q_COMPILE} -c ${src} -o ${obj}
                       DEPENDS ${src} ${Q_DEPENDS} ${CMAKE_SOURCE_DIR}/tests/qemu_diff/qemu_sys.h VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  add_custom_command(OUTPUT ${Q_OUTPUT}
                     COMMAND ${WS_QEMU_PROGRAM_LLD} -m elf32lriscv -Ttext=0x10000 -e _start -o ${Q_OUTPUT} ${objs}
                             ${libgcc}
                     DEPENDS ${objs} VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${Q_OUTPUT})
endfunction()
