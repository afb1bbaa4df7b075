# An `hbreak` and a `break` on the same line: a `next` from the reported
# lane takes its warp's queued lanes along past both, and the next stop
# is the other block's warp.
# mode: basic
set breakpoint pending on
set scheduler-locking step
hbreak gdb_kernels.c:@MARK_call@
break gdb_kernels.c:@MARK_call@
continue
printf "hit %d %d\n", $block_x, $thread_x
next
printf "next %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
delete
continue
# expect-gdb: ^hit 0 0$
# expect-gdb: ^next 0 0$
# expect-gdb: ^hit 1 0$
# reject-gdb: ^hit 0 [1-9]
# reject-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
