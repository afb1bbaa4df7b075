# `advance LINE` and `until LINE` in a kernel's own frame (issue 17 item 3):
# gdb also puts a breakpoint at the kernel's return address, the exit stub,
# which now works; `until` on the kernel's last line runs the thread to its
# exit. Results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 3
continue
delete
advance @MARK_after@
print i
until @MARK_after@
continue
# expect-gdb: scale \(out=.*\) at .*gdb_kernels.c:@MARK_after@
# expect-gdb: \$1 = 3
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# reject-gdb: Cannot insert breakpoint
# reject-gdb: Cannot access memory
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
