# Two tools on one device (issue 18): the profiler (WARPSCOPE_PROFILE,
# which replays each launch) and the gdb server attached together. gdb
# stops at a breakpoint in the first pass, the program runs on, the
# profile is written and the results are right.
# mode: basic
# env: WARPSCOPE_PROFILE=report=/dev/stderr,passes=2
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 3
continue
print i
delete
continue
# expect-gdb: Breakpoint 1, scale
# expect-gdb: \$1 = 35
# expect-gdb: exited normally
# expect-app: launch 1 scale grid \(2,1,1\) block \(32,1,1\)
# expect-app: result ok
# expect-exit: 0
