# A failed device assert and a ws_trap stop as SIGABRT (abort() on a CPU)
# with the device's report on gdb's console first, as every fault does.
# (Before: the assert stopped as SIGTRAP without the report, the trap as
# SIGSEGV "Segmentation fault".) `next` over the assert stops there too.
# mode: abort
set breakpoint pending on
break gdb_kernels.c:@MARK_assert@ if $thread_x == 3
continue
next
print $thread_x
monitor fault
delete
continue
bt
continue
# expect-gdb: ^device assert: assertion 'i != 3' failed at .*gdb_kernels.c:@MARK_assert@ in asserts
# expect-gdb: received signal SIGABRT, Aborted
# expect-gdb: \$1 = 3
# expect-gdb: ^trap: kernel trapped: thread 3 gives up
# expect-gdb: in traps \(out=.*\) at .*gdb_kernels.c:@MARK_trap@
# reject-gdb: SIGTRAP|SIGSEGV
# expect-gdb: exited normally
# expect-app: asserts launch: WS_ERR_KERNEL_ASSERT
# expect-app: traps launch: WS_ERR_KERNEL_FAULT
# expect-exit: 0
