# ws_add_kernel(<target> OUTPUT <file.elf> SOURCES <src.c>... [FLAGS <extra cc flags>...])
# placeholder until the kernel toolchain lands
function(ws_add_kernel target)
endfunction()
