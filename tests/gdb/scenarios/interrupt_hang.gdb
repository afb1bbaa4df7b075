# Ctrl-C in a kernel that waits for a flag nobody sets: gdb stops the
# warp where it spins (SIGINT), `monitor warps` says gdb interrupted it
# (until 2026-11-28 it said "stopped with the others", for a warp alone
# on the device and stopped by gdb's request); a `next` over the loop,
# which cannot end while the flag is 0 (the device steps the warp on by
# itself), is interrupted by a second Ctrl-C; gdb sets the flag, `next`
# leaves the loop and `continue` ends the launch with the flag's value
# in every thread's output.
# mode: hang
shell (sleep 3; kill -INT $PPID) &
continue
bt
print *flag
info line *$pc
monitor warps
shell (sleep 2; kill -INT $PPID) &
next
print 1000 + $thread_x
set var *flag = 7
next
print $thread_x
continue
# expect-gdb: received signal SIGINT, Interrupt
# expect-gdb: in wait_flag \(flag=0x[0-9a-f]+, out=0x[0-9a-f]+\) at .*gdb_kernels.c:@MARK_hang_wait@
# expect-gdb: #1 +0xffff0000 in __ws_thread_exit
# expect-gdb: \$1 = 0$
# expect-gdb: ^Line @MARK_hang_wait@ of
# expect-gdb: core 0 warp 0: block \(0,0,0\), 32 live lanes, lowest pc 0x[0-9a-f]+, halted: interrupted by gdb$
# reject-gdb: stopped with the others
# expect-gdb: ^@MARK_hang_done@\s
# expect-gdb: \$2 = 1000$
# expect-gdb: \$3 = 0$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
