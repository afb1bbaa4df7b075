# A conditional breakpoint under load: 2048 blocks of 256 threads, so the
# server steps thousands of warps over the breakpoint by itself while
# blocks retire and new ones start (conditions=server: the ebreak way; with
# a free trigger the condition would be evaluated in hardware). Then next,
# look, delete, continue.
# Regression: a 2-byte breakpoint written one byte at a time (torn
# instruction: a lane faulted at the breakpoint address), warps resumed one
# by one (a late resume undid the next all-stop: E0e reading the stopped
# thread, lanes gone), other warps woken while one still stepped over the
# disarmed breakpoint (the hit was missed), new blocks running during a stop.
# mode: many
# debug-opts: conditions=server
set breakpoint pending on
break gdb_kernels.c:@MARK_many@ if $thread_x == 5 && $block_x == 300
continue
monitor breakpoints
print i
next
thread
print out[i]
print $block_x
print $thread_x
delete
continue
# expect-gdb: Breakpoint 1, many \(.*\) at .*gdb_kernels.c:@MARK_many@
# expect-gdb: warp halts at breakpoints since gdb attached: [0-9]{3,}$
# expect-gdb: \$1 = 76805
# expect-gdb: ^@MARK_many_end@[[:space:]]+\}
# expect-gdb: Current thread is [0-9]+ \(Thread [0-9]+\)
# expect-gdb: \$2 = 230416
# expect-gdb: \$3 = 300
# expect-gdb: \$4 = 5
# expect-gdb: exited normally|exited with code 00
# reject-gdb: E0e|Could not read|fault|SIGSEGV|SIGTRAP
# expect-app: result ok
# expect-exit: 0
