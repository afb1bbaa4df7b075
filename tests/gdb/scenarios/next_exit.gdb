# `next` past a kernel's last line stops at the thread's exit instead of
# failing ("Cannot find bounds of current function"); the next `next`
# lets the thread end and the program run on. Results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 3
continue
delete
next
next
next
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# reject-gdb: Cannot find bounds of current function
# reject-gdb: 0xffff0000 in \?\? \(\)
# expect-app: result ok
# expect-exit: 0
