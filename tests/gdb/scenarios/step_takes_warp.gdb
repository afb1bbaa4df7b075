# `step` from a lane reported at an unconditional breakpoint takes its
# warp into the call with it (the lanes queued at the breakpoint go
# along): every lane of the warp is in `square` with its own argument,
# and `finish` brings the warp back. Results are unchanged.
# mode: basic
set breakpoint pending on
set scheduler-locking step
break gdb_kernels.c:@MARK_call@
continue
step
thread 5
frame
print v
delete
finish
continue
# expect-gdb: ^square \(v=[0-9]+\) at .*gdb_kernels.c:@MARK_square@
# expect-gdb: ^#0 +square \(v=[0-9]+\) at .*gdb_kernels.c:@MARK_square@
# expect-gdb: ^Value returned is \$[0-9]+ = 9$
# reject-gdb: hit Breakpoint 1, .*\n.*\n.*hit Breakpoint 1
# reject-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
