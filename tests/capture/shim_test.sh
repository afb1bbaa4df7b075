#!/bin/bash
# Capture-shim checks (docs/capture.md): run programs under
# `warpscope capture`, decode the file section by section
# (capture_decode) and check what was recorded.
#   shim_test.sh CHECK WARPSCOPE DECODE WORKDIR [PROGRAM...]
set -u
check=$1 ws=$2 decode=$3 work=$4
shift 4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# expect PATTERN: a line of the listing matches (grep -E)
expect() { grep -Eq -- "$1" "$work/list.txt" || fail "no line matching '$1' in the listing"; }
count() { grep -Ec -- "$1" "$work/list.txt"; }
run_decode() {
    "$decode" "$1" > "$work/list.txt" || { cat "$work/list.txt"; fail "$1 does not decode"; }
}
no_leftovers() { ls "$work" | grep -q '\.tmp-' && fail "a temporary file was left: $(ls "$work")"; return 0; }

case $check in
cube_frame0|cube_frame2)
    f=${check#cube_frame}
    cube=$1
    "$ws" capture -o "$work/cube.wscap" --frames "$f" -- "$cube" 4 > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "capture failed"; }
    grep -q "captured frame $f: 4 calls" "$work/out.txt" || { cat "$work/out.txt"; fail "no report"; }
    run_decode "$work/cube.wscap"
    expect '^config cores=4 warps=8 lanes=32'
    expect '^module 1 base=0x[0-9a-f]+ bytes=[1-9]'
    expect '^kernel [0-9]+ module=1 name=cube_vs$'
    expect '^kernel [0-9]+ module=1 name=cube_fs$'
    expect '^texture [0-9]+ 256x256 levels=9$'
    expect '^target [0-9]+ 640x480 depth=1 colour=1228800 depth_bytes=1228800$'
    expect '^pipeline [0-9]+ vs=[1-9][0-9]* fs=[1-9][0-9]* attributes=3$'
    [ "$(count '^allocation ')" = 3 ] || fail "expected the 3 buffers (vertex, index, uniforms)"
    expect '^allocation 0x[0-9a-f]+ size=148 bytes=148$'   # the uniforms, this frame's matrices
    expect '^gfx_state target=[1-9][0-9]* pipeline=[1-9][0-9]* vb0=0x[0-9a-f]+ .* texture0=[1-9][0-9]* viewport=0$'
    expect "^frame_begin $f reason=1$"
    expect '^call 0 ws_gfx_begin_frame$'
    expect '^call 1 ws_gfx_clear 0.1 0.1 0.15 1 1$'
    expect '^call 2 ws_gfx_draw_indexed 36 1 0 0 0$'
    expect '^call 3 ws_gfx_present target=[1-9][0-9]* read_back=1$'
    expect "^frame_end $f digest=[0-9a-f]{16}$"
    [ "$(count '^call ')" = 4 ] || fail "expected exactly 4 calls"
    ;;
vecadd_all)
    "$ws" capture -o "$work/v.wscap" --frames all -- "$1" > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "capture failed"; }
    grep -q "captured frames 0-1 (2 frames): 10 calls" "$work/out.txt" || { cat "$work/out.txt"; fail "report"; }
    run_decode "$work/v.wscap"
    expect '^frame_begin 0 reason=2$'
    expect '^call 0 ws_module_load id=1 base=0x[0-9a-f]+ bytes=[1-9][0-9]* elf=1$'
    expect '^call 1 ws_kernel_get id=2 module=1 name=vecadd$'
    [ "$(count '^call [2-4] ws_malloc size=4194304 addr=0x[0-9a-f]+$')" = 3 ] || fail "3 mallocs of 4 MiB"
    [ "$(count '^call [5-6] ws_memcpy_htod dst=0x[0-9a-f]+ bytes=4194304$')" = 2 ] || fail "2 uploads of 4 MiB"
    expect '^call 7 ws_launch kernel=2 grid=4096,1,1 block=256,1,1 shared=0 nargs=4 .* arg3=0:0x100000$'
    expect '^call 8 ws_synchronize$'
    expect '^frame_end 0 digest='
    expect '^call 9 ws_memcpy_dtoh src=0x[0-9a-f]+ n=4194304$'
    expect '^frame_end 1 digest='
    # the launch's pointer arguments are the addresses the mallocs returned
    for i in 0 1 2; do
        addr=$(sed -n "s/^call $((i + 2)) ws_malloc size=4194304 addr=0x0*\([0-9a-f]*\)$/\1/p" "$work/list.txt")
        expect "arg$i=6:0x$addr "
    done
    ;;
