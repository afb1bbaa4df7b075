# reverse-next over a line with a call ends in the caller on the line of
# the call: gdb reverse-steps into the callee's `ret` and must unwind it
# to recognise a callee of the stepping frame. Until `warpscope cc` added
# the epilogue rows to the CFI it stopped in mix at its last line
# (docs/toolchain.md, "Epilogue CFI").
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 1 && $thread_x == 5
continue
delete
next
printf "AT %d\n", $thread_x
reverse-next
bt 1
reverse-next
bt 1
# expect-gdb: ^@MARK_add@\s
# expect-gdb: ^AT 5$
# expect-gdb: ^#0 +(0x[0-9a-f]+ in )?frame \(.*rd_kernels.c:@MARK_call@$
# expect-gdb: ^#0 +(0x[0-9a-f]+ in )?frame \(.*rd_kernels.c:@MARK_start@$
# reject-gdb: in mix
