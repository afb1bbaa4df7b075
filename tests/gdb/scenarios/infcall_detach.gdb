# gdb leaves while a function it called on a lane is interrupted: the
# call of square(1234) stops at a breakpoint inside it ("The program being
# debugged stopped while in a function called from GDB"), and gdb
# detaches with its dummy frame still on the lane. The server puts back
# the registers the lane had before gdb's call, so it runs on from its
# line as if gdb had never called, and the results are right. Until
# 2026-11-28 the lane returned to gdb's return address on its stack and
# the launch ended with "instruction access fault: cannot execute at
# 0xc...". A call that ran to its end first (square(5)) is not undone.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 2
continue
print square(5)
break gdb_kernels.c:@MARK_square@ if v == 1234
call square(1234)
bt 3
detach
# expect-gdb: ^\$1 = 25$
# expect-gdb: hit Breakpoint 2, square \(v=1234\)
# expect-gdb: stopped while in a function called from GDB
# expect-gdb: ^#1  <function called from gdb>
# expect-gdb: Remote target\) detached
# expect-app: result ok
# reject-app: fault
# expect-exit: 0
