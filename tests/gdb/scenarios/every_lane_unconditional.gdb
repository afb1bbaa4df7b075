# Every lane that reaches an unconditional breakpoint is a thread gdb hears
# about (issue 17 item 4): the 64 threads of 2 blocks stop one at a time, in
# lane order within each warp, the hit count counts threads, `ignore`
# skips threads. A `next` from one lane moves the warp: the lanes still
# queued at the breakpoint go along, unreported (until 2026-11-29 each
# interrupted the `next`, gdb's rule for a thread hitting a breakpoint
# while another steps; gdb.e2e.next_takes_warp). Results are unchanged.
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
set scheduler-locking step
next
printf "next %d %d\n", $block_x, $thread_x
info breakpoints
delete
next
printf "then %d %d\n", $block_x, $thread_x
continue
# expect-gdb: ^hit 0 0$
# expect-gdb: ^hit 0 1$
# expect-gdb: ^hit 0 2$
# expect-gdb: ^hit 0 29$
# expect-gdb: ^hit 0 30$
# expect-gdb: ^next 0 30$
# expect-gdb: breakpoint already hit 31 times
# reject-gdb: received signal SIGTRAP
# reject-gdb: ^hit 1 |^hit 0 31$
# expect-gdb: ^then 0 30$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
