# Stepping over a watched access stops for it, as in live debugging:
# `next` over `acc += 7` with `watch acc` (launch 1, block 1 thread 5:
# 12142 + 7) and `next` over the line that stores mid[69] with a
# watchpoint on that element report the watchpoint with gdb's old and new
# values. Before 2026-11-27 the frame debugger's steps ignored
# watchpoints (only continue counted watched accesses), so `next`, `step`
# and `stepi` passed such a store silently.
set breakpoint pending on
break rd_kernels.c:@MARK_add@ if $block_x == 1 && $thread_x == 5
continue
delete
watch acc
next
printf "ADDED %d\n", acc
delete
break rd_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 5
continue
delete
watch -l *(int *)0x01202114
next
printf "STORED %d %d %d\n", $block_x, $thread_x, *(int *)0x01202114
# expect-gdb: hit Hardware watchpoint 2: acc
# count-gdb: 1 ^New value = 12149$
# expect-gdb: ADDED 12149
# expect-gdb: hit Hardware watchpoint 4: -location \*\(int \*\)0x01202114
# count-gdb: 1 ^New value = 328028$
# expect-gdb: STORED 1 5 328028
