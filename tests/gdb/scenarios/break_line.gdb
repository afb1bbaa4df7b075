# Break on a kernel source line with a condition on the thread index;
# inspect threads, locals and arrays; continue to the correct result.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $thread_x == 5 && $block_x == 1
continue
info threads
print i
print local
print local[2]
print sq
print $thread_x
print $block_x
monitor lanes
continue
# expect-gdb: Breakpoint 1, scale \(.*\) at .*gdb_kernels.c:@MARK_store@
# expect-gdb: \* +[0-9]+ +Thread [0-9]+ "block \(1,0,0\) thread \(5,0,0\)
# expect-gdb: \$1 = 37
# expect-gdb: \$2 = \{370, 371, 372, 373\}
# expect-gdb: \$3 = 372
# expect-gdb: \$4 = 1369
# expect-gdb: \$5 = 5
# expect-gdb: \$6 = 1
# expect-gdb: exited normally|exited with code 00
# expect-app: result ok
# expect-exit: 0
