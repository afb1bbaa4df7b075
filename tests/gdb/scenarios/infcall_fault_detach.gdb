# A function gdb calls on a lane faults, gdb stays in the faulting frame
# (the default: "GDB remains in the frame where the signal was received")
# and detaches. The server puts the lane's registers from before the call
# back and has the device forget the call's fault: the program runs on
# as if gdb had never called, with the right results. Until 2026-11-28
# the launch ended with the call's fault ("instruction access fault:
# cannot execute at 0x00000010"), which the program never made.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 2
continue
call ((int (*)(int))0x10)(1)
bt 1
detach
# expect-gdb: signaled while in a function called from GDB
# expect-gdb: ^#0  0x00000010 in
# expect-gdb: Remote target\) detached
# expect-app: result ok
# reject-app: fault
# expect-exit: 0
