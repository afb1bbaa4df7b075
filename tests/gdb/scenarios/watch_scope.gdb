# A plain `watch` on an expression that uses a kernel parameter (gdb adds a
# scope breakpoint at the kernel's return address, the exit stub): it stops
# on both writes of thread (7) of block 1, is deleted when that thread
# leaves the kernel, and the program's results are unchanged. `bt` ends at
# the exit stub, the kernel's outermost caller.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 7
continue
bt
watch out[39]
delete 1
continue
continue
continue
continue
# expect-gdb: #1  0xffff0000 in __ws_thread_exit \(\)
# reject-gdb: 0xffff0000 in \?\? \(\)
# reject-gdb: Backtrace stopped
# reject-gdb: Cannot insert breakpoint
# reject-gdb: Cannot access memory at address 0xffff0000
# expect-gdb: Hardware watchpoint 2: out\[39\]
# expect-gdb: New value = 1912
# expect-gdb: New value = 1913
# expect-gdb: Watchpoint 2 deleted because the program has left the block
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
