# A module the application builds in memory after its first kernel ran:
# the pending breakpoint resolves when the module arrives (library event,
# file served over vFile), and the session survives kernels ending.
# mode: dynamic
set breakpoint pending on
break gdb_dyn_kernel.c:@MARK_late@ if $thread_x == 6
continue
print i
info sharedlibrary
continue
# expect-gdb: hit Breakpoint 1, late \(out=.*\) at .*gdb_dyn_kernel.c:@MARK_late@
# expect-gdb: \$1 = 6
# expect-gdb: /warpscope-module/2/gdb_dyn
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
