# The helpers of <warpscope/kernel.h> are nodebug: their instructions carry
# the caller's line. A breakpoint on a line made only of an atomic stops
# before the atomic (the count is still 0 for the first warp), next runs
# it (all 32 lanes added 1); step over a threadIdx_x() line stays in the
# kernel, on the next line of it, instead of entering kernel.h. Until
# 2026-11-28 such a line had no code of its own (kernel.h's lines): the
# breakpoint went to the next line, past the atomic, and step went into
# the header.
# mode: collide
set breakpoint pending on
break gdb_kernels.c:@MARK_cas_start@ if $thread_x == 5
continue
info line *$pc
step
info line *$pc
delete
break gdb_kernels.c:@MARK_cas_count@ if $thread_x == 5
continue
info line *$pc
print *count
next
print *count
delete
continue
# expect-gdb: hit Breakpoint 1, cas_turns .*gdb_kernels.c:@MARK_cas_start@
# expect-gdb: ^Line @MARK_cas_start@ of .*gdb_kernels.c
# expect-gdb: ^Line @MARK_cas_add@ of .*gdb_kernels.c
# reject-gdb: kernel\.h
# expect-gdb: hit Breakpoint 2, cas_turns .*gdb_kernels.c:@MARK_cas_count@
# expect-gdb: ^Line @MARK_cas_count@ of .*gdb_kernels.c
# expect-gdb: \$1 = 0$
# expect-gdb: \$2 = 32$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
