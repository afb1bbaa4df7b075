# `step` on a line with a 64-bit atomic steps over it, as over any
# intrinsic: atomicAdd_ll calls __atomic_fetch_add_8 in the device library
# (kernel/src/atomic64.c), which is built without line information, so
# gdb steps over the call and stops on the kernel's next line, with every
# lane's addition done (sum of t << 33 over lanes 0-31: 496 << 33). Until 2026-11-28 the library had lines: `step` entered
# atomic64.c (the WS__RMW8 macro's line, then cas64's asm).
# mode: collide
set breakpoint pending on
break gdb_kernels.c:@MARK_cas_add@ if $thread_x == 5
continue
print *sum
step
info line *$pc
print *sum
print *sum == 496ll << 33
delete
continue
# expect-gdb: hit Breakpoint 1, cas_turns .*gdb_kernels.c:@MARK_cas_add@
# expect-gdb: \$1 = 0$
# expect-gdb: ^Line @MARK_cas_count@ of .*gdb_kernels.c
# expect-gdb: \$2 = 4260607557632$
# expect-gdb: \$3 = 1$
# reject-gdb: atomic64\.c
# reject-gdb: __atomic_fetch_add_8
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
