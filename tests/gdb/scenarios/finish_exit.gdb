# `finish` in a kernel's own frame runs the thread to its exit (the exit
# stub at the return address) and stops there; `next` past the kernel's
# last line stops at the exit too, and the next `next` lets the thread end.
# Results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 0 && $thread_x == 3
continue
delete
finish
print $pc
continue
# expect-gdb: 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: \$1 = \(void \(\*\)\(\)\) 0xffff0000 <__ws_thread_exit\+4>
# reject-gdb: Cannot insert breakpoint
# reject-gdb: Cannot access memory
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
