# monitor debug-pixel refuses a pixel no draw of the frame can shade (it
# accepted any, and continue then ran to the frame end without a word),
# and accepts one on the target. A corner pixel on the target that the
# cube does not cover is accepted with the reason no shader runs there
# (since 2026-11-29: before, continue was promised a stop).
monitor debug-pixel 5000 10
monitor debug-pixel 320 240 1
monitor debug-pixel 640 0 0
monitor debug-pixel 639 479 0
monitor debug-pixel 639 479
monitor debug-pixel 320 240 0
# expect-gdb: pixel \(5000,10\) is outside every draw's render target \(the largest is 640x480\)
# expect-gdb: there is no draw 1: the frame has 1 draw \(0-0\)
# expect-gdb: pixel \(640,0\) is outside draw 0's 640x480 render target
# expect-gdb: no fragment shader runs at pixel \(639,479\) in draw 0: no primitive of it covers the pixel
# expect-gdb: no fragment shader runs at pixel \(639,479\) in any draw: no draw covers it
# expect-gdb: pixel \(320,240\) of draw 0: continue stops
