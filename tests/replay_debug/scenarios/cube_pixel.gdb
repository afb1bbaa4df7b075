# The cube frame, captured from the example: break in the fragment shader
# at exactly one pixel, look at it, step forwards and back, go back to
# the invocation's start, and check what it returns against the pixel the
# replayed frame holds; a stepi past its `ret` ends the thread: the
# frame end.
source @SRCDIR@/rd_check.py
monitor debug-pixel 320 240
continue
info threads
print $pixel_x
print $pixel_y
print *in
next
next
reverse-next
reverse-next
reverse-continue
print $pc
next
next
rd-pixel @WORK@/pixel.txt
stepi
monitor position
# expect-gdb: pixel \(320,240\) of any draw
# expect-gdb: Thread [0-9]+ "draw 0 pixel \(320,240\) primitive [0-9]+ instance 0 core [0-9]+ warp [0-9]+ lane [0-9]+" received signal SIGTRAP
# expect-gdb: cube_fs \(in=0x[0-9a-f]+\) at .*cube_kernel.c:[0-9]+
# expect-gdb: \$1 = 320
# expect-gdb: \$2 = 240
# expect-gdb: \{position = \{x = [-0-9.e]+
# expect-gdb: ^[0-9]+\s+return ws_vec4_make
# expect-gdb: ^[0-9]+\s+\}
# expect-gdb: No more reverse-execution history
# expect-gdb: at the frame end
# expect-gdb: RD-PIXEL OK
# reject-gdb: RD-PIXEL FAIL
# count-gdb: 2 ^cube_fs \(in=0x[0-9a-f]+\) at .*cube_kernel.c:[0-9]+
# expect-gdb: Thread [0-9]+ "draw 0 pixel \(320,240\) [^"]*" received signal SIGTRAP
# while gdb sat at each stop, every replay ran the frame to its end with
# the captured results (shadow state: a breakpoint never holds the GPU)
# expect-gdb: ^([0-9]+) frame replays, [0-9.]+ s replaying; \1 ran the frame to its end with results identical to the captured frame
