# Non-stop mode and a finished launch held for the debugger (a debug
# machine's halt on the last block's retire, as machine_halt_last_block):
# the stop comes as a %Stop notification, which carries no text, so the
# reason is asked for (docs/debugging.md, "Stop reasons are not printed in
# non-stop mode"): `monitor watch` says why the program waits and the
# device's thread names the held launch; `continue -a` lets it end well.
# mode: basic
# pre: set non-stop on
# pace: 0.4
monitor watch wd.retire data=1 do halt
continue
info threads
monitor watch
continue -a
# expect-gdb: received signal SIGTRAP
# expect-gdb: Thread 1 "device \(launch ended: a debug machine's halt came after its last warp\)" 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: the program waits: launch 1 has ended: debug machine 0 fired on wd.retire \(core [0-9]+, data 0x00000001\) at time [0-9]+ \(its program: 'wd.retire data=1 do halt'\); its last warp had finished, so none was left to halt
# expect-gdb: exited normally
# expect-app: result ok
# reject-app: WS_ERR_STOPPED
# expect-exit: 0
