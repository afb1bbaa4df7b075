# finish and reverse-finish in a kernel's own frame. finish stops where
# the followed thread retires (the exit stub, 0xffff0000), as in live
# debugging: other threads' retirement there is not a hit (gdb stepped
# each of them over it, and a retired thread has nothing to step to:
# gdb was left at the frame end and crashed at its next resume).
# reverse-finish goes back to the launch's call of the kernel (the exit
# stub's 0xfffefffc, before the thread's first instruction), where stepi
# reaches the kernel's first instruction again (gdb stepped the other
# threads back over its breakpoint at the kernel's entry, past their
# first instruction to the frame start, and crashed at the next resume).
set breakpoint pending on
break rd_kernels.c:@MARK_add@ if $block_x == 1 && $thread_x == 5
continue
finish
printf "FINISH %d %d %d\n", $block_x, $thread_x, $pc == 0xffff0000
reverse-continue
printf "BACK AT HIT %d %d\n", $block_x, $thread_x
reverse-finish
printf "CALL %d %d %d\n", $block_x, $thread_x, $pc == 0xfffefffc
monitor position
bt 1
stepi
printf "ENTRY %d %d %d\n", $block_x, $thread_x, $pc == (long)&frame
info threads 1
continue
printf "HIT AGAIN %d %d\n", $block_x, $thread_x
# expect-gdb: FINISH 1 5 1
# expect-gdb: BACK AT HIT 1 5
# expect-gdb: CALL 1 5 1
# expect-gdb: at the launch's call of its kernel \(0xfffefffc\), before its first instruction
# expect-gdb: #0  0xfffefffc in __ws_thread_exit \(\)
# expect-gdb: ENTRY 1 5 1
# expect-gdb: HIT AGAIN 1 5
# reject-gdb: No more reverse-execution history
# reject-gdb: Fatal signal
# reject-gdb: internal-error
