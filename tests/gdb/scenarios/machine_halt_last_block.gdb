# A debug machine's halt on the launch's last block's retire (wd.retire
# comes once the block's lanes have left, docs/events.md) finds no warp to
# halt: gdb stops on the device's thread, at the exit stub where the last
# lanes ended, and hears why; `continue` lets the finished launch end
# well. (Until 2026-11-28 the launch ended with WS_ERR_STOPPED, "none was
# left to halt", the program failed and gdb heard no stop, only the
# exit.) Launch 1 of mode basic has two blocks; block 1 is the last.
# mode: basic
monitor watch wd.retire data=1 do halt
continue
info threads
bt
monitor watch
continue
# expect-gdb: the program waits: launch 1 has ended: debug machine 0 fired on wd.retire \(core [0-9]+, data 0x00000001\) at time [0-9]+ \(its program: 'wd.retire data=1 do halt'\); its last warp had finished, so none was left to halt
# expect-gdb: received signal SIGTRAP
# expect-gdb: ^0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: Thread 1 "device \(launch ended: a debug machine's halt came after its last warp\)" 0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: ^#0  0xffff0000 in __ws_thread_exit \(\)
# expect-gdb: fired 1 time
# expect-gdb: exited normally
# reject-gdb: none was left to halt;? *$
# expect-app: result ok
# reject-app: WS_ERR_STOPPED
# expect-exit: 0
