# A `next` interrupted by another thread's breakpoint: gdb steps one warp
# into a barrier while the block's other warp, still on its way, hits a
# breakpoint. The stepped warp's step ends too, but gdb has given up that
# `next` (it reports the breakpoint); when it then continues, that old
# step must not come back as a SIGTRAP nothing explains. Results unchanged.
# mode: meet
set breakpoint pending on
break gdb_kernels.c:@MARK_meet_value@ if $block_x == 0 && ($thread_x == 0 || $thread_x == 32)
continue
printf "first %d\n", $thread_x
next
next
printf "second %d\n", $thread_x
delete
continue
# expect-gdb: ^first (0|32)$
# expect-gdb: ^@MARK_meet_barrier@\s
# expect-gdb: ^second (0|32)$
# reject-gdb: SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
