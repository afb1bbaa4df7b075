# Non-stop mode: a breakpoint halts only the warp of block 0 while the
# other blocks run to their end (polled for up to 30 s); then everything continues to the right
# result. The commands are fed as typed at a prompt (pace): gdb handles
# the stops of the halted warp's other lanes between commands (under
# -batch they would still be queued at `continue -a`, which would report
# one of them instead of running on).
# mode: nonstop
# pre: set non-stop on
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_spin_start@ if $block_x == 0 && $thread_x == 0
continue
python gdb.execute("thread %d" % next(t.num for t in gdb.selected_inferior().threads() if t.name and t.name.startswith("block (0,0,0) thread (0,0,0)")))
print $block_x
monitor lanes
python exec("import time\nfor _ in range(300):\n    o = gdb.execute('monitor lanes', to_string=True)\n    if o.startswith('32 live'): break\n    time.sleep(0.1)\nprint(o)")
delete
continue -a
# expect-gdb: hit Breakpoint 1, spin \(.*\) at .*gdb_kernels.c:@MARK_spin_start@
# expect-gdb: \$1 = 0
# expect-gdb: Thread [0-9]+: block \(0,0,0\) thread \(31,0,0\) .* halted
# expect-gdb: (^|\) )32 live lane\(s\)
# reject-gdb: block \(1,0,0\).* halted
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
