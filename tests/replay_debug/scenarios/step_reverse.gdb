# Break in launch 1 at one thread, look, next x3, reverse-next x2,
# reverse-continue back to the hit, then to the frame start; forwards
# again through both launches to the frame end. rd-expect compares acc
# with the host's computation at each stop (8 stops).
source @SRCDIR@/rd_check.py
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 5
continue
print i
rd-expect
next
rd-expect
next
rd-expect
next
rd-expect
reverse-next
rd-expect
reverse-next
rd-expect
reverse-continue
rd-expect
info threads
bt
monitor position
reverse-continue
continue
continue
rd-expect
continue
# expect-gdb: hit Breakpoint 1, frame \(out=.*\) at .*rd_kernels.c:@MARK_call@
# expect-gdb: \$1 = 69
# expect-gdb: RD-CHECK OK line @MARK_call@ i=69
# expect-gdb: RD-CHECK OK line @MARK_add@ i=69
# expect-gdb: RD-CHECK OK line @MARK_loop@ i=69
# expect-gdb: RD-CHECK OK line @MARK_body@ i=69
# count-gdb: 3 RD-CHECK OK line @MARK_call@ i=69
# count-gdb: 8 RD-CHECK OK line
# reject-gdb: RD-CHECK FAIL
# expect-gdb: block \(1,0,0\) thread \(5,0,0\) core
# expect-gdb: __ws_thread_exit
# expect-gdb: No more reverse-execution history
# expect-gdb: frame replays
