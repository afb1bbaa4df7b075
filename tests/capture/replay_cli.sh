#!/bin/bash
# warpscope replay's command line on a captured cube frame: --list,
# --dump-after (PNG + buffers), --pixel (a back-face-culled cube shows
# only front faces), --element, --html, and each refusal with its message
# (among them the combinations of options that would leave one unused).
#   usage: replay_cli.sh WARPSCOPE WORKDIR CUBE
set -uo pipefail
ws=$1 work=$2 cube=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
cd "$work" || exit 1
fails=0 passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() { # expect PATTERN FILE
    if grep -qE -e "$1" "$2"; then ok; else bad "expected /$1/ in $2:"; cat "$2"; fi
}
"$ws" capture -o cube.wscap --frames 2 -- "$cube" 3 > capture.out 2>&1 || bad "capture"
"$ws" replay --list cube.wscap > list.txt || bad "--list"
expect '^ +2  ws_gfx_draw_indexed\(36 indices' list.txt
expect '^4 calls$' list.txt
rm -rf dump
"$ws" replay --dump-after 2 --out dump cube.wscap > dump.txt || bad "--dump-after"
# the PNG is named by the target's capture id, the one --list shows (it
# was named by its place in the dump: target0 for --list's "target 5")
tid=$(sed -n 's/.*ws_gfx_present(target \([0-9]*\).*/\1/p' list.txt)
[ -n "$tid" ] && [ "$tid" != 0 ] && ok || bad "no target id in --list"
expect "wrote dump/call2-target$tid.png \\(640x480\\)" dump.txt
[ -s "dump/call2-target$tid.png" ] && ok || bad "no PNG named by the target's capture id"
ls dump/call2-buffer-0x*.bin > /dev/null 2>&1 && ok || bad "no buffer dumped"
# the depth image too (it was not dumped): exact floats, and a PNG to look at
expect "wrote dump/call2-target$tid-depth.bin \\(640x480 floats\\)" dump.txt
expect "wrote dump/call2-target$tid-depth.png \\(640x480\\)" dump.txt
"$ws" replay --pixel 320,240 cube.wscap > pixel_depth.txt || bad "--pixel for the depth"
want=$(sed -n 's/^frame end: .*depth \([0-9.e+-]*\)$/\1/p' pixel_depth.txt)
got=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); print(len(d), "%.9g" % struct.unpack_from("<f", d, (240*640+320)*4)[0])' "dump/call2-target$tid-depth.bin" 2>&1)
[ -n "$want" ] && [ "$got" = "1228800 $want" ] && ok || bad "depth dump at (320,240): '$got', the pixel history says '$want'"
[ -s "dump/call2-target$tid-depth.png" ] && ok || bad "no depth PNG"
# the texture the fragment shader samples, every mipmap level (textures
# were not dumped): its texels are the example's checkerboard (border
# orange, cell (1,1) coloured, cell (1,2) light grey), levels halve to 1x1
expect '^wrote dump/call2-texture[0-9]+\.png \(256x256\)$' dump.txt
expect '^wrote dump/call2-texture[0-9]+-level8\.png \(1x1\)$' dump.txt
[ "$(grep -c 'call2-texture[0-9]*-level[1-8]\.png' dump.txt)" = 8 ] && ok || bad "not 8 mipmap levels dumped"
tex=$(ls dump/call2-texture*.png 2>/dev/null | grep -v level | head -1)
got=$(python3 "$here/png_texel.py" "$tex" 0,0 40,40 40,72 2>&1 | tr '\n' ';')
[ "$got" = "255 128 0 255;68 68 200 255;230 230 230 255;" ] && ok || bad "texture texels in $tex: '$got'"
# before any target or buffer exists: said, not silent
"$ws" replay --dump-after 0 --out dump0 cube.wscap > dump0.txt || bad "--dump-after 0"
expect '^wrote dump0/call0-target' dump0.txt
"$ws" capture -o all.wscap --frames all -- "$cube" 1 > capture_all.out 2>&1 || bad "capture --frames all"
"$ws" replay --dump-after 0 --out dump_all all.wscap > dump_all.txt || bad "--dump-after 0 of a whole run"
"$ws" replay --list all.wscap > list_all.txt || bad "--list of a whole run"
# a call on an object names its kind, as the call that made it does (the
# mipmap generation and the destroys said a bare "(6)")
texid=$(sed -n 's/.*ws_gfx_texture_create(.*) = texture \([0-9]*\)$/\1/p' list_all.txt)
expect "ws_gfx_texture_generate_mips\\(texture $texid\\)\$" list_all.txt
expect 'ws_gfx_(target|texture|pipeline)_destroy\((target|texture|pipeline) [0-9]+\)$' list_all.txt
expect '^nothing to dump after call 0: no render target, texture or buffer exists there$' dump_all.txt
"$ws" replay --pixel 320,240 cube.wscap > pixel.txt || bad "--pixel"
expect '^pixel \(320,240\) of render target 5 \(640x480\)' pixel.txt
expect 'primitive [0-9]+ \(front\)' pixel.txt
if grep -q '(back)' pixel.txt; then bad "a culled back face in the pixel history"; else ok; fi
buf=$(ls dump/call2-buffer-0x*.bin | head -1 | sed 's/.*buffer-\(0x[0-9a-f]*\).bin/\1/')
"$ws" replay --element "$buf:4" cube.wscap > element.txt || bad "--element"
expect "$buf" element.txt
# the size is decimal: 010 is ten bytes (it was read as octal 8)
"$ws" replay --element "$buf:010" cube.wscap > element10.txt || bad "--element :010"
expect ", 10 bytes" element10.txt
rm -rf report
"$ws" replay --html report --pixel 320,240 cube.wscap > html.txt || bad "--html"
[ -s report/index.html ] && ok || bad "no report"
expect 'data:image/png;base64,' report/index.html
expect 'ws_gfx_draw_indexed' report/index.html
# the texture the shader samples, as the frame leaves it (the report had
# render targets only)
expect '<section id="textures">' report/index.html
expect 'alt="texture [0-9]+, level 0"></div><h3>Texture [0-9]+</h3><p>256x256, 9 levels' report/index.html
# refusals
"$ws" replay --loop 0 cube.wscap > e1.txt 2>&1; [ $? -eq 2 ] && ok || bad "--loop 0 accepted"
expect "loop '0': expected a whole number 1\.\.1000000" e1.txt
# a leading zero is not octal (it was: --loop 010 ran 8 passes, --dump-after 010 dumped after call 8)
"$ws" replay --loop 010 cube.wscap > e7.txt 2>&1 || bad "--loop 010"
expect '^10 passes of 4 calls' e7.txt
# exit status: 2 when the command line alone is wrong, 1 when the capture
# has no such thing (--dump-after 99 and a pixel outside the target were 2)
"$ws" replay --dump-after 99 cube.wscap > e2.txt 2>&1; [ $? -eq 1 ] && ok || bad "--dump-after 99: not status 1"
expect 'calls 0\.\.3' e2.txt
"$ws" replay --pixel 5000,1 cube.wscap > e3.txt 2>&1; [ $? -eq 1 ] && ok || bad "a pixel outside the target: not status 1"
expect 'cube\.wscap: pixel history: pixel \(5000,1\) is outside the 640x480 render target' e3.txt
"$ws" replay --pixel 5,x cube.wscap > e8.txt 2>&1; [ $? -eq 2 ] && ok || bad "--pixel 5,x: not status 2"
expect '--pixel: Y "x" in "5,x" is not a whole number' e8.txt
# a wrong format is named as such, not as a value too large ("expected X,Y
# with each below 8192" for both)
"$ws" replay --pixel 1,2,3 cube.wscap > e10.txt 2>&1; [ $? -eq 2 ] && ok || bad "--pixel 1,2,3: not status 2"
expect '--pixel: expected X,Y, two numbers, got 3 in "1,2,3"' e10.txt
"$ws" replay --pixel 3,4x cube.wscap > e11.txt 2>&1; [ $? -eq 2 ] && ok || bad "--pixel 3,4x: not status 2"
expect '--pixel: Y "4x" in "3,4x" is not a whole number' e11.txt
"$ws" replay --pixel 9000,4 cube.wscap > e12.txt 2>&1; [ $? -eq 2 ] && ok || bad "--pixel 9000,4: not status 2"
expect '--pixel: X 9000 in "9000,4" is not below 8192' e12.txt
"$ws" replay --element 0x10:0 cube.wscap > e9.txt 2>&1; [ $? -eq 2 ] && ok || bad "--element 0x10:0: not status 2"
"$ws" replay missing.wscap > e4.txt 2>&1; [ $? -eq 1 ] && ok || bad "a missing file"
expect 'missing.wscap' e4.txt
head -c 1000 cube.wscap > cut.wscap
"$ws" replay cut.wscap > e5.txt 2>&1; [ $? -eq 1 ] && ok || bad "a truncated capture"
expect 'cut.wscap' e5.txt
"$ws" replay --bogus cube.wscap > e6.txt 2>&1; [ $? -eq 2 ] && ok || bad "an unknown option"
# a value written with a space takes the capture's place, and an option
# whose value is missing takes the capture: said which (it was "unknown or
# incomplete option 'cube.wscap'", and the usage alone)
"$ws" replay --pixel 320 240 cube.wscap > e10.txt 2>&1; [ $? -eq 2 ] && ok || bad "--pixel 320 240: not status 2"
expect "^warpscope replay: '240' and 'cube.wscap': two CAPTUREs given; replay takes one" e10.txt
"$ws" replay --pixel 320,240 --json cube.wscap > e11.txt 2>&1; [ $? -eq 2 ] && ok || bad "--json CAPTURE: not status 2"
expect "^warpscope replay: no CAPTURE given \(--json took 'cube.wscap' as its value\)" e11.txt
[ ! -e cube.wscap.json ] && ok || bad "--json without its file wrote something"
# options that would go unused are refused, not ignored (--pixel with
# --mesh printed the pixel's history alone, --loop 3 with --pixel replayed
# once, --out without --dump-after wrote nothing anywhere)
refuse() { # refuse PATTERN OPTION...
    local pat=$1; shift
    "$ws" replay "$@" cube.wscap > refused.txt 2>&1; local rc=$?
    if [ $rc -eq 2 ] && grep -qE "$pat" refused.txt && ! grep -q '^pixel\|^mesh\|^pass\|^wrote\|^ *0  ws_' refused.txt; then ok
    else bad "replay $* (exit $rc):"; cat refused.txt; fi
}
rm -rf dump2 report2
refuse '^warpscope replay: --pixel and --mesh cannot be combined' --pixel 320,240 --mesh 2
refuse '^warpscope replay: --list and --dump-after cannot be combined' --list --dump-after 2
refuse '^warpscope replay: --debug and --element cannot be combined' --debug --element 0x1000
refuse '^warpscope replay: --loop cannot be combined with --pixel' --loop 3 --pixel 320,240
refuse '^warpscope replay: --no-restore cannot be combined with --html' --no-restore --html report2
refuse '^warpscope replay: --out is where --dump-after writes' --out dump2 --pixel 320,240
[ ! -e dump2 ] && [ ! -e report2 ] && ok || bad "a refused command wrote something"
# --help names every setting --debug takes (connect-timeout was missing)
"$ws" replay --debug=bogus=1 cube.wscap > spec.txt 2>&1
keys=$(grep -o 'expected .*' spec.txt | grep -oE '[a-z-]+=')
[ -n "$keys" ] && ok || bad "no settings listed: $(cat spec.txt)"
help=$("$ws" replay --help)
for k in $keys; do [[ "$help" == *"$k"* ]] && ok || bad "replay --help lacks --debug's $k"; done
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
