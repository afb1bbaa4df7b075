# At a breakpoint every lane of a warp-instruction reaches, consecutive
# continues report lanes 0, 1, 2 of that warp in turn, as the live server
# does (gdb steps the hit lane off the breakpoint first; that step passed
# the whole warp-instruction, so the next continue skipped to the next warp).
set breakpoint pending on
break rd_kernels.c:@MARK_add@
continue
printf "LANE %d %d\n", $block_x, $thread_x
continue
printf "LANE %d %d\n", $block_x, $thread_x
continue
printf "LANE %d %d\n", $block_x, $thread_x
reverse-continue
printf "BACK %d %d\n", $block_x, $thread_x
# expect-gdb: LANE 0 0
# expect-gdb: LANE 0 1
# expect-gdb: LANE 0 2
# expect-gdb: BACK 0 1
