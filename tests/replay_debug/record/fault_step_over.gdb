# A breakpoint at the faulting instruction, reached backwards from the
# fault: reverse-continue stops at a lane before the faulting one there;
# continue then makes gdb step that lane alone over the breakpoint, and
# the fault of its warp ends the step on that lane (SIGSEGV; gdb 13
# fails an assertion when a thread it did not resume stops during its
# step over a breakpoint, so the stop is not the faulting lane's); the
# next continue passes the fault to the frame end.
continue
break *$pc
reverse-continue
printf "REV %d\n", $thread_x
continue
printf "C1 %d\n", $thread_x
continue
# count-gdb: 2 received signal SIGSEGV
# count-gdb: 2 ^load access fault: read of 4 bytes at 0x00000000: .*thread \(5,0,0\)
# expect-gdb: ^REV 4$
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(4,0,0\) [^"]*" received signal SIGSEGV
# expect-gdb: ^C1 4$
# expect-gdb: No more reverse-execution history
# reject-gdb: internal-error
