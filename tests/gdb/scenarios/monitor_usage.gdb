# `monitor thread` and `monitor focus` without (or with bad) coordinates
# answer with their usage, named after the command typed: `monitor thread`
# alone once said "unknown monitor command", although `monitor help`
# lists it. A command the server does not know is named in the answer.
# mode: basic
set breakpoint pending on
break gdb_kernels.c:@MARK_store@ if $block_x == 1 && $thread_x == 5
continue
monitor thread
monitor thread block 1
monitor focus
monitor focus block x thread 1
monitor thread block 1 thread 5
monitor lanes 5
delete
continue
# expect-gdb: ^usage: monitor thread block X \[Y \[Z\]\] thread X \[Y \[Z\]\]$
# expect-gdb: ^usage: monitor focus block X \[Y \[Z\]\] thread X \[Y \[Z\]\]$
# reject-gdb: unknown monitor command[^ ]
# reject-gdb: unknown monitor command '(thread|focus)
# expect-gdb: ^unknown monitor command 'lanes 5'; try 'monitor help'$
# expect-gdb: block \(1,0,0\) thread \(5,0,0\) core [0-9]+ warp [0-9]+ lane 5 is target thread
# expect-gdb: exited normally
# expect-app: result ok
# expect-exit: 0
