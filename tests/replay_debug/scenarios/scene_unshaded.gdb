# monitor debug-pixel on a pixel whose fragment runs no shader in the
# draw asked for says why, from the pixel history (before 2026-11-29 it
# promised a stop, and continue ran to the frame end without a word):
# draw 1's fragment at (10,12) loses the early depth test, draw 6 does not
# cover the pixel; draw 0 shades it. At the frame end monitor position
# repeats the reason.
monitor debug-pixel 10 12 6
monitor debug-pixel 10 12 0
monitor debug-pixel 10 12 1
continue
monitor position
# expect-gdb: no fragment shader runs at pixel \(10,12\) in draw 6: no primitive of it covers the pixel
# expect-gdb: pixel \(10,12\) of draw 0: continue stops at its fragment shader's first instruction
# expect-gdb: no fragment shader runs at pixel \(10,12\) in draw 1: its fragment \(primitive 0\) failed the early depth test, so its shader never ran: depth 0.800000012 < 0.5 \(the pixel's depth then\): fail; so continue reaches the frame end
# expect-gdb: ^at the frame end: no fragment shader runs at pixel \(10,12\) in draw 1: its fragment \(primitive 0\) failed the early depth test
# reject-gdb: received signal SIGTRAP
