# A breakpoint condition gdb compiles is evaluated by the trigger condition
# unit (issue 17 item 8): of 2048 blocks passing the line, only the warp
# holding block 1000 thread 5 halts (one warp halt, not 2048), and the lane
# gdb hears of is that thread. Results are unchanged.
# mode: many
set breakpoint pending on
break gdb_kernels.c:@MARK_many@ if $thread_x == 5 && $block_x == 1000
continue
printf "hit %d %d\n", $block_x, $thread_x
monitor breakpoints
delete
continue
# expect-gdb: ^hit 1000 5$
# expect-gdb: warp halts at breakpoints since gdb attached: 1$
# expect-gdb: exited normally|exited with code 00
# reject-gdb: SIGTRAP|SIGSEGV
# expect-app: result ok
# expect-exit: 0