launches)
    "$ws" capture -o "$work/l.wscap" --frames launches=0 -- "$1" > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "capture failed"; }
    grep -q "captured launch 0: 1 call," "$work/out.txt" || { cat "$work/out.txt"; fail "report"; }
    [ "$("$ws" replay --list "$work/l.wscap" | tail -1)" = "1 call" ] || fail "replay --list: not '1 call' (it said '1 calls')"
    run_decode "$work/l.wscap"
    expect '^module 1 '
    expect '^kernel 2 module=1 name=vecadd$'
    [ "$(count '^allocation 0x[0-9a-f]+ size=4194304 bytes=4194304$')" = 3 ] || fail "3 allocations in the initial state"
    expect '^frame_begin 0 reason=3$'
    expect '^call 0 ws_launch kernel=2 grid=4096,1,1'
    [ "$(count '^call ')" = 1 ] || fail "only the launch"
    ;;
example_all)
    prog=$1
    (cd "$(dirname "$prog")" && "$ws" capture -o "$work/e.wscap" --frames all -- "$prog") > "$work/out.txt" 2>&1 ||
        { cat "$work/out.txt"; fail "capture failed"; }
    grep -q "^captured " "$work/out.txt" || { cat "$work/out.txt"; fail "no report"; }
    run_decode "$work/e.wscap"
    expect '^call 0 ws_module_load '
    expect '^frame_end '
    [ "$(count '^frame_begin ')" = "$(count '^frame_end ')" ] || fail "frames do not pair up"
    if grep -q ws_gfx_begin_frame "$work/list.txt"; then expect ' ws_gfx_present '; else expect ' ws_launch '; fi
    ;;
transparent)
    # the shim changes nothing the program sees: the cube's per-frame hashes,
    # coverage and statistics are the same while frame 1 is being captured
    cube=$1
    (cd "$work" && "$cube" 3) > "$work/plain.txt" 2>&1 || fail "cube without the shim"
    (cd "$work" && "$ws" capture -o t.wscap --frames 1 -- "$cube" 3) > "$work/shim.txt" 2>&1 || fail "cube under capture"
    grep -v '^captured frame 1: ' "$work/shim.txt" > "$work/shim_only.txt"
    grep -q '^frame 1: covered' "$work/plain.txt" || fail "unexpected cube output: $(cat "$work/plain.txt")"
    diff "$work/plain.txt" "$work/shim_only.txt" || fail "the program's output changed under the shim"
    ;;
determinism)
    cube=$1 prog=$2
    for i in 1 2; do
        "$ws" capture -o "$work/cube$i.wscap" --frames 1 -- "$cube" 3 > /dev/null 2>&1 || fail "cube capture $i"
        "$ws" capture -o "$work/p$i.wscap" --frames all -- "$prog" ok 3 > /dev/null 2>&1 || fail "program capture $i"
    done
    cmp "$work/cube1.wscap" "$work/cube2.wscap" || fail "cube frame 1 captured twice differs"
    cmp "$work/p1.wscap" "$work/p2.wscap" || fail "shim_program captured twice differs"
    # frame 1's end digest is the same whether the capture covers frame 1 or frames 1-2
    "$ws" capture -o "$work/cube12.wscap" --frames 1-2 -- "$cube" 3 > /dev/null 2>&1 || fail "cube capture 1-2"
    "$decode" "$work/cube1.wscap" | grep '^frame_end 1 ' > "$work/a.txt" || fail "decode cube1"
    "$decode" "$work/cube12.wscap" | grep '^frame_end 1 ' > "$work/b.txt" || fail "decode cube12"
    cmp "$work/a.txt" "$work/b.txt" || fail "frame 1's digest depends on the capture range: $(cat "$work/a.txt" "$work/b.txt")"
    # sync frames follow each other: the state read back at frame 2's start
    # digests to what frame 1's end gave
    "$ws" capture -o "$work/f1.wscap" --frames 1 -- "$prog" ok 3 > /dev/null 2>&1 || fail "program frame 1"
    "$ws" capture -o "$work/f2.wscap" --frames 2 -- "$prog" ok 3 > /dev/null 2>&1 || fail "program frame 2"
    end1=$("$decode" "$work/f1.wscap" | sed -n 's/^frame_end 1 digest=//p')
    start2=$("$decode" "$work/f2.wscap" | sed -n 's/^initial_digest=//p')
    [ -n "$end1" ] && [ "$end1" = "$start2" ] || fail "frame 1 ends with digest '$end1', frame 2's initial state digests to '$start2'"
    ;;
