# step, finish and next with gdb threads that are warps (`warpscope debug
# --threads warp`): the same session as step_next_finish.gdb, the same answers.
# mode: basic
# via-cli: yes
# cli-opts: --threads warp
set breakpoint pending on
break gdb_kernels.c:@MARK_call@ if $thread_x == 2 && $block_x == 0
continue
step
print v
bt
finish
next
print sq
next
next
next
print $thread_x
print out[2]
delete
continue
# expect-gdb: hit Breakpoint 1, scale .*gdb_kernels.c:@MARK_call@
# expect-gdb: square \(v=2\) at .*gdb_kernels.c:@MARK_square@
# expect-gdb: \$1 = 2
# expect-gdb: #1 +0x[0-9a-f]+ in scale
# expect-gdb: Value returned is \$2 = 4
# expect-gdb: ^@MARK_store@\s
# expect-gdb: \$3 = 4
# expect-gdb: ^@MARK_barrier@\s
# expect-gdb: ^@MARK_after@\s
# expect-gdb: \$4 = 2
# expect-gdb: \$5 = 25
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
