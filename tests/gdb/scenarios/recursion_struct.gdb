# A recursive device function and a struct passed by value (gdb_app mode
# explore, 64 threads): a condition on the argument and the thread stops
# in the deepest call of thread 4 (tri(4) -> ... -> tri(0)), bt shows
# every level with its n, finish from a frame further up (up 2) returns
# that call's value (tri(2) = 3) in its caller, and a struct argument
# prints whole and by member; the local array after the loop.
# mode: explore
set breakpoint pending on
break tri if n == 0 && $thread_x == 4
continue
bt
up 2
finish
print n
delete
break span_sum if $thread_x == 33
continue
print s
print s.hi - s.lo
next
next
next
print parts
finish
delete
continue
# expect-gdb: hit Breakpoint 1, tri \(n=0\) at .*gdb_kernels.c:@MARK_tri_base@
# expect-gdb: ^#3 +0x[0-9a-f]+ in tri \(n=3\) at .*gdb_kernels.c:@MARK_tri_rec@
# expect-gdb: ^#5 +0x[0-9a-f]+ in explore \(out=0x[0-9a-f]+, in=0x[0-9a-f]+, n=64\) at .*gdb_kernels.c:@MARK_explore_tri@
# expect-gdb: ^#6 +0xffff0000 in __ws_thread_exit
# expect-gdb: in tri \(n=3\) at .*gdb_kernels.c:@MARK_tri_rec@
# expect-gdb: Value returned is \$1 = 3$
# expect-gdb: \$2 = 3$
# expect-gdb: hit Breakpoint 2, span_sum \(s=\.\.\., v=0x[0-9a-f]+\)
# expect-gdb: \$3 = \{lo = 33, hi = 64, step = 16\}$
# expect-gdb: \$4 = 31$
# expect-gdb: \$5 = \{0, 248, 0, 0\}$
# expect-gdb: Value returned is \$6 = 248$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