crash_in_frame)
    "$ws" capture -o "$work/c.wscap" --frames 1 -- "$1" crash-in 1 3 > "$work/out.txt" 2>&1
    rc=$?
    [ $rc = 134 ] || { cat "$work/out.txt"; fail "expected the program's abort (134), got $rc"; }
    [ -e "$work/c.wscap" ] && fail "a capture file exists after a crash inside the frame"
    no_leftovers
    grep -q "removed .*c.wscap.tmp-" "$work/out.txt" || { cat "$work/out.txt"; fail "the temporary file was not reported"; }
    ;;
exit_in_frame)
    # run directly under the shim: it drops the capture itself at exit
    out=$(cd "$work" && WARPSCOPE_CAPTURE="out=\"$work/e.wscap\",frames=1" LD_PRELOAD=/proc/self/fd/9 "$1" exit-in 1 3 2>&1 9< "$SHIM"); rc=$?
    [ $rc = 3 ] || fail "expected the program's status 3, got $rc: $out"
    grep -q "the program exited with the device still open: capture abandoned" <<< "$out" || fail "no message: $out"
    [ -e "$work/e.wscap" ] && fail "a capture file exists"
    no_leftovers
    ;;
exit_keeps_frames)
    # a program that exits with its device open keeps the frames that
    # ended; the frame the exit cut off is left out and named (until
    # 2026-11-29 the whole capture was abandoned)
    prog=$1
    out=$("$ws" capture -o "$work/r.wscap" --frames 0-2 -- "$prog" exit-in 2 4 2>&1); rc=$?
    [ $rc = 3 ] || fail "expected the program's status 3, got $rc: $out"
    grep -q "frame 2 had not ended when the program exited with the device still open: it is left out; the 2 frames that ended before it are kept" <<< "$out" || fail "no note of the cut-off frame: $out"
    grep -q "captured frames 0-1 (2 frames): 10 calls" <<< "$out" || fail "report: $out"
    no_leftovers
    run_decode "$work/r.wscap"
    [ "$(count '^frame_begin ')" = 2 ] && [ "$(count '^frame_end ')" = 2 ] || fail "expected frames 0 and 1 whole"
    expect '^frame_end 1 digest='
    grep -q 'frame_begin 2' "$work/list.txt" && fail "the cut-off frame 2 is in the file"
    "$ws" replay "$work/r.wscap" > "$work/rep.txt" 2>&1 || { cat "$work/rep.txt"; fail "the kept frames do not replay"; }
    grep -q "2 frame ends checked: identical" "$work/rep.txt" || { cat "$work/rep.txt"; fail "replay: $(cat "$work/rep.txt")"; }
    # --frames all, returning from main without ws_device_close: every frame
    out=$("$ws" capture -o "$work/a.wscap" --frames all -- "$prog" noclose 3 2>&1); rc=$?
    [ $rc = 0 ] && grep -q "captured frames 0-2 (3 frames)" <<< "$out" || fail "--frames all without a close: rc $rc: $out"
    grep -q "left out" <<< "$out" && fail "no frame was cut off: $out"
    "$ws" replay "$work/a.wscap" > "$work/rep.txt" 2>&1 && grep -q "3 frame ends checked: identical" "$work/rep.txt" ||
      { cat "$work/rep.txt"; fail "the --frames all capture does not replay"; }
    # graphics frames: all of them without a close; 0-1 with an exit inside frame 1
    out=$("$ws" capture -o "$work/g.wscap" --frames all -- "$prog" gfx-noclose 2 2>&1); rc=$?
    [ $rc = 0 ] && grep -q "captured the set-up (1 frame before the first ws_gfx_begin_frame) and frames 0-1" <<< "$out" ||
      fail "graphics, --frames all without a close: rc $rc: $out"
    "$ws" replay "$work/g.wscap" > "$work/rep.txt" 2>&1 && grep -q "3 frame ends checked: identical" "$work/rep.txt" ||
      { cat "$work/rep.txt"; fail "the graphics capture does not replay"; }
    out=$("$ws" capture -o "$work/h.wscap" --frames 0-1 -- "$prog" gfx-exit-in 1 3 2>&1); rc=$?
    [ $rc = 0 ] && grep -q "frame 1 had not ended when the program exited with the device still open: it is left out; the 1 frame that ended before it is kept" <<< "$out" &&
      grep -q "captured frame 0: 3 calls" <<< "$out" || fail "graphics, exit inside frame 1: rc $rc: $out"
    "$ws" replay "$work/h.wscap" > "$work/rep.txt" 2>&1 || { cat "$work/rep.txt"; fail "graphics frame 0 does not replay"; }
    # the same when the device is closed inside frame 2 of 0-3
    out=$("$ws" capture -o "$work/c.wscap" --frames 0-3 -- "$prog" gfx-close-in 2 4 2>&1); rc=$?
    [ $rc = 0 ] && grep -q "frame 2 had not ended when the device was closed: it is left out; the 2 frames that ended before it are kept" <<< "$out" &&
      grep -q "captured frames 0-1 (2 frames)" <<< "$out" || fail "graphics, close inside frame 2: rc $rc: $out"
    "$ws" replay "$work/c.wscap" > "$work/rep.txt" 2>&1 || { cat "$work/rep.txt"; fail "graphics frames 0-1 do not replay"; }
    no_leftovers
    ;;
