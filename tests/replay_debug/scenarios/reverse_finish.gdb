# reverse-finish from inside a call that every lane of the warp makes goes
# back to the followed thread's call site (the hit at the function's entry
# was reported for lane 31; gdb stepped that thread and ran off the frame
# start: "No more reverse-execution history").
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 5
continue
delete
step
next
reverse-finish
printf "BACK %d %d\n", $block_x, $thread_x
bt 1
# expect-gdb: BACK 1 5
# expect-gdb: #0 .* in frame \(.*rd_kernels.c:@MARK_call@
# reject-gdb: No more reverse-execution history
