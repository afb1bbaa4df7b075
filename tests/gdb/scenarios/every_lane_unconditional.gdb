# Every lane that reaches an unconditional breakpoint is a thread gdb hears
# about (issue 17 item 4): the 64 threads of 2 blocks stop one at a time, in
# lane order within each warp, the hit count counts threads, `ignore`
# skips threads. A `next` from one lane is interrupted by the next lane's
# stop at the breakpoint (gdb's rule for any thread hitting a breakpoint
# while another steps); once the breakpoint is deleted the lanes still
# queued are dropped and `next` steps. Results are unchanged.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
ignore 1 26
continue
printf "hit %d %d\n", $block_x, $thread_x
continue
printf "hit %d %d\n", $block_x, $thread_x
next
printf "hit %d %d\n", $block_x, $thread_x
info breakpoints
delete
next
printf "next %d %d\n", $block_x, $thread_x
continue
# expect-gdb: ^hit 0 0$
# expect-gdb: ^hit 0 1$
# expect-gdb: ^hit 0 2$
# expect-gdb: ^hit 0 29$
# expect-gdb: ^hit 0 30$
# expect-gdb: ^hit 0 31$
# expect-gdb: breakpoint already hit 32 times
# reject-gdb: received signal SIGTRAP
# reject-gdb: ^hit 1 
# expect-gdb: ^next 0 31$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
