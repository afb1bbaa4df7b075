# stop-at-launch=1 stops at the kernel's first line in its first thread,
# with the launch named; then a hardware breakpoint (execute trigger) with
# a thread condition; then everything continues to the right result.
# mode: basic
# debug-opts: stop-at-launch=1
set breakpoint pending on
continue
info threads
hbreak gdb_kernels.c:@MARK_after@ if $thread_x == 9 && $block_x == 0
continue
print i
print $thread_x
delete
continue
# expect-gdb: received signal SIGTRAP
# expect-gdb: \[Launch 1 of kernel scale<<<\(2,1,1\),\(32,1,1\)>>>\]
# expect-gdb: "block \(0,0,0\) thread \(0,0,0\) core 0 warp 0 lane 0".* scale
# expect-gdb: Hardware assisted breakpoint 1 at
# expect-gdb: hit Breakpoint 1, scale .*gdb_kernels.c:@MARK_after@
# expect-gdb: \$1 = 9
# expect-gdb: \$2 = 9
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