crash_after_frame)
    "$ws" capture -o "$work/c.wscap" --frames 1 -- "$1" crash-after 2 3 > "$work/out.txt" 2>&1
    rc=$?
    [ $rc = 134 ] || { cat "$work/out.txt"; fail "expected the program's abort (134), got $rc"; }
    no_leftovers
    run_decode "$work/c.wscap"
    expect '^frame_begin 1 reason=2$'
    expect '^call 0 ws_memcpy_htod dst=0x[0-9a-f]+ bytes=4096$'
    expect '^call 1 ws_memset dst=0x[0-9a-f]+ value=1 n=2048$'
    expect '^call 2 ws_memcpy_dtod '
    expect '^call 3 ws_memcpy_dtoh src=0x[0-9a-f]+ n=4096$'
    expect '^frame_end 1 '
    [ "$(count '^allocation 0x[0-9a-f]+ size=4096 bytes=4096$')" = 2 ] || fail "2 allocations in the initial state"
    ;;
key)
    "$ws" capture -o "$work/k.wscap" --frames key -- "$1" key 1 4 > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "capture failed"; }
    run_decode "$work/k.wscap"
    expect '^frame_begin 2 reason=2$'
    expect '^call 1 ws_memset dst=0x[0-9a-f]+ value=2 n=2048$'
    [ "$(count '^frame_begin ')" = 1 ] || fail "one frame"
    # no SIGUSR1 at all: said, with how to send one (it said "did not
    # reach the chosen frames (--frames key)")
    out=$("$ws" capture -o "$work/n.wscap" --frames key -- "$1" ok 2 2>&1); rc=$?
    [ $rc = 1 ] && grep -q "nothing captured: $1 got no SIGUSR1 (--frames key captures the frame after one: kill -USR1 PID" <<< "$out" &&
      [ ! -e "$work/n.wscap" ] || fail "--frames key without a SIGUSR1: rc $rc: $out"
    ;;
