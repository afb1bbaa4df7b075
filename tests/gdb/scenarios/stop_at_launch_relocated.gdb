# stop-at-launch for kernels of modules loaded away from their link
# address (gdb_app reload_late: the late module, loaded three times, each
# copy elsewhere): every launch stops in its kernel, past the prologue.
# (Before, the stop trigger went to the kernel body's link-time address:
# these launches ran without stopping.)
# mode: reload_late
# debug-opts: stop-at-launch=1
continue
print n
continue
print n
continue
info frame
continue
# expect-gdb: \[Launch 1 of kernel late<<<\(1,1,1\),\(8,1,1\)>>>\]
# expect-gdb: \[Launch 2 of kernel late
# expect-gdb: \[Launch 3 of kernel late
# expect-gdb: late \(out=0x[0-9a-f]+, n=8\) at .*gdb_dyn_kernel.c
# expect-gdb: \$2 = 8
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
