# A breakpoint the whole warp reaches in one instruction: from thread
# 31's hit, reverse-continue stops at thread 30, then 29; continue then
# goes on with thread 30, then 31, as after a forward stop (gdb steps the
# reported lane off the breakpoint first). Until 2026-11-29 the continue
# after a reverse-continue passed the rest of the warp-instruction and
# ran to the frame end.
break rd_lanes_kernel.c:@MARK_store@ if $thread_x == 31
continue
delete
break rd_lanes_kernel.c:@MARK_transform_call@
break rd_lanes_kernel.c:@MARK_store@
reverse-continue
printf "BACK1 %d\n", $thread_x
reverse-continue
printf "BACK2 %d\n", $thread_x
continue
printf "FWD1 %d\n", $thread_x
info line *$pc
continue
printf "FWD2 %d\n", $thread_x
continue
printf "FWD3 %d\n", $thread_x
# expect-gdb: ^BACK1 30$
# expect-gdb: ^BACK2 29$
# expect-gdb: ^FWD1 30$
# expect-gdb: ^Line @MARK_store@ of ".*rd_lanes_kernel.c"
# expect-gdb: ^FWD2 31$
# expect-gdb: No more reverse-execution history
# count-gdb: 1 No more reverse-execution history
