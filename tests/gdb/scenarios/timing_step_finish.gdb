# The debugger in timing mode (mode=timing, on two host threads):
# a conditional breakpoint, step into a call, finish, next over the
# barrier, and finish in the kernel's own frame, which stops at the exit
# stub. (Before, that last stop hung the device: timing mode ignored the
# halt of a warp whose lanes were retiring, and retried it forever.)
# mode: basic
# env: GDB_APP_CONFIG=mode=timing,threads=2
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 2
continue
step
finish
next
next
next
next
print i
delete
finish
print $pc
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: square \(v=34\) at .*gdb_kernels.c:@MARK_square@
# expect-gdb: Value returned is \$1 = 1156
# expect-gdb: ^@MARK_after@[[:space:]]
# expect-gdb: \$2 = 34
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: \$3 = \(void \(\*\)\(\)\) 0xffff0000 <__ws_thread_exit\+4>
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
