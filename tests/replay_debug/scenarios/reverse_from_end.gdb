# reverse-stepi from the frame end ends like any reverse-stepi: on the
# thread gdb followed there, at its last instruction (the kernel's ret),
# not a signal. The frame end carries the id that thread had at its last
# stop; before 2026-11-28 the end was thread 1 and the stop came on
# another thread, which gdb took for a random signal ("Thread N ...
# received signal SIGTRAP, Trace/breakpoint trap."), as stepi at the
# frame start did before 2026-11-27 (stepi_start_no_signal).
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 5
continue
continue
delete
continue
info threads
reverse-stepi
printf "LAST %d %d %d\n", $block_x, $thread_x, *(unsigned short *)$pc == 0x8082
reverse-stepi
printf "BEFORE %d %d\n", $thread_x, *(unsigned short *)$pc != 0x8082
stepi
stepi
info threads
reverse-stepi
printf "AGAIN %d %d\n", $thread_x, *(unsigned short *)$pc == 0x8082
# expect-gdb: frame end \(replay\)
# expect-gdb: No more reverse-execution history
# expect-gdb: LAST 1 5 1
# expect-gdb: BEFORE 5 1
# expect-gdb: AGAIN 5 1
# reject-gdb: received signal
