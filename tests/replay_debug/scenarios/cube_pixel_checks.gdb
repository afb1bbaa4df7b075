# monitor debug-pixel refuses a pixel no draw of the frame can shade (it
# accepted any, and continue then ran to the frame end without a word),
# and accepts one on the target.
monitor debug-pixel 5000 10
monitor debug-pixel 320 240 1
monitor debug-pixel 640 0 0
monitor debug-pixel 639 479 0
# expect-gdb: pixel \(5000,10\) is outside every draw's render target \(the largest is 640x480\)
# expect-gdb: there is no draw 1: the frame has 1 draw \(0-0\)
# expect-gdb: pixel \(640,0\) is outside draw 0's 640x480 render target
# expect-gdb: pixel \(639,479\) of draw 0: continue stops
