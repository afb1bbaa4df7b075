# A graphics program whose last recorded call (a target's destroy) comes
# after its last frame end (its present): every replay that runs the
# frame to its end has each frame end's results identical to the
# captured frame's, as `warpscope replay FILE` finds, and monitor
# position says so. Until 2026-11-29 it counted only a capture whose last
# frame ends at its last call, and said 0 here.
continue
monitor position
reverse-continue
continue
monitor position
# expect-gdb: ^1 frame replays, [0-9.]+ s replaying; 1 ran the frame to its end with results identical to the captured frame$
# expect-gdb: ^3 frame replays, [0-9.]+ s replaying; 3 ran the frame to its end with results identical to the captured frame$
