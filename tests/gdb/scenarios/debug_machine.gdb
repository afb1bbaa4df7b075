# A debug machine stops gdb on a scheduling event (issue 10): the event
# watcher programs one machine to halt when block 1 is dispatched; gdb
# sees the stop, its console names the machine and the event, and the
# program runs on to the right result.
# mode: basic
# env: WARPSCOPE_WATCH=events=wd+dbg,capacity=4096,out=@WORK@/events.wsev
# env: WARPSCOPE_WATCH_MACHINES=wd.dispatch data=1 do halt
continue
monitor blocks
continue
# expect-gdb: debug machine 0 fired on wd.dispatch \(core 1, data 0x00000001\)
# expect-gdb: received signal SIGTRAP
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
