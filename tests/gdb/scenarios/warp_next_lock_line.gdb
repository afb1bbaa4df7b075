# next_lock_line.gdb with gdb threads that are warps (`warpscope debug
# --threads warp`): the same step, the same answers, and the note names
# the warp as gdb knows it (Thread 2, its lane 5). Until 2026-11-28 the
# notes of a step named the lane's id in the lane view ("thread 7"),
# which is no thread of gdb's in this view.
# mode: lock_line
# via-cli: yes
# cli-opts: --threads warp
set breakpoint pending on
break gdb_kernels.c:@MARK_lock_take@ if $thread_x == 5
continue
next
info line *$pc
print $thread_x
print *lock
print *count
print order[5]
info threads
delete
continue
# expect-gdb: hit Breakpoint 1, lock_line .*gdb_kernels.c:@MARK_lock_take@
# expect-gdb: ^\[lanes 0xffffffc0 of the warp of Thread 2 \(lane 5\) are still on the line after 100000 instructions of the warp: the step ends without them\]
# expect-gdb: ^@MARK_lock_held@\s
# expect-gdb: ^Line @MARK_lock_held@ of .*gdb_kernels.c"
# expect-gdb: \$1 = 5$
# expect-gdb: \$2 = 1$
# expect-gdb: \$3 = 5$
# expect-gdb: \$4 = 0$
# expect-gdb: Thread 2 "block \(0,0,0\) thread \(5,0,0\) core 0 warp 0 lane 5 \(focus; 27 live lanes\)" +lock_line .*gdb_kernels.c:@MARK_lock_held@
# expect-gdb: exited normally
# expect-app: lock taken 32 times, lock free
# expect-app: result ok
# expect-exit: 0
