# The exit stub library covers only the stub (0xfffefff4..) in `info
# sharedlibrary`: its ELF once also loaded its headers at 0x10000, and gdb
# showed the stub spanning 0x00010000-0xffff1030, over every module, stack
# and shared-memory address. The kernel frame still unwinds through it.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 2
continue
info sharedlibrary
bt
delete
finish
continue
# expect-gdb: 0xfffefff4 +0xffff00[0-9a-f]{2} +Yes.*target:/warpscope/exit-stub\.elf
# reject-gdb: 0x00010000 +0x[0-9a-f]+ .*exit-stub
# expect-gdb: #1  0xffff0000 in __ws_thread_exit \(\) from target:/warpscope/exit-stub\.elf
# expect-gdb: Run till exit|0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
