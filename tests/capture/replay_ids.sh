#!/bin/bash
# A frame whose kernel stores its launch's id (ws_launch_id()) and whose
# shader colours by its draw's id (ws_draw_id()) replays like the frame it
# was captured from: frame 2's launch had id 11 and its draws ids 4 and 5,
# and every pass gives them those ids again. (Before, the replay numbered
# them anew on its own device, on from there in each pass, so every pass
# differed.) `replay --list` names each draw's ordinal and its id.
#   usage: replay_ids.sh WARPSCOPE WORKDIR REPLAY_IDS KERNEL.elf
set -euo pipefail
ws=$1 work=$2
mkdir -p "$work"
cap=$work/ids.wscap
"$ws" capture -o "$cap" --frames 2 -- "$3" "$4" 3 > "$work/program.txt"
grep -q "frame 2: launch 11, red 159" "$work/program.txt" || { cat "$work/program.txt"; echo "FAIL: the program's frame 2"; exit 1; }
"$ws" replay --loop 3 "$cap" > "$work/loop.txt" || { cat "$work/loop.txt"; echo "FAIL: the replay differs"; exit 1; }
grep -q "3 passes of 6 calls: every pass bit-identical" "$work/loop.txt" || { cat "$work/loop.txt"; echo "FAIL: passes"; exit 1; }
"$ws" replay --list "$cap" > "$work/list.txt"
grep -q "draw 0 (id 4)$" "$work/list.txt" && grep -q "draw 1 (id 5)$" "$work/list.txt" ||
    { cat "$work/list.txt"; echo "FAIL: --list"; exit 1; }
# a capture from the device's open numbers its draws from 0, as before
"$ws" capture -o "$work/all.wscap" --frames all -- "$3" "$4" 2 > /dev/null
"$ws" replay --loop 2 "$work/all.wscap" | grep -q "every pass bit-identical"
"$ws" replay --list "$work/all.wscap" | grep -q "draw 3$"
echo "PASS: launch and draw ids replayed as captured (frame 2: launch 11, draws 4 and 5), 3 identical passes"
