# A misaligned store is reported as SIGBUS (GDB's signal 10), as
# docs/debugging.md says, at the faulting thread and line (issue 17, item 2).
# mode: misaligned
continue
print $thread_x
continue
# expect-gdb: misaligned store
# expect-gdb: received signal SIGBUS, Bus error
# reject-gdb: SIGEMT
# expect-gdb: misaligned \(out=.*\) at .*gdb_kernels.c:@MARK_misaligned@
# expect-gdb: \$1 = 3
# expect-app: oob launch: WS_ERR_KERNEL_FAULT
# expect-exit: 0
