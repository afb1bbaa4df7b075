# reverse-finish of one thread out of a function every thread of the
# launch calls, with more than one warp (or block) in it: gdb's
# breakpoint at the function's entry is reached by the other threads
# too, and gdb steps each one back over it before it reverse-continues.
# It must end in the caller, at the call, on the thread it finished.
# Until 2026-11-29 each such step back lost the hits of the lanes before
# the stepped one at that instruction, the finished thread's with them,
# and reverse-finish ran to the frame start.
break rd_lanes_kernel.c:@MARK_clamp_hi@ if $thread_x == 10 && $block_x == 1
continue
reverse-finish
printf "AT %d %d\n", $block_x, $thread_x
info line *$pc
x/i $pc
bt
# expect-gdb: ^AT 1 10$
# expect-gdb: ^Line @MARK_transform_call@ of ".*rd_lanes_kernel.c"
# expect-gdb: => 0x[0-9a-f]+ <transform\+[0-9]+>:.*jalr
# expect-gdb: #1 +0x[0-9a-f]+ in lanes
# reject-gdb: No more reverse-execution history
