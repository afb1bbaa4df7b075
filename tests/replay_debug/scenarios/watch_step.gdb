# Stepping over a watched access stops for it, as in live debugging:
# `next` over `acc += 7` with `watch acc` (launch 1, block 1 thread 5:
# 12142 + 7) and `next` over the line that stores mid[69] with a
# watchpoint on that element report the watchpoint with gdb's old and new
# values. Before 2026-11-27 the frame debugger's steps ignored
# watchpoints (only continue counted watched accesses), so `next`, `step`
# and `stepi` passed such a store silently, and so did reverse-stepi.
# Backwards: reverse-stepi over the store reports it (the values the other
# way round) and stops at the store instruction; the next reverse-stepi
# goes on without a second report.
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
reverse-stepi
printf "UNSTORED %d\n", *(int *)0x01202114
x/i $pc
reverse-stepi
printf "BEFORE %d\n", *(int *)0x01202114
# expect-gdb: hit Hardware watchpoint 2: acc
# count-gdb: 1 ^New value = 12149$
# expect-gdb: ADDED 12149
# expect-gdb: hit Hardware watchpoint 4: -location \*\(int \*\)0x01202114
# count-gdb: 1 ^New value = 328028$
# expect-gdb: STORED 1 5 328028
# count-gdb: 1 ^Old value = 328028$
# expect-gdb: UNSTORED 0
# expect-gdb: =>.*\ssw\s
# expect-gdb: BEFORE 0
# count-gdb: 2 hit Hardware watchpoint 4
