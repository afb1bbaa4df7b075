# share/gdb/warpscope.py's ws-focus: one command selects the thread that
# runs given coordinates and shows its frame, in both views: a thread per
# lane (switches to the lane's thread), and a thread per warp (threads=warp,
# via WS_GDB_THREADS in gdb.e2e.warp_view.ws_focus: the lane becomes the
# warp's focus and gdb reads its registers again). Locals are that lane's.
# mode: basic
source @ROOT@/share/gdb/warpscope.py
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 0
continue
ws-focus block 1 thread 3
printf "at %d %d i=%d sq=%d\n", $block_x, $thread_x, i, sq
ws-focus block 1 thread 7
printf "at %d %d i=%d\n", $block_x, $thread_x, i
ws-focus block 5 thread 1
delete
continue
# expect-gdb: \[Switching to thread [0-9]+ \(Thread [0-9]+\): block \(1,0,0\) thread \(3,0,0\) core [0-9]+ warp [0-9]+ lane 3\]
# expect-gdb: ^#0 +scale \(.*\) at .*gdb_kernels.c:@MARK_store@
# expect-gdb: ^at 1 3 i=35 sq=1225$
# expect-gdb: ^at 1 7 i=39$
# expect-gdb: no live thread has block \(5,0,0\) thread \(1,0,0\)
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
