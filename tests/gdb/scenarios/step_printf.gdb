# `step` on a line that calls ws_printf steps over the call, as cuda-gdb
# does over printf: the device library's ws_printf and ws_vprintf are
# nodebug, so gdb finds no line of theirs to stop on and stops on the
# kernel's next line, the record already printed. Until 2026-11-28
# `step` entered ws_printf in kernel/src/device_runtime.c (then
# ws_vprintf). The assert on the next line still stops the thread.
# mode: abort
set breakpoint pending on
break gdb_kernels.c:@MARK_assert_print@ if $thread_x == 3
continue
step
info line *$pc
print i
delete
continue
continue
# expect-gdb: hit Breakpoint 1, asserts .*gdb_kernels.c:@MARK_assert_print@
# expect-gdb: ^Line @MARK_assert@ of .*gdb_kernels.c
# expect-gdb: \$1 = 3$
# reject-gdb: ws_v?printf \(fmt=|device_runtime\.c:(2|3|4)[0-9]
# expect-gdb: received signal SIGABRT
# expect-app: ^thread 3 asserts$
# expect-app: asserts launch: WS_ERR_KERNEL_ASSERT
# expect-exit: 0
