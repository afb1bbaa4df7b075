# Writing a read-only SIMT register ($thread_x ...) is refused with the
# reason, not a bare error number: gdb once printed only "remote failure
# reply 'E0e'". The value stays; writable registers still write.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 5
continue
set var $thread_x = 3
print $thread_x
set var $t0 = 0x1234
print/x $t0
delete
continue
# expect-gdb: Could not write register "thread_x"; remote failure reply 'E\.register [0-9]+ is a read-only SIMT register
# expect-gdb: \$1 = 5
# expect-gdb: \$2 = 0x1234
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
