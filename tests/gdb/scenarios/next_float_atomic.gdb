# `next` over a float atomicAdd on a word every lane of the warp adds to:
# the add is a compare-and-swap loop inlined into the line, in each round
# of which one lane's swap succeeds, so the lanes leave the loop one by
# one. The step ends once, when the warp is past the line: every lane's
# add is done (0 + 1 + ... + 31 = 496), none is left inside the line, and
# none has run the next line yet (count still 0). Until 2026-11-28 the
# step ended when the stepped lane (5) left the loop: the sum was 15
# (lanes 0-5) and lanes 6-31 were still in the loop, mid-line. The same
# for a double atomicAdd, whose loop calls the device library (the 64-bit
# CAS, built without lines: gdb steps over it) and libgcc's soft-float
# add: lanes inside those calls are still on the line.
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
