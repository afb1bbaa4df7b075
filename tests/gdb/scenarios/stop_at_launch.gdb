# stop-at-launch (warpscope debug --stop-at-launch, issue 17 item 10):
# the stop names the launch (kernel, grid, block) and is in the kernel's
# first thread, at its first line past the prologue, so its parameters
# read right and next / info locals / bt work from there.
# mode: basic
# via-cli: yes
# cli-opts: --stop-at-launch
set breakpoint pending on
continue
bt
next
next
info locals
continue
# expect-gdb: \[Launch 1 of kernel scale<<<\(2,1,1\),\(32,1,1\)>>>\]
# expect-gdb: scale \(out=0x[0-9a-f]+, in=0x[0-9a-f]+, n=64\) at .*gdb_kernels.c
# expect-gdb: #1  0xffff0000 in __ws_thread_exit
# expect-gdb: local = \{0, 1, 2, 3\}
# reject-gdb: Cannot access memory
# reject-gdb: no kernel running
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
