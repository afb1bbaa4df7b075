# `next` over a line on which the lanes of a warp spin on a lock taken
# with a compare-and-swap: lane 0 gets it first, the others retry at a
# lower pc than the holder, which only the starvation guard lets on (one
# instruction per guard turn while the warp is stepped), so lanes leave
# the line one by one, far apart. The step follows thread 5: it ends
# after 100,000 instructions of the warp with a note naming lanes 6-31,
# still spinning, and, gdb stepping on to the start of a line from where
# thread 5 was, with the warp reconverged after the line's last store:
# every lane took the lock once (count 32), thread 5 fifth (order[5] 5),
# and the lock is free. Until 2026-11-28 gdb range-stepped one
# line-table row (a part of the loop) at a time, a round trip every few
# instructions, and the step ended when thread 5 left the loop's last row
# with lanes 6-31 still on the line: it took 77 s, without the note.
# mode: lock_line
set breakpoint pending on
break gdb_kernels.c:@MARK_lock_take@ if $thread_x == 5
continue
print *lock
print *count
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
# expect-gdb: \$1 = 0$
# expect-gdb: \$2 = 0$
# expect-gdb: ^\[lanes 0xffffffc0 of the warp of thread 7 are still on the line after 100000 instructions of the warp: the step ends without them\]
# expect-gdb: ^@MARK_lock_end@\s
# expect-gdb: ^Line @MARK_lock_end@ of .*gdb_kernels.c" starts at address 0x[0-9a-f]+ <lock_line\+[0-9]+>
# expect-gdb: \$3 = 5$
# expect-gdb: \$4 = 0$
# expect-gdb: \$5 = 32$
# expect-gdb: \$6 = 5$
# expect-gdb: lane 31" +lock_line .*gdb_kernels.c:@MARK_lock_end@
# reject-gdb: lane [0-9]+" +(0x[0-9a-f]+ in )?lock_line .*:@MARK_lock_take@$
# expect-gdb: exited normally
# expect-app: lock taken 32 times, lock free
# expect-app: result ok
# expect-exit: 0
