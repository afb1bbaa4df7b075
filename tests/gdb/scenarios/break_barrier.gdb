# A breakpoint on a __syncthreads() line stops before the barrier (until
# 2026-11-28 the line had no code of its own, the barrier's instructions
# carrying kernel.h's lines, and gdb put the breakpoint on the next line,
# past the barrier); next then waits for the barrier and stops after it.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_barrier@ if $thread_x == 3 && $block_x == 1
continue
info line *$pc
print out[i]
next
print out[i]
delete
continue
# expect-gdb: hit Breakpoint 1, scale .*gdb_kernels.c:@MARK_barrier@
# expect-gdb: ^Line @MARK_barrier@ of .*gdb_kernels.c
# expect-gdb: \$1 = 1576
# expect-gdb: ^@MARK_after@\s
# expect-gdb: \$2 = 1576
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
