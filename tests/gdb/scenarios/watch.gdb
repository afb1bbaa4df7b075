# A hardware watchpoint on one element of a device buffer stops on the
# lane that writes it (block 1, thread 7 writes out[39]).
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $block_x == 0 && $thread_x == 0
continue
watch -l out[39]
delete 1
continue
print $block_x
print $thread_x
print i
delete
continue
# expect-gdb: Hardware watchpoint 2: -location out\[39\]
# expect-gdb: Old value = 0
# expect-gdb: New value = 1912
# expect-gdb: \$1 = 1
# expect-gdb: \$2 = 7
# expect-gdb: \$3 = 39
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
