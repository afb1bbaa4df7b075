# `next` from a lane reported at an unconditional breakpoint moves its
# whole warp, as cuda-gdb's does: the warp's other lanes, queued at the
# breakpoint for gdb to hear one by one, go along instead of interrupting
# the `next` (until 2026-11-29 each did, and a 32-lane warp took 32
# `next`s to leave the line). They pass the breakpoint once, unseen: the
# next stop at it is the other block's warp. `continue` still hears every
# lane (gdb.e2e.every_lane_unconditional). Results are unchanged.
# mode: basic
set breakpoint pending on
set scheduler-locking step
break gdb_kernels.c:@MARK_call@
continue
printf "hit %d %d\n", $block_x, $thread_x
next
printf "next %d %d\n", $block_x, $thread_x
thread 3
printf "sibling %d %d\n", $block_x, $thread_x
frame
continue
printf "hit %d %d\n", $block_x, $thread_x
delete
continue
# expect-gdb: ^hit 0 0$
# expect-gdb: ^@MARK_store@\s
# expect-gdb: ^next 0 0$
# expect-gdb: ^sibling 0 1$
# expect-gdb: ^#0 +scale .*gdb_kernels.c:@MARK_store@
# expect-gdb: ^hit 1 0$
# reject-gdb: ^hit 0 [1-9]
# reject-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
