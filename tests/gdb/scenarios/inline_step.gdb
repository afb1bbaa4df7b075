# A helper on a 2-D grid (gdb_app mode blur: 2x2 blocks of 4x3 threads),
# called at -O0 and inlined at -O2 (gdb.e2e.o2.inline_step): a condition
# on the 2-D coordinates stops in the helper on the right thread, bt
# shows its frame (inlined or not) above the kernel's, finish leaves it,
# step enters the next call with its arguments, and the blurred pixel is
# right.
# mode: blur
set breakpoint pending on
break clampi if $block_x == 1 && $block_y == 1 && $thread_x == 1 && $thread_y == 2
continue
print $thread_y
bt
finish
step
delete
break gdb_kernels.c:@MARK_blur_store@ if $block_x == 1 && $block_y == 1 && $thread_x == 1 && $thread_y == 2
continue
print acc
print x + 100 * y
continue
# expect-gdb: "block \(1,1,0\) thread \(1,2,0\) core [0-9]+ warp [0-9]+ lane [0-9]+" hit Breakpoint 1, clampi
# expect-gdb: \$1 = 2$
# expect-gdb: ^#0 +clampi .*gdb_kernels.c:@MARK_clampi@
# expect-gdb: ^#1 +(0x[0-9a-f]+ in )?blur2d \(.*gdb_kernels.c:@MARK_blur_sum@
# expect-gdb: blur2d \(.*gdb_kernels.c:@MARK_blur_sum@
# expect-gdb: clampi \(v=[0-9]+, lo=0, hi=7\) at .*gdb_kernels.c:@MARK_clampi@
# expect-gdb: hit Breakpoint 2, blur2d \(.*gdb_kernels.c:@MARK_blur_store@
# expect-gdb: ^\$[0-9]+ = 381$
# expect-gdb: ^\$[0-9]+ = 505$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