key_to_command)
    # the SIGUSR1 of --frames key sent to the command (the PID a shell's $!
    # gives) is passed on to the program (before 2026-11-27 it killed the
    # command and the capture was lost)
    "$ws" capture -o "$work/k.wscap" --frames key -- "$1" slow-after 1 300 > "$work/out.txt" 2>&1 &
    cmd=$!
    for _ in $(seq 100); do grep -q "frame 1 done" "$work/out.txt" && break; sleep 0.1; done
    kill -USR1 $cmd
    wait $cmd; rc=$?
    [ $rc = 0 ] || { cat "$work/out.txt"; fail "capture ended with status $rc"; }
    grep -q "^captured frame [0-9]*: 4 calls" "$work/out.txt" || { cat "$work/out.txt"; fail "no frame captured"; }
    run_decode "$work/k.wscap"
    expect '^frame_begin ([2-9]|[1-9][0-9]+) reason=2$'
    [ "$(count '^frame_begin ')" = 1 ] || fail "one frame"
    ;;
bad_use)
    out=$("$ws" capture 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "no program to run" <<< "$out" || fail "no program: rc $rc: $out"
    out=$("$ws" capture --frames 5-2 -- "$1" ok 1 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "frames '5-2': expected N, A-B" <<< "$out" || fail "bad frames: rc $rc: $out"
    out=$("$ws" capture --frames lots -- "$1" ok 1 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "frames 'lots'" <<< "$out" || fail "bad frames: rc $rc: $out"
    out=$("$ws" capture --bogus -- "$1" ok 1 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "unknown option '--bogus'" <<< "$out" || fail "bad option: rc $rc: $out"
    out=$("$ws" capture -o "$work/x.wscap" -- /nonexistent/program 2>&1); rc=$?
    [ $rc = 127 ] && grep -q "cannot run '/nonexistent/program'" <<< "$out" || fail "missing program: rc $rc: $out"
    # an output directory that does not exist: refused before the program
    # runs (the shim abandoned the capture, then "did not reach the chosen
    # frames" was said of a frame that was reached)
    out=$("$ws" capture -o "$work/no/such/dir/x.wscap" -- "$1" ok 1 2>&1); rc=$?
    [ $rc = 2 ] && grep -q "x.wscap: cannot write the capture in $work/no/such/dir: No such file" <<< "$out" &&
      ! grep -q "shim_program: 1 frames" <<< "$out" || fail "missing output directory: rc $rc: $out"
    out=$(cd "$work" && "$ws" capture --frames 7 -- "$1" ok 2 2>&1); rc=$?
    [ $rc = 1 ] && grep -q "nothing captured" <<< "$out" || fail "frame never reached: rc $rc: $out"
    [ -e "$work/shim_program.wscap" ] && fail "a file for a frame never reached"
    # a bad WARPSCOPE_CAPTURE given directly: said once, the program unaffected
    out=$(WARPSCOPE_CAPTURE="frames=x" LD_PRELOAD=/proc/self/fd/9 "$1" ok 1 2>&1 9< "$SHIM"); rc=$?
    [ $rc = 0 ] && grep -q "WARPSCOPE_CAPTURE: frames 'x'" <<< "$out" || fail "bad WARPSCOPE_CAPTURE: rc $rc: $out"
    ;;
static_program)
    # linked with the static library: nothing reaches the shim, which the
    # command says, for every --frames (it said "did not reach the chosen
    # frames", and the user tried other frames); the shared build of the
    # same program, whose frames are never reached, still says that
    for frames in 0 all launches=0-0; do
        out=$("$ws" capture -o "$work/s.wscap" --frames "$frames" -- "$1" ok 1 2>&1); rc=$?
        [ $rc = 1 ] && grep -q "nothing captured: $1 opened no device through libwarpscope.so (a program linked with the static library cannot be captured" <<< "$out" &&
          ! grep -q "did not reach" <<< "$out" || fail "static program, --frames $frames: rc $rc: $out"
    done
    [ -e "$work/s.wscap" ] && fail "a file for a static program"
    out=$("$ws" capture -o "$work/s.wscap" --frames 7 -- "$2" ok 2 2>&1); rc=$?
    [ $rc = 1 ] && grep -q "nothing captured: $2 did not reach the chosen frames (--frames 7)" <<< "$out" ||
      fail "shared program, a frame never reached: rc $rc: $out"
    out=$("$ws" capture -o "$work/s.wscap" --frames 0 -- "$2" ok 1 2>&1); rc=$?
    [ $rc = 0 ] && [ -s "$work/s.wscap" ] || fail "shared program, frame 0: rc $rc: $out"
    ;;
*) fail "unknown check $check" ;;
esac
echo "PASS: $check"
