# A module's static shared memory where the device has it, also for a
# module loaded away from its link address (gdb_app shared_moved: a second
# copy of the kernels' module, loaded after the late module). The library
# list gives gdb each segment's address: code and data moved by the
# loader, shared memory left at its link address in the block's window.
# Before 2026-11-29 the list gave one address and gdb moved the shared
# variable with the code: `print &tile` said 0xd000b200 and `print tile[5]`
# could not read it.
# mode: shared_moved
set breakpoint pending on
break gdb_kernels.c:@MARK_tiles_start@ if $block_x == 2 && $thread_x == 1
continue
delete
print &tile
watch -l tile[5]
continue
print tile[5]
x/2dw &tile[5]
info sharedlibrary
delete
continue
# expect-gdb: \$1 = \(int \(\*\)\[32\]\) 0xd0000000 <
# expect-gdb: Hardware watchpoint 2: -location tile\[5\]
# expect-gdb: hit Hardware watchpoint 2: -location tile\[5\]
# expect-gdb: New value = 205
# expect-gdb: \$2 = 205
# expect-gdb: 0xd0000014 <[^>]*>:\s+205\s+206
# expect-gdb: ^0x0100[0-9a-f]{4}  0x0101[0-9a-f]{4}  Yes .*gdb_kernels\.elf
# reject-gdb: 0xd000b
# reject-gdb: Cannot access memory
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
