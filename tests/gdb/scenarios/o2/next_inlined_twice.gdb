# `next` in a helper inlined twice into one kernel (-O2 only: at -O0
# the helper is a call). The server counts every row of the stepped
# file+line at the step's call depth as the line (dbg_lines.c), and the
# helper's loop line has rows in both copies. Thread 1 leaves the first
# copy for the caller's next line (the second call) and the step ends
# there, with the lanes that ran with it: none is carried on through the
# second copy, none reaches the store. The lanes that skipped the loop
# (t & 3 == 0) wait in the first copy's tail (lowest pc first). The
# second `next` steps over the second inlined call to the store, with
# both sums right (in[k] = 3k + 1: a = 1, b = 13 for t = 1).
# mode: twins
set breakpoint pending on
break gdb_kernels.c:@MARK_twin_loop@ if $thread_x == 1
continue
bt 2
delete
next
print $thread_x
info threads
next
info line *$pc
print a
print b
continue
# expect-gdb: hit Breakpoint 1(\.1)?, twin_sum \(.*gdb_kernels.c:@MARK_twin_loop@
# expect-gdb: ^#1 +twins \(.*gdb_kernels.c:@MARK_twin_first@
# expect-gdb: ^@MARK_twin_second@\s
# expect-gdb: \$1 = 1$
# expect-gdb: lane 1" +twins \(.*gdb_kernels.c:@MARK_twin_second@
# expect-gdb: lane 2" +twins \(.*gdb_kernels.c:@MARK_twin_second@
# expect-gdb: lane 31" +twins \(.*gdb_kernels.c:@MARK_twin_second@
# expect-gdb: lane 4" +0x[0-9a-f]+ in twins \(.*gdb_kernels.c:@MARK_twin_loop@
# reject-gdb: lane [0-9]+" .*gdb_kernels.c:@MARK_twin_store@
# expect-gdb: ^Line @MARK_twin_store@ of .*gdb_kernels.c" starts at address
# expect-gdb: \$2 = 1$
# expect-gdb: \$3 = 13$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
