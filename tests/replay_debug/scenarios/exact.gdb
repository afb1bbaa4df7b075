# Hit-count stepping is exact: k instructions forwards then k backwards
# give the same registers, bit for bit (into and out of a call).
source @SRCDIR@/rd_check.py
set breakpoint pending on
break rd_kernels.c:@MARK_call@ if $block_x == 2 && $thread_x == 33
continue
rd-exact 1
rd-exact 7
rd-exact 25
step
rd-expect
finish
reverse-finish
rd-expect
# expect-gdb: RD-EXACT OK 1 steps
# expect-gdb: RD-EXACT OK 7 steps
# expect-gdb: RD-EXACT OK 25 steps
# reject-gdb: RD-EXACT FAIL
# reject-gdb: RD-CHECK FAIL
# expect-gdb: RD-CHECK OK mix line @MARK_mix@ a=806 b=161
# count-gdb: 1 RD-CHECK OK line @MARK_call@ i=161
# expect-gdb: Value returned is \$1 = 
