# `next` over a float atomicAdd, then over a double add by
# compare-and-swap, on a word every lane of the warp adds to. The float's
# is one instruction (amofadd.s, since 2026-11-28; before, a
# compare-and-swap loop): the step ends on the next line with every lane's
# add done (0 + 1 + ... + 31 = 496) and none of the next line run (count
# still 0). The double's is a compare-and-swap loop inlined into the line
# (as kernel.h's atomicAdd on a double was until 2026-11-28), which calls
# the device library (the 64-bit CAS, built without lines: gdb steps over
# it) and libgcc's soft-float add; in each round one lane's swap succeeds,
# so the lanes leave the loop one by one, and the step ends once, when the
# warp is past the line. Until 2026-11-28 such a step ended when the
# stepped lane (5) left the loop, with lanes 6-31 still in it, mid-line.
# mode: float_turns
set breakpoint pending on
break gdb_kernels.c:@MARK_float_add@ if $thread_x == 5
continue
print *sum
next
info line *$pc
print *sum
print *count
info threads
next
print *count
next
info line *$pc
print *dsum
print *count
info threads
delete
continue
# expect-gdb: hit Breakpoint 1, float_turns .*gdb_kernels.c:@MARK_float_add@
# expect-gdb: \$1 = 0$
# expect-gdb: ^Line @MARK_float_count@ of .*gdb_kernels.c
# expect-gdb: \$2 = 496$
# expect-gdb: \$3 = 0$
# expect-gdb: lane 31" +float_turns .*gdb_kernels.c:@MARK_float_count@
# reject-gdb: 0x[0-9a-f]+ in float_turns
# expect-gdb: ^@MARK_double_add@\s
# expect-gdb: \$4 = 32$
# expect-gdb: ^Line @MARK_double_count@ of .*gdb_kernels.c
# expect-gdb: \$5 = 496$
# expect-gdb: \$6 = 32$
# expect-gdb: lane 31" +float_turns .*gdb_kernels.c:@MARK_double_count@
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
