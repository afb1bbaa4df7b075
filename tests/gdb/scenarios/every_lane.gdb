# Every lane that reaches a breakpoint is a thread gdb hears about (issue 17
# item 4): a condition that holds for threads 4-7 stops at each of the four
# in both blocks (gdb steps the reported thread over the breakpoint; the
# other lanes sit that step out and are reported next), and the hit count
# counts threads. Results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $thread_x >= 4 && $thread_x < 8
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
info breakpoints
continue
# expect-gdb: ^hit 0 4$
# expect-gdb: ^hit 0 5$
# expect-gdb: ^hit 0 6$
# expect-gdb: ^hit 0 7$
# expect-gdb: ^hit 1 4$
# expect-gdb: ^hit 1 5$
# expect-gdb: ^hit 1 6$
# expect-gdb: ^hit 1 7$
# expect-gdb: breakpoint already hit 8 times
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
