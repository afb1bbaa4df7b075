# Non-stop mode, every lane of a halted warp stopped: a breakpoint halts
# the warp of block 0 (one lane hits it), the other 31 lanes of that warp
# are reported stopped (signal 0) and can be selected and inspected, while
# the other blocks run on. A stepi of one lane leaves its siblings where
# they are; a continue of one lane waits until its siblings are resumed
# too (continue &: a foreground continue would wait for that); continue -a
# runs everything to the right result. Commands are fed as typed at a
# prompt (pace), so gdb handles the stop events between them.
# mode: nonstop
# pre: set non-stop on
# pre: set width 0
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_spin_start@ if $block_x == 0 && $thread_x == 0
continue
info threads
python b0 = lambda t: t.name.startswith("block (0,0,0) "); ts = gdb.selected_inferior().threads(); lane = lambda x: next(t for t in gdb.selected_inferior().threads() if t.name.startswith("block (0,0,0) thread (%d,0,0) " % x))
python print("block0 stopped %d running %d" % (sum(1 for t in ts if b0(t) and t.is_stopped()), sum(1 for t in ts if b0(t) and t.is_running()))); print("others stopped %d" % sum(1 for t in ts if not b0(t) and t.is_stopped()))
python lane(5).switch()
print $thread_x
info registers pc
bt
python lane(0).switch()
stepi
python lane(7).switch()
print $thread_x
info line *$pc
python lane(0).switch()
info line *$pc
continue &
python print("lane0 running %d lane9 stopped %d" % (lane(0).is_running(), lane(9).is_stopped()))
python lane(9).switch()
print $thread_x
delete
continue -a
# expect-gdb: hit Breakpoint 1, spin \(.*\) at .*gdb_kernels.c:@MARK_spin_start@
# expect-gdb: Thread [0-9]+ "block \(0,0,0\) thread \(5,0,0\) core 0 warp 0 lane 5" +spin \(
# reject-gdb: "block \(0,0,0\) thread \([0-9]+,0,0\)[^"]*" +\(running\)
# expect-gdb: block0 stopped 32 running 0
# expect-gdb: others stopped 0
# expect-gdb: \$1 = 5
# expect-gdb: \$2 = 7
# expect-gdb: pc +0x
# expect-gdb: #0 +spin \(
# expect-gdb: Line @MARK_spin_start@ of .*gdb_kernels.c.* starts at address
# expect-gdb: lane0 running 1 lane9 stopped 1
# expect-gdb: \$3 = 9
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
