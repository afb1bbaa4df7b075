# A watchpoint on shared memory watches the block gdb is looking at
# (issue 17 item 9): stopped in block 2, `watch -l tile[7]` stops on block
# 2's write of its own copy, not on block 0's (which runs ahead of it and
# writes the same address in its own shared memory).
# mode: shared
set breakpoint pending on
break gdb_kernels.c:@MARK_tiles_start@ if $block_x == 2 && $thread_x == 0
continue
watch -l tile[7]
delete 1
continue
print $block_x
print $thread_x
delete
continue
# expect-gdb: Hardware watchpoint 2: -location tile\[7\]
# expect-gdb: New value = 207
# expect-gdb: \$1 = 2
# expect-gdb: \$2 = 7
# reject-gdb: New value = 7$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
