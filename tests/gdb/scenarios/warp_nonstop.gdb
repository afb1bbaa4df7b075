# Non-stop with gdb threads that are warps (threads=warp): a breakpoint
# halts block 0's warp, which is one thread stopped (not 32), its focus
# on the lane that hit; the other warps run on. stepi steps the warp
# (the focus lane stays in focus), continue -a runs to the right result.
# Commands are fed as typed at a prompt (pace).
# mode: nonstop
# pre: set non-stop on
# pre: set width 0
# debug-opts: threads=warp
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_spin_start@ if $block_x == 0 && $thread_x == 3
continue
info threads
python ts = gdb.selected_inferior().threads(); print("stopped %d" % sum(1 for t in ts if t.is_stopped()))
python next(t for t in gdb.selected_inferior().threads() if t.is_stopped()).switch()
print $thread_x
python p0 = int(gdb.parse_and_eval("$pc"))
stepi
print $thread_x
python print("pc advanced %d" % (int(gdb.parse_and_eval("$pc")) > p0))
info line *$pc
delete
continue -a
# expect-gdb: hit Breakpoint 1, spin \(.*\) at .*gdb_kernels.c:@MARK_spin_start@
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(3,0,0\) core 0 warp 0 lane 3 \(focus; 32 live lanes\)" +spin \(
# expect-gdb: stopped 1$
# expect-gdb: \$1 = 3
# expect-gdb: \$2 = 3
# expect-gdb: pc advanced 1
# expect-gdb: Line [0-9]+ of .*gdb_kernels.c.* starts at address
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
