# Non-stop: a function called from gdb on one lane of a halted warp
# (`print tri(4)`, a recursive device function). gdb resumes that lane
# alone and holds its 31 siblings stopped; the server runs the call on
# the lane alone (a range step of it, the siblings sitting out, until the
# call's return breakpoint), so the value comes back, every lane of the
# warp is still stopped where it was, and continue -a gives the right
# result. Until 2026-11-28 the lane's warp waited for its siblings to be
# resumed too, as for a continue of one lane, and gdb waited for ever.
# mode: nonstop
# pre: set non-stop on
# pre: set width 0
# pace: 0.4
set breakpoint pending on
break gdb_kernels.c:@MARK_spin_start@ if $block_x == 0 && $thread_x == 0
continue
python lane = lambda x: next(t for t in gdb.selected_inferior().threads() if t.name.startswith("block (0,0,0) thread (%d,0,0) " % x))
python lane(3).switch()
python pc0 = int(gdb.parse_and_eval("$pc"))
print tri(4)
print $thread_x
python print("pc kept %d" % (int(gdb.parse_and_eval("$pc")) == pc0))
python ts = [t for t in gdb.selected_inferior().threads() if t.name.startswith("block (0,0,0) ")]; print("block0 stopped %d running %d" % (sum(1 for t in ts if t.is_stopped()), sum(1 for t in ts if t.is_running())))
delete
continue -a
# expect-gdb: hit Breakpoint 1, spin \(.*\) at .*gdb_kernels.c:@MARK_spin_start@
# expect-gdb: ^(\(gdb\) )?\$1 = 10$
# expect-gdb: ^(\(gdb\) )?\$2 = 3$
# expect-gdb: pc kept 1$
# expect-gdb: block0 stopped 32 running 0$
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
