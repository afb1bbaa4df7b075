# An out-of-bounds store stops at the faulting lane and line; the
# device's fault report is available with `monitor fault`.
# mode: oob
continue
print i
print $thread_x
monitor fault
continue
# expect-gdb: ^store access fault: write of 4 bytes at 0x[0-9a-f]+: out of bounds
# expect-gdb: received signal SIGSEGV
# expect-gdb: oob \(out=.*\) at .*gdb_kernels.c:@MARK_oob@
# expect-gdb: \$1 = 4
# expect-gdb: \$2 = 4
# expect-gdb: store access fault
# expect-app: oob launch: WS_ERR_KERNEL_FAULT
# expect-exit: 0
