# A watchpoint on shared memory watches the block of the thread gdb is on
# when it is set, and keeps watching that block. Stopped in block 0, gdb
# switches to a thread of block 1 and sets `watch -l tile[3]`: block 1's
# write (103) stops, block 0's (3) does not. A breakpoint in block 3 then
# stops gdb there: gdb takes its watchpoints out at every stop and puts
# them back as it resumes, and the watchpoint must still watch block 1,
# not block 3 (303). Before 2026-11-27 the block was the last stop's at
# each insertion: this watched block 0, and after the stop block 3.
# mode: shared
set breakpoint pending on
break gdb_kernels.c:@MARK_tiles_start@ if $block_x == 0 && $thread_x == 0
continue
delete 1
python gdb.execute("thread %d" % next(t.num for t in gdb.selected_inferior().threads() if t.name.startswith("block (1,0,0) thread (0,0,0)")))
print $block_x
watch -l tile[3]
break gdb_kernels.c:@MARK_tiles_write@ if $block_x == 3 && $thread_x == 0
continue
print $block_x
continue
print $block_x
continue
# expect-gdb: \$1 = 1
# expect-gdb: Hardware watchpoint 2: -location tile\[3\]
# expect-gdb: thread \(3,0,0\) core [0-9]+ warp [0-9]+ lane 3[" ][^"]*"? hit Hardware watchpoint 2: -location tile\[3\]
# expect-gdb: New value = 103
# expect-gdb: block \(3,0,0\) thread \(0,0,0\) [^"]*" hit Breakpoint 3
# reject-gdb: New value = 3$
# reject-gdb: New value = 303
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
