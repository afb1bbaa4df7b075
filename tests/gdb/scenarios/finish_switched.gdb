# `finish` in the kernel frame of a thread gdb was switched to (`thread
# N` after a stop in another thread) runs that thread to its exit and
# stops there, in it. Before 2026-11-29 the server stopped only the last
# stop's thread at the exit: gdb passed it over, the switched-to thread
# ended unseen and the program ran to its end ("exited normally" where
# the finish should have stopped).
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_after@ if $block_x == 1 && $thread_x == 7
continue
delete
thread 5
printf "SEL %d %d\n", $block_x, $thread_x
finish
printf "AT %d %d\n", $block_x, $thread_x
print $pc
continue
# expect-gdb: SEL 1 2
# expect-gdb: AT 1 2
# expect-gdb: \$1 = \(void \(\*\)\(\)\) 0xffff0000 <__ws_thread_exit\+4>
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
